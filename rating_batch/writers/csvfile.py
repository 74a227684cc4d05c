"""CSV files: UTF-8 with a BOM (opens directly in Excel and LibreOffice), comma-separated,
one typed pass per column; formula-like text neutralised, result codes as written."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from rating_batch.writers.common import (
    CODE_COLUMNS,
    ColumnKind,
    distinct,
    float_form,
    neutralise,
)


def _csv_column(
    series: pd.Series, name: str, machine_read: bool = False, exact: bool = False
) -> tuple[np.ndarray, np.ndarray]:
    """One column as CSV fields: each row's code and the fields the codes point to (code -1,
    the last: "" for missing): true/false, the column's number format, and formula-like text
    neutralised, quoted where needed (``_csv_field``). One typed pass over the whole column,
    each distinct value formatted once. Numbers and flags never need quoting. Floats as
    ``float_form`` says (``machine_read``: every one to ``SIGNIFICANT_DIGITS``; ``exact``:
    in full)."""
    kind, codes, values = distinct(series)
    if kind == "text":
        return codes, np.append(_text_fields(list(values), name not in CODE_COLUMNS), "")
    forms: dict[ColumnKind, Callable[[Any], str]] = {
        "bool": lambda flag: "true" if flag else "false",
        "float": float_form(name, machine_read=machine_read, exact=exact),
        "int": str,
    }
    form = forms[kind]
    return codes, np.array([form(value) for value in values] + [""], dtype=object)


def _text_fields(texts: list[object], free: bool) -> np.ndarray:
    """Distinct texts as fields: ``neutralise`` (free text) and ``_csv_field``."""
    fields = [str(text) for text in texts]
    return np.array(
        [_csv_field(neutralise(text) if free else text) for text in fields], dtype=object
    )


def write_csv(
    frame: pd.DataFrame, path: Path, *, machine_read: bool = False, exact: bool = False
) -> None:
    """UTF-8 with BOM (so spreadsheets detect it), comma-separated, LF line ends, minimal
    quoting (``_csv_field``). Every distinct value of a column is formatted and quoted once
    (docs/performance.md); the rows are then made and written in blocks. ``machine_read``:
    every float to ``SIGNIFICANT_DIGITS``, declared formats aside (the other systems'
    players.csv and calculations.csv); ``exact``: in full, for a state read back as the next
    period's list (state.csv, docs/systems.md). ``float_form`` is the rule."""
    columns = [_csv_column(frame[name], str(name), machine_read, exact) for name in frame.columns]
    if len(columns) == 1:  # a row of one empty field is written "", not a blank line
        codes, fields = columns[0]
        columns = [(codes, np.where(fields == "", '""', fields))]
    with path.open("w", encoding="utf-8-sig", newline="") as out:
        out.write(",".join(_csv_field(str(name)) for name in frame.columns) + "\n")
        for start in range(0, len(frame), CSV_BLOCK):
            block = [fields[codes[start : start + CSV_BLOCK]].tolist() for codes, fields in columns]
            if block and block[0]:
                out.write("\n".join(map(",".join, zip(*block, strict=True))) + "\n")


#: Rows made into text at a time by ``write_csv`` and ``write_list_txt`` (bounds the memory
#: of a file of 10^6 rows).
CSV_BLOCK = 100_000


#: What makes a CSV field need quotes (``_csv_field``).
_QUOTED = re.compile(r'[,"\r\n]')


def _csv_field(text: str) -> str:
    """A field with minimal quoting (RFC 4180): quoted, quotes doubled, when it holds a comma,
    a quote or a line break, a lone CR included (which ``csv.writer`` leaves bare, and a
    spreadsheet would read as the end of the row)."""
    if not _QUOTED.search(text):
        return text
    return '"' + text.replace('"', '""') + '"'
