"""The pool over time (``drift``, docs/drift.md): from a database's lists, whether the pool is
inflating or deflating, and why its average moves. Pure: frames in, one frame out, a row per
list; every measure is defined in ``MEASURES`` (the page and docs/drift.md print them).

Also the one split of a list average's change into what the ratings of the players on both
lists did and what players joining or leaving did (``mean_change_parts``), which
``compare-rules`` makes for two rule sets and ``drift`` for every pair of consecutive lists.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import pairwise

import numpy as np
import pandas as pd

from rating_batch.periods import month_index

#: A player is a new player for this many months after his first rating is published.
NEW_PLAYER_MONTHS = 12

#: The ages (list year − birth year, both included) of "ratings at a fixed age": past the
#: years of fast improvement, before decline (docs/drift.md).
AGE_BAND = (30, 39)

#: Each column of ``drift.csv`` and what it measures (the page and docs/drift.md print these).
MEASURES = {
    "period": "the list (YYYY-MM; 0000-00 is an initial list of unknown month)",
    "players": "players on the list (every rated player, inactive ones included)",
    "mean": "the list's mean rating",
    "median": "the list's median rating",
    "total": "the sum of the list's ratings: the points in the pool",
    "mean_change": "mean − the previous list's mean",
    "from_rating_changes": "the part of mean_change made by the rating changes of the players "
    "on both lists: their mean now − their mean on the previous list",
    "from_joining": "the part made by the players who joined the list: mean − the mean of "
    "those on both lists now",
    "from_leaving": "the part made by the players who left: the mean on the previous list of "
    "those on both lists − the previous mean",
    "joined": "players on this list who were not on the previous one",
    "left": "players on the previous list who are not on this one",
    "total_change": "total − the previous list's total; the sum of the ledger's lines below, "
    "entering − leaving_floor − leaving_other + games + rounding + adjustment + other",
    "entering": "points entering with the players who joined: the sum of their ratings "
    "(first ratings; on a rapid or blitz list, ratings taken from standard too)",
    "leaving_floor": "points leaving with the players who fell below the floor: the sum of "
    "the ratings they fell to",
    "leaving_other": "points leaving with the players who left for any other reason: the sum "
    "of their previous ratings",
    "games": "points created (or destroyed, below zero) by the games: the sum of the "
    "unrounded rating changes of the players of the previous list who played; zero-sum "
    "between two players of equal K, so what K asymmetry makes (K 40 against K 20: "
    "(40 − 20) × (score − expected) for each such game)",
    "rounding": "points made by rounding each new rating to a whole number",
    "adjustment": "points created by a list adjustment (docs/rules.md §7): the sum of the raises",
    "other": "any other change of a listed rating (a bonus or a rating floor of another "
    "rating system, a rating edited by hand): what the lines above do not explain",
    "new_players": f"players rated who had their first rating published in the "
    f"{NEW_PLAYER_MONTHS} months before this list (the list of their first rating excluded)",
    "new_games": "the games of those players that count for their rating in the period",
    "new_score": "their score in those games",
    "new_expected": "their expected score in those games, from the ratings of both sides",
    "new_surplus": "new_score − new_expected: above zero when new players are rated too low "
    "on arrival, and take points from the pool as their ratings catch up",
    "new_gain": "the sum of their unrounded rating changes",
    "age_players": f"players on the list aged {AGE_BAND[0]} to {AGE_BAND[1]} (the list's "
    "year − birth year)",
    "age_mean": f"their mean rating: players aged {AGE_BAND[0]}–{AGE_BAND[1]} at different "
    "times are the same strength class, so a trend here is a trend of the scale",
}

LEDGER = ("entering", "leaving_floor", "leaving_other", "games", "rounding", "adjustment", "other")
"""The ledger's lines, in the order of ``MEASURES``; the signs are those of ``total_change``:
entering − leaving_floor − leaving_other + games + rounding + adjustment + other."""


def _mean(values: pd.Series) -> float:
    return float(values.mean()) if len(values) else 0.0


def mean_change_parts(
    before: pd.Series, after: pd.Series, stayed_before: pd.Series, stayed_after: pd.Series
) -> dict[str, float]:
    """The change of a list's mean split exactly in three (``stayed_*``: the ratings of the
    players on both lists, before and after)::

        mean after − mean before = (mean after − stayed after)          joining
                                 + (stayed after − stayed before)       their rating changes
                                 + (stayed before − mean before)        leaving

    Returns ``change``, ``stayed``, ``joined``, ``left`` (the two last 0 when nobody stayed)."""
    mean_before, mean_after = _mean(before), _mean(after)
    kept_before, kept_after = _mean(stayed_before), _mean(stayed_after)
    anybody = len(stayed_before) > 0
    return {
        "change": mean_after - mean_before,
        "stayed": kept_after - kept_before,
        "joined": mean_after - kept_after if anybody else 0.0,
        "left": kept_before - mean_before if anybody else 0.0,
    }


@dataclass(frozen=True)
class Drift:
    """A row per list, the columns of ``MEASURES`` (a first list has no change columns)."""

    lists: pd.DataFrame
    kind: str

    def since_first(self) -> pd.DataFrame:
        """The changes summed from the first list to each (0 at the first): the mean's
        change and its three parts, the total's and the ledger's lines with the signs they
        add up with (leaving below zero)."""
        moved = self.lists[list(_MOVE_COLUMNS)].drop(columns=["joined", "left"])
        signed = moved.astype(np.float64).fillna(0.0)
        signed[["leaving_floor", "leaving_other"]] *= -1
        return signed.cumsum().assign(period=self.lists["period"])


def _ratings(frame: pd.DataFrame) -> pd.Series:
    return frame.set_index("id")["rating"].astype(np.float64)


def _list_figures(lists: pd.DataFrame) -> pd.DataFrame:
    year = month_index(lists["period"]).astype("Float64").sub(1).floordiv(12)
    age = year - lists["birth_year"].astype("Float64")
    in_band = (age >= AGE_BAND[0]) & (age <= AGE_BAND[1])
    framed = lists.assign(
        in_band=in_band.fillna(False).astype(bool),
        banded=lists["rating"].astype(np.float64).where(in_band.fillna(False).astype(bool)),
    )
    grouped = framed.groupby("period", sort=True)
    return pd.DataFrame(
        {
            "players": grouped["rating"].size(),
            "mean": grouped["rating"].mean(),
            "median": grouped["rating"].median(),
            "total": grouped["rating"].sum().astype(np.int64),
            "age_players": grouped["in_band"].sum().astype(np.int64),
            "age_mean": grouped["banded"].mean(),
        }
    )


def _move(before: pd.Series, after: pd.Series, rows: pd.DataFrame) -> dict[str, float]:
    """The change from one list to the next: the mean's parts and the points' ledger."""
    stayed = before.index.intersection(after.index)
    parts = mean_change_parts(before, after, before[stayed], after[stayed])
    joined, left = after.index.difference(before.index), before.index.difference(after.index)
    rows = rows.set_index("id")
    status = rows["status"].reindex(left).astype("string")
    floor = left[(status == "below_floor").to_numpy(bool, na_value=False)]
    fell_to = rows["new_rating"].reindex(floor).astype(np.float64)
    # The period's rated players who were on the previous list (the players rated from
    # another kind's rating enter with their rating, games and all).
    played = rows[rows.index.isin(before.index) & rows["change"].notna().to_numpy(bool)]
    change = played["change"].astype(np.float64)
    adjustment = (
        played["adjustment"].astype("Float64").fillna(0).astype(np.float64)
        if "adjustment" in played
        else pd.Series(0.0, index=played.index)
    )
    rounding = played["new_rating"].astype(np.float64) - played["rating"].astype(np.float64)
    rounding = rounding - change - adjustment
    # Those who did not play keep their rating unless something else moved it.
    moved = float((after[stayed] - before[stayed]).sum()) + float((fell_to - before[floor]).sum())
    ledger = {
        "entering": float(after[joined].sum()),
        "leaving_floor": float(fell_to.sum()),
        "leaving_other": float(before[left.difference(floor)].sum()),
        "games": float(change.sum()),
        "rounding": float(rounding.sum()),
        "adjustment": float(adjustment.sum()),
    }
    ledger["other"] = moved - ledger["games"] - ledger["rounding"] - ledger["adjustment"]
    # Changes are exact hundredths (FIDE Elo's); the sums' float noise is not a point.
    ledger = {line: round(value, 2) + 0.0 for line, value in ledger.items()}
    return {
        "mean_change": parts["change"],
        "from_rating_changes": parts["stayed"],
        "from_joining": parts["joined"],
        "from_leaving": parts["left"],
        "joined": len(joined),
        "left": len(left),
        "total_change": float(after.sum() - before.sum()),
        **ledger,
    }


def _new_players(lists: pd.DataFrame, rows: pd.DataFrame) -> pd.DataFrame:
    """Per list, the games of the players whose first rating is at most ``NEW_PLAYER_MONTHS``
    old (the list of the first rating excluded)."""
    arrived = rows[rows["status"].astype("string").eq("new").fillna(False).to_numpy(bool)]
    first = arrived.groupby("id")["period"].min()
    rated = rows[rows["change"].notna().to_numpy(bool) & rows["id"].isin(first.index)]
    age = month_index(rated["period"]) - month_index(rated["id"].map(first))
    young = rated[((age > 0) & (age <= NEW_PLAYER_MONTHS)).fillna(False).to_numpy(bool)]
    grouped = young.assign(
        surplus=young["score"].astype(np.float64) - young["expected"].astype(np.float64)
    ).groupby("period")
    found = pd.DataFrame(
        {
            "new_players": grouped["id"].size(),
            "new_games": grouped["games"].sum(),
            "new_score": grouped["score"].sum(),
            "new_expected": grouped["expected"].sum(),
            "new_surplus": grouped["surplus"].sum(),
            "new_gain": grouped["change"].sum(),
        }
    )
    periods = pd.Index(sorted(lists["period"].unique()), name="period")
    return found.reindex(periods).fillna(0).astype({"new_players": np.int64, "new_games": np.int64})


def compute_drift(lists: pd.DataFrame, rows: pd.DataFrame, kind: str) -> Drift:
    """The pool over time, a row per list (the columns of ``MEASURES``).

    Expects ``lists``: period, id, rating, birth_year (a row per player on each list: every
    list of one kind, the initial one included); ``rows``: the published players.csv rows
    of each list after the first (period, id, status, rating, games, score, expected,
    change, new_rating and, where a list adjustment was made, adjustment)."""
    periods = sorted(lists["period"].unique())
    figures = _list_figures(lists)
    by_period = dict(tuple(lists.groupby("period", sort=False)))
    rows_of = dict(tuple(rows.groupby("period", sort=False)))
    empty = rows.iloc[:0]
    moves = [
        {"period": now, **_move(_ratings(by_period[then]), _ratings(by_period[now]),
                                rows_of.get(now, empty))}
        for then, now in pairwise(periods)
    ]  # fmt: skip
    changes = pd.DataFrame(moves, columns=["period", *_MOVE_COLUMNS]).set_index("period")
    table = figures.join(changes).join(_new_players(lists, rows))
    table = table.reset_index()
    for column in ("joined", "left"):
        table[column] = table[column].astype("Int64")
    return Drift(table[list(MEASURES)], kind)


_MOVE_COLUMNS = (
    "mean_change", "from_rating_changes", "from_joining", "from_leaving", "joined", "left",
    "total_change", *LEDGER,
)  # fmt: skip
