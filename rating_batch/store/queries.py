"""``Store``: every SQL statement of the rating database, each behind a named method.

Commands (``rating_batch.monthly``) never write SQL: they ask the store for frames and
give it frames to keep. Writing methods run inside the command's transaction
(``Store.writing()``).
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

import numpy as np
import pandas as pd

from rating_batch.errors import RatingBatchError
from rating_batch.names import name_keys
from rating_batch.periods import INITIAL, Period
from rating_batch.store.database import Connection
from rating_batch.store.opening import open_database

T = TypeVar("T")


class Store(Connection):
    """An open rating database (``open_store``/``create_store``)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._states: dict[tuple[str, str], pd.DataFrame] = {}
        """``state`` read once per (kind, period) until ratings are written again."""

    # -- meta -----------------------------------------------------------------------------------

    def meta(self, key: str) -> str | None:
        row = self.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def set_meta(self, key: str, value: str) -> None:
        self.execute(
            "INSERT INTO meta (key, value) VALUES (?, ?) "
            "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            (key, value),
        )

    # -- lists ----------------------------------------------------------------------------------

    def lists(self) -> pd.DataFrame:
        """Every known list: period, kind, origin (init/publish), rules, edit_mark."""
        return self.frame(
            "SELECT period, kind, origin, rules, edit_mark FROM lists ORDER BY period, kind"
        )

    def initial_period(self) -> Period | None:
        row = self.execute("SELECT MIN(period) FROM lists WHERE origin = 'init'").fetchone()
        return None if row[0] is None else Period.parse(str(row[0]))

    def last_published(self) -> Period | None:
        """The latest published period, over every list kind."""
        row = self.execute("SELECT MAX(period) FROM lists WHERE origin = 'publish'").fetchone()
        return None if row[0] is None else Period.parse(str(row[0]))

    def add_list(self, period: Period, kind: str, origin: str, rules: str) -> None:
        """A new list, marked with the last player edit it has seen (corrections after it
        are the next list's)."""
        self.execute(
            "INSERT INTO lists (period, kind, origin, rules, edit_mark) "
            "VALUES (?, ?, ?, ?, (SELECT COALESCE(MAX(edit_id), 0) FROM player_edits))",
            (period, kind, origin, rules),
        )

    def edit_mark(self, period: Period, kind: str) -> int:
        row = self.execute(
            "SELECT edit_mark FROM lists WHERE period = ? AND kind = ?", (period, kind)
        ).fetchone()
        return 0 if row is None else int(row[0])

    # -- rating states --------------------------------------------------------------------------

    def state(self, kind: str, period: Period) -> pd.DataFrame:
        """Every player's rating state in ``kind`` as of ``period`` (latest row ≤ period).

        Read once per command (a publish asks for the list in force for every event). Each
        player's latest row is found by his key (one look-up a player, in player order), not
        by grouping every row of the history: a list of the tenth year costs what the first
        one does."""
        if (kind, period) not in self._states:
            self._states[kind, period] = self.frame(
                """
                SELECT r.* FROM players p CROSS JOIN ratings r
                WHERE r.player_id = p.player_id AND r.kind = ?1 AND r.period = (
                    SELECT MAX(l.period) FROM ratings l
                    WHERE l.player_id = p.player_id AND l.kind = ?1 AND l.period <= ?2)
                ORDER BY p.player_id
                """,
                (kind, period),
            )
        return self._states[kind, period].copy()

    def insert_ratings(self, rows: pd.DataFrame) -> None:
        self._states.clear()
        self._insert("ratings", rows)

    def pending(self, kind: str, period: Period) -> pd.DataFrame:
        """The first-rating pool kept after ``period``'s list."""
        return self.frame(
            "SELECT * FROM pending WHERE kind = ? AND period = ? "
            "ORDER BY player_id, event_id, round",
            (kind, period),
        )

    def pending_games(self, kind: str, period: Period) -> pd.DataFrame:
        """The pool kept after ``period``'s list with each game's event key and opponent
        (player_id, event, round, opponent_rating, half, game_period, opponent_player)."""
        return self.frame(
            """
            SELECT p.player_id, e.key AS event, p.round, p.opponent_rating, p.half,
                   p.game_period, them.player_id AS opponent_player
            FROM pending p
            JOIN events e ON e.event_id = p.event_id
            LEFT JOIN event_players me
              ON me.event_id = p.event_id AND me.player_id = p.player_id
            LEFT JOIN games g
              ON g.event_id = p.event_id AND g.round = p.round AND g.start_rank = me.start_rank
            LEFT JOIN event_players them
              ON them.event_id = p.event_id AND them.start_rank = g.opponent_rank
            WHERE p.kind = ? AND p.period = ?
            ORDER BY p.player_id, p.game_period, p.event_id, p.round
            """,
            (kind, period),
        )

    def store_publication(
        self, period: Period, kind: str, ratings: pd.DataFrame, pool: pd.DataFrame, rules: str
    ) -> None:
        """A published list: the changed states, the pool after it, and the list itself."""
        self.insert_ratings(ratings)
        self._insert("pending", pool)
        self.add_list(period, kind, "publish", rules)

    def unpublish(self, period: Period) -> dict[str, int]:
        """Everything a publish of ``period`` stored (its lists, states, pools and files);
        how many rows of each were removed."""
        removed = {}
        # By kind and period (the tables' index), not by reading every row of the history.
        kinds = [str(kind) for (kind,) in self.execute("SELECT DISTINCT kind FROM lists")]
        of_period = f"kind IN ({', '.join('?' * len(kinds))}) AND period = ?"
        for table in ("ratings", "pending", "published_files", "lists"):
            where = of_period if table == "ratings" else "period = ?"
            parameters = (*kinds, period) if table == "ratings" else (period,)
            cursor = self.execute(f"DELETE FROM {table} WHERE {where}", parameters)
            removed[table] = cursor.rowcount
        # A system's state is a row per column: counted as the players' states it held.
        states = self.execute(
            "SELECT COUNT(*) FROM (SELECT DISTINCT player_id, kind FROM system_states "
            f"WHERE {of_period})",
            (*kinds, period),
        ).fetchone()[0]
        self.execute(f"DELETE FROM system_states WHERE {of_period}", (*kinds, period))
        removed["ratings"] += int(states)
        self._states.clear()
        return removed

    # -- the other rating systems' states -------------------------------------------------------

    def system_state(self, kind: str, period: Period) -> pd.DataFrame:
        """Every player's state under a rating system in ``kind`` as of ``period``, long:
        player_id, name (the state column), value (each player's latest rows ≤ period)."""
        return self.frame(
            """
            SELECT s.player_id, s.name, s.value FROM players p CROSS JOIN system_states s
            WHERE s.player_id = p.player_id AND s.kind = ?1 AND s.period = (
                SELECT MAX(l.period) FROM system_states l
                WHERE l.player_id = p.player_id AND l.kind = ?1 AND l.period <= ?2)
            ORDER BY s.player_id, s.name
            """,
            (kind, period),
        )

    def player_system_periods(self, player_id: int) -> pd.DataFrame:
        """The published lists (kind, period) where a player's system state was set."""
        return self.frame(
            "SELECT DISTINCT s.kind, s.period FROM system_states s JOIN lists l "
            "ON l.period = s.period AND l.kind = s.kind AND l.origin = 'publish' "
            "WHERE s.player_id = ? ORDER BY s.period, s.kind",
            (player_id,),
        )

    def insert_system_states(self, rows: pd.DataFrame) -> None:
        """Rows of player_id, kind, period, name, value."""
        self._insert("system_states", rows)

    # -- published files ------------------------------------------------------------------------

    def keep_file(self, path: str, where: Path) -> tuple[str, bool, int]:
        """A published file (``path`` within the period's folder, lying at ``where``) kept
        beside the database (``store/files.py``): its digest, whether it is kept deflated, its
        size. No SQL: a forked child may call it for the files it wrote."""
        return self.files.keep(path, where)

    def store_files(
        self,
        period: Period,
        files: Sequence[tuple[str, Path]],
        meanwhile: Callable[[], None] = lambda: None,
        kept: Sequence[tuple[str, str, bool, int]] = (),
    ) -> None:
        """The files the publish of ``period`` wrote (each path within the period's folder,
        and where it lies now): their bytes kept beside the database by two threads, which
        SHA-256 and deflate leave free to run at once, while ``meanwhile`` runs here; then a
        row for each, and for the files ``kept`` already (path, digest, deflated, size)."""
        with ThreadPoolExecutor(max_workers=2) as pool:
            keeping = [pool.submit(self.keep_file, path, where) for path, where in files]
            meanwhile()
            rows = [
                (period, path, digest, int(compressed), size)
                for (path, _), (digest, compressed, size) in zip(
                    files, (each.result() for each in keeping), strict=True
                )
            ]
        rows += [
            (period, path, digest, int(compressed), size) for path, digest, compressed, size in kept
        ]
        self.connection.executemany(
            "INSERT INTO published_files (period, path, digest, compressed, size) "
            "VALUES (?, ?, ?, ?, ?)",
            rows,
        )

    def published_files(self, period: Period) -> Iterator[tuple[str, bytes]]:
        """The files a publish of ``period`` wrote, by path within the period's folder."""
        rows = self.execute(
            "SELECT path, digest, compressed FROM published_files WHERE period = ? ORDER BY path",
            (period,),
        ).fetchall()
        for path, digest, compressed in rows:
            yield str(path), self._kept(str(digest), bool(compressed))

    def published_file(self, period: Period, path: str) -> bytes | None:
        """One file a publish of ``period`` wrote (None if it is not stored)."""
        row = self.execute(
            "SELECT digest, compressed FROM published_files WHERE period = ? AND path = ?",
            (period, path),
        ).fetchone()
        if row is None:
            return None
        return self._kept(str(row[0]), bool(row[1]))

    def _kept(self, digest: str, compressed: bool) -> bytes:
        try:
            return self.files.get(digest, compressed)
        except RatingBatchError as error:
            raise RatingBatchError(f"{self.path}: {error}") from None

    def kept_files(self) -> list[tuple[str, bool]]:
        """Every published file the database names (digest, deflated), once each."""
        return [
            (str(digest), bool(compressed))
            for digest, compressed in self.execute(
                "SELECT DISTINCT digest, compressed FROM published_files ORDER BY digest"
            )
        ]

    def has_published_files(self, period: Period) -> bool:
        row = self.execute(
            "SELECT COUNT(*) FROM published_files WHERE period = ?", (period,)
        ).fetchone()
        return bool(row[0])

    # -- players --------------------------------------------------------------------------------

    def players(self, player_ids: Sequence[int] | None = None) -> pd.DataFrame:
        if player_ids is None:
            return self.frame("SELECT * FROM players ORDER BY player_id")
        ids = pd.DataFrame({"player_id": list(player_ids)})
        return ids.merge(self.frame("SELECT * FROM players"), on="player_id", how="left")

    def player_by_fide_id(self, fide_id: int) -> dict[str, Any] | None:
        return _first(self.frame("SELECT * FROM players WHERE fide_id = ?", (fide_id,)))

    def player_without_fide_id(self, label: str) -> dict[str, Any] | None:
        """A player without a FIDE ID by the id the lists give him: the entry that created
        him (``<event>#<start rank>``, ``list#<line>``)."""
        return _first(
            self.frame("SELECT * FROM players WHERE fide_id IS NULL AND created_by = ?", (label,))
        )

    def insert_players(self, rows: pd.DataFrame) -> None:
        self._insert("players", rows.assign(name_key=name_keys(rows["name"])))

    def next_player_id(self) -> int:
        return int(
            self.execute("SELECT COALESCE(MAX(player_id), 0) + 1 FROM players").fetchone()[0]
        )

    def fill_player_fields(self, fills: pd.DataFrame) -> None:
        """Set fields the database did not know (``player_id``, ``field``, ``old_value``,
        ``value``, ``event_id``), each logged in ``player_edits`` so that ``remove`` can take
        it back and the next list can show it as a correction."""
        for field in fills["field"].unique().tolist():
            rows = fills[fills["field"] == field]
            self._set(field, rows["player_id"], rows["value"])
        self._insert(
            "player_edits",
            pd.DataFrame(
                {
                    "player_id": fills["player_id"].astype("int64").to_numpy(),
                    "field": fills["field"].to_numpy(),
                    "old_value": [_plain(v) for v in fills["old_value"].tolist()],
                    "new_value": [_plain(v) for v in fills["value"].tolist()],
                    "event_id": fills["event_id"].astype("int64").to_numpy(),
                }
            ),
        )

    def _set(self, field: str, player_ids: pd.Series, values: pd.Series) -> None:
        """One identity field of some players (their name key follows their name)."""
        ids = [int(i) for i in player_ids.tolist()]
        plain = [_plain(v) for v in values.tolist()]
        if field == "name":
            keys = name_keys(pd.Series(plain, dtype=object)).tolist()
            self.connection.executemany(
                "UPDATE players SET name = ?, name_key = ? WHERE player_id = ?",
                zip(plain, keys, ids, strict=True),
            )
            return
        self.connection.executemany(
            f"UPDATE players SET {field} = ? WHERE player_id = ?", zip(plain, ids, strict=True)
        )

    def players_created_by(self, label: str) -> pd.DataFrame:
        """The players without a FIDE ID whose public id is ``label`` (``<event>#<rank>``,
        or the id a list gave them)."""
        return self.frame(
            "SELECT * FROM players WHERE fide_id IS NULL AND created_by = ? ORDER BY player_id",
            (label,),
        )

    def player_footprint(self, player_ids: Sequence[int]) -> pd.DataFrame:
        """Where these players are: each one's event entries (``event_id``, ``key``,
        ``period``) and, as ``key`` NULL rows, the periods of their rating states, system
        states and pending games: the lists they are on or counted in."""
        marks = ",".join("?" * len(player_ids))
        ids = tuple(int(p) for p in player_ids)
        return self.frame(
            f"SELECT ep.player_id, e.event_id, e.key, e.period FROM event_players ep "
            f"JOIN events e USING (event_id) WHERE ep.player_id IN ({marks}) "
            f"UNION ALL SELECT player_id, NULL, NULL, period FROM ratings "
            f"WHERE player_id IN ({marks}) "
            f"UNION ALL SELECT player_id, NULL, NULL, period FROM system_states "
            f"WHERE player_id IN ({marks}) "
            f"UNION ALL SELECT player_id, NULL, NULL, period FROM pending "
            f"WHERE player_id IN ({marks})",
            ids * 4,
        )

    def merge_players(self, keep: int, gone: int) -> None:
        """Player ``gone`` becomes ``keep``: his event entries are ``keep``'s, and he and what
        was logged of him go (he must hold no rating state nor pending game)."""
        self.execute("UPDATE event_players SET player_id = ? WHERE player_id = ?", (keep, gone))
        self.execute("DELETE FROM player_edits WHERE player_id = ?", (gone,))
        self.execute("DELETE FROM players WHERE player_id = ?", (gone,))

    def player_edits_after(self, mark: int) -> pd.DataFrame:
        """Edits made after ``mark`` (an ``edit_mark`` of a list), in order."""
        return self.frame(
            "SELECT edit_id, player_id, field, old_value, new_value, event_id FROM player_edits "
            "WHERE edit_id > ? ORDER BY edit_id",
            (mark,),
        )

    def player_history(self, player_id: int) -> pd.DataFrame:
        return self.frame(
            "SELECT kind, period, rating, k, games, games_total, inactive FROM ratings "
            "WHERE player_id = ? ORDER BY kind, period",
            (player_id,),
        )

    def player_pending(self, player_id: int) -> pd.DataFrame:
        """The player's pending first-rating games, as kept after each published list."""
        return self.frame(
            "SELECT p.kind, p.period, e.key AS event, p.round, p.opponent_rating, p.half, "
            "p.game_period FROM pending p JOIN events e USING (event_id) "
            "WHERE p.player_id = ? ORDER BY p.kind, p.period",
            (player_id,),
        )

    def player_published_periods(self, player_id: int) -> pd.DataFrame:
        """The published lists (kind, period) whose events the player played in: the
        periods of the player's state rows (kept in the player's order), each checked
        against that period's events (by their key, not by a search of every entry)."""
        return self.frame(
            "SELECT DISTINCT e.kind, e.period FROM ratings r "
            "JOIN lists l ON l.kind = r.kind AND l.period = r.period AND l.origin = 'publish' "
            "JOIN events e ON e.kind = r.kind AND e.period = r.period "
            "JOIN event_players ep ON ep.event_id = e.event_id AND ep.player_id = r.player_id "
            "WHERE r.player_id = ? ORDER BY e.kind, e.period",
            (player_id,),
        )

    def last_published_by_kind(self) -> pd.DataFrame:
        return self.frame(
            "SELECT kind, MAX(period) AS period FROM lists WHERE origin = 'publish' GROUP BY kind"
        )

    # -- events ---------------------------------------------------------------------------------

    def events(self, period: Period | None = None) -> pd.DataFrame:
        if period is None:
            return self.frame("SELECT * FROM events ORDER BY event_id")
        return self.frame("SELECT * FROM events WHERE period = ? ORDER BY event_id", (period,))

    def events_after(self, period: Period) -> pd.DataFrame:
        """The events of the periods after ``period`` (those not published yet)."""
        return self.frame("SELECT * FROM events WHERE period > ? ORDER BY event_id", (period,))

    def move_events(self, moves: Sequence[tuple[int, Period]]) -> None:
        """Events put in another period: (event_id, period) pairs."""
        self.connection.executemany(
            "UPDATE events SET period = ? WHERE event_id = ?",
            [(period, event_id) for event_id, period in moves],
        )

    def event_by_key(self, key: str) -> dict[str, Any] | None:
        return _first(self.frame("SELECT * FROM events WHERE key = ?", (key,)))

    def event_keys(self) -> list[str]:
        return [str(key) for (key,) in self.execute("SELECT key FROM events")]

    def next_event_id(self) -> int:
        return int(self.execute("SELECT COALESCE(MAX(event_id), 0) + 1 FROM events").fetchone()[0])

    def event_identities(self, wanted: pd.DataFrame) -> pd.DataFrame:
        """The stored events that are the same as one of ``wanted`` (content_hash, name,
        start, end): the same content, or the same name and dates. Looked up by the indexes,
        so the cost does not grow with the database's history."""
        self.execute('CREATE TEMP TABLE IF NOT EXISTS wanted (content_hash, name, start, "end")')
        self.execute("DELETE FROM temp.wanted")
        self._insert("temp.wanted", wanted[["content_hash", "name", "start", "end"]])
        columns = 'e.key, e.period, e.content_hash, e.name, e.start, e."end"'
        return self.frame(
            f"SELECT {columns} FROM temp.wanted w CROSS JOIN events e "
            "ON e.content_hash = w.content_hash UNION "
            f"SELECT {columns} FROM temp.wanted w CROSS JOIN events e ON e.name = w.name "
            'AND e.start IS w.start AND e."end" IS w."end"'
        )

    def events_to_compare(self, first: str, last: str, names: Sequence[str]) -> pd.DataFrame:
        """Stored events that new ones (played ``first``…``last``, ISO dates) might repeat:
        those whose dates overlap theirs, and those with one of ``names`` whatever their
        dates."""
        return self.frame(
            'SELECT event_id, key, name, source, period, COALESCE(start, "end") AS first, '
            'COALESCE("end", start) AS last FROM events '
            'WHERE (COALESCE(start, "end") <= ? AND COALESCE("end", start) >= ?) '
            "OR name IN (SELECT value FROM json_each(?))",
            (last, first, json.dumps(list(names))),
        )

    def played_games(self, event_ids: Sequence[int]) -> pd.DataFrame:
        """The games played over the board in these events, by database player:
        event_id, round, player_id, opponent_id, score."""
        if not len(event_ids):
            return pd.DataFrame(
                {c: pd.Series(dtype="int64") for c in ("event_id", "round", "player_id")}
                | {"opponent_id": pd.Series(dtype="int64"), "score": pd.Series(dtype="float64")}
            )
        marks = ",".join("?" * len(event_ids))
        return self.frame(
            f"""
            SELECT g.event_id, g.round, me.player_id, them.player_id AS opponent_id, g.score
            FROM games g
            JOIN event_players me ON me.event_id = g.event_id AND me.start_rank = g.start_rank
            JOIN event_players them
              ON them.event_id = g.event_id AND them.start_rank = g.opponent_rank
            WHERE g.rated = 1 AND g.event_id IN ({marks})
            """,
            tuple(int(e) for e in event_ids),
        )

    def insert_events(self, rows: pd.DataFrame) -> None:
        self._insert("events", rows)

    def insert_event_players(self, rows: pd.DataFrame) -> None:
        self._insert("event_players", rows)

    def insert_games(self, rows: pd.DataFrame) -> None:
        self._insert("games", rows)

    def period_entries(self, period: Period, kind: str) -> pd.DataFrame:
        """The players of the period's events of ``kind`` (event_players rows)."""
        return self.table_frame(
            "event_players",
            "SELECT ep.* FROM event_players ep JOIN events e USING (event_id) "
            "WHERE e.period = ? AND e.kind = ?",
            (period, kind),
        )

    @contextlib.contextmanager
    def reading_aside(self, work: Callable[[Store], T]) -> Iterator[Future[T]]:
        """``work`` run by a thread of its own on a second, read-only connection, while the
        block reads the rest (SQLite reads without holding Python's lock): its result is the
        future's. The second connection sees what is committed: once this command has
        written anything, ``work`` is done here instead, before the block."""

        def read() -> T:
            with open_database(self.path, Store) as other:
                return work(other)

        if not self.unwritten():
            done: Future[T] = Future()
            done.set_result(work(self))
            yield done
            return
        with ThreadPoolExecutor(max_workers=1) as pool:
            yield pool.submit(read)

    def period_games(self, period: Period, kind: str) -> pd.DataFrame:
        return self.table_frame(
            "games",
            "SELECT g.* FROM games g JOIN events e USING (event_id) "
            "WHERE e.period = ? AND e.kind = ?",
            (period, kind),
        )

    def event_periods(self, after: Period, before: Period) -> list[Period]:
        """Periods strictly between ``after`` and ``before`` that hold events."""
        return [
            Period.parse(str(p))
            for (p,) in self.execute(
                "SELECT DISTINCT period FROM events WHERE period > ? AND period < ? "
                "ORDER BY period",
                (after, before),
            )
        ]

    def earliest_event_period(self) -> Period | None:
        row = self.execute("SELECT MIN(period) FROM events").fetchone()
        return None if row[0] is None else Period.parse(str(row[0]))

    def remove_event(self, event_id: int) -> dict[str, int]:
        """An event and everything only it brought: its games and players' entries, the
        players it created that nothing else refers to, and the identity fields it filled in
        (each set back, then filled from another event that gives it, as ``add`` would have).
        How many rows of each kind were removed."""
        edits = self.frame(
            "SELECT edit_id, player_id, field, old_value FROM player_edits WHERE event_id = ? "
            "ORDER BY edit_id DESC",
            (event_id,),
        )
        reverted = [
            (int(p), str(f)) for p, f in zip(edits["player_id"], edits["field"], strict=True)
        ]
        for (player_id, field), old in zip(reverted, edits["old_value"].tolist(), strict=True):
            self._set(field, pd.Series([player_id]), pd.Series([old], dtype=object))
        self.execute("DELETE FROM player_edits WHERE event_id = ?", (event_id,))
        removed = {
            "games": self.execute("DELETE FROM games WHERE event_id = ?", (event_id,)).rowcount,
            "entries": self.execute(
                "DELETE FROM event_players WHERE event_id = ?", (event_id,)
            ).rowcount,
        }
        referenced = (
            "SELECT player_id FROM event_players UNION SELECT player_id FROM ratings "
            "UNION SELECT player_id FROM pending UNION SELECT player_id FROM player_edits"
        )
        removed["players"] = self.execute(
            f"DELETE FROM players WHERE created_event = ? AND player_id NOT IN ({referenced})",
            (event_id,),
        ).rowcount
        # A player it created whom another event also names: now made by the first of those
        # (one pass over the entries for all of them).
        self.execute(
            "UPDATE players SET created_event = (SELECT first FROM (SELECT player_id, "
            "MIN(event_id) AS first FROM event_players WHERE player_id IN (SELECT player_id "
            "FROM players WHERE created_event = ?) GROUP BY player_id) f "
            "WHERE f.player_id = players.player_id) WHERE created_event = ?",
            (event_id, event_id),
        )
        self.execute("DELETE FROM events WHERE event_id = ?", (event_id,))
        entries = self._entries_of(sorted({player_id for player_id, _ in reverted}))
        for player_id, field in reverted:
            self._refill(player_id, field, entries)
        return removed

    def _entries_of(self, player_ids: Sequence[int]) -> pd.DataFrame:
        """Every stored entry of these players, in one pass over the entries."""
        if not player_ids:
            return pd.DataFrame()
        marks = ",".join("?" * len(player_ids))
        return self.frame(
            f"SELECT * FROM event_players WHERE player_id IN ({marks}) "
            "ORDER BY player_id, event_id, line",
            tuple(int(p) for p in player_ids),
        )

    def _refill(self, player_id: int, field: str, entries: pd.DataFrame) -> None:
        """Fill a field another stored event gives, as its ``add`` would have done."""
        current = self.execute(
            f"SELECT {field} FROM players WHERE player_id = ?", (player_id,)
        ).fetchone()
        if current is None or (current[0] is not None and current[0] != ""):
            return
        if field not in entries:
            return  # an entry does not keep it (a FIDE ID given to a known player)
        mine = entries[entries["player_id"] == player_id]
        values = mine[field]
        filled = mine[values.notna() & (values.astype(str) != "")]
        given = (
            None
            if filled.empty
            else (_plain(filled[field].iloc[0]), int(filled["event_id"].iloc[0]))
        )
        if given is not None:
            self.fill_player_fields(
                pd.DataFrame(
                    {"player_id": [player_id], "field": [field], "old_value": [current[0]],
                     "value": [given[0]], "event_id": [given[1]]}
                )
            )  # fmt: skip

    # -- writing --------------------------------------------------------------------------------

    def create_tables_content(self, rules_name: str, rules_text: str | None) -> None:
        """What a new database knows of its rules."""
        self.set_meta("rules", rules_name)
        if rules_text is not None:
            self.set_meta("rules_text", rules_text)

    def _insert(self, table: str, frame: pd.DataFrame) -> None:
        """Bulk insert (executemany) of a frame's columns into ``table``; missing values
        become NULL."""
        if frame.empty:
            return
        width, length = len(frame.columns), len(frame)
        flat: list[object] = [None] * (width * length)  # row by row
        for number, name in enumerate(frame.columns):
            flat[number::width] = _sql_values(frame[name])
        columns = ", ".join(f'"{name}"' for name in frame.columns)
        row = f"({', '.join('?' * width)})"

        def statement(rows: int) -> str:
            return f"INSERT INTO {table} ({columns}) VALUES {', '.join([row] * rows)}"

        # Many rows a statement: a quarter faster than a statement a row for 10^6 games.
        per = max(1, min(ROWS_PER_INSERT, self.connection.getlimit(VARIABLES) // width))
        whole, step = length // per * per, per * width
        if whole:
            self.connection.executemany(
                statement(per), (flat[at : at + step] for at in range(0, whole * width, step))
            )
        if whole < length:
            self.connection.execute(statement(length - whole), flat[whole * width :])


#: Rows inserted by one statement (``_insert``), within SQLite's limit of bound values.
ROWS_PER_INSERT = 200
VARIABLES = sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER


def _first(frame: pd.DataFrame) -> dict[str, Any] | None:
    """A frame's first row as a dict (None when it has none)."""
    if frame.empty:
        return None
    return {str(name): value for name, value in frame.iloc[0].items()}


def _plain(value: object) -> object:
    """A value sqlite3 takes: numpy scalars as Python ones, missing as None."""
    if value is None or value is pd.NA or (isinstance(value, float) and np.isnan(value)):
        return None
    if isinstance(value, np.generic):
        return value.item()
    return value


def _sql_values(column: pd.Series) -> list[object]:
    """A column as Python values for sqlite3: numpy columns without missing values as they
    are (one ``tolist``), the others with None for missing."""
    if isinstance(column.dtype, np.dtype) and column.dtype.kind in "biu":
        return column.tolist()
    if isinstance(column.dtype, np.dtype) and column.dtype.kind == "f" and column.notna().all():
        return column.tolist()
    return column.astype(object).where(column.notna(), None).tolist()


__all__ = ["INITIAL", "Store"]
