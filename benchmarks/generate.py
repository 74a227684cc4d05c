"""A synthetic but realistic federation, seeded: a rating list and months of TRF events.

Players have synthetic names and IDs (900000001 …); ratings are roughly normal around 1750;
about 10 % are unrated (absent from the list); events are Swiss tournaments whose rounds pair
players of similar scores, with results drawn from FIDE's expected scores, pairing-allocated
byes, requested half-point byes, forfeits and withdrawals. Nothing here is real data.

    python benchmarks/generate.py --out DIR --players 2000 --months 2026-01 2026-02 \\
        --games-per-month 5000 --seed 7
"""

from __future__ import annotations

import argparse
import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

SYLLABLES = [
    "ka",
    "lo",
    "mi",
    "ra",
    "ne",
    "to",
    "su",
    "vi",
    "an",
    "el",
    "or",
    "is",
    "ta",
    "ko",
    "ri",
    "mu",
    "de",
    "sa",
    "li",
    "no",
    "be",
    "ga",
    "fe",
    "ru",
]
FEDERATIONS = ["ESP", "IRL", "BRA", "FRA", "GER", "ITA", "POR", "NED"]
TIME_CONTROLS = {
    "standard": "90 minutes + 30 seconds per move",
    "rapid": "15 minutes + 10 seconds per move",
    "blitz": "3 minutes + 2 seconds per move",
}
FIRST_ID = 900_000_001
#: Event-size shape for a FIDE-like month: ~100 player-games per file (see generate_month).
FIDE_MONTH = (2.0, 1.0)


@dataclass
class Federation:
    """The synthetic players: ids, names, ratings (0 = unrated), birth years, federations."""

    ids: np.ndarray
    names: list[str]
    ratings: np.ndarray
    births: np.ndarray
    federations: np.ndarray
    sexes: np.ndarray


def make_federation(players: int, rng: np.random.Generator) -> Federation:
    def name() -> str:
        last = "".join(rng.choice(SYLLABLES, rng.integers(2, 4))).capitalize()
        first = "".join(rng.choice(SYLLABLES, rng.integers(2, 3))).capitalize()
        return f"{last}, {first}"

    ratings = np.clip(rng.normal(1750, 280, players), 1400, 2750).astype(np.int64)
    ratings[rng.random(players) < 0.10] = 0
    return Federation(
        ids=np.arange(FIRST_ID, FIRST_ID + players),
        names=[name() for _ in range(players)],
        ratings=ratings,
        births=rng.integers(1950, 2016, players),
        federations=rng.choice(FEDERATIONS, players),
        sexes=rng.choice(np.array(["m", "w"]), players, p=[0.85, 0.15]),
    )


def write_list_csv(federation: Federation, path: Path) -> None:
    rated = federation.ratings > 0
    lines = ["id,name,federation,sex,birth_year,rating"]
    for i in np.flatnonzero(rated):
        sex = "M" if federation.sexes[i] == "m" else "F"
        lines.append(
            f'{federation.ids[i]},"{federation.names[i]}",{federation.federations[i]},{sex},'
            f"{federation.births[i]},{federation.ratings[i]}"
        )
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def write_list_txt(federation: Federation, path: Path, month: str) -> None:
    """The same list in FIDE's single-kind TXT layout (for the loaders' benchmark)."""
    header = (
        "ID Number      Name                                                         Fed Sex "
        f"Tit  WTit OTit           FOA {month} Gms K  B-day Flag"
    )
    rows = [header]
    for i in np.flatnonzero(federation.ratings > 0):
        sex = "M" if federation.sexes[i] == "m" else "F"
        rows.append(
            f"{federation.ids[i]:<15}{federation.names[i]:<61}{federation.federations[i]:<4}"
            f"{sex:<4}{'':<5}{'':<5}{'':<15}{'':<4}{federation.ratings[i]:<6}{0:<4}{20:<3}"
            f"{federation.births[i]:<6}"
        )
    path.write_bytes(("\r\n".join(rows) + "\r\n").encode("ascii"))


def expected(diff: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + 10.0 ** (-np.clip(diff, -400, 400) / 400.0))


def swiss_event(
    federation: Federation,
    members: np.ndarray,
    rounds: int,
    rng: np.random.Generator,
    *,
    name: str,
    start: dt.date,
    kind: str,
) -> str:
    """One Swiss event as TRF text: pairings by score groups, results from expectations."""
    count = len(members)
    ratings = federation.ratings[members]
    strength = np.where(ratings > 0, ratings, 1500) + rng.normal(0, 60, count)
    order = np.argsort(-strength, kind="stable")
    members, ratings, strength = members[order], ratings[order], strength[order]
    points = np.zeros(count)
    blocks = [[" " * 10 for _ in range(rounds)] for _ in range(count)]
    withdrawn = np.zeros(count, dtype=bool)
    for rnd in range(rounds):
        withdrawn |= rng.random(count) < 0.01
        half_bye = ~withdrawn & (rng.random(count) < 0.02)
        present = np.flatnonzero(~withdrawn & ~half_bye)
        for i in np.flatnonzero(half_bye):
            blocks[i][rnd] = "0000 - H  "
            points[i] += 0.5
        for i in np.flatnonzero(withdrawn):
            blocks[i][rnd] = "0000 - Z  "
        ranked = present[
            np.lexsort((rng.random(len(present)), -strength[present], -points[present]))
        ]
        if len(ranked) % 2:
            bye, ranked = ranked[-1], ranked[:-1]
            blocks[bye][rnd] = "0000 - U  "
            points[bye] += 1
        white, black = ranked[0::2], ranked[1::2]
        swap = rng.random(len(white)) < 0.5
        white, black = np.where(swap, black, white), np.where(swap, white, black)
        draw = rng.random(len(white))
        p = expected(strength[white] - strength[black])
        draws = 0.25
        white_wins = draw < p * (1 - draws)
        black_wins = draw > 1 - (1 - p) * (1 - draws)
        forfeit = rng.random(len(white)) < 0.01
        for w, b, ww, bw, ff in zip(white, black, white_wins, black_wins, forfeit, strict=True):
            if ff:
                left, right, sw, sb = "+", "-", 1.0, 0.0
            elif ww:
                left, right, sw, sb = "1", "0", 1.0, 0.0
            elif bw:
                left, right, sw, sb = "0", "1", 0.0, 1.0
            else:
                left, right, sw, sb = "=", "=", 0.5, 0.5
            blocks[w][rnd] = f"{b + 1:4d} w {left}  "
            blocks[b][rnd] = f"{w + 1:4d} b {right}  "
            points[w] += sw
            points[b] += sb
    end = start + dt.timedelta(days=min(rounds - 1, 2))
    lines = [
        f"012 {name}",
        "022 Synthetic City",
        "032 SYN",
        f"042 {start:%Y/%m/%d}",
        f"052 {end:%Y/%m/%d}",
        f"062 {count}",
        "092 Individual: Swiss-System",
        f"122 {TIME_CONTROLS[kind]}",
    ]
    for i, member in enumerate(members):
        rating = f"{ratings[i]:4d}" if ratings[i] else "    "
        line = (
            f"001 {i + 1:4d} {federation.sexes[member]}    {federation.names[member]:<33.33} "
            f"{rating} {federation.federations[member]} {federation.ids[member]:11d} "
            f"{federation.births[member]:<10d} {points[i]:4.1f} {i + 1:4d}  "
        )
        lines.append((line + "".join(blocks[i])).rstrip())
    return "\n".join(lines) + "\n"


def generate_month(
    federation: Federation,
    month: str,
    games: int,
    out: Path,
    rng: np.random.Generator,
    *,
    sizes: tuple[int, int] = (10, 400),
    rapid_share: float = 0.0,
    shape: tuple[float, float] = (3.3, 0.8),
) -> list[Path]:
    """TRF files of Swiss events ending in ``month`` totalling about ``games`` player-games.

    Event sizes are log-normal with parameters ``shape`` (μ, σ of the log), clipped to
    ``sizes``: the default gives ~285 player-games a file; ``FIDE_MONTH`` ~100, FIDE's month
    of ~10^4 events for ~10^6 player-games, half of them small (10 players).
    """
    year, number = (int(part) for part in month.split("-"))
    folder = out / month
    folder.mkdir(parents=True, exist_ok=True)
    paths: list[Path] = []
    total = 0
    while total < games:
        size = int(min(max(rng.lognormal(*shape), sizes[0]), sizes[1], len(federation.ids)))
        rounds = int(rng.integers(5, 12 if size > 20 else 8))  # 5-11 rounds
        members = rng.choice(len(federation.ids), size, replace=False)
        kind = "rapid" if rng.random() < rapid_share else "standard"
        day = int(rng.integers(1, 24))
        index = len(paths) + 1
        text = swiss_event(
            federation,
            members,
            rounds,
            rng,
            name=f"Synthetic {kind.title()} {month} #{index}",
            start=dt.date(year, number, day),
            kind=kind,
        )
        path = folder / f"synthetic-{month}-{index:05d}.trf"
        path.write_text(text, encoding="ascii")
        paths.append(path)
        total += size * rounds
    return paths


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--players", type=int, default=2000)
    parser.add_argument("--months", nargs="+", default=["2026-01", "2026-02"])
    parser.add_argument("--games-per-month", type=int, default=5000)
    parser.add_argument("--max-size", type=int, default=400)
    parser.add_argument("--rapid-share", type=float, default=0.0)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args(argv)
    rng = np.random.default_rng(args.seed)
    federation = make_federation(args.players, rng)
    args.out.mkdir(parents=True, exist_ok=True)
    write_list_csv(federation, args.out / "list.csv")
    for month in args.months:
        generate_month(
            federation, month, args.games_per_month, args.out, rng,
            sizes=(10, args.max_size), rapid_share=args.rapid_share,
        )  # fmt: skip


if __name__ == "__main__":
    main()
