"""``player`` (production/player.py): FIDE IDs only, --name to search; read-only."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import DATA
from db_helpers import add_one_game, database, event_file, run
from trf_text import P


def test_a_number_that_is_no_fide_id_shows_nobody(tmp_path: Path) -> None:
    db = database(tmp_path)
    code, _, err = run("player", "1", "--db", db)  # the database's first row is FIDE ID 11
    assert (code, err) == (
        1,
        f"Error: no player with FIDE ID 1 in {db} ('rating-batch player --name TEXT' searches "
        "by name)\n",
    )
    code, _, err = run("player", "jan#3", "--db", db)
    assert code == 1 and "is not a FIDE ID (digits only)" in err
    code, _, err = run("player", "--db", db)
    assert code == 2 and "give a FIDE ID, or --name TEXT" in err


def test_players_are_found_by_name_accents_and_order_aside(tmp_path: Path) -> None:
    db = database(tmp_path)
    players = [
        P(1, "Żółć, Łukasz", None, None, 2001, federation="POL"),
        P(2, "Zolc, Anna", None, None, 2003, federation="POL"),
        P(3, "B", 1500, 12, 1980),
    ]
    event = event_file(tmp_path, "open", [(1, 1, 3, "1-0"), (2, 2, 3, "0-1")], players=players)
    assert run("add", event, "--db", db)[0] == 0
    code, out, _ = run("player", "--name", "zolc", "--db", db)
    assert code == 0
    assert out.splitlines() == [
        "2 players named like 'zolc':",
        "  Żółć, Łukasz, POL, born 2001: no FIDE ID (open#1)",
        "  Zolc, Anna, POL, born 2003: no FIDE ID (open#2)",
    ]
    code, out, _ = run("player", "--name", "lukasz zolc", "--db", db)
    assert code == 0 and out.startswith("Żółć, Łukasz (no FIDE ID, open#1, POL, born 2001)")


def test_player_history_lists_every_kind(folder: Path) -> None:
    db = folder / "r.sqlite"
    path = DATA / "lists" / "fide_players_list_foa_txt_2026-10-excerpt.txt"
    run("init", "--list", path, "--period", "2026-10", "--db", db)
    code, out, _ = run("player", "1503014", "--db", db)
    assert code == 0
    assert out.splitlines()[0] == "Carlsen, Magnus (FIDE ID 1503014, NOR, born 1990)"
    assert [line for line in out.splitlines() if line.endswith(":")] == [
        "standard:",
        "rapid:",
        "blitz:",
    ]
    assert "  2026-10     2801  10    12" in out
    assert run("player", "999", "--db", db)[0] == 1


def test_player_workbook_with_a_rating_history_chart(folder: Path) -> None:
    from openpyxl import load_workbook

    db = database(folder)
    add_one_game(folder, db)
    run("publish", "2026-02", "--db", db, "--out", folder / "out")
    code, _, _ = run("player", "11", "--db", db, "--out", folder / "reports")
    assert code == 0
    book = load_workbook(folder / "reports" / "player-11.xlsx")
    assert book.sheetnames == ["History", "Pending", "Chart standard"]
    chart = book["Chart standard"]
    assert [[c.value for c in row] for row in chart.iter_rows()] == [
        ["period", "standard rating"],
        ["2026-01", 1600],
        ["2026-02", 1607],
    ]
    assert len(chart._charts) == 1


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    return tmp_path
