"""Rating lists (loaders/ratinglist.py): our own lists read back as they were, whatever their
format: a player without a FIDE ID by the id we give them, list.xlsx's header below its title.
Every list we publish, read back through the commands: tests/monthly/test_init.py."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
from openpyxl import Workbook

from rating_batch.errors import InputError
from rating_batch.loaders import is_rating_list
from rating_batch.loaders.ratinglist import parse_fide_txt, parse_rating_list_csv, read_rating_list
from rating_batch.writers import write_csv

NOT_AN_ID = (
    "is neither a FIDE ID (digits) nor the id rating_batch gives a player without one "
    "(<event>#<start rank>)"
)


def test_a_player_without_a_fide_id_is_read_by_our_id() -> None:
    text = (
        'id,name,federation,birth_year,rating\n11,"A, Ann",ITA,1980,1800\n'
        'n1#7,"Newbie, Sam",ITA,2010,1749\n'
    )
    listed = parse_rating_list_csv(text, source="l.csv")
    assert listed.issues == []
    frame = listed.frame
    assert frame["id"].tolist() == [11, pd.NA]
    assert frame["own_id"].tolist() == [pd.NA, "n1#7"]
    assert frame["standard_rating"].tolist() == [1800, 1749]


@pytest.mark.parametrize(
    "written", ["abc", "n1#", "#7", "n1#0", "n1#7x", "ESP-1234"], ids=lambda text: text
)
def test_an_id_neither_fide_nor_ours_is_an_error_naming_the_line(written: str) -> None:
    listed = parse_rating_list_csv(f"id,rating\n11,1800\n{written},1700\n", source="l.csv")
    assert [str(issue) for issue in listed.issues] == [
        f"l.csv:3: column 'id': {written!r} {NOT_AN_ID}"
    ]


def test_our_id_in_the_fide_txt_layout() -> None:
    # FIDE's columns, narrowed: each field starts where its label does (docs/formats.md §10.1).
    header = "ID Number     Name          Fed Sex Tit WTit OTit FOA FEB26 Gms K B-day Flag"
    rows = [
        ("11", "A, Ann", "1800  0 20 1980"),
        ("n1#7", "Newbie, Sam", "1749  6 40 2010"),
        ("Open 2026#12", "Other, Oz", "1500  5 40 2009"),
        ("x-7", "Wrong, Will", "1500 5 40 2009"),
    ]
    text = "\n".join(
        [header, *(f"{i:<14}{name:<14}ITA M            {tail}" for i, name, tail in rows)]
    )
    listed = parse_fide_txt(text, source="l.txt")
    assert [str(issue) for issue in listed.issues] == [f"l.txt:5: ID Number 'x-7' {NOT_AN_ID}"]
    assert listed.frame["own_id"].tolist()[:3] == [pd.NA, "n1#7", "Open 2026#12"]
    assert listed.frame["id"].tolist()[:3] == [11, pd.NA, pd.NA]
    assert listed.frame["name"].tolist()[:3] == ["A, Ann", "Newbie, Sam", "Other, Oz"]
    assert listed.frame["standard_rating"].tolist()[:3] == [1800, 1749, 1500]


def test_our_id_twice_is_an_error(tmp_path: Path) -> None:
    path = tmp_path / "l.csv"
    path.write_text("id,rating\nn1#7,1749\n11,1800\nn1#7,1700\n")
    with pytest.raises(InputError) as raised:
        read_rating_list(path)
    assert [str(issue) for issue in raised.value.issues] == [
        f"{path}:4: id 'n1#7' is also on line 2: one player, one row"
    ]


def test_a_national_id_twice_is_an_error_and_names_a_row_without_a_fide_id(
    tmp_path: Path,
) -> None:
    # docs/formats.md §11.1: the federation's id (here under the DSB's header) names one
    # person; a row with it needs no FIDE ID. Compared in capitals.
    path = tmp_path / "l.csv"
    path.write_text("id,zps,rating\n,c0327-123,1580\n11,,1800\n12,C0327-123,1700\n")
    with pytest.raises(InputError) as raised:
        read_rating_list(path)
    assert [str(issue) for issue in raised.value.issues] == [
        f"{path}:4: national id C0327-123 is also on line 2: one player, one row"
    ]


def test_a_row_without_any_id_is_still_an_error() -> None:
    listed = parse_rating_list_csv("id,rating\n,1500\n", source="l.csv")
    assert [str(issue) for issue in listed.issues] == ["l.csv:2: column 'id': missing FIDE ID"]


def our_workbook(path: Path, rows: list[list[object]]) -> Path:
    """A list.xlsx laid out as publish writes it: title, rules line, a blank row, then the
    header with a rank column (pipelines/published.py, list_sheets)."""
    book = Workbook()
    sheet = book.active
    sheet.title = "List"
    for row in [["Rating list: standard, 2026-03"], ["rules fide-2025: FIDE …"], [], *rows]:
        sheet.append(row)
    book.save(path)
    return path


def test_a_header_below_the_lists_title_is_found(tmp_path: Path) -> None:
    path = our_workbook(
        tmp_path / "list.xlsx",
        [["rank", "id", "name", "rating", "k", "inactive", "ever_2400"],
         [1, 11, "A, Ann", 1800, 20, "no", "no"],
         [2, "n1#7", "Newbie, Sam", 1749, 40, "no", "no"]],
    )  # fmt: skip
    assert is_rating_list(path)  # check reads it as a list, not as a crosstable
    listed = read_rating_list(path)
    frame = listed.frame
    assert frame["line"].tolist() == [5, 6]  # the sheet's rows
    assert frame["own_id"].tolist() == [pd.NA, "n1#7"]
    assert frame["standard_k"].tolist() == [20, 40]
    assert frame["standard_ever_2400"].tolist() == [False, False]


def test_a_header_without_id_is_told_on_its_row(tmp_path: Path) -> None:
    path = our_workbook(
        tmp_path / "list.xlsx", [["rank", "fide", "name", "rating"], [1, 11, "A", 1800]]
    )
    with pytest.raises(InputError) as raised:
        read_rating_list(path)
    assert [str(issue) for issue in raised.value.issues] == [
        f"{path}[List]:4: missing column 'id' (the header must name it)"
    ]


def test_text_our_csv_writer_neutralised_reads_back_as_it_was(tmp_path: Path) -> None:
    # A player without a FIDE ID from the file "-open.trf", named like a formula: list.csv
    # writes '-open#3 and '=Plus, Pat (writers/csvfile.py); read back, they are as they were.
    frame = pd.DataFrame(
        {
            "id": pd.array(["-open#3", "11"], dtype="string"),
            "name": pd.array(["=Plus, Pat", "O'Hara, Ann"], dtype="string"),
            "rating": [1500, 1600],
        }
    )
    path = tmp_path / "list.csv"
    write_csv(frame, path)
    assert "'-open#3,\"'=Plus, Pat\"" in path.read_text(encoding="utf-8-sig")
    back = read_rating_list(path).frame
    assert back["own_id"].tolist() == ["-open#3", pd.NA]
    assert back["name"].tolist() == ["=Plus, Pat", "O'Hara, Ann"]


def test_a_list_larger_than_an_event_may_be_is_still_told_a_list(tmp_path: Path) -> None:
    # R3-20: a list over the event bound (64 MiB) was judged an event and refused by check,
    # while init read it. Lists may be up to 1 GiB; the kind is told from the file's head.
    path = tmp_path / "list_65mb.csv"
    pad = "x" * 9000
    with path.open("w") as handle:
        handle.write("id,rating,notes\n")
        for i in range(7500):
            handle.write(f"{910000000 + i},{1500 + i % 900},{pad}\n")
    assert path.stat().st_size > 64 * 1024 * 1024
    assert is_rating_list(path)


@pytest.mark.parametrize("suffix", [".csv", ".txt"])
def test_a_list_with_two_byte_order_marks_is_a_list(tmp_path: Path, suffix: str) -> None:
    # R3-27: a careless export writes the BOM twice; the second is no part of the header.
    bom = b"\xef\xbb\xbf"
    if suffix == ".csv":
        body = b"id,rating\n900000001,1800\n"
    else:
        body = (
            b"ID Number      Name                                                         "
            b"Fed Sex Tit  WTit OTit           FOA SRtng SGm SK RRtng RGm Rk BRtng BGm BK "
            b"B-day Flag\n"
        )
    path = tmp_path / f"list{suffix}"
    path.write_bytes(bom + bom + body)
    assert is_rating_list(path)
    if suffix == ".csv":
        assert read_rating_list(path).frame["standard_rating"].tolist() == [1800]
