"""How long the tests run: the lengths of the repeated ones (the fuzzing, the kill and
concurrency loops, the malformed-file variants) and the list of the long ones.

``make test`` runs every test, the repeated ones at their short length: a fifth to a third
of the cases. ``make soak`` (``RATING_BATCH_SOAK=1``) runs them at full length; nothing
schedules it (docs/testing.md). ``make test-fast`` leaves out the tests of ``long_tests.txt``,
which ``make long-tests`` (benchmarks/long_tests.py) writes."""

from __future__ import annotations

import os
from pathlib import Path

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


#: The test functions ``make test-fast`` leaves out as long.
LONG_TESTS = Path(__file__).parent / "long_tests.txt"


def long_tests() -> set[str]:
    """The names in long_tests.txt (``tests/path.py::test_function``); none without it."""
    if not LONG_TESTS.exists():
        return set()
    lines = LONG_TESTS.read_text(encoding="utf-8").splitlines()
    return {line for line in lines if line and not line.startswith("#")}
