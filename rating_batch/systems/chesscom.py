"""Chess.com, an approximation (docs/systems.md §15): Chess.com says it uses Glicko and
publishes no constants, so this is Glicko-1 (§3) one game at a time, each from both players'
states before it, RD grown for the days since the player's last game. Games are rated in
rating order, a step of games that share no player at once (``games.game_steps``)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

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


class Levels(tuple[tuple[str, float], ...]):
    """The rules file's table of start levels (``[chesscom.start_levels]``), shown as it."""

    def __str__(self) -> str:
        return ", ".join(f"{k} = {r:g}" for k, r in self) if self else "none"


NO_LEVELS = Levels()


def levels(value: Any) -> str:
    """What is wrong with a table of start levels (level = rating), "" if nothing."""
    if isinstance(value, tuple):  # made already
        return ""
    rating = number(*GLICKO_RATINGS)
    if not isinstance(value, Mapping) or not value or any(rating(v) for v in value.values()):
        return (
            "must be a table of the self-assessment's answers and their start ratings, such "
            "as [chesscom.start_levels] with beginner = 800"
        )
    return ""


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
    start_levels: tuple[tuple[str, float], ...] = field(
        NO_LEVELS, levels, "a new player's start rating by the list's start_level (none)"
    )

    def __post_init__(self) -> None:
        # A rules file gives a TOML table ([chesscom.start_levels]); kept as pairs.
        given = self.start_levels
        pairs = given.items() if isinstance(given, Mapping) else given
        object.__setattr__(self, "start_levels",
                           Levels((str(k).strip(), float(v)) for k, v in pairs))  # fmt: skip

    def start_of(self, level: str) -> float | None:
        """The start rating of a self-assessment's answer (case and spaces aside); None: not
        in the table."""
        wanted = level.strip().casefold()
        return next((r for k, r in self.start_levels if k.casefold() == wanted), None)

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
    state: ClassVar[dict[str, str]] = {
        "rating": "Float64", "rd": "Float64", "last_game": "string", "start_level": "string",
    }  # fmt: skip
    # start_level is input only: a new player's self-assessment, made a start rating by the
    # rules file's table (from_list), never carried; a list of new players may give it alone.
    text_checks: ClassVar[dict[str, Callable[[str], str]]] = {
        "last_game": is_iso_day, "start_level": lambda _: "",
    }  # fmt: skip
    alone: ClassVar[tuple[str, ...]] = ("start_level",)
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

    def _levels(self, state: pd.DataFrame) -> tuple[np.ndarray, np.ndarray]:
        """Per row: whether it is a new player's start level, and its start rating (NaN:
        not in the table)."""
        level = state["start_level"].astype("string")
        new = (state["rating"].isna() & level.notna()).to_numpy(bool)
        start_of = self._params.start_of
        pairs = zip(level, new, strict=True)
        starts = np.array([start_of(str(text)) if wanted else None for text, wanted in pairs],
                          dtype=float)  # fmt: skip
        return new, starts

    def list_problems(self, state: pd.DataFrame) -> list[tuple[int, str]]:
        """A new player's start_level the rules file's table does not hold (§15.1 step 3:
        Chess.com publishes no table; the officer fills one in)."""
        new, starts = self._levels(state)
        table = self._params.start_levels
        where = (
            f"the rules file's [chesscom.start_levels] table ({table})"
            if table
            else 'a [chesscom.start_levels] table in a rules file (system = "chesscom"; '
            "Chess.com publishes none)"
        )
        return [
            (int(row), f"start_level {state['start_level'].iloc[row]!r} of a new player has no "
             f"start rating: add it to {where}, e.g. "
             f"{str(state['start_level'].iloc[row]).strip()!r} = 800")
            for row in np.flatnonzero(new & np.isnan(starts))
        ]  # fmt: skip

    def list_columns(self, listing: pd.DataFrame) -> pd.DataFrame:
        # A start level is input only: a published list shows ratings.
        return listing.drop(columns="start_level")

    def from_list(self, state: pd.DataFrame) -> pd.DataFrame:
        # §15.1 step 3: a new player's start rating from his self-assessment by the rules
        # file's table, RD a new player's; the level is input only and not carried.
        new, starts = self._levels(state)
        made = new & ~np.isnan(starts)
        return state.assign(
            rating=state["rating"].astype("Float64").mask(made, pd.Series(starts)),
            rd=state["rd"].astype("Float64").mask(made, self._params.initial_rd),
            start_level=pd.Series(pd.NA, index=state.index, dtype="string"),
        )

    def from_elo(self, elo: pd.Series) -> pd.DataFrame:
        # §15.1 step 3: a start rating from the list (the self-assessment), RD a new player's.
        return seeded(elo, self.state, rating=elo, rd=self._params.initial_rd)

    @property
    def from_elo_note(self) -> str:
        return f"rating = the rating given, RD {self._params.initial_rd:g}, no last game"

    def rate(self, period: SystemInput) -> SystemOutcome:
        p = self._params
        started = self.from_list(period.state.reset_index(drop=True))
        rating = started["rating"].fillna(p.initial_rating).to_numpy(np.float64)
        rd = started["rd"].fillna(p.initial_rd).to_numpy(np.float64)
        last = day_numbers(period.state["last_game"])
        refuse_later_last_games(period, last)
        done = rate_chesscom(rating, rd, last, period.game_days(), period.games, p)
        after = {"rating": done.rating, "rd": done.rd, "last_game": day_texts(done.last_day),
                 "start_level": np.full(len(done.rating), None, dtype=object)}  # fmt: skip
        players = outcome_players(period, after)
        calculations = game_rows(period).assign(**done.rows)
        notes = [
            "Chess.com, an approximation (docs/systems.md §15): Chess.com publishes that it "
            "uses Glicko but not its constants; Glicko one game at a time, c "
            f"{p.c:g} per {p.days_per_period:g} day(s) since the last game, RD at most "
            f"{p.rd_max:g}; players without a rating start at {p.initial_rating:g}/"
            f"{p.initial_rd:g}; the list's rating rounded half away from zero",
        ]
        levelled = int(self._levels(period.state.reset_index(drop=True))[0].sum())
        if levelled:
            notes.append(f"{levelled} new player(s) start from their start_level by the rules "
                         f"file's table ({p.start_levels}), RD {p.initial_rd:g}")  # fmt: skip
        return SystemOutcome(players, calculations, notes)
