"""The ECF grade (docs/systems.md §11): the illustration, the 40-point rule, the top-up from
the previous grade, ungraded players' estimates, categories, seasons and lapsed grades."""

from __future__ import annotations

import datetime as dt

import numpy as np
import pandas as pd
import pytest
from system_inputs import one_event

from rating_batch.systems import SystemInput
from rating_batch.systems.ecf_grade import (
    EcfGrade,
    EcfGradeSystem,
    categories,
    estimate_ungraded,
    game_points,
    rate_grades,
    season_list,
)
from rating_batch.systems.games import PlayedGames

NAN = np.nan


def against_many(grades: list[float], scores: list[float]) -> PlayedGames:
    """Player 0 against players 1, 2, … (one game each)."""
    pairs = [(0, j + 1, s) for j, s in enumerate(scores)]
    return PlayedGames.from_pairs(pairs, len(grades))


def test_the_illustration_ten_games_topped_up_from_the_previous_grade() -> None:
    # §11.7: graded 150 on 30 games, 10 games for an average of 170 (ten draws against 170):
    # k = min(30 − 10, 30) = 20, grade = (10 × 170 + 20 × 150)/30 = 4700/30 = 156.67, B.
    grades = [150.0] + [170.0] * 10
    season = rate_grades(np.array(grades), np.full(11, 30.0),
                         against_many(grades, [0.5] * 10), EcfGrade())  # fmt: skip
    assert season.average[0] == 170.0 and season.n[0] == 10 and season.top_up[0] == 20
    assert season.grade[0] == pytest.approx(4700 / 30)
    assert season.grade_games[0] == 30
    # Each opponent: one draw against 150, g = 150; k = 29: (150 + 29 × 170)/30 = 169.33.
    assert season.grade[1] == pytest.approx(5080 / 30)
    assert categories(season.n, season.grade_games, EcfGrade())[:2].tolist() == ["B", "B"]


def test_the_40_point_rule_holds_the_opponent_within_40_whatever_the_result() -> None:
    # 100 beats 200: 200 held to 140, g = 140 + 50 = 190; 200 loses: 100 held to 160,
    # g = 160 − 50 = 110. 100 draws 200: 140; 100 loses to 60 (within 40): 60 − 50 = 10.
    used, points = game_points(np.array([100.0, 200.0, 100.0, 100.0]),
                               np.array([200.0, 100.0, 200.0, 60.0]),
                               np.array([1.0, 0.0, 0.5, 0.0]), EcfGrade())  # fmt: skip
    assert used.tolist() == [140.0, 160.0, 140.0, 60.0]
    assert points.tolist() == [190.0, 110.0, 140.0, 10.0]
    # Without an own grade (a first estimate) the opponent's grade is taken as it is.
    _, first = game_points(np.array([NAN]), np.array([200.0]), np.array([1.0]), EcfGrade())
    assert first.tolist() == [250.0]
    # points_per_result and gap_cap are constants: 30 and 20 give 120 + 30 = 150.
    _, other = game_points(np.array([100.0]), np.array([200.0]), np.array([1.0]),
                           EcfGrade(points_per_result=30.0, gap_cap=20.0))  # fmt: skip
    assert other.tolist() == [150.0]


def test_thirty_games_make_the_grade_the_average_alone() -> None:
    # 30 games against 150: 20 wins (200) and 10 draws (150): A = 5500/30 = 183.33, k = 0, A.
    games = PlayedGames.from_pairs([(0, 1, 1.0)] * 20 + [(0, 1, 0.5)] * 10, 2)
    season = rate_grades(np.array([150.0, 150.0]), np.array([30.0, 30.0]), games, EcfGrade())
    assert season.grade[0] == pytest.approx(5500 / 30) and season.top_up[0] == 0
    assert categories(season.n, season.grade_games, EcfGrade())[0] == "A"
    # The opponent: 20 losses (100), 10 draws (150): 3500/30 = 116.67.
    assert season.grade[1] == pytest.approx(3500 / 30)


def test_the_top_up_reaches_only_as_far_as_the_games_the_grade_rests_on() -> None:
    # Graded 150 on 12 games, 10 games averaging 170: k = min(20, 12) = 12,
    # grade = (1700 + 12 × 150)/22 = 3500/22 = 159.09 on 22 games: category D.
    grades = [150.0] + [170.0] * 10
    before = np.array([12.0] + [30.0] * 10)
    season = rate_grades(np.array(grades), before, against_many(grades, [0.5] * 10), EcfGrade())
    assert season.top_up[0] == 12 and season.grade_games[0] == 22
    assert season.grade[0] == pytest.approx(3500 / 22)
    assert categories(season.n, season.grade_games, EcfGrade())[0] == "D"


def test_without_games_the_grade_stands() -> None:
    games = PlayedGames.from_pairs([(0, 1, 1.0)], 3)
    season = rate_grades(np.array([150.0, 150.0, 123.4]), np.array([30.0, 30.0, 7.0]),
                         games, EcfGrade())  # fmt: skip
    assert (season.grade[2], season.grade_games[2], season.n[2]) == (123.4, 7.0, 0.0)


def test_ungraded_estimates_are_iterated_together_until_they_settle() -> None:
    # U (0) and V (1) ungraded, A (2) graded 150. U beats A, V draws A, U draws V.
    # First estimates (graded opponents only, no 40-point rule): U 150 + 50 = 200, V 150.
    # Round 1: U (200): A held to 160 → 210, V held to 160 → 160: 185; V (150): A 150,
    #   U held to 190 → 190: 170.
    # Round 2: U (185): 200 and 170: 185; V (170): 150 and 185: 167.5.
    # Round 3: U: (200 + 167.5)/2 = 183.75; V: (150 + 185)/2 = 167.5.
    # The fixed point: U = (200 + V)/2, V = (150 + U)/2 → U = 183.33, V = 166.67.
    games = PlayedGames.from_pairs([(0, 2, 1.0), (1, 2, 0.5), (0, 1, 0.5)], 3)
    estimate, rounds = estimate_ungraded(np.array([NAN, NAN, 150.0]), games, EcfGrade())
    assert rounds[:4, 0].tolist() == [200.0, 185.0, 185.0, 183.75]
    assert rounds[:4, 1].tolist() == [150.0, 170.0, 167.5, 167.5]
    assert np.isnan(rounds[:, 2]).all()
    assert estimate[0] == pytest.approx(550 / 3, abs=0.005)
    assert estimate[1] == pytest.approx(500 / 3, abs=0.005)
    # The last round moved nobody by more than 0.005; the one before did.
    assert np.abs(rounds[-1] - rounds[-2])[:2].max() <= 0.005
    assert np.abs(rounds[-2] - rounds[-3])[:2].max() > 0.005
    # A's games use the final estimates: a loss to U (183.33 − 50) and a draw with V
    # (166.67): A = ((U − 50) + V)/2 = 150 at the fixed point, k = 28: (2A + 28 × 150)/30.
    season = rate_grades(np.array([NAN, NAN, 150.0]), np.array([0.0, 0.0, 30.0]), games,
                         EcfGrade())  # fmt: skip
    average = (estimate[0] - 50 + estimate[1]) / 2
    assert season.points[games.pidx == 2].tolist() == [estimate[0] - 50, estimate[1]]
    assert season.grade[2] == pytest.approx((2 * average + 28 * 150) / 30)
    assert season.grade[2] == pytest.approx(150.0, abs=0.005)
    assert season.grade[:2] == pytest.approx(estimate[:2])
    assert season.grade_games[:2].tolist() == [2.0, 2.0]  # an estimate rests on n games


def test_estimates_stop_after_the_most_rounds() -> None:
    # U beats A (100) and B (200): first (150 + 250)/2 = 200; round 1: A held to 160 → 210,
    # B 250: 230; each round then climbs (a 100 % score has no fixed point).
    games = PlayedGames.from_pairs([(0, 1, 1.0), (0, 2, 1.0)], 3)
    estimate, rounds = estimate_ungraded(np.array([NAN, 100.0, 200.0]), games,
                                         EcfGrade(estimate_rounds=2))  # fmt: skip
    assert rounds[:, 0].tolist() == [200.0, 230.0, 245.0]  # round 2: (240 + 250)/2
    assert estimate[0] == 245.0


def test_games_between_players_without_grade_or_estimate_do_not_count() -> None:
    # 0 and 1 ungraded, playing only each other: no estimate, no counted game, no grade.
    games = PlayedGames.from_pairs([(0, 1, 1.0), (2, 3, 0.5)], 4)
    season = rate_grades(np.array([NAN, NAN, 150.0, 150.0]), np.full(4, 30.0), games,
                         EcfGrade())  # fmt: skip
    assert np.isnan(season.grade[:2]).all() and season.n[:2].tolist() == [0.0, 0.0]
    assert season.counted.tolist() == [False, True, False, True]


@pytest.mark.parametrize(
    ("n", "games", "expected"),
    [(30, 30, "A"), (10, 30, "B"), (0, 30, "B"), (10, 29, "D"), (10, 20, "D"), (10, 19, "E"),
     (5, 10, "E"), (5, 9, "F"), (5, 5, "F"), (4, 4, ""), (0, NAN, "")],
    ids=["a", "b", "b-no-games", "d-29", "d-20", "e-19", "e-10", "f-9", "f-5", "under-5",
         "ungraded"],
)  # fmt: skip
def test_categories_by_the_games_the_grade_rests_on(n: float, games: float, expected: str) -> None:
    assert categories(np.array([float(n)]), np.array([games]), EcfGrade())[0] == expected


@pytest.mark.parametrize(
    ("end", "season", "expected"),
    [("2010-06-01", "annual", "2011-07"), ("2011-05-31", "annual", "2011-07"),
     ("2015-06-30", "half-yearly", "2015-07"), ("2015-07-01", "half-yearly", "2016-01"),
     ("2015-12-31", "half-yearly", "2016-01")],
    ids=["annual-june", "annual-may", "half-june", "half-july", "half-december"],
)  # fmt: skip
def test_an_event_belongs_to_the_season_of_its_end_date(end: str, season: str,
                                                        expected: str) -> None:  # fmt: skip
    assert season_list(dt.date.fromisoformat(end), season) == expected


def season_input(ratings: list[float | None], counts: list[float | None],
                 last: list[str | None], games: PlayedGames, end: str = "2019-05-20",
                 births: list[int] | None = None) -> SystemInput:  # fmt: skip
    state = {"rating": pd.Series(ratings, dtype="Float64"),
             "grade_games": pd.Series(counts, dtype="Float64"),
             "last_period": pd.Series(last, dtype="string")}  # fmt: skip
    return one_event(state, games, end, period="2019-06", births=births)


def test_a_grade_older_than_36_months_tops_up_nothing_and_without_games_is_dropped() -> None:
    # Season Jan–Jun 2019 (list 2019-07). 1 (150, list 2016-01: 42 months before) beats
    # 0 (150, list 2016-07: 36 months, usable). 1: g = 150 + 50 = 200, k = 0: 200 on one
    # game (not (200 + 29 × 150)/30), kept but not published (under 5 games).
    # 0: g = 150 − 50 = 100, k = 29: (100 + 29 × 150)/30 = 148.33 on 30, B, list 2019-07.
    # 2 (140, 2016-01) plays no game: dropped.
    games = PlayedGames.from_pairs([(1, 0, 1.0)], 3)
    period = season_input([150.0, 150.0, 140.0], [30.0, 30.0, 10.0],
                          ["2016-07", "2016-01", "2016-01"], games)  # fmt: skip
    outcome = EcfGradeSystem().rate(period)
    players = outcome.players.set_index("id")
    shown = ["new_rating", "new_grade_games", "new_last_period", "category", "status"]
    assert players.loc["11", "new_rating"] == pytest.approx(4450 / 30)
    assert players.loc["11", shown].tolist()[1:] == [30.0, "2019-07", "B", "rated"]
    assert players.loc["12", shown].tolist() == [200.0, 1.0, "2019-07", "", "unrated"]
    assert players.loc["12", "top_up"] == 0.0
    assert np.isnan(players.loc["13", "new_rating"]) and players.loc["13", "status"] == "unrated"
    assert any("no top-up (k = 0), dropped without games" in note for note in outcome.notes)


def test_a_junior_increment_is_added_before_the_season() -> None:
    # Born 2003, season ending 2019: 16, under 18: 100 + 10 = 110; a draw with 110: g = 110,
    # k = 29: (110 + 29 × 110)/30 = 110. The adult opponent keeps 110 the same way.
    games = PlayedGames.from_pairs([(0, 1, 0.5)], 2)
    period = season_input([100.0, 110.0], [30.0, 30.0], [None, None], games,
                          births=[2003, 1980])  # fmt: skip
    players = EcfGradeSystem(EcfGrade(junior_increment=10.0)).rate(period).players
    assert players["new_rating"].tolist() == [110.0, 110.0]
    plain = EcfGradeSystem().rate(period).players
    # Without the increment: 100 draws 110: 100 + 29 × 100 … (110 + 29 × 100)/30 = 100.33.
    assert plain["new_rating"].iloc[0] == pytest.approx(3010 / 30)


def test_calculations_show_each_game_and_the_players_values() -> None:
    grades = [150.0] + [170.0] * 10
    games = against_many(grades, [0.5] * 10)
    period = season_input(grades, [30.0] * 11, [None] * 11, games)
    outcome = EcfGradeSystem().rate(period)
    mine = outcome.calculations[outcome.calculations["id"] == "11"]
    assert mine["grade_used"].tolist() == [170.0] * 10 and mine["points"].tolist() == [170.0] * 10
    assert mine[["n", "average", "top_up", "category"]].iloc[0].tolist() == [10, 170, 20, "B"]
    assert any("January 2015" in note for note in outcome.notes)
    # Graded before (no last_period: recent) and after: rated, whatever the dtype games.
    assert set(outcome.players["status"]) == {"rated"}


def test_a_state_from_an_elo_rating_inverts_the_2020_conversion() -> None:
    # docs/systems.md §11: grade = (Elo − 700)/7.5 on 30 games: 1900 → 160, 1450 → 100.
    seeded = EcfGradeSystem().from_elo(pd.Series([1900, 1450, None], dtype="Int64"))
    assert seeded["rating"].tolist()[:2] == [160.0, 100.0]
    assert seeded["grade_games"].tolist()[:2] == [30.0, 30.0]
    assert seeded["rating"].isna().tolist() == [False, False, True]
