"""A rating database under another system (docs/systems.md §7): init from the system's list or
from an Elo list, add, publish with the list rounded as the system publishes it, the unrounded
states kept, re-publish, unpublish, player and export-list. Expected numbers come from the
published examples and the formulas of docs/systems.md."""

from __future__ import annotations

import csv
import math
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from conftest import glicko2_giving
from db_helpers import dump, newcomer_database, process, query, run
from html_text import read_page
from trf_text import P, trf

from rating_batch.pipelines.state.publish import system_listing
from rating_batch.systems import SYSTEMS
from rating_batch.systems.historical import HarknessSystem
from rating_batch.writers.common import WRITTEN_RELATIVE

ADULT = 1980
SCALE = 173.7178

PAPER_LIST = [
    "id,name,federation,birth_year,rating,rd,volatility",
    '11,"One, Ann",ESP,1980,1500,200,0.06',
    '12,"Two, Bea",ESP,1981,1400,30,0.06',
    '13,"Three, Cy",FRA,1982,1550,100,0.06',
    '14,"Four, Di",FRA,1983,1700,300,0.06',
    '15,"Five, Ed",ITA,1984,1600,200,0.06',
]


def write(path: Path, lines: list[str]) -> Path:
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def read(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8-sig", newline="") as handle:
        return list(csv.DictReader(handle))


def folder_bytes(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` and its bytes (a refused command changes none of them)."""
    return {str(f.relative_to(folder)): f.read_bytes() for f in folder.rglob("*") if f.is_file()}


def by_id(path: Path) -> dict[str, dict[str, str]]:
    return {row["id"]: row for row in read(path)}


def paper_event(folder: Path, start: str = "2026/01/10", end: str = "2026/01/12") -> Path:
    """One beats Two, loses to Three and to Four (Glickman's example); Five plays no game."""
    people = [P(r, name, None, 10 + r, ADULT) for r, name in
              enumerate(["One, Ann", "Two, Bea", "Three, Cy", "Four, Di"], start=1)]  # fmt: skip
    games = [(1, 1, 2, "1-0"), (2, 1, 3, "0-1"), (3, 1, 4, "0-1")]
    path = folder / f"paper-{start[5:7]}.trf"
    path.write_text(trf(people, games, name=f"Paper {start}", start=start, end=end))
    return path


def glicko2_db(folder: Path) -> Path:
    db = folder / "g.sqlite"
    listed = write(folder / "state.csv", PAPER_LIST)
    code, out, err = run("init", "--list", listed, "--period", "2026-01", "--db", db,
                         "--rules", "glicko2")  # fmt: skip
    assert code == 0, out + err
    assert "5 players with a state under glicko2, read from the list" in out
    code, out, err = run("add", paper_event(folder), "--db", db)
    assert code == 0, out + err
    return db


def test_glicko2_papers_example_published_from_the_database(tmp_path: Path) -> None:
    db = glicko2_db(tmp_path)
    out = tmp_path / "out"
    code, printed, err = run("publish", "2026-02", "--db", db, "--out", out)
    assert code == 0, printed + err
    folder = out / "2026-02" / "standard"
    one = by_id(folder / "players.csv")["11"]
    assert abs(float(one["new_rating"]) - 1464.05) <= 0.011
    assert abs(float(one["new_rd"]) - 151.52) <= 0.005
    assert abs(float(one["new_volatility"]) - 0.059996) <= 1e-6
    listed = by_id(folder / "list.csv")
    # The list rounds half away from zero: rating and RD whole, volatility to 6 decimals.
    assert (listed["11"]["rating"], listed["11"]["rd"], listed["11"]["volatility"]) == (
        "1464", "152", "0.059996",
    )  # fmt: skip
    assert listed["11"]["name"] == "One, Ann" and listed["11"]["games"] == "3"
    # Five played no game: rating and volatility kept, φ' = √(φ² + σ²) (docs/systems.md §2).
    five = by_id(folder / "players.csv")["15"]
    grown = SCALE * math.sqrt((200 / SCALE) ** 2 + 0.06**2)
    assert float(five["new_rating"]) == 1600
    assert float(five["new_rd"]) == pytest.approx(grown, rel=WRITTEN_RELATIVE)
    assert listed["15"]["rd"] == str(round(grown))
    # Best first.
    ratings = [int(row["rating"]) for row in read(folder / "list.csv")]
    assert ratings == sorted(ratings, reverse=True)
    # The database keeps the state unrounded: players.csv shows it to 10 significant digits.
    kept = query(db, "SELECT value FROM system_states s JOIN players p USING (player_id) "
                 "WHERE p.fide_id = 11 AND s.period = '2026-02' AND s.name = 'rating'")  # fmt: skip
    assert kept[0][0] == pytest.approx(float(one["new_rating"]), rel=WRITTEN_RELATIVE)
    assert repr(kept[0][0]) != one["new_rating"]
    assert set(p.name for p in folder.iterdir()) == {
        "list.csv", "list.xlsx", "players.csv", "games.csv", "calculations.csv", "report.xlsx",
        "index.html",
    }  # fmt: skip


def test_a_publish_rates_as_rate_does_with_the_exported_state(tmp_path: Path) -> None:
    db = glicko2_db(tmp_path)
    out = tmp_path / "out"
    assert run("publish", "2026-02", "--db", db, "--out", out)[0] == 0
    february = paper_event(tmp_path, "2026/02/07", "2026/02/08")
    assert run("add", february, "--db", db)[0] == 0
    assert run("publish", "2026-03", "--db", db, "--out", out)[0] == 0
    code, printed, _ = run("export-list", "2026-02", "--db", db, "--out", tmp_path / "x")
    assert code == 0, printed
    state = tmp_path / "x" / "2026-02" / "standard" / "state.csv"
    assert len(by_id(state)["11"]["rating"]) > 12  # unrounded
    rated = tmp_path / "rated"
    code, printed, _ = run("rate", february, "--rules", "glicko2", "--list", state, "--out", rated)
    assert code == 0, printed
    published = by_id(out / "2026-03" / "standard" / "players.csv")
    for player, row in by_id(rated / "players.csv").items():
        for column in ("rating", "rd", "volatility", "new_rating", "new_rd", "new_volatility"):
            assert published[player][column] == row[column], (player, column)


def test_a_publish_whose_results_are_not_finite_is_refused_and_changes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = glicko2_db(tmp_path)
    before = dump(db)
    glicko2_giving(monkeypatch, rating=lambda rating: np.full(len(rating), np.nan))
    code, _, err = run("publish", "2026-02", "--db", db, "--out", tmp_path / "out")
    assert (code, err) == (
        1,
        "Error: glicko2: new_rating came out nan for 11, 12, 13 and 2 more: its default "
        "constants or the states in the list are beyond what glicko2 can compute; nothing was "
        "written\n",
    )
    assert dump(db) == before and not (tmp_path / "out").exists()


def test_publishing_again_writes_the_same_bytes_and_unpublish_takes_it_back(
    tmp_path: Path,
) -> None:
    db = glicko2_db(tmp_path)
    first, second, third = tmp_path / "a", tmp_path / "b", tmp_path / "c"
    assert run("publish", "2026-02", "--db", db, "--out", first)[0] == 0
    assert run("publish", "2026-02", "--db", db, "--out", second)[0] == 0

    def contents(out: Path) -> dict[str, bytes]:
        return {str(f.relative_to(out)): f.read_bytes() for f in out.rglob("*") if f.is_file()}

    assert contents(first) == contents(second)
    code, printed, _ = run("unpublish", "2026-02", "--db", db)
    assert code == 0 and "unpublished 2026-02 (standard): 5 rating states" in printed
    assert query(db, "SELECT COUNT(*) FROM system_states WHERE period = '2026-02'") == [(0,)]
    assert query(db, "SELECT COUNT(*) FROM system_states WHERE period = '2026-01'") == [(15,)]
    assert run("publish", "2026-02", "--db", db, "--out", third)[0] == 0
    assert contents(third) == contents(first)


def test_the_player_report_shows_the_state_and_each_game(tmp_path: Path) -> None:
    db = glicko2_db(tmp_path)
    assert run("publish", "2026-02", "--db", db, "--out", tmp_path / "out")[0] == 0
    code, printed, _ = run("player", "11", "--db", db, "--out", tmp_path / "p")
    assert code == 0, printed
    assert printed.startswith("One, Ann (FIDE ID 11, ESP, born 1980)\nrated under glicko2")
    assert "\n2026-02 standard (rated): 3 games, 1 point\n  r 1500.00 · RD 200.00 · σ " in printed
    assert "→ r′ 1464.05 · RD′ 151.52 · σ′ 0.059996" in printed.replace("\n    ", " ")
    # The games: One's opponents with their RDs, g(φ_j) and E_j of the paper (g 0.9955 for RD 30).
    assert "Two, Bea" in printed and "0.9955" in printed
    assert all(len(line) <= 100 for line in printed.splitlines())
    assert (tmp_path / "p" / "player-11.xlsx").is_file()


def test_an_ingo_database_is_seeded_from_an_elo_list_and_lists_lowest_first(
    tmp_path: Path,
) -> None:
    listed = write(tmp_path / "elo.csv", ["id,name,rating", "11,One,2000", "12,Two,1600",
                                          "13,Three,1800", "14,Four,1700"])  # fmt: skip
    db = tmp_path / "i.sqlite"
    # Its header is an Ingo list's too (id, rating): read as one, 2000 is no Ingo number.
    before = folder_bytes(tmp_path)
    code, _, err = run("init", "--list", listed, "--period", "2026-01", "--db", db,
                       "--rules", "ingo")  # fmt: skip
    assert code == 1 and not db.exists() and folder_bytes(tmp_path) == before
    assert f"{listed}:2: rating 2000 is out of range for ingo (-100 to 400); an Elo rating?" in err
    code, printed, err = run("init", "--list", listed, "--period", "2026-01", "--db", db,
                             "--rules", "ingo", "--from-elo")  # fmt: skip
    assert code == 0, printed + err
    assert "4 players with a state under ingo, from the Elo ratings" in printed
    assert run("export-list", "initial", "--db", db, "--out", tmp_path / "x")[0] == 0
    state = by_id(tmp_path / "x" / "2026-01" / "standard" / "state.csv")
    # Seeded as Ingo by the Elo equivalent: (2840 − Elo)/8 (docs/systems.md §6).
    assert {k: float(v["rating"]) for k, v in state.items()} == {
        "11": 105.0, "12": 155.0, "13": 130.0, "14": 142.5,
    }  # fmt: skip
    assert run("add", paper_event(tmp_path), "--db", db)[0] == 0
    out = tmp_path / "out"
    assert run("publish", "2026-02", "--db", db, "--out", out)[0] == 0
    ingos = [int(row["rating"]) for row in read(out / "2026-02" / "standard" / "list.csv")]
    assert ingos == sorted(ingos) and len(ingos) == 4


def test_our_elo_list_seeds_a_player_without_fide_id_under_his_id(tmp_path: Path) -> None:
    # Harkness takes the Elo rating as it is: Newbie, Sam (n1#7, 1749) stays n1#7.
    _, lists = newcomer_database(tmp_path)
    db = tmp_path / "h.sqlite"
    code, printed, err = run("init", "--list", lists / "list.csv", "--period", "2026-02",
                             "--db", db, "--rules", "harkness", "--from-elo")  # fmt: skip
    assert code == 0, printed + err
    assert query(db, "SELECT fide_id, created_by FROM players WHERE name = 'Newbie, Sam'") == [
        (None, "n1#7")
    ]
    assert run("export-list", "2026-02", "--db", db, "--out", tmp_path / "x")[0] == 0
    state = by_id(tmp_path / "x" / "2026-02" / "standard" / "state.csv")
    assert float(state["n1#7"]["rating"]) == 1749.0


def test_a_bad_state_list_is_refused_naming_the_line_and_creates_nothing(
    tmp_path: Path,
) -> None:
    listed = write(tmp_path / "state.csv", [*PAPER_LIST[:3], '13,"Three",FRA,1982,fast,100,0.06'])
    db = tmp_path / "g.sqlite"
    before = listed.read_bytes()
    code, _, err = run("init", "--list", listed, "--db", db, "--rules", "glicko2")
    assert code == 1 and f"{listed}:4: rating 'fast' is not a number" in err
    assert not db.exists() and listed.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["state.csv"]


#: The systems that make a state from an Elo rating (init --from-elo); the DWZ makes none
#: (docs/systems.md §10.4): its database round trip is tests/monthly/test_dwz_db.py.
FROM_ELO = sorted(set(SYSTEMS) - {"dwz"})


@pytest.mark.parametrize("system", FROM_ELO)
def test_every_system_keeps_a_database(system: str, tmp_path: Path) -> None:
    listed = write(tmp_path / "elo.csv", ["id,name,rating", "11,One,1500", "12,Two,1400",
                                          "13,Three,1550", "14,Four,1700"])  # fmt: skip
    db = tmp_path / "s.sqlite"
    code, printed, err = run("init", "--list", listed, "--period", "2026-01", "--db", db,
                             "--rules", system, "--from-elo")  # fmt: skip
    assert code == 0, printed + err
    code, printed, _ = run("add", paper_event(tmp_path), "--db", db)
    assert code == 0
    # The list the event went into: 2026-02 under FIDE's monthly calendar, the next season's
    # under the ECF grade's (docs/systems.md §11.1).
    period = re.search(r"period (\d{4}-\d\d)", printed)
    assert period is not None, printed
    listed_in = period.group(1)
    out = tmp_path / "out"
    code, printed, err = run("publish", listed_in, "--db", db, "--out", out)
    assert code == 0, printed + err
    players = by_id(out / listed_in / "standard" / "players.csv")
    listing = by_id(out / listed_in / "standard" / "list.csv")
    # One played three games: a state after the period in the list, and the same published
    # value as players.csv, rounded.
    assert players["11"]["games"] == "3" and "11" in listing
    published = next(iter(SYSTEMS[system][1](SYSTEMS[system][0]()).published.split()))
    value = float(players["11"][published])
    assert abs(float(listing["11"]["rating"]) - value) <= 0.5
    code, printed, _ = run("player", "11", "--db", db, "--out", tmp_path / "p")
    assert code == 0 and f"rated under {system}" in printed
    # A workbook and a page under every system, as under Elo.
    assert (tmp_path / "p" / "player-11.html").is_file()
    assert (tmp_path / "p" / "player-11.xlsx").is_file()


def test_glicko_rd_grows_once_per_idle_period_over_published_lists(tmp_path: Path) -> None:
    # Five has RD 100 after games in the list of 2026-01; Six has RD 100 and no last_period.
    # Neither plays: docs/systems.md §3 grows RD by c²·t, t counted from last_period (for Six,
    # one period per list, each list carrying the RD grown so far).
    listed = write(tmp_path / "state.csv", [
        "id,name,rating,rd,last_period", "11,One,1500,200,2026-02", "12,Two,1400,30,2026-02",
        "13,Three,1550,100,2026-02", "14,Four,1700,300,2026-02", "15,Five,1600,100,2026-01",
        "16,Six,1600,100,",
    ])  # fmt: skip
    db = tmp_path / "g.sqlite"
    code, out, err = run("init", "--list", listed, "--period", "2026-01", "--db", db,
                         "--rules", "glicko")  # fmt: skip
    assert code == 0, out + err
    assert run("add", paper_event(tmp_path), "--db", db)[0] == 0
    out = tmp_path / "out"
    for month in ("2026-02", "2026-03", "2026-04"):
        code, printed, err = run("publish", month, "--db", db, "--out", out)
        assert code == 0, printed + err
    c = 34.6
    for months, month in enumerate(("2026-02", "2026-03", "2026-04"), start=1):
        players = by_id(out / month / "standard" / "players.csv")
        # new_rd is the RD as of the list; carried_rd what the next list starts from.
        assert float(players["15"]["new_rd"]) == pytest.approx(math.sqrt(100**2 + months * c**2))
        assert float(players["16"]["new_rd"]) == pytest.approx(math.sqrt(100**2 + months * c**2))
        assert float(players["15"]["carried_rd"]) == 100.0
        listing = by_id(out / month / "standard" / "list.csv")
        assert listing["15"]["rd"] == str(round(math.sqrt(100**2 + months * c**2)))
        assert listing["15"]["last_period"] == "2026-01"
    # One played in 2026-02 (t = 0, the published example: 1464.11 / 151.40) and then idled.
    one = by_id(out / "2026-02" / "standard" / "players.csv")["11"]
    assert abs(float(one["new_rating"]) - 1464.11) <= 0.5
    assert abs(float(one["new_rd"]) - 151.40) <= 0.05
    april = by_id(out / "2026-04" / "standard" / "players.csv")["11"]
    assert float(april["new_rd"]) == pytest.approx(math.sqrt(float(one["new_rd"]) ** 2 + 2 * c**2))
    # The state carried: Five's RD of her last games with when they were; Six's grown RD.
    assert run("export-list", "2026-04", "--db", db, "--out", tmp_path / "x")[0] == 0
    state = by_id(tmp_path / "x" / "2026-04" / "standard" / "state.csv")
    assert (float(state["15"]["rd"]), state["15"]["last_period"]) == (100.0, "2026-01")
    assert float(state["16"]["rd"]) == pytest.approx(math.sqrt(100**2 + 3 * c**2))
    assert state["16"]["last_period"] == ""
    assert state["11"]["last_period"] == "2026-02"


def test_init_refuses_a_misspelt_system_and_from_elo_under_elo(tmp_path: Path) -> None:
    listed = write(tmp_path / "elo.csv", ["id,name,rating", "11,One,2000"])
    db = tmp_path / "s.sqlite"
    before = folder_bytes(tmp_path)
    code, _, err = run("init", "--list", listed, "--db", db, "--rules", "glicko3")
    assert code == 1 and "unknown rules 'glicko3'" in err and "glicko2, glicko," in err
    code, _, err = run("init", "--list", listed, "--db", db, "--from-elo")
    assert code == 1 and "--from-elo: fide is FIDE Elo" in err
    assert folder_bytes(tmp_path) == before


ELO_LIST = ["id,name,rating", "11,One,1500", "12,Two,1400", "13,Three,1550", "14,Four,1700",
            "15,Five,1600", "16,Six,"]  # fmt: skip

#: Per system: the state made from Five's Elo 1600 (docs/systems.md §7), and what the list of
#: 2026-02 shows of her after a month without games (the state columns as list.csv rounds
#: them). Glicko-2: RD 50 grown by σ: √(50² + (0.06 × 173.7178)²) = 51.07 → 51. Glicko: one
#: period (no last_period), √(50² + 34.6²) = 60.80 → 61. TrueSkill: μ = 25 + 100 × (25/6)/200
#: = 27.083, σ = β/4 = 25/24 = 1.042, unchanged; listed μ − 3σ = 23.958 → 23.96. Harkness: the
#: Elo. Ingo: (2840 − 1600)/8 = 155. CCLA: the Elo, class B (docs/systems.md §13).
FROM_ELO = {
    "glicko2": ({"rating": 1600.0, "rd": 50.0, "volatility": 0.06},
                {"rating": "1600", "rd": "51", "volatility": "0.06"}),
    "glicko": ({"rating": 1600.0, "rd": 50.0}, {"rating": "1600", "rd": "61", "last_period": ""}),
    "trueskill": ({"mu": 27.0833333, "sigma": 1.0416667},
                  {"rating": "23.96", "mu": "27.083", "sigma": "1.042"}),
    "harkness": ({"rating": 1600.0}, {"rating": "1600"}),
    "ingo": ({"rating": 155.0}, {"rating": "155"}),
    "ccla": ({"rating": 1600.0}, {"rating": "1600", "class": "B"}),
}  # fmt: skip


@pytest.mark.parametrize("system", sorted(FROM_ELO))
def test_from_elo_seeds_every_player_and_keeps_the_idle_on_the_list(
    system: str, tmp_path: Path
) -> None:
    # One to Four play Glickman's games in January; Five plays none; Six is unrated in the
    # Elo list. Every player with an Elo rating gets a state from it and stays on the list
    # (none of these systems has an inactivity rule); Six stays unrated and unlisted.
    listed = write(tmp_path / "elo.csv", ELO_LIST)
    db = tmp_path / "s.sqlite"
    code, printed, err = run("init", "--list", listed, "--period", "2026-01", "--db", db,
                             "--rules", system, "--from-elo")  # fmt: skip
    assert code == 0, printed + err
    assert f"5 players with a state under {system}, from the Elo ratings (" in printed
    assert run("export-list", "initial", "--db", db, "--out", tmp_path / "x")[0] == 0
    state = by_id(tmp_path / "x" / "2026-01" / "standard" / "state.csv")
    assert sorted(state) == ["11", "12", "13", "14", "15"]
    seeded, shown = FROM_ELO[system]
    for column, value in seeded.items():
        assert float(state["15"][column]) == pytest.approx(value), column
    assert run("add", paper_event(tmp_path), "--db", db)[0] == 0
    out = tmp_path / "out"
    code, printed, err = run("publish", "2026-02", "--db", db, "--out", out)
    assert code == 0, printed + err
    listing = by_id(out / "2026-02" / "standard" / "list.csv")
    assert sorted(listing) == ["11", "12", "13", "14", "15"]
    assert {column: listing["15"][column] for column in shown} == shown
    assert listing["15"]["games"] == "0" and listing["11"]["games"] == "3"
    players = by_id(out / "2026-02" / "standard" / "players.csv")
    assert players["15"]["status"] == players["11"]["status"] == "rated"


def test_from_elo_under_glicko2_starts_from_the_elo_and_the_rules_rd(tmp_path: Path) -> None:
    # The review's commands as processes: the state before the period is the Elo rating with
    # the rules' from_elo_rd (80 here) and the initial volatility; Five, idle, keeps her
    # rating and her RD grows to √(80² + (0.06 × 173.7178)²) = 80.68 (docs/systems.md §2).
    rules = tmp_path / "league.toml"
    rules.write_text('name = "league"\nsystem = "glicko2"\n[glicko2]\nfrom_elo_rd = 80\n')
    listed = write(tmp_path / "elo.csv", ELO_LIST)
    db = tmp_path / "g.sqlite"
    code, printed, err = process("init", "--list", listed, "--period", "2026-01", "--db", db,
                                 "--rules", rules, "--from-elo")  # fmt: skip
    assert code == 0, printed + err
    assert printed.splitlines()[1] == (
        "standard: 5 players with a state under glicko2, from the Elo ratings (rating = Elo, "
        "RD 80, volatility 0.06)"
    )
    assert run("add", paper_event(tmp_path), "--db", db)[0] == 0
    out = tmp_path / "out"
    code, printed, err = run("publish", "2026-02", "--db", db, "--out", out)
    assert code == 0, printed + err
    assert "list of 5 players (5 rated before, 0 new)" in printed
    players = by_id(out / "2026-02" / "standard" / "players.csv")
    four = players["14"]
    assert (four["rating"], four["rd"], four["volatility"]) == ("1700.0", "80.0", "0.06")
    five = players["15"]
    assert float(five["new_rating"]) == 1600.0
    assert float(five["new_rd"]) == pytest.approx(80.6761448)
    # The winner of January's top game is still near his Elo, not near 1500.
    listing = by_id(out / "2026-02" / "standard" / "list.csv")
    assert abs(int(listing["14"]["rating"]) - 1700) < 100
    assert query(db, "SELECT COUNT(DISTINCT player_id) FROM system_states "
                 "WHERE period = '2026-01'") == [(5,)]  # fmt: skip


ELO_LIKE = 'name = "ts2000"\nsystem = "trueskill"\n[trueskill]\nmu = 2000\nsigma = 300\n'


def states(path: Path) -> dict[str, tuple[float, float]]:
    return {key: (float(row["mu"]), float(row["sigma"])) for key, row in by_id(path).items()}


@pytest.mark.parametrize("scale", ["elo-like", "own"])
def test_a_trueskill_database_reads_its_own_exported_state_list(scale: str, tmp_path: Path) -> None:
    # docs/formats.md §11: a list's μ lies within 120 times the rules' largest spread of μ0,
    # so the states a database exports read back under its rules, on TrueSkill's own scale
    # (μ0 25) and on an Elo-like one (μ0 2000, σ0 300, β 150), by rate --list and by init.
    # Processes, as an officer runs them (the Elo-like case); the CLI in process otherwise.
    command = process if scale == "elo-like" else run
    rules: Path | str = "trueskill"
    if scale == "elo-like":
        rules = tmp_path / "ts2000.toml"
        rules.write_text(ELO_LIKE)
    listed = write(tmp_path / "elo.csv", [*ELO_LIST[:-1], "16,Six,2100"])
    db = tmp_path / "t.sqlite"
    code, printed, err = command("init", "--list", listed, "--period", "2026-01", "--db", db,
                                 "--rules", rules, "--from-elo")  # fmt: skip
    assert code == 0, printed + err
    assert command("add", paper_event(tmp_path), "--db", db)[0] == 0
    assert command("publish", "2026-02", "--db", db, "--out", tmp_path / "out")[0] == 0
    assert command("export-list", "2026-02", "--db", db, "--out", tmp_path / "x")[0] == 0
    exported = tmp_path / "x" / "2026-02" / "standard" / "state.csv"
    kept = states(exported)
    if scale == "elo-like":
        # From the Elo ratings: μ = 2000 + (Elo − 1500) × 150/200, σ = β/4 = 37.5; Five and
        # Six did not play.
        assert kept["15"] == (2075.0, 37.5) and kept["16"] == (2450.0, 37.5)
    # list.csv publishes μ and σ to 3 decimals (docs/systems.md), on either scale: a μ near
    # 2000 has 7 digits, all printed.
    listed_states = by_id(tmp_path / "out" / "2026-02" / "standard" / "list.csv")
    for key, (mu, sigma) in kept.items():
        row = listed_states[key]
        assert float(row["mu"]) == pytest.approx(mu, abs=0.0005), key
        assert float(row["sigma"]) == pytest.approx(sigma, abs=0.0005), key
        assert all(len(row[c].partition(".")[2]) <= 3 for c in ("mu", "sigma")), key
    february = paper_event(tmp_path, "2026/02/07", "2026/02/08")
    code, printed, err = command("rate", february, "--rules", rules, "--list", exported,
                                 "--out", tmp_path / "rated")  # fmt: skip
    assert code == 0, printed + err
    # Its players (One to Four) start from the exported states (players.csv: to 10 digits).
    rated = by_id(tmp_path / "rated" / "players.csv")
    assert {key: (float(row["mu"]), float(row["sigma"])) for key, row in rated.items()} == {
        key: pytest.approx(kept[key], rel=WRITTEN_RELATIVE) for key in ("11", "12", "13", "14")
    }
    again = tmp_path / "again.sqlite"
    code, printed, err = command("init", "--list", exported, "--period", "2026-02", "--db",
                                 again, "--rules", rules)  # fmt: skip
    assert code == 0, printed + err
    assert "6 players with a state under trueskill, read from the list" in printed
    assert command("export-list", "initial", "--db", again, "--out", tmp_path / "y")[0] == 0
    assert states(tmp_path / "y" / "2026-02" / "standard" / "state.csv") == kept


def test_a_players_report_under_glicko2_is_a_workbook_and_a_page_of_tables(
    tmp_path: Path,
) -> None:
    # Glickman's example (docs/systems.md §2) from the database, as the officer runs it. The
    # numbers in exact arithmetic (the paper rounds its intermediate values: v 1.7785,
    # Δ −0.4834): g(φ_j) 0.995498, 0.953149, 0.724235; E 0.639468, 0.431842, 0.302841;
    # v 1.778977, Δ −0.483933; r' 1464.05, RD' 151.52, σ' 0.059996.
    from openpyxl import load_workbook
    from workbooks import header_row, table

    db = glicko2_db(tmp_path)
    assert run("publish", "2026-02", "--db", db, "--out", tmp_path / "out")[0] == 0
    out = tmp_path / "p"
    code, printed, err = run("player", "11", "--db", db, "--out", out)
    assert code == 0, printed + err
    assert sorted(p.name for p in out.iterdir()) == ["player-11.html", "player-11.xlsx"]

    book = load_workbook(out / "player-11.xlsx")
    assert book.sheetnames == ["Summary", "History", "Chart standard", "Calculations"]
    assert all(str(book[s].cell(1, 1).value).startswith("One, Ann (FIDE ID 11, ESP, born 1980)")
               for s in book.sheetnames)  # fmt: skip
    history = table(book["History"])
    assert [list(row) for row in history[:1]] == [
        ["list", "period", "status", "games", "points", "r", "RD", "σ"]
    ]
    assert history[0] == {
        "list": "standard",
        "period": "2026-01",
        "status": None,
        "games": None,
        "points": None,
        "r": 1500,
        "RD": 200,
        "σ": 0.06,
    }
    after = history[1]
    assert (after["period"], after["status"], after["games"], after["points"]) == (
        "2026-02", "rated", 3, 1,
    )  # fmt: skip
    assert abs(after["r"] - 1464.05) <= 0.011 and abs(after["RD"] - 151.52) <= 0.005
    assert abs(after["σ"] - 0.059996) <= 1e-6
    chart = book["Chart standard"]
    assert len(chart._charts) == 1
    assert [row["period"] for row in table(chart)] == ["2026-01", "2026-02"]
    rows = table(book["Calculations"])
    player, *games = rows
    assert (player["period"], player["games"], player["points"]) == ("2026-02", 3, 1)
    assert player["v"] == pytest.approx(1.778977, abs=1e-6)
    assert player["Δ"] == pytest.approx(-0.483933, abs=1e-6)
    assert [(g["opponent"], g["r_j"], g["RD_j"], g["points"]) for g in games] == [
        ("Two, Bea", 1400, 30, 1), ("Three, Cy", 1550, 100, 0), ("Four, Di", 1700, 300, 0),
    ]  # fmt: skip
    assert [round(g["g"], 6) for g in games] == [0.995498, 0.953149, 0.724235]
    assert [round(g["E"], 6) for g in games] == [0.639468, 0.431842, 0.302841]
    # Shown as the terminal shows them: g, E, v and Δ to 4 decimals, σ to 6.
    sheet = book["Calculations"]
    head = header_row(sheet)  # then the list's row, then the first game's
    formats = {sheet.cell(head, c).value: sheet.cell(head + 2, c).number_format
               for c in range(1, sheet.max_column + 1)}  # fmt: skip
    assert (formats["g"], formats["E"], formats["r_j"]) == ("0.0000", "0.0000", "0.00")

    page = read_page((out / "player-11.html").read_text(encoding="utf-8"))
    assert page.headings[:2] == ["One, Ann (FIDE ID 11, ESP, born 1980)", "Rating history"]
    assert ["standard", "2026-02", "rated", "3", "1", "1464.05", "151.52", "0.059996"] in page.rows
    assert ["r", "RD", "σ", "v", "Δ", "r′", "RD′", "σ′"] in page.rows
    assert ["1500.00", "200.00", "0.060000", "1.7790", "-0.4839", "1464.05", "151.52",
            "0.059996"] in page.rows  # fmt: skip
    assert ["Rd", "opponent", "result", "r_j", "RD_j", "g", "E"] in page.rows
    assert ["1", "Two, Bea", "1", "1400.00", "30.00", "0.9955", "0.6395"] in page.rows
    assert ["3", "Four, Di", "0", "1700.00", "300.00", "0.7242", "0.3028"] in page.rows
    # The terminal shows the same texts.
    assert "v 1.7790 · Δ -0.4839" in printed and "0.7242  0.3028" in printed


def test_a_players_lists_come_standard_rapid_blitz_in_every_report(tmp_path: Path) -> None:
    # One game a list, added blitz first: One beats Two in standard (rated from the list),
    # draws in rapid and loses in blitz (both new there: first ratings).
    from openpyxl import load_workbook
    from workbooks import table

    db = tmp_path / "g.sqlite"
    listed = write(tmp_path / "state.csv", PAPER_LIST[:3])
    assert run("init", "--list", listed, "--period", "2026-01", "--db", db,
               "--rules", "glicko2")[0] == 0  # fmt: skip
    people = [P(1, "One, Ann", None, 11, ADULT), P(2, "Two, Bea", None, 12, ADULT)]
    for kind, tags, result in [("blitz", ("122 3 minutes + 2 seconds",), "0-1"),
                               ("rapid", ("122 15 minutes + 10 seconds",), "=-="),
                               ("standard", (), "1-0")]:  # fmt: skip
        path = tmp_path / f"{kind}.trf"
        path.write_text(trf(people, [(1, 1, 2, result)], name=f"{kind} open", extra=tags))
        assert run("add", path, "--db", db)[0] == 0
    assert run("publish", "2026-02", "--db", db, "--out", tmp_path / "out")[0] == 0
    out = tmp_path / "p"
    code, printed, err = run("player", "11", "--db", db, "--out", out)
    assert code == 0, err
    order = ["standard", "rapid", "blitz"]
    assert [line for line in printed.splitlines() if line.startswith("2026-02 ")] == [
        "2026-02 standard (rated): 1 game, 1 point",
        "2026-02 rapid (first rating): 1 game, ½ points",
        "2026-02 blitz (first rating): 1 game, 0 points",
    ]
    heads = [line.split()[0] for line in printed.splitlines() if "list history" in line]
    assert heads == order
    book = load_workbook(out / "player-11.xlsx")
    assert [row["list"] for row in table(book["History"])] == ["standard", *order]
    assert [row["list"] for row in table(book["Calculations"])
            if row["opponent"] is None] == order  # fmt: skip
    assert [s for s in book.sheetnames if s.startswith("Chart")] == [f"Chart {k}" for k in order]
    page = read_page((out / "player-11.html").read_text(encoding="utf-8"))
    assert [h for h in page.headings if " list 2026-02" in h] == [
        f"{kind} list 2026-02" for kind in order
    ]


def test_a_players_heading_under_another_system_reads_as_under_elo(tmp_path: Path) -> None:
    # The heading of every player report (explain.player_heading): title, name, then FIDE ID
    # (or the id the lists print for a player without one), federation and birth year.
    from openpyxl import load_workbook

    db = tmp_path / "g.sqlite"
    listed = write(tmp_path / "state.csv", [
        "id,name,federation,title,birth_year,rating,rd,volatility",
        '11,"One, Ann",ESP,GM,1980,1500,200,0.06', '12,"Two, Bea",ESP,,1981,1400,30,0.06',
    ])  # fmt: skip
    assert run("init", "--list", listed, "--period", "2026-01", "--db", db,
               "--rules", "glicko2")[0] == 0  # fmt: skip
    people = [P(1, "One, Ann", None, 11, ADULT), P(2, "Two, Bea", None, 12, 1981),
              P(3, "Newman, Ned", None, None, 1990)]  # fmt: skip
    event = tmp_path / "open.trf"
    event.write_text(trf(people, [(1, 1, 2, "1-0"), (2, 3, 1, "=-="), (3, 2, 3, "0-1")]))
    assert run("add", event, "--db", db)[0] == 0
    assert run("publish", "2026-02", "--db", db, "--out", tmp_path / "out")[0] == 0
    for typed, heading, identity in [
        ("11", "GM One, Ann (FIDE ID 11, ESP, born 1980)", "11"),
        ("open#3", "Newman, Ned (no FIDE ID, open#3, -, born 1990)", "none (open#3)"),
    ]:
        out = tmp_path / typed.replace("#", "-")
        code, printed, err = run("player", typed, "--db", db, "--out", out)
        assert (code, printed.splitlines()[0]) == (0, heading), err
        book = load_workbook(next(out.glob("*.xlsx")))
        assert {book[s].cell(1, 1).value.split(" — ")[0] for s in book.sheetnames} == {heading}
        assert ["FIDE ID", identity] in [
            list(r[:2]) for r in book["Summary"].iter_rows(values_only=True)
        ]
        page = read_page(next(out.glob("*.html")).read_text(encoding="utf-8"))
        assert page.headings[0] == heading


class Flagged(HarknessSystem):
    """A system whose list adds a column of its own (as US Chess's ``provisional``)."""

    def list_extra(self, players: pd.DataFrame) -> dict[str, np.ndarray]:
        return {"high": players["new_rating"].to_numpy(np.float64) > 1500}


def test_a_system_adds_its_own_list_columns_after_the_state() -> None:
    # players.csv rows as a system gives them (every row has its status: docs/systems.md §7).
    players = pd.DataFrame({"id": ["11", "12"], "games": [3, 1], "new_rating": [1600.4, 1400.0],
                            "status": ["rated", "new"]})  # fmt: skip
    table = pd.DataFrame({"id": ["11", "12"], "name": ["One", "Two"], "birth_year": [1980, 1981]})
    listing = system_listing(Flagged(), players, table)
    assert list(listing.columns)[-3:] == ["rating", "high", "games"]
    assert listing["high"].tolist() == [True, False] and listing["rating"].tolist() == [1600, 1400]
    assert system_listing(HarknessSystem(), players, table).columns[-2:].tolist() == [
        "rating", "games",
    ]  # fmt: skip
