"""One period assembled from events (assemble.py): who is who across the files of ``rate``."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import read_csv
from db_helpers import LIST_FILES, newcomer_database, newcomer_plays, rows, run, write_list
from openpyxl import load_workbook
from trf_text import P, trf
from workbooks import summary


@pytest.mark.parametrize("rules", ["fide-2025", "glicko2"])
def test_one_fide_id_as_two_people_in_two_files_is_a_warning(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, rules: str
) -> None:
    # FIDE ID 11 is Player, One (ITA, 1800) in x and Someone, Else (USA, 2400) in y: one
    # player, as the ID says, named as in y (the latest-starting event), and a warning on x's
    # line naming both files, on stderr and in the Summary sheet.
    one = P(1, "Player, One", 1800, 11, 1980, federation="ITA")
    other = P(1, "Someone, Else", 2400, 11, 1980, federation="USA")
    monkeypatch.chdir(tmp_path)  # short names: the Summary sheet wraps long lines
    x, y = Path("x.trf"), Path("y.trf")
    x.write_text(trf([one, P(2, "B", 1500, 12, 1980)], [(1, 1, 2, "1-0")], start="2026/01/05",
                     end="2026/01/05"))  # fmt: skip
    y.write_text(trf([other, P(2, "B", 1500, 12, 1980)], [(1, 2, 1, "1-0")], start="2026/01/12",
                     end="2026/01/12"))  # fmt: skip
    out = Path("out")
    code, stdout, err = run("rate", y, x, "--rules", rules, "--out", out)
    assert code == 0, err
    warning = (
        f"{x}:4: warning: FIDE ID 11 is 'Player, One' in this file but 'Someone, Else' in {y} "
        "(line 4; the latest-starting event's name is used): is the FIDE ID right?"
    )
    assert err == warning + "\n"
    assert "warnings: 1 (printed below and in the Summary sheet)" in stdout
    rows = [row[:2] for row in summary(load_workbook(out / "report.xlsx")["Summary"])]
    assert rows[rows.index(("Warnings", None)) + 1 :] == [(None, warning)]
    players = [row for row in read_csv(out / "players.csv") if row["id"] == "11"]
    assert [(row["name"], row["federation"]) for row in players] == [("Someone, Else", "USA")]


def test_one_name_spelt_two_ways_is_no_warning(tmp_path: Path) -> None:
    # Accents, case and word order aside, Blübaum is Bluebaum (names.name_key).
    x, y = tmp_path / "x.trf", tmp_path / "y.trf"
    x.write_text(trf([P(1, "Blübaum, Matthias", 1800, 11, 1996), P(2, "B", 1500, 12, 1980)],
                     [(1, 1, 2, "1-0")], start="2026/01/05", end="2026/01/05"))  # fmt: skip
    y.write_text(trf([P(1, "MATTHIAS BLUEBAUM", 1800, 11, 1996), P(2, "B", 1500, 12, 1980)],
                     [(1, 2, 1, "1-0")], start="2026/01/12", end="2026/01/12"))  # fmt: skip
    code, _, err = run("rate", x, y, "--out", tmp_path / "out")
    assert (code, err) == (0, "")


@pytest.mark.parametrize("written", LIST_FILES)
def test_a_player_without_fide_id_takes_his_row_of_our_list(tmp_path: Path, written: str) -> None:
    # Newbie, Sam is n1#7 on the list (1749, K 40): in February he beats Idle (17, 1749).
    # D 0, PD 0.50: 1749 + 40 × 0.5 = 1769, as the database that published the list rates him.
    db, lists = newcomer_database(tmp_path)
    event = newcomer_plays(tmp_path)
    out = tmp_path / "out"
    code, stdout, err = run("rate", event, "--list", lists / written, "--out", out)
    assert (code, err) == (0, ""), stdout
    newbie = next(row for row in read_csv(out / "players.csv") if row["name"] == "Newbie, Sam")
    assert (newbie["rating"], newbie["k"], newbie["new_rating"]) == ("1749", "40", "1769")
    assert run("add", event, "--db", db)[0] == 0
    assert run("publish", "2026-03", "--db", db, "--out", tmp_path / "lists")[0] == 0
    published = rows(tmp_path / "lists" / "2026-03" / "standard" / "list.csv")
    assert published["n1#7"]["rating"] == newbie["new_rating"]


def test_two_players_of_the_list_alike_are_an_error_naming_both(tmp_path: Path) -> None:
    listing = write_list(
        tmp_path,
        ["id,name,federation,birth_year,rating", '17,"Idle, Ian",ITA,1980,1749',
         'n1#7,"Newbie, Sam",ITA,2010,1749', 'n2#3,"Newbie, Sam",ITA,2010,1500'],
    )  # fmt: skip
    event = newcomer_plays(tmp_path)
    code, _, err = run("rate", event, "--list", listing, "--out", tmp_path / "out")
    assert (code, err) == (
        1,
        f"Error: {event}:4: 'Newbie, Sam' (born 2010, ITA) without a FIDE ID matches 2 players "
        "of the list: n1#7 (list row 3), n2#3 (list row 4); give the FIDE ID (or the national "
        "id) in the file\n",
    )
    assert not (tmp_path / "out").exists()


def test_two_players_of_one_file_alike_take_no_row(tmp_path: Path) -> None:
    # Two Newbies in one file are two people (monthly/identify.py): neither is n1#7.
    listing = write_list(
        tmp_path,
        ["id,name,federation,birth_year,rating", '17,"Idle, Ian",ITA,1980,1749',
         'n1#7,"Newbie, Sam",ITA,2010,1749'],
    )  # fmt: skip
    twins = [P(r, "Newbie, Sam", None, None, 2010, federation="ITA") for r in (1, 2)]
    event = tmp_path / "twins.trf"
    event.write_text(trf([*twins, P(3, "Idle, Ian", 1749, 17, 1980, federation="ITA")],
                         [(1, 1, 3, "1-0"), (2, 3, 2, "1-0")], start="2026/02/10",
                         end="2026/02/10"))  # fmt: skip
    code, stdout, err = run("rate", event, "--list", listing, "--out", tmp_path / "out")
    assert code == 0, stdout + err
    found = [row for row in read_csv(tmp_path / "out" / "players.csv") if row["id"] != "17"]
    assert [(row["id"], row["rating"]) for row in found] == [("twins#1", ""), ("twins#2", "")]
