"""A system's published list (pipelines/state/publish.system_listing): who is on it and the
system's own columns after the state."""

from __future__ import annotations

import pandas as pd

from rating_batch.pipelines.state.publish import system_listing
from rating_batch.systems.ecf_grade import EcfGradeSystem
from rating_batch.systems.historical import HarknessSystem


def test_a_list_shows_listed_statuses_and_the_systems_listed_columns() -> None:
    # Three players with a state after the period; the third's is kept but not published
    # (status unrated: an ECF grade on too few games). category is ecf-grade's listed column.
    players = pd.DataFrame({
        "id": ["11", "12", "13"], "games": [10, 0, 2], "status": ["rated", "rated", "unrated"],
        "new_rating": [156.67, 120.5, 140.0], "new_grade_games": [30.0, 30.0, 2.0],
        "new_last_period": ["2015-07", None, "2015-07"], "category": ["B", "B", ""],
    })  # fmt: skip
    table = pd.DataFrame({"id": ["11", "12", "13"], "name": ["A", "B", "C"]})
    listing = system_listing(EcfGradeSystem(), players, table)
    assert listing["id"].tolist() == ["11", "12"]
    assert listing["rating"].tolist() == [157, 121]  # half away from zero
    assert list(listing.columns)[-2:] == ["category", "games"]
    assert listing["category"].tolist() == ["B", "B"]
    # A system without listed columns: none added.
    plain = players[["id", "games", "status", "new_rating"]]
    assert list(system_listing(HarknessSystem(), plain, table).columns)[-2:] == ["rating", "games"]
