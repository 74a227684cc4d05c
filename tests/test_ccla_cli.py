"""The CCLA chart through the command line (docs/systems.md §13): the spec's example rated by
``rate --rules ccla`` from a TRF file, a new player's first rating (the list's, else
``start_rating``, told in the notes), a rules file, and a rating database under ``ccla``: init
from an Elo list or from its own, add, publish, player, export-list."""

from __future__ import annotations

from pathlib import Path

from conftest import read_csv
from db_helpers import run
from html_text import read_page
from trf_text import P, trf

ADULT = 1980
#: The spec's example (§13): Hero 1850 beats Low 1700, draws Mid 1905 (Mid has white), loses
#: to Top 2200; then New (no rating anywhere) beats Mid, after Hero's games.
PEOPLE = [P(1, "Hero, Ann", 1850, 11, ADULT), P(2, "Low, Bob", 1700, 12, ADULT),
          P(3, "Mid, Cy", 1905, 13, ADULT), P(4, "Top, Di", 2200, 14, ADULT),
          P(5, "New, Ed", None, None, ADULT)]  # fmt: skip
GAMES = [(1, 1, 2, "1-0"), (2, 3, 1, "=-="), (3, 4, 1, "1-0"), (4, 3, 5, "0-1")]
#: After the period. Mid: −2 in the draw (46 apart, band 2), then 1903 loses to New's 1200
#: (703 apart, band 14): −30. New: +30 from start_rating.
AFTER = {"11": 1859.0, "12": 1691.0, "13": 1873.0, "14": 2202.0, "ex#5": 1230.0}
CLASSES = {"11": "A", "12": "B", "13": "A", "14": "Master", "ex#5": "D"}
ELO_LIST = ["id,name,rating", '11,"Hero, Ann",1850', '12,"Low, Bob",1700', '13,"Mid, Cy",1905',
            '14,"Top, Di",2200']  # fmt: skip


def event(folder: Path) -> Path:
    path = folder / "ex.trf"
    path.write_text(trf(PEOPLE, GAMES), encoding="utf-8")
    return path


def by_id(path: Path) -> dict[str, dict[str, str]]:
    return {row["id"]: row for row in read_csv(path)}


def write(path: Path, lines: list[str]) -> Path:
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def notes(out: Path) -> list[str]:
    return read_page((out / "index.html").read_text(encoding="utf-8")).paragraphs


def test_the_specs_example_through_rate(tmp_path: Path) -> None:
    # No list: each player starts from the rating in the event file, New from start_rating.
    out = tmp_path / "out"
    code, printed, err = run("rate", event(tmp_path), "--rules", "ccla", "--out", out)
    assert code == 0, printed + err
    assert printed.startswith(
        "rated 1 event(s) as one period under CCLA chart (Hotchkiss-Wilcock 1947), games in "
        "order\nplayers: 5 (4 rated, 1 new, 0 unrated)\n"
    )
    players = by_id(out / "players.csv")
    assert {key: float(row["new_rating"]) for key, row in players.items()} == AFTER
    assert {key: row["class"] for key, row in players.items()} == CLASSES
    assert players["ex#5"]["rating"] == "" and players["ex#5"]["status"] == "new"
    hero = [row for row in read_csv(out / "calculations.csv") if row["id"] == "11"]
    assert [(r["opponent_id"], r["rating_before"], r["opponent_rating"], r["band"], r["change"],
             r["rating_after"]) for r in hero] == [
        ("12", "1850.0", "1700.0", "7", "9", "1859.0"),
        ("13", "1859.0", "1905.0", "2", "2", "1861.0"),
        ("14", "1861.0", "2200.0", "14", "-2", "1859.0"),
    ]  # fmt: skip
    said = " ".join(notes(out))
    assert "each player starts from the rating written in their event file (the Elo" in said
    assert "start_rating 1200 (a decision): 1 here (New, Ed)" in said


def test_a_ccla_list_seeds_its_players_and_the_rules_start_rating_the_others(
    tmp_path: Path,
) -> None:
    # The list gives Hero 1900 (not the file's 1850) and leaves Top out: Top starts at the
    # rules' start_rating 1000 like New, whatever his file says.
    listed = write(tmp_path / "list.csv", ["id,rating", "11,1900", "12,1700", "13,1905"])
    rules = write(tmp_path / "club.toml", ['system = "ccla"', "[ccla]", "start_rating = 1000"])
    out = tmp_path / "out"
    code, printed, err = run("rate", event(tmp_path), "--rules", rules, "--list", listed,
                             "--out", out)  # fmt: skip
    assert code == 0, printed + err
    players = by_id(out / "players.csv")
    # Hero 1900 beats 1700 (200 apart, band 10: +6), draws Mid (1906 against 1905, band 0:
    # 0), loses to Top at 1000 (906 below him, band 14: −30).
    assert [float(players["11"][c]) for c in ("rating", "new_rating")] == [1900.0, 1876.0]
    assert float(players["14"]["new_rating"]) == 1030.0 and players["14"]["status"] == "new"
    assert sum(float(row["new_rating"]) for row in players.values()) == (
        1900 + 1700 + 1905 + 1000 + 1000
    )
    said = " ".join(notes(out))
    assert "start_rating 1000 (a decision): 2 here (Top, Di; New, Ed)" in said


def test_a_fraction_in_a_ccla_list_is_refused_at_its_line(tmp_path: Path) -> None:
    listed = write(tmp_path / "list.csv", ["id,rating", "11,1850", "12,1700.5"])
    code, _, err = run("rate", event(tmp_path), "--rules", "ccla", "--list", listed,
                       "--out", tmp_path / "out")  # fmt: skip
    assert code == 1 and not (tmp_path / "out").exists()
    assert f"{listed}:3: rating 1700.5 is not a whole number: the chart counts whole points" in err


def test_a_ccla_database_from_an_elo_list(tmp_path: Path) -> None:
    db = tmp_path / "c.sqlite"
    code, printed, err = run("init", "--list", write(tmp_path / "elo.csv", ELO_LIST), "--period",
                             "2026-01", "--db", db, "--rules", "ccla", "--from-elo")  # fmt: skip
    assert code == 0, printed + err
    assert (
        "4 players with a state under ccla, from the Elo ratings (the Elo rating as a CCLA "
        "rating, rounded half away from zero)"
    ) in printed
    code, printed, err = run("add", event(tmp_path), "--db", db)
    assert code == 0 and "period 2026-02" in printed, printed + err
    out = tmp_path / "out"
    code, printed, err = run("publish", "2026-02", "--db", db, "--out", out)
    assert code == 0, printed + err
    folder = out / "2026-02" / "standard"
    listing = read_csv(folder / "list.csv")
    # Best first, whole numbers, the class after the rating; New (not on the Elo list)
    # started at 1200.
    assert [(row["name"], row["rating"], row["class"], row["games"]) for row in listing] == [
        ("Top, Di", "2202", "Master", "1"), ("Mid, Cy", "1873", "A", "2"),
        ("Hero, Ann", "1859", "A", "3"), ("Low, Bob", "1691", "B", "1"),
        ("New, Ed", "1230", "D", "1"),
    ]  # fmt: skip
    assert list(listing[0])[-3:] == ["rating", "class", "games"]
    # The same period again writes the same bytes.
    again = tmp_path / "again"
    assert run("publish", "2026-02", "--db", db, "--out", again)[0] == 0
    assert (again / "2026-02" / "standard" / "list.csv").read_bytes() == (
        folder / "list.csv"
    ).read_bytes()
    code, printed, _ = run("player", "11", "--db", db, "--out", tmp_path / "p")
    assert code == 0, printed
    assert printed.startswith("Hero, Ann (FIDE ID 11") and "rated under ccla" in printed
    assert "Low, Bob" in printed and "Top, Di" in printed
    assert (tmp_path / "p" / "player-11.html").is_file()
    assert (tmp_path / "p" / "player-11.xlsx").is_file()
    # The state list a database exports reads back as the system's own list.
    assert run("export-list", "2026-02", "--db", db, "--out", tmp_path / "x")[0] == 0
    state = tmp_path / "x" / "2026-02" / "standard" / "state.csv"
    assert {key: float(row["rating"]) for key, row in by_id(state).items()} == AFTER
    own = tmp_path / "own.sqlite"
    code, printed, err = run("init", "--list", state, "--period", "2026-02", "--db", own,
                             "--rules", "ccla")  # fmt: skip
    assert code == 0, printed + err
    assert "5 players with a state under ccla, read from the list" in printed
