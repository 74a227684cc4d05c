"""A frame's cell as a number: pandas gives cells as ``object`` (a Python or numpy int or
float, ``pd.NA``, a text), and the writers that format them need an ``int`` or a ``float``.
These narrow the type once, here, instead of silencing the type checker at every format;
``missing`` is the one test of an empty cell."""

from __future__ import annotations

from typing import SupportsFloat, SupportsInt

import numpy as np
import pandas as pd


def missing(value: object) -> bool:
    """Whether a cell holds no value: None, ``pd.NA``, ``pd.NaT`` or a NaN."""
    if value is None or value is pd.NA or value is pd.NaT:
        return True
    return isinstance(value, float | np.floating) and bool(value != value)


def as_float(value: object) -> float:
    """A number cell as a float; TypeError for a missing value or a text (callers test for
    those first)."""
    if isinstance(value, SupportsFloat):
        return float(value)
    raise TypeError(f"not a number: {value!r}")


def as_int(value: object) -> int:
    """A number cell as an int (a float cell truncated, as ``int()`` does)."""
    if isinstance(value, SupportsInt):
        return int(value)
    raise TypeError(f"not a number: {value!r}")


def differs(now: pd.Series, before: pd.Series) -> np.ndarray:
    """Row by row, whether a value changed (missing before and after is no change)."""
    same = (now == before) | (now.isna() & before.isna())
    changed: np.ndarray = ~same.fillna(False).to_numpy(bool)
    return changed


def text_of(value: object) -> str:
    """A stored value as text: "" when missing, a whole float without its ".0"."""
    if value is None or value is pd.NA or (isinstance(value, float) and np.isnan(value)):
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def number(value: object) -> str:
    """A whole number for a report, or "" when missing."""
    return "" if missing(value) else str(as_int(value))


__all__ = ["as_float", "as_int", "differs", "missing", "number", "text_of"]
