"""What the site reads of a list's games.csv: per player and event, the games played and the
points scored (``played``), and scores as a crosstable writes them (``points``)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from rating_batch.writers.html import FORMS

#: What the site reads of games.csv (``played``, and the events a list's games name);
#: ``reason`` tells a forfeit from a game played (a games.csv without it: all with an
#: opponent were played).
GAME_COLUMNS = ("event", "id", "opponent_id", "score", "reason")


def played(games: pd.DataFrame | None) -> pd.DataFrame:
    """Per player and event of games.csv: the games played (those with an opponent, not
    forfeited) and the points scored, byes and forfeits with them (as the event's crosstable
    totals them) (id, event, games, score). No published file has these per event:
    players.csv's ``games`` and ``score`` are the period's rated games, all its events
    together (a game against an unrated opponent, a bye's point left out)."""
    if games is None or games.empty:
        return pd.DataFrame({"id": [], "event": [], "games": [], "score": []})
    forfeit = games["reason"].eq("forfeit").to_numpy(bool) if "reason" in games else False
    numeric = pd.to_numeric(games["score"], errors="coerce")
    game = (games["opponent_id"] != "").to_numpy(bool) & ~forfeit
    # Each (id, event) pair in the order it first comes (as a groupby without sorting),
    # summed by bincount: a groupby's fixed cost was most of a small site's (issue 42);
    # scores are halves, exact in any order.
    ids, _ = pd.factorize(games["id"])
    events, keys = pd.factorize(games["event"])
    pairs, _ = pd.factorize(ids.astype(np.int64) * max(len(keys), 1) + events)
    first = np.unique(pairs, return_index=True)[1]
    found = pd.DataFrame(
        {"id": games["id"].iloc[first].to_numpy(), "event": games["event"].iloc[first].to_numpy(),
         "games": np.bincount(pairs, weights=game).astype(np.int64),
         "score": np.bincount(pairs, weights=numeric.fillna(0).to_numpy(np.float64))}
    )  # fmt: skip
    # A score column of whole numbers is summed as integers, as a groupby sums it.
    return found.astype({"score": numeric.dtype}) if numeric.dtype.kind in "iu" else found


def points(values: pd.Series) -> pd.Series:
    """Scores as a crosstable writes them (3, 3½, ½): each distinct score once."""
    codes, distinct_scores = pd.factorize(values)
    texts = np.array([*(FORMS["points"](v) for v in distinct_scores), ""], dtype=object)
    return pd.Series(texts[codes], index=values.index)
