"""The store's bulk insert (``Store._insert``): many rows a statement, every row once, in order,
whatever the count against the rows a statement holds."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pandas as pd
import pytest

from rating_batch.store import create_store, open_store
from rating_batch.store.queries import ROWS_PER_INSERT


@pytest.mark.parametrize(
    "count",
    [1, ROWS_PER_INSERT - 1, ROWS_PER_INSERT, ROWS_PER_INSERT + 1, 2 * ROWS_PER_INSERT + 50],
)
def test_every_row_once_in_order(tmp_path: Path, count: int) -> None:
    db = tmp_path / "r.sqlite"
    with create_store(db):
        pass
    rows = pd.DataFrame(
        {
            "period": [f"20{10 + n % 20}-{1 + n % 12:02d}" for n in range(count)],
            "path": [f"standard/file-{n}.csv" for n in range(count)],
            "digest": [f"{n:064x}" for n in range(count)],
            "compressed": [n % 2 for n in range(count)],
            "size": [n * 1000 for n in range(count)],
        }
    )
    with open_store(db, write=True, command="test") as store, store.writing(backup=False):
        store._insert("published_files", rows)
    connection = sqlite3.connect(db)
    stored = connection.execute("SELECT * FROM published_files ORDER BY rowid").fetchall()
    connection.close()
    assert stored == list(rows.itertuples(index=False, name=None))
