"""Rating a list kind over periods (pipelines/elo/publish.py, docs/rules.md §1–§5): the
700 cap, first ratings pooled over periods, the floor, inactivity, consistency notes."""

from __future__ import annotations

import csv
import sqlite3
from pathlib import Path

import pandas as pd
import pytest
from db_helpers import ADULT, add_one_game, database, rows, run, write_list
from systems.elo.test_engine import OUTCOME, SEVEN_HUNDRED_CAP_EVENTS, _cap_event
from trf_text import P, trf
from workbooks import summary

from rating_batch.pipelines.elo import publish as elo_publish


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
    rules = Path(__file__).parents[3] / "sample_data" / "rules" / "fexerj-2027.toml"
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


FEXERJ = Path(__file__).parents[3] / "sample_data" / "rules" / "fexerj-2027.toml"


def junior_files(folder: Path, end: str) -> tuple[Path, Path]:
    """A list without K: 11 born 2008 (1800, 50 games), 12 an adult (1700, 200 games); an
    event ending on ``end`` in which 11 beats 12."""
    listing = write_list(
        folder,
        ["id,name,rating,birth_year,games_total", '11,"Jun, Jo",1800,2008,50',
         '12,"Old, Al",1700,1980,200'],
    )  # fmt: skip
    event = folder / "e.trf"
    players = [P(1, "Jun, Jo", 1800, 11, 2008), P(2, "Old, Al", 1700, 12, 1980)]
    event.write_text(trf(players, [(1, 1, 2, "1-0")], start=end, end=end))
    return listing, event


@pytest.mark.parametrize(
    ("rules", "end", "initial", "lists", "k", "rating"),
    [
        # FEXERJ: the list of January 2027 is judged by its latest end date, 5 December 2026:
        # 2026 − 2008 = 18, a junior below 2100, K 40: D 100, PD 0.64, 40 × 0.36 = +14.4.
        (FEXERJ, "2026/12/05", "2026-11", ["2027-01"], "40", "1814"),
        # FIDE: the list of January 2027 closes on 29 December 2026: a junior, K 40.
        ("fide-2025", "2026/12/05", "2026-12", ["2027-01"], "40", "1814"),
        # FIDE: an event ending 30 December is the February list's, which closes on 29 January
        # 2027: 2027 − 2008 = 19, K 20 (50 games): 20 × 0.36 = +7.2.
        ("fide-2025", "2026/12/30", "2026-12", ["2027-01", "2027-02"], "20", "1807"),
    ],
    ids=["fexerj-latest-end", "fide-january-list", "fide-february-list"],
)
def test_rate_and_publish_judge_a_junior_by_the_same_year(
    folder: Path, rules: object, end: str, initial: str, lists: list[str], k: str, rating: str
) -> None:
    listing, event = junior_files(folder, end)
    rated = folder / "rate"
    code, _, err = run("rate", event, "--list", listing, "--rules", rules, "--out", rated)
    assert code == 0, err
    db = folder / "r.sqlite"
    run("init", "--list", listing, "--period", initial, "--rules", rules, "--db", db)
    assert run("add", event, "--accept-dates", "--db", db)[0] == 0
    for period in lists:
        assert run("publish", period, "--accept-dates", "--db", db, "--out", folder / "out")[0] == 0
    published = folder / "out" / lists[-1] / "standard"
    for players in (rated / "players.csv", published / "players.csv"):
        assert (rows(players)["11"]["k"], rows(players)["11"]["new_rating"]) == (k, rating)
    assert rows(published / "list.csv")["11"]["rating"] == rating


def test_fexerj_list_gives_juniors_k_for_a_period_across_the_new_year(folder: Path) -> None:
    # The list of November 2026 gives K for the January 2027 list, whose events end on
    # 2 November … 1 January: under "latest_end" that period is 2026's (most of its days),
    # so 11 (born 2008, 1800, 50 games) keeps the junior K 40; 12 (born 1980) has K 20.
    listing, event = junior_files(folder, "2026/10/10")
    db = folder / "r.sqlite"
    run("init", "--list", listing, "--period", "2026-09", "--rules", FEXERJ, "--db", db)
    assert run("add", event, "--db", db)[0] == 0
    assert run("publish", "2026-11", "--db", db, "--out", folder / "out")[0] == 0
    listed = rows(folder / "out" / "2026-11" / "standard" / "list.csv")
    assert (listed["11"]["k"], listed["12"]["k"]) == ("40", "20")


def faller_event(folder: Path, name: str, day: str, opponents: range, scores: list[float]) -> Path:
    """An event in which 21 ("Low, Lou") plays each of ``opponents`` (1600) once."""
    players = [P(1, "Low, Lou", None, 21, ADULT)] + [
        P(i + 2, f"Opp {fide}", 1600, fide, ADULT) for i, fide in enumerate(opponents)
    ]
    games = [(i + 1, 1, i + 2, OUTCOME[score]) for i, score in enumerate(scores)]
    path = folder / f"{name}.trf"
    path.write_text(trf(players, games, name=name, start=day, end=day))
    return path


@pytest.mark.parametrize(
    ("restores", "listed"),
    [
        # The opponents beat 1205 in July: D 395, PD 0.92, 20 × 0.08 = +1.6 → 1602 each.
        # The rule back: b (0/5) is disregarded until c scores: 5 games, 1 point:
        # Ra = (5 × 1602 + 2 × 1600) / 7 = 1601.43, p = 2/7 = 0.29, dp -158 → 1443.43 → 1443.
        (True, {"b": "first_event_disregarded", "c": "", "rating": "1443"}),
        # Without it, b counts: 10 games, 1 point: Ra = (10 × 1602 + 3200) / 12 = 1601.67,
        # p = 2/12 = 0.17, dp -273 → 1328.67 → 1329.
        (False, {"b": "", "c": "", "rating": "1329"}),
    ],
    ids=["first-event-after-floor", "off"],
)
def test_falling_below_the_floor_gives_the_first_event_rule_back(
    folder: Path, restores: bool, listed: dict[str, str]
) -> None:
    # docs/rules.md §4.1 under FEXERJ's rules (floor 1200, every scoreless event disregarded
    # until one scores). Its own vector: Ro 1205, K 20, loses 10 games to 1600s: D -395,
    # PD 0.08 each, ΣΔR -0.80, change -16 → 1189, below 1200: unrated on the July list.
    text = FEXERJ.read_text(encoding="utf-8")
    assert "first_event_after_floor = true" in text
    rules = folder / "fexerj.toml"
    rules.write_text(
        text.replace(
            "first_event_after_floor = true",
            f"first_event_after_floor = {str(restores).lower()}",
        )
    )
    opponents = range(31, 41)
    listing = write_list(
        folder,
        ["id,rating,k,games_total,birth_year", "21,1205,20,100,1980",
         *(f"{fide},1600,20,100,1980" for fide in opponents)],
    )  # fmt: skip
    db = folder / "r.sqlite"
    run("init", "--list", listing, "--period", "2026-05", "--rules", rules, "--db", db)
    fall = faller_event(folder, "a", "2026/06/10", opponents, [0] * 10)
    assert run("add", fall, "--db", db)[0] == 0
    assert run("publish", "2026-07", "--db", db, "--out", folder / "out")[0] == 0
    july = rows(folder / "out" / "2026-07" / "standard" / "players.csv")["21"]
    assert (july["status"], july["change"], july["new_rating"]) == ("below_floor", "-16.00", "1189")
    scoreless = faller_event(folder, "b", "2026/08/01", range(31, 36), [0] * 5)
    scoring = faller_event(folder, "c", "2026/08/20", range(36, 41), [1, 0, 0, 0, 0])
    assert run("add", scoreless, scoring, "--db", db)[0] == 0
    assert run("publish", "2026-09", "--db", db, "--out", folder / "out")[0] == 0
    september = folder / "out" / "2026-09" / "standard"
    with (september / "games.csv").open(encoding="utf-8-sig") as handle:
        reasons = {r["event"]: r["reason"] for r in csv.DictReader(handle) if r["id"] == "21"}
    assert {"b": reasons["b"], "c": reasons["c"]} == {k: listed[k] for k in ("b", "c")}
    assert rows(september / "list.csv")["21"]["rating"] == listed["rating"]


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
        "C (1500 in the file, not on the list: unrated), A (1650 in the file, 1600 on the list)"
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
    monkeypatch.setattr(elo_publish, "MAX_EVENT_NOTES", 1)
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
            "2 rating(s) in the file differ from the list in force, which is used: C (1500 in "
            "the file, not on the list: unrated), A (1650 in the file, 1600 on the list)",
        ),
        (
            None,
            "… and 1 more events whose files give ratings that differ from the list in force "
            "(2 ratings)",
        ),
    ]
    # Said once, under Warnings, not again among the notes.
    assert sum("differ from the list" in str(r[1]) for r in rows) == 2


def test_a_player_not_on_the_list_is_named_first_as_unrated(folder: Path) -> None:
    # The list is used, never the file (docs/rules.md §1): a grandmaster written 2450 in a
    # February file but not on the list is unrated, so A's loss to him does not count. The
    # file gives the January ratings of A-D, which the February list changed: A 1600 beats
    # B 1500 (D 100, PD 0.64, ±7.2 → 1607, 1493); C 1700 beats D 1650 (D 50, PD 0.57,
    # ±8.6 → 1709, 1641). Five ratings differ; the note names three, the GM first.
    db = database(folder, "11,1600", "12,1500", "13,1700", "14,1650")
    four = [P(1, "A", 1600, 11, ADULT), P(2, "B", 1500, 12, ADULT), P(3, "C", 1700, 13, ADULT),
            P(4, "D", 1650, 14, ADULT)]  # fmt: skip
    january = folder / "jan.trf"
    january.write_text(
        trf(four, [(1, 1, 2, "1-0"), (1, 3, 4, "1-0")], name="Jan", end="2026/01/12")
    )
    gm = P(5, "Foreign, Grandmaster", 2450, 4100001, 1975, title="GM", federation="GER")
    february = folder / "feb.trf"
    february.write_text(
        trf([*four, gm], [(1, 5, 1, "1-0"), (1, 2, 3, "=-=")], name="Feb", start="2026/02/10",
            end="2026/02/12")
    )  # fmt: skip
    assert run("add", january, "--db", db)[0] == 0
    assert run("publish", "2026-02", "--db", db, "--out", folder / "out")[0] == 0
    assert run("add", february, "--db", db)[0] == 0
    code, _, err = run("-v", "publish", "2026-03", "--db", db, "--out", folder / "out")
    assert code == 0
    assert (
        f"{february}: warning: 5 rating(s) in the file differ from the list in force, which is "
        "used: Foreign, Grandmaster (2450 in the file, not on the list: unrated), A (1600 in the "
        "file, 1607 on the list), B (1500 in the file, 1493 on the list)"
    ) in err.splitlines()
    with (folder / "out" / "2026-03" / "standard" / "games.csv").open(encoding="utf-8-sig") as f:
        games = {(g["id"], g["opponent_id"]): g for g in csv.DictReader(f)}
    lost = games[("11", "4100001")]
    assert (lost["counted"], lost["reason"], lost["opponent_rating"]) == (
        "false",
        "unrated_opponent",
        "",
    )


def test_rate_with_a_list_names_a_player_not_on_it_first(folder: Path) -> None:
    listing = write_list(folder, ["id,rating", "11,1607", "12,1493"])
    event = folder / "feb.trf"
    players = [P(1, "A", 1600, 11, ADULT), P(2, "B", 1500, 12, ADULT),
               P(3, "Foreign, Grandmaster", 2450, 4100001, 1975)]  # fmt: skip
    event.write_text(trf(players, [(1, 3, 1, "1-0"), (2, 2, 1, "=-=")]))
    code, _, err = run("rate", event, "--list", listing, "--out", folder / "out")
    assert code == 0
    assert (
        "--list: warning: 3 players' ratings in the event files differ from the list, which is "
        "used: Foreign, Grandmaster (2450 in the file, not on the list: unrated), A (1600 in the "
        "file, 1607 on the list), B (1500 in the file, 1493 on the list)"
    ) in err.splitlines()
