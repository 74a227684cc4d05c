"""Chess.com, an approximation (docs/systems.md §15): Chess.com says it uses Glicko and
publishes no constants, so this is Glicko-1 (§3) one game at a time, each from both players'
states before it, RD grown for the days since the player's last game. Games are rated in
rating order, a step of games that share no player at once (``games.game_steps``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar

import numpy as np
import pandas as pd

from rating_batch.periods import Period
from rating_batch.systems.base import (
    SystemBase,
    SystemInput,
    SystemOutcome,
    game_rows,
    outcome_players,
    seeded,
)
from rating_batch.systems.games import PlayedGames, game_steps
from rating_batch.systems.glicko import GlickoSystem, Q, g_of
from rating_batch.systems.lichess import (
    after_month,
    day_numbers,
    day_texts,
    is_iso_day,
    refuse_later_last_games,
)
from rating_batch.systems.params import GLICKO_DEVIATIONS, GLICKO_RATINGS, Clash, field, number


@dataclass(frozen=True)
class Chesscom:
    """The Chess.com approximation's constants (the ``[chesscom]`` section of a rules file):
    Chess.com publishes none but the family, so each is Glicko's or a decision."""

    initial_rating: float = field(
        1200.0, number(*GLICKO_RATINGS), "rating of a player with none in a list or file"
    )
    initial_rd: float = field(350.0, number(*GLICKO_DEVIATIONS), "RD of a new player")
    c: float = field(34.6, number(0, GLICKO_DEVIATIONS[1]), "RD growth per period without games")
    days_per_period: float = field(
        1.0, number(0, 3660, above=True), "days in one period of the RD growth"
    )
    rd_max: float = field(350.0, number(*GLICKO_DEVIATIONS), "largest RD")

    def inconsistent(self) -> list[Clash]:
        if self.initial_rd > self.rd_max:
            return [(("initial_rd", "rd_max"), f"{self.initial_rd:g} is more than rd_max "
                     f"{self.rd_max:g}: lower it or raise rd_max")]  # fmt: skip
        return []


@dataclass(frozen=True)
class ChesscomGames:
    """Per player the state after the period; per game row what its update was made of."""

    rating: np.ndarray
    rd: np.ndarray
    last_day: np.ndarray
    rows: dict[str, np.ndarray]


def rate_chesscom(
    rating: np.ndarray, rd: np.ndarray, last_day: np.ndarray, day: np.ndarray,
    games: PlayedGames, p: Chesscom,
) -> ChesscomGames:  # fmt: skip
    """Every game in rating order (docs/systems.md §15.1): RD grown for the periods since
    the last game, then Glicko-1 over that one game from both players' grown states."""
    r, d, last = (np.asarray(a, np.float64).copy() for a in (rating, rd, last_day))
    names = ("rating_before", "rd_before", "days", "rd_grown", "opponent_rating",
             "opponent_rd", "g", "expected", "d2", "new_rating", "new_rd")  # fmt: skip
    rows = {name: np.full(len(games), np.nan) for name in names}
    for one, two in game_steps(games):
        both = np.concatenate([one, two])
        me = games.pidx[both]
        days = np.maximum(day[both] - last[me], 0.0)  # NaN: no last game, or undated
        grown = np.sqrt(d[me] ** 2 + p.c**2 * np.nan_to_num(days) / p.days_per_period)
        grown = np.minimum(grown, p.rd_max)
        half = len(one)
        swap = np.concatenate([np.arange(half, 2 * half), np.arange(half)])
        g = g_of(grown[swap])
        expected = 1.0 / (1.0 + 10.0 ** (-g * (r[me] - r[me][swap]) / 400.0))
        d2 = 1.0 / (Q**2 * g**2 * expected * (1.0 - expected))
        precision = 1.0 / grown**2 + 1.0 / d2
        new_r = r[me] + Q / precision * g * (games.score[both] - expected)
        new_d = np.sqrt(1.0 / precision)
        shown = {"rating_before": r[me], "rd_before": d[me], "days": days, "rd_grown": grown,
                 "opponent_rating": r[me][swap], "opponent_rd": grown[swap], "g": g,
                 "expected": expected, "d2": d2, "new_rating": new_r, "new_rd": new_d}  # fmt: skip
        for name in names:
            rows[name][both] = shown[name]
        r[me], d[me] = new_r, new_d
        last[me] = np.fmax(last[me], day[both])
    return ChesscomGames(r, d, last, rows)


class ChesscomSystem(SystemBase[Chesscom]):
    """The Chess.com approximation behind the seam (``systems.StateSystem``)."""

    constants = Chesscom
    name: ClassVar[str] = "chesscom"
    title: ClassVar[str] = "Chess.com (an approximation: Glicko one game at a time)"
    state: ClassVar[dict[str, str]] = {"rating": "Float64", "rd": "Float64", "last_game": "string"}
    text_checks: ClassVar[dict[str, Callable[[str], str]]] = {"last_game": is_iso_day}
    explained: ClassVar[str] = (
        "Per game, in the order rated: the player's r and RD before it, the days since his "
        "last game and the RD grown for them, the opponent's r and grown RD, g, E and d² of "
        "Glicko over that one game, then r and RD after it (docs/systems.md §15)."
    )
    published: ClassVar[str] = "new_rating"
    list_digits: ClassVar[dict[str, int]] = {"rating": 0, "rd": 2}
    notation: ClassVar[dict[str, tuple[str, int]]] = {
        "rating_before": ("r", 2), "rd_before": ("RD", 2), "days": ("days", 0),
        "rd_grown": ("RD grown", 2), "opponent_rating": ("r_j", 2), "opponent_rd": ("RD_j", 2),
        "g": ("g", 4), "expected": ("E", 4), "d2": ("d²", 2), "new_rating": ("r′", 2),
        "new_rd": ("RD′", 2), "rating": ("r", 2), "rd": ("RD", 2),
        "last_game": ("last game", 0), "new_last_game": ("last game′", 0),
    }  # fmt: skip
    limits: ClassVar[dict[str, tuple[float, float, str]]] = GlickoSystem.limits
    seeds_from_file: ClassVar[bool] = True

    def list_month_problems(self, state: pd.DataFrame, month: Period) -> list[tuple[int, str]]:
        return after_month(state, month)

    def from_elo(self, elo: pd.Series) -> pd.DataFrame:
        # §15.1 step 3: a start rating from the list (the self-assessment), RD a new player's.
        return seeded(elo, self.state, rating=elo, rd=self._params.initial_rd)

    @property
    def from_elo_note(self) -> str:
        return f"rating = the rating given, RD {self._params.initial_rd:g}, no last game"

    def rate(self, period: SystemInput) -> SystemOutcome:
        p = self._params
        rating = period.initial("rating", p.initial_rating)
        rd = period.initial("rd", p.initial_rd)
        last = day_numbers(period.state["last_game"])
        refuse_later_last_games(period, last)
        done = rate_chesscom(rating, rd, last, period.game_days(), period.games, p)
        after = {"rating": done.rating, "rd": done.rd, "last_game": day_texts(done.last_day)}
        players = outcome_players(period, after)
        calculations = game_rows(period).assign(**done.rows)
        notes = [
            "Chess.com, an approximation (docs/systems.md §15): Chess.com publishes that it "
            "uses Glicko but not its constants; Glicko one game at a time, c "
            f"{p.c:g} per {p.days_per_period:g} day(s) since the last game, RD at most "
            f"{p.rd_max:g}; players without a rating start at {p.initial_rating:g}/"
            f"{p.initial_rd:g}; the list's rating rounded half away from zero",
        ]
        return SystemOutcome(players, calculations, notes)
