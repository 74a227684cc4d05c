"""Backups (store/backups.py): one before every command that writes, the newest kept,
listed, restored exactly; a damaged database is moved aside, never deleted."""

from __future__ import annotations

from pathlib import Path

import pytest
from db_helpers import database, dump, event_file, run

from rating_batch.store import list_backups


def backups(db: Path) -> list[Path]:
    return sorted(Path(f"{db}.backups").glob("*.sqlite"))


def test_each_writing_command_saves_the_state_before_it(tmp_path: Path) -> None:
    db = database(tmp_path)
    assert backups(db) == []  # init: there was nothing before
    before_add = dump(db)
    assert run("add", event_file(tmp_path, "open", [(1, 1, 2, "1-0")]), "--db", db)[0] == 0
    before_publish = dump(db)
    assert run("publish", "2026-02", "--db", db, "--out", tmp_path / "out")[0] == 0
    saved = backups(db)
    assert [p.name.split("Z-")[1] for p in saved] == ["add.sqlite", "publish-2026-02.sqlite"]
    assert [dump(p) for p in saved] == [before_add, before_publish]
    assert saved[0].read_bytes()[18:20] == b"\x01\x01"  # one self-contained file


def test_read_only_commands_and_dry_runs_save_none(tmp_path: Path) -> None:
    db = database(tmp_path)
    event = event_file(tmp_path, "open", [(1, 1, 2, "1-0")])
    assert run("add", event, "--dry-run", "--db", db)[0] == 0
    assert run("player", "11", "--db", db)[0] == 0
    assert run("export-list", "initial", "--db", db, "--out", tmp_path / "out")[0] == 0
    assert backups(db) == []


def test_only_the_newest_are_kept(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RATING_BATCH_BACKUPS", "2")
    db = database(tmp_path)
    for day in ("05", "12", "19"):
        event = event_file(tmp_path, f"e{day}", [(1, 1, 2, "1-0")], day=f"2026/01/{day}")
        assert run("add", event, "--db", db)[0] == 0
    (Path(f"{db}.backups") / "my-notes.txt").write_text("the officer's own file")
    assert (
        run("add", event_file(tmp_path, "e26", [(1, 2, 1, "1-0")], day="2026/01/26"), "--db", db)[0]
        == 0
    )
    assert len(backups(db)) == 2
    assert (Path(f"{db}.backups") / "my-notes.txt").exists()  # only our backups are removed


def test_backups_lists_them_and_restore_puts_one_back(tmp_path: Path) -> None:
    db = database(tmp_path)
    before = dump(db)
    assert run("add", event_file(tmp_path, "open", [(1, 1, 2, "1-0")]), "--db", db)[0] == 0
    code, out, _ = run("backups", "--db", db)
    name = backups(db)[0].name
    assert code == 0
    assert out.splitlines()[0] == (
        f"1 backup(s) of {db}, oldest first ('rating-batch restore NAME' puts one back):"
    )
    assert name in out and "before add" in out and "last list 2026-01, 0 event(s)" in out
    added = dump(db)
    code, out, _ = run("restore", name, "--db", db)
    assert code == 0 and out.startswith(f"restored {db} from {name}")
    assert dump(db) == before
    # The state it replaced was saved first: restoring that takes the restore back.
    latest = list_backups(db)[-1]
    assert latest.command == "restore"
    assert run("restore", latest.path.name, "--db", db)[0] == 0
    assert dump(db) == added


def test_restore_recreates_a_deleted_database(tmp_path: Path) -> None:
    db = database(tmp_path)
    before = dump(db)
    assert run("add", event_file(tmp_path, "open", [(1, 1, 2, "1-0")]), "--db", db)[0] == 0
    for part in tmp_path.glob("r.sqlite*"):
        if part.is_file():
            part.unlink()
    code, out, _ = run("restore", backups(db)[0].name, "--db", db)
    assert code == 0 and "there was no database" in out
    assert dump(db) == before


def test_restore_moves_a_damaged_database_aside(tmp_path: Path) -> None:
    db = database(tmp_path)
    before = dump(db)
    assert run("add", event_file(tmp_path, "open", [(1, 1, 2, "1-0")]), "--db", db)[0] == 0
    name = backups(db)[0].name
    import sqlite3

    with sqlite3.connect(db) as connection:
        connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    connection.close()
    data = bytearray(db.read_bytes())
    data[4096 : 3 * 4096] = b"\xff" * (2 * 4096)
    db.write_bytes(bytes(data))
    damaged = bytes(data)
    code, out, err = run("restore", name, "--db", db)
    assert code == 0, err
    aside = [p for p in Path(f"{db}.backups").glob("*-damaged.sqlite")]
    assert len(aside) == 1 and aside[0].read_bytes() == damaged  # kept, not deleted
    assert f"could not be read: moved to {aside[0]}" in out
    assert dump(db) == before


def test_restoring_something_that_is_not_a_backup_is_refused(tmp_path: Path) -> None:
    db = database(tmp_path)
    before = dump(db)
    code, _, err = run("restore", "nothing.sqlite", "--db", db)
    assert code == 1 and "no backup 'nothing.sqlite'" in err
    junk = tmp_path / "junk.sqlite"
    junk.write_text("not a database")
    code, _, err = run("restore", junk, "--db", db)
    assert code == 1 and "not a rating database" in err
    assert dump(db) == before


def test_a_command_that_changes_nothing_keeps_no_backup(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Twenty refused adds must not push out the backups that matter.
    monkeypatch.setenv("RATING_BATCH_BACKUPS", "2")
    db = database(tmp_path)
    for day in ("05", "12"):
        event = event_file(tmp_path, f"e{day}", [(1, 1, 2, "1-0")], day=f"2026/01/{day}")
        assert run("add", event, "--db", db)[0] == 0
    kept = backups(db)
    refused = event_file(tmp_path, "typo", [(1, 1, 2, "1-0")], day="2062/01/10")
    for _ in range(20):
        assert run("add", refused, "--db", db)[0] == 1
    assert run("publish", "2026-02", "--db", db, "--out", tmp_path / "o")[0] == 0
    assert backups(db)[0] == kept[1]  # the refused commands left none of their own
    assert len(backups(db)) == 2


def test_a_backup_from_a_newer_version_is_not_restored(tmp_path: Path) -> None:
    import sqlite3

    db = database(tmp_path)
    assert run("add", event_file(tmp_path, "open", [(1, 1, 2, "1-0")]), "--db", db)[0] == 0
    newer = backups(db)[0]
    with sqlite3.connect(newer) as connection:
        connection.execute("UPDATE meta SET value = '99' WHERE key = 'schema_version'")
    connection.close()
    before = dump(db)
    code, _, err = run("restore", newer.name, "--db", db)
    assert code == 1 and "made by a newer rating_batch (schema 99" in err
    assert dump(db) == before


def test_a_backup_copied_beside_the_command_holds_none_of_its_uncommitted_changes(
    tmp_path: Path,
) -> None:
    # The command writes first and the copy starts afterwards (the worst order): WAL shows
    # the copy the committed state only, so the backup is the state before the command.
    import sqlite3

    from rating_batch.store.backups import PendingBackup

    db = database(tmp_path)
    before = dump(db)
    writer = sqlite3.connect(db, isolation_level=None)
    writer.execute("BEGIN IMMEDIATE")
    writer.execute("UPDATE players SET name = 'Changed' WHERE fide_id = 11")
    writer.execute("INSERT INTO meta (key, value) VALUES ('uncommitted', 'yes')")
    saved = PendingBackup(db, "test", beside=True).finish()
    writer.execute("COMMIT")
    writer.close()
    assert dump(saved) == before and dump(db) != before
    assert saved.parent == Path(f"{db}.backups") and saved.name.endswith("-test.sqlite")
    assert [p.name for p in saved.parent.iterdir() if p.name.endswith(".tmp")] == []


def test_a_backup_that_cannot_be_saved_changes_nothing_and_leaves_no_file(
    tmp_path: Path,
) -> None:
    from rating_batch.store import DatabaseProblem
    from rating_batch.store.backups import PendingBackup

    db = database(tmp_path)
    folder = Path(f"{db}.backups")
    folder.mkdir()
    pending = PendingBackup(tmp_path / "missing.sqlite", "test", beside=True)
    with pytest.raises(DatabaseProblem, match="cannot save the backup"):
        pending.finish()
    assert list(Path(f"{tmp_path / 'missing.sqlite'}.backups").iterdir()) == []


def test_a_settled_database_file_is_copied_as_a_file_and_only_then(tmp_path: Path) -> None:
    # settle(): the WAL's committed pages moved into the file; the change counter it gives
    # matches once the lock is held only if nobody committed in between.
    import sqlite3

    from rating_batch.store.backups import PendingBackup, settle

    db = database(tmp_path)
    assert run("add", event_file(tmp_path, "open", [(1, 1, 2, "1-0")]), "--db", db)[0] == 0
    before = dump(db)
    mine = sqlite3.connect(db, isolation_level=None)
    other = sqlite3.connect(db, isolation_level=None)
    version = settle(mine)
    assert version is not None
    other.execute("UPDATE players SET name = 'Other' WHERE fide_id = 12")  # commits
    mine.execute("BEGIN IMMEDIATE")
    assert int(mine.execute("PRAGMA data_version").fetchone()[0]) != version
    mine.execute("ROLLBACK")
    committed = dump(db)
    version = settle(mine)
    mine.execute("BEGIN IMMEDIATE")
    assert int(mine.execute("PRAGMA data_version").fetchone()[0]) == version
    mine.execute("UPDATE players SET name = 'Mine' WHERE fide_id = 11")  # not committed
    saved = PendingBackup(db, "test", beside=True, settled=True).finish()
    mine.execute("COMMIT")
    for connection in (mine, other):
        connection.close()
    assert dump(saved) == committed != before and dump(db) != committed
    assert saved.read_bytes()[18:20] == b"\x01\x01"  # a rollback-journal file of its own
    assert list(Path(f"{saved}-wal").parent.glob(f"{saved.name}-wal")) == []
