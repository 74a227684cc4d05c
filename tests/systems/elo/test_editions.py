"""Each edition's distinctive rule, rapid and blitz, and federation rules files (docs/rules.md
§6–§9), through TRF text written in the tests. Every expected number is worked by hand from the
tables; the comments show the table rows used."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner
from conftest import RateTexts, player
from openpyxl import load_workbook
from trf_text import P, trf
from workbooks import summary

from rating_batch.cli import cli
from rating_batch.errors import RatingBatchError
from rating_batch.systems.elo.first import first_ratings
from rating_batch.systems.elo.rules import EDITIONS, edition_in_force
from rating_batch.systems.elo.rules_file import load_rules_file

ROOT = Path(__file__).parents[3]
FEXERJ = str(ROOT / "sample_data" / "rules" / "fexerj-2027.toml")
CLUB = str(ROOT / "sample_data" / "rules" / "club-example.toml")
ADULT = 1980
OUTCOME = {1: "1-0", 0.5: "=-=", 0: "0-1"}


def one_player_event(
    subject: P,
    opponents: list[int],
    scores: list[float],
    *,
    start: str,
    extra: tuple[str, ...] = (),
) -> str:
    """``subject`` (rank 1) against one opponent per round, adults with IDs 101, 102, …"""
    players = [subject] + [
        P(i + 2, f"Opponent {i}", r, 101 + i, ADULT) for i, r in enumerate(opponents)
    ]
    games = [(i + 1, 1, i + 2, OUTCOME[s]) for i, s in enumerate(scores)]
    return trf(players, games, start=start, end=start, extra=extra)


# -- fide-2022: the 400 cap once per event (§9) ---------------------------------------------------

ONCE_PER_EVENT = ([1063, 1299, 1413, 1872, 1851, 1427, 1682], [1, 1, 1, 0.5, 0, 1, 1])


def test_2022_caps_only_the_largest_gap(rate_texts: RateTexts) -> None:
    # Ro 2000, K 20. 1063: D 937 → capped 400 → 0.92, +0.08; 1299: D 701 → 620-735 → 0.99,
    # +0.01; 1413: D 587 → 560-619 → 0.98, +0.02; 1872 draw: D 128 → 122-129 → 0.67, -0.17;
    # 1851 loss: D 149 → 146-153 → 0.70, -0.70; 1427: D 573 → 0.98, +0.02; 1682: D 318 →
    # 316-328 → 0.87, +0.13. ΣΔR = -0.61 → -12.2 → -12 → 1988 (§9).
    text = one_player_event(P(1, "Subject", 2000, 500, ADULT), *ONCE_PER_EVENT, start="2023/05/06")
    subject = player(rate_texts(text, rules="fide-2022"), 500)
    assert (subject["k"], subject["change"], subject["new_rating"]) == (20, -12.2, 1988)


def test_capping_every_game_gives_minus_8_4(rate_texts: RateTexts) -> None:
    # §9: with the cap on every game 1299, 1413 and 1427 become D 400 → 0.92, +0.08 each:
    # ΣΔR = 0.08 × 4 - 0.17 - 0.70 + 0.13 = -0.42 → -8.4 → -8 → 1992.
    text = one_player_event(P(1, "Subject", 2000, 500, ADULT), *ONCE_PER_EVENT, start="2024/05/06")
    subject = player(rate_texts(text, rules="fide-2024"), 500)
    assert (subject["change"], subject["new_rating"]) == (-8.4, 1992)


def test_fide_picks_2022_by_the_start_date_and_the_summary_names_it(tmp_path: Path) -> None:
    event = tmp_path / "may2023.trf"
    event.write_text(
        one_player_event(P(1, "Subject", 2000, 500, ADULT), *ONCE_PER_EVENT, start="2023/05/06")
    )
    result = CliRunner().invoke(cli, ["rate", str(event), "--out", str(tmp_path / "out")])
    assert result.exit_code == 0 and "under fide-2022" in result.stdout
    rows = [
        list(row) for row in summary(load_workbook(tmp_path / "out" / "report.xlsx")["Summary"])
    ]
    assert [
        "Rules",
        "fide-2022: FIDE Rating Regulations effective 1 January 2022 (400 cap once per event)",
    ] in [r[:2] for r in rows]
    header = next(r for r in rows if r[:2] == ["event", "name"])
    assert any(r[0] == "may2023" and r[header.index("edition")] == "fide-2022" for r in rows)


@pytest.mark.parametrize(
    ("start", "edition"),
    [
        ("2012-06-01", "fide-2011"),
        ("2014-07-01", "fide-2014"),
        ("2021-12-31", "fide-2014"),
        ("2022-01-01", "fide-2022"),
        ("2024-02-29", "fide-2022"),
        ("2024-03-01", "fide-2024"),
        ("2025-09-30", "fide-2024"),
        ("2025-10-01", "fide-2025"),
    ],
)
def test_edition_in_force_by_start_date(start: str, edition: str) -> None:
    assert edition_in_force(pd.Timestamp(start).date()).edition == edition


def test_every_edition_is_rated_by_its_own_rules_under_fide(rate_texts: RateTexts) -> None:
    # One event dated in each edition's period: that edition rates it, for the games (event
    # rules) and for K, floor and first ratings (period rules).
    for start, edition in [
        ("2012/06/02", "fide-2011"),
        ("2016/06/02", "fide-2014"),
        ("2023/06/02", "fide-2022"),
        ("2024/06/02", "fide-2024"),
        ("2025/11/02", "fide-2025"),
    ]:
        text = trf(
            [P(1, "A", 1500, 11, ADULT), P(2, "B", 1500, 12, ADULT)],
            [(1, 1, 2, "1-0")],
            start=start,
            end=start,
        )
        result = rate_texts(text, rules="fide")
        assert [r.edition for r in result.event_rules.values()] == [edition]
        assert result.rules.edition == edition


# -- first ratings of the older editions ----------------------------------------------------------


def newcomer(
    scores: list[float], opponents: list[int], start: str, rules: str, rate_texts: RateTexts
) -> pd.Series:
    text = one_player_event(P(1, "Newcomer", None, 900, ADULT), opponents, scores, start=start)
    return player(rate_texts(text, rules=rules), 900)


def test_2022_first_rating_20_per_half_point_above_half(rate_texts: RateTexts) -> None:
    # 4/5 vs 1800s: W > n/2 → Ru = 1800 + 20 × (8 - 5) = 1860; published (≥ 1000, n ≥ 5).
    new = newcomer([1, 1, 1, 1, 0], [1800] * 5, "2023/05/06", "fide-2022", rate_texts)
    assert (new["status"], new["new_rating"]) == ("new", 1860)


def test_2022_first_rating_below_half_uses_dp(rate_texts: RateTexts) -> None:
    # 2/5 vs 1800s: p = 0.40 → dp -72 → 1728.
    new = newcomer([1, 1, 0, 0, 0], [1800] * 5, "2023/05/06", "fide-2022", rate_texts)
    assert new["new_rating"] == 1728


def test_2014_first_rating_has_no_2200_cap(rate_texts: RateTexts) -> None:
    # 5/5 vs 2300s: 2300 + 20 × 5 = 2400 (no cap before 2024).
    new = newcomer([1] * 5, [2300] * 5, "2016/05/06", "fide-2014", rate_texts)
    assert new["new_rating"] == 2400


def block(index: int, scores: list[float], opponents: list[int], month: int = 5) -> str:
    players = [P(1, "Newcomer", None, 900, ADULT)] + [
        P(i + 2, f"O{index}-{i}", r, 1000 * index + i, ADULT) for i, r in enumerate(opponents)
    ]
    games = [(i + 1, 1, i + 2, OUTCOME[s]) for i, s in enumerate(scores)]
    day = f"2012/{month:02d}/{2 + 7 * index:02d}"
    return trf(players, games, start=day, end=day)


def test_2011_first_rating_12_5_per_half_point_over_blocks(rate_texts: RateTexts) -> None:
    # Three blocks of 3 vs 2000s (Rc 2000), 6/9: 2000 + 12.5 × (12 - 9) = 2037.5 → 2038.
    texts = [
        block(1, [1, 1, 0], [2000] * 3),
        block(2, [1, 0, 1], [2000] * 3),
        block(3, [1, 1, 0], [2000] * 3),
    ]
    new = player(rate_texts(*texts, rules="fide-2011"), 900)
    assert (new["games"], new["score"], new["status"], new["new_rating"]) == (9, 6.0, "new", 2038)


def test_2011_rounds_the_average_first(rate_texts: RateTexts) -> None:
    # Opponents 1999 × 3 + 2000 × 6 = 17997 → Rc = 1999.67 → 2000 (rounded first), then
    # + 37.5 → 2037.5 → 2038 (unrounded Rc would give 2037.17 → 2037).
    texts = [
        block(1, [1, 1, 0], [1999] * 3),
        block(2, [1, 0, 1], [2000] * 3),
        block(3, [1, 1, 0], [2000] * 3),
    ]
    assert player(rate_texts(*texts, rules="fide-2011"), 900)["new_rating"] == 2038


def test_2011_a_two_game_event_is_not_a_block(rate_texts: RateTexts) -> None:
    texts = [
        block(1, [1, 1], [2000] * 2),
        block(2, [1, 1, 0], [2000] * 3),
        block(3, [1, 0, 1], [2000] * 3),
        block(4, [1, 1, 0], [2000] * 3),
    ]
    result = rate_texts(*texts, rules="fide-2011")
    new = player(result, 900)
    assert (new["games"], new["new_rating"]) == (9, 2038)
    first = result.games[(result.games["id"] == "900") & (result.games["event"] == "event1")]
    assert first["reason"].tolist() == ["short_event", "short_event"]


def test_2011_a_first_block_with_half_a_point_is_disregarded(rate_texts: RateTexts) -> None:
    texts = [
        block(1, [0.5, 0, 0], [2000] * 3),
        block(2, [1, 1, 0], [2000] * 3),
        block(3, [1, 0, 1], [2000] * 3),
        block(4, [1, 1, 0], [2000] * 3),
    ]
    result = rate_texts(*texts, rules="fide-2011")
    assert (player(result, 900)["games"], player(result, 900)["new_rating"]) == (9, 2038)
    first = result.games[(result.games["id"] == "900") & (result.games["event"] == "event1")]
    assert set(first["reason"]) == {"first_event_disregarded"}


def test_2011_a_first_block_with_one_point_counts(rate_texts: RateTexts) -> None:
    # 12 games, 7 points: 2000 + 12.5 × (14 - 12) = 2025.
    texts = [
        block(1, [1, 0, 0], [2000] * 3),
        block(2, [1, 1, 0], [2000] * 3),
        block(3, [1, 0, 1], [2000] * 3),
        block(4, [1, 1, 0], [2000] * 3),
    ]
    assert player(rate_texts(*texts, rules="fide-2011"), 900)["new_rating"] == 2025


def test_2011_eight_games_are_not_enough(rate_texts: RateTexts) -> None:
    texts = [block(1, [1, 1, 0, 1], [2000] * 4), block(2, [1, 0, 1, 1], [2000] * 4)]
    assert player(rate_texts(*texts, rules="fide-2011"), 900)["status"] == "unrated"


# -- floors ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "rating", "k", "new", "status"),
    [
        # fide-2011: K 15 (no list: 30+ games); -0.5 × 15 = -7.5 → -8 → 1197 < 1200.
        ("fide-2011", 1205, 15, 1197, "below_floor"),
        # fide-2014 and fide-2022: floor 1000; 1395 - 10 = 1385 stays rated.
        ("fide-2014", 1395, 20, 1385, "rated"),
        ("fide-2022", 1005, 20, 995, "below_floor"),
        ("fide-2022", 1395, 20, 1385, "rated"),
        ("fide-2024", 1405, 20, 1395, "below_floor"),
    ],
)
def test_floors(
    rules: str, rating: int, k: int, new: int, status: str, rate_texts: RateTexts
) -> None:
    text = trf([P(1, "A", rating, 11, ADULT), P(2, "B", rating, 12, ADULT)], [(1, 1, 2, "0-1")])
    a = player(rate_texts(text, rules=rules), 11)
    assert (a["k"], a["new_rating"], a["status"]) == (k, new, status)


# -- the 2650 exemption and the rapid/blitz rules -------------------------------------------------


def draw_2813_v_2050(start: str, extra: tuple[str, ...] = ()) -> str:
    return trf(
        [P(1, "Top", 2813, 11, ADULT), P(2, "B", 2050, 12, ADULT)],
        [(1, 1, 2, "=-=")],
        start=start,
        end=start,
        extra=extra,
    )


def test_the_2650_exemption_only_from_october_2025(rate_texts: RateTexts) -> None:
    # fide-2024 (20 Sep 2025): D 763 → 400 → 0.92; ΔR -0.42 × 10 = -4.2 → -4 → 2809.
    # fide-2025 (2 Oct 2025): D 763 ≥ 736 → 1.00; ΔR -0.50 × 10 = -5 → 2808.
    before = player(rate_texts(draw_2813_v_2050("2025/09/20"), rules="fide"), 11)
    after = player(rate_texts(draw_2813_v_2050("2025/10/02"), rules="fide"), 11)
    assert (before["expected"], before["new_rating"]) == (0.92, 2809)
    assert (after["expected"], after["new_rating"]) == (1.0, 2808)


def test_no_2650_exemption_in_rapid(rate_texts: RateTexts) -> None:
    # 2813 draws 2250 (563 apart: under the 600 rule). Rapid, fide-2025: no exemption, D 563 →
    # 400 → 0.92; -0.42 × 10 = -4.2 → -4 → 2809. Standard: D 563 → 560-619 → 0.98;
    # -0.48 × 10 = -4.8 → -5 → 2808.
    text = trf(
        [P(1, "Top", 2813, 11, ADULT), P(2, "B", 2250, 12, ADULT)],
        [(1, 1, 2, "=-=")],
        start="2025/11/02",
        end="2025/11/02",
    )
    rapid = player(rate_texts(text, rules="fide-2025", kind="rapid"), 11)
    standard = player(rate_texts(text, rules="fide-2025", kind="standard"), 11)
    assert (rapid["expected"], rapid["new_rating"]) == (0.92, 2809)
    assert (standard["expected"], standard["new_rating"]) == (0.98, 2808)


@pytest.mark.parametrize(
    ("edition", "title"),
    [
        ("fide-2025", "FIDE Rating Regulations effective 1 October 2025"),
        ("fide-2024",
         "FIDE Rating Regulations effective 1 March 2024 (first ratings with two 1800 draws)"),
        ("fide-2022", "FIDE Rating Regulations effective 1 January 2022 (400 cap once per event)"),
        ("fide-2014", "FIDE Rating Regulations effective 1 July 2014"),
        ("fide-2011", "FIDE Rating Regulations as applied on the March 2011 list"),
    ],
)  # fmt: skip
def test_rapid_and_blitz_name_their_edition_without_the_standard_exemption(
    edition: str, title: str
) -> None:
    # docs/rules.md §6: no 2650 exemption in rapid and blitz, whatever the standard list has.
    for kind in ("rapid", "blitz"):
        rules = EDITIONS[edition].for_kind(kind)
        assert (rules.exempt_from(), rules.label()) == (None, f"{edition}: {title}")
    assert EDITIONS["fide-2025"].label() == (
        "fide-2025: FIDE Rating Regulations effective 1 October 2025 (2650 exemption)"
    )


def test_rapid_game_600_apart_with_a_2600_plus_player_is_not_rated(rate_texts: RateTexts) -> None:
    # 2813 v 2050: 763 apart, 2813 > 2600, November 2025: not rated for either player (§6).
    result = rate_texts(draw_2813_v_2050("2025/11/02"), rules="fide-2025", kind="rapid")
    top = player(result, 11)
    assert (top["games"], top["new_rating"]) == (0, 2813)
    assert result.games["reason"].tolist() == ["rating_gap", "rating_gap"]


def rapid_game(start: str, top: int, low: int) -> str:
    return trf(
        [P(1, "Top", top, 11, ADULT), P(2, "Low", low, 12, ADULT)],
        [(1, 1, 2, "=-=")],
        start=start,
        end=start,
        extra=("122 15 minutes + 10 seconds per move",),
    )


def test_rapid_600_point_rule_only_from_december_2024(rate_texts: RateTexts) -> None:
    # 2650 v 2000 (650 apart, 2650 > 2600). 20 Nov 2024: rated; D 650 → 400 (no rapid
    # exemption) → 0.92; draw -0.42 × 10 = -4.2 → -4 → 2646. 5 Dec 2024: not rated.
    november = rate_texts(rapid_game("2024/11/20", 2650, 2000), rules="fide")
    december = rate_texts(rapid_game("2024/12/05", 2650, 2000), rules="fide")
    assert november.rules.kind == december.rules.kind == "rapid"
    assert player(november, 11)["new_rating"] == 2646
    assert (player(december, 11)["games"], player(december, 11)["new_rating"]) == (0, 2650)
    assert set(december.games["reason"]) == {"rating_gap"}


def test_the_600_point_rule_needs_a_player_above_2600(rate_texts: RateTexts) -> None:
    # 2600 v 1990: 610 apart but nobody above 2600 → rated: D 400 → 0.92, -0.42 × 10 → 2596.
    result = rate_texts(rapid_game("2024/12/05", 2600, 1990), rules="fide")
    assert player(result, 11)["new_rating"] == 2596


def test_standard_games_are_not_subject_to_the_600_point_rule(rate_texts: RateTexts) -> None:
    result = rate_texts(draw_2813_v_2050("2025/11/02"), rules="fide-2025")
    assert (result.rules.kind, player(result, 11)["games"]) == ("standard", 1)


@pytest.mark.parametrize(
    ("tag", "kind"),
    [
        ("122 90 minutes + 30 seconds per move", "standard"),
        ("122 15 minutes + 10 seconds per move", "rapid"),
        ("122 3 min + 2 sec", "blitz"),
        ("222 5400+30", "standard"),
        ("222 180+2", "blitz"),
        ("122 moves/time, increment", "standard"),  # unreadable → standard, with a note
    ],
)
def test_kind_is_read_from_the_time_control(tag: str, kind: str, rate_texts: RateTexts) -> None:
    text = trf(
        [P(1, "A", 1600, 11, ADULT), P(2, "B", 1500, 12, ADULT)], [(1, 1, 2, "1-0")], extra=(tag,)
    )
    assert rate_texts(text).rules.kind == kind


def test_events_of_different_kinds_need_kind(rate_texts: RateTexts) -> None:
    rapid = trf(
        [P(1, "A", 1600, 11, ADULT), P(2, "B", 1500, 12, ADULT)],
        [(1, 1, 2, "1-0")],
        extra=("122 15 min + 10 sec",),
    )
    blitz = trf(  # another game (the same one twice would be refused as reported twice)
        [P(1, "A", 1600, 11, ADULT), P(2, "B", 1500, 12, ADULT)],
        [(1, 1, 2, "0-1")],
        extra=("122 3 min + 2 sec",),
    )
    with pytest.raises(RatingBatchError, match=r"different kinds \(event1: rapid, event2: blitz\)"):
        rate_texts(rapid, blitz)
    assert rate_texts(rapid, blitz, kind="blitz").rules.kind == "blitz"


def test_unrated_in_rapid_starts_from_the_standard_rating(rate_texts: RateTexts) -> None:
    # A (no rapid rating, standard 1600) beats B (rapid 1500): A starts from 1600 with K 40
    # (new player, §6): D 100 → 0.64, +0.36 × 40 = +14.4 → 1614. B: -0.36 × 20 → -7 → 1493.
    text = trf(
        [P(1, "A", None, 11, ADULT), P(2, "B", 1500, 12, ADULT)],
        [(1, 1, 2, "1-0")],
        extra=("122 15 min + 10 sec",),
    )
    result = rate_texts(text, list_csv="id,rating,standard_rating\n11,,1600\n12,1500,1550\n")
    a, b = player(result, 11), player(result, 12)
    assert (a["status"], a["rating"], a["k"], a["new_rating"]) == ("rated", 1600, 40, 1614)
    assert b["new_rating"] == 1493


# -- federation rules files (§8) ------------------------------------------------------------------


def test_fexerj_2700_v_1500_has_no_exemption(rate_texts: RateTexts) -> None:
    # FEXERJ: D = 400 (no exemption) → 0.92; fide-2025: D = 1200 → PD 1.00.
    text = trf([P(1, "A", 2700, 11, ADULT), P(2, "B", 1500, 12, ADULT)], [(1, 1, 2, "1-0")])
    national = rate_texts(text, rules=FEXERJ).games.set_index("id").loc["11"]
    fide = rate_texts(text, rules="fide-2025").games.set_index("id").loc["11"]
    assert (national["diff"], national["expected"]) == (400, 0.92)
    assert (fide["diff"], fide["expected"]) == (1200, 1.0)


def test_fexerj_1205_loses_ten_to_1600s_and_becomes_unrated(rate_texts: RateTexts) -> None:
    # D -395 → 392-411 → p_low 0.08; ΣΔR = 10 × -0.08 = -0.80; K 20 → -16 → 1189 < 1200.
    text = one_player_event(P(1, "A", 1205, 500, ADULT), [1600] * 10, [0] * 10, start="2026/01/10")
    a = player(rate_texts(text, rules=FEXERJ), 500)
    assert (a["k"], a["change"], a["new_rating"], a["status"]) == (20, -16.0, 1189, "below_floor")


@pytest.mark.parametrize(
    ("rating", "games", "ever_2200", "birth", "year", "k"),
    [
        (1500, 0, "false", 1990, 2026, 40),
        (1500, 30, "false", 1990, 2026, 20),
        (1800, 50, "false", 2008, 2026, 40),
        (2100, 50, "false", 2008, 2026, 20),
        (1800, 50, "false", 2008, 2027, 20),
        (1900, 100, "true", 2009, 2026, 10),
        (2250, 200, "false", 1990, 2026, 20),
    ],
)
def test_fexerj_k_vectors(
    rating: int, games: int, ever_2200: str, birth: int, year: int, k: int, rate_texts: RateTexts
) -> None:
    text = trf(
        [P(1, "A", rating, 11), P(2, "B", 1500, 12)],
        [(1, 1, 2, "=-=")],
        start=f"{year}/01/10",
        end=f"{year}/01/11",
    )
    listed = (
        "id,rating,games_total,ever_2200,birth_year\n"
        f"11,{rating},{games},{ever_2200},{birth}\n12,1500,100,false,1990\n"
    )
    assert player(rate_texts(text, rules=FEXERJ, list_csv=listed), 11)["k"] == k


@pytest.mark.parametrize(
    ("opponents", "scores", "expected"),
    [
        # (8000, 5, 2.5): Ra = 11200/7 = 1600; p = 3.5/7 = 0.50 → 0 → 1600.
        ([1600] * 5, [1, 1, 0.5, 0, 0], 1600),
        # (9000, 5, 5): Ra = 12200/7 = 1742.86; p = 6/7 → 0.86 → 309 → 2051.86 → 2052 → 2000.
        ([1800] * 5, [1] * 5, 2000),
        # (7500, 5, 3): Ra = 10700/7 = 1528.57; p = 4/7 → 0.57 → 50 → 1578.57 → 1579.
        ([1500] * 5, [1, 1, 1, 0, 0], 1579),
        # (9000, 6, 6): Ra = 12200/8 = 1525; p = 7/8 = 0.875 → 0.88 → 336 → 1861.
        ([1500] * 6, [1] * 6, 1861),
    ],
)
def test_fexerj_first_rating_vectors(
    opponents: list[int], scores: list[float], expected: int, rate_texts: RateTexts
) -> None:
    text = one_player_event(
        P(1, "Newcomer", None, 900, ADULT), opponents, scores, start="2026/01/10"
    )
    new = player(rate_texts(text, rules=FEXERJ), 900)
    assert (new["status"], new["new_rating"]) == ("new", expected)


def test_fexerj_zero_score_vector_is_not_published() -> None:
    # (6500, 5, 0): Ra = 9700/7 = 1385.71; p = 1/7 → 0.14 → -309 → 1076.71 → 1077 < 1200.
    # A single scoreless event is disregarded under FEXERJ, so this is checked on the formula.
    rules = load_rules_file(Path(FEXERJ))
    value = first_ratings(np.array([5]), np.array([0]), np.array([6500]), rules)
    assert value.tolist() == [1077] and value[0] < rules.floor


def test_fexerj_disregards_every_scoreless_event_until_the_first_scoring_one(
    rate_texts: RateTexts,
) -> None:
    # Two scoreless events, then 3/5 vs 1500s: only the last counts: 1579 (as above).
    first = one_player_event(
        P(1, "Newcomer", None, 900, ADULT), [1500, 1500], [0, 0], start="2026/01/03"
    )
    second = one_player_event(
        P(1, "Newcomer", None, 900, ADULT), [1500, 1500], [0, 0], start="2026/01/10"
    )
    third = one_player_event(
        P(1, "Newcomer", None, 900, ADULT), [1500] * 5, [1, 1, 1, 0, 0], start="2026/01/17"
    )
    new = player(rate_texts(first, second, third, rules=FEXERJ), 900)
    assert (new["games"], new["new_rating"]) == (5, 1579)
    # fide-2025 disregards the first event only: 7 games, 3 points vs 1500s:
    # Ra = (10500 + 3600)/9 = 1566.67; p = 4/9 → 0.44 → -43 → 1523.67 → 1524.
    fide = player(rate_texts(first, second, third, rules="fide-2025"), 900)
    assert (fide["games"], fide["new_rating"]) == (7, 1524)


def test_club_rules_logistic_expectation_floor_and_classes(rate_texts: RateTexts) -> None:
    # Junior 1900 (K 40) draws 1500: logistic E(400) = 0.909 → 0.91 (the table says 0.92):
    # -0.41 × 40 = -16.4 → -16 → 1884 (class A). The 1500 adult: +0.41 × 20 = 8.2 → 1508
    # (class C).
    text = trf([P(1, "A", 1900, 11, 2010), P(2, "B", 1500, 12, ADULT)], [(1, 1, 2, "=-=")])
    result = rate_texts(text, rules=CLUB)
    a, b = player(result, 11), player(result, 12)
    assert (a["expected"], a["new_rating"], a["class"]) == (0.91, 1884, "class A")
    assert (b["new_rating"], b["class"]) == (1508, "class C")
    # With FIDE's table: -0.42 × 40 = -16.8 → -17 → 1883.
    assert player(rate_texts(text, rules="fide-2025"), 11)["new_rating"] == 1883


def test_club_floor_is_1000(rate_texts: RateTexts) -> None:
    text = trf([P(1, "A", 1005, 11, ADULT), P(2, "B", 1005, 12, ADULT)], [(1, 1, 2, "0-1")])
    assert player(rate_texts(text, rules=CLUB), 11)["status"] == "below_floor"
    text = trf([P(1, "A", 1205, 11, ADULT), P(2, "B", 1205, 12, ADULT)], [(1, 1, 2, "0-1")])
    assert (player(rate_texts(text, rules=CLUB), 11)["status"]) == "rated"


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "rules.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_unknown_key_names_the_file_and_the_key(tmp_path: Path) -> None:
    path = write(tmp_path, 'base = "fide-2025"\nflor = 1200\n')
    event = tmp_path / "e.trf"
    event.write_text(trf([P(1, "A", 1600, 11), P(2, "B", 1500, 12)], [(1, 1, 2, "1-0")]))
    result = CliRunner().invoke(
        cli, ["rate", str(event), "--rules", str(path), "--out", str(tmp_path / "o")]
    )
    assert result.exit_code == 1
    assert result.stderr == f"Error: {path}:2: unknown key 'flor' (did you mean 'floor'?)\n"


def test_rules_command_lists_editions_and_shows_sources() -> None:
    listing = CliRunner().invoke(cli, ["rules"])
    assert listing.exit_code == 0
    names = [line.split()[0] for line in listing.stdout.splitlines()]
    # The editions, the default, then the other rating systems (docs/systems.md).
    assert names == [
        *EDITIONS,
        "fide",
        "glicko2",
        "glicko",
        "trueskill",
        "harkness",
        "ingo",
        "uscf",
        "dwz",
        "ecf-grade",
        "ecf",
        "ccla",
        "lichess",
        "chesscom",
    ]
    shown = CliRunner().invoke(cli, ["rules", FEXERJ]).stdout.splitlines()
    assert f"periods.months                        2  [{FEXERJ}]  (valid: 1–12)" in shown
    assert "k.new                                 40  [fide-2025]  (valid: 1–100)" in shown
    assert (
        f"expected.cap_exempt_from              false  [{FEXERJ}]  (valid: 1000–3500, or false)"
        in shown
    )


def test_compare_rules_player_by_player_and_in_aggregate(tmp_path: Path) -> None:
    # fide-2025: 2700 beats 1500: D 1200 → 1.00 → 2700 unchanged; 1500: D -400 → 0.08,
    # -0.08 × 20 = -1.6 → -2 → 1498. FEXERJ: 2700 (K 10 from 2200): D 400 → 0.92, +0.8 → +1 →
    # 2701; 1500 → 1498. Mean change: A (0 - 2)/2 = -1.0, B (1 - 2)/2 = -0.5. List average
    # before 2100; after A 2099.0, B 2099.5.
    event = tmp_path / "e.trf"
    event.write_text(
        trf([P(1, "A", 2700, 11, ADULT), P(2, "B", 1500, 12, ADULT)], [(1, 1, 2, "1-0")])
    )
    out = tmp_path / "cmp"
    result = CliRunner().invoke(
        cli,
        ["compare-rules", str(event), "--rules", "fide-2025", "--rules", FEXERJ, "--out", str(out)],
    )
    assert result.exit_code == 0, result.output
    players = pd.read_csv(out / "compare.csv", encoding="utf-8-sig").set_index("id")
    assert (
        players.loc[11, "new_rating_a"],
        players.loc[11, "new_rating_b"],
        players.loc[11, "difference"],
    ) == (2700, 2701, 1)
    assert players.loc[12, "difference"] == 0
    summary = pd.read_excel(out / "compare.xlsx", sheet_name="Summary").set_index("metric")
    assert summary.loc["players"].tolist() == [2, 2, 0]  # counts as whole numbers
    assert summary.loc["mean change of rated players"].tolist() == [-1.0, -0.5, 0.5]
    assert summary.loc["list average after"].tolist() == [2099.0, 2099.5, 0.5]
    # Both players stay on the list: the whole change of the average is their ratings'.
    assert summary.loc["change of the list average"].tolist() == [-1.0, -0.5, 0.5]
    assert summary.loc["from rating changes of players on both lists"].tolist() == [-1.0, -0.5, 0.5]
    assert summary.loc["from players joining the list"].tolist() == [0, 0, 0]
    assert summary.loc["from players leaving the list"].tolist() == [0, 0, 0]
    assert "players whose new rating differs: 1" in result.stdout
    assert re.search(r"^players\s+2\s+2\s+0$", result.stdout, flags=re.M)


def test_compare_rules_needs_two_rule_sets(tmp_path: Path) -> None:
    event = tmp_path / "e.trf"
    event.write_text(trf([P(1, "A", 1600, 11), P(2, "B", 1500, 12)], [(1, 1, 2, "1-0")]))
    assert CliRunner().invoke(cli, ["compare-rules", str(event), "--rules", "fide"]).exit_code == 2


def test_rules_without_the_400_point_cap_use_the_whole_table(
    rate_texts: RateTexts, tmp_path: Path
) -> None:
    # 2000 loses to 1400, K 20 for both (no list: 30+ games, below 2400). D = 600.
    # No cap: 560-619 → PD 0.98 (p_low 0.02); the 2000 loses 0.98 × 20 = 19.6 → 20 → 1980,
    # and the 1400 gains 0.98 × 20 = 19.6 → 20 → 1420. With FIDE's cap D is 400 → 0.92:
    # 18.4 → 18, 1982 and 1418.
    path = write(tmp_path, 'base = "fide-2025"\n[expected]\ndifference_cap = false\n')
    text = trf([P(1, "A", 2000, 11, ADULT), P(2, "B", 1400, 12, ADULT)], [(1, 1, 2, "0-1")])
    uncapped = rate_texts(text, rules=str(path))
    high, low = player(uncapped, 11), player(uncapped, 12)
    assert (high["expected"], high["new_rating"], low["new_rating"]) == (0.98, 1980, 1420)
    game = uncapped.games[uncapped.games["id"] == "11"].iloc[0]
    assert (game["diff"], game["expected"], game["delta"]) == (600, 0.98, -0.98)
    capped = rate_texts(text, rules="fide-2025")
    assert (player(capped, 11)["new_rating"], player(capped, 12)["new_rating"]) == (1982, 1418)
    game = capped.games[capped.games["id"] == "12"].iloc[0]
    assert (game["diff"], game["expected"], game["delta"]) == (-400, 0.08, 0.92)
