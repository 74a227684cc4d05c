"""First ratings (docs/rules.md §4) and the performance Rp (§5): the rules' formula on a
player's pooled games, every step kept for the reports."""

from __future__ import annotations

import numpy as np

from rating_batch.systems.elo.rules import Rules
from rating_batch.systems.elo.tables import divide_half_up, dp_for


def first_ratings(
    n: np.ndarray, half_points: np.ndarray, opponent_sum: np.ndarray, rules: Rules
) -> np.ndarray:
    """The first-rating formula on n games against rated opponents (0 where n = 0).

    ``hypothetical``: Ra = (ΣRo + h·Rh)/(n + h), p = (W + h·s)/(n + h) to 2 decimals (.005 up),
    Ru = Ra + dp(p) rounded half up. ``half_point_step``: Ra = ΣRo/n (rounded half up when
    ``first_round_average``), Ru = Ra + step × (2W − n) if W > n/2, else Ra + dp(W/n). Capped
    at ``first_rating_max``.
    """
    return first_rating_parts(n, half_points, opponent_sum, rules)["first_rating"]


def first_rating_parts(
    n: np.ndarray, half_points: np.ndarray, opponent_sum: np.ndarray, rules: Rules
) -> dict[str, np.ndarray]:
    """Every step of ``first_ratings``, as arrays (what a report shows to explain it):
    ``games`` and ``total`` (opponents' ratings, hypothetical ones included), ``points``
    (half points, likewise), ``p`` (hundredths), ``dp``, ``above`` (2W − n, for the
    half-point-step formula), ``uncapped`` and ``first_rating`` (0 where n = 0)."""
    n = n.astype(np.int64)
    safe_n = np.maximum(n, 1)
    zero = np.zeros_like(n)
    if rules.first_formula == "hypothetical":
        extra = rules.hypothetical_opponents
        games = safe_n + extra
        total = opponent_sum + extra * rules.hypothetical_rating
        points = half_points + extra * rules.hypothetical_half_points
        p = divide_half_up(100 * points, 2 * games)
        dp = dp_for(p, rules)
        value = divide_half_up(total + dp * games, games)
        above = zero
    else:
        step_halves = round(rules.first_step * 2)  # 12.5 → 25, exact
        games, total, points = safe_n, opponent_sum, half_points
        above = half_points - n  # = 2W − n
        p = divide_half_up(100 * half_points, 2 * safe_n)
        dp = dp_for(p, rules)
        if rules.first_round_average:
            average = divide_half_up(opponent_sum, safe_n)
            stepped = divide_half_up(2 * average + step_halves * above, np.full_like(n, 2))
            plain = average + dp
        else:
            stepped = divide_half_up(2 * opponent_sum + step_halves * above * safe_n, 2 * safe_n)
            plain = divide_half_up(opponent_sum + dp * safe_n, safe_n)
        value = np.where(above > 0, stepped, plain)
    uncapped = value
    if rules.first_rating_max is not None:
        value = np.minimum(value, rules.first_rating_max)
    return {
        "games": np.asarray(games),
        "total": np.asarray(total),
        "points": np.asarray(points),
        "p": np.asarray(p),
        "dp": np.asarray(dp),
        "above": np.asarray(above),
        "uncapped": np.where(n > 0, uncapped, 0),
        "first_rating": np.where(n > 0, value, 0),
    }


def performance(
    n: np.ndarray, half_points: np.ndarray, opponent_sum: np.ndarray, rules: Rules
) -> np.ndarray:
    """Rp = Ra + dp(p), Ra rounded half up, p = W/n to 2 decimals with .005 up (§5)."""
    safe_n = np.maximum(n, 1)
    average = divide_half_up(opponent_sum, safe_n)
    p = divide_half_up(100 * half_points, 2 * safe_n)
    return np.where(n > 0, average + dp_for(p, rules), 0)
