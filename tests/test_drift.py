"""``drift``'s numbers (rating_batch/drift.py) on a 3-list example worked by hand.

The lists (2024-01, -02, -03; birth years a 1990, b 1988, c 2000, d 1960, e 1994):

    list 1   a 2000   b 1500   c 1410   d 1800
    2024-02  a: change −5.6 → 1994.4 → 1994; b: +8.0 → 1508; c: −12.4 → 1397.6 → 1398,
             below the floor of 1400: off the list; e: a first rating, 1450; d did not play
    list 2   a 1994   b 1508   d 1800   e 1450
    2024-03  a list adjustment (docs/rules.md §7: R < 2000 → R + round(0.4 × (2000 − R))),
             after the games: a: +3.0 → 1997 → + round(1.2) = 1 → 1998; b: −4.2 → 1503.8
             → 1504 → + round(198.4) = 198 → 1702; e: +10.0 (4 games, score 3, expected
             2.75, K 40) → 1460 → + round(216) = 216 → 1676; d left the list (not the floor)
    list 3   a 1998   b 1702   e 1676
"""

from __future__ import annotations

import pandas as pd
import pytest

from rating_batch.drift import LEDGER, MEASURES, compute_drift, mean_change_parts

BORN = {"a": 1990, "b": 1988, "c": 2000, "d": 1960, "e": 1994}
LISTS = {
    "2024-01": {"a": 2000, "b": 1500, "c": 1410, "d": 1800},
    "2024-02": {"a": 1994, "b": 1508, "d": 1800, "e": 1450},
    "2024-03": {"a": 1998, "b": 1702, "e": 1676},
}
# period, id, status, rating, games, score, expected, change, new_rating, adjustment
ROWS = [
    ("2024-02", "a", "rated", 2000, 2, 1.0, 1.28, -5.6, 1994, None),
    ("2024-02", "b", "rated", 1500, 2, 1.5, 1.30, 8.0, 1508, None),
    ("2024-02", "c", "below_floor", 1410, 2, 0.5, 0.81, -12.4, 1398, None),
    ("2024-02", "e", "new", None, 6, 3.0, None, None, 1450, None),
    ("2024-03", "a", "rated", 1994, 1, 0.5, 0.35, 3.0, 1998, 1),
    ("2024-03", "b", "rated", 1508, 1, 0.0, 0.21, -4.2, 1702, 198),
    ("2024-03", "e", "rated", 1450, 4, 3.0, 2.75, 10.0, 1676, 216),
]


def example() -> pd.DataFrame:
    lists = pd.DataFrame(
        [(period, who, rating, BORN[who]) for period, listed in LISTS.items()
         for who, rating in listed.items()],
        columns=["period", "id", "rating", "birth_year"],
    )  # fmt: skip
    rows = pd.DataFrame(
        ROWS,
        columns=["period", "id", "status", "rating", "games", "score", "expected", "change",
                 "new_rating", "adjustment"],
    ).astype({"rating": "Int64", "expected": "Float64", "change": "Float64",
              "adjustment": "Int64"})  # fmt: skip
    return compute_drift(lists, rows, "standard").lists.set_index("period")


def test_the_lists_mean_median_and_total() -> None:
    table = example()
    # List 1: 2000 + 1500 + 1410 + 1800 = 6710, / 4 = 1677.5; median (1500 + 1800) / 2.
    # List 2: 1994 + 1508 + 1800 + 1450 = 6752, / 4 = 1688; median (1508 + 1800) / 2.
    # List 3: 1998 + 1702 + 1676 = 5376, / 3 = 1792; median 1702.
    assert table["players"].tolist() == [4, 4, 3]
    assert table["total"].tolist() == [6710, 6752, 5376]
    assert table["mean"].tolist() == [1677.5, 1688.0, 1792.0]
    assert table["median"].tolist() == [1650.0, 1654.0, 1702.0]


def test_the_means_change_is_split_into_rating_changes_joining_and_leaving() -> None:
    table = example()
    # List 2: on both lists a, b, d: (2000 + 1500 + 1800) / 3 = 1766.667 before,
    # (1994 + 1508 + 1800) / 3 = 1767.333 after: their rating changes +0.667; joining
    # (e): 1688 − 1767.333 = −79.333; leaving (c): 1766.667 − 1677.5 = +89.167; the three
    # add up to 1688 − 1677.5 = +10.5.
    two = table.loc["2024-02"]
    assert two["mean_change"] == pytest.approx(10.5)
    assert two["from_rating_changes"] == pytest.approx(2 / 3)
    assert two["from_joining"] == pytest.approx(1688 - 5302 / 3)
    assert two["from_leaving"] == pytest.approx(5300 / 3 - 1677.5)
    assert (two["joined"], two["left"]) == (1, 1)
    # List 3: on both a, b, e: (1994 + 1508 + 1450) / 3 = 1650.667 → 1792: +141.333;
    # nobody joined: 0; leaving (d): 1650.667 − 1688 = −37.333; 1792 − 1688 = +104.
    three = table.loc["2024-03"]
    assert three["mean_change"] == pytest.approx(104)
    assert three["from_rating_changes"] == pytest.approx(1792 - 4952 / 3)
    assert three["from_joining"] == 0
    assert three["from_leaving"] == pytest.approx(4952 / 3 - 1688)
    assert (three["joined"], three["left"]) == (0, 1)
    # A first list has nothing to change from.
    assert table.loc["2024-01", ["mean_change", "total_change", "games"]].isna().all()


def test_the_points_ledger_adds_up_to_the_change_of_the_total() -> None:
    table = example()
    # List 2: 6752 − 6710 = +42 = entering 1450 (e) − leaving below the floor 1398 (c, the
    # rating he fell to) − leaving otherwise 0 + games (−5.6 + 8.0 − 12.4 = −10.0)
    # + rounding ((1994 − 2000 + 5.6) + (1508 − 1500 − 8.0) + (1398 − 1410 + 12.4)
    # = −0.4 + 0 + 0.4 = 0) + adjustment 0 + other 0.
    two = table.loc["2024-02", ["total_change", *LEDGER]].tolist()
    assert two == pytest.approx([42, 1450, 1398, 0, -10.0, 0, 0, 0])
    # List 3: 5376 − 6752 = −1376 = − leaving otherwise 1800 (d) + games (3.0 − 4.2 + 10.0
    # = 8.8) + rounding ((1998 − 1994 − 3.0 − 1) + (1702 − 1508 + 4.2 − 198) + (1676 − 1450
    # − 10.0 − 216) = 0 + 0.2 + 0 = 0.2) + adjustment (1 + 198 + 216 = 415) + other 0.
    three = table.loc["2024-03", ["total_change", *LEDGER]].tolist()
    assert three == pytest.approx([-1376, 0, 0, 1800, 8.8, 0.2, 415, 0])
    for row in (two, three):
        total, entering, floor, other_leaving, *made = row
        assert entering - floor - other_leaving + sum(made) == pytest.approx(total)


def test_a_listed_rating_moved_by_nothing_known_is_other() -> None:
    """d's 1800 raised to 1850 on list 2 without a row of the period (a hand edit): +50."""
    lists = pd.DataFrame(
        {"period": ["2024-01", "2024-02"], "id": ["d", "d"], "rating": [1800, 1850],
         "birth_year": [1960, 1960]}
    )  # fmt: skip
    rows = pd.DataFrame(columns=["period", "id", "status", "rating", "games", "score",
                                 "expected", "change", "new_rating"])  # fmt: skip
    table = compute_drift(lists, rows, "standard").lists.set_index("period")
    assert table.loc["2024-02", ["total_change", "other", "games"]].tolist() == [50, 50, 0]


def test_new_players_expected_against_actual_score() -> None:
    table = example()
    # e's first rating is of 2024-02 (that list's rows do not count); on 2024-03, one month
    # later: 4 games, score 3 against 2.75 expected: +0.25, rating change +10.0.
    assert table.loc["2024-02", ["new_players", "new_games", "new_surplus"]].tolist() == [0, 0, 0]
    three = table.loc["2024-03", ["new_players", "new_games", "new_score", "new_expected",
                                  "new_surplus", "new_gain"]].tolist()  # fmt: skip
    assert three == pytest.approx([1, 4, 3.0, 2.75, 0.25, 10.0])


def test_ratings_at_a_fixed_age() -> None:
    table = example()
    # Ages 30–39 in the list's year (2024): a 34, b 36, e 30 (c 24 and d 64 are not).
    # List 1: a, b: (2000 + 1500) / 2 = 1750; list 2: a, b, e: (1994 + 1508 + 1450) / 3;
    # list 3: a, b, e: (1998 + 1702 + 1676) / 3 = 1792.
    assert table["age_players"].tolist() == [2, 3, 3]
    assert table["age_mean"].tolist() == pytest.approx([1750, 4952 / 3, 1792])


def test_every_column_is_defined() -> None:
    assert list(example().reset_index().columns) == list(MEASURES)


def test_the_mean_change_parts_add_up_and_nobody_staying_puts_it_all_in_the_change() -> None:
    before, after = pd.Series([1500.0, 1700.0]), pd.Series([1600.0])
    # 1600 − 1600 = 0: nobody on both lists, so no part can be told apart.
    assert mean_change_parts(before, after, before[:0], after[:0]) == {
        "change": 0.0, "stayed": 0.0, "joined": 0.0, "left": 0.0,
    }  # fmt: skip


def test_docs_define_every_measure() -> None:
    """docs/drift.md §2 names every column of drift.csv."""
    from pathlib import Path

    text = (Path(__file__).parent.parent / "docs" / "drift.md").read_text(encoding="utf-8")
    table = text.split("## §2", 1)[1].split("## §3", 1)[0]
    assert [m for m in MEASURES if f"`{m}`" not in table] == []


def test_an_initial_list_of_unknown_month_has_no_ages() -> None:
    """0000-00 (a list of unknown month) has no year: nobody's age is known on it."""
    lists = pd.DataFrame(
        {"period": ["0000-00", "2024-02"], "id": ["a", "a"], "rating": [2000, 2000],
         "birth_year": [1990, 1990]}
    )  # fmt: skip
    rows = pd.DataFrame(columns=["period", "id", "status", "rating", "games", "score",
                                 "expected", "change", "new_rating"])  # fmt: skip
    table = compute_drift(lists, rows, "standard").lists
    assert table["age_players"].tolist() == [0, 1]
    assert table["total_change"].tolist()[1] == 0


def test_a_rapid_player_rated_from_standard_enters_with_his_games() -> None:
    """Rapid (rules §6): f, not on the rapid list, plays with his standard 1800 and gains
    +10.0 → 1810; a, on it at 2000, gains +5.0 → 2005. The total 2000 → 3815: +1815 =
    entering 1810 (f's rating, his games in it) + games 5.0 (a's only) + rounding 0."""
    lists = pd.DataFrame(
        {"period": ["2024-01", "2024-02", "2024-02"], "id": ["a", "a", "f"],
         "rating": [2000, 2005, 1810], "birth_year": [1990, 1990, 1990]}
    )  # fmt: skip
    rows = pd.DataFrame(
        [("2024-02", "a", "rated", 2000, 1, 1.0, 0.5, 5.0, 2005),
         ("2024-02", "f", "rated", 1800, 1, 1.0, 0.75, 10.0, 1810)],
        columns=["period", "id", "status", "rating", "games", "score", "expected", "change",
                 "new_rating"],
    )  # fmt: skip
    table = compute_drift(lists, rows, "rapid").lists.set_index("period")
    assert table.loc["2024-02", ["total_change", *LEDGER]].tolist() == [
        1815,
        1810,
        0,
        0,
        5,
        0,
        0,
        0,
    ]
