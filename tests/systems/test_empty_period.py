"""A period without events or games is an ordinary input for every system's ``rate``
(docs/systems.md §7: a month without events is published like any other): every player is
written with no game, nobody's state changes but as the system carries an idle period, and
there is no calculation row."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from rating_batch.systems import SYSTEMS, SystemInput, rate_finite
from rating_batch.systems.games import PlayedGames

#: The systems whose idle period changes a state column (the RD grows: docs/systems.md §2,
#: §3); their rating stands.
IDLE_GROWS = {"glicko": ("rd", "last_period"), "glicko2": ("rd",)}


def no_games(players: int) -> PlayedGames:
    empty = np.zeros(0, np.int64)
    return PlayedGames(
        pidx=empty, oidx=empty, score=np.zeros(0), event=empty, round=empty,
        white=np.zeros(0, bool), board=empty, players=players,
    )  # fmt: skip


def states(name: str) -> pd.DataFrame:
    """Two players with a state, one without (unrated)."""
    constants, kind = SYSTEMS[name]
    system = kind(constants())
    if name == "dwz":  # no DWZ is made from an Elo rating (docs/systems.md §10.4)
        return pd.DataFrame({
            "rating": pd.array([1500, 1650, None], dtype="Int64"),
            "index": pd.array([20, 5, None], dtype="Int64"),
            "uplifted": pd.array([True, True, False], dtype="boolean"),
            "restpartien": pd.array([None, None, None], dtype="string"),
        })  # fmt: skip
    return system.from_elo(pd.Series([1500, 1650, None], dtype="Int64"))


@pytest.mark.parametrize("facts", ["none", "empty"])
@pytest.mark.parametrize("name", sorted(SYSTEMS))
def test_a_period_without_events_rates_under_every_system(name: str, facts: str) -> None:
    constants, kind = SYSTEMS[name]
    system = kind(constants())
    before = states(name)
    players = pd.DataFrame({"id": ["11", "12", "13"], "name": ["A", "B", "C"],
                            "federation": [None] * 3, "birth_year": [1980, 1990, 2000],
                            "rating": pd.array([None] * 3, dtype="Int64")})  # fmt: skip
    period = SystemInput(
        players, before, no_games(3), events=[], period="2026-02", year=2026,
        facts=None if facts == "none" else pd.DataFrame(
            {"key": [], "start": [], "end": [], "time_control": [], "minutes": []},
            dtype=object,
        ),
        kind="standard",
    )  # fmt: skip
    outcome = rate_finite(system, period)
    assert list(outcome.players["id"]) == ["11", "12", "13"]
    assert list(outcome.players["games"]) == [0, 0, 0]
    assert len(outcome.calculations) == 0
    grows = IDLE_GROWS.get(name, ())
    for column in system.state:
        if column in grows:
            continue
        new = outcome.players[system.carried_as.get(column, f"new_{column}")]
        old = before[column]
        if column == "grade":  # the ECF's input-only grade is not carried (§12.2)
            continue
        assert list(new.astype(object).where(new.notna(), None)) == list(
            old.astype(object).where(old.notna(), None)
        ), column
    # The unrated player stays unrated.
    assert outcome.players["status"].iloc[2] == "unrated"
