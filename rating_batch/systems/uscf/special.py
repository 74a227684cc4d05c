"""US Chess's special formula solved exactly (docs/systems.md §9.6): for each player the R
with Σ w·PWe(R, c) = S', where PWe(R, c) = 0.5 + (R − c)/800 held to [0, 1]. The left side
is piecewise linear and non-decreasing with knots at c ± 400, so it is evaluated at every
knot and the root read off the segment where it crosses S'; where it equals S' on a whole
interval (a flat solution) the point of the interval nearest the player's R0 is taken."""

from __future__ import annotations

import numpy as np

#: Half the width of PWe's sloped part.
SPAN = 400.0
#: |f| at a knot below this (in games) is taken as zero: f is a sum of ratings/800 and half
#: points, so a true value this small moves the root by under 1e-6 points.
ZERO = 1e-9


def pwe(rating: np.ndarray, center: np.ndarray) -> np.ndarray:
    """PWe(R, Ri): 0 at R ≤ Ri − 400, 1 at R ≥ Ri + 400, 0.5 + (R − Ri)/800 between."""
    held: np.ndarray = np.clip(0.5 + (rating - center) / (2.0 * SPAN), 0.0, 1.0)
    return held


def solve_special(
    group: np.ndarray,
    center: np.ndarray,
    weight: np.ndarray,
    target: np.ndarray,
    anchor: np.ndarray,
) -> np.ndarray:
    """Per group g (0 … len(target) − 1) the R solving Σ weight·PWe(R, center) = target[g]
    over the terms of g, the solution nearest ``anchor[g]`` when they form an interval.
    Every group has at least one term of positive weight; 0 ≤ target ≤ Σ weight."""
    count = len(target)
    keep = weight > 0
    group, center, weight = group[keep], center[keep], weight[keep]
    order = np.argsort(group, kind="stable")
    group, center, weight = group[order], center[order], weight[order]
    terms = np.bincount(group, minlength=count)
    term_start = np.concatenate([[0], np.cumsum(terms)[:-1]])
    # The knots, two per term, sorted within each group.
    knot_group = np.concatenate([group, group])
    knot = np.concatenate([center - SPAN, center + SPAN])
    by = np.lexsort((knot, knot_group))
    knot_group, knot = knot_group[by], knot[by]
    knots = 2 * terms
    knot_start = np.concatenate([[0], np.cumsum(knots)[:-1]])
    # f at every knot: each knot against every term of its group.
    pairs = terms[knot_group]
    knot_of_pair = np.repeat(np.arange(len(knot)), pairs)
    first_pair = np.concatenate([[0], np.cumsum(pairs)[:-1]])
    within = np.arange(len(knot_of_pair)) - np.repeat(first_pair, pairs)
    term_of_pair = term_start[knot_group[knot_of_pair]] + within
    value = weight[term_of_pair] * pwe(knot[knot_of_pair], center[term_of_pair])
    f = np.bincount(knot_of_pair, weights=value, minlength=len(knot)) - target[knot_group]
    last = knot_start + knots - 1
    # Lower end: the first knot with f ≥ 0 (none below: S' = 0, the interval is unbounded).
    below = np.bincount(knot_group, weights=f < -ZERO, minlength=count).astype(np.int64)
    a = np.minimum(knot_start + below, last)
    p = np.maximum(a - 1, knot_start)
    low = np.where(
        np.abs(f[a]) <= ZERO,
        knot[a],
        knot[p] + (-f[p]) * (knot[a] - knot[p]) / np.where(f[a] > f[p], f[a] - f[p], 1.0),
    )
    low = np.where(below == 0, -np.inf, low)
    # Upper end: the last knot with f ≤ 0 (every knot: S' = Σ weight, unbounded above).
    upto = np.bincount(knot_group, weights=f <= ZERO, minlength=count).astype(np.int64)
    b = np.maximum(knot_start + upto - 1, knot_start)
    n = np.minimum(b + 1, last)
    high = np.where(
        np.abs(f[b]) <= ZERO,
        knot[b],
        knot[b] + (-f[b]) * (knot[n] - knot[b]) / np.where(f[n] > f[b], f[n] - f[b], 1.0),
    )
    high = np.where(upto == knots, np.inf, high)
    solved: np.ndarray = np.minimum(np.maximum(anchor, low), np.maximum(low, high))
    return solved
