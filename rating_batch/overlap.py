"""Events that share their games: the same results reported twice (a resent or re-titled
file), which would count every shared game twice. Pure: frames in, frames out.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

#: Two events overlap when they share at least this share of the smaller one's played games.
OVERLAP_SHARE = 0.5


def overlapping_events(games: pd.DataFrame, spans: pd.DataFrame | None = None) -> pd.DataFrame:
    """Pairs of events sharing half or more of the smaller one's played games, and played at
    the same time: the same results reported twice (two separate matches between the same
    players with the same results are not at the same dates).

    Expects columns: ``event`` (a label), ``round``, ``player`` and ``opponent`` (identities
    of the two players, comparable across events: a database id, a FIDE ID or a name key),
    ``score`` (from ``player``'s side), one row per side of each game played over the board.
    Returns columns ``event_x``, ``event_y`` (``event_x`` < ``event_y``), ``shared`` (games
    in both), ``played_x``, ``played_y`` (each event's played games), largest share first.
    ``spans`` (optional): ``event``, ``first``, ``last`` (ISO dates, or None when unknown);
    pairs of events whose dates do not meet are left out.
    """
    columns = ["event_x", "event_y", "shared", "played_x", "played_y"]
    if games.empty:
        return pd.DataFrame(
            {c: pd.Series(dtype="object" if c.startswith("event") else "int64") for c in columns}
        )
    codes, _ = pd.factorize(pd.concat([games["player"], games["opponent"]], ignore_index=True))
    mine, theirs = codes[: len(games)], codes[len(games) :]
    # Each game once, from the side of the player with the smaller code (a game against
    # oneself, or a missing identity, is no game to compare).
    once = (mine < theirs) & (mine >= 0)
    half = np.rint(games["score"].to_numpy(float) * 2).astype(np.int64)
    frame = pd.DataFrame(
        {
            "event": games["event"].to_numpy()[once],
            "round": games["round"].to_numpy(np.int64)[once],
            "a": mine[once],
            "b": theirs[once],
            "half": half[once],
        }
    ).drop_duplicates()
    played = frame.groupby("event").size()
    repeated = frame[frame.duplicated(["round", "a", "b", "half"], keep=False)]
    pairs = repeated.merge(repeated, on=["round", "a", "b", "half"])
    pairs = pairs[pairs["event_x"].astype(str) < pairs["event_y"].astype(str)]
    shared = pairs.groupby(["event_x", "event_y"]).size().rename("shared").reset_index()
    shared["played_x"] = shared["event_x"].map(played).astype("int64")
    shared["played_y"] = shared["event_y"].map(played).astype("int64")
    smaller = np.minimum(shared["played_x"].to_numpy(), shared["played_y"].to_numpy())
    keep = shared["shared"].to_numpy() >= np.ceil(OVERLAP_SHARE * smaller)
    shared = shared[keep].assign(share=shared["shared"].to_numpy()[keep] / smaller[keep])
    if spans is not None and len(shared):
        first = spans.set_index("event")["first"]
        last = spans.set_index("event")["last"]
        together = [
            meet(first.get(x), last.get(x), first.get(y), last.get(y))
            for x, y in zip(shared["event_x"], shared["event_y"], strict=True)
        ]
        shared = shared[together]
    ordered: pd.DataFrame = shared.sort_values(
        ["share", "event_x", "event_y"], ascending=[False, True, True], kind="stable"
    )[columns]
    return ordered.reset_index(drop=True)


def meet(first_x: object, last_x: object, first_y: object, last_y: object) -> bool:
    """Whether two date ranges (ISO text, None when unknown) have a day in common."""
    if None in (first_x, last_x, first_y, last_y):
        return True
    return bool(str(first_x) <= str(last_y) and str(first_y) <= str(last_x))
