"""The rating database: SQLite from the standard library, one file, no server.

``open_store`` opens it (read-only unless a command writes), ``create_store`` makes a new one,
``Store`` holds every SQL statement; ``journal`` records what each command changed so that it
can be undone, ``copies`` keeps whole copies, ``restore`` goes back to either.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from rating_batch.store.copies import Copy, list_copies, take_copy
from rating_batch.store.database import DEFAULT_WAIT, Damaged, DatabaseProblem
from rating_batch.store.journal import Point
from rating_batch.store.opening import (
    create_database,
    ensure_new,
    keep_out_of_database,
    open_database,
)
from rating_batch.store.places import Places, places_of
from rating_batch.store.writer import Busy, one_writer

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
    path: Path,
    *,
    write: bool = False,
    command: str = "",
    wait: float = DEFAULT_WAIT,
    dry_run: bool = False,
) -> Iterator[Store]:
    """Our database at ``path``: read-only unless ``write`` (then ``store.writing()`` is the
    command's one transaction, recorded in the undo journal as ``command``)."""
    from rating_batch.store.queries import Store

    with open_database(
        path, Store, write=write, command=command, wait=wait, dry_run=dry_run
    ) as store:
        yield store


@contextlib.contextmanager
def create_store(path: Path) -> Iterator[Store]:
    """A new database at ``path`` (refused if anything is there), complete or not at all."""
    from rating_batch.store.queries import Store

    with create_database(path, Store) as store:
        yield store


__all__ = [
    "DEFAULT_WAIT",
    "Busy",
    "Copy",
    "Damaged",
    "DatabaseProblem",
    "Places",
    "Point",
    "Store",
    "create_store",
    "ensure_new",
    "keep_out_of_database",
    "list_copies",
    "one_writer",
    "open_store",
    "places_of",
    "take_copy",
]
