"""A Summary's rows made as sheet XML (writers/summary_rows.py) give the very bytes openpyxl
writes for them, styles included; values it does not make are appended by openpyxl."""

from __future__ import annotations

import datetime as dt
import re
import zipfile
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from rating_batch.writers import Sheet, write_workbook
from rating_batch.writers import workbook as workbook_module

#: Every kind of value a Summary holds, and the awkward ones: headings (bold), formula-like
#: text (quote-prefixed, bold too when a heading), empty text, spaces kept, markup, control
#: characters, numpy scalars, missing values, flags, large and signed numbers.
ROWS: list[list[object]] = [
    ["Rating list: standard, 2026-02: period report"],
    [],
    ["Period", "2026-02"],
    ["Events", np.int64(9685)],
    ["  rated", 87359],
    ["Mean", 1512.25, np.float64(0.1), 1 / 3],
    ["=SUM(A1:A2)"],
    ["-3", "+x", "@home", "\tleading tab", "\rcarriage"],
    ["", "Smith, John", 'say "hi"', "a<b&c>", "Ünal ☃"],
    [None, pd.NA, float("nan"), np.nan, "after the gaps"],
    ["flags", True, np.bool_(False)],
    ["big", 2**60, -(2**40), -0.0, 1e20, 12345678901234567],
    ["ctl\x01x\x1f", "trailing "],
    ["Notes"],
    ["", "a note that is long enough to be worth having in a summary"],
]


def _sheets(path: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(path) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


def _both(
    tmp_path: Path, rows: list[list[object]], monkeypatch: pytest.MonkeyPatch
) -> tuple[Path, Path]:
    sheets = [Sheet("Summary", rows=rows), Sheet("Players", frame=pd.DataFrame({"a": [1, 2]}))]
    fast, slow = tmp_path / "fast.xlsx", tmp_path / "slow.xlsx"
    write_workbook(sheets, fast)
    with monkeypatch.context() as patch:
        patch.setattr(workbook_module, "summary_rows", lambda *args: None)
        write_workbook(sheets, slow)
    return fast, slow


def test_the_same_bytes_as_openpyxl(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    made = []
    real = workbook_module.summary_rows

    def spy(*args: object) -> object:
        made.append(real(*args))  # type: ignore[arg-type]  # a spy forwards what it was given
        return made[-1]

    monkeypatch.setattr(workbook_module, "summary_rows", spy)
    fast = tmp_path / "fast.xlsx"
    sheets = [Sheet("Summary", rows=ROWS), Sheet("Players", frame=pd.DataFrame({"a": [1, 2]}))]
    write_workbook(sheets, fast)
    assert made and made[0] is not None  # the rows were made here, not by openpyxl
    monkeypatch.setattr(workbook_module, "summary_rows", lambda *args: None)
    slow = tmp_path / "slow.xlsx"
    write_workbook(sheets, slow)
    assert fast.read_bytes() == slow.read_bytes()
    sheet = _sheets(fast)["xl/worksheets/sheet1.xml"].decode()
    # Read against the values, not only against openpyxl: a few cells as Excel reads them.
    # A number sits on the left of its cell, beside its key (its style aligns it so).
    (style,) = re.findall(r'<c r="B4" s="(\d+)" t="n"><v>9685</v></c>', sheet)
    styles = _sheets(fast)["xl/styles.xml"].decode()
    cell_styles = re.search(r"<cellXfs[^>]*>(.*)</cellXfs>", styles, re.S)
    assert cell_styles is not None
    left = re.findall(r"<xf .*?(?:/>|</xf>)", cell_styles.group(1))[int(style)]
    assert '<alignment horizontal="left"' in left
    assert '<c r="A7" s="' in sheet and "<t>=SUM(A1:A2)</t>" in sheet
    assert '<c r="A9" t="inlineStr" />' in sheet and "<t>a&lt;b&amp;c&gt;</t>" in sheet
    assert '<c r="C11" t="b"><v>0</v></c>' in sheet and "<t>ctl?x?</t>" in sheet
    assert '<t xml:space="preserve">trailing </t>' in sheet and 'r="B10"' not in sheet


@pytest.mark.parametrize(
    "odd",
    [dt.date(2026, 2, 1), "#N/A", "x" * 40_000, float("inf")],
    ids=["date", "error-code", "too-long", "infinite"],
)
def test_values_not_made_here_are_left_to_openpyxl(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, odd: object
) -> None:
    rows = [*ROWS[:5], ["odd", odd], *ROWS[5:]]
    fast, slow = _both(tmp_path, rows, monkeypatch)
    assert workbook_module.summary_rows(rows[1:], 2, lambda style: 1) is None
    assert fast.read_bytes() == slow.read_bytes()
