"""Glicko (docs/systems.md §3): the published example, RD growth, properties."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rating_batch.systems import SystemInput
from rating_batch.systems.games import PlayedGames
from rating_batch.systems.glicko import Glicko, GlickoSystem, rate_glicko

PAPER = [(0, 1, 1.0), (0, 2, 0.0), (0, 3, 0.0)]
RATINGS = np.array([1500.0, 1400.0, 1550.0, 1700.0])
RDS = np.array([200.0, 30.0, 100.0, 300.0])


def test_the_published_example() -> None:
    # The games of the Glicko-2 example, t = 0: r' 1464.11, RD' 151.40 (tolerance 0.5/0.05).
    period = rate_glicko(RATINGS, RDS, np.zeros(4), PlayedGames.from_pairs(PAPER, 4), Glicko())
    assert abs(period.rating[0] - 1464.11) <= 0.5
    assert abs(period.rd[0] - 151.40) <= 0.05


def test_rd_grows_for_the_periods_without_games_up_to_rd_max() -> None:
    games = PlayedGames.from_pairs([(1, 2, 0.5)], 4)
    # c 34.6: RD 50 after 100 idle periods is √(50² + 34.6² · 100) = 349.6.
    period = rate_glicko(RATINGS, np.full(4, 50.0), np.array([100, 1, 1, 3]), games, Glicko())
    assert period.rd[0] == pytest.approx(np.sqrt(50**2 + 34.6**2 * 100))
    assert period.rating[0] == 1500.0 and period.rating[3] == 1700.0
    # Three periods: √(50² + 3 · 34.6²) = 78.1; with a cap, at most rd_max.
    assert period.rd[3] == pytest.approx(np.sqrt(50**2 + 3 * 34.6**2))
    capped = rate_glicko(RATINGS, np.full(4, 300.0), np.full(4, 50), games, Glicko())
    assert capped.rd[0] == 350.0
    # grow_before_rating = false: the list's RD as given.
    kept = rate_glicko(RATINGS, RDS, np.full(4, 5), PlayedGames.from_pairs(PAPER, 4),
                       Glicko(grow_before_rating=False))  # fmt: skip
    assert abs(kept.rating[0] - 1464.11) <= 0.5


@settings(max_examples=100, deadline=None)
@given(
    st.lists(st.sampled_from([0.0, 0.5, 1.0]), min_size=3, max_size=3),
    st.integers(0, 2),
)
def test_a_better_result_never_gives_a_worse_rating(scores: list[float], which: int) -> None:
    pairs = [(0, j + 1, s) for j, s in enumerate(scores)]
    base = rate_glicko(RATINGS, RDS, np.zeros(4), PlayedGames.from_pairs(pairs, 4), Glicko())
    if scores[which] < 1.0:
        pairs[which] = (0, which + 1, scores[which] + 0.5)
        better = rate_glicko(RATINGS, RDS, np.zeros(4), PlayedGames.from_pairs(pairs, 4), Glicko())
        assert better.rating[0] > base.rating[0]
    reversed_ = rate_glicko(RATINGS, RDS, np.zeros(4),
                            PlayedGames.from_pairs(pairs[::-1], 4), Glicko())  # fmt: skip
    assert np.allclose(reversed_.rating, rate_glicko(
        RATINGS, RDS, np.zeros(4), PlayedGames.from_pairs(pairs, 4), Glicko()).rating)  # fmt: skip


def idle_period(rd: float, last_period: str | None, params: Glicko) -> pd.DataFrame:
    """players.csv of the period 2026-02 for Idle (rating 1600, ``rd``, ``last_period``), who
    plays no game, beside One and Two, who play one."""
    players = pd.DataFrame({"id": ["11", "12", "13"], "name": ["One", "Two", "Idle"],
                            "federation": [None] * 3, "birth_year": [1980] * 3})  # fmt: skip
    state = pd.DataFrame(
        {
            "rating": pd.Series([1500.0, 1500.0, 1600.0], dtype="Float64"),
            "rd": pd.Series([200.0, 200.0, rd], dtype="Float64"),
            "last_period": pd.Series(["2026-01", "2026-01", last_period], dtype="string"),
        }
    )
    games = PlayedGames.from_pairs([(0, 1, 1.0)], 3)
    period = SystemInput(players, state, games, period="2026-02", year=2026)
    return GlickoSystem(params).rate(period).players.set_index("id")


def test_new_rd_is_the_rd_as_of_the_list_and_the_state_carries_the_last_games_rd() -> None:
    # docs/systems.md §3, Glickman's c: RD 50 whose last games were 100 periods before the
    # period rated (2017-10 → 2026-02) is √(50² + 100 · 34.6²) = √122216 = 349.59 as of the
    # list; with c = √((350² − 50²)/100) = √1200 it is 350 exactly.
    idle = idle_period(50.0, "2017-10", Glicko()).loc["13"]
    assert idle["new_rd"] == pytest.approx(349.5940502)
    assert idle["new_rating"] == 1600.0 and idle["status"] == "rated"
    # The state the next list carries: the RD of the last games, dated by last_period.
    assert (idle["carried_rd"], idle["new_last_period"]) == (50.0, "2017-10")
    exact = idle_period(50.0, "2017-10", Glicko(c=math.sqrt(1200.0))).loc["13"]
    assert exact["new_rd"] == pytest.approx(350.0)
    # Without a last_period: one period, √(50² + 34.6²) = √3697.16 = 60.80, carried as such.
    undated = idle_period(50.0, None, Glicko()).loc["13"]
    assert undated["new_rd"] == pytest.approx(60.8042762)
    assert undated["carried_rd"] == pytest.approx(60.8042762)
    # A player with games carries the RD after them: the same number.
    one = idle_period(50.0, None, Glicko()).loc["11"]
    assert one["carried_rd"] == one["new_rd"] and one["new_last_period"] == "2026-02"
