"""Whole copies (store/copies.py): one self-contained file each, kept by count and by size,
taken when the officer asks and before an upgrade or a restore of a whole copy."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from db_helpers import data_dump, database, event_file, run


def copies(db: Path) -> list[Path]:
    return sorted(Path(f"{db}.backups").glob("*.sqlite"))


def test_backup_saves_the_database_whole_in_one_file(tmp_path: Path) -> None:
    db = database(tmp_path)
    assert run("add", event_file(tmp_path, "jan", [(1, 1, 2, "1-0")]), "--db", db)[0] == 0
    code, out, err = run("backup", "--db", db)
    assert code == 0, err
    (saved,) = copies(db)
    assert saved.name.endswith("Z-backup.sqlite")
    assert out.startswith(f"saved a whole copy of {db} as {saved} (")
    assert data_dump(saved) == data_dump(db)
    assert saved.read_bytes()[18:20] == b"\x01\x01"  # rollback journal: one file of its own
    code, out, _ = run("backups", "--db", db)
    assert code == 0 and f"  {saved.name}  " in out and "last list 2026-01, 1 event(s)" in out


def test_only_the_newest_are_kept_and_nothing_else_is_removed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("RATING_BATCH_BACKUPS", "2")
    db = database(tmp_path)
    for _ in range(3):
        assert run("backup", "--db", db)[0] == 0
    notes = Path(f"{db}.backups") / "my-notes.txt"
    notes.write_text("the officer's own file")
    taken = copies(db)
    assert run("backup", "--db", db)[0] == 0
    assert copies(db)[:1] == taken[1:2] and len(copies(db)) == 2
    assert notes.read_text() == "the officer's own file"


def test_the_copies_together_stay_within_their_space(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = database(tmp_path)
    monkeypatch.setenv("RATING_BATCH_BACKUP_SPACE", "2.5x")
    for _ in range(4):
        assert run("backup", "--db", db)[0] == 0
    assert len(copies(db)) == 2  # two copies of the database's size fit, three do not
    monkeypatch.setenv("RATING_BATCH_BACKUP_SPACE", "1x")
    assert run("backup", "--db", db)[0] == 0
    assert len(copies(db)) == 1  # room for one: the newest is always kept


def test_a_copy_after_the_commands_the_officer_chose(tmp_path: Path) -> None:
    db = database(tmp_path)
    code, out, _ = run("backup", "--after", "publish", "--db", db)
    assert code == 0 and out.startswith("a whole copy will be taken after every publish")
    assert run("add", event_file(tmp_path, "jan", [(1, 1, 2, "1-0")]), "--db", db)[0] == 0
    assert len(copies(db)) == 1  # the one just taken; none after the add
    code, out, _ = run("publish", "2026-02", "--db", db, "--out", tmp_path / "out")
    assert code == 0
    after = [p for p in copies(db) if p.name.endswith("-after-publish-2026-02.sqlite")]
    assert len(after) == 1 and f"a whole copy of the database is saved as {after[0].name}" in out
    assert data_dump(after[0]) == data_dump(db)
    assert run("backup", "--after", "none", "--db", db)[0] == 0
    assert run("unpublish", "2026-02", "--db", db)[0] == 0
    assert run("publish", "2026-02", "--db", db, "--out", tmp_path / "again")[0] == 0
    assert len([p for p in copies(db) if "-after-" in p.name]) == 1


def test_a_copy_that_cannot_be_saved_leaves_no_file(tmp_path: Path) -> None:
    db = database(tmp_path)
    Path(f"{db}.backups").write_text("a file in the way")
    code, _, err = run("backup", "--db", db)
    assert code == 1 and "cannot save a whole copy in" in err
    assert Path(f"{db}.backups").read_text() == "a file in the way"
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "list.csv",
        "r.sqlite",
        "r.sqlite.backups",
    ]


def test_a_copy_is_taken_as_committed_whatever_the_command_is_writing(tmp_path: Path) -> None:
    db = database(tmp_path)
    committed = data_dump(db)
    writer = sqlite3.connect(db, isolation_level=None)
    writer.execute("BEGIN IMMEDIATE")
    writer.execute("UPDATE players SET name = 'Uncommitted' WHERE fide_id = 11")
    assert run("backup", "--db", db)[0] == 0
    writer.execute("ROLLBACK")
    writer.close()
    (saved,) = copies(db)
    assert data_dump(saved) == committed
