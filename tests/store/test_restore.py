"""Going back (store/restore.py): a whole copy put back in one transaction, itself undone;
a copy made by an older version brought up to date on the way; a missing database put back."""

from __future__ import annotations

import errno
import os
import shutil
from pathlib import Path

import pytest
from db_helpers import copy_of, data_dump, database, dump, event_file, query, run

from rating_batch.store.schema import SCHEMA_VERSION

SCHEMA_7 = Path(__file__).parent.parent / "data" / "db" / "schema-7.sqlite"


def test_a_whole_copy_is_put_back_and_that_is_undone_too(tmp_path: Path) -> None:
    db = database(tmp_path)
    assert run("backup", "--db", db)[0] == 0
    (copy,) = Path(f"{db}.backups").glob("*-backup.sqlite")
    initial = data_dump(db)
    assert run("add", event_file(tmp_path, "jan", [(1, 1, 2, "1-0")]), "--db", db)[0] == 0
    assert run("publish", "2026-02", "--db", db, "--out", tmp_path / "out")[0] == 0
    published = data_dump(db)
    code, out, err = run("restore", copy.name, "--db", db)
    assert code == 0, err
    (before,) = Path(f"{db}.backups").glob("*-before-restore.sqlite")
    assert out.splitlines()[0] == (
        f"restored {db} from the whole copy {copy.name} (the state it replaced is saved whole "
        f"as {before.name})"
    )
    assert data_dump(db) == initial
    # The journal goes on: the restore is its newest entry, undone by the copy taken before it.
    assert query(db, "SELECT label, copy FROM undo_commands ORDER BY command_id DESC LIMIT 1") == [
        (f"restore of the whole copy {copy.name}", before.name)
    ]
    assert run("restore", "latest", "--db", db)[0] == 0
    assert data_dump(db) == published


def test_a_copy_made_by_an_older_version_is_brought_up_to_date_on_the_way(tmp_path: Path) -> None:
    db = copy_of(SCHEMA_7, tmp_path / "db.sqlite")
    shutil.copytree(f"{SCHEMA_7}.files", f"{db}.files")
    assert run("upgrade", "--db", db)[0] == 0
    upgraded = data_dump(db)
    (old,) = Path(f"{db}.backups").glob("*-before-upgrade.sqlite")
    assert dump(old) == dump(SCHEMA_7)  # the whole copy is the version-7 database
    assert run("remove", "feb", "--db", db)[0] == 0
    code, _, err = run("restore", old.name, "--db", db)
    assert code == 0, err
    assert data_dump(db) == upgraded  # as the upgrade made it, at the current schema
    version = query(db, "SELECT value FROM meta WHERE key = 'schema_version'")
    assert version == [(str(SCHEMA_VERSION),)]
    assert dump(old) == dump(SCHEMA_7)  # the copy itself untouched


def test_a_deleted_database_is_put_back_from_a_whole_copy(tmp_path: Path) -> None:
    db = database(tmp_path)
    assert run("add", event_file(tmp_path, "jan", [(1, 1, 2, "1-0")]), "--db", db)[0] == 0
    assert run("backup", "--db", db)[0] == 0
    (copy,) = Path(f"{db}.backups").glob("*-backup.sqlite")
    saved = data_dump(db)
    db.unlink()
    code, _, err = run("restore", "latest", "--db", db)
    assert code == 1 and "there is no database here: name a whole copy" in err
    code, out, err = run("restore", copy.name, "--db", db)
    assert code == 0, err
    assert out.startswith(f"restored {db} from the whole copy {copy.name} (there was no database)")
    assert data_dump(db) == saved


def test_a_deleted_database_is_put_back_where_there_are_no_hard_links(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # FAT and exFAT (a USB stick) have no hard links: the copy is moved into place instead.
    db = database(tmp_path)
    assert run("backup", "--db", db)[0] == 0
    (copy,) = Path(f"{db}.backups").glob("*-backup.sqlite")
    saved = data_dump(db)
    db.unlink()

    def no_links(source: object, target: object) -> None:
        raise OSError(errno.EPERM, "Operation not permitted", str(source))

    monkeypatch.setattr(os, "link", no_links)
    code, out, err = run("restore", copy.name, "--db", db)
    assert code == 0, err
    assert out.startswith(f"restored {db} from the whole copy {copy.name} (there was no database)")
    assert data_dump(db) == saved
    assert not list(tmp_path.glob(".*.tmp*"))  # no temporary file left beside it


def test_a_point_whose_copy_is_gone_is_refused_and_changes_nothing(tmp_path: Path) -> None:
    db = database(tmp_path)
    assert run("backup", "--db", db)[0] == 0
    (copy,) = Path(f"{db}.backups").glob("*-backup.sqlite")
    assert run("restore", copy.name, "--db", db)[0] == 0
    (before,) = Path(f"{db}.backups").glob("*-before-restore.sqlite")
    before.unlink()
    state = dump(db)
    code, _, err = run("restore", "latest", "--db", db)
    assert code == 1 and f"the whole copy {before.name}, which holds the state before" in err
    assert dump(db) == state


def test_nothing_to_undo_and_unknown_names_are_messages(tmp_path: Path) -> None:
    db = database(tmp_path)
    code, _, err = run("restore", "latest", "--db", db)
    assert code == 1 and "no command to undo" in err
    code, _, err = run("restore", "nothing.sqlite", "--db", db)
    assert code == 1 and "no restore point 'nothing.sqlite'" in err
