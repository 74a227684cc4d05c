"""The registry of rating systems other than FIDE Elo, behind one seam (docs/systems.md).

A system is a ``RatingSystem`` (``base.py``): its state columns, its constants and how a period
is rated. ``find_system`` gives the one a ``--rules`` value names: a built-in name
(``glicko2``, ``glicko``, ``trueskill``, ``harkness``, ``ingo``: the defaults) or a rules file
whose top level says ``system = "…"`` and whose section of that name sets the constants.
FIDE Elo (its editions and federation rules files) is not one of these: ``find_system`` gives
None for it and the Elo pipeline rates it (``rate.find_rater`` for ``rate`` and
``compare-rules``, ``RuleBook.system`` for the database's commands).
"""

from __future__ import annotations

import dataclasses
import importlib
import tomllib
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from rating_batch.rules_check import Findings, did_you_mean
from rating_batch.systems.base import RatingSystem, SystemInput, SystemOutcome, rate_finite
from rating_batch.systems.homes import SYSTEM_HOMES
from rating_batch.systems.params import from_section

#: The value of a rules file's ``system`` key for FIDE Elo (the default).
ELO = "fide-elo"


#: Each system: its name, its constants' class and how it is made from them (and where the
#: constants not left at their defaults come from).
def _loaded(home: str) -> tuple[type[Any], Callable[..., RatingSystem]]:
    module, constants, system = home.split(":")
    loaded = importlib.import_module(f"rating_batch.systems.{module}")
    return getattr(loaded, constants), getattr(loaded, system)


SYSTEMS: dict[str, tuple[type[Any], Callable[..., RatingSystem]]] = {
    name: _loaded(home) for name, home in SYSTEM_HOMES.items()
}


def system_from_table(table: Mapping[str, Any], where: str, text: str = "") -> RatingSystem | None:
    """The system a rules file's table names (None: FIDE Elo). Its constants come from the
    section named after it; every other key, and every problem of the section, is told at
    once, at its line of ``text`` (the file's TOML) when given."""
    name = table.get("system", ELO)
    if name == ELO:
        return None
    found = Findings(where, text)
    if not isinstance(name, str) or name not in SYSTEMS:
        known = ", ".join([ELO, *SYSTEMS])
        found.add(f"key 'system' must be one of {known} (got {name!r})", "system")
        found.raise_any()
    kind, make = SYSTEMS[name]
    constants = {f.name for f in dataclasses.fields(kind)}
    top = ["system", "name", "title", name]
    for key in set(table) - set(top):
        if key in constants:
            found.add(f"key {key!r} is a constant of {name}: write it in the [{name}] section", key)
        else:
            hint = did_you_mean(key, top) or f" (its constants go in the [{name}] section)"
            found.add(f"unknown key {key!r} for system {name!r}{hint}", key)
    section = table.get(name, {})
    if not isinstance(section, Mapping):
        found.add(f"{name!r} must be the section [{name}] of its constants, not a value", name)
        section = {}
    params = from_section(kind, section, found, name)
    found.raise_any()
    return make(params, {key: where for key in section})


def find_system(rules: str) -> RatingSystem | None:
    """The system ``--rules`` names: a built-in one with its defaults, a rules file naming a
    system, or None (FIDE Elo: an edition, ``fide``, or a federation's Elo rules file)."""
    if rules in SYSTEMS:
        kind, make = SYSTEMS[rules]
        return make(kind())
    if rules.lower().endswith(".toml"):
        path = Path(rules)
        try:
            text = path.read_text(encoding="utf-8")
            table = tomllib.loads(text)
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
            return None  # the Elo rules loader names the problem
        return system_from_table(table, str(path), text)
    return None


def stored_system(name: str, text: str | None) -> RatingSystem | None:
    """The system a database's rules name (its ``rules`` and the rules file's text kept with
    it), or None for FIDE Elo."""
    if text is None:
        return find_system(name)
    try:
        table = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return None  # the Elo rules loader names the problem
    return system_from_table(table, name, text)


__all__ = [
    "ELO",
    "SYSTEMS",
    "RatingSystem",
    "SystemInput",
    "SystemOutcome",
    "find_system",
    "rate_finite",
    "stored_system",
    "system_from_table",
]
