"""``add`` (monthly/add.py): plausible-but-wrong dates and results reported twice are
refused, each with a flag to accept it deliberately; a late event goes to the next list and
says so; a dry run changes nothing."""

from __future__ import annotations

import datetime as dt
import sqlite3
from pathlib import Path

import pytest
from db_helpers import ADULT, database, dump, event_file, query, run
from trf_text import P, trf


@pytest.mark.parametrize(
    ("listed", "start", "end", "message"),
    [
        (
            "2026-01", "2025/12/01", "2025/12/03",
            "ended 2025-12-03, before the initial list (2026-01) was made: its games should be "
            "in that list already",
        ),
        (
            "2026-01", "2016/01/10", "2016/01/12",
            "ended 2016-01-12, before the initial list (2026-01) was made: its games should be "
            "in that list already",
        ),
        (
            "2024-06", "2026/01/10", "2026/01/12",
            "ended 2026-01-12 (period 2026-02), more than 12 months from the database's last "
            "list (2024-06): a typo in the year?",
        ),
        (
            "2026-01", "2026/01/10", "2026/03/20",
            "lasts 70 days (2026-01-10…2026-03-20), over 60: a typo in a date?",
        ),
    ],
)  # fmt: skip
def test_dates_that_look_wrong_are_refused_unless_accepted(
    tmp_path: Path, listed: str, start: str, end: str, message: str
) -> None:
    db = database(tmp_path, period=listed)
    before = dump(db)
    event = event_file(tmp_path, "open", [(1, 1, 2, "1-0")], day=start, end=end)
    code, _, err = run("add", event, "--db", db)
    assert (code, err) == (1, f"Error: {event}: {message} (--accept-dates adds it anyway)\n")
    assert dump(db) == before
    code, _, err = run("add", event, "--accept-dates", "--db", db)
    assert code == 0, err
    assert f"{event}: warning: {message}\n" in err


def test_an_event_in_the_future_is_refused(tmp_path: Path) -> None:
    db = database(tmp_path, period="2026-11")
    event = event_file(tmp_path, "open", [(1, 1, 2, "1-0")], day="2027/01/10")
    code, _, err = run("add", event, "--db", db)
    assert code == 1 and "in the future (today is" in err


def test_an_event_before_the_initial_list_goes_to_the_next_one_when_accepted(
    tmp_path: Path,
) -> None:
    db = database(tmp_path)
    event = event_file(tmp_path, "open", [(1, 1, 2, "1-0")], day="2025/12/20")
    code, out, err = run("add", event, "--accept-dates", "--db", db)
    assert code == 0
    assert "period 2026-02" in out  # never the initial list's own period
    assert (
        f"{event}: warning: ended 2025-12-20, in period 2026-01, which is the initial list's: "
        "rated in 2026-02 (the next list)"
    ) in err


def test_a_late_event_is_moved_to_the_next_list_and_says_so(tmp_path: Path) -> None:
    db = database(tmp_path)
    run("add", event_file(tmp_path, "first", [(1, 1, 2, "1-0")], day="2026/01/05"), "--db", db)
    assert run("publish", "2026-02", "--db", db, "--out", tmp_path / "out")[0] == 0
    late = event_file(tmp_path, "late", [(1, 2, 1, "1-0")], day="2026/01/20")
    code, out, err = run("add", late, "--db", db)  # printed without -v
    assert code == 0 and "period 2026-03" in out
    assert err == (
        f"{late}: warning: ended 2026-01-20, in period 2026-02, which is already published: "
        "rated in 2026-03 (the next list)\n"
    )


@pytest.mark.parametrize("rows", [10**9, 0], ids=["one core", "two cores"])
def test_a_retitled_copy_of_a_stored_event_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, rows: int
) -> None:
    # The arbiter resends the event under another title, one result corrected: 2 of its 3
    # games are the stored ones, so it is the same event reported twice. Two cores: the
    # repeat is found while the games are inserted; the refusal rolls those back too.
    from rating_batch import parallel

    monkeypatch.setattr(parallel, "PARALLEL_ROWS", rows)
    db = database(tmp_path, "11,1600", "12,1500", "13,1400")
    players = None
    from trf_text import P

    players = [P(1, "A", 1600, 11, 1980), P(2, "B", 1500, 12, 1980), P(3, "C", 1400, 13, 1980)]
    games = [(1, 1, 2, "1-0"), (2, 3, 1, "=-="), (3, 2, 3, "0-1")]
    first = event_file(tmp_path, "club-open", games, players=players, title="Club Open")
    assert run("add", first, "--db", db)[0] == 0
    before = dump(db)
    fixed = [(1, 1, 2, "1-0"), (2, 3, 1, "1-0"), (3, 2, 3, "0-1")]
    second = event_file(tmp_path, "resend", fixed, players=players, title="Club Open (final)")
    code, _, err = run("add", second, "--db", db)
    assert code == 1
    assert err == (
        f"Error: {second}: shares 2 of its 3 played games with the stored event club-open "
        f"(file {first}, period 2026-02): the same results reported twice? If this is a "
        "corrected file, 'rating-batch remove club-open' first; --allow-overlap adds it "
        "anyway\n"
    )
    assert dump(db) == before
    # The corrected file replaces the stored one: remove, then add.
    assert run("remove", "club-open", "--db", db)[0] == 0
    assert run("add", second, "--db", db)[0] == 0


RESENT = [(1, 1, 2, "1-0"), (2, 3, 1, "=-="), (3, 2, 3, "0-1")]


@pytest.mark.parametrize("together", [True, False], ids=["one-add", "two-adds"])
def test_a_resend_with_corrected_dates_is_refused(tmp_path: Path, together: bool) -> None:
    # The same event (its name) with the same three games (same rounds, players and
    # results) dated two weeks later: the same results reported twice, although the dates no
    # longer meet. Found in the same add, and against a stored event.
    db = database(tmp_path, "11,1600", "12,1500", "13,1400")
    players = [P(1, "A", 1600, 11, 1980), P(2, "B", 1500, 12, 1980), P(3, "C", 1400, 13, 1980)]
    first = event_file(
        tmp_path,
        "e1",
        RESENT,
        players=players,
        day="2026/01/10",
        end="2026/01/12",
        title="Event One",
    )
    again = event_file(
        tmp_path, "e1_redated", RESENT, players=players, day="2026/01/24", end="2026/01/26",
        title="Event One",
    )  # fmt: skip
    when = "played 2026-01-10…2026-01-12; this file 2026-01-24…2026-01-26"
    if together:
        before = dump(db)
        code, _, err = run("add", first, again, "--db", db)
        expected = (
            f"Error: {again}: shares 3 of its 3 played games with {first} (in this add, {when}): "
            "the same results reported twice, with corrected dates?; --allow-overlap adds it "
            "anyway\n"
        )
    else:
        assert run("add", first, "--db", db)[0] == 0
        before = dump(db)
        code, _, err = run("add", again, "--db", db)
        expected = (
            f"Error: {again}: shares 3 of its 3 played games with the stored event e1 (file "
            f"{first}, period 2026-02, {when}): the same results reported twice, with corrected "
            "dates? If this is a corrected file, 'rating-batch remove e1' first; --allow-overlap "
            "adds it anyway\n"
        )
    assert (code, err) == (1, expected)
    assert dump(db) == before
    files = [first, again] if together else [again]
    assert run("add", *files, "--allow-overlap", "--db", db)[0] == 0
    assert query(db, "SELECT key FROM events ORDER BY key") == [("e1",), ("e1_redated",)]


def test_the_same_games_in_another_event_at_other_dates_are_another_match(
    tmp_path: Path,
) -> None:
    # Another name and dates that do not meet: two matches between the same players that
    # ended alike (a weekly club match), both added.
    db = database(tmp_path, "11,1600", "12,1500", "13,1400")
    players = [P(1, "A", 1600, 11, 1980), P(2, "B", 1500, 12, 1980), P(3, "C", 1400, 13, 1980)]
    week1 = event_file(tmp_path, "w1", RESENT, players=players, day="2026/01/10", title="Week 1")
    week2 = event_file(tmp_path, "w2", RESENT, players=players, day="2026/01/17", title="Week 2")
    assert run("add", week1, week2, "--db", db)[:3:2] == (0, "")
    assert query(db, "SELECT key FROM events ORDER BY key") == [("w1",), ("w2",)]


def test_overlap_can_be_accepted_deliberately(tmp_path: Path) -> None:
    db = database(tmp_path)
    first = event_file(tmp_path, "a", [(1, 1, 2, "1-0")], title="Match A")
    second = event_file(tmp_path, "b", [(1, 1, 2, "1-0")], title="Match B")
    code, _, err = run("add", first, second, "--allow-overlap", "--db", db)
    assert code == 0
    assert f"{second}: warning: shares 1 of its 1 played games with {first} (in this add)" in err


def test_a_dry_run_reports_everything_and_changes_nothing(tmp_path: Path) -> None:
    db = database(tmp_path)
    before = dump(db)
    late = event_file(tmp_path, "open", [(1, 1, 2, "1-0")])
    code, out, _ = run("add", late, "--dry-run", "--db", db)
    assert code == 0
    assert out.startswith(
        "would add open (open, 2026-01-10…2026-01-10): standard (no readable time control: "
        "--kind rapid or blitz for another list), period 2026-02"
    )
    assert out.endswith("dry run: nothing was changed\n")
    assert dump(db) == before
    assert not Path(f"{db}.backups").exists()


def test_add_of_an_empty_folder_says_add(tmp_path: Path) -> None:
    db = database(tmp_path)
    (tmp_path / "inbox").mkdir()
    code, _, err = run("add", tmp_path / "inbox", "--db", db)
    assert (code, err) == (1, "Error: add: no event files given (or none in the folders given)\n")


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


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    return tmp_path


def test_a_late_event_of_a_period_passed_over_by_skip_to_says_so(tmp_path: Path) -> None:
    db = database(tmp_path)
    assert run("publish", "2026-05", "--skip-to", "--db", db, "--out", tmp_path / "out")[0] == 0
    late = event_file(tmp_path, "late", [(1, 1, 2, "1-0")], day="2026/02/12")
    code, out, err = run("add", late, "--db", db)
    assert code == 0 and "period 2026-06" in out
    assert err == (
        f"{late}: warning: ended 2026-02-12, in period 2026-03, which a --skip-to left "
        "unpublished (the last published list is 2026-05): rated in 2026-06 (the next list)\n"
    )
    assert query(db, "SELECT key, period FROM events") == [("late", "2026-06")]


def test_with_an_initial_list_of_unknown_month_a_misdated_event_is_measured_against_today(
    tmp_path: Path,
) -> None:
    # 2006 typed for 2026: with no list month known, the event would make 2006-02 the first
    # list to publish. Twelve months from today's period is the bound, as from a list's.
    db = database(tmp_path, period=None)  # no --period, no FIDE header
    before = dump(db)
    typo = event_file(tmp_path, "typo", [(1, 1, 2, "1-0")], day="2006/01/10")
    code, out, err = run("add", typo, "--db", db)
    today = dt.date.today()
    assert (code, out) == (1, "")
    assert err == (
        f"Error: {typo}: ended 2006-01-10 (period 2006-02), more than 12 months before today "
        f"({today}), and the initial list's month is unknown: a typo in the year? "
        "(--accept-dates adds it anyway)\n"
    )
    assert dump(db) == before
    recent = today - dt.timedelta(days=40)
    event = event_file(tmp_path, "recent", [(1, 1, 2, "1-0")], day=recent.strftime("%Y/%m/%d"))
    code, out, err = run("add", event, "--db", db)
    assert (code, err) == (0, "") and out.startswith("added recent")
    code, _, err = run("add", typo, "--accept-dates", "--db", db)
    assert code == 0 and "a typo in the year?" in err


def test_an_event_without_a_time_control_is_said_to_go_to_the_standard_list(
    tmp_path: Path,
) -> None:
    # docs/rules.md §6: the list comes from the time control; without one, standard, said.
    db = database(tmp_path)
    notc = event_file(tmp_path, "notc", [(1, 1, 2, "1-0")], day="2026/01/10")
    timed = tmp_path / "timed.trf"
    timed.write_text(
        trf([P(1, "A", 1600, 11, ADULT), P(2, "B", 1500, 12, ADULT)], [(1, 2, 1, "=-=")],
            name="timed", start="2026/01/12", end="2026/01/12",
            extra=("122 90 min/40 moves + 30 min + 30 sec",))
    )  # fmt: skip
    code, out, err = run("add", notc, timed, "--db", db)
    assert (code, err) == (0, "")
    assert out.splitlines()[:2] == [
        "added notc (notc, 2026-01-10…2026-01-10): standard (no readable time control: --kind "
        "rapid or blitz for another list), period 2026-02, 2 players",
        "added timed (timed, 2026-01-12…2026-01-12): standard, period 2026-02, 2 players",
    ]
    assert query(db, "SELECT key, kind FROM events ORDER BY key") == [
        ("notc", "standard"), ("timed", "standard"),
    ]  # fmt: skip


# -- add --new-only: an inbox read again (docs/schedule.md §1) -------------------------------


def test_new_only_skips_stored_content_and_adds_the_rest(tmp_path: Path) -> None:
    db = database(tmp_path)
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    first = event_file(inbox, "first", [(1, 1, 2, "1-0")], day="2026/01/10")
    assert run("add", first, "--db", db)[0] == 0
    second = event_file(inbox, "second", [(1, 2, 1, "1-0")], day="2026/01/12")
    code, out, err = run("add", "--new-only", inbox, "--db", db)
    assert code == 0, err
    assert f"skipped {first}: already stored as first (period 2026-02)" in out
    assert "added second (" in out
    assert [key for (key,) in query(db, "SELECT key FROM events ORDER BY event_id")] == [
        "first", "second",
    ]  # fmt: skip
    # Read again with nothing new: both skipped, exit 0, the database not touched at all
    # (not even the undo journal).
    before = dump(db)
    code, out, err = run("add", "--new-only", inbox, "--db", db)
    assert code == 0, err
    assert out.splitlines() == [
        f"skipped {first}: already stored as first (period 2026-02)",
        f"skipped {second}: already stored as second (period 2026-02)",
        "nothing new to add",
    ]
    assert dump(db) == before


def test_without_new_only_stored_content_is_still_refused(tmp_path: Path) -> None:
    db = database(tmp_path)
    first = event_file(tmp_path, "first", [(1, 1, 2, "1-0")])
    assert run("add", first, "--db", db)[0] == 0
    before = dump(db)
    code, _, err = run("add", first, "--db", db)
    assert code == 1 and "already added as first" in err
    assert dump(db) == before
