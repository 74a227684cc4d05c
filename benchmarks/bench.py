"""Benchmark: prints figures, asserts nothing (``make bench``).

For each size (player-games in one month), in a fresh process so that peak memory is its own:
a seeded synthetic month (``generate.py``: a list of players/10 players and Swiss events of
10-400 players, ~100 player-games a file as in FIDE's month: ~10^4 files for 10^6), then

* TRF parsing throughput (MB/s, lines/s), as ``add`` reads the files (in batches);
* the engine (``rate_period``) on the month, against a bare numpy pass over the same arrays
  (D, the 400 cap, PD by table lookup, ΔR and one ``np.bincount``) and against a
  straightforward per-player Python loop using the same table (the way rating libraries
  compute): times and ratios;
* writing players.csv, games.csv and report.xlsx;
* ``init``, ``add`` and ``publish`` as the command line runs them (each its own process, so
  the times include start-up), wall time, and the largest resident memory they reached;
* the peak resident memory of the benchmark process itself, which holds everything at once;
* once, on a month of 2x10^5 player-games in the default event shape (~300 files): ``rate``
  with all outputs as a process, against ``baseline.py`` (a straightforward pure-Python
  implementation writing players.csv only), and the start-up of ``--version`` and ``--help``;
* once, the web site (docs/site.md) of a 10^5-player list with 10^5 player-games: publish
  with and without it, ``site`` alone, and the site's size (``--site``: this figure only).

    python benchmarks/bench.py                 # 10^4, 10^5, 10^6 player-games
    python benchmarks/bench.py --sizes 10000   # one size
    python benchmarks/bench.py --sizes 1000000 --list-players 1600000   # FIDE's whole list
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).parent))

from generate import FIDE_MONTH, generate_month, make_federation, write_list_csv

from rating_batch.assemble import assemble_period
from rating_batch.inputs import load_events
from rating_batch.pipelines.elo.run import rate_loaded
from rating_batch.pipelines.outputs import write_rate_outputs
from rating_batch.pipelines.registry import find_system
from rating_batch.pipelines.seam import RateRequest
from rating_batch.systems.elo.engine import rate_period
from rating_batch.systems.elo.rules import FIDE_2025, fide_tables
from rating_batch.systems.elo.tables import expected_hundredths
from rating_batch.systems.games import PlayedGames
from rating_batch.systems.glicko2 import Glicko2, rate_glicko2

#: The national systems timed against FIDE Elo on the same period.
NATIONAL = ("uscf", "dwz", "ecf", "ecf-grade")

MONTH = "2026-01"


def best_of(repeats: int, work: Callable[[], object]) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return min(times)


def python_loop(players: pd.DataFrame, games: pd.DataFrame) -> list[float]:
    """The straightforward way: for each player, loop over their games with the same table
    (what per-game rating libraries do), then K × ΣΔR."""
    high, low = fide_tables().pd_high, fide_tables().pd_low
    by_player: dict[int, list[tuple[int, int, float]]] = {}
    for pidx, own, opponent, score, rated in zip(
        games["pidx"].tolist(),
        games["rating"].tolist(),
        games["opponent_rating"].tolist(),
        games["score"].tolist(),
        games["rated"].tolist(),
        strict=True,
    ):
        if rated and own is not pd.NA and opponent is not pd.NA:
            by_player.setdefault(pidx, []).append((own, opponent, score))
    changes = [0.0] * len(players)
    for pidx, played in by_player.items():
        total = 0.0
        for own, opponent, score in played:
            diff = max(-400, min(400, own - opponent))
            index = min(abs(diff), len(high) - 1)
            expected = (high[index] if diff >= 0 else low[index]) / 100
            total += score - expected
        k = 20 if len(played) * 20 <= 700 else 700 // len(played)
        changes[pidx] = k * total
    return changes


def run_one(games: int, repeats: int, list_players: int | None = None) -> dict[str, float]:
    figures: dict[str, float] = {"games": games}
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        rng = np.random.default_rng(2026)
        start = time.perf_counter()
        federation = make_federation(list_players or max(1000, games // 10), rng)
        write_list_csv(federation, root / "list.csv")
        files = generate_month(
            federation, MONTH, games, root, rng, sizes=(10, 400), shape=FIDE_MONTH
        )
        figures["generate_s"] = time.perf_counter() - start
        figures["files"] = len(files)
        figures["players_on_list"] = int((federation.ratings > 0).sum())

        size = sum(path.stat().st_size for path in files)
        lines = sum(path.read_bytes().count(b"\n") for path in files)
        start = time.perf_counter()
        events, _ = load_events(files)
        parse = time.perf_counter() - start
        figures.update(parse_s=parse, parse_mb_s=size / 1e6 / parse, parse_lines_s=lines / parse)
        figures["player_games"] = float(sum(len(event.games) for event in events))

        period = assemble_period(events, FIDE_2025)
        players, frame = period.players, period.games
        pidx = frame["pidx"].to_numpy()
        own = frame["rating"].to_numpy(dtype=np.int64, na_value=-1)
        opponent = frame["opponent_rating"].to_numpy(dtype=np.int64, na_value=-1)
        half = np.rint(frame["score"].to_numpy() * 2).astype(np.int64)
        counted = frame["rated"].to_numpy(bool) & (own >= 0) & (opponent >= 0)

        def bare() -> np.ndarray:
            diff = np.clip(own - opponent, -400, 400)
            delta = 50 * half - expected_hundredths(diff, FIDE_2025)
            return np.bincount(pidx, weights=np.where(counted, delta, 0), minlength=len(players))

        figures["bare_s"] = best_of(repeats, bare)
        figures["engine_s"] = best_of(
            repeats, lambda: rate_period(players, frame, FIDE_2025, period_year=2026)
        )
        figures["loop_s"] = best_of(1, lambda: python_loop(players, frame))
        # Glicko-2 over the same period (docs/systems.md §2), every player from the defaults
        # but for the list's ratings.
        keys = pd.Series(range(frame["event"].nunique()), index=frame["event"].unique())
        played = PlayedGames.of(frame, keys, len(players))
        start_r = players["rating"].astype("Float64").fillna(1500).to_numpy(np.float64)
        figures["glicko2_s"] = best_of(
            repeats,
            lambda: rate_glicko2(start_r, np.full(len(players), 350.0),
                                 np.full(len(players), 0.06), played, Glicko2()),
        )  # fmt: skip

        # The same period rated as a whole (assembled, rated, no files) under FIDE Elo and
        # under each national system from its defaults (docs/systems.md §8-§12).
        for name in ("fide-2025", *NATIONAL):
            system = find_system(name)
            request = RateRequest(events, [], None, "standard", allow_overlap=True)
            figures[f"rate_{name}_s"] = best_of(
                repeats, lambda s=system, r=request: s.rate_events(r)
            )

        rated = rate_loaded(events, [], "fide-2025", None, "standard")
        start = time.perf_counter()
        write_rate_outputs(rated, root / "rate")
        figures["write_s"] = time.perf_counter() - start

        figures["peak_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        # The monthly commands as an officer runs them: each its own process, timed, with the
        # largest resident memory any of them, or any process they forked, reached (each
        # command's own: this process's forked children, above, are not counted).
        db = root / "r.sqlite"
        figures["cli_rss_mb"] = 0.0
        for name, args in (
            ("init", ["init", "--list", root / "list.csv", "--period", "2026-01"]),
            ("add", ["add", root / MONTH]),
            ("publish", ["publish", "2026-02", "--out", root / "lists"]),
        ):
            start = time.perf_counter()
            command = subprocess.Popen(
                [sys.executable, "-m", "rating_batch", "--quiet", *map(str, args), "--db", str(db)]
            )
            _, status, usage = os.wait4(command.pid, 0)
            command.returncode = os.waitstatus_to_exitcode(status)
            if command.returncode:
                raise subprocess.CalledProcessError(command.returncode, command.args)
            figures[f"{name}_s"] = time.perf_counter() - start
            figures["cli_rss_mb"] = max(figures["cli_rss_mb"], usage.ru_maxrss / 1024)
    return figures


def timed(command: list[str], repeats: int) -> float:
    """The best wall time of a whole process, in seconds."""

    def run() -> None:
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL)

    return best_of(repeats, run)


def rate_against_baseline(repeats: int) -> dict[str, float]:
    """``rate`` of a 2x10^5 month with every output, against baseline.py, and start-up."""
    figures: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        rng = np.random.default_rng(2026)
        federation = make_federation(20_000, rng)
        write_list_csv(federation, root / "list.csv")
        files = generate_month(federation, MONTH, 200_000, root, rng)
        figures["files"] = len(files)
        cli = [sys.executable, "-m", "rating_batch"]
        figures["rate_s"] = timed(
            [*cli, "-q", "rate", str(root / MONTH), "--list", str(root / "list.csv"),
             "--rules", "fide-2025", "--out", str(root / "out")],
            repeats,
        )  # fmt: skip
        figures["baseline_s"] = timed(
            [sys.executable, str(Path(__file__).parent / "baseline.py"), "--list",
             str(root / "list.csv"), "--out", str(root / "players.csv"), *map(str, files)],
            repeats,
        )  # fmt: skip
    figures["version_s"] = timed([*cli, "--version"], repeats)
    figures["help_s"] = timed([*cli, "--help"], repeats)
    return figures


def folder_mb(folder: Path) -> float:
    """The size of every file under ``folder``, in MB (10^6 bytes)."""
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file()) / 1e6


def site_figures(players: int = 100_000, games: int = 100_000) -> dict[str, float]:
    """The web site (docs/site.md) of a list of ``players`` with ``games`` player-games in
    its period: publish (which writes the site), ``site`` alone (the same pages again, from
    the database), and their sizes, each command its own process."""
    figures: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        rng = np.random.default_rng(2026)
        federation = make_federation(players, rng)
        write_list_csv(federation, root / "list.csv")
        generate_month(federation, MONTH, games, root, rng, sizes=(10, 400), shape=FIDE_MONTH)
        db = root / "r.sqlite"
        cli = [sys.executable, "-m", "rating_batch", "--quiet"]
        for name, args in (
            ("init", ["init", "--list", root / "list.csv", "--period", "2026-01"]),
            ("add", ["add", root / MONTH]),
            ("publish", ["publish", "2026-02", "--out", root / "lists"]),
            ("site", ["site", "--out", root / "again"]),
        ):
            start = time.perf_counter()
            subprocess.run([*cli, *map(str, args), "--db", str(db)], check=True)
            figures[f"{name}_s"] = time.perf_counter() - start
        figures["start_s"] = timed([*cli[:-1], "--version"], 3)
        figures["period_mb"] = folder_mb(root / "lists" / "2026-02")
        figures["site_mb"] = folder_mb(root / "lists" / "site")
        site = root / "lists" / "site"
        figures["site_files"] = sum(1 for p in site.rglob("*") if p.is_file())
        figures["player_pages"] = sum(1 for _ in (site / "players").iterdir())
        figures["list_players"] = players
        figures["player_games"] = games
    return figures


def report_site(f: dict[str, float]) -> None:
    """The site's figures: publish with it, and without it (publish less the site's own
    time, which is ``site``'s less a command's start-up)."""
    own = f["site_s"] - f["start_s"]
    print(
        f"web site of a {f['list_players']:,.0f}-player list, {f['player_games']:,.0f} "
        f"player-games: publish {f['publish_s']:.2f} s with the site, "
        f"{f['publish_s'] - own:.2f} s without it; 'site' alone {f['site_s']:.2f} s "
        f"({f['player_pages']:,.0f} player pages, {f['site_files']:,.0f} files, "
        f"{f['site_mb']:.0f} MB; the period's own files {f['period_mb']:.0f} MB)"
    )


def report(all_figures: list[dict[str, float]]) -> None:
    print(
        f"machine: {platform.machine()}, {os.cpu_count()} cores, python "
        f"{platform.python_version()}, numpy {np.__version__}, pandas {pd.__version__}"
    )
    rows = [
        ("player-games", lambda f: f"{f['player_games']:,.0f}"),
        (
            "TRF files / players on list",
            lambda f: f"{f['files']:,.0f} / {f['players_on_list']:,.0f}",
        ),
        ("TRF parse MB/s", lambda f: f"{f['parse_mb_s']:.1f}"),
        ("TRF parse lines/s", lambda f: f"{f['parse_lines_s']:,.0f}"),
        ("bare numpy pass", lambda f: f"{f['bare_s'] * 1000:.1f} ms"),
        ("engine rate_period", lambda f: f"{f['engine_s'] * 1000:.1f} ms"),
        ("engine player-games/s", lambda f: f"{f['player_games'] / f['engine_s']:,.0f}"),
        ("engine / bare numpy", lambda f: f"{f['engine_s'] / f['bare_s']:.1f}x"),
        ("per-player Python loop", lambda f: f"{f['loop_s'] * 1000:.0f} ms"),
        ("Glicko-2 period (vectorised)", lambda f: f"{f['glicko2_s'] * 1000:.1f} ms"),
        ("Glicko-2 / engine", lambda f: f"{f['glicko2_s'] / f['engine_s']:.1f}x"),
        ("rate, no files: FIDE Elo", lambda f: f"{f['rate_fide-2025_s']:.2f} s"),
        *(
            (
                f"rate, no files: {name} / FIDE Elo",
                lambda f, n=name: f"{f[f'rate_{n}_s'] / f['rate_fide-2025_s']:.1f}x",
            )
            for name in NATIONAL
        ),
        ("loop / engine", lambda f: f"{f['loop_s'] / f['engine_s']:.1f}x"),
        ("init (list)", lambda f: f"{f['init_s']:.2f} s"),
        ("add (all files)", lambda f: f"{f['add_s']:.2f} s"),
        ("publish", lambda f: f"{f['publish_s']:.2f} s"),
        ("add + publish", lambda f: f"{f['add_s'] + f['publish_s']:.2f} s"),
        ("write CSV + XLSX (rate)", lambda f: f"{f['write_s']:.2f} s"),
        ("peak RSS, init/add/publish processes", lambda f: f"{f['cli_rss_mb']:,.0f} MB"),
        ("peak RSS, this process (all in memory)", lambda f: f"{f['peak_rss_mb']:,.0f} MB"),
    ]
    width = max(len(label) for label, _ in rows)
    print(f"{'':{width}}  " + "  ".join(f"{f['games']:>14,.0f}" for f in all_figures))
    for label, show in rows:
        print(f"{label:{width}}  " + "  ".join(f"{show(f):>14}" for f in all_figures))


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000, 1_000_000])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument(
        "--list-players",
        type=int,
        help="players in the federation (default: player-games / 10; FIDE's list: 1600000)",
    )
    parser.add_argument("--one", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--site", action="store_true", help="the web site's figures only")
    args = parser.parse_args()
    if args.site:
        report_site(site_figures())
        return
    if args.one:
        print(json.dumps(run_one(args.one, args.repeats, args.list_players)))
        return
    whole = rate_against_baseline(args.repeats)
    results = []
    for size in args.sizes:
        extra = ["--list-players", str(args.list_players)] if args.list_players else []
        done = subprocess.run(
            [sys.executable, __file__, "--one", str(size), "--repeats", str(args.repeats), *extra],
            capture_output=True,
            text=True,
            check=True,
        )
        results.append(json.loads(done.stdout.strip().splitlines()[-1]))
    report(results)
    print(
        f"rate of 200,000 player-games in {whole['files']:,.0f} files, all outputs: "
        f"{whole['rate_s']:.2f} s; baseline.py (players.csv only): {whole['baseline_s']:.2f} s "
        f"({whole['rate_s'] / whole['baseline_s']:.1f}x the baseline's time)"
    )
    print(f"start-up: --version {whole['version_s']:.2f} s, --help {whole['help_s']:.2f} s")
    report_site(site_figures())


if __name__ == "__main__":
    main()
