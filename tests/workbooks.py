"""Reading our workbooks back as a reader of the sheet sees them: the table's header row is
the one printed at the top of every page (``print_title_rows``), below the sheet's heading."""

from __future__ import annotations

from typing import Any


def header_row(sheet: Any) -> int:
    """The sheet row of the table's header, from the rows repeated on every printed page."""
    titles = sheet.print_title_rows
    assert titles, f"sheet {sheet.title!r} repeats no header row on printed pages"
    first, last = titles.replace("$", "").split(":")
    assert first == last
    return int(first)


def name(label: object) -> str:
    """A column's name from its heading: ``diff (D)`` → ``diff``."""
    return str(label).split(" (")[0]


def table(sheet: Any) -> list[dict[str, Any]]:
    """The table's rows as dicts by column name."""
    row = header_row(sheet)
    rows = list(sheet.iter_rows(min_row=row, values_only=True))
    names = [name(label) for label in rows[0]]
    return [dict(zip(names, values, strict=True)) for values in rows[1:]]


def summary(sheet: Any) -> list[tuple[Any, ...]]:
    """A Summary sheet's rows, a text that goes on over the next rows (indented, the other
    cells empty) joined back into one."""
    rows: list[list[Any]] = []
    for values in sheet.iter_rows(values_only=True):
        cells = list(values)
        filled = [i for i, v in enumerate(cells) if v is not None]
        going_on = (
            rows
            and len(filled) == 1
            and filled[0] > 0
            and isinstance(cells[filled[0]], str)
            and cells[filled[0]].startswith("  ")
        )
        if going_on:
            at = filled[0]
            rows[-1][at] = f"{rows[-1][at]} {cells[at].strip()}"
        else:
            rows.append(cells)
    return [tuple(row) for row in rows]
