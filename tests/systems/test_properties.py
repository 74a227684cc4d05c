"""Properties every system keeps on random periods (docs/systems.md §1): a player without
games keeps their state (Glicko's and Glicko-2's RD aside: it grows), a better result never
gives a worse new rating (for Ingo a lower one is better), and for the period-batch systems the
order of games inside the period does not matter.

"A better result" is judged where the result is rated: at the end of the period for the
period-batch systems, at the end of the game's event for Harkness and Ingo, right after the
game for TrueSkill. Later on it need not hold: a better result against an opponent weakens
that opponent, and losing to them again later then costs more (a Harkness period of two events
shows it: found by this test's first version)."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from rating_batch.systems.games import PlayedGames
from rating_batch.systems.glicko import Glicko, rate_glicko
from rating_batch.systems.glicko2 import Glicko2, rate_glicko2
from rating_batch.systems.historical import Harkness, Ingo, rate_harkness, rate_ingo
from rating_batch.systems.trueskill import TrueSkill, rate_trueskill

COUNT = 8
Pairs = list[tuple[int, int, float]]


@st.composite
def periods(draw: st.DrawFn) -> tuple[Pairs, list[int], list[int]]:
    """Games among players 0-5 (6 and 7 never play), each in its own round of one of two
    events."""
    pairs = draw(
        st.lists(
            st.tuples(st.integers(0, 5), st.integers(0, 5), st.sampled_from([0.0, 0.5, 1.0]))
            .filter(lambda p: p[0] != p[1]),
            min_size=1, max_size=10,
        )
    )  # fmt: skip
    events = draw(st.lists(st.integers(0, 1), min_size=len(pairs), max_size=len(pairs)))
    return pairs, events, list(range(1, len(pairs) + 1))


def games(pairs: Pairs, events: list[int], rounds: list[int]) -> PlayedGames:
    return PlayedGames.from_pairs(pairs, COUNT, events=events, rounds=rounds)


RATINGS = np.array([1500.0, 1620, 1710, 1830, 1950, 2040, 1777, 1888])
RDS = np.array([60.0, 90, 120, 200, 250, 300, 80, 110])
INGOS = np.array([100.0, 110, 120, 130, 140, 150, 125, 105])


def all_systems(g: PlayedGames) -> dict[str, np.ndarray]:
    """Each system's new rating-like value per player (higher is better; Ingo negated)."""
    return {
        "glicko2": rate_glicko2(RATINGS, RDS, np.full(COUNT, 0.06), g, Glicko2()).rating,
        "glicko": rate_glicko(RATINGS, RDS, np.ones(COUNT), g, Glicko()).rating,
        "trueskill": rate_trueskill(RATINGS / 60, RDS / 60, g, TrueSkill()).mu,
        "harkness": rate_harkness(RATINGS, g, Harkness()).rating,
        "ingo": -rate_ingo(INGOS, g, Ingo()).rating,
    }


@settings(max_examples=120, deadline=None)
@given(periods())
def test_players_without_games_keep_their_state(period: tuple) -> None:
    after = all_systems(games(*period))
    start = {"glicko2": RATINGS, "glicko": RATINGS, "trueskill": RATINGS / 60,
             "harkness": RATINGS, "ingo": -INGOS}  # fmt: skip
    for name, values in after.items():
        assert values[6] == start[name][6] and values[7] == start[name][7], name
    trueskill = rate_trueskill(RATINGS / 60, RDS / 60, games(*period), TrueSkill())
    assert trueskill.sigma[6] == RDS[6] / 60 and trueskill.sigma[7] == RDS[7] / 60


@settings(max_examples=120, deadline=None)
@given(periods(), st.data())
def test_a_better_result_never_gives_a_worse_rating(period: tuple, data: st.DataObject) -> None:
    pairs, events, rounds = period
    which = data.draw(st.integers(0, len(pairs) - 1))
    white, black, score = pairs[which]
    if score == 1.0:
        return
    better = [*pairs]
    better[which] = (white, black, score + 0.5)
    worse_g, better_g = games(pairs, events, rounds), games(better, events, rounds)
    # Period batch: the period's new rating.
    for rate in (
        lambda g: rate_glicko2(RATINGS, RDS, np.full(COUNT, 0.06), g, Glicko2()).rating,
        lambda g: rate_glicko(RATINGS, RDS, np.ones(COUNT), g, Glicko()).rating,
    ):
        assert rate(better_g)[white] >= rate(worse_g)[white] - 1e-9
    # TrueSkill: μ right after that game (its row: white's side of game ``which``).
    row = which
    ts_worse = rate_trueskill(RATINGS / 60, RDS / 60, worse_g, TrueSkill())
    ts_better = rate_trueskill(RATINGS / 60, RDS / 60, better_g, TrueSkill())
    assert ts_better.mu_after[row] >= ts_worse.mu_after[row] - 1e-9
    # Harkness and Ingo: the value at the end of that game's event.
    for rate_event, sign in (
        (lambda g: rate_harkness(RATINGS, g, Harkness()), 1.0),
        (lambda g: rate_ingo(INGOS, g, Ingo()), -1.0),
    ):
        before, after = rate_event(worse_g).parts, rate_event(better_g).parts
        mine = (before["player"] == white) & (before["event"] == events[which])
        assert sign * after["after"][mine][0] >= sign * before["after"][mine][0] - 1e-9


@settings(max_examples=120, deadline=None)
@given(periods(), st.randoms(use_true_random=False))
def test_the_order_inside_a_period_does_not_matter_for_batch_systems(
    period: tuple, shuffle: object
) -> None:
    pairs, events, rounds = period
    order = list(range(len(pairs)))
    shuffle.shuffle(order)  # type: ignore[attr-defined]  # hypothesis's Random strategy value
    moved = games([pairs[i] for i in order], [events[i] for i in order], rounds)
    here = games(pairs, events, rounds)
    a = rate_glicko2(RATINGS, RDS, np.full(COUNT, 0.06), here, Glicko2())
    b = rate_glicko2(RATINGS, RDS, np.full(COUNT, 0.06), moved, Glicko2())
    assert np.allclose(a.rating, b.rating) and np.allclose(a.rd, b.rd)
    assert np.allclose(a.volatility, b.volatility)
    c = rate_glicko(RATINGS, RDS, np.ones(COUNT), here, Glicko())
    d = rate_glicko(RATINGS, RDS, np.ones(COUNT), moved, Glicko())
    assert np.allclose(c.rating, d.rating) and np.allclose(c.rd, d.rd)
