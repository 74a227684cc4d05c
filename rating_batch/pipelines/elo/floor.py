"""Ratings below the floor on a list (docs/rules.md §2.7): a rating list may hold them (an
older edition's floor, another federation's list), but every new rating below the floor makes
its player unrated, a player who does not play included. ``init`` warns about them, and
``publish`` says who left the list for that without a game."""

from __future__ import annotations

import pandas as pd

from rating_batch.errors import Issue
from rating_batch.periods import Period, shown
from rating_batch.systems.elo.rules import Rules

#: Players a warning names; the rest are counted.
NAMED = 5


def _named(frame: pd.DataFrame) -> str:
    """``name (id, rating[, line n])`` (``id (rating …)`` without a name) of the first
    ``NAMED`` rows of ``frame`` (``name``, ``id``, ``rating``, optionally ``line``), then how
    many more."""
    lines = frame["line"].tolist() if "line" in frame else [None] * len(frame)
    named = [
        (f"{name} ({who}, " if name else f"{who} (")
        + (f"{int(rating)}, line {line})" if line is not None else f"{int(rating)})")
        for name, who, rating, line in zip(
            frame["name"].fillna("").tolist()[:NAMED],
            frame["id"].tolist()[:NAMED],
            frame["rating"].tolist()[:NAMED],
            lines[:NAMED],
            strict=True,
        )
    ]
    more = f" and {len(frame) - NAMED} more" if len(frame) > NAMED else ""
    return ", ".join(named) + more


def below_floor_on_list(
    listed: pd.DataFrame, ids: pd.Series, kind: str, rules: Rules, source: str
) -> list[Issue]:
    """A warning when an initial list rates players below the floor: the first publish lists
    them as unrated unless a game brings them up to it. ``listed``: the list's rows of one
    kind (``rating``, ``name``, ``line``); ``ids``: each row's public id."""
    rating = listed["rating"].astype("Int64")
    below = (rating < rules.floor).fillna(False).to_numpy(bool)
    if not below.any():
        return []
    rows = listed[below].assign(id=ids[below].to_numpy())
    return [
        Issue(
            source,
            int(rows["line"].iloc[0]),
            f"{len(rows)} {kind} rating(s) below the floor {rules.floor} of {rules.edition}: "
            f"{_named(rows)}; the next {kind} list published makes them unrated (below the "
            "floor), even without a game, unless a game brings them up to it",
            "warning",
        )
    ]


def left_without_playing(
    players: pd.DataFrame, kind: str, period: Period, previous: Period | None, rules: Rules
) -> list[Issue]:
    """A warning of the list of ``period`` naming the players who leave it because their
    rating on the previous list was below the floor and no game changed it. ``players``: the
    period's players (``status``, ``games``, ``name``, ``id``, ``rating``)."""
    idle = players[(players["status"] == "below_floor") & (players["games"] == 0)]
    if idle.empty or previous is None:
        return []
    return [
        Issue(
            f"the {kind} list of {period}",
            None,
            f"{len(idle)} player(s) rated below the floor {rules.floor} on the list of "
            f"{shown(previous)} did not play: they leave the list, unrated: {_named(idle)}",
            "warning",
        )
    ]


def idle_below_floor(players: pd.DataFrame) -> int:
    """How many players leave the list below the floor without having played."""
    return int(((players["status"] == "below_floor") & (players["games"] == 0)).sum())
