"""The rating system a command runs, behind one seam (docs/systems.md): ``find_system`` gives
the ``RatingSystem`` a ``--rules`` value names, never None: FIDE Elo (``elo/system.EloSystem``:
an edition's name, ``fide``, or a rules file without a ``system`` key or with ``system =
"fide-elo"``), or a ``StateSystem`` (``rating_batch.systems.registry.state_system``) made a
``RatingSystem`` by ``state/system.StatePipeline``. ``stored_system`` gives the system of a
database's rules (its name and the rules file's text kept with it), ``database_system`` and
``rule_book`` those of an open database."""

from __future__ import annotations

import tomllib

from rating_batch.pipelines.elo.system import EloSystem
from rating_batch.pipelines.seam import RatingSystem, RuleBook
from rating_batch.pipelines.state.system import StatePipeline
from rating_batch.store import Store
from rating_batch.systems.elo.rules import FIDE_BY_DATE
from rating_batch.systems.registry import state_system, system_from_table


def database_system(store: Store) -> RatingSystem:
    """The system ``store`` rates under (FIDE Elo unless its rules name another)."""
    return stored_system(store.meta("rules") or FIDE_BY_DATE, store.meta("rules_text"))


def book_from(name: str, text: str | None) -> RuleBook:
    """The rules ``name`` (and a rules file's ``text``) give a database: its periods, list
    months and kinds, and under FIDE Elo its K, floor and first ratings."""
    return stored_system(name, text).rule_book(name, text)


def rule_book(store: Store) -> RuleBook:
    return book_from(store.meta("rules") or FIDE_BY_DATE, store.meta("rules_text"))


def find_system(rules: str) -> RatingSystem:
    """The system ``--rules`` names: a built-in one with its defaults, a rules file naming a
    system, else FIDE Elo (an edition, ``fide``, or a federation's Elo rules file)."""
    system = state_system(rules)
    return EloSystem(rules) if system is None else StatePipeline(system)


def stored_system(name: str, text: str | None) -> RatingSystem:
    """The system a database's rules name (its ``rules`` and the rules file's text kept with
    it): another system, else FIDE Elo."""
    if text is None:
        return find_system(name)
    try:
        table = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return EloSystem(name)  # the Elo rules loader names the problem
    system = system_from_table(table, name, text)
    return EloSystem(name) if system is None else StatePipeline(system)
