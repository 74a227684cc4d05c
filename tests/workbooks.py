"""Reading our workbooks back as a reader of the sheet sees them: the table's header row is
the one printed at the top of every page (``print_title_rows``), below the sheet's heading.
And ``raw_workbook``: a one-sheet workbook written by hand, its XML exactly as given."""

from __future__ import annotations

import zipfile
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape


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


_RAW_PARTS = {
    "[Content_Types].xml": (
        '<?xml version="1.0" encoding="UTF-8"?>'
        '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
        '<Default Extension="rels" '
        'ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
        '<Default Extension="xml" ContentType="application/xml"/>'
        '<Override PartName="/xl/workbook.xml" '
        'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>'
        '<Override PartName="/xl/worksheets/sheet1.xml" '
        'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>'
        "</Types>"
    ),
    "_rels/.rels": (
        '<?xml version="1.0" encoding="UTF-8"?>'
        '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
        '<Relationship Id="rId1" Target="xl/workbook.xml" Type="http://schemas.openxmlformats.org/'
        'officeDocument/2006/relationships/officeDocument"/></Relationships>'
    ),
    "xl/workbook.xml": (
        '<?xml version="1.0" encoding="UTF-8"?>'
        '<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" '
        'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">'
        '<sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>'
    ),
    "xl/_rels/workbook.xml.rels": (
        '<?xml version="1.0" encoding="UTF-8"?>'
        '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
        '<Relationship Id="rId1" Target="worksheets/sheet1.xml" Type="http://schemas.'
        'openxmlformats.org/officeDocument/2006/relationships/worksheet"/></Relationships>'
    ),
}


def raw_workbook(path: Path, cells: dict[str, object], dimension: str | None = None) -> Path:
    """A workbook of one sheet ``Sheet1`` holding ``cells`` (``{"A1": "id", "B2": 1500}``, in
    the order given, grouped into rows by their number) and, when given, the ``<dimension
    ref=...>`` the sheet declares, whatever its cells: as a hostile or careless program would
    write it."""
    rows: dict[int, list[str]] = {}
    for ref, value in cells.items():
        number = int(ref.lstrip("ABCDEFGHIJKLMNOPQRSTUVWXYZ"))
        if isinstance(value, str):
            cell = f'<c r="{ref}" t="inlineStr"><is><t>{escape(value)}</t></is></c>'
        else:
            cell = f'<c r="{ref}"><v>{value}</v></c>'
        rows.setdefault(number, []).append(cell)
    sheet = (
        '<?xml version="1.0" encoding="UTF-8"?>'
        '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
        + (f'<dimension ref="{dimension}"/>' if dimension else "")
        + "<sheetData>"
        + "".join(f'<row r="{n}">{"".join(row)}</row>' for n, row in rows.items())
        + "</sheetData></worksheet>"
    )
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for part, text in {**_RAW_PARTS, "xl/worksheets/sheet1.xml": sheet}.items():
            archive.writestr(part, text)
    return path
