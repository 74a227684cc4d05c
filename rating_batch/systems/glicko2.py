"""Glicko-2 (docs/systems.md §2): one update per player per period, from every player's state
before the period, vectorised over all players (the volatility iteration included: it runs
for all players at once, the converged ones masked)."""

from __future__ import annotations

import math
from dataclasses import dataclass
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
from rating_batch.systems.games import PlayedGames
from rating_batch.systems.params import (
    FROM_ELO_RD,
    GLICKO_DEVIATIONS,
    GLICKO_RATINGS,
    Clash,
    field,
    number,
    optional,
)

#: The Glicko-2 scale: 400 / ln 10.
SCALE = 173.7178
#: At most this many steps of the volatility iteration (it converges in under 30).
MAX_STEPS = 100


@dataclass(frozen=True)
class Glicko2:
    """Glicko-2's constants (the ``[glicko2]`` section of a rules file)."""

    initial_rating: float = field(1500.0, number(*GLICKO_RATINGS), "rating of an unrated player")
    initial_rd: float = field(350.0, number(*GLICKO_DEVIATIONS), "deviation of an unrated player")
    initial_volatility: float = field(0.06, number(0.0001, 1), "volatility of an unrated player")
    tau: float = field(0.5, number(0.01, 10), "system constant τ (sensible 0.3–1.2)")
    epsilon: float = field(
        1e-6, number(0, 0.01, above=True), "convergence of the volatility iteration"
    )
    rd_max: float | None = field(None, optional(number(*GLICKO_DEVIATIONS)), "largest RD (none)")
    rd_min: float | None = field(None, optional(number(*GLICKO_DEVIATIONS)), "smallest RD (none)")
    from_elo_rd: float = field(
        FROM_ELO_RD, number(*GLICKO_DEVIATIONS), "RD of a state made from an Elo rating"
    )

    def inconsistent(self) -> list[Clash]:
        if self.rd_max is not None and self.rd_min is not None and self.rd_min > self.rd_max:
            message = (
                f"{self.rd_min:g} is more than rd_max {self.rd_max:g}: lower one or raise the other"
            )
            return [(("rd_min", "rd_max"), message)]
        return []


@dataclass(frozen=True)
class Glicko2Period:
    """A period under Glicko-2: each player's new state, and what the update was made of.

    Per player: ``rating``, ``rd``, ``volatility`` after the period, and ``v``, ``delta``
    (Δ) for those with games (NaN otherwise). Per game row: ``g`` (of the opponent's φ) and
    ``expected`` (E)."""

    rating: np.ndarray
    rd: np.ndarray
    volatility: np.ndarray
    v: np.ndarray
    delta: np.ndarray
    g: np.ndarray
    expected: np.ndarray


def g_of(phi: np.ndarray) -> np.ndarray:
    return 1.0 / np.sqrt(1.0 + 3.0 * phi**2 / math.pi**2)


def rate_glicko2(
    rating: np.ndarray,
    rd: np.ndarray,
    volatility: np.ndarray,
    games: PlayedGames,
    params: Glicko2,
) -> Glicko2Period:
    """The period's update of every player (arrays indexed by player)."""
    mu = (np.asarray(rating, np.float64) - 1500.0) / SCALE
    phi = np.asarray(rd, np.float64) / SCALE
    sigma = np.asarray(volatility, np.float64)
    count = len(mu)
    own, other = games.pidx, games.oidx
    g = g_of(phi[other])
    expected = 1.0 / (1.0 + np.exp(-g * (mu[own] - mu[other])))
    information = np.bincount(own, weights=g**2 * expected * (1.0 - expected), minlength=count)
    improvement = np.bincount(own, weights=g * (games.score - expected), minlength=count)
    played = np.bincount(own, minlength=count) > 0
    v = np.full(count, np.nan)
    v[played] = 1.0 / information[played]
    delta = v * improvement
    new_sigma = sigma.copy()
    new_sigma[played] = volatility_after(
        delta[played], phi[played], v[played], sigma[played], params.tau, params.epsilon
    )
    phi_star = np.sqrt(phi**2 + new_sigma**2)
    new_phi = phi_star.copy()  # no games: φ' = √(φ² + σ²), r and σ kept
    new_phi[played] = 1.0 / np.sqrt(1.0 / phi_star[played] ** 2 + 1.0 / v[played])
    new_mu = mu.copy()
    new_mu[played] = mu[played] + new_phi[played] ** 2 * improvement[played]
    new_rd = SCALE * new_phi
    if params.rd_max is not None:
        new_rd = np.minimum(new_rd, params.rd_max)
    if params.rd_min is not None:
        new_rd = np.maximum(new_rd, params.rd_min)
    return Glicko2Period(
        rating=SCALE * new_mu + 1500.0,
        rd=new_rd,
        volatility=new_sigma,
        v=v,
        delta=delta,
        g=g,
        expected=expected,
    )


def volatility_after(
    delta: np.ndarray,
    phi: np.ndarray,
    v: np.ndarray,
    sigma: np.ndarray,
    tau: float,
    epsilon: float,
) -> np.ndarray:
    """σ' by the paper's step 5 (the Illinois variant of regula falsi), for all players at
    once: each player's bracket [A, B] narrows until it is under ε, converged players
    masked."""
    a = np.log(sigma**2)
    delta2, phi2 = delta**2, phi**2

    def f(x: np.ndarray, rows: np.ndarray | slice = slice(None)) -> np.ndarray:
        ex = np.exp(x)
        d2, p2, vv, aa = delta2[rows], phi2[rows], v[rows], a[rows]
        value: np.ndarray = ex * (d2 - p2 - vv - ex) / (2.0 * (p2 + vv + ex) ** 2)
        value = value - (x - aa) / tau**2
        return value

    big = delta2 > phi2 + v
    low = np.empty_like(a)
    low[big] = np.log(delta2[big] - phi2[big] - v[big])
    rest = np.flatnonzero(~big)
    k = np.ones(len(rest))
    for _ in range(MAX_STEPS * 10):
        if not len(rest):
            break
        below = f(a[rest] - k * tau, rest) < 0
        if not below.any():
            break
        k[below] += 1
    low[~big] = a[~big] - k * tau
    upper, lower = a.copy(), low
    f_upper, f_lower = f(upper), f(lower)
    active = np.abs(lower - upper) > epsilon
    for _ in range(MAX_STEPS):
        if not active.any():
            break
        rows = np.flatnonzero(active)
        A, B, fA, fB = upper[rows], lower[rows], f_upper[rows], f_lower[rows]
        C = A + (A - B) * fA / (fB - fA)
        fC = f(C, rows)
        swap = fC * fB <= 0
        A = np.where(swap, B, A)
        fA = np.where(swap, fB, fA / 2.0)
        upper[rows], f_upper[rows] = A, fA
        lower[rows], f_lower[rows] = C, fC
        active[rows] = np.abs(C - A) > epsilon
    result: np.ndarray = np.exp(upper / 2.0)
    return result


class Glicko2System(SystemBase[Glicko2]):
    """Glicko-2 behind the seam (``systems.StateSystem``)."""

    constants = Glicko2
    name: ClassVar[str] = "glicko2"
    title: ClassVar[str] = "Glicko-2 (Glickman 2013/2022), one update per player per period"
    state: ClassVar[dict[str, str]] = {
        "rating": "Float64",
        "rd": "Float64",
        "volatility": "Float64",
    }
    explained: ClassVar[str] = (
        "Per game: the player's r, RD and σ before the period, the opponent's r and RD, g of "
        "the opponent's RD, the expected score E; per player v (the estimated variance from the"
        " period's games) and Δ (the estimated improvement); then the new r, RD and σ "
        "(docs/systems.md §2)."
    )
    published: ClassVar[str] = "new_rating"
    list_digits: ClassVar[dict[str, int]] = {"rating": 0, "rd": 0, "volatility": 6}
    # docs/systems.md §2; the paper shows g and v to 4 decimals, σ' to 5.
    notation: ClassVar[dict[str, tuple[str, int]]] = {
        "rating": ("r", 2), "rd": ("RD", 2), "volatility": ("σ", 6),
        "opponent_rating": ("r_j", 2), "opponent_rd": ("RD_j", 2), "g": ("g", 4),
        "expected": ("E", 4), "v": ("v", 4), "delta": ("Δ", 4),
        "new_rating": ("r′", 2), "new_rd": ("RD′", 2), "new_volatility": ("σ′", 6),
    }  # fmt: skip
    player_values: ClassVar[tuple[str, ...]] = (
        "rating", "rd", "volatility", "v", "delta", "new_rating", "new_rd", "new_volatility",
    )  # fmt: skip
    limits: ClassVar[dict[str, tuple[float, float, str]]] = {
        "rating": (*GLICKO_RATINGS, ""),
        "rd": (1e-9, GLICKO_DEVIATIONS[1], "a rating deviation is above 0"),
        "volatility": (1e-9, 10.0, "a volatility is above 0, typically near 0.06"),
    }

    def from_elo(self, elo: pd.Series) -> pd.DataFrame:
        p = self._params
        return seeded(
            elo, self.state, rating=elo, rd=p.from_elo_rd, volatility=p.initial_volatility
        )

    @property
    def from_elo_note(self) -> str:
        p = self._params
        return f"rating = Elo, RD {p.from_elo_rd:g}, volatility {p.initial_volatility:g}"

    def rate(self, period: SystemInput) -> SystemOutcome:
        p = self._params
        rating = period.initial("rating", p.initial_rating)
        rd = period.initial("rd", p.initial_rd)
        volatility = period.initial("volatility", p.initial_volatility)
        done = rate_glicko2(rating, rd, volatility, period.games, p)
        after = {"rating": done.rating, "rd": done.rd, "volatility": done.volatility}
        players = outcome_players(period, after)
        own, other = period.games.pidx, period.games.oidx
        calculations = game_rows(period).assign(
            rating=rating[own], rd=rd[own], volatility=volatility[own],
            opponent_rating=rating[other], opponent_rd=rd[other],
            g=done.g, expected=done.expected, v=done.v[own], delta=done.delta[own],
            new_rating=done.rating[own], new_rd=done.rd[own], new_volatility=done.volatility[own],
        )  # fmt: skip
        notes = [
            f"Glicko-2 (docs/systems.md §2): tau {p.tau:g}, unrated players start at "
            f"{p.initial_rating:g}/{p.initial_rd:g}/{p.initial_volatility:g}; published rating "
            "and RD rounded half away from zero, state kept unrounded"
        ]
        return SystemOutcome(players, calculations, notes)
