"""FIDE's tables and the rounding, the one place of each (docs/rules.md §2.5, §4, §5):
expected scores by rating difference, dp by percentage score, a quotient rounded half up,
hundredths rounded half away from zero. Integer hundredths throughout, so that every figure
is FIDE's to the point."""

from __future__ import annotations

from functools import cache

import numpy as np

from rating_batch.systems.elo.rules import Rules, Tables


def divide_half_up(numerator: np.ndarray, denominator: np.ndarray) -> np.ndarray:
    """numerator / denominator rounded half up, for integer arrays with denominator > 0."""
    return np.asarray((2 * numerator + denominator) // (2 * denominator), dtype=np.int64)


def hundredths_half_away(value: np.ndarray) -> np.ndarray:
    """Integer hundredths → whole points, rounded half away from zero (−2.5 → −3)."""
    return np.asarray(np.sign(value) * ((np.abs(value) + 50) // 100), dtype=np.int64)


@cache
def _table_arrays(tables: Tables) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    return (
        np.array(tables.pd_high, dtype=np.int64),
        np.array(tables.pd_low, dtype=np.int64),
        np.array(tables.dp, dtype=np.int64),
    )


@cache
def _pd_by_difference(tables: Tables) -> np.ndarray:
    """PD for every D from −last to +last (the table's last row holds beyond it): one
    lookup per game instead of two and a choice. int8: PD is at most 100 hundredths, so
    sums of it run in narrow integers."""
    high, low, _ = _table_arrays(tables)
    return np.concatenate([low[:0:-1], high]).astype(np.int8)


def expected_hundredths(diff: np.ndarray, rules: Rules) -> np.ndarray:
    """PD in hundredths for rating differences D (own − opponent, after any cap), §2.3."""
    if rules.expected == "logistic":
        value = 100.0 / (1.0 + 10.0 ** (-diff / 400.0))
        return np.asarray(np.floor(value + 0.5), dtype=np.int64)
    by_difference = _pd_by_difference(rules.tables)
    # Beyond the table, its first or last row (mode="clip").
    return np.take(by_difference, diff + len(by_difference) // 2, mode="clip")


def expected_scores(diff: np.ndarray, rules: Rules) -> tuple[np.ndarray, np.ndarray]:
    """PD for rating differences D, in hundredths (exact, to add up) and in points (each
    exactly ``hundredths / 100``, as reported)."""
    hundredths = expected_hundredths(diff, rules)
    return hundredths, hundredths / 100


def dp_for(p_hundredths: np.ndarray, rules: Rules) -> np.ndarray:
    """dp(p) from the table, p in hundredths (0 … 100)."""
    return np.asarray(_table_arrays(rules.tables)[2][np.clip(p_hundredths, 0, 100)])
