"""Glicko (Glicko-1, docs/systems.md §3): one update per player per period from every
player's state before the period, RD first grown for the periods without games."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import ClassVar

import numpy as np
import pandas as pd

from rating_batch.periods import months_since
from rating_batch.systems.base import (
    SystemBase,
    SystemInput,
    SystemOutcome,
    game_rows,
    outcome_players,
    seeded,
)
from rating_batch.systems.games import PlayedGames
from rating_batch.systems.params import (
    FROM_ELO_RD,
    GLICKO_DEVIATIONS,
    GLICKO_RATINGS,
    Clash,
    field,
    flag,
    number,
)

#: q = ln 10 / 400.
Q = math.log(10) / 400


@dataclass(frozen=True)
class Glicko:
    """Glicko's constants (the ``[glicko]`` section of a rules file)."""

    initial_rating: float = field(1500.0, number(*GLICKO_RATINGS), "rating of an unrated player")
    initial_rd: float = field(350.0, number(*GLICKO_DEVIATIONS), "deviation of an unrated player")
    c: float = field(
        34.6,
        number(0, GLICKO_DEVIATIONS[1]),
        "RD growth per period without games (34.6: RD 50 back to 350 in 100)",
    )
    rd_max: float = field(350.0, number(*GLICKO_DEVIATIONS), "largest RD")
    grow_before_rating: bool = field(
        True, flag, "grow RD for the periods since the last games before rating"
    )
    from_elo_rd: float = field(
        FROM_ELO_RD, number(*GLICKO_DEVIATIONS), "RD of a state made from an Elo rating"
    )

    def inconsistent(self) -> list[Clash]:
        # §3: RD is at most rd_max; a state could not start above it.
        return [
            ((key, "rd_max"), f"{value:g} is more than rd_max {self.rd_max:g}: lower it or "
             "raise rd_max")
            for key in ("initial_rd", "from_elo_rd")
            if (value := getattr(self, key)) > self.rd_max
        ]  # fmt: skip


@dataclass(frozen=True)
class GlickoPeriod:
    """A period under Glicko: per player ``rd_before`` (after growth), ``rating``, ``rd``
    after it, and ``d2`` (d², NaN without games); per game row ``g`` and ``expected``."""

    rd_before: np.ndarray
    rating: np.ndarray
    rd: np.ndarray
    d2: np.ndarray
    g: np.ndarray
    expected: np.ndarray


def g_of(rd: np.ndarray) -> np.ndarray:
    return 1.0 / np.sqrt(1.0 + 3.0 * Q**2 * rd**2 / math.pi**2)


def rate_glicko(
    rating: np.ndarray,
    rd: np.ndarray,
    idle: np.ndarray,
    games: PlayedGames,
    params: Glicko,
) -> GlickoPeriod:
    """The period's update. ``idle``: per player the periods t since their last games
    (docs/systems.md §3; 1 when the list does not say)."""
    r = np.asarray(rating, np.float64)
    grown = np.asarray(rd, np.float64)
    if params.grow_before_rating:
        grown = np.minimum(np.sqrt(grown**2 + params.c**2 * np.asarray(idle)), params.rd_max)
    count = len(r)
    own, other = games.pidx, games.oidx
    g = g_of(grown[other])
    expected = 1.0 / (1.0 + 10.0 ** (-g * (r[own] - r[other]) / 400.0))
    information = np.bincount(own, weights=g**2 * expected * (1.0 - expected), minlength=count)
    improvement = np.bincount(own, weights=g * (games.score - expected), minlength=count)
    played = np.bincount(own, minlength=count) > 0
    d2 = np.full(count, np.nan)
    d2[played] = 1.0 / (Q**2 * information[played])
    new_r, new_rd = r.copy(), grown.copy()
    precision = 1.0 / grown[played] ** 2 + 1.0 / d2[played]
    new_r[played] = r[played] + Q / precision * improvement[played]
    new_rd[played] = np.sqrt(1.0 / precision)
    return GlickoPeriod(grown, new_r, new_rd, d2, g, expected)


class GlickoSystem(SystemBase[Glicko]):
    """Glicko behind the seam (``systems.StateSystem``)."""

    constants = Glicko
    name: ClassVar[str] = "glicko"
    title: ClassVar[str] = "Glicko (Glickman 1999), one update per player per period"
    state: ClassVar[dict[str, str]] = {
        "rating": "Float64",
        "rd": "Float64",
        "last_period": "string",
    }
    explained: ClassVar[str] = (
        "Per game: the player's r, RD grown for the idle periods, the opponent's r and RD, g, "
        "the expected score E and d²; then the new r and RD (docs/systems.md §3)."
    )
    published: ClassVar[str] = "new_rating"
    list_digits: ClassVar[dict[str, int]] = {"rating": 0, "rd": 0}
    notation: ClassVar[dict[str, tuple[str, int]]] = {
        "rating": ("r", 2), "rd": ("RD", 2), "rd_grown": ("RD grown", 2), "d2": ("d²", 2),
        "opponent_rating": ("r_j", 2), "opponent_rd": ("RD_j", 2), "g": ("g", 4),
        "expected": ("E", 4), "new_rating": ("r′", 2), "new_rd": ("RD′", 2),
        "carried_rd": ("RD carried", 2), "last_period": ("last period", 0),
        "new_last_period": ("last period′", 0),
    }  # fmt: skip
    player_values: ClassVar[tuple[str, ...]] = (
        "rating", "rd", "rd_grown", "d2", "new_rating", "new_rd",
    )  # fmt: skip
    carried_as: ClassVar[dict[str, str]] = {"rd": "carried_rd"}
    limits: ClassVar[dict[str, tuple[float, float, str]]] = {
        "rating": (*GLICKO_RATINGS, ""),
        "rd": (1e-9, GLICKO_DEVIATIONS[1], "a rating deviation is above 0"),
    }

    def from_elo(self, elo: pd.Series) -> pd.DataFrame:
        # No last_period: when the player last played is not known (t = 1 per list).
        return seeded(elo, self.state, rating=elo, rd=self._params.from_elo_rd)

    @property
    def from_elo_note(self) -> str:
        return f"rating = Elo, RD {self._params.from_elo_rd:g}, no last_period"

    def rate(self, period: SystemInput) -> SystemOutcome:
        p = self._params
        rating = period.initial("rating", p.initial_rating)
        rd = period.initial("rd", p.initial_rd)
        last = period.state["last_period"].astype("string")
        known = last.notna().to_numpy(bool)
        idle = np.ones(len(rating))
        if period.period is not None and known.any():
            # t: the periods from the list's last_period to the period rated (0 when equal).
            idle[known] = np.maximum(0.0, months_since(period.period, last))[known]
        done = rate_glicko(rating, rd, idle, period.games, p)
        played = np.bincount(period.games.pidx, minlength=len(rating)) > 0
        new_last = last.copy()
        new_last[played] = period.period
        # new_rd is the RD as of this list (grown for a player without games). What the next
        # list carries (docs/systems.md §3): after games, that RD; without games, the RD of
        # the last games while last_period says when they were (the growth is counted from it
        # next time), or, where the list gave no last_period, the RD grown by this period.
        carried = np.where(played | ~known, done.rd, rd)
        after = {"rating": done.rating, "rd": done.rd, "last_period": new_last.to_numpy()}
        players = outcome_players(period, after, {"carried_rd": carried})
        own, other = period.games.pidx, period.games.oidx
        calculations = game_rows(period).assign(
            rating=rating[own], rd=rd[own], rd_grown=done.rd_before[own],
            opponent_rating=rating[other], opponent_rd=done.rd_before[other],
            g=done.g, expected=done.expected, d2=done.d2[own],
            new_rating=done.rating[own], new_rd=done.rd[own],
        )  # fmt: skip
        notes = [
            f"Glicko (docs/systems.md §3): c {p.c:g}, RD at most {p.rd_max:g}, grown for the "
            "periods since the last games (1 where the list gives no last_period)"
        ]
        return SystemOutcome(players, calculations, notes)
