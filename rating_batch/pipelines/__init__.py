"""How a command runs a rating system (docs/architecture.md): the seam every command asks,
the registry of systems behind it, a rated period and its files, and the seam's two
implementations, FIDE Elo's (``elo/``) and every ``StateSystem``'s (``state/``). What a rating
system *is* stays in ``rating_batch.systems``, which imports nothing from here."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rating_batch.pipelines.registry import find_system, stored_system
    from rating_batch.pipelines.seam import RatingSystem


def __getattr__(name: str) -> object:
    # imported on first use: the command line's help imports this package's modules' names
    home = {"RatingSystem": "seam"}.get(name, "registry")
    if name not in __all__:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"rating_batch.pipelines.{home}"), name)
    globals()[name] = value
    return value


__all__ = ["RatingSystem", "find_system", "stored_system"]
