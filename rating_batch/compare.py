"""Compare two ratings of the same period under different rules (pure).

What a federation needs before changing its policy: player by player, how each rule set
rates them (largest differences first); in aggregate, counts, the mean change, and the list
average before and after, its change split into what the ratings of the players on both lists
did and what players joining or leaving the list did to the average (a composition effect, not
a change of anybody's rating).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

LISTED = ("rated", "new")

#: The summary's metrics that are counts of players (whole numbers), the rest being points.
COUNTS = (
    "players", "rated before", "listed after", "first ratings published",
    "fell below the floor", "sum of changes of rated players",
)  # fmt: skip


@dataclass(frozen=True)
class Comparison:
    """Per-player differences and the aggregate figures (metric, A, B, B − A)."""

    players: pd.DataFrame
    summary: pd.DataFrame


def _mean(values: pd.Series) -> float:
    return float(values.mean()) if len(values) else 0.0


def _aggregate(players: pd.DataFrame) -> dict[str, float]:
    was_rated = players["rating"].notna().to_numpy()
    listed = players["status"].isin(LISTED).to_numpy()
    both = was_rated & listed
    rating = players["rating"].astype("Float64")
    new = players["new_rating"].astype("Float64")
    moved = (new - rating)[was_rated].dropna()
    before, after = rating[was_rated], new[listed]
    # The change of the list average, split exactly in three:
    #   after − before = (after − after of those on both lists)      joining
    #                  + (after − before of those on both lists)     their rating changes
    #                  + (before of those on both lists − before)    leaving
    stayed_before, stayed_after = _mean(rating[both]), _mean(new[both])
    return {
        "players": len(players),
        "rated before": int(was_rated.sum()),
        "listed after": int(listed.sum()),
        "first ratings published": int((players["status"] == "new").sum()),
        "fell below the floor": int((players["status"] == "below_floor").sum()),
        "mean change of rated players": _mean(moved),
        "sum of changes of rated players": int(moved.sum()) if len(moved) else 0,
        "list average before": _mean(before),
        "list average after": _mean(after),
        "change of the list average": _mean(after) - _mean(before),
        "  from rating changes of players on both lists": stayed_after - stayed_before,
        "  from players joining the list": _mean(after) - stayed_after if both.any() else 0.0,
        "  from players leaving the list": stayed_before - _mean(before) if both.any() else 0.0,
    }


def compare_results(a: pd.DataFrame, b: pd.DataFrame, names: tuple[str, str]) -> Comparison:
    """Join two players.csv frames (same period, two rule sets) on ``id``.

    Expects the players.csv columns ``id``, ``name``, ``rating``, ``status``, ``k``,
    ``change``, ``new_rating``. Returns per-player columns with ``_a``/``_b`` suffixes,
    ``difference`` (new rating B − A) and ``published_differently``: the players one rule set
    lists and the other does not first, then by the size of the difference; and the summary
    rows, counts as whole numbers, points to 2 decimals.
    """
    keep = ["id", "status", "k", "change", "new_rating"]
    joined = a[["id", "name", "rating", *keep[1:]]].merge(
        b[keep], on="id", how="outer", suffixes=("_a", "_b")
    )
    joined["difference"] = joined["new_rating_b"].astype("Int64") - joined["new_rating_a"].astype(
        "Int64"
    )
    joined["published_differently"] = joined["status_a"].isin(LISTED) != joined["status_b"].isin(
        LISTED
    )
    size = joined["difference"].abs().fillna(0).to_numpy(np.int64)
    order = np.lexsort((joined["id"].astype(str).to_numpy(), -size,
                        ~joined["published_differently"].to_numpy(bool)))  # fmt: skip
    joined = joined.iloc[order].reset_index(drop=True)
    first, second = _aggregate(a), _aggregate(b)
    rows = []
    for metric in first:
        whole = metric in COUNTS
        value_a, value_b = first[metric], second[metric]
        rows.append(
            {
                "metric": metric.strip(),
                names[0]: int(value_a) if whole else round(value_a, 2),
                names[1]: int(value_b) if whole else round(value_b, 2),
                # Of the figures as shown, so that the columns add up for the reader.
                "difference": int(value_b - value_a)
                if whole
                else round(round(value_b, 2) - round(value_a, 2), 2),
            }
        )
    # Column by column as Python objects: counts stay whole numbers beside the decimals.
    summary = pd.DataFrame(
        {column: pd.Series([row[column] for row in rows], dtype=object) for column in rows[0]}
    )
    return Comparison(joined, summary)
