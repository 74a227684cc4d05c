"""Opening, creating and upgrading the rating database.

* ``create_database(path)``: a new database is built in a temporary file beside ``path`` and
  linked into place only when complete; an existing ``path`` (a database, a list, anything)
  is refused untouched.
* ``open_database(path, write=False)``: read-only, no migration; a file that is not one of
  our databases is refused unchanged.
* ``open_database(path, write=True, command=…)``: brings an older database up to date (after
  a whole copy; a dry run refuses instead: it writes nothing), and after a committed change
  takes the whole copy the officer asked for (``rating-batch backup --after``).

``path`` is resolved to the real file first (``places.py``): one database, one place.
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
import sqlite3
import threading
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import NoReturn, TypeVar

from rating_batch.errors import InputError, RatingBatchError, describe_os_error
from rating_batch.portable import put_new
from rating_batch.settings import check as check_settings
from rating_batch.store.copies import BEFORE_UPGRADE, prune_copies, take_copy
from rating_batch.store.database import (
    DEFAULT_WAIT,
    MARKED_SINCE,
    Connection,
    DatabaseProblem,
    _fail,
    check_file,
    check_tables,
    connect,
    environment_reason,
    reported,
)
from rating_batch.store.journal import create_journal, points
from rating_batch.store.places import (
    BACKUPS_KEY,
    FILES_KEY,
    Places,
    keep_out_of_stores,
    places_of,
    remove_stale_beside,
)
from rating_batch.store.schema import (
    APPLICATION_ID,
    MIGRATIONS,
    SCHEMA,
    SCHEMA_VERSION,
    run_script,
)

C = TypeVar("C", bound=Connection)

log = logging.getLogger(__name__)

#: The ``meta`` key naming the commands after which a whole copy is taken.
COPIES_AFTER = "copies_after"

#: The ``meta`` keys a database keeps whatever state is put back into it (who it is, where
#: its companions lie, its form).
IDENTITY_KEYS = ("database_id", FILES_KEY, BACKUPS_KEY, "schema_version")


def _recorded(connection: sqlite3.Connection) -> dict[str, str]:
    return {
        str(key): str(value)
        for key, value in connection.execute(
            "SELECT key, value FROM meta WHERE key IN (?, ?)", (FILES_KEY, BACKUPS_KEY)
        )
    }


def keep_out_of_database(db: Path, out: Path, wait: float = 1.0) -> None:
    """Refuse an ``--out`` that is ``db`` or lies in its own folders (``keep_out_of_stores``),
    by the folder names the database records (a database renamed without its folders still
    names them), before a command that writes there reads or changes anything; a database
    not there yet, or not readable, by the names beside it (its command then says why)."""
    places = places_of(db)
    if places.real.is_file():
        with contextlib.suppress(sqlite3.Error, OSError):
            connection = connect(places.real, read_only=True, wait=wait)
            try:
                places = places_of(db, _recorded(connection))
            finally:
                connection.close()
    keep_out_of_stores(places, out)


@contextlib.contextmanager
def open_database(
    path: Path,
    factory: type[C],
    *,
    write: bool = False,
    command: str = "",
    wait: float = DEFAULT_WAIT,
    dry_run: bool = False,
) -> Iterator[C]:
    """Open our database at ``path`` (read-only unless ``write``); refuses anything else
    without changing it. A writing open brings an older schema up to date first (one
    transaction, after a whole copy); a read-only one, or a dry run, asks for
    ``rating-batch upgrade``. The settings of the environment are checked first: one that
    makes no sense is refused before anything is read or changed."""
    check_settings()
    current = check_file(path)
    places = places_of(path)
    with reported(path):
        connection = connect(places.real, read_only=not write, wait=wait)
        try:
            version = check_tables(connection, path)
            if current and version < MARKED_SINCE:
                raise _fail(path, f"has our mark but schema {version}: it is damaged")
            places = places_of(path, _recorded(connection))
            opened = factory(connection, places, command=command, wait=wait, read_only=not write)
            if version < SCHEMA_VERSION:
                if not write or dry_run:
                    raise _fail(
                        path,
                        f"made by an older rating_batch (schema {version}); 'rating-batch "
                        f"upgrade --db {path}' brings it up to date (after a whole copy)"
                        + ("; a dry run changes nothing, not even that" if dry_run else ""),
                    )
                _upgrading(opened, version)
            if write:
                opened.after_commit.append(lambda: _copy_after(opened))
            try:
                with reported(path):  # SQLite's errors said as ours first
                    yield opened
            except (RatingBatchError, OSError) as error:
                if opened.migrated_from is None or command.split(" ")[0] == "upgrade":
                    raise
                _failed_after_upgrade(opened, error)
        finally:
            connection.close()


def _failed_after_upgrade(opened: Connection, error: RatingBatchError | OSError) -> NoReturn:
    """A command that failed after the upgrade it did first: the upgrade stands (committed,
    with its whole copy), so "nothing was changed" would be untrue; say both. An InputError
    keeps its kind (callers pick its files apart) and the upgrade is said beside it."""
    doing = opened.command.split(" ")[0]
    copy = opened.upgrade_copy.name if opened.upgrade_copy is not None else "?"
    upgraded = (
        f"was upgraded from schema {opened.migrated_from} to {SCHEMA_VERSION} first (the "
        f"database before the upgrade is saved whole as {copy}: 'rating-batch restore {copy}' "
        "puts it back)"
    )
    if isinstance(error, InputError):
        log.warning(f"{opened.path}: {upgraded}; then '{doing}' refused its input")
        raise error
    text = describe_os_error(error) if isinstance(error, OSError) else str(error)
    text = re.sub(r"[;,] nothing was changed", "", text.removeprefix(f"{opened.path}: "))
    problem = type(error) if type(error) in (RatingBatchError, DatabaseProblem) else None
    raise (problem or DatabaseProblem)(
        f"{opened.path}: {upgraded}; then '{doing}' failed, changing nothing itself: {text}"
    ) from None


def _copy_after(opened: Connection) -> None:
    """The whole copy the officer asked for after this command (``backup --after``)."""
    row = opened.execute("SELECT value FROM meta WHERE key = ?", (COPIES_AFTER,)).fetchone()
    wanted = set(str(row[0]).split(",")) if row else set()
    name = opened.command.split(" ")[0]
    if opened.undo_point is None or not ({name, "every"} & wanted):
        return
    copy = take_copy(opened.places, f"after-{opened.command}")
    prune_copies(opened.places, needed_copies(opened.connection))
    opened.notes.append(f"a whole copy of the database is saved as {copy.name}")


def needed_copies(connection: sqlite3.Connection) -> set[str]:
    """The whole copies the journal needs (the state before a command it can undo)."""
    return {point.copy for point in points(connection) if point.copy is not None}


def _upgrading(opened: Connection, version: int) -> None:
    """``migrate``, its failure said to be the upgrade's: a writing command upgrades an older
    database before it does anything else, so the officer would not know otherwise."""
    try:
        with reported(opened.path):
            migrate(opened, version)
    except (RatingBatchError, OSError) as error:
        reason = str(error) if isinstance(error, RatingBatchError) else (
            f"{error.filename}: {environment_reason(error)}"
        )  # fmt: skip
        doing = opened.command.split(" ")[0]
        why = "" if doing == "upgrade" else f", which '{doing}' does first"
        raise _fail(
            opened.path,
            f"cannot be upgraded from schema {version} (an older rating_batch's) to "
            f"{SCHEMA_VERSION}{why}: {reason}",
        ) from None


def migrate(opened: Connection, version: int) -> None:
    """Bring an older database up to date: one transaction, after a whole copy of it (the
    journal starts anew: the commands before an upgrade are undone by that copy)."""
    connection = opened.connection
    connection.execute("PRAGMA foreign_keys = OFF")
    copy: Path | None = None
    try:
        with opened.writing(record=False):
            copy = take_copy(opened.places, BEFORE_UPGRADE)
            opened.upgrade_copy = copy
            upgrade_tables(connection, version, opened.places)
    except BaseException:
        if copy is not None:
            copy.unlink(missing_ok=True)
        raise
    finally:
        connection.execute("PRAGMA foreign_keys = ON")
    opened.migrated_from = version
    opened.notes.append(
        f"the database before the upgrade is saved whole as {copy.name} (kept until another "
        "upgrade saves a newer one)"
    )
    free, pages = (
        connection.execute(f"PRAGMA {name}").fetchone()[0]
        for name in ("freelist_count", "page_count")
    )
    if free > pages // 4:
        # The rebuilt tables left their old pages free: give them back, once (a failure,
        # a full disk, leaves the upgraded database as it is, only larger).
        with contextlib.suppress(sqlite3.Error):
            connection.execute("VACUUM")
    # The second copies of the published files made real copies (before schema 8 they were a
    # second name of the same file): done after the commit, and again by 'backup' if cut.
    names = connection.execute("SELECT DISTINCT digest, compressed FROM published_files")
    checked = opened.files.check_both(
        (str(digest), bool(compressed)) for digest, compressed in names
    )
    if checked.failed:  # the upgrade stands; the officer is told
        place, why = checked.failed[0]
        opened.notes.append(
            f"the second copies of the published files were not all made ({place} {why}): "
            "'rating-batch backup' makes them"
        )
    if checked.lost:
        opened.notes.append(
            f"{len(checked.lost)} published file(s) cannot be read from either of their two "
            "copies: 'rating-batch backup' names them"
        )


def upgrade_tables(connection: sqlite3.Connection, version: int, places: Places) -> None:
    """The schema steps from ``version`` to the current one, in the open transaction (foreign
    keys off), and a new journal for the tables as they now are."""
    for step in range(version + 1, SCHEMA_VERSION + 1):
        MIGRATIONS[step](connection, places)
    problems = connection.execute("PRAGMA foreign_key_check").fetchall()
    if problems:
        raise _fail(places.db, f"cannot be upgraded: broken references {problems[:3]}")
    connection.execute(
        "UPDATE meta SET value = ? WHERE key = 'schema_version'", (str(SCHEMA_VERSION),)
    )
    connection.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    create_journal(connection)


def ensure_new(path: Path) -> None:
    """Refuse a path where anything exists (a database, a list, a folder): never touched."""
    if path.exists() or path.is_symlink():
        raise _fail(
            path,
            "already exists; init never replaces a file: give another --db path (the file "
            "was not changed)",
        )


def identity_rows(places: Places) -> dict[str, str]:
    """What a new database records of itself: who it is and where its companions lie."""
    return {"database_id": uuid.uuid4().hex, **places.meta_rows()}


@contextlib.contextmanager
def create_database(path: Path, factory: type[C]) -> Iterator[C]:
    """A new database at ``path``, made in a temporary file beside it and linked into place
    only when the block ends without error (so no half-made database is ever at ``path``).
    An existing ``path`` is refused, never touched."""
    ensure_new(path)
    places = places_of(path)
    folder = places.real.parent
    if not folder.is_dir():
        raise _fail(path, f"the folder {path.parent} does not exist")
    remove_stale_beside(folder)
    # The process and the thread: two inits at once in one process (two requests to the
    # desk) must not share, nor remove, each other's file.
    temporary = folder / f".{places.real.name}.init-{os.getpid()}-{threading.get_ident()}.tmp"
    made = [Path(f"{temporary}{suffix}") for suffix in ("", "-wal", "-shm", "-journal")]
    try:
        with reported(path):
            connection = sqlite3.connect(temporary, isolation_level=None)
            try:
                connection.execute("PRAGMA journal_mode = WAL")
                connection.execute(f"PRAGMA application_id = {APPLICATION_ID}")
                connection.execute("PRAGMA foreign_keys = ON")
                opened = factory(
                    connection, places, command="init", wait=DEFAULT_WAIT, read_only=False
                )
                connection.execute("BEGIN IMMEDIATE")
                try:
                    run_script(connection, SCHEMA)
                    connection.executemany(
                        "INSERT INTO meta (key, value) VALUES (?, ?)",
                        [("schema_version", str(SCHEMA_VERSION)), *identity_rows(places).items()],
                    )
                    create_journal(connection)
                    yield opened
                except BaseException:
                    connection.execute("ROLLBACK")
                    raise
                connection.execute("COMMIT")
            finally:
                connection.close()
        _link(temporary, places.real, path)
    finally:
        for leftover in made:
            leftover.unlink(missing_ok=True)


def _link(temporary: Path, real: Path, path: Path) -> None:
    """Put the finished file at ``real`` unless something appeared there meanwhile."""
    if not put_new(temporary, real):
        raise _fail(path, "appeared while the database was being made; it was not changed")
