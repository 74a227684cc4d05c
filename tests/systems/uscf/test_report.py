"""US Chess's MSA crosstable as a frame (docs/systems.md §9.15): what it holds when nothing was
played. The crosstable of real sections: tests/test_uscf_cli.py (through ``rate``)."""

from __future__ import annotations

import pandas as pd

from rating_batch.schema import GAMES_DTYPES
from rating_batch.systems.uscf.report import COLUMNS, RATING_COLUMNS, crosstable


def test_a_run_without_sections_has_an_empty_crosstable() -> None:
    # A month without events (a database's publish): no section, no row, the columns kept.
    games = pd.DataFrame({c: pd.Series(dtype=d) for c, d in GAMES_DTYPES.items()})
    games["id"] = pd.Series(dtype="string")
    players = pd.DataFrame({"id": ["11"], "name": ["One, Ann"], "federation": ["USA"],
                            "rating": [1500.0], "games_total": [30.0]})  # fmt: skip
    calculations = pd.DataFrame(columns=["event", "id", "rating", "n", "m", "new_rating"])
    found = crosstable(players, calculations, games, [], {}, 25)
    assert list(found.columns) == [*COLUMNS, *RATING_COLUMNS]
    assert found.empty
