"""The CSV writer's text, cell by cell: number formats, missing values, -0.0, repeated values
(each distinct value is formatted once and spread back) and formula-like text; and workbook
tables longer than a sheet."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from rating_batch.writers import write_csv


def test_csv_text_of_every_column_type(tmp_path: Path) -> None:
    frame = pd.DataFrame(
        {
            "name": ["=1+1", "Bravo, Bob", None, "=1+1", "Bravo, Bob"],
            "rating": pd.array([1850, None, 1600, 1850, 1850], dtype="Int64"),
            "score": [1.0, 0.5, np.nan, 1.0, 0.0],
            "expected": [0.125, 0.5, 0.5, np.nan, 0.125],
            "change": [-0.0, 0.0, 7.499, -0.0, 0.0],
            "counted": pd.array([True, None, False, True, True], dtype="boolean"),
        }
    )
    path = tmp_path / "t.csv"
    write_csv(frame, path)
    # By hand: 0.125 is exact in binary, so "{:.2f}" rounds half to even: 0.12.
    assert path.read_bytes().decode("utf-8-sig").splitlines() == [
        "name,rating,score,expected,change,counted",
        "'=1+1,1850,1,0.12,-0.00,true",
        '"Bravo, Bob",,0.5,0.50,0.00,',
        ",1600,,0.50,7.50,false",
        "'=1+1,1850,1,,-0.00,true",
        '"Bravo, Bob",1850,0,0.12,0.00,true',
    ]


def test_quoted_fields_read_back_as_written(tmp_path: Path) -> None:
    # Texts with every character that needs quoting (RFC 4180), read back by the csv module;
    # a lone CR is quoted too (csv.writer would leave it bare: a broken row in a spreadsheet).
    texts = ['say "hi"', "two\nlines", "carriage\rreturn", "a,b", "", "plain", None, " pad "]
    frame = pd.DataFrame({"text": texts, "n": range(len(texts))})
    path = tmp_path / "q.csv"
    write_csv(frame, path)
    raw = path.read_bytes().decode("utf-8-sig")
    assert raw.startswith('text,n\n"say ""hi""",0\n"two\nlines",1\n"carriage\rreturn",2\n"a,b",3\n')
    assert raw.endswith(",4\nplain,5\n,6\n pad ,7\n")
    import csv

    with path.open(encoding="utf-8-sig", newline="") as handle:
        back = list(csv.reader(handle))
    assert back[1:] == [[t or "", str(i)] for i, t in enumerate(texts)]


def test_a_one_column_file_keeps_its_empty_rows(tmp_path: Path) -> None:
    # csv.writer writes a row of one empty field as "" (else it would be a blank line).
    path = tmp_path / "one.csv"
    write_csv(pd.DataFrame({"only": ["x", None, "y"]}), path)
    assert path.read_bytes().decode("utf-8-sig") == 'only\nx\n""\ny\n'


def test_a_table_longer_than_a_sheet_goes_on_in_the_next(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # FIDE's list has 1.6 M players; a sheet holds 1,048,576 rows. With a limit of 4 rows
    # (header + 3), 7 players fill "List" (1-3), "List (2)" (4-6) and "List (3)" (7).
    from openpyxl import load_workbook

    from rating_batch import writers

    monkeypatch.setattr(writers.workbook, "MAX_SHEET_ROWS", 4)
    frame = pd.DataFrame({"id": range(1, 8), "rating": [2000 + i for i in range(1, 8)]})
    path = tmp_path / "list.xlsx"
    writers.write_workbook([writers.Sheet("List", frame=frame)], path)
    book = load_workbook(path, read_only=True)
    assert book.sheetnames == ["List", "List (2)", "List (3)"]
    assert [list(book[name].iter_rows(values_only=True)) for name in book.sheetnames] == [
        [("id", "rating"), (1, 2001), (2, 2002), (3, 2003)],
        [("id", "rating"), (4, 2004), (5, 2005), (6, 2006)],
        [("id", "rating"), (7, 2007)],
    ]


def test_files_written_in_blocks_are_the_same_bytes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Big files are made 100,000 rows at a time; with blocks of 2 rows the CSV, the TXT list
    # and the workbook must be byte for byte what one block gives.
    from rating_batch import writers

    listing = pd.DataFrame(
        {
            "id": pd.array([11, 12, 13, 14, 15], dtype="Int64"),
            "name": ["Ó Briain, Seán", "B, b", None, '"Q"', "=HYPERLINK()"],
            "federation": ["IRL", "ESP", None, "IRL", "IRL"],
            "sex": ["M", "F", None, "F", "M"],
            "title": [None, "WGM", None, None, "FM"],
            "birth_year": pd.array([1990, None, 2001, 1980, 1975], dtype="Int64"),
            "rating": pd.array([2400, 2100, 1500, 1800, 2000], dtype="Int64"),
            "k": pd.array([10, 20, 40, 20, 20], dtype="Int64"),
            "games": pd.array([3, 0, 9, 1, 0], dtype="Int64"),
            "inactive": [False, True, False, False, True],
            "change": [1.5, -0.0, np.nan, 2.25, 0.0],
        }
    )

    def write_all(folder: Path) -> dict[str, bytes]:
        folder.mkdir()
        writers.write_csv(listing, folder / "l.csv")
        writers.write_list_txt(listing, folder / "l.txt", period="2026-02")
        writers.write_workbook([writers.Sheet("List", frame=listing)], folder / "l.xlsx")
        return {path.name: path.read_bytes() for path in sorted(folder.iterdir())}

    whole = write_all(tmp_path / "whole")
    monkeypatch.setattr(writers.csvfile, "CSV_BLOCK", 2)
    monkeypatch.setattr(writers.txtlist, "CSV_BLOCK", 2)
    monkeypatch.setattr(writers.sheet_rows, "ROW_BLOCK", 2)
    assert write_all(tmp_path / "blocks") == whole
    text = whole["l.txt"].decode("ascii").splitlines()
    assert len(text) == 6 and text[1].startswith("11             O Briain, Sean")


def test_a_cut_detail_sheet_is_named_in_the_summary() -> None:
    from rating_batch.writers import MAX_DETAIL_ROWS, detail_notes

    assert MAX_DETAIL_ROWS == 100_000
    assert detail_notes("Games", 100_000) == []
    assert detail_notes("Calculations", 250_000) == [
        "the Calculations sheet holds the first 100,000 of 250,000 rows: "
        "calculations.csv has them all"
    ]


def test_result_codes_are_written_as_they_are_and_free_text_is_neutralised(
    tmp_path: Path,
) -> None:
    # outputs.md: games.csv's result is "the code as written"; a one-character code of TRF's
    # closed set cannot carry a formula. A name that starts like a formula still can.
    frame = pd.DataFrame({"result": ["=", "+", "-", "1"], "name": ["=A", "+B", "-C", "@D"]})
    path = tmp_path / "games.csv"
    write_csv(frame, path)
    assert path.read_bytes().decode("utf-8-sig").splitlines() == [
        "result,name",
        "=,'=A",
        "+,'+B",
        "-,'-C",
        "1,'@D",
    ]


def test_each_text_quoted_and_neutralised_as_on_its_own(tmp_path: Path) -> None:
    """Texts are checked all at once (in their concatenation): each one still gets exactly
    what RFC 4180 and the formula rule give it alone, wherever it sits among the others."""
    texts = [
        "plain", "", "Smith, John", 'say "hi"', "two\nlines", "lone\rCR", "=SUM(A1)", "+1",
        "-3", "@x", "\ttab", "\rstart", "ends,", ",", '"', "Ünal, Ömer", "☃=", "a=b", "x" * 50,
        "'quoted already", "=,both", "", "tail ",
    ]  # fmt: skip
    rows = texts * 3 + list(reversed(texts))
    path = tmp_path / "t.csv"
    write_csv(pd.DataFrame({"name": rows, "result": rows}), path)
    import csv

    with path.open(encoding="utf-8-sig", newline="") as handle:
        read = list(csv.reader(handle))
    formula = ("=", "+", "-", "@", "\t", "\r")
    assert read[0] == ["name", "result"]
    # Free text: formula-like ones prefixed with an apostrophe; codes (result) as written.
    assert [row[0] for row in read[1:]] == [("'" + t if t.startswith(formula) else t) for t in rows]
    assert [row[1] for row in read[1:]] == rows
    text = path.read_bytes().decode("utf-8-sig")
    assert '"Smith, John"' in text and '"say ""hi"""' in text and '"lone\rCR"' in text
    assert "\nplain," in text and '"\'=,both"' in text


@pytest.mark.parametrize("block", [2, 100_000])
def test_a_column_needing_no_change_is_written_as_it_is(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, block: int
) -> None:
    """A text column is checked whole, a block of rows at a time, before it is written as it
    is (``_as_they_are``): a text anywhere in it (here in the last block of two rows) that
    needs quoting or neutralising still gets it, a missing one is empty, and text with the
    signs inside (not first) is left alone."""
    from rating_batch.writers import csvfile

    monkeypatch.setattr(csvfile, "CSV_BLOCK", block)
    frame = pd.DataFrame(
        {
            "id": pd.array(["900001", None, "900003", "900004"], dtype="string"),
            "event": ["open-2026", "O'Brien cup", "rapid-1", "x@y"],
            "late": ["a-b", "c", "d", "-4"],  # a sign first only in the last row
            "quote": pd.array(["ab", "c", "'=d", "e"], dtype="string"),
            "result": ["=", "-", "+", "1"],  # codes: as written even first
        }
    )
    path = tmp_path / "t.csv"
    write_csv(frame, path)
    assert path.read_bytes().decode("utf-8-sig").splitlines() == [
        "id,event,late,quote,result",
        "900001,open-2026,a-b,ab,=",
        ",O'Brien cup,c,c,-",
        "900003,rapid-1,d,''=d,+",
        "900004,x@y,'-4,e,1",
    ]
