"""The site's numbers are the published files' (monthly/site.py, docs/site.md §1): a list's
change is its changes.csv's, whatever a recomputation from the list.csv files would give;
under a system whose publish writes no changes.csv, the list's rating against the previous
list's; an event's games and score are its games.csv rows', not players.csv's period totals."""

from __future__ import annotations

from pathlib import Path

from conftest import read_csv
from db_helpers import (
    NEWBIE_FIDE_ID,
    database,
    event_file,
    newcomer_database,
    newcomer_with_fide_id,
    run,
)
from trf_text import P

from monthly.test_site import cells, two_lists
from monthly.test_system_db import glicko2_db, paper_event
from rating_batch.periods import Period
from rating_batch.store import open_store

LIST_ROW = '<tr data-sex="'
HISTORY_ROW = '<tr><td class="text">standard'


def replace_published(db: Path, period: str, path: str, text: str) -> None:
    """The published file ``path`` of ``period`` replaced in the store by ``text``, through
    the store's own keeping of files (as a publish keeps them)."""
    where = db.parent / "by-hand.csv"
    where.write_text(text, encoding="utf-8")
    with open_store(db, write=True, command="test") as store, store.writing(record=False):
        store.execute("DELETE FROM published_files WHERE period = ? AND path = ?", (period, path))
        store.store_files(Period.parse(period), [(path, where)])
    with open_store(db) as store:
        assert store.published_file(Period.parse(period), path) == text.encode()


def march_changes_by_hand(folder: Path, *rows: str) -> Path:
    """``two_lists`` with March's changes.csv in the store replaced by one of ``rows``, and
    the site written again from the store: the site's folder."""
    db, out = two_lists(folder)
    header = "change,id,name,federation,rating_before,rating_after,difference,field,before,"
    text = header + "after,reason\n" + "".join(row + "\n" for row in rows)
    replace_published(db, "2026-03", "standard/changes.csv", text)
    assert run("site", "--db", db, "--out", out)[0] == 0
    return out / "site"


def test_the_change_shown_is_the_one_changes_csv_gives(tmp_path: Path) -> None:
    # two_lists: March's list.csv has A (11) 1594 and B (12) 1506 after February's 1607 and
    # 1493: a recomputation gives −13 and +13. The changes.csv put in its place says A moved
    # by −20 and B is new on the list: the site shows −20 and nothing.
    site = march_changes_by_hand(
        tmp_path, "rating,11,A,,1607,1594,-20,,,,", "new,12,B,,,1506,,,,,first_rating"
    )
    # rank, name, born, rating, +/−, games, K
    assert cells(site / "2026-03" / "standard" / "list.html", LIST_ROW) == [
        ["1", "A", "1980", "1594", "−20", "1", "20"],
        ["2", "B", "1980", "1506", "", "1", "20"],
    ]
    # Each player's page, his rating changes: the list, its period, rating, change (the
    # list's), games, title (no rank since issue 42: it moves for a player who did not play).
    history = cells(site / "players" / "11.html", HISTORY_ROW)
    assert [row[1:] for row in history] == [
        ["2026-02", "1607", "", "1", ""],
        ["2026-03", "1594", "−20", "1", ""],
    ]
    history = cells(site / "players" / "12.html", HISTORY_ROW)
    assert [row[1:] for row in history] == [
        ["2026-02", "1493", "", "1", ""],
        ["2026-03", "1506", "", "1", ""],
    ]


def test_a_player_on_both_lists_without_a_row_of_changes_csv_is_shown_unchanged(
    tmp_path: Path,
) -> None:
    # changes.csv lists a rating change only where there is one: no row for A (and none
    # saying he is new) is a change of 0, whatever the list.csv files say (−13).
    site = march_changes_by_hand(tmp_path, "rating,12,B,,1493,1506,13,,,,")
    assert cells(site / "2026-03" / "standard" / "list.html", LIST_ROW) == [
        ["1", "A", "1980", "1594", "0", "1", "20"],
        ["2", "B", "1980", "1506", "+13", "1", "20"],
    ]


def test_a_player_whose_fide_id_came_since_the_previous_list_keeps_his_change(
    tmp_path: Path,
) -> None:
    # Newbie, Sam is on February's list as n1#7 at 1749; he receives FIDE ID 955555555 and
    # beats Idle, Ian (both 1749: D 0, PD 0.50; Sam K 40, +20 → 1769; Ian K 20, −10). March's
    # list names Sam by the FIDE ID: changes.csv, which compares people, not ids, has his
    # +20; a comparison of the two list.csv files by id found no February rating for him and
    # showed nothing.
    db, _ = newcomer_database(tmp_path)
    assert run("add", newcomer_with_fide_id(tmp_path, "NEWBIE, Sam"), "--db", db)[0] == 0
    assert run("edit-player", "n1#7", "--fide-id", NEWBIE_FIDE_ID, "--db", db)[0] == 0
    out = tmp_path / "lists"
    assert run("publish", "2026-03", "--db", db, "--out", out)[0] == 0
    sam = str(NEWBIE_FIDE_ID)
    changes = read_csv(out / "2026-03" / "standard" / "changes.csv")
    assert [(c["id"], c["difference"]) for c in changes if c["change"] == "rating"] == [
        (sam, "20"),
        ("17", "-10"),
    ]
    (row,) = [
        row
        for row in cells(out / "site" / "2026-03" / "standard" / "list.html", LIST_ROW)
        if row[1] == "Newbie, Sam"
    ]
    # rank, name, federation, born, rating, +/−, games, K, total games
    assert row == ["2", "Newbie, Sam", "ITA", "2010", "1769", "+20", "1", "40", "7"]
    history = cells(out / "site" / "players" / f"{sam}.html", HISTORY_ROW)
    # period, rating, change, games, title
    assert [row[1:] for row in history] == [["2026-03", "1769", "+20", "1", ""]]


def test_under_a_system_that_writes_no_changes_csv_the_change_is_the_lists_difference(
    tmp_path: Path,
) -> None:
    # Glicko-2's publish writes no changes.csv: the change is each list.csv's rating against
    # the previous published list's. Glickman's example for February, the same games again
    # in March. list.csv: Four 1784 → 1827, Five 1600 → 1600 (no game), Three 1570 → 1588,
    # One 1464 → 1456, Two 1398 → 1396.
    db = glicko2_db(tmp_path)
    out = tmp_path / "out"
    assert run("publish", "2026-02", "--db", db, "--out", out)[0] == 0
    march = tmp_path / "march"
    march.mkdir()
    assert run("add", paper_event(march, "2026/02/10", "2026/02/12"), "--db", db)[0] == 0
    assert run("publish", "2026-03", "--db", db, "--out", out)[0] == 0
    assert not (out / "2026-03" / "standard" / "changes.csv").exists()
    rows = cells(out / "site" / "2026-03" / "standard" / "list.html", LIST_ROW)
    # name, rating, +/−
    assert [(row[1], row[4], row[5]) for row in rows] == [
        ("Four, Di", "1827", "+43"),
        ("Five, Ed", "1600", "0"),
        ("Three, Cy", "1588", "+18"),
        ("One, Ann", "1456", "−8"),
        ("Two, Bea", "1396", "−2"),
    ]
    february = cells(out / "site" / "2026-02" / "standard" / "list.html", LIST_ROW)
    assert [row[5] for row in february] == ["", "", "", "", ""]


def test_an_event_shows_its_own_games_and_score_not_the_periods_rated_totals(
    tmp_path: Path,
) -> None:
    # A (11, 1600) plays two events of the period. "one": beats B (12, 1500), then a full-point
    # bye (U). "two": draws B, then loses to C, unrated. players.csv has A's period as FIDE
    # rates it: 2 games (C's is not rated for him), score 1.5 (the bye is no game). The
    # site's event pages show each event as its crosstable does: one 1 game and 2 (the
    # bye's point in), two 2 games (C's played) and ½.
    db = database(tmp_path)
    players = [P(1, "A", 1600, 11, 1980), P(2, "B", 1500, 12, 1980), P(3, "C", None, None, 1990)]
    one = event_file(
        tmp_path, "one", [(1, 1, 2, "1-0"), (2, 1, None, "U")], players=players[:2],
        title="One",
    )  # fmt: skip
    two = event_file(
        tmp_path, "two", [(1, 1, 2, "=-="), (2, 3, 1, "1-0")], players=players, day="2026/01/20",
        title="Two",
    )  # fmt: skip
    assert run("add", one, two, "--db", db)[0] == 0
    out = tmp_path / "out"
    assert run("publish", "2026-02", "--db", db, "--out", out)[0] == 0
    (a,) = [p for p in read_csv(out / "2026-02" / "standard" / "players.csv") if p["id"] == "11"]
    assert (a["games"], a["score"], a["events"]) == ("2", "1.5", "2")
    event = out / "site" / "2026-02" / "standard" / "event"
    # name, federation, games, score, rating before, on the list
    assert cells(event / "one.html", "<tr>")[0][:4] == ["A", "", "1", "2"]
    assert [row[:4] for row in cells(event / "two.html", "<tr>") if row[0] == "A"] == [
        ["A", "", "2", "½"]
    ]
    # His page: the period, list, event, dates, games, score.
    page = cells(out / "site" / "players" / "11.html", '<tr><td class="text">2026-02')
    assert sorted((row[2], row[4], row[5]) for row in page) == [
        ("One", "1", "2"),
        ("Two", "2", "½"),
    ]
