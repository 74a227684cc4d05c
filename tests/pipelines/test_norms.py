"""Who publish checks for norms (rating_batch/pipelines/elo/norms.py, docs/norms.md §8)."""

from __future__ import annotations

import pandas as pd

from rating_batch.pipelines.elo.norms import within_reach


def test_within_reach_needs_the_games_and_three_target_titled_opponents() -> None:
    """8 games at the board (a ninth credited, 1.4.1c) and 3 games against GM, IM, WGM or
    WIM are the least any norm needs; an FM or a bye does not count."""
    titles = pd.Series(
        ["GM", "IM", "WIM", "FM", "", "", "", "", "", "GM"],
        index=pd.MultiIndex.from_arrays([["e"] * 10, range(2, 12)]),
    )

    def games(opponents: list[int | None], reasons: list[str | None]) -> pd.DataFrame:
        return pd.DataFrame({
            "event": "e", "player": 1, "opponent": pd.array(opponents, dtype="Int64"),
            "reason": reasons,
        })  # fmt: skip

    eight = games([2, 3, 4, 5, 6, 7, 8, 9], [None] * 8)
    assert within_reach(eight, titles).tolist() == [True]
    # Seven games and a bye: too few.
    seven = games([2, 3, 4, 5, 6, 7, 8, None], [None] * 7 + ["bye"])
    assert within_reach(seven, titles).tolist() == [False]
    # Two target titles (GM, IM) and the WIM game lost by forfeit: too few.
    forfeit = games([2, 3, 4, 5, 6, 7, 8, 9, 10], [None, None, "forfeit", *[None] * 6])
    assert within_reach(forfeit, titles).tolist() == [False]
