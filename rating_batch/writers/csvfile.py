"""CSV files: UTF-8 with a BOM (opens directly in Excel and LibreOffice), comma-separated,
one typed pass per column; formula-like text neutralised, result codes as written."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pandas as pd

from rating_batch.writers.common import (
    CODE_COLUMNS,
    NUMBER_FORMATS,
    ColumnKind,
    distinct,
    formatted,
    neutralise,
)


def _csv_column(series: pd.Series, name: str) -> list[str]:
    """One column as CSV fields: "" for missing, true/false, the column's number format, and
    formula-like text neutralised, quoted where needed (``_csv_field``). One typed pass per
    column, each distinct value formatted once (``formatted``)."""
    kind, codes, values = distinct(series)
    forms: dict[ColumnKind, Callable[[Any], str]] = {
        "bool": lambda flag: "true" if flag else "false",
        "float": NUMBER_FORMATS.get(name, ("{:g}", ""))[0].format,
        "int": str,
        "text": str if name in CODE_COLUMNS else neutralise,
    }
    form = forms[kind]
    return formatted(codes, values, lambda value: _csv_field(form(value)))


def write_csv(frame: pd.DataFrame, path: Path) -> None:
    """UTF-8 with BOM (so spreadsheets detect it), comma-separated, LF line ends, minimal
    quoting (``_csv_field``). Rows are written in blocks; in each, every distinct value of a
    column is formatted and quoted once (issue 6)."""
    with path.open("w", encoding="utf-8-sig", newline="") as out:
        out.write(",".join(_csv_field(str(name)) for name in frame.columns) + "\n")
        for start in range(0, len(frame), CSV_BLOCK):
            part = frame.iloc[start : start + CSV_BLOCK]
            columns = [_csv_column(part[name], str(name)) for name in part.columns]
            if len(columns) == 1:  # a row of one empty field is written "", not a blank line
                columns = [[text or '""' for text in columns[0]]]
            out.write("".join(",".join(row) + "\n" for row in zip(*columns, strict=True)))


#: Rows made into text at a time by ``write_csv`` and ``write_list_txt`` (bounds the memory
#: of a file of 10^6 rows).
CSV_BLOCK = 100_000


def _csv_field(text: str) -> str:
    """A field with minimal quoting (RFC 4180): quoted, quotes doubled, when it holds a comma,
    a quote or a line break, a lone CR included (which ``csv.writer`` leaves bare, and a
    spreadsheet would read as the end of the row)."""
    if not any(mark in text for mark in ',"\r\n'):
        return text
    return '"' + text.replace('"', '""') + '"'
