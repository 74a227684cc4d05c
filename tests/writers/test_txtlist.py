"""FIDE's fixed-width TXT list (writers/txtlist.py): an id longer than FIDE's column widens it
by the header, so that the list reads back with every id whole."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from rating_batch.loaders.ratinglist import read_rating_list
from rating_batch.writers.txtlist import write_list_txt

COLUMNS = ("name", "federation", "sex", "title", "w_title", "o_title", "foa_title")


def listing(ids: list[str]) -> pd.DataFrame:
    frame = pd.DataFrame({"id": ids, **{c: [None] * len(ids) for c in COLUMNS}})
    return frame.assign(name=[f"P{n}" for n in range(len(ids))], rating=1500, games=0, k=20,
                        birth_year=1980, inactive=False)  # fmt: skip


def test_fide_ids_keep_fides_layout(tmp_path: Path) -> None:
    path = tmp_path / "list.txt"
    write_list_txt(listing(["900000001", "n1#7"]), path, period="2026-03")
    lines = path.read_bytes().decode("ascii").split("\r\n")
    assert lines[0].startswith("ID Number      Name ")  # 15 characters, as FIDE's
    assert lines[2].startswith("n1#7           P1 ")


def test_a_longer_id_widens_the_column_and_reads_back_whole(tmp_path: Path) -> None:
    # 26 characters: cut at 14 it was "synthetic-2026", no player's id.
    long = "synthetic-2026-02-00005#12"
    path = tmp_path / "list.txt"
    write_list_txt(listing(["900000001", long]), path, period="2026-03")
    lines = path.read_bytes().decode("ascii").split("\r\n")
    assert lines[0].startswith("ID Number" + " " * 18 + "Name ")
    assert lines[2].startswith(long + " P1 ")
    back = read_rating_list(path).frame
    assert back["id"].tolist() == [900000001, pd.NA]
    assert back["own_id"].tolist() == [pd.NA, long]
    assert back["name"].tolist() == ["P0", "P1"]
