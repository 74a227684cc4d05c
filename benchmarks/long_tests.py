"""Write tests/long_tests.txt: the test functions ``make test-fast`` leaves out as long.

A test function is long when its runs (all its parameters, set-up included) take
``THRESHOLD`` seconds or more in a run of ``make test-fast``'s selection on this machine. Run
by ``make long-tests`` on a quiet machine; review the diff and commit it. The whole suite
(``make test``) runs every test whatever the list says (docs/testing.md)."""

from __future__ import annotations

import collections
import re
import subprocess
import sys
from pathlib import Path

#: Seconds of a test function's runs from which it is long.
THRESHOLD = 1.0
LIST = Path(__file__).parent.parent / "tests" / "long_tests.txt"
HEADER = """\
# Test functions left out of `make test-fast` (marked `long` by tests/conftest.py): each took
# a second or more, all its parameters together, on the 2-core machine. `make test` runs
# them. Written by `make long-tests` (benchmarks/long_tests.py); a name that is no longer a
# test is an error of the whole suite's collection.
"""
DURATION = re.compile(r"([\d.]+)s (?:setup|call|teardown)\s+(\S+)")


def durations(report: str) -> dict[str, float]:
    """Seconds per test function (its parameters summed) in pytest's ``--durations=0``."""
    seconds: dict[str, float] = collections.defaultdict(float)
    for line in report.splitlines():
        match = DURATION.fullmatch(line.strip())
        if match:
            seconds[match.group(2).split("[")[0]] += float(match.group(1))
    return seconds


def main() -> None:
    command = [sys.executable, "-m", "pytest", "-q", "-n", "auto", "-m", "not slow",
               "--durations=0"]  # fmt: skip
    run = subprocess.run(command, capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit(f"the tests failed; nothing written:\n{run.stdout[-3000:]}{run.stderr[-3000:]}")
    seconds = durations(run.stdout)
    long = sorted(name for name, taken in seconds.items() if taken >= THRESHOLD)
    LIST.write_text(HEADER + "".join(f"{name}\n" for name in long), encoding="utf-8")
    kept = sum(taken for name, taken in seconds.items() if taken < THRESHOLD)
    print(
        f"{len(long)} long test functions ({sum(seconds[n] for n in long):.0f} s); "
        f"make test-fast keeps {len(seconds) - len(long)} ({kept:.0f} s of worker time)"
    )


if __name__ == "__main__":
    main()
