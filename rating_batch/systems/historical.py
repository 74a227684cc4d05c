"""The historical per-event systems (docs/systems.md §5, §6): Harkness (US Chess 1950–60) and
Ingo (West Germany 1948–92). Inside an event every game uses the state before the event;
events are rated one after another in rating order, a wave of events at a time
(``games.waves``: the events of a wave share no player), vectorised across players."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar

import numpy as np
import pandas as pd

from rating_batch.systems.base import (
    SystemBase,
    SystemInput,
    SystemOutcome,
    half_away,
    outcome_players,
    seeded,
)
from rating_batch.systems.games import PlayedGames, waves
from rating_batch.systems.params import field, number, one_of

#: No event has more games for one player than this (``min_games`` at most).
MAX_GAMES = 1000


@dataclass(frozen=True)
class Harkness:
    """Harkness's constants (the ``[harkness]`` section of a rules file)."""

    points_per_percent: float = field(
        10.0, number(0, 100, above=True), "rating points per % over 50"
    )
    blend: str = field("none", one_of("none"), "performance is the new rating")
    min_games: int = field(
        1, number(1, MAX_GAMES), "counted games an unrated player needs in an event"
    )


@dataclass(frozen=True)
class Ingo:
    """Ingo's constants (the ``[ingo]`` section of a rules file). Lower is better."""

    # 500: the whole span of Ingo numbers (``IngoSystem.limits``), i.e. no cap.
    gap_cap: float = field(40.0, number(0, 500, above=True), "largest difference to an opponent")
    rule: str = field("quarter", one_of("quarter", "age_weighted"), "how the new Ingo is made")
    min_games: int = field(
        1, number(1, MAX_GAMES), "counted games an unrated player needs in an event"
    )


@dataclass(frozen=True)
class EventRatings:
    """Per player the state after the period (NaN: still unrated); per (player, event) row
    of ``parts``: the average (opponents' rating or Niveau), the percentage, the performance,
    the state before and after."""

    rating: np.ndarray
    parts: dict[str, np.ndarray]


#: An event's (performance, new value) from (old, average, percentage, counted games,
#: players); old is NaN for an unrated player.
Update = Callable[
    [np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]
]
#: Per game row the opponent's value that goes into the average, from (own, opponent's).
Opponent = Callable[[np.ndarray, np.ndarray], np.ndarray]


def rate_by_event(
    rating: np.ndarray,
    games: PlayedGames,
    opponent: Opponent,
    update: Update,
    min_games: int,
) -> EventRatings:
    """Each event from the state before it: per game against a rated opponent the value
    ``opponent`` gives (``own`` NaN when unrated) is averaged, the score made a percentage,
    and ``update`` makes the performance and the new value."""
    state = np.asarray(rating, np.float64).copy()
    key = games.event * np.int64(games.players) + games.pidx
    pair, first_row = np.unique(key, return_index=True)
    row_pair = np.searchsorted(pair, key)
    wave = waves(games.event, games.pidx)
    p_player = games.pidx[first_row]
    count = len(pair)
    parts = {name: np.full(count, np.nan) for name in
             ("before", "average", "percentage", "performance", "after")}  # fmt: skip
    parts["games"] = np.zeros(count)
    parts["event"] = games.event[first_row].astype(np.float64)
    for number_ in np.unique(wave):
        rows = np.flatnonzero(wave == number_)
        own, other = state[games.pidx[rows]], state[games.oidx[rows]]
        rated = ~np.isnan(other)
        pairs = row_pair[rows]
        n = np.bincount(pairs, weights=rated, minlength=count)
        points = np.bincount(
            pairs, weights=np.where(rated, games.score[rows], 0.0), minlength=count
        )
        value = np.where(rated, opponent(own, other), 0.0)
        total = np.bincount(pairs, weights=value, minlength=count)
        here = np.unique(pairs)
        here = here[n[here] > 0]
        players = p_player[here]
        average = total[here] / n[here]
        percentage = 100.0 * points[here] / n[here]
        before = state[players]
        perf, after = update(before, average, percentage, n[here], players)
        allowed = ~np.isnan(before) | (n[here] >= min_games)
        state[players[allowed]] = after[allowed]
        parts["before"][here] = before
        parts["average"][here] = average
        parts["percentage"][here] = percentage
        parts["performance"][here] = perf
        parts["games"][here] = n[here]
        parts["after"][here] = np.where(allowed, after, np.nan)
    parts["player"] = p_player.astype(np.float64)
    return EventRatings(state, parts)


def rate_harkness(rating: np.ndarray, games: PlayedGames, params: Harkness) -> EventRatings:
    """Performance = opponents' average + points_per_percent × (percentage − 50), the new
    rating (first rating for an unrated player), rounded half away from zero."""

    def update(
        old: np.ndarray, average: np.ndarray, percentage: np.ndarray, n: np.ndarray, _: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        perf = average + params.points_per_percent * (percentage - 50.0)
        return perf, half_away(perf)

    return rate_by_event(rating, games, lambda own, other: other, update, params.min_games)


def rate_ingo(
    rating: np.ndarray, games: PlayedGames, params: Ingo, ages: np.ndarray | None = None
) -> EventRatings:
    """Niveau = the opponents' average Ingo (each within gap_cap of the player's own);
    performance = Niveau − (percentage − 50); the new Ingo by ``rule``, half away from zero.
    ``ages``: per player the age in the event's year (for ``age_weighted``)."""

    def opponent(own: np.ndarray, other: np.ndarray) -> np.ndarray:
        capped = np.clip(other, own - params.gap_cap, own + params.gap_cap)
        return np.where(np.isnan(own), other, capped)

    def update(
        old: np.ndarray, niveau: np.ndarray, percentage: np.ndarray, n: np.ndarray, who: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        perf = niveau - (percentage - 50.0)
        if params.rule == "quarter":
            new = 0.75 * old + 0.25 * perf
        else:
            age = np.full(len(old), 99.0) if ages is None else ages[who]
            weight = np.where(age <= 20, 10.0, np.where(age <= 25, 15.0, 20.0))
            new = (n * perf + weight * old) / (n + weight)
        return perf, half_away(np.where(np.isnan(old), perf, new))

    return rate_by_event(rating, games, opponent, update, params.min_games)


def elo_equivalent(ingo: np.ndarray) -> np.ndarray:
    """The Elo equivalent of an Ingo: 2840 − 8 × Ingo."""
    return 2840.0 - 8.0 * np.asarray(ingo, np.float64)


def _last_performance(done: EventRatings) -> np.ndarray:
    """Each player's performance in their last event of the period (NaN: none)."""
    parts = done.parts
    last = np.full(len(done.rating), np.nan)
    order = np.argsort(parts["event"], kind="stable")  # later events overwrite earlier ones
    players = parts["player"].astype(np.int64)[order]
    last[players] = parts["performance"][order]
    return last


def _event_calculations(period: SystemInput, done: EventRatings, value: str) -> pd.DataFrame:
    """calculations.csv of a per-event system: one row per player and event."""
    parts = done.parts
    players = parts["player"].astype(np.int64)
    keys = np.array(period.events or [""], dtype=object)
    return pd.DataFrame(
        {
            "id": period.players["id"].to_numpy()[players],
            "name": period.players["name"].to_numpy()[players],
            "event": keys[np.minimum(parts["event"].astype(np.int64), len(keys) - 1)],
            "games": parts["games"].astype(np.int64),
            value: parts["before"],
            "average": parts["average"],
            "percentage": parts["percentage"],
            "performance": parts["performance"],
            f"new_{value}": parts["after"],
        }
    )


class HarknessSystem(SystemBase[Harkness]):
    """Harkness behind the seam (``systems.StateSystem``)."""

    constants = Harkness
    name: ClassVar[str] = "harkness"
    title: ClassVar[str] = "Harkness (US Chess 1950-1960), per event"
    state: ClassVar[dict[str, str]] = {"rating": "Float64"}
    explained: ClassVar[str] = (
        "Per event, in the order rated: the rated opponents' average, the percentage scored "
        "against them, the performance (average + 10 × (percentage − 50)) and the rating before"
        " and after (docs/systems.md §5)."
    )
    published: ClassVar[str] = "new_rating"
    list_digits: ClassVar[dict[str, int]] = {"rating": 0}
    notation: ClassVar[dict[str, tuple[str, int]]] = {
        "rating": ("rating", 0), "new_rating": ("new rating", 0), "games": ("n", 0),
        "average": ("average", 2), "percentage": ("%", 2), "performance": ("performance", 2),
    }  # fmt: skip
    limits: ClassVar[dict[str, tuple[float, float, str]]] = {"rating": (0.0, 4000.0, "")}
    seeds_from_file: ClassVar[bool] = True
    from_elo_note = "taken as a Harkness rating"

    def from_elo(self, elo: pd.Series) -> pd.DataFrame:
        return seeded(elo, self.state, rating=elo)

    def rate(self, period: SystemInput) -> SystemOutcome:
        before = period.initial("rating", np.nan)
        done = rate_harkness(before, period.games, self._params)
        rated = ~np.isnan(done.rating)
        extra = {"performance": _last_performance(done)}
        players = outcome_players(period, {"rating": done.rating}, extra, rated_now=rated)
        notes = [
            f"Harkness (docs/systems.md §5): performance = opponents' average + "
            f"{self._params.points_per_percent:g} × (percentage − 50), the new rating; "
            f"a first rating from {self._params.min_games} game(s) against rated opponents"
        ]
        return SystemOutcome(players, _event_calculations(period, done, "rating"), notes)


class IngoSystem(SystemBase[Ingo]):
    """Ingo behind the seam (``systems.StateSystem``). Lower is better."""

    constants = Ingo
    name: ClassVar[str] = "ingo"
    title: ClassVar[str] = "Ingo (West Germany 1948-1992), per event; lower is better"
    # The Ingo number, under the name docs/systems.md §6 gives it (lower is better).
    state: ClassVar[dict[str, str]] = {"rating": "Float64"}
    explained: ClassVar[str] = (
        "Per event, in the order rated: the Niveau (the rated opponents' average Ingo, each "
        "within the gap cap), the percentage, the performance (Niveau − (percentage − 50)) and "
        "the Ingo before and after; lower is better (docs/systems.md §6)."
    )
    published: ClassVar[str] = "new_rating"
    list_digits: ClassVar[dict[str, int]] = {"rating": 0}
    # A state made from an Elo rating is (2840 − Elo)/8: to 3 decimals.
    notation: ClassVar[dict[str, tuple[str, int]]] = {
        "rating": ("Ingo", 3), "new_rating": ("new Ingo", 0), "games": ("n", 0),
        "average": ("Niveau", 2), "percentage": ("%", 2), "performance": ("performance", 2),
        "elo_equivalent": ("Elo equivalent", 0),
    }  # fmt: skip
    # Elo 2840 is Ingo 0 and Elo 0 is Ingo 355: a number far above is an Elo rating.
    limits: ClassVar[dict[str, tuple[float, float, str]]] = {
        "rating": (-100.0, 400.0, "an Elo rating? as an Ingo number it is (2840 − Elo)/8"),
    }
    lower_is_better: ClassVar[bool] = True
    seeds_from_file: ClassVar[bool] = True
    from_elo_note = "as an Ingo by the Elo equivalent: (2840 − Elo) / 8"

    def from_elo(self, elo: pd.Series) -> pd.DataFrame:
        return seeded(elo, self.state, rating=(2840.0 - elo.astype("Float64")) / 8.0)

    def rate(self, period: SystemInput) -> SystemOutcome:
        before = period.initial("rating", np.nan)
        births = (
            period.players["birth_year"].astype("Float64").to_numpy(np.float64, na_value=np.nan)
        )
        ages = (period.year - births) if period.year is not None else None
        if ages is not None:
            ages = np.where(np.isnan(ages), 99.0, ages)
        done = rate_ingo(before, period.games, self._params, ages)
        rated = ~np.isnan(done.rating)
        extra = {
            "performance": _last_performance(done),
            "elo_equivalent": elo_equivalent(done.rating),
        }
        players = outcome_players(period, {"rating": done.rating}, extra, rated_now=rated)
        notes = [
            f"Ingo (docs/systems.md §6): rule {self._params.rule}, gap cap "
            f"{self._params.gap_cap:g}; lower is better; Elo equivalent 2840 − 8 × Ingo"
        ]
        return SystemOutcome(players, _event_calculations(period, done, "rating"), notes)
