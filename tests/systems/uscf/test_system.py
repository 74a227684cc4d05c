"""US Chess behind the seam (docs/systems.md §9): what an event's end date and time control
decide, the kinds by time control, the constants a rules file may set, and properties."""

from __future__ import annotations

import datetime as dt
import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rating_batch.errors import RulesError
from rating_batch.systems import SystemInput, system_from_table
from rating_batch.systems.games import PlayedGames
from rating_batch.systems.uscf import UscfSystem, sections_of
from rating_batch.systems.uscf.constants import Uscf
from rating_batch.systems.uscf.engine import MIXED, State, rate_sections

ENDS = [dt.date(2009, 6, 1), dt.date(2013, 5, 17), dt.date(2016, 6, 1), dt.date(2020, 6, 1),
        dt.date(2024, 2, 29), dt.date(2024, 3, 1)]  # fmt: skip


def period(ends: list[dt.date], minutes: float = 90.0) -> SystemInput:
    facts = pd.DataFrame({"key": [str(i) for i in range(len(ends))], "end": ends,
                          "minutes": [minutes] * len(ends)})  # fmt: skip
    return SystemInput(players=pd.DataFrame(), state=pd.DataFrame(),
                       games=PlayedGames.from_pairs([], 0), events=list(facts["key"]),
                       facts=facts)  # fmt: skip


def test_each_section_takes_the_values_in_force_on_its_end_date() -> None:
    found = sections_of(period(ENDS), Uscf(), "standard")
    # B: 10 (2001), 8 (2013-05-18) … 12 (2015-01-01), 14 (2017-05-01), 12 (2023-02-01).
    assert found.bonus_b.tolist() == [10, 10, 12, 14, 12, 12]
    # The 2013 N* from 2013-05-18; the 2024 conversion from 2024-03-01; the peak floor's
    # threshold 1600 before 2010-04-01, then 1400.
    assert found.nstar_2013.tolist() == [False, False, True, True, True, True]
    assert found.fide_2024.tolist() == [False] * 5 + [True]
    assert found.peak_min.tolist() == [1600, 1400, 1400, 1400, 1400, 1400]
    assert found.year.tolist() == [2009, 2013, 2016, 2020, 2024, 2024]
    # A plain field fixes one value for every section.
    fixed = sections_of(period(ENDS), Uscf(bonus_b=12.0, nstar="2001", peak_floor_min=1500.0,
                                           fide_conversion="2024"), "standard")  # fmt: skip
    assert fixed.bonus_b.tolist() == [12] * 6 and not fixed.nstar_2013.any()
    assert fixed.peak_min.tolist() == [1500] * 6 and fixed.fide_2024.all()


@pytest.mark.parametrize(
    ("minutes", "kind", "dual"),
    [(90.0, "standard", False), (50.0, "standard", True), (50.0, "rapid", False),
     (30.0, "standard", True), (65.0, "standard", True), (66.0, "standard", False)],
)  # fmt: skip
def test_k_is_reduced_on_the_regular_side_of_a_dual_rated_event_only(
    minutes: float, kind: str, dual: bool
) -> None:
    assert sections_of(period(ENDS[:1], minutes), Uscf(), kind).dual.tolist() == [dual]
    assert not sections_of(period(ENDS[:1], minutes), Uscf(dual_k_reduction=False), kind).dual[0]


@pytest.mark.parametrize(
    ("minutes", "kinds"),
    [(4.9, ()), (5.0, ("blitz",)), (10.0, ("blitz",)), (10.5, ("rapid",)), (29.0, ("rapid",)),
     (30.0, ("standard", "rapid")), (65.0, ("standard", "rapid")), (66.0, ("standard",)),
     (None, None)],
)  # fmt: skip
def test_kinds_by_time_control(minutes: float | None, kinds: tuple[str, ...] | None) -> None:
    # docs/systems.md §9.1: Blitz 5 ≤ t ≤ 10, Quick 10 < t ≤ 65, Regular t ≥ 30.
    assert UscfSystem().kinds_of(minutes) == kinds


def test_a_rules_file_names_every_impossible_constant() -> None:
    table = {"system": "uscf", "uscf": {"bonus_b": -3, "bonus_history": [["2020-13-01", 10]],
                                        "special_max_games": 8.5, "blitz_max": 40}}  # fmt: skip
    with pytest.raises(RulesError) as raised:
        system_from_table(table, "rules.toml")
    assert str(raised.value).splitlines() == [
        "rules.toml: key 'bonus_b' must be at least 0 and at most 1000 (got -3)",
        "rules.toml: key 'bonus_history' has '2020-13-01', not a date YYYY-MM-DD (got "
        "[['2020-13-01', 10]])",
        "rules.toml: key 'special_max_games' must be whole (got 8.5)",
        "rules.toml: key 'blitz_max' must keep not_rated_below ≤ blitz_max < regular_min ≤ "
        "quick_max",
    ]


def test_a_rules_file_sets_a_history_of_its_own() -> None:
    system = system_from_table(
        {"system": "uscf", "uscf": {"bonus_history": [["2001-01-01", 9], ["2020-01-01", 11]]}},
        "rules.toml",
    )
    assert isinstance(system, UscfSystem)
    assert sections_of(period(ENDS), system.params, "standard").bonus_b.tolist() == [
        9, 9, 9, 11, 11, 11,
    ]  # fmt: skip


def test_the_special_formula_up_to_eight_games() -> None:
    # N = 8: special; N = 9: standard (special_max_games 8).
    games = PlayedGames.from_pairs([(0, 2, 1.0), (1, 3, 1.0)], 4)
    nan = np.full(4, math.nan)
    before = State(np.full(4, 1500.0), np.array([8.0, 9.0, 30.0, 30.0]), np.full(4, MIXED),
                   nan.copy(), nan.copy(), nan.copy())  # fmt: skip
    done = rate_sections(before, nan, nan, games, sections_of(period(ENDS[-1:]), Uscf(), None),
                         Uscf())  # fmt: skip
    at = {int(p): i for i, p in enumerate(done.parts["player"])}
    assert [bool(done.parts["special"][at[p]]) for p in range(4)] == [True, False, False, False]


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.sampled_from([0.0, 0.5, 1.0]), min_size=5, max_size=5),
    st.integers(0, 4),
    st.sampled_from([0.0, 4.0, 20.0, math.nan]),
)
def test_a_better_result_never_gives_a_worse_rating(
    scores: list[float], which: int, count: float
) -> None:
    # Player 0 (N = count: first rating, special, standard or unknown) against five players.
    ratings = np.array([1500.0, 1300.0, 1450.0, 1600.0, 1750.0, 1900.0])

    def rated(result: list[float]) -> float:
        games = PlayedGames.from_pairs([(0, j + 1, s) for j, s in enumerate(result)], 6,
                                       rounds=[1, 2, 3, 4, 5])  # fmt: skip
        nan = np.full(6, math.nan)
        counts = np.array([count, 30, 30, 30, 30, 30])
        before = State(ratings.copy(), counts, np.full(6, MIXED), nan.copy(), nan.copy(),
                       nan.copy())  # fmt: skip
        where = sections_of(period(ENDS[-1:]), Uscf(), None)
        return float(rate_sections(before, nan, nan, games, where, Uscf()).state.rating[0])

    if scores[which] < 1.0:
        better = [*scores]
        better[which] += 0.5
        assert rated(better) >= rated(scores) - 1e-9
