"""Rating systems behind one seam (docs/systems.md): the registry and what a system is
(``registry``, ``base``), each system in its module, FIDE Elo in ``elo/``.

The names below are imported on first use (``registry``), so that a module of ``elo/`` (the
rules, which the command line's help reads) can be imported without loading every system
and, with them, numpy and pandas."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from rating_batch.systems.homes import SYSTEM_HOMES

if TYPE_CHECKING:
    from rating_batch.systems.registry import (
        ELO,
        SYSTEMS,
        RatingSystem,
        StateSystem,
        SystemInput,
        SystemOutcome,
        find_system,
        rate_finite,
        state_system,
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
    "StateSystem",
    "SystemInput",
    "SystemOutcome",
    "find_system",
    "rate_finite",
    "state_system",
    "stored_system",
    "system_from_table",
]
