"""TrueSkill (docs/systems.md §4): the published examples, a draw with a large upset, games
in order, properties."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rating_batch.systems.games import PlayedGames
from rating_batch.systems.trueskill import TrueSkill, rate_trueskill

FRESH_MU, FRESH_SIGMA = np.full(2, 25.0), np.full(2, 25.0 / 3.0)


def one_game(score: float, mu: np.ndarray = FRESH_MU, sigma: np.ndarray = FRESH_SIGMA) -> object:
    return rate_trueskill(mu, sigma, PlayedGames.from_pairs([(0, 1, score)], 2), TrueSkill())


@pytest.mark.parametrize(
    ("score", "first", "second"),
    [(1.0, (29.396, 7.171), (20.604, 7.171)), (0.5, (25.000, 6.458), (25.000, 6.458)),
     (0.0, (20.604, 7.171), (29.396, 7.171))],
)  # fmt: skip
def test_the_published_examples(score: float, first: tuple, second: tuple) -> None:
    period = one_game(score)
    assert period.mu[0] == pytest.approx(first[0], abs=0.001)
    assert period.sigma[0] == pytest.approx(first[1], abs=0.001)
    assert period.mu[1] == pytest.approx(second[0], abs=0.001)
    assert period.sigma[1] == pytest.approx(second[1], abs=0.001)


def test_a_draw_with_a_large_upset_moves_both_toward_each_other() -> None:
    # μ 40 against 10, both σ 2: a draw pulls the stronger down and the weaker up, symmetrically
    # (equal σ), and stays finite.
    period = one_game(0.5, np.array([40.0, 10.0]), np.array([2.0, 2.0]))
    assert np.isfinite(period.mu).all() and np.isfinite(period.sigma).all()
    assert period.mu[0] < 40.0 and period.mu[1] > 10.0
    assert (40.0 - period.mu[0]) == pytest.approx(period.mu[1] - 10.0)


def test_a_huge_upset_in_the_far_tail_stays_finite() -> None:
    # 60 σ-units apart: Φ underflows in float; V takes its limit, the winner gains.
    period = one_game(0.0, np.array([400.0, 0.0]), np.array([1.0, 1.0]))
    assert np.isfinite(period.mu).all() and period.mu[1] > 0.0 and period.mu[0] < 400.0


def test_games_are_rated_in_order_each_from_the_state_the_last_left() -> None:
    # Two rounds: 0 beats 1, then 0 beats 2; the second game uses 0's state after the first.
    games = PlayedGames.from_pairs([(0, 1, 1.0), (0, 2, 1.0)], 3, rounds=[1, 2])
    period = rate_trueskill(np.full(3, 25.0), np.full(3, 25 / 3), games, TrueSkill())
    first = one_game(1.0)
    row = np.flatnonzero((games.pidx == 0) & (games.round == 2))[0]
    assert period.mu_before[row] == pytest.approx(first.mu[0])
    assert period.sigma_before[row] == pytest.approx(first.sigma[0])


@settings(max_examples=60, deadline=None)
@given(st.floats(0, 50), st.floats(0, 50), st.floats(0.5, 10), st.floats(0.5, 10))
def test_winning_never_gives_less_than_drawing(
    mu1: float, mu2: float, s1: float, s2: float
) -> None:
    mu, sigma = np.array([mu1, mu2]), np.array([s1, s2])
    assert one_game(1.0, mu, sigma).mu[0] >= one_game(0.5, mu, sigma).mu[0] - 1e-9
    assert one_game(0.5, mu, sigma).mu[0] >= one_game(0.0, mu, sigma).mu[0] - 1e-9
