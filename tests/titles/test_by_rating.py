"""Titles by rating (rating_batch/titles/by_rating.py; B.01 1.3): FM 2300, CM 2200, WFM
2100, WCM 2000, with 30 rated games at the time for a rating reached from 1 Jul 2017."""

from __future__ import annotations

import datetime as dt

import pandas as pd

from rating_batch.titles.by_rating import titles_by_rating
from rating_batch.titles.rules import EDITIONS

RULES = EDITIONS["2024"]


def _titles(rows: list[tuple[str, int | None, int | None]], sex: str | None = "M") -> dict:
    history = pd.DataFrame(rows, columns=["period", "rating", "games_total"]).astype(
        {"rating": "Int64", "games_total": "Int64"}
    )
    dates = history["period"].map(lambda p: dt.date(int(p[:4]), int(p[5:]), 1))
    found = titles_by_rating(history, dates, sex, RULES)
    return {row["title"]: row for row in found.to_dict("records")}


def test_2300_with_30_games_is_fm_and_with_29_is_not() -> None:
    thirty = _titles([("2026-01", 2290, 25), ("2026-02", 2300, 30)])["FM"]
    assert (thirty["reached"], thirty["period"], thirty["rating"], thirty["games"]) == (
        True, "2026-02", 2300, 30,
    )  # fmt: skip
    short = _titles([("2026-01", 2290, 24), ("2026-02", 2300, 29)])["FM"]
    assert (short["reached"], short["period"], short["note"]) == (
        False, "2026-02", "2300 reached with 29 rated games: 30 needed (1.3)",
    )  # fmt: skip


def test_the_title_is_given_by_the_first_list_with_both_the_rating_and_the_games() -> None:
    # 2310 with 28 games, then 2305 with 31: FM on the second list (the first had too few).
    fm = _titles([("2026-01", 2310, 28), ("2026-02", 2305, 31)])["FM"]
    assert (fm["reached"], fm["period"], fm["rating"]) == (True, "2026-02", 2305)
    # 2299 is not 2300; CM (2200) is reached on the first list with 30 games.
    below = _titles([("2026-01", 2299, 40)])
    assert (below["FM"]["reached"], below["FM"]["period"]) == (False, "")
    assert below["CM"]["reached"]


def test_a_rating_reached_before_july_2017_needs_no_games() -> None:
    history = pd.DataFrame({"period": ["2017-06", "2017-07"], "rating": [2300, 2300],
                            "games_total": [5, 5]}).astype({"rating": "Int64",
                                                            "games_total": "Int64"})  # fmt: skip
    dates = pd.Series([dt.date(2017, 6, 1), dt.date(2017, 7, 1)])
    fm = titles_by_rating(history, dates, "M", RULES).set_index("title").loc["FM"]
    assert (fm["reached"], fm["period"]) == (True, "2017-06")
    # From 1 Jul 2017 the same rating with 5 games is not enough.
    later = titles_by_rating(history.iloc[1:], dates.iloc[1:], "M", RULES).set_index("title")
    assert not later.loc["FM", "reached"]


def test_unknown_games_do_not_give_a_title_and_womens_titles_are_for_women() -> None:
    unknown = _titles([("2026-01", 2350, None)])["FM"]
    assert (unknown["reached"], unknown["note"]) == (
        False, "2300 reached with its rated games then not known: 30 needed (1.3)",
    )  # fmt: skip
    assert set(_titles([("2026-01", 2150, 40)], sex="M")) == {"FM", "CM"}
    women = _titles([("2026-01", 2150, 40)], sex="F")
    assert [t for t, row in women.items() if row["reached"]] == ["WFM", "WCM"]


def test_norms_gathered_sum_each_titles_credits_against_27_games() -> None:
    """Two IM norms credited 13 and 9 games and a GM norm of 9 that also meets IM's
    requirements (norms.csv then has a GM row and an IM row): GM 1 norm, 9 games; IM 3
    norms, 13 + 9 + 9 = 31 ≥ 27 (1.5.1)."""
    from rating_batch.titles.by_rating import norms_gathered

    norms = pd.DataFrame({"norm_title": ["IM", "IM", "GM", "IM"], "credit_games": [13, 9, 9, 9]})
    result = norms_gathered(norms, RULES)
    expected = pd.DataFrame(
        {"title": ["GM", "IM"], "norms": [1, 3], "games": [9, 31], "needed": [27, 27]}
    )
    pd.testing.assert_frame_equal(result, expected, check_dtype=False)
