"""Workbooks as a reader sees and prints them (writers/workbook.py): the columns saying whose a
row is stay in view and print on every page across, a row's pages one after the other; text
never runs into the number before it; long free text wraps within its column, its row as high
as its lines; a Summary's numbers sit beside their keys; a rating chart's axis spans the
ratings."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd

from rating_batch.writers import Sheet, write_chart_sheet, write_workbook


def _book(path: Path) -> Any:
    from openpyxl import load_workbook

    return load_workbook(path)


def _wide(rows: int = 3) -> pd.DataFrame:
    """A table wider than a page: an id, a name and 30 columns of numbers."""
    numbers = {f"value_{n:02d}": range(rows) for n in range(30)}
    return pd.DataFrame(
        {
            "id": pd.array([str(900000100 + n) for n in range(rows)], dtype="string"),
            "name": pd.array([f"Player {n}" for n in range(rows)], dtype="string"),
            **numbers,
        }
    )


def test_a_wide_sheet_prints_its_key_columns_on_every_page_a_row_after_the_other(
    tmp_path: Path,
) -> None:
    path = tmp_path / "w.xlsx"
    write_workbook([Sheet("Players", frame=_wide(), heading=["Players"], keys=2)], path)
    sheet = _book(path)["Players"]
    # 32 columns of 10-12 characters: over the 200 a landscape page holds at 75 %.
    assert sheet.page_setup.fitToWidth == 2
    assert sheet.print_title_cols == "$A:$B"  # id and name on each page across
    assert sheet.print_title_rows == "$3:$3"  # the header on each page down
    assert sheet.page_setup.pageOrder == "overThenDown"  # a row's second page next
    assert sheet.freeze_panes == "C4"  # on screen, id and name stay as the sheet scrolls
    # The heading above the table is not printed (cut at the repeated columns' edge on
    # the second page): each page's header gives it.
    assert sheet.print_area == "'Players'!$A$3:$AF$6"
    assert sheet.oddHeader.left.text == "Players"


def test_a_sheet_one_page_wide_prints_its_heading(tmp_path: Path) -> None:
    path = tmp_path / "n.xlsx"
    frame = _wide()[["id", "name", "value_00"]]
    write_workbook([Sheet("Players", frame=frame, heading=["Players"], keys=2)], path)
    sheet = _book(path)["Players"]
    assert sheet.page_setup.fitToWidth == 1 and not sheet.print_area


def test_text_is_set_off_from_the_number_before_it(tmp_path: Path) -> None:
    # A rank ends at the right edge of its column; the ID after it begins one character in
    # (indented), so 10 and 900000274 never read as 10900000274.
    path = tmp_path / "l.xlsx"
    frame = pd.DataFrame(
        {"rank": [10], "id": pd.array(["900000274"], dtype="string"), "played": [True]}
    )
    write_workbook([Sheet("List", frame=frame)], path)
    sheet = _book(path)["List"]
    rank, fide_id, played = sheet["A2"], sheet["B2"], sheet["C2"]
    assert (rank.value, rank.alignment.horizontal) == (10, None)  # a number: on the right
    assert (fide_id.value, fide_id.alignment.horizontal, fide_id.alignment.indent) == (
        "900000274", "left", 1,
    )  # fmt: skip
    assert (played.value, played.alignment.indent) == ("yes", 1)
    # Headings wrap within their column and stand over their values: right over numbers.
    assert sheet["A1"].alignment.horizontal == "right" and sheet["A1"].alignment.wrap_text
    assert sheet["B1"].alignment.horizontal == "left" and sheet["B1"].font.b
    # Columns as wide as their values and their headings' longest word (+2; text +1 more).
    assert sheet.column_dimensions["B"].width == len("900000274") + 3


def test_a_long_formula_wraps_in_its_column_its_row_as_high_as_its_lines(tmp_path: Path) -> None:
    formula = (
        "Ra = (17902 + 2 × 1800) / 13 = 1654.00; p = 4.5 / 13 = 0.35, dp -110; "
        "Ru = Ra + dp = 1544.00 → 1544"
    )  # 99 characters
    frame = pd.DataFrame(
        {
            "id": pd.array(["900000209", "900000210"], dtype="string"),
            "formula": pd.array([formula, "short"], dtype="string"),
            "outcome": pd.array(["published: 1544", None], dtype="string"),
        }
    )
    path = tmp_path / "f.xlsx"
    write_workbook([Sheet("Calculations", frame=frame)], path)
    sheet = _book(path)["Calculations"]
    assert sheet.column_dimensions["B"].width == 45
    assert sheet["B2"].value == formula and sheet["B2"].alignment.wrap_text
    # Wrapped at 45 characters, reckoned a tenth wider (38 a line): 3 lines of 15 points.
    assert sheet.row_dimensions[2].height == 45
    assert sheet.row_dimensions[3].height is None  # one line: as high as any row


def test_a_summarys_numbers_sit_beside_their_keys_and_notes_widen_nothing(
    tmp_path: Path,
) -> None:
    note = "no previous list given: each game uses the ratings written in its event file"
    rows: list[list[object]] = [
        ["Rating report"],
        ["Players", 137],
        ["Rules", "fide-2014: FIDE Rating Regulations effective 1 July 2014"],
        [],
        ["Events"],
        ["event", "name", "rounds"],
        ["open", "Club Open", 7],
        [],
        ["Notes"],
        ["", note],
    ]
    path = tmp_path / "s.xlsx"
    write_workbook([Sheet("Summary", rows=rows)], path)
    sheet = _book(path)["Summary"]
    assert sheet["B2"].value == 137 and sheet["B2"].alignment.horizontal == "left"
    # Column B as wide as the table needs ("Club Open" + 2): the rules' text and the note
    # spread over the empty cells to their right instead of widening it to 76.
    assert sheet.column_dimensions["B"].width == 11
    assert sheet["B10"].value == note


def test_a_rating_charts_axis_spans_the_ratings(tmp_path: Path) -> None:
    frame = pd.DataFrame({"period": ["2026-03"], "standard rating": [1544]})
    path = tmp_path / "c.xlsx"
    write_workbook([Sheet("Chart", frame=frame, writer=write_chart_sheet)], path)
    (chart,) = _book(path)["Chart"]._charts
    # 1544 on an axis from 1400 to 1600, not among 0-1800 gridlines.
    assert (chart.y_axis.scaling.min, chart.y_axis.scaling.max) == (1400, 1600)
