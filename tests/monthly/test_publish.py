"""``publish`` (monthly/publish.py): only the next list period, never the initial list's;
re-publishing writes the stored files; a dry run changes and writes nothing; every publish says
what changed against the previous list."""

from __future__ import annotations

import datetime as dt
import sqlite3
from pathlib import Path

import pytest
from conftest import read_csv
from db_helpers import (
    RAPID,
    add_one_game,
    companions,
    database,
    dump,
    event_file,
    process,
    query,
    run,
    tree,
    write_list,
)
from trf_text import P

from rating_batch import monthly
from rating_batch.errors import RatingBatchError
from rating_batch.pipelines import published as outputs


@pytest.mark.parametrize("typed", ["2026-4", "2026-04 ", "26-04", "2026-13", "April"])
def test_a_period_not_written_yyyy_mm_is_refused(tmp_path: Path, typed: str) -> None:
    db = database(tmp_path)
    before = dump(db)
    code, _, err = run("publish", typed, "--db", db, "--out", tmp_path / "out")
    assert code == 1 and f"period {typed!r}" in err
    assert dump(db) == before and not (tmp_path / "out").exists()


def test_only_the_next_list_period_is_published(tmp_path: Path) -> None:
    db = database(tmp_path)
    before = dump(db)
    code, _, err = run("publish", "2027-02", "--db", db, "--out", tmp_path / "out")
    assert (code, err) == (
        1,
        "Error: the next list is 2026-02, not 2027-02: publish 2026-02 first (a typo in the "
        "month?), or pass --skip-to to publish 2027-02 and leave the lists between "
        "unpublished\n",
    )
    assert dump(db) == before
    assert run("publish", "2026-02", "--db", db, "--out", tmp_path / "out")[0] == 0
    assert run("publish", "2026-03", "--db", db, "--out", tmp_path / "out")[0] == 0


def test_the_initial_lists_period_is_never_published(tmp_path: Path) -> None:
    db = database(tmp_path)
    event_file(tmp_path, "open", [(1, 1, 2, "1-0")])
    before = dump(db)
    code, _, err = run("publish", "2026-01", "--db", db, "--out", tmp_path / "out")
    assert (code, err) == (
        1,
        "Error: 2026-01 is the initial list's own period: it is never published (the next "
        "list is 2026-02)\n",
    )
    assert dump(db) == before


def test_skip_to_leaves_periods_out_but_never_their_events(tmp_path: Path) -> None:
    db = database(tmp_path)
    assert run("publish", "2026-04", "--skip-to", "--db", db, "--out", tmp_path / "out")[0] == 0
    run("add", event_file(tmp_path, "open", [(1, 1, 2, "1-0")], day="2026/04/10"), "--db", db)
    before = dump(db)
    code, _, err = run("publish", "2026-06", "--skip-to", "--db", db, "--out", tmp_path / "out")
    assert (code, err) == (
        1,
        "Error: --skip-to 2026-06 would leave events unrated: publish 2026-05 first, or "
        "remove those events\n",
    )
    assert dump(db) == before


def test_with_an_unknown_initial_month_the_first_list_is_that_of_the_first_events(
    tmp_path: Path,
) -> None:
    db = database(tmp_path, period=None)  # no --period, no FIDE header
    # --accept-dates: with no list month, an event is measured against today's month, and
    # this one will be more than 12 months old one day.
    event = event_file(tmp_path, "open", [(1, 1, 2, "1-0")], day="2026/03/10")
    assert run("add", event, "--accept-dates", "--db", db)[0] == 0
    code, _, err = run("publish", "2026-05", "--db", db, "--out", tmp_path / "out")
    assert code == 1 and "the next list is 2026-04, not 2026-05" in err
    assert run("publish", "2026-04", "--db", db, "--out", tmp_path / "out")[0] == 0


def test_a_dry_run_changes_and_writes_nothing(tmp_path: Path) -> None:
    db = database(tmp_path)
    run("add", event_file(tmp_path, "open", [(1, 1, 2, "1-0")]), "--db", db)
    before, beside = dump(db), companions(db)
    code, out, _ = run("publish", "2026-02", "--dry-run", "--db", db, "--out", tmp_path / "out")
    assert code == 0
    assert out.splitlines()[0] == "would publish 2026-02"
    assert "changes against 2026-01: 0 new, 0 left, 2 ratings changed" in out
    assert out.endswith("dry run: nothing was changed or written\n")
    assert dump(db) == before and not (tmp_path / "out").exists()
    assert companions(db) == beside


def test_a_published_list_never_changes(tmp_path: Path) -> None:
    # 11 is on the list without a birth year; a later file gives 2012, which makes 11 a
    # junior (K 40). Re-publishing February must give February's files as published.
    db = database(tmp_path, "11,1600", "12,1500")
    unknown = [P(1, "A", 1600, 11, None), P(2, "B", 1500, 12, 1980)]
    jan = event_file(tmp_path, "jan", [(1, 1, 2, "1-0")], players=unknown, day="2026/01/10")
    assert run("add", jan, "--db", db)[0] == 0
    out = tmp_path / "out"
    assert run("publish", "2026-02", "--db", db, "--out", out)[0] == 0
    published = {p: p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}
    players = [P(1, "A", 1600, 11, 2012), P(2, "B", 1500, 12, 1980)]
    feb = event_file(tmp_path, "feb", [(1, 2, 1, "1-0")], players=players, day="2026/02/07")
    code, _, err = run("add", feb, "--db", db)
    assert code == 0, err
    with sqlite3.connect(db) as connection:
        assert connection.execute(
            "SELECT birth_year FROM players WHERE fide_id = 11"
        ).fetchone() == (2012,)
    connection.close()
    for path in published:
        path.unlink()
    code, out_text, _ = run("publish", "2026-02", "--db", db, "--out", out)
    assert code == 0 and out_text.startswith("re-published 2026-02")
    assert {p: p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()} == published


def test_changes_against_the_previous_list(tmp_path: Path) -> None:
    # 11 (1600) beats 12 (1500), 13 (1405) loses to 12; 14 is new and scores 3/5 against
    # 11 and 12. Worked by hand (fide-2025, K 20 for everyone on a list without K, 40 new):
    # 11: D 100 → PD 0.64, win +0.36 × 20 = 7.2, and loses to 14 (not counted: unrated).
    # 13: D -95 → PD 0.37, loss -0.37 × 20 = -7.4 → 1398, below the 1400 floor: leaves.
    db = database(tmp_path, "11,1600", "12,1500", "13,1405")
    players = [
        P(1, "A", 1600, 11, 1980), P(2, "B", 1500, 12, 1980), P(3, "C", 1405, 13, 1980),
        P(4, "Newcomer, Nina", None, 14, 1990, federation="IRL"),
    ]  # fmt: skip
    games = [
        (1, 1, 2, "1-0"), (1, 3, 4, "0-1"), (2, 2, 3, "1-0"), (2, 4, 1, "1-0"),
        (3, 4, 2, "=-="), (4, 1, 4, "1-0"), (5, 4, 2, "0-1"), (6, 4, 1, "=-="),
    ]  # fmt: skip
    run("add", event_file(tmp_path, "open", games, players=players, end="2026/01/16"), "--db", db)
    code, out, err = run("publish", "2026-02", "--db", db, "--out", tmp_path / "out")
    assert code == 0, err
    changes = read_csv(tmp_path / "out" / "2026-02" / "standard" / "changes.csv")
    shown = [
        (c["change"], c["id"], c["rating_before"], c["rating_after"], c["reason"]) for c in changes
    ]
    assert [s for s in shown if s[0] == "left"] == [("left", "13", "1405", "1398", "below_floor")]
    order = ["new", "left", "rating", "correction"]
    assert [s[0] for s in shown] == sorted((s[0] for s in shown), key=order.index)
    # The file gave names and birth years the list did not have: corrected since the list.
    corrected = {
        (c["id"], c["field"], c["before"], c["after"])
        for c in changes
        if c["change"] == "correction"
    }
    assert corrected == {(str(i), "birth_year", "", "1980") for i in (11, 12, 13)} | {
        ("11", "name", "", "A"),
        ("12", "name", "", "B"),
        ("13", "name", "", "C"),
    }
    rating = [c for c in changes if c["change"] == "rating"]
    assert [abs(int(c["difference"])) for c in rating] == sorted(
        (abs(int(c["difference"])) for c in rating), reverse=True
    )
    assert "changes against 2026-01:" in out and "1 left (1 below the floor)" in out


def test_leaving_the_list_below_the_floor_without_a_game_is_said(tmp_path: Path) -> None:
    # The initial list rates 13 at 1370, below fide-2025's floor 1400 (docs/rules.md §2.7);
    # 13 does not play. 12 (1390) beats 14 (1600): D -210 → PD 0.23, +0.77 × 20 = 15.4 → 1405,
    # at the floor: listed. 11 (1800) beats 14: D 200 → PD 0.76, +4.8 → 1805. 14 loses
    # both: -0.24 - 0.77 = -1.01 × 20 = -20.2 → 1580.
    db = database(tmp_path, "11,1800", "12,1390", "13,1370", "14,1600")
    players = [
        P(1, "High, Hal", 1800, 11, 1980), P(2, "Mid, Mo", 1600, 14, 1980),
        P(3, "Low, Lia", 1390, 12, 1980),
    ]  # fmt: skip
    event = event_file(tmp_path, "open", [(1, 1, 2, "1-0"), (2, 3, 2, "1-0")], players=players)
    assert run("add", event, "--db", db)[0] == 0
    code, out, err = run("publish", "2026-02", "--db", db, "--out", tmp_path / "out")
    assert code == 0, err
    assert (
        "standard: 1 event(s) under fide-2025; list of 3 players (3 from the previous list, 0 "
        "new); 0 fell below the floor and left it, 1 rated below the floor on the previous list "
        "left it without a game, 0 played but are still unrated"
    ) in out.splitlines()
    assert err == (
        "the standard list of 2026-02: warning: 1 player(s) rated below the floor 1400 on the "
        "list of 2026-01 did not play: they leave the list, unrated: 13 (1370)\n"
    )
    listed = read_csv(tmp_path / "out" / "2026-02" / "standard" / "list.csv")
    assert [(r["id"], r["rating"]) for r in listed] == [
        ("11", "1805"),
        ("14", "1580"),
        ("12", "1405"),
    ]
    left = [c for c in read_csv(tmp_path / "out" / "2026-02" / "standard" / "changes.csv")
            if c["change"] == "left"]  # fmt: skip
    assert [(c["id"], c["rating_before"], c["reason"]) for c in left] == [
        ("13", "1370", "below_floor")
    ]


def test_a_first_rapid_list_counts_its_players_as_changes_csv_does(tmp_path: Path) -> None:
    """Six players of a standard-only list play a rapid event: each joins the rapid list
    from the standard rating (docs/rules.md §6), so the first rapid list holds 6 players, none
    from a previous rapid list: the terminal, the report's Summary and changes.csv all say 6
    new."""
    from openpyxl import load_workbook
    from workbooks import summary

    db = database(tmp_path, *(f"{11 + n},{1800 - 50 * n}" for n in range(6)))
    players = [P(n + 1, f"Player {n + 1}", 1800 - 50 * n, 11 + n, 1980) for n in range(6)]
    games = [(1, 1, 2, "1-0"), (1, 3, 4, "=-="), (1, 5, 6, "0-1")]
    event = event_file(tmp_path, "r1", games, players=players, extra=(RAPID,))
    assert run("add", event, "--db", db)[0] == 0
    code, out, err = run("publish", "2026-02", "--db", db, "--out", tmp_path / "out")
    assert code == 0, err
    (line,) = [line for line in out.splitlines() if line.startswith("rapid:")]
    assert line.endswith(
        "list of 6 players (0 from the previous list, 6 new: 6 from their standard rating); "
        "0 fell below the floor and left it, 0 played but are still unrated"
    )
    assert "changes against no earlier list: 6 new, 0 left, 0 ratings changed" in out
    folder = tmp_path / "out" / "2026-02" / "rapid"
    changes = read_csv(folder / "changes.csv")
    arrivals = [c for c in changes if c["change"] in ("new", "left")]
    assert sorted((c["change"], c["id"], c["reason"]) for c in arrivals) == [
        ("new", str(11 + n), "standard_rating") for n in range(6)
    ]
    rows = {row[0]: row[1] for row in summary(load_workbook(folder / "report.xlsx")["Summary"])}
    assert (
        rows["Players on the new list"], rows["  from the previous list"],
        rows["  new on the list"], rows["    from their standard rating"],
        rows["Players who left the list"],
    ) == (6, 0, 6, 6, 0)  # fmt: skip
    # The standard list, with no event, keeps its six players.
    assert "list of 6 players (6 from the previous list, 0 new)" in out


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
        "index.html",
        "list.csv",
        "list.txt",
        "list.xlsx",
        "norms.csv",  # header only: nobody within reach of a norm (docs/norms.md §8)
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
        monthly.publish_period("2026-02", db=db, out=folder / "out")
    assert dump(db) == before
    assert not (folder / "out" / "2026-02" / "standard" / "list.csv").exists()
    leftovers = (
        [p for p in (folder / "out").rglob("*") if p.is_file()] if (folder / "out").exists() else []
    )
    assert leftovers == []


def test_publishing_a_month_without_a_list_is_refused(folder: Path) -> None:
    rules = Path(__file__).parents[2] / "sample_data" / "rules" / "fexerj-2027.toml"
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


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    return tmp_path


@pytest.mark.parametrize(
    ("deleted", "said"),
    [
        # An entry deleted, its games left: the games cannot be given a player, and
        # publishing them anyway would rate a game nobody played.
        ("DELETE FROM event_players WHERE start_rank = 2", "without their entry"),
        # A player deleted, his entries and games left: no player to rate, and rating them
        # anyway would change his opponent's rating against nobody.
        (
            "DELETE FROM players WHERE player_id = "
            "(SELECT player_id FROM event_players WHERE start_rank = 2)",
            "of an unknown player",
        ),
    ],
    ids=["entry", "player"],
)
def test_games_left_by_a_database_changed_by_hand_are_refused_not_rated(
    tmp_path: Path, deleted: str, said: str
) -> None:
    db = database(tmp_path)
    add_one_game(tmp_path, db)
    with sqlite3.connect(db) as connection:
        connection.execute(deleted)
    connection.close()
    before = dump(db)
    kept = tmp_path / "r.sqlite.files"
    files = sorted(kept.rglob("*")) if kept.exists() else []
    code, _, err = run("publish", "2026-02", "--db", db, "--out", tmp_path / "out")
    assert (code, err) == (
        1,
        f"Error: the database holds games of 2026-02 {said} (changed outside rating_batch?): "
        "nothing was published; 'rating-batch backups' lists the copies to restore\n",
    )
    assert dump(db) == before and not (tmp_path / "out").exists()
    assert (sorted(kept.rglob("*")) if kept.exists() else []) == files  # nothing kept


def test_republishing_over_the_helper_files_of_finder_explorer_and_excel(folder: Path) -> None:
    # Running the same publish again is the way to write a period's files: the files a file
    # browser or a spreadsheet program made in the period folder must not block it.
    db = database(folder)
    add_one_game(folder, db)
    out = folder / "out"
    assert run("publish", "2026-02", "--db", db, "--out", out)[0] == 0
    published = tree(out)
    for helper in (".DS_Store", "standard/Thumbs.db", "standard/desktop.ini",
                   "standard/~$report.xlsx", "standard/events/.DS_Store"):  # fmt: skip
        (out / "2026-02" / helper).write_bytes(b"\x00helper")
    state = dump(db)
    code, stdout, err = run("publish", "2026-02", "--db", db, "--out", out)
    assert (code, err) == (0, "")
    assert stdout.splitlines()[0] == (
        "re-published 2026-02: its files as stored when it was published"
    )
    assert tree(out) == published
    assert dump(db) == state


@pytest.mark.parametrize("republish", [False, True], ids=["new period", "published period"])
def test_a_dry_run_refuses_the_out_folders_the_publish_would_refuse(
    folder: Path, republish: bool
) -> None:
    # A dry run checks everything: the real publish must not refuse what it passed.
    db = database(folder)
    add_one_game(folder, db)
    if republish:
        assert run("publish", "2026-02", "--db", db, "--out", folder / "first")[0] == 0
    (folder / "out" / "2026-02").mkdir(parents=True)
    (folder / "out" / "2026-02" / "notes.txt").write_text("mine")
    (folder / "afile").write_text("mine")
    before, beside, outs = dump(db), companions(db), tree(folder / "out")
    period = folder / "out" / "2026-02"
    refusals = {
        folder / "out": f"Error: {period}: holds files rating_batch does not write (notes.txt); "
        "move them away or choose another --out (nothing was written)\n",
        folder / "afile" / "sub": f"Error: {folder / 'afile' / 'sub'}: cannot make this folder: "
        "a file is in the way (choose another --out)\n",
    }
    for out, message in refusals.items():
        for dry_run in (["--dry-run"], []):
            code, stdout, err = run("publish", "2026-02", *dry_run, "--db", db, "--out", out)
            assert (code, stdout, err) == (1, "", message), dry_run
            assert dump(db) == before and companions(db) == beside
            assert tree(folder / "out") == outs and (folder / "afile").read_text() == "mine"


def test_a_list_is_published_from_its_closing_date_on(folder: Path) -> None:
    # docs/rules.md §1: FIDE's list of 1 February 2026 closes 3 days before, on 29 January:
    # until then events that belong to it may still be played.
    db = database(folder)
    add_one_game(folder, db)
    before = dump(db)
    early = monthly.PublishOptions(today=dt.date(2026, 1, 28))
    with pytest.raises(RatingBatchError) as refused:
        monthly.publish_period("2026-02", db=db, out=folder / "out", options=early)
    assert str(refused.value) == (
        "2026-02 is still open: events ending up to 2026-01-29 belong to it (today is "
        "2026-01-28); publish it from 2026-01-29 on (a typo in the month?), or pass "
        "--accept-dates to publish it now"
    )
    assert dump(db) == before and not (folder / "out").exists()
    closed = monthly.PublishOptions(today=dt.date(2026, 1, 29))
    monthly.publish_period("2026-02", db=db, out=folder / "out", options=closed)
    assert (folder / "out" / "2026-02" / "standard" / "list.csv").exists()


def test_skip_to_a_list_decades_ahead_is_refused_unless_asked(folder: Path) -> None:
    db = database(folder)
    before = dump(db)
    out = folder / "out"
    for dry_run in (["--dry-run"], []):
        days = {dt.date.today()}
        code, stdout, err = process("publish", "2099-12", "--skip-to", *dry_run, "--db", db,
                                    "--out", out)  # fmt: skip
        days.add(dt.date.today())
        assert (code, stdout) == (1, "")
        assert err in {
            "Error: 2099-12 is still open: events ending up to 2099-11-28 belong to it (today is "
            f"{day}); publish it from 2099-11-28 on (a typo in the month?), or pass "
            "--accept-dates to publish it now\n"
            for day in days
        }
        assert dump(db) == before and not out.exists()
    code, stdout, err = process(
        "publish", "2099-12", "--skip-to", "--accept-dates", "--db", db, "--out", out
    )
    assert code == 0 and stdout.startswith("published 2099-12\n")
    assert (out / "2099-12" / "standard" / "list.csv").exists()


def test_publishing_a_month_whose_events_wait_for_the_next_list_says_where_they_are(
    folder: Path,
) -> None:
    # The officer adds February's event (it ends on 10 February: the list of 2026-03, whose
    # closing date is the first on or after it, docs/rules.md §1) and publishes 2026-02.
    db = database(folder)
    assert run("add", event_file(folder, "feb", [(1, 1, 2, "1-0")], day="2026/02/10"),
               "--db", db)[0] == 0  # fmt: skip
    note = (
        "no event was added for 2026-02: the 1 added wait for later lists (1 in 2026-03): an "
        "event is rated in the first list closing on or after its end date (docs/rules.md §1)"
    )
    for dry_run in (["--dry-run"], []):
        code, out, err = process("publish", "2026-02", *dry_run, "--db", db, "--out",
                                 folder / "out")  # fmt: skip
        assert (code, err) == (0, "")
        assert out.splitlines()[3] == note
    # The list of 2026-02 is the initial list: nobody played in its period.
    assert [(r["id"], r["rating"]) for r in read_csv(folder / "out/2026-02/standard/list.csv")] == [
        ("11", "1600"), ("12", "1500"),
    ]  # fmt: skip
    code, out, _ = run("publish", "2026-03", "--db", db, "--out", folder / "out")
    assert code == 0 and "wait for later lists" not in out


def test_a_month_without_events_counts_no_one_as_having_played(folder: Path) -> None:
    # Newbie plays 2 games in January: pending, 3 short of the 5 a first rating needs
    # (docs/rules.md §4), so still unrated in 2026-02; in 2026-03 he has not played at all.
    db = database(folder)
    newbie = [P(1, "A", 1600, 11, 1980), P(2, "B", 1500, 12, 1980), P(3, "Newbie, Sam", None,
              None, 2010)]  # fmt: skip
    games = [(1, 3, 1, "1-0"), (2, 2, 3, "0-1")]
    assert run("add", event_file(folder, "jan", games, players=newbie), "--db", db)[0] == 0
    code, out, _ = run("publish", "2026-02", "--db", db, "--out", folder / "out")
    assert code == 0 and out.splitlines()[1].endswith(", 1 played but are still unrated")
    pending = [r["status"] for r in read_csv(folder / "out/2026-02/standard/players.csv")]
    assert pending.count("unrated") == 1
    code, out, _ = run("publish", "2026-03", "--dry-run", "--db", db, "--out", folder / "out")
    assert code == 0
    assert out.splitlines()[1] == (
        "standard: 0 event(s) under fide-2025; list of 2 players (2 from the previous list, 0 "
        "new); 0 fell below the floor and left it, 0 played but are still unrated"
    )


# -- publish --due: the lists whose date has come (docs/schedule.md §2) ----------------------


def test_publish_due_publishes_every_list_whose_date_has_come_and_only_those(
    tmp_path: Path,
) -> None:
    db = database(tmp_path)  # the list of 2026-01
    event = event_file(tmp_path, "jan", [(1, 1, 2, "1-0")], day="2026/01/10")
    assert run("add", event, "--db", db)[0] == 0  # period 2026-02 (FIDE's monthly lists)
    out = tmp_path / "lists"
    # 31 January: February's list is dated 1 February, not come yet; nothing changes.
    before = dump(db)
    code, printed, err = run("publish", "--due", "--today", "2026-01-31", "--db", db,
                             "--out", out)  # fmt: skip
    assert (code, printed.strip()) == (
        0, "nothing due on 2026-01-31: the next list, 2026-02, is dated 2026-02-01",
    ), err  # fmt: skip
    assert dump(db) == before and not out.exists()
    # 5 March: February's and March's lists have come: both, in order.
    code, printed, err = run("publish", "--due", "--today", "2026-03-05", "--db", db,
                             "--out", out)  # fmt: skip
    assert code == 0, err
    published = [line for line in printed.splitlines() if line.startswith("published ")]
    assert published == ["published 2026-02", "published 2026-03"]
    assert query(db, "SELECT period FROM lists WHERE origin = 'publish' ORDER BY period") == [
        ("2026-02",), ("2026-03",),
    ]  # fmt: skip
    assert (out / "2026-02" / "standard" / "list.csv").exists()
    assert (out / "2026-03" / "standard" / "list.csv").exists()
    # Run again the same day: April's list is not due.
    code, printed, _ = run("publish", "--due", "--today", "2026-03-05", "--db", db, "--out", out)
    assert (code, printed.strip()) == (
        0, "nothing due on 2026-03-05: the next list, 2026-04, is dated 2026-04-01",
    )  # fmt: skip


def test_publish_takes_a_period_or_due_not_both(tmp_path: Path) -> None:
    db = database(tmp_path)
    assert run("publish", "2026-02", "--due", "--db", db, "--out", tmp_path / "o")[0] == 2
    assert run("publish", "--db", db, "--out", tmp_path / "o")[0] == 2
    assert run("publish", "2026-02", "--today", "2026-03-01", "--db", db,
               "--out", tmp_path / "o")[0] == 2  # fmt: skip


def test_a_database_nothing_dates_refuses_a_period_far_from_today(tmp_path: Path) -> None:
    """An initial list of unknown month and no event: 1999-01 was published (under
    fide-2011), and every event of today's months was then refused as a year away from the
    database's last list (the red team's finding)."""
    db = database(tmp_path, period=None)
    before = dump(db)
    code, out, err = run("publish", "1999-01", "--db", db, "--out", tmp_path / "lists")
    assert code == 1 and not (tmp_path / "lists").exists()
    assert dump(db) == before  # nothing changed
    today = dt.date.today()
    away = (today.year - 1999) * 12 + today.month - 1
    assert err == (
        f"Error: 1999-01 is {away} months from today ({today}), and nothing dates this database "
        "(its initial list's month is unknown and it holds no event): a typo in the year? For "
        "a list of that time, make the database again with init --period YYYY-MM\n"
    )
    # This month's list is dated by today: published.
    now = f"{today.year}-{today.month:02d}"
    code, out, err = run("publish", now, "--db", db, "--out", tmp_path / "lists", "--accept-dates")
    assert code == 0, out + err


def test_the_reports_per_game_sheets_are_left_out_above_the_bound_as_rates(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As rate's report (docs/reports.md): above DETAIL_SHEET_GAMES player-games the Games
    and Calculations sheets only say where their rows are, and the Summary's notes say why."""
    from openpyxl import load_workbook
    from workbooks import summary, table

    players = [P(n + 1, f"Player {n + 1}", 1800 - 50 * n, 11 + n, 1980) for n in range(4)]
    # Two rounds of two games: 4 games, each a row for either player: 8 player-game rows.
    games = [(1, 1, 2, "1-0"), (1, 3, 4, "=-="), (2, 1, 3, "0-1"), (2, 2, 4, "1-0")]
    books = {}
    for bound in (8, 7):
        monkeypatch.setattr(outputs, "DETAIL_SHEET_GAMES", bound)
        root = tmp_path / str(bound)
        root.mkdir()
        db = database(root, *(f"{11 + n},{1800 - 50 * n}" for n in range(4)))
        assert run("add", event_file(root, "e1", games, players=players), "--db", db)[0] == 0
        code, _, err = run("publish", "2026-02", "--db", db, "--out", root / "out")
        assert code == 0, err
        books[bound] = load_workbook(root / "out" / "2026-02" / "standard" / "report.xlsx")
    at, above = books[8], books[7]
    assert len(table(at["Games"])) == 8
    assert above.sheetnames == at.sheetnames  # the same tabs, where a reader looks
    (line,) = [row[0] for row in above["Games"].iter_rows(values_only=True) if row[0]]
    assert line.startswith("The games (8 rows) are in games.csv")
    notes = [str(row) for row in summary(above["Summary"])]
    assert any("8 player-games: the Games and Calculations sheets are left out" in n for n in notes)
    assert not any("left out" in str(row) for row in summary(at["Summary"]))
