"""Backups of the rating database: saved before every command that writes, listed, restored.

A backup is an SQLite online backup (a consistent copy even while others read) saved as
``<db>.backups/<UTC time>-<command>.sqlite`` in rollback-journal mode, so each is one
self-contained file. It is copied by a process of its own while the command works
(``PendingBackup``): the command holds the write lock, WAL shows that reader the committed
state, and the command commits only once the copy is saved, so the copy is the state before
the command whatever it has written meanwhile. The newest ``BACKUPS_KEPT`` are kept; only
files of that name pattern are ever removed from the folder.

``restore`` puts a backup back in one transaction (after backing up the current state), so a
crash leaves the database as it was or as the backup; a database too damaged to be read is
moved into the backups folder first, never deleted.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import os
import re
import sqlite3
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from rating_batch.parallel import alive
from rating_batch.store.database import (
    DEFAULT_WAIT,
    Connection,
    DatabaseProblem,
    check_file,
    check_tables,
    open_database,
    read_only_uri,
    reported,
)

#: How many backups a database keeps ($RATING_BATCH_BACKUPS changes it).
BACKUPS_KEPT = 20

_NAME = re.compile(r"(\d{8}T\d{6}\.\d{6}Z)-([a-z0-9-]+)\.sqlite")


def backup_folder(db: Path) -> Path:
    return Path(f"{db}.backups")


def kept() -> int:
    try:
        return max(1, int(os.environ.get("RATING_BATCH_BACKUPS", BACKUPS_KEPT)))
    except ValueError:
        return BACKUPS_KEPT


def _stamp() -> str:
    return dt.datetime.now(dt.UTC).strftime("%Y%m%dT%H%M%S.%fZ")


def _label(command: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", command.lower()).strip("-")[:40] or "command"


def save_backup(db: Path, command: str) -> Path:
    """An online backup of ``db`` as it is committed now (``prune_backups`` removes the oldest
    once the command has committed). Any failure (disk full, read-only folder) is a
    DatabaseProblem and leaves no partial file: the command then changes nothing."""
    pending = PendingBackup(db, command, beside=False)
    return pending.finish()


#: The copy a backup's own process makes (the standard library only: it starts in a few
#: milliseconds): argv = source URI (read-only), target file, the target's journal mode.
_COPY = """
import sqlite3, sys
reader = sqlite3.connect(sys.argv[1], uri=True)
try:
    writer = sqlite3.connect(sys.argv[2])
    try:
        reader.backup(writer)
        writer.execute("PRAGMA journal_mode = " + sys.argv[3])
    finally:
        writer.close()
finally:
    reader.close()
"""

#: The same copy of a database file that holds the whole committed state (``settled``): the
#: file copied by the operating system (about twice as fast as page by page), then marked
#: as a rollback-journal database (header bytes 18 and 19: 1, where WAL has 2). argv =
#: source file, target file.
_COPY_FILE = """
import shutil, sys
shutil.copyfile(sys.argv[1], sys.argv[2])
with open(sys.argv[2], "r+b") as copy:
    copy.seek(18)
    copy.write(bytes([1, 1]))
"""


def settle(connection: sqlite3.Connection) -> int | None:
    """Before a writing command takes its lock: move the WAL's committed pages into the
    database file (a passive checkpoint, waiting for nobody). The database's change counter
    when that left the file holding every committed page, else None. If the counter is the
    same once the command holds the write lock, nobody has committed in between and nobody
    can until the command commits, so the file is the committed state while the command
    works (its own pages go to the WAL, never to the file, before it commits)."""
    try:
        version = int(connection.execute("PRAGMA data_version").fetchone()[0])
        busy, frames, copied = connection.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
    except sqlite3.Error:
        return None
    return version if busy == 0 and frames == copied else None


class PendingBackup:
    """A backup of ``db`` as committed when it starts, under way.

    With ``beside`` (the command holds the write lock, the database is in WAL mode and the
    machine has a second core), a process of its own copies the database while the command
    works: WAL gives that reader the committed state, whatever the command writes meanwhile,
    as long as the command does not commit before ``finish`` (which it never does: it
    commits only after the backup is saved); ``settled`` (``settle``): the database file
    itself holds that state, and is copied as a file. Otherwise the copy is made here, at
    once.
    ``finish`` waits and gives the saved file, or raises DatabaseProblem (nothing saved);
    ``cancel`` stops it and removes what it wrote."""

    def __init__(self, db: Path, command: str, *, beside: bool, settled: bool = False) -> None:
        self.db = db
        self.folder = backup_folder(db)
        self.final = self.folder / f"{_stamp()}-{_label(command)}.sqlite"
        self.temporary = self.folder / f".{self.final.name}.{os.getpid()}.tmp"
        self._process: subprocess.Popen[bytes] | None = None
        self._error: BaseException | None = None
        try:
            self.folder.mkdir(exist_ok=True)
            _remove_stale(self.folder)
            if beside:
                arguments = (
                    [_COPY_FILE, str(db), str(self.temporary)]
                    if settled
                    else [_COPY, read_only_uri(db), str(self.temporary), "DELETE"]
                )
                self._process = subprocess.Popen(
                    [sys.executable, "-I", "-c", *arguments],
                    stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                )  # fmt: skip
            else:
                _copy(db, self.temporary, "DELETE")
        except (OSError, sqlite3.Error) as error:
            self._error = error

    def finish(self) -> Path:
        try:
            if self._error is not None:
                raise self._error
            if self._process is not None:
                _, err = self._process.communicate()
                if self._process.returncode != 0:
                    lines = err.decode("utf-8", "replace").strip().splitlines()
                    raise OSError(0, lines[-1] if lines else "the copy stopped")
            os.replace(self.temporary, self.final)
        except (OSError, sqlite3.Error) as error:
            self.cancel()
            reason = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
            raise DatabaseProblem(
                f"{self.db}: cannot save the backup taken before every change ({self.folder}: "
                f"{reason}); nothing was changed"
            ) from None
        return self.final

    def cancel(self) -> None:
        if self._process is not None and self._process.poll() is None:
            self._process.kill()
            self._process.wait()
        for leftover in (self.temporary, Path(f"{self.temporary}-journal")):
            with contextlib.suppress(OSError):
                leftover.unlink(missing_ok=True)


def _remove_stale(folder: Path) -> None:
    """Copies left by a command that was killed while its backup was being made (their
    process is gone): never one of a command still running."""
    for path in folder.glob(".*.tmp*"):
        match = re.fullmatch(r"\..+\.(\d+)\.tmp(-journal)?", path.name)
        if match is None or alive(int(match[1])):
            continue
        with contextlib.suppress(OSError):
            path.unlink()


def _copy(source: Path, target: Path, journal_mode: str) -> None:
    """An online backup of ``source`` (read-only) into the new file ``target``."""
    reader = sqlite3.connect(read_only_uri(source), uri=True)
    try:
        writer = sqlite3.connect(target)
        try:
            reader.backup(writer)
            writer.execute(f"PRAGMA journal_mode = {journal_mode}")
        finally:
            writer.close()
    finally:
        reader.close()


def prune_backups(db: Path) -> None:
    """Remove the oldest of our backups beyond ``kept()`` (nothing else in the folder)."""
    folder = backup_folder(db)
    ours = sorted(path for path in folder.iterdir() if _NAME.fullmatch(path.name))
    for old in ours[: max(0, len(ours) - kept())]:
        for part in (old, *(Path(f"{old}{s}") for s in ("-wal", "-shm"))):
            with contextlib.suppress(OSError):
                part.unlink(missing_ok=True)


@dataclass(frozen=True)
class Backup:
    """One saved backup: its file, when and before which command it was taken, and what it
    holds (the last list and how many events)."""

    path: Path
    taken: dt.datetime
    command: str
    size: int
    last_list: str
    events: int

    def line(self) -> str:
        when = self.taken.strftime("%Y-%m-%d %H:%M:%S UTC")
        size = (
            f"{self.size / 1_000_000:.1f} MB"
            if self.size >= 100_000
            else f"{self.size / 1000:.0f} kB"
        )
        return (
            f"{self.path.name}  {when}  before {self.command:<20}  {size:>9}  "
            f"last list {self.last_list}, {self.events} event(s)"
        )


def list_backups(db: Path) -> list[Backup]:
    """The backups of ``db``, oldest first (the folder holds nothing else of ours)."""
    folder = backup_folder(db)
    if not folder.is_dir():
        return []
    found = []
    for path in sorted(folder.iterdir()):
        match = _NAME.fullmatch(path.name)
        if match is None:
            continue
        taken = dt.datetime.strptime(match[1], "%Y%m%dT%H%M%S.%fZ").replace(tzinfo=dt.UTC)
        last, events = _contents(path)
        found.append(Backup(path, taken, match[2], path.stat().st_size, last, events))
    return found


def _contents(path: Path) -> tuple[str, int]:
    try:
        connection = sqlite3.connect(read_only_uri(path), uri=True)
        try:
            last = connection.execute("SELECT MAX(period) FROM lists").fetchone()[0]
            events = connection.execute("SELECT COUNT(*) FROM events").fetchone()[0]
        finally:
            connection.close()
    except sqlite3.Error:
        return "unreadable", 0
    shown = "initial" if last in (None, "0000-00") else str(last)
    return shown, int(events)


#: The name ``restore`` takes for the newest backup: the state before the last command that
#: changed the database (restoring it undoes that command).
LATEST = "latest"


def find_backup(db: Path, name: str) -> Path:
    """A backup by its name in the backups folder (or a path to one); ``latest`` is the
    newest."""
    if name == LATEST:
        saved = list_backups(db)
        if not saved:
            raise DatabaseProblem(
                f"no backups of {db} yet (one is saved before every command that writes)"
            )
        return saved[-1].path
    candidates = [backup_folder(db) / name, Path(name)]
    for candidate in candidates:
        if candidate.is_file():
            return candidate
    known = [b.path.name for b in list_backups(db)]
    raise DatabaseProblem(
        f"no backup {name!r} in {backup_folder(db)}"
        + (f" (the newest: {known[-1]}; 'rating-batch backups' lists them all)" if known else "")
    )


def restore_backup(db: Path, name: str, *, wait: float = DEFAULT_WAIT) -> list[str]:
    """Put backup ``name`` back as ``db``; what was done, as lines for the officer."""
    source = find_backup(db, name)
    _check_backup(source)
    if not db.exists():
        _place_copy(source, db)
        return [f"restored {db} from {source.name} (there was no database at {db})"]
    try:
        check_file(db)
        damaged = not _readable(db)
    except DatabaseProblem as problem:
        if "damaged" not in str(problem):
            raise
        damaged = True
    if damaged:
        aside = _move_aside(db)
        _place_copy(source, db)
        return [
            f"{db} could not be read: moved to {aside}",
            f"restored {db} from {source.name}",
        ]
    with open_database(db, Connection, write=True, command="restore", wait=wait) as opened:
        _copy_into(opened, source)
    saved = list_backups(db)
    before = f" (the state before it is saved as {saved[-1].path.name})" if saved else ""
    return [f"restored {db} from {source.name}{before}"]


def _check_backup(source: Path) -> None:
    """A backup to restore: one of our databases, whole, of a schema this version reads."""
    check_file(source)
    with reported(source):
        connection = sqlite3.connect(read_only_uri(source), uri=True)
        try:
            result = connection.execute("PRAGMA integrity_check").fetchone()[0]
            if result == "ok":
                check_tables(connection, source)
        finally:
            connection.close()
    if result != "ok":
        raise DatabaseProblem(f"{source}: not a complete rating database ({result}); not restored")


def _readable(db: Path) -> bool:
    try:
        connection = sqlite3.connect(read_only_uri(db), uri=True)
        try:
            return bool(connection.execute("PRAGMA quick_check").fetchone()[0] == "ok")
        finally:
            connection.close()
    except sqlite3.DatabaseError:
        return False


def _copy_into(opened: Connection, source: Path) -> None:
    """Replace every table of the open database by the backup's, in the command's one
    transaction (foreign keys off while the tables are rebuilt)."""
    connection = opened.connection
    connection.execute("PRAGMA foreign_keys = OFF")
    # A plain path: an SQLite built without URI names would take a URI for a new file's name.
    connection.execute("ATTACH DATABASE ? AS backup", (str(source),))
    try:
        tables = {row[0] for row in connection.execute("SELECT name FROM backup.sqlite_master")}
        if not {"meta", "players", "lists"} <= tables:
            raise DatabaseProblem(f"{source}: not a complete rating database; not restored")
        with opened.writing():
            for kind in ("index", "table"):
                names = connection.execute(
                    "SELECT name FROM main.sqlite_master WHERE type = ? AND sql IS NOT NULL "
                    "AND name NOT LIKE 'sqlite_%'",
                    (kind,),
                ).fetchall()
                for (object_name,) in names:
                    connection.execute(f'DROP {kind.upper()} main."{object_name}"')
            objects = connection.execute(
                "SELECT type, name, sql FROM backup.sqlite_master WHERE sql IS NOT NULL "
                "AND name NOT LIKE 'sqlite_%' ORDER BY type = 'index'"
            ).fetchall()
            for kind, object_name, sql in objects:
                connection.execute(sql)
                if kind == "table":
                    connection.execute(
                        f'INSERT INTO main."{object_name}" SELECT * FROM backup."{object_name}"'
                    )
            application = connection.execute("PRAGMA backup.application_id").fetchone()[0]
            connection.execute(f"PRAGMA main.application_id = {int(application)}")
    finally:
        connection.execute("DETACH DATABASE backup")
        connection.execute("PRAGMA foreign_keys = ON")


def _move_aside(db: Path) -> Path:
    """A database that cannot be read, with its journal files, into the backups folder."""
    folder = backup_folder(db)
    folder.mkdir(exist_ok=True)
    aside = folder / f"{_stamp()}-damaged.sqlite"
    for suffix in ("-wal", "-shm", ""):
        part = Path(f"{db}{suffix}")
        if part.exists():
            os.replace(part, Path(f"{aside}{suffix}"))
    return aside


def _place_copy(source: Path, db: Path) -> None:
    """A copy of ``source`` at ``db`` (which does not exist), complete or not at all."""
    temporary = db.parent / f".{db.name}.restore-{os.getpid()}.tmp"
    try:
        with reported(db):
            _copy(source, temporary, "WAL")
        os.link(temporary, db)
    finally:
        for suffix in ("", "-wal", "-shm", "-journal"):
            Path(f"{temporary}{suffix}").unlink(missing_ok=True)
