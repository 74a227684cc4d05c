"""A rating database under the DWZ (docs/systems.md §7, §10): init from a DWZ list, add,
publish (list.csv with "rating-index"), the Restpartien kept in the database, player,
export-list and its state list read back by rate; init from an Elo list refused."""

from __future__ import annotations

import csv
from pathlib import Path

from db_helpers import run
from trf_text import P, trf

ADULT = 1980

#: The list the database starts from: the opponents of the first DWZ of tests/test_dwz_cli.py
#: (player 14 a junior, born 2009), and an idle player.
LIST = [
    "id,name,federation,birth_year,rating,index",
    '12,"Two, B",GER,1980,1200,20',
    '13,"Three, C",GER,1980,1400,20',
    '14,"Four, D",GER,2009,1600,20',
    '15,"Five, E",GER,1980,1800,20',
    '16,"Six, F",GER,1980,2000,20',
    '17,"Idle, G",GER,1970,1500,3',
]


def read(path: Path) -> dict[str, dict[str, str]]:
    with path.open(encoding="utf-8-sig", newline="") as handle:
        return {row["id"]: row for row in csv.DictReader(handle)}


def events(folder: Path) -> list[Path]:
    """B431-636-C4F (ends 2025-03-09): 11 (no DWZ) 1, 1, 1, ½, 0 against 12-16.
    B431-700-AAA (ends 2025-03-20): 21 (no DWZ) beats 12 and loses to 13."""
    names = ["Two, B", "Three, C", "Four, D", "Five, E", "Six, F"]
    people = [P(1, "New, A", None, 11, ADULT)] + [
        P(r, names[r - 2], None, 10 + r, 2009 if r == 4 else ADULT) for r in range(2, 7)
    ]
    results = ["1-0", "1-0", "1-0", "=-=", "0-1"]
    first = folder / "B431-636-C4F.trf"
    first.write_text(trf(people, [(r, 1, r + 1, results[r - 1]) for r in range(1, 6)],
                         start="2025/03/01", end="2025/03/09"))  # fmt: skip
    few = [P(1, "Few, H", None, 21, ADULT), P(2, "Two, B", None, 12, ADULT),
           P(3, "Three, C", None, 13, ADULT)]  # fmt: skip
    second = folder / "B431-700-AAA.trf"
    second.write_text(trf(few, [(1, 1, 2, "1-0"), (2, 3, 1, "1-0")], start="2025/03/20",
                          end="2025/03/20"))  # fmt: skip
    return [first, second]


def dwz_database(folder: Path, added: list[Path]) -> Path:
    """A database made from ``LIST`` (list 2025-02) with ``added`` added, 2025-03 and
    2025-04 published into ``folder/out``."""
    listed = folder / "dwz.csv"
    listed.write_text("\n".join(LIST) + "\n", encoding="utf-8")
    db = folder / "d.sqlite"
    code, out, err = run("init", "--list", listed, "--period", "2025-02", "--db", db,
                         "--rules", "dwz")  # fmt: skip
    assert code == 0, out + err
    assert "6 players with a state under dwz, read from the list" in out
    for event in added:
        assert run("add", event, "--db", db)[0] == 0
    for period in ("2025-03", "2025-04"):
        code, out, err = run("publish", period, "--db", db, "--out", folder / "out")
        assert code == 0, out + err
    return db


def test_a_dwz_database_from_init_to_export(tmp_path: Path) -> None:
    db = dwz_database(tmp_path, events(tmp_path))
    folder = tmp_path / "out" / "2025-04" / "standard"
    listing = read(folder / "list.csv")
    # The first DWZ of tests/test_dwz_cli.py and its opponents; the junior 1600 (J 5:
    # E0 = 1.6⁴ + 5 = 11.55, W < We so fB 1, E 12 (≤ 30)) loses to 1822: We = P(−222) =
    # 0.216259, Rn = 1600 − 800 · 0.216259/13 = 1586.69 → 1587. Games of B431-700-AAA
    # against a player staying without DWZ do not count: 12 and 13 keep 1199 and 1397.
    got = {key: row["dwz"] for key, row in listing.items()}
    assert got == {"11": "1822-1", "12": "1199-21", "13": "1397-21", "14": "1587-21",
                   "15": "1801-21", "16": "2007-21", "17": "1500-3"}  # fmt: skip
    assert list(listing) == ["16", "11", "15", "14", "17", "13", "12"]  # best first
    # 21 only stored his results, at the ratings used (after B431-636-C4F), in the database.
    players = read(folder / "players.csv")
    assert players["21"]["status"] == "unrated" and "21" not in listing
    assert players["21"]["new_restpartien"] == "2025-03-20/1199/1;2025-03-20/1397/0"
    code, out, err = run("export-list", "2025-04", "--db", db, "--out", tmp_path / "x")
    assert code == 0, out + err
    state = read(next((tmp_path / "x").rglob("state.csv")))
    assert state["21"]["restpartien"] == "2025-03-20/1199/1;2025-03-20/1397/0"
    assert (state["11"]["rating"], state["11"]["index"]) == ("1822.0", "1.0")
    # The player report explains the first DWZ in the DWZ's terms.
    code, out, _ = run("player", "11", "--db", db)
    assert code == 0 and "rated under dwz" in out
    for shown in ("Rc 1600.00", "Start-Rp 1748.00", "Schritte 5", "DWZ neu 1822", "Stufe 1"):
        assert shown in " ".join(out.split()), shown


def test_the_exported_state_rates_as_the_database_does(tmp_path: Path) -> None:
    # rate --list state.csv over the next event gives what publish gives.
    first, second = events(tmp_path)
    db = dwz_database(tmp_path, [first])
    assert run("export-list", "2025-04", "--db", db, "--out", tmp_path / "x")[0] == 0
    state = next((tmp_path / "x").rglob("state.csv"))
    late = tmp_path / "late.trf"
    late.write_text(second.read_text().replace("2025/03/20", "2025/04/20"))
    assert run("add", late, "--db", db)[0] == 0
    assert run("publish", "2025-05", "--db", db, "--out", tmp_path / "out")[0] == 0
    code, out, err = run("rate", late, "--rules", "dwz", "--list", state, "--out", tmp_path / "r")
    assert code == 0, out + err
    published = read(tmp_path / "out" / "2025-05" / "standard" / "players.csv")
    rated = read(tmp_path / "r" / "players.csv")
    for key in ("12", "13", "21"):
        assert rated[key]["new_restpartien"] == published[key]["new_restpartien"]
        assert rated[key]["new_rating"] == published[key]["new_rating"]


def test_init_from_an_elo_list_is_refused_and_creates_nothing(tmp_path: Path) -> None:
    elo = tmp_path / "elo.csv"
    elo.write_text("id,name,rating\n11,One,1500\n")
    db = tmp_path / "e.sqlite"
    code, _, err = run("init", "--list", elo, "--period", "2025-02", "--db", db,
                       "--rules", "dwz", "--from-elo")  # fmt: skip
    assert code == 1
    assert err == (
        "Error: dwz: no DWZ is made from an Elo rating (a FIDE rating in an event file counts "
        "there, docs/systems.md §10.4): init from a DWZ list of id, rating, index\n"
    )
    assert not db.exists()


def test_players_csv_shows_the_last_event_that_evaluated_the_player(tmp_path: Path) -> None:
    # Two's game in B431-700-AAA (against 21, who stays without DWZ) does not count: his
    # We and E are those of B431-636-C4F (We 0.013935, E 18: tests/test_dwz_cli.py).
    dwz_database(tmp_path, events(tmp_path))
    two = read(tmp_path / "out" / "2025-04" / "standard" / "players.csv")["12"]
    assert (two["games"], two["e"], two["new_rating"]) == ("2", "18", "1199")
    assert abs(float(two["expected"]) - 0.013935) < 1e-6
