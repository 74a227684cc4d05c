"""Chess.com's start level (docs/systems.md §15.1 step 3): a list's ``start_level`` (the
sign-up self-assessment's answer) made a new player's start rating by the rules file's table
``[chesscom.start_levels]``, which the officer fills in (Chess.com publishes none: the spec's
CC2/CC5 quote only 400–2000 and "800 or 1000" for a beginner); a level missing from the table
an error at its line naming the table; without the column, the list's rating as before.

The numbers are Glicko's (spec §3: q = ln 10/400, g, E, d², r', RD') worked by hand."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import read_csv
from db_helpers import run
from trf_text import P, trf

ADULT = 1980
TABLE = ("[chesscom.start_levels]", "beginner = 800", "Intermediate = 1200", "3 = 1600")


def write(path: Path, lines: list[str]) -> Path:
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def one_game(folder: Path) -> Path:
    """11 (White) beats 12 on 10 January 2026."""
    people = [P(1, "New, A", None, 11, ADULT), P(2, "Old, B", None, 12, ADULT)]
    path = folder / "ev.trf"
    path.write_text(trf(people, [(1, 1, 2, "1-0")], start="2026/01/10", end="2026/01/10"),
                    encoding="utf-8")  # fmt: skip
    return path


def rules(folder: Path, *lines: str) -> Path:
    return write(folder / "chesscom.toml", ['system = "chesscom"', *lines])


def test_a_new_players_start_level_gives_his_start_rating(tmp_path: Path) -> None:
    # 11 is new, "Beginner" (the table's beginner = 800, case aside), RD 350; 12 is 1500/200,
    # played the same day (t = 0). By hand (§3): for 11, g(200) = 0.84428, E = 1/(1 +
    # 10^(−0.84428 × (800 − 1500)/400)) = 0.03223, d² = 1/(q² g² E(1 − E)) = 1357262,
    # r' = 800 + q/(1/350² + 1/d²) × 0.84428 × (1 − 0.03223) = 1328.47, RD' = 335.20.
    # For 12: g(350) = 0.66907, E = 0.93679, d² = 1138496, r' = 1360.58, RD' = 196.58.
    head = "id,rating,rd,last_game,start_level"
    listed = write(tmp_path / "list.csv", [head, "11,,,, Beginner ", "12,1500,200,2026-01-10,3"])
    out = tmp_path / "out"
    code, printed, err = run("rate", one_game(tmp_path), "--list", listed, "--rules",
                             rules(tmp_path, *TABLE), "--out", out)  # fmt: skip
    assert code == 0, printed + err
    players = {row["id"]: row for row in read_csv(out / "players.csv")}
    assert players["11"]["status"] == "new"
    assert float(players["11"]["new_rating"]) == pytest.approx(1328.47, abs=0.005)
    assert float(players["11"]["new_rd"]) == pytest.approx(335.20, abs=0.005)
    # 12 has a rating: his level ("3", 1600 in the table) is not used.
    assert float(players["12"]["new_rating"]) == pytest.approx(1360.58, abs=0.005)
    assert float(players["12"]["new_rd"]) == pytest.approx(196.58, abs=0.005)
    calculations = {row["id"]: row for row in read_csv(out / "calculations.csv")}
    assert (calculations["11"]["rating_before"], calculations["11"]["rd_before"]) == (
        "800.0",
        "350.0",
    )
    said = (out / "index.html").read_text(encoding="utf-8")
    assert "1 new player(s) start from their start_level" in said


def test_a_level_missing_from_the_table_is_refused_at_its_line(tmp_path: Path) -> None:
    listed = write(tmp_path / "list.csv", ["id,rating,rd,last_game,start_level",
                                           "11,,,,expert", "12,1500,200,,"])  # fmt: skip
    event = one_game(tmp_path)
    code, _, err = run("rate", event, "--list", listed, "--rules", rules(tmp_path, *TABLE),
                       "--out", tmp_path / "out")  # fmt: skip
    assert code == 1 and not (tmp_path / "out").exists()
    assert err == (
        f"Error: {listed}:2: start_level 'expert' of a new player has no start rating: add it "
        "to the rules file's [chesscom.start_levels] table (beginner = 800, Intermediate = "
        "1200, 3 = 1600), e.g. 'expert' = 800\n"
    )
    # The preset itself has no table (none is published): the officer is told to make one.
    code, _, err = run("rate", event, "--list", listed, "--rules", "chesscom",
                       "--out", tmp_path / "out")  # fmt: skip
    assert code == 1 and not (tmp_path / "out").exists()
    assert f"{listed}:2: start_level 'expert'" in err
    assert 'a [chesscom.start_levels] table in a rules file (system = "chesscom"' in err


def test_without_the_column_the_lists_rating_as_before(tmp_path: Path) -> None:
    # The same game from a list without start_level: 11 starts from the list's 800/350, the
    # same figures as the level gave (so the level is nothing but the start).
    listed = write(tmp_path / "list.csv", ["id,rating,rd,last_game", "11,800,350,",
                                           "12,1500,200,2026-01-10"])  # fmt: skip
    out = tmp_path / "out"
    code, printed, err = run("rate", one_game(tmp_path), "--list", listed, "--rules",
                             rules(tmp_path, *TABLE), "--out", out)  # fmt: skip
    assert code == 0, printed + err
    players = {row["id"]: row for row in read_csv(out / "players.csv")}
    assert float(players["11"]["new_rating"]) == pytest.approx(1328.47, abs=0.005)
    assert players["11"]["status"] == "rated"


def test_a_table_that_is_not_one_is_refused(tmp_path: Path) -> None:
    code, _, err = run("rate", one_game(tmp_path), "--rules",
                       rules(tmp_path, "[chesscom]", 'start_levels = "beginner"'),
                       "--out", tmp_path / "out")  # fmt: skip
    assert code == 1
    assert "start_levels" in err and "must be a table of the self-assessment's answers" in err


def test_a_database_made_from_a_list_of_levels(tmp_path: Path) -> None:
    # init reads the levels once: 11 is stored at 800/350, and the published list carries
    # ratings, not levels.
    listed = write(tmp_path / "list.csv", ["id,name,start_level", '11,"New, A",beginner',
                                           '12,"Old, B",intermediate'])  # fmt: skip
    db = tmp_path / "d.sqlite"
    code, printed, err = run("init", "--list", listed, "--period", "2026-01", "--db", db,
                             "--rules", rules(tmp_path, *TABLE))  # fmt: skip
    assert code == 0, printed + err
    assert "2 players with a state under chesscom" in printed
    assert run("add", one_game(tmp_path), "--db", db)[0] == 0
    out = tmp_path / "lists"
    code, printed, err = run("publish", "2026-02", "--db", db, "--out", out)
    assert code == 0, printed + err
    calculations = {row["id"]: row for row in
                    read_csv(out / "2026-02" / "standard" / "calculations.csv")}  # fmt: skip
    assert [calculations[k]["rating_before"] for k in ("11", "12")] == ["800.0", "1200.0"]
    listing = read_csv(out / "2026-02" / "standard" / "list.csv")
    assert [row["id"] for row in listing] == ["11", "12"] and "start_level" not in listing[0]
