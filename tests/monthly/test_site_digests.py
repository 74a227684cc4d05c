"""A page's digest is made of its rows' hashes (monthly/site_pages.py): ``_row_hashes`` hashes
every column in one call and combines them itself, so it must give what pandas'
``hash_pandas_object`` gives of the same texts (the manifests written before it stay
comparable); pandas is the reference here, not the code under test."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from rating_batch.monthly.site_pages import _row_hashes


def pandas_hashes(part: pd.DataFrame, tag: str) -> np.ndarray:
    """The rows' texts, the part's tag and each row's place among its id's rows, hashed as
    pandas hashes a frame's rows."""
    texts = part.astype(str).assign(
        part=tag, order=part.groupby("id", sort=False).cumcount().astype(str)
    )
    return pd.util.hash_pandas_object(texts, index=False).to_numpy(np.uint64)


def test_row_hashes_are_pandas_row_hashes() -> None:
    # Texts with a missing one, numbers with a missing one, whole numbers, flags; ids
    # repeated out of order (their places 0, 0, 1, 2, 1).
    part = pd.DataFrame(
        {"id": ["7", "9", "7", "7", "9"], "name": ["Ann", "Bo", None, "é", ""],
         "change": [1.5, np.nan, -3.0, 0.0, 2.0], "games": [1, 2, 3, 4, 5],
         "left": [True, False, False, True, False]}
    )  # fmt: skip
    assert (_row_hashes(part, "changes") == pandas_hashes(part, "changes")).all()
    assert not (_row_hashes(part, "changes") == _row_hashes(part, "played")).any()


def test_a_part_without_rows_has_no_hashes() -> None:
    part = pd.DataFrame({"id": pd.Series([], dtype=str), "name": pd.Series([], dtype=str)})
    assert len(_row_hashes(part, "played")) == 0


def test_row_hashes_a_column_at_a_time_are_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    # A large part is hashed a column (or a few) at a time, not all its cells in one call.
    from rating_batch.monthly import site_pages

    part = pd.DataFrame(
        {"id": ["7", "9", "7", "7", "9"], "name": ["Ann", "Bo", None, "é", ""],
         "change": [1.5, np.nan, -3.0, 0.0, 2.0], "games": [1, 2, 3, 4, 5]}
    )  # fmt: skip
    for cells in (1, 5, 12):  # a column a call, two at a time, all
        monkeypatch.setattr(site_pages, "HASHED_AT_ONCE", cells)
        assert (_row_hashes(part, "played") == pandas_hashes(part, "played")).all(), cells
