"""Benchmark: does a command cost the same in the tenth year of a database as in its first?
(``make bench-history``; prints figures, asserts nothing.)

Builds a seeded synthetic federation's database month after month, as an officer would:
``init`` from a list, then for each month ``add`` of that month's generated TRF files
(``generate.py``, the default event shape), ``publish`` of the next list and a whole copy of
the database (``backup``, as an officer's monthly schedule would; skipped by versions without
the command), each command its own process, timed, with the database's size after it. Prints
the figures of chosen months, the ratio of the last month's ``add`` and ``publish`` to the
second's (the first month publishes from an initial list with no history at all), and what
lies beside the database: the published files, their second copies and the whole copies.

    python benchmarks/history.py                           # 120 months of 10^5 player-games
    python benchmarks/history.py --months 24 --games 10000 # a quick look
    python benchmarks/history.py --drift --keep /tmp/ten   # ten years for drift (docs/drift.md)

``--drift`` builds the ten years for ``rating-batch drift`` (docs/drift.md): a month of a tenth
(``DRIFT_GAMES``, 10^4 player-games, 1,000 players), no whole copies (drift reads the lists
only), then runs ``drift`` on the database and times it; 10^5 a month takes about two hours
on a 2-core machine, the tenth well under one.
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


def command(db: Path, *args: object, optional: bool = False) -> float:
    """Run one rating-batch command in its own process; its wall time in seconds (NaN for an
    ``optional`` command this version does not have)."""
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "rating_batch", "--quiet", *map(str, args), "--db", str(db)],
        check=not optional,
        stderr=subprocess.PIPE if optional else None,
    )
    if optional and done.returncode == 2:  # a usage error: no such command
        return float("nan")
    done.check_returncode()
    return time.perf_counter() - start


def journal_mb(db: Path) -> float:
    """The undo journal's share of the database (its ``undo_*`` tables and indexes)."""
    import sqlite3

    connection = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        row = connection.execute(
            "SELECT SUM(pgsize) FROM dbstat WHERE name LIKE 'undo%'"
        ).fetchone()
    except sqlite3.Error:
        return float("nan")
    finally:
        connection.close()
    return float(row[0] or 0) / 1e6


#: Player-games a month of ``--drift``: a tenth of the default, so ten years build in well
#: under an hour where 10^5 takes two (the pool's drift shows at this size as at 10^5).
DRIFT_GAMES = 10_000


def run(
    months: int, games: int, players: int, root: Path, *, backups: bool = True
) -> list[dict[str, float | str]]:
    """Build the database (``backups``: a whole copy after each month); the figures of every
    month."""
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
        backup = command(db, "backup", optional=True) if backups else float("nan")
        size = db.stat().st_size / 1e6
        rows.append(
            {"number": number, "month": month, "add": add, "publish": publish, "backup": backup,
             "mb": size, "journal_mb": journal_mb(db)}
        )  # fmt: skip
        print(
            f"month {number:3d} ({month}): add {add:6.2f} s  publish {publish:6.2f} s  "
            f"backup {backup:5.2f} s  database {size:8.1f} MB",
            file=sys.stderr,
            flush=True,
        )
    # Beside the database: the published files, their second copies (hard links before
    # schema 8: counted once, in the files folder) and the whole copies.
    seen: set[int] = set()
    folders = {
        "files": Path(f"{db}.files"),
        "spare": Path(f"{db}.backups") / "files",
        "copies": Path(f"{db}.backups"),
    }
    for name, folder in folders.items():
        total = 0
        found = folder.glob("*.sqlite") if name == "copies" else folder.rglob("*")
        for path in found if folder.is_dir() else []:
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
    print(
        f"{'month':>5}  {'add s':>7}  {'publish s':>9}  {'backup s':>8}  {'database MB':>11}  "
        f"{'of it journal':>13}"
    )
    for number in shown:
        row = rows[number - 1]
        print(
            f"{number:5d}  {row['add']:7.2f}  {row['publish']:9.2f}  {row['backup']:8.2f}  "
            f"{row['mb']:11.1f}  {row['journal_mb']:13.1f}"
        )
    if len(rows) >= 3:
        second, last = rows[1], rows[-1]
        growth = [float(b["mb"]) - float(a["mb"]) for a, b in itertools.pairwise(rows)]
        print(
            f"month {len(rows)} / month 2: add {float(last['add']) / float(second['add']):.2f}x, "
            f"publish {float(last['publish']) / float(second['publish']):.2f}x; database growth "
            f"per month {min(growth):.1f}-{max(growth):.1f} MB"
        )
    last = rows[-1]
    database = float(last["mb"])
    print(
        f"after month {len(rows)}: database {database:.0f} MB (of it the undo journal "
        f"{float(last['journal_mb']):.0f} MB); published files {float(last['files_mb']):.0f} MB "
        f"and their second copies {float(last['spare_mb']):.0f} MB; whole copies "
        f"{float(last['copies_mb']):.0f} MB ({float(last['copies_mb']) / database:.1f}x the "
        "database)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--months", type=int, default=120)
    parser.add_argument(
        "--games", type=int, help=f"player-games a month (default 100,000; --drift {DRIFT_GAMES:,})"
    )
    parser.add_argument("--players", type=int, help="players (default: player-games / 10)")
    parser.add_argument("--keep", type=Path, help="build the database in this folder and keep it")
    parser.add_argument(
        "--drift",
        action="store_true",
        help=f"for rating-batch drift: {DRIFT_GAMES:,} player-games a month unless --games, "
        "no whole copies, then drift run and timed (needs --keep: the page stays there)",
    )
    args = parser.parse_args()
    if args.drift and not args.keep:
        parser.error("--drift needs --keep DIR: the database and the drift page stay there")
    games = args.games or (DRIFT_GAMES if args.drift else 100_000)
    players = args.players or max(1000, games // 10)
    if args.keep:
        args.keep.mkdir(parents=True, exist_ok=True)
        rows = run(args.months, games, players, args.keep, backups=not args.drift)
    else:
        with tempfile.TemporaryDirectory() as folder:
            rows = run(args.months, games, players, Path(folder))
    report(rows, games)
    if args.drift:
        took = command(args.keep / "history.sqlite", "drift", "--out", args.keep / "drift")
        print(f"drift over {len(rows) + 1} lists: {took:.1f} s; the page: "
              f"{args.keep / 'drift' / 'drift-standard.html'}")  # fmt: skip


if __name__ == "__main__":
    main()
