"""The rating system of a database and its rules: the ones its rules name
(``systems.registry``; the rules file's text is kept in the database)."""

from __future__ import annotations

from rating_batch.pipelines.seam import RatingSystem, RuleBook
from rating_batch.store import Store
from rating_batch.systems.elo.rules import FIDE_BY_DATE
from rating_batch.systems.registry import stored_system


def database_system(store: Store) -> RatingSystem:
    """The system ``store`` rates under (FIDE Elo unless its rules name another)."""
    return stored_system(store.meta("rules") or FIDE_BY_DATE, store.meta("rules_text"))


def book_from(name: str, text: str | None) -> RuleBook:
    """The rules ``name`` (and a rules file's ``text``) give a database: its periods, list
    months and kinds, and under FIDE Elo its K, floor and first ratings."""
    return stored_system(name, text).rule_book(name, text)


def rule_book(store: Store) -> RuleBook:
    return book_from(store.meta("rules") or FIDE_BY_DATE, store.meta("rules_text"))
