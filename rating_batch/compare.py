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


@dataclass(frozen=True)
class ListComparison:
    """Two systems' lists of the same events (docs/systems.md): per player each list's value
    and rank; in aggregate how many each lists and how alike their orders are."""

    players: pd.DataFrame
    listed: tuple[int, int]
    both: int
    rank_correlation: float
    """Spearman's, over the players both lists hold (NaN for fewer than two)."""


def compare_lists(
    a: pd.DataFrame, b: pd.DataFrame, names: tuple[str, str], lower_is_better: tuple[bool, bool]
) -> ListComparison:
    """``a`` and ``b``: ``id``, ``name``, ``value`` (the published rating) and ``listed``.
    Ranks are 1 for the best (the lowest value where lower is better), ties sharing the
    better rank; players held by one list only come first, then the largest rank changes."""
    frames = []
    for frame, name, lower in zip((a, b), names, lower_is_better, strict=True):
        listed = frame[frame["listed"].to_numpy(bool)]
        ranks = listed["value"].rank(method="min", ascending=lower).astype("Int64")
        frames.append(
            pd.DataFrame(
                {"id": listed["id"].astype(str).to_numpy(), "name": listed["name"].to_numpy(),
                 name: listed["value"].to_numpy(), f"rank {name}": ranks.to_numpy()}
            )
        )  # fmt: skip
    merged = frames[0].merge(frames[1], on="id", how="outer", suffixes=("", " "))
    merged["name"] = merged["name"].fillna(merged.pop("name "))
    rank_a, rank_b = merged[f"rank {names[0]}"], merged[f"rank {names[1]}"]
    merged["rank change"] = (rank_b - rank_a).astype("Int64")
    held = rank_a.notna() & rank_b.notna()
    merged["_one"] = ~held
    merged["_size"] = merged["rank change"].abs().fillna(0)
    merged = merged.sort_values(["_one", "_size", "id"], ascending=[False, False, True])
    both = merged[held.reindex(merged.index).to_numpy(bool)]
    correlation = _spearman(
        both[f"rank {names[0]}"].to_numpy(np.float64), both[f"rank {names[1]}"].to_numpy(np.float64)
    )
    return ListComparison(
        merged.drop(columns=["_one", "_size"]).reset_index(drop=True),
        (int(rank_a.notna().sum()), int(rank_b.notna().sum())),
        len(both),
        correlation,
    )


def _spearman(a: np.ndarray, b: np.ndarray) -> float:
    """Spearman's rank correlation: Pearson's over the values' average ranks (NaN for fewer
    than two values, or when either side has one value only)."""
    if len(a) < 2:
        return float("nan")
    ranks_a = pd.Series(a).rank(method="average").to_numpy()
    ranks_b = pd.Series(b).rank(method="average").to_numpy()
    if ranks_a.std() == 0 or ranks_b.std() == 0:
        return float("nan")
    return float(np.corrcoef(ranks_a, ranks_b)[0, 1])
