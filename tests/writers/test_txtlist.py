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


def test_formula_text_is_neutralised_as_in_csv_and_reads_back_as_it_was(tmp_path: Path) -> None:
    """A spreadsheet importing list.txt would evaluate ``=1+1``: every text cell is written
    as the CSV writers write it (``'=1+1``), and the reader takes the apostrophe off again."""
    frame = listing(["900000001", "900000002", "=evil#3"]).assign(
        name=["=1+1", "@SUM(A1:A2)", "-2+3"], o_title=[None, "=WT", None]
    )
    path = tmp_path / "list.txt"
    write_list_txt(frame, path, period="2026-03")
    lines = path.read_bytes().decode("ascii").split("\r\n")
    assert [line[15:31] for line in lines[1:4]] == ["'=1+1".ljust(16), "'@SUM(A1:A2)".ljust(16),
                                                    "'-2+3".ljust(16)]  # fmt: skip
    assert lines[2][94:98] == "'=WT"  # OTit after 15 + 61 + 4 + 4 + 5 + 5 columns
    assert lines[3].startswith("'=evil#3 ")
    back = read_rating_list(path).frame
    assert back["name"].tolist() == ["=1+1", "@SUM(A1:A2)", "-2+3"]
    assert back["own_id"].tolist() == [pd.NA, pd.NA, "=evil#3"]
    assert back["o_title"].tolist() == [pd.NA, "=WT", pd.NA]


def test_each_cell_as_fides_layout_gives_it(tmp_path: Path) -> None:
    """Cells are made a column at a time: each still reads as its own rule gives it. By
    hand, from FIDE's widths: ID 15, Name 61 (cut at 60), Fed 4, Sex 4, Tit 5, WTit 5, OTit
    15 (a longer one runs on, one space after), FOA 4, rating 6, Gms 4, K 3, B-day 6, Flag 4.
    """
    frame = pd.DataFrame(
        {
            "id": ["1", "2", "3"],
            "name": ["Łukasz, Żółć", "Tab\there", "N" * 70],  # a letter beyond ASCII, a tab, long
            "federation": ["POL", None, "IRL"],
            "sex": ["M", "F", "F"],
            "title": [None, None, None],
            "w_title": [None, "WGM", None],
            "o_title": [None, None, "FA,IA,FST,DI,IO"],  # 15 characters: longer than 14
            "foa_title": [None, None, None],
            "rating": pd.array([2100, None, 1500], dtype="Int64"),
            "games": [0, 9, 12],
            "k": pd.array([20, 40, None], dtype="Int64"),
            "birth_year": [1990, 2010, 1977],
            "inactive": [False, False, True],
        }
    )
    path = tmp_path / "list.txt"
    write_list_txt(frame, path, period="2026-03")
    lines = path.read_bytes().decode("ascii").split("\r\n")
    start = 15 + 61 + 4 + 4 + 5 + 5  # where OTit begins
    assert lines[1] == (
        "1".ljust(15) + "Lukasz, Zolc".ljust(61) + "POL " + "M   " + " " * (5 + 5 + 15 + 4)
        + "2100  " + "0   " + "20 " + "1990"
    )  # fmt: skip
    assert lines[2] == (
        "2".ljust(15) + "Tab here".ljust(61) + " " * 4 + "F   " + " " * 5 + "WGM  "
        + " " * (15 + 4) + "0     " + "9   " + "40 " + "2010  " + "w"
    )  # fmt: skip
    assert lines[3][15:76] == "N" * 60 + " "
    assert lines[3][start:] == "FA,IA,FST,DI,IO " + " " * 4 + "1500  12  0  1977  wi"
    assert lines[4] == ""
