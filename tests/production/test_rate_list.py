"""Rating a list kind over periods (production/rate_list.py, docs/rules.md §1–§5): the
700 cap, first ratings pooled over periods, the floor, inactivity, consistency notes."""

from __future__ import annotations

import csv
import sqlite3
from pathlib import Path

import pandas as pd
import pytest
from db_helpers import ADULT, add_one_game, database, rows, run, write_list
from test_engine import OUTCOME, SEVEN_HUNDRED_CAP_EVENTS, _cap_event
from trf_text import P, trf
from workbooks import summary

from rating_batch.production import rate_list


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    return tmp_path


def newcomer_event(
    name: str, opponents: list[tuple[int, int]], scores: list[float], day: str
) -> str:
    players = [P(1, "Newcomer, Nina", None, 900, ADULT)] + [
        P(i + 2, f"Rated {fide}", rating, fide, ADULT) for i, (fide, rating) in enumerate(opponents)
    ]
    games = [(i + 1, 1, i + 2, OUTCOME[s]) for i, s in enumerate(scores)]
    return trf(players, games, name=name, start=day, end=day)


def test_seven_hundred_cap_period_published_from_five_events(folder: Path) -> None:
    # docs/rules.md §9: 39 games over five January events, list K 20 → 17, Ro 2054 → 2146.
    listing = ["id,rating,k", "500,2054,20"]
    events = folder / "events"
    events.mkdir()
    for index, games in enumerate(SEVEN_HUNDRED_CAP_EVENTS, start=1):
        (events / f"e{index}.trf").write_text(_cap_event(index, games, ADULT))
        listing += [
            f"{1000 * index + r},{rating},20" for r, (rating, _) in enumerate(games, start=1)
        ]
    db = folder / "r.sqlite"
    assert (
        run("init", "--list", write_list(folder, listing), "--period", "2026-01", "--db", db)[0]
        == 0
    )
    code, out, _ = run("add", events, "--db", db)
    assert code == 0 and out.count("period 2026-02") == 5  # ended by 29 Jan: the Feb list
    assert run("publish", "2026-02", "--db", db, "--out", folder / "out")[0] == 0
    listed = rows(folder / "out" / "2026-02" / "standard" / "list.csv")
    assert (listed["500"]["rating"], listed["500"]["games"], listed["500"]["games_total"]) == (
        "2146",
        "39",
        "",
    )
    players = rows(folder / "out" / "2026-02" / "standard" / "players.csv")
    assert (players["500"]["k"], players["500"]["new_rating"]) == ("17", "2146")
    with (folder / "out" / "2026-02" / "standard" / "calculations.csv").open(
        encoding="utf-8-sig"
    ) as handle:
        mine = [r for r in csv.DictReader(handle) if r["id"] == "500"]
    assert len(mine) == 39 and {r["k"] for r in mine} == {"17"}
    # The first game: 2054 v 2406, D -352 → 345-357 → p_low 0.11; lost: ΔR -0.11, K × ΔR -1.87.
    assert [mine[0][c] for c in ("opponent_rating", "diff", "expected", "delta", "k_delta")] == [
        "2406",
        "-352",
        "0.11",
        "-0.11",
        "-1.87",
    ]


def test_first_rating_after_five_games_over_two_months(folder: Path) -> None:
    # 3 games in January (period 2026-02), 2 in February (2026-03): 5 games, 3 points,
    # opponents summing to 9507 → 1922 (§4), published with the March list.
    db = folder / "r.sqlite"
    run(
        "init",
        "--list",
        write_list(
            folder, ["id,rating", "911,1901", "912,1901", "913,1901", "914,1902", "915,1902"]
        ),
        "--period",
        "2026-01",
        "--db",
        db,
    )
    january = folder / "jan.trf"
    january.write_text(
        newcomer_event(
            "January Open", [(911, 1901), (912, 1901), (913, 1901)], [1, 1, 1], "2026/01/10"
        )
    )
    february = folder / "feb.trf"
    february.write_text(
        newcomer_event("February Open", [(914, 1902), (915, 1902)], [0, 0], "2026/02/14")
    )
    assert run("add", january, february, "--db", db)[0] == 0
    assert run("publish", "2026-02", "--db", db, "--out", folder / "out")[0] == 0
    players = rows(folder / "out" / "2026-02" / "standard" / "players.csv")
    nina = players["900"]
    # After January: unrated, 3 pooled games; provisional (3 wins vs 1901): Ra = 9303/5 =
    # 1860.6, p = 4/5 = 0.80 → dp 240 → 2100.6 → 2101.
    assert (nina["status"], nina["games"], nina["pool_games"], nina["provisional"]) == (
        "unrated",
        "3",
        "3",
        "2101",
    )
    assert "900" not in rows(folder / "out" / "2026-02" / "standard" / "list.csv")
    code, report, _ = run("player", "900", "--db", db)
    assert (
        code == 0
        and "3 game(s) pending toward a first rating after the list of 2026-02, 3 points" in report
    )
    assert run("publish", "2026-03", "--db", db, "--out", folder / "out")[0] == 0
    nina = rows(folder / "out" / "2026-03" / "standard" / "players.csv")["900"]
    assert (nina["status"], nina["pool_games"], nina["new_rating"]) == ("new", "5", "1922")
    listed = rows(folder / "out" / "2026-03" / "standard" / "list.csv")["900"]
    # Rated now, K 40 for the next period (§4, fewer than 30 games: the 5 count, §3.3).
    assert (listed["rating"], listed["k"], listed["games_total"]) == ("1922", "40", "5")


def test_falling_below_1400_leaves_the_list(folder: Path) -> None:
    # 1405 (K 20 from the list) loses to 1405: -10 → 1395 < 1400 → unrated on the new list.
    db = folder / "r.sqlite"
    run(
        "init",
        "--list",
        write_list(folder, ["id,rating,k", "11,1405,20", "12,1405,20"]),
        "--period",
        "2026-01",
        "--db",
        db,
    )
    event = folder / "e.trf"
    event.write_text(
        trf(
            [P(1, "Low, Lou", 1405, 11, ADULT), P(2, "Win, Wes", 1405, 12, ADULT)],
            [(1, 1, 2, "0-1")],
            start="2026/01/10",
            end="2026/01/10",
        )
    )
    run("add", event, "--db", db)
    assert run("publish", "2026-02", "--db", db, "--out", folder / "out")[0] == 0
    assert (
        rows(folder / "out" / "2026-02" / "standard" / "players.csv")["11"]["status"]
        == "below_floor"
    )
    listed = rows(folder / "out" / "2026-02" / "standard" / "list.csv")
    assert "11" not in listed and listed["12"]["rating"] == "1415"
    report = run("player", "11", "--db", db)[1].splitlines()
    history = report.index("  list      rating   K games total")
    assert report[history + 1 : history + 3] == [
        "  2026-01     1405  20     0",
        "  2026-02  unrated         1",
    ]


def test_two_month_periods_follow_the_rules(folder: Path) -> None:
    # FEXERJ: lists in odd months, no closing offset: an event ending 14 Feb 2026 is rated
    # on the March list.
    rules = Path(__file__).parents[2] / "sample_data" / "rules" / "fexerj-2027.toml"
    db = folder / "r.sqlite"
    run(
        "init",
        "--list",
        write_list(folder, ["id,rating", "11,1600", "12,1500"]),
        "--period",
        "2026-01",
        "--rules",
        rules,
        "--db",
        db,
    )
    event = folder / "e.trf"
    event.write_text(
        trf(
            [P(1, "A", 1600, 11, ADULT), P(2, "B", 1500, 12, ADULT)],
            [(1, 1, 2, "1-0")],
            start="2026/02/14",
            end="2026/02/14",
        )
    )
    assert "period 2026-03" in run("add", event, "--db", db)[1]


def test_inactive_after_twelve_months_without_a_game(folder: Path) -> None:
    db = database(folder)
    add_one_game(folder, db)
    months = pd.period_range("2026-02", "2027-02", freq="M").strftime("%Y-%m")
    for month in months:
        # --accept-dates: the lists of 2027 may still be open today (docs/rules.md §1).
        code, _, _ = run("publish", month, "--accept-dates", "--db", db, "--out", folder / "out")
        assert code == 0
    inactive = {
        m: rows(folder / "out" / m / "standard" / "list.csv")["11"]["inactive"]
        for m in ("2027-01", "2027-02")
    }
    assert inactive == {"2027-01": "false", "2027-02": "true"}  # last game in the 2026-02 period


def test_a_zero_first_event_is_disregarded_once_in_a_career(folder: Path) -> None:
    # Period 1: Nina's first event, 0/2 → disregarded. Period 2: 0/1 in her second event
    # counts (her first event lies behind her), with 5 more games: 6 games, 3 points vs
    # 1901 × 4 + 1902 × 2 = 11408: Ra = (11408 + 3600)/8 = 1876; p = 4/8 = 0.50 → 1876.
    db = database(folder, "911,1901", "912,1901", "913,1901", "914,1902", "915,1902", "916,1901")
    first = folder / "first.trf"
    first.write_text(newcomer_event("First", [(911, 1901), (912, 1901)], [0, 0], "2026/01/10"))
    second = folder / "second.trf"
    second.write_text(
        newcomer_event(
            "Second",
            [(916, 1901), (911, 1901), (912, 1901), (913, 1901), (914, 1902), (915, 1902)],
            [0, 1, 1, 1, 0, 0],
            "2026/02/14",
        )
    )
    run("add", first, second, "--db", db)
    run("publish", "2026-02", "--db", db, "--out", folder / "out")
    games = rows(folder / "out" / "2026-02" / "standard" / "players.csv")["900"]
    assert (games["games"], games["pool_games"], games["provisional"]) == ("0", "0", "")
    run("publish", "2026-03", "--db", db, "--out", folder / "out")
    nina = rows(folder / "out" / "2026-03" / "standard" / "players.csv")["900"]
    assert (nina["games"], nina["score"], nina["status"], nina["new_rating"]) == (
        "6",
        "3",
        "new",
        "1876",
    )


def test_consistency_across_the_period_is_reported(folder: Path) -> None:
    # The list has 11 at 1600 (born 1980) and 12; the first file writes 1650 and 1981 for 11,
    # and 1500 for 13, who is not on the list. The second file is the first one again under
    # another name (the same games reported twice).
    db = database(folder)
    players = [P(1, "A", 1650, 11, 1981), P(2, "B", 1500, 12, ADULT), P(3, "C", 1500, 13, ADULT)]
    games = [(1, 1, 2, "1-0"), (2, 3, 1, "=-="), (3, 2, 3, "0-1")]
    first = folder / "first.trf"
    first.write_text(trf(players, games, name="First"))
    second = folder / "second.trf"
    second.write_text(trf(players, games, name="Second"))
    with sqlite3.connect(db) as connection:  # the database knows 11's birth year
        connection.execute("UPDATE players SET birth_year = 1980 WHERE fide_id = 11")
    code, _, err = run("-v", "add", first, second, "--db", db)
    assert code == 1  # the same games twice: refused unless the officer accepts it
    assert (
        f"{second}: shares 3 of its 3 played games with {first} (in this add): the same "
        "results reported twice?; --allow-overlap adds it anyway"
    ) in err
    code, _, err = run("-v", "add", first, second, "--allow-overlap", "--db", db)
    assert code == 0
    assert (
        f"{first}:4: warning: A: born 1981 in this file, 1980 in the database "
        "(the database's is kept)"
    ) in err
    run("publish", "2026-02", "--db", db, "--out", folder / "out")
    from openpyxl import load_workbook

    rows = summary(
        load_workbook(folder / "out" / "2026-02" / "standard" / "report.xlsx")["Summary"]
    )
    # The Summary's Warnings section: the event each is about, then what it says.
    warned = rows[[r[0] for r in rows].index("Warnings") + 1 :]
    shown = [f"{r[0]}: {r[1]}" if r[0] else r[1] for r in warned]
    assert (
        "first: 2 rating(s) in the file differ from the list in force, which is used: "
        "A (1650 in the file, 1600 on the list), C (1500 in the file, unrated on the list)"
    ) in shown
    assert (
        "second: first and second share 3 identical games: the same results reported twice? "
        "(both are rated as given)"
    ) in shown


def test_rating_notes_name_a_bounded_number_of_events(
    folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Thousands of files made with an old list would give thousands of notes: at most
    # MAX_EVENT_NOTES events are named (here 1), the rest counted. Both files write 1650 for
    # 11 (1600 on the list) and 1500 for 13 (not on it): 2 ratings in the second file.
    monkeypatch.setattr(rate_list, "MAX_EVENT_NOTES", 1)
    db = database(folder)
    players = [P(1, "A", 1650, 11, ADULT), P(2, "B", 1500, 12, ADULT), P(3, "C", 1500, 13, ADULT)]
    for name, day in (("first", "05"), ("second", "19")):
        (folder / f"{name}.trf").write_text(
            trf(
                players, [(1, 1, 2, "1-0")], name=name, start=f"2026/01/{day}", end=f"2026/01/{day}"
            )
        )
    assert run("add", folder / "first.trf", folder / "second.trf", "--db", db)[0] == 0
    assert run("publish", "2026-02", "--db", db, "--out", folder / "out")[0] == 0
    from openpyxl import load_workbook

    book = load_workbook(folder / "out" / "2026-02" / "standard" / "report.xlsx")
    rows = [r[:2] for r in summary(book["Summary"])]
    warnings = rows[rows.index(("Warnings", None)) + 1 :]
    assert warnings[:2] == [
        (
            "first",
            "2 rating(s) in the file differ from the list in force, which is used: "
            "A (1650 in the file, 1600 on the list), C (1500 in the file, unrated on the list)",
        ),
        (
            None,
            "… and 1 more events whose files give ratings that differ from the list in force "
            "(2 ratings)",
        ),
    ]
    # Said once, under Warnings, not again among the notes.
    assert sum("differ from the list" in str(r[1]) for r in rows) == 2
