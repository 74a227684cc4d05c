"""``month``: the month on a schedule (monthly/month.py, docs/schedule.md §3)."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator
from pathlib import Path

from db_helpers import database, dump, event_file, query, run

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
