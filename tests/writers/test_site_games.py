"""What the site reads of games.csv (writers/site_games.py): per player and event, the games
played (with an opponent, not forfeited) and every point scored, byes and forfeits with them,
as the event's crosstable totals them; in the order each pair first comes in the file."""

from __future__ import annotations

import pandas as pd

from rating_batch.writers.site_games import played


def test_played_counts_games_with_an_opponent_and_every_point() -> None:
    # Event a: 1 beats 2; 1 wins by forfeit against 3; 1 has a half-point bye.
    # Event b: 2 and 3 draw. So (1, a): 1 game, 1 + 1 + ½ = 2.5 points; (2, a): 1 game,
    # 0; (3, a): no game (a forfeit), 0; (2, b) and (3, b): 1 game, ½ each.
    games = pd.DataFrame(
        {"event": ["a", "a", "a", "a", "a", "b", "b"],
         "id": ["1", "2", "1", "3", "1", "2", "3"],
         "opponent_id": ["2", "1", "3", "1", "", "3", "2"],
         "score": ["1", "0", "1", "0", "0.5", "0.5", "0.5"],
         "reason": ["", "", "forfeit", "forfeit", "bye", "", ""]}
    )  # fmt: skip
    found = played(games)
    assert found.to_dict("list") == {
        "id": ["1", "2", "3", "2", "3"],
        "event": ["a", "a", "a", "b", "b"],
        "games": [1, 1, 0, 1, 1],
        "score": [2.5, 0.0, 0.0, 0.5, 0.5],
    }


def test_no_games_played_no_rows() -> None:
    assert played(None).empty
    assert played(pd.DataFrame({"event": [], "id": [], "opponent_id": [], "score": []})).empty
