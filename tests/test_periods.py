"""Rating periods are parsed strictly and compared as dates (periods.py)."""

from __future__ import annotations

import datetime as dt

import pytest

from rating_batch.periods import (
    PeriodError,
    canonical_period,
    months_between,
    next_list_period,
    period_of,
)
from rating_batch.rules import FIDE_2025, named_rules


@pytest.mark.parametrize("text", ["2026-04", "1971-01", "2199-12"])
def test_canonical_periods_are_accepted_as_they_are(text: str) -> None:
    assert canonical_period(text) == text


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("2026-4", "is not a month written YYYY-MM"),
        ("2026-04 ", "is not a month written YYYY-MM"),
        (" 2026-04", "is not a month written YYYY-MM"),
        ("26-04", "is not a month written YYYY-MM"),
        ("2026/04", "is not a month written YYYY-MM"),
        ("2026-04-01", "is not a month written YYYY-MM"),
        ("2026-13", "there is no month 13"),
        ("2026-00", "there is no month 0"),
        ("1899-12", "the year must be 1900–2199"),
        ("２０２６-04", "is not a month written YYYY-MM"),  # full-width digits
    ],
)
def test_anything_else_is_refused_never_guessed(text: str, message: str) -> None:
    with pytest.raises(PeriodError, match=message):
        canonical_period(text)


def test_months_between_counts_across_years() -> None:
    assert months_between("2025-11", "2026-02") == 3
    assert months_between("2026-02", "2025-02") == -12


def test_fide_lists_are_monthly_and_close_three_days_before() -> None:
    assert next_list_period(FIDE_2025, "2026-12") == "2027-01"
    # The list of 1 February closes on 29 January: an event ending on the 30th is March's.
    assert period_of(FIDE_2025, dt.date(2026, 1, 29)) == "2026-02"
    assert period_of(FIDE_2025, dt.date(2026, 1, 30)) == "2026-03"


def test_two_month_periods_follow_the_rules_file() -> None:
    from pathlib import Path

    rules = named_rules(str(Path(__file__).parent.parent / "sample_data/rules/fexerj-2027.toml"))
    assert next_list_period(rules, "2026-01") == "2026-03"
    assert period_of(rules, dt.date(2026, 2, 14)) == "2026-03"
    assert period_of(rules, dt.date(2026, 3, 1)) == "2026-03"  # no closing offset: 1 March
    assert period_of(rules, dt.date(2026, 3, 2)) == "2026-05"
