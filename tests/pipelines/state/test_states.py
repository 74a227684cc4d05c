"""A system's states in the database (pipelines/state/states.py): a true/false column is no number a
player must have; a text state alone is a state (docs/systems.md §10.2)."""

from __future__ import annotations

from typing import ClassVar

import pandas as pd

from rating_batch.pipelines.state.states import numeric_columns, state_rows
from rating_batch.systems.base import SystemBase
from rating_batch.systems.glicko2 import Glicko2System


class Flagged(SystemBase[object]):
    """A system with a number, a true/false and a text state column."""

    constants = object
    name: ClassVar[str] = "flagged"
    state: ClassVar[dict[str, str]] = {"rating": "Float64", "flag": "boolean", "note": "string"}


def test_a_boolean_column_is_not_a_number_a_player_must_have() -> None:
    assert numeric_columns(Flagged()) == ["rating"]
    assert numeric_columns(Glicko2System()) == ["rating", "rd", "volatility"]


def test_a_text_state_alone_is_kept_and_a_player_without_any_is_not() -> None:
    state = pd.DataFrame(
        {
            "rating": pd.Series([1500.0, None, None], dtype="Float64"),
            "flag": pd.Series([True, None, None], dtype="boolean"),
            "note": pd.Series([None, "kept", None], dtype="string"),
        }
    )
    rows = state_rows(Flagged(), pd.Series([1, 2, 3]), state, "standard", "2026-01")
    assert sorted(set(rows["player_id"])) == [1, 2]
    kept = rows[(rows["player_id"] == 2) & (rows["name"] == "note")]["value"].tolist()
    assert kept == ["kept"]
