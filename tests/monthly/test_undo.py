"""Undo (monthly/undo.py): unpublish the last period, remove an unpublished event, each
returning the database exactly to its state before, and saying what it did."""

from __future__ import annotations

from pathlib import Path

from db_helpers import add_one_game, data_dump, database, dump, event_file, query, run
from trf_text import P


def test_unpublish_returns_exactly_to_the_state_before_the_publish(tmp_path: Path) -> None:
    db = database(tmp_path)
    run("add", event_file(tmp_path, "open", [(1, 1, 2, "1-0")]), "--db", db)
    before = data_dump(db)
    assert run("publish", "2026-02", "--db", db, "--out", tmp_path / "out")[0] == 0
    code, out, _ = run("unpublish", "2026-02", "--db", db)
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == (
        "unpublished 2026-02 (standard): 2 rating states, 0 pending first-rating games and 11 "
        "stored files removed"
    )
    assert lines[1] == (
        "its 1 event(s) are added and pending again; 'rating-batch publish 2026-02' rates them"
    )
    # Journal entries: 1 the add, 2 the publish, 3 the unpublish.
    assert lines[2] == "'rating-batch restore latest' takes it back (journal entry 3)"
    assert data_dump(db) == before
    # And it can be published again, giving the same list.
    assert run("publish", "2026-02", "--db", db, "--out", tmp_path / "again")[0] == 0
    assert (tmp_path / "again/2026-02/standard/list.csv").read_bytes() == (
        tmp_path / "out/2026-02/standard/list.csv"
    ).read_bytes()


def test_only_the_last_published_period_can_be_unpublished(tmp_path: Path) -> None:
    db = database(tmp_path)
    for period in ("2026-02", "2026-03"):
        assert run("publish", period, "--db", db, "--out", tmp_path / "out")[0] == 0
    before = dump(db)
    code, _, err = run("unpublish", "2026-02", "--db", db)
    assert (code, err) == (
        1,
        "Error: only the last published period (2026-03) can be unpublished, not 2026-02; "
        "unpublish 2026-03 first, then the ones before it one by one\n",
    )
    assert dump(db) == before
    assert run("unpublish", "2026-03", "--db", db)[0] == 0
    assert run("unpublish", "2026-02", "--db", db)[0] == 0
    code, _, err = run("unpublish", "2026-02", "--db", db)
    assert code == 1 and "no period is published; nothing to unpublish" in err


def test_remove_takes_an_event_back_exactly(tmp_path: Path) -> None:
    # The second event creates a player (no FIDE ID); 3 players × 2 rounds = 6 game rows.
    db = database(tmp_path)
    first = event_file(tmp_path, "first", [(1, 1, 2, "=-=")], day="2026/01/05")
    run("add", first, "--db", db)
    before = data_dump(db)
    players = [
        P(1, "A", 1600, 11, 1980),
        P(2, "B", 1500, 12, 1980),
        P(3, "New, Nina", None, None, 2001),
    ]
    games = [(1, 1, 3, "1-0"), (2, 3, 2, "0-1")]
    second = event_file(tmp_path, "second", games, players=players, day="2026/01/19")
    assert run("add", second, "--db", db)[0] == 0
    code, out, _ = run("remove", "second", "--db", db)
    assert code == 0
    assert out.splitlines()[0] == (
        f"removed second (second, file {second}, period 2026-02): 6 game rows, 3 player "
        "entries, 1 player(s) only it had created"
    )
    assert data_dump(db) == before


def test_events_of_published_periods_are_not_removed(tmp_path: Path) -> None:
    db = database(tmp_path)
    run("add", event_file(tmp_path, "open", [(1, 1, 2, "1-0")]), "--db", db)
    run("publish", "2026-02", "--db", db, "--out", tmp_path / "out")
    before = dump(db)
    code, _, err = run("remove", "open", "--db", db)
    assert (code, err) == (
        1,
        "Error: open is rated in the published period 2026-02: 'rating-batch unpublish "
        "2026-02' first (only the last published period can be), then remove it\n",
    )
    assert dump(db) == before
    code, _, err = run("remove", "opne", "--db", db)
    assert code == 1 and "no event 'opne'" in err and "(did you mean open?)" in err


def test_unpublishing_a_period_that_is_not_published_names_the_last_list_and_changes_nothing(
    tmp_path: Path,
) -> None:
    # Run twice (after a crash, to be sure), and a period skipped by --skip-to: neither may
    # lead the officer to withdraw the list before it.
    db = database(tmp_path)
    for period, *skip in (("2026-02",), ("2026-03",), ("2026-06", "--skip-to")):
        assert run("publish", period, *skip, "--db", db, "--out", tmp_path / "out")[0] == 0
    assert run("unpublish", "2026-06", "--db", db)[0] == 0
    before = dump(db)
    for period in ("2026-06", "2026-05", "2026-04"):
        code, out, err = run("unpublish", period, "--db", db)
        assert (code, out, err) == (
            1,
            "",
            f"Error: {period} is not published (the last published list is 2026-03); nothing "
            "to unpublish, nothing was changed\n",
        )
        assert dump(db) == before


def test_unpublish_moves_the_events_added_late_back_to_the_withdrawn_period(
    tmp_path: Path,
) -> None:
    # Published too early: an event of January arrives after the list of February, waits
    # for March; withdrawing February must let its re-publish rate it, as if it had come in
    # time (the same list as a database given both events before publishing).
    db = database(tmp_path)
    early = event_file(tmp_path, "early", [(1, 1, 2, "1-0")], day="2026/01/10")
    late = event_file(tmp_path, "late", [(1, 2, 1, "=-=")], day="2026/01/26")
    assert run("add", early, "--db", db)[0] == 0
    assert run("publish", "2026-02", "--db", db, "--out", tmp_path / "first")[0] == 0
    assert run("add", late, "--db", db)[0] == 0
    before = data_dump(db)
    code, out, err = run("unpublish", "2026-02", "--db", db)
    assert (code, err) == (0, "")
    assert out.splitlines()[1:3] == [
        "late (ended 2026-01-26) moves back from 2026-03 to 2026-02, the list it goes to when "
        "added now",
        "its 2 event(s) are added and pending again; 'rating-batch publish 2026-02' rates them",
    ]
    assert query(db, "SELECT key, period FROM events ORDER BY key") == [
        ("early", "2026-02"), ("late", "2026-02"),
    ]  # fmt: skip
    assert run("publish", "2026-02", "--db", db, "--out", tmp_path / "again")[0] == 0
    (tmp_path / "in-time").mkdir()
    in_time = database(tmp_path / "in-time")
    assert run("add", early, late, "--db", in_time)[0] == 0
    assert run("publish", "2026-02", "--db", in_time, "--out", tmp_path / "in-time")[0] == 0
    for name in ("list.csv", "games.csv"):
        result = (tmp_path / "again/2026-02/standard" / name).read_bytes()
        assert result == (tmp_path / "in-time/2026-02/standard" / name).read_bytes()
    # The move is part of the unpublish (journal entry 4, after the two adds and the
    # publish): going back to the state before it undoes the move too.
    assert run("restore", "4", "--db", db)[0] == 0
    assert data_dump(db) == before


def test_the_whole_copies_are_listed_in_aligned_columns(tmp_path: Path) -> None:
    db = database(tmp_path)
    assert run("backup", "--after", "publish", "--db", db)[0] == 0
    add_one_game(tmp_path, db)
    assert run("publish", "2026-02", "--db", db, "--out", tmp_path / "out")[0] == 0
    code, out, err = run("backups", "--db", db)
    assert (code, err) == (0, "")
    copies = sorted(p.name for p in Path(f"{db}.backups").glob("*.sqlite"))
    labels = [name.split("Z-", 1)[1] for name in copies]
    assert labels == ["backup.sqlite", "after-publish-2026-02.sqlite"]  # names of unequal length
    lines = [line for line in out.splitlines() if "Z-" in line]
    assert [line.split()[0] for line in lines] == copies
    for column in (" UTC  ", " last list "):
        assert len({line.index(column) for line in lines}) == 1, column
