"""A month without events, under every system (docs/systems.md §7): a database whose first
publish is an empty month publishes it (each state carried as the system carries an idle
period), the desk previews it, and the next month publishes after it; and ``rate`` of events
that rate nobody writes its files. An empty period is an ordinary input: no traceback."""

from __future__ import annotations

import csv
import math
import re
from pathlib import Path

import pytest
from db_helpers import run
from desk_helpers import desk, said
from openpyxl import load_workbook
from trf_text import P, trf

#: Glicko-2 (docs/systems.md §2): an idle period grows the RD by σ on the Glicko-2 scale,
#: φ* = √(φ² + σ²), that is √(RD² + (σ × 173.7178)²) on the rating scale.
G2_IDLE = 0.06 * 173.7178  # 10.423
#: Glicko (docs/systems.md §3): one idle period, RD' = √(RD² + c²), c = 34.6.
G1_IDLE = 34.6

#: Per system: its own list (11, 12 and 13; none has played), its period, the next list when
#: nothing was added for it, the end date of the event added, the list it goes into, and what
#: list.csv shows of each player after the empty month (the states as listed, carried over
#: an idle period as the system says; numbers compared as numbers).
Case = tuple[list[str], tuple[str, str, str, str], dict[str, dict[str, float]]]
#: Monthly lists: the list of 2026-01, February's list empty, an event of 10 February for
#: the list of 2026-03 (FIDE's 3-day closing, or the ECF's month before, docs/systems.md §12.1).
MONTHLY = ("2026-01", "2026-02", "2026/02/10", "2026-03")


def ratings(one: int, two: int, three: int) -> Case:
    """A list of ratings alone (Elo, Harkness, Ingo), which an idle month leaves as they are."""
    return (
        ["id,name,rating", f"11,One,{one}", f"12,Two,{two}", f"13,Three,{three}"],
        MONTHLY,
        {"11": {"rating": one}, "12": {"rating": two}, "13": {"rating": three}},
    )


CASES: dict[str, Case] = {
    # FIDE Elo: a list month without events changes no rating (Two at 1450 from 2022: her
    # loss must not take her below the floor of 1400 and off the next list).
    **{edition: ratings(1500, 1450, 1600) for edition in ("fide", "fide-2022", "fide-2024")},
    "fide-2025": ratings(1500, 1450, 1600),
    "fide-2011": ratings(1500, 1400, 1600),
    "fide-2014": ratings(1500, 1400, 1600),
    # Glicko-2: RD 200 → √(200² + 10.423²) = 200.27 → 200; 30 → 31.76 → 32; 50 → 51.07 → 51.
    "glicko2": (
        ["id,name,rating,rd,volatility", "11,One,1500,200,0.06", "12,Two,1400,30,0.06",
         "13,Three,1600,50,0.06"],
        MONTHLY,
        {"11": {"rating": 1500, "rd": round(math.hypot(200, G2_IDLE)), "volatility": 0.06},
         "12": {"rating": 1400, "rd": round(math.hypot(30, G2_IDLE)), "volatility": 0.06},
         "13": {"rating": 1600, "rd": round(math.hypot(50, G2_IDLE)), "volatility": 0.06}},
    ),
    # Glicko: RD 200 → √(200² + 34.6²) = 202.97 → 203; 30 → 45.79 → 46; 50 → 60.80 → 61.
    "glicko": (
        ["id,name,rating,rd,last_period", "11,One,1500,200,", "12,Two,1400,30,",
         "13,Three,1600,50,"],
        MONTHLY,
        {"11": {"rating": 1500, "rd": 203}, "12": {"rating": 1400, "rd": 46},
         "13": {"rating": 1600, "rd": 61}},
    ),
    # TrueSkill: no game, no change; listed μ − 3σ (30 − 6 = 24, 28 − 9 = 19, 31 − 3 = 28).
    "trueskill": (
        ["id,name,mu,sigma", "11,One,30,2", "12,Two,28,3", "13,Three,31,1"],
        MONTHLY,
        {"11": {"rating": 24, "mu": 30, "sigma": 2}, "12": {"rating": 19, "mu": 28, "sigma": 3},
         "13": {"rating": 28, "mu": 31, "sigma": 1}},
    ),
    "harkness": ratings(1500, 1400, 1600),
    "ingo": ratings(150, 160, 140),
    # US Chess: the state stands (§9.11: nothing changes without a section).
    "uscf": (
        ["id,name,rating,games_total,record,peak,floor,abs_floor",
         "11,One,1500,30,mixed,1500,,", "12,Two,1400,40,mixed,,,", "13,Three,1600,50,,1650,,"],
        MONTHLY,
        {"11": {"rating": 1500, "games_total": 30, "peak": 1500},
         "12": {"rating": 1400, "games_total": 40},
         "13": {"rating": 1600, "games_total": 50, "peak": 1650}},
    ),
    # DWZ: no evaluation, no change (already on the 2026 scale: no uplift, §10.8).
    "dwz": (
        ["id,name,federation,birth_year,rating,index,uplifted", "11,One,GER,1980,1500,20,true",
         "12,Two,GER,1980,1400,12,true", "13,Three,GER,1980,1600,30,true"],
        MONTHLY,
        {"11": {"rating": 1500, "index": 20}, "12": {"rating": 1400, "index": 12},
         "13": {"rating": 1600, "index": 30}},
    ),
    # ECF rating: no game, no change; the last game of 2025-12 is far from lapsing (§12.6).
    "ecf": (
        ["id,name,rating,last_period", "11,One,1500,2025-12", "12,Two,1400,2025-12",
         "13,Three,1600,2025-12"],
        MONTHLY,
        {"11": {"rating": 1500}, "12": {"rating": 1400}, "13": {"rating": 1600}},
    ),
    # ECF grade (§11.1, half-yearly seasons): the list of 2026-01 rates the second half of
    # 2025, empty here; an event of February goes into the list of 2026-07.
    "ecf-grade": (
        ["id,name,rating,grade_games,last_period", "11,One,150,30,", "12,Two,140,30,",
         "13,Three,160,30,"],
        ("2025-07", "2026-01", "2026/02/10", "2026-07"),
        {"11": {"rating": 150, "grade_games": 30}, "12": {"rating": 140, "grade_games": 30},
         "13": {"rating": 160, "grade_games": 30}},
    ),
}  # fmt: skip


def by_id(path: Path) -> dict[str, dict[str, str]]:
    with path.open(encoding="utf-8-sig", newline="") as handle:
        return {row["id"]: row for row in csv.DictReader(handle)}


def event(folder: Path, end: str) -> Path:
    """One (11) beats Two (12); Three (13) is not there."""
    people = [P(1, "One", None, 11, 1980), P(2, "Two", None, 12, 1980)]
    path = folder / "later.trf"
    path.write_text(trf(people, [(1, 1, 2, "1-0")], name="Later Open", start=end, end=end))
    return path


@pytest.mark.parametrize("system", sorted(CASES))
def test_an_empty_month_publishes_its_list_and_the_next_month_after_it(
    system: str, tmp_path: Path
) -> None:
    lines, (first, empty, end, later), expected = CASES[system]
    listed = tmp_path / "list.csv"
    listed.write_text("\n".join(lines) + "\n", encoding="utf-8")
    db = tmp_path / "s.sqlite"
    code, printed, err = run("init", "--list", listed, "--period", first, "--db", db,
                             "--rules", system)  # fmt: skip
    assert code == 0, printed + err
    code, printed, err = run("add", event(tmp_path, end), "--db", db)
    assert code == 0, printed + err
    assert f"period {later}" in printed, printed
    # The desk's preview of the empty month (GET /publish/<period>, spec/desk.md §1).
    page = desk(db, tmp_path / "site").get(f"/publish/{empty}")
    assert page.status_code == 200, said(page.text)
    assert f"would publish {empty}" in said(page.text)
    out = tmp_path / "out"
    code, printed, err = run("publish", empty, "--db", db, "--out", out)
    assert code == 0, printed + err
    listing = by_id(out / empty / "standard" / "list.csv")
    assert sorted(listing) == ["11", "12", "13"]
    if not system.startswith("fide"):  # FIDE Elo's own publish writes these otherwise
        # list.xlsx names the rules under its title in a line short enough to print (as
        # under Elo, "rules fide-2025: …"), not every constant; the report says why no
        # calculation follows.
        sheet = load_workbook(out / empty / "standard" / "list.xlsx")["List"]
        assert str(sheet.cell(2, 1).value).startswith(f"rules {system}: ")
        assert len(str(sheet.cell(2, 1).value)) < 90
        report = said((out / empty / "standard" / "index.html").read_text(encoding="utf-8"))
        assert f"no standard event in {empty}: every state carried over as {system}" in report
    for player, values in expected.items():
        shown = {column: float(listing[player][column]) for column in values}
        assert shown == pytest.approx(values), player
        assert listing[player]["games"] == "0"
    # The next month publishes after it: One and Two played, Three did not.
    code, printed, err = run("publish", later, "--db", db, "--out", out)
    assert code == 0, printed + err
    listing = by_id(out / later / "standard" / "list.csv")
    assert {player: listing[player]["games"] for player in ("11", "12", "13")} == {
        "11": "1", "12": "1", "13": "0",
    }  # fmt: skip
    assert float(listing["11"]["rating"]) != expected["11"]["rating"]
    if system.startswith("fide"):
        return
    # Each player's report holds every published list he is on, the empty month too: Three
    # played in none of them, One only in the second.
    for player in ("11", "13"):
        code, printed, err = run("player", player, "--db", db)
        assert code == 0, printed + err
        assert "no published list has rated this player yet" not in printed, player
        history = re.findall(r"^  (\d{4}-\d\d)  (rated|new)\b", printed, re.M)
        assert [period for period, _ in history] == [empty, later], (player, printed)


def forfeits(folder: Path) -> Path:
    """Three unrated players: One wins by forfeit against Two, Three has a bye."""
    people = [P(1, "One", None, 11, 1980), P(2, "Two", None, 12, 1980),
              P(3, "Three", None, 13, 1980)]  # fmt: skip
    path = folder / "forfeits.trf"
    path.write_text(trf(people, [(1, 1, 2, "+--"), (1, 3, None, "F")]))
    return path


def unrated(folder: Path) -> Path:
    """Three unrated players, each playing the other two over the board."""
    people = [P(1, "One", None, 11, 1980), P(2, "Two", None, 12, 1980),
              P(3, "Three", None, 13, 1980)]  # fmt: skip
    path = folder / "unrated.trf"
    path.write_text(trf(people, [(1, 1, 2, "1-0"), (2, 2, 3, "=-="), (3, 3, 1, "0-1")]))
    return path


#: The systems as ``rate --rules`` names them: the FIDE Elo editions and every other system.
RULES = sorted(CASES)


@pytest.mark.parametrize("system", RULES)
def test_rate_of_an_event_without_a_game_played_is_refused_naming_it(
    system: str, tmp_path: Path
) -> None:
    out = tmp_path / "out"
    code, _, err = run("rate", forfeits(tmp_path), "--rules", system, "--out", out)
    assert code == 1 and "forfeits.trf: no game in it was played over the board" in err
    assert not out.exists()


@pytest.mark.parametrize("system", RULES)
def test_rate_of_unrated_players_writes_every_player(system: str, tmp_path: Path) -> None:
    # Under FIDE Elo a game between two unrated players counts for neither (a first rating
    # needs rated opponents): nobody is rated and every player is written with 0 games; the
    # other systems rate a player from his first game (docs/systems.md §1): 2 games each.
    out = tmp_path / "out"
    code, printed, err = run("rate", unrated(tmp_path), "--rules", system, "--out", out)
    assert code == 0, printed + err
    players = by_id(out / "players.csv")
    games = "0" if system.startswith("fide") else "2"
    assert {player: row["games"] for player, row in players.items()} == {
        "11": games, "12": games, "13": games,
    }  # fmt: skip
