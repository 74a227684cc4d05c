"""Large results read a column at a time: SQLite joins each column's values into one text, and
numpy or json parse it whole.

``sqlite3`` makes a Python tuple per row and an object per value, and pandas then converts
them back into columns: for the games of a month of 10^6 player-games that is two seconds,
against a tenth of one for SQLite to find the rows. Here one aggregate query over the same
rows gives, per column,

* INTEGER: the values comma-separated (NULL as ``nan``), parsed by ``numpy.fromstring``;
* REAL: ``quote(value)``, the digits that read back as the very same double;
* TEXT (and anything else): a JSON array (``json_group_array``), parsed by ``json.loads``.

The frame is the one ``Connection.frame`` gives for the same rows (the same dtypes: integers
as int64, or float64 when some are NULL; texts as strings), in the same order. A text that
does not parse whole (a value of another type in a column) is read the row-wise way instead,
so the result never depends on the path taken.
"""

from __future__ import annotations

import json
import sqlite3
import warnings
from collections.abc import Mapping
from typing import Literal

import numpy as np
import pandas as pd

Declared = Literal["int", "real", "text"]

_AGGREGATES: dict[Declared, str] = {
    "int": "group_concat(ifnull({0}, 'nan'), ',')",
    "real": "group_concat(CASE WHEN {0} IS NULL THEN 'nan' ELSE quote({0}) END, ',')",
    "text": "json_group_array({0})",
}


def declared_kinds(connection: sqlite3.Connection, table: str) -> dict[str, Declared]:
    """Each column of ``table`` by its declared type."""
    kinds: dict[str, Declared] = {}
    for _, name, declared, *_ in connection.execute(f'PRAGMA table_info("{table}")'):
        upper = str(declared).upper()
        kinds[name] = "int" if "INT" in upper else "real" if "REAL" in upper else "text"
    return kinds


class _Unparsed(ValueError):
    """A column's text did not parse whole."""


def read_columns(
    connection: sqlite3.Connection,
    sql: str,
    parameters: tuple[object, ...],
    kinds: Mapping[str, Declared],
) -> pd.DataFrame | None:
    """The rows of ``sql`` (whose columns are ``kinds``, in order) as a frame, or None when a
    column did not parse whole (the caller reads the rows instead)."""
    names = list(kinds)
    inner = ", ".join(f'"{name}"' for name in names)
    aggregates = ", ".join(
        _AGGREGATES[kind].format(f"c{number}") for number, kind in enumerate(kinds.values())
    )
    aliases = ", ".join(f"c{number}" for number in range(len(names)))
    row = connection.execute(
        f"WITH q ({aliases}) AS (SELECT {inner} FROM ({sql})) SELECT count(*), {aggregates} FROM q",
        parameters,
    ).fetchone()
    count, texts = int(row[0]), row[1:]
    try:
        columns = {
            name: _parsed(text, kind, count)
            for name, kind, text in zip(names, kinds.values(), texts, strict=True)
        }
    except _Unparsed:
        return None
    return pd.DataFrame(columns, columns=names) if count else pd.DataFrame(columns=names)


def _parsed(text: str | None, kind: Declared, count: int) -> object:
    if count == 0:
        return []
    if text is None:
        raise _Unparsed
    if kind == "text":
        values = json.loads(text)
        if len(values) != count:
            raise _Unparsed
        return values
    missing = "nan" in text
    dtype = np.float64 if kind == "real" or missing else np.int64
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # a partial parse: checked below
        try:
            parsed = np.fromstring(text, dtype=dtype, sep=",")
        except ValueError:
            raise _Unparsed from None
    if len(parsed) != count:
        raise _Unparsed
    return parsed
