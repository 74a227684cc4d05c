"""Opening the rating database: created atomically, recognised before anything is changed,
read-only for commands that only read, one locked transaction with a backup for those that
write.

* ``create_database(path)``: a new database is built in a temporary file beside ``path`` and
  linked into place only when complete; an existing ``path`` (a database, a list, anything)
  is refused untouched.
* ``open_database(path, write=False)``: read-only (``mode=ro``), no migration, no journal-mode
  change; a file that is not one of our databases is refused unchanged.
* ``open_database(path, write=True, command=…)``: migrates an older database (after a
  backup), and ``Store.writing()`` is the command's one transaction: it waits a bounded time
  for the write lock (naming the command that holds it), saves an online backup first
  (``backups.py``) and commits only when the block ends without error.

Every SQLite error inside is reported as ``DatabaseProblem`` naming the file.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import os
import socket
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar
from urllib.parse import quote

from rating_batch.errors import RatingBatchError
from rating_batch.store.schema import (
    APPLICATION_ID,
    MIGRATIONS,
    SCHEMA,
    SCHEMA_VERSION,
    run_script,
)

if TYPE_CHECKING:
    import pandas as pd

SQLITE_HEADER = b"SQLite format 3\x00"

#: How long a command waits for another one's write lock before giving up (seconds).
DEFAULT_WAIT = 30.0


class DatabaseProblem(RatingBatchError):
    """The database cannot be used: missing, foreign, damaged, busy, or the disk is full."""


def _fail(path: Path, message: str) -> DatabaseProblem:
    return DatabaseProblem(f"{path}: {message}")


def owner_file(path: Path) -> Path:
    """Where the command holding the write lock says who it is (read by one that waits)."""
    return Path(f"{path}.writer")


#: The schema version from which our databases carry APPLICATION_ID.
MARKED_SINCE = 2


def check_file(path: Path) -> bool:
    """Whether ``path`` is one of our databases, from its first 100 bytes (never opened by
    SQLite when it is not an SQLite file). True: ours; False: an SQLite file without our
    application id (a version-1 database of ours, or a foreign one: ``check_tables`` tells).
    """
    if not path.exists():
        raise _fail(
            path, "no rating database here; create one with 'rating-batch init --list FILE'"
        )
    if path.is_dir():
        raise _fail(path, "is a folder, not a rating database (give --db the database file)")
    try:
        with path.open("rb") as handle:
            header = handle.read(100)
    except OSError as error:
        raise _fail(path, f"cannot be read: {error.strerror}") from None
    if not header:
        raise _fail(path, "is an empty file, not a rating database; nothing was changed")
    if not header.startswith(SQLITE_HEADER) or len(header) < 100:
        raise _fail(path, "is not a rating database (not an SQLite file); nothing was changed")
    application = int.from_bytes(header[68:72], "big")
    if application not in (0, APPLICATION_ID):
        raise _fail(path, "is an SQLite database of another program; nothing was changed")
    return application == APPLICATION_ID


def check_tables(connection: sqlite3.Connection, path: Path) -> int:
    """The schema version of a database, after checking that it has our tables."""
    tables = {
        str(name)
        for (name,) in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
    }
    if not {"meta", "players", "lists", "ratings", "events"} <= tables:
        raise _fail(path, "is an SQLite database, but not a rating database; nothing was changed")
    row = connection.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
    if row is None:
        raise _fail(path, "is an SQLite database, but not a rating database; nothing was changed")
    version = int(row[0])
    if version > SCHEMA_VERSION:
        raise _fail(
            path, f"made by a newer rating_batch (schema {version}, this one reads up to "
            f"{SCHEMA_VERSION}); upgrade rating_batch"
        )  # fmt: skip
    return version


@contextlib.contextmanager
def reported(path: Path) -> Iterator[None]:
    """SQLite's errors as one-line messages naming the database."""
    try:
        yield
    except sqlite3.OperationalError as error:
        text = str(error)
        if "locked" in text or "busy" in text:
            raise _fail(path, f"the database is busy ({text}); try again") from None
        if "disk is full" in text or "disk I/O" in text:
            raise _fail(path, f"cannot write: {text}; nothing was changed") from None
        if "readonly" in text or "read-only" in text:
            raise _fail(path, f"cannot write: {text} (a read-only file or folder?)") from None
        raise _fail(path, f"cannot be used: {text}") from None
    except sqlite3.IntegrityError as error:
        raise _fail(
            path, f"the database refused the change ({error}); nothing was changed"
        ) from None
    except sqlite3.DatabaseError as error:
        raise _fail(
            path, f"the database is damaged or not a database ({error}); 'rating-batch backups' "
            "lists the backups that 'rating-batch restore' can put back"
        ) from None  # fmt: skip


def read_only_uri(path: Path) -> str:
    """The URI that opens ``path`` read-only (with ``sqlite3.connect(..., uri=True)``)."""
    return f"file:{quote(str(path.absolute()))}?mode=ro"


def _connect(path: Path, *, read_only: bool, wait: float) -> sqlite3.Connection:
    if read_only:
        uri = read_only_uri(path)
        try:
            connection = sqlite3.connect(uri, uri=True, timeout=wait, isolation_level=None)
            connection.execute("SELECT 1 FROM sqlite_master LIMIT 1").fetchall()
        except sqlite3.OperationalError:
            if os.access(path.parent, os.W_OK):
                raise
            # A WAL database in a folder we cannot write: SQLite cannot make its shared-
            # memory file, and nobody can be writing there either.
            connection = sqlite3.connect(
                f"{uri}&immutable=1", uri=True, timeout=wait, isolation_level=None
            )
    else:
        connection = sqlite3.connect(path, timeout=wait, isolation_level=None)
    connection.execute("PRAGMA foreign_keys = ON")
    return connection


class Connection:
    """An open database and what a writing command needs: who it is, how long to wait, and
    whether to keep a backup before its changes."""

    def __init__(
        self, connection: sqlite3.Connection, path: Path, *, command: str, wait: float,
        read_only: bool,
    ) -> None:  # fmt: skip
        self.connection = connection
        self.path = path
        self.command = command
        self.wait = wait
        self.read_only = read_only
        self._changes_at_begin = connection.total_changes
        self.backup: Path | None = None
        """The backup saved by ``writing()`` (None before, or without one)."""
        self.migrated_from: int | None = None
        """The schema version this database had before ``open_database`` upgraded it."""

    def execute(self, sql: str, parameters: tuple[object, ...] = ()) -> sqlite3.Cursor:
        return self.connection.execute(sql, parameters)

    def frame(self, sql: str, parameters: tuple[object, ...] = ()) -> pd.DataFrame:
        """A query's rows as a frame (as ``pandas.read_sql_query`` makes it, without its
        wrapping of SQLite's errors)."""
        cursor = self.connection.execute(sql, parameters)
        columns = [column[0] for column in cursor.description]
        import pandas as pd

        return pd.DataFrame.from_records(cursor.fetchall(), columns=columns, coerce_float=True)

    def table_frame(
        self, table: str, sql: str, parameters: tuple[object, ...] = ()
    ) -> pd.DataFrame:
        """The rows of ``sql``, whose columns are those of ``table`` (``SELECT t.* …``), as
        ``frame`` gives them, read a column at a time (``columnar.py``): for large results."""
        from rating_batch.store.columnar import declared_kinds, read_columns

        kinds = declared_kinds(self.connection, table)
        read = read_columns(self.connection, sql, parameters, kinds)
        return self.frame(sql, parameters) if read is None else read

    @contextlib.contextmanager
    def writing(self, *, backup: bool = True, dry_run: bool = False) -> Iterator[None]:
        """The command's one transaction. Takes the write lock (waiting at most ``wait``
        seconds), saves a backup of the state before it (unless ``dry_run``), and commits when
        the block ends; any exception, or ``dry_run``, rolls everything back."""
        from rating_batch.parallel import available
        from rating_batch.store.backups import PendingBackup, prune_backups, settle

        if self.read_only:
            raise RuntimeError("writing on a read-only connection")
        keep = backup and not dry_run
        wal = keep and self.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        beside = wal and available()
        settled = settle(self.connection) if beside else None
        self._begin()
        owner = owner_file(self.path)
        pending: PendingBackup | None = None
        try:
            if not dry_run:
                with contextlib.suppress(OSError):
                    owner.write_text(_owner_text(self.command), encoding="utf-8")
                if keep:
                    # Copied beside the command's work in WAL mode (store/backups.py): the
                    # copy sees the committed state, and the commit waits for it; when the
                    # database file alone holds that state, the file is copied.
                    now = int(self.execute("PRAGMA data_version").fetchone()[0])
                    pending = PendingBackup(
                        self.path, self.command, beside=beside,
                        settled=settled is not None and settled == now,
                    )  # fmt: skip
            yield
            if dry_run:
                self.connection.execute("ROLLBACK")
            else:
                if pending is not None:
                    self.backup = pending.finish()
                    pending = None
                self.connection.execute("COMMIT")
        except BaseException:
            if pending is not None:
                pending.cancel()
            if self.connection.in_transaction:
                self.connection.execute("ROLLBACK")
            # A command that changed nothing keeps no backup (it would push out a useful one).
            if self.backup is not None:
                self.backup.unlink(missing_ok=True)
                self.backup = None
            raise
        finally:
            if not dry_run:
                owner.unlink(missing_ok=True)
        if self.backup is not None:
            prune_backups(self.path)

    def unwritten(self) -> bool:
        """Whether this connection has changed nothing that others cannot see yet: a second
        connection reads what this one would."""
        return self.connection.total_changes == self._changes_at_begin

    def _begin(self) -> None:
        self._changes_at_begin = self.connection.total_changes
        try:
            self.connection.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as error:
            if "locked" not in str(error) and "busy" not in str(error):
                raise
            try:
                holder = owner_file(self.path).read_text(encoding="utf-8").strip()
            except OSError:
                holder = "another program"
            raise _fail(
                self.path,
                f"the database is busy: {holder} is writing to it; waited {self.wait:g} s "
                "(--wait SECONDS, or $RATING_BATCH_WAIT, waits longer)",
            ) from None


def _owner_text(command: str) -> str:
    now = dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M:%S UTC")
    return f"'rating-batch {command}' (pid {os.getpid()} on {socket.gethostname()}, since {now})"


C = TypeVar("C", bound=Connection)


@contextlib.contextmanager
def open_database(
    path: Path,
    factory: type[C],
    *,
    write: bool = False,
    command: str = "",
    wait: float = DEFAULT_WAIT,
) -> Iterator[C]:
    """Open our database at ``path`` (read-only unless ``write``); refuses anything else
    without changing it. A writing open brings an older schema up to date first (one
    transaction, after a backup); a read-only one asks for ``rating-batch upgrade``."""
    current = check_file(path)
    with reported(path):
        connection = _connect(path, read_only=not write, wait=wait)
        try:
            version = check_tables(connection, path)
            if current and version < MARKED_SINCE:
                raise _fail(path, f"has our mark but schema {version}: it is damaged")
            opened = factory(connection, path, command=command, wait=wait, read_only=not write)
            if version < SCHEMA_VERSION:
                if not write:
                    raise _fail(
                        path,
                        f"made by an older rating_batch (schema {version}); 'rating-batch "
                        f"upgrade --db {path}' brings it up to date (after a backup)",
                    )
                _migrate(opened, version)
                opened.migrated_from = version
            yield opened
        finally:
            connection.close()


def _migrate(opened: Connection, version: int) -> None:
    """Bring an older database up to date: one transaction, after a backup."""
    connection = opened.connection
    connection.execute("PRAGMA foreign_keys = OFF")
    try:
        with opened.writing():
            for step in range(version + 1, SCHEMA_VERSION + 1):
                MIGRATIONS[step](connection)
            problems = connection.execute("PRAGMA foreign_key_check").fetchall()
            if problems:
                raise _fail(opened.path, f"cannot be upgraded: broken references {problems[:3]}")
            connection.execute(
                "UPDATE meta SET value = ? WHERE key = 'schema_version'", (str(SCHEMA_VERSION),)
            )
            connection.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    finally:
        connection.execute("PRAGMA foreign_keys = ON")
    free, pages = (
        connection.execute(f"PRAGMA {name}").fetchone()[0]
        for name in ("freelist_count", "page_count")
    )
    if free > pages // 4:
        # The rebuilt tables left their old pages free: give them back, once (a failure,
        # a full disk, leaves the upgraded database as it is, only larger).
        with contextlib.suppress(sqlite3.Error):
            connection.execute("VACUUM")


def ensure_new(path: Path) -> None:
    """Refuse a path where anything exists (a database, a list, a folder): never touched."""
    if path.exists() or path.is_symlink():
        raise _fail(
            path,
            "already exists; init never replaces a file: give another --db path (the file "
            "was not changed)",
        )


@contextlib.contextmanager
def create_database(path: Path, factory: type[C]) -> Iterator[C]:
    """A new database at ``path``, made in a temporary file beside it and linked into place
    only when the block ends without error (so no half-made database is ever at ``path``).
    An existing ``path`` is refused, never touched."""
    ensure_new(path)
    folder = path.parent
    if not folder.is_dir():
        raise _fail(path, f"the folder {folder} does not exist")
    temporary = folder / f".{path.name}.init-{os.getpid()}.tmp"
    made = [Path(f"{temporary}{suffix}") for suffix in ("", "-wal", "-shm", "-journal")]
    try:
        with reported(path):
            connection = sqlite3.connect(temporary, isolation_level=None)
            try:
                connection.execute("PRAGMA journal_mode = WAL")
                connection.execute(f"PRAGMA application_id = {APPLICATION_ID}")
                connection.execute("PRAGMA foreign_keys = ON")
                opened = factory(
                    connection, path, command="init", wait=DEFAULT_WAIT, read_only=False
                )
                connection.execute("BEGIN IMMEDIATE")
                try:
                    run_script(connection, SCHEMA)
                    connection.execute(
                        "INSERT INTO meta (key, value) VALUES ('schema_version', ?)",
                        (str(SCHEMA_VERSION),),
                    )
                    yield opened
                except BaseException:
                    connection.execute("ROLLBACK")
                    raise
                connection.execute("COMMIT")
            finally:
                connection.close()
        _link(temporary, path)
    finally:
        for leftover in made:
            leftover.unlink(missing_ok=True)


def _link(temporary: Path, path: Path) -> None:
    """Put the finished file at ``path`` unless something appeared there meanwhile."""
    try:
        os.link(temporary, path)
    except FileExistsError:
        raise _fail(
            path, "appeared while the database was being made; it was not changed"
        ) from None
    except OSError:
        # A file system without hard links: the small window between check and rename.
        if path.exists():
            raise _fail(path, "appeared while the database was being made") from None
        os.replace(temporary, path)
