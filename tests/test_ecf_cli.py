"""The ECF grade and the ECF rating through the command line (docs/systems.md §11, §12):
``rate --rules ecf-grade|ecf --list``, lists and constants refused with file and line, and a
database under each (init from its list, add, publish, player, export-list)."""

from __future__ import annotations

import csv
import datetime as dt
from pathlib import Path

import pytest
from db_helpers import rows, run, write_list
from trf_text import P, trf

from rating_batch.periods import period_of
from rating_batch.pipelines.registry import book_from
from rating_batch.writers.common import WRITTEN_RELATIVE

ADULT = 1980


def read(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8-sig", newline="") as handle:
        return list(csv.DictReader(handle))


def season_event(folder: Path) -> Path:
    """docs/systems.md §11.7: Main (11) draws ten players (12–21), in March 2015."""
    people = [P(1, "Main, Ann", None, 11, ADULT)]
    people += [P(r, f"Opp{r:02d}, Bo", None, 10 + r, ADULT) for r in range(2, 12)]
    games = [(r - 1, 1, r, "=-=") for r in range(2, 12)]
    path = folder / "season.trf"
    path.write_text(trf(people, games, name="Spring League", start="2015/03/01",
                        end="2015/03/10"))  # fmt: skip
    return path


def grades(folder: Path, main: str = "150,30,2015-01") -> Path:
    lines = ["id,name,rating,grade_games,last_period", f'11,"Main, Ann",{main}']
    lines += [f'{10 + r},"Opp{r:02d}, Bo",170,30,' for r in range(2, 12)]
    return write_list(folder, lines, "grades.csv")


def monthly_event(folder: Path, time_control: str = "") -> Path:
    """docs/systems.md §12.8: a new adult (11) scores 3/5 against five 1500s, January 2026."""
    people = [P(1, "New, Nia", None, 11, ADULT)]
    people += [P(r, f"Club{r}, Cy", None, 10 + r, ADULT) for r in range(2, 7)]
    results = ["1-0", "1-0", "1-0", "0-1", "0-1"]
    games = [(r - 1, 1, r, results[r - 2]) for r in range(2, 7)]
    extra = (f"122 {time_control}",) if time_control else ()
    path = folder / "monthly.trf"
    path.write_text(trf(people, games, name="Monthly Open", start="2026/01/10",
                        end="2026/01/20", extra=extra))  # fmt: skip
    return path


def ratings(folder: Path, first: str = "") -> Path:
    lines = ["id,name,rating,partial_games,last_period", *([first] if first else [])]
    lines += [f'{10 + r},"Club{r}, Cy",1500,,2025-12' for r in range(2, 7)]
    return write_list(folder, lines, "ratings.csv")


def test_ecf_grade_the_illustration_through_rate(tmp_path: Path) -> None:
    out = tmp_path / "out"
    code, printed, err = run("rate", season_event(tmp_path), "--rules", "ecf-grade", "--list",
                             grades(tmp_path), "--out", out)  # fmt: skip
    assert code == 0, printed + err
    players = rows(out / "players.csv")
    # (10 × 170 + 20 × 150)/30 = 156.67 on 30 games, B; the season Jan–Jun 2015: list 2015-07.
    main = players["11"]
    assert float(main["new_rating"]) == pytest.approx(4700 / 30, rel=WRITTEN_RELATIVE)
    assert (main["new_grade_games"], main["new_last_period"], main["top_up"]) == (
        "30.0", "2015-07", "20.0")  # fmt: skip
    assert (main["performance"], main["category"], main["status"]) == ("170.0", "B", "rated")
    # Each opponent: (150 + 29 × 170)/30 = 169.33.
    assert float(players["12"]["new_rating"]) == pytest.approx(5080 / 30, rel=WRITTEN_RELATIVE)
    calculations = [r for r in read(out / "calculations.csv") if r["id"] == "11"]
    assert len(calculations) == 10
    assert {(r["opponent_grade"], r["grade_used"], r["points"]) for r in calculations} == {
        ("170.0", "170.0", "170.0")}  # fmt: skip


def test_ecf_rating_the_new_players_illustration_through_rate(tmp_path: Path) -> None:
    out = tmp_path / "out"
    code, printed, err = run("rate", monthly_event(tmp_path), "--rules", "ecf", "--list",
                             ratings(tmp_path), "--out", out)  # fmt: skip
    assert code == 0, printed + err
    players = rows(out / "players.csv")
    # Ra = (5 × 1500 + 1800)/6 = 1550, p 0.58, dp 57: 1607 on 5 games, P, new.
    new = players["11"]
    assert (new["new_rating"], new["new_partial_games"], new["method"], new["nominal"]) == (
        "1607.0", "5.0", "P", "1800.0")  # fmt: skip
    assert (new["category"], new["status"], new["new_last_period"]) == ("P", "new", "2026-01")
    # Against 1607: D −107, PD 0.35: losers −7, winners +13; full ratings, K.
    assert [players[i]["new_rating"] for i in ("12", "15")] == ["1493.0", "1513.0"]
    assert (players["12"]["new_partial_games"], players["12"]["category"]) == ("", "K")


def test_ecf_rating_from_an_old_grade_through_rate(tmp_path: Path) -> None:
    # §12.2: 11 listed with grade 155 and no rating: 7.5 × 155 + 700 = 1862.5 → 1863, full.
    # 3/5 against 1500s: D 363, PD 0.90 each: 20 × (3 − 4.5) = −30 → 1833, the K method.
    lines = ["id,name,rating,grade", '11,"New, Nia",,155']
    listed = write_list(tmp_path, lines + [f'{10 + r},"Club{r}, Cy",1500,' for r in range(2, 7)])
    out = tmp_path / "out"
    code, printed, err = run("rate", monthly_event(tmp_path), "--rules", "ecf", "--list",
                             listed, "--out", out)  # fmt: skip
    assert code == 0, printed + err
    new = rows(out / "players.csv")["11"]
    assert (new["grade"], new["new_rating"], new["method"], new["status"]) == (
        "155.0", "1833.0", "K", "rated")  # fmt: skip


def test_ecf_rating_on_the_rapid_list_takes_100_off_the_dummy(tmp_path: Path) -> None:
    # --kind rapid: dummy 1700: Ra = (7500 + 1700)/6 = 1533.33 + 57 = 1590.33 → 1590.
    out = tmp_path / "out"
    code, printed, err = run("rate", monthly_event(tmp_path), "--rules", "ecf", "--list",
                             ratings(tmp_path), "--kind", "rapid", "--out", out)  # fmt: skip
    assert code == 0, printed + err
    new = rows(out / "players.csv")["11"]
    assert (new["nominal"], new["new_rating"]) == ("1700.0", "1590.0")


def test_a_list_value_the_system_cannot_hold_is_refused_naming_the_line(tmp_path: Path) -> None:
    event = monthly_event(tmp_path)
    listed = ratings(tmp_path, '11,"New, Nia",1600,12,2025-12')
    code, _, err = run("rate", event, "--rules", "ecf", "--list", listed, "--out",
                       tmp_path / "out")  # fmt: skip
    assert code == 1 and "Traceback" not in err
    assert f"{listed}:2: partial_games 12 is out of range for ecf (1 to 9); empty for a full " \
        "rating" in err  # fmt: skip
    assert not (tmp_path / "out").exists()
    listed = grades(tmp_path, "150,31,2015-01")
    code, _, err = run("rate", season_event(tmp_path), "--rules", "ecf-grade", "--list",
                       listed, "--out", tmp_path / "out")  # fmt: skip
    assert code == 1 and f"{listed}:2: grade_games 31 is out of range for ecf-grade (0 to 30)" \
        in err  # fmt: skip
    assert not (tmp_path / "out").exists()


def test_an_impossible_constant_is_refused_naming_the_file_and_key(tmp_path: Path) -> None:
    rules = write_list(tmp_path, name="ecf.toml", lines=['system = "ecf"', "[ecf]", "k = 0",
                                          "partial_opponent_weight = 0.5"])  # fmt: skip
    code, _, err = run("rate", monthly_event(tmp_path), "--rules", rules, "--out",
                       tmp_path / "out")  # fmt: skip
    assert code == 1 and "Traceback" not in err
    assert "key 'k' must be at least 1 and at most 100 (got 0)" in err and str(rules) in err
    assert not (tmp_path / "out").exists()
    rules = write_list(tmp_path, name="grade.toml", lines=['system = "ecf-grade"', "[ecf-grade]",
                                            'season = "quarterly"'])  # fmt: skip
    code, _, err = run("rate", season_event(tmp_path), "--rules", rules, "--out",
                       tmp_path / "out")  # fmt: skip
    assert code == 1 and "key 'season' must be one of annual, half-yearly" in err


def test_a_rules_file_sets_the_older_reading_of_partial_opponents(tmp_path: Path) -> None:
    # partial_opponent_weight 0.5: a 1500 losing to 1607 moves 20 × 0.5 × −0.35 = −3.5 → −4.
    rules = write_list(tmp_path, name="ecf.toml", lines=['system = "ecf"', "[ecf]",
                                          "partial_opponent_weight = 0.5"])  # fmt: skip
    out = tmp_path / "out"
    code, printed, err = run("rate", monthly_event(tmp_path), "--rules", rules, "--list",
                             ratings(tmp_path), "--out", out)  # fmt: skip
    assert code == 0, printed + err
    assert rows(out / "players.csv")["12"]["new_rating"] == "1496.0"


def test_an_ecf_database_from_its_list_to_the_player_and_the_exported_state(
    tmp_path: Path,
) -> None:
    db = tmp_path / "ecf.sqlite"
    code, printed, err = run("init", "--list", ratings(tmp_path), "--period", "2026-01",
                             "--rules", "ecf", "--db", db)  # fmt: skip
    assert code == 0 and "5 players with a state under ecf, read from the list" in printed, err
    assert run("add", monthly_event(tmp_path), "--db", db)[0] == 0
    out = tmp_path / "lists"
    code, printed, err = run("publish", "2026-02", "--db", db, "--out", out)
    assert code == 0, printed + err
    listing = read(out / "2026-02" / "standard" / "list.csv")
    assert [r["id"] for r in listing] == ["11", "15", "16", "12", "13", "14"]
    assert [(r["rating"], r["partial_games"], r["category"]) for r in listing[:2]] == [
        ("1607", "5", "P"), ("1513", "", "K")]  # fmt: skip
    assert list(listing[0])[-2:] == ["category", "games"]
    code, printed, _ = run("player", "11", "--db", db, "--out", tmp_path / "p")
    assert code == 0 and "rated under ecf" in printed
    assert "n 5 · Ra 1550.00 · p 0.58 · dp 57 · pass A 1607 · pass B 1607 → R′ 1607" in printed
    assert (tmp_path / "p" / "player-11.html").is_file()
    code, printed, _ = run("player", "12", "--db", db)
    assert code == 0 and "R 1500" in printed and "0.35   -0.35" in printed
    exported = tmp_path / "x"
    assert run("export-list", "2026-02", "--db", db, "--out", exported)[0] == 0
    state = {r["id"]: r for r in read(exported / "2026-02" / "standard" / "state.csv")}
    assert (state["11"]["rating"], state["11"]["partial_games"]) == ("1607.0", "5.0")
    assert (state["12"]["rating"], state["12"]["partial_games"]) == ("1493.0", "")
    # The exported state is a list rate reads again: 11 starts from 1607 on 5 games.
    again = tmp_path / "again"
    state_csv = exported / "2026-02" / "standard" / "state.csv"
    code, printed, err = run("rate", monthly_event(tmp_path), "--rules", "ecf", "--list",
                             state_csv, "--out", again)  # fmt: skip
    assert code == 0, printed + err
    assert rows(again / "players.csv")["11"]["partial_games"] == "5.0"


def test_an_ecf_grade_database_publishes_the_grade_rounded_with_its_category(
    tmp_path: Path,
) -> None:
    db = tmp_path / "grade.sqlite"
    code, printed, err = run("init", "--list", grades(tmp_path), "--period", "2015-01",
                             "--rules", "ecf-grade", "--db", db)  # fmt: skip
    assert code == 0, printed + err
    assert run("add", season_event(tmp_path), "--db", db)[0] == 0
    out = tmp_path / "lists"
    # docs/systems.md §11.1: the half-yearly lists are January's and July's; the March event
    # goes into the list of July, the next after January's.
    code, printed, err = run("publish", "2015-07", "--db", db, "--out", out)
    assert code == 0, printed + err
    listing = {r["id"]: r for r in read(out / "2015-07" / "standard" / "list.csv")}
    # 156.67 → 157 (half away from zero), B; 169.33 → 169.
    assert (listing["11"]["rating"], listing["11"]["category"]) == ("157", "B")
    assert listing["12"]["rating"] == "169"
    code, printed, _ = run("player", "11", "--db", db)
    # The grade is "grade" in player, as its new value is "new grade" (docs/systems.md §12).
    assert code == 0 and "grade 150.00" in printed and "new grade 156.67" in printed


def test_the_ecf_month_has_no_three_day_closing(tmp_path: Path) -> None:
    # docs/systems.md §12.1: an event ending on 31 January goes into the February list (under
    # FIDE's 3-day closing it would wait for March).
    db = tmp_path / "ecf.sqlite"
    assert run("init", "--list", ratings(tmp_path), "--period", "2026-01", "--rules", "ecf",
               "--db", db)[0] == 0  # fmt: skip
    event = monthly_event(tmp_path)
    event.write_text(event.read_text().replace("2026/01/20", "2026/01/31"))
    code, printed, err = run("add", event, "--db", db)
    assert code == 0 and "period 2026-02" in printed, printed + err


def test_the_calendars_of_the_ecf_systems() -> None:
    # The database's periods: FIDE's monthly lists with 3 days' closing (glicko), the ECF's
    # months (closing at the month's end), the ECF grade's seasons (docs/systems.md §11.1).
    def period(rules: str, day: str, text: str | None = None) -> str:
        book = book_from(rules, text)
        assert book.fixed is not None
        return period_of(book.fixed, dt.date.fromisoformat(day))

    assert period("glicko", "2026-01-30") == "2026-03"
    assert period("ecf", "2026-01-31") == "2026-02"
    assert period("ecf-grade", "2015-06-30") == "2015-07"
    assert period("ecf-grade", "2015-07-01") == "2016-01"
    annual = 'system = "ecf-grade"\n[ecf-grade]\nseason = "annual"\n'
    assert period("annual.toml", "2011-05-31", annual) == "2011-07"
    assert period("annual.toml", "2011-06-01", annual) == "2012-07"


def test_a_lists_birth_year_goes_before_the_event_files(tmp_path: Path) -> None:
    # docs/systems.md §8: 12 born 2010 by the list (1980 in the file) is 16 in 2026, a
    # junior: against 1607, D −107, PD 0.35, 40 × −0.35 = −14 → 1486 (an adult: 1493).
    lines = ["id,name,birth_year,rating,partial_games,last_period"]
    lines += [f'{10 + r},"Club{r}, Cy",{2010 if r == 2 else ""},1500,,2025-12' for r in range(2, 7)]
    out = tmp_path / "out"
    code, printed, err = run("rate", monthly_event(tmp_path), "--rules", "ecf", "--list",
                             write_list(tmp_path, lines), "--out", out)  # fmt: skip
    assert code == 0, printed + err
    players = rows(out / "players.csv")
    assert (players["12"]["k"], players["12"]["new_rating"]) == ("40.0", "1486.0")
    assert (players["13"]["k"], players["13"]["new_rating"]) == ("20.0", "1493.0")


def test_an_ecf_database_made_from_old_grades(tmp_path: Path) -> None:
    # §12.2, July 2020: init stores 7.5 × 155 + 700 = 1862.5 → 1863 as a full rating; the
    # month then rates it by the K method as in rate: 3/5 against 1500s, −30 → 1833.
    lines = ["id,name,rating,grade", '11,"New, Nia",,155']
    listed = write_list(tmp_path, lines + [f'{10 + r},"Club{r}, Cy",1500,' for r in range(2, 7)])
    db = tmp_path / "ecf.sqlite"
    code, printed, err = run("init", "--list", listed, "--period", "2026-01", "--rules", "ecf",
                             "--db", db)  # fmt: skip
    assert code == 0 and "6 players with a state under ecf" in printed, printed + err
    assert run("add", monthly_event(tmp_path), "--db", db)[0] == 0
    out = tmp_path / "lists"
    assert run("publish", "2026-02", "--db", db, "--out", out)[0] == 0
    listing = {r["id"]: r for r in read(out / "2026-02" / "standard" / "list.csv")}
    assert (listing["11"]["rating"], listing["11"]["category"]) == ("1833", "K")
    players = rows(out / "2026-02" / "standard" / "players.csv")
    assert (players["11"]["rating"], players["11"]["method"]) == ("1863.0", "K")


def test_an_ecf_database_carries_a_partial_ratings_games_to_the_next_month(
    tmp_path: Path,
) -> None:
    # January: 11 new, 3/5 against 1500s: 1607 on 5 games, pool 7500 and 3 points.
    # February: 11 draws 12 (1493): Ra = (7500 + 1493 + 1800)/7 = 1541.86,
    # p = (3.5 + ½)/7 = 0.57, dp 50: 1591.86 → 1592 on 6 games. (The list's draws at 1607
    # would give Ra = (8035 + 1493 + 1800)/7 = 1618.29, p 3.5/7 = 0.50: 1618.)
    # 12 against 1592: D −99, PD 0.36, 20 × 0.14 = 2.8 → +3: 1496.
    db = tmp_path / "ecf.sqlite"
    assert run("init", "--list", ratings(tmp_path), "--period", "2026-01", "--rules", "ecf",
               "--db", db)[0] == 0  # fmt: skip
    assert run("add", monthly_event(tmp_path), "--db", db)[0] == 0
    out = tmp_path / "lists"
    assert run("publish", "2026-02", "--db", db, "--out", out)[0] == 0
    people = [P(1, "New, Nia", None, 11, ADULT), P(2, "Club2, Cy", None, 12, ADULT)]
    february = tmp_path / "february.trf"
    february.write_text(trf(people, [(1, 1, 2, "=-=")], name="February Open",
                            start="2026/02/07", end="2026/02/07"))  # fmt: skip
    code, printed, err = run("add", february, "--db", db)
    assert code == 0 and "period 2026-03" in printed, printed + err
    code, printed, err = run("publish", "2026-03", "--db", db, "--out", out)
    assert code == 0, printed + err
    listing = {r["id"]: r for r in read(out / "2026-03" / "standard" / "list.csv")}
    assert (listing["11"]["rating"], listing["11"]["partial_games"]) == ("1592", "6")
    assert listing["12"]["rating"] == "1496"
    players = rows(out / "2026-03" / "standard" / "players.csv")
    assert (players["11"]["pool_opponents"], players["11"]["pool_points"]) == ("7500.0", "3.0")
    assert (players["11"]["new_pool_opponents"], players["11"]["new_pool_points"]) == (
        "8993.0", "3.5")  # fmt: skip


def init_ecf(folder: Path, listed: Path) -> str:
    """``init --rules ecf`` of ``listed`` as the list of 2026-01 (folder/ecf.sqlite): what it
    printed."""
    code, printed, err = run("init", "--list", listed, "--period", "2026-01", "--rules", "ecf",
                             "--db", folder / "ecf.sqlite")  # fmt: skip
    assert code == 0, printed + err
    return printed


def state_of(folder: Path) -> dict[str, dict[str, str]]:
    """The states ``init_ecf`` stored, as export-list writes them (unrounded)."""
    db = folder / "ecf.sqlite"
    assert run("export-list", "initial", "--db", db, "--out", folder / "x")[0] == 0
    return rows(folder / "x" / "2026-01" / "standard" / "state.csv")


@pytest.mark.parametrize("header", ["id,grade", "id,name,grade"])
def test_an_ecf_database_is_seeded_from_a_list_of_grades_alone(header: str, tmp_path: Path) -> None:
    # §12.2, the July 2020 seeding: rating = 7.5 × grade + 700, a full rating (partial_games
    # empty), a whole number rounded half away from zero (docs/systems.md §12.2):
    # 150 → 1125 + 700 = 1825; 87 → 652.5 + 700 = 1352.5 → 1353; 0 → 700.
    named = header.endswith("name,grade")
    lines = [header] + [f"{i}{',Player' if named else ''},{g}" for i, g in
                        (("11", 150), ("12", 87), ("13", 0))]  # fmt: skip
    listed = write_list(tmp_path, lines, "grades.csv")
    printed = init_ecf(tmp_path, listed)
    assert "standard: 3 players with a state under ecf, read from the list" in printed
    state = state_of(tmp_path)
    assert {i: (r["rating"], r["partial_games"], r["grade"]) for i, r in state.items()} == {
        "11": ("1825.0", "", ""), "12": ("1353.0", "", ""), "13": ("700.0", "", ""),
    }  # fmt: skip
    assert run("check", listed, "--rules", "ecf")[0] == 0


def test_rate_reads_a_list_of_grades_alone(tmp_path: Path) -> None:
    # New, Nia (11) graded 150 → 1825, four opponents graded 107 → 802.5 + 700 = 1502.5 →
    # 1503 and one (16) graded 87 → 1352.5 → 1353, all full ratings: the K method for
    # everyone (no dummy, no pool). Nia beats 12–14, loses to 15 and 16: D 322 → PD 0.87
    # (FIDE table 8.1b), D 472 held to 400 → PD 0.92; 20 × (3 × 0.13 − 0.87 − 0.92) =
    # 20 × −1.40 = −28 → 1797.
    lines = ["id,grade", "11,150", *[f"{10 + r},107" for r in range(2, 6)], "16,87"]
    listed = write_list(tmp_path, lines, "grades.csv")
    out = tmp_path / "out"
    code, printed, err = run("rate", monthly_event(tmp_path), "--rules", "ecf", "--list",
                             listed, "--out", out)  # fmt: skip
    assert code == 0, printed + err
    players = rows(out / "players.csv")
    assert {i: (r["rating"], r["method"]) for i, r in players.items()} == {
        "11": ("1825.0", "K"), **{str(10 + r): ("1503.0", "K") for r in range(2, 6)},
        "16": ("1353.0", "K"),
    }  # fmt: skip
    assert players["11"]["new_rating"] == "1797.0"


def test_a_list_mixing_ratings_and_grades_seeds_only_where_no_rating(tmp_path: Path) -> None:
    # 11 a rating alone (1600 stands), 12 a grade alone (140 → 1050 + 700 = 1750), 13 both,
    # agreeing (150 → 1825), 14 neither (unrated: no state).
    lines = ["id,name,rating,grade", "11,A,1600,", "12,B,,140", "13,C,1825,150", "14,D,,"]
    listed = write_list(tmp_path, lines, "mixed.csv")
    printed = init_ecf(tmp_path, listed)
    assert "standard: 3 players with a state under ecf" in printed
    state = state_of(tmp_path)
    assert {i: r["rating"] for i, r in state.items()} == {
        "11": "1600.0", "12": "1750.0", "13": "1825.0",
    }  # fmt: skip


@pytest.mark.parametrize("command", ["init", "rate", "check"])
def test_a_rating_and_a_grade_that_disagree_are_refused_naming_the_line(
    command: str, tmp_path: Path
) -> None:
    # 12 gives 1700 and grade 150 (→ 1825): which is her rating is the officer's decision
    # (docs/systems.md §12.2), not a silent choice of one.
    lines = ["id,name,rating,grade", "11,A,1600,", "12,B,1700,150", "13,C,1352,87"]
    listed = write_list(tmp_path, lines, "mixed.csv")
    db, out = tmp_path / "ecf.sqlite", tmp_path / "out"
    arguments = {
        "init": ("init", "--list", listed, "--period", "2026-01", "--db", db),
        "rate": ("rate", monthly_event(tmp_path), "--list", listed, "--out", out),
        "check": ("check", listed),
    }[command]
    code, printed, err = run(*arguments, "--rules", "ecf")
    assert code == 1 and "Traceback" not in printed + err
    assert (
        f"{listed}:3: id 12: rating 1700 and grade 150 disagree (7.5 × 150 + 700 = 1825): "
        "leave the grade empty to keep the rating, or the rating empty to seed it from the grade"
    ) in printed + err
    # 13 gives 1352 for grade 87: 652.5 + 700 = 1352.5, whole 1353 (half away from zero).
    assert f"{listed}:4: id 13: rating 1352 and grade 87 disagree (7.5 × 87 + 700 = 1352.5 → " \
        "1353)" in printed + err  # fmt: skip
    assert not db.exists() and not out.exists()


def test_a_grade_whose_rating_would_be_below_0_is_refused_naming_the_line(
    tmp_path: Path,
) -> None:
    # 7.5 × −100 + 700 = −50: below the ECF rating's 0 (docs/systems.md §12.2); the lowest
    # grade is (0 − 700)/7.5 = −93.33.
    listed = write_list(tmp_path, ["id,grade", "11,150", "12,-100"], "grades.csv")
    db = tmp_path / "ecf.sqlite"
    code, _, err = run("init", "--list", listed, "--period", "2026-01", "--rules", "ecf",
                       "--db", db)  # fmt: skip
    assert code == 1 and not db.exists()
    assert f"{listed}:3: grade -100 is out of range for ecf (-93.3333 to 400); an old ECF " \
        "grade, whose rating 7.5 × grade + 700 is 0 or more" in err  # fmt: skip


def test_a_list_with_a_fraction_where_the_ecf_counts_whole_is_refused(tmp_path: Path) -> None:
    """§12.2: ratings are whole numbers, a partial rating is on 1 to 9 games, and a grade
    seeds a full rating: a list saying otherwise is refused at its lines, nothing made."""
    lines = ["id,name,rating,grade,partial_games", "11,A,1700.5,,", "12,B,1500,,2.5",
             "13,C,1825,150,3", "14,D,1600,,"]  # fmt: skip
    listed = write_list(tmp_path, lines, "fractions.csv")
    db = tmp_path / "ecf.sqlite"
    code, printed, err = run("init", "--list", listed, "--period", "2026-01", "--db", db,
                             "--rules", "ecf")  # fmt: skip
    assert code == 1
    said = printed + err
    assert f"{listed}:2: rating 1700.5 is not a whole number: an ECF rating is whole" in said
    assert f"{listed}:3: partial_games 2.5 is not a whole number" in said
    assert f"{listed}:4: id 13: a grade seeds a full rating (docs/systems.md §12.2)" in said
    assert not db.exists()


def test_a_month_outside_the_grades_seasons_is_told_under_the_grade(tmp_path: Path) -> None:
    """The grade's lists are January and July (docs/systems.md §11): the refusal names the
    rules the officer chose, not the Elo edition its calendar is built on."""
    listed = write_list(tmp_path, ["id,rating,grade_games", "11,150,30", "12,140,30"], "g.csv")
    db = tmp_path / "g.sqlite"
    code, printed, err = run("init", "--list", listed, "--period", "2026-01", "--db", db,
                             "--rules", "ecf-grade")  # fmt: skip
    assert code == 0, printed + err
    code, printed, err = run("publish", "2026-02", "--db", db, "--out", tmp_path / "out")
    assert code == 1
    assert "2026-02 is not a list month under ecf-grade (lists in months 1, 7)" in printed + err
