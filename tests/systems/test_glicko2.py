"""Glicko-2 (docs/systems.md §2): the paper's example, the μ² trap, a period rated at once
against game by game, players without games, and properties on random periods."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rating_batch.systems.games import PlayedGames
from rating_batch.systems.glicko2 import Glicko2, rate_glicko2

PAPER = [(0, 1, 1.0), (0, 2, 0.0), (0, 3, 0.0)]
RATINGS = np.array([1500.0, 1400.0, 1550.0, 1700.0])
RDS = np.array([200.0, 30.0, 100.0, 300.0])


def rate(ratings: np.ndarray, rds: np.ndarray, pairs: list, **params: float) -> object:
    games = PlayedGames.from_pairs(pairs, len(ratings))
    return rate_glicko2(ratings, rds, np.full(len(ratings), 0.06), games, Glicko2(**params))


def test_the_papers_example() -> None:
    # Glickman's example: r 1500, RD 200, σ 0.06, τ 0.5; beats 1400/30, loses to 1550/100
    # and 1700/300. Exact arithmetic: r' 1464.0507, RD' 151.52, σ' 0.059996.
    period = rate(RATINGS, RDS, PAPER)
    assert abs(period.rating[0] - 1464.05) <= 0.011
    assert abs(period.rd[0] - 151.52) <= 0.005
    assert abs(period.volatility[0] - 0.059996) <= 1e-6
    # The paper's intermediate values: v 1.7785, Δ −0.4834 (it rounds on the way).
    assert period.v[0] == pytest.approx(1.7785, abs=0.001)
    assert period.delta[0] == pytest.approx(-0.4834, abs=0.001)


def test_a_player_not_at_1500_is_the_papers_player_moved() -> None:
    # Everyone 200 points higher: the same change, σ' the same. The known trap (μ² for φ² in
    # the volatility function) gives another σ' as soon as μ is not 0.
    period = rate(RATINGS + 200, RDS, PAPER)
    assert abs(period.rating[0] - 1664.05) <= 0.011
    assert abs(period.volatility[0] - 0.059996) <= 1e-6


def test_a_period_is_one_update_not_one_per_game() -> None:
    at_once = rate(RATINGS, RDS, PAPER)
    # Game by game: three periods of one game each, the RD shrinking and growing between.
    r, rd, sigma = RATINGS.copy(), RDS.copy(), np.full(4, 0.06)
    for pair in PAPER:
        games = PlayedGames.from_pairs([pair], 4)
        step = rate_glicko2(r, rd, sigma, games, Glicko2())
        r[0], rd[0], sigma[0] = step.rating[0], step.rd[0], step.volatility[0]
    # (151.87 against 151.52: each one-game period adds σ² to φ² before it is rated.)
    assert abs(rd[0] - at_once.rd[0]) > 0.1


def test_a_player_without_games_keeps_r_and_sigma_and_rd_grows() -> None:
    period = rate(RATINGS, RDS, [(1, 2, 0.5)])
    assert period.rating[3] == 1700.0 and period.volatility[3] == 0.06
    # φ' = √(φ² + σ²) on the Glicko-2 scale: RD' = 173.7178 √((300/173.7178)² + 0.06²).
    assert period.rd[3] == pytest.approx(173.7178 * np.sqrt((300 / 173.7178) ** 2 + 0.0036))


def test_rd_caps() -> None:
    # Without games RD grows: √(349.9² + (0.06 · 173.7178)²) = 350.05, capped at 350.
    rds = np.array([349.9, 30.0, 100.0, 200.0])
    assert rate(RATINGS, rds, [(1, 2, 0.5)], rd_max=350.0).rd[0] == 350.0
    assert rate(RATINGS, rds, [(1, 2, 0.5)]).rd[0] == pytest.approx(350.055, abs=0.001)
    assert rate(RATINGS, RDS, PAPER, rd_min=160.0).rd[0] == 160.0


@st.composite
def periods(draw: st.DrawFn) -> tuple[np.ndarray, np.ndarray, list[tuple[int, int, float]]]:
    count = draw(st.integers(3, 8))
    ratings = np.array(draw(st.lists(st.integers(800, 2800), min_size=count, max_size=count)))
    rds = np.array(draw(st.lists(st.integers(30, 350), min_size=count, max_size=count)))
    pairs = draw(
        st.lists(
            st.tuples(st.integers(0, count - 1), st.integers(0, count - 1),
                      st.sampled_from([0.0, 0.5, 1.0])).filter(lambda p: p[0] != p[1]),
            min_size=1, max_size=12,
        )
    )  # fmt: skip
    return ratings.astype(float), rds.astype(float), pairs


@settings(max_examples=150, deadline=None)
@given(periods())
def test_properties_on_random_periods(period: tuple) -> None:
    ratings, rds, pairs = period
    result = rate(ratings, rds, pairs)
    played = {p for pair in pairs for p in pair[:2]}
    for player in range(len(ratings)):
        if player not in played:
            assert result.rating[player] == ratings[player]
    # The order of games inside a period is irrelevant.
    shuffled = rate(ratings, rds, list(reversed(pairs)))
    assert np.allclose(shuffled.rating, result.rating) and np.allclose(shuffled.rd, result.rd)
    # A better result never gives a worse new rating.
    first = pairs[0]
    if first[2] < 1.0:
        better = [(first[0], first[1], first[2] + 0.5), *pairs[1:]]
        assert rate(ratings, rds, better).rating[first[0]] >= result.rating[first[0]] - 1e-9
