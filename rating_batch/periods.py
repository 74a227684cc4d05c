"""Rating periods: months named ``YYYY-MM``, parsed strictly and compared as dates.

A period is named by the month of the list that closes it (FIDE's monthly lists): the list of
``2026-02`` is published on 1 February 2026 and rates the events that ended after the
previous list's closing date and on or before its own. A period is always held in its
canonical text ``YYYY-MM`` (four-digit year, two-digit month), the only form the database
accepts (a CHECK constraint), so that text order is date order everywhere; whatever a user
types is parsed by ``canonical_period`` first and refused unless it is exactly that form.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import TYPE_CHECKING

import pandas as pd

from rating_batch.errors import RatingBatchError

if TYPE_CHECKING:
    from rating_batch.systems.elo.rules import Rules

Period = str
"""A rating period in canonical form, ``"2025-12"``."""

INITIAL: Period = "0000-00"
"""The period of an initial list whose month is unknown: in force before every event."""

#: Years a period may name: FIDE's first list is of 1971; later than 2199 is a typo.
FIRST_YEAR, LAST_YEAR = 1900, 2199

_PERIOD = re.compile(r"([0-9]{4})-([0-9]{2})")


class PeriodError(RatingBatchError):
    """A period that is not a month written ``YYYY-MM``."""


def canonical_period(text: str) -> Period:
    """``text`` if it is a month written exactly ``YYYY-MM`` (1900-01 … 2199-12), else
    PeriodError: ``2026-4``, ``26-04``, ``2026-04 `` and ``2026-13`` are all refused, never
    guessed."""
    match = _PERIOD.fullmatch(text)
    if match is None:
        raise PeriodError(
            f"period {text!r} is not a month written YYYY-MM (four-digit year, two-digit "
            "month, e.g. 2026-04)"
        )
    year, month = int(match[1]), int(match[2])
    if not 1 <= month <= 12:
        raise PeriodError(f"period {text!r}: there is no month {month}")
    if not FIRST_YEAR <= year <= LAST_YEAR:
        raise PeriodError(f"period {text!r}: the year must be {FIRST_YEAR}–{LAST_YEAR}")
    return text


def parse_period(text: str) -> tuple[int, int]:
    """``"2025-12"`` → (2025, 12); PeriodError for anything but a canonical period."""
    canonical_period(text)
    return int(text[:4]), int(text[5:7])


def period_name(year: int, month: int) -> Period:
    return f"{year:04d}-{month:02d}"


def month_number(period: Period) -> int:
    """Months since year 0 (year × 12 + month − 1): differences are months between lists."""
    year, month = parse_period(period)
    return year * 12 + month - 1


def months_between(earlier: Period, later: Period) -> int:
    return month_number(later) - month_number(earlier)


def list_date(period: Period) -> dt.date:
    """The list of period ``YYYY-MM`` is published on the 1st of that month."""
    year, month = parse_period(period)
    return dt.date(year, month, 1)


def closing_date(rules: Rules, period: Period) -> dt.date:
    """The last end date a period rates: ``closing_offset_days`` before its list (§1)."""
    return list_date(period) - dt.timedelta(days=rules.closing_offset_days)


def is_list_period(rules: Rules, period: Period) -> bool:
    return parse_period(period)[1] in rules.list_months


def next_list_period(rules: Rules, period: Period) -> Period:
    """The list period after ``period``."""
    year, month = parse_period(period)
    for _ in range(24):
        month += 1
        if month > 12:
            year, month = year + 1, 1
        if month in rules.list_months:
            return period_name(year, month)
    raise RatingBatchError("no list month in the rules")  # excluded by the rules' checks


def previous_list_period(rules: Rules, period: Period) -> Period:
    """The list period before ``period``."""
    year, month = parse_period(period)
    for _ in range(24):
        month -= 1
        if month < 1:
            year, month = year - 1, 12
        if month in rules.list_months:
            return period_name(year, month)
    raise RatingBatchError("no list month in the rules")  # excluded by the rules' checks


def junior_year(rules: Rules, period: Period | None, latest_end: dt.date | None) -> int | None:
    """The year against which a period's juniors are judged for K (docs/rules.md §3).

    ``junior_year = "closing_date"``: the year of the period's closing date (FIDE's monthly
    lists). ``"latest_end"``: the year of the latest end date among the period's events; for a
    list's K, given before its period's events are known (``latest_end`` None), the year that
    holds most of the period's days. None when there is no period and no date."""
    if period is None or period == INITIAL:
        return None if latest_end is None else latest_end.year
    if rules.junior_year == "latest_end":
        if latest_end is not None:
            return latest_end.year
        first = closing_date(rules, previous_list_period(rules, period)) + dt.timedelta(days=1)
        last = closing_date(rules, period)
        return (first + (last - first) / 2).year
    return closing_date(rules, period).year


def period_of(rules: Rules, end: dt.date) -> Period:
    """The first list period whose closing date is on or after an event's end date (§1)."""
    candidate = period_name(end.year, end.month)
    if not is_list_period(rules, candidate):
        candidate = next_list_period(rules, candidate)
    while closing_date(rules, candidate) < end:
        candidate = next_list_period(rules, candidate)
    return candidate


def shown(period: Period) -> str:
    """A period as the officer reads it: ``initial`` for the unknown month of an initial list."""
    return "initial" if period == INITIAL else period


def month_index(periods: pd.Series) -> pd.Series:
    """Periods ``YYYY-MM`` as a month count (year × 12 + month), NA for none or INITIAL."""
    text = periods.astype("string")
    known = text.notna() & (text != INITIAL)
    year = pd.to_numeric(text.str.slice(0, 4).where(known), errors="coerce")
    month = pd.to_numeric(text.str.slice(5, 7).where(known), errors="coerce")
    return (year * 12 + month).astype("Int64")


def month_count(period: Period) -> int:
    """A period as ``month_index`` counts months (year × 12 + month)."""
    return month_number(period) + 1
