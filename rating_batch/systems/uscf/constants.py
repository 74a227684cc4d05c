"""US Chess's constants (the ``[uscf]`` section of a rules file, docs/systems.md §9) and the
values that depend on an event's end date: the histories of B and of the peak floor's
threshold, the editions of N* and of the FIDE conversion."""

from __future__ import annotations

import bisect
import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from rating_batch.systems.params import Check, Clash, field, flag, number, one_of, optional

#: A history: ``(YYYY-MM-DD, value)`` pairs, each value in force from its date (§8).
History = tuple[tuple[str, float], ...]

#: B of the bonus by end date (§9.8): 2001, 2013-05-18, 2014-03-19, 2015-01-01 (a project
#: choice: B = 12 began between March 2014 and February 2016), 2017-05-01, 2023-02-01,
#: 2025-01-01.
BONUS_HISTORY: History = (
    ("2001-01-01", 10.0), ("2013-05-18", 8.0), ("2014-03-19", 10.0), ("2015-01-01", 12.0),
    ("2017-05-01", 14.0), ("2023-02-01", 12.0), ("2025-01-01", 10.0),
)  # fmt: skip
#: The lowest rounded peak that gives a peak floor (§9.10): 1600 before 2010-04-01, then 1400.
PEAK_FLOOR_HISTORY: History = (("2001-01-01", 1600.0), ("2010-04-01", 1400.0))
#: The first end date of the 2013 N* and of the 2024 FIDE conversion (§9.4, §9.5).
NSTAR_2013 = dt.date(2013, 5, 18)
FIDE_2024 = dt.date(2024, 3, 1)
#: The highest US Chess rating a list may hold (none is near it).
HIGHEST = 3500.0


class Dated(tuple[tuple[str, float], ...]):
    """A history as the reports show it: ``from 2001-01-01: 10, from 2013-05-18: 8, …``."""

    def __str__(self) -> str:
        return ", ".join(f"from {date}: {value:g}" for date, value in self)


def history(value: Any) -> str:
    """A list of ``["YYYY-MM-DD", number]`` pairs, dates rising."""
    if not isinstance(value, list | tuple) or not value:
        return 'must be a list of ["YYYY-MM-DD", number] pairs'
    dates = []
    for pair in value:
        if not isinstance(pair, list | tuple) or len(pair) != 2 or number(0, 10000)(pair[1]):
            return f'must be a list of ["YYYY-MM-DD", number] pairs ({pair!r} is not one)'
        try:
            dates.append(dt.date.fromisoformat(str(pair[0])))
        except ValueError:
            return f"has {pair[0]!r}, not a date YYYY-MM-DD"
    if dates != sorted(set(dates)):
        return "must give its dates in rising order, each once"
    return ""


def whole(low: float, high: float) -> Check:
    """A whole number from ``low`` to ``high``."""
    within = number(low, high)
    return lambda value: within(value) or ("" if float(value).is_integer() else "must be whole")


@dataclass(frozen=True)
class Uscf:
    """US Chess's constants (docs/systems.md §9); each history is in force by end date."""

    fide_conversion: str = field(
        "by_date", one_of("by_date", "2001", "2024"), "FIDE rating to a first rating (§9.4)"
    )
    fide_games_high: int = field(10, whole(0, 100), "N of a converted FIDE rating above the split")
    fide_games_low: int = field(5, whole(0, 100), "N of a converted FIDE rating up to the split")
    fide_games_split: float = field(2150.0, number(0, HIGHEST), "FIDE rating of the split")
    initial_per_year: float = field(50.0, number(0, 1000), "first rating per year of age")
    initial_max: float = field(1300.0, number(100, HIGHEST), "largest age-based first rating")
    initial_no_age: float = field(1300.0, number(100, HIGHEST), "first rating without an age")
    nstar: str = field("by_date", one_of("by_date", "2001", "2013"), "formula of N* (§9.5)")
    special_max_games: int = field(8, whole(0, 1000), "special formula up to this N (§9.6)")
    special_cap: float = field(2700.0, number(100, HIGHEST), "highest special-formula rating")
    dual_k_reduction: bool = field(True, flag, "smaller K above 2200, Regular side of dual")
    bonus_min_games: int = field(3, whole(1, 1000), "games a bonus needs (§9.8)")
    bonus_max_meetings: int = field(2, whole(1, 1000), "meetings of one opponent a bonus allows")
    bonus_b: float | None = field(None, optional(number(0, 1000)), "B for every event")
    bonus_history: tuple[tuple[str, float], ...] = field(
        BONUS_HISTORY, history, "B by end date (unless bonus_b)"
    )
    min_rating: float = field(100.0, number(0, 1000), "absolute floor (§9.10)")
    absolute_floor_win: float = field(4.0, number(0, 100), "personal floor per win")
    absolute_floor_draw: float = field(2.0, number(0, 100), "personal floor per draw")
    absolute_floor_event: float = field(1.0, number(0, 100), "per section of 3 or more games")
    absolute_floor_max: float = field(150.0, number(0, 1000), "highest personal floor")
    peak_floor_max: float = field(2100.0, number(0, HIGHEST), "highest peak floor")
    peak_floor_min: float | None = field(
        None, optional(number(0, HIGHEST)), "lowest peak with a floor, every event"
    )
    peak_floor_history: tuple[tuple[str, float], ...] = field(
        PEAK_FLOOR_HISTORY, history, "lowest peak with a floor by end date"
    )
    provisional_games: int = field(
        25, whole(0, 1000), "a rating on this many games or fewer is provisional"
    )
    blitz_max: float = field(10.0, number(0, 1000), "t up to this: Blitz (§9.1)")
    quick_max: float = field(65.0, number(0, 1000), "t up to this: Quick")
    regular_min: float = field(30.0, number(0, 1000), "t from this: Regular")
    not_rated_below: float = field(5.0, number(0, 1000), "t below this: not rated")

    def __post_init__(self) -> None:
        # A rules file gives a history as a list of lists: kept as a History (shown as
        # "from 2013-05-18: 8, …" in the reports).
        for key in ("bonus_history", "peak_floor_history"):
            pairs = tuple((str(d), float(v)) for d, v in getattr(self, key))
            object.__setattr__(self, key, Dated(pairs))

    def inconsistent(self) -> list[Clash]:
        clashes: list[Clash] = []
        if self.absolute_floor_max < self.min_rating:
            clashes.append((("absolute_floor_max", "min_rating"), "is below min_rating"))
        if not self.not_rated_below <= self.blitz_max < self.regular_min <= self.quick_max:
            clashes.append(
                (("blitz_max", "not_rated_below", "regular_min", "quick_max"),
                 "must keep not_rated_below ≤ blitz_max < regular_min ≤ quick_max")
            )  # fmt: skip
        return clashes


def in_force(pairs: Sequence[Sequence[Any]], ends: Sequence[dt.date | None]) -> np.ndarray:
    """Per end date the value of a history in force on it (the first value before the first
    date; an event without a date: the latest value)."""
    starts = [dt.date.fromisoformat(str(date)) for date, _ in pairs]
    values = np.array([float(value) for _, value in pairs])
    found = [
        len(starts) - 1 if end is None else max(0, bisect.bisect_right(starts, end) - 1)
        for end in ends
    ]
    return values[np.asarray(found, dtype=np.int64)] if found else np.zeros(0)


def from_date(
    choice: str, fixed: str, first: dt.date, ends: Sequence[dt.date | None]
) -> np.ndarray:
    """Per end date whether the newer of two editions applies (``choice`` "by_date": from
    ``first`` on; an undated event: the newer; otherwise ``choice == fixed``)."""
    if choice != "by_date":
        return np.full(len(ends), choice == fixed)
    return np.array([end is None or end >= first for end in ends], dtype=bool)
