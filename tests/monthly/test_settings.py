"""The settings read from the environment (rating_batch/settings.py): a value that makes no
sense is refused, naming the variable, before any command changes anything; one that makes
the journal forget commands is said."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from db_helpers import (
    COMMAND,
    companions,
    database,
    dump,
    event_file,
    process,
    query,
    run,
)

from rating_batch.settings import backup_space, copies_kept, undo_kept

UNDO_ACCEPTED = (
    "not a whole number from 1 to 100,000 (how many commands can be undone; default 100); "
    "set it to such a value, or unset it for the default (nothing was changed)"
)
BACKUPS_ACCEPTED = (
    "not a whole number from 1 to 10,000 (how many whole copies are kept; default 5); "
    "set it to such a value, or unset it for the default (nothing was changed)"
)
SPACE_ACCEPTED = (
    "not a size from 1M to 1000T (a number with k, M, G or T: 20G) or a number of times the "
    "database from 1x to 1000x (5x; default 3x); set it to such a value, or unset it for the "
    "default (nothing was changed)"
)


def journal(db: Path) -> list[tuple[object, ...]]:
    return query(db, "SELECT command_id, label FROM undo_commands ORDER BY command_id")


@pytest.mark.parametrize(
    "value", ["0", "-1", "abc", "2.5", "10O", "100001", "99999999999999999999"]
)
def test_an_undo_setting_that_makes_no_sense_is_refused_before_anything_changes(
    tmp_path: Path, value: str
) -> None:
    folder = tmp_path
    db = database(folder)
    for day in ("05", "12"):
        event = event_file(folder, f"e{day}", [(1, 1, 2, "1-0")], day=f"2026/01/{day}")
        assert run("add", event, "--db", db)[0] == 0
    before, beside = dump(db), companions(db)
    code, out, err = run(
        "edit-player", "11", "--birth-year", "1981", "--db", db, env={"RATING_BATCH_UNDO": value}
    )
    assert (code, out) == (1, "")
    assert err == f"Error: $RATING_BATCH_UNDO is {value!r}, {UNDO_ACCEPTED}\n"
    assert dump(db) == before  # the journal's two commands too
    assert companions(db) == beside
    assert [label for _, label in journal(db)] == ["add", "add"]


@pytest.mark.parametrize(
    ("name", "value", "accepted"),
    [
        ("RATING_BATCH_BACKUPS", "0", BACKUPS_ACCEPTED),
        ("RATING_BATCH_BACKUPS", "-1", BACKUPS_ACCEPTED),
        ("RATING_BATCH_BACKUPS", "abc", BACKUPS_ACCEPTED),
        ("RATING_BATCH_BACKUP_SPACE", "0", SPACE_ACCEPTED),
        ("RATING_BATCH_BACKUP_SPACE", "0x", SPACE_ACCEPTED),
        ("RATING_BATCH_BACKUP_SPACE", "1k", SPACE_ACCEPTED),
        ("RATING_BATCH_BACKUP_SPACE", "-5x", SPACE_ACCEPTED),
        ("RATING_BATCH_BACKUP_SPACE", "abc", SPACE_ACCEPTED),
        ("RATING_BATCH_BACKUP_SPACE", "b", SPACE_ACCEPTED),
    ],
)
def test_a_copies_setting_that_makes_no_sense_removes_no_copy(
    tmp_path: Path, name: str, value: str, accepted: str
) -> None:
    db = database(tmp_path)
    for _ in range(3):
        assert run("-q", "backup", "--db", db)[0] == 0
    before, beside = dump(db), companions(db)
    assert len([p for p in beside if p.endswith("-backup.sqlite")]) == 3
    code, out, err = run("backup", "--db", db, env={name: value})
    assert (code, out) == (1, "")
    assert err == f"Error: ${name} is {value!r}, {accepted}\n"
    assert dump(db) == before
    assert companions(db) == beside  # no copy taken, none removed


def test_the_desk_refuses_a_setting_that_makes_no_sense_before_it_serves(
    tmp_path: Path,
) -> None:
    db = database(tmp_path)
    before = dump(db)
    done = subprocess.run(
        [*COMMAND, "serve", "--db", str(db), "--out", str(tmp_path / "out")],
        capture_output=True,
        text=True,
        env={**os.environ, "RATING_BATCH_UNDO": "-1"},
        timeout=60,
    )
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr == f"Error: $RATING_BATCH_UNDO is '-1', {UNDO_ACCEPTED}\n"
    assert dump(db) == before


def test_a_command_that_makes_the_journal_forget_commands_says_which(tmp_path: Path) -> None:
    folder = tmp_path
    db = database(folder)
    for day in ("05", "12"):
        event = event_file(folder, f"e{day}", [(1, 1, 2, "1-0")], day=f"2026/01/{day}")
        assert run("add", event, "--db", db)[0] == 0
    code, out, err = process(
        "edit-player", "11", "--birth-year", "1981", "--db", db, env={"RATING_BATCH_UNDO": "1"}
    )
    # Beside the journal entry, among what the command says (so in a month's log and on
    # the desk's page too).
    assert (code, err) == (0, "")
    assert out.splitlines()[-2:] == [
        "'rating-batch restore latest' takes it back (journal entry 3)",
        f"{db}: the undo journal forgot commands 1–2 (add, add): it keeps the newest 1 "
        "($RATING_BATCH_UNDO=1)",
    ]
    assert journal(db) == [(3, "edit-player 11")]
    code, out, err = process(
        "edit-player", "12", "--birth-year", "1982", "--db", db, env={"RATING_BATCH_UNDO": "2"}
    )
    assert (code, err) == (0, "") and "forgot" not in out  # two kept: nothing forgotten
    assert [number for number, _ in journal(db)] == [3, 4]


def test_accepted_values(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("RATING_BATCH_UNDO", "RATING_BATCH_BACKUPS", "RATING_BATCH_BACKUP_SPACE"):
        monkeypatch.delenv(name, raising=False)
    assert (undo_kept(), copies_kept(), backup_space(1000)) == (100, 5, 3000)
    monkeypatch.setenv("RATING_BATCH_UNDO", " +7 ")
    monkeypatch.setenv("RATING_BATCH_BACKUPS", "")  # empty: the default, as unset
    assert (undo_kept(), copies_kept()) == (7, 5)
    for text, bytes_ in [("2.5x", 2500), ("1x", 1000), ("20G", 20 * 10**9), ("1.5MB", 1_500_000)]:
        monkeypatch.setenv("RATING_BATCH_BACKUP_SPACE", text)
        assert backup_space(1000) == bytes_, text


def test_a_bad_serial_setting_is_refused_too() -> None:
    code, out, err = run("rules", env={"RATING_BATCH_SERIAL": "yes"})
    assert (code, out) == (1, "")
    assert err == (
        "Error: $RATING_BATCH_SERIAL is 'yes', not 1 (work in one process) or 0 (the "
        "default); set it to such a value, or unset it for the default (nothing was changed)\n"
    )


def test_a_commands_help_is_shown_whatever_the_settings(tmp_path: Path) -> None:
    """--help changes nothing, and is where the officer reads what to set; the command
    itself is still refused."""
    env = {"RATING_BATCH_UNDO": "0"}
    code, out, err = run("backup", "--help", env=env)
    assert (code, err) == (0, "")
    assert out.startswith("Usage: cli backup [OPTIONS]")  # click names the program "cli" here
    code, out, err = run("backup", "--db", tmp_path / "db.sqlite", env=env)
    assert (code, out) == (1, "")
    assert err == f"Error: $RATING_BATCH_UNDO is '0', {UNDO_ACCEPTED}\n"
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize("given", [("--wait", "nan"), ("--wait", "NaN")])
def test_a_wait_that_is_no_number_is_refused(given: tuple[str, str], tmp_path: Path) -> None:
    """A NaN passed the range check, and a busy database was then waited for, for ever."""
    db = database(tmp_path)
    before = dump(db)
    code, _, err = run(*given, "edit-player", "11", "--birth-year", "1981", "--db", db)
    assert code == 2
    assert "nan is no number of seconds (0 or more; inf waits for ever)" in err
    code, _, err = run(
        "edit-player", "11", "--birth-year", "1981", "--db", db, env={"RATING_BATCH_WAIT": "nan"}
    )
    assert code == 2 and "nan is no number of seconds" in err
    assert dump(db) == before


def test_the_month_log_and_the_desk_say_what_the_journal_forgot(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A scheduled month (its log is what the officer reads) and a desk page say it as the
    terminal does."""
    from desk_helpers import desk, said, send

    db = database(tmp_path)
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    event_file(inbox, "jan", [(1, 1, 2, "1-0")], day="2026/01/10")
    code, _, _ = process(
        "-q", "month", inbox, "--today", "2026-01-20", "--db", db, "--out", tmp_path / "out",
        env={"RATING_BATCH_UNDO": "1"},
    )  # fmt: skip
    assert code == 0
    event_file(inbox, "jan2", [(1, 2, 1, "1-0")], day="2026/01/12")
    code, _, _ = process(
        "-q", "month", inbox, "--today", "2026-01-21", "--db", db, "--out", tmp_path / "out",
        env={"RATING_BATCH_UNDO": "1"},
    )  # fmt: skip
    assert code == 0
    [log] = (tmp_path / "out" / "log").glob("month-2026-01-21-*.log")
    assert "the undo journal forgot command 1 (add): it keeps the newest 1" in log.read_text(
        encoding="utf-8"
    )
    monkeypatch.setenv("RATING_BATCH_UNDO", "1")
    page = send(desk(db, tmp_path / "out"), event_file(tmp_path, "jan3", [(1, 1, 2, "=-=")]))
    assert "the undo journal forgot command 2 (add)" in said(page.text)
