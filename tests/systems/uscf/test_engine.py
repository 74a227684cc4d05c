"""US Chess's sections (docs/systems.md §9): the special formula solved exactly, Steps 1–5,
the bonus, the dual-rated K, the floors and the state after a section, each by hand."""

from __future__ import annotations

import datetime as dt
import math

import numpy as np
import pytest

from rating_batch.systems.games import PlayedGames
from rating_batch.systems.uscf.constants import BONUS_HISTORY, Uscf, in_force
from rating_batch.systems.uscf.engine import (
    ALL_LOSSES,
    ALL_WINS,
    MIXED,
    NONE,
    Sections,
    State,
    bonus_of,
    initial,
    n_star,
    rate_sections,
)
from rating_batch.systems.uscf.special import solve_special

NAN = math.nan


def state(rating, games=None, record=None, peak=None, floor=None, abs_floor=None) -> State:
    count = len(rating)

    def filled(values: list[float] | None) -> np.ndarray:
        return np.array(values if values is not None else [NAN] * count, dtype=np.float64)

    records = np.array(record if record is not None else [MIXED] * count, dtype=np.int64)
    return State(filled(rating), filled(games), records, filled(peak), filled(floor),
                 filled(abs_floor))  # fmt: skip


def sections(count: int = 1, *, b: float = 10.0, dual: bool = False, peak_min: float = 1400.0,
             year: float = 2026.0) -> Sections:  # fmt: skip
    return Sections(
        bonus_b=np.full(count, b), nstar_2013=np.ones(count, bool),
        fide_2024=np.ones(count, bool), peak_min=np.full(count, peak_min),
        year=np.full(count, year), dual=np.full(count, dual),
    )  # fmt: skip


def rate(before: State, games: PlayedGames, where: Sections | None = None, **params: object):
    count = len(before.rating)
    nothing = np.full(count, NAN)
    return rate_sections(before, nothing, nothing, games, where or sections(), Uscf(**params))


def we(own: float, other: float) -> float:
    return 1.0 / (1.0 + 10.0 ** (-(own - other) / 400.0))


# -- the special formula (§9.6) ------------------------------------------------------------


def solve(centers: list[float], weights: list[float], target: float, anchor: float) -> float:
    group = np.zeros(len(centers), dtype=np.int64)
    found = solve_special(group, np.array(centers), np.array(weights), np.array([target]),
                          np.array([anchor]))  # fmt: skip
    return float(found[0])


def test_special_formula_a_root_on_a_sloped_segment() -> None:
    # N' = 4 at 1500, 3/4 against four at 1500: S' = 3 + 4/2 = 5;
    # 8 · (0.5 + (R − 1500)/800) = 5 → R = 1500 + 0.125 · 800 = 1600.
    assert solve([1500.0] * 5, [4.0, 1, 1, 1, 1], 5.0, 1500.0) == pytest.approx(1600.0, abs=1e-9)
    # Against 1400 and 1600, 1.5/2: 1 + (2R − 3000)/800 = 1.5 → R = 1700.
    assert solve([1400.0, 1600.0], [1.0, 1.0], 1.5, 1300.0) == pytest.approx(1700.0, abs=1e-9)


@pytest.mark.parametrize(
    ("anchor", "expected"), [(1300.0, 1400.0), (1500.0, 1500.0), (1700.0, 1600.0)],
    ids=["below", "inside", "above"],
)  # fmt: skip
def test_special_formula_flat_solution_nearest_r0(anchor: float, expected: float) -> None:
    # A win against 1000 and a loss to 2000: PWe(R, 1000) = 1 and PWe(R, 2000) = 0 for every
    # R in [1400, 1600], so f = 0 there; the point nearest R0 is taken.
    assert solve([1000.0, 2000.0], [1.0, 1.0], 1.0, anchor) == pytest.approx(expected)


def test_special_formula_unbounded_solutions() -> None:
    # 1/1 against 1500, no prior: every R ≥ 1900 solves it → 1900 for R0 1300.
    assert solve([1500.0], [1.0], 1.0, 1300.0) == pytest.approx(1900.0)
    # 0/1: every R ≤ 1100 → 1100 for R0 1300, R0 itself for R0 1000.
    assert solve([1500.0], [1.0], 0.0, 1300.0) == pytest.approx(1100.0)
    assert solve([1500.0], [1.0], 0.0, 1000.0) == pytest.approx(1000.0)


def test_special_formula_solves_many_players_at_once() -> None:
    group = np.array([1, 0, 0, 1])
    centers = np.array([1500.0, 1400.0, 1600.0, 1500.0])
    found = solve_special(group, centers, np.ones(4), np.array([1.5, 1.0]),
                          np.array([1300.0, 1500.0]))  # fmt: skip
    # Group 0 as above (1700); group 1: 2 · (0.5 + (R − 1500)/800) = 1 → 1500.
    assert found == pytest.approx([1700.0, 1500.0])


# -- Steps 1 and 2 (§9.4, §9.5) --------------------------------------------------------------


def test_initial_ratings_from_fide_age_or_neither() -> None:
    fide = np.array([1800.0, 1800.0, 2200.0, NAN, NAN, NAN])
    birth = np.array([NAN, NAN, NAN, 2014.0, 2024.0, NAN])
    after_2024 = np.array([True, False, True, True, True, True])
    rating, games, record = initial(fide, birth, np.full(6, 2026.0), after_2024, Uscf())
    # 1.5667 · 1800 − 1073 = 1747.06 (from 2024-03-01); 0.94 · 1800 + 180 = 1872 (before);
    # 1.02 · 2200 + 20 = 2264; age 12: 50 · 12 = 600; age 2: 100 held to 100 (50 · 2 = 100);
    # no age: 1300.
    assert rating == pytest.approx([1747.06, 1872.0, 2264.0, 600.0, 100.0, 1300.0])
    # N 5 up to FIDE 2150, 10 above; 0 without FIDE; record mixed with FIDE, none without.
    assert games.tolist() == [5, 5, 10, 0, 0, 0]
    assert record.tolist() == [MIXED, MIXED, MIXED, NONE, NONE, NONE]


def test_n_star_by_edition() -> None:
    ratings = np.array([1500.0, 2400.0, 2200.0])
    # 2013: 50/√(0.662 + 0.00000739 · 1069²) = 50/√(0.662 + 8.44500) = 50/3.01778 = 16.5685;
    # above 2355: 50. 2001: 50/√(1 + 700²/100000) = 50/√5.9 = 20.5847; at 2200: 50/√1 = 50.
    assert n_star(ratings, np.ones(3, bool)) == pytest.approx([16.5685, 50.0, 50 / math.sqrt(
        0.662 + 0.00000739 * 369**2)], abs=1e-4)  # fmt: skip
    assert n_star(ratings, np.zeros(3, bool)) == pytest.approx([20.5847, 50.0, 50.0], abs=1e-4)


# -- Steps 3–5 (§9.9) ------------------------------------------------------------------------


def test_a_first_section_runs_the_five_steps() -> None:
    # Player 0 is new (1300, N = 0); he beats 1 and loses to 2, both established at 1500
    # with N unknown, so N' = N*(1500) = 16.5685 (above).
    games = PlayedGames.from_pairs([(0, 1, 1.0), (2, 0, 1.0)], 3)
    done = rate(state([NAN, 1500.0, 1500.0]), games)
    parts = done.parts
    at = {int(p): i for i, p in enumerate(parts["player"])}
    # Step 3, N' = 1: PWe(R,1300) + 2 PWe(R,1500) = 1 + 0.5; on [1100, 1700]
    # 1.5 + (3R − 4300)/800 = 1.5 → R = 1433.333.
    assert parts["step3"][at[0]] == pytest.approx(4300 / 3)
    # Step 4 for 1 and 2 against 1433.333: K = 800/(16.5685 + 1) = 45.5354.
    n_eff = 50 / math.sqrt(0.662 + 0.00000739 * 1069**2)
    k = 800 / (n_eff + 1)
    e = we(1500, 4300 / 3)  # 0.594781
    assert parts["intermediate"][at[1]] == pytest.approx(1500 - k * e)  # 1472.917
    assert parts["intermediate"][at[2]] == pytest.approx(1500 + k * (1 - e))  # 1518.451
    # Step 4 for 0 (N' = 0): 2 · (0.5 + (R − 1500)/800) = 1 → 1500.
    assert parts["intermediate"][at[0]] == pytest.approx(1500.0)
    # Step 5 for 0 against 1472.917 and 1518.451: 1 + (2R − 2991.368)/800 = 1.
    low, high = 1500 - k * e, 1500 + k * (1 - e)
    assert done.state.rating[0] == pytest.approx((low + high) / 2)  # 1495.684
    # Step 5 for 1 and 2 against 0's intermediate 1500: We 0.5.
    assert done.state.rating[1:] == pytest.approx([1500 - k / 2, 1500 + k / 2])
    assert parts["special"][at[0]] and not parts["special"][at[1]]
    # After: N 0 + 2; record mixed; no peak (provisional); AF' 100 + 4 = 104.
    assert done.state.games[0] == 2 and done.state.record[0] == MIXED
    assert math.isnan(done.state.peak[0]) and done.state.abs_floor[0] == 104.0


def test_all_wins_record_adjusts_the_prior_and_the_special_cap_holds() -> None:
    # 0: 1500 on N = 3 all wins (N' = 3): R0' = 1100, S' = 1 + 3. He beats 1 (2400, N
    # unknown: N' = 50). The left side reaches 4 only with R ≥ 1500 and R ≥ Ri + 400.
    games = PlayedGames.from_pairs([(0, 1, 1.0)], 2)
    done = rate(state([1500.0, 2400.0], [3.0, NAN], [ALL_WINS, MIXED]), games)
    at = {int(p): i for i, p in enumerate(done.parts["player"])}
    assert done.parts["r0_adjusted"][at[0]] == 1100.0 and done.parts["s_adjusted"][at[0]] == 4.0
    # 1's Step 4: 2400 − 800/51 · We(2400, 1500) = 2384.40; 0's Step 5 root 2784.40, capped.
    assert done.parts["intermediate"][at[1]] == pytest.approx(2400 - 800 / 51 * we(2400, 1500))
    assert done.parts["root"][at[0]] == pytest.approx(2800 - 800 / 51 * we(2400, 1500))
    assert done.state.rating[0] == 2700.0
    assert done.state.record.tolist() == [ALL_WINS, MIXED]


def test_all_losses_record() -> None:
    # 0: 1000 on N = 2 all losses: R0' = 1400, S' = 0; he loses to 1 (1000, N unknown),
    # whose intermediate is Ri = 1000 + K/2. f = 2 PWe(R, 1400) + PWe(R, Ri) is 0 for every
    # R ≤ min(1000, Ri − 400) = Ri − 400: the point nearest R0 1000 is Ri − 400.
    games = PlayedGames.from_pairs([(1, 0, 1.0)], 2)
    done = rate(state([1000.0, 1000.0], [2.0, NAN], [ALL_LOSSES, MIXED]), games)
    n_eff = 50 / math.sqrt(0.662 + 0.00000739 * 1569**2)
    rising = 1000 + 800 / (n_eff + 1) * 0.5
    assert done.state.rating[0] == pytest.approx(rising - 400)
    assert done.state.record[0] == ALL_LOSSES


# -- the standard formula and the bonus (§9.7, §9.8) ----------------------------------------


def test_bonus_public_example() -> None:
    # docs/systems.md §9.13: B = 10; 3 or 4 games → 10·√4 = 20, 5 → 22.36, 9 → 30; K(S − E)
    # 35 in 5 games gains 35 + (35 − 22.36) = 47.64.
    m = np.array([3.0, 4.0, 5.0, 9.0, 5.0])
    change = np.array([0.0, 0.0, 0.0, 0.0, 35.0])
    threshold, bonus = bonus_of(change, m, np.full(5, 10.0), np.ones(5, bool))
    assert threshold == pytest.approx([20.0, 20.0, 22.3607, 30.0, 22.3607], abs=1e-4)
    assert change[4] + bonus[4] == pytest.approx(47.64, abs=0.005)


def test_standard_formula_with_bonus_and_its_conditions() -> None:
    # 0 (2400, N unknown: N' = 50) beats 1, 2, 3 (2400 each, N unknown) in 3 games.
    # Step 4 of each opponent: 2400 − 800/51 · 0.5; 0's Step 5: E = 3 · We(2400, that),
    # K = 800/53: K(S − E) = 15.094 · (3 − 3 · 0.51128) = 22.130 > B·√4 = 20 (B = 10).
    games = PlayedGames.from_pairs([(0, 1, 1.0), (0, 2, 1.0), (0, 3, 1.0)], 4)
    done = rate(state([2400.0] * 4), games, sections(b=10.0))
    opponent = 2400 - 800 / 51 * 0.5
    change = 800 / 53 * (3 - 3 * we(2400, opponent))
    assert done.state.rating[0] == pytest.approx(2400 + change + (change - 20.0))
    assert done.parts["bonus"][0] == pytest.approx(change - 20.0)
    # The same against one opponent met three times: 15.094 · (3 − 3 · 0.53248) = 21.17 is
    # above 20, but there is no bonus (bonus_max_meetings 2).
    thrice = PlayedGames.from_pairs([(0, 1, 1.0)] * 3, 2, rounds=[1, 2, 3])
    done = rate(state([2400.0] * 2), thrice, sections(b=10.0))
    opponent = 2400 - 800 / 53 * 1.5
    assert done.state.rating[0] == pytest.approx(2400 + 800 / 53 * (3 - 3 * we(2400, opponent)))


@pytest.mark.parametrize(("own", "factor"), [(2300.0, 0.75), (2600.0, 0.25), (2200.0, 1.0)],
                         ids=["2300", "2600", "2200"])  # fmt: skip
def test_dual_rated_regular_side_reduces_k(own: float, factor: float) -> None:
    # 6.5 − 0.0025 · 2300 = 0.75; from 2500: 1/4; up to 2200: no reduction. K = 800/(N* + 1):
    # N*(2300) = 50/√(0.662 + 0.00000739 · 269²) = 45.7055, N*(2200) = 50/√1.66836 = 38.7099,
    # N*(2600) = 50.
    games = PlayedGames.from_pairs([(0, 1, 0.5)], 2)
    done = rate(state([own, own]), games, sections(dual=True))
    star = {2300.0: 45.7055, 2200.0: 38.7099, 2600.0: 50.0}[own]
    assert done.parts["k"][0] == pytest.approx(800 / (star + 1) * factor, abs=1e-3)


def test_bonus_history_by_end_date() -> None:
    ends = [dt.date(2010, 1, 1), dt.date(2013, 5, 18), dt.date(2014, 3, 19),
            dt.date(2015, 6, 1), dt.date(2020, 1, 1), dt.date(2023, 2, 1), dt.date(2026, 8, 1),
            None]  # fmt: skip
    assert in_force(BONUS_HISTORY, ends).tolist() == [10, 8, 10, 12, 14, 12, 10, 10]


# -- floors and the state after a section (§9.10, §9.11) -------------------------------------


def test_personal_absolute_floor_public_example() -> None:
    # docs/systems.md §9.13: 3 wins, 1 draw, 10 sections of 3 or more games: 100 + 12 + 2
    # + 10 = 124. Ten sections of three games against 1 and 2: the first won thrice, the
    # second one draw and two losses, then eight of losses.
    scores = [[1.0] * 3, [0.5, 0.0, 0.0]] + [[0.0] * 3] * 8
    pairs = [(0, 1 + r % 2, s) for section in scores for r, s in enumerate(section)]
    events = [e for e in range(10) for _ in range(3)]
    games = PlayedGames.from_pairs(pairs, 3, events=events, rounds=[1, 2, 3] * 10)
    done = rate(state([1000.0, 1500.0, 1500.0]), games, sections(10))
    assert done.state.abs_floor[0] == 124.0


def test_peak_floor_and_set_floor() -> None:
    # 0: peak 1850.5 → 1851, floor 100 · ⌊1651/100⌋ = 1600; at 1610 he loses twice to
    # players of his rating (K = 800/(N* + 2) ≈ 38: he falls to about 1572).
    # 1: a set floor of 2200 (Original Life Master), at 2210 he loses twice likewise.
    games = PlayedGames.from_pairs([(0, 2, 0.0), (0, 3, 0.0), (1, 4, 0.0), (1, 5, 0.0)], 6,
                                   rounds=[1, 2, 1, 2])  # fmt: skip
    before = state([1610.0, 2210.0, 1610.0, 1610.0, 2210.0, 2210.0],
                   peak=[1850.5, NAN, NAN, NAN, NAN, NAN],
                   floor=[NAN, 2200.0, NAN, NAN, NAN, NAN])  # fmt: skip
    done = rate(before, games)
    assert done.state.rating[:2].tolist() == [1600.0, 2200.0]
    at = {int(p): i for i, p in enumerate(done.parts["player"])}
    assert [done.parts["floor_kind"][at[0]], done.parts["floor_kind"][at[1]]] == [2, 3]
    # Before 2010-04-01 a peak floor needs 1600: a peak of 1550 gives none (1400: 1300).
    low = state([1400.0, 2000.0], peak=[1550.0, NAN])
    one = PlayedGames.from_pairs([(0, 1, 0.0)], 2)
    assert rate(low, one, sections(peak_min=1600.0)).parts["floor"][0] < 1300.0
    assert rate(low, one, sections(peak_min=1400.0)).parts["floor"][0] == 1300.0


def test_peak_follows_established_players_only() -> None:
    # 0 established (N 30 → 31): peak = max(peak, post); 1 provisional (N 3 → 4): none.
    games = PlayedGames.from_pairs([(0, 1, 1.0)], 2)
    done = rate(state([1500.0, 1500.0], [30.0, 3.0], peak=[1400.0, NAN]), games)
    assert done.state.peak[0] == done.state.rating[0] > 1500.0
    assert math.isnan(done.state.peak[1]) and done.state.games.tolist() == [31.0, 4.0]


def test_sections_follow_each_other() -> None:
    # Section 1 starts from section 0's post-event ratings: 0 and 1 draw in section 0 (no
    # change at equal ratings), then 0 beats 1 in section 1 from 1500 each, N' = N*(1500)
    # = 16.5685, K = 800/17.5685: intermediate 1500 ± K/2, then Step 5 against them.
    games = PlayedGames.from_pairs([(0, 1, 0.5), (0, 1, 1.0)], 2, events=[0, 1], rounds=[1, 1])
    done = rate(state([1500.0, 1500.0], [30.0, 30.0]), games, sections(2))
    k = 800 / (50 / math.sqrt(0.662 + 0.00000739 * 1069**2) + 1)
    expected = [1500 + k * (1 - we(1500, 1500 - k / 2)), 1500 - k * we(1500, 1500 + k / 2)]
    assert done.state.rating.tolist() == pytest.approx(expected)
    assert done.state.games.tolist() == [32.0, 32.0]
