"""The DWZ's constants (the ``[dwz]`` section of a rules file) and its editions by end date
(docs/systems.md §10.3, §10.5–§10.8)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from rating_batch.systems.params import (
    Check,
    Clash,
    field,
    flag,
    number,
    one_of,
    optional,
    whole,
)


@dataclass(frozen=True)
class Edition:
    """What changed between the DSB's texts (§10.3): the edition in force from ``start``."""

    name: str
    start: dt.date
    p_decimals: int
    """Decimals P(D) is rounded to (0: exact, as computed)."""
    brake_when: str
    """When the braking value SBr applies below ``brake_below``: ``"W<We"`` or ``"W<=We"``."""
    exceptional: bool
    """Whether an exceptional performance counts for the opponents (§10.7)."""


#: The editions in force by an event's end date, oldest first (§10.3); ``dwz-2026`` repeats
#: ``dwz-2016`` (the 2026 text was not available).
EDITIONS: tuple[Edition, ...] = (
    Edition("dwz-2002", dt.date(1, 1, 1), 3, "W<=We", False),
    Edition("dwz-2013", dt.date(2013, 8, 1), 0, "W<=We", False),
    Edition("dwz-2016", dt.date(2016, 8, 1), 0, "W<We", True),
    Edition("dwz-2026", dt.date(2026, 6, 8), 0, "W<We", True),
)
BY_END_DATE = "by-end-date"


def _date(value: Any) -> str:
    if not isinstance(value, str):
        return "must be a date written YYYY-MM-DD"
    try:
        dt.date.fromisoformat(value)
    except ValueError:
        return "must be a date written YYYY-MM-DD"
    return ""


def _numbers(count: int, low: float, high: float) -> Check:
    """A list of ``count`` numbers, each from ``low`` to ``high``."""
    each = number(low, high)

    def check(value: Any) -> str:
        if not isinstance(value, list | tuple) or len(value) != count:
            return f"must be a list of {count} numbers"
        wrong = [each(item) for item in value]
        return next((f"{problem} (each)" for problem in wrong if problem), "")

    return check


@dataclass(frozen=True)
class Dwz:
    """The DWZ's constants (docs/systems.md §10): defaults of the Wertungsordnung."""

    edition: str = field(
        BY_END_DATE,
        one_of(BY_END_DATE, *(e.name for e in EDITIONS)),
        "edition in force: by each event's end date, or one for every event",
    )
    p_decimals: int | None = field(
        None, optional(whole(0, 6)), "decimals of P(D) (none: the edition's; 0: exact)"
    )
    brake_when: str | None = field(
        None, optional(one_of("W<We", "W<=We")), "when SBr applies (none: the edition's)"
    )
    exceptional: bool | None = field(
        None, optional(flag), "exceptional performances count (none: the edition's)"
    )
    sigma: float = field(200.0, number(1, 2000), "standard deviation of a player's strength")
    fide_above: float = field(
        2400.0, number(0, 4000), "a DWZ from this up is replaced by a FIDE rating in the file"
    )
    foreign_index: int = field(
        6, whole(1, 1000), "index after the event of a player entering with a FIDE rating"
    )
    j: tuple[float, ...] = field(
        (5.0, 10.0, 15.0), _numbers(3, 0, 1000), "J for age to age_limits, then older"
    )
    age_limits: tuple[float, ...] = field(
        (20.0, 25.0), _numbers(2, 0, 200), "the ages ending the first two J bands"
    )
    e_min: int = field(5, whole(1, 1000), "smallest E")
    e_index_factor: int = field(5, whole(1, 1000), "E at most this × index while index ≤ 5")
    e_max: int = field(30, whole(1, 1000), "largest E without braking")
    e_brake_max: int = field(150, whole(1, 10000), "largest E with braking")
    brake_below: float = field(1300.0, number(0, 4000), "braking applies below this R0")
    brake_scale: float = field(150.0, number(1, 10000), "SBr = e^((brake_below − R0)/this) − 1")
    accel_divisor: float = field(2000.0, number(1, 10000), "fB = R0 / this, held")
    accel_min: float = field(0.5, number(0, 10), "smallest fB")
    accel_max: float = field(1.0, number(0, 10), "largest fB")
    restpartien_years: int = field(2, whole(0, 100), "years Restpartien are kept")
    first_min_games: int = field(5, whole(1, 1000), "results a first DWZ needs")
    first_floor_below: float = field(800.0, number(0, 4000), "first DWZ floor formula below")
    first_floor_base: float = field(700.0, number(0, 4000), "floor: base + Ri / divisor")
    first_floor_divisor: float = field(8.0, number(1, 1000), "floor: base + Ri / divisor")
    performance_min_games: int = field(5, whole(1, 1000), "counted games a performance needs")
    extreme_margin: float = field(677.0, number(0, 4000), "Rh = Rc ± this with all won or lost")
    exceptional_margin: float = field(300.0, number(0, 4000), "Rh − R0 beyond this: exceptional")
    max_steps: int = field(1000, whole(1, 100000), "most steps of the first-DWZ iteration")
    uplift: bool = field(True, flag, "map the list once to the 2026 scale (Umstufung)")
    uplift_date: str = field("2026-06-08", _date, "the uplift precedes events ending from")
    uplift_low: float = field(1000.0, number(0, 4000), "below: DWZ + uplift_add")
    uplift_add: float = field(400.0, number(0, 4000), "added below uplift_low")
    uplift_factor: float = field(0.64, number(0, 10), "uplift_low to uplift_high: factor")
    uplift_offset: float = field(760.0, number(0, 4000), "uplift_low to uplift_high: offset")
    uplift_high: float = field(2110.0, number(0, 4000), "from here the DWZ is unchanged")

    def inconsistent(self) -> list[Clash]:
        clashes: list[Clash] = []
        if self.accel_min > self.accel_max:
            clashes.append((("accel_min", "accel_max"), "is more than accel_max"))
        if self.e_min > self.e_max:
            clashes.append((("e_min", "e_max"), "is more than e_max"))
        if len(self.age_limits) == 2 and self.age_limits[0] > self.age_limits[1]:
            clashes.append((("age_limits",), "must be in increasing order"))
        if self.uplift_low > self.uplift_high:
            clashes.append((("uplift_low", "uplift_high"), "is more than uplift_high"))
        return clashes

    def edition_at(self, end: dt.date | None) -> Edition:
        """The edition in force for an event ending on ``end`` (undated: the latest), with
        the fields set alone."""
        if self.edition != BY_END_DATE:
            found = next(e for e in EDITIONS if e.name == self.edition)
        else:
            day = end or dt.date.max
            found = [e for e in EDITIONS if e.start <= day][-1]
        return Edition(
            found.name,
            found.start,
            found.p_decimals if self.p_decimals is None else int(self.p_decimals),
            found.brake_when if self.brake_when is None else self.brake_when,
            found.exceptional if self.exceptional is None else self.exceptional,
        )

    @property
    def uplift_day(self) -> dt.date:
        return dt.date.fromisoformat(self.uplift_date)
