"""Write tests/long_tests.txt: the test functions ``make test-fast`` leaves out as long.

A test function is long when its runs (all its parameters, set-up included) take ``ENTER``
seconds or more in a run of ``make test-fast``'s selection on this machine; one listed
already stays listed until it takes less than ``LEAVE`` (so that a run's noise does not move
tests in and out). Run by ``make long-tests`` on a quiet machine; review the diff and commit
it. The whole suite (``make test``) runs every test whatever the list says
(docs/testing.md)."""

from __future__ import annotations

import collections
import re
import subprocess
import sys
from pathlib import Path

#: Seconds of a test function's runs from which it becomes long.
ENTER = 0.6
#: Seconds below which a listed test function is long no more.
LEAVE = 0.45
ROOT = Path(__file__).parent.parent
sys.path.insert(0, str(ROOT / "tests"))
from budget import LONG_TESTS as LIST  # noqa: E402  # the tests' own module
from budget import long_tests as listed  # noqa: E402

#: Never listed: the check of the list itself stays in ``make test-fast``.
GUARD = "tests/test_long_tests.py::"
HEADER = """\
# Test functions left out of `make test-fast` (marked `long` by tests/conftest.py): each took
# 0.6 s or more, all its parameters together, on the 2-core machine (a listed one stays
# until it takes less than 0.45 s). `make test` runs them. Written by `make long-tests`
# (benchmarks/long_tests.py); tests/test_long_tests.py fails on a name that is no test.
"""
#: A line of ``--durations=0``: seconds, phase, and the test's id (its parameters may hold
#: spaces: ``test_x[rating-batch publish --due]``).
DURATION = re.compile(r"([\d.]+)s (?:setup|call|teardown)\s+(\S+\.py::.+)")


def durations(report: str) -> dict[str, float]:
    """Seconds per test function (its parameters summed) in pytest's ``--durations=0``."""
    seconds: dict[str, float] = collections.defaultdict(float)
    for line in report.splitlines():
        match = DURATION.fullmatch(line.strip())
        if match:
            seconds[match.group(2).split("[")[0]] += float(match.group(1))
    return seconds


def long_functions(seconds: dict[str, float], before: set[str]) -> list[str]:
    """The long test functions: ``ENTER`` seconds or more, or ``LEAVE`` or more for one
    listed ``before``; never the list's own check."""
    return sorted(
        name
        for name, taken in seconds.items()
        if not name.startswith(GUARD) and taken >= (LEAVE if name in before else ENTER)
    )


def main() -> None:
    command = [sys.executable, "-m", "pytest", "-q", "-n", "auto", "-m", "not slow",
               "--durations=0"]  # fmt: skip
    run = subprocess.run(command, capture_output=True, text=True, cwd=ROOT)
    if run.returncode != 0:
        sys.exit(f"the tests failed; nothing written:\n{run.stdout[-3000:]}{run.stderr[-3000:]}")
    seconds = durations(run.stdout)
    long = long_functions(seconds, listed())
    LIST.write_text(HEADER + "".join(f"{name}\n" for name in long), encoding="utf-8")
    print(
        f"{len(long)} long test functions, {sum(seconds[n] for n in long):.0f} s of the "
        f"{sum(seconds.values()):.0f} s of worker time measured: written to {LIST}"
    )


if __name__ == "__main__":
    main()
