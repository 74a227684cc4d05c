"""The events of the rating database: their rows, entries and games, moved between periods
and removed (``Store``'s events part). An event's games are one row of packed columns
(``packed.py``), read and written only here."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import pandas as pd

from rating_batch.periods import Period
from rating_batch.store.packed import damaged, pack, unpack
from rating_batch.store.players import PlayerQueries
from rating_batch.store.tables import first_row, plain_value


class EventQueries(PlayerQueries):
    """The events, event_players and event_games tables."""

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

    def event_sizes(self) -> pd.DataFrame:
        """Every stored event with its size, by period then key: key, name, source, start,
        end, kind, period, players (entries) and games (played over the board, each once)."""
        return self.frame(
            """
            SELECT e.key, e.name, e.source, e.start, e."end", e.kind, e.period,
                (SELECT COUNT(*) FROM event_players p WHERE p.event_id = e.event_id) AS players,
                COALESCE((SELECT g.played FROM event_games g
                 WHERE g.event_id = e.event_id), 0) / 2 AS games
            FROM events e ORDER BY e.period, e.key
            """
        )

    def event_by_key(self, key: str) -> dict[str, Any] | None:
        return first_row(self.frame("SELECT * FROM events WHERE key = ?", (key,)))

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
        games = self.games_of(event_ids)
        games = games[(games["rated"] == 1) & games["opponent_rank"].notna()]
        seats = self._seats(event_ids)
        mine = games.merge(seats, on=["event_id", "start_rank"])
        theirs = seats.rename(columns={"start_rank": "opponent_rank", "player_id": "opponent_id"})
        mine = mine.astype({"opponent_rank": "int64"}).merge(
            theirs, on=["event_id", "opponent_rank"]
        )
        return mine[["event_id", "round", "player_id", "opponent_id", "score"]].reset_index(
            drop=True
        )

    def _seats(self, event_ids: Sequence[int]) -> pd.DataFrame:
        """Who sat at each start rank of these events: event_id, start_rank, player_id."""
        return self.frame(
            "SELECT event_id, start_rank, player_id FROM event_players "
            "WHERE event_id IN (SELECT value FROM json_each(?))",
            (_id_list(event_ids),),
        ).astype("int64")

    def games_of(self, event_ids: Sequence[int]) -> pd.DataFrame:
        """These events' games, a row per player-game as the engine's games frame by start
        rank (``packed.COLUMNS``), by event, round and start rank."""
        return self._unpacked(
            "SELECT e.event_id, e.key, g.rows, g.format, g.data FROM events e "
            "LEFT JOIN event_games g USING (event_id) "
            "WHERE e.event_id IN (SELECT value FROM json_each(?)) ORDER BY e.event_id",
            (_id_list(event_ids),),
        )

    def _unpacked(self, sql: str, parameters: tuple[object, ...]) -> pd.DataFrame:
        """The games of the events ``sql`` selects (event_id, key, rows, format, data, the
        games' row LEFT JOINed: every stored event has one, ``add`` refuses an event with
        no game, so a missing one is damage, never an event without games)."""
        stored, names = [], {}
        for event_id, key, rows, layout, data in self.execute(sql, parameters):
            names[int(event_id)] = f"event {key}"
            if data is None:
                raise damaged(f"event {key}", "its games are not in the database")
            stored.append((int(event_id), int(rows), int(layout), bytes(data)))
        return unpack(stored, names)

    def insert_events(self, rows: pd.DataFrame) -> None:
        self._insert("events", rows)

    def insert_event_players(self, rows: pd.DataFrame) -> None:
        self._insert("event_players", rows)

    def insert_games(self, rows: pd.DataFrame) -> None:
        """Games (``packed.COLUMNS``, a row per player-game) stored in their events' rows of
        packed games: a new row for an event without games (an ``add``'s), the row rewritten
        with them for an event that has some (a game twice is refused, as the table of rows
        refused it)."""
        if rows.empty:
            return
        ids = _id_list(sorted(set(rows["event_id"])))
        held = [
            int(e)
            for (e,) in self.execute(
                "SELECT event_id FROM event_games WHERE event_id IN "
                "(SELECT value FROM json_each(?))",
                (ids,),
            )
        ]
        new = rows[~rows["event_id"].isin(held)]
        if held:
            more = pd.concat([self.games_of(held), rows[rows["event_id"].isin(held)]])
            self.connection.executemany(
                "UPDATE event_games SET rows = ?, played = ?, format = ?, data = ? "
                "WHERE event_id = ?",
                [(p.rows, p.played, p.format, p.data, p.event_id) for p in pack(more)],
            )
        if new.empty:
            return
        with self._journaled("event_games", new):
            self.connection.executemany(
                "INSERT INTO event_games (event_id, rows, played, format, data) "
                "VALUES (?, ?, ?, ?, ?)",
                [(p.event_id, p.rows, p.played, p.format, p.data) for p in pack(new)],
            )

    def period_entries(self, period: Period, kind: str) -> pd.DataFrame:
        """The players of the period's events of ``kind`` (event_players rows)."""
        return self.table_frame(
            "event_players",
            "SELECT ep.* FROM event_players ep JOIN events e USING (event_id) "
            "WHERE e.period = ? AND e.kind = ?",
            (period, kind),
        )

    def period_games(self, period: Period, kind: str) -> pd.DataFrame:
        """The games of the period's events of ``kind``, as ``games_of``."""
        return self._unpacked(
            "SELECT e.event_id, e.key, g.rows, g.format, g.data FROM events e "
            "LEFT JOIN event_games g USING (event_id) WHERE e.period = ? AND e.kind = ? "
            "ORDER BY e.event_id",
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
        rows = self.execute("SELECT rows FROM event_games WHERE event_id = ?", (event_id,))
        games = sum(int(count) for (count,) in rows.fetchall())  # player-game rows, as before
        self.execute("DELETE FROM event_games WHERE event_id = ?", (event_id,))
        removed = {
            "games": games,
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
            else (plain_value(filled[field].iloc[0]), int(filled["event_id"].iloc[0]))
        )
        if given is not None:
            self.fill_player_fields(
                pd.DataFrame(
                    {"player_id": [player_id], "field": [field], "old_value": [current[0]],
                     "value": [given[0]], "event_id": [given[1]]}
                )
            )  # fmt: skip


def _id_list(event_ids: Sequence[int]) -> str:
    """Event ids as the JSON array ``json_each(?)`` reads in a query."""
    return json.dumps([int(e) for e in event_ids])
