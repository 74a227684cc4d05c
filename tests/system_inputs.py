"""A period for a rating system in tests: players 11, 12, … with their state columns, one
event ``e`` ending on a given day (``SystemInput.facts``)."""

from __future__ import annotations

import datetime as dt

import pandas as pd

from rating_batch.systems import SystemInput
from rating_batch.systems.games import PlayedGames


def one_event(
    state: dict[str, pd.Series],
    games: PlayedGames,
    end: str,
    *,
    period: str,
    births: list[int] | None = None,
    kind: str = "standard",
) -> SystemInput:
    """Players ``P0``, ``P1``, … (ids 11, 12, …, born 1980 unless ``births``) with ``state``
    (column → values), their ``games`` in one event ending on ``end`` (ISO), for ``period``."""
    count = len(next(iter(state.values())))
    players = pd.DataFrame(
        {
            "id": [str(11 + i) for i in range(count)],
            "name": [f"P{i}" for i in range(count)],
            "federation": [None] * count,
            "birth_year": births or [1980] * count,
        }
    )
    day = dt.date.fromisoformat(end)
    facts = pd.DataFrame(
        {"key": ["e"], "start": [day], "end": [day], "time_control": [None]}, dtype=object
    )
    return SystemInput(
        players, pd.DataFrame(state), games, events=["e"], period=period,
        year=int(period[:4]), facts=facts, kind=kind,
    )  # fmt: skip
