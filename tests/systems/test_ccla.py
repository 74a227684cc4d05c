"""The CCLA chart (docs/systems.md §13): every cell of the published chart in both directions,
the spec's example, games one at a time from the ratings at the time, zero-sum whole numbers,
the classes, a new player's first rating and the decisions told in the notes."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rating_batch.rules_check import Findings
from rating_batch.systems.base import SystemInput, rate_finite
from rating_batch.systems.ccla import Ccla, CclaSystem, class_of, rate_ccla
from rating_batch.systems.games import PlayedGames
from rating_batch.systems.params import from_section

LOWER = 1500.0
BANDS = range(15)
#: (result of the higher-rated, who plays white): every cell, from both sides of the board.
RESULTS = [(result, white) for result in ("win", "loss", "draw") for white in ("higher", "lower")]


def published(band: int) -> tuple[int, int, int]:
    """The chart's row for a band as the CCLA prints it: the first row 16/16/0 and each band
    of 20 points one less, one more, one more (16 − b, 16 + b, b), the last (280 and up) 2/30/14.
    """
    if band == 0:
        return 16, 16, 0
    if band == 14:
        return 2, 30, 14
    return 16 - band, 16 + band, band


def differences(band: int) -> list[float]:
    """Both edges of a band's rating differences (280 and up: 280 and far beyond)."""
    low = 20.0 * band
    return [low, low + 19.0] if band < 14 else [low, low + 1200.0]


@pytest.mark.parametrize("band", BANDS)
@pytest.mark.parametrize(("result", "white"), RESULTS, ids=[f"{r}-{w}" for r, w in RESULTS])
def test_every_cell_of_the_chart_in_both_directions(band: int, result: str, white: str) -> None:
    higher_wins, lower_wins, draw = published(band)
    # The higher-rated player's score and both players' changes, as the chart gives them.
    score, higher_change = {"win": (1.0, higher_wins), "loss": (0.0, -lower_wins),
                            "draw": (0.5, -draw)}[result]  # fmt: skip
    for difference in differences(band):
        ratings = np.array([LOWER + difference, LOWER])  # player 0 the higher-rated
        pair = (0, 1, score) if white == "higher" else (1, 0, 1.0 - score)
        done = rate_ccla(ratings, PlayedGames.from_pairs([pair], 2))
        assert list(done.rating) == [LOWER + difference + higher_change, LOWER - higher_change]
        assert set(done.band) == {band}


@pytest.mark.parametrize("band", BANDS)
def test_each_row_is_elo_with_k_32_and_a_stepped_expectation(band: int) -> None:
    # §13: ΔR = 32·(S − ½) + b against a higher-rated opponent, − b against a lower-rated one.
    lower = np.array([LOWER + 20.0 * band + 5.0, LOWER])
    for score in (1.0, 0.5, 0.0):
        done = rate_ccla(lower, PlayedGames.from_pairs([(1, 0, score)], 2))
        assert done.rating[1] - LOWER == 32 * (score - 0.5) + band


def test_equal_ratings_are_band_zero_whoever_wins() -> None:
    for score, change in ((1.0, 16), (0.5, 0), (0.0, -16)):
        done = rate_ccla(np.array([1600.0, 1600.0]), PlayedGames.from_pairs([(0, 1, score)], 2))
        assert list(done.rating) == [1600 + change, 1600 - change]


def test_the_specs_example_one_game_at_a_time() -> None:
    # docs/systems.md §13: 1850 beats 1700 (+9), draws 1905 (+2), loses to 2200 (−2): 1859.
    # Each game from the ratings at the time: the draw is 1859 against 1905 (46: band 2),
    # the loss 1861 against 2200 (339: band 14).
    games = PlayedGames.from_pairs([(0, 1, 1.0), (2, 0, 0.5), (3, 0, 1.0)], 4)
    done = rate_ccla(np.array([1850.0, 1700.0, 1905.0, 2200.0]), games)
    assert list(done.rating) == [1859.0, 1691.0, 1903.0, 2202.0]
    hero = np.flatnonzero(games.pidx == 0)
    assert list(done.before[hero]) == [1850.0, 1859.0, 1861.0]
    assert list(done.opponent[hero]) == [1700.0, 1905.0, 2200.0]
    assert list(done.band[hero]) == [7, 2, 14]
    assert list(done.change[hero]) == [9, 2, -2]
    assert list(done.after[hero]) == [1859.0, 1861.0, 1859.0]


def _one_by_one(rating: np.ndarray, games: list[tuple[int, int, float]]) -> np.ndarray:
    """The chart applied game after game with plain Python numbers (the reference)."""
    state = [int(r) for r in rating]
    for white, black, score in games:
        a, b = state[white], state[black]
        band = min(abs(a - b) // 20, 14)
        plus = band if b > a else -band if a > b else 0
        change = int(32 * (score - 0.5)) + plus
        state[white], state[black] = a + change, b - change
    return np.array(state, dtype=np.float64)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.integers(800, 2700), min_size=2, max_size=9),
    st.lists(st.tuples(st.integers(0, 8), st.integers(0, 8),
                       st.sampled_from([0.0, 0.5, 1.0])), max_size=25),
)  # fmt: skip
def test_a_period_is_zero_sum_whole_and_the_games_in_order(
    ratings: list[int], pairs: list[tuple[int, int, float]]
) -> None:
    # One game a round (each its own round): rated as the reference rates them one by one.
    count = len(ratings)
    games = [(w % count, b % count, s) for w, b, s in pairs if w % count != b % count]
    start = np.array(ratings, dtype=np.float64)
    done = rate_ccla(start, PlayedGames.from_pairs(games, count))
    assert done.rating.sum() == start.sum()
    assert np.array_equal(done.rating, np.round(done.rating))
    assert np.array_equal(done.rating, _one_by_one(start, games))


def test_a_round_of_games_that_share_no_player_is_rated_at_once_as_in_order() -> None:
    # Round 1: 0–1 and 2–3; round 2: 0–2 and 1–3, each from the state round 1 left.
    pairs = [(0, 1, 1.0), (2, 3, 0.5), (0, 2, 0.0), (1, 3, 1.0)]
    games = PlayedGames.from_pairs(pairs, 4, rounds=[1, 1, 2, 2])
    start = np.array([1500.0, 1300.0, 1720.0, 1610.0])
    assert list(rate_ccla(start, games).rating) == list(_one_by_one(start, pairs))


@pytest.mark.parametrize(
    ("rating", "name"),
    [(2400, "Master"), (2200, "Master"), (2199, "Expert"), (2000, "Expert"), (1999, "A"),
     (1800, "A"), (1799, "B"), (1600, "B"), (1599, "C"), (1400, "C"), (1399, "D"),
     (1200, "D"), (1199, "E"), (0, "E")],
)  # fmt: skip
def test_the_classes_of_1980(rating: int, name: str) -> None:
    assert class_of(np.array([float(rating)]))[0] == name


def period_of(ratings: list[float | None], pairs: list[tuple[int, int, float]]) -> SystemInput:
    count = len(ratings)
    players = pd.DataFrame({"id": [str(11 + i) for i in range(count)],
                            "name": [f"Player {i + 1}" for i in range(count)],
                            "federation": [None] * count,
                            "birth_year": [1980] * count})  # fmt: skip
    state = pd.DataFrame({"rating": pd.array(ratings, dtype="Float64")})
    return SystemInput(players, state, PlayedGames.from_pairs(pairs, count), events=["open"])


def test_a_player_without_a_rating_starts_at_start_rating_and_the_notes_say_who() -> None:
    # Player 3 has no rating: 1200 by default, 1000 with the rules' start_rating. Against
    # 1500 (300 apart: band 14) his win is +30.
    period = period_of([1500.0, 1400.0, None], [(0, 1, 1.0), (2, 0, 1.0)])
    for system, start in ((CclaSystem(), 1200), (CclaSystem(Ccla(start_rating=1000)), 1000)):
        outcome = rate_finite(system, period)
        third = outcome.players.iloc[2]
        assert (pd.isna(third["rating"]), third["new_rating"], third["status"]) == (
            True, start + 30.0, "new",
        )  # fmt: skip
        assert outcome.players["new_rating"].sum() == 1500 + 1400 + start
        assert (
            f"a player without a rating starts at start_rating {start} (a decision): "
            "1 here (Player 3)"
        ) in outcome.notes
        assert "challenge matches of more than two games is not applied" in outcome.notes[0]
    everyone = rate_finite(CclaSystem(), period_of([1500.0, 1400.0], [(0, 1, 0.5)]))
    assert everyone.notes[1].endswith("; nobody did in this period")


def test_players_csv_and_the_calculations_carry_the_chart() -> None:
    outcome = rate_finite(CclaSystem(), period_of([1850.0, 1700.0], [(0, 1, 1.0)]))
    assert list(outcome.players["new_rating"]) == [1859.0, 1691.0]
    assert list(outcome.players["class"]) == ["A", "B"]
    calculations = outcome.calculations
    assert list(calculations.columns[-5:]) == [
        "rating_before", "opponent_rating", "band", "change", "rating_after",
    ]  # fmt: skip
    assert list(calculations["change"]) == [9, -9] and list(calculations["band"]) == [7, 7]


def test_an_elo_rating_seeds_the_rating_rounded_and_a_fraction_in_a_list_is_refused() -> None:
    system = CclaSystem()
    made = system.from_elo(pd.Series([1850, 1700.5, None], dtype="Float64"))
    assert list(made["rating"].astype(object).where(made["rating"].notna(), None)) == [
        1850.0, 1701.0, None,
    ]  # fmt: skip
    listed = pd.DataFrame({"rating": pd.array([1850.0, 1700.5], dtype="Float64")})
    assert system.list_problems(listed) == [
        (1, "rating 1700.5 is not a whole number: the chart counts whole points "
            "(docs/systems.md §13)"),
    ]  # fmt: skip


@pytest.mark.parametrize(("value", "wrong"), [(1000, ""), (1200.5, "whole"), (-1, "whole")])
def test_start_rating_is_a_whole_number_from_0_to_4000(value: float, wrong: str) -> None:
    found = Findings("x.toml", "")
    from_section(Ccla, {"start_rating": value}, found, "ccla")
    assert bool(found.issues) == bool(wrong)
