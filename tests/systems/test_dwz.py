"""The DWZ (docs/systems.md §10): the normal model and its public table, E and its parts with
its limits, the first DWZ by the integer iteration, Restpartien, performances, exceptional
results, FIDE ratings, editions by end date and the 2026 uplift. Expected values are worked
out in the comments (Φ values to 6 decimals from any normal table)."""

from __future__ import annotations

import dataclasses
import datetime as dt
import math
from statistics import NormalDist

import numpy as np
import pandas as pd
import pytest

from rating_batch.systems.base import SystemInput
from rating_batch.systems.dwz.constants import EDITIONS, Dwz
from rating_batch.systems.dwz.engine import (
    DwzRun,
    DwzState,
    established,
    rate_events,
    uplifted_values,
)
from rating_batch.systems.dwz.normal import difference, expected, phi, phi_inverse
from rating_batch.systems.dwz.rests import Rests, format_rests, parse_rests, rests_problem
from rating_batch.systems.dwz.system import DwzSystem, event_dates
from rating_batch.systems.games import PlayedGames

#: σ·√2 with σ = 200.
SCALE = 200 * math.sqrt(2)
NAN = math.nan


def run(
    dwz: list[float],
    index: list[float],
    games: PlayedGames,
    ends: list[dt.date],
    *,
    params: Dwz | None = None,
    fide: list[float] | None = None,
    birth: list[float] | None = None,
    rests: str | None = None,
    uplifted: list[bool] | None = None,
) -> DwzRun:
    """The engine over ``games`` (events numbered in rating order, ending on ``ends``);
    ``rests``: the Restpartien of player 0 as a list writes them."""
    count = len(dwz)
    params = params or Dwz()
    keys = [f"e{i}" for i in range(len(ends))]
    facts = pd.DataFrame(
        {"key": keys, "start": ends, "end": ends, "time_control": [None] * len(ends)},
        dtype=object,
    )
    texts = pd.Series([rests] + [None] * (count - 1), dtype="string")
    state = DwzState(
        np.array(dwz, float),
        np.array(index, float),
        np.array(uplifted or [False] * count),
        parse_rests(texts),
    )
    return rate_events(
        state,
        np.array(fide or [NAN] * count, float),
        np.array(birth or [NAN] * count, float),
        games,
        event_dates(facts, len(ends), params),
        params,
    )


def record(done: DwzRun, player: int, key: str, event: int = 0) -> float:
    """A value of ``player``'s evaluation in ``event``."""
    rows = (done.records["player"] == player) & (done.records["event"] == event)
    return float(done.records[key][rows][0])


def against(scores: list[float], *, first: int = 1) -> list[tuple[int, int, float]]:
    """Player 0 against players ``first``, ``first`` + 1, … with these scores."""
    return [(0, first + j, s) for j, s in enumerate(scores)]


DAY = dt.date(2025, 3, 9)


# §10.10, §10.5: the normal model -------------------------------------------------------


def test_expected_scores_are_the_published_table() -> None:
    # docs/systems.md §10.10: the table a club prints, P to 3 decimals.
    d = np.arange(0, 500, 50)
    published = [0.500, 0.570, 0.638, 0.702, 0.760, 0.812, 0.856, 0.892, 0.921, 0.944]
    assert expected(d, SCALE, 3).tolist() == published
    # E(a,b) + E(b,a) = 1 unrounded.
    assert np.allclose(expected(d, SCALE) + expected(-d, SCALE), 1.0, atol=1e-15)


def test_phi_and_its_inverse_match_the_standard_library() -> None:
    # The Cephes/Cody and Acklam-Halley approximations against Python's own.
    xs = np.linspace(-8.0, 8.0, 3201)
    reference = np.array([0.5 * math.erfc(-x / math.sqrt(2)) for x in xs])
    assert np.max(np.abs(phi(xs) - reference) / reference) < 1e-13
    ps = np.linspace(0.001, 0.999, 999)
    inverse = np.array([NormalDist().inv_cdf(p) for p in ps])
    assert np.max(np.abs(phi_inverse(ps) - inverse)) < 1e-10


def test_difference_is_rounded_half_away_and_held() -> None:
    # D(0.75) = 282.8427 · 0.674490 = 190.77 → 191; D(0.25) = −191; p held to 0.999:
    # 282.8427 · 3.090232 = 874.05 → 874; D(0.5) = 0.
    p = np.array([0.75, 0.25, 1.0, 0.0, 0.5, 0.9999])
    assert difference(p, SCALE).tolist() == [191, -191, 874, -874, 0, 874]


# §10.5: E, its parts and its limits -----------------------------------------------------


def one(
    r0: float,
    index: float,
    age: float,
    n: float,
    w: float,
    we: float,
    *,
    brake_at_equal: bool = False,
    params: Dwz | None = None,
) -> dict[str, float]:
    """``established`` for one player whose We is given to 3 decimals."""
    values = established(
        np.array([r0]), np.array([index]), np.array([age]), np.array([n]), np.array([w]),
        np.array([round(we * 1000)], float), np.array([1000.0]), np.array([brake_at_equal]),
        params or Dwz(),
    )  # fmt: skip
    return {key: float(value[0]) for key, value in values.items()}


def test_the_published_tournament_winner() -> None:
    # docs/systems.md §10.10: R0 1011, 6½ of 7, We 5.146, a player of 20 or under:
    # E0 = 1.011⁴ + 5 = 6.0447, fB = 1011/2000 = 0.5055, E0·fB = 3.056 → 3, raised to 5;
    # Rn = 1011 + 800 × 1.354/12 = 1101.27 → 1101.
    got = one(1011, 10, 20, 7, 6.5, 5.146)
    assert got["e0"] == pytest.approx(6.044731, abs=1e-6)
    assert got["fb"] == pytest.approx(0.5055)
    assert (got["j"], got["sbr"], got["e"], got["rn"]) == (5, 0, 5, 1101)


@pytest.mark.parametrize(("age", "j"), [(20, 5), (21, 10), (25, 10), (26, 15), (NAN, 15)], ids=str)
def test_j_by_age_unknown_counting_as_over_25(age: float, j: float) -> None:
    assert one(2000, 10, age, 5, 2.5, 2.5)["j"] == j


@pytest.mark.parametrize(
    ("r0", "w", "fb"),
    [(800, 3, 0.5), (1500, 3, 0.75), (2200, 3, 1.0), (1500, 2, 1.0)],
    ids=["held-to-0.5", "r0-over-2000", "held-to-1", "w-below-we"],
)
def test_acceleration_only_for_the_young_who_reach_we(r0: float, w: float, fb: float) -> None:
    # fB = R0/2000 held to [0.5, 1] for age ≤ 20 and W ≥ We (We 2.5 here), else 1.
    assert one(r0, 10, 15, 5, w, 2.5)["fb"] == fb
    assert one(r0, 10, 30, 5, w, 2.5)["fb"] == 1.0


def test_braking_below_1300_and_its_cap() -> None:
    # R0 1000, adult, 1 of 5 against We 2.000: SBr = e^(300/150) − 1 = 6.389056;
    # E0 = 1 + 15 = 16; E = 22.389 → 22; Rn = 1000 − 800/27 = 970.37 → 970.
    got = one(1000, 10, 40, 5, 1, 2.0)
    assert got["sbr"] == pytest.approx(math.exp(2) - 1)
    assert (got["e"], got["rn"]) == (22, 970)
    # R0 500: SBr = e^(800/150) − 1 = 206.14, E0 = 15.0625: 221 held to 150.
    assert one(500, 10, 40, 5, 1, 2.0)["e"] == 150
    # With SBr, the index cap (5 × index) does not apply: index 1 still gives 22.
    assert one(1000, 1, 40, 5, 1, 2.0)["e"] == 22
    # W ≥ We: no braking, E = 16, Rn = 1000 + 800 · 1/21 = 1038.10 → 1038.
    assert one(1000, 10, 40, 5, 3, 2.0)["rn"] == 1038


def test_braking_at_w_equal_we_by_edition() -> None:
    # W = We = 2: under "W<We" no braking (E 16); under "W<=We" E = 22.
    assert one(1000, 10, 40, 5, 2, 2.0)["e"] == 16
    assert one(1000, 10, 40, 5, 2, 2.0, brake_at_equal=True)["e"] == 22


@pytest.mark.parametrize(
    ("r0", "index", "e"),
    [(2000, 2, 10), (2000, 5, 25), (2000, 6, 30), (2400, 40, 30), (1011, 1, 5)],
    ids=["index-2", "index-5", "index-6", "e-max", "e-min"],
)
def test_limits_of_e(r0: float, index: float, e: float) -> None:
    # E0 = 2⁴ + 15 = 31: ≤ 5 · index while index ≤ 5, else ≤ 30; 2.4⁴ + 15 = 48.2 → 30.
    assert one(r0, index, 40 if r0 > 1011 else 15, 5, 3, 2.5)["e"] == e


# §10.4, §10.5 through events ------------------------------------------------------------


def test_an_established_game_moves_both_ratings() -> None:
    # 1500 beats 1500, both index 10, age unknown: We = 0.5, E0 = 1.5⁴ + 15 = 20.06 → 20;
    # Rn = 1500 ± 800 · 0.5/21 = 1500 ± 19.05 → 1519 and 1481 (1480.95).
    done = run([1500, 1500], [10, 10], PlayedGames.from_pairs([(0, 1, 1.0)], 2), [DAY])
    assert done.state.dwz.tolist() == [1519, 1481]
    assert done.state.index.tolist() == [11, 11]


def test_events_are_rated_one_after_another() -> None:
    # Event 0 as above; in event 1 the winner (now 1519) draws a 1519: We 0.5, no change.
    games = PlayedGames.from_pairs([(0, 1, 1.0), (0, 2, 0.5)], 3, events=[0, 1])
    done = run([1500, 1500, 1519], [10, 10, 10], games, [DAY, DAY + dt.timedelta(1)])
    assert done.state.dwz.tolist() == [1519, 1481, 1519]
    assert done.state.index.tolist() == [12, 11, 11]


def test_a_fide_rating_in_the_file_replaces_a_dwz_from_2400() -> None:
    # 2450 with FIDE 2500 in the file: R0 2500. Against 2500 (DWZ, no FIDE) a draw: We 0.5.
    games = PlayedGames.from_pairs([(0, 1, 0.5)], 2)
    done = run([2450, 2500], [30, 30], games, [DAY], fide=[2500, NAN])
    assert record(done, 0, "r0") == 2500 and record(done, 0, "by_fide") == 1
    # E0 = 2.5⁴ + 15 = 54.06 → 30; Rn = 2500 + 0 = 2500.
    assert done.state.dwz[0] == 2500


def test_a_player_entering_with_a_fide_rating_gets_e_at_most_5_and_index_6() -> None:
    # No DWZ, FIDE 1800 beats a 1800: E0 = 1.8⁴ + 15 = 25.5, index taken as 1: E 5;
    # Rn = 1800 + 800 · 0.5/6 = 1866.67 → 1867, index 6.
    done = run([NAN, 1800], [NAN, 20], PlayedGames.from_pairs([(0, 1, 1.0)], 2), [DAY],
               fide=[1800, NAN])  # fmt: skip
    assert (done.state.dwz[0], done.state.index[0]) == (1867, 6)
    assert record(done, 0, "e") == 5


def test_games_against_players_staying_without_dwz_do_not_count() -> None:
    # Player 1 has no DWZ and only this game: no first DWZ, so player 0's game is not counted.
    done = run([1600, NAN], [10, NAN], PlayedGames.from_pairs([(0, 1, 1.0)], 2), [DAY])
    assert done.state.dwz[0] == 1600 and done.state.index[0] == 10
    assert np.isnan(done.state.dwz[1])


# §10.6: first DWZ -----------------------------------------------------------------------


def test_first_dwz_by_the_integer_iteration() -> None:
    # 3½ of 5 against 1200, 1400, 1600, 1800, 2000 (1, 1, 1, ½, 0): Rc = 1600,
    # Rp = 1600 + D(0.7) = 1600 + 148 (148.32) = 1748. Steps, p' = 0.5 + (3.5 − We)/5:
    #   1748: We = 0.973656 + 0.890720 + 0.699603 + 0.427066 + 0.186477 = 3.177522,
    #         p' = 0.564496, D = 45.93 → 46
    #   1794: We 3.378687, p' 0.524263, D 17.21 → 17
    #   1811: We 3.451199, p' 0.509760, D  6.92 → 7
    #   1818: We 3.480734, p' 0.503853, D  2.73 → 3
    #   1821: We 3.493331, p' 0.501334, D  0.95 → 1
    #   1822: We 3.497522, p' 0.500496, D  0.35 → 0: done after 5 steps; Ri = 1822.
    opponents = [1200, 1400, 1600, 1800, 2000]
    games = PlayedGames.from_pairs(against([1, 1, 1, 0.5, 0]), 6)
    done = run([NAN, *opponents], [NAN] + [20] * 5, games, [DAY])
    assert (record(done, 0, "start"), record(done, 0, "rc")) == (1748, 1600)
    assert (record(done, 0, "steps"), record(done, 0, "stage")) == (5, 1)
    assert (done.state.dwz[0], done.state.index[0]) == (1822, 1)
    assert record(done, 0, "performance") == 1822  # a first DWZ's Rh is its Rp


def test_a_first_dwz_below_800_is_raised_by_the_floor_formula() -> None:
    # 1 of 5 against 700s: Rp = 700 + D(0.2) = 700 − 238 (238.05) = 462; We = 5 · P(−238)
    # = 1.000230, p' = 0.499954, D = −0.03 → 0. Ri 462 < 800: 700 + 462/8 = 757.75 → 758.
    games = PlayedGames.from_pairs(against([1, 0, 0, 0, 0]), 6)
    done = run([NAN] + [700] * 5, [NAN] + [20] * 5, games, [DAY])
    assert done.state.dwz[0] == 758
    assert (record(done, 0, "ri"), record(done, 0, "floored")) == (462, True)
    # Its games then count for its opponents: the winner of the first game lost to a 758.
    assert record(done, 1, "n") == 1


def test_all_won_or_all_lost_gives_no_first_dwz() -> None:
    games = PlayedGames.from_pairs(against([1, 1, 1, 1, 1]), 6)
    done = run([NAN] + [1500] * 5, [NAN] + [20] * 5, games, [DAY])
    assert np.isnan(done.state.dwz[0])
    # Its five results are stored as Restpartien, at the opponents' R0 and this end date.
    texts = format_rests(done.state.rests, 6)
    assert texts[0] == ";".join(["2025-03-09/1500/1"] * 5)


def test_a_second_stage_player_counts_a_first_stage_player_at_his_start_value() -> None:
    # Player 0: 3 of 5 against 1500s (stage 1): Rp = 1500 + D(0.6) = 1500 + 72 (71.66) =
    # 1572; We = 5 · P(72) = 3.002340, p' = 0.499532, D = −0.33 → 0: 1572.
    # Player 6: 4 against 1500s (½ each), so not stage 1, and a win against player 0: 5
    # results against Auswahl 0 and stage 1, stage 2.
    pairs = against([1, 1, 1, 0, 0]) + [(6, j, 0.5) for j in (1, 2, 3, 4)] + [(6, 0, 1.0)]
    games = PlayedGames.from_pairs(pairs, 7)
    done = run([NAN] + [1500] * 5 + [NAN], [NAN] + [20] * 5 + [NAN], games, [DAY])
    assert record(done, 0, "stage") == 1 and record(done, 6, "stage") == 2
    # Start of player 6: Rc = (4 · 1500 + 1572)/5 = 1514.4, W/n = 3/5: 1514.4 + 72 = 1586.4.
    assert record(done, 6, "start") == pytest.approx(1586.4)
    # Player 0 now counts his loss to player 6 too (6 results, the iteration moves him).
    assert record(done, 0, "n") == 6


def test_restpartien_complete_a_first_dwz_later() -> None:
    # Event 0: 2 of 3 (1, 0, 1) against 1500s: too few; stored. Event 1 (within 2 years):
    # 1 of 2 more: 3 of 5 against 1500s: Rp = 1500 + D(0.6) = 1572 as above, Ri 1572.
    pairs = [*against([1, 0, 1]), (0, 4, 1.0), (0, 5, 0.0)]
    games = PlayedGames.from_pairs(pairs, 6, events=[0, 0, 0, 1, 1])
    ends = [DAY, dt.date(2027, 3, 9)]
    done = run([NAN] + [1500] * 5, [NAN] + [20] * 5, games, ends, params=Dwz(uplift=False))
    assert done.state.dwz[0] == 1572 and record(done, 0, "rests_used", 1) == 3
    assert len(done.state.rests.player) == 0  # used up
    # One day later, the Restpartien of 2025-03-09 have expired: 2 results, stored again.
    late = run([NAN] + [1500] * 5, [NAN] + [20] * 5, games, [DAY, dt.date(2027, 3, 10)],
               params=Dwz(uplift=False))  # fmt: skip
    assert np.isnan(late.state.dwz[0])
    assert format_rests(late.state.rests, 6)[0] == "2027-03-10/1500/1;2027-03-10/1500/0"


def test_restpartien_from_the_list_count_at_their_stored_rating() -> None:
    # Stored: 1 against 1400, 0 against 1600 (2024); now 1 of 3 against 1500s: Rc = (1400 +
    # 1600 + 3 · 1500)/5 = 1500, 2 of 5: Rp = 1500 + D(0.4) = 1500 − 72 = 1428; We = P(28)
    # + P(−172) + 3 · P(−72) = 0.539429 + 0.271557 + 3 · 0.399532 = 2.009582, p' = 0.498084,
    # D = −1.36 → −1; 1427: We = 0.538025 + 0.270386 + 3 · 0.398167 = 2.002912,
    # p' = 0.499418, D = −0.41 → 0.
    games = PlayedGames.from_pairs(against([1, 0, 0]), 4)
    done = run([NAN] + [1500] * 3, [NAN] + [20] * 3, games, [DAY],
               rests="2024-05-01/1400/1;2024-06-01/1600/0")  # fmt: skip
    assert done.state.dwz[0] == 1427 and record(done, 0, "steps") == 1


# §10.7: performance and exceptional results ---------------------------------------------


def test_performance_with_every_game_won_is_rc_plus_677() -> None:
    games = PlayedGames.from_pairs(against([1, 1, 1, 1, 1]), 6)
    done = run([1200] + [1500] * 5, [10] * 6, games, [DAY])
    assert record(done, 0, "performance") == 1500 + 677


@pytest.mark.parametrize(("edition", "loser"), [("dwz-2016", 1500), ("dwz-2013", 1467)])
def test_an_exceptional_performance_counts_for_the_opponents(edition: str, loser: float) -> None:
    # 1200 (index 10, adult) beats five 1500s: Rh = 1500 + 677 = 2177 > 1200 + 300.
    # From dwz-2016 each loser's We is P(1500 − 2177) = 0.008343: E 20 (1.5⁴ + 15 = 20.06),
    # Rn = 1500 − 800 · 0.008343/21 = 1499.68 → 1500; in dwz-2013 P(300) = 0.855578:
    # 1500 − 800 · 0.855578/21 = 1467.41 → 1467. The winner's own Rn uses R0 in both:
    # We = 5 · P(−300) = 0.722111, E = 1.2⁴ + 15 = 17.07 → 17 (no braking: W > We),
    # Rn = 1200 + 800 · 4.277889/22 = 1355.56 → 1356.
    games = PlayedGames.from_pairs(against([1, 1, 1, 1, 1]), 6)
    done = run([1200] + [1500] * 5, [10] * 6, games, [DAY], params=Dwz(edition=edition))
    assert done.state.dwz.tolist() == [1356] + [loser] * 5


# §10.3: editions by end date -------------------------------------------------------------


def test_editions_by_end_date_and_fields_set_alone() -> None:
    params = Dwz()
    days = ("2013-07-31", "2013-08-01", "2016-07-31", "2016-08-01", "2026-06-07", "2026-06-08")
    names = [params.edition_at(dt.date.fromisoformat(day)).name for day in days]
    assert names == ["dwz-2002", "dwz-2013", "dwz-2013", "dwz-2016", "dwz-2016", "dwz-2026"]
    assert [e.p_decimals for e in EDITIONS] == [3, 0, 0, 0]
    fixed = Dwz(edition="dwz-2002", p_decimals=0).edition_at(dt.date(2020, 1, 1))
    assert (fixed.name, fixed.p_decimals, fixed.brake_when) == ("dwz-2002", 0, "W<=We")


def test_before_august_2013_p_is_rounded_to_3_decimals() -> None:
    # 1500 draws 1600 in 2012: P(−100) = 0.361837 → 0.362 (dwz-2002); E = 20 and 22 (E0
    # 20.06 and 1.6⁴ + 15 = 21.55); Rn = 1500 + 800 · 0.138/21 = 1505.26 → 1505; the 1600:
    # 1600 − 800 · 0.138/23 = 1595.20 → 1595.
    games = PlayedGames.from_pairs([(0, 1, 0.5)], 2)
    done = run([1500, 1600], [10, 10], games, [dt.date(2012, 5, 1)])
    assert record(done, 0, "we") == 0.362
    assert done.state.dwz.tolist() == [1505, 1595]


# §10.8: the 2026 uplift ------------------------------------------------------------------


def test_uplift_values() -> None:
    # + 400 below 1000; 0.64 · DWZ + 760 half up below 2110 (0.64 · 2109 + 760 = 2109.76);
    # unchanged from 2110.
    dwz = np.array([999.0, 1000.0, 1500.0, 2109.0, 2110.0, 2500.0])
    assert uplifted_values(dwz, Dwz()).tolist() == [1399, 1400, 1720, 2110, 2110, 2500]


def test_uplift_before_the_first_event_from_the_date() -> None:
    # Both 1500 (index 10) become 1720 (index 11) before an event ending 2026-06-08; a draw
    # leaves them there (index 12). A listed player already uplifted is not mapped again.
    games = PlayedGames.from_pairs([(0, 1, 0.5)], 3)
    done = run([1500, 1500, 1500], [10, 10, 10], games, [dt.date(2026, 6, 8)],
               uplifted=[False, False, True])  # fmt: skip
    assert done.state.dwz.tolist() == [1720, 1720, 1500]
    assert done.state.index.tolist() == [12, 12, 10]
    assert done.state.uplifted.tolist() == [True, True, True]
    # An event ending the day before: no uplift yet.
    early = run([1500, 1500, 1500], [10, 10, 10], games, [dt.date(2026, 6, 7)])
    assert early.state.dwz.tolist() == [1500, 1500, 1500]


def test_uplift_maps_restpartien_and_can_be_turned_off() -> None:
    # Player 0 has no DWZ: his stored 1500 becomes 1720; with uplift = false nothing moves.
    games = PlayedGames.from_pairs([(1, 2, 0.5)], 3)
    ends = [dt.date(2026, 7, 1)]
    done = run([NAN, 1500, 1500], [NAN, 10, 10], games, ends, rests="2025-01-01/1500/1")
    assert format_rests(done.state.rests, 3)[0] == "2025-01-01/1720/1"
    off = run([NAN, 1500, 1500], [NAN, 10, 10], games, ends, rests="2025-01-01/1500/1",
              params=Dwz(uplift=False))  # fmt: skip
    assert off.state.dwz.tolist()[1:] == [1500, 1500]


# §10.2: Restpartien as text --------------------------------------------------------------


def test_restpartien_text_round_trip_and_problems() -> None:
    texts = pd.Series(["2024-05-01/1500/1;2024-06-01/1600/½", None, "2024-01-02/900/0.5"])
    rests = parse_rests(texts)
    assert rests.rating.tolist() == [1500, 1600, 900] and rests.score.tolist() == [1, 0.5, 0.5]
    assert format_rests(rests, 3).tolist() == [
        "2024-05-01/1500/1;2024-06-01/1600/½", None, "2024-01-02/900/½",
    ]  # fmt: skip
    assert format_rests(Rests.empty(), 2).tolist() == [None, None]
    assert (
        rests_problem("2024-13-01/1500/1")
        == "'2024-13-01' in '2024-13-01/1500/1' is not a date YYYY-MM-DD"
    )
    assert (
        rests_problem("2024-01-01/15x/1")
        == "'15x' in '2024-01-01/15x/1' is not a rating from 1 to 3999"
    )
    assert (
        rests_problem("2024-01-01/1500/2") == "'2' in '2024-01-01/1500/2' is not a score 1, ½ or 0"
    )
    assert rests_problem("2024-01-01/1500") == "'2024-01-01/1500' is not YYYY-MM-DD/rating/score"


# Constants -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("key", "value", "message"),
    [
        ("e_max", 2.5, "must be a whole number from 1 to 1000"),
        ("p_decimals", 7, "must be at least 0 and at most 6"),
        ("j", [5, 10], "must be a list of 3 numbers"),
        ("uplift_date", "2026-13-01", "must be a date written YYYY-MM-DD"),
        ("brake_when", "W>We", "must be one of W<We, W<=We"),
    ],
    ids=lambda v: str(v),
)
def test_impossible_constants_are_refused(key: str, value: object, message: str) -> None:
    check = next(f for f in dataclasses.fields(Dwz) if f.name == key).metadata["check"]
    assert check(value) == message


def test_inconsistent_constants_are_named() -> None:
    assert Dwz(accel_min=1.5).inconsistent() == [
        (("accel_min", "accel_max"), "is more than accel_max")
    ]


def test_an_undated_event_is_rated_last_under_the_latest_edition_with_a_note() -> None:
    system = DwzSystem()
    players = pd.DataFrame({"id": ["11", "12"], "name": ["One", "Two"],
                            "federation": ["GER", "GER"], "birth_year": [1980, 1980]})  # fmt: skip
    state = pd.DataFrame({"rating": [1500.0, 1500.0], "index": [10.0, 10.0],
                          "uplifted": [True, True], "restpartien": [None, None]})  # fmt: skip
    facts = pd.DataFrame({"key": ["x"], "start": [None], "end": [None],
                          "time_control": [None]}, dtype=object)  # fmt: skip
    period = SystemInput(players, state.astype(system.state),
                         PlayedGames.from_pairs([(0, 1, 1.0)], 2), ["x"], facts=facts)  # fmt: skip
    outcome = system.rate(period)
    # 1500 beats 1500 (both already on the 2026 scale): 1519 and 1481, as above.
    assert outcome.players["new_rating"].tolist() == [1519, 1481]
    assert set(outcome.calculations["edition"]) == {"dwz-2026"}
    assert any("1 event(s) without dates: rated last" in note for note in outcome.notes)
