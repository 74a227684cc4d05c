"""Rating periods are parsed strictly and compared as dates (periods.py)."""

from __future__ import annotations

import datetime as dt
import pickle
from pathlib import Path

import pytest

from rating_batch.periods import (
    INITIAL,
    Period,
    PeriodError,
    canonical_period,
    months_between,
    next_list_period,
    period_of,
    previous_list_period,
)
from rating_batch.systems.elo.k import junior_year
from rating_batch.systems.elo.rules import FIDE_2025
from rating_batch.systems.elo.rules_file import named_rules


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
    rules = named_rules(str(Path(__file__).parent.parent / "sample_data/rules/fexerj-2027.toml"))
    assert next_list_period(rules, "2026-01") == "2026-03"
    assert period_of(rules, dt.date(2026, 2, 14)) == "2026-03"
    assert period_of(rules, dt.date(2026, 3, 1)) == "2026-03"  # no closing offset: 1 March
    assert period_of(rules, dt.date(2026, 3, 2)) == "2026-05"


FEXERJ = Path(__file__).parent.parent / "sample_data/rules/fexerj-2027.toml"


def test_fide_judges_juniors_by_the_year_of_the_periods_closing_date() -> None:
    # docs/rules.md §3, junior_year = "closing_date": the list of 1 January 2027 closes on
    # 29 December 2026, the list of 1 February 2027 on 29 January 2027; the events' dates do
    # not matter.
    assert junior_year(FIDE_2025, "2027-01", dt.date(2026, 12, 5)) == 2026
    assert junior_year(FIDE_2025, "2027-02", dt.date(2026, 12, 30)) == 2027
    assert junior_year(FIDE_2025, "2027-02", None) == 2027
    assert junior_year(FIDE_2025, None, None) is None


def test_fexerj_judges_juniors_by_the_latest_end_of_the_periods_events() -> None:
    # junior_year = "latest_end": the list of 1 January 2027 (no closing offset) rates the
    # events ending 2 November 2026 … 1 January 2027; one ending 5 December makes it 2026.
    rules = named_rules(str(FEXERJ))
    assert rules.junior_year == "latest_end"
    assert junior_year(rules, "2027-01", dt.date(2026, 12, 5)) == 2026
    assert junior_year(rules, "2027-01", dt.date(2027, 1, 1)) == 2027
    # Before the events are known (a list's K for its next period): the year of most of the
    # period's 61 days, 2 November … 1 January, whose middle is 2 December.
    assert previous_list_period(rules, "2027-01") == "2026-11"
    assert junior_year(rules, "2027-01", None) == 2026
    assert junior_year(rules, "2027-03", None) == 2027


def test_a_period_is_a_value_parsed_once_and_its_canonical_text() -> None:
    period = Period.parse("2026-02")
    assert (period.year, period.month, period.number) == (2026, 2, 2026 * 12 + 1)
    assert Period.parse(period) is period  # a period is not parsed again
    assert period == "2026-02" and f"{period}" == "2026-02" and str(period) == "2026-02"
    assert {period: 1}["2026-02"] == 1  # the same key as its text (the database's form)


def test_a_period_shifts_across_years_and_survives_pickling() -> None:
    assert Period.parse("2026-01").shifted(-1) == Period.of(2025, 12)
    assert Period.parse("2025-12").shifted(13) == "2027-01"
    copy = pickle.loads(pickle.dumps(Period.parse("2026-03")))
    assert (type(copy), copy.year, copy.month) == (Period, 2026, 3)


def test_the_initial_list_period_is_read_back_but_never_typed() -> None:
    assert Period.parse("0000-00") is INITIAL
    with pytest.raises(PeriodError, match="there is no month 0"):
        canonical_period("0000-00")
