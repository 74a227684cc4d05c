"""The undo journal: what every writing command changed, recorded in its own transaction, so
that undoing a command costs about what the command changed (never a copy of the database).

For each table of the database (``players``, ``event_games`` …) a journal table ``undo_<table>``
holds, per command, the rows as they were before the command changed or removed them
(``undo_op = 'd'``, with every column and, for a table with a hidden rowid, the rowid) and the
keys of the rows it created (``undo_op = 'i'``). Temporary triggers, made by the command's
connection for its transaction only, write them as the command changes rows, whatever code
path changes them; nothing else (an officer's own SQL, another program) is recorded.
``undo_commands`` names the commands: when each was run, its label, how many rows it changed,
and, for a command whose state before is a whole copy (a restore of a whole copy), that
copy's name.

Undoing a command is set-based: every row with a key the command touched is deleted, then
each key's first recorded image (its state before the command; a key first created by the
command has none) is put back. Commands are undone newest first, each against the state the
newer ones' undoing left, so the result is exactly the database before them, rowids
included. The undo is itself a command, recorded the same way, so it can be undone.

The journal of the newest ``settings.undo_kept()`` commands is kept ($RATING_BATCH_UNDO);
a command that makes it forget older ones says which, once committed.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import json
import sqlite3
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from rating_batch.settings import UNDO, undo_kept

#: Journal tables are named after the tables they record, with this prefix.
PREFIX = "undo_"
COMMANDS = f"{PREFIX}commands"

#: Tables whose rows are parts of a row of another (child: parent and the column naming it,
#: never changed once a row is written): the parts of a row a command created are not
#: recorded one by one (an event's games: most of what an ``add`` writes); undoing the
#: command removes them with their row.
PARTS = {"event_games": ("events", "event_id"), "event_players": ("events", "event_id")}

COMMANDS_TABLE = f"""
CREATE TABLE {COMMANDS} (
    command_id INTEGER PRIMARY KEY,
    taken TEXT NOT NULL,
    label TEXT NOT NULL,
    changes INTEGER NOT NULL DEFAULT 0,
    copy TEXT
)"""


@dataclass(frozen=True)
class Shape:
    """A table as the journal sees it."""

    name: str
    columns: tuple[str, ...]
    key: tuple[str, ...]
    hidden_rowid: bool
    """A rowid table whose rowid is none of its columns: the rowid is kept with its rows."""

    @property
    def journal(self) -> str:
        return f'main."{PREFIX}{self.name}"'

    @property
    def journal_in_trigger(self) -> str:
        """The journal table as a trigger names it (unqualified: a temporary trigger finds
        it in the main database)."""
        return f'"{PREFIX}{self.name}"'

    @property
    def table(self) -> str:
        return f'main."{self.name}"'

    def names(self, columns: tuple[str, ...], prefix: str = "") -> str:
        return ", ".join(f'{prefix}"{name}"' for name in columns)

    def image(self, prefix: str) -> str:
        """The row's values (``OLD.`` or ``NEW.``), its rowid first when kept."""
        rowid = f"{prefix}rowid, " if self.hidden_rowid else ""
        return rowid + self.names(self.columns, prefix)

    @property
    def image_columns(self) -> str:
        return ("undo_rowid, " if self.hidden_rowid else "") + self.names(self.columns)

    def key_match(self) -> str:
        return f"({self.names(self.key)})"


def _quoted(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def data_tables(connection: sqlite3.Connection) -> list[Shape]:
    """Every table of the database but the journal's, in name order."""
    shapes = []
    for name, sql in connection.execute(
        "SELECT name, sql FROM main.sqlite_master WHERE type = 'table' "
        "AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' AND name NOT LIKE ? ESCAPE '\\' "
        "ORDER BY name",
        (PREFIX.replace("_", "\\_") + "%",),
    ).fetchall():
        info = connection.execute(f"PRAGMA main.table_info({_quoted(name)})").fetchall()
        columns = tuple(str(row[1]) for row in info)
        keyed = sorted((row for row in info if row[5]), key=lambda row: row[5])
        key = tuple(str(row[1]) for row in keyed)
        if not key:
            raise RuntimeError(f"table {name} has no primary key: the journal needs one")
        without_rowid = "WITHOUT ROWID" in str(sql).upper()
        alias = len(keyed) == 1 and str(keyed[0][2]).upper() == "INTEGER"
        shapes.append(Shape(str(name), columns, key, not without_rowid and not alias))
    return _parents_first(connection, shapes)


def _parents_first(connection: sqlite3.Connection, shapes: list[Shape]) -> list[Shape]:
    """The tables with every table they refer to before them (rows put back in this order
    meet their parents, which the parts of a created row need)."""
    refers = {
        shape.name: {
            str(row[2])
            for row in connection.execute(f"PRAGMA main.foreign_key_list({_quoted(shape.name)})")
        }
        - {shape.name}
        for shape in shapes
    }
    ordered: list[Shape] = []
    waiting = list(shapes)
    while waiting:
        ready = [shape for shape in waiting if refers[shape.name] <= {s.name for s in ordered}]
        ordered += ready or waiting  # a cycle (none in our tables) keeps name order
        waiting = [shape for shape in waiting if shape not in ordered]
    return ordered


def create_journal(connection: sqlite3.Connection) -> None:
    """The journal's tables for the database's tables as they are now (a new database, or
    after an upgrade changed the tables: the commands before it are then no longer kept)."""
    for (name,) in connection.execute(
        "SELECT name FROM main.sqlite_master WHERE type = 'table' AND name LIKE ? ESCAPE '\\'",
        (PREFIX.replace("_", "\\_") + "%",),
    ).fetchall():
        connection.execute(f"DROP TABLE main.{_quoted(str(name))}")
    connection.execute(COMMANDS_TABLE)
    for shape in data_tables(connection):
        rowid = "undo_rowid INTEGER, " if shape.hidden_rowid else ""
        # Columns without a declared type keep every value as it was given (no affinity).
        connection.execute(
            f"CREATE TABLE {shape.journal} (undo_seq INTEGER PRIMARY KEY, "
            f"undo_command INTEGER NOT NULL, undo_op TEXT NOT NULL, {rowid}"
            f"{shape.names(shape.columns)})"
        )
        connection.execute(
            f'CREATE INDEX main."{PREFIX}{shape.name}_command" ON "{PREFIX}{shape.name}" '
            "(undo_command)"
        )


def has_journal(connection: sqlite3.Connection) -> bool:
    row = connection.execute(
        "SELECT 1 FROM main.sqlite_master WHERE type = 'table' AND name = ?", (COMMANDS,)
    ).fetchone()
    return row is not None


@dataclass(frozen=True)
class Point:
    """A command the journal can undo: the state before it is a point to go back to."""

    command_id: int
    taken: dt.datetime
    label: str
    changes: int
    copy: str | None
    """The whole copy holding the state before the command, for one undone by a copy."""

    @property
    def name(self) -> str:
        return str(self.command_id)


def points(connection: sqlite3.Connection) -> list[Point]:
    """The commands the journal can undo, oldest first."""
    if not has_journal(connection):
        return []
    return [
        Point(
            int(command_id),
            dt.datetime.fromisoformat(str(taken)).replace(tzinfo=dt.UTC),
            str(label),
            int(changes),
            None if copy is None else str(copy),
        )
        for command_id, taken, label, changes, copy in connection.execute(
            f"SELECT command_id, taken, label, changes, copy FROM main.{COMMANDS} "
            "ORDER BY command_id"
        )
    ]


def _now() -> str:
    return dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M:%S.%f")


class Recording:
    """One command's journal, under way in its transaction: ``finish`` before the commit
    (drops the command's entry when it changed nothing, and prunes the oldest), ``close``
    in any case (the triggers are the connection's, not the transaction's, once committed).

    ``copy``: the command's state before is that whole copy (nothing is recorded row by
    row)."""

    def __init__(
        self, connection: sqlite3.Connection, label: str, *, copy: str | None = None
    ) -> None:
        self.connection = connection
        self.copy = copy
        cursor = connection.execute(
            f"INSERT INTO main.{COMMANDS} (taken, label, copy) VALUES (?, ?, ?)",
            (_now(), label, copy),
        )
        self.command_id = int(cursor.lastrowid or 0)
        self.shapes = data_tables(connection)
        self._triggers: list[str] = []
        #: Per table of ``PARTS``: its insert trigger's name and the statement that made it.
        self._part_inserts: dict[str, tuple[str, str]] = {}
        self.kept = undo_kept()  # read before anything is recorded: a bad value changes nothing
        self.forgotten: list[Point] = []
        """The older commands this one's ``finish`` made the journal forget."""
        if copy is None:
            self._record()

    def _record(self) -> None:
        command = self.command_id
        parents = {parent for parent, _ in PARTS.values()}
        for parent in parents:
            # The keys of the rows of ``parent`` this command created (the temporary schema is
            # the connection's: emptied for each command).
            self.connection.execute(
                f'CREATE TEMP TABLE IF NOT EXISTS "{_created(parent)}" (key PRIMARY KEY)'
            )
            self.connection.execute(f'DELETE FROM temp."{_created(parent)}"')
        for shape in self.shapes:
            into = f"INSERT INTO {shape.journal_in_trigger} (undo_command, undo_op"
            before = (
                f"{into}, {shape.image_columns}) VALUES ({command}, 'd', {shape.image('OLD.')});"
            )
            created = (
                f"{into}, {shape.names(shape.key)}) "
                f"SELECT {command}, 'i', {shape.names(shape.key, 'NEW.')}"
            )
            moved = " OR ".join(f'NEW."{k}" IS NOT OLD."{k}"' for k in shape.key)
            bodies = {
                "INSERT": f"{created};",
                "DELETE": before,
                # An update is the old row's image, and the new key when the key changed.
                "UPDATE": f"{before} {created} WHERE {moved};",
            }
            if shape.name in parents:
                keep = (
                    f'INSERT OR IGNORE INTO "{_created(shape.name)}" VALUES (NEW."{shape.key[0]}");'
                )
                bodies["INSERT"] += f" {keep}"
            when = {"INSERT": "", "DELETE": "", "UPDATE": ""}
            if shape.name in PARTS:
                parent, column = PARTS[shape.name]
                made = f'SELECT key FROM "{_created(parent)}"'
                when = {
                    "INSERT": f' WHEN NEW."{column}" NOT IN ({made})',
                    "DELETE": f' WHEN OLD."{column}" NOT IN ({made})',
                    "UPDATE": f' WHEN OLD."{column}" NOT IN ({made})',
                }
            for event, body in bodies.items():
                trigger = f'"{PREFIX}{shape.name}_{event.lower()}"'
                made_by = (
                    f"CREATE TEMP TRIGGER {trigger} AFTER {event} ON {shape.table}{when[event]} "
                    f"BEGIN {body} END"
                )
                self.connection.execute(made_by)
                self._triggers.append(f"temp.{trigger}")
                if event == "INSERT" and shape.name in PARTS:
                    self._part_inserts[shape.name] = (f"temp.{trigger}", made_by)

    def finish(self) -> int | None:
        """The command's entry made final; None when it changed nothing (no entry kept)."""
        self.close()
        changes = sum(
            int(
                self.connection.execute(
                    f"SELECT COUNT(*) FROM {shape.journal} WHERE undo_command = ?",
                    (self.command_id,),
                ).fetchone()[0]
            )
            for shape in self.shapes
        )
        if changes == 0 and self.copy is None:
            self.connection.execute(
                f"DELETE FROM main.{COMMANDS} WHERE command_id = ?", (self.command_id,)
            )
            return None
        self.connection.execute(
            f"UPDATE main.{COMMANDS} SET changes = ? WHERE command_id = ?",
            (changes, self.command_id),
        )
        self.forgotten = prune(self.connection, self.shapes, self.kept)
        return self.command_id

    def said(self) -> str | None:
        """What the officer is told once the command is committed (the commands it made the
        journal forget), if anything."""
        return forgetting(self.forgotten, self.kept) if self.forgotten else None

    @contextlib.contextmanager
    def parts_of_created(self, table: str, parents: Iterable[object]) -> Iterator[None]:
        """Rows of a ``PARTS`` table to insert whose ``parents`` (the keys of their rows of
        the parent table) were all created by this command: inserted without the per-row
        trigger, whose condition would leave each of them out of the journal anyway (an
        ``add``'s 10^6 games: a third of the insert's time). Any other insert keeps the
        trigger, so the journal records what it always did."""
        if table not in self._part_inserts:
            yield
            return
        parent, _ = PARTS[table]
        keys = json.dumps(sorted({int(str(key)) for key in parents}))
        outside = self.connection.execute(
            f'SELECT COUNT(*) FROM json_each(?) WHERE value NOT IN (SELECT key FROM temp."'
            f'{_created(parent)}")',
            (keys,),
        ).fetchone()[0]
        if outside:
            yield
            return
        trigger, made_by = self._part_inserts[table]
        self.connection.execute(f"DROP TRIGGER {trigger}")
        try:
            yield
        finally:
            self.connection.execute(made_by)

    def close(self) -> None:
        for trigger in self._triggers:
            self.connection.execute(f"DROP TRIGGER IF EXISTS {trigger}")
        self._triggers = []


def prune(connection: sqlite3.Connection, shapes: list[Shape], kept: int) -> list[Point]:
    """Forget all but the newest ``kept`` commands; the commands forgotten (the whole
    copies they name are no longer needed by the journal)."""
    row = connection.execute(
        f"SELECT command_id FROM main.{COMMANDS} ORDER BY command_id DESC LIMIT 1 OFFSET ?",
        (kept - 1,),
    ).fetchone()
    if row is None:
        return []
    oldest = int(row[0])
    forgotten = [point for point in points(connection) if point.command_id < oldest]
    connection.execute(f"DELETE FROM main.{COMMANDS} WHERE command_id < ?", (oldest,))
    for shape in shapes:
        connection.execute(f"DELETE FROM {shape.journal} WHERE undo_command < ?", (oldest,))
    return forgotten


def forgetting(forgotten: list[Point], kept: int) -> str:
    """What the officer is told of the commands a command made the journal forget: they
    can no longer be undone (a setting of 1 keeps only the command just run)."""
    numbers = [point.command_id for point in forgotten]
    which = f"command {numbers[0]}" if len(numbers) == 1 else f"commands {numbers[0]}–{numbers[-1]}"
    labels = ", ".join(point.label for point in forgotten[:5])
    more = f" … and {len(forgotten) - 5} more" if len(forgotten) > 5 else ""
    return (
        f"the undo journal forgot {which} ({labels}{more}): it keeps the newest {kept} "
        f"({UNDO.source(kept)})"
    )


def _created(parent: str) -> str:
    return f"{PREFIX}created_{parent}"


def undo_rows(connection: sqlite3.Connection, command_id: int) -> None:
    """Put back every row the command changed as it was before it (inside the current
    transaction; foreign keys checked at its commit). The command must be the newest not
    undone yet: each row is as the command left it."""
    shapes = data_tables(connection)
    connection.execute("PRAGMA defer_foreign_keys = ON")
    for child, (parent, column) in PARTS.items():
        # The parts of the rows the command created (not recorded one by one).
        parent_shape = next(shape for shape in shapes if shape.name == parent)
        connection.execute(
            f'DELETE FROM main."{child}" WHERE "{column}" IN (SELECT "{parent_shape.key[0]}" '
            f"FROM {parent_shape.journal} WHERE undo_command = ? AND undo_op = 'i')",
            (command_id,),
        )
    for shape in shapes:
        connection.execute(
            f"DELETE FROM {shape.table} WHERE {shape.key_match()} IN "
            f"(SELECT {shape.names(shape.key)} FROM {shape.journal} WHERE undo_command = ?)",
            (command_id,),
        )
    for shape in shapes:
        target = ("rowid, " if shape.hidden_rowid else "") + shape.names(shape.columns)
        connection.execute(
            f"INSERT INTO {shape.table} ({target}) SELECT {shape.image_columns} FROM "
            f"(SELECT *, ROW_NUMBER() OVER (PARTITION BY {shape.names(shape.key)} "
            f"ORDER BY undo_seq) AS undo_first FROM {shape.journal} WHERE undo_command = ?) "
            "WHERE undo_first = 1 AND undo_op = 'd' ORDER BY undo_seq",
            (command_id,),
        )


def newer_than(connection: sqlite3.Connection, command_id: int) -> Iterator[Point]:
    """The commands from the newest down to ``command_id`` (included)."""
    for point in reversed(points(connection)):
        if point.command_id < command_id:
            break
        yield point
