"""A player's rating changes on his page (writers/site_history.py, docs/site.md §1): a row
for his first list, then only where his rating or title changed or he left or came back;
nothing that changes for a player who did not play."""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from rating_batch.writers.site_history import change_rows, charts, history
from rating_batch.writers.site_labels import ENGLISH


@dataclass(frozen=True)
class Listed:
    period: str
    kind: str
    listing: pd.DataFrame

    @property
    def folder(self) -> str:
        return f"{self.period}/{self.kind}"


def listed(period: str, *rows: tuple[str, str, str]) -> Listed:
    """A standard list of (id, rating, title) rows."""
    frame = pd.DataFrame(rows, columns=["id", "rating", "title"]).assign(name="N")
    frame["rating_value"] = pd.to_numeric(frame["rating"])
    frame["change_value"] = float("nan")
    return Listed(period, "standard", frame)


# Five lists. P plays in February (1500 → 1510), not in March (1510 again), gets the FM
# title in April (1510 again), is missing from May's list and back on June's at 1510.
# Q is on every list at 1800 and never plays.
LISTS = [
    listed("2026-01", ("P", "1500", ""), ("Q", "1800", "")),
    listed("2026-02", ("P", "1510", ""), ("Q", "1800", "")),
    listed("2026-03", ("P", "1510", ""), ("Q", "1800", "")),
    listed("2026-04", ("P", "1510", "FM"), ("Q", "1800", "")),
    listed("2026-05", ("Q", "1800", "")),
    listed("2026-06", ("P", "1510", "FM"), ("Q", "1800", "")),
]


def test_a_row_only_where_the_rating_or_title_changed_or_he_left_or_came_back() -> None:
    rows = change_rows(history(LISTS), LISTS)
    p = rows[rows["id"] == "P"]
    # By hand from the lists above: January (his first), February (1510), April (FM), May
    # (not on the list), June (back). March repeats February: no row.
    assert p[["period", "rating", "title", "left"]].values.tolist() == [
        ["2026-01", "1500", "", False],
        ["2026-02", "1510", "", False],
        ["2026-04", "1510", "FM", False],
        ["2026-05", "", "", True],
        ["2026-06", "1510", "FM", False],
    ]
    # Q never played: his first list alone, however many lists follow.
    assert rows[rows["id"] == "Q"]["period"].tolist() == ["2026-01"]


def test_a_list_more_changes_nothing_for_a_player_who_did_not_play() -> None:
    # Q's rows and chart made from 2 lists and from 6 are the same: his page is unchanged.
    short = change_rows(history(LISTS[:2]), LISTS[:2])
    long = change_rows(history(LISTS), LISTS)
    columns = ["period", "rating", "title", "left"]
    assert (
        short[short["id"] == "Q"][columns].values.tolist()
        == long[long["id"] == "Q"][columns].values.tolist()
    )
    assert charts(short, ENGLISH)["Q"] == charts(long, ENGLISH)["Q"]


def test_the_chart_is_a_step_line_over_his_own_changes() -> None:
    chart = charts(change_rows(history(LISTS), LISTS), ENGLISH)["P"]
    # x over January to June (5 months, 540 units from 64: 108 a month); y from 1500 (174)
    # to 1510 (14). Stay one: Jan 1500 → Feb 1510 (a step at February), held to April, held
    # to May where he left; stay two: June alone.
    assert 'points="64.0,174.0 172.0,174.0 172.0,14.0 388.0,14.0 388.0,14.0 496.0,14.0"' in chart
    assert 'points="604.0,14.0"' in chart
    assert chart.count("<circle") == 4  # January, February, April, June
    assert ">2026-01</text>" in chart and ">2026-06</text>" in chart
