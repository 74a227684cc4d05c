"""Glicko (Glicko-1, docs/systems.md §3): one update per player per period from every
player's state before the period, RD first grown for the periods without games."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from rating_batch.systems.games import PlayedGames
from rating_batch.systems.params import field, flag, number

#: q = ln 10 / 400.
Q = math.log(10) / 400


@dataclass(frozen=True)
class Glicko:
    """Glicko's constants (the ``[glicko]`` section of a rules file)."""

    initial_rating: float = field(1500.0, number(), "rating of an unrated player")
    initial_rd: float = field(350.0, number(0, above=True), "deviation of an unrated player")
    c: float = field(
        34.6, number(0), "RD growth per period without games (34.6: RD 50 back to 350 in 100)"
    )
    rd_max: float = field(350.0, number(0, above=True), "largest RD")
    grow_before_rating: bool = field(
        True, flag, "grow RD for the periods since the last games before rating"
    )

    def inconsistent(self) -> str:
        return "initial_rd is more than rd_max" if self.initial_rd > self.rd_max else ""


@dataclass(frozen=True)
class GlickoPeriod:
    """A period under Glicko: per player ``rd_before`` (after growth), ``rating``, ``rd``
    after it, and ``d2`` (d², NaN without games); per game row ``g`` and ``expected``."""

    rd_before: np.ndarray
    rating: np.ndarray
    rd: np.ndarray
    d2: np.ndarray
    g: np.ndarray
    expected: np.ndarray


def g_of(rd: np.ndarray) -> np.ndarray:
    return 1.0 / np.sqrt(1.0 + 3.0 * Q**2 * rd**2 / math.pi**2)


def rate_glicko(
    rating: np.ndarray,
    rd: np.ndarray,
    idle: np.ndarray,
    games: PlayedGames,
    params: Glicko,
) -> GlickoPeriod:
    """The period's update. ``idle``: per player the periods t since their last games
    (docs/systems.md §3; 1 when the list does not say)."""
    r = np.asarray(rating, np.float64)
    grown = np.asarray(rd, np.float64)
    if params.grow_before_rating:
        grown = np.minimum(np.sqrt(grown**2 + params.c**2 * np.asarray(idle)), params.rd_max)
    count = len(r)
    own, other = games.pidx, games.oidx
    g = g_of(grown[other])
    expected = 1.0 / (1.0 + 10.0 ** (-g * (r[own] - r[other]) / 400.0))
    information = np.bincount(own, weights=g**2 * expected * (1.0 - expected), minlength=count)
    improvement = np.bincount(own, weights=g * (games.score - expected), minlength=count)
    played = np.bincount(own, minlength=count) > 0
    d2 = np.full(count, np.nan)
    d2[played] = 1.0 / (Q**2 * information[played])
    new_r, new_rd = r.copy(), grown.copy()
    precision = 1.0 / grown[played] ** 2 + 1.0 / d2[played]
    new_r[played] = r[played] + Q / precision * improvement[played]
    new_rd[played] = np.sqrt(1.0 / precision)
    return GlickoPeriod(grown, new_r, new_rd, d2, g, expected)
