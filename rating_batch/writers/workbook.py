"""XLSX workbooks: real numbers, bold frozen headers, autofilter, widths from the content,
one page wide in print; the rows of large tables written as sheet XML (``sheet_rows``), block
by block; the same content always gives the same bytes."""

from __future__ import annotations

import contextlib
import math
import re
import textwrap
import zipfile
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from rating_batch.systems.base import ReportTable
from rating_batch.systems.elo.rules import KINDS
from rating_batch.values import missing
from rating_batch.writers.common import (
    FIXED_TIMESTAMP,
    FORMULA_STARTS,
    ILLEGAL_CHARACTERS_RE,
    MAX_SHEET_ROWS,
    stored_float,
)
from rating_batch.writers.sheet_rows import (
    LINE_HEIGHT,
    SheetRows,
    aligned,
    bold_font,
    style_id,
    table_rows_xml,
    wrapped_lines,
)
from rating_batch.writers.summary_rows import SummaryRows, summary_rows

# The stubs omit what write-only sheets really have (column_dimensions, auto_filter,
# freeze_panes: openpyxl copies them from Worksheet), so the sheets are typed loosely.
WriteOnlyWorksheet = Any

# openpyxl is imported in the functions that write a workbook, not with this module: most
# commands write none, and it is ~55 ms of a process's start-up (issue 42).


@dataclass
class Sheet:
    """A table for a workbook: a frame, or key-value rows for a Summary; ``writer`` lays out
    a frame differently (e.g. grouped with outline levels)."""

    title: str
    frame: pd.DataFrame | None = None
    rows: list[Sequence[object]] = field(default_factory=list)
    writer: Callable[[WriteOnlyWorksheet, Sheet], SheetRows | None] | None = None
    """Lays out ``frame``; may return its data rows (see ``table_rows_xml``)."""
    heading: Sequence[str] = ()
    """Lines above the table (what it is, for whom, which period); the first is also printed
    at the top of every page."""
    labels: Mapping[str, str] = field(default_factory=dict)
    """Headings to show for some columns (FIDE's notation beside the name: ``rating (Ro)``)."""
    formats: Mapping[str, str] = field(default_factory=dict)
    """Number formats of some columns, in place of ``NUMBER_FORMATS``' (a system's own
    quantities: docs/systems.md)."""
    keys: int = 0
    """The leading columns that say whose a row is (id and name): they stay in view as the
    sheet scrolls and are printed on every page across."""
    widths: Mapping[str, int] = field(default_factory=dict)
    """Widths (characters) for some columns, instead of their longest value's."""

    def header_row(self) -> int:
        """The sheet row of the table's header (after the heading lines and a blank row)."""
        return len(self.heading) + 2 if self.heading else 1


#: Print the sheets at least this large: columns wider than a landscape A4 page holds at this
#: scale go on to a second page instead of shrinking below a readable size (about 8 pt).
MIN_PRINT_SCALE = 0.75
#: Character widths a landscape A4 page holds at 100 %.
PAGE_CHARACTERS = 150


def write_workbook(sheets: Sequence[Sheet], path: Path) -> None:
    """An XLSX workbook: real numbers, bold frozen header, autofilter and column widths.

    The same content always gives the same bytes: the document dates and the zip entries'
    times are fixed (re-publishing a period reproduces its files byte for byte). A table
    longer than a sheet can hold (``MAX_SHEET_ROWS``) goes on in ``Title (2)``, ``Title (3)`` ….
    """
    from openpyxl import Workbook

    book = Workbook(write_only=True)
    book.properties.created = FIXED_TIMESTAMP
    book.properties.modified = FIXED_TIMESTAMP
    fast_rows: dict[int, SheetRows | SummaryRows] = {}
    for number, sheet in enumerate(_within_sheet_limits(sheets), start=1):
        worksheet = book.create_sheet(sheet.title[:31])
        if sheet.frame is not None:
            rows = (sheet.writer or _write_table)(worksheet, sheet)
            if rows:
                fast_rows[number] = rows
        else:
            summary = _write_rows(worksheet, sheet.rows)
            if summary:
                fast_rows[number] = summary
        _page_setup(worksheet, sheet)
    try:
        book.save(path)
    except BaseException:
        # openpyxl leaves each sheet's row writer open; closed later by the garbage collector,
        # it would print a traceback over the one-line message the officer gets.
        for worksheet in book.worksheets:
            with contextlib.suppress(Exception):
                worksheet._rows.close()  # type: ignore[attr-defined]  # openpyxl's private writer
        raise
    _fix_zip_times(path, fast_rows)


def _fit_to_pages(worksheet: WriteOnlyWorksheet, keys: int = 0) -> None:
    """Printed as many pages wide as the columns need at a readable scale (one for most
    sheets), the ``keys`` columns on each of them, a row's pages one after the other. Set
    once the column widths are, before the first row: a write-only sheet writes its
    properties with its first row."""
    from openpyxl.worksheet.properties import PageSetupProperties

    widths = [d.width or 10 for d in worksheet.column_dimensions.values()]
    page = PAGE_CHARACTERS / MIN_PRINT_SCALE
    repeated = min(sum(widths[:keys]), page / 2)
    pages = max(1, math.ceil((sum(widths) - repeated) / (page - repeated)))
    worksheet.sheet_properties.pageSetUpPr = PageSetupProperties(fitToPage=True)
    # A row's continuation on the next sheet of paper, not after all the rows' first parts.
    worksheet.page_setup.pageOrder = "overThenDown"
    worksheet.page_setup.fitToWidth = pages
    worksheet.page_setup.fitToHeight = 0


def _page_setup(worksheet: WriteOnlyWorksheet, sheet: Sheet) -> None:
    """Printed: landscape A4, the header row on every page, the sheet's heading at the top
    and the page number at the bottom."""
    from openpyxl.utils import get_column_letter

    worksheet.page_setup.orientation = "landscape"
    worksheet.page_setup.paperSize = "9"  # A4
    if sheet.frame is not None:
        row = sheet.header_row()
        worksheet.print_title_rows = f"{row}:{row}"
    keys = sheet.keys if sheet.frame is not None else 1  # a Summary's keys
    if keys:
        worksheet.print_title_cols = f"A:{get_column_letter(keys)}"
    first = sheet.rows[0] if sheet.rows else ()
    title = (
        sheet.heading[0]
        if sheet.heading
        else str(first[0])
        if len(first) == 1 and isinstance(first[0], str)
        else sheet.title
    )
    worksheet.oddHeader.left.text = title.replace("&", "&&")
    worksheet.oddFooter.center.text = "Page &P of &N"
    if (worksheet.page_setup.fitToWidth or 1) > 1:
        # Printed on pages side by side, the heading above the table would be cut at the
        # repeated columns' edge on all but the first: each page's header says it whole.
        if sheet.frame is not None:
            top, rows, columns = sheet.header_row(), len(sheet.frame), len(sheet.frame.columns)
        else:
            folded = [line for row in sheet.rows for line in _folded(row)]
            top, rows, columns = 2, len(folded) - 2, max(map(len, folded), default=1)
        last = get_column_letter(max(columns, 1))
        worksheet.print_area = f"A{top}:{last}{top + max(rows, 0)}"


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


#: FIDE's notation beside the column names, as the sheets head them (the CSV files keep the
#: names alone: they are read by programs).
PLAYER_LABELS = {
    "rating": "rating (Ro)", "k": "k (K)", "games": "games (n)", "score": "score (W)",
    "expected": "expected (We)", "change": "change (K·ΣΔR)", "new_rating": "new_rating (Rn)",
    "avg_opponent": "avg_opponent (Rc)", "performance": "performance (Rp)",
}  # fmt: skip
GAME_LABELS = {
    "rating": "rating (Ro)", "opponent_rating": "opponent_rating (Ri)", "diff": "diff (D)",
    "expected": "expected (PD)", "delta": "delta (ΔR)",
}  # fmt: skip
CALCULATION_LABELS = {
    **GAME_LABELS, "k": "k (K)", "k_delta": "k_delta (K·ΔR)", "games": "games (n)",
    "ra_rated": "ra_rated (Ra, rated only)", "ra": "ra (Ra)", "first_rating": "first_rating (Ru)",
    "new_rating": "new_rating (Rn)",
}  # fmt: skip

#: Chart titles by the table's first column: a rating history (a line), a rating distribution
#: or the period's rating changes (bars).
CHART_TITLES = {
    "period": "Rating after each period",
    "band": "Ratings on the list after the period",
    "change": "Rating changes in the period",
}


def write_chart_sheet(worksheet: WriteOnlyWorksheet, sheet: Sheet) -> SheetRows:
    """A table of two columns (label, value) and a native chart of it: a rating history
    (first column ``period``) as straight lines with a marker on every list, so one list
    still shows as a point and nothing is drawn between lists that was not there; a
    distribution (``band``, ``change``) as bars."""
    from openpyxl.chart import BarChart, LineChart, Reference

    frame = sheet.frame
    assert frame is not None
    rows_xml = _write_table(worksheet, sheet)
    rows = len(frame)
    if not rows:
        return rows_xml
    kind = str(frame.columns[0])
    line = kind == "period"
    chart = LineChart() if line else BarChart()
    chart.title = CHART_TITLES.get(kind, "")
    chart.y_axis.title = str(frame.columns[1])
    chart.x_axis.title = {"period": "list", "band": "rating", "change": "rating change"}.get(
        kind, kind
    )
    chart.height, chart.width = 9, 18
    header = sheet.header_row()
    data = Reference(worksheet, min_col=2, min_row=header, max_row=header + rows)
    labels = Reference(worksheet, min_col=1, min_row=header + 1, max_row=header + rows)
    chart.add_data(data, titles_from_data=True)
    chart.set_categories(labels)
    chart.legend = None
    if line:
        series = chart.series[0]
        series.smooth = False
        series.marker.symbol = "circle"
        series.marker.size = 7
        # A rating history's axis spans its ratings, a hundred below and above (from 0, 1544
        # sits among 0-1800 gridlines); a distribution's counts start at 0.
        ratings = pd.to_numeric(frame.iloc[:, 1], errors="coerce").dropna()
        if len(ratings):
            chart.y_axis.scaling.min = (int(ratings.min()) - 50) // 100 * 100
            chart.y_axis.scaling.max = (int(ratings.max()) + 149) // 100 * 100
    worksheet.add_chart(chart, f"D{header + 1}")
    return rows_xml


def history_charts(
    history: pd.DataFrame, value: str, heading: str, number_format: str = ""
) -> list[Sheet]:
    """A ``Chart KIND`` sheet per list kind of a player's history (columns ``kind``,
    ``period`` and ``value``): the rating after each list (``write_chart_sheet``)."""
    sheets = []
    for kind in [k for k in KINDS if k in set(history["kind"])]:
        rows = history[history["kind"] == kind]
        rating = f"{kind} rating"
        chart = pd.DataFrame({"period": rows["period"], rating: rows[value]})
        sheets.append(
            Sheet(
                f"Chart {kind}",
                frame=chart.dropna().reset_index(drop=True),
                writer=write_chart_sheet,
                heading=[f"{heading} — {kind} rating after each list"],
                formats={rating: number_format} if number_format else {},
            )
        )
    return sheets


def _fix_zip_times(path: Path, rows: dict[int, SheetRows | SummaryRows] | None = None) -> None:
    """Rewrite the zip with fixed entry times and the fixed modification date, and write the
    data rows made by ``table_rows_xml`` into their sheets, block by block."""
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
            huge = body is not None and body.cells > 10**7
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


def write_calculations_sheet(worksheet: WriteOnlyWorksheet, sheet: Sheet) -> SheetRows:
    """FIDE-style individual calculations, grouped: ``sheet.frame`` from ``calculation_rows``
    (its ``level`` column gives each row's outline level, so a reader can fold events and
    players; level-0 rows, each player's totals or derivation, are bold)."""
    assert sheet.frame is not None
    levels = sheet.frame["level"].to_numpy()
    table = sheet.frame.drop(columns=["level"])
    worksheet.sheet_properties.outlinePr.summaryBelow = False  # totals above their details
    return _write_table(worksheet, replace(sheet, frame=table), levels=levels, filter=False)


def _text_cell(worksheet: WriteOnlyWorksheet, value: str, bold: bool = False) -> object:
    # XML cannot hold most control characters; show them as '?' rather than fail.
    value = ILLEGAL_CHARACTERS_RE.sub("?", value)
    if not (bold or value.startswith(FORMULA_STARTS)):
        return value
    from openpyxl.cell.cell import WriteOnlyCell

    cell = WriteOnlyCell(worksheet, value=value)
    cell.data_type = "s"  # never a formula, whatever it starts with
    if value.startswith(FORMULA_STARTS):
        cell.quotePrefix = True
    if bold:
        cell.font = bold_font()
    return cell


def _xlsx_value(worksheet: WriteOnlyWorksheet, value: object, number_format: str) -> object:
    if missing(value):
        return None
    if isinstance(value, str):
        return _text_cell(worksheet, value)
    if isinstance(value, np.bool_ | bool):
        return bool(value)
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, np.floating | float):
        if number_format:
            from openpyxl.cell.cell import WriteOnlyCell

            cell = WriteOnlyCell(worksheet, value=stored_float(float(value)))
            cell.number_format = number_format
            return cell
        return stored_float(float(value))
    return value


#: The widest a column is made (longer text wraps off-screen, not the page).
MAX_WIDTH = 60
#: Free text wrapped within its column, this wide: a first rating's formula, an outcome.
WRAPPED_COLUMNS = {"formula": 45, "outcome": 45}


def _is_number(values: pd.Series) -> bool:
    return pd.api.types.is_numeric_dtype(values.dtype) and not pd.api.types.is_bool_dtype(
        values.dtype
    )


def _longest(values: pd.Series, form: str | None) -> int:
    """The longest value of a column as the sheet writes it: floats to the places of their
    ``form`` or to 2, any other as text (0 for none); numbers, flags, texts and objects
    measured as ``str`` writes them (``astype("string")`` does the same), in Python: a pandas
    string column for 2,000 values costs more than it saves."""
    dtype = values.dtype
    present = values.dropna()
    if pd.api.types.is_float_dtype(dtype):
        if form:
            places = len(form.partition(".")[2])
            return max((len(f"{v:.{places}f}") for v in present.tolist()), default=0)
        present = present.round(2)
    elif not (
        (isinstance(dtype, np.dtype) and dtype.kind in "biuO")
        or isinstance(dtype, pd.StringDtype | pd.BooleanDtype)
        or pd.api.types.is_integer_dtype(dtype)
    ):  # dates, categories and the rest: as pandas writes them as text
        lengths = values.astype("string").str.len()
        return int(lengths.fillna(0).max()) if len(lengths) else 0
    return max(map(len, map(str, present.tolist())), default=0)


def _widths(
    frame: pd.DataFrame, headings: Sequence[str], formats: Mapping[str, str] | None = None
) -> list[int]:
    """Each column as wide as its longest value (of the first 2,000 rows; numbers as written,
    or in the sheet's own ``formats``; text one character more, for its indent) or the longest
    word of its heading (headings wrap), so dates, keys and file names are never cut; a
    wrapped column no wider than ``WRAPPED_COLUMNS`` says."""
    sample = frame.head(2000)
    widths = []
    for column, heading in zip(frame.columns, headings, strict=True):
        values = sample[column]
        form = (formats or {}).get(str(column))
        longest = _longest(values, form) + (0 if _is_number(values) else 1)
        word = max((len(part) for part in heading.split()), default=0)
        width = min(max(longest, word) + 2, MAX_WIDTH)
        widths.append(min(width, WRAPPED_COLUMNS.get(str(column), width)))
    return widths


def _header_cells(
    worksheet: WriteOnlyWorksheet, frame: pd.DataFrame, headings: Sequence[str]
) -> list[object]:
    """The header row's cells: bold, wrapped within the column, over numbers on the right."""
    from openpyxl.cell.cell import WriteOnlyCell
    from openpyxl.styles import Alignment

    cells: list[object] = []
    for column, heading in zip(frame.columns, headings, strict=True):
        value = ILLEGAL_CHARACTERS_RE.sub("?", heading)
        cell = WriteOnlyCell(worksheet, value=value)
        cell.data_type = "s"  # never a formula, whatever it starts with
        cell.quotePrefix = value.startswith(FORMULA_STARTS)
        cell.font = bold_font()
        number = _is_number(frame[column])
        cell.alignment = Alignment(
            horizontal="right" if number else "left", indent=0 if number else 1, wrap_text=True
        )
        cells.append(cell)
    return cells


def _write_table(
    worksheet: WriteOnlyWorksheet,
    sheet: Sheet,
    *,
    levels: np.ndarray | None = None,
    filter: bool = True,
) -> SheetRows:
    """The heading lines and the header through openpyxl (bold, frozen, filtered, column
    widths); returns the data rows as sheet XML, made column by column (openpyxl costs ~10 µs
    a cell: a 10^5-row list would take a minute). The cell styles the rows use are registered
    in the workbook here."""
    from openpyxl.utils import get_column_letter

    frame = sheet.frame
    assert frame is not None
    columns = [str(column) for column in frame.columns]
    headings = [sheet.labels.get(column, column) for column in columns]
    widths = [
        sheet.widths.get(column, width)
        for column, width in zip(columns, _widths(frame, headings, sheet.formats), strict=True)
    ]
    for index, width in enumerate(widths, start=1):
        worksheet.column_dimensions[get_column_letter(index)].width = width
    # A write-only sheet writes its views and columns with its first row: set them first.
    _fit_to_pages(worksheet, sheet.keys)
    row = sheet.header_row()
    worksheet.freeze_panes = f"{get_column_letter(sheet.keys + 1)}{row + 1}"
    if columns and filter:
        last = get_column_letter(len(columns))
        worksheet.auto_filter.ref = f"A{row}:{last}{len(frame) + row}"
    # The header's wrapped headings, as high as the longest needs.
    lines = max((wrapped_lines(h, w) for h, w in zip(headings, widths, strict=True)), default=1)
    if lines > 1:
        worksheet.row_dimensions[row].height = LINE_HEIGHT * lines
    for number, line in enumerate(sheet.heading):
        worksheet.append([_text_cell(worksheet, line, bold=number == 0)])
    if sheet.heading:
        worksheet.append([])
    worksheet.append(_header_cells(worksheet, frame, headings))
    wrap = {
        column: width
        for column, width in zip(columns, widths, strict=True)
        if column in WRAPPED_COLUMNS
    }
    return table_rows_xml(
        worksheet, frame, levels=levels, first=row + 1, wrap=wrap, formats=sheet.formats
    )


def _write_rows(worksheet: WriteOnlyWorksheet, rows: list[Sequence[object]]) -> SummaryRows | None:
    """Key-value rows (a Summary): every column as wide as its longest cell, numbers on the
    left beside their keys. A heading of one cell, in bold, and the text closing a row of
    two (a value, a note: at most ``SUMMARY_WIDTH``, longer text going on over the next rows
    of its column) spread over the empty cells to their right and do not widen their column:
    a table's columns (the events) are as wide as the table needs. The first row is appended
    here, the others made as XML (``summary_rows``: the same bytes) and returned, or appended
    here too when they hold other values."""
    from openpyxl.utils import get_column_letter

    rows = [line for row in rows for line in _folded(row)]
    widths: dict[int, int] = {}
    for row in rows:
        spread = len(row) - 1 if 0 < len(row) <= 2 and isinstance(row[-1], str) else None
        for position, value in enumerate(row):
            if position != spread:
                shown = "" if value is None else str(value)
                if isinstance(value, float | np.floating):
                    shown = str(stored_float(float(value)))  # as stored: not a machine's bits
                widths[position] = max(widths.get(position, 8), len(shown) + 2)
    for position, width in widths.items():
        worksheet.column_dimensions[get_column_letter(position + 1)].width = width
    _fit_to_pages(worksheet, keys=1)
    for row in rows[:1]:
        _append_row(worksheet, row)
    made = summary_rows(
        rows[1:],
        2,
        lambda style: style_id(
            worksheet,
            bold=style[0],
            quote=style[1],
            alignment=aligned("left") if style[2] else None,
        ),
    )
    if made is not None or not rows:
        return made
    for row in rows[1:]:
        _append_row(worksheet, row)
    return None


def _append_row(worksheet: WriteOnlyWorksheet, row: Sequence[object]) -> None:
    """A key-value row appended through openpyxl: numbers on the left."""
    from openpyxl.cell.cell import WriteOnlyCell

    cells: list[object] = []
    for position, value in enumerate(row):
        if isinstance(value, str):
            cells.append(_text_cell(worksheet, value, bold=position == 0 and len(row) == 1))
            continue
        cell = _xlsx_value(worksheet, value, "")
        if isinstance(cell, int | float) and not isinstance(cell, bool):
            cell = WriteOnlyCell(worksheet, value=cell)
            cell.alignment = aligned("left")
        cells.append(cell)
    worksheet.append(cells)


def _folded(row: Sequence[object]) -> list[Sequence[object]]:
    """A row whose text is longer than ``SUMMARY_WIDTH`` as several rows, the text going on
    in its column, indented (a spreadsheet does not grow a written row to fit wrapped
    text)."""
    if len(row) == 1 or not any(isinstance(v, str) and len(v) + 2 > SUMMARY_WIDTH for v in row):
        return [row]
    parts = [
        textwrap.wrap(v, SUMMARY_WIDTH - 2, subsequent_indent="  ") or [""]
        if isinstance(v, str) and len(v) + 2 > SUMMARY_WIDTH
        else [v]
        for v in row
    ]
    depth = max(len(p) for p in parts)
    return [[p[line] if line < len(p) else None for p in parts] for line in range(depth)]


#: The widest a Summary column is made; longer text goes on over the next rows.
SUMMARY_WIDTH = 100


def with_notation(sheet: Sheet, notation: Mapping[str, tuple[str, int]]) -> Sheet:
    """``sheet`` with its frame's columns headed and formatted in a system's notation
    (``StateSystem.notation``: the symbol and the decimals it publishes)."""
    named = [str(c) for c in (sheet.frame.columns if sheet.frame is not None else ())
             if c in notation]  # fmt: skip
    return replace(
        sheet,
        labels={c: notation[c][0] for c in named},
        formats={c: "0" if notation[c][1] == 0 else "0." + "0" * notation[c][1] for c in named},
    )


def _printed_number(text: str) -> object:
    """A number as a federation prints it (``0,735``, ``6½``, ``½``), as a number for the
    spreadsheet to calculate with and show in its own locale; any other text (``1549-27``,
    a blank) as it is."""
    plain = text.replace("½", ".5").replace(",", ".")
    plain = "0" + plain if plain.startswith(".") else plain
    try:
        number = float(plain)
    except ValueError:
        return text
    return int(number) if number.is_integer() and "." not in plain else number


def report_sheet(tables: Sequence[ReportTable]) -> list[Sheet]:
    """The federation's own tables (the DSB's Turnierauswertung) as one sheet, each table's
    title, headings, rows and worked lines as the page prints them (none: no sheet)."""
    if not tables:
        return []
    rows: list[Sequence[object]] = []
    for table in tables:
        cells = [
            [
                text if i in table.text_columns else _printed_number(text)
                for i, text in enumerate(row)
            ]
            for row in table.rows
        ]
        rows += [[table.title], list(table.heads), *cells, []]
        for whose, lines in table.worked:
            rows += [[whose, line] for line in lines]
        rows.append([])
    return [Sheet(tables[0].title.split(" ", 1)[0], rows=rows)]
