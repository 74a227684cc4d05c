"""The rating database: SQLite from the standard library, one file, no server.

``open_store`` opens it (read-only unless a command writes), ``create_store`` makes a new one,
``Store`` holds every SQL statement; ``backups`` saves, lists and restores copies of it.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from rating_batch.store.backups import Backup, list_backups, restore_backup, save_backup
from rating_batch.store.database import (
    DEFAULT_WAIT,
    DatabaseProblem,
    create_database,
    ensure_new,
    open_database,
)

if TYPE_CHECKING:
    from rating_batch.store.queries import Store


def __getattr__(name: str) -> object:
    """``Store`` on first use: its module loads pandas, which the command line's help and
    ``--version`` do without."""
    if name == "Store":
        from rating_batch.store.queries import Store

        return Store
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@contextlib.contextmanager
def open_store(
    path: Path, *, write: bool = False, command: str = "", wait: float = DEFAULT_WAIT
) -> Iterator[Store]:
    """Our database at ``path``: read-only unless ``write`` (then ``store.writing()`` is the
    command's one transaction, after a backup labelled ``command``)."""
    from rating_batch.store.queries import Store

    with open_database(path, Store, write=write, command=command, wait=wait) as store:
        yield store


@contextlib.contextmanager
def create_store(path: Path) -> Iterator[Store]:
    """A new database at ``path`` (refused if anything is there), complete or not at all."""
    from rating_batch.store.queries import Store

    with create_database(path, Store) as store:
        yield store


__all__ = [
    "DEFAULT_WAIT",
    "Backup",
    "DatabaseProblem",
    "Store",
    "create_store",
    "ensure_new",
    "list_backups",
    "open_store",
    "restore_backup",
    "save_backup",
]
