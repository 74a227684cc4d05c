"""``init`` (production/init.py): a database from a rating list, refusing any existing path."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import DATA
from db_helpers import rows, run, write_list

from rating_batch.loaders.ratinglist import read_rating_list


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    return tmp_path


LISTS = sorted(p for p in (DATA / "lists").iterdir() if p.suffix in (".txt", ".xml"))


@pytest.mark.parametrize("path", LISTS, ids=[p.name[:40] for p in LISTS])
def test_init_then_export_loses_no_field(path: Path, folder: Path) -> None:
    original = read_rating_list(path)
    db = folder / "r.sqlite"
    assert run("init", "--list", path, "--db", db)[0] == 0
    code, _out, _ = run(
        "export-list",
        "initial" if original.month is None else f"{original.month[0]}-{original.month[1]:02d}",
        "--db",
        db,
        "--out",
        folder / "out",
    )
    assert code == 0
    for kind in original.kinds:
        expected = original.frame[original.frame[f"{kind}_rating"].notna()].set_index("id")
        for written in ("list.csv", "list.txt"):
            folder_name = (
                "initial"
                if original.month is None
                else f"{original.month[0]}-{original.month[1]:02d}"
            )
            back = read_rating_list(
                folder / "out" / folder_name / kind / written, kind=kind
            ).frame.set_index("id")
            assert sorted(back.index) == sorted(expected.index), (kind, written)
            for column in (
                "name",
                "federation",
                "sex",
                "title",
                "w_title",
                "o_title",
                "foa_title",
                "birth_year",
                "inactive",
            ):
                left = expected[column].reindex(back.index)
                assert (
                    left.astype("string").fillna("").str.strip().tolist()
                    == back[column].astype("string").fillna("").str.strip().tolist()
                ), (kind, written, column)
            for column in ("rating", "k", "games"):
                name = f"{kind}_{column}"
                assert (
                    expected[name].reindex(back.index).fillna(0).tolist()
                    == back[name].fillna(0).tolist()
                ), (kind, written, column)


def test_init_refuses_an_existing_database(folder: Path) -> None:
    db = folder / "r.sqlite"
    listing = write_list(folder, ["id,rating", "11,1600"])
    assert run("init", "--list", listing, "--db", db)[0] == 0
    before = db.read_bytes()
    code, _, err = run("init", "--list", listing, "--db", db)
    assert (code, err) == (
        1,
        f"Error: {db}: already exists; init never replaces a file: give another --db path "
        "(the file was not changed)\n",
    )
    assert db.read_bytes() == before


def test_commands_without_a_database_say_how_to_make_one(folder: Path) -> None:
    code, _, err = run("publish", "2026-02", "--db", folder / "none.sqlite")
    assert code == 1 and "create one with 'rating-batch init --list FILE'" in err
    assert not (folder / "none.sqlite").exists()


def test_init_from_an_xlsx_list(folder: Path) -> None:
    from openpyxl import Workbook

    book = Workbook()
    sheet = book.active
    for row in (
        ["id", "name", "rating", "k", "birth_year"],
        [11, "A, Ann", 1600, 20, 1980],
        [12, "B, Bob", 1500.0, 40, 2012],
    ):
        sheet.append(row)
    path = folder / "list.xlsx"
    book.save(path)
    db = folder / "r.sqlite"
    code, out, err = run("init", "--list", path, "--period", "2026-01", "--db", db)
    assert code == 0, err
    assert "standard: 2 rated players" in out
    run("export-list", "2026-01", "--db", db, "--out", folder / "out")
    listed = rows(folder / "out" / "2026-01" / "standard" / "list.csv")
    assert [(r["name"], r["rating"], r["k"]) for r in listed.values()] == [
        ("A, Ann", "1600", "20"),
        ("B, Bob", "1500", "40"),
    ]
