"""XLSX workbooks: real numbers, bold frozen headers, autofilter, widths from the content,
one page wide in print; the rows of large tables written as sheet XML, block by block; the same
content always gives the same bytes."""

from __future__ import annotations

import contextlib
import html
import re
import zipfile
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from openpyxl import Workbook
from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE, WriteOnlyCell
from openpyxl.styles import Font
from openpyxl.utils import get_column_letter
from openpyxl.worksheet.properties import PageSetupProperties

from rating_batch.writers.common import (
    CODE_COLUMNS,
    FIXED_TIMESTAMP,
    FORMULA_STARTS,
    MAX_SHEET_ROWS,
    NUMBER_FORMATS,
    distinct,
    formatted,
)

# The stubs omit what write-only sheets really have (column_dimensions, auto_filter,
# freeze_panes: openpyxl copies them from Worksheet), so the sheets are typed loosely.
WriteOnlyWorksheet = Any


@dataclass
class Sheet:
    """A table for a workbook: a frame, or key-value rows for a Summary; ``writer`` lays out
    a frame differently (e.g. grouped with outline levels)."""

    title: str
    frame: pd.DataFrame | None = None
    rows: list[Sequence[object]] = field(default_factory=list)
    writer: Callable[[WriteOnlyWorksheet, pd.DataFrame], SheetRows | None] | None = None
    """Lays out ``frame``; may return its data rows (see ``_table_rows_xml``)."""


def write_workbook(sheets: Sequence[Sheet], path: Path) -> None:
    """An XLSX workbook: real numbers, bold frozen header, autofilter and column widths.

    The same content always gives the same bytes: the document dates and the zip entries'
    times are fixed (re-publishing a period reproduces its files byte for byte). A table
    longer than a sheet can hold (``MAX_SHEET_ROWS``) goes on in ``Title (2)``, ``Title (3)`` ….
    """
    book = Workbook(write_only=True)
    book.properties.created = FIXED_TIMESTAMP
    book.properties.modified = FIXED_TIMESTAMP
    fast_rows: dict[int, SheetRows] = {}
    for number, sheet in enumerate(_within_sheet_limits(sheets), start=1):
        worksheet = book.create_sheet(sheet.title[:31])
        # Printed, every sheet is one page wide (as many pages long as it needs).
        worksheet.sheet_properties.pageSetUpPr = PageSetupProperties(fitToPage=True)
        worksheet.page_setup.fitToWidth = 1
        worksheet.page_setup.fitToHeight = 0
        worksheet.page_setup.orientation = "landscape"
        if sheet.frame is not None:
            rows = (sheet.writer or _write_table)(worksheet, sheet.frame)
            if rows:
                fast_rows[number] = rows
        else:
            _write_rows(worksheet, sheet.rows)
    try:
        book.save(path)
    except BaseException:
        # openpyxl leaves each sheet's row writer open; closed later by the garbage collector,
        # it would print a traceback over the one-line message the officer gets.
        for worksheet in book.worksheets:
            with contextlib.suppress(Exception):
                worksheet._rows.close()  # type: ignore[attr-defined]
        raise
    _fix_zip_times(path, fast_rows)


def _within_sheet_limits(sheets: Sequence[Sheet]) -> Iterator[Sheet]:
    for sheet in sheets:
        frame = sheet.frame
        if frame is None or len(frame) < MAX_SHEET_ROWS:
            yield sheet
            continue
        for part, start in enumerate(range(0, len(frame), MAX_SHEET_ROWS - 1), start=1):
            suffix = "" if part == 1 else f" ({part})"
            title = sheet.title[: 31 - len(suffix)] + suffix
            rows = frame.iloc[start : start + MAX_SHEET_ROWS - 1]
            yield replace(sheet, title=title, frame=rows)


def write_chart_sheet(worksheet: WriteOnlyWorksheet, frame: pd.DataFrame) -> SheetRows:
    """A table of two columns (label, value) and a native chart of it.

    A frame whose first column is ``band`` gets a bar chart (a rating distribution); one
    whose first column is ``period`` gets a line chart (a rating history).
    """
    from openpyxl.chart import BarChart, LineChart, Reference

    rows_xml = _write_table(worksheet, frame)
    rows = len(frame)
    if not rows:
        return rows_xml
    line = frame.columns[0] == "period"
    chart = LineChart() if line else BarChart()
    chart.title = "Rating history" if line else "Rating distribution"
    chart.y_axis.title = str(frame.columns[1])
    chart.x_axis.title = str(frame.columns[0])
    chart.height, chart.width = 9, 18
    data = Reference(worksheet, min_col=2, min_row=1, max_row=rows + 1)
    labels = Reference(worksheet, min_col=1, min_row=2, max_row=rows + 1)
    chart.add_data(data, titles_from_data=True)
    chart.set_categories(labels)
    chart.legend = None
    worksheet.add_chart(chart, "D2")
    return rows_xml


def _fix_zip_times(path: Path, rows: dict[int, SheetRows] | None = None) -> None:
    """Rewrite the zip with fixed entry times and the fixed modification date, and write the
    data rows made by ``_table_rows_xml`` into their sheets, block by block."""
    with zipfile.ZipFile(path) as archive:
        entries = [(info.filename, archive.read(info)) for info in archive.infolist()]
    stamp = FIXED_TIMESTAMP.strftime("%Y-%m-%dT%H:%M:%SZ").encode()
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in entries:
            if name == "docProps/core.xml":
                data = re.sub(rb"(<dcterms:modified[^>]*>)[^<]*", rb"\g<1>" + stamp, data)
            info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            # Level 1: a third of the time of zlib's default for ~25% more bytes (the sheets
            # of a month's report hold hundreds of MB of XML).
            setattr(info, _COMPRESS_LEVEL, 1)
            sheet = re.fullmatch(r"xl/worksheets/sheet(\d+)\.xml", name)
            body = rows.get(int(sheet.group(1))) if sheet and rows else None
            huge = body is not None and len(body.frame) * len(body.frame.columns) > 10**7
            with archive.open(info, "w", force_zip64=huge) as entry:
                if body is None:
                    entry.write(data)
                    continue
                head, tail = data.split(b"</sheetData>", 1)
                entry.write(head)
                for block in body.blocks():
                    entry.write(block.encode("utf-8"))
                entry.write(b"</sheetData>" + tail)


#: Where a ZipInfo keeps its deflate level (``compress_level`` from Python 3.13).
_COMPRESS_LEVEL = (
    "compress_level" if hasattr(zipfile.ZipInfo("x"), "compress_level") else "_compresslevel"
)


def write_calculations_sheet(worksheet: WriteOnlyWorksheet, frame: pd.DataFrame) -> SheetRows:
    """FIDE-style individual calculations, grouped: ``frame`` from ``calculation_rows``
    (its ``level`` column gives each row's outline level, so a reader can fold events and
    players; level-0 rows, each player's totals, are bold)."""
    levels = frame["level"].to_numpy()
    table = frame.drop(columns=["level"])
    columns = [str(c) for c in table.columns]
    for index, width in enumerate(_widths(table), start=1):
        worksheet.column_dimensions[get_column_letter(index)].width = width
    worksheet.freeze_panes = "A2"
    worksheet.sheet_properties.outlinePr.summaryBelow = False  # totals above their details
    worksheet.append([_text_cell(worksheet, column, bold=True) for column in columns])
    return _table_rows_xml(worksheet, table, levels=levels)


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


def _write_table(worksheet: WriteOnlyWorksheet, frame: pd.DataFrame) -> SheetRows:
    """The header through openpyxl (bold, frozen, filtered, column widths); returns the data
    rows as sheet XML, made column by column (openpyxl costs ~10 µs a cell: a 10^5-row list
    would take a minute). The cell styles the rows use are registered in the workbook here."""
    columns = [str(column) for column in frame.columns]
    for index, width in enumerate(_widths(frame), start=1):
        worksheet.column_dimensions[get_column_letter(index)].width = width
    worksheet.freeze_panes = "A2"
    if columns:
        worksheet.auto_filter.ref = f"A1:{get_column_letter(len(columns))}{len(frame) + 1}"
    worksheet.append([_text_cell(worksheet, column, bold=True) for column in columns])
    return _table_rows_xml(worksheet, frame)


def _style_id(
    worksheet: WriteOnlyWorksheet,
    *,
    number_format: str = "",
    quote: bool = False,
    bold: bool = False,
) -> int:
    """Register a cell style in the workbook (as openpyxl would for a cell) and return its id."""
    cell = WriteOnlyCell(worksheet)
    if bold:
        cell.font = Font(bold=True)
    if number_format:
        cell.number_format = number_format
    if quote:
        cell.quotePrefix = True
    return int(cell.style_id)


#: Rows of a sheet made into XML at a time while the workbook is written.
ROW_BLOCK = 50_000


@dataclass(frozen=True)
class _Styles:
    """The cell styles a table's rows use, registered in the workbook before it is saved:
    number formats per column, and the quote-prefixed and bold text styles."""

    numbers: dict[str, str]
    quoted: int
    bold: int


@dataclass(frozen=True)
class SheetRows:
    """A frame's data rows as sheet XML, made block by block as the workbook is written (the
    rows of a 1.4 M-player list would be a gigabyte as one string)."""

    frame: pd.DataFrame
    levels: np.ndarray | None
    styles: _Styles

    def blocks(self) -> Iterator[str]:
        for start in range(0, len(self.frame), ROW_BLOCK):
            levels = None if self.levels is None else self.levels[start : start + ROW_BLOCK]
            part = self.frame.iloc[start : start + ROW_BLOCK]
            yield _rows_xml(part, levels, start + 2, self.styles)


def _table_rows_xml(
    worksheet: WriteOnlyWorksheet, frame: pd.DataFrame, levels: np.ndarray | None = None
) -> SheetRows:
    """Row elements for the frame's rows (from sheet row 2): numbers as numbers, booleans
    as booleans, text as inline strings (quote-prefixed when formula-like). With
    ``levels``, each row gets that outline level, and level-0 text is bold. The styles are
    registered now, in the order of the columns; the XML is made when the book is written."""
    numbers: dict[str, str] = {}
    quoted = bold = -1
    for name in frame.columns:
        dtype = frame[name].dtype
        if pd.api.types.is_bool_dtype(dtype):
            continue
        if pd.api.types.is_numeric_dtype(dtype):
            form = NUMBER_FORMATS.get(str(name), ("", ""))[1]
            numbers[str(name)] = f' s="{_style_id(worksheet, number_format=form)}"' if form else ""
        else:
            quoted = _style_id(worksheet, quote=True)
            bold = _style_id(worksheet, bold=True)
    return SheetRows(frame, levels, _Styles(numbers, quoted, bold))


def _rows_xml(frame: pd.DataFrame, levels: np.ndarray | None, first: int, styles: _Styles) -> str:
    """The ``<row>`` elements of a block of rows, the first being sheet row ``first``."""
    numbers = list(range(first, len(frame) + first))
    heading = [False] * len(frame) if levels is None else (levels == 0).tolist()
    cells: list[list[str]] = []
    for index, name in enumerate(frame.columns, start=1):
        tails = _cell_tails(frame[name], str(name), heading, styles)
        letter = get_column_letter(index)
        cells.append(
            [
                f'<c r="{letter}{r}"{tail}' if tail else ""
                for r, tail in zip(numbers, tails, strict=True)
            ]
        )
    outline = (
        [""] * len(frame)
        if levels is None
        else [f' outlineLevel="{level}"' if level else "" for level in levels.tolist()]
    )
    return "".join(
        f'<row r="{r}"{level}>{"".join(row)}</row>'
        for r, level, row in zip(numbers, outline, zip(*cells, strict=False), strict=True)
    )


def _cell_tails(series: pd.Series, name: str, heading: list[bool], styles: _Styles) -> list[str]:
    """Each cell of a column after its reference (``<c r="B7"`` + this), "" for a missing
    value: each distinct value's is made once and spread over the column (``formatted``)."""
    kind, codes, values = distinct(series)
    if kind == "bool":
        return formatted(codes, values, lambda v: f' t="b"><v>{int(v)}</v></c>')
    if kind == "float":
        style = styles.numbers[name]
        return formatted(codes, values, lambda v: f"{style}><v>{float(v)!r}</v></c>")
    if kind == "int":
        style = styles.numbers[name]
        return formatted(codes, values, lambda v: f"{style}><v>{int(v)}</v></c>")
    texts = list(values)

    free = name not in CODE_COLUMNS

    def styled(value: object, strong: bool) -> str:
        text = str(value)
        style = (
            styles.quoted
            if free and text.startswith(FORMULA_STARTS)
            else styles.bold
            if strong
            else None
        )
        return _inline_text(text, "" if style is None else f' s="{style}"')

    tails = formatted(codes, texts, lambda v: styled(v, False))
    if not any(heading):
        return tails
    strong = formatted(codes, texts, lambda v: styled(v, True))
    return [b if h else t for t, b, h in zip(tails, strong, heading, strict=True)]


def _inline_text(value: str, style: str) -> str:
    """The rest of an inline-string cell after its reference: style, escaped text (control
    characters as '?'), spaces kept where they would be lost."""
    text = html.escape(ILLEGAL_CHARACTERS_RE.sub("?", value), quote=False)
    keep = ' xml:space="preserve"' if text != text.strip() else ""
    return f' t="inlineStr"{style}><is><t{keep}>{text}</t></is></c>'


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
