"""CSV files: UTF-8 with a BOM (opens directly in Excel and LibreOffice), comma-separated,
one typed pass per column; formula-like text neutralised, result codes as written. No Python
call per cell: a text column that needs no quoting is written as it is (checked on the whole
column at once), the others' distinct texts neutralised and quoted one expression a text."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from rating_batch.writers.common import (
    CODE_COLUMNS,
    FORMULA_STARTS,
    ColumnKind,
    distinct,
    float_form,
    neutralise_all,
)


def _csv_column(
    series: pd.Series, name: str, machine_read: bool = False, exact: bool = False
) -> tuple[np.ndarray | None, np.ndarray]:
    """One column as CSV fields: each row's code and the fields the codes point to (code -1,
    the last: "" for missing): true/false, the column's number format, and formula-like text
    neutralised, quoted where needed (``_csv_field``). One typed pass over the whole column,
    each distinct value formatted once. Numbers and flags never need quoting. Floats as
    ``float_form`` says (``machine_read``: every one to ``SIGNIFICANT_DIGITS``; ``exact``:
    in full). A text column none of whose texts needs a change (ids, keys, file names) is
    its own fields, one a row (codes None: ``_as_they_are``)."""
    free = name not in CODE_COLUMNS
    if isinstance(series.dtype, pd.StringDtype):
        texts = _as_they_are(series, free)
        if texts is not None:
            return None, texts
    kind, codes, values = distinct(series)
    if kind == "text":
        return codes, np.append(_text_fields(list(values), free), "")
    forms: dict[ColumnKind, Callable[[Any], str]] = {
        "bool": lambda flag: "true" if flag else "false",
        "float": float_form(name, machine_read=machine_read, exact=exact),
        "int": str,
    }
    form = forms[kind]
    return codes, np.array([form(value) for value in values] + [""], dtype=object)


#: What a text may not start with to be written as it is (``_as_they_are``): a formula's
#: first character, or an apostrophe (which may stand before one: ``neutralise``).
_CHANGED_STARTS = (*FORMULA_STARTS, "'")


def _as_they_are(series: pd.Series, free: bool) -> np.ndarray | None:
    """A text column's texts ("" for missing) when each is its own field: none needs quoting
    (no comma, quote or line break) nor, ``free``, neutralising (none starts with a formula
    sign or an apostrophe); else None. Checked on the texts joined by line breaks, a block
    at a time, so without hashing or visiting them one by one (a column of 10^6 ids: ~0.06 s
    against ~0.15 s factorised and spread back)."""
    texts = series.to_numpy(dtype=object, na_value="")
    for start in range(0, len(texts), CSV_BLOCK):
        block = texts[start : start + CSV_BLOCK]
        joined = "\n".join(block)
        if joined.count("\n") != len(block) - 1 or any(mark in joined for mark in ',"\r'):
            return None
        # A character searched for first: a pair of them takes ~30 times as long.
        if free and (
            joined.startswith(_CHANGED_STARTS)
            or any(sign in joined and "\n" + sign in joined for sign in _CHANGED_STARTS)
        ):
            return None
    return texts


def _text_fields(texts: list[str], free: bool) -> np.ndarray:
    """Distinct texts as fields: ``neutralise`` (free text) and ``_csv_field``, written out
    as one expression a text (no Python function called per text: 1.2-1.7x the two calls,
    and faster than numpy's string functions, which were measured 1.4x slower here)."""
    if free:
        texts = neutralise_all(texts)
    return np.array(
        ['"' + text.replace('"', '""') + '"' if _quoted(text) else text for text in texts],
        dtype=object,
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
            block = [
                (
                    fields[start : start + CSV_BLOCK]
                    if codes is None
                    else fields[codes[start : start + CSV_BLOCK]]
                ).tolist()
                for codes, fields in columns
            ]
            if block and block[0]:
                out.write("\n".join(map(",".join, zip(*block, strict=True))) + "\n")


#: Rows made into text at a time by ``write_csv`` and ``write_list_txt`` (bounds the memory
#: of a file of 10^6 rows).
CSV_BLOCK = 100_000


#: What makes a CSV field need quotes (``_csv_field``).
_QUOTED = re.compile(r'[,"\r\n]')
_quoted = _QUOTED.search


def _csv_field(text: str) -> str:
    """A field with minimal quoting (RFC 4180): quoted, quotes doubled, when it holds a comma,
    a quote or a line break, a lone CR included (which ``csv.writer`` leaves bare, and a
    spreadsheet would read as the end of the row)."""
    if not _QUOTED.search(text):
        return text
    return '"' + text.replace('"', '""') + '"'
