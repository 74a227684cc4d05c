"""The rating database's connection: recognised before anything is changed, read-only for
commands that only read, one locked, journaled transaction for those that write.

* ``check_file``/``check_tables``: a file that is not one of our databases is refused
  unchanged, before SQLite opens it for writing.
* ``Connection.writing()``: the command's one transaction. It waits a bounded time for the
  write lock (naming the command that holds it), records in the undo journal what the
  command changes (``journal.py``), and commits only when the block ends without error; a
  failure rolls everything back and removes the published files the command had kept.
* Read-only commands open the database for reading and writing but with ``query_only``: SQLite
  refuses any change, and the last connection to close removes the ``-wal`` and ``-shm``
  files as usual (a read-only open would leave them behind).

Opening, creating and upgrading are ``opening.py``'s; every SQLite error is reported as
``DatabaseProblem`` naming the file: the machine's refusals (full disk, busy, read-only,
permissions) as that, and only a file SQLite finds damaged as damaged (``Damaged``).
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import quote

from rating_batch.errors import RatingBatchError
from rating_batch.store.files import FileStore, kept_name
from rating_batch.store.journal import Recording, has_journal
from rating_batch.store.places import Places, remove_stale_beside
from rating_batch.store.schema import APPLICATION_ID, SCHEMA_VERSION
from rating_batch.store.writer import Busy, holder_of, nested, one_writer, owner_text

if TYPE_CHECKING:
    import pandas as pd


SQLITE_HEADER = b"SQLite format 3\x00"

#: How long a command waits for another one's write lock before giving up (seconds).
DEFAULT_WAIT = 30.0


class DatabaseProblem(RatingBatchError):
    """The database cannot be used: missing, foreign, damaged, busy, or the disk is full."""


class Damaged(DatabaseProblem):
    """SQLite found the file damaged (not the machine refusing it)."""


#: SQLite's result codes of a damaged file.
_DAMAGE_CODES = (11, 26)  # SQLITE_CORRUPT, SQLITE_NOTADB


def _fail(path: Path, message: str) -> DatabaseProblem:
    return DatabaseProblem(f"{path}: {message}")


#: The schema version from which our databases carry APPLICATION_ID.
MARKED_SINCE = 2


def check_file(path: Path) -> bool:
    """Whether ``path`` is one of our databases, from its first 100 bytes (never opened by
    SQLite when it is not an SQLite file). True: ours; False: an SQLite file without our
    application id (a version-1 database of ours, or a foreign one: ``check_tables`` tells).
    """
    if not path.exists():
        # Most often the command ran in another folder than the database's: say where it
        # looked and how to name the database, before suggesting a new one.
        raise _fail(
            path, f"no rating database at {path.absolute()}; give its path with --db PATH "
            "(or set $RATING_BATCH_DB), or create one there with 'rating-batch init --list "
            "FILE'"
        )  # fmt: skip
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
        unwritable = unwritable_why(path)
        if unwritable is not None and ("read" in text or "unable to open" in text):
            raise _fail(
                path, f"cannot write: {unwritable}; commands that only read it (player, "
                "export-list, backups) work there; nothing was changed"
            ) from None  # fmt: skip
        if "readonly" in text or "read-only" in text:
            raise _fail(path, f"cannot write: {text} (a read-only file or folder?)") from None
        if "unable to open" in text:
            raise _fail(
                path, f"cannot be opened: {text} (a folder that cannot be written, or a full "
                "disk?); nothing was changed"
            ) from None  # fmt: skip
        raise _fail(path, f"cannot be used: {text}") from None
    except sqlite3.IntegrityError as error:
        raise _fail(
            path, f"the database refused the change ({error}); nothing was changed"
        ) from None
    except sqlite3.DatabaseError as error:
        if getattr(error, "sqlite_errorcode", None) in _DAMAGE_CODES:
            raise Damaged(
                f"{path}: the database is damaged ({error}); 'rating-batch backups' lists the "
                "whole copies that 'rating-batch restore' can put back"
            ) from None
        raise _fail(path, f"cannot be used: {error}") from None


def unwritable_why(path: Path) -> str | None:
    """Why the database file or its folder cannot be written, when the machine says so (a
    read-only disk or share, or no permission), else None."""
    for place, what in ((path, "it is"), (path.parent, f"its folder {path.parent} is")):
        try:
            # Unix only: Windows marks a read-only disk in the file's attributes (os.access).
            if hasattr(os, "statvfs") and os.statvfs(place).f_flag & os.ST_RDONLY:
                return f"{what} on a read-only disk or share"
        except OSError:
            continue
        if not os.access(place, os.W_OK):
            return f"{what} read-only (no permission to write)"
    return None


def environment_reason(error: BaseException) -> str:
    """What the machine said, for a message."""
    if isinstance(error, OSError) and error.strerror:
        return error.strerror
    return str(error)


def read_only_uri(path: Path) -> str:
    """The URI that opens ``path`` read-only (with ``sqlite3.connect(..., uri=True)``)."""
    return f"file:{quote(str(path.absolute()))}?mode=ro"


def connect(path: Path, *, read_only: bool, wait: float) -> sqlite3.Connection:
    """A connection to the database file ``path`` (the real file)."""
    if read_only:
        try:
            connection = sqlite3.connect(
                f"file:{quote(str(path.absolute()))}?mode=rw", uri=True, timeout=wait,
                isolation_level=None,
            )  # fmt: skip
            connection.execute("PRAGMA query_only = ON")
            connection.execute("SELECT 1 FROM sqlite_master LIMIT 1").fetchall()
        except sqlite3.OperationalError:
            connection = _read_only(path, wait)
    else:
        connection = sqlite3.connect(path, timeout=wait, isolation_level=None)
    connection.execute("PRAGMA foreign_keys = ON")
    # A REPLACE that deletes a row runs the delete triggers too (the journal records it).
    connection.execute("PRAGMA recursive_triggers = ON")
    return connection


def _read_only(path: Path, wait: float) -> sqlite3.Connection:
    """A database that cannot be opened for writing (a read-only file or medium)."""
    uri = read_only_uri(path)
    try:
        connection = sqlite3.connect(uri, uri=True, timeout=wait, isolation_level=None)
        connection.execute("SELECT 1 FROM sqlite_master LIMIT 1").fetchall()
    except sqlite3.OperationalError:
        if os.access(path.parent, os.W_OK):
            raise
        # A WAL database in a folder we cannot write: SQLite cannot make its shared-memory
        # file, and nobody can be writing there either.
        connection = sqlite3.connect(
            f"{uri}&immutable=1", uri=True, timeout=wait, isolation_level=None
        )
    return connection


class Connection:
    """An open database and what a writing command needs: who it is, how long to wait,
    where its companions lie, and the undo point its change made."""

    def __init__(
        self, connection: sqlite3.Connection, places: Places, *, command: str, wait: float,
        read_only: bool,
    ) -> None:  # fmt: skip
        self.connection = connection
        self.places = places
        self.path = places.db
        self.command = command
        self.wait = wait
        self.read_only = read_only
        self.files = FileStore(places.files, places.spare, os.getpid())
        self._changes_at_begin = connection.total_changes
        self.undo_point: int | None = None
        """The journal's entry for the change ``writing()`` committed (None: it changed
        nothing)."""
        self.migrated_from: int | None = None
        """The schema version this database had before it was upgraded on opening."""
        self.upgrade_copy: Path | None = None
        """The whole copy of the state before that upgrade."""
        self.recording: Recording | None = None
        """The undo journal of the change ``writing()`` has under way (None: none)."""
        self.after_commit: list[Callable[[], None]] = []
        """Run once a command's change is committed (a whole copy the officer asked for)."""
        self.notes: list[str] = []
        """What the officer should know of the database's own work (a copy taken)."""
        self.forgetting: str | None = None
        """The commands the journal forgot at this change's commit, said once committed."""

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
    def writing(self, *, dry_run: bool = False, record: bool = True) -> Iterator[None]:
        """The command's one transaction. Takes the writers' lock and SQLite's write lock
        (waiting at most ``wait`` seconds for each), records what the command changes in the
        undo journal (unless ``record`` is off: the command records itself), and commits
        when the block ends; any exception, or ``dry_run``, rolls everything back (a dry run
        writes nothing at all, not even to the database's journal files: its changes stay in
        memory)."""
        if self.read_only:
            raise RuntimeError("writing on a read-only connection")
        with self._one_writer(dry_run), self._transaction(dry_run, record):
            yield

    @contextlib.contextmanager
    def _one_writer(self, dry_run: bool) -> Iterator[None]:
        """The writers' lock (``writer.one_writer``)."""
        stack = contextlib.ExitStack()
        try:
            stack.enter_context(one_writer(self.places.real, None, self.command, self.wait))
        except Busy as busy:
            raise self._busy(busy.holder) from None
        with stack:
            yield

    def _busy(self, holder: str) -> DatabaseProblem:
        return _fail(
            self.path,
            f"the database is busy: {holder} is writing to it; waited {self.wait:g} s "
            "(--wait SECONDS, or $RATING_BATCH_WAIT, waits longer)",
        )

    @contextlib.contextmanager
    def _transaction(self, dry_run: bool, record: bool) -> Iterator[None]:
        if dry_run:
            self.execute("PRAGMA cache_spill = OFF")
        self._begin()
        recording: Recording | None = None
        # Who writes, said once SQLite's lock is ours too (a writer nested in a month run
        # leaves the run's word).
        owner = None if dry_run or nested(self.places.real) else self.places.owner
        try:
            if owner is not None:
                with contextlib.suppress(OSError):
                    owner.write_text(owner_text(self.command), encoding="utf-8")
            if not dry_run:
                self.files.sweep(self._kept_names)
                remove_stale_beside(self.places.real.parent)
                if record and has_journal(self.connection):
                    recording = Recording(self.connection, self.command)
            self.recording = recording
            yield
            if dry_run:
                self.connection.execute("ROLLBACK")
            else:
                if recording is not None:
                    self.undo_point = recording.finish()
                    self.forgetting = recording.said()
                    recording = None
                self.connection.execute("COMMIT")
                self.files.forget_new()
                if self.forgetting is not None:
                    # Among what the command says of the database (its notes, beside its
                    # journal entry: the terminal, the month's log, the desk's page alike):
                    # those commands can no longer be undone.
                    self.notes.append(f"{self.path}: {self.forgetting}")
                    self.forgetting = None
        except BaseException:
            if recording is not None:
                with contextlib.suppress(sqlite3.Error):
                    recording.close()
            if self.connection.in_transaction:
                self.connection.execute("ROLLBACK")
            if not dry_run:
                self.files.discard_new()
            raise
        finally:
            self.recording = None
            if dry_run:
                self.execute("PRAGMA cache_spill = ON")
            if owner is not None:
                with contextlib.suppress(OSError):  # Windows: a waiter is reading it
                    owner.unlink(missing_ok=True)
        if not dry_run:
            for work in self.after_commit:
                work()

    def _kept_names(self) -> set[str]:
        """The names of every published file the database names (``files.kept_name``)."""
        return {
            kept_name(str(digest), bool(compressed))
            for digest, compressed in self.execute(
                "SELECT DISTINCT digest, compressed FROM published_files"
            )
        }

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
            raise self._busy(holder_of(self.places.real)) from None
