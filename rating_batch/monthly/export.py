"""``export-list``: a stored list written again (list.csv, list.xlsx, list.txt). A published
list is written as it was published (its stored files); the initial list from its ratings.
Read-only: the database is never changed."""

from __future__ import annotations

from pathlib import Path

from rating_batch.errors import RatingBatchError
from rating_batch.periods import INITIAL, canonical_period, shown
from rating_batch.pipelines.registry import database_system, rule_book
from rating_batch.store import open_store
from rating_batch.store.places import keep_out_of_stores


def export_list(period: str, *, db: Path, out: Path, kind: str | None = None) -> list[Path]:
    """Write a stored list (``initial``, or a published ``YYYY-MM``) as list.csv, .xlsx and
    .txt under ``OUT/PERIOD/KIND/``."""
    with open_store(db) as store:
        keep_out_of_stores(store.places, out)
        lists = store.lists()
        if period == "initial":
            label = store.initial_period() or INITIAL
        else:
            label = canonical_period(period)
        chosen = lists[(lists["period"] == label) & ((lists["kind"] == kind) if kind else True)]
        if chosen.empty:
            known = ", ".join(
                f"{shown(p)} {k}" for p, k in zip(lists["period"], lists["kind"], strict=True)
            )
            raise RatingBatchError(
                f"no {kind + ' ' if kind else ''}list {period} in {db} (known: {known or 'none'})"
            )
        stored = dict(store.published_files(label)) if label != INITIAL else {}
        return database_system(store).database.export(
            store, rule_book(store), label, list(chosen["kind"]), stored, out
        )
