"""Restpartien (docs/systems.md §10.2, §10.6): the stored results of a player without DWZ,
written ``YYYY-MM-DD/rating/score`` joined by ``;`` (score 1, ½ or 0), held by the engine as
arrays of (player, day, rating, score)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

import numpy as np
import pandas as pd

_SCORES = {"1": 1.0, "½": 0.5, "0.5": 0.5, "0": 0.0}
#: Day 1 of ``date.toordinal``.
_DAY_ONE = np.datetime64("0001-01-01", "D")


def ordinal(days: np.ndarray) -> np.ndarray:
    """``date.toordinal`` of datetime64 days."""
    counted: np.ndarray = (days - _DAY_ONE).astype(np.int64) + 1
    return counted


@dataclass(frozen=True)
class Rests:
    """Stored results: per row the player (``pidx``), the end date of the event as a day
    number (``date.toordinal``), the opponent's rating used and the score."""

    player: np.ndarray
    day: np.ndarray
    rating: np.ndarray
    score: np.ndarray

    @classmethod
    def empty(cls) -> Rests:
        return cls(np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(0), np.zeros(0))

    def where(self, keep: np.ndarray) -> Rests:
        return Rests(self.player[keep], self.day[keep], self.rating[keep], self.score[keep])

    def plus(self, other: Rests) -> Rests:
        return Rests(
            np.concatenate([self.player, other.player]),
            np.concatenate([self.day, other.day]),
            np.concatenate([self.rating, other.rating]),
            np.concatenate([self.score, other.score]),
        )


def rests_problem(text: str) -> str:
    """What is wrong with a ``restpartien`` value ("" when it is fine)."""
    for item in text.split(";"):
        parts = item.strip().split("/")
        if len(parts) != 3:
            return f"{item.strip()!r} is not YYYY-MM-DD/rating/score"
        day, rating, score = (part.strip() for part in parts)
        try:
            dt.date.fromisoformat(day)
        except ValueError:
            return f"{day!r} in {item.strip()!r} is not a date YYYY-MM-DD"
        if not rating.isdigit() or not 0 < int(rating) < 4000:
            return f"{rating!r} in {item.strip()!r} is not a rating from 1 to 3999"
        if score not in _SCORES:
            return f"{score!r} in {item.strip()!r} is not a score 1, ½ or 0"
    return ""


def parse_rests(column: pd.Series) -> Rests:
    """The Restpartien of a state column (one text per player in ``pidx`` order; NA: none),
    checked before (``rests_problem``)."""
    texts = column.astype("string").fillna("").to_numpy(dtype=object)
    owners = np.flatnonzero(texts != "")
    if not len(owners):
        return Rests.empty()
    items = pd.Series(texts[owners], index=owners).str.split(";").explode().str.strip()
    parts = items.str.split("/", expand=True)
    days = parts[0].str.strip().to_numpy(dtype="datetime64[D]")
    return Rests(
        items.index.to_numpy(np.int64),
        ordinal(days),
        parts[1].str.strip().astype(float).to_numpy(np.float64),
        parts[2].str.strip().map(_SCORES).to_numpy(np.float64),
    )


def format_rests(rests: Rests, players: int) -> np.ndarray:
    """Per player the ``restpartien`` text (NA: none), the results in stored order."""
    if not len(rests.player):
        return np.full(players, None, dtype=object)
    days = pd.Series((_DAY_ONE + (rests.day - 1)).astype(str))
    score = np.where(rests.score == 0.5, "½", np.where(rests.score == 1.0, "1", "0"))
    rating = pd.Series(np.rint(rests.rating).astype(np.int64)).astype(str)
    items: pd.Series = days + "/" + rating + "/" + score
    joined: pd.Series = items.groupby(rests.player, sort=True).agg(";".join)
    out = np.full(players, None, dtype=object)
    out[joined.index.to_numpy(np.int64)] = joined.to_numpy()
    return out
