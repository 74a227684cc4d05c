"""US Chess's MSA crosstable laid out (writers/msa.py, docs/systems.md §9.15): msa.html and the
Crosstable sheet from a crosstable frame as ``systems.uscf.report.crosstable`` makes it. The
whole path from event files: tests/test_uscf_cli.py."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
from html_text import read_page
from openpyxl import load_workbook
from workbooks import table

from rating_batch.systems.uscf.report import COLUMNS, RATING_COLUMNS
from rating_batch.writers.msa import FIDE_NOTE, msa_sheet, write_msa_html
from rating_batch.writers.workbook import write_workbook


def section() -> pd.DataFrame:
    """One section of two rounds: a name a page must not take for markup, a player without
    an ID, and nobody on a FIDE conversion."""
    return pd.DataFrame(
        {
            "event": ["202608010253-5"] * 2, "section": ["Open"] * 2, "pair": [1, 2],
            "id": ["11", pd.NA], "name": ["<b>One</b>, Ann", "Two, Bea"],
            "federation": ["USA", ""], "total": [1.5, 0.5],
            "round_1": ["W 2", "L 1"], "colour_1": ["W", "B"],
            "round_2": ["H", "U"], "colour_2": ["", ""],
            "pre": [1500, pd.NA], "pre_games": [30, 0], "pre_from": ["rated", "unrated"],
            "post": [1508, 1100], "post_games": [31, 1],
            "pre_text": ["1500", "Unrated"], "post_text": ["1508", "1100P1"],
        }
    )  # fmt: skip


def test_the_page_shows_each_player_on_two_lines(tmp_path: Path) -> None:
    path = tmp_path / "msa.html"
    write_msa_html(section(), "Crosstable: Open", path)
    text = path.read_text("utf-8")
    page = read_page(text)
    assert page.rows[1:] == [
        ["1", "<b>One</b>, Ann", "1.5", "W 2", "H"],
        ["USA", "11 / R: 1500 → 1508", "", "W", ""],
        ["2", "Two, Bea", "0.5", "L 1", "U"],
        ["", "no ID / R: Unrated → 1100P1", "", "B", ""],
    ]
    assert "<b>One" not in text  # escaped, not markup
    # The FIDE note only where a pre-event rating is a FIDE conversion.
    assert FIDE_NOTE not in page.paragraphs
    assert "Open" in page.headings


def test_a_run_without_sections_says_so(tmp_path: Path) -> None:
    empty = pd.DataFrame({c: pd.Series(dtype="object") for c in [*COLUMNS, *RATING_COLUMNS]})
    path = tmp_path / "msa.html"
    write_msa_html(empty, "Crosstable: 2026-08", path)
    page = read_page(path.read_text("utf-8"))
    assert "No section was rated in this run." in page.paragraphs
    assert page.rows == []
    book = tmp_path / "report.xlsx"
    write_workbook([msa_sheet(empty, "2026-08")], book)
    assert table(load_workbook(book)["Crosstable"]) == []


def test_the_sheet_has_whole_ratings_and_the_rounds(tmp_path: Path) -> None:
    book = tmp_path / "report.xlsx"
    write_workbook([msa_sheet(section(), "Open")], book)
    sheet = load_workbook(book)["Crosstable"]
    assert table(sheet) == [
        {"event": "202608010253-5", "section": "Open", "pair": 1, "name": "<b>One</b>, Ann",
         "id": "11", "federation": "USA", "total": 1.5, "Rd 1": "W 2", "Rd 2": "H",
         "pre": 1500, "post": 1508, "rating": "1500 → 1508"},
        {"event": "202608010253-5", "section": "Open", "pair": 2, "name": "Two, Bea",
         "id": None, "federation": None, "total": 0.5, "Rd 1": "L 1", "Rd 2": "U",
         "pre": None, "post": 1100, "rating": "Unrated → 1100P1"},
    ]  # fmt: skip
    assert sheet["A1"].value == "Crosstable (US Chess MSA) — Open"
    # The sheet has no colour line, and its legend does not speak of one.
    assert "U not played. Ratings are whole numbers" in sheet["A2"].value
