"""The DWZ evaluation of events in order (docs/systems.md §10): per event R0 and Auswahl 0,
the first DWZ by the integer iteration, the performances, the new DWZ of the established
players; events one after another, a wave of events sharing no player at a time
(``games.waves``), vectorised across the players of a wave."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from rating_batch.systems.dwz.constants import Dwz
from rating_batch.systems.dwz.normal import difference, expected
from rating_batch.systems.dwz.rests import Rests
from rating_batch.systems.games import PlayedGames, waves


def half_up(values: np.ndarray) -> np.ndarray:
    """Rounded half up (the regulation's "gerundet"; every value rounded so is positive)."""
    rounded: np.ndarray = np.floor(np.asarray(values, np.float64) + 0.5)
    return rounded


@dataclass(frozen=True)
class EventDates:
    """Per event in rating order: its end date as a day number (``date.toordinal``), the
    year of that date, the day before which Restpartien expire, and the edition's fields."""

    end_day: np.ndarray
    end_year: np.ndarray
    rests_from: np.ndarray
    p_decimals: np.ndarray
    brake_at_equal: np.ndarray
    exceptional: np.ndarray
    edition: list[str]


@dataclass
class DwzState:
    """Every player's state (``pidx`` order): the DWZ and index (NaN: none), whether on the
    2026 scale, and the Restpartien of the players without DWZ."""

    dwz: np.ndarray
    index: np.ndarray
    uplifted: np.ndarray
    rests: Rests

    def copy(self) -> DwzState:
        return DwzState(self.dwz.copy(), self.index.copy(), self.uplifted.copy(), self.rests)


@dataclass
class DwzRun:
    """Events rated: the state after them; per (player, event) ``records`` (one array per
    value, the rows of ``calculations.csv``'s event part); per game row (``PlayedGames``
    order) the opponent's rating used (NaN: not counted), D and P(D); notes."""

    state: DwzState
    records: dict[str, np.ndarray]
    rating_used: np.ndarray
    d: np.ndarray
    p: np.ndarray
    uplifted_now: np.ndarray
    uplifted_from: tuple[np.ndarray, np.ndarray] = (np.empty(0), np.empty(0))
    """Per player the DWZ and index the uplift mapped (NaN: none mapped), for the report's
    line where it acts (docs/systems.md §10.8)."""
    notes: list[str] = field(default_factory=list)


def uplifted_values(dwz: np.ndarray, params: Dwz) -> np.ndarray:
    """The 2026 uplift of a DWZ (§10.8): + 400 below 1000, 0.64·DWZ + 760 rounded half up
    below 2110, unchanged from there."""
    middle = half_up(params.uplift_factor * dwz + params.uplift_offset)
    mapped: np.ndarray = np.where(
        dwz < params.uplift_low,
        dwz + params.uplift_add,
        np.where(dwz < params.uplift_high, middle, dwz),
    )
    return mapped


def uplift(state: DwzState, who: np.ndarray, params: Dwz) -> DwzState:
    """``state`` with the players ``who`` (a mask) not yet uplifted mapped once: their DWZ,
    index + 1 where they have one, their Restpartien's ratings; ``uplifted`` true."""
    due = who & ~state.uplifted
    dwz = np.where(due, uplifted_values(state.dwz, params), state.dwz)
    index = np.where(due & ~np.isnan(state.dwz), state.index + 1.0, state.index)
    rests = state.rests
    mapped = due[rests.player]
    rating = np.where(mapped, uplifted_values(rests.rating, params), rests.rating)
    return DwzState(dwz, index, state.uplifted | due,
                    Rests(rests.player, rests.day, rating, rests.score))  # fmt: skip


def iterate(
    start: np.ndarray,
    own: np.ndarray,
    fixed: np.ndarray,
    variable: np.ndarray,
    score: np.ndarray,
    decimals: np.ndarray,
    scale: float,
    limit: int,
) -> tuple[np.ndarray, np.ndarray, bool]:
    """The integer iteration of §10.6 for all players at once: per result row the player
    (``own``), the opponent's fixed rating or (``variable`` ≥ 0) the current value of that
    player, the score and P's decimals. Rp ← Rp + D(0.5 + (W − We)/n) until every D is 0.
    Returns the values, each player's number of steps, and whether all settled."""
    values = start.astype(np.float64).copy()
    count = len(values)
    n = np.bincount(own, minlength=count).astype(np.float64)
    w = np.bincount(own, weights=score, minlength=count)
    active = (n > 0) & ~np.isnan(values)
    steps = np.zeros(count, np.int64)
    pointer = np.maximum(variable, 0)
    for _ in range(limit):
        opponent = np.where(variable >= 0, values[pointer], fixed)
        p = expected(values[own] - opponent, scale, decimals)
        we = np.bincount(own, weights=p, minlength=count)
        with np.errstate(invalid="ignore", divide="ignore"):
            change = np.where(active, difference(0.5 + (w - we) / n, scale), 0.0)
        if not change.any():
            return values, steps, True
        steps += change != 0
        values = values + change
    return values, steps, False


@dataclass(frozen=True)
class _Wave:
    """One wave's participants (local numbering) and game rows."""

    rows: np.ndarray
    own: np.ndarray
    opp: np.ndarray
    score: np.ndarray
    players: np.ndarray
    event: np.ndarray
    """Per participant the event's rank."""
    decimals: np.ndarray
    """Per participant P's decimals."""


@dataclass(frozen=True)
class _Firsts:
    """The first DWZ and performances of one wave (local numbering)."""

    stage: np.ndarray
    rc: np.ndarray
    start: np.ndarray
    rp: np.ndarray
    steps: np.ndarray
    first: np.ndarray
    used: np.ndarray
    """Per game row the opponent's rating used by the player, NaN where not counted."""
    performance: np.ndarray
    rest_count: np.ndarray
    settled: bool


def _sum(index: np.ndarray, count: int, weights: np.ndarray | None = None) -> np.ndarray:
    return np.bincount(index, weights=weights, minlength=count).astype(np.float64)


def _firsts(
    wave: _Wave,
    r0x: np.ndarray,
    rest_own: np.ndarray,
    rest_rating: np.ndarray,
    rest_score: np.ndarray,
    params: Dwz,
) -> _Firsts:
    """§10.6 and §10.7 for one wave, opponents of Auswahl 0 counted at ``r0x``."""
    m = len(wave.players)
    own, opp, score = wave.own, wave.opp, wave.score
    scale = params.sigma * math.sqrt(2.0)
    a0 = ~np.isnan(r0x)
    cand = ~a0
    stage = np.zeros(m, np.int64)
    start = np.full(m, np.nan)
    rc = np.full(m, np.nan)
    known = a0.copy()  # the players whose rating a result of a candidate is taken at
    values = r0x.copy()
    for number in (1, 2):
        rows = cand[own] & (stage[own] == 0) & known[opp]
        n = _sum(own[rows], m) + _sum(rest_own, m)
        w = _sum(own[rows], m, score[rows]) + _sum(rest_own, m, rest_score)
        total = _sum(own[rows], m, values[opp[rows]]) + _sum(rest_own, m, rest_rating)
        now = cand & (stage == 0) & (n >= params.first_min_games) & (w > 0) & (w < n)
        with np.errstate(invalid="ignore", divide="ignore"):
            mean = total / n
            start = np.where(now, mean + difference(w / n, scale), start)
        rc = np.where(now, mean, rc)
        stage[now] = number
        known = known | now
        values = np.where(now, start, values)
    first = stage > 0
    rows = first[own] & (a0[opp] | first[opp])
    taken = first[rest_own]
    results_own = np.concatenate([own[rows], rest_own[taken]])
    fixed = np.concatenate([np.where(a0[opp[rows]], r0x[opp[rows]], np.nan), rest_rating[taken]])
    variable = np.concatenate([np.where(first[opp[rows]], opp[rows], -1),
                               np.full(int(taken.sum()), -1)])  # fmt: skip
    rp, steps, settled = iterate(
        start,
        results_own,
        fixed,
        variable,
        np.concatenate([score[rows], rest_score[taken]]),
        wave.decimals[results_own],
        scale,
        int(params.max_steps),
    )
    ri = half_up(rp)
    floor = half_up(params.first_floor_base + ri / params.first_floor_divisor)
    dwz = np.where(first, np.where(ri < params.first_floor_below, floor, ri), np.nan)
    # §10.7: the performance of Auswahl 0 over its counted games; a first DWZ's is Rp.
    counted = a0[own] & (a0[opp] | first[opp])
    used = np.where(counted, np.where(a0[opp], r0x[opp], dwz[opp]), np.nan)
    n = _sum(own[counted], m)
    w = _sum(own[counted], m, score[counted])
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = _sum(own[counted], m, used[counted]) / n
        begin = mean + difference(w / n, scale)
    rc = np.where(a0 & (n > 0), mean, rc)
    enough = a0 & (n >= params.performance_min_games)
    inner = enough & (w > 0) & (w < n)
    rh, _, done = iterate(
        np.where(inner, begin, np.nan),
        own[counted],
        used[counted],
        np.full(int(counted.sum()), -1),
        score[counted],
        wave.decimals[own[counted]],
        scale,
        int(params.max_steps),
    )
    margin = params.extreme_margin
    extreme = np.where(w == n, mean + margin, mean - margin)
    performance = np.where(inner, rh, np.where(enough, extreme, np.nan))
    performance = np.where(first, rp, performance)
    rests_used = _sum(rest_own[taken], m)
    used_first = np.where(rows, np.where(a0[opp], r0x[opp], rp[opp]), np.nan)
    return _Firsts(stage, rc, start, rp, steps, dwz, np.where(counted, used, used_first),
                   performance, rests_used, settled and done)  # fmt: skip


def established(
    r0: np.ndarray,
    index: np.ndarray,
    age: np.ndarray,
    n: np.ndarray,
    w: np.ndarray,
    we_scaled: np.ndarray,
    scaled: np.ndarray,
    brake_at_equal: np.ndarray,
    params: Dwz,
) -> dict[str, np.ndarray]:
    """§10.5: E and Rn of players of Auswahl 0 with n counted games and score W; their We is
    ``we_scaled / scaled`` (scaled: 10^p_decimals, or 1 when P is exact), so that W − We is
    compared and divided exactly. ``age`` NaN: unknown (over 25)."""
    low, high = params.age_limits
    j = np.where(age <= low, params.j[0], np.where(age <= high, params.j[1], params.j[2]))
    e0 = (r0 / 1000.0) ** 4 + j
    gained = w * scaled - we_scaled  # (W − We) · scaled
    young = age <= low
    fb = np.where(
        young & (gained >= 0),
        np.clip(r0 / params.accel_divisor, params.accel_min, params.accel_max),
        1.0,
    )
    braking = (r0 < params.brake_below) & np.where(brake_at_equal, gained <= 0, gained < 0)
    sbr = np.where(braking, np.exp((params.brake_below - r0) / params.brake_scale) - 1.0, 0.0)
    e = np.maximum(half_up(e0 * fb + sbr), params.e_min)
    cap = np.where(index <= 5, params.e_index_factor * index, params.e_max)
    e = np.where(sbr > 0, np.minimum(e, params.e_brake_max), np.minimum(e, cap))
    with np.errstate(invalid="ignore", divide="ignore"):
        rn = half_up(r0 + 800.0 * gained / (scaled * (e + n)))
    return {"j": j, "e0": e0, "fb": fb, "sbr": sbr, "e": e, "rn": rn}


def rate_events(
    state: DwzState,
    fide: np.ndarray,
    birth: np.ndarray,
    games: PlayedGames,
    dates: EventDates,
    params: Dwz,
) -> DwzRun:
    """Every event of ``games`` in rating order (a wave at a time) from ``state``. ``fide``:
    per player the FIDE rating in the event file (NaN: none); ``birth``: the birth year."""
    state = state.copy()
    scale = params.sigma * math.sqrt(2.0)
    count = len(state.dwz)
    rows_all = len(games)
    rating_used = np.full(rows_all, np.nan)
    d_all = np.full(rows_all, np.nan)
    p_all = np.full(rows_all, np.nan)
    records: list[dict[str, np.ndarray]] = []
    notes: list[str] = []
    uplifted_now = np.zeros(count, bool)
    from_dwz, from_index = np.full(count, np.nan), np.full(count, np.nan)
    uplift_day = params.uplift_day.toordinal()
    wave_of = waves(games.event, games.pidx)
    for number in np.unique(wave_of):
        rows = np.flatnonzero(wave_of == number)
        players, own = np.unique(games.pidx[rows], return_inverse=True)
        opp = np.searchsorted(players, games.oidx[rows])
        m = len(players)
        event = np.zeros(m, np.int64)
        event[own] = games.event[rows]
        end_day = dates.end_day[event]
        if params.uplift:
            who = np.zeros(count, bool)
            who[players[end_day >= uplift_day]] = True
            due = who & ~state.uplifted
            uplifted_now |= due
            from_dwz[due], from_index[due] = state.dwz[due], state.index[due]
            state = uplift(state, who, params)
        wave = _Wave(rows, own, opp, games.score[rows], players, event, dates.p_decimals[event])
        dwz, fide_here = state.dwz[players], fide[players]
        has = ~np.isnan(dwz)
        foreign = ~has & ~np.isnan(fide_here)
        by_fide = (has & (dwz >= params.fide_above) & ~np.isnan(fide_here)) | foreign
        r0 = np.where(by_fide, fide_here, dwz)
        a0 = ~np.isnan(r0)
        # The candidates' Restpartien still in force (§10.6); older ones expire.
        candidate = np.zeros(count, bool)
        candidate[players[~a0]] = True
        mine = candidate[state.rests.player]
        rest_local = np.searchsorted(players, state.rests.player)
        in_force = mine & (
            state.rests.day >= dates.rests_from[event[np.minimum(rest_local, m - 1)]]
        )
        kept = state.rests.where(in_force)
        rest_own = np.searchsorted(players, kept.player)
        found = _firsts(wave, r0, rest_own, kept.rating, kept.score, params)
        exceptional = (
            dates.exceptional[event] & has & (found.performance - r0 > params.exceptional_margin)
        )
        r0x = r0
        if exceptional.any():  # §10.7: once more, exceptional players counted at Rh
            r0x = np.where(exceptional, half_up(found.performance), r0)
            found = _firsts(wave, r0x, rest_own, kept.rating, kept.score, params)
        counted = a0[own] & ~np.isnan(found.used)
        n = _sum(own[counted], m)
        w = _sum(own[counted], m, wave.score[counted])
        own_rating = np.where(a0[own], r0[own], found.rp[own])
        d = own_rating - found.used
        decimals = wave.decimals[own]
        p = expected(d, scale, decimals)
        scaled_rows = np.where(decimals > 0, 10.0**decimals, 1.0)
        p_scaled = np.where(decimals > 0, np.rint(p * scaled_rows), p)
        scaled = np.where(wave.decimals > 0, 10.0**wave.decimals, 1.0)
        we_scaled = _sum(own[counted], m, p_scaled[counted])
        index_for_e = np.where(foreign, 1.0, state.index[players])
        age = dates.end_year[event].astype(np.float64) - birth[players]  # §8: end date
        values = established(r0, index_for_e, age, n, w, we_scaled, scaled,
                             dates.brake_at_equal[event], params)  # fmt: skip
        evaluated = a0 & (n > 0)
        first = found.stage > 0
        new_index = np.where(
            evaluated,
            np.where(foreign, float(params.foreign_index), state.index[players] + 1.0),
            np.where(first, 1.0, state.index[players]),
        )
        new_dwz = np.where(evaluated, values["rn"], np.where(first, found.first, dwz))
        stored_rows = (~a0[own]) & ~first[own] & (a0[opp] | (found.stage[opp] == 1))
        stored = Rests(
            players[own[stored_rows]],
            end_day[own[stored_rows]],
            np.where(a0[opp], r0[opp], found.first[opp])[stored_rows],  # at R0 or first DWZ
            wave.score[stored_rows],
        )
        gone = np.zeros(count, bool)
        gone[players[first]] = True
        state.rests = state.rests.where(~mine | (in_force & ~gone[state.rests.player]))
        state.rests = state.rests.plus(stored)
        state.dwz[players] = new_dwz
        state.index[players] = new_index
        after = end_day >= uplift_day
        state.uplifted[players] = np.where(
            (first | (evaluated & foreign)) & params.uplift, after, state.uplifted[players]
        )
        counted_any = counted | (first[own] & ~np.isnan(found.used))
        stored_at = np.where(a0[opp], r0[opp], found.first[opp])
        rating_used[rows] = np.where(
            counted_any, found.used, np.where(stored_rows, stored_at, np.nan)
        )
        d_all[rows] = np.where(counted_any, d, np.nan)
        p_all[rows] = np.where(counted_any, p, np.nan)
        if not found.settled:
            notes.append(
                f"an iteration did not settle in {params.max_steps} steps (event "
                f"{int(event[0]) + 1} in rating order): its last values are used"
            )
        records.append(
            {
                "player": players,
                "event": event,
                "r0": r0,
                "by_fide": by_fide,
                "index": index_for_e,
                "age": age,
                **values,
                "n": np.where(a0, n, _sum(own[~np.isnan(found.used)], m)),
                "w": np.where(a0, w, np.nan),
                "we": np.where(a0, we_scaled / scaled, np.nan),
                "rc": found.rc,
                "performance": found.performance,
                "r0_counted": r0x,
                "new_dwz": np.where(evaluated | first, new_dwz, np.nan),
                "new_index": np.where(evaluated | first, new_index, np.nan),
                "stage": found.stage,
                "start": found.start,
                "steps": found.steps,
                "rp": np.where(first, found.rp, np.nan),
                "ri": np.where(first, half_up(found.rp), np.nan),
                "floored": first & (half_up(found.rp) < params.first_floor_below),
                "rests_used": found.rest_count,
                "rests_stored": _sum(np.searchsorted(players, stored.player), m),
                "evaluated": evaluated,
            }
        )
    if params.uplift and (dates.end_day >= uplift_day).any():
        due = ~state.uplifted & (~np.isnan(state.dwz) | _has_rests(state, count))
        uplifted_now |= due
        from_dwz[due], from_index[due] = state.dwz[due], state.index[due]
        state = uplift(state, due, params)
    merged = (
        {key: np.concatenate([r[key] for r in records]) for key in records[0]} if records else {}
    )
    return DwzRun(state, merged, rating_used, d_all, p_all, uplifted_now, (from_dwz, from_index),
                  notes)  # fmt: skip


def _has_rests(state: DwzState, count: int) -> np.ndarray:
    has = np.zeros(count, bool)
    has[state.rests.player] = True
    return has
