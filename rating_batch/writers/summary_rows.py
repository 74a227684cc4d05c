"""A Summary's key-value rows as sheet XML, byte for byte what openpyxl writes for them.

openpyxl spends about 25 µs on each cell it appends: the Summary of a month of 10^4 events
(a row per event) took 1.2 s of its report. Here the rows are made as text, the way openpyxl's
cell writer makes them without lxml (``openpyxl/cell/_writer.py``: ``etree_write_cell``):

* text: ``<c r="A3" t="inlineStr"><is><t>…</t></is></c>``, ``&``, ``<`` and ``>`` escaped,
  ``xml:space="preserve"`` when it begins or ends with white space, ``<c … />`` when empty;
  a row's only cell bold, formula-like text quote-prefixed, each with its style (``s="1"``);
* numbers: ``<c r="B6" s="3" t="n"><v>9685</v></c>`` (``%.16g`` of ``stored_float``, as
  ``workbook._xlsx_value`` stores them), left-aligned (their style), flags ``t="b"`` with 1
  or 0;
* nothing for a missing value; an empty row ``<row r="2"></row>``.

Styles are registered in the order their first cells come, as openpyxl registers them while
the rows are appended, so every style id is the same too. Any other value (a date, text
openpyxl would read as an error code, text over a cell's 32,767 characters) is not made
here: ``summary_rows`` gives None and the rows are appended by openpyxl.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from rating_batch.writers.common import (
    ERROR_CODES,
    FORMULA_STARTS,
    ILLEGAL_CHARACTERS_RE,
    stored_float,
)

#: The longest text a cell holds (openpyxl cuts longer text).
MAX_CELL_TEXT = 32_767

Style = tuple[bool, bool, bool]
"""A cell's style: (bold, quote-prefixed, a number on the left)."""


@dataclass(frozen=True)
class SummaryRows:
    """Key-value rows as sheet XML, from sheet row ``first`` (``write_workbook`` splices
    ``blocks`` into the sheet)."""

    rows: list[list[str]]
    first: int
    cells: int

    def blocks(self) -> Iterator[str]:
        yield "".join(
            f'<row r="{number}">{"".join(row)}</row>'
            for number, row in enumerate(self.rows, start=self.first)
        )


def summary_rows(
    rows: Sequence[Sequence[object]], first: int, style_id: Callable[[Style], int]
) -> SummaryRows | None:
    """``rows`` (placed from sheet row ``first``) as openpyxl writes them, or None when one
    of their values is not one made here. ``style_id`` registers a style in the workbook."""
    from openpyxl.utils import get_column_letter  # a workbook is being written

    ids: dict[Style, int] = {}
    made: list[list[str]] = []
    cells = 0
    for number, row in enumerate(rows, start=first):
        heading = len(row) == 1
        line = []
        for position, value in enumerate(row):
            reference = f"{get_column_letter(position + 1)}{number}"
            cell = _cell(reference, value, heading and position == 0, ids, style_id)
            if cell is None:
                return None
            line.append(cell)
        cells += len(row)
        made.append(line)
    return SummaryRows(made, first, cells)


def _cell(
    reference: str,
    value: object,
    bold: bool,
    ids: dict[Style, int],
    style_id: Callable[[Style], int],
) -> str | None:
    """One cell's XML ("" for a missing value), or None for a value not made here."""
    if value is None or value is pd.NA:
        return ""
    if isinstance(value, bool | np.bool_):
        return f'<c r="{reference}" t="b"><v>{int(bool(value))}</v></c>'
    if isinstance(value, int | np.integer | float | np.floating):
        floating = isinstance(value, float | np.floating)
        number = stored_float(float(value)) if floating else int(value)
        if isinstance(number, float) and np.isnan(number):
            return ""
        if isinstance(number, float) and np.isinf(number):
            return None
        shown = "%.16g" % number  # noqa: UP031 (openpyxl's own formatting, kept exactly)
        if (False, False, True) not in ids:
            ids[False, False, True] = style_id((False, False, True))
        return f'<c r="{reference}" s="{ids[False, False, True]}" t="n"><v>{shown}</v></c>'
    if not isinstance(value, str):
        return None
    text = ILLEGAL_CHARACTERS_RE.sub("?", value)
    quoted = text.startswith(FORMULA_STARTS)
    if len(text) > MAX_CELL_TEXT or (not (bold or quoted) and text in ERROR_CODES):
        return None
    style = ""
    if bold or quoted:
        if (bold, quoted, False) not in ids:
            ids[bold, quoted, False] = style_id((bold, quoted, False))
        style = f' s="{ids[bold, quoted, False]}"'
    if not text:
        return f'<c r="{reference}"{style} t="inlineStr" />'
    keep = ' xml:space="preserve"' if text != text.strip() else ""
    return (
        f'<c r="{reference}"{style} t="inlineStr"><is><t{keep}>'
        f"{html.escape(text, quote=False)}</t></is></c>"
    )
