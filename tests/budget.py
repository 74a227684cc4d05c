"""How long the repeated tests run: the fuzzing, the kill and concurrency loops and the
malformed-file variants.

``make test`` runs every test, each of these at its short length: a fifth to a third of
the cases, spread over the same range. ``make soak`` (``RATING_BATCH_SOAK=1``) runs them at
full length, as a nightly job would (docs/testing.md)."""

from __future__ import annotations

import os

#: Whether this run is ``make soak`` (``RATING_BATCH_SOAK`` is 1, true or yes).
SOAK = os.environ.get("RATING_BATCH_SOAK", "").strip().lower() in ("1", "true", "yes")


def runs(full: int, short: int) -> int:
    """``full`` under ``make soak``, else ``short``."""
    return full if SOAK else short


def kill_fractions(full: int, short: int) -> list[float]:
    """When a loop's kills land, as fractions of the command's measured run. Under ``make
    soak``, the middle of each of ``full`` equal slices, ``(k + 0.5) / full``; under ``make
    test``, ``short`` of them, evenly spaced from the first of those to the last, so that a
    kill still lands as the command starts and one as it ends."""
    first, last = 0.5 / full, 1 - 0.5 / full
    count = runs(full, short)
    return [first + (last - first) * k / (count - 1) for k in range(count)]
