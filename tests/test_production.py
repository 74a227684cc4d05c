"""Monthly list production (rating-rules.md §1–§5, outputs.md): init, add, publish, player
and export-list over a real SQLite database, through the command line."""

from __future__ import annotations

import csv
import sqlite3
from pathlib import Path

import pandas as pd
import pytest
from click.testing import CliRunner
from conftest import DATA, read_csv
from test_engine import OUTCOME, SEVEN_HUNDRED_CAP_EVENTS, _cap_event
from trf_text import P, trf

from rating_batch import production
from rating_batch.cli import cli
from rating_batch.loaders.ratinglist import read_rating_list
from rating_batch.production import outputs, rate_list

ADULT = 1980


def run(*args: object) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, [str(a) for a in args])
    return result.exit_code, result.stdout, result.stderr


def rows(path: Path) -> dict[str, dict[str, str]]:
    return {row["id"]: row for row in read_csv(path)}


def dump(db: Path) -> list[str]:
    connection = sqlite3.connect(db)
    try:
        return list(connection.iterdump())
    finally:
        connection.close()


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    return tmp_path


def database(folder: Path, *listing: str, options: tuple[object, ...] = ()) -> Path:
    """A new database from a CSV list (by default two players, 11 at 1600, 12 at 1500)."""
    db = folder / "r.sqlite"
    lines = ["id,rating", *(listing or ("11,1600", "12,1500"))]
    code, out, err = run(
        "init", "--list", write_list(folder, lines), "--period", "2026-01", "--db", db, *options
    )
    assert code == 0, out + err
    return db


def add_one_game(folder: Path, db: Path) -> Path:
    """An event of January 2026 in which 11 (1600) beats 12 (1500), added to ``db``."""
    event = folder / "e.trf"
    event.write_text(
        trf([P(1, "A", 1600, 11, ADULT), P(2, "B", 1500, 12, ADULT)], [(1, 1, 2, "1-0")])
    )
    assert run("add", event, "--db", db)[0] == 0
    return event


def write_list(folder: Path, lines: list[str]) -> Path:
    path = folder / "list.csv"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_seven_hundred_cap_period_published_from_five_events(folder: Path) -> None:
    # rating-rules.md §9: 39 games over five January events, list K 20 → 17, Ro 2054 → 2146.
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


def newcomer_event(
    name: str, opponents: list[tuple[int, int]], scores: list[float], day: str
) -> str:
    players = [P(1, "Newcomer, Nina", None, 900, ADULT)] + [
        P(i + 2, f"Rated {fide}", rating, fide, ADULT) for i, (fide, rating) in enumerate(opponents)
    ]
    games = [(i + 1, 1, i + 2, OUTCOME[s]) for i, s in enumerate(scores)]
    return trf(players, games, name=name, start=day, end=day)


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
    assert code == 0 and "3 game(s) pending toward a first rating, 3 points" in report
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
    assert report[-2:] == ["  2026-01     1405  20     0", "  2026-02  unrated         1"]


def test_an_event_added_twice_is_refused_and_nothing_changes(folder: Path) -> None:
    db = database(folder)
    event = folder / "e.trf"
    event.write_text(
        trf([P(1, "A", 1600, 11, ADULT), P(2, "B", 1500, 12, ADULT)], [(1, 1, 2, "1-0")])
    )
    assert run("add", event, "--db", db)[0] == 0
    before = dump(db)
    copy = folder / "copy.trf"
    copy.write_bytes(event.read_bytes())
    other = folder / "other.trf"
    other.write_text(
        trf(
            [P(1, "A", 1600, 11, ADULT), P(2, "B", 1500, 12, ADULT)],
            [(1, 2, 1, "1-0")],
            name="Other",
        )
    )
    code, _, err = run("add", other, copy, "--db", db)  # a good event and a copy: all refused
    assert code == 1
    assert (
        f"{copy}: already added as event1" not in err
        and "already added as e (period 2026-02)" in err
    )
    assert dump(db) == before


def test_renamed_copy_with_the_same_name_and_dates_is_refused(folder: Path) -> None:
    db = database(folder)
    first = folder / "first.trf"
    first.write_text(
        trf([P(1, "A", 1600, 11, ADULT), P(2, "B", 1500, 12, ADULT)], [(1, 1, 2, "1-0")])
    )
    second = folder / "second.trf"  # same name and dates, different content
    second.write_text(
        trf([P(1, "A", 1600, 11, ADULT), P(2, "B", 1500, 12, ADULT)], [(1, 1, 2, "=-=")])
    )
    run("add", first, "--db", db)
    code, _, err = run("add", second, "--db", db)
    assert code == 1 and "already added as first" in err


def test_republishing_gives_the_same_bytes_and_earlier_periods_are_refused(folder: Path) -> None:
    db = database(folder)
    add_one_game(folder, db)
    out = folder / "out"
    assert run("publish", "2026-02", "--db", db, "--out", out)[0] == 0
    folder = out / "2026-02" / "standard"
    first = {p.name: p.read_bytes() for p in folder.iterdir() if p.is_file()}
    pages = {p.name: p.read_bytes() for p in (folder / "events").iterdir()}
    assert sorted(first) == [
        "calculations.csv",
        "changes.csv",
        "games.csv",
        "list.csv",
        "list.txt",
        "list.xlsx",
        "players.csv",
        "report.xlsx",
    ]
    state = dump(db)
    assert run("publish", "2026-02", "--db", db, "--out", out)[0] == 0
    assert {p.name: p.read_bytes() for p in folder.iterdir() if p.is_file()} == first
    assert {p.name: p.read_bytes() for p in (folder / "events").iterdir()} == pages
    assert dump(db) == state
    assert run("publish", "2026-03", "--db", db, "--out", out)[0] == 0
    code, _, err = run("publish", "2026-02", "--db", db, "--out", out)
    assert code == 1
    assert err == (
        "Error: 2026-02 is earlier than the last published period 2026-03; periods are "
        "published in order ('rating-batch unpublish 2026-03' withdraws the last one)\n"
    )


def test_a_failure_inside_publish_leaves_the_database_as_before(
    folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = database(folder)
    add_one_game(folder, db)
    before = dump(db)

    def explode(*args: object, **kwargs: object) -> None:
        raise RuntimeError("killed half-way")

    monkeypatch.setattr(outputs, "write_list_txt", explode)
    with pytest.raises(RuntimeError, match="killed half-way"):
        production.publish_period("2026-02", db=db, out=folder / "out")
    assert dump(db) == before
    assert not (folder / "out" / "2026-02" / "standard" / "list.csv").exists()
    leftovers = (
        [p for p in (folder / "out").rglob("*") if p.is_file()] if (folder / "out").exists() else []
    )
    assert leftovers == []


def test_publishing_a_month_without_a_list_is_refused(folder: Path) -> None:
    rules = Path(__file__).parent.parent / "sample_data" / "rules" / "fexerj-2027.toml"
    db = folder / "r.sqlite"
    run(
        "init",
        "--list",
        write_list(folder, ["id,rating", "11,1600"]),
        "--period",
        "2027-01",
        "--rules",
        rules,
        "--db",
        db,
    )
    code, _, err = run("publish", "2027-02", "--db", db, "--out", folder / "out")
    assert code == 1
    assert (
        err == "Error: 2027-02 is not a list month under fexerj-2027 "
        "(lists in months 1, 3, 5, 7, 9, 11)\n"
    )


def test_two_month_periods_follow_the_rules(folder: Path) -> None:
    # FEXERJ: lists in odd months, no closing offset: an event ending 14 Feb 2026 is rated
    # on the March list.
    rules = Path(__file__).parent.parent / "sample_data" / "rules" / "fexerj-2027.toml"
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


def test_players_are_found_by_name_birth_year_and_federation(folder: Path) -> None:
    db = folder / "r.sqlite"
    run(
        "init",
        "--list",
        write_list(folder, ["id,rating", "11,1600"]),
        "--period",
        "2026-01",
        "--db",
        db,
    )
    first = folder / "first.trf"
    first.write_text(
        trf(
            [
                P(1, "Known, Kim", 1600, 11, ADULT),
                P(2, "New, Ned", None, None, 1999, federation="IRL"),
            ],
            [(1, 1, 2, "1-0")],
            name="First",
            start="2026/01/05",
            end="2026/01/05",
        )
    )
    code, out, _ = run("add", first, "--db", db)
    assert code == 0 and "new player: New, Ned (first#2)" in out
    second = folder / "second.trf"
    second.write_text(
        trf(
            [
                P(1, "New, Ned", None, None, 1999, federation="IRL"),
                P(2, "Known, Kim", 1600, 11, ADULT),
            ],
            [(1, 1, 2, "0-1")],
            name="Second",
            start="2026/01/12",
            end="2026/01/12",
        )
    )
    code, out, _ = run("add", second, "--db", db)
    assert code == 0 and "new player" not in out


def test_an_ambiguous_match_names_the_candidates(folder: Path) -> None:
    db = folder / "r.sqlite"
    run(
        "init",
        "--list",
        write_list(folder, ["id,rating", "11,1600"]),
        "--period",
        "2026-01",
        "--db",
        db,
    )
    for number in (1, 2):  # two different people of the same name, both created by events
        event = folder / f"e{number}.trf"
        event.write_text(
            trf(
                [P(1, "Same, Sam", None, None, 1999), P(2, "Known", 1600, 11, ADULT)],
                [(1, 1, 2, "0-1")],
                name=f"E{number}",
                start=f"2026/01/0{number}",
                end=f"2026/01/0{number}",
            )
        )
    run("add", folder / "e1.trf", "--db", db)
    with sqlite3.connect(db) as connection:  # a second Sam with the same identity already known
        connection.execute(
            "INSERT INTO players (player_id, name, birth_year, created_by) "
            "VALUES (99, 'Same, Sam', 1999, 'x#1')"
        )
    code, _, err = run("add", folder / "e2.trf", "--db", db)
    assert code == 1
    assert (
        "'Same, Sam' matches several players: #2 Same, Sam (FIDE ID none), "
        "#99 Same, Sam (FIDE ID none)" in err
    )


LISTS = sorted(p for p in (DATA / "lists").iterdir() if p.suffix in (".txt", ".xml"))


@pytest.mark.parametrize("path", LISTS, ids=[p.name[:40] for p in LISTS])
def test_init_then_export_loses_no_field(path: Path, folder: Path) -> None:
    original = read_rating_list(path)
    db = folder / "r.sqlite"
    assert run("init", "--list", path, "--db", db)[0] == 0
    code, _out, _ = run(
        "export-list",
        "initial" if original.month is None else f"{original.month[0]}-{original.month[1]:02d}",
        "--db",
        db,
        "--out",
        folder / "out",
    )
    assert code == 0
    for kind in original.kinds:
        expected = original.frame[original.frame[f"{kind}_rating"].notna()].set_index("id")
        for written in ("list.csv", "list.txt"):
            folder_name = (
                "initial"
                if original.month is None
                else f"{original.month[0]}-{original.month[1]:02d}"
            )
            back = read_rating_list(
                folder / "out" / folder_name / kind / written, kind=kind
            ).frame.set_index("id")
            assert sorted(back.index) == sorted(expected.index), (kind, written)
            for column in (
                "name",
                "federation",
                "sex",
                "title",
                "w_title",
                "o_title",
                "foa_title",
                "birth_year",
                "inactive",
            ):
                left = expected[column].reindex(back.index)
                assert (
                    left.astype("string").fillna("").str.strip().tolist()
                    == back[column].astype("string").fillna("").str.strip().tolist()
                ), (kind, written, column)
            for column in ("rating", "k", "games"):
                name = f"{kind}_{column}"
                assert (
                    expected[name].reindex(back.index).fillna(0).tolist()
                    == back[name].fillna(0).tolist()
                ), (kind, written, column)


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


def test_init_refuses_an_existing_database(folder: Path) -> None:
    db = folder / "r.sqlite"
    listing = write_list(folder, ["id,rating", "11,1600"])
    assert run("init", "--list", listing, "--db", db)[0] == 0
    before = db.read_bytes()
    code, _, err = run("init", "--list", listing, "--db", db)
    assert (code, err) == (
        1,
        f"Error: {db}: already exists; init never replaces a file: give another --db path "
        "(the file was not changed)\n",
    )
    assert db.read_bytes() == before


def test_commands_without_a_database_say_how_to_make_one(folder: Path) -> None:
    code, _, err = run("publish", "2026-02", "--db", folder / "none.sqlite")
    assert code == 1 and "create one with 'rating-batch init --list FILE'" in err
    assert not (folder / "none.sqlite").exists()


def test_inactive_after_twelve_months_without_a_game(folder: Path) -> None:
    db = database(folder)
    add_one_game(folder, db)
    months = pd.period_range("2026-02", "2027-02", freq="M").strftime("%Y-%m")
    for month in months:
        assert run("publish", month, "--db", db, "--out", folder / "out")[0] == 0
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


def test_init_from_an_xlsx_list(folder: Path) -> None:
    from openpyxl import Workbook

    book = Workbook()
    sheet = book.active
    for row in (
        ["id", "name", "rating", "k", "birth_year"],
        [11, "A, Ann", 1600, 20, 1980],
        [12, "B, Bob", 1500.0, 40, 2012],
    ):
        sheet.append(row)
    path = folder / "list.xlsx"
    book.save(path)
    db = folder / "r.sqlite"
    code, out, err = run("init", "--list", path, "--period", "2026-01", "--db", db)
    assert code == 0, err
    assert "standard: 2 rated players" in out
    run("export-list", "2026-01", "--db", db, "--out", folder / "out")
    listed = rows(folder / "out" / "2026-01" / "standard" / "list.csv")
    assert [(r["name"], r["rating"], r["k"]) for r in listed.values()] == [
        ("A, Ann", "1600", "20"),
        ("B, Bob", "1500", "40"),
    ]


def test_calculations_sheet_groups_players_and_events(folder: Path) -> None:
    from openpyxl import load_workbook

    db = database(folder)
    add_one_game(folder, db)
    run("publish", "2026-02", "--db", db, "--out", folder / "out")
    sheet = load_workbook(folder / "out" / "2026-02" / "standard" / "report.xlsx")["Calculations"]
    values = [[cell.value for cell in row] for row in sheet.iter_rows()]
    levels = [sheet.row_dimensions[i].outline_level for i in range(1, len(values) + 1)]
    assert values[0][:4] == ["id", "name", "event", "round"]
    # Player 11: heading with totals (level 0), event subtotal (1), the game (2); then 12.
    assert levels == [0, 0, 1, 2, 0, 1, 2]
    assert values[1][:2] == ["11", "A"] and values[2][2] == "e"
    assert sheet.cell(2, 2).font.bold  # the player's heading row
    game = dict(zip(values[0], values[3], strict=True))
    # 1600 beats 1500: D 100 → 0.64; ΔR 0.36. The list gives no K and no game count, so
    # 30+ games are assumed (§3): K 20, K × ΔR 7.2.
    assert (game["diff"], game["expected"], game["delta"], game["k"], game["k_delta"]) == (
        100,
        0.64,
        0.36,
        20,
        7.2,
    )


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

    summary = [
        r[1]
        for r in load_workbook(folder / "out" / "2026-02" / "standard" / "report.xlsx")[
            "Summary"
        ].iter_rows(values_only=True)
        if len(r) > 1 and isinstance(r[1], str)
    ]
    assert (
        "first: 2 rating(s) in the file differ from the list in force, which is used: "
        "A (1650 in the file, 1600 on the list), C (1500 in the file, unrated on the list)"
    ) in summary
    assert (
        "first and second share 3 identical games: the same results reported twice? "
        "(both are rated as given)"
    ) in summary


@pytest.mark.parametrize("order", [("a", "b"), ("b", "a")])
def test_identity_does_not_depend_on_the_order_of_the_files(
    folder: Path, order: tuple[str, str]
) -> None:
    # Kim is not on the list. File a names her without a FIDE ID, file b with FIDE ID 77 and
    # the same name, birth year and federation: one player, whichever file comes first.
    db = database(folder)
    kim = {"name": "Kim, New", "birth": 2001, "federation": "IRL"}
    texts = {
        "a": trf([P(1, rating=None, fide_id=None, **kim), P(2, "B", 1500, 12, ADULT)],
                 [(1, 1, 2, "1-0")], name="A", start="2026/01/05", end="2026/01/05"),
        "b": trf([P(1, rating=None, fide_id=77, **kim), P(2, "A", 1600, 11, ADULT)],
                 [(1, 1, 2, "0-1")], name="B", start="2026/01/06", end="2026/01/06"),
    }  # fmt: skip
    files = []
    for name in order:
        path = folder / f"{order.index(name)}-{name}.trf"
        path.write_text(texts[name])
        files.append(path)
    code, out, err = run("add", *files, "--db", db)
    assert code == 0, err
    assert out.count("new player: Kim, New") == 1
    with sqlite3.connect(db) as connection:
        kims = connection.execute(
            "SELECT player_id, fide_id FROM players WHERE name = 'Kim, New'"
        ).fetchall()
        entries = connection.execute(
            "SELECT DISTINCT ep.player_id FROM event_players ep JOIN players p USING (player_id) "
            "WHERE p.name = 'Kim, New'"
        ).fetchall()
    assert len(kims) == 1 and kims[0][1] == 77
    assert entries == [(kims[0][0],)]


def test_the_same_event_twice_in_one_add_is_refused(folder: Path) -> None:
    # Two exports of one event (same name and dates), one corrected: never rated twice.
    db = database(folder)
    players = [P(1, "A", 1600, 11, ADULT), P(2, "B", 1500, 12, ADULT)]
    first, second = folder / "export1.trf", folder / "export2.trf"
    first.write_text(trf(players, [(1, 1, 2, "1-0")], name="Club Open"))
    second.write_text(trf(players, [(1, 1, 2, "=-=")], name="Club Open"))
    code, _, err = run("add", first, second, "--db", db)
    assert code == 1
    assert (
        f"{second}: the same event (name and dates) as {first}: an event is never counted twice"
        in err
    )
    with sqlite3.connect(db) as connection:
        assert connection.execute("SELECT COUNT(*) FROM events").fetchone() == (0,)


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
    notes = [r[1] for r in book["Summary"].iter_rows(values_only=True) if len(r) > 1]
    differ = [n for n in notes if isinstance(n, str) and "differ from the list" in n]
    assert differ == [
        "first: 2 rating(s) in the file differ from the list in force, which is used: "
        "A (1650 in the file, 1600 on the list), C (1500 in the file, unrated on the list)",
        "… and 1 more events whose files give ratings that differ from the list in force "
        "(2 ratings)",
    ]
