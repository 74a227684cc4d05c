"""Vectorised rating maths for one rating period: pure functions, no I/O, no row loops.

All arithmetic that decides a rating is exact integer arithmetic: scores in half points,
expected scores (PD) and ΔR in hundredths of a point, so sums never drift and the rounding
step (docs/rules.md §2.5: half away from zero, once per period) is exact.

The period's input is two frames (see ``PERIOD_PLAYERS`` and ``PERIOD_GAMES``), built by
``assemble_period``; ``rate_period`` returns a ``PeriodResult``.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from rating_batch.schema import REASON_DTYPE, REASONS, integers
from rating_batch.systems.elo.adjustment import adjusted, with_adjustment
from rating_batch.systems.elo.first import first_ratings, performance
from rating_batch.systems.elo.k import cap_k, k_factors
from rating_batch.systems.elo.reasons import period_notes
from rating_batch.systems.elo.rules import Rules
from rating_batch.systems.elo.tables import divide_half_up, expected_scores, hundredths_half_away

#: The period's players, one row per person; row position = the ``pidx`` used by games.
PERIOD_PLAYERS: dict[str, str] = {
    "id": "string",  # FIDE ID when known, else "<event>#<start rank>"
    "fide_id": "Int64",
    "name": "string",
    "federation": "string",
    "title": "string",
    "sex": "string",
    "birth_year": "Int64",
    "rating": "Int64",  # rating the period change is added to; NA = unrated
    # Where ``rating`` comes from, for the reports: "list", "file" (the event file's, rated
    # without a list) or "standard" (§6: unrated in rapid/blitz, the standard rating).
    "rating_source": "string",
    "k": "Int64",  # K from the previous list, when it gives one
    "games_total": "Int64",  # rated games completed before this period, when known
    "ever_high": "boolean",  # a published rating has reached rules.high_threshold
    "ever_junior_ceiling": "boolean",  # a published rating has reached rules.junior_ceiling
    "events": "int64",
}

#: The period's games, long format: one row per player per round of every event.
PERIOD_GAMES: dict[str, str | pd.CategoricalDtype] = {
    "event": "string",
    "event_order": "int64",  # 0 = earliest-starting event of the period
    "round": "int64",
    "id": "string",
    "opponent_id": "string",
    "pidx": "int64",
    "oidx": "int64",  # -1 when there is no opponent
    "player": "int64",
    "opponent": "Int64",
    "colour": "string",
    "result": "string",
    "score": "float64",
    "rated": "bool",
    "reason": REASON_DTYPE,
    "rating": "Int64",  # own rating used in this event (list in force at its start)
    "opponent_rating": "Int64",
    "source": "string",
    "line": "int64",
}

#: players.csv ``status``: rated, first rating published now, fell below the floor, unrated.
STATUSES = ("rated", "new", "below_floor", "unrated")
STATUS_DTYPE = pd.CategoricalDtype(list(STATUSES))


@dataclass(frozen=True)
class PeriodResult:
    """What ``rate_period`` computes: one row per player, per player-game, per player-event."""

    players: pd.DataFrame
    games: pd.DataFrame
    player_events: pd.DataFrame
    notes: list[str] = field(default_factory=list)


# -- the 400-point rule ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Runs:
    """The games of one player in one event are one contiguous run of rows.

    ``rate_period`` orders the games by (event_order, pidx) when they are not already, so
    per-player-event sums are differences of one running total at run ends: O(n), no hashing.
    """

    starts: np.ndarray
    """First row of each run."""
    ends: np.ndarray
    """Last row of each run."""
    pidx: np.ndarray
    """Player of each run."""
    event_order: np.ndarray
    """Event order of every row."""
    event_first_row: np.ndarray
    """First row of each event."""
    events: int

    @classmethod
    def of(cls, games: pd.DataFrame) -> Runs:
        pidx = games["pidx"].to_numpy(np.int64)
        order = games["event_order"].to_numpy(np.int64)
        new_event = np.empty(len(order), dtype=bool)
        new_event[:1] = True
        new_event[1:] = order[1:] != order[:-1]
        new_run = new_event.copy()
        new_run[1:] |= pidx[1:] != pidx[:-1]
        starts = np.flatnonzero(new_run)
        return cls(
            starts=starts,
            ends=np.append(starts[1:], len(order))[: len(starts)] - 1,
            pidx=pidx[starts],
            event_order=order,
            event_first_row=np.flatnonzero(new_event),
            events=int(order.max()) + 1 if len(order) else 0,
        )

    def total(self, values: np.ndarray) -> np.ndarray:
        """Sum of ``values`` (integers or flags) over each run, exactly, as int64.

        The running total is int32 when no sum of the whole column can leave its range (small
        values: flags, half points, PD), which halves the memory it touches; else int64."""
        top = 1 if values.dtype == bool else int(np.iinfo(values.dtype).max)
        wide = top * len(values) >= np.iinfo(np.int32).max
        running = np.cumsum(values, dtype=np.int64 if wide else np.int32)[self.ends]
        return np.diff(running.astype(np.int64), prepend=np.int64(0))

    def event_names(self, games: pd.DataFrame) -> pd.Index:
        """Each event's key, in event order (read from its first row only)."""
        names: pd.Index = pd.Index(games["event"].array[self.event_first_row].to_numpy())
        return names

    def run_of(self, rows: np.ndarray) -> np.ndarray:
        """The run each of ``rows`` (sorted row numbers) belongs to."""
        return np.searchsorted(self.starts, rows, side="right") - 1

    def per_player(self, run_values: np.ndarray, count: int) -> np.ndarray:
        """Per-run sums (``total``) added up per player, for ``count`` players."""
        return np.bincount(self.pidx, weights=run_values, minlength=count).astype(np.int64)


def in_run_order(games: pd.DataFrame, players: int) -> pd.DataFrame:
    """The games ordered by (event_order, pidx), stably; unchanged when they already are."""
    order = games["event_order"].to_numpy(np.int64)
    pidx = games["pidx"].to_numpy(np.int64)
    later, same = order[1:] > order[:-1], order[1:] == order[:-1]
    if bool((later | (same & (pidx[1:] >= pidx[:-1]))).all()):
        return games.reset_index(drop=True)
    key = order * max(players, 1) + pidx
    return games.iloc[np.argsort(key, kind="stable")].reset_index(drop=True)


@dataclass(frozen=True)
class CapParameters:
    """Each game's difference cap and gap exclusion, from its event's edition (0 = none):
    per-row arrays, or 0-d arrays (broadcast) when one edition rules the whole period."""

    cap: np.ndarray
    exempt_from: np.ndarray
    largest_only: np.ndarray
    gap: np.ndarray
    gap_above: np.ndarray


def cap_parameters(
    games: pd.DataFrame,
    runs: Runs,
    rules: Rules,
    event_rules: Mapping[str, Rules] | None,
    event_starts: Mapping[str, dt.date | None] | None,
) -> CapParameters:
    """Per-row cap fields: one small array per event, indexed by each row's ``event_order``.

    The fields are worked out once per distinct (rules, start date), not once per event."""
    never = 10**9

    def fields_of(rule: Rules, start: dt.date | None) -> tuple[int, int, bool, int, int]:
        exempt = rule.exempt_from()
        return (
            rule.difference_cap or 0,
            never if exempt is None else exempt,
            rule.cap_scope == "largest_gap_per_event",
            # §6: from 1 Dec 2024 a rapid/blitz game this far apart is not rated.
            (rule.gap_exclusion or 0) if rule.gap_exclusion_applies(start) else 0,
            rule.gap_exclusion_above,
        )

    everyone = {id(rules), *(id(rule) for rule in (event_rules or {}).values())}
    if len(everyone) == 1 and (
        rules.gap_exclusion is None
        or not rules.is_rapid_or_blitz()
        or rules.gap_exclusion_from is None
        or not event_starts
    ):  # one edition, whatever the dates: scalars, broadcast (no loop over the events)
        return CapParameters(*(np.asarray(value) for value in fields_of(rules, None)))
    names = runs.event_names(games).tolist()
    chosen = [(event_rules or {}).get(str(name), rules) for name in names]
    starts = [(event_starts or {}).get(str(name)) for name in names]
    fields: dict[tuple[int, dt.date | None], tuple[int, int, bool, int, int]] = {}
    per_event = []
    for rule, start in zip(chosen, starts, strict=True):
        key = (id(rule), start)
        if key not in fields:
            fields[key] = fields_of(rule, start)
        per_event.append(fields[key])
    distinct = set(per_event)
    if len(distinct) <= 1:  # one edition for the whole period: scalars, broadcast
        single = distinct.pop() if distinct else (0, never, False, 0, 0)
        return CapParameters(*(np.asarray(value) for value in single))
    values = np.array(per_event, dtype=np.int64).reshape(len(per_event), 5)
    orders = runs.event_order[runs.event_first_row]
    columns = []
    for field_index in range(5):
        table = np.zeros(runs.events, dtype=np.int64)
        table[orders] = values[:, field_index]
        columns.append(table[runs.event_order])
    return CapParameters(columns[0], columns[1], columns[2].astype(bool), columns[3], columns[4])


def capped_differences(
    games: pd.DataFrame,
    applies_to: np.ndarray,
    own: np.ndarray,
    opponent: np.ndarray,
    caps: CapParameters,
) -> np.ndarray:
    """D = own − opponent rating, after the 400-point rule of each game's edition (§2.2, §7).

    The rule is one-sided: it depends on the player's own rating only (2650 exemption).
    Rows outside ``applies_to`` may come back capped or not: callers do not use them.
    """
    diff: np.ndarray = own - opponent
    if caps.cap.ndim == 0 and not caps.largest_only:  # one edition capping every game
        if caps.cap > 0:
            exempt = np.flatnonzero(own >= caps.exempt_from)  # a few top players' games
            kept = diff[exempt]
            np.clip(diff, -caps.cap, caps.cap, out=diff)
            diff[exempt] = kept
        return diff
    applies = applies_to & (caps.cap > 0) & (own < caps.exempt_from) & (np.abs(diff) > caps.cap)
    if caps.largest_only.any():
        # fide-2022: only the game with the largest gap per player and event is capped; on a
        # tie the first in round order (docs/rules.md §7, uncertain).
        candidates = pd.DataFrame(
            {
                "pidx": games["pidx"].to_numpy(),
                "order": games["event_order"].to_numpy(),
                "gap": -np.abs(diff),
                "round": games["round"].to_numpy(),
            }
        )[applies & caps.largest_only]
        first = candidates.sort_values(["pidx", "order", "gap", "round"], kind="stable")
        first = first.drop_duplicates(["pidx", "order"])
        keep = np.zeros(len(games), dtype=bool)
        keep[first.index.to_numpy()] = True
        applies = applies & (~caps.largest_only | keep)
    return np.asarray(np.where(applies, np.sign(diff) * caps.cap, diff), dtype=np.int64)


# -- the period -----------------------------------------------------------------------------------


def rate_period(
    players: pd.DataFrame,
    games: pd.DataFrame,
    rules: Rules,
    *,
    event_rules: Mapping[str, Rules] | None = None,
    event_starts: Mapping[str, dt.date | None] | None = None,
    period_year: int | None = None,
    prior: pd.DataFrame | None = None,
    adjust: bool = False,
) -> PeriodResult:
    """Rate one period: every counted game, K, the rating change, first ratings and Rp.

    Expects columns: ``players`` as ``PERIOD_PLAYERS`` (row position = ``pidx``), ``games`` as
    ``PERIOD_GAMES``. ``rules`` decides K, the floor and first ratings; ``event_rules`` (event
    key → Rules) decides each game's difference cap and gap exclusion (default: ``rules``),
    with ``event_starts`` (event key → start date) for rules in force from a date.
    ``period_year`` decides who is a junior. ``prior`` holds an unrated player's first-rating
    games pending from earlier periods (columns ``pidx``, ``opponent_rating``, ``half``), and
    an optional players column ``first_event_done`` says whose first event lies behind them.
    ``adjust``: the rules' one-time adjustment raises each rated player's new rating before
    the floor is applied (docs/rules.md §7; players.csv then has ``adjustment``).

    Returns a PeriodResult whose ``players`` has the columns of players.csv, ``games`` those
    of games.csv (ordered by event and player), and ``player_events`` one row per player and
    event with the unrounded change.
    """
    count = len(players)
    games = in_run_order(games, count)
    runs = Runs.of(games)
    pidx = games["pidx"].to_numpy(np.int64)
    own = integers(games["rating"])
    opponent = integers(games["opponent_rating"])
    half = (games["score"].to_numpy(np.float64) * 2).astype(np.int8)  # 0, ½, 1: exact
    base = integers(players["rating"])
    is_rated = base >= 0
    played = games["rated"].to_numpy(bool)
    rated_player = is_rated[pidx]

    caps = cap_parameters(games, runs, rules, event_rules, event_starts)
    # §6: rapid and blitz games between players 600+ apart, either above 2600, are not rated.
    gap = _gap_excluded(own, opponent, caps)
    # §2: a rated player's game counts against a rated opponent; §4: an unrated player's
    # games against rated opponents go to the first-rating pool.
    opponent_rated = opponent >= 0
    counted = played & ~gap & opponent_rated & (~rated_player | (own >= 0))
    # §4, §7: events that are too short for the pool, and a first event without enough points.
    done = (
        players["first_event_done"].to_numpy(dtype=bool, na_value=False)
        if "first_event_done" in players
        else np.zeros(count, dtype=bool)
    )
    pool = _pool_filters(runs, counted & ~rated_player, half, rules, done)
    counted[pool.rows[pool.short | pool.dropped]] = False

    # §2: D after the 400-point rule, PD from the table, ΔR = score − PD (hundredths). Rows
    # that do not score keep whatever D and PD come out: they are masked below.
    scoring = counted & rated_player
    diff = capped_differences(games, scoring, own, opponent, caps)
    table_expected, expected_points = expected_scores(diff, rules)
    expected = table_expected * scoring
    counted_half = half * counted

    # Sums per (player, event) run (exact integers), then per player over the runs. A run is
    # one player's: for a rated player every counted game scores, so ΣΔR = 50·Σhalf − ΣPD.
    rated_run = is_rated[runs.pidx]
    run_counted = runs.total(counted)
    run_half = runs.total(counted_half)
    run_expected = runs.total(expected)
    run_delta = np.where(rated_run, 50 * run_half - run_expected, 0)

    n = runs.per_player(run_counted, count)
    half_points = runs.per_player(run_half, count)
    opponent_sum = runs.per_player(runs.total(np.where(counted, opponent, 0)), count)
    expected_sum = runs.per_player(run_expected, count)
    delta_sum = runs.per_player(run_delta, count)

    k_table = k_factors(players, rules, period_year)
    k = cap_k(k_table["k"].to_numpy(np.int64), n, rules)
    change = k * delta_sum  # hundredths
    new_rating = base + hundredths_half_away(change)
    from_games = new_rating
    if adjust:
        new_rating = np.where(is_rated, adjusted(new_rating, rules), new_rating)
    # §4: the first-rating pool is this period's games plus those pending from earlier ones.
    pool_n, pool_half, pool_sum = n.copy(), half_points.copy(), opponent_sum.copy()
    if prior is not None and len(prior):
        prior_pidx = prior["pidx"].to_numpy(np.int64)
        pool_n += np.bincount(prior_pidx, minlength=count)
        pool_half += np.bincount(prior_pidx, weights=prior["half"], minlength=count).astype(
            np.int64
        )
        pool_sum += np.bincount(
            prior_pidx, weights=prior["opponent_rating"], minlength=count
        ).astype(np.int64)
    pool_n = np.where(is_rated, 0, pool_n)
    provisional = np.zeros(count, dtype=np.int64)
    pooled = np.flatnonzero(pool_n > 0)  # unrated players with games in the pool
    provisional[pooled] = first_ratings(pool_n[pooled], pool_half[pooled], pool_sum[pooled], rules)
    first_computed = provisional.copy()
    if adjust:  # a first rating computed from the list before is adjusted like every rating
        provisional[pooled] = adjusted(provisional[pooled], rules)
    published = ~is_rated & (pool_n >= rules.first_min_games) & (provisional >= rules.floor)
    fell = is_rated & (new_rating < rules.floor)
    listed = (is_rated & ~fell) | published
    status = pd.Categorical.from_codes(
        np.select(
            [fell, is_rated, published],
            [STATUSES.index("below_floor"), STATUSES.index("rated"), STATUSES.index("new")],
            default=STATUSES.index("unrated"),
        ),
        dtype=STATUS_DTYPE,
    )
    result_players = pd.DataFrame(
        {
            "id": players["id"],
            "name": players["name"],
            "federation": players["federation"],
            "title": players["title"],
            "sex": players["sex"],
            "birth_year": players["birth_year"],
            "status": status,
            "rating": players["rating"],
            "k": _nullable(k, is_rated),
            "games": n,
            "score": half_points / 2,
            "expected": _nullable(expected_sum / 100, is_rated),
            "change": _nullable(change / 100, is_rated),
            "new_rating": _nullable(
                np.where(is_rated, new_rating, provisional), is_rated | published
            ),
            "provisional": _nullable(provisional, ~is_rated & (pool_n > 0)),
            "avg_opponent": _nullable(divide_half_up(opponent_sum, np.maximum(n, 1)), n > 0),
            "performance": _nullable(performance(n, half_points, opponent_sum, rules), n > 0),
            "events": players["events"],
            "fide_id": players["fide_id"],
            "k_source": k_table["k_source"].where(is_rated),
            "k_before_cap": _nullable(k_table["k"].to_numpy(np.int64), is_rated),
            "rating_source": players["rating_source"].where(is_rated),
            # Rating classes (§8) of the rating the player is listed with after the period.
            "class": rules.class_of(
                pd.Series(_nullable(np.where(is_rated, new_rating, provisional), listed))
            ),
            "pool_games": _nullable(pool_n, ~is_rated),
            "pool_score": _nullable(pool_half / 2, ~is_rated),
            # The first-event rule is behind a player after any event; with
            # ``discard_until_scoring`` only after a scoring one (dropped runs do not count);
            # with ``first_event_after_floor``, ahead again after falling below the floor.
            "first_event_done": (
                done
                | (
                    runs.per_player(
                        (run_counted > 0) | (pool.dropped_runs & (not rules.discard_until_scoring)),
                        count,
                    )
                    > 0
                )
            )
            & ~(fell & rules.first_event_after_floor),
        },
        copy=False,
    )
    if adjust:
        added = np.where(is_rated, new_rating - from_games, provisional - first_computed)
        with_adjustment(result_players, _nullable(added, is_rated | (pool_n > 0)))
    reason = _reasons(games, counted, played, opponent_rated, rated_player, own, gap, pool)
    result_games = pd.DataFrame(
        {
            "event": games["event"],
            "round": games["round"],
            "id": games["id"],
            "opponent_id": games["opponent_id"],
            "colour": games["colour"],
            "result": games["result"],
            "score": games["score"],
            "counted": counted,
            "reason": reason,
            "rating": games["rating"],
            "opponent_rating": games["opponent_rating"],
            "diff": _nullable(diff, scoring),
            "expected": _nullable(expected_points, scoring),
            "delta": _nullable((50 * half - table_expected) / 100, scoring),
            "player": games["player"],
            "opponent": games["opponent"],
            "source": games["source"],
            "line": games["line"],
        },
        copy=False,
    )
    scoring_runs = rated_run & (run_counted > 0)
    player_events = pd.DataFrame(
        {
            "pidx": runs.pidx,
            "event": pd.Categorical.from_codes(
                runs.event_order[runs.starts],
                categories=runs.event_names(games),
            ),
            "games": run_counted,
            "score": run_half / 2,
            "expected": _nullable(run_expected / 100, scoring_runs),
            "change": _nullable(k[runs.pidx] * run_delta / 100, scoring_runs),
        }
    )
    return PeriodResult(result_players, result_games, player_events, period_notes(rules, players))


def _reasons(
    games: pd.DataFrame,
    counted: np.ndarray,
    played: np.ndarray,
    opponent_rated: np.ndarray,
    rated_player: np.ndarray,
    own: np.ndarray,
    gap: np.ndarray,
    pool: PoolFilters,
) -> pd.Categorical:
    """Why each row does not count (games.csv ``reason``), as a categorical column.

    Counted rows have none; unplayed rows keep the loader's; only the played rows that do
    not count (a few in a hundred) are examined, the first reason that holds winning."""
    uncounted = np.flatnonzero(~counted)  # a few rows in ten
    codes = np.full(len(counted), -1, dtype=np.int8)
    codes[uncounted] = games["reason"].array.codes[uncounted]
    rows = uncounted[played[uncounted]]
    dropped = np.zeros(len(codes), dtype=bool)
    dropped[pool.rows[pool.dropped]] = True
    short = np.zeros(len(codes), dtype=bool)
    short[pool.rows[pool.short]] = True
    codes[rows] = np.select(
        [
            gap[rows],
            dropped[rows],
            short[rows],
            ~opponent_rated[rows],
            rated_player[rows] & (own[rows] < 0),
        ],
        [
            REASONS.index("rating_gap"),
            REASONS.index("first_event_disregarded"),
            REASONS.index("short_event"),
            REASONS.index("unrated_opponent"),
            REASONS.index("not_rated"),
        ],
        default=codes[rows],
    )
    return pd.Categorical.from_codes(codes, dtype=REASON_DTYPE, validate=False)  # codes above


def _gap_excluded(own: np.ndarray, opponent: np.ndarray, caps: CapParameters) -> np.ndarray:
    """§6: games not rated because the players are too far apart (all False when no
    edition of the period excludes any)."""
    if caps.gap.ndim == 0 and caps.gap <= 0:
        return np.zeros(len(own), dtype=bool)
    return np.asarray(
        (caps.gap > 0)
        & (own >= 0)
        & (opponent >= 0)
        & (np.abs(own - opponent) >= caps.gap)
        & (np.maximum(own, opponent) > caps.gap_above)
    )


def _nullable(values: np.ndarray, mask: np.ndarray) -> pd.api.extensions.ExtensionArray:
    """``values`` where ``mask`` holds, NA elsewhere (Int64 or Float64, without copying)."""
    missing = ~np.asarray(mask, dtype=bool)
    if np.issubdtype(values.dtype, np.floating):
        return pd.arrays.FloatingArray(values.astype(np.float64, copy=False), missing)
    return pd.arrays.IntegerArray(values.astype(np.int64, copy=False), missing)


@dataclass(frozen=True)
class PoolFilters:
    """What the first-rating pool leaves out (§4, §7, §8), over the pool's rows only."""

    rows: np.ndarray
    """The pool's rows: unrated players' games that count so far."""
    short: np.ndarray
    """Per pool row: its event has fewer pool games than ``pool_event_min_games``."""
    dropped: np.ndarray
    """Per pool row: its event is disregarded (a first event without enough points)."""
    dropped_runs: np.ndarray
    """Per run: the run is disregarded."""


def _pool_filters(
    runs: Runs, pool: np.ndarray, half: np.ndarray, rules: Rules, done: np.ndarray
) -> PoolFilters:
    """Rows an unrated player's first-rating pool leaves out (§4, §7, §8).

    ``short`` rows belong to events with fewer pool games than ``pool_event_min_games``
    (fide-2011's blocks of 3); ``dropped`` rows belong to the first remaining event when it
    scored fewer than ``first_event_min_half_points``, or, with ``discard_until_scoring``, to
    every scoreless event before the first scoring one. Runs are in event order, so a
    player's first run is their first event.
    """
    # The pool is a few rows in a hundred (unrated players' games): sums over those only.
    pool_rows = np.flatnonzero(pool)
    pool_run = runs.run_of(pool_rows)
    pool_games = np.bincount(pool_run, minlength=len(runs.starts))
    pool_half = np.bincount(pool_run, weights=half[pool_rows], minlength=len(runs.starts))
    pool_half = pool_half.astype(np.int64)
    short_runs = (pool_games > 0) & (pool_games < rules.pool_event_min_games)
    # Players whose first event lies in an earlier period are past the rule.
    candidates = np.flatnonzero((pool_games > 0) & ~short_runs & ~done[runs.pidx])
    dropped_runs = np.zeros(len(runs.starts), dtype=bool)
    if rules.discard_until_scoring:
        # Per player, in event order: runs before the first with any points are dropped.
        order = np.argsort(runs.pidx[candidates], kind="stable")
        ordered = candidates[order]
        owner = runs.pidx[ordered]
        scored = (pool_half[ordered] > 0).astype(np.int64)
        first_of_player = np.ones(len(ordered), dtype=bool)
        first_of_player[1:] = owner[1:] != owner[:-1]
        before = np.cumsum(scored) - scored  # scoring runs before this one, all players
        group = np.cumsum(first_of_player) - 1
        before -= before[np.flatnonzero(first_of_player)][group]
        dropped_runs[ordered[(before == 0) & (scored == 0)]] = True
    elif rules.first_event_min_half_points > 0:
        _, first = np.unique(runs.pidx[candidates], return_index=True)
        first_runs = candidates[first]
        low = pool_half[first_runs] < rules.first_event_min_half_points
        dropped_runs[first_runs[low]] = True
    return PoolFilters(pool_rows, short_runs[pool_run], dropped_runs[pool_run], dropped_runs)
