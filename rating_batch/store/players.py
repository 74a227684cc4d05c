"""The players of the rating database: who they are, their identities across events and
the corrections made to them (``Store``'s players part)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pandas as pd

from rating_batch.names import name_keys
from rating_batch.store.tables import Tables, first_row, plain_value

#: A player (``p``) who had no FIDE ID and received one: his ``created_by`` is the id the
#: lists gave him before (monthly/identify.py and monthly/edit.py log the FIDE ID given).
_RECEIVED = (
    "EXISTS (SELECT 1 FROM player_edits e WHERE e.player_id = p.player_id "
    "AND e.field = 'fide_id' AND e.old_value IS NULL)"
)


class PlayerQueries(Tables):
    """The players table and its edits."""

    # -- players --------------------------------------------------------------------------------

    def players(self, player_ids: Sequence[int] | None = None) -> pd.DataFrame:
        if player_ids is None:  # the whole table (add's identification): a column at a time
            return self.table_frame("players", "SELECT * FROM players ORDER BY player_id")
        ids = pd.DataFrame({"player_id": list(player_ids)})
        return ids.merge(self.frame("SELECT * FROM players"), on="player_id", how="left")

    def player_by_fide_id(self, fide_id: int) -> dict[str, Any] | None:
        return first_row(self.frame("SELECT * FROM players WHERE fide_id = ?", (fide_id,)))

    def players_by_national_id(self, national_id: str) -> pd.DataFrame:
        """The players holding the federation's id ``national_id`` (compared in capitals
        without surrounding spaces, docs/formats.md §11.1): one, or none."""
        return self.frame(
            "SELECT * FROM players WHERE upper(trim(national_id)) = ? ORDER BY player_id",
            (national_id.strip().upper(),),
        )

    def player_by_former_id(self, label: str) -> dict[str, Any] | None:
        """The player the lists named ``label`` (``<event>#<start rank>``) until he received
        a FIDE ID (a ``fide_id`` edit from none: ``add`` or ``edit-player`` gave it)."""
        return first_row(
            self.frame(
                f"SELECT * FROM players p WHERE p.fide_id IS NOT NULL AND p.created_by = ? "
                f"AND {_RECEIVED}",
                (label,),
            )
        )

    def player_by_entry(self, label: str) -> dict[str, Any] | None:
        """The player who holds the entry ``label`` names (``<event>#<start rank>``) now:
        after a merge, the player the one who played there became (None: no such entry)."""
        key, _, rank = label.rpartition("#")
        if not key or not rank.isascii() or not rank.isdigit():
            return None
        return first_row(
            self.frame(
                "SELECT p.* FROM players p JOIN event_players ep USING (player_id) "
                "JOIN events e USING (event_id) WHERE e.key = ? AND ep.start_rank = ?",
                (key, int(rank)),
            )
        )

    def former_id(self, player_id: int) -> str | None:
        """The id the lists named the player by before he received his FIDE ID (None when
        he had it from the start): a published file never changes, so those lists still
        name him by it."""
        found = self.execute(
            f"SELECT p.created_by FROM players p WHERE p.player_id = ? "
            f"AND p.fide_id IS NOT NULL AND {_RECEIVED}",
            (player_id,),
        ).fetchone()
        return None if found is None else str(found[0])

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
                    "old_value": [plain_value(v) for v in fills["old_value"].tolist()],
                    "new_value": [plain_value(v) for v in fills["value"].tolist()],
                    "event_id": fills["event_id"].astype("int64").to_numpy(),
                }
            ),
        )

    def _set(self, field: str, player_ids: pd.Series, values: pd.Series) -> None:
        """One identity field of some players (their name key follows their name)."""
        ids = [int(i) for i in player_ids.tolist()]
        plain = [plain_value(v) for v in values.tolist()]
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
