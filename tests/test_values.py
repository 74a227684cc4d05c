"""A frame's cell as a number (values.py): numbers of every kind pandas gives, and refusals."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from rating_batch.values import as_float, as_int, missing


@pytest.mark.parametrize("cell", [None, pd.NA, pd.NaT, float("nan"), np.float64("nan")])
def test_a_missing_cell_is_missing(cell: object) -> None:
    assert missing(cell)


@pytest.mark.parametrize("cell", [0, 0.0, np.int64(0), np.float32(1.5), "", "x", False])
def test_a_value_is_not_missing(cell: object) -> None:
    assert not missing(cell)


def test_numbers_of_every_kind_become_python_numbers() -> None:
    assert as_float(np.int64(1607)) == 1607.0 and type(as_float(np.int64(1))) is float
    assert as_float(np.float32(0.5)) == 0.5
    assert as_int(np.float64(1698.0)) == 1698 and type(as_int(np.int32(3))) is int
    assert as_int(7.9) == 7  # truncated, as int() does


@pytest.mark.parametrize("cell", ["1600", None, pd.NA, b"1"])
def test_a_text_or_missing_value_is_refused(cell: object) -> None:
    with pytest.raises(TypeError):
        as_float(cell)
    with pytest.raises(TypeError):
        as_int(cell)
