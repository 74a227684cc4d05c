"""The straightforward pure-Python implementation that ``make bench`` measures rating_batch
against: standard library only, one loop over the players and games of the TRF files, the same
rules (docs/rules.md §2-§4, FIDE 2025: the 400-point rule, the PD table, K with the 700 cap, a
first rating from 5 games with two hypothetical 1800 draws), writing players.csv only.

It is what a rating officer's own script would be; it does not validate, explain or write any
other output, so it is a lower bound on the work, not a competitor.

    python benchmarks/baseline.py --list LIST.csv --out players.csv FILE.trf ...
"""

from __future__ import annotations

import argparse
import csv
from pathlib import Path

TABLES = Path(__file__).resolve().parent.parent / "rating_batch" / "data"
PLAYED = {"1": 1.0, "0": 0.0, "=": 0.5, "W": 1.0, "D": 0.5, "L": 0.0}


def read_rows(name: str) -> list[list[str]]:
    with open(TABLES / name, newline="", encoding="utf-8") as handle:
        return list(csv.reader(handle))[1:]


def hundredths(text: str) -> int:
    return round(float(text) * 100)


def expected_table() -> tuple[list[int], list[int]]:
    """PD in hundredths for |D| = 0 … 400, higher and lower side."""
    high, low = [0] * 401, [0] * 401
    for first, last, p_high, p_low in read_rows("fide_pd_table.csv"):
        for diff in range(int(first), min(int(last or 400), 400) + 1):
            high[diff], low[diff] = hundredths(p_high), hundredths(p_low)
    return high, low


def dp_table() -> dict[int, int]:
    """dp for p in hundredths."""
    return {hundredths(p): int(dp) for p, dp in read_rows("fide_dp_table.csv")}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--list", type=Path, required=True)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--year", type=int, default=2026)
    parser.add_argument("files", type=Path, nargs="+")
    args = parser.parse_args()
    high, low = expected_table()
    dp = dp_table()

    listed: dict[str, tuple[int, int]] = {}
    with open(args.list, newline="", encoding="utf-8") as handle:
        for row in csv.DictReader(handle):
            listed[row["id"]] = (int(row["rating"]), int(row["birth_year"] or 0))

    names: dict[str, str] = {}
    games: dict[str, list[tuple[int, float]]] = {}  # id -> (opponent rating, score)
    for path in args.files:
        ids: dict[str, str] = {}
        rounds: list[tuple[str, list[tuple[str, str]]]] = []
        for line in path.read_text(encoding="utf-8").splitlines():
            if not line.startswith("001"):
                continue
            fide_id = line[57:68].strip()
            ids[line[4:8].strip()] = fide_id
            names[fide_id] = line[14:47].strip()
            blocks = [
                (line[i : i + 4].strip(), line[i + 7 : i + 8]) for i in range(91, len(line), 10)
            ]
            rounds.append((fide_id, blocks))
        for fide_id, blocks in rounds:
            played = games.setdefault(fide_id, [])
            for opponent, result in blocks:
                other = ids.get(opponent)
                if result in PLAYED and other in listed:
                    played.append((listed[other][0], PLAYED[result]))

    rows = [["id", "name", "rating", "games", "score", "expected", "k", "change", "new_rating"]]
    for fide_id, played in games.items():
        if fide_id in listed:
            own, birth = listed[fide_id]
            expected = 0
            for opponent, _ in played:
                diff = max(-400, min(400, own - opponent))
                expected += high[diff] if diff >= 0 else low[-diff]
            score = sum(result for _, result in played)
            k = 10 if own >= 2400 else 40 if args.year - birth <= 18 and own < 2300 else 20
            if played and k * len(played) > 700:
                k = 700 // len(played)
            hundredths = k * (round(score * 100) - expected)
            change = (abs(hundredths) + 50) // 100 * (1 if hundredths >= 0 else -1)
            rows.append(
                [fide_id, names[fide_id], own, len(played), score, expected / 100, k, change,
                 own + change]
            )  # fmt: skip
        elif len(played) >= 5:
            total = sum(opponent for opponent, _ in played) + 2 * 1800
            count = len(played) + 2
            score = sum(result for _, result in played) + 1
            average = total / count
            p = int(score * 100 / count + 0.5)
            rating = min(2200, int(average + dp[p] + 0.5))
            rows.append([fide_id, names[fide_id], "", len(played), score - 1, "", 40, "", rating])
    with open(args.out, "w", newline="", encoding="utf-8") as handle:
        csv.writer(handle).writerows(rows)


if __name__ == "__main__":
    main()
