"""The ECF grade (docs/systems.md §11): Richard Clarke's method, used by the British and then
the English Chess Federation from 1958 to 2020. A period batch over a season: each counted
game scores the opponent's grade (held within 40 points of the player's own) ± 50, the new
grade is the season's mean, topped up from the previous grade to 30 games; ungraded players
get estimates, iterated together until they settle."""

from __future__ import annotations

import dataclasses
import datetime as dt
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np
import pandas as pd

from rating_batch.periods import months_since
from rating_batch.schema import NationalId
from rating_batch.systems.base import (
    ECF_CODE,
    SystemBase,
    SystemInput,
    SystemOutcome,
    game_rows,
    outcome_players,
    seeded,
)
from rating_batch.systems.games import PlayedGames
from rating_batch.systems.params import field, number, one_of

#: The categories of a published grade by the games it rests on (docs/systems.md §11.4):
#: (least games, letter), after A (30 games this season) and B (30 with the top-up).
CATEGORY_FLOORS = ((20, "D"), (10, "E"), (5, "F"))


@dataclass(frozen=True)
class EcfGrade:
    """The ECF grade's constants (the ``[ecf-grade]`` section of a rules file)."""

    season: str = field(
        "half-yearly",
        one_of("annual", "half-yearly"),
        "annual (June to May, list YYYY-07, to 2011) or half-yearly (lists -07 and -01)",
    )
    points_per_result: float = field(
        50.0, number(0, 200, above=True), "points above or below the opponent's grade for a win"
    )
    gap_cap: float = field(
        40.0, number(0, 400, above=True), "largest difference to an opponent's grade used"
    )
    full_games: int = field(30, number(1, 1000), "games a grade rests on in full")
    lookback_months: int = field(
        36, number(0, 1200), "months a previous grade stays usable after its list"
    )
    junior_increment: float = field(
        0.0, number(0, 100), "added before the season to the grade of a player under 18"
    )
    junior_age: int = field(18, number(1, 100), "age below which a player is a junior")
    min_published: int = field(5, number(1, 1000), "games a published grade needs")
    estimate_tolerance: float = field(
        0.005, number(0, 10, above=True), "estimates of ungraded players settle within this"
    )
    estimate_rounds: int = field(100, number(1, 10000), "most rounds of the estimates")


@dataclass(frozen=True)
class GradeSeason:
    """A season rated: per player the ``grade`` and ``grade_games`` after it (NaN: still
    ungraded), the counted games ``n``, their mean ``average`` (A), the ``top_up`` k, the
    first estimate and each round's estimate of the ungraded (``estimates``: rounds ×
    players, NaN where none); per game row ``counted``, the opponent's grade or estimate
    ``opponent_grade``, the grade used after the 40-point rule and the game points ``points``."""

    grade: np.ndarray
    grade_games: np.ndarray
    n: np.ndarray
    average: np.ndarray
    top_up: np.ndarray
    first_estimate: np.ndarray
    estimates: np.ndarray
    counted: np.ndarray
    opponent_grade: np.ndarray
    grade_used: np.ndarray
    points: np.ndarray


def game_points(
    own: np.ndarray, opponent: np.ndarray, score: np.ndarray, params: EcfGrade
) -> tuple[np.ndarray, np.ndarray]:
    """(the opponent's grade used, the game's points): the opponent's grade held within
    ``gap_cap`` of ``own`` (NaN: no own grade, no cap), ± ``points_per_result`` for a win or a
    loss (docs/systems.md §11.3)."""
    low, high = own - params.gap_cap, own + params.gap_cap
    used = np.where(np.isnan(own), opponent, np.clip(opponent, low, high))
    return used, used + params.points_per_result * (2.0 * score - 1.0)


def _mean(pidx: np.ndarray, weights: np.ndarray, count: int) -> tuple[np.ndarray, np.ndarray]:
    """(the number of rows, the mean of ``weights``) per player (NaN without rows)."""
    n = np.bincount(pidx, minlength=count).astype(np.float64)
    total = np.bincount(pidx, weights=weights, minlength=count)
    with np.errstate(invalid="ignore", divide="ignore"):
        return n, np.where(n > 0, total / np.maximum(n, 1.0), np.nan)


def estimate_ungraded(
    grade: np.ndarray, games: PlayedGames, params: EcfGrade
) -> tuple[np.ndarray, np.ndarray]:
    """The ungraded players' estimates (docs/systems.md §11.5): first the mean of the graded
    opponents' grades ± 50 (no 40-point rule), then, all together, the mean of the game
    points of every game against a player with a grade or an estimate, opponents at their
    current estimates held within 40 of his, until none moves by more than the tolerance.
    Returns (the final estimate, each round's estimates: rounds × players); NaN where a
    player is graded or has no game against a graded player."""
    count = len(grade)
    own, other, score = games.pidx, games.oidx, games.score
    graded = ~np.isnan(grade)
    first = ~graded[own] & graded[other]
    result = params.points_per_result * (2.0 * score - 1.0)
    n, mean = _mean(own[first], (grade[other] + result)[first], count)
    estimate = np.where(~graded & (n > 0), mean, np.nan)
    rounds = [estimate]
    for _ in range(params.estimate_rounds):
        value = np.where(graded, grade, estimate)
        rows = ~np.isnan(estimate[own]) & ~np.isnan(value[other])
        _, points = game_points(estimate[own][rows], value[other][rows], score[rows], params)
        _, mean = _mean(own[rows], points, count)
        moved = np.where(np.isnan(estimate), np.nan, mean)
        change = np.abs(moved - estimate)
        estimate = moved
        rounds.append(estimate)
        if not np.any(change > params.estimate_tolerance):
            break
    return estimate, np.vstack(rounds)


def rate_grades(
    grade: np.ndarray, grade_games: np.ndarray, games: PlayedGames, params: EcfGrade
) -> GradeSeason:
    """A season (docs/systems.md §11.3–§11.5). ``grade``: each player's previous grade (NaN:
    ungraded), the junior increment already added; ``grade_games``: the games it rests on as
    far as it tops up (0 for a grade too old to use: k = 0)."""
    count = len(grade)
    estimate, rounds = estimate_ungraded(grade, games, params)
    graded = ~np.isnan(grade)
    value = np.where(graded, grade, estimate)
    own, other = games.pidx, games.oidx
    counted = ~np.isnan(value[own]) & ~np.isnan(value[other])
    used, points = game_points(value[own], value[other], games.score, params)
    used, points = np.where(counted, used, np.nan), np.where(counted, points, np.nan)
    n, average = _mean(own[counted], points[counted], count)
    full = float(params.full_games)
    # §11.4: fewer than 30 games are filled from the previous grade, as far as it reaches.
    top_up = np.where(graded & (n < full), np.minimum(full - n, grade_games), 0.0)
    total = n + top_up
    with np.errstate(invalid="ignore", divide="ignore"):
        blended = (n * np.nan_to_num(average) + top_up * np.nan_to_num(grade)) / total
    new_grade = np.where(graded, np.where(n > 0, blended, grade), np.where(n > 0, estimate, np.nan))
    new_games = np.where(
        graded & (n == 0), grade_games, np.where(np.isnan(new_grade), np.nan, total)
    )
    return GradeSeason(
        grade=new_grade,
        grade_games=np.minimum(new_games, full),
        n=n,
        average=average,
        top_up=np.where(np.isnan(new_grade), np.nan, top_up),
        first_estimate=rounds[0],
        estimates=rounds,
        counted=counted,
        opponent_grade=np.where(counted, value[other], np.nan),
        grade_used=used,
        points=points,
    )


def categories(n: np.ndarray, games: np.ndarray, params: EcfGrade) -> np.ndarray:
    """Each grade's category (docs/systems.md §11.4): A on ``full_games`` games this season,
    B on as many with the top-up, D, E, F by the games it rests on; empty under
    ``min_published`` games (no grade published) or without a grade."""
    full = float(params.full_games)
    known = ~np.isnan(games)
    rests = np.nan_to_num(games)
    choices = [n >= full, rests >= full]
    letters = ["A", "B"]
    for least, name in CATEGORY_FLOORS:
        choices.append(rests >= least)
        letters.append(name)
    chosen = np.select(choices, letters, default="")
    return np.where(known & (rests >= params.min_published), chosen, "")


def season_list(end: dt.date, season: str) -> str:
    """The list a season's grades appear in (``YYYY-MM``) for an event ending on ``end``
    (docs/systems.md §11.1)."""
    if season == "annual":  # 1 June to 31 May: list of July after it
        return f"{end.year + 1 if end.month >= 6 else end.year}-07"
    return f"{end.year}-07" if end.month <= 6 else f"{end.year + 1}-01"


def _season_of(period: SystemInput, season: str) -> tuple[str | None, int | None]:
    """(the season's list, the year ages are taken in): from the latest event end date, else
    the period the caller names."""
    ends = [] if period.facts is None else [d for d in period.facts["end"] if d is not None]
    if ends:
        last = max(ends)
        return season_list(last, season), last.year
    return period.period, period.year


def _joined(rounds: np.ndarray) -> np.ndarray:
    """Each player's round estimates as text, ``"160.00; 158.33"`` (empty: none)."""
    text = np.full(rounds.shape[1], "", dtype=object)
    for row in rounds:
        shown = np.where(np.isnan(row), "", np.char.mod("%.2f", np.nan_to_num(row)))
        text = np.where(text == "", shown, np.where(shown == "", text, text + "; " + shown))
    return text


class EcfGradeSystem(SystemBase[EcfGrade]):
    """The ECF grade behind the seam (a ``systems.base.StateSystem``)."""

    constants = EcfGrade
    name: ClassVar[str] = "ecf-grade"
    title: ClassVar[str] = "ECF grade (R. Clarke's method, 1958-2020), per season"
    state: ClassVar[dict[str, str]] = {
        "rating": "Float64",
        "grade_games": "Float64",
        "last_period": "string",
    }
    explained: ClassVar[str] = (
        "Per game: the opponent's grade (or estimate), the grade used (held within 40 of the "
        "player's own) and the game points g (± 50 for a win or a loss); per player the "
        "season's mean A over n games, the top-up k from the previous grade to 30 games, the "
        "new grade (n·A + k·G)/(n + k) and its category; for the ungraded, each round's "
        "estimate (docs/systems.md §11)."
    )
    published: ClassVar[str] = "new_rating"
    list_digits: ClassVar[dict[str, int]] = {"rating": 0, "grade_games": 0}
    notation: ClassVar[dict[str, tuple[str, int]]] = {
        "rating": ("grade", 2), "new_rating": ("new grade", 2),
        "grade_games": ("grade games", 0), "new_grade_games": ("grade games′", 0),
        "category": ("category", 0), "opponent_grade": ("Ro", 2),
        "grade_used": ("Ro used", 2), "points": ("g", 2), "average": ("A", 2),
        "n": ("n", 0), "top_up": ("k", 0), "performance": ("A", 2),
        "first_estimate": ("first estimate", 2), "last_period": ("last list", 0),
        "new_last_period": ("last list′", 0), "counted": ("counted", 0),
    }  # fmt: skip
    player_values: ClassVar[tuple[str, ...]] = (
        "rating", "grade_games", "n", "average", "top_up", "new_rating", "category",
        "first_estimate", "estimates",
    )  # fmt: skip
    by_start: ClassVar[bool] = False
    birth_from_list: ClassVar[bool] = True
    national_id: ClassVar[NationalId | None] = ECF_CODE

    @property
    def bounds(self) -> dict[str, tuple[float, float, str]]:
        full = float(self._params.full_games)
        hint = "an ECF grade is about (ECF rating − 700)/7.5"
        return {"rating": (-100.0, 400.0, hint), "grade_games": (0.0, full, "")}

    def list_extra(self, players: pd.DataFrame) -> dict[str, np.ndarray]:
        """The published list shows each player's category after the state."""
        return {"category": players["category"].to_numpy()}

    @property
    def calendar(self) -> dict[str, Any]:
        # §11.1: the lists of July (and January) rate the season ending 31 May (30 June, 31
        # December) before them.
        if self._params.season == "annual":
            return {"list_months": (7,), "period_months": 12, "closing_offset_days": 31}
        return {"list_months": (1, 7), "period_months": 6, "closing_offset_days": 1}

    def from_elo(self, elo: pd.Series) -> pd.DataFrame:
        # A project decision (docs/systems.md §11): the inverse of the ECF's 2020 conversion
        # (rating = 7.5 × grade + 700, the ECF rating being on FIDE's scale), a full grade.
        grade = (elo.astype("Float64") - 700.0) / 7.5
        return seeded(elo, self.state, rating=grade, grade_games=float(self._params.full_games))

    @property
    def from_elo_note(self) -> str:
        return f"grade = (Elo − 700)/7.5 on {self._params.full_games} games"

    def rate(self, period: SystemInput) -> SystemOutcome:
        p = self._params
        label, year = _season_of(period, p.season)
        grade = period.initial("rating", np.nan)
        games_before = period.initial("grade_games", 0.0)
        last = period.state["last_period"].astype("string")
        lapsed = np.zeros(len(grade), dtype=bool)
        if label is not None:
            since = months_since(label, last)
            lapsed = ~np.isnan(grade) & (since > p.lookback_months)
        births = period.players["birth_year"].astype("Float64")
        born = births.to_numpy(np.float64, na_value=np.nan)
        junior = (year - born < p.junior_age) if year is not None else np.zeros(len(grade), bool)
        usable = grade + np.where(junior, p.junior_increment, 0.0)
        # §11.4: a grade too old to use tops up nothing (k = 0); without games it is dropped.
        done = rate_grades(usable, np.where(lapsed, 0.0, games_before), period.games, p)
        dropped = lapsed & (done.n == 0)
        done = dataclasses.replace(
            done,
            grade=np.where(dropped, np.nan, done.grade),
            grade_games=np.where(dropped, np.nan, done.grade_games),
            top_up=np.where(dropped, np.nan, done.top_up),
        )
        played = done.n > 0
        new_last = last.copy()
        if label is not None:
            new_last[played] = label
        new_last = new_last.where(~np.isnan(done.grade))
        category = categories(done.n, done.grade_games, p)
        after = {"rating": done.grade, "grade_games": done.grade_games,
                 "last_period": new_last.to_numpy()}  # fmt: skip
        extra = {"performance": done.average, "top_up": done.top_up}
        players = outcome_players(period, after, extra, rated_now=~np.isnan(done.grade))
        players["category"] = category
        # Under min_published games no grade is published; the state is kept (§11.4).
        hidden = dropped | (~np.isnan(done.grade) & (category == ""))
        players["status"] = players["status"].where(~hidden, "unrated")
        own = period.games.pidx
        estimates = _joined(done.estimates)
        calculations = game_rows(period).assign(
            counted=done.counted, opponent_grade=done.opponent_grade,
            grade_used=done.grade_used, points=done.points,
            rating=usable[own], grade_games=games_before[own], n=done.n[own],
            average=done.average[own], top_up=done.top_up[own], new_rating=done.grade[own],
            category=category[own], first_estimate=done.first_estimate[own],
            estimates=estimates[own],
        )  # fmt: skip
        notes = [
            f"ECF grade (docs/systems.md §11): {p.season} season, list {label or 'unknown'}; "
            f"game points ± {p.points_per_result:g}, opponents within {p.gap_cap:g}; "
            f"fewer than {p.full_games} games topped up from the previous grade (the rule of "
            f"January 2015); a previous grade usable for {p.lookback_months} months; junior "
            f"increment {p.junior_increment:g} under {p.junior_age}",
        ]
        if lapsed.any():
            notes.append(f"{int(lapsed.sum())} grade(s) older than {p.lookback_months} months: "
                         "no top-up (k = 0), dropped without games")  # fmt: skip
        return SystemOutcome(players, calculations, notes)
