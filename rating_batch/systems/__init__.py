"""What a rating system is (docs/systems.md): the table of systems and what a system whose
players carry a state must be (``registry``, ``base``), each system in its module, FIDE Elo's
rules and maths in ``elo/``. It imports only the ground (errors, schema, periods, values,
rules_check): how a command runs a system is ``rating_batch.pipelines``.

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
        StateSystem,
        SystemInput,
        SystemOutcome,
        rate_finite,
        state_system,
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
    "StateSystem",
    "SystemInput",
    "SystemOutcome",
    "rate_finite",
    "state_system",
    "system_from_table",
]
