"""Rating periods: months named ``YYYY-MM``, parsed strictly and compared as dates.

A period is named by the month of the list that closes it (FIDE's monthly lists): the list of
``2026-02`` is published on 1 February 2026 and rates the events that ended after the
previous list's closing date and on or before its own. A period is a value (``Period``): its
year and month parsed once, where it enters (what a user types, by ``canonical_period``,
refused unless it is exactly ``YYYY-MM``; a period the database holds), and shifted and
compared as a value from then on. It is also its canonical text ``YYYY-MM`` (four-digit year,
two-digit month), the only form the database accepts (a CHECK constraint), so that text order
is date order everywhere and it is written as it is.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import TYPE_CHECKING, Protocol

from rating_batch.errors import RatingBatchError

if TYPE_CHECKING:
    import numpy as np
    import pandas as pd

#: Years a period may name: FIDE's first list is of 1971; later than 2199 is a typo.
FIRST_YEAR, LAST_YEAR = 1900, 2199


class Calendar(Protocol):
    """When lists are published and what a period rates: FIDE Elo's rules carry one, and so
    does the rule book of every other system (``StateSystem.calendar``)."""

    @property
    def list_months(self) -> tuple[int, ...]:
        """The months a list is published in (1–12)."""
        ...

    @property
    def closing_offset_days(self) -> int:
        """How many days before its list a period closes (§1)."""
        ...


_PERIOD = re.compile(r"([0-9]{4})-([0-9]{2})")


class PeriodError(RatingBatchError):
    """A period that is not a month written ``YYYY-MM``."""


class Period(str):
    """A rating period: its ``year`` and ``month``, and its canonical text ``YYYY-MM`` (it
    is that text wherever text goes: the database, file names, CSVs, messages). Made from
    text by ``Period.parse`` (refused unless canonical), from numbers by ``Period.of``."""

    __slots__ = ("month", "year")
    year: int
    month: int

    def __new__(cls, year: int, month: int) -> Period:
        made = super().__new__(cls, f"{year:04d}-{month:02d}")
        made.year, made.month = year, month
        return made

    def __getnewargs__(self) -> tuple[int, int]:  # type: ignore[override]  # pickled by value
        return self.year, self.month

    @classmethod
    def of(cls, year: int, month: int) -> Period:
        return cls(year, month)

    @classmethod
    def parse(cls, text: str) -> Period:
        """``text`` as a period (itself when it is one already): PeriodError unless it is a
        month written exactly ``YYYY-MM`` (1900-01 … 2199-12; ``0000-00``, ``INITIAL``)."""
        if isinstance(text, Period):
            return text
        match = _PERIOD.fullmatch(text)
        if match is None:
            raise PeriodError(
                f"period {text!r} is not a month written YYYY-MM (four-digit year, two-digit "
                "month, e.g. 2026-04)"
            )
        year, month = int(match[1]), int(match[2])
        if (year, month) == (0, 0):
            return INITIAL
        if not 1 <= month <= 12:
            raise PeriodError(f"period {text!r}: there is no month {month}")
        if not FIRST_YEAR <= year <= LAST_YEAR:
            raise PeriodError(f"period {text!r}: the year must be {FIRST_YEAR}–{LAST_YEAR}")
        return cls(year, month)

    @property
    def number(self) -> int:
        """Months since year 0 (year × 12 + month − 1): differences are months between
        lists."""
        return self.year * 12 + self.month - 1

    def shifted(self, months: int) -> Period:
        """The period ``months`` later (earlier when negative)."""
        year, month = divmod(self.number + months, 12)
        return Period(year, month + 1)


INITIAL: Period = Period(0, 0)
"""The period of an initial list whose month is unknown: in force before every event."""


def canonical_period(text: str) -> Period:
    """``text`` as a period if it is a month written exactly ``YYYY-MM`` (1900-01 …
    2199-12), else PeriodError: ``2026-4``, ``26-04``, ``2026-04 `` and ``2026-13`` are all
    refused, never guessed."""
    if text == INITIAL:
        raise PeriodError(f"period {text!r}: there is no month 0")
    return Period.parse(text)


def parse_period(text: str) -> tuple[int, int]:
    """``"2025-12"`` → (2025, 12); PeriodError for anything but a canonical period."""
    period = Period.parse(text)
    return period.year, period.month


def period_name(year: int, month: int) -> Period:
    return Period(year, month)


def month_number(period: str) -> int:
    """Months since year 0 (year × 12 + month − 1): differences are months between lists."""
    return Period.parse(period).number


def months_between(earlier: str, later: str) -> int:
    return month_number(later) - month_number(earlier)


def stored_day(text: object) -> dt.date | None:
    """A date the store keeps as ``YYYY-MM-DD``; None for one the event did not give (NULL,
    read back as None or, in a column beside dates, as NaN)."""
    return dt.date.fromisoformat(text) if isinstance(text, str) and text else None


def round_dates_text(dates: tuple[dt.date | None, ...]) -> str | None:
    """Each round's date as the store keeps it: ISO dates joined by commas, an empty place for
    a round without one; None when the file gave none."""
    if not any(dates):
        return None
    return ",".join("" if day is None else day.isoformat() for day in dates)


def stored_round_dates(text: object) -> tuple[dt.date | None, ...]:
    """``round_dates_text`` read back (NULL or NaN: no round dates)."""
    if not isinstance(text, str) or not text:
        return ()
    return tuple(stored_day(part) for part in text.split(","))


def list_date(period: str) -> dt.date:
    """The list of period ``YYYY-MM`` is published on the 1st of that month."""
    year, month = parse_period(period)
    return dt.date(year, month, 1)


def closing_date(rules: Calendar, period: str) -> dt.date:
    """The last end date a period rates: ``closing_offset_days`` before its list (§1)."""
    return list_date(period) - dt.timedelta(days=rules.closing_offset_days)


def is_list_period(rules: Calendar, period: str) -> bool:
    return Period.parse(period).month in rules.list_months


def next_list_period(rules: Calendar, period: str) -> Period:
    """The list period after ``period``."""
    return _list_period(rules, Period.parse(period), 1)


def previous_list_period(rules: Calendar, period: str) -> Period:
    """The list period before ``period``."""
    return _list_period(rules, Period.parse(period), -1)


def _list_period(rules: Calendar, period: Period, step: int) -> Period:
    """The nearest list period after (``step`` 1) or before (−1) ``period``."""
    for months in range(step, 25 * step, step):
        candidate = period.shifted(months)
        if candidate.month in rules.list_months:
            return candidate
    raise RatingBatchError("no list month in the rules")  # excluded by the rules' checks


def period_of(rules: Calendar, end: dt.date) -> Period:
    """The first list period whose closing date is on or after an event's end date (§1)."""
    candidate = Period(end.year, end.month)
    if not is_list_period(rules, candidate):
        candidate = next_list_period(rules, candidate)
    while closing_date(rules, candidate) < end:
        candidate = next_list_period(rules, candidate)
    return candidate


def shown(period: str) -> str:
    """A period as the officer reads it: ``initial`` for the unknown month of an initial list."""
    return "initial" if period == INITIAL else period


def list_before(lists: pd.DataFrame, kind: str, period: Period) -> Period | None:
    """The last list of ``kind`` before ``period`` among a database's ``lists`` (``period``,
    ``kind``): the one a period is rated from (None: no earlier list of the kind)."""
    before = lists[(lists["kind"] == kind) & (lists["period"] < period)]["period"]
    return Period.parse(str(before.max())) if len(before) else None


def month_index(periods: pd.Series) -> pd.Series:
    """Periods ``YYYY-MM`` as a month count (year × 12 + month), NA for none or INITIAL."""
    import pandas as pd  # loaded here: a period checked at the door needs no pandas

    text = periods.astype("string")
    known = text.notna() & (text != INITIAL)
    year = pd.to_numeric(text.str.slice(0, 4).where(known), errors="coerce")
    month = pd.to_numeric(text.str.slice(5, 7).where(known), errors="coerce")
    return (year * 12 + month).astype("Int64")


def months_since(period: str, periods: pd.Series) -> np.ndarray:
    """Months from each of ``periods`` (``YYYY-MM``; NaN where empty) to the list ``period``:
    Glicko's idle periods, the ECF's lapsed ratings and grades."""
    import numpy as np

    then = month_index(periods).to_numpy(np.float64, na_value=np.nan)
    result: np.ndarray = month_count(period) - then
    return result


def month_count(period: str) -> int:
    """A period as ``month_index`` counts months (year × 12 + month)."""
    return month_number(period) + 1
