"""The rules of docs/rules.md §2–§5 and the worked examples of §4 and §9, end to end
through TRF text. Every expected number is derived by hand from the tables (the comments
show the table rows used), never from running the code."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from conftest import RateTexts, player
from trf_text import P, trf

from rating_batch.systems.elo.tables import divide_half_up, hundredths_half_away

ADULT = 1980  # born 1980: never a junior in these 2026 events


# -- §9 worked examples ---------------------------------------------------------------------------


def test_1600_beats_1500_gains_7_2(rate_texts: RateTexts) -> None:
    # D = 100 → band 99-106 → PD 0.64; ΔR = 0.36; K 20 → +7.2 → 1607.
    result = rate_texts(
        trf([P(1, "A", 1600, 11, ADULT), P(2, "B", 1500, 12, ADULT)], [(1, 1, 2, "1-0")])
    )
    winner, loser = player(result, 11), player(result, 12)
    assert (winner["k"], winner["expected"], winner["change"], winner["new_rating"]) == (
        20,
        0.64,
        7.2,
        1607,
    )
    # The loser: D = -100 → 0.36; ΔR = -0.36 → -7.2 → 1493.
    assert (loser["change"], loser["new_rating"]) == (-7.2, 1493)
    game = result.games[result.games["id"] == "11"].iloc[0]
    assert (game["diff"], game["expected"], game["delta"], game["counted"]) == (
        100,
        0.64,
        0.36,
        True,
    )


def test_2400_beats_2400_with_k_10_gains_5(rate_texts: RateTexts) -> None:
    # Rated 2400: K 10 (§3.1); D = 0 → 0.50; +0.5 × 10 = +5.0.
    result = rate_texts(
        trf([P(1, "A", 2400, 11, ADULT), P(2, "B", 2400, 12, ADULT)], [(1, 1, 2, "1-0")])
    )
    assert (
        player(result, 11)["k"],
        player(result, 11)["change"],
        player(result, 11)["new_rating"],
    ) == (10, 5.0, 2405)


def test_junior_1892_beats_2025_with_k_40(rate_texts: RateTexts) -> None:
    # Born 2010, event 2026: junior (16 ≤ 18) below 2300 → K 40. D = -133 → band 130-137
    # → p_low 0.32; ΔR 0.68 × 40 = +27.2 → 1919.2 → 1919.
    result = rate_texts(
        trf([P(1, "A", 1892, 11, 2010), P(2, "B", 2025, 12, ADULT)], [(1, 1, 2, "1-0")])
    )
    assert (
        player(result, 11)["k"],
        player(result, 11)["change"],
        player(result, 11)["new_rating"],
    ) == (40, 27.2, 1919)
    # The adult loser: D = 133 → 0.68; ΔR -0.68 × 20 = -13.6 → -14 → 2011.
    assert (player(result, 12)["change"], player(result, 12)["new_rating"]) == (-13.6, 2011)


def test_adult_1892_beats_2025_with_k_20(rate_texts: RateTexts) -> None:
    # §9: with K 20 the same win is +13.6 → 1905.6 → 1906.
    result = rate_texts(
        trf([P(1, "A", 1892, 11, ADULT), P(2, "B", 2025, 12, ADULT)], [(1, 1, 2, "1-0")])
    )
    assert (player(result, 11)["change"], player(result, 11)["new_rating"]) == (13.6, 1906)


SEVEN_HUNDRED_CAP_EVENTS = [
    [(2406, 0), (1908, 1), (2220, 1), (2216, 0), (2204, 0.5), (2189, 1), (2223, 0), (2221, 0.5)],
    [(2350, 0), (1928, 0), (2085, 1), (1993, 1), (1931, 1), (2055, 0.5), (2454, 0.5), (1861, 1)],
    [(2217, 1), (1743, 1), (1947, 1), (2266, 0.5), (2189, 0.5), (2186, 1)],
    [(1654, 1), (2283, 0), (1822, 1), (2251, 0), (1884, 1), (2215, 0.5), (2210, 0.5), (1872, 1)],
    [
        (1654, 1),
        (2247, 1),
        (2308, 0),
        (2168, 0),
        (1810, 0),
        (1747, 1),
        (1852, 1),
        (1875, 0.5),
        (1654, 1),
    ],
]
OUTCOME = {1: "1-0", 0.5: "=-=", 0: "0-1"}


def _cap_event(index: int, games: list[tuple[int, float]], birth: int) -> str:
    players = [P(1, "Subject", 2054, 500, birth)]
    pairings = []
    for rnd, (rating, score) in enumerate(games, start=1):
        players.append(P(rnd + 1, f"Opponent {rnd}", rating, 1000 * index + rnd, ADULT))
        pairings.append((rnd, 1, rnd + 1, OUTCOME[score]))
    day = 2 + 5 * index
    return trf(
        players,
        pairings,
        name=f"Event {index}",
        start=f"2026/01/{day:02d}",
        end=f"2026/01/{day + 1:02d}",
    )


def test_seven_hundred_cap_over_five_events_gives_fides_2146(rate_texts: RateTexts) -> None:
    # 39 games, K 20: 20 × 39 = 780 > 700 → K = 17 (17 × 39 = 663); FIDE published +92 → 2146.
    texts = [
        _cap_event(i, games, ADULT) for i, games in enumerate(SEVEN_HUNDRED_CAP_EVENTS, start=1)
    ]
    subject = player(rate_texts(*texts), 500)
    assert (subject["games"], subject["k"], subject["events"]) == (39, 17, 5)
    assert subject["new_rating"] == 2146


def test_seven_hundred_cap_with_k_from_the_list(rate_texts: RateTexts) -> None:
    # The same period with the ratings and K 20 taken from a --list CSV.
    texts = [
        _cap_event(i, games, ADULT) for i, games in enumerate(SEVEN_HUNDRED_CAP_EVENTS, start=1)
    ]
    rows = ["id,rating,k", "500,2054,20"]
    for index, games in enumerate(SEVEN_HUNDRED_CAP_EVENTS, start=1):
        rows += [
            f"{1000 * index + rnd},{rating},20" for rnd, (rating, _) in enumerate(games, start=1)
        ]
    subject = player(rate_texts(*texts, list_csv="\n".join(rows)), 500)
    assert (subject["k"], subject["k_source"], subject["new_rating"]) == (17, "list", 2146)


# -- §4 first ratings -----------------------------------------------------------------------------

NEWCOMER = P(1, "Newcomer", None, 900, ADULT)


def _first_rating_event(ratings: list[int], scores: list[float], **dates: str) -> str:
    players = [NEWCOMER] + [
        P(i + 2, f"Rated {i}", r, 910 + i, ADULT) for i, r in enumerate(ratings)
    ]
    games = [(i + 1, 1, i + 2, OUTCOME[s]) for i, s in enumerate(scores)]
    return trf(players, games, **dates)


def test_first_rating_worked_case_1922(rate_texts: RateTexts) -> None:
    # §4: 5 games, 3 points, opponents summing to 9507 → Ra = 13107/7 = 1872.43,
    # p = 4/7 → 0.57, dp 50 → 1922.43 → 1922.
    result = rate_texts(_first_rating_event([1901, 1901, 1901, 1902, 1902], [1, 1, 1, 0, 0]))
    newcomer = player(result, 900)
    assert (newcomer["status"], newcomer["games"], newcomer["score"]) == ("new", 5, 3.0)
    assert (newcomer["provisional"], newcomer["new_rating"]) == (1922, 1922)
    # Rp: Ra = 9507/5 = 1901.4 → 1901; p = 0.60 → dp 72 → 1973.
    assert (newcomer["avg_opponent"], newcomer["performance"]) == (1901, 1973)
    # Opponents get no change for games against an unrated player (§4).
    opponent = player(result, 910)
    assert (opponent["games"], opponent["change"], opponent["new_rating"]) == (0, 0.0, 1901)
    rows = result.games[result.games["id"] == "910"]
    assert rows["reason"].tolist() == ["unrated_opponent"] + ["bye"] * 4


def test_four_games_are_not_enough_but_show_a_provisional_rating(rate_texts: RateTexts) -> None:
    # 4 games, 2 points vs 1900s: Ra = (7600 + 3600)/6 = 1866.67; p = 3/6 = 0.50 → dp 0 → 1867.
    newcomer = player(rate_texts(_first_rating_event([1900] * 4, [1, 1, 0, 0])), 900)
    assert (newcomer["status"], newcomer["provisional"]) == ("unrated", 1867)
    assert pd.isna(newcomer["new_rating"])


def test_first_rating_is_capped_at_2200(rate_texts: RateTexts) -> None:
    # 5 wins vs 2400: Ra = (12000 + 3600)/7 = 2228.57; p = 6/7 → 0.86 → dp 309 → 2538 → 2200.
    newcomer = player(rate_texts(_first_rating_event([2400] * 5, [1] * 5)), 900)
    assert (newcomer["status"], newcomer["new_rating"]) == ("new", 2200)


def test_first_rating_below_1400_is_not_published(rate_texts: RateTexts) -> None:
    # 1/5 vs 1400: Ra = (7000 + 3600)/7 = 1514.29; p = 2/7 → 0.29 → dp -158 → 1356.29 → 1356.
    newcomer = player(rate_texts(_first_rating_event([1400] * 5, [1, 0, 0, 0, 0])), 900)
    assert (newcomer["status"], newcomer["provisional"]) == ("unrated", 1356)


def test_zero_in_the_first_event_is_disregarded(rate_texts: RateTexts) -> None:
    first = _first_rating_event([1500, 1500], [0, 0], start="2026/01/03", end="2026/01/04")
    second = _first_rating_event(
        [1901, 1901, 1901, 1902, 1902], [1, 1, 1, 0, 0], start="2026/01/17", end="2026/01/18"
    )
    result = rate_texts(second, first)  # given out of order: the start date decides
    newcomer = player(result, 900)
    assert (newcomer["games"], newcomer["new_rating"], newcomer["events"]) == (5, 1922, 2)
    dropped = result.games[(result.games["id"] == "900") & (result.games["event"] == "event2")]
    assert dropped["reason"].tolist() == ["first_event_disregarded", "first_event_disregarded"]


def test_half_a_point_in_the_first_event_keeps_it(rate_texts: RateTexts) -> None:
    # 7 games: 9507 + 3000 = 12507 with 3.5 points. Ra = (12507 + 3600)/9 = 1789.67;
    # p = 4.5/9 = 0.50 → dp 0 → 1790.
    first = _first_rating_event([1500, 1500], [0.5, 0], start="2026/01/03", end="2026/01/04")
    second = _first_rating_event(
        [1901, 1901, 1901, 1902, 1902], [1, 1, 1, 0, 0], start="2026/01/17", end="2026/01/18"
    )
    newcomer = player(rate_texts(first, second), 900)
    assert (newcomer["games"], newcomer["score"], newcomer["new_rating"]) == (7, 3.5, 1790)


# -- §2 the rating change -------------------------------------------------------------------------


def test_400_point_rule_is_one_sided_with_the_2650_exemption(rate_texts: RateTexts) -> None:
    # §2.2: 2813 uses D = 413 (band 412-432 → 0.93), ΔR 0.07 × 10 = 0.7 → +1 → 2814.
    # 2400 uses D = -400 (band 392-411 → p_low 0.08), ΔR -0.08 × 10 = -0.8 → -1 → 2399.
    result = rate_texts(
        trf([P(1, "Top", 2813, 11, ADULT), P(2, "Low", 2400, 12, ADULT)], [(1, 1, 2, "1-0")])
    )
    games = result.games.set_index("id")
    assert (games.loc["11", "diff"], games.loc["11", "expected"]) == (413, 0.93)
    assert (games.loc["12", "diff"], games.loc["12", "expected"]) == (-400, 0.08)
    assert (player(result, 11)["new_rating"], player(result, 12)["new_rating"]) == (2814, 2399)


def test_below_2650_the_difference_is_capped_at_400(rate_texts: RateTexts) -> None:
    # 2649 vs 2200: D = 449 → 400 → 0.92; a win gives 0.08 × 10 = 0.8 → +1.
    result = rate_texts(
        trf([P(1, "A", 2649, 11, ADULT), P(2, "B", 2200, 12, ADULT)], [(1, 1, 2, "1-0")])
    )
    assert result.games.set_index("id").loc["11", "diff"] == 400
    assert player(result, 11)["new_rating"] == 2650


def test_beyond_735_the_expectation_is_one(rate_texts: RateTexts) -> None:
    # 2700 (exempt) vs 1900: D = 800 ≥ 736 → PD 1.00; a win changes nothing.
    result = rate_texts(
        trf([P(1, "A", 2700, 11, ADULT), P(2, "B", 1900, 12, ADULT)], [(1, 1, 2, "1-0")])
    )
    assert (player(result, 11)["expected"], player(result, 11)["new_rating"]) == (1.0, 2700)


def test_rounding_is_half_away_from_zero(rate_texts: RateTexts) -> None:
    # 2590 vs 2400 draw: D = 190 → band 189-197 → 0.75; ΔR -0.25 × 10 = -2.5 → -3 → 2587.
    # 2400: D = -190 → 0.25; ΔR +0.25 × 10 = +2.5 → +3 → 2403. (Python's round gives -2/+2.)
    result = rate_texts(
        trf([P(1, "A", 2590, 11, ADULT), P(2, "B", 2400, 12, ADULT)], [(1, 1, 2, "=-=")])
    )
    assert (player(result, 11)["change"], player(result, 11)["new_rating"]) == (-2.5, 2587)
    assert (player(result, 12)["change"], player(result, 12)["new_rating"]) == (2.5, 2403)


def test_sums_are_exact_where_binary_floats_drift(rate_texts: RateTexts) -> None:
    # 2500 beats three 2390s: D = 110 → band 107-113 → 0.65; ΔR 0.35 × 3 = 1.05 exactly;
    # × 10 = 10.5 → 11 → 2511 (0.35 + 0.35 + 0.35 in binary is 1.0499999…, giving 10).
    players = [P(1, "A", 2500, 11, ADULT)] + [P(i, f"B{i}", 2390, 10 + i, ADULT) for i in (2, 3, 4)]
    result = rate_texts(trf(players, [(1, 1, 2, "1-0"), (2, 1, 3, "1-0"), (3, 1, 4, "1-0")]))
    assert (player(result, 11)["change"], player(result, 11)["new_rating"]) == (10.5, 2511)


def test_falling_below_1400_is_below_floor_not_clamped(rate_texts: RateTexts) -> None:
    # 1405 loses to 1405: D = 0 → 0.50; -0.5 × 20 = -10 → 1395 < 1400.
    result = rate_texts(
        trf([P(1, "A", 1405, 11, ADULT), P(2, "B", 1405, 12, ADULT)], [(1, 1, 2, "0-1")])
    )
    assert (player(result, 11)["status"], player(result, 11)["new_rating"]) == ("below_floor", 1395)
    assert (player(result, 12)["status"], player(result, 12)["new_rating"]) == ("rated", 1415)


def test_forfeits_byes_and_unrated_opponents_are_not_counted(rate_texts: RateTexts) -> None:
    players = [
        P(1, "A", 1600, 11, ADULT),
        P(2, "B", 1500, 12, ADULT),
        P(3, "C", 1500, 13, ADULT),
        P(4, "Unrated", None, 14, ADULT),
    ]
    games = [(1, 1, 2, "1-0"), (2, 1, 3, "+--"), (3, 1, None, "H"), (4, 1, 4, "1-0")]
    result = rate_texts(trf(players, games))
    a = player(result, 11)
    # Only round 1 counts: +7.2 (as in §9), W = 1 of n = 1 although A has 3.5 points.
    assert (a["games"], a["score"], a["change"], a["new_rating"]) == (1, 1.0, 7.2, 1607)
    reasons = result.games[result.games["id"] == "11"].sort_values("round")["reason"].tolist()
    assert reasons[1:] == ["forfeit", "bye", "unrated_opponent"]


def test_several_events_are_one_period_and_the_latest_rating_is_the_base(
    rate_texts: RateTexts,
) -> None:
    # Event 1 (rated 1600): beats 1500, D = 100 → 0.64, ΔR +0.36. Event 2 (rated 1610):
    # draws 1610, ΔR 0. ΣΔR 0.36 × 20 = 7.2 → 7, added to 1610 (latest event) → 1617.
    first = trf(
        [P(1, "A", 1600, 11, ADULT), P(2, "B", 1500, 12, ADULT)],
        [(1, 1, 2, "1-0")],
        start="2026/01/03",
        end="2026/01/03",
    )
    second = trf(
        [P(1, "A", 1610, 11, ADULT), P(2, "C", 1610, 13, ADULT)],
        [(1, 1, 2, "=-=")],
        start="2026/01/20",
        end="2026/01/20",
    )
    a = player(rate_texts(second, first), 11)
    assert (a["rating"], a["games"], a["change"], a["new_rating"], a["events"]) == (
        1610,
        2,
        7.2,
        1617,
        2,
    )


@pytest.mark.parametrize(("birth", "k"), [(2008, 40), (2007, 20)], ids=["18-junior", "19-adult"])
def test_junior_until_the_year_of_the_18th_birthday(
    rate_texts: RateTexts, birth: int, k: int
) -> None:
    result = rate_texts(
        trf([P(1, "A", 1600, 11, birth), P(2, "B", 1500, 12, ADULT)], [(1, 1, 2, "1-0")])
    )
    assert player(result, 11)["k"] == k


def test_performance_rounds_p_half_up(rate_texts: RateTexts) -> None:
    # 1.5/8 = 18.75 % → 0.19 → dp -251; Ra 2000 → Rp 1749 (§5). The change: D = -200 →
    # band 198-206 → 0.24 each, ΣPD 1.92, ΣΔR -0.42 × 20 = -8.4 → -8 → 1792.
    players = [P(1, "A", 1800, 11, ADULT)] + [
        P(i, f"B{i}", 2000, 10 + i, ADULT) for i in range(2, 10)
    ]
    outcomes = ["1-0", "=-="] + ["0-1"] * 6
    result = rate_texts(trf(players, [(r, 1, r + 1, outcomes[r - 1]) for r in range(1, 9)]))
    a = player(result, 11)
    assert (a["score"], a["avg_opponent"], a["performance"]) == (1.5, 2000, 1749)
    assert (a["expected"], a["change"], a["new_rating"]) == (1.92, -8.4, 1792)


def test_k_from_the_list_wins_over_the_rules(rate_texts: RateTexts) -> None:
    # List K 40 for an adult: 0.36 × 40 = 14.4 → 1614.
    text = trf([P(1, "A", 1600, 11, ADULT), P(2, "B", 1500, 12, ADULT)], [(1, 1, 2, "1-0")])
    result = rate_texts(text, list_csv="id,rating,k\n11,1600,40\n12,1500,20\n")
    assert (player(result, 11)["k"], player(result, 11)["new_rating"]) == (40, 1614)


def test_the_list_rating_is_used_instead_of_the_file(rate_texts: RateTexts) -> None:
    # The file says 1650, the list 1600: D = 100 with the list → +7.2 → 1607; a warning says so.
    text = trf([P(1, "A", 1650, 11, ADULT), P(2, "B", 1500, 12, ADULT)], [(1, 1, 2, "1-0")])
    result = rate_texts(text, list_csv="id,rating\n11,1600\n12,1500\n")
    assert (player(result, 11)["rating"], player(result, 11)["new_rating"]) == (1600, 1607)
    assert any("differ from the list" in issue.message for issue in result.warnings)


def test_list_games_total_below_30_gives_k_40(rate_texts: RateTexts) -> None:
    text = trf([P(1, "A", 1600, 11, ADULT), P(2, "B", 1500, 12, ADULT)], [(1, 1, 2, "1-0")])
    result = rate_texts(text, list_csv="id,rating,games_total\n11,1600,12\n12,1500,300\n")
    assert (player(result, 11)["k"], player(result, 12)["k"]) == (40, 20)


def test_ever_2400_keeps_k_10_below_2400(rate_texts: RateTexts) -> None:
    text = trf([P(1, "A", 2380, 11, ADULT), P(2, "B", 2300, 12, ADULT)], [(1, 1, 2, "1-0")])
    result = rate_texts(text, list_csv="id,rating,ever_2400\n11,2380,true\n12,2300,false\n")
    assert (player(result, 11)["k"], player(result, 12)["k"]) == (10, 20)


# -- the rounding helpers -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hundredths", "points"),
    [(250, 3), (-250, -3), (249, 2), (-249, -2), (50, 1), (-50, -1), (0, 0), (9250, 93)],
)
def test_half_away_from_zero(hundredths: int, points: int) -> None:
    assert hundredths_half_away(np.array([hundredths]))[0] == points


@pytest.mark.parametrize(
    ("numerator", "denominator", "rounded"),
    [(5, 2, 3), (7, 2, 4), (9507, 5, 1901), (13457, 7, 1922)],
)
def test_divide_half_up(numerator: int, denominator: int, rounded: int) -> None:
    assert divide_half_up(np.array([numerator]), np.array([denominator]))[0] == rounded


def test_expected_score_of_every_difference_is_the_table_row() -> None:
    # docs/rules.md §2.3 (fide_pd_table.csv, read here row by row with the csv module):
    # D in [diff_min, diff_max] → p_high for D ≥ 0 and p_low for the negative D; the last row
    # is open-ended. Every D from −1000 to +1000 (beyond ±400 for the 2650 exemption).
    import csv
    from importlib import resources

    from rating_batch.systems.elo.rules import FIDE_2025
    from rating_batch.systems.elo.tables import expected_hundredths, expected_scores

    text = resources.files("rating_batch").joinpath("data/fide_pd_table.csv").read_text()
    rows = list(csv.DictReader(text.splitlines()))
    wanted = {}
    for d in range(-1000, 1001):
        row = next(r for r in rows if int(r["diff_min"]) <= abs(d) <= int(r["diff_max"] or 10**9))
        wanted[d] = round(100 * float(row["p_high" if d >= 0 else "p_low"]))
    diffs = np.arange(-1000, 1001)
    got = expected_hundredths(diffs, FIDE_2025)
    assert dict(zip(diffs.tolist(), got.tolist(), strict=True)) == wanted
    # The engine's per-game lookup gives the same hundredths, and points that are exactly
    # hundredths / 100 (what games.csv shows: 0.92, never 0.9199999).
    hundredths, points = expected_scores(diffs, FIDE_2025)
    assert dict(zip(diffs.tolist(), hundredths.tolist(), strict=True)) == wanted
    assert points.tolist() == [wanted[d] / 100 for d in diffs.tolist()]


def test_runs_sum_each_player_event_exactly() -> None:
    # Rows in (event, player) order: event 0 has players 4, 4, 7; event 1 has 4, 4, 4 and 2.
    # Runs: (0,4) rows 0-1, (0,7) row 2, (1,4) rows 3-5, (1,2) row 6.
    from rating_batch.systems.elo.engine import Runs

    games = pd.DataFrame({"event_order": [0, 0, 0, 1, 1, 1, 1], "pidx": [4, 4, 7, 4, 4, 4, 2]})
    runs = Runs.of(games)
    assert runs.starts.tolist() == [0, 2, 3, 6]
    assert runs.ends.tolist() == [1, 2, 5, 6]
    assert runs.pidx.tolist() == [4, 7, 4, 2]
    flags = np.array([True, True, False, True, False, True, True])
    assert runs.total(flags).tolist() == [2, 0, 2, 1]
    assert runs.total(np.array([2, 1, 0, 2, 2, 1, 0], dtype=np.int8)).tolist() == [3, 0, 5, 0]
    # Opponents' ratings add up past the int32 range over a long column; each run is exact.
    ratings = np.array([2800, 2750, 1000, 2600, 2700, 2650, 1500], dtype=np.int64)
    assert runs.total(ratings).tolist() == [5550, 1000, 7950, 1500]
    assert runs.per_player(runs.total(ratings), 8).tolist() == [0, 0, 1500, 0, 13500, 0, 0, 1000]
    assert runs.run_of(np.array([0, 2, 4, 6])).tolist() == [0, 1, 2, 3]


def test_runs_of_no_games() -> None:
    from rating_batch.systems.elo.engine import Runs

    runs = Runs.of(pd.DataFrame({"event_order": [], "pidx": []}, dtype="int64"))
    assert (runs.starts.tolist(), runs.ends.tolist(), runs.events) == ([], [], 0)
    assert runs.total(np.zeros(0, dtype=np.int8)).tolist() == []


def test_run_sums_of_small_values_stay_exact_beyond_the_int32_range() -> None:
    # 20 million rows of PD 100 (int8): the column's total, 2·10^9, is within int32; 22 million
    # rows (2.2·10^9) are not, and the running total must widen to stay exact.
    from rating_batch.systems.elo.engine import Runs

    for rows in (20_000_000, 22_000_000):
        half = rows // 2
        games = pd.DataFrame(
            {"event_order": np.zeros(rows, dtype=np.int64), "pidx": np.repeat([0, 1], half)}
        )
        totals = Runs.of(games).total(np.full(rows, 100, dtype=np.int8))
        assert totals.tolist() == [100 * half, 100 * half]


def test_players_csv_says_where_ro_comes_from_and_k_before_the_700_cap(tmp_path) -> None:
    # A rapid event of 21 rounds: A (no rapid rating, standard 1600) v B (rapid 1500, K 20
    # on the list); A wins round 1, the other 20 games are drawn. §6: A starts from his
    # standard rating with a new player's K 40; §3: 40 × 21 = 840 > 700 → K 33 (33 × 21 =
    # 693). A: D 100 → PD 0.64; ΣΔR = 0.5 + 21 × (0.5 − 0.64) = −2.44; 33 × −2.44 = −80.52
    # → 1519. B: K 20 (20 × 21 = 420, no cap); ΣΔR = +2.44; +48.8 → 1549.
    from conftest import read_csv
    from db_helpers import run

    games = [(1, 1, 2, "1-0")] + [(r, 1 + r % 2, 2 - r % 2, "=-=") for r in range(2, 22)]
    event = tmp_path / "rapid.trf"
    event.write_text(
        trf([P(1, "A", None, 11, ADULT), P(2, "B", 1500, 12, ADULT)], games,
            extra=("122 15 minutes + 10 seconds",)),
        encoding="utf-8",
    )  # fmt: skip
    listing = tmp_path / "list.csv"
    listing.write_text("id,rating,k,standard_rating\n11,,,1600\n12,1500,20,1550\n")
    out = tmp_path / "out"
    status, _, stderr = run("-q", "rate", event, "--list", listing, "--out", out)
    assert status == 0, stderr
    rows = {row["id"]: row for row in read_csv(out / "players.csv")}
    shown = ["rating", "rating_source", "k_source", "k_before_cap", "k", "games", "new_rating"]
    assert [rows["11"][c] for c in shown] == ["1600", "standard", "new player", "40", "33",
                                             "21", "1519"]  # fmt: skip
    assert [rows["12"][c] for c in shown] == ["1500", "list", "list", "20", "20", "21", "1549"]
