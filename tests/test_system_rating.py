"""The order events are rated in under the systems, and the facts a system reads of them
(docs/systems.md §1, §8)."""

from __future__ import annotations

import csv
import datetime as dt
from pathlib import Path

from click.testing import CliRunner
from trf_text import P, trf

from rating_batch.cli import cli
from rating_batch.loaders import read_event
from rating_batch.schema import EventInfo
from rating_batch.system_rating import event_facts, rate_with_system, rating_key
from rating_batch.systems.glicko import GlickoSystem

DAY = dt.date(2026, 8, 1)


def _info(key: str, start: dt.date | None, end: dt.date | None) -> EventInfo:
    return EventInfo(key=key, name=key, source=f"{key}.trf", start=start, end=end)


def test_events_ending_the_same_day_go_by_start_then_key_by_default() -> None:
    late = _info("a", DAY, DAY)
    early = _info("b", DAY - dt.timedelta(days=3), DAY)
    assert sorted([late, early], key=rating_key) == [early, late]


def test_the_national_order_is_end_date_then_key_whatever_the_start() -> None:
    # docs/systems.md §8: 202608010253-5 before 202608010253-6, whatever their starts.
    five = _info("202608010253-5", DAY, DAY)
    six = _info("202608010253-6", DAY - dt.timedelta(days=3), DAY)
    ordered = sorted([six, five], key=lambda info: rating_key(info, by_start=False))
    assert [info.key for info in ordered] == ["202608010253-5", "202608010253-6"]


def test_facts_give_each_event_its_dates_and_time_control_in_order() -> None:
    first = EventInfo("x", "X", "x.trf", DAY, DAY, time_control="90'+30\"")
    second = EventInfo("y", "Y", "y.trf", None, None, time_control_code="5400+30")
    facts = event_facts([first, second])
    assert list(facts["key"]) == ["x", "y"]
    assert list(facts["end"]) == [DAY, None]
    assert list(facts["time_control"]) == ["90'+30\"", "5400+30"]


def test_a_listed_player_without_last_period_is_rated_not_new(tmp_path: Path) -> None:
    # A Glicko list whose last_period is empty: the players had a state, so their status is
    # rated (the list's string column keeps its dtype: not taken for a missing number).
    people = [P(r, f"Player {r}", None, 10 + r, 1980) for r in (1, 2)]
    event = tmp_path / "e.trf"
    event.write_text(trf(people, [(1, 1, 2, "1-0")]), encoding="utf-8")
    listed = tmp_path / "list.csv"
    listed.write_text("id,rating,rd,last_period\n11,1500,100,\n12,1500,100,2025-12\n")
    result = CliRunner().invoke(cli, ["rate", str(event), "--rules", "glicko", "--list",
                                      str(listed), "--out", str(tmp_path / "out")])  # fmt: skip
    assert result.exit_code == 0, result.output
    with (tmp_path / "out" / "players.csv").open(encoding="utf-8-sig") as handle:
        assert [row["status"] for row in csv.DictReader(handle)] == ["rated", "rated"]


def test_a_system_may_set_its_own_list_calendar(tmp_path: Path) -> None:
    # RatingSystem.calendar: FIDE's monthly lists by default (an event ending 30 January
    # waits for March: 3 days' closing); a system's own values replace them, in rate's
    # "the games go into the list of …" as in a database's periods (monthly.common.book_from).
    people = [P(r, f"Player {r}", None, 10 + r, 1980) for r in (1, 2)]
    event = tmp_path / "e.trf"
    event.write_text(trf(people, [(1, 1, 2, "1-0")], start="2026/01/30", end="2026/01/30"))

    class Quarterly(GlickoSystem):
        @property
        def calendar(self) -> dict[str, object]:
            return {"list_months": (1, 4, 7, 10), "period_months": 3, "closing_offset_days": 1}

    for system, label in ((GlickoSystem(), "2026-03"), (Quarterly(), "2026-04")):
        rated = rate_with_system([read_event(event)], [], system, None, [])
        assert f"the games go into the list of {label}" in rated.notes
