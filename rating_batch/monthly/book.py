"""The rating system of a database: the one its rules name (``systems.registry``)."""

from __future__ import annotations

from rating_batch.store import Store
from rating_batch.systems.elo.rules import FIDE_BY_DATE
from rating_batch.systems.registry import stored_system
from rating_batch.systems.seam import RatingSystem


def database_system(store: Store) -> RatingSystem:
    """The system ``store`` rates under (FIDE Elo unless its rules name another)."""
    return stored_system(store.meta("rules") or FIDE_BY_DATE, store.meta("rules_text"))
