"""TrueSkill (docs/systems.md §4): the published examples, a draw with a large upset, the far
tail (V and W by the Mills ratio where Φ underflows), games in order, properties."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from rating_batch.cli import cli
from rating_batch.systems.games import PlayedGames
from rating_batch.systems.trueskill import (
    TAIL,
    TrueSkill,
    draw_factors,
    rate_trueskill,
    win_factors,
)

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
    # 60 σ-units apart: Φ underflows in float; V and W come from the Mills ratio.
    period = one_game(0.0, np.array([400.0, 0.0]), np.array([1.0, 1.0]))
    assert np.isfinite(period.mu).all() and period.mu[1] > 0.0 and period.mu[0] < 400.0


#: sublee/trueskill's far-tail tests (trueskilltest.py at commit 3ff78b26c837,
#: ``test_issue5_with_mpmath`` and ``test_issue5_with_more_extreme``: the mpmath backend, the
#: default constants): player 1 beats player 2, (μ, σ) of both after the game, and the
#: tolerance its ``almost`` gives them (precision 0: whole numbers, ±1 in the last digit;
#: −1: tens; −7: tens of millions). The second case is its issue #5, where Microsoft's
#: calculator gives N(−273.092, 2.683) and N(−75.830, 2.080).
SUBLEE_FAR_TAIL = [
    ((25.0, 25 / 3), (1000.0, 25 / 3), (415.298, 6.455), (609.702, 6.455), 1.0),
    ((-323.263, 2.965), (-48.441, 2.190), (-273.361, 2.683), (-75.683, 2.080), 1.0),
    ((25.0, 25 / 3), (1e6, 25 / 3), (400016.896, 6.455), (600008.104, 6.455), 10.0),
    ((25.0, 25 / 3), (1e12, 25 / 3), (400001600117.693, 6.455), (599998399907.307, 6.455), 1e7),
]


@pytest.mark.parametrize(("winner", "loser", "first", "second", "within"), SUBLEE_FAR_TAIL,
                         ids=["1000", "issue5", "1e6", "1e12"])  # fmt: skip
def test_the_far_tail_examples_of_sublee_trueskill(
    winner: tuple, loser: tuple, first: tuple, second: tuple, within: float
) -> None:
    period = one_game(1.0, np.array([winner[0], loser[0]]), np.array([winner[1], loser[1]]))
    for player, (mu, sigma) in enumerate((first, second)):
        assert period.mu[player] == pytest.approx(mu, abs=within)
        assert period.sigma[player] == pytest.approx(sigma, abs=max(within, 0.001))


def test_a_lopsided_upset_shrinks_sigma_as_exactly_as_it_moves_mu() -> None:
    # μ 25 beats μ 1000: t − e = −74.05, far below where Φ underflows (about −38). The
    # fallback W = 0 left σ at √(σ0² + τ²) = 8.334; the exact W is 0.99982 (V = 74.0640, by
    # the continued fraction in exact rational arithmetic), σ′ = 6.456 and μ′ = 415.375 (the
    # closed form; sublee/trueskill's test asserts its 415.298 only to a whole number).
    period = one_game(1.0, np.array([25.0, 1000.0]))
    assert period.sigma == pytest.approx([6.455644, 6.455644], abs=1e-6)
    assert period.mu == pytest.approx([415.375144, 609.624856], abs=1e-6)
    assert math.sqrt((25 / 3) ** 2 + (25 / 300) ** 2) == pytest.approx(8.334, abs=0.001)


def _reference(x: float) -> tuple[float, float]:
    """V = φ(x)/Φ(x) and W = V(V + x) from erfc, where Φ(x) is still a double."""
    v = math.exp(-x * x / 2) / math.sqrt(2 * math.pi) / (0.5 * math.erfc(-x / math.sqrt(2)))
    return v, v * (v + x)


@pytest.mark.parametrize("x", [-5.0, -6.5, -9.0, -14.0, -22.0, -30.0, -36.0])
def test_the_tail_factors_agree_with_erfc_while_phi_holds(x: float) -> None:
    v, w = win_factors(np.array([x]), 0.0)
    expected_v, expected_w = _reference(x)
    assert v[0] == pytest.approx(expected_v, rel=1e-12)
    # W = V(V + x) by erfc loses digits to V + x's cancellation (x² of them): 1e-9 still.
    assert w[0] == pytest.approx(expected_w, rel=1e-9)


@pytest.mark.parametrize("x", [-50.0, -1e3, -1e6, -1e10])
def test_beyond_phi_v_follows_the_asymptotic_expansion_and_w_tends_to_one(x: float) -> None:
    # docs/systems.md §4: V ≈ −x − 1/x + 2/x³ (the next term is −10/x⁵), so
    # W = V(V + x) ≈ 1 − 1/x² + 6/x⁴: 1 to double precision from x = −10⁸ on.
    v, w = win_factors(np.array([x]), 0.0)
    assert v[0] == pytest.approx(-x - 1 / x + 2 / x**3, rel=1e-12, abs=11 / abs(x) ** 5)
    assert w[0] == pytest.approx(1 - 1 / x**2 + 6 / x**4, rel=1e-14, abs=50 / x**6)
    assert 0 < w[0] <= 1


def test_v_and_w_are_continuous_at_the_switch_to_the_tail() -> None:
    # Either side of TAIL (x = t − e) and, for a draw, of s − e = −TAIL, both signs of t.
    gap = 1e-12
    v, w = win_factors(np.array([TAIL - gap, TAIL + gap]), 0.0)
    assert abs(v[0] - v[1]) < 1e-9 and abs(w[0] - w[1]) < 1e-9
    for e in (0.0562, 0.3, 1.2):  # the defaults' e = ε/c for two new players, and wider
        t = np.array([-TAIL + e - gap, -TAIL + e + gap])
        for sign in (1.0, -1.0):
            v, w = draw_factors(sign * t, e)
            assert abs(v[0] - v[1]) < 1e-9 and abs(w[0] - w[1]) < 1e-9, (e, sign)


def test_a_draw_far_in_the_tail_moves_both_and_shrinks_sigma() -> None:
    # A draw between μ 25 and μ 1000 moved nobody before (0/0 in the mass); far out, a draw
    # is the favourite's loss by the draw margin's other edge: V(t) = −V_win(e − t), same W.
    period = one_game(0.5, np.array([1000.0, 25.0]))
    assert period.mu[0] < 1000.0 - 380 and period.mu[1] > 25.0 + 380
    assert period.mu[0] - 1000.0 == pytest.approx(25.0 - period.mu[1])
    assert period.sigma == pytest.approx([6.4556, 6.4556], abs=1e-4)
    e, t = 0.5, np.array([80.0, -80.0])  # ρ = exp(−2es) = e⁻⁸⁰: nothing
    v, w = draw_factors(t, e)
    v_win, w_win = win_factors(np.array([2 * e - 80.0]), e)
    assert v == pytest.approx([-v_win[0], v_win[0]], rel=1e-12)
    assert w == pytest.approx([w_win[0], w_win[0]], rel=1e-12)


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


def test_a_draw_probability_of_zero_is_refused(tmp_path: Path) -> None:
    """At p = 0 the draw margin is 0 and a draw would move nobody, silently: chess has
    draws, so the rules refuse it at its line."""
    rules = tmp_path / "p0.toml"
    rules.write_text('system = "trueskill"\n[trueskill]\ndraw_probability = 0\n', encoding="utf-8")
    result = CliRunner().invoke(cli, ["rules", str(rules)])
    assert result.exit_code == 1
    assert f"{rules}:3: key 'draw_probability' must be more than 0" in result.stderr
