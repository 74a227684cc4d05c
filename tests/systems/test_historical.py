"""Harkness and Ingo (docs/systems.md §5, §6): the published examples, events in order, first
ratings, properties."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rating_batch.systems.base import half_away
from rating_batch.systems.games import PlayedGames
from rating_batch.systems.historical import Harkness, Ingo, elo_equivalent, rate_harkness, rate_ingo


def eleven(scores: list[float]) -> PlayedGames:
    """Player 0 against players 1-11, one round each."""
    pairs = [(0, j + 1, s) for j, s in enumerate(scores)]
    return PlayedGames.from_pairs(pairs, 12, rounds=list(range(1, 12)))


def test_harkness_published_example() -> None:
    # A 1600 player scores 2½/11 against opponents averaging 1850:
    # 1850 + 10 × (22.73 − 50) = 1577.27 → 1577.
    scores = [1.0, 1.0, 0.5] + [0.0] * 8
    period = rate_harkness(np.array([1600.0] + [1850.0] * 11), eleven(scores), Harkness())
    assert period.rating[0] == 1577.0
    assert period.parts["performance"][0] == pytest.approx(1577.27, abs=0.01)


def test_ingo_published_example() -> None:
    # Old 110, 7/11 against Niveau 120: performance 120 − (63.64 − 50) = 106.36;
    # ¾ · 110 + ¼ · 106.36 = 109.09 → 109. Its Elo equivalent: 2840 − 8 · 109 = 1968.
    period = rate_ingo(np.array([110.0] + [120.0] * 11), eleven([1.0] * 7 + [0.0] * 4), Ingo())
    assert period.rating[0] == 109.0
    assert period.parts["performance"][0] == pytest.approx(106.36, abs=0.01)
    assert elo_equivalent(period.rating[:1])[0] == 1968.0


def test_ingo_gap_cap_and_age_weighting() -> None:
    # One opponent at 200 counts as 110 + 40 = 150; a loss: 0 % → performance 150 + 50 = 200.
    games = PlayedGames.from_pairs([(0, 1, 0.0)], 2)
    period = rate_ingo(np.array([110.0, 200.0]), games, Ingo())
    assert period.parts["average"][0] == 150.0 and period.parts["performance"][0] == 200.0
    # Age 19 (E = 10), one game: (1 · 200 + 10 · 110) / 11 = 118.18 → 118.
    aged = rate_ingo(np.array([110.0, 200.0]), games, Ingo(rule="age_weighted"),
                     ages=np.array([19.0, 40.0]))  # fmt: skip
    assert aged.rating[0] == 118.0


def test_events_follow_each_other_and_first_ratings() -> None:
    # Event 0: unrated 2 draws with 1 (1800): Harkness first rating 1800 + 10 · 0 = 1800.
    # Event 1: 2 (now 1800) beats 0 (2000): 2000 + 10 · 50 = 2500 for 2; 0 gets 1800 − 500.
    games = PlayedGames.from_pairs([(1, 2, 0.5), (2, 0, 1.0)], 3, events=[0, 1], rounds=[1, 1])
    period = rate_harkness(np.array([2000.0, 1800.0, np.nan]), games, Harkness())
    assert period.rating.tolist() == [1300.0, 1800.0, 2500.0]


def test_half_away_from_zero() -> None:
    assert half_away(np.array([0.5, 1.5, 2.5, -0.5, 109.49])).tolist() == [1, 2, 3, -1, 109]


@settings(max_examples=100, deadline=None)
@given(st.lists(st.sampled_from([0.0, 0.5, 1.0]), min_size=11, max_size=11), st.integers(0, 10))
def test_a_better_result_never_gives_a_worse_rating(scores: list[float], which: int) -> None:
    ratings = np.array([1600.0] + [1500.0 + 40 * j for j in range(11)])
    ingos = np.array([110.0] + [100.0 + 3 * j for j in range(11)])
    harkness = rate_harkness(ratings, eleven(scores), Harkness()).rating[0]
    ingo = rate_ingo(ingos, eleven(scores), Ingo()).rating[0]
    if scores[which] < 1.0:
        better = [*scores]
        better[which] += 0.5
        assert rate_harkness(ratings, eleven(better), Harkness()).rating[0] >= harkness
        assert rate_ingo(ingos, eleven(better), Ingo()).rating[0] <= ingo  # lower is better
