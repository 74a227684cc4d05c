"""The order events are rated in under the systems, and the facts a system reads of them
(docs/systems.md §1, §8)."""

from __future__ import annotations

import csv
import datetime as dt
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner
from trf_text import P, trf

from rating_batch.assemble import choose_kind
from rating_batch.cli import cli
from rating_batch.errors import RatingBatchError
from rating_batch.loaders import read_event
from rating_batch.pipelines.state.rate import (
    birth_years,
    event_facts,
    rate_with_system,
    with_listed,
)
from rating_batch.schema import Event, EventInfo
from rating_batch.systems import state_system
from rating_batch.systems.base import rating_key
from rating_batch.systems.glicko import GlickoSystem
from rating_batch.systems.historical import HarknessSystem

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


def test_facts_give_each_event_its_minutes() -> None:
    # 90' + 30" → 90 + 30 = 120; the TRF-2026 code 1500+10 (seconds) → 25 + 10 = 35;
    # nothing readable → NaN (docs/systems.md §9.1 reads t from it).
    first = EventInfo("x", "X", "x.trf", DAY, DAY, time_control="90'+30\"")
    second = EventInfo("y", "Y", "y.trf", DAY, DAY, time_control_code="1500+10")
    third = EventInfo("z", "Z", "z.trf", DAY, DAY)
    minutes = event_facts([first, second, third])["minutes"].tolist()
    assert minutes[:2] == [120.0, 35.0] and math.isnan(minutes[2])


class ByThirty(HarknessSystem):
    """A system with kinds of its own: 30 minutes or more Regular and Quick, else Quick."""

    def kinds_of(self, minutes: float | None) -> tuple[str, ...] | None:
        if minutes is None:
            return None
        return ("standard", "rapid") if minutes >= 30 else () if minutes < 5 else ("rapid",)


def test_a_system_with_kinds_of_its_own_chooses_the_list_by_them() -> None:
    # 50 minutes: Regular first (and Quick) by the system's kinds (as under uscf,
    # docs/systems.md §9.1); FIDE's reading makes it rapid, and a system without kinds of
    # its own keeps that reading.
    fifty = Event(EventInfo("x", "X", "x.trf", DAY, DAY, time_control="G/45;d5", kind="rapid"),
                  pd.DataFrame(), pd.DataFrame())  # fmt: skip
    assert choose_kind([fifty], None, ByThirty())[0] == "standard"
    assert choose_kind([fifty], "rapid", ByThirty())[0] == "rapid"
    assert choose_kind([fifty], None, state_system("glicko2"))[0] == "rapid"
    with pytest.raises(
        RatingBatchError, match=r"x \(standard, rapid\) does not belong to the blitz"
    ):
        choose_kind([fifty], "blitz", ByThirty())
    unread = Event(EventInfo("y", "Y", "y.trf", DAY, DAY), pd.DataFrame(), pd.DataFrame())
    assert choose_kind([unread], "blitz", ByThirty())[1] == [
        "list: blitz (--kind)", "no readable time control in y: taken as blitz",
    ]  # fmt: skip
    assert choose_kind([unread], "blitz", state_system("glicko2"))[1] == ["list: blitz (--kind)"]


def test_listed_players_absent_from_the_events_are_appended_with_their_identity() -> None:
    # A system whose lists_everyone is true rates every player of the list (the DWZ's uplift).
    players = pd.DataFrame({"id": ["11"], "name": ["One"], "federation": ["GER"],
                            "birth_year": [1980], "events": [1]}).astype(
        {"id": "string", "name": "string", "federation": "string", "birth_year": "Int64",
         "events": "int64"})  # fmt: skip
    listed = pd.DataFrame({"id": ["11", "99"], "name": ["One", "Idle"],
                           "birth_year": ["1980", "2001"]})  # fmt: skip
    # Row 0 is player 11's (identity.find_rows); row 1 nobody's, so it is appended.
    result, rows = with_listed(players, listed, np.array([0]))
    assert rows.tolist() == [0, 1]
    expected = pd.DataFrame({"id": ["11", "99"], "name": ["One", "Idle"],
                             "federation": ["GER", pd.NA], "birth_year": [1980, 2001],
                             "events": [1, 0]}).astype(players.dtypes.to_dict())  # fmt: skip
    pd.testing.assert_frame_equal(result, expected)


def test_the_hooks_default_to_what_every_system_did_before() -> None:
    for name in ("glicko2", "glicko", "trueskill", "harkness", "ingo"):
        system = state_system(name)
        assert system is not None
        assert not system.birth_from_list and system.text_checks == {}
        assert not system.lists_everyone(event_facts([_info("a", DAY, DAY)]))


def test_the_lists_birth_year_where_given_else_the_files() -> None:
    in_files = pd.Series([1980, 2008, pd.NA], dtype="Int64", index=[5, 6, 7])
    found = pd.DataFrame({"birth_year": ["2009", pd.NA, "1975"]}, index=["11", "12", "13"])
    result = birth_years(in_files, found)
    pd.testing.assert_series_equal(result, pd.Series([2009, 2008, 1975], dtype="Int64"))
    result = birth_years(in_files, pd.DataFrame(index=["11", "12", "13"]))
    pd.testing.assert_series_equal(result, pd.Series([1980, 2008, pd.NA], dtype="Int64"))


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
    # StateSystem.calendar: FIDE's monthly lists by default (an event ending 30 January
    # waits for March: 3 days' closing); a system's own values replace them, in rate's
    # "the games go into the list of …" as in a database's periods (StatePipeline.rule_book).
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
