"""The other rating systems' lists (loaders/statelist.py, docs/formats.md §11)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
from db_helpers import process, query

from rating_batch.loaders.statelist import read_state_list

GLICKO2 = {"rating": "Float64", "rd": "Float64", "volatility": "Float64"}


def test_a_birth_year_of_0_or_0000_is_unknown(tmp_path: Path) -> None:
    """docs/formats.md §4.1: 0 and 0000 are an unknown birth year, in every list."""
    path = tmp_path / "state.csv"
    path.write_text(
        "id,name,birth_year,rating,rd,volatility\n"
        '11,"Aa, Bb",0,1600,80,0.06\n12,"Cc, Dd",0000,1500,80,0.06\n13,"Ee, Ff",1990,1700,80,0.06\n'
    )
    listed = read_state_list(path, GLICKO2, "glicko2")
    assert listed["birth_year"].tolist() == [pd.NA, pd.NA, "1990"]
    db = tmp_path / "g.sqlite"
    code, _, err = process("init", "--list", path, "--rules", "glicko2", "--db", db)
    assert code == 0, err
    assert query(db, "SELECT fide_id, birth_year FROM players ORDER BY fide_id") == [
        (11, None),
        (12, None),
        (13, 1990),
    ]
