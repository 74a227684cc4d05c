"""Benchmark: does a command cost the same in the tenth year of a database as in its first?
(``make bench-history``; prints figures, asserts nothing.)

Builds a seeded synthetic federation's database month after month, as an officer would:
``init`` from a list, then for each month ``add`` of that month's generated TRF files
(``generate.py``, the default event shape) and ``publish`` of the next list, each command its
own process, timed, with the database's size after it. Prints the figures of chosen months
and the ratio of the last month's ``add`` and ``publish`` to the second's (the first month
publishes from an initial list with no history at all).

    python benchmarks/history.py                           # 120 months of 10^5 player-games
    python benchmarks/history.py --months 24 --games 10000 # a quick look
"""

from __future__ import annotations

import argparse
import datetime as dt
import itertools
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))

from generate import generate_month, make_federation, write_list_csv


def month_after(month: str, count: int = 1) -> str:
    year, number = (int(part) for part in month.split("-"))
    index = year * 12 + number - 1 + count
    return f"{index // 12:04d}-{index % 12 + 1:02d}"


def command(db: Path, *args: object) -> float:
    """Run one rating-batch command in its own process; its wall time in seconds."""
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "rating_batch", "--quiet", *map(str, args), "--db", str(db)],
        check=True,
    )
    return time.perf_counter() - start


def run(months: int, games: int, players: int, root: Path) -> list[dict[str, float | str]]:
    """Build the database; the figures of every month."""
    rng = np.random.default_rng(2026)
    federation = make_federation(players, rng)
    # The last month is the one before this: the database refuses events in the future.
    today = dt.date.today()
    first = month_after(f"{today.year:04d}-{today.month:02d}", -months)
    write_list_csv(federation, root / "list.csv")
    db = root / "history.sqlite"
    command(db, "init", "--list", root / "list.csv", "--period", first)
    rows: list[dict[str, float | str]] = []
    for number in range(1, months + 1):
        month = month_after(first, number - 1)
        generate_month(federation, month, games, root, rng)
        add = command(db, "add", root / month)
        shutil.rmtree(root / month)
        publish = command(db, "publish", month_after(month), "--out", root / "lists")
        shutil.rmtree(root / "lists")
        size = db.stat().st_size / 1e6
        rows.append({"number": number, "month": month, "add": add, "publish": publish, "mb": size})
        print(
            f"month {number:3d} ({month}): add {add:6.2f} s  publish {publish:6.2f} s  "
            f"database {size:8.1f} MB",
            file=sys.stderr,
            flush=True,
        )
    # Beside the database: the published files (each once) and the backups (twins of the
    # published files are hard links: counted once, in the files folder).
    seen: set[int] = set()
    for name, folder in (("files", Path(f"{db}.files")), ("backups", Path(f"{db}.backups"))):
        total = 0
        for path in folder.rglob("*"):
            if path.is_file() and path.stat().st_ino not in seen:
                seen.add(path.stat().st_ino)
                total += path.stat().st_size
        rows[-1][f"{name}_mb"] = total / 1e6
    return rows


def report(rows: list[dict[str, float | str]], games: int) -> None:
    print(
        f"machine: {platform.machine()}, {os.cpu_count()} cores, python "
        f"{platform.python_version()}; {len(rows)} months of {games:,} player-games"
    )
    shown = sorted({1, 2, 3, *range(12, len(rows) + 1, 12), len(rows)} & {*range(1, len(rows) + 1)})
    print(f"{'month':>5}  {'add s':>7}  {'publish s':>9}  {'database MB':>11}")
    for number in shown:
        row = rows[number - 1]
        print(f"{number:5d}  {row['add']:7.2f}  {row['publish']:9.2f}  {row['mb']:11.1f}")
    if len(rows) >= 3:
        second, last = rows[1], rows[-1]
        growth = [float(b["mb"]) - float(a["mb"]) for a, b in itertools.pairwise(rows)]
        print(
            f"month {len(rows)} / month 2: add {float(last['add']) / float(second['add']):.2f}x, "
            f"publish {float(last['publish']) / float(second['publish']):.2f}x; database growth "
            f"per month {min(growth):.1f}-{max(growth):.1f} MB"
        )
    last = rows[-1]
    print(
        f"after month {len(rows)}: database {float(last['mb']):.0f} MB, published files "
        f"{float(last['files_mb']):.0f} MB (kept once), backups {float(last['backups_mb']):.0f} MB"
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--months", type=int, default=120)
    parser.add_argument("--games", type=int, default=100_000, help="player-games a month")
    parser.add_argument("--players", type=int, help="players (default: player-games / 10)")
    parser.add_argument("--keep", type=Path, help="build the database in this folder and keep it")
    args = parser.parse_args()
    players = args.players or max(1000, args.games // 10)
    if args.keep:
        args.keep.mkdir(parents=True, exist_ok=True)
        rows = run(args.months, args.games, players, args.keep)
    else:
        with tempfile.TemporaryDirectory() as folder:
            rows = run(args.months, args.games, players, Path(folder))
    report(rows, args.games)


if __name__ == "__main__":
    main()
