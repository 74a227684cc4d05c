"""How long the repeated tests run: the fuzzing, the kill and concurrency loops and the
malformed-file variants.

``make test`` runs every test, each of these at its short length: a fifth to a third of
the cases, spread over the same range. ``make soak`` (``RATING_BATCH_SOAK=1``) runs them at
full length, as a nightly job would (docs/testing.md)."""

from __future__ import annotations

import os

#: Whether this run is ``make soak``.
SOAK = os.environ.get("RATING_BATCH_SOAK", "") not in ("", "0")


def runs(full: int, short: int) -> int:
    """``full`` under ``make soak``, else ``short``."""
    return full if SOAK else short
