"""A command's start-up (issue 42): the processor time (user + sys) of each command on a
3-player database, median of N runs, each run on a fresh copy of the database (a list, one
TRF event added, then published). Prints figures, asserts nothing.

    python benchmarks/startup.py [--runs 5] [--command rate,add]

Pair two versions back to back: ``PYTHONPATH=/path/to/other/checkout python
benchmarks/startup.py`` runs the other version's package with this environment. Set
``PYTHONDONTWRITEBYTECODE=`` and ``PYTHONPYCACHEPREFIX`` (as the Makefile's targets do) when
the machine sets PYTHONDONTWRITEBYTECODE, or every process compiles the package again.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

LIST = "id,rating\n11,1600\n12,1500\n13,1450\n"
EVENT = (
    "012 jan\n042 2026/01/10\n052 2026/01/10\n"
    "001    1      A                                 1600              11 1980        1.0"
    "    1     2 w 1\n"
    "001    2      B                                 1500              12 1980        0.0"
    "    2     1 b 0\n"
)
STEPS = (
    ("init", "--list", "list.csv", "--period", "2026-01"),
    ("add", "jan.trf"),
    ("publish", "2026-02", "--out", "lists"),
)
#: Each command: the steps done before it (0: none, 3: published), its arguments, its exit.
COMMANDS: dict[str, tuple[int, tuple[str, ...], int]] = {
    "--help": (3, ("--help",), 0),
    "init": (0, STEPS[0], 0),
    "init refused": (3, STEPS[0], 1),
    "publish 2026-13": (3, ("publish", "2026-13", "--out", "x"), 1),
    "add": (1, STEPS[1], 0),
    "publish": (2, STEPS[2], 0),
    "check": (3, ("check", "jan.trf"), 0),
    "rate": (3, ("rate", "jan.trf", "--out", "rated"), 0),
    "player": (3, ("player", "11"), 0),
    "backup": (3, ("backup",), 0),
    "restore latest": (3, ("restore", "latest"), 0),
    "export-list": (3, ("export-list", "2026-02", "--out", "exported"), 0),
    "backups": (3, ("backups",), 0),
}


def run(args: tuple[str, ...], folder: Path, code: int = 0) -> float:
    """The command's processor time (it must exit with ``code``)."""
    command = [sys.executable, "-m", "rating_batch", *args]
    child = subprocess.Popen(command, cwd=folder, stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE)  # fmt: skip
    _, status, usage = os.wait4(child.pid, 0)
    assert child.stderr is not None
    err = child.stderr.read().decode()
    child.stderr.close()
    if os.waitstatus_to_exitcode(status) != code:
        raise SystemExit(f"{' '.join(args)}: exit {status}\n{err}")
    return usage.ru_utime + usage.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--command", help="only these commands (comma-separated)")
    options = parser.parse_args()
    chosen = options.command.split(",") if options.command else list(COMMANDS)
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)
        stages = []
        for done in range(len(STEPS) + 1):
            folder = root / f"stage{done}"
            folder.mkdir()
            (folder / "list.csv").write_text(LIST)
            (folder / "jan.trf").write_text(EVENT)
            for step in STEPS[:done]:
                run(step, folder)
            stages.append(folder)
        print(f"{'command':16} median of {options.runs} (user+sys)   min")
        for name in chosen:
            stage, args, code = COMMANDS[name]
            times = []
            for number in range(options.runs):
                folder = root / f"{name}-{number}".replace(" ", "_")
                shutil.copytree(stages[stage], folder, symlinks=True)
                times.append(run(args, folder, code))
            print(f"{name:16} {statistics.median(times):8.3f} s {min(times):16.3f} s", flush=True)


if __name__ == "__main__":
    main()
