"""TrueSkill for two players with draws (docs/systems.md §4): games rated one after another in
rating order; a round's games share no player, so each wave of them is one vectorised step
(``games.game_steps``)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import NormalDist
from typing import ClassVar

import numpy as np
import pandas as pd

from rating_batch.systems.base import (
    SystemBase,
    SystemInput,
    SystemOutcome,
    game_rows,
    outcome_players,
    seeded,
)
from rating_batch.systems.games import PlayedGames, game_steps
from rating_batch.systems.params import Clash, field, number, optional

_ERFC = np.frompyfunc(math.erfc, 1, 1)
#: Elo's class width: FIDE's table is the normal model of 200 points per player (a difference
#: of D scores Φ(D/(200√2))), as TrueSkill's is of β per player (Φ((μ1 − μ2)/(√2β))): an Elo
#: difference D is a μ difference D·β/200 (docs/systems.md §4, from an Elo rating).
ELO_CLASS = 200.0
#: The rules' μ0 and σ0, β, τ: any scale, TrueSkill's own (μ 25, σ 25/3) or an Elo-like one
#: (μ 2000, σ 300).
MEANS = (-10000.0, 10000.0)
SPREADS = (0.001, 1000.0)
#: A list's μ lies within this many times the rules' largest spread (σ0, β, τ or the σ of a
#: state from an Elo rating) of μ0, and its σ below as many: on TrueSkill's own scale, μ from
#: −975 to 1025 and σ up to 1000, so that an Elo rating read as μ is refused, while on an
#: Elo-like scale a state the rules made reads back (a state from an Elo rating lies within
#: 20 β of μ0: ratings up to 4000, ``ELO_CLASS``).
LIST_WIDTH = 120.0
#: Below this x (the win factor's t − e) V and W come from the Mills ratio (``mills_excess``),
#: not from φ(x)/Φ(x): Φ underflows near x = −38, and V + x cancels long before
#: (docs/systems.md §4, the far tail).
TAIL = -5.0
#: Terms of Laplace's continued fraction: from z = 5 on, 30 give every bit of a double.
FRACTION_TERMS = 40


@dataclass(frozen=True)
class TrueSkill:
    """TrueSkill's constants (the ``[trueskill]`` section of a rules file)."""

    mu: float = field(25.0, number(*MEANS), "μ of an unrated player")
    sigma: float = field(25.0 / 3.0, number(*SPREADS), "σ of an unrated player")
    beta: float | None = field(None, optional(number(*SPREADS)),
                               "performance spread β (default σ0/2)")  # fmt: skip
    tau: float | None = field(None, optional(number(0, SPREADS[1])),
                              "dynamics τ added before each game (default σ0/100)")  # fmt: skip
    draw_probability: float = field(
        0.10,
        number(0, 1, above=True),
        "probability of a draw between equal players (0 < p < 1: at 0 a draw would move nobody)",
    )
    display_scale: float = field(
        1.0, number(0, 1000, above=True), "published = scale · (μ − 3σ) + offset"
    )
    display_offset: float = field(
        0.0, number(-10000, 10000), "published = scale · (μ − 3σ) + offset"
    )
    from_elo_anchor: float = field(
        1500.0, number(0, 4000), "the Elo rating whose state is μ0 (from an Elo rating)"
    )
    from_elo_sigma: float | None = field(
        None, optional(number(*SPREADS)), "σ of a state made from an Elo rating (default β/4)"
    )

    def inconsistent(self) -> list[Clash]:
        if self.draw_probability >= 1:  # a draw every game: no game could be won
            return [(("draw_probability",), f"must be less than 1 (got {self.draw_probability:g})")]
        return []

    @property
    def spread(self) -> float:
        return self.beta if self.beta is not None else self.sigma / 2.0

    @property
    def dynamics(self) -> float:
        return self.tau if self.tau is not None else self.sigma / 100.0

    @property
    def widest(self) -> float:
        """The largest spread these constants give a state."""
        return max(self.sigma, self.spread, self.dynamics, self.elo_sigma)

    @property
    def elo_sigma(self) -> float:
        """σ of a state made from an Elo rating: 50 Elo points (``ELO_CLASS``) on β's scale."""
        return self.from_elo_sigma if self.from_elo_sigma is not None else self.spread / 4.0

    @property
    def draw_margin(self) -> float:
        """ε = √2 β Φ⁻¹((p + 1)/2)."""
        return math.sqrt(2.0) * self.spread * NormalDist().inv_cdf((self.draw_probability + 1) / 2)


def pdf(x: np.ndarray) -> np.ndarray:
    return np.exp(-(x**2) / 2.0) / math.sqrt(2.0 * math.pi)


def cdf(x: np.ndarray) -> np.ndarray:
    """Φ by erfc, accurate far into the lower tail."""
    tails = np.asarray(_ERFC(-np.asarray(x, np.float64) / math.sqrt(2.0)), dtype=np.float64)
    return 0.5 * tails


def mills_excess(z: np.ndarray) -> np.ndarray:
    """K(z) = 1/R(z) − z for z ≥ −``TAIL``, R(z) = Φ(−z)/φ(z) the Mills ratio, by Laplace's
    continued fraction R(z) = 1/(z + 1/(z + 2/(z + 3/(z + …)))) taken from its last term
    back: V = φ(x)/Φ(x) = z + K and V + x = K at x = −z, neither cancelling nor
    underflowing however far the tail."""
    excess = np.zeros_like(z)
    for n in range(FRACTION_TERMS, 0, -1):
        excess = n / (z + excess)
    return excess


def win_factors(t: np.ndarray, e: float | np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """V and W of a decisive game (t: the winner's lead in c units): V = φ(x)/Φ(x) and
    W = V(V + x) at x = t − e, by the Mills ratio below ``TAIL`` (an upset far beyond what
    Φ can hold still shrinks σ: W tends to 1, not 0)."""
    x = np.asarray(t - e, np.float64)
    far = x < TAIL
    near = np.where(far, 0.0, x)
    v_near = pdf(near) / cdf(near)
    excess = mills_excess(np.where(far, -x, -TAIL))
    v = np.where(far, excess - x, v_near)
    return v, np.where(far, v * excess, v_near * (v_near + near))


def draw_factors(t: np.ndarray, e: float | np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """V and W of a draw (t: player 1's lead over player 2 in c units), from the side where
    Φ is small: V(−t) = −V(t), W(−t) = W(t), so with s = |t| the probability mass is
    Φ(e − s) − Φ(−e − s) (two numbers near 1 would cancel, for a draw with a large upset).
    Far in the tail (s − e beyond −``TAIL``) the mass is φ(s − e)(R(s − e) − ρR(s + e)),
    ρ = exp(−2es), R the Mills ratio: V = (ρ − 1)/(R(s − e) − ρR(s + e)) and
    W = V² + (ρ(s + e) − (s − e))/(R(s − e) − ρR(s + e)), φ(s − e) cancelled."""
    t = np.asarray(t, np.float64)
    s = np.abs(t)
    tiny = np.finfo(np.float64).tiny
    far = s - e > -TAIL
    near = np.where(far, 0.0, s)
    mass = cdf(e - near) - cdf(-e - near)
    mass = np.where(mass > 0, mass, tiny)  # draw_probability 0: a draw has no mass
    v_near = (pdf(-e - near) - pdf(e - near)) / mass
    w_near = v_near**2 + ((e - near) * pdf(e - near) + (e + near) * pdf(e + near)) / mass
    low, high = np.where(far, s - e, -TAIL), np.where(far, s + e, -TAIL)
    rho = np.exp(-2.0 * e * np.where(far, s, 0.0))
    ratio = 1.0 / (low + mills_excess(low)) - rho / (high + mills_excess(high))
    ratio = np.where(ratio > 0, ratio, tiny)
    v_far = np.expm1(-2.0 * e * np.where(far, s, 0.0)) / ratio
    w_far = v_far**2 + (rho * high - low) / ratio
    v = np.where(far, v_far, v_near)
    return np.where(t < 0, -v, v), np.where(far, w_far, w_near)


@dataclass(frozen=True)
class TrueSkillPeriod:
    """Per player ``mu`` and ``sigma`` after the period; per game row (``PlayedGames`` order)
    the player's μ and σ before and after that game."""

    mu: np.ndarray
    sigma: np.ndarray
    mu_before: np.ndarray
    sigma_before: np.ndarray
    mu_after: np.ndarray
    sigma_after: np.ndarray


def rate_trueskill(
    mu: np.ndarray, sigma: np.ndarray, games: PlayedGames, params: TrueSkill
) -> TrueSkillPeriod:
    """Every game in rating order (event, round, board), a wave of rounds at a time."""
    mu = np.asarray(mu, np.float64).copy()
    var = np.asarray(sigma, np.float64) ** 2
    n = len(games)
    mu_before, sigma_before = np.empty(n), np.empty(n)
    mu_after, sigma_after = np.empty(n), np.empty(n)
    beta2, tau2, epsilon = params.spread**2, params.dynamics**2, params.draw_margin
    for rows, other_rows in game_steps(games):
        p1, p2, s = games.pidx[rows], games.oidx[rows], games.score[rows]
        var1, var2 = var[p1] + tau2, var[p2] + tau2
        c = np.sqrt(2.0 * beta2 + var1 + var2)
        decisive = s != 0.5
        winner_lead = np.where(s >= 0.5, mu[p1] - mu[p2], mu[p2] - mu[p1]) / c
        v_win, w_win = win_factors(winner_lead, epsilon / c)
        v_draw, w_draw = draw_factors((mu[p1] - mu[p2]) / c, epsilon / c)
        # Player 1's gain in μ per unit of σ²/c, and the shrink of both variances.
        gain = np.where(decisive, np.where(s > 0.5, v_win, -v_win), v_draw)
        shrink = np.where(decisive, w_win, w_draw)
        mu_before[rows], mu_before[other_rows] = mu[p1], mu[p2]
        sigma_before[rows], sigma_before[other_rows] = np.sqrt(var[p1]), np.sqrt(var[p2])
        mu[p1] = mu[p1] + var1 / c * gain
        mu[p2] = mu[p2] - var2 / c * gain
        var[p1] = var1 * (1.0 - var1 / c**2 * shrink)
        var[p2] = var2 * (1.0 - var2 / c**2 * shrink)
        mu_after[rows], mu_after[other_rows] = mu[p1], mu[p2]
        sigma_after[rows], sigma_after[other_rows] = np.sqrt(var[p1]), np.sqrt(var[p2])
    return TrueSkillPeriod(mu, np.sqrt(var), mu_before, sigma_before, mu_after, sigma_after)


class TrueSkillSystem(SystemBase[TrueSkill]):
    """TrueSkill behind the seam (``systems.StateSystem``)."""

    constants = TrueSkill
    name: ClassVar[str] = "trueskill"
    title: ClassVar[str] = "TrueSkill (Herbrich, Minka, Graepel 2006), games in order"
    state: ClassVar[dict[str, str]] = {"mu": "Float64", "sigma": "Float64"}
    explained: ClassVar[str] = (
        "Per game, in the order rated: μ and σ before and after it (docs/systems.md §4)."
    )
    published: ClassVar[str] = "conservative"
    list_digits: ClassVar[dict[str, int]] = {"rating": 2, "mu": 3, "sigma": 3}
    notation: ClassVar[dict[str, tuple[str, int]]] = {
        "mu": ("μ", 3), "sigma": ("σ", 3), "new_mu": ("μ′", 3), "new_sigma": ("σ′", 3),
        "conservative": ("rating", 2), "mu_before": ("μ before", 3),
        "sigma_before": ("σ before", 3), "mu_after": ("μ after", 3),
        "sigma_after": ("σ after", 3),
    }  # fmt: skip

    @property
    def bounds(self) -> dict[str, tuple[float, float, str]]:
        # The rules' scale, not TrueSkill's own: a database on an Elo-like scale reads the
        # states it exported (docs/formats.md §11).
        p = self._params
        width = LIST_WIDTH * p.widest
        return {
            "mu": (p.mu - width, p.mu + width, f"μ is near {p.mu:g} on these rules' scale (an "
                   "Elo rating? init --from-elo converts one)"),
            "sigma": (1e-9, width, f"σ is above 0, {p.sigma:g} for a new player"),
        }  # fmt: skip

    def from_elo(self, elo: pd.Series) -> pd.DataFrame:
        p = self._params
        mu = p.mu + (elo.astype("Float64") - p.from_elo_anchor) * p.spread / ELO_CLASS
        return seeded(elo, self.state, mu=mu, sigma=p.elo_sigma)

    @property
    def from_elo_note(self) -> str:
        p = self._params
        return (
            f"μ = {p.mu:g} + (Elo − {p.from_elo_anchor:g}) × β {p.spread:g} / {ELO_CLASS:g}, "
            f"σ {p.elo_sigma:g}"
        )

    def rate(self, period: SystemInput) -> SystemOutcome:
        p = self._params
        mu, sigma = period.initial("mu", p.mu), period.initial("sigma", p.sigma)
        done = rate_trueskill(mu, sigma, period.games, p)
        # docs/reports.md §8: conservative = new_mu − 3·new_sigma, on the rules' display scale.
        shown = p.display_scale * (done.mu - 3.0 * done.sigma) + p.display_offset
        after = {"mu": done.mu, "sigma": done.sigma}
        players = outcome_players(period, after, {"conservative": shown})
        calculations = game_rows(period).assign(
            mu_before=done.mu_before, sigma_before=done.sigma_before,
            mu_after=done.mu_after, sigma_after=done.sigma_after,
        )  # fmt: skip
        notes = [
            f"TrueSkill (docs/systems.md §4): beta {p.spread:g}, tau {p.dynamics:g}, draw "
            f"probability {p.draw_probability:g}; published {p.display_scale:g} · (μ − 3σ) + "
            f"{p.display_offset:g}; games in order of event, round and board"
        ]
        return SystemOutcome(players, calculations, notes)
