"""Where a database's companions lie (store/places.py): through links, after a rename, never
outside its folder."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from db_helpers import companions, database, dump, event_file, run

from rating_batch.store.places import BACKUPS_KEY, FILES_KEY, places_of


def test_a_link_names_the_file_it_points_to(tmp_path: Path) -> None:
    (tmp_path / "real").mkdir()
    db = tmp_path / "real" / "db.sqlite"
    db.write_bytes(b"")
    link = tmp_path / "link.sqlite"
    link.symlink_to(db)
    places = places_of(link)
    real = Path(os.path.realpath(db))
    assert places.db == link and places.real == real
    assert places.files == real.parent / "db.sqlite.files"
    assert places.backups == real.parent / "db.sqlite.backups"
    assert places.spare == real.parent / "db.sqlite.backups" / "files"


def test_the_recorded_folders_are_used_when_they_are_there(tmp_path: Path) -> None:
    db = tmp_path / "renamed.sqlite"
    recorded = {FILES_KEY: "old.sqlite.files", BACKUPS_KEY: "old.sqlite.backups"}
    folder = Path(os.path.realpath(tmp_path))
    # Renamed alone: its folders kept their names.
    (tmp_path / "old.sqlite.files").mkdir()
    (tmp_path / "old.sqlite.backups").mkdir()
    places = places_of(db, recorded)
    assert places.files == folder / "old.sqlite.files"
    assert places.backups == folder / "old.sqlite.backups"
    # Copied or renamed with them: the names beside it.
    copy = tmp_path / "copy"
    copy.mkdir()
    places = places_of(copy / "renamed.sqlite", recorded)
    assert places.files == folder / "copy" / "renamed.sqlite.files"


def test_a_recorded_name_never_leads_outside_the_databases_folder(tmp_path: Path) -> None:
    (tmp_path / "inside").mkdir()
    db = tmp_path / "inside" / "db.sqlite"
    folder = Path(os.path.realpath(tmp_path / "inside"))
    for name in ("../elsewhere", "/etc", "..", ".", "a/b", "a\\b", ""):
        places = places_of(db, {FILES_KEY: name, BACKUPS_KEY: name})
        assert places.files == folder / "db.sqlite.files", name
        assert places.backups == folder / "db.sqlite.backups", name


@pytest.mark.parametrize(
    ("args", "out", "what"),
    [
        (["publish", "2026-03"], "db.sqlite.backups", "is the backups folder"),
        (["publish", "2026-03"], "db.sqlite.files/x", "is inside the files folder"),
        (["site"], "db.sqlite.files", "is the files folder"),
        (["site"], "db.sqlite.backups/files/y", "is inside the backups folder"),
        (["publish", "2026-03", "--dry-run"], "db.sqlite.backups", "is the backups folder"),
        # Before its inbox is added (inbox/ holds a new file of March).
        (["month", "inbox", "--today", "2026-04-05"], "db.sqlite.files", "is the files folder"),
        (["export-list", "2026-02"], "db.sqlite.backups", "is the backups folder"),
    ],
)
def test_out_is_never_one_of_the_databases_own_folders(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: list[str], out: str, what: str
) -> None:
    monkeypatch.chdir(tmp_path)
    db = tmp_path / "db.sqlite"
    shutil.copyfile(database(tmp_path), db)
    assert run("add", event_file(tmp_path, "feb", [(1, 1, 2, "1-0")], day="2026/02/10"),
               "--db", db)[0] == 0  # fmt: skip
    assert run("-q", "publish", "2026-02", "--db", db, "--out", tmp_path / "out")[0] == 0
    assert run("-q", "backup", "--db", db)[0] == 0
    (tmp_path / "inbox").mkdir()
    event_file(tmp_path / "inbox", "mar", [(1, 2, 1, "1-0")], day="2026/03/10")
    before, beside = dump(db), companions(db)
    code, stdout, err = run(*args, "--db", "db.sqlite", "--out", out)
    folder = tmp_path / ("db.sqlite.files" if "files folder" in what else "db.sqlite.backups")
    assert (code, stdout) == (1, "")
    assert err == (
        f"Error: --out {out} {what} ({folder}) of the database db.sqlite: rating_batch "
        "removes from it what it does not name; choose a folder of your own (e.g. --out "
        "out)\n"
    )
    assert dump(db) == before
    assert companions(db) == beside  # nothing written into the folders, nothing removed


def test_out_is_never_the_database_itself(tmp_path: Path) -> None:
    # The command line refuses a file as --out already (click); the desk and the library
    # reach the check in the store.
    from rating_batch.errors import RatingBatchError
    from rating_batch.store.places import keep_out_of_stores

    db = tmp_path / "db.sqlite"
    db.write_bytes(b"")
    with pytest.raises(RatingBatchError) as refused:
        keep_out_of_stores(places_of(db), db)
    assert str(refused.value) == (
        f"--out {db} is the database {db} itself: choose a folder of your own (e.g. --out out)"
    )
    keep_out_of_stores(places_of(db), tmp_path / "out")  # a folder beside it: fine
    keep_out_of_stores(places_of(db), tmp_path)  # the database's own folder: fine


def test_a_renamed_database_is_kept_out_of_the_folders_it_records(tmp_path: Path) -> None:
    """Renamed without its folders, the database still names them (meta): an --out there is
    refused by the name it records, not by the name beside the new file."""
    from rating_batch.errors import RatingBatchError
    from rating_batch.store import keep_out_of_database

    db = database(tmp_path)  # r.sqlite, whose folders it records as r.sqlite.*
    assert run("add", event_file(tmp_path, "jan", [(1, 1, 2, "1-0")]), "--db", db)[0] == 0
    assert run("-q", "publish", "2026-02", "--db", db, "--out", tmp_path / "out")[0] == 0
    renamed = tmp_path / "new.sqlite"
    db.rename(renamed)
    with pytest.raises(RatingBatchError, match=r"is the files folder .* of the database"):
        keep_out_of_database(renamed, tmp_path / "r.sqlite.files")
    keep_out_of_database(renamed, tmp_path / "out")
    keep_out_of_database(tmp_path / "none.sqlite", tmp_path / "out")  # no database yet: fine
