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


SCHEMA_7 = Path(__file__).parent.parent / "data" / "db" / "schema-7.sqlite"


def test_the_newest_copy_from_before_an_upgrade_is_kept_like_one_the_journal_names(
    tmp_path: Path,
) -> None:
    import shutil

    db = tmp_path / "old.sqlite"
    shutil.copyfile(SCHEMA_7, db)
    shutil.copytree(f"{SCHEMA_7}.files", f"{db}.files")
    # The copies an older version saved before each of its commands (named as it named them).
    backups = Path(f"{db}.backups")
    backups.mkdir()
    older = [backups / f"2026110{day}T100000.000000Z-add.sqlite" for day in (1, 2)]
    for path in older:
        shutil.copyfile(SCHEMA_7, path)
    code, out, err = run("upgrade", "--db", db)
    assert code == 0, err
    (before,) = backups.glob("*-before-upgrade.sqlite")
    assert f"the database before the upgrade is saved whole as {before.name}" in out
    kept = before.read_bytes()
    for _ in range(7):  # more than the 5 kept by default, and more than 3 times the database
        assert run("-q", "backup", "--db", db)[0] == 0
    names = [path.name for path in copies(db)]
    assert before.name in names and before.read_bytes() == kept
    assert names[-1].endswith("-backup.sqlite")  # the newest always
    # The older version's copies are whole copies like any other: the oldest go first.
    assert not any(path.exists() for path in older)
    code, out, _ = run("backups", "--db", db)
    assert code == 0 and f"  {before.name}  " in out
