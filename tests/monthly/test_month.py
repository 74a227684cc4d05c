"""``month``: the month on a schedule (monthly/month.py, docs/schedule.md §3)."""

from __future__ import annotations

from pathlib import Path

from db_helpers import database, dump, event_file, query, run


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


def test_a_second_month_run_at_the_same_time_is_refused_and_does_nothing(tmp_path: Path) -> None:
    import fcntl

    db = database(tmp_path)
    inbox, out = _inbox(tmp_path), tmp_path / "lists"
    before = dump(db)
    with db.open("rb") as running:  # a first run holds the database's month lock
        fcntl.flock(running, fcntl.LOCK_EX | fcntl.LOCK_NB)
        code, _, err = run("month", inbox, "--today", "2026-02-03", "--db", db, "--out", out)
    assert code == 1 and "another month run is working on this database" in err
    assert dump(db) == before and not out.exists()
