"""The CCLA chart (docs/systems.md §13): the Correspondence Chess League of America's rule,
Kenneth F. Williams's 1940 equations as Hotchkiss and Wilcock revised them in 1947. Games are
rated one after another in rating order, each from both players' ratings at the time (after
their earlier games); a round's games share no player, so a step of them is rated at once
(``games.game_steps``). Zero-sum, whole numbers."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np
import pandas as pd

from rating_batch.systems.base import (
    SystemBase,
    SystemInput,
    SystemOutcome,
    game_rows,
    half_away,
    not_whole,
    outcome_players,
    seeded,
)
from rating_batch.systems.games import PlayedGames, game_steps
from rating_batch.systems.params import field, whole

#: The chart as the CCLA published it: per band of the rating difference (its lowest
#: difference, bands of 20 points, the last open), the points the higher-rated player gains
#: by winning, the lower-rated by winning, and the lower-rated by a draw. What one player
#: gains the other loses. Row b is 16 − b, 16 + b, b: ΔR = 32·(S − ½) ± b.
CHART = (
    (0, 16, 16, 0),
    (20, 15, 17, 1),
    (40, 14, 18, 2),
    (60, 13, 19, 3),
    (80, 12, 20, 4),
    (100, 11, 21, 5),
    (120, 10, 22, 6),
    (140, 9, 23, 7),
    (160, 8, 24, 8),
    (180, 7, 25, 9),
    (200, 6, 26, 10),
    (220, 5, 27, 11),
    (240, 4, 28, 12),
    (260, 3, 29, 13),
    (280, 2, 30, 14),
)
_FROM, _HIGHER_WINS, _LOWER_WINS, _DRAW = (np.array(column) for column in zip(*CHART, strict=True))
#: The CCLA's classes of 1980, from the top: the lowest rating of each; below the last, E.
CLASSES = (
    (2200, "Master"), (2000, "Expert"), (1800, "A"), (1600, "B"), (1400, "C"), (1200, "D"),
)  # fmt: skip
BELOW_CLASSES = "E"


@dataclass(frozen=True)
class Ccla:
    """The CCLA chart's constants (the ``[ccla]`` section of a rules file): only what the
    published rule leaves open."""

    start_rating: int = field(
        1200, whole(0, 4000), "rating of a player without one (a decision: the CCLA published none)"
    )


def chart_change(
    rating: np.ndarray, opponent: np.ndarray, score: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Each game's band and the player's change by the chart, from both ratings before it
    and the player's score (1, ½, 0). Equal ratings: band 0, either side the higher."""
    band = np.searchsorted(_FROM, np.abs(rating - opponent), side="right") - 1
    higher = rating >= opponent
    win = np.where(higher, _HIGHER_WINS[band], _LOWER_WINS[band])
    loss = -np.where(higher, _LOWER_WINS[band], _HIGHER_WINS[band])
    draw = np.where(higher, -_DRAW[band], _DRAW[band])
    change = np.select([score == 1.0, score == 0.0], [win, loss], draw)
    return band, change


@dataclass(frozen=True)
class CclaPeriod:
    """Per player the rating after the period; per game row (``PlayedGames`` order) the
    player's and the opponent's rating before the game, its band, the change and the
    player's rating after it."""

    rating: np.ndarray
    before: np.ndarray
    opponent: np.ndarray
    band: np.ndarray
    change: np.ndarray
    after: np.ndarray


def rate_ccla(rating: np.ndarray, games: PlayedGames) -> CclaPeriod:
    """Every game in rating order (event, round, board), a step of games at a time."""
    state = np.asarray(rating, np.float64).copy()
    count = len(games)
    before, opponent, after = np.empty(count), np.empty(count), np.empty(count)
    band, change = np.zeros(count, np.int64), np.zeros(count, np.int64)
    for rows, others in game_steps(games):
        p1, p2 = games.pidx[rows], games.oidx[rows]
        r1, r2 = state[p1], state[p2]
        step_band, gain = chart_change(r1, r2, games.score[rows])
        before[rows], before[others] = r1, r2
        opponent[rows], opponent[others] = r2, r1
        band[rows] = band[others] = step_band
        change[rows], change[others] = gain, -gain
        state[p1], state[p2] = r1 + gain, r2 - gain
        after[rows], after[others] = state[p1], state[p2]
    return CclaPeriod(state, before, opponent, band, change, after)


def class_of(rating: np.ndarray) -> np.ndarray:
    """The CCLA class (1980) of each rating: Master 2200 and up, … D 1200–1399, E below."""
    lowest = np.array([low for low, _ in reversed(CLASSES)])
    names = np.array([BELOW_CLASSES, *(name for _, name in reversed(CLASSES))], dtype=object)
    return names[np.searchsorted(lowest, np.asarray(rating, np.float64), side="right")]


class CclaSystem(SystemBase[Ccla]):
    """The CCLA chart behind the seam (``systems.StateSystem``)."""

    constants = Ccla
    name: ClassVar[str] = "ccla"
    title: ClassVar[str] = "CCLA chart (Hotchkiss-Wilcock 1947), games in order"
    state: ClassVar[dict[str, str]] = {"rating": "Float64"}
    explained: ClassVar[str] = (
        "Per game, in the order rated: both ratings before it, the band of their difference "
        "(20 points each, 14 from 280 up), the change by the chart (32 × (score − ½), plus the "
        "band against a higher-rated opponent, minus it against a lower-rated) and the rating "
        "after it (docs/systems.md §13)."
    )
    published: ClassVar[str] = "new_rating"
    list_digits: ClassVar[dict[str, int]] = {"rating": 0}
    notation: ClassVar[dict[str, tuple[str, int]]] = {
        "rating": ("rating", 0), "new_rating": ("new rating", 0),
        "rating_before": ("before", 0), "opponent_rating": ("opponent", 0),
        "band": ("band", 0), "change": ("change", 0), "rating_after": ("after", 0),
    }  # fmt: skip
    # Any rating the chart reaches from a list, at most 30 points a game.
    limits: ClassVar[dict[str, tuple[float, float, str]]] = {"rating": (-5000.0, 10000.0, "")}
    seeds_from_file: ClassVar[bool] = True
    from_elo_note = "the Elo rating as a CCLA rating, rounded half away from zero"

    def from_elo(self, elo: pd.Series) -> pd.DataFrame:
        # §13: a new player's first rating is the list's (a decision: the CCLA published no
        # seeding); the chart counts whole points.
        rating = pd.Series(half_away(elo.astype("Float64").to_numpy(np.float64, na_value=np.nan)))
        return seeded(elo, self.state, rating=rating)

    def list_problems(self, state: pd.DataFrame) -> list[tuple[int, str]]:
        return not_whole(state, "rating", "the chart counts whole points (docs/systems.md §13)")

    def list_extra(self, players: pd.DataFrame) -> dict[str, np.ndarray]:
        """The published list shows each player's class (1980) after the rating."""
        return {"class": players["class"].to_numpy()}

    def rate(self, period: SystemInput) -> SystemOutcome:
        start = self._params.start_rating
        rating = period.initial("rating", float(start))
        done = rate_ccla(rating, period.games)
        players = outcome_players(period, {"rating": done.rating}, {"class": class_of(done.rating)})
        calculations = game_rows(period).assign(
            rating_before=done.before, opponent_rating=done.opponent, band=done.band,
            change=done.change, rating_after=done.after,
        )  # fmt: skip
        without = period.state["rating"].isna().to_numpy(bool)
        started = without & players["status"].eq("new").to_numpy(bool)
        notes = [
            "CCLA chart (docs/systems.md §13, Hotchkiss-Wilcock 1947): games one at a time in "
            "order of event, round and board, each from both ratings at the time; 32 × (score "
            "− ½) ± the band of 20 points (14 from 280 up); zero-sum, whole numbers; the "
            "exception for challenge matches of more than two games is not applied",
            _started_note(players.loc[started, "name"].astype(str).tolist(), start),
        ]
        return SystemOutcome(players, calculations, notes)


def _started_note(names: list[str], start: float) -> str:
    """What the notes say of the players who started from ``start_rating``."""
    rule = f"a player without a rating starts at start_rating {start:g} (a decision)"
    if not names:
        return f"{rule}; nobody did in this period"
    shown = "; ".join(names[:5]) + (f" and {len(names) - 5} more" if len(names) > 5 else "")
    return f"{rule}: {len(names)} here ({shown})"
