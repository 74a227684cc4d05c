"""Benchmark: this code against an earlier commit on the same generated months, whole processes,
paired (``make bench-pair``; prints figures, asserts nothing). Issue 42's targets are read here.

The earlier commit (``--base``, default 53108da: the code before issues 23 and 24) is checked
out beside the data with a venv of its own, once. The data are seeded (``generate.py``, as
``bench.py`` makes them): a list of 100,000 players and a month of 10^6 player-games in
FIDE's event shape (~9,700 TRF files); a quiet next month of 2x10^4 player-games of the same
pool; and a month of 2x10^5 player-games in the default shape (665 files) with a list of
20,000. Each figure is a pair of runs, the base's and this code's, one after the other
(the order alternating), repeated ``--pairs`` times; the table gives medians and the ratio's
median with its min–max. Processor time is user + system of the process and every child it
waited for (``os.wait4``), peak memory the largest single process's.

* ``month``: ``add`` of the 10^6 month to a fresh copy of a database ``init`` made from the
  list, then ``publish`` of its list (this code with the web site, its default; the base
  wrote none); the published list.csv of both compared, row for row;
* ``quiet``: after ``month``, ``add`` and ``publish`` of the quiet month (this code only: its
  target is a quarter of the big month's ``publish``);
* ``rate``: ``rate`` of the 2x10^5 month with every default output;
* ``help``: ``rating-batch --help``.

    python benchmarks/pair.py                      # every figure, 3 pairs
    python benchmarks/pair.py --only rate help --pairs 5
    python benchmarks/pair.py --data /tmp/pairdata --base 53108da
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))

from generate import FIDE_MONTH, generate_month, make_federation, write_list_csv

REPOSITORY = Path(__file__).resolve().parent.parent
#: The events' months, and the lists: the initial one, the big month's and the quiet month's
#: (a list rates the events that ended in the month before it).
MONTH, QUIET = "2026-01", "2026-02"
LIST_MONTH, PUBLISH, PUBLISH_QUIET = "2026-01", "2026-02", "2026-03"
FIGURES = ("month", "quiet", "rate", "help")


@dataclass(frozen=True)
class Run:
    """One whole process: wall, processor time (user + system, children included), peak."""

    wall: float
    cpu: float
    peak_mib: float


def run(command: Sequence[str], cwd: Path | None = None) -> Run:
    start = time.perf_counter()
    process = subprocess.Popen(
        list(command), cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    if status != 0:
        error = process.stderr.read().decode(errors="replace") if process.stderr else ""
        raise SystemExit(f"{' '.join(command)} failed ({status}):\n{error}")
    # ru_maxrss is in KiB on Linux.
    return Run(wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024)


def make_data(data: Path) -> None:
    """The seeded months, once (about ten minutes on a 2-core machine)."""
    if (data / "ready").exists():
        return
    data.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(2026)
    federation = make_federation(100_000, rng)
    write_list_csv(federation, data / "list6.csv")
    for name, month, games in (("m6", MONTH, 1_000_000), ("quiet", QUIET, 20_000)):
        generate_month(federation, month, games, data / name, rng, shape=FIDE_MONTH)
    rng = np.random.default_rng(2026)
    federation = make_federation(20_000, rng)
    write_list_csv(federation, data / "list2.csv")
    generate_month(federation, MONTH, 200_000, data / "m2", rng)
    (data / "ready").touch()


def base_command(data: Path, commit: str) -> Path:
    """The base commit's ``rating-batch``, checked out and installed beside the data once."""
    folder = data / f"base-{commit}"
    program = folder / ".venv" / "bin" / "rating-batch"
    if program.exists():
        return program
    subprocess.run(["git", "-C", str(REPOSITORY), "worktree", "add", "--detach", str(folder),
                    commit], check=True)  # fmt: skip
    subprocess.run([sys.executable, "-m", "venv", str(folder / ".venv")], check=True)
    subprocess.run([str(folder / ".venv" / "bin" / "pip"), "install", "--quiet", "-e",
                    str(folder)], check=True)  # fmt: skip
    return program


def paired(
    pairs: int, base: Callable[[], Run], now: Callable[[], Run]
) -> tuple[list[Run], list[Run]]:
    before: list[Run] = []
    after: list[Run] = []
    for index in range(pairs):
        order = ((before, base), (after, now)) if index % 2 == 0 else ((after, now), (before, base))
        for into, work in order:
            into.append(work())
    return before, after


def line(name: str, before: list[Run] | None, after: list[Run]) -> str:
    """A figure's row: per measure the base's median, this code's, and their ratio's median
    with its min–max over the pairs (this code's median alone without a base)."""
    text = f"{name:<34}"
    for field, unit in (("wall", "s"), ("cpu", "s"), ("peak_mib", "MiB")):
        now = [getattr(run, field) for run in after]
        if before is None:
            text += f" | {statistics.median(now):9.2f} {unit:<3}"
            continue
        then = [getattr(run, field) for run in before]
        ratios = [a / b for a, b in zip(now, then, strict=True)]
        text += (
            f" | {statistics.median(then):9.2f} → {statistics.median(now):9.2f} {unit:<3} "
            f"{statistics.median(ratios):.2f}× ({min(ratios):.2f}–{max(ratios):.2f})"
        )
    return text


def month_runs(
    program: Path, data: Path, scratch: Path, database: Path, tag: str
) -> dict[str, Run]:
    """add + publish of the 10^6 month on a copy of ``database``; the list kept for comparison."""
    work = scratch / tag
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir()
    db = work / "db.sqlite"
    shutil.copy(database, db)
    add = run([str(program), "-q", "add", str(data / "m6" / MONTH), "--db", str(db)])
    publish = run(
        [str(program), "-q", "publish", PUBLISH, "--db", str(db), "--out", str(work / "out")]
    )
    return {"add": add, "publish": publish}


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--base", default="53108da")
    parser.add_argument("--pairs", type=int, default=3)
    parser.add_argument("--data", type=Path, default=Path(tempfile.gettempdir()) / "rb-pair")
    parser.add_argument("--only", nargs="+", choices=FIGURES, default=list(FIGURES))
    parser.add_argument("--now", type=Path, default=Path(sys.executable).parent / "rating-batch")
    args = parser.parse_args(argv)
    make_data(args.data)
    base = base_command(args.data, args.base)
    now: Path = args.now
    scratch = args.data / "scratch"
    scratch.mkdir(exist_ok=True)
    print(f"base {args.base} ({base}) against {now}; {args.pairs} pairs; medians, now / base")
    print(f"{'':<34} | {'wall':^35} | {'processor time':^35} | {'peak memory':^35}")

    databases = {}
    for tag, program in (
        (("base", base), ("now", now)) if {"month", "quiet"} & set(args.only) else ()
    ):
        database = scratch / f"init-{tag}.sqlite"
        database.unlink(missing_ok=True)
        run([str(program), "-q", "init", "--list", str(args.data / "list6.csv"), "--period",
             LIST_MONTH, "--db", str(database)])  # fmt: skip
        databases[tag] = database

    if "month" in args.only or "quiet" in args.only:
        results: dict[str, list[dict[str, Run]]] = {"base": [], "now": []}
        for index in range(args.pairs):
            for tag in ("base", "now") if index % 2 == 0 else ("now", "base"):
                program = base if tag == "base" else now
                results[tag].append(month_runs(program, args.data, scratch, databases[tag], tag))
        for step in ("add", "publish"):
            print(line(f"10^6 month: {step}", [r[step] for r in results["base"]],
                       [r[step] for r in results["now"]]))  # fmt: skip

        def both(runs: dict[str, Run]) -> Run:
            add, publish = runs["add"], runs["publish"]
            return Run(add.wall + publish.wall, add.cpu + publish.cpu,
                       max(add.peak_mib, publish.peak_mib))  # fmt: skip

        print(line("10^6 month: add + publish", [both(r) for r in results["base"]],
                   [both(r) for r in results["now"]]))  # fmt: skip
        same = (scratch / "base" / "out" / PUBLISH / "standard" / "list.csv").read_bytes() == (
            scratch / "now" / "out" / PUBLISH / "standard" / "list.csv"
        ).read_bytes()
        print(f"{'10^6 month: list.csv the same bytes':<34} | {same}")
        if "quiet" in args.only:
            db = scratch / "now" / "db.sqlite"
            add = run([str(now), "-q", "add", str(args.data / "quiet" / QUIET), "--db", str(db)])
            publish = run([str(now), "-q", "publish", PUBLISH_QUIET, "--db", str(db), "--out",
                           str(scratch / "now" / "out")])  # fmt: skip
            quiet = both({"add": add, "publish": publish})
            big = statistics.median(r["publish"].cpu for r in results["now"])
            print(line("quiet month: add + publish", None, [quiet]))
            print(f"{'quiet / big month publish (cpu)':<34} | {quiet.cpu / big:.2f}")

    if "rate" in args.only:

        def rate(program: Path) -> Callable[[], Run]:
            out = scratch / f"rate-{program.parent.parent.parent.name}"
            return lambda: run([str(program), "-q", "rate", str(args.data / "m2" / MONTH), "--list",
                                str(args.data / "list2.csv"), "--rules", "fide-2025", "--out",
                                str(out)])  # fmt: skip

        print(line("rate 2x10^5, default outputs", *paired(args.pairs, rate(base), rate(now))))
    if "help" in args.only:

        def helped(program: Path) -> Callable[[], Run]:
            return lambda: run([str(program), "--help"])

        print(line("--help", *paired(max(args.pairs, 5), helped(base), helped(now))))


if __name__ == "__main__":
    main()
