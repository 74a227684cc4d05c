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
