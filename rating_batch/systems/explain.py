"""A player's explanation under a rating system other than FIDE Elo (docs/systems.md §7): per
published list his row of players.csv and his rows of calculations.csv, as the files that
publish stored hold them, and what the reports (``writers.player``) show of them: the
state after each list, the values that are his in a list, and those of each game or event.
Nothing is computed here: every number is one the publish wrote."""

from __future__ import annotations

from dataclasses import dataclass, field

import pandas as pd

from rating_batch.periods import Period
from rating_batch.systems.base import StateSystem
from rating_batch.systems.elo.explain import in_list_order, player_heading

#: Columns of calculations.csv that name the row rather than explain it.
NAMING = ("id", "name", "opponent_id")
#: Columns of players.csv that say who the player is, or what he did, not his state.
IDENTITY = ("id", "name", "federation", "games", "score", "status")


@dataclass(frozen=True)
class SystemListPart:
    """One published list of the player: ``player`` is his players.csv row, ``rows`` his
    calculations.csv rows (none: no game counted for him in the period)."""

    kind: str
    period: Period
    previous: Period | None
    """The list before it, whose state he started from (None: none)."""
    player: dict[str, object]
    rows: pd.DataFrame

    @property
    def played(self) -> bool:
        return len(self.rows) > 0


@dataclass(frozen=True)
class SystemPlayerReport:
    """A player under ``system``: who he is and every published list that holds him."""

    label: str
    name: str
    federation: str | None
    born: str | None
    system: StateSystem
    parts: list[SystemListPart] = field(default_factory=list)
    fide_id: str | None = None
    """The FIDE ID (``label``), or None for a player without one."""
    title: str | None = None

    def heading(self) -> str:
        return player_heading(self, self.system.id_name)

    def state_columns(self) -> list[str]:
        return list(self.system.state)

    def extras(self, part: SystemListPart) -> list[str]:
        """players.csv's columns of the system's own beside the state: ``carried_rd``,
        ``conservative``, ``performance``, ``elo_equivalent``."""
        state = {*self.system.state, *(f"new_{c}" for c in self.system.state)}
        return [c for c in part.player if c not in IDENTITY and c not in state]

    def history(self) -> pd.DataFrame:
        """One row per list: kind, period, status, games, score and the state after it
        (under the state's names) with the system's own columns; first the list before the
        first one, with the state the player started from, if he had one."""
        rows: list[dict[str, object]] = []
        seen: set[str] = set()
        for part in self.parts:
            if part.kind not in seen:
                seen.add(part.kind)
                before = {c: part.player.get(c) for c in self.state_columns()}
                numbers = [c for c, d in self.system.state.items() if d != "string"]
                if part.previous is not None and all(_given(part.player.get(c)) for c in numbers):
                    rows.append({"kind": part.kind, "period": part.previous, **before})
            after = {c: part.player.get(f"new_{c}") for c in self.state_columns()}
            extras = {c: part.player.get(c) for c in self.extras(part)}
            rows.append(
                {"kind": part.kind, "period": part.period, "status": part.player.get("status"),
                 "games": part.player.get("games"), "score": part.player.get("score"),
                 **after, **extras}
            )  # fmt: skip
        frame = pd.DataFrame(rows)
        if frame.empty:
            return frame
        first = ["kind", "period", "status", "games", "score"]
        return in_list_order(frame[first + [c for c in frame.columns if c not in first]])

    def before_values(self, part: SystemListPart) -> dict[str, object]:
        """The player's values as a list's calculation starts: the state before it, then his
        values of the period's calculation (Glicko-2's v and Δ, Glicko's grown RD and d²)."""
        values = {c: part.player[c] for c in self.state_columns() if c in part.player}
        own = [c for c in self.once(part) if c not in part.player]
        return values | {c: part.rows[c].iloc[0] for c in own}

    def once(self, part: SystemListPart) -> list[str]:
        """The system's ``player_values`` that are the same on all his rows of the list:
        shown once; one that differs between his events (the DWZ's values of each event,
        docs/systems.md §10.9) stays with the games."""
        return [c for c in self.system.player_values
                if c in part.rows and part.rows[c].nunique(dropna=False) <= 1]  # fmt: skip

    def after_values(self, part: SystemListPart) -> dict[str, object]:
        """The state after a list (``new_<column>``) and the system's own columns."""
        after = [f"new_{c}" for c in self.state_columns() if f"new_{c}" in part.player]
        return {c: part.player[c] for c in [*after, *self.extras(part)]}

    def game_rows(self, part: SystemListPart) -> pd.DataFrame:
        """His rows of the period's calculation without the values that are his in the
        period: per game (Glicko, Glicko-2, TrueSkill) or per event (Harkness, Ingo)."""
        once = self.once(part)
        kept = [c for c in part.rows.columns if c not in NAMING and c not in once]
        return part.rows[kept]


def _given(value: object) -> bool:
    """Not missing (None, NA or NaN, as a CSV's empty cell is read)."""
    return not (value is None or value is pd.NA or (isinstance(value, float) and value != value))
