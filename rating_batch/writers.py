"""Writers: select, order and format; never decide a number.

Writers write to the path they are given (``staging.staged_outputs`` gives paths in a staging
folder and switches the whole set into place once every one is written).

Text that a spreadsheet could take for a formula (starting with ``=``, ``+``, ``-``, ``@``, tab
or CR) is neutralised: quoted with ``'`` in CSV, and a quote-prefixed text cell in XLSX.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import html
import re
import zipfile
from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from anyascii import anyascii
from openpyxl import Workbook
from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE, WriteOnlyCell
from openpyxl.styles import Font
from openpyxl.utils import get_column_letter
from openpyxl.worksheet.properties import PageSetupProperties

from rating_batch.schema import CONTROL_CHARACTERS

# The stubs omit what write-only sheets really have (column_dimensions, auto_filter,
# freeze_panes: openpyxl copies them from Worksheet), so the sheets are typed loosely.
WriteOnlyWorksheet = Any

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
#: Rows of a worksheet in Excel and LibreOffice (the header is one of them): a longer table
#: goes on in the next sheet (``write_workbook``).
MAX_SHEET_ROWS = 1_048_576
#: Per-game sheets (Games, Calculations) of a workbook hold at most this many rows; a larger
#: period is complete in games.csv and calculations.csv, and the Summary says so.
MAX_DETAIL_ROWS = 100_000


def detail_notes(sheet: str, rows: int) -> list[str]:
    """The Summary's note for a per-game sheet of ``rows`` rows cut at ``MAX_DETAIL_ROWS``
    (none when it is not cut)."""
    if rows <= MAX_DETAIL_ROWS:
        return []
    return [
        f"the {sheet} sheet holds the first {MAX_DETAIL_ROWS:,} of {rows:,} rows: "
        f"{sheet.lower()}.csv has them all"
    ]


#: Number formats by column name (CSV text format, XLSX number format).
NUMBER_FORMATS: dict[str, tuple[str, str]] = {
    "score": ("{:g}", "0.0"),
    "expected": ("{:.2f}", "0.00"),
    "change": ("{:.2f}", "0.00"),
    "delta": ("{:.2f}", "0.00"),
    "k_delta": ("{:.2f}", "0.00"),
}
#: The date stamped into every workbook, so that the same content gives the same bytes.
FIXED_TIMESTAMP = dt.datetime(2000, 1, 1)


#: Columns of codes from a closed set (TRF result codes ``=``, ``+``, ``-`` …): written as they
#: are, since a one-character code cannot carry a formula; neutralising is for free text.
CODE_COLUMNS = frozenset({"result"})


def neutralise(text: str) -> str:
    """Prefix text a spreadsheet would evaluate with an apostrophe (CSV)."""
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def _formatted(
    codes: np.ndarray, distinct: Iterable[Any], form: Callable[[Any], str], missing: str = ""
) -> list[str]:
    """Each distinct value formatted once, spread back over the column (code -1 is missing:
    ``missing``). Columns repeat few values (names, expected scores), so this is much faster
    than formatting every cell, and gives the very same text."""
    texts = np.array([form(value) for value in distinct] + [missing], dtype=object)
    result: list[str] = texts[codes].tolist()
    return result


ColumnKind = str
"""How a column is written: "bool", "float", "int" or "text"."""


def _distinct(series: pd.Series) -> tuple[ColumnKind, np.ndarray, Iterable[Any]]:
    """A column's kind, each row's code (-1 for missing) and the distinct values the codes
    point to: what every table writer formats, once per distinct value (``_formatted``)."""
    dtype = series.dtype
    if pd.api.types.is_bool_dtype(dtype):
        codes, flags = pd.factorize(series)
        return "bool", codes, list(flags)
    if pd.api.types.is_float_dtype(dtype):
        return ("float", *_float_codes(series))
    if pd.api.types.is_numeric_dtype(dtype):
        codes, whole = pd.factorize(series)
        return "int", codes, list(whole)
    codes, texts = pd.factorize(series.astype("string").astype(object).where(series.notna(), None))
    return "text", codes, list(texts)


def _csv_column(series: pd.Series, name: str) -> list[str]:
    """One column as CSV fields: "" for missing, true/false, the column's number format, and
    formula-like text neutralised, quoted where needed (``_csv_field``). One typed pass per
    column, each distinct value formatted once (``_formatted``)."""
    kind, codes, distinct = _distinct(series)
    forms: dict[ColumnKind, Callable[[Any], str]] = {
        "bool": lambda flag: "true" if flag else "false",
        "float": NUMBER_FORMATS.get(name, ("{:g}", ""))[0].format,
        "int": str,
        "text": str if name in CODE_COLUMNS else neutralise,
    }
    form = forms[kind]
    return _formatted(codes, distinct, lambda value: _csv_field(form(value)))


def _float_codes(series: pd.Series) -> tuple[np.ndarray, np.ndarray]:
    """Codes of a float column's distinct values (-1 for missing) and those values, told
    apart by bit pattern, so that -0.0 keeps its own text ("-0.00")."""
    floats = series.to_numpy(dtype=np.float64, na_value=np.nan)
    codes, bits = pd.factorize(floats.view(np.int64))
    codes[np.isnan(floats)] = -1
    return codes, np.asarray(bits, dtype=np.int64).view(np.float64)


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


#: FIDE's single-kind TXT list: (label, width) after the header of the downloads (§10.1).
TXT_LIST_LAYOUT = (
    ("ID Number", 15, "id"),
    ("Name", 61, "name"),
    ("Fed", 4, "federation"),
    ("Sex", 4, "sex"),
    ("Tit", 5, "title"),
    ("WTit", 5, "w_title"),
    ("OTit", 15, "o_title"),
    ("FOA", 4, "foa_title"),
    ("{month}", 6, "rating"),
    ("Gms", 4, "games"),
    ("K", 3, "k"),
    ("B-day", 6, "birth_year"),
    ("Flag", 4, "flag"),
)
_MONTH_NAMES = ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"]
_FIXED_TXT_FIELDS = {"id", "name", "federation", "sex", "title", "w_title"}


def ascii_text(text: str) -> str:
    """FIDE's lists are ASCII: every letter is transliterated (Mícheál → Micheal, Łukasz →
    Lukasz, ß → ss, Блюбаум → Blyubaum), never '?'; a control character (a newline would
    split the record) becomes a space."""
    text = CONTROL_CHARACTERS.sub(" ", text)
    if text.isascii():
        return text
    return str(anyascii(text))


def write_list_txt(listing: pd.DataFrame, path: Path, *, period: str) -> None:
    """A FIDE-style fixed-width list (ASCII, CRLF): the header of FIDE's single-kind
    downloads with the list's month token (``DEC25``), numbers left-aligned, 0 for none."""
    year, month = (int(part) for part in period.split("-"))
    token = f"{_MONTH_NAMES[month - 1]}{year % 100:02d}" if month else "Rtng"
    header = "".join(label.format(month=token).ljust(width) for label, width, _ in TXT_LIST_LAYOUT)
    sex = listing["sex"].astype("string")
    flags = np.where(listing["inactive"].to_numpy(bool), "i", "")
    flags = np.where((sex == "F").fillna(False).to_numpy(bool), np.char.add("w", flags), flags)
    columns = {name: listing.get(name, None) for _, _, name in TXT_LIST_LAYOUT}
    columns["flag"] = pd.Series(flags, index=listing.index)
    with path.open("wb") as out:
        out.write((header.rstrip() + "\r\n").encode("ascii"))
        for start in range(0, len(listing), CSV_BLOCK):
            stop = min(start + CSV_BLOCK, len(listing))
            parts = {
                name: None if column is None else column.iloc[start:stop]
                for name, column in columns.items()
            }
            cells = [
                _txt_column(parts[name], name, width, stop - start)
                for _, width, name in TXT_LIST_LAYOUT
            ]
            rows = ("".join(row).rstrip() + "\r\n" for row in zip(*cells, strict=True))
            out.write("".join(rows).encode("ascii"))


def _txt_column(column: pd.Series | None, name: str, width: int, rows: int) -> list[str]:
    """One column of the TXT list, each cell padded to its width (each distinct value is
    formatted once, ``_formatted``): ASCII, 0 for a missing number, "" for missing text."""
    blank = "0" if name in ("rating", "games", "k", "birth_year") else ""

    def cell(value: object) -> str:
        if value is None or value is pd.NA or (isinstance(value, float) and np.isnan(value)):
            text = blank
        elif isinstance(value, int | np.integer | float):
            text = str(int(value))
        else:
            text = str(value)
        text = ascii_text(text)
        if name in _FIXED_TXT_FIELDS:
            text = text[: width - 1]  # read by column: must stay inside it
        # OTit and later are read as tokens: a long value overflows, as in FIDE's files.
        return text.ljust(width) if len(text) < width else text + " "

    if column is None:
        return [cell(None)] * rows
    codes, distinct = pd.factorize(column)
    return _formatted(codes, list(distinct), cell, missing=cell(None))


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
    value: each distinct value's is made once and spread over the column (``_formatted``)."""
    kind, codes, values = _distinct(series)
    if kind == "bool":
        return _formatted(codes, values, lambda v: f' t="b"><v>{int(v)}</v></c>')
    if kind == "float":
        style = styles.numbers[name]
        return _formatted(codes, values, lambda v: f"{style}><v>{float(v)!r}</v></c>")
    if kind == "int":
        style = styles.numbers[name]
        return _formatted(codes, values, lambda v: f"{style}><v>{int(v)}</v></c>")
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

    tails = _formatted(codes, texts, lambda v: styled(v, False))
    if not any(heading):
        return tails
    strong = _formatted(codes, texts, lambda v: styled(v, True))
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


# -- the per-event HTML report ---------------------------------------------------------------------


Record = dict[Hashable, object]


def records(frame: pd.DataFrame) -> list[Record]:
    """A frame's rows as dicts of Python values, None for missing: made once for all the
    pages of a period, then shared out (per small frame, pandas costs ~1 ms a page)."""
    names = list(frame.columns)
    columns = [
        frame[name].astype(object).where(frame[name].notna(), None).tolist() for name in names
    ]
    return [dict(zip(names, values, strict=True)) for values in zip(*columns, strict=True)]


@dataclass
class EventPage:
    """What one event's HTML page shows (selected by the pipeline; this module only lays out),
    as rows of Python values (``records``).

    ``crosstable``: one row per player (``player``, ``name``, ``rating``, ``points``) and per
    round ``cell_<r>``, ``counted_<r>``, ``reason_<r>``. ``players``: per player ``player``,
    ``name``, ``id``, ``status``, ``rating``, ``k``, ``games``, ``score``, ``expected``,
    ``change``, ``new_rating``. ``games``: counted games (``player``, ``round``,
    ``opponent_name``, ``opponent_rating``, ``diff``, ``expected``, ``score``, ``delta``).
    """

    title: str
    facts: list[tuple[str, str]]
    rounds: int
    crosstable: list[Record]
    players: list[Record]
    games: list[Record]


PAGE_STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em; color: #111; }
h1 { margin-bottom: 0.2em; } .facts { color: #444; margin-top: 0; }
table { border-collapse: collapse; margin: 0.5em 0 1.5em; font-size: 0.9em; }
th, td { border: 1px solid #bbb; padding: 0.15em 0.45em; text-align: right; }
th { background: #eee; } td.name, th.name { text-align: left; }
td.counted { font-weight: bold; } td.uncounted { color: #888; text-decoration: line-through; }
section.player { break-inside: avoid; page-break-inside: avoid; margin-bottom: 1em; }
.legend, .totals { color: #444; font-size: 0.9em; }
@media print { body { margin: 0.5cm; } a { color: inherit; } }
"""


def _html(value: object, digits: int | None = None) -> str:
    if value is None or value is pd.NA or (isinstance(value, float) and np.isnan(value)):
        return ""
    if digits is not None and isinstance(value, int | float | np.integer | np.floating):
        return f"{float(value):.{digits}f}"
    return html.escape(str(value))


def write_event_html(page: EventPage, path: Path) -> None:
    """One self-contained, printable HTML file: no scripts, no external assets."""
    out = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{_html(page.title)}</title><style>{PAGE_STYLE}</style></head><body>",
        f"<h1>{_html(page.title)}</h1>",
        '<p class="facts">' + " · ".join(f"{_html(k)}: {_html(v)}" for k, v in page.facts) + "</p>",
        "<h2>Crosstable</h2>",
        "<table><thead><tr><th>No.</th><th class=name>Name</th><th>Rtg</th>",
        "".join(f"<th>{r}</th>" for r in range(1, page.rounds + 1)),
        "<th>Pts</th></tr></thead><tbody>",
    ]
    for row in page.crosstable:
        cells = []
        for r in range(1, page.rounds + 1):
            counted = bool(row.get(f"counted_{r}"))
            reason = row.get(f"reason_{r}")
            css = "counted" if counted else "uncounted"
            hint = f' title="{_html(reason)}"' if reason and not counted else ""
            cells.append(f"<td class={css}{hint}>{_html(row.get(f'cell_{r}'))}</td>")
        out.append(
            f"<tr><td>{_html(row['player'])}</td><td class=name>{_html(row['name'])}</td>"
            f"<td>{_html(row['rating'])}</td>{''.join(cells)}<td>{_html(row['points'])}</td></tr>"
        )
    out.append("</tbody></table>")
    out.append(
        '<p class="legend">Bold: counted for rating. Struck through: not counted (hover for the '
        "reason: bye, forfeit, unrated opponent …). In the calculations, D* is the difference "
        "after the 400-point rule.</p><h2>Calculations</h2>"
    )
    games: dict[object, list[dict[Hashable, object]]] = {}
    for game in page.games:
        games.setdefault(game["player"], []).append(game)
    for player in page.players:
        out.append(
            f'<section class="player"><h3>{_html(player["player"])}. {_html(player["name"])} '
            f"({_html(player['id'])}) — {_html(player['status'])}</h3>"
        )
        if player["player"] in games:
            out.append(
                "<table><thead><tr><th>Rd</th><th class=name>Opponent</th><th>Rtg</th><th>D</th>"
                "<th>PD</th><th>Score</th><th>ΔR</th></tr></thead><tbody>"
            )
            for game in games[player["player"]]:
                out.append(
                    f"<tr><td>{_html(game['round'])}</td>"
                    f"<td class=name>{_html(game['opponent_name'])}</td>"
                    f"<td>{_html(game['opponent_rating'])}</td>"
                    f"<td>{_html(game['diff'])}{'*' if game['capped'] else ''}</td>"
                    f"<td>{_html(game['expected'], 2)}</td><td>{_html(game['score'])}</td>"
                    f"<td>{_html(game['delta'], 2)}</td></tr>"
                )
            out.append("</tbody></table>")
        facts = [
            ("rating", _html(player["rating"])),
            ("K", _html(player["k"])),
            ("games", _html(player["games"])),
            ("score", _html(player["score"])),
            ("ΣPD", _html(player["expected"], 2)),
            ("change here", _html(player["change"], 2)),
            ("new rating (period)", _html(player["new_rating"])),
        ]
        shown = " · ".join(f"{k} {v}" for k, v in facts if v)
        out.append(f'<p class="totals">{shown}</p></section>')
    out.append("</body></html>")
    path.write_text("\n".join(out) + "\n", encoding="utf-8")
