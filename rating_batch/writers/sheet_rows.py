"""A table's rows as sheet XML, made a column at a time (openpyxl costs ~10 µs a cell: a
10^5-row list would take a minute): numbers as numbers, flags as yes/no, text as inline
strings (quote-prefixed when formula-like), each distinct value of a column formatted once;
the XML is made block by block while the workbook is written (``SheetRows``)."""

from __future__ import annotations

import html
import textwrap
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import cache
from itertools import pairwise
from typing import TYPE_CHECKING, Any, Literal

import numpy as np
import pandas as pd

from rating_batch.writers.common import (
    CODE_COLUMNS,
    FORMULA_STARTS,
    ILLEGAL_CHARACTERS_RE,
    NUMBER_FORMATS,
    distinct,
    each_at_once,
    float_text,
    formatted,
)

if TYPE_CHECKING:
    from openpyxl.styles import Alignment, Font

# The stubs omit what write-only sheets really have: typed loosely (as in workbook.py).
WriteOnlyWorksheet = Any

# openpyxl is imported where a workbook is written, not with this module (issue 42: ~55 ms
# of every command's start-up, and most commands write no workbook).


@cache
def bold_font() -> Font:
    """The font of bold cells: the workbook's own (Calibri 11), bold (a font without a name
    is shown in a serif face by LibreOffice)."""
    from openpyxl.styles import Font

    return Font(name="Calibri", size=11, bold=True)


#: The alignments of cells by name: ``left``, numbers on the left, beside their keys (a
#: Summary); ``indented``, text one character in from the left: never run together with a
#: number that ends at the right edge of the column before ("10" and "900000274" read as
#: "10900000274"); ``wrapped``, text wrapped within its column (a long formula), one in.
ALIGNMENTS: dict[str, dict[str, Any]] = {
    "left": {"horizontal": "left"},
    "indented": {"horizontal": "left", "indent": 1},
    "wrapped": {"horizontal": "left", "indent": 1, "wrap_text": True},
}


@cache
def aligned(name: Literal["left", "indented", "wrapped"]) -> Alignment:
    """The alignment ``ALIGNMENTS`` names, made once."""
    from openpyxl.styles import Alignment

    return Alignment(**ALIGNMENTS[name])


#: Points a line of text takes in a row (Calibri 11).
LINE_HEIGHT = 15


def style_id(
    worksheet: WriteOnlyWorksheet,
    *,
    number_format: str = "",
    quote: bool = False,
    bold: bool = False,
    alignment: Alignment | None = None,
) -> int:
    """Register a cell style in the workbook (as openpyxl would for a cell) and return its id."""
    from openpyxl.cell.cell import WriteOnlyCell

    cell = WriteOnlyCell(worksheet)
    if bold:
        cell.font = bold_font()
    if number_format:
        cell.number_format = number_format
    if quote:
        cell.quotePrefix = True
    if alignment is not None:
        cell.alignment = alignment
    return int(cell.style_id)


#: Rows of a sheet made into XML at a time while the workbook is written.
ROW_BLOCK = 50_000


@dataclass(frozen=True)
class _Styles:
    """The cell styles a table's rows use, registered in the workbook before it is saved:
    number formats per column, and the text styles: plain (-1: none), quote-prefixed and
    bold; those of the wrapped columns ``wrap`` (plain, quoted, bold) apart."""

    numbers: dict[str, str]
    quoted: int
    bold: int
    plain: int = -1
    wrap: frozenset[str] = frozenset()
    wrapped: tuple[int, int, int] = (-1, -1, -1)

    def of(self, name: str) -> _Styles:
        """The styles of column ``name``: the wrapped ones for a wrapped column."""
        if name not in self.wrap:
            return self
        plain, quoted, bold = self.wrapped
        return _Styles(self.numbers, quoted, bold, plain)


@dataclass(frozen=True)
class SheetRows:
    """A frame's data rows as sheet XML, made block by block as the workbook is written (the
    rows of a 1.4 M-player list would be a gigabyte as one string)."""

    frame: pd.DataFrame
    levels: np.ndarray | None
    styles: _Styles
    first: int = 2
    """The sheet row of the first data row."""
    lines: np.ndarray | None = None
    """Per row, the lines its wrapped text takes (None: one each)."""

    @property
    def cells(self) -> int:
        return len(self.frame) * len(self.frame.columns)

    def blocks(self) -> Iterator[str]:
        for start in range(0, len(self.frame), ROW_BLOCK):
            end = start + ROW_BLOCK
            levels = None if self.levels is None else self.levels[start:end]
            lines = None if self.lines is None else self.lines[start:end]
            part = self.frame.iloc[start:end]
            yield _rows_xml(part, levels, start + self.first, self.styles, lines)


def table_rows_xml(
    worksheet: WriteOnlyWorksheet,
    frame: pd.DataFrame,
    levels: np.ndarray | None = None,
    first: int = 2,
    wrap: Mapping[str, int] | None = None,
    formats: Mapping[str, str] | None = None,
) -> SheetRows:
    """Row elements for the frame's rows (from sheet row 2): numbers as numbers, booleans
    as booleans, text as inline strings (quote-prefixed when formula-like), indented. With
    ``levels``, each row gets that outline level, and level-0 text is bold. ``wrap``: text
    columns wrapped at their width (characters), each row as high as its lines. ``formats``:
    number formats of some columns, over ``NUMBER_FORMATS``. The styles are registered now, in
    the order of the columns; the XML is made when the book is written."""
    wrap = {name: width for name, width in (wrap or {}).items() if name in frame.columns}
    numbers: dict[str, str] = {}
    texts: tuple[int, int, int] | None = None
    for name in frame.columns:
        dtype = frame[name].dtype
        if pd.api.types.is_numeric_dtype(dtype) and not pd.api.types.is_bool_dtype(dtype):
            # Number formats are for fractions: a whole-number column (an Elo rating) is shown
            # as it is whatever its name.
            fractional = pd.api.types.is_float_dtype(dtype)
            form = (
                (formats or {}).get(str(name)) or NUMBER_FORMATS.get(str(name), ("", ""))[1]
                if fractional
                else ""
            )
            numbers[str(name)] = f' s="{style_id(worksheet, number_format=form)}"' if form else ""
        elif texts is None:
            texts = _text_styles(worksheet, aligned("indented"))
    plain, quoted, bold = texts or (-1, -1, -1)
    wrapped = _text_styles(worksheet, aligned("wrapped")) if wrap else (-1, -1, -1)
    styles = _Styles(numbers, quoted, bold, plain, frozenset(wrap), wrapped)
    return SheetRows(frame, levels, styles, first, _lines(frame, wrap))


def _text_styles(worksheet: WriteOnlyWorksheet, alignment: Alignment) -> tuple[int, int, int]:
    """The plain, quote-prefixed and bold text styles of an alignment."""
    return (
        style_id(worksheet, alignment=alignment),
        style_id(worksheet, quote=True, alignment=alignment),
        style_id(worksheet, bold=True, alignment=alignment),
    )


def _lines(frame: pd.DataFrame, wrap: Mapping[str, int]) -> np.ndarray | None:
    """Per row, the lines its longest wrapped text takes (None when every row has one)."""
    lines = np.ones(len(frame), dtype=np.int64)
    for name, width in wrap.items():
        codes, values = pd.factorize(frame[name].astype("string"))
        counts = [wrapped_lines(str(value), width) for value in values]
        lines = np.maximum(lines, np.append(np.asarray(counts, dtype=np.int64), 1)[codes])
    return lines if (lines > 1).any() else None


def wrapped_lines(text: str, width: int) -> int:
    """The lines ``text`` takes wrapped at ``width`` characters, reckoned with a wide font's
    letters (a tenth more than Calibri's), so that no line is cut off."""
    return max(1, len(textwrap.wrap(text, max(1, width * 9 // 10 - 2))))


def _rows_xml(
    frame: pd.DataFrame,
    levels: np.ndarray | None,
    first: int,
    styles: _Styles,
    lines: np.ndarray | None = None,
) -> str:
    """The ``<row>`` elements of a block of rows, the first being sheet row ``first``: each
    column's cells made at once (object arrays), then the rows joined, those with the same
    cells present together, of those cells' pieces only (no string made per cell here). A
    cell that follows the row's previous cell has no reference (``r`` is optional in a sheet:
    it is the next cell); one after a missing cell has it. A row of several ``lines`` is made
    that high."""
    from openpyxl.utils import get_column_letter  # a workbook is being written

    numbers = np.arange(first, len(frame) + first).astype(str).astype(object)
    heading = [False] * len(frame) if levels is None else (levels == 0).tolist()
    starts = '<row r="' + numbers + '"'
    if levels is not None:
        level = levels.astype(str).astype(object)
        starts = starts + np.where(levels > 0, ' outlineLevel="' + level + '"', "")
    if lines is not None:
        high = (LINE_HEIGHT * lines).astype(str).astype(object)
        starts = starts + np.where(lines > 1, ' ht="' + high + '" customHeight="1"', "")
    starts = starts + ">"
    quoted = numbers + '"'
    cells = [
        np.array(_cells(frame[name], str(name), heading, styles.of(str(name))), dtype=object)
        for name in frame.columns
    ]
    rows_xml = np.empty(len(frame), dtype=object)
    for rows, columns in _same_cells(cells, len(frame)):
        count = len(rows)
        parts = [starts[rows].tolist()]
        previous = -1
        for index in columns:
            made = cells[index][rows].tolist()
            if index != previous + 1:
                # After a missing cell, a cell says where it is; otherwise it is the next.
                start = f'<c r="{get_column_letter(index + 1)}'
                shown = quoted[rows].tolist()
                made = [start + at + cell[2:] for at, cell in zip(shown, made, strict=True)]
            parts.append(made)
            previous = index
        parts.append(["</row>"] * count)
        rows_xml[rows] = list(map("".join, zip(*parts, strict=True)))
    return "".join(rows_xml.tolist())


def _same_cells(tails: list[np.ndarray], rows: int) -> Iterator[tuple[np.ndarray, list[int]]]:
    """The rows (positions) that have the same cells present ("" is a missing cell), with the
    columns of those cells: a few such sets in a table, however sparse."""
    if not rows:
        return
    present = np.zeros((rows, len(tails)), dtype=bool)
    for index, tail in enumerate(tails):
        present[:, index] = tail != ""
    packed = np.packbits(present, axis=1, bitorder="little")
    if packed.shape[1] <= 8:  # each row's pattern one integer: a sort of numbers, not of rows
        keys = np.zeros((rows, 8), dtype=np.uint8)
        keys[:, : packed.shape[1]] = packed
        _, kinds = np.unique(keys.view(np.uint64).ravel(), return_inverse=True)
    else:
        _, kinds = np.unique(packed, axis=0, return_inverse=True)
    kinds = kinds.ravel()
    order = np.argsort(kinds, kind="stable")
    bounds = [*np.flatnonzero(np.diff(kinds[order], prepend=-1)).tolist(), rows]
    for start, end in pairwise(bounds):
        positions = order[start:end]
        yield positions, np.flatnonzero(present[positions[0]]).tolist()


def _cells(series: pd.Series, name: str, heading: list[bool], styles: _Styles) -> list[str]:
    """Each cell of a column without its reference (``<c s="3"><v>7</v></c>``: the cell after
    the row's previous one), "" for a missing value: each distinct value's is made once and
    spread over the column (``formatted``)."""
    kind, codes, values = distinct(series)
    if kind == "bool":
        # yes/no as text: a spreadsheet's TRUE beside a score of 0 reads as a contradiction.
        style = "" if styles.plain < 0 else f' s="{styles.plain}"'
        return formatted(codes, values, lambda v: _inline_text("yes" if v else "no", style))
    if kind == "float":
        style = styles.numbers[name]
        return formatted(codes, values, lambda v: f"<c{style}><v>{float_text(v)}</v></c>")
    if kind == "int":
        style = styles.numbers[name]
        return formatted(codes, values, lambda v: f"<c{style}><v>{int(v)}</v></c>")
    texts = [str(value) for value in values]
    free = name not in CODE_COLUMNS
    plain = None if styles.plain < 0 else styles.plain
    tails = np.append(_text_tails(texts, free, plain, styles), "")[codes]
    if not any(heading):
        return list(tails.tolist())
    strong = np.append(_text_tails(texts, free, styles.bold, styles), "")[codes]
    return list(np.where(np.asarray(heading, dtype=bool), strong, tails).tolist())


def _text_tails(texts: list[str], free: bool, style: int | None, styles: _Styles) -> np.ndarray:
    """``_inline_text`` of distinct texts, all at once: formula-like free text quote-prefixed
    (its style), else ``style`` (plain text, or bold headings) or none."""
    plain = "" if style is None else f' s="{style}"'
    quoted = f' s="{styles.quoted}"'
    shown = _escaped_all(texts)
    keep = ' xml:space="preserve"'
    return np.array(
        [
            f'<c t="inlineStr"{quoted if free and text.startswith(FORMULA_STARTS) else plain}>'
            f"<is><t{keep if text != text.strip() else ''}>{escaped}</t></is></c>"
            for text, escaped in zip(texts, shown, strict=True)
        ],
        dtype=object,
    )


def _escaped_all(texts: list[str]) -> list[str]:
    """Each text as ``_inline_text`` escapes it (control characters as '?', then &, <, >)."""
    return each_at_once(
        texts, lambda text: html.escape(ILLEGAL_CHARACTERS_RE.sub("?", text), quote=False)
    )


def _inline_text(value: str, style: str) -> str:
    """An inline-string cell without its reference: style, escaped text (control characters
    as '?'), spaces kept where they would be lost."""
    text = html.escape(ILLEGAL_CHARACTERS_RE.sub("?", value), quote=False)
    keep = ' xml:space="preserve"' if text != text.strip() else ""
    return f'<c t="inlineStr"{style}><is><t{keep}>{text}</t></is></c>'
