"""The ECF rating (docs/systems.md §12): the illustrations, the K method (the 400-point cap,
juniors' K, the change rounded once), the P method (the dummy draw, the nominal ratings, the
pool carried from a list, a full rating at 10 games), the three passes, inactivity."""

from __future__ import annotations

import datetime as dt

import numpy as np
import pandas as pd
import pytest
from system_inputs import one_event

from rating_batch.systems import SystemInput
from rating_batch.systems.ecf import (
    Ecf,
    EcfMonth,
    EcfSystem,
    nominal_rating,
    rate_month,
    rated_month,
)
from rating_batch.systems.games import PlayedGames

NAN = np.nan
ADULT = 40.0


def month(ratings: list[float], pairs: list[tuple[int, int, float]], *,
          partial: list[float] | None = None, ages: list[float] | None = None,
          lapsed: list[bool] | None = None, params: Ecf | None = None,
          fast: bool = False,
          pools: tuple[np.ndarray, np.ndarray] | None = None) -> EcfMonth:  # fmt: skip
    count = len(ratings)
    return rate_month(
        np.array(ratings, dtype=np.float64),
        np.array(partial if partial is not None else [NAN] * count, dtype=np.float64),
        np.array(lapsed if lapsed is not None else [False] * count),
        np.array(ages if ages is not None else [ADULT] * count, dtype=np.float64),
        PlayedGames.from_pairs(pairs, count),
        params or Ecf(),
        fast=fast,
        pools=pools,
    )


def test_illustration_a_junior_with_k_40_beats_a_higher_rated_player() -> None:
    # §12.8: junior 1400 beats 1500: D = −100, PD 0.36, 40 × 0.64 = 25.6 → +26, 1426.
    # The adult loser: D = +100, PD 0.64, 20 × (0 − 0.64) = −12.8 → −13, 1487.
    done = month([1400.0, 1500.0], [(0, 1, 1.0)], ages=[15.0, ADULT])
    assert done.d.tolist() == [-100.0, 100.0] and done.pd.tolist() == [0.36, 0.64]
    assert done.k.tolist() == [40.0, 20.0] and done.change.tolist() == [26.0, -13.0]
    assert done.rating.tolist() == [1426.0, 1487.0]
    assert done.method.tolist() == ["K", "K"]


def test_illustration_a_new_adult_with_the_dummy_draw() -> None:
    # §12.8: a new adult scores 3/5 against 1500s: Ra = (5 × 1500 + 1800)/6 = 1550,
    # p = 3.5/6 = 0.583 → 0.58, dp 57: 1607, a partial rating on 5 games.
    pairs = [(0, 1, 1.0), (0, 2, 1.0), (0, 3, 1.0), (0, 4, 0.0), (0, 5, 0.0)]
    done = month([NAN] + [1500.0] * 5, pairs)
    assert (done.ra[0], done.p[0], done.dp[0], done.nominal[0]) == (1550.0, 0.58, 57.0, 1800.0)
    assert (done.rating[0], done.partial_games[0], done.method[0]) == (1607.0, 5.0, "P")
    # Its opponents at its pass-B value: D = 1500 − 1607 = −107, PD 0.35. A loser:
    # 20 × −0.35 = −7 → 1493; a winner: 20 × 0.65 = 13 → 1513.
    assert done.rating[1:].tolist() == [1493.0, 1493.0, 1493.0, 1513.0, 1513.0]
    assert np.isnan(done.partial_games[1:]).all()


def test_three_passes_new_players_meeting_each_other() -> None:
    # New N1 (0), N2 (1); F 1600 (2), G 1400 (3). N1 beats F, N1 draws N2, G beats N2.
    # Pass A (N2, N1 at the nominal 1800):
    #   N1: Ra = (1600 + 1800 + 1800)/3 = 1733.33, p = 2/3 → 0.67, dp 125: 1858.33 → 1858;
    #   N2: Ra = (1800 + 1400 + 1800)/3 = 1666.67, p = 1/3 → 0.33, dp −125: 1541.67 → 1542.
    # Pass B (at the pass-A values):
    #   N1: (1600 + 1542 + 1800)/3 = 1647.33 + 125 = 1772.33 → 1772;
    #   N2: (1858 + 1400 + 1800)/3 = 1686 − 125 = 1561.
    # Pass C: F lost to 1772: D −172, PD 0.27, 20 × −0.27 = −5.4 → −5: 1595;
    #   G beat 1561: D −161, PD 0.29, 20 × 0.71 = 14.2 → 14: 1414.
    done = month([NAN, NAN, 1600.0, 1400.0], [(0, 2, 1.0), (0, 1, 0.5), (3, 1, 1.0)])
    assert done.pass_a[:2].tolist() == [1858.0, 1542.0]
    assert done.pass_b[:2].tolist() == [1772.0, 1561.0]
    assert done.rating.tolist() == [1772.0, 1561.0, 1595.0, 1414.0]
    assert done.partial_games[:2].tolist() == [2.0, 2.0]
    # Rows: N1–F, N1–N2, G–N2, then the other sides. The P method shows pass B's values
    # (N2 at its pass-A 1542), the K method pass C's (N2 at 1561, N1 at 1772).
    assert done.opponent_value.tolist() == [1600.0, 1542.0, 1561.0, 1772.0, 1858.0, 1400.0]


def test_a_partial_rating_carries_its_pool_and_partial_opponents_weigh_by_the_constant() -> None:
    # Partial 1600 on 4 games beats a 1700: 4 draws at 1600, the win and the dummy:
    # Ra = (6400 + 1700 + 1800)/6 = 1650, p = (3 + ½)/6 = 0.58, dp 57: 1707 on 5 games.
    # The 1700 against 1707: D −7, PD 0.49, 20 × −0.49 = −9.8 → −10: 1690; with the older
    # reading (weight 0.5): −4.9 → −5: 1695.
    done = month([1600.0, 1700.0], [(0, 1, 1.0)], partial=[4.0, NAN])
    assert (done.ra[0], done.p[0], done.rating[0], done.partial_games[0]) == (
        1650.0, 0.58, 1707.0, 5.0)  # fmt: skip
    assert done.rating[1] == 1690.0 and done.weight[1] == 1.0
    older = month([1600.0, 1700.0], [(0, 1, 1.0)], partial=[4.0, NAN],
                  params=Ecf(partial_opponent_weight=0.5))  # fmt: skip
    assert older.rating[1] == 1695.0 and older.weight[1] == 0.5


def test_a_pool_kept_by_the_database_replaces_the_lists_draws() -> None:
    # The same partial 1600 on 4 games, its games kept: opponents 6000 (1500 each) and 2.5
    # points. Beating the 1700: Ra = (6000 + 1700 + 1800)/6 = 1583.33, p = (3.5 + ½)/6 =
    # 0.67, dp 125: 1708.33 → 1708; the pool carried on: 7700 and 3.5 on 5 games.
    done = month([1600.0, 1700.0], [(0, 1, 1.0)], partial=[4.0, NAN],
                 pools=(np.array([6000.0, NAN]), np.array([2.5, NAN])))  # fmt: skip
    assert (done.rating[0], done.p[0]) == (1708.0, 0.67)
    assert (done.pool_opponents[0], done.pool_points[0], done.partial_games[0]) == (
        7700.0, 3.5, 5.0)  # fmt: skip
    # Without it (a list): draws at 1600, 1707 as above; the pool then carried exactly:
    # 4 × 1600 + 1700 = 8100 and 2 + 1 = 3 points. A full rating carries none.
    listed = month([1600.0, 1700.0], [(0, 1, 1.0)], partial=[4.0, NAN])
    assert (listed.pool_opponents[0], listed.pool_points[0]) == (8100.0, 3.0)
    assert np.isnan(listed.pool_opponents[1]) and np.isnan(listed.pool_points[1])


def test_ten_games_make_a_full_rating() -> None:
    # Partial 1500 on 9 draws a 1500: Ra = (9 × 1500 + 1500 + 1800)/11 = 1527.27,
    # p = 5.5/11 = 0.50, dp 0: 1527, on 10 games: full (no partial_games, category K).
    done = month([1500.0, 1500.0], [(0, 1, 0.5)], partial=[9.0, NAN])
    assert done.rating[0] == 1527.0 and np.isnan(done.partial_games[0])
    # The 1500 full player against 1527: D −27, PD 0.46, 20 × 0.04 = 0.8 → +1.
    assert done.rating[1] == 1501.0


def test_nominal_ratings_by_age_and_list() -> None:
    # §12.4: 1800 from 18; 100 × age under it; both 100 less on the rapid and blitz lists.
    ages = np.array([ADULT, 18.0, 17.0, 12.0, NAN])
    assert nominal_rating(ages, False, Ecf()).tolist() == [1800, 1800, 1700, 1200, 1800]
    assert nominal_rating(ages, True, Ecf()).tolist() == [1700, 1700, 1600, 1100, 1700]
    # A new 12-year-old draws a 1200 on the rapid list: Ra = (1200 + 1100)/2 = 1150, dp 0.
    done = month([NAN, 1200.0], [(0, 1, 0.5)], ages=[12.0, ADULT], fast=True)
    assert done.rating[0] == 1150.0


def test_a_returning_players_dummy_is_his_last_full_rating_when_higher() -> None:
    # Lapsed 2000 draws a 1800: dummy max(1800, 2000) = 2000: Ra = 1900, p 0.50: 1900 on 1.
    done = month([2000.0, 1800.0], [(0, 1, 0.5)], lapsed=[True, False])
    assert (done.nominal[0], done.rating[0], done.partial_games[0]) == (2000.0, 1900.0, 1.0)
    # Not lapsed: the K method, D = 200, PD 0.76, 20 × −0.26 = −5.2 → −5: 1995.
    assert month([2000.0, 1800.0], [(0, 1, 0.5)]).rating[0] == 1995.0
    # A lapsed 1500 below the nominal: the dummy is 1800.
    assert month([1500.0, 1800.0], [(0, 1, 0.5)], lapsed=[True, False]).nominal[0] == 1800.0


def test_the_difference_is_capped_at_400() -> None:
    # 2400 beats 1900: D 500 held to 400, PD 0.92, 20 × 0.08 = 1.6 → +2. Uncapped (d_cap
    # 4000): PD 0.96 (485–517), 20 × 0.04 = 0.8 → +1.
    assert month([2400.0, 1900.0], [(0, 1, 1.0)]).rating[0] == 2402.0
    assert month([2400.0, 1900.0], [(0, 1, 1.0)], params=Ecf(d_cap=4000.0)).rating[0] == 2401.0


def test_a_juniors_k_is_40_also_when_he_loses() -> None:
    # §12.9 decision 2: junior 1400 loses to 1500: 40 × −0.36 = −14.4 → −14: 1386.
    assert month([1400.0, 1500.0], [(0, 1, 0.0)], ages=[15.0, ADULT]).rating[0] == 1386.0


def test_a_juniors_k_only_for_a_gain_is_a_constant() -> None:
    # §12.9 decision 2, the calculator's reading: the loss −0.36 with K 20, −7.2 → −7: 1393;
    # the win keeps K 40: 25.6 → +26, 1426.
    params = Ecf(k_junior_gains_only=True)
    lost = month([1400.0, 1500.0], [(0, 1, 0.0)], ages=[15.0, ADULT], params=params)
    assert (lost.k[0], lost.rating[0]) == (20.0, 1393.0)
    won = month([1400.0, 1500.0], [(0, 1, 1.0)], ages=[15.0, ADULT], params=params)
    assert (won.k[0], won.rating[0]) == (40.0, 1426.0)


def test_the_number_of_dummy_draws_is_a_constant() -> None:
    # §12.9 decision 3. The new adult's 3/5 against 1500s with no dummy: Ra 1500,
    # p = 3/5 = 0.60, dp 72: 1572. With two: Ra = (7500 + 3600)/7 = 1585.71,
    # p = 4/7 = 0.571 → 0.57, dp 50: 1635.71 → 1636.
    pairs = [(0, 1, 1.0), (0, 2, 1.0), (0, 3, 1.0), (0, 4, 0.0), (0, 5, 0.0)]
    none = month([NAN] + [1500.0] * 5, pairs, params=Ecf(dummy_games=0))
    assert (none.ra[0], none.p[0], none.rating[0]) == (1500.0, 0.6, 1572.0)
    two = month([NAN] + [1500.0] * 5, pairs, params=Ecf(dummy_games=2))
    assert (two.p[0], two.dp[0], two.rating[0]) == (0.57, 50.0, 1636.0)
    assert two.ra[0] == pytest.approx(11100 / 7)


def test_unrounded_ratings_are_a_constant() -> None:
    # §12.9 decision 5 off: the junior's 40 × 0.64 = 25.6 stays: 1425.6. The passes with
    # unrounded values: N1 pass A 1733.33 + 125 = 1858.33, N2 1541.67; pass B N1
    # (1600 + 1541.67 + 1800)/3 + 125 = 1772.22; F: D −172 (the table's row), −5.4: 1594.6.
    params = Ecf(whole_numbers=False)
    junior = month([1400.0, 1500.0], [(0, 1, 1.0)], ages=[15.0, ADULT], params=params)
    assert junior.rating[0] == pytest.approx(1425.6)
    done = month([NAN, NAN, 1600.0, 1400.0], [(0, 2, 1.0), (0, 1, 0.5), (3, 1, 1.0)],
                 params=params)  # fmt: skip
    assert done.pass_a[0] == pytest.approx(5200 / 3 + 125)
    assert done.pass_b[0] == pytest.approx((1600 + 5000 / 3 - 125 + 1800) / 3 + 125)
    assert done.rating[2] == pytest.approx(1594.6)


def test_the_change_is_rounded_half_away_from_zero_once() -> None:
    # K 10: 1500 loses to 1393 (D 107, PD 0.65): 10 × −0.65 = −6.5 → −7 (not −6); the
    # winner: D −107, PD 0.35, 10 × 0.65 = 6.5 → +7. Two such games: −13, not 2 × −7.
    done = month([1500.0, 1393.0], [(0, 1, 0.0)], params=Ecf(k=10.0))
    assert done.change.tolist() == [-7.0, 7.0]
    twice = month([1500.0, 1393.0], [(0, 1, 0.0), (0, 1, 0.0)], params=Ecf(k=10.0))
    assert twice.change.tolist() == [-13.0, 13.0]


def test_p_is_rounded_to_two_decimals_half_up() -> None:
    # A new adult loses 99 games to a 1500: p = 0.5/100 = 0.005 → 0.01 (dp −677, not
    # 0.00's −800); Ra = (99 × 1500 + 1800)/100 = 1503: 1503 − 677 = 826, a full rating.
    done = month([NAN, 1500.0], [(1, 0, 1.0)] * 99)
    assert (done.p[0], done.dp[0], done.ra[0], done.rating[0]) == (0.01, -677.0, 1503.0, 826.0)
    assert np.isnan(done.partial_games[0])


def ecf_input(ratings: list[float | None], partial: list[float | None], last: list[str | None],
              games: PlayedGames, kind: str = "standard",
              grades: list[float | None] | None = None) -> SystemInput:  # fmt: skip
    state = {"rating": pd.Series(ratings, dtype="Float64"),
             "partial_games": pd.Series(partial, dtype="Float64"),
             "last_period": pd.Series(last, dtype="string"),
             "pool_opponents": pd.Series([None] * len(ratings), dtype="Float64"),
             "pool_points": pd.Series([None] * len(ratings), dtype="Float64"),
             "grade": pd.Series(grades or [None] * len(ratings), dtype="Float64")}  # fmt: skip
    return one_event(state, games, "2026-01-20", period="2026-02", kind=kind)


def test_the_month_rated_dates_the_games_and_a_rating_lapses_after_36_months() -> None:
    # January 2026 rated. 0 (2000, last game 2022-12: 37 months) returns: P method, 1900.
    # 1 (1800, 2023-01: 36 months, not lapsed): K method against 0's pass-B 1900: D −100,
    # PD 0.36, 20 × 0.14 = 2.8 → +3. 2 (1700, 2022-06) plays no game: lapsed, kept off the
    # list.
    games = PlayedGames.from_pairs([(0, 1, 0.5)], 3)
    period = ecf_input([2000.0, 1800.0, 1700.0], [None] * 3, ["2022-12", "2023-01", "2022-06"],
                       games)  # fmt: skip
    players = EcfSystem().rate(period).players.set_index("id")
    shown = ["new_rating", "new_partial_games", "new_last_period", "method", "category", "status"]
    assert players.loc["11", shown].tolist()[:2] == [1900.0, 1.0]
    assert players.loc["11", shown].tolist()[2:] == ["2026-01", "P", "P", "rated"]
    assert players.loc["12", "new_rating"] == 1803.0
    assert players.loc["12", shown].tolist()[2:] == ["2026-01", "K", "K", "rated"]
    assert players.loc["13", "new_rating"] == 1700.0
    assert players.loc["13", ["new_last_period", "category", "status"]].tolist() == [
        "2022-06", "", "unrated"]  # fmt: skip


def test_the_kind_of_list_sets_the_nominal_and_a_new_player_is_new() -> None:
    games = PlayedGames.from_pairs([(0, 1, 0.5)], 2)
    period = ecf_input([None, 1700.0], [None, None], [None, None], games, kind="rapid")
    outcome = EcfSystem().rate(period)
    # Rapid: dummy 1700, a draw with 1700: Ra 1700, p 0.50 → 1700 on 1 game.
    new = outcome.players.set_index("id").loc["11"]
    assert (new["nominal"], new["new_rating"], new["status"]) == (1700.0, 1700.0, "new")
    assert any("rapid/blitz" in note for note in outcome.notes)
    decisions = next(note for note in outcome.notes if "§12.9" in note)
    for key in ("d_cap", "k_junior_gains_only", "dummy_games", "partial_opponent_weight",
                "whole_numbers", "inactive_months"):  # fmt: skip
        assert key in decisions
    calc = outcome.calculations.set_index("id")
    assert calc.loc["12", ["method", "opponent_value", "d", "pd"]].tolist() == [
        "K", 1700.0, 0.0, 0.5]  # fmt: skip


def test_an_old_grade_without_a_rating_seeds_a_full_rating() -> None:
    # §12.2, July 2020: 7.5 × 155 + 700 = 1862.5 → 1863 (half away from zero), full. 0 then
    # draws a 1863 (given as a rating): D 0, PD 0.50: no change. A rating given with a grade
    # is the rating (1863 stays 1863).
    games = PlayedGames.from_pairs([(0, 1, 0.5)], 3)
    period = ecf_input([None, 1863.0, None], [None, None, None], [None] * 3, games,
                       grades=[155.0, 100.0, None])  # fmt: skip
    outcome = EcfSystem().rate(period)
    players = outcome.players.set_index("id")
    assert players["new_rating"].tolist()[:2] == [1863.0, 1863.0]
    assert players.loc["11", ["method", "category", "status"]].tolist() == ["K", "K", "rated"]
    assert players["new_grade"].isna().all()  # input only: nothing carries it
    assert any("7.5 × grade + 700" in note for note in outcome.notes)


@pytest.mark.parametrize(
    ("period", "end", "expected"),
    [("2026-02", "2026-01-31", "2026-01"), ("2026-02", None, "2026-01"),
     ("2026-01", None, "2025-12")],
    ids=["end-date", "list-february", "list-january"],
)  # fmt: skip
def test_the_month_rated_is_the_end_dates_or_the_one_before_the_list(
    period: str, end: str | None, expected: str
) -> None:
    day = dt.date.fromisoformat(end) if end else None
    facts = pd.DataFrame({"key": ["e"], "start": [day], "end": [day], "time_control": [None]},
                         dtype=object)  # fmt: skip
    empty = pd.DataFrame()
    given = SystemInput(empty, empty, PlayedGames.from_pairs([], 0), period=period, facts=facts)
    assert rated_month(given) == expected


def test_a_state_from_an_elo_rating_is_a_full_rating() -> None:
    seeded = EcfSystem().from_elo(pd.Series([2000, None], dtype="Int64"))
    assert seeded["rating"].tolist()[0] == 2000.0 and seeded["partial_games"].isna().all()
