"""Whole copies of the rating database, in its backups folder.

The undo journal (``journal.py``) lives inside the database: it undoes commands, but it
cannot help when the file itself is damaged or lost (a failing disk, a deletion, a change
made outside rating_batch). A whole copy can. One is taken by ``rating-batch backup``, before
an upgrade, before a restore of a whole copy, and after the commands the officer chose
(``rating-batch backup --after publish``); each is an SQLite online backup (SQLite's backup
API: a consistent copy while others read, never a second name for the same file) saved as
``<backups>/<UTC time>-<label>.sqlite`` in rollback-journal mode, one self-contained file.
The published files it names have their second copies in ``<backups>/files/``.

Kept: the newest ``settings.copies_kept()`` ($RATING_BATCH_BACKUPS) within
``settings.backup_space()`` ($RATING_BATCH_BACKUP_SPACE: by default three times the
database's size), the newest always, and any the journal still needs; only files of the
copies' name pattern are ever removed from the folder.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import os
import re
import sqlite3
from dataclasses import dataclass
from pathlib import Path

from rating_batch.portable import replace
from rating_batch.settings import backup_space, copies_kept
from rating_batch.store.database import (
    DatabaseProblem,
    check_file,
    check_tables,
    environment_reason,
    read_only_uri,
    reported,
    unwritable_why,
)
from rating_batch.store.places import Places, remove_dead

#: The label of the copy taken before an upgrade. An upgrade starts the journal anew, so
#: no journal entry names that copy, yet it is the only way back to before the upgrade: the
#: newest is kept as a copy the journal names is (docs/undo.md §2).
BEFORE_UPGRADE = "before-upgrade"

#: The name of a whole copy (and of the backups versions before schema 8 saved).
COPY_NAME = re.compile(r"(\d{8}T\d{6}\.\d{6}Z)-([a-z0-9-]+)\.sqlite")


def _stamp() -> str:
    return dt.datetime.now(dt.UTC).strftime("%Y%m%dT%H%M%S.%fZ")


def _label(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:40] or "copy"


def take_copy(places: Places, label: str) -> Path:
    """A whole copy of the database as committed now (read by a connection of its own: a
    command holding the write lock takes it before changing anything). Any failure (a full
    disk, a read-only folder) is a DatabaseProblem and leaves no partial file."""
    folder = places.backups
    final = folder / f"{_stamp()}-{_label(label)}.sqlite"
    temporary = folder / f".{final.name}.{os.getpid()}.tmp"
    try:
        folder.mkdir(exist_ok=True)
        remove_stale(folder)
        copy_database(read_only_uri(places.real), temporary, "DELETE")
        with temporary.open("rb+") as handle:
            os.fsync(handle.fileno())
        replace(temporary, final)
    except (OSError, sqlite3.Error) as error:
        # A read-only disk or share is said as add and restore say it (SQLite's own words
        # there are "unable to open database file").
        unwritable = unwritable_why(folder)
        if unwritable is not None:
            raise DatabaseProblem(
                f"{places.db}: cannot save a whole copy in {folder}: {unwritable}; nothing was "
                "changed"
            ) from None
        raise DatabaseProblem(
            f"{places.db}: cannot save a whole copy in {folder} ({environment_reason(error)})"
        ) from None
    finally:
        for leftover in (temporary, Path(f"{temporary}-journal")):
            with contextlib.suppress(OSError):
                leftover.unlink(missing_ok=True)
    return final


def frozen_uri(copy: Path) -> str:
    """The URI that reads a whole copy as it is (no lock, no journal file made beside it)."""
    return read_only_uri(copy) + "&immutable=1"


def copy_database(source: str, target: Path, journal_mode: str) -> None:
    """SQLite's online backup of the database at URI ``source`` into the new file ``target``,
    left in ``journal_mode``."""
    reader = sqlite3.connect(source, uri=True)
    try:
        writer = sqlite3.connect(target)
        try:
            reader.backup(writer)
            writer.execute(f"PRAGMA journal_mode = {journal_mode}")
        finally:
            writer.close()
    finally:
        reader.close()


def remove_stale(folder: Path) -> None:
    """Copies left by a command that was killed while making one (their process is gone):
    never one of a command still running."""
    remove_dead(folder, r"\..+\.(\d+)\.tmp(-journal)?")


@dataclass(frozen=True)
class Copy:
    """One whole copy: its file, when it was taken and why, and what it holds."""

    path: Path
    taken: dt.datetime
    label: str
    size: int
    last_list: str
    events: int

    @property
    def name(self) -> str:
        return self.path.name


def list_copies(places: Places) -> list[Copy]:
    """The whole copies of the database, oldest first."""
    folder = places.backups
    if not folder.is_dir():
        return []
    found = []
    for path in sorted(folder.iterdir()):
        match = COPY_NAME.fullmatch(path.name)
        if match is None or not path.is_file():
            continue
        taken = dt.datetime.strptime(match[1], "%Y%m%dT%H%M%S.%fZ").replace(tzinfo=dt.UTC)
        last, events = _contents(path)
        found.append(Copy(path, taken, match[2], path.stat().st_size, last, events))
    return found


def _contents(path: Path) -> tuple[str, int]:
    try:
        connection = sqlite3.connect(frozen_uri(path), uri=True)
        try:
            last = connection.execute("SELECT MAX(period) FROM lists").fetchone()[0]
            events = connection.execute("SELECT COUNT(*) FROM events").fetchone()[0]
        finally:
            connection.close()
    except sqlite3.Error:
        return "unreadable", 0
    shown = "initial" if last in (None, "0000-00") else str(last)
    return shown, int(events)


def prune_copies(places: Places, needed: set[str]) -> list[Path]:
    """Remove the oldest whole copies beyond ``copies_kept()`` and ``backup_space()`` (never the
    newest, nor those ``needed`` by the journal, nor the newest taken before an upgrade); the
    removed ones."""
    kept = copies_kept()
    copies = list_copies(places)
    upgrades = [copy.name for copy in copies if copy.label == BEFORE_UPGRADE]
    needed = needed | set(upgrades[-1:])
    try:
        bound = backup_space(places.real.stat().st_size)
    except OSError:
        return []
    removed = []
    total = sum(copy.size for copy in copies)
    count = len(copies)
    for copy in copies[:-1]:
        over = count > kept or total > bound
        if not over:
            break
        if copy.name in needed:
            continue
        with contextlib.suppress(OSError):
            copy.path.unlink()
            removed.append(copy.path)
            total -= copy.size
            count -= 1
    return removed


def find_copy(places: Places, name: str) -> Path | None:
    """The whole copy of that name in the backups folder, named alone or by a path to it
    (None if there is none)."""
    given = Path(name)
    if COPY_NAME.fullmatch(given.name) is None:
        return None
    path = places.backups / given.name
    if given.name != name and (
        not given.is_file() or os.path.realpath(given.parent) != os.path.realpath(places.backups)
    ):
        return None
    return path if path.is_file() else None


def shown_label(label: str) -> str:
    """A copy's label as the officer reads it: the copies of versions before schema 8 were
    taken before the command they name."""
    if label == "backup" or label.startswith(("before-", "after-")):
        return label
    return f"before-{label}"


def check_copy(path: Path, database_id: str | None) -> int:
    """A whole copy to put back: one of our databases, whole, of a schema this version
    reads, and a copy of this database (the same ``database_id``; a copy made before schema 8
    has none and is taken from this database's own folder). Its schema version."""
    check_file(path)
    with reported(path):
        connection = sqlite3.connect(frozen_uri(path), uri=True)
        try:
            result = connection.execute("PRAGMA integrity_check").fetchone()[0]
            if result != "ok":
                raise DatabaseProblem(
                    f"{path}: not a complete rating database ({result}); not restored"
                )
            version = check_tables(connection, path)
            row = connection.execute("SELECT value FROM meta WHERE key = 'database_id'").fetchone()
        finally:
            connection.close()
    if row is not None and database_id is not None and str(row[0]) != database_id:
        raise DatabaseProblem(
            f"{path.name}: a copy of another database, not of this one; not restored"
        )
    return version
