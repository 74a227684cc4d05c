"""What every system shares (systems/base.py): a period whose results are not finite numbers
is refused, naming the system and the constants the rules set."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from conftest import glicko2_giving

from rating_batch.errors import RulesError
from rating_batch.systems import SystemInput, rate_finite
from rating_batch.systems import glicko2 as glicko2_module
from rating_batch.systems.games import PlayedGames
from rating_batch.systems.glicko2 import Glicko2, Glicko2System


def period_of_two() -> SystemInput:
    """A beats B; both unrated."""
    players = pd.DataFrame({"id": ["11", "12"], "name": ["A", "B"], "federation": [None, None],
                            "birth_year": [1980, 1980]})  # fmt: skip
    state = pd.DataFrame({c: pd.Series([pd.NA, pd.NA], dtype="Float64")
                          for c in ("rating", "rd", "volatility")})  # fmt: skip
    return SystemInput(players, state, PlayedGames.from_pairs([(0, 1, 1.0)], 2), period="2026-02")


def test_a_period_rated_as_finite_numbers_is_the_systems_outcome() -> None:
    result = rate_finite(Glicko2System(), period_of_two())
    expected = Glicko2System().rate(period_of_two())
    pd.testing.assert_frame_equal(result.players, expected.players)
    pd.testing.assert_frame_equal(result.calculations, expected.calculations)


def test_a_non_finite_result_names_the_system_and_the_constants_set(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    glicko2_giving(monkeypatch, rd=lambda rd: np.array([np.inf, 80.0]))
    system = Glicko2System(Glicko2(tau=0.3), {"tau": "league.toml"})
    with pytest.raises(RulesError) as raised:
        rate_finite(system, period_of_two())
    assert str(raised.value) == (
        "glicko2: new_rd came out inf for 11: the constants set (tau 0.3) or the states in the "
        "list are beyond what glicko2 can compute; nothing was written"
    )


def test_an_overflow_in_the_calculation_is_the_same_refusal(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def failing(*args: object) -> None:
        raise OverflowError(34, "Numerical result out of range")

    monkeypatch.setattr(glicko2_module, "rate_glicko2", failing)
    with pytest.raises(RulesError) as raised:
        rate_finite(Glicko2System(), period_of_two())
    assert str(raised.value) == (
        "glicko2: the calculation failed ((34, 'Numerical result out of range')): its default "
        "constants or the states in the list are beyond what glicko2 can compute; nothing was "
        "written"
    )
