"""The DWZ of the Deutscher Schachbund (docs/systems.md §10): constants and editions
(``constants``), the normal distribution (``normal``), Restpartien (``rests``), the
evaluation of events (``engine``) and the system behind the seam (``system``)."""

from __future__ import annotations

from rating_batch.systems.dwz.constants import EDITIONS, Dwz
from rating_batch.systems.dwz.system import DwzSystem

__all__ = ["EDITIONS", "Dwz", "DwzSystem"]
