"""Reading a column at a time (store/columnar.py) gives the frame the row-wise read gives:
the same values, dtypes and order, whatever the columns hold."""

from __future__ import annotations

import sqlite3

import numpy as np
import pandas as pd
import pytest

from rating_batch.store.columnar import declared_kinds, read_columns

TABLE = """CREATE TABLE t (
    whole INTEGER NOT NULL, maybe INTEGER, half REAL, exact REAL, words TEXT, code TEXT
)"""

ROWS = [
    (1, 7, 0.5, 0.1, "Smith, John", "w"),
    (2, None, 1.0, 1 / 3, 'say "hi"\nthen', None),
    (-3, 12, 0.0, 2.0**-40, "Ünal, Ömer ☃", "b"),
    (2**40, 0, None, 1e300, "", "-"),
    (5, 9, -0.0, 123456789.123456789, None, "\x1f,\\"),
]


def _connection(rows: list[tuple[object, ...]]) -> sqlite3.Connection:
    connection = sqlite3.connect(":memory:")
    connection.execute(TABLE)
    connection.executemany("INSERT INTO t VALUES (?, ?, ?, ?, ?, ?)", rows)
    return connection


def _row_wise(connection: sqlite3.Connection, sql: str) -> pd.DataFrame:
    cursor = connection.execute(sql)
    names = [column[0] for column in cursor.description]
    return pd.DataFrame.from_records(cursor.fetchall(), columns=names, coerce_float=True)


@pytest.mark.parametrize(
    "rows", [ROWS, ROWS[:1], [r for r in ROWS if r[1] is not None]], ids=["nulls", "one", "full"]
)
def test_the_same_frame_as_row_by_row(rows: list[tuple[object, ...]]) -> None:
    connection = _connection(rows)
    sql = "SELECT * FROM t ORDER BY rowid"
    read = read_columns(connection, sql, (), declared_kinds(connection, "t"))
    assert read is not None
    pd.testing.assert_frame_equal(read, _row_wise(connection, sql))


def test_values_exactly() -> None:
    """Checked against the values written, not only against the other reader: REALs to the
    last bit (1/3, 2^-40, 1e300), 2^40, NULLs, commas, quotes, line breaks and non-ASCII
    (-0.0 SQLite itself keeps as 0.0)."""
    connection = _connection(ROWS)
    read = read_columns(connection, "SELECT * FROM t", (), declared_kinds(connection, "t"))
    assert read is not None
    assert read["whole"].dtype == np.int64 and read["whole"].tolist() == [1, 2, -3, 2**40, 5]
    assert read["maybe"].dtype == np.float64  # NULLs: as pandas reads them
    assert np.isnan(read["maybe"][1]) and read["maybe"][2] == 12
    assert read["exact"].tolist() == [0.1, 1 / 3, 2.0**-40, 1e300, 123456789.123456789]
    assert read["half"][4] == 0.0 and np.isnan(read["half"][3])
    assert read["words"].tolist()[:4] == ["Smith, John", 'say "hi"\nthen', "Ünal, Ömer ☃", ""]
    assert pd.isna(read["words"][4]) and read["code"][4] == "\x1f,\\"


def test_no_rows() -> None:
    connection = _connection([])
    sql = "SELECT * FROM t"
    read = read_columns(connection, sql, (), declared_kinds(connection, "t"))
    assert (
        read is not None
        and read.empty
        and list(read.columns) == list(_row_wise(connection, sql).columns)
    )


def test_a_value_of_another_type_is_left_to_the_row_wise_read() -> None:
    """SQLite keeps text in an INTEGER column when it is not a number: not parsed whole, so
    the caller reads the rows (None), never a shortened or misread column."""
    connection = _connection([*ROWS, (6, "n/a", 1.0, 1.0, "x", "w")])
    kinds = declared_kinds(connection, "t")
    assert read_columns(connection, "SELECT * FROM t", (), kinds) is None
    connection = _connection([*ROWS, (7, 1, "half", 1.0, "x", "w")])
    assert read_columns(connection, "SELECT * FROM t", (), kinds) is None


def test_parameters_and_a_join() -> None:
    connection = _connection(ROWS)
    connection.execute("CREATE TABLE u (whole INTEGER, tag TEXT)")
    connection.executemany("INSERT INTO u VALUES (?, ?)", [(1, "a"), (5, "b"), (2, "a")])
    sql = "SELECT t.* FROM t JOIN u USING (whole) WHERE u.tag = ? ORDER BY t.whole"
    read = read_columns(connection, sql, ("a",), declared_kinds(connection, "t"))
    assert read is not None and read["whole"].tolist() == [1, 2]
    expected = pd.DataFrame.from_records(
        connection.execute(sql, ("a",)).fetchall(), columns=list(read.columns), coerce_float=True
    )
    pd.testing.assert_frame_equal(read, expected)
