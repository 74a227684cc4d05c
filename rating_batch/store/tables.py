"""What every part of the store shares: rows inserted in large statements (``Tables._insert``)
and the values of a frame as SQLite takes them."""

from __future__ import annotations

import sqlite3
from contextlib import AbstractContextManager, nullcontext
from typing import Any

import numpy as np
import pandas as pd

from rating_batch.store.database import Connection
from rating_batch.store.journal import PARTS

#: Rows inserted by one statement (``_insert``), within SQLite's limit of bound values.
ROWS_PER_INSERT = 200
VARIABLES = sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER


class Tables(Connection):
    """An open rating database, with frames inserted in large statements."""

    def _insert(self, table: str, frame: pd.DataFrame) -> None:
        """Bulk insert (executemany) of a frame's columns into ``table``; missing values
        become NULL."""
        if frame.empty:
            return
        width, length = len(frame.columns), len(frame)
        flat: list[object] = [None] * (width * length)  # row by row
        for number, name in enumerate(frame.columns):
            flat[number::width] = sql_values(frame[name])
        columns = ", ".join(f'"{name}"' for name in frame.columns)
        row = f"({', '.join('?' * width)})"

        def statement(rows: int) -> str:
            return f"INSERT INTO {table} ({columns}) VALUES {', '.join([row] * rows)}"

        # Many rows a statement: a quarter faster than a statement a row for 10^6 games.
        per = max(1, min(ROWS_PER_INSERT, self.connection.getlimit(VARIABLES) // width))
        whole, step = length // per * per, per * width
        with self._journaled(table, frame):
            if whole:
                self.connection.executemany(
                    statement(per), (flat[at : at + step] for at in range(0, whole * width, step))
                )
            if whole < length:
                self.connection.execute(statement(length - whole), flat[whole * width :])

    def _journaled(self, table: str, frame: pd.DataFrame) -> AbstractContextManager[None]:
        """How the undo journal watches the insert: the parts of rows this command created
        (an event's games and players) without a trigger per row (``parts_of_created``)."""
        if self.recording is None or table not in PARTS:
            return nullcontext()
        column = PARTS[table][1]
        return self.recording.parts_of_created(table, frame[column].unique().tolist())


def first_row(frame: pd.DataFrame) -> dict[str, Any] | None:
    """A frame's first row as a dict (None when it has none)."""
    if frame.empty:
        return None
    return {str(name): value for name, value in frame.iloc[0].items()}


def plain_value(value: object) -> object:
    """A value sqlite3 takes: numpy scalars as Python ones, missing as None."""
    if value is None or value is pd.NA or (isinstance(value, float) and np.isnan(value)):
        return None
    if isinstance(value, np.generic):
        return value.item()
    return value


def sql_values(column: pd.Series) -> list[object]:
    """A column as Python values for sqlite3: numpy columns without missing values as they
    are (one ``tolist``), the others with None for missing."""
    if isinstance(column.dtype, np.dtype) and column.dtype.kind in "biu":
        return column.tolist()
    if isinstance(column.dtype, np.dtype) and column.dtype.kind == "f" and column.notna().all():
        return column.tolist()
    return column.astype(object).where(column.notna(), None).tolist()
