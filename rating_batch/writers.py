"""Writers: select, order and format; never decide a number.

Writers write to the path they are given; ``atomic_outputs`` gives temporary paths and renames
them all into place once every one is written, so no output is ever left half-written.

Text that a spreadsheet could take for a formula (starting with ``=``, ``+``, ``-``, ``@``, tab
or CR) is neutralised: quoted with ``'`` in CSV, and a quote-prefixed text cell in XLSX.
"""

from __future__ import annotations

import contextlib
import csv
import os
import tempfile
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from openpyxl import Workbook
from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE, WriteOnlyCell
from openpyxl.styles import Font
from openpyxl.utils import get_column_letter

# The stubs omit what write-only sheets really have (column_dimensions, auto_filter,
# freeze_panes: openpyxl copies them from Worksheet), so the sheets are typed loosely.
WriteOnlyWorksheet = Any

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
#: Excel's last row; a longer table is cut there with a note in the Summary.
MAX_SHEET_ROWS = 1_048_576

#: Number formats by column name (CSV text format, XLSX number format).
NUMBER_FORMATS: dict[str, tuple[str, str]] = {
    "score": ("{:g}", "0.0"),
    "expected": ("{:.2f}", "0.00"),
    "change": ("{:.2f}", "0.00"),
    "delta": ("{:.2f}", "0.00"),
}


def neutralise(text: str) -> str:
    """Prefix text a spreadsheet would evaluate with an apostrophe (CSV)."""
    return "'" + text if text.startswith(FORMULA_STARTS) else text


class OutputSet:
    """Temporary files that become the real outputs together, or not at all."""

    def __init__(self) -> None:
        self.pending: list[tuple[Path, Path]] = []

    def path(self, final: Path) -> Path:
        """A temporary path beside ``final`` to write to; renamed when the set commits."""
        final.parent.mkdir(parents=True, exist_ok=True)
        handle, name = tempfile.mkstemp(prefix=f".{final.name}.", suffix=".tmp", dir=final.parent)
        os.close(handle)
        self.pending.append((Path(name), final))
        return Path(name)


@contextlib.contextmanager
def atomic_outputs() -> Iterator[OutputSet]:
    """Write every output to a temporary file; rename them all only if all were written."""
    outputs = OutputSet()
    try:
        yield outputs
        for temporary, final in outputs.pending:
            os.replace(temporary, final)
    finally:
        for temporary, _ in outputs.pending:
            temporary.unlink(missing_ok=True)


def _csv_cell(value: object, column: str) -> str:
    if value is None or value is pd.NA or (isinstance(value, float) and np.isnan(value)):
        return ""
    if isinstance(value, bool | np.bool_):
        return "true" if value else "false"
    if isinstance(value, float | np.floating):
        text_format = NUMBER_FORMATS.get(column, ("{:g}", ""))[0]
        return text_format.format(float(value))
    if isinstance(value, str):
        return neutralise(value)
    return str(value)


def write_csv(frame: pd.DataFrame, path: Path) -> None:
    """UTF-8 with BOM (so spreadsheets detect it), comma-separated, ``\\n`` line ends."""
    columns = list(frame.columns)
    with path.open("w", encoding="utf-8-sig", newline="") as out:
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(columns)
        for row in frame.itertuples(index=False, name=None):
            writer.writerow(
                [_csv_cell(value, column) for value, column in zip(row, columns, strict=True)]
            )


@dataclass
class Sheet:
    """A table for a workbook: a frame, or key-value rows for a Summary."""

    title: str
    frame: pd.DataFrame | None = None
    rows: list[Sequence[object]] = field(default_factory=list)


def write_workbook(sheets: Sequence[Sheet], path: Path) -> None:
    """An XLSX workbook: real numbers, bold frozen header, autofilter and column widths."""
    book = Workbook(write_only=True)
    for sheet in sheets:
        worksheet = book.create_sheet(sheet.title[:31])
        if sheet.frame is not None:
            _write_table(worksheet, sheet.frame)
        else:
            _write_rows(worksheet, sheet.rows)
    book.save(path)


def _text_cell(worksheet: WriteOnlyWorksheet, value: str, bold: bool = False) -> object:
    # XML cannot hold most control characters; show them as '?' rather than fail.
    value = ILLEGAL_CHARACTERS_RE.sub("?", value)
    if not (bold or value.startswith(FORMULA_STARTS)):
        return value
    cell = WriteOnlyCell(worksheet, value=value)
    cell.data_type = "s"  # never a formula, whatever it starts with
    if value.startswith(FORMULA_STARTS):
        cell.quotePrefix = True
    if bold:
        cell.font = Font(bold=True)
    return cell


def _xlsx_value(worksheet: WriteOnlyWorksheet, value: object, number_format: str) -> object:
    if value is None or value is pd.NA or (isinstance(value, float) and np.isnan(value)):
        return None
    if isinstance(value, str):
        return _text_cell(worksheet, value)
    if isinstance(value, np.bool_ | bool):
        return bool(value)
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, np.floating | float):
        if number_format:
            cell = WriteOnlyCell(worksheet, value=float(value))
            cell.number_format = number_format
            return cell
        return float(value)
    return value


def _widths(frame: pd.DataFrame) -> list[int]:
    sample = frame.head(2000)
    widths = []
    for column in frame.columns:
        lengths = sample[column].astype("string").str.len().fillna(0)
        longest = int(lengths.max()) if len(lengths) else 0
        widths.append(min(max(longest, len(str(column))) + 2, 50))
    return widths


def _write_table(worksheet: WriteOnlyWorksheet, frame: pd.DataFrame) -> None:
    columns = [str(column) for column in frame.columns]
    for index, width in enumerate(_widths(frame), start=1):
        worksheet.column_dimensions[get_column_letter(index)].width = width
    worksheet.freeze_panes = "A2"
    last_row = min(len(frame), MAX_SHEET_ROWS - 1) + 1
    if columns:
        worksheet.auto_filter.ref = f"A1:{get_column_letter(len(columns))}{last_row}"
    worksheet.append([_text_cell(worksheet, column, bold=True) for column in columns])
    formats = [NUMBER_FORMATS.get(column, ("", ""))[1] for column in columns]
    for row in frame.head(MAX_SHEET_ROWS - 1).itertuples(index=False, name=None):
        worksheet.append(
            [_xlsx_value(worksheet, value, fmt) for value, fmt in zip(row, formats, strict=True)]
        )


def _write_rows(worksheet: WriteOnlyWorksheet, rows: list[Sequence[object]]) -> None:
    worksheet.column_dimensions["A"].width = 28
    worksheet.column_dimensions["B"].width = 70
    for row in rows:
        cells: list[object] = []
        for position, value in enumerate(row):
            if isinstance(value, str):
                cells.append(_text_cell(worksheet, value, bold=position == 0 and len(row) == 1))
            else:
                cells.append(_xlsx_value(worksheet, value, ""))
        worksheet.append(cells)
