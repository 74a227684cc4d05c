"""``month``'s inbox (monthly/inbox.py, docs/schedule.md §4): its subfolders are read, hidden
folders and the database's own are not, and an ``--out`` inside it is refused."""

from __future__ import annotations

from pathlib import Path

from db_helpers import database, dump, event_file, process, query, run


def test_the_subfolders_of_the_inbox_are_read(tmp_path: Path) -> None:
    # officer review M13, with a real process: an inbox filed by month and by club.
    db = database(tmp_path)
    inbox, out = tmp_path / "inbox", tmp_path / "lists"
    for folder in ("2026-01", "clubs/rook"):
        (inbox / folder).mkdir(parents=True)
    event_file(inbox / "2026-01", "jan", [(1, 1, 2, "1-0")], day="2026/01/10")
    event_file(inbox / "clubs" / "rook", "rook", [(1, 1, 2, "=-=")], day="2026/01/20")
    code, printed, err = process("month", inbox, "--today", "2026-02-03", "--db", db, "--out", out)
    assert code == 0, printed + err
    assert query(db, "SELECT key, source FROM events ORDER BY key") == [
        ("jan", str(inbox / "2026-01" / "jan.trf")),
        ("rook", str(inbox / "clubs" / "rook" / "rook.trf")),
    ]
    assert printed.splitlines()[-1] == "added 2, skipped 0, refused 0; published 2026-02"


def test_hidden_folders_and_files_of_the_inbox_are_not_read(tmp_path: Path) -> None:
    db = database(tmp_path)
    inbox, out = tmp_path / "inbox", tmp_path / "lists"
    (inbox / ".trash").mkdir(parents=True)
    event_file(inbox, "jan", [(1, 1, 2, "1-0")], day="2026/01/10")
    event_file(inbox / ".trash", "old", [(1, 1, 2, "0-1")], day="2026/01/11")
    (inbox / "._jan.trf").write_bytes(b"\x00\x05\x16\x07Mac OS X")
    code, printed, err = run("month", inbox, "--today", "2026-01-20", "--db", db, "--out", out)
    assert code == 0, printed + err
    assert query(db, "SELECT key FROM events") == [("jan",)]


def test_an_out_inside_the_inbox_is_refused_and_nothing_is_done(tmp_path: Path) -> None:
    # Its lists and logs would be read back as events on the next run.
    db = database(tmp_path)
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    event_file(inbox, "jan", [(1, 1, 2, "1-0")], day="2026/01/10")
    before = dump(db)
    out = inbox / "lists"
    code, printed, err = run("month", inbox, "--today", "2026-02-03", "--db", db, "--out", out)
    assert (code, printed) == (1, "")
    assert err == (
        f"Error: --out {out} is inside the input folder {inbox}: the outputs would lie among "
        f"the inputs; choose another folder (e.g. --out {tmp_path / 'inbox-out'})\n"
    )
    assert dump(db) == before and not out.exists()


def test_the_database_and_its_folders_in_the_inbox_are_never_read(tmp_path: Path) -> None:
    # An inbox that is the database's folder: the desk's uploads (<db>.inbox/, kept while
    # they are checked) and the stored files are the tool's own, not the officer's events.
    inbox, out = tmp_path / "ratings", tmp_path / "lists"
    inbox.mkdir()
    db = database(inbox)
    (inbox / "list.csv").unlink()  # the list it was made from (a list in a folder of events)
    event_file(inbox, "jan", [(1, 1, 2, "1-0")], day="2026/01/10")
    upload = inbox / "r.sqlite.inbox" / ("0" * 64)
    upload.mkdir(parents=True)
    event_file(upload, "checked", [(1, 1, 2, "0-1")], day="2026/01/11")
    month = ("month", inbox, "--db", db, "--out", out, "--today", "2026-02-03")
    code, printed, err = run(*month)
    assert code == 0, printed + err
    assert query(db, "SELECT key FROM events") == [("jan",)]
    assert (inbox / "r.sqlite.files").is_dir()  # the published files, kept beside it
    assert run("-q", *month) == (0, "", "")
