"""The rating database: SQLite from the standard library, one file, no server.

Tables (schema version in ``meta``; ``migrate`` brings older files up to date):

* ``players``: identity (FIDE ID when known, name, federation, sex, titles, birth year);
* ``lists``: every list the database knows, per period (``YYYY-MM``) and kind — the initial
  one and each published one;
* ``ratings``: a player's state per kind from a period on (rating or NULL = unrated, K for
  the next period, games in the period, total games, peak rating, last period played,
  inactive, first-rating pool state). A row is written when the state changes; the state as
  of period P is each player's latest row with period ≤ P;
* ``events``, ``event_players``, ``games``: the added events, long format as the engine's
  games frame, with file and line;
* ``pending``: the first-rating pool after each published period.

Every command's changes are one transaction (``Store.transaction``).
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Iterator, Sequence
from pathlib import Path

import numpy as np
import pandas as pd

from rating_batch.errors import RatingBatchError

SCHEMA_VERSION = 1

SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE players (
    player_id INTEGER PRIMARY KEY,
    fide_id INTEGER UNIQUE,
    name TEXT NOT NULL,
    federation TEXT, sex TEXT, title TEXT, w_title TEXT, o_title TEXT, foa_title TEXT,
    birth_year INTEGER,
    created_by TEXT NOT NULL
);
CREATE INDEX players_identity ON players (name, birth_year, federation);
CREATE TABLE lists (
    period TEXT NOT NULL,
    kind TEXT NOT NULL,
    origin TEXT NOT NULL,
    rules TEXT NOT NULL,
    PRIMARY KEY (period, kind)
);
CREATE TABLE ratings (
    player_id INTEGER NOT NULL REFERENCES players,
    kind TEXT NOT NULL,
    period TEXT NOT NULL,
    rating INTEGER,
    k INTEGER,
    games INTEGER NOT NULL DEFAULT 0,
    games_total INTEGER,
    peak INTEGER,
    last_played TEXT,
    inactive INTEGER NOT NULL DEFAULT 0,
    first_event_done INTEGER NOT NULL DEFAULT 0,
    pool_start TEXT,
    PRIMARY KEY (player_id, kind, period)
);
CREATE INDEX ratings_period ON ratings (kind, period);
CREATE TABLE events (
    event_id INTEGER PRIMARY KEY,
    key TEXT NOT NULL,
    name TEXT NOT NULL,
    source TEXT NOT NULL,
    content_hash TEXT NOT NULL UNIQUE,
    start TEXT,
    "end" TEXT,
    kind TEXT NOT NULL,
    period TEXT NOT NULL,
    format TEXT, encoding TEXT, time_control TEXT
);
CREATE UNIQUE INDEX events_name_dates ON events (name, start, "end");
CREATE TABLE event_players (
    event_id INTEGER NOT NULL REFERENCES events,
    start_rank INTEGER NOT NULL,
    player_id INTEGER NOT NULL REFERENCES players,
    rating_in_file INTEGER,
    line INTEGER NOT NULL,
    PRIMARY KEY (event_id, start_rank)
);
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
);
CREATE TABLE pending (
    period TEXT NOT NULL,
    kind TEXT NOT NULL,
    player_id INTEGER NOT NULL,
    event_id INTEGER NOT NULL,
    round INTEGER NOT NULL,
    opponent_rating INTEGER NOT NULL,
    half INTEGER NOT NULL,
    game_period TEXT NOT NULL,
    PRIMARY KEY (period, kind, player_id, event_id, round)
);
"""

#: Schema version → SQL that brings a database from the previous version to it.
MIGRATIONS: dict[int, str] = {}


class Store:
    """An open rating database. Use ``Store.open(path)`` as a context manager."""

    def __init__(self, connection: sqlite3.Connection, path: Path) -> None:
        self.connection = connection
        self.path = path
        self._states: dict[tuple[str, str], pd.DataFrame] = {}
        """``state`` read once per (kind, period) until ratings are written again."""

    @classmethod
    @contextlib.contextmanager
    def open(cls, path: Path, *, create: bool = False) -> Iterator[Store]:
        """Open (or, with ``create``, make) the database; closes it afterwards."""
        if create and path.exists():
            raise RatingBatchError(
                f"{path}: a rating database already exists here; use another --db path, or "
                "remove it (after a backup) to start again"
            )
        if not create and not path.exists():
            raise RatingBatchError(
                f"{path}: no rating database here; create one with 'rating-batch init --list FILE'"
            )
        connection = sqlite3.connect(path, isolation_level=None, timeout=30.0)
        connection.execute("PRAGMA foreign_keys = ON")
        connection.execute("PRAGMA journal_mode = WAL")
        store = cls(connection, path)
        try:
            if not create:
                store.migrate()
            yield store
        finally:
            connection.close()

    @contextlib.contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """One transaction: committed when the block ends, rolled back on any exception.

        BEGIN IMMEDIATE takes the write lock at once, so two processes adding events to the
        same database run one after the other instead of failing half-way.
        """
        self.connection.execute("BEGIN IMMEDIATE")
        try:
            yield self.connection
        except BaseException:
            self.connection.execute("ROLLBACK")
            raise
        self.connection.execute("COMMIT")

    def migrate(self) -> None:
        version = int(self.meta("schema_version") or 0)
        if version > SCHEMA_VERSION:
            raise RatingBatchError(
                f"{self.path}: made by a newer rating_batch (schema {version}); upgrade it"
            )
        if version < SCHEMA_VERSION:
            with self.transaction():
                for step in range(version + 1, SCHEMA_VERSION + 1):
                    self.run_script(MIGRATIONS[step])
                self.set_meta("schema_version", str(SCHEMA_VERSION))

    def create_schema(self) -> None:
        """The tables of a new database (inside the caller's transaction)."""
        self.run_script(SCHEMA)
        self.set_meta("schema_version", str(SCHEMA_VERSION))

    def run_script(self, script: str) -> None:
        """Run SQL statements one by one (``executescript`` would commit our transaction)."""
        for statement in script.split(";"):
            if statement.strip():
                self.connection.execute(statement)

    # -- meta --------------------------------------------------------------------------------

    def meta(self, key: str) -> str | None:
        row = self.connection.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def set_meta(self, key: str, value: str) -> None:
        self.connection.execute(
            "INSERT INTO meta (key, value) VALUES (?, ?) "
            "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            (key, value),
        )

    # -- reading -----------------------------------------------------------------------------

    def frame(self, sql: str, parameters: Sequence[str | int] = ()) -> pd.DataFrame:
        return pd.read_sql_query(sql, self.connection, params=tuple(parameters))

    def lists(self) -> pd.DataFrame:
        """Every known list: period, kind, origin (init/publish), rules."""
        return self.frame("SELECT period, kind, origin, rules FROM lists ORDER BY period, kind")

    def state(self, kind: str, period: str) -> pd.DataFrame:
        """Every player's rating state in ``kind`` as of ``period`` (latest row ≤ period).

        Read once per command (a publish asks for the list in force for every event)."""
        if (kind, period) not in self._states:
            self._states[kind, period] = self._read_state(kind, period)
        return self._states[kind, period].copy()

    def _read_state(self, kind: str, period: str) -> pd.DataFrame:
        return self.frame(
            """
            SELECT r.* FROM ratings r
            JOIN (SELECT player_id, MAX(period) AS period FROM ratings
                  WHERE kind = ? AND period <= ? GROUP BY player_id) latest
              ON r.player_id = latest.player_id AND r.period = latest.period
            WHERE r.kind = ?
            """,
            (kind, period, kind),
        )

    def players(self, player_ids: Sequence[int] | None = None) -> pd.DataFrame:
        if player_ids is None:
            return self.frame("SELECT * FROM players ORDER BY player_id")
        ids = pd.DataFrame({"player_id": list(player_ids)})
        everyone = self.frame("SELECT * FROM players")
        return ids.merge(everyone, on="player_id", how="left")

    def events(self, period: str | None = None) -> pd.DataFrame:
        if period is None:
            return self.frame("SELECT * FROM events ORDER BY event_id")
        return self.frame("SELECT * FROM events WHERE period = ? ORDER BY event_id", (period,))

    def pending(self, kind: str, period: str) -> pd.DataFrame:
        return self.frame(
            "SELECT * FROM pending WHERE kind = ? AND period = ? "
            "ORDER BY player_id, event_id, round",
            (kind, period),
        )

    # -- writing (inside a transaction) ---------------------------------------------------------

    def insert(self, table: str, frame: pd.DataFrame) -> None:
        """Bulk insert (executemany) of a frame's columns into ``table``; missing values
        become NULL."""
        if frame.empty:
            return
        if table == "ratings":
            self._states.clear()
        columns = ", ".join(f'"{name}"' for name in frame.columns)
        marks = ", ".join("?" for _ in frame.columns)
        values = [_sql_values(frame[name]) for name in frame.columns]
        self.connection.executemany(
            f"INSERT INTO {table} ({columns}) VALUES ({marks})", zip(*values, strict=True)
        )


def _sql_values(column: pd.Series) -> list[object]:
    """A column as Python values for sqlite3: numpy columns without missing values as they
    are (one ``tolist``), the others with None for missing."""
    if isinstance(column.dtype, np.dtype) and column.dtype.kind in "biu":
        return column.tolist()
    if isinstance(column.dtype, np.dtype) and column.dtype.kind == "f" and column.notna().all():
        return column.tolist()
    return column.astype(object).where(column.notna(), None).tolist()
