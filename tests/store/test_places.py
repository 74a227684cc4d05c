"""Where a database's companions lie (store/places.py): through links, after a rename, never
outside its folder."""

from __future__ import annotations

import os
from pathlib import Path

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
