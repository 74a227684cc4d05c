"""``month``: the month on a schedule (monthly/month.py, docs/schedule.md §3, §5, §6): a refused
file holds its period's list, quiet days are silent, ``--notify``, the log as the terminal."""

from __future__ import annotations

import contextlib
import os
import shlex
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from db_helpers import database, dump, event_file, process, query, run

from rating_batch.store import one_writer


def _inbox(folder: Path) -> Path:
    inbox = folder / "inbox"
    inbox.mkdir()
    event_file(inbox, "jan", [(1, 1, 2, "1-0")], day="2026/01/10")
    return inbox


def test_month_adds_and_publishes_then_a_second_run_changes_nothing(tmp_path: Path) -> None:
    db = database(tmp_path)  # the list of 2026-01
    inbox, out = _inbox(tmp_path), tmp_path / "lists"
    code, printed, err = run("month", inbox, "--today", "2026-02-03", "--db", db, "--out", out)
    assert code == 0, err
    assert "added jan (" in printed and "published 2026-02" in printed
    assert query(db, "SELECT key, period FROM events") == [("jan", "2026-02")]
    assert query(db, "SELECT period FROM lists WHERE origin = 'publish'") == [("2026-02",)]
    logs = sorted((out / "log").iterdir())
    assert len(logs) == 1 and logs[0].name.startswith("month-2026-02-03-")
    assert "published 2026-02" in logs[0].read_text(encoding="utf-8")
    # The same inbox the same day: the file is skipped, nothing is due, nothing changes.
    before = dump(db)
    code, printed, err = run("month", inbox, "--today", "2026-02-03", "--db", db, "--out", out)
    assert code == 0, err
    assert f"skipped {inbox / 'jan.trf'}: already stored as jan (period 2026-02)" in printed
    assert "nothing due on 2026-02-03: the next list, 2026-03, is dated 2026-03-01" in printed
    assert dump(db) == before
    assert len(list((out / "log").iterdir())) == 2


def test_a_broken_file_exits_1_on_every_run_and_the_others_go_in(tmp_path: Path) -> None:
    db = database(tmp_path)
    inbox, out = _inbox(tmp_path), tmp_path / "lists"
    (inbox / "broken.trf").write_text("012 A tournament without players\n", encoding="utf-8")
    code, printed, _ = run("month", inbox, "--today", "2026-01-20", "--db", db, "--out", out)
    assert code == 1
    assert "added jan (" in printed
    assert f"refused {inbox / 'broken.trf'}:" in printed
    assert query(db, "SELECT key FROM events") == [("jan",)]
    # Next run: the good file is skipped, the broken one named again, exit 1 again.
    code, printed, _ = run("month", inbox, "--today", "2026-01-20", "--db", db, "--out", out)
    assert code == 1
    assert f"refused {inbox / 'broken.trf'}:" in printed
    assert "skipped " in printed and query(db, "SELECT key FROM events") == [("jan",)]


@contextlib.contextmanager
def _held_by(db: Path, command: str) -> Iterator[None]:
    """The database's writers' lock held by ``command`` on another thread (as another
    process would hold it) until the block ends."""
    taken, done = threading.Event(), threading.Event()

    def hold() -> None:
        with one_writer(db.resolve(), Path(f"{db.resolve()}.writer"), command, 0):
            taken.set()
            done.wait(30)

    holder = threading.Thread(target=hold)
    holder.start()
    assert taken.wait(30)
    try:
        yield
    finally:
        done.set()
        holder.join()


def test_a_second_month_run_at_the_same_time_is_refused_and_does_nothing(tmp_path: Path) -> None:
    db = database(tmp_path)
    inbox, out = _inbox(tmp_path), tmp_path / "lists"
    before = dump(db)
    with _held_by(db, "month"):  # a first run holds the database's lock
        code, _, err = run("--wait", "0.3", "month", inbox, "--today", "2026-02-03",
                           "--db", db, "--out", out)  # fmt: skip
    assert code == 1
    assert "the database is busy: 'rating-batch month' (pid " in err
    assert "waited 0.3 s" in err and "nothing was done" in err
    assert dump(db) == before and not out.exists()


def test_a_command_waits_for_a_month_run_from_its_add_to_its_publish(tmp_path: Path) -> None:
    # The month's one lock: while a run holds it (between its add and its publish too), an
    # officer's command waits for it, and is refused when the wait runs out, naming the run.
    db = database(tmp_path)
    event = event_file(tmp_path, "feb", [(1, 1, 2, "1-0")], day="2026/01/20")
    before = dump(db)
    with _held_by(db, "month"):
        code, _, err = run("--wait", "0.3", "add", event, "--db", db)
    assert code == 1 and "the database is busy: 'rating-batch month' (pid " in err
    assert dump(db) == before
    assert not Path(f"{db}.writer").exists()  # the run said who held it, and stopped saying so
    assert run("add", event, "--db", db)[0] == 0  # the lock released, the command goes in


# -- a refused file holds its period (docs/schedule.md §5) ---------------------------------------


def _broken(folder: Path, name: str, day: str) -> Path:
    """An event whose one result is given to both players (12's line says it won too): it is
    read, with its dates, and refused by the checks."""
    path = event_file(folder, name, [(1, 1, 2, "1-0")], day=day)
    text = path.read_text(encoding="utf-8").replace("1 b 0", "1 b 1")
    path.write_text(text, encoding="utf-8")
    return path


def _refused(path: Path) -> str:
    """The line naming ``_broken(path)``: its first problem (its points, which disagree with
    its rounds, are the second: in the log)."""
    first = f"{path}:4: round 1: result '1' against 2, whose line 5 has '1'"
    return f"refused {path}: {first} (and 1 more: see the log)"


def _published(db: Path) -> list[tuple[object, ...]]:
    return query(db, "SELECT period FROM lists WHERE origin = 'publish' ORDER BY period")


def test_a_refused_file_holds_its_periods_list_until_it_is_fixed(tmp_path: Path) -> None:
    # officer review H1, with real processes: the list is not published without the file,
    # and the fixed file is rated on its own list, not a month late.
    db = database(tmp_path)  # the list of 2026-01
    inbox, out = _inbox(tmp_path), tmp_path / "lists"
    late = _broken(inbox, "late", "2026/01/12")
    month = ("month", inbox, "--today", "2026-02-03", "--db", db, "--out", out)
    code, printed, err = process(*month)
    assert code == 1, err
    lines = printed.splitlines()
    assert lines[0] == _refused(late)
    assert lines[1] == f"2026-02 not published: 1 file of its period refused: {late}"
    assert lines[-1] == "added 1, skipped 0, refused 1; 2026-02 held"
    assert query(db, "SELECT key, period FROM events") == [("jan", "2026-02")]
    assert _published(db) == [] and sorted(p.name for p in out.iterdir()) == ["log"]
    [log] = (out / "log").iterdir()  # every problem, the hold, the tally
    assert log.read_text(encoding="utf-8").splitlines()[1:4] == [
        _refused(late).removesuffix(" (and 1 more: see the log)"),
        f"  {late}:5: warning: declared points 0 but the rounds give 1",
        lines[1],
    ]
    assert log.read_text(encoding="utf-8").splitlines()[-1] == lines[-1]
    # Again, unfixed: held again, and nothing at all changes.
    before = dump(db)
    code, printed, _ = process(*month)
    assert code == 1
    assert f"2026-02 not published: 1 file of its period refused: {late}" in printed.splitlines()
    assert dump(db) == before and sorted(p.name for p in out.iterdir()) == ["log"]
    # Fixed: the next run adds it to its own period and publishes the list with it.
    event_file(inbox, "late", [(1, 1, 2, "1-0")], day="2026/01/12")
    code, printed, err = process(*month)
    assert code == 0, printed + err
    assert printed.splitlines()[-1] == "added 1, skipped 1, refused 0; published 2026-02"
    assert query(db, "SELECT key, period FROM events ORDER BY key") == [
        ("jan", "2026-02"),
        ("late", "2026-02"),
    ]
    assert _published(db) == [("2026-02",)]
    assert (out / "2026-02" / "standard" / "events" / "late.html").is_file()


def test_a_refused_file_of_a_later_period_holds_that_list_only(tmp_path: Path) -> None:
    db = database(tmp_path)
    inbox, out = _inbox(tmp_path), tmp_path / "lists"
    march = _broken(inbox, "march", "2026/02/10")  # ends in February: the list of 2026-03
    code, printed, _ = run("month", inbox, "--today", "2026-02-12", "--db", db, "--out", out)
    assert code == 1
    assert "not published" not in printed
    assert printed.splitlines()[-1] == "added 1, skipped 0, refused 1; published 2026-02"
    assert _published(db) == [("2026-02",)]
    # March's list is due: held for it.
    before = dump(db)
    code, printed, _ = run("month", inbox, "--today", "2026-03-02", "--db", db, "--out", out)
    assert code == 1
    assert f"2026-03 not published: 1 file of its period refused: {march}" in printed
    assert printed.splitlines()[-1] == "added 0, skipped 1, refused 1; 2026-03 held"
    assert dump(db) == before and not (out / "2026-03").exists()


def test_a_file_whose_period_cannot_be_told_holds_every_list_due(tmp_path: Path) -> None:
    # Not a tournament file, or one dated ten years ahead (a typo): it may be of any list.
    db = database(tmp_path)
    inbox, out = _inbox(tmp_path), tmp_path / "lists"
    mail = inbox / "mail.txt"
    mail.write_text("Dear officer, the results follow next week.\n", encoding="utf-8")
    typo = event_file(inbox, "typo", [(1, 1, 2, "1-0")], day="2036/01/12")
    code, printed, _ = run("month", inbox, "--today", "2026-03-02", "--db", db, "--out", out)
    assert code == 1
    lines = printed.splitlines()
    assert [line.split(":")[0] for line in lines[:2]] == [f"refused {mail}", f"refused {typo}"]
    assert lines[2] == (
        "2026-02 not published: 2 files refused whose period cannot be told (it may be of any "
        f"list): {mail}, {typo}"
    )
    assert lines[-1] == "added 1, skipped 0, refused 2; 2026-02 held"
    assert _published(db) == [] and not (out / "2026-02").exists()


def test_publish_despite_refusals_publishes_the_list_and_says_so(tmp_path: Path) -> None:
    db = database(tmp_path)
    inbox, out = _inbox(tmp_path), tmp_path / "lists"
    late = _broken(inbox, "late", "2026/01/12")
    code, printed, _ = run("month", inbox, "--today", "2026-02-03", "--db", db, "--out", out,
                           "--publish-despite-refusals")  # fmt: skip
    assert code == 1  # the file is still refused
    lines = printed.splitlines()
    assert lines[1] == f"2026-02 published despite 1 file of its period refused: {late}"
    assert lines[-1] == "added 1, skipped 0, refused 1; published 2026-02"
    assert _published(db) == [("2026-02",)]
    assert (out / "2026-02" / "standard" / "list.csv").is_file()


# -- quiet days are silent; the report comes first and the tally last ----------------------------


def test_with_q_a_quiet_day_prints_nothing_and_a_refusal_prints_the_report(
    tmp_path: Path,
) -> None:
    # officer review H7, with real processes: cron's MAILTO mails exactly on trouble.
    db = database(tmp_path)
    inbox, out = _inbox(tmp_path), tmp_path / "lists"
    assert run("month", inbox, "--today", "2026-02-03", "--db", db, "--out", out)[0] == 0
    quiet = ("-q", "month", inbox, "--db", db, "--out", out, "--today")
    assert process(*quiet, "2026-02-04") == (0, "", "")
    # A file arrives broken; it ended in January, whose list is out: it is the next list's.
    late = _broken(inbox, "late", "2026/01/12")
    code, printed, err = process(*quiet, "2026-02-05")
    assert (code, err) == (1, "")
    lines = printed.splitlines()
    assert len(lines) == 3 and lines[0] == _refused(late)
    assert lines[1].startswith(f"log: {out / 'log' / 'month-2026-02-05-'}")
    assert lines[2] == "added 0, skipped 1, refused 1; nothing due"
    code, printed, err = process(*quiet, "2026-03-02")
    assert (code, err) == (1, "")
    assert printed.splitlines()[1] == f"2026-03 not published: 1 file of its period refused: {late}"
    assert printed.splitlines()[-1] == "added 0, skipped 1, refused 1; 2026-03 held"
    assert _published(db) == [("2026-02",)] and not (out / "2026-03").exists()


def test_without_q_the_refusals_come_first_and_a_tally_ends_the_output(tmp_path: Path) -> None:
    db = database(tmp_path)
    inbox, out = _inbox(tmp_path), tmp_path / "lists"
    event_file(inbox, "feb", [(1, 1, 2, "=-=")], day="2026/01/20")
    late = _broken(inbox, "late", "2026/01/12")
    mail = inbox / "mail.txt"
    mail.write_text("see you\n", encoding="utf-8")
    code, printed, _ = run("month", inbox, "--today", "2026-01-25", "--db", db, "--out", out)
    assert code == 1
    lines = printed.splitlines()
    assert [line.split(":")[0] for line in lines[:2]] == [f"refused {late}", f"refused {mail}"]
    assert lines[2].startswith("added feb (")
    # One add for the files that go in: one line each, one way back, nothing contradicting.
    assert sum(line.startswith("'rating-batch restore latest'") for line in lines) == 1
    assert "nothing new to add" not in printed
    assert lines[-1] == "added 2, skipped 0, refused 2; nothing due"
    assert _published(db) == []


# -- --notify COMMAND --------------------------------------------------------------------------


def _shell(*words: str) -> str:
    """A shell command line of ``words`` (``cmd`` on Windows, ``sh`` elsewhere)."""
    return subprocess.list2cmdline(words) if os.name == "nt" else shlex.join(words)


def _writes_stdin_to(path: Path, status: int = 0) -> str:
    """A command that writes its standard input to ``path``, then exits with ``status``."""
    code = (
        "import sys; open(sys.argv[1], 'wb').write(sys.stdin.buffer.read()); "
        "sys.exit(int(sys.argv[2]))"
    )
    return _shell(sys.executable, "-c", code, str(path), str(status))


def test_notify_gets_the_report_when_a_file_is_refused_and_only_then(tmp_path: Path) -> None:
    db = database(tmp_path)
    inbox, out, mail = _inbox(tmp_path), tmp_path / "lists", tmp_path / "mail.txt"
    notify = ("--notify", _writes_stdin_to(mail))
    code, _, err = run("month", inbox, "--today", "2026-02-03", "--db", db, "--out", out, *notify)
    assert code == 0, err
    assert not mail.exists()  # a good day: no mail
    late = _broken(inbox, "late", "2026/01/12")
    code, printed, _ = run("-q", "month", inbox, "--today", "2026-03-02", "--db", db,
                           "--out", out, *notify)  # fmt: skip
    assert code == 1
    sent = mail.read_text(encoding="utf-8").splitlines()
    assert sent == printed.splitlines()  # what -q prints
    assert sent[0] == _refused(late)
    assert sent[1] == f"2026-03 not published: 1 file of its period refused: {late}"
    assert sent[-1] == "added 0, skipped 1, refused 1; 2026-03 held"
    assert _published(db) == [("2026-02",)] and not (out / "2026-03").exists()


def test_a_notify_command_that_fails_is_reported_and_the_log_kept(tmp_path: Path) -> None:
    db = database(tmp_path)
    inbox, out, mail = _inbox(tmp_path), tmp_path / "lists", tmp_path / "mail.txt"
    _broken(inbox, "late", "2026/01/12")
    command = _writes_stdin_to(mail, status=3)
    code, printed, _ = run("-q", "month", inbox, "--today", "2026-02-03", "--db", db,
                           "--out", out, "--notify", command)  # fmt: skip
    assert code == 1
    failed = f"notify failed: {command!r} exited with status 3"
    assert failed in printed.splitlines()
    assert mail.read_text(encoding="utf-8").splitlines()[-1].endswith("2026-02 held")
    [log] = (out / "log").iterdir()
    text = log.read_text(encoding="utf-8").splitlines()
    assert text[-1] == failed and "added 1, skipped 0, refused 1; 2026-02 held" in text
    assert _published(db) == []


# -- the log names files as the terminal does ----------------------------------------------------


@pytest.mark.skipif(os.name == "nt", reason="Windows names hold no control characters")
def test_the_log_names_a_refused_file_as_the_terminal_does(tmp_path: Path) -> None:
    # attack review R4-22, with a real process: an escape sequence and a bidi control in a
    # file's name reach neither the terminal nor the log.
    db = database(tmp_path)
    inbox, out = _inbox(tmp_path), tmp_path / "lists"
    (inbox / "x\x1b]0;PWN\x07\u202e.trf").write_text("junk\n", encoding="utf-8")
    shown = f"{inbox}/x<U+001B>]0;PWN<U+0007><U+202E>.trf"
    code, printed, _ = process("month", inbox, "--today", "2026-01-20", "--db", db, "--out", out)
    assert code == 1
    [log] = (out / "log").iterdir()
    text = log.read_text(encoding="utf-8")
    for seen in (printed, text):
        assert f"refused {shown}: {shown}" in seen
        assert not {"\x1b", "\x07", "\u202e"} & set(seen)
    assert _published(db) == [] and sorted(p.name for p in out.iterdir()) == ["log"]


@pytest.mark.skipif(os.name == "nt", reason="Windows names hold no line breaks")
def test_a_line_break_in_a_files_name_forges_no_line(tmp_path: Path) -> None:
    """A name holding a line break and a made-up summary stays on its one line, in the log
    as on the terminal."""
    db = database(tmp_path)
    inbox, out = _inbox(tmp_path), tmp_path / "lists"
    forged = "added 1, skipped 0, refused 0; published 2026-01"
    (inbox / f"x\n{forged}.trf").write_text("junk\n", encoding="utf-8")
    code, printed, _ = process("month", inbox, "--today", "2026-01-20", "--db", db, "--out", out)
    assert code == 1
    [log] = (out / "log").iterdir()
    for seen in (printed, log.read_text(encoding="utf-8")):
        assert f"refused {inbox}/x<U+000A>{forged}.trf: " in seen
        assert not [line for line in seen.splitlines() if line.startswith(forged)]


def test_notify_is_told_when_the_run_cannot_start(tmp_path: Path) -> None:
    db = database(tmp_path)
    inbox, out, mail = _inbox(tmp_path), tmp_path / "lists", tmp_path / "mail.txt"
    before = dump(db)
    notify = ("--notify", _writes_stdin_to(mail))
    with _held_by(db, "month"):  # another run holds the database
        code, printed, err = run("--wait", "0.3", "-q", "month", inbox, "--today", "2026-02-03",
                                 "--db", db, "--out", out, *notify)  # fmt: skip
    assert (code, printed) == (1, "")
    assert err.startswith(f"Error: {db}: the database is busy: 'rating-batch month' (pid ")
    error = err.removeprefix("Error: ").rstrip("\n")
    assert mail.read_text(encoding="utf-8").splitlines() == [f"month failed: {error}"]
    assert dump(db) == before and not out.exists()


def test_a_bug_in_month_is_told_to_notify_before_its_traceback(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A scheduled run that meets an error it does not know still reaches the officer."""
    from rating_batch.monthly import month

    def broken(*args: object, **kwargs: object) -> None:
        raise TypeError("a bug")

    monkeypatch.setattr(month, "_month", broken)
    db = database(tmp_path)
    mail = tmp_path / "mail.txt"
    options = month.MonthOptions(today=None, notify=_writes_stdin_to(mail))
    with pytest.raises(TypeError, match="a bug"):
        month.run_month([_inbox(tmp_path)], db=db, out=tmp_path / "lists", options=options)
    assert mail.read_text(encoding="utf-8").splitlines() == [
        "month failed: an error rating_batch does not know (a bug): TypeError('a bug')"
    ]
