"""Where a database's companions lie: one database, one place, whatever path names it.

``--db`` is resolved to the real file (through any symlink) before anything beside it is
named, so a database reached by two paths (a link in a home folder, ``$RATING_BATCH_DB``
pointing to a link) has one files folder and one backups folder. The folders' names are
recorded in the database itself (``meta``: ``files_folder``, ``backups_folder``, names in
the database's folder): a database renamed without its folders still finds them, and one
copied or renamed with them (``new.sqlite``, ``new.sqlite.files``) finds those beside it.
"""

from __future__ import annotations

import contextlib
import os
import re
from dataclasses import dataclass
from pathlib import Path

from rating_batch.errors import RatingBatchError
from rating_batch.portable import alive
from rating_batch.store.writer import owner_path

#: The ``meta`` keys naming the folders beside the database.
FILES_KEY = "files_folder"
BACKUPS_KEY = "backups_folder"


def real_path(db: Path) -> Path:
    """The database file ``db`` names, through symlinks (the path itself when it does not
    exist yet, with its folder resolved)."""
    return Path(os.path.realpath(db))


@dataclass(frozen=True)
class Places:
    """A database and its companions: ``db`` as the officer named it (for messages),
    ``real`` the file itself, and the folders beside it."""

    db: Path
    real: Path
    files: Path
    """The published files' bytes (``store/files.py``)."""
    backups: Path
    """Whole copies of the database and, in ``files/``, a second copy of every published
    file."""

    @property
    def spare(self) -> Path:
        """The second copy of every published file."""
        return self.backups / "files"

    @property
    def owner(self) -> Path:
        """Where the command holding the write lock says who it is."""
        return owner_path(self.real)

    def meta_rows(self) -> dict[str, str]:
        """The folders' names as recorded in the database."""
        return {
            FILES_KEY: os.path.relpath(self.files, self.real.parent),
            BACKUPS_KEY: os.path.relpath(self.backups, self.real.parent),
        }


def keep_out_of_stores(places: Places, out: Path) -> None:
    """Refuse an ``--out`` (of ``publish``, ``site``) that is the database itself or one of
    its own folders, or lies inside one: rating_batch prunes those folders and removes from
    them what no stored row names, and a backups folder copied to another disk would carry
    the site. Nothing is written before this check."""
    target = real_path(out)
    instead = "choose a folder of your own (e.g. --out out)"
    if target == places.real:
        raise RatingBatchError(f"--out {out} is the database {places.db} itself: {instead}")
    for folder, name in ((places.files, "files folder"), (places.backups, "backups folder")):
        real = real_path(folder)
        if target == real or real in target.parents:
            where = "is" if target == real else "is inside"
            raise RatingBatchError(
                f"--out {out} {where} the {name} ({folder}) of the database {places.db}: "
                f"rating_batch removes from it what it does not name; {instead}"
            )


def places_of(db: Path, recorded: dict[str, str] | None = None) -> Places:
    """The places of the database ``db``; ``recorded``: the folder names its ``meta`` holds
    (none before it is opened, or for a database made before they were recorded)."""
    real = real_path(db)
    recorded = recorded or {}
    folder = real.parent

    def named(key: str, default: str) -> Path:
        # The recorded name (a database renamed without its folders still finds them), else
        # the name beside the real file (a database copied or renamed with its folders).
        # Only a plain name beside the database: a database is never told where else to
        # write.
        name = recorded.get(key, "")
        plain = name not in ("", ".", "..") and Path(name).name == name and "\\" not in name
        if plain and (folder / name).is_dir():
            return folder / name
        return folder / default

    return Places(
        db=db,
        real=real,
        files=named(FILES_KEY, f"{real.name}.files"),
        backups=named(BACKUPS_KEY, f"{real.name}.backups"),
    )


def remove_stale_beside(folder: Path) -> None:
    """Temporary databases left beside ``folder``'s databases by an ``init`` or a restore
    that was killed (their process is gone): never one of a command still running."""
    remove_dead(folder, r"\..+\.(?:init|restore)-(\d+)(?:-\d+)?\.tmp(-wal|-shm|-journal)?")


def remove_dead(folder: Path, pattern: str) -> None:
    """The hidden temporary files of ``folder`` named by ``pattern`` whose process (its first
    group) is gone."""
    if not folder.is_dir():
        return
    for path in folder.glob(".*.tmp*"):
        match = re.fullmatch(pattern, path.name)
        if match is None or alive(int(match[1])):
            continue
        with contextlib.suppress(OSError):
            path.unlink()
