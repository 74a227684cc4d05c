"""The registry of rating systems, behind one seam (docs/systems.md).

``find_system`` gives the ``RatingSystem`` a ``--rules`` value names, never None: FIDE Elo
(``elo/system.EloSystem``: an edition's name, ``fide``, or a rules file without a ``system``
key or with ``system = "fide-elo"``), or a system whose players carry a state (a
``StateSystem`` of ``SYSTEMS`` made a ``RatingSystem`` by ``state/system.StatePipeline``): a
built-in name (``glicko2``, ``glicko``, ``trueskill``, ``harkness``, ``ingo``, ``uscf``,
``dwz``, ``ecf-grade``, ``ecf``: the defaults) or a rules file whose top level says
``system = "…"`` and whose section of that name sets the constants. ``stored_system`` gives
the ``RatingSystem`` of a database's rules (its name and the rules file's text kept with it).
"""

from __future__ import annotations

import dataclasses
import importlib
import tomllib
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from rating_batch.pipelines.elo.system import EloSystem
from rating_batch.pipelines.seam import RatingSystem
from rating_batch.pipelines.state.system import StatePipeline
from rating_batch.rules_check import Findings, did_you_mean
from rating_batch.systems.base import (
    StateSystem,
    SystemInput,
    SystemOutcome,
    rate_finite,
)
from rating_batch.systems.homes import ELO, SYSTEM_HOMES
from rating_batch.systems.params import from_section


#: Each system: its name, its constants' class and how it is made from them (and where the
#: constants not left at their defaults come from).
def _loaded(home: str) -> tuple[type[Any], Callable[..., StateSystem]]:
    module, constants, system = home.split(":")
    loaded = importlib.import_module(f"rating_batch.systems.{module}")
    return getattr(loaded, constants), getattr(loaded, system)


SYSTEMS: dict[str, tuple[type[Any], Callable[..., StateSystem]]] = {
    name: _loaded(home) for name, home in SYSTEM_HOMES.items()
}


def system_from_table(table: Mapping[str, Any], where: str, text: str = "") -> StateSystem | None:
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
    top = ["system", "name", "title", "site", name]  # [site]: monthly/site_settings.py
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


def find_system(rules: str) -> RatingSystem:
    """The system ``--rules`` names: a built-in one with its defaults, a rules file naming a
    system, else FIDE Elo (an edition, ``fide``, or a federation's Elo rules file)."""
    system = state_system(rules)
    return EloSystem(rules) if system is None else StatePipeline(system)


def state_system(rules: str) -> StateSystem | None:
    """The ``StateSystem`` ``--rules`` names, or None for FIDE Elo."""
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


__all__ = [
    "ELO",
    "SYSTEMS",
    "RatingSystem",
    "StateSystem",
    "SystemInput",
    "SystemOutcome",
    "find_system",
    "rate_finite",
    "state_system",
    "stored_system",
    "system_from_table",
]
