"""Rating systems behind one seam (docs/systems.md): the registry and what a system is
(``registry``, ``base``), each system in its module, FIDE Elo in ``elo/``.

The names below are imported on first use (``registry``), so that a module of ``elo/`` (the
rules, which the command line's help reads) can be imported without loading every system
and, with them, numpy and pandas."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

#: Each rating system other than FIDE Elo: its name, and where its constants and its class
#: are (``module:Constants:System`` in this package). ``registry.SYSTEMS`` loads them; the
#: command line's help and the rules files' messages name them from here, without loading
#: any (nor numpy and pandas). A new system is its module and one line here.
SYSTEM_HOMES: dict[str, str] = {
    "glicko2": "glicko2:Glicko2:Glicko2System",
    "glicko": "glicko:Glicko:GlickoSystem",
    "trueskill": "trueskill:TrueSkill:TrueSkillSystem",
    "harkness": "historical:Harkness:HarknessSystem",
    "ingo": "historical:Ingo:IngoSystem",
}

if TYPE_CHECKING:
    from rating_batch.systems.registry import (
        ELO,
        SYSTEMS,
        RatingSystem,
        SystemInput,
        SystemOutcome,
        find_system,
        rate_finite,
        stored_system,
        system_from_table,
    )


def __getattr__(name: str) -> object:
    if name not in __all__:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module("rating_batch.systems.registry"), name)
    globals()[name] = value
    return value


__all__ = [
    "ELO",
    "SYSTEMS",
    "SYSTEM_HOMES",
    "RatingSystem",
    "SystemInput",
    "SystemOutcome",
    "find_system",
    "rate_finite",
    "stored_system",
    "system_from_table",
]
