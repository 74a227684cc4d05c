"""Going back: ``restore latest`` (undo the last command), ``restore N`` (back to the state
before command N of the journal), ``restore COPY.sqlite`` (a whole copy put back).

A restore never renames, moves or deletes the live database. It takes the write lock first,
then works out what ``latest`` or the name means (so a command that finished while it waited
is the one undone), and writes the chosen state into the open database in one transaction,
recorded in the journal like any command (so a restore is undone the same way). A restore
that puts back a whole copy (or undoes a command whose state before is one) takes a whole
copy of the current state first, and that copy is what undoes it. A whole copy is put back
only if it is a copy of this database and every published file it names is here.

Only a database SQLite finds damaged is treated as damaged: it is copied aside (not moved)
into the backups folder, and a whole copy is written over it by SQLite's backup API, in one
transaction of its own; the officer is told where the damaged file's copy is.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import os
import shutil
import sqlite3
from pathlib import Path

from rating_batch.portable import put_new
from rating_batch.store.copies import (
    check_copy,
    copy_database,
    find_copy,
    frozen_uri,
    list_copies,
    prune_copies,
    take_copy,
)
from rating_batch.store.database import (
    Connection,
    DatabaseProblem,
    check_file,
    reported,
)
from rating_batch.store.journal import (
    Point,
    Recording,
    data_tables,
    newer_than,
    points,
    undo_rows,
)
from rating_batch.store.opening import IDENTITY_KEYS, needed_copies, upgrade_tables
from rating_batch.store.places import Places
from rating_batch.store.schema import SCHEMA_VERSION

#: The name ``restore`` takes for the state before the last command (undoing it).
LATEST = "latest"


def restore_into(opened: Connection, name: str) -> list[str]:
    """Put the state ``name`` means back into the open database (one transaction, holding the
    write lock before ``name`` is worked out); what was done, as lines."""
    connection = opened.connection
    attached: list[tuple[str, Path | None]] = []
    try:
        lines = _restore(opened, name, attached)
    finally:
        _detach(connection, attached)
    prune_copies(opened.places, needed_copies(connection))
    lines.append("'rating-batch restore latest' takes this restore back")
    return lines


def _restore(opened: Connection, name: str, attached: list[tuple[str, Path | None]]) -> list[str]:
    connection = opened.connection
    with opened.writing(record=False):
        target = _resolve(opened, name)
        if isinstance(target, Point):
            chain = list(newer_than(connection, target.command_id))
            label = f"restore to before entry {target.name}"
            before = (
                take_copy(opened.places, "before-restore")
                if any(point.copy is not None for point in chain)
                else None
            )
            recording = Recording(connection, label, copy=None if before is None else before.name)
            try:
                for point in chain:
                    if point.copy is None:
                        undo_rows(connection, point.command_id)
                    else:
                        _put_copy(opened, _needed(opened.places, point), attached)
                opened.undo_point = recording.finish()
                opened.forgetting = recording.said()
            finally:
                recording.close()
            if len(chain) == 1:
                return [
                    f"undid {_named(target)}: {opened.path} is as it was before it",
                ]
            return [
                f"went back to the state before {_named(target)}: undid {len(chain)} commands, "
                f"newest first: {', '.join(f'{p.name} {p.label}' for p in chain)}",
            ]
        _check_whole_copy(opened, target)
        before = take_copy(opened.places, "before-restore")
        recording = Recording(
            connection, f"restore of the whole copy {target.name}", copy=before.name
        )
        try:
            _put_copy(opened, target, attached)
            opened.undo_point = recording.finish()
            opened.forgetting = recording.said()
        finally:
            recording.close()
        return [
            f"restored {opened.path} from the whole copy {target.name} (the state it replaced "
            f"is saved whole as {before.name})"
        ]


def _named(point: Point) -> str:
    return f"{point.label} (journal entry {point.name}, {_when(point.taken)})"


def _detach(connection: sqlite3.Connection, attached: list[tuple[str, Path | None]]) -> None:
    """The whole copies read by a restore let go (once its transaction is over: SQLite keeps
    an attached database while a transaction reads it), and their upgraded temporaries
    removed."""
    for alias, temporary in attached:
        with contextlib.suppress(sqlite3.Error):
            connection.execute(f"DETACH DATABASE {alias}")
        if temporary is not None:
            for part in (temporary, Path(f"{temporary}-journal")):
                part.unlink(missing_ok=True)


def _needed(places: Places, point: Point) -> Path:
    """The whole copy holding the state before ``point``."""
    copy = places.backups / str(point.copy)
    if not copy.is_file():
        raise DatabaseProblem(
            f"{places.db}: the whole copy {point.copy}, which holds the state before "
            f"{point.label}, is no longer in {places.backups}; not restored"
        )
    return copy


def _when(moment: dt.datetime) -> str:
    return moment.strftime("%Y-%m-%d %H:%M:%S UTC")


def _resolve(opened: Connection, name: str) -> Point | Path:
    """A journal point or a whole copy, by the name ``backups`` lists (read holding the
    lock)."""
    places = opened.places
    journal = points(opened.connection)
    if name == LATEST:
        if not journal:
            raise DatabaseProblem(
                f"{opened.path}: no command to undo (the journal starts after the database "
                "was made or upgraded; 'rating-batch backups' lists the whole copies)"
            )
        return journal[-1]
    if name.isascii() and name.isdigit():
        for point in journal:
            if point.command_id == int(name):
                return point
        oldest = f" (it holds {journal[0].name} to {journal[-1].name})" if journal else ""
        raise DatabaseProblem(f"{opened.path}: the journal holds no command {name}{oldest}")
    copy = find_copy(places, name)
    if copy is not None:
        return copy
    _refuse_other(places, name)
    known = [p.name for p in journal][-1:] + [c.name for c in list_copies(places)][-1:]
    raise DatabaseProblem(
        f"no restore point {name!r} for {opened.path}"
        + (f" (the newest: {', '.join(known)}; " if known else " (")
        + "'rating-batch backups' lists them all)"
    )


def _refuse_other(places: Places, name: str) -> None:
    """A name that is a file: the database itself, or a file outside its backups folder."""
    candidate = Path(name)
    with contextlib.suppress(OSError):
        if candidate.exists() and os.path.samefile(candidate, places.real):
            raise DatabaseProblem(
                f"{name} is the database itself, not one of its backups; "
                "'rating-batch backups' lists them"
            )
    if candidate.exists():
        raise DatabaseProblem(
            f"{name} is not one of the backups of {places.db}: only the whole copies in "
            f"{places.backups} are put back ('rating-batch backups' lists them)"
        )


def _check_whole_copy(opened: Connection, copy: Path) -> None:
    """A whole copy of this database, whose published files are all here."""
    database_id = _database_id(opened.connection)
    check_copy(copy, database_id)
    reader = sqlite3.connect(frozen_uri(copy), uri=True)
    try:
        with reported(copy):
            has_digest = any(
                row[1] == "digest" for row in reader.execute("PRAGMA table_info(published_files)")
            )
            names = (
                reader.execute("SELECT DISTINCT digest, compressed FROM published_files").fetchall()
                if has_digest
                else []
            )
    finally:
        reader.close()
    missing = [
        str(digest)
        for digest, compressed in names
        if not opened.files.whole(str(digest), bool(compressed))
    ]
    if missing:
        raise DatabaseProblem(
            f"{copy.name}: names {len(missing)} published file(s) that are not kept beside "
            f"this database (e.g. {missing[0][:12]}…): not a copy of this database's history; "
            "not restored"
        )


def _database_id(connection: sqlite3.Connection) -> str | None:
    row = connection.execute("SELECT value FROM meta WHERE key = 'database_id'").fetchone()
    return None if row is None else str(row[0])


def _put_copy(opened: Connection, copy: Path, attached: list[tuple[str, Path | None]]) -> None:
    """Every table of the open database (but the journal's) made as in the whole copy, in the
    open transaction; the copy brought up to date first, in a temporary file, if an older
    version made it (``attached``: what to let go of once the transaction is over). The
    database keeps who it is and where its companions lie."""
    connection = opened.connection
    version = check_copy(copy, _database_id(connection))
    source = copy
    temporary: Path | None = None
    if version < SCHEMA_VERSION:
        temporary = opened.places.backups / f".{copy.name}.{os.getpid()}.tmp"
        source = temporary
        _upgraded_copy(copy, temporary, version, opened.places)
    alias = f"copy{len(attached)}"
    connection.execute(f"ATTACH DATABASE ? AS {alias}", (str(source),))
    attached.append((alias, temporary))
    connection.execute("PRAGMA defer_foreign_keys = ON")
    keep = dict(
        connection.execute(
            "SELECT key, value FROM main.meta WHERE key IN "
            f"({', '.join('?' * len(IDENTITY_KEYS))})",
            IDENTITY_KEYS,
        ).fetchall()
    )
    for shape in data_tables(connection):
        target = ("rowid, " if shape.hidden_rowid else "") + shape.names(shape.columns)
        connection.execute(f"DELETE FROM {shape.table}")
        connection.execute(
            f'INSERT INTO {shape.table} ({target}) SELECT {target} FROM {alias}."{shape.name}"'
        )
    connection.executemany(
        "INSERT INTO main.meta (key, value) VALUES (?, ?) "
        "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
        list(keep.items()),
    )


def _upgraded_copy(copy: Path, temporary: Path, version: int, places: Places) -> None:
    """The whole copy made by an older version, brought up to date in ``temporary``."""
    copy_database(frozen_uri(copy), temporary, "DELETE")
    writer = sqlite3.connect(temporary, isolation_level=None)
    try:
        writer.execute("PRAGMA foreign_keys = OFF")
        writer.execute("BEGIN IMMEDIATE")
        upgrade_tables(writer, version, places)
        writer.execute("COMMIT")
    finally:
        writer.close()


def _named_copy(places: Places, name: str, why: str) -> Path:
    """The whole copy ``name``, for a database whose journal cannot serve (``why``)."""
    copy = find_copy(places, name)
    if copy is None:
        raise DatabaseProblem(
            f"{places.db}: {why}: name a whole copy to put back ('rating-batch backups' lists them)"
        )
    check_copy(copy, None)
    return copy


def restore_over_damaged(places: Places, name: str) -> list[str]:
    """A database SQLite finds damaged: copied aside into the backups folder (never moved),
    then the whole copy ``name`` written over it by SQLite's backup API (one transaction)."""
    copy = _named_copy(places, name, "the database is damaged, so its journal cannot be used")
    stamp = dt.datetime.now(dt.UTC).strftime("%Y%m%dT%H%M%S.%fZ")
    aside = places.backups / f"damaged-{stamp}.sqlite"
    try:
        places.backups.mkdir(exist_ok=True)
        for suffix in ("", "-wal", "-journal"):
            part = Path(f"{places.real}{suffix}")
            if part.exists():
                shutil.copyfile(part, Path(f"{aside}{suffix}"))
    except OSError as error:
        raise DatabaseProblem(
            f"{places.db}: the damaged database could not be copied aside ({error.strerror}); "
            "nothing was changed"
        ) from None
    reader = sqlite3.connect(frozen_uri(copy), uri=True)
    try:
        with reported(places.db):
            writer = sqlite3.connect(places.real, isolation_level=None)
            try:
                reader.backup(writer)
                result = writer.execute("PRAGMA integrity_check").fetchone()[0]
            finally:
                writer.close()
    except DatabaseProblem as problem:
        raise DatabaseProblem(
            f"{problem}. The damaged database is as it was, and copied to {aside}: move it "
            f"away yourself, then 'rating-batch restore {name}' puts the copy in its place"
        ) from None
    finally:
        reader.close()
    if result != "ok":
        raise DatabaseProblem(f"{places.db}: still damaged after the copy was written ({result})")
    return [
        f"{places.db} was damaged: its copy is {aside}",
        f"restored {places.db} from the whole copy {copy.name}",
    ]


def restore_missing(places: Places, name: str) -> list[str]:
    """No database at all at the path: the whole copy ``name`` put there (complete or not
    at all)."""
    copy = _named_copy(places, name, "there is no database here")
    temporary = places.real.parent / f".{places.real.name}.restore-{os.getpid()}.tmp"
    try:
        with reported(places.db):
            copy_database(frozen_uri(copy), temporary, "WAL")
        if not put_new(temporary, places.real):  # also where there are no hard links (a stick)
            raise DatabaseProblem(f"{places.db}: appeared meanwhile; not restored")
    finally:
        for suffix in ("", "-wal", "-shm", "-journal"):
            Path(f"{temporary}{suffix}").unlink(missing_ok=True)
    check_file(places.real)
    return [f"restored {places.db} from the whole copy {copy.name} (there was no database)"]
