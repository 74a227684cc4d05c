"""The store's bulk insert (``Store._insert``): many rows a statement, every row once, in order,
whatever the count against the rows a statement holds."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pandas as pd
import pytest

from rating_batch.store import Store, create_store, open_store
from rating_batch.store.tables import ROWS_PER_INSERT


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
    with open_store(db, write=True, command="test") as store, store.writing():
        store._insert("published_files", rows)
    connection = sqlite3.connect(db)
    stored = connection.execute("SELECT * FROM published_files ORDER BY rowid").fetchall()
    connection.close()
    assert stored == list(rows.itertuples(index=False, name=None))


def test_a_read_aside_gives_what_the_command_reads_itself(tmp_path: Path) -> None:
    """``reading_aside``: the period's games read by a thread on a second connection while
    the command holds its write transaction (nothing written yet): the very same frame."""
    from db_helpers import database, event_file, run

    db = database(tmp_path)
    games = [(1, 1, 2, "1-0"), (2, 2, 1, "=-=")]
    assert run("add", event_file(tmp_path, "open", games), "--db", db)[0] == 0
    period = ("2026-02", "standard")
    with (
        open_store(db, write=True, command="test") as store,
        store.writing(),
        store.reading_aside(lambda other: other.period_games(*period)) as future,
    ):
        mine = store.period_games(*period)
        aside = future.result()
    assert len(mine) == 4  # two games, a row per player
    pd.testing.assert_frame_equal(aside, mine)


def test_once_the_command_has_written_a_read_aside_is_its_own(tmp_path: Path) -> None:
    """A second connection cannot see this command's uncommitted rows: after a write, the
    read is done by the command's own connection (and sees them)."""
    db = tmp_path / "r.sqlite"
    with create_store(db):
        pass
    row = pd.DataFrame(
        {"period": ["2026-02"], "path": ["standard/list.csv"], "digest": ["0" * 64],
         "compressed": [1], "size": [10]}
    )  # fmt: skip

    def count(store: Store) -> int:
        return int(store.frame("SELECT COUNT(*) AS n FROM published_files")["n"][0])

    with open_store(db, write=True, command="test") as store, store.writing():
        with store.reading_aside(count) as before:
            assert before.result() == 0
        store._insert("published_files", row)
        with store.reading_aside(count) as after:
            assert after.result() == 1
