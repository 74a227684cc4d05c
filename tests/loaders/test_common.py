"""Helpers shared by the loaders (loaders/common.py): reading one XLSX sheet."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
from openpyxl import Workbook
from openpyxl.styles import PatternFill
from workbooks import raw_workbook

from rating_batch.errors import InputError, Issue
from rating_batch.loaders import read_event, read_rating_list
from rating_batch.loaders.common import MAX_LIST_CELLS, read_sheet

LIST_CELLS: dict[str, object] = {
    "A1": "id", "B1": "rating", "A2": 11, "B2": 1600, "A3": 12, "B3": 1500,
}  # fmt: skip


@pytest.mark.parametrize(
    "dimension",
    ["A1:B2", "A1:XFD1048576", None],
    ids=["declared-smaller", "declared-the-whole-grid", "none-declared"],
)
def test_a_sheet_is_read_by_its_cells_whatever_dimension_it_declares(
    dimension: str | None, tmp_path: Path
) -> None:
    path = raw_workbook(tmp_path / "list.xlsx", LIST_CELLS, dimension)
    listing = read_rating_list(path)
    assert listing.frame["id"].tolist() == [11, 12]
    assert listing.frame["standard_rating"].tolist() == [1600, 1500]
    assert read_sheet(path, None, str, MAX_LIST_CELLS) == (
        f"{path}[Sheet1]",
        [["id", "rating"], ["11", "1600"], ["12", "1500"]],
    )


def test_a_sheet_is_refused_at_the_row_where_it_passes_the_bound(tmp_path: Path) -> None:
    # One cell in column XFD makes its row 16,384 columns wide. An event sheet is read up to
    # 1,000,000 cells: 61 rows are 999,424, 62 rows are 1,015,808.
    path = raw_workbook(tmp_path / "wide.xlsx", {"A1": "no", "XFD62": 1})
    with pytest.raises(InputError) as raised:
        read_event(path)
    assert raised.value.issues == [
        Issue(
            f"{path}[Sheet1]",
            62,
            "the sheet reaches row 62 and column XFD: 1,015,808 cells; at most 1,000,000 are "
            "read: delete what lies beyond the table (cells or their formatting), or copy the "
            "table to a new sheet",
        )
    ]
    within = raw_workbook(tmp_path / "within.xlsx", {"A1": "no", "XFD61": 1})
    assert [str(issue) for issue in read_event(within).issues] == [
        f"{within}[Sheet1]: no header row with a 'Name' column and a number or round columns"
    ]
    # A list is read up to 1,048,576 × 24 = 25,165,824 cells: 1,536 rows × 16,384 columns are
    # exactly that, 1,537 rows are 25,182,208.
    path = raw_workbook(tmp_path / "wide-list.xlsx", {"A1": "id", "B1": "rating", "XFD1537": 1})
    with pytest.raises(InputError) as raised:
        read_rating_list(path)
    assert [(issue.line, issue.message.split(";")[0]) for issue in raised.value.issues] == [
        (1537, "the sheet reaches row 1,537 and column XFD: 25,182,208 cells")
    ]


def test_trailing_empty_cells_read_as_empty_cells(tmp_path: Path) -> None:
    # The row of player 11 stops at column B, but the sheet reaches column H (a coloured
    # cell, H40): its empty cells are read as empty texts, as the CSV's are, so the flags
    # are false, not missing.
    book = Workbook()
    sheet = book.active
    for row in (["id", "rating", "inactive", "ever_2400"], [11, 1600], [12, 1500, "yes", "true"]):
        sheet.append(row)
    sheet["H40"].fill = PatternFill("solid", fgColor="FFFF00")
    book.save(tmp_path / "list.xlsx")
    (tmp_path / "list.csv").write_text(
        "id,rating,inactive,ever_2400\n11,1600,,\n12,1500,yes,true\n"
    )
    result = read_rating_list(tmp_path / "list.xlsx").frame
    expected = read_rating_list(tmp_path / "list.csv").frame
    pd.testing.assert_frame_equal(result, expected)
    assert result["inactive"].tolist() == [False, True]
    assert result["standard_ever_2400"].tolist() == [False, True]
    assert read_sheet(tmp_path / "list.xlsx", None, str, MAX_LIST_CELLS)[1][1] == [
        "11", "1600", "", "", "", "", "", "",
    ]  # fmt: skip


def test_a_cell_that_cannot_be_read_is_a_message(tmp_path: Path) -> None:
    # B2 is written <v>nan</v>: a number cell holding no number.
    path = raw_workbook(tmp_path / "damaged.xlsx", {**LIST_CELLS, "B2": float("nan")})
    message = (
        "a cell after row 1 cannot be read (invalid literal for int() with base 10: 'nan'): a "
        "damaged file? open it in a spreadsheet and save it again"
    )
    for read in (read_event, read_rating_list):
        with pytest.raises(InputError) as raised:
            read(path)
        assert raised.value.issues == [Issue(f"{path}[Sheet1]", None, message)]
