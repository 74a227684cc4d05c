"""Events that share their games (overlap.py): the same results reported twice."""

from __future__ import annotations

import pandas as pd

from rating_batch.validation import overlapping_events


def games(event: str, results: list[tuple[int, str, str, float]]) -> pd.DataFrame:
    """Both sides of each game: (round, player, opponent, player's score)."""
    rows = []
    for round_, player, opponent, score in results:
        rows.append((event, round_, player, opponent, score))
        rows.append((event, round_, opponent, player, 1 - score))
    return pd.DataFrame(rows, columns=["event", "round", "player", "opponent", "score"])


ROUNDS = [(1, "a", "b", 1.0), (1, "c", "d", 0.5), (2, "a", "c", 0.0), (2, "b", "d", 1.0)]


def test_a_copy_shares_every_game() -> None:
    found = overlapping_events(pd.concat([games("x", ROUNDS), games("y", ROUNDS)]))
    assert found.to_dict("records") == [
        {"event_x": "x", "event_y": "y", "shared": 4, "played_x": 4, "played_y": 4}
    ]


def test_half_of_the_smaller_event_is_enough() -> None:
    # y is x after round 1 only (an early export): its 2 games are all in x's 4.
    found = overlapping_events(pd.concat([games("x", ROUNDS), games("y", ROUNDS[:2])]))
    assert found[["shared", "played_x", "played_y"]].values.tolist() == [[2, 4, 2]]


def test_less_than_half_is_no_overlap() -> None:
    # One game of four in common (same round, players and result): a coincidence.
    other = [ROUNDS[0], (1, "e", "f", 1.0), (2, "e", "g", 0.0), (2, "f", "h", 1.0)]
    assert overlapping_events(pd.concat([games("x", ROUNDS), games("y", other)])).empty


def test_another_result_is_another_game() -> None:
    changed = [(r, p, o, 1 - s if s != 0.5 else s) for r, p, o, s in ROUNDS]
    found = overlapping_events(pd.concat([games("x", ROUNDS), games("y", changed)]))
    assert found.empty or found["shared"].tolist() == [1]  # only the draw is the same


def test_events_at_different_dates_are_different_matches() -> None:
    both = pd.concat([games("x", ROUNDS), games("y", ROUNDS)])
    apart = pd.DataFrame(
        {"event": ["x", "y"], "first": ["2026-01-03", "2026-02-07"],
         "last": ["2026-01-04", "2026-02-08"]}
    )  # fmt: skip
    assert overlapping_events(both, apart).empty
    meeting = apart.assign(first=["2026-01-03", "2026-01-04"], last=["2026-01-04", "2026-01-05"])
    assert len(overlapping_events(both, meeting)) == 1
    unknown = apart.assign(first=[None, None], last=[None, None])
    assert len(overlapping_events(both, unknown)) == 1


def test_a_game_against_oneself_is_not_compared() -> None:
    selfish = games("x", [(1, "a", "a", 1.0)])
    assert overlapping_events(pd.concat([selfish, selfish.assign(event="y")])).empty
