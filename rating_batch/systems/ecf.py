"""The ECF rating (docs/systems.md §12): the English Chess Federation's monthly rating since
July 2020, as far as the ECF publishes it. A period batch over a calendar month: fully rated
players move by K·Σ(s − PD) (the K method, FIDE's table), new and partially rated players get
a performance rating over their pool of games plus one dummy draw (the P method), in three
passes. Where the ECF's description is silent the choice is a constant (§12.9)."""

from __future__ import annotations

import dataclasses
import datetime as dt
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np
import pandas as pd

from rating_batch.periods import Period, months_since
from rating_batch.schema import NationalId
from rating_batch.systems.base import (
    ECF_CODE,
    SYSTEM_STATUSES,
    SystemBase,
    SystemInput,
    SystemOutcome,
    game_rows,
    half_away,
    not_whole,
    outcome_players,
    seeded,
)
from rating_batch.systems.elo.rules import fide_tables
from rating_batch.systems.games import PlayedGames
from rating_batch.systems.params import field, flag, number

#: Where an ECF rating can lie (a list's ``rating``; constants that are ratings).
ECF_RATINGS = (0.0, 4000.0)


@dataclass(frozen=True)
class Ecf:
    """The ECF rating's constants (the ``[ecf]`` section of a rules file); the decisions of
    docs/systems.md §12.9 are fields."""

    k: float = field(20.0, number(1, 100), "K of an adult (the K method)")
    k_junior: float = field(40.0, number(1, 100), "K of a junior")
    k_junior_gains_only: bool = field(
        False, flag, "a junior's K only for a gain (a calculator's reading; else always)"
    )
    junior_age: int = field(18, number(1, 100), "age below which a player is a junior")
    d_cap: float = field(400.0, number(1, 4000), "largest |D| looked up in FIDE's table")
    partial_opponent_weight: float = field(
        1.0, number(0, 1), "weight of a game against a new or partial opponent (0.5: older text)"
    )
    nominal_adult: float = field(1800.0, number(*ECF_RATINGS), "dummy opponent of an adult")
    nominal_per_year: float = field(
        100.0, number(0, 400), "dummy opponent of a junior per year of age"
    )
    nominal_fast_offset: float = field(
        100.0, number(0, 1000), "taken off the dummy on the rapid and blitz lists"
    )
    dummy_games: int = field(1, number(0, 10), "dummy draws in a P rating's pool")
    whole_numbers: bool = field(
        True, flag, "ratings whole: the change and the P rating rounded half away from zero"
    )
    full_games: int = field(10, number(1, 1000), "games of the pool that make a full rating")
    inactive_months: int = field(
        36, number(1, 1200), "months without a rated game after which a rating lapses"
    )


@dataclass(frozen=True)
class EcfMonth:
    """A month rated. Per player: ``rating`` and ``partial_games`` after it (NaN: none, or a
    full rating), the partial rating's pool (``pool_opponents``, ``pool_points``),
    ``method`` (``K``, ``P`` or empty without games), ``k``, ``expected`` (ΣPD), ``change``
    (K method), the P method's ``pool`` (games, the dummy not counted), ``nominal`` (the
    dummy), ``ra``, ``p``, ``dp`` and the pass values ``pass_a``, ``pass_b``. Per game row:
    the opponent's value used (``opponent_value``), ``d``, ``pd`` (in points) and
    ``weight`` (K method)."""

    rating: np.ndarray
    partial_games: np.ndarray
    pool_opponents: np.ndarray
    pool_points: np.ndarray
    method: np.ndarray
    k: np.ndarray
    expected: np.ndarray
    change: np.ndarray
    pool: np.ndarray
    nominal: np.ndarray
    ra: np.ndarray
    p: np.ndarray
    dp: np.ndarray
    pass_a: np.ndarray
    pass_b: np.ndarray
    opponent_value: np.ndarray
    d: np.ndarray
    pd: np.ndarray
    weight: np.ndarray


@dataclass(frozen=True)
class _Performance:
    rating: np.ndarray
    ra: np.ndarray
    p: np.ndarray
    dp: np.ndarray
    pool: np.ndarray
    opponents: np.ndarray
    """The pool's opponents' ratings, summed (the dummy not counted)."""
    points: np.ndarray
    """The pool's points (the dummy's not counted)."""


def nominal_rating(age: np.ndarray, fast: bool, params: Ecf) -> np.ndarray:
    """The dummy opponent's rating (docs/systems.md §12.4): 1800 from 18, 100 × age under
    it (age NaN: an adult), 100 less on the rapid and blitz lists."""
    young = ~np.isnan(age) & (age < params.junior_age)
    base = np.where(young, params.nominal_per_year * np.nan_to_num(age), params.nominal_adult)
    return base - (params.nominal_fast_offset if fast else 0.0)


def expected_hundredths(d: np.ndarray) -> np.ndarray:
    """PD in hundredths for differences D (own − opponent, already capped), FIDE's table 8.1b
    (``fide_pd_table.csv``); beyond its last row, the last row."""
    tables = fide_tables()
    high, low = np.array(tables.pd_high), np.array(tables.pd_low)
    index = np.minimum(np.abs(d).astype(np.int64), len(high) - 1)
    chosen: np.ndarray = np.where(d >= 0, high[index], low[index])
    return chosen


def _performance(
    values: np.ndarray,
    who: np.ndarray,
    pool: tuple[np.ndarray, np.ndarray, np.ndarray],
    dummy: np.ndarray,
    games: PlayedGames,
    params: Ecf,
) -> _Performance:
    """The P method for the players ``who`` (docs/systems.md §12.4): opponents at ``values``;
    ``pool``: the earlier games carried (their number, their opponents' ratings summed, the
    points scored in them)."""
    count = len(values)
    rows = who[games.pidx]
    own = games.pidx[rows]
    n = np.bincount(own, minlength=count).astype(np.float64)
    half_points = np.bincount(own, weights=2.0 * games.score[rows], minlength=count)
    opponents = np.bincount(own, weights=values[games.oidx[rows]], minlength=count)
    carried, carried_sum, carried_points = pool
    total = n + carried
    opponents_all = opponents + carried_sum
    points_all = half_points / 2.0 + carried_points
    # Ra over the pool's opponents and the dummy; p = (W + ½)/(n + 1) to 2 decimals, half up:
    # in integers, 100 · (2W + 1) / (2(n + 1)) with W in half points (the pool's and the
    # dummy's are draws); d dummy draws in general.
    d = float(params.dummy_games)
    weight = np.maximum(total + d, 1.0)  # players without games: not used
    ra = (opponents_all + d * dummy) / weight
    numerator = np.rint(100 * (2.0 * points_all + d)).astype(np.int64)
    denominator = (2 * weight).astype(np.int64)
    p = (2 * numerator + denominator) // (2 * denominator)
    dp = np.array(fide_tables().dp)[np.clip(p, 0, 100)].astype(np.float64)
    return _Performance(_whole(ra + dp, params), ra, p / 100.0, dp, total, opponents_all,
                        points_all)  # fmt: skip


def _whole(values: np.ndarray, params: Ecf) -> np.ndarray:
    """Rounded half away from zero when ratings are whole numbers (§12.9 decision 5)."""
    return half_away(values) if params.whole_numbers else values


def rate_month(
    rating: np.ndarray,
    partial: np.ndarray,
    lapsed: np.ndarray,
    age: np.ndarray,
    games: PlayedGames,
    params: Ecf,
    *,
    fast: bool = False,
    pools: tuple[np.ndarray, np.ndarray] | None = None,
) -> EcfMonth:
    """One month (docs/systems.md §12.3–§12.6). ``rating``: NaN for a new player;
    ``partial``: the games of a partial rating (NaN: a full rating); ``lapsed``: a rating
    without a rated game in the last ``inactive_months`` (a full one: the player returns; a
    partial one is dropped); ``age`` NaN where unknown (an adult); ``fast``: the rapid or
    blitz list; ``pools``: a partial rating's earlier games as the database keeps them (their
    opponents' ratings summed, their points; NaN where not known: ``partial`` draws against
    the partial rating, as a list gives them)."""
    count = len(rating)
    rated = ~np.isnan(rating) & ~lapsed
    full = rated & np.isnan(partial)
    is_partial = rated & ~np.isnan(partial)
    returning = lapsed & ~np.isnan(rating) & np.isnan(partial)
    played = np.bincount(games.pidx, minlength=count) > 0
    by_p = ~full & played
    nominal = nominal_rating(age, fast, params)
    # A returning player's dummy is his last full rating when that is higher (§12.4).
    dummy = np.where(returning, np.fmax(nominal, rating), nominal)
    known_sum, known_points = pools if pools is not None else (np.full(count, np.nan),) * 2
    kept = is_partial & ~np.isnan(known_sum) & ~np.isnan(known_points)
    pool = (
        np.where(is_partial, partial, 0.0),
        np.where(kept, known_sum, np.where(is_partial, partial * rating, 0.0)),
        np.where(kept, known_points, np.where(is_partial, partial / 2.0, 0.0)),
    )
    start = np.where(is_partial, rating, dummy)
    # §12.5 pass A: new and partial opponents at their previous partial or nominal rating;
    # pass B: at their pass-A values; pass C (the K method): at their pass-B values.
    values_a = np.where(full, rating, start)
    pass_a = _performance(values_a, by_p, pool, dummy, games, params)
    values_b = np.where(by_p, pass_a.rating, values_a)
    pass_b = _performance(values_b, by_p, pool, dummy, games, params)
    values_c = np.where(by_p, pass_b.rating, values_a)
    own, other = games.pidx, games.oidx
    k_rows = full[own]
    d = half_away(rating[own] - values_c[other])
    d = np.clip(d, -params.d_cap, params.d_cap)
    pd_h = np.where(k_rows, expected_hundredths(np.nan_to_num(d)), 0)
    weight = np.where(full[other], 1.0, params.partial_opponent_weight)
    terms = np.where(k_rows, weight * (100.0 * games.score - pd_h), 0.0)
    young = ~np.isnan(age) & (age < params.junior_age)
    total = np.bincount(own, weights=terms, minlength=count)
    junior_k = young & (~params.k_junior_gains_only | (total > 0))
    k = np.where(junior_k, params.k_junior, params.k)
    change = np.where(full & played, _whole(k * total / 100.0, params), np.nan)
    expected = np.bincount(own, weights=np.where(k_rows, weight * pd_h / 100.0, 0.0),
                           minlength=count)  # fmt: skip
    new_rating = np.where(full & played, rating + np.nan_to_num(change), rating)
    new_rating = np.where(by_p, pass_b.rating, new_rating)
    complete = pass_b.pool >= params.full_games
    new_partial = np.where(by_p, np.where(complete, np.nan, pass_b.pool), partial)
    new_partial = np.where(full & played, np.nan, new_partial)
    # The pool carried to the next month: a partial rating's games (NaN for a full one).
    still = by_p & ~complete
    new_sum = np.where(still, pass_b.opponents, np.where(is_partial & ~played, known_sum, np.nan))
    new_points = np.where(still, pass_b.points, np.where(is_partial & ~played, known_points,
                                                         np.nan))  # fmt: skip
    method = np.where(full & played, "K", np.where(by_p, "P", ""))
    p_only = np.where(by_p, 1.0, np.nan)
    values_used = np.where(k_rows, values_c[other], values_b[other])
    return EcfMonth(
        rating=new_rating,
        partial_games=new_partial,
        pool_opponents=new_sum,
        pool_points=new_points,
        method=method,
        k=np.where(full & played, k, np.nan),
        expected=np.where(full & played, expected, np.nan),
        change=change,
        pool=pass_b.pool * p_only,
        nominal=dummy * p_only,
        ra=pass_b.ra * p_only,
        p=pass_b.p * p_only,
        dp=pass_b.dp * p_only,
        pass_a=pass_a.rating * p_only,
        pass_b=pass_b.rating * p_only,
        opponent_value=values_used,
        d=np.where(k_rows, d, np.nan),
        pd=np.where(k_rows, pd_h / 100.0, np.nan),
        weight=np.where(k_rows, weight, np.nan),
    )


def rated_month(period: SystemInput) -> Period | None:
    """The month whose games the list rates (``YYYY-MM``): the latest event end date's, else
    the month before the period named (docs/systems.md §12.1)."""
    ends = [] if period.facts is None else [d for d in period.facts["end"] if d is not None]
    if ends:
        last: dt.date = max(ends)
        return Period.of(last.year, last.month)
    if period.period is None:
        return None
    return Period.parse(period.period).shifted(-1)


class EcfSystem(SystemBase[Ecf]):
    """The ECF rating behind the seam (a ``systems.base.StateSystem``)."""

    constants = Ecf
    name: ClassVar[str] = "ecf"
    title: ClassVar[str] = "ECF rating (English Chess Federation, since 2020), monthly"
    state: ClassVar[dict[str, str]] = {
        "rating": "Float64",
        "partial_games": "Float64",
        "last_period": "string",
        "pool_opponents": "Float64",
        "pool_points": "Float64",
        "grade": "Float64",
    }
    # partial_games and the pool are empty for a full rating (a list may leave the pool out:
    # draws against the partial rating); grade is input only (§12.2).
    optional: ClassVar[tuple[str, ...]] = (
        "partial_games", "pool_opponents", "pool_points", "grade",
    )  # fmt: skip
    alone: ClassVar[tuple[str, ...]] = ("grade",)  # a rating made of it (from_list)
    explained: ClassVar[str] = (
        "K method (full ratings), per game: the opponent's value (new and partial opponents at "
        "their pass-B values), D (|D| at most 400), PD from FIDE's table and s − PD; the change "
        "K·Σ(s − PD), rounded once. P method (new and partial players): the pool's games and "
        "one dummy draw against the nominal rating, Ra, p = (W + ½)/(n + 1) to 2 decimals, dp "
        "and Ra + dp, in passes A and B (docs/systems.md §12)."
    )
    published: ClassVar[str] = "new_rating"
    list_digits: ClassVar[dict[str, int]] = {"rating": 0, "partial_games": 0}
    notation: ClassVar[dict[str, tuple[str, int]]] = {
        "rating": ("R", 0), "new_rating": ("R′", 0), "partial_games": ("partial games", 0),
        "new_partial_games": ("partial games′", 0), "opponent_value": ("Ro", 0),
        "d": ("D", 0), "pd": ("PD", 2), "s_minus_pd": ("s − PD", 2), "weight": ("w", 2),
        "k": ("K", 0), "expected": ("ΣPD", 2), "change": ("change", 0), "pool": ("n", 0),
        "nominal": ("dummy", 0), "ra": ("Ra", 2), "p": ("p", 2), "dp": ("dp", 0),
        "pass_a": ("pass A", 0), "pass_b": ("pass B", 0), "last_period": ("last played", 0),
        "new_last_period": ("last played′", 0), "category": ("category", 0),
    }  # fmt: skip
    player_values: ClassVar[tuple[str, ...]] = (
        "rating", "partial_games", "method", "k", "pool", "nominal", "ra", "p", "dp",
        "pass_a", "pass_b", "change", "new_rating",
    )  # fmt: skip
    by_start: ClassVar[bool] = False
    birth_from_list: ClassVar[bool] = True
    national_id: ClassVar[NationalId | None] = ECF_CODE

    @property
    def bounds(self) -> dict[str, tuple[float, float, str]]:
        last = float(self._params.full_games) - 1.0
        return {
            "rating": (*ECF_RATINGS, ""),
            "partial_games": (1.0, last, "empty for a full rating"),
            "pool_opponents": (0.0, ECF_RATINGS[1] * last, "the pool's opponents summed"),
            "pool_points": (0.0, last, "the pool's points"),
            # A grade whose rating (7.5 × grade + 700) would lie below 0 makes no state.
            "grade": (
                (ECF_RATINGS[0] - 700.0) / 7.5,
                400.0,
                "an old ECF grade, whose rating 7.5 × grade + 700 is 0 or more",
            ),
        }

    def list_extra(self, players: pd.DataFrame) -> dict[str, np.ndarray]:
        """The published list shows each player's category after the state."""
        return {"category": players["category"].to_numpy()}

    @property
    def calendar(self) -> dict[str, Any]:
        # §12.1: list YYYY-MM rates the events ending in the month before it; no 3-day closing.
        return {"closing_offset_days": 1}

    def from_list(self, state: pd.DataFrame) -> pd.DataFrame:
        # §12.2, the July 2020 seeding: a list's old grade without a rating is the full
        # rating 7.5 × grade + 700, a whole number (half away from zero); the grade is input
        # only and not carried.
        grade = state["grade"].astype("Float64").to_numpy(np.float64, na_value=np.nan)
        seeds = state["rating"].isna().to_numpy(bool) & ~np.isnan(grade)
        made = half_away(7.5 * grade + 700.0)
        return state.assign(
            rating=state["rating"].astype("Float64").mask(seeds, pd.Series(made)),
            partial_games=state["partial_games"].astype("Float64").mask(seeds),
            pool_opponents=state["pool_opponents"].astype("Float64").mask(seeds),
            pool_points=state["pool_points"].astype("Float64").mask(seeds),
            grade=pd.Series(np.nan, index=state.index, dtype="Float64"),
        )

    def list_problems(self, state: pd.DataFrame) -> list[tuple[int, str]]:
        # §12.2: the grade makes the rating of a player listed without one. A row giving
        # both must agree with the conversion: which of two different numbers is the
        # player's rating is the officer's decision, not a silent choice of one.
        rating = state["rating"].astype("Float64").to_numpy(np.float64, na_value=np.nan)
        grade = state["grade"].astype("Float64").to_numpy(np.float64, na_value=np.nan)
        exact = 7.5 * grade + 700.0
        made = half_away(exact)

        def why(row: int) -> str:
            whole = f" → {made[row]:g}" if exact[row] != made[row] else ""
            return (
                f"id {state['id'].iloc[row]}: rating {rating[row]:g} and grade {grade[row]:g} "
                f"disagree (7.5 × {grade[row]:g} + 700 = {exact[row]:g}{whole}): leave the "
                "grade empty to keep the rating, or the rating empty to seed it from the grade"
            )

        wrong = ~np.isnan(rating) & ~np.isnan(grade) & (rating != made)
        partial = state["partial_games"].astype("Float64").to_numpy(np.float64, na_value=np.nan)
        both = ~np.isnan(grade) & ~np.isnan(partial)
        problems = [(int(row), why(int(row))) for row in np.flatnonzero(wrong)]
        problems += [
            (int(row), f"id {state['id'].iloc[row]}: a grade seeds a full rating "
             "(docs/systems.md §12.2): "
             "leave partial_games empty, or give the partial rating instead of the grade")
            for row in np.flatnonzero(both)
        ]  # fmt: skip
        problems += not_whole(state, "rating", "an ECF rating is whole (docs/systems.md §12.2)")
        problems += not_whole(state, "partial_games", "the games of a partial rating, 1 to 9")
        return sorted(problems)

    def from_elo(self, elo: pd.Series) -> pd.DataFrame:
        # A project decision (docs/systems.md §12): the ECF rating is on FIDE's scale; an Elo
        # rating is taken as a full ECF rating.
        return seeded(elo, self.state, rating=elo)

    @property
    def from_elo_note(self) -> str:
        return "the Elo rating as a full ECF rating"

    def rate(self, period: SystemInput) -> SystemOutcome:
        p = self._params
        month = rated_month(period)
        seeded_now = (period.state["rating"].isna() & period.state["grade"].notna()).to_numpy()
        carried = dataclasses.replace(period, state=self.from_list(period.state))
        rating = carried.initial("rating", np.nan)
        partial = carried.initial("partial_games", np.nan)
        last = period.state["last_period"].astype("string")
        lapsed = np.zeros(len(rating), dtype=bool)
        if month is not None:
            # §12.6: no rated game in the 36 months before the month rated.
            since = months_since(month, last)
            lapsed = ~np.isnan(rating) & (since > p.inactive_months)
        year = month.year if month is not None else period.year
        births = period.players["birth_year"].astype("Float64")
        born = births.to_numpy(np.float64, na_value=np.nan)
        age = (year - born) if year is not None else np.full(len(rating), np.nan)
        fast = period.kind in ("rapid", "blitz")
        pools = (carried.initial("pool_opponents", np.nan), carried.initial("pool_points", np.nan))
        done = rate_month(rating, partial, lapsed, age, period.games, p, fast=fast, pools=pools)
        played = done.method != ""
        new_last = last.copy()
        if month is not None:
            new_last[played] = month
        kept = ~np.isnan(done.rating)
        after = {"rating": done.rating, "partial_games": done.partial_games,
                 "last_period": new_last.to_numpy(), "pool_opponents": done.pool_opponents,
                 "pool_points": done.pool_points,
                 "grade": np.full(len(rating), np.nan)}  # fmt: skip
        extra = {"k": done.k, "expected": done.expected, "change": done.change,
                 "nominal": done.nominal}  # fmt: skip
        # players.csv's state before: a rating seeded from a grade as the rating it made,
        # beside the grade it came from (§12.2).
        before = carried.state.assign(grade=period.state["grade"])
        players = outcome_players(
            dataclasses.replace(period, state=before), after, extra, rated_now=kept
        )
        # Rated before: a rating, full or partial (partial_games is optional state).
        had = ~np.isnan(rating)
        status = np.where(had, "rated", np.where(kept, "new", "unrated"))
        players["status"] = pd.Categorical(status, categories=list(SYSTEM_STATUSES))
        players.insert(list(players.columns).index("k"), "method", done.method)
        category = np.where(kept, np.where(np.isnan(done.partial_games), "K", "P"), "")
        # A lapsed rating without games is kept but not published (§12.6).
        idle = lapsed & ~played
        category = np.where(idle, "", category)
        players["category"] = category
        players["status"] = players["status"].where(~idle, "unrated")
        own = period.games.pidx
        calculations = game_rows(period).assign(
            method=done.method[own], opponent_value=done.opponent_value, d=done.d, pd=done.pd,
            s_minus_pd=period.games.score - done.pd, weight=done.weight,
            rating=rating[own], partial_games=partial[own], k=done.k[own],
            pool=done.pool[own], nominal=done.nominal[own], ra=done.ra[own], p=done.p[own],
            dp=done.dp[own], pass_a=done.pass_a[own], pass_b=done.pass_b[own],
            change=done.change[own], new_rating=done.rating[own],
        )  # fmt: skip
        sign = "only for a gain" if p.k_junior_gains_only else "whatever the change's sign"
        rounding = "whole, the change rounded once a month" if p.whole_numbers else "unrounded"
        notes = [
            f"ECF rating (docs/systems.md §12), month rated {month or 'unknown'}, "
            f"{'rapid/blitz' if fast else 'standard'} list: K {p.k:g} ({p.k_junior:g} under "
            f"{p.junior_age}), FIDE's table 8.1b; new and partial players by Ra + dp (nominal "
            f"{p.nominal_adult:g}, {p.nominal_per_year:g} × age under {p.junior_age}, "
            f"−{p.nominal_fast_offset:g} on the fast lists), a full rating on {p.full_games} "
            "games; three passes",
            f"§12.9 decisions ([ecf] constants): 1. |D| at most d_cap {p.d_cap:g}; 2. juniors' "
            f"K {p.k_junior:g} {sign} (k_junior_gains_only); 3. the P rating is Ra + dp with "
            f"dummy_games {p.dummy_games} dummy draw(s); 4. new and partial opponents weigh "
            f"partial_opponent_weight {p.partial_opponent_weight:g}; 5. ratings {rounding} "
            f"(whole_numbers); 6. a rating lapses after inactive_months {p.inactive_months}; "
            "7. late results are the database's unpublish and publish of their months; a "
            "partial rating's earlier games: the pool kept (pool_opponents, pool_points), "
            "else partial_games draws against its own rating",
        ]
        if seeded_now.any():
            notes.append(f"{int(seeded_now.sum())} rating(s) made from the list's ECF grade: "
                         "7.5 × grade + 700, rounded half away from zero (§12.2)")  # fmt: skip
        if idle.any():
            notes.append(f"{int(idle.sum())} lapsed rating(s) without games kept off the list")
        return SystemOutcome(players, calculations, notes)
