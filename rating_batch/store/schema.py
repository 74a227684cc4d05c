"""The rating database's tables, and the migrations that bring older files up to date.

Tables (schema version in ``meta``):

* ``players``: identity (FIDE ID when known, the id in the federation's own scheme
  (``national_id``, docs/formats.md §11.1), name, federation, sex, titles, birth year), the
  name's spelling-free key (``names.name_key``, kept in step with the name) and what made the
  player (``created_by``: ``list`` or ``<event key>#<start rank>``; ``created_event``: that
  event's id);
* ``player_edits``: every change ``add`` made to a known player's identity (a field the
  database did not know, filled from an event file), so ``remove`` can take it back and a
  publish can list the corrections since the previous list;
* ``lists``: every list the database knows, per period and kind: the initial one and each
  published one, with the last player edit it saw (``edit_mark``);
* ``ratings``: a player's state per kind from a period on (rating or NULL = unrated, K for
  the next period, games in the period, total games, peak rating, last period played,
  inactive, first-rating pool state). A row is written when the state changes; the state as
  of period P is each player's latest row with period ≤ P;
* ``events``, ``event_players``, ``event_games``: the added events, each player's identity
  and final rank as the file gave them, and each event's games as one row of packed columns
  (``packed.py``: the engine's games frame by start rank, with file line; ``rows`` of them,
  ``played`` against an opponent, so nothing is unpacked to count them);
* ``pending``: the first-rating pool after each published period;
* ``published_files``: every file a publish wrote: its path in the period's folder, the
  SHA-256 of its bytes and its size; the bytes themselves are kept beside the database
  (``store/files.py``: ``<db>.files/``), written once and never changed (re-publishing writes
  them again: a published list never changes);
* ``system_states``: under a rating system other than FIDE Elo (docs/systems.md), a player's
  state per kind from a period on, one row per state column (``name``: ``rating``, ``rd``,
  ``volatility``, ``mu``, ``sigma``, ``last_period``, as the system declares them; ``value``:
  the unrounded number, or the text of a period). Read like ``ratings``: the state as of
  period P is each player's latest rows with period ≤ P.

Beside them, the undo journal (``journal.py``: ``undo_commands`` and an ``undo_<table>`` per
table, made for the tables as they are by every upgrade), and in ``meta`` the database's own
id (``database_id``: a whole copy of another database is never put back into it) and the names
of the folders beside it (``places.py``).

Periods are canonical ``YYYY-MM`` text (``0000-00`` for an initial list of unknown month),
kept so by CHECK constraints: text order is date order.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rating_batch.store.places import Places

SCHEMA_VERSION = 11

#: ``PRAGMA application_id`` of our databases ("RBAT"): a file without it is not ours.
APPLICATION_ID = 0x52424154

_PERIOD_CHECK = (
    "CHECK ({column} = '0000-00' OR ({column} GLOB '[12][0-9][0-9][0-9]-[01][0-9]' "
    "AND substr({column}, 6, 2) BETWEEN '01' AND '12'))"
)


def _period(column: str) -> str:
    return _PERIOD_CHECK.format(column=column)


SYSTEM_STATES = f"""
CREATE TABLE system_states (
    player_id INTEGER NOT NULL REFERENCES players,
    kind TEXT NOT NULL,
    period TEXT NOT NULL {_period("period")},
    name TEXT NOT NULL,
    value,
    PRIMARY KEY (player_id, kind, period, name)
) WITHOUT ROWID;
CREATE INDEX system_states_period ON system_states (kind, period);
"""

SCHEMA = f"""
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE players (
    player_id INTEGER PRIMARY KEY,
    fide_id INTEGER UNIQUE,
    name TEXT NOT NULL,
    federation TEXT, sex TEXT, title TEXT, w_title TEXT, o_title TEXT, foa_title TEXT,
    birth_year INTEGER,
    created_by TEXT NOT NULL,
    created_event INTEGER,
    name_key TEXT NOT NULL DEFAULT '',
    national_id TEXT
);
CREATE INDEX players_identity ON players (name, birth_year, federation);
CREATE INDEX players_name_key ON players (name_key, birth_year, federation);
CREATE TABLE player_edits (
    edit_id INTEGER PRIMARY KEY,
    player_id INTEGER NOT NULL REFERENCES players,
    field TEXT NOT NULL,
    old_value,
    new_value,
    event_id INTEGER NOT NULL
);
CREATE INDEX player_edits_event ON player_edits (event_id);
CREATE TABLE lists (
    period TEXT NOT NULL {_period("period")},
    kind TEXT NOT NULL,
    origin TEXT NOT NULL,
    rules TEXT NOT NULL,
    edit_mark INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (period, kind)
);
CREATE TABLE ratings (
    player_id INTEGER NOT NULL REFERENCES players,
    kind TEXT NOT NULL,
    period TEXT NOT NULL {_period("period")},
    rating INTEGER,
    k INTEGER,
    games INTEGER NOT NULL DEFAULT 0,
    games_total INTEGER,
    peak INTEGER,
    last_played TEXT {_period("last_played")},
    inactive INTEGER NOT NULL DEFAULT 0,
    first_event_done INTEGER NOT NULL DEFAULT 0,
    pool_start TEXT {_period("pool_start")},
    PRIMARY KEY (player_id, kind, period)
) WITHOUT ROWID;
CREATE INDEX ratings_period ON ratings (kind, period);
CREATE TABLE events (
    event_id INTEGER PRIMARY KEY,
    key TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    source TEXT NOT NULL,
    content_hash TEXT NOT NULL UNIQUE,
    start TEXT,
    "end" TEXT,
    kind TEXT NOT NULL,
    period TEXT NOT NULL {_period("period")},
    format TEXT, encoding TEXT, time_control TEXT,
    round_dates TEXT, federation TEXT, city TEXT
);
CREATE UNIQUE INDEX events_name_dates ON events (name, start, "end");
CREATE INDEX events_period ON events (period, kind);
CREATE TABLE event_players (
    event_id INTEGER NOT NULL REFERENCES events,
    start_rank INTEGER NOT NULL,
    player_id INTEGER NOT NULL REFERENCES players,
    rating_in_file INTEGER,
    line INTEGER NOT NULL,
    name TEXT, federation TEXT, sex TEXT, title TEXT, birth_year INTEGER,
    final_rank INTEGER,
    PRIMARY KEY (event_id, start_rank)
) WITHOUT ROWID;
CREATE TABLE event_games (
    event_id INTEGER PRIMARY KEY REFERENCES events,
    rows INTEGER NOT NULL,
    played INTEGER NOT NULL,
    format INTEGER NOT NULL,
    data BLOB NOT NULL,
    CHECK (rows >= 0 AND played BETWEEN 0 AND rows),
    CHECK (format <> 1 OR length(data) >= 20 * rows + 22)
);
CREATE TABLE pending (
    period TEXT NOT NULL {_period("period")},
    kind TEXT NOT NULL,
    player_id INTEGER NOT NULL,
    event_id INTEGER NOT NULL,
    round INTEGER NOT NULL,
    opponent_rating INTEGER NOT NULL,
    half INTEGER NOT NULL,
    game_period TEXT NOT NULL {_period("game_period")},
    PRIMARY KEY (period, kind, player_id, event_id, round)
);
CREATE TABLE published_files (
    period TEXT NOT NULL {_period("period")},
    path TEXT NOT NULL,
    digest TEXT NOT NULL,
    compressed INTEGER NOT NULL,
    size INTEGER NOT NULL,
    PRIMARY KEY (period, path)
);
{SYSTEM_STATES}"""

#: Tables and their columns whose values are periods (made canonical by the migration to 2).
PERIOD_COLUMNS = {
    "lists": ("period",),
    "ratings": ("period", "last_played", "pool_start"),
    "events": ("period",),
    "pending": ("period", "game_period"),
}


def run_script(connection: sqlite3.Connection, script: str) -> None:
    """Run SQL statements one by one (``executescript`` would commit the transaction)."""
    for statement in script.split(";"):
        if statement.strip():
            connection.execute(statement)


def lenient_period(text: object) -> str | None:
    """A period as version 1 stored it (``2026-4``, ``2026-04 ``, compared as text), made
    canonical; None stays None. Version 1 accepted whatever ``int()`` read in each half."""
    if text is None:
        return None
    value = str(text)
    if value == "0000-00":
        return value
    year, _, month = value.partition("-")
    try:
        number = int(month)
        whole = int(year)
    except ValueError:
        raise sqlite3.IntegrityError(
            f"the period {value!r} cannot be read as a month; restore a backup made before it"
        ) from None
    if not 1 <= number <= 12 or not 1 <= whole <= 9999:
        raise sqlite3.IntegrityError(f"the period {value!r} is not a month")
    return f"{whole:04d}-{number:02d}"


def _to_version_2(connection: sqlite3.Connection, places: Places) -> None:
    """Version 1 → 2: periods canonical and checked, the tables of undo, corrections and
    published files, each event player's identity as the file gave it.

    Every table is rebuilt from the version-2 schema and its rows copied, periods made
    canonical on the way (``2026-4`` → ``2026-04``); two periods that become the same one in
    the same list (``2026-4`` and ``2026-04``) stop the migration, which changes nothing."""
    connection.create_function("canonical", 1, lenient_period, deterministic=True)
    old_tables = [
        str(name)
        for (name,) in connection.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
        )
    ]
    for (index,) in connection.execute(
        "SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL"
    ).fetchall():
        connection.execute(f'DROP INDEX "{index}"')
    for table in old_tables:
        connection.execute(f'ALTER TABLE "{table}" RENAME TO "v1_{table}"')
    run_script(connection, SCHEMA + GAMES_V10)  # games: packed by the step to 11
    for table in old_tables:
        old = [row[1] for row in connection.execute(f'PRAGMA table_info("v1_{table}")')]
        new = {row[1] for row in connection.execute(f'PRAGMA table_info("{table}")')}
        columns = [name for name in old if name in new]
        periods = PERIOD_COLUMNS.get(table, ())
        values = [f'canonical("{c}")' if c in periods else f'"{c}"' for c in columns]
        names = ", ".join(f'"{c}"' for c in columns)
        connection.execute(
            f'INSERT INTO "{table}" ({names}) SELECT {", ".join(values)} FROM "v1_{table}"'
        )
        connection.execute(f'DROP TABLE "v1_{table}"')
    from rating_batch.names import name_key  # loads pandas: only for this migration

    connection.create_function("name_key", 1, name_key, deterministic=True)
    connection.execute("UPDATE players SET name_key = name_key(name)")
    # The player each version-1 event created, from its label (``<key>#<start rank>``).
    connection.execute(
        """
        UPDATE players SET created_event = (
            SELECT e.event_id FROM events e
            WHERE players.created_by = e.key || '#' || (
                SELECT ep.start_rank FROM event_players ep
                WHERE ep.event_id = e.event_id AND ep.player_id = players.player_id
            )
        ) WHERE created_by <> 'list'
        """
    )


def _to_version_3(connection: sqlite3.Connection, places: Places) -> None:
    """Version 2 → 3: event players keep the file's final rank (the crosstable's order);
    events added before have none (their crosstables are ordered by points)."""
    columns = {row[1] for row in connection.execute("PRAGMA table_info(event_players)")}
    if "final_rank" not in columns:  # a version-1 file was rebuilt with the current tables
        connection.execute("ALTER TABLE event_players ADD COLUMN final_rank INTEGER")


def _to_version_4(connection: sqlite3.Connection, places: Places) -> None:
    """Version 3 → 4: the states of the rating systems other than FIDE Elo (an Elo database
    leaves the table empty)."""
    tables = {row[0] for row in connection.execute("SELECT name FROM sqlite_master")}
    if "system_states" not in tables:  # an older file was rebuilt with the current tables
        run_script(connection, SYSTEM_STATES)


#: The games table of schemas 1-10, a row per player-game (schema 11 packs them by event:
#: ``event_games``); the steps before 11 still make and rebuild it.
GAMES_V10 = """
CREATE TABLE games (
    event_id INTEGER NOT NULL REFERENCES events,
    round INTEGER NOT NULL,
    start_rank INTEGER NOT NULL,
    opponent_rank INTEGER,
    colour TEXT, result TEXT,
    score REAL NOT NULL,
    rated INTEGER NOT NULL,
    reason TEXT,
    line INTEGER NOT NULL,
    PRIMARY KEY (event_id, round, start_rank)
) WITHOUT ROWID;
"""


def _statements(start: str) -> list[str]:
    """The schema's statements that begin with ``start`` (for a migration that rebuilds a
    table as it is now, or, for ``games``, as it was until schema 10)."""
    parts = dict.fromkeys(part.strip() for part in (SCHEMA + GAMES_V10).split(";"))
    return [part for part in parts if part.startswith(start)]


def _to_version_5(connection: sqlite3.Connection, places: Places) -> None:
    """Version 4 → 5: the published files' bytes move out of the database into the files
    folder beside it (``store/files.py``), each row keeping its digest."""
    columns = {row[1] for row in connection.execute("PRAGMA table_info(published_files)")}
    if "data" not in columns:  # an older file was rebuilt with the current tables
        return
    import os
    import zlib

    from rating_batch.store.files import FileStore

    files = FileStore(places.files, places.spare, os.getpid())
    connection.execute("ALTER TABLE published_files RENAME TO v4_published_files")
    connection.execute(_statements("CREATE TABLE published_files (")[0])
    for period, path, data, compressed in connection.execute(
        "SELECT period, path, data, compressed FROM v4_published_files ORDER BY period, path"
    ).fetchall():
        content = zlib.decompress(data) if compressed else bytes(data)
        digest, kept = files.put(str(path), content)
        connection.execute(
            "INSERT INTO published_files (period, path, digest, compressed, size) "
            "VALUES (?, ?, ?, ?, ?)",
            (period, path, digest, int(kept), len(content)),
        )
    connection.execute("DROP TABLE v4_published_files")


#: The tables kept in their primary key's order, without a rowid (schema 6): the largest ones,
#: whose rows were each stored twice (in the table and in the primary key's index). (Games
#: are one row per event since schema 11: ``event_games``, a plain rowid table.)
CLUSTERED = ("games", "event_players", "ratings", "system_states")


def _to_version_6(connection: sqlite3.Connection, places: Places) -> None:
    """Version 5 → 6: the largest tables kept in their primary key's order (``WITHOUT
    ROWID``): the key's index no longer repeats every row (games: a third of the database
    less), so the backup before every command copies less. Rows and indexes as they were."""
    for table in CLUSTERED:
        row = connection.execute(
            "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", (table,)
        ).fetchone()
        if row is None or "WITHOUT ROWID" in str(row[0]).upper():
            continue
        create = _statements(f"CREATE TABLE {table} (")[0]
        indexes = [s for s in _statements("CREATE INDEX") if f" ON {table} (" in s]
        connection.execute(f'ALTER TABLE "{table}" RENAME TO "v5_{table}"')
        for (index,) in connection.execute(
            "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ? "
            "AND sql IS NOT NULL",
            (f"v5_{table}",),
        ).fetchall():
            connection.execute(f'DROP INDEX "{index}"')
        connection.execute(create)
        connection.execute(f'INSERT INTO "{table}" SELECT * FROM "v5_{table}"')
        connection.execute(f'DROP TABLE "v5_{table}"')
        for index in indexes:
            connection.execute(index)


def _to_version_7(connection: sqlite3.Connection, places: Places) -> None:
    """Version 6 → 7: no index of every event entry by player. Each month's entries landed all
    over it (its cost grew with the history: docs of ``make bench-history``); the few
    questions by player (a player's report, ``remove``) find the entries by the player's
    ratings rows, or in one pass."""
    connection.execute("DROP INDEX IF EXISTS event_players_player")


def _to_version_8(connection: sqlite3.Connection, places: Places) -> None:
    """Version 7 → 8: the database knows who it is (``database_id``: a whole copy of another
    database is never put back into it) and where its companions lie (``places.py``); the
    undo journal's tables are made by every upgrade (``journal.create_journal``)."""
    import uuid

    rows = {"database_id": uuid.uuid4().hex, **places.meta_rows()}
    connection.executemany(
        "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING",
        list(rows.items()),
    )


def _to_version_9(connection: sqlite3.Connection, places: Places) -> None:
    """Version 8 → 9: a player's id in the federation's own scheme (``national_id``: the DSB's
    ZPS-Mgl or PKZ, the US Chess id, the ECF code), by which ``add`` finds him; none known
    for the players already there."""
    columns = {row[1] for row in connection.execute("PRAGMA table_info(players)")}
    if "national_id" not in columns:  # an older file was rebuilt with the current tables
        connection.execute("ALTER TABLE players ADD COLUMN national_id TEXT")


def _to_version_10(connection: sqlite3.Connection, places: Places) -> None:
    """Version 9 → 10: each round's date as the event's file gives it (``round_dates``: ISO
    dates joined by commas, an empty place for a round without one), which the systems that
    rate game by game read for the days between games (docs/systems.md §14), and the host
    federation and city (TRF 032, 022), which a norm's 1.4.3d reads (docs/norms.md §8); none
    known for the events already there (their dates are spread over their rounds)."""
    columns = {row[1] for row in connection.execute("PRAGMA table_info(events)")}
    for column in ("round_dates", "federation", "city"):
        if column not in columns:  # an older file was rebuilt with the current tables
            connection.execute(f"ALTER TABLE events ADD COLUMN {column} TEXT")


#: Events packed together by the step to schema 11.
_EVENTS_PER_PACK = 1000


def _to_version_11(connection: sqlite3.Connection, places: Places) -> None:
    """Version 10 → 11: each event's games packed into one row (``event_games``, layout in
    ``packed.py``) instead of a row per player-game: an ``add`` of 10^6 player-games inserts
    one blob per event, a ``publish`` reads its period's without a Python object per value.
    Every event's rows are read, packed, and the old table dropped, in the upgrade's one
    transaction."""
    tables = {row[0] for row in connection.execute("SELECT name FROM sqlite_master")}
    if "event_games" not in tables:
        connection.execute(_statements("CREATE TABLE event_games (")[0])
    if "games" not in tables:
        return
    import pandas as pd  # only for this migration

    from rating_batch.store.columnar import declared_kinds, read_columns
    from rating_batch.store.packed import COLUMNS, pack

    kinds = declared_kinds(connection, "games")
    ordered = "SELECT DISTINCT event_id FROM games ORDER BY event_id"
    ids = [int(event_id) for (event_id,) in connection.execute(ordered)]
    # A thousand events at a time: the cost of a pack is per row, not per event, and a
    # long history is never all in memory at once.
    for at in range(0, len(ids), _EVENTS_PER_PACK):
        chosen = ids[at : at + _EVENTS_PER_PACK]
        sql = f"SELECT {', '.join(COLUMNS)} FROM games WHERE event_id BETWEEN ? AND ?"
        span = (chosen[0], chosen[-1])
        rows = read_columns(connection, sql, span, {c: kinds[c] for c in COLUMNS})
        if rows is None:  # a value of another type: read row by row
            cursor = connection.execute(sql, span)
            rows = pd.DataFrame.from_records(cursor.fetchall(), columns=list(COLUMNS))
        connection.executemany(
            "INSERT INTO event_games (event_id, rows, played, format, data) VALUES (?, ?, ?, ?, ?)",
            [(p.event_id, p.rows, p.played, p.format, p.data) for p in pack(rows)],
        )
    # A row of no event would make a row of no event here: the upgrade's foreign key check
    # refuses it, as it refuses any broken reference.
    connection.execute("DROP TABLE games")


#: Schema version → the step that brings a database from the previous version to it. Each
#: runs inside the migration's transaction, with foreign keys off (tables are rebuilt), and
#: is given the database's places (where its published files lie).
MIGRATIONS: dict[int, Callable[[sqlite3.Connection, Places], None]] = {
    2: _to_version_2,
    3: _to_version_3,
    4: _to_version_4,
    5: _to_version_5,
    6: _to_version_6,
    7: _to_version_7,
    8: _to_version_8,
    9: _to_version_9,
    10: _to_version_10,
    11: _to_version_11,
}
