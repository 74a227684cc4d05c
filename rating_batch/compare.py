"""Compare two ratings of the same period under different rules (pure).

What a federation needs before changing its policy: player by player, how each rule set
rates them; in aggregate, the mean change, the list average before and after (inflation or
deflation), and who is published, who falls below the floor.
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

LISTED = ("rated", "new")


@dataclass(frozen=True)
class Comparison:
    """Per-player differences and the aggregate figures (metric, A, B, B − A)."""

    players: pd.DataFrame
    summary: pd.DataFrame


def _aggregate(players: pd.DataFrame) -> dict[str, float]:
    was_rated = players["rating"].notna()
    listed = players["status"].isin(LISTED)
    moved = players.loc[was_rated, "new_rating"] - players.loc[was_rated, "rating"]
    before = players.loc[was_rated, "rating"]
    after = players.loc[listed, "new_rating"]
    return {
        "players": len(players),
        "rated before": int(was_rated.sum()),
        "listed after": int(listed.sum()),
        "first ratings published": int((players["status"] == "new").sum()),
        "fell below the floor": int((players["status"] == "below_floor").sum()),
        "mean change of rated players": round(float(moved.mean()), 2) if len(moved) else 0.0,
        "sum of changes of rated players": int(moved.sum()) if len(moved) else 0,
        "list average before": round(float(before.mean()), 2) if len(before) else 0.0,
        "list average after": round(float(after.mean()), 2) if len(after) else 0.0,
    }


def compare_results(a: pd.DataFrame, b: pd.DataFrame, names: tuple[str, str]) -> Comparison:
    """Join two players.csv frames (same period, two rule sets) on ``id``.

    Expects the players.csv columns ``id``, ``name``, ``rating``, ``status``, ``k``,
    ``change``, ``new_rating``. Returns per-player columns with ``_a``/``_b`` suffixes and
    ``difference`` (new rating B − A), and the summary rows.
    """
    keep = ["id", "status", "k", "change", "new_rating"]
    joined = a[["id", "name", "rating", *keep[1:]]].merge(
        b[keep], on="id", how="outer", suffixes=("_a", "_b")
    )
    joined["difference"] = joined["new_rating_b"] - joined["new_rating_a"]
    joined["published_differently"] = joined["status_a"].isin(LISTED) != joined["status_b"].isin(
        LISTED
    )
    first, second = _aggregate(a), _aggregate(b)
    rows = [
        {
            "metric": metric,
            names[0]: first[metric],
            names[1]: second[metric],
            "difference": round(second[metric] - first[metric], 2),
        }
        for metric in first
    ]
    inflation_a = first["list average after"] - first["list average before"]
    inflation_b = second["list average after"] - second["list average before"]
    rows.append(
        {
            "metric": "inflation of the list average",
            names[0]: round(inflation_a, 2),
            names[1]: round(inflation_b, 2),
            "difference": round(inflation_b - inflation_a, 2),
        }
    )
    return Comparison(joined, pd.DataFrame(rows))
