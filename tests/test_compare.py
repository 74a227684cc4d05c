"""compare.py: the per-player order and the summary's figures, by hand."""

from __future__ import annotations

import pandas as pd
import pytest

from rating_batch.compare import compare_results


def players(rows: list[tuple[str, float | None, str, float | None]]) -> pd.DataFrame:
    return pd.DataFrame(
        {
            "id": [r[0] for r in rows],
            "name": [r[0] for r in rows],
            "rating": pd.array([r[1] for r in rows], dtype="Int64"),
            "status": [r[2] for r in rows],
            "k": 20,
            "change": 0.0,
            "new_rating": pd.array([r[3] for r in rows], dtype="Int64"),
        }
    )


def test_the_change_of_the_list_average_splits_into_its_three_causes() -> None:
    # Before: 2000, 1500, 1410 (average 1636.67). After, A: 2010, 1490 stay; 1410 falls
    # below the floor (1390, off the list); a newcomer joins at 1700. After-average
    # (2010 + 1490 + 1700) / 3 = 1733.33: change +96.67 =
    #   players on both lists: (2010 + 1490) / 2 − (2000 + 1500) / 2 = 0
    #   joining: 1733.33 − 1750 = −16.67;  leaving: 1750 − 1636.67 = +113.33.
    a = players([
        ("1", 2000, "rated", 2010), ("2", 1500, "rated", 1490),
        ("3", 1410, "below_floor", 1390), ("4", None, "new", 1700),
    ])  # fmt: skip
    # B keeps 3 on the list (1402) and gives the newcomer 1680.
    b = players([
        ("1", 2000, "rated", 2012), ("2", 1500, "rated", 1490),
        ("3", 1410, "rated", 1402), ("4", None, "new", 1680),
    ])  # fmt: skip
    compared = compare_results(a, b, ("A", "B"))
    summary = compared.summary.set_index("metric")
    assert summary.loc["listed after"].tolist() == [3, 4, 1]
    assert summary.loc["fell below the floor"].tolist() == [1, 0, -1]
    assert summary.loc["list average before"].tolist() == [1636.67, 1636.67, 0.0]
    assert summary.loc["list average after"].tolist() == [1733.33, 1646.0, -87.33]
    assert summary.loc["change of the list average"].tolist() == [96.67, 9.33, -87.34]
    assert summary.loc["from rating changes of players on both lists"].tolist()[:2] == [
        0.0,
        -2.0,  # (2012 + 1490 + 1402) / 3 − 1636.67 = 1634.67 − 1636.67
    ]
    assert summary.loc["from players joining the list"].tolist()[:2] == [-16.67, 11.33]
    assert summary.loc["from players leaving the list"].tolist()[:2] == [113.33, 0.0]
    assert all(isinstance(v, int) for v in summary.loc["players"])
    # Players listed by one rule set only come first, then the largest differences.
    assert compared.players["id"].tolist() == ["3", "4", "1", "2"]
    assert compared.players["difference"].tolist() == [12, -20, 2, 0]


def test_two_systems_lists_compared_by_rank() -> None:
    from rating_batch.compare import compare_lists

    a = pd.DataFrame(
        {
            "id": ["1", "2", "3", "4"],
            "name": ["A", "B", "C", "D"],
            "value": [2000, 1900, 1800, 1700],
            "listed": [True, True, True, False],
        }
    )
    # Ingo-like: lower is better. 1 best, then 2, then 3: the same order; 4 listed here only.
    same = pd.DataFrame(
        {
            "id": ["1", "2", "3", "4"],
            "name": ["A", "B", "C", "D"],
            "value": [100, 110, 120, 130],
            "listed": [True, True, True, True],
        }
    )
    compared = compare_lists(a, same, ("elo", "ingo"), (False, True))
    assert compared.listed == (3, 4) and compared.both == 3
    assert compared.rank_correlation == pytest.approx(1.0)
    assert compared.players["id"].tolist()[0] == "4"  # held by one list only: first
    # Reversed order: ranks 1, 2, 3 against 3, 2, 1: Spearman −1; C moves up 2 places.
    reverse = same.assign(value=[120, 110, 100, 130])
    compared = compare_lists(a, reverse, ("elo", "ingo"), (False, True))
    assert compared.rank_correlation == pytest.approx(-1.0)
    changes = dict(zip(compared.players["id"], compared.players["rank change"], strict=True))
    assert (changes["1"], changes["2"], changes["3"]) == (2, 0, -2)
