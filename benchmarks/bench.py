"""Benchmark: prints figures, asserts nothing (``make bench``).

Engine throughput on a synthetic period (default 10^6 player-games among 10^5 players),
against a bare numpy pass over the same arrays: D, the 400 cap, PD by table lookup, ΔR and
one ``np.bincount`` per player, which is the least any exact engine must do.
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import time
from collections.abc import Callable

import numpy as np
import pandas as pd

from rating_batch.engine import (
    PERIOD_GAMES,
    PERIOD_PLAYERS,
    expected_hundredths,
    in_run_order,
    rate_period,
)
from rating_batch.rules import FIDE_2025
from rating_batch.schema import conform


def synthetic_period(games: int, players: int, seed: int) -> tuple[pd.DataFrame, pd.DataFrame]:
    """A period whose games pair random players; 10 % unrated, 5 % of games unplayed."""
    rng = np.random.default_rng(seed)
    rating = rng.normal(1750, 300, players).clip(1000, 2850).astype(np.int64)
    unrated = rng.random(players) < 0.10
    pairs = games // 2
    white = rng.integers(0, players, pairs)
    black = (white + rng.integers(1, players, pairs)) % players
    outcome = rng.choice(np.array([2, 1, 0]), pairs, p=[0.4, 0.2, 0.4])
    played = rng.random(pairs) >= 0.05
    pidx = np.concatenate([white, black])
    oidx = np.concatenate([black, white])
    half = np.concatenate([outcome, 2 - outcome])
    event = (np.arange(games) % (pairs or 1)) // 40  # about 40 player-games per event
    ids = pd.array(np.arange(players).astype(str), dtype="string")
    table = pd.DataFrame(
        {
            "id": ids,
            "fide_id": pd.array(np.arange(players), dtype="Int64"),
            "name": ids,
            "federation": pd.NA,
            "title": pd.NA,
            "sex": pd.NA,
            "birth_year": pd.array(rng.integers(1950, 2015, players), dtype="Int64"),
            "rating": pd.Series(rating, dtype="Int64").mask(unrated),
            "k": pd.NA,
            "games_total": pd.NA,
            "ever_high": pd.NA,
            "ever_junior_ceiling": pd.NA,
            "events": 1,
        }
    )
    own = table["rating"].to_numpy()
    frame = pd.DataFrame(
        {
            "event": pd.array((event).astype(str), dtype="string"),
            "event_order": event,
            "round": np.arange(games) % 9 + 1,
            "id": ids[pidx],
            "opponent_id": ids[oidx],
            "pidx": pidx,
            "oidx": oidx,
            "player": pidx,
            "opponent": oidx,
            "colour": "w",
            "result": "1",
            "score": half / 2,
            "rated": np.concatenate([played, played]),
            "reason": pd.NA,
            "rating": own[pidx],
            "opponent_rating": own[oidx],
            "source": "synthetic.trf",
            "line": pidx,
        }
    )
    # As assemble_period leaves them: ordered by event, then player.
    return conform(table, PERIOD_PLAYERS), in_run_order(conform(frame, PERIOD_GAMES), players)


def best_of(repeats: int, work: Callable[[], object]) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=1_000_000)
    parser.add_argument("--players", type=int, default=100_000)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()

    players, games = synthetic_period(args.games, args.players, seed=2026)
    pidx = games["pidx"].to_numpy()
    own = games["rating"].fillna(-1).to_numpy(np.int64)
    opponent = games["opponent_rating"].fillna(-1).to_numpy(np.int64)
    half = np.rint(games["score"].to_numpy() * 2).astype(np.int64)
    counted = games["rated"].to_numpy() & (own >= 0) & (opponent >= 0)

    def bare() -> np.ndarray:
        diff = np.clip(own - opponent, -400, 400)
        delta = 50 * half - expected_hundredths(diff, FIDE_2025)
        return np.bincount(pidx, weights=np.where(counted, delta, 0), minlength=len(players))

    def engine() -> object:
        return rate_period(players, games, FIDE_2025, period_year=2026)

    bare_s = best_of(args.repeats, bare)
    engine_s = best_of(args.repeats, engine)
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    versions = (
        f"python {platform.python_version()}, numpy {np.__version__}, pandas {pd.__version__}"
    )
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, {versions}")
    print(f"period: {args.games:,} player-games among {args.players:,} players")
    print(f"(best of {args.repeats} runs each)")
    for label, seconds in (
        ("bare numpy pass (D, cap, PD, ΔR, bincount)", bare_s),
        ("engine rate_period (all outputs)", engine_s),
    ):
        rate = args.games / seconds
        print(f"{label:44} {seconds * 1000:8.1f} ms {rate:14,.0f} player-games/s")
    print(f"engine / bare ratio: {engine_s / bare_s:.1f}x")
    print(f"peak RSS: {peak_mb:,.0f} MB")


if __name__ == "__main__":
    main()
