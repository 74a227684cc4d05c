"""The CSV writer's text, cell by cell: number formats, missing values, -0.0, repeated values
(each distinct value is formatted once and spread back) and formula-like text."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

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
