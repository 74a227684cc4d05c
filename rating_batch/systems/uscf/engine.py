"""US Chess's rating of sections in order (docs/systems.md §9.2–§9.11): each section from
every player's rating after the previous one, in waves of sections that share no player
(``games.waves``), vectorised across the players of a wave. Per section Step 1 (initial
ratings), Step 2 (N'), Step 3 (a first estimate for players with no games), Step 4
(intermediate ratings against pre-event ratings) and Step 5 (against the intermediate
ones, then the floors)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from rating_batch.systems.base import half_away
from rating_batch.systems.games import PlayedGames, waves
from rating_batch.systems.uscf.constants import Uscf
from rating_batch.systems.uscf.special import pwe, solve_special

#: ``record`` as numbers: none yet (N = 0), all wins, all losses, mixed (§9.3).
NONE, ALL_WINS, ALL_LOSSES, MIXED = 0, 1, 2, 3
RECORDS = ("", "all_wins", "all_losses", "mixed")
#: The floor in force (§9.10), by its place in ``FLOOR_KINDS``.
FLOOR_KINDS = ("absolute", "personal", "peak", "set")


@dataclass
class State:
    """Per player: ``rating`` (NaN: not rated yet), ``games`` (N; NaN: established, count
    not known), ``record`` (``RECORDS`` codes), ``peak``, ``floor``, ``abs_floor`` (NaN:
    none, 100)."""

    rating: np.ndarray
    games: np.ndarray
    record: np.ndarray
    peak: np.ndarray
    floor: np.ndarray
    abs_floor: np.ndarray

    def copy(self) -> State:
        return State(*(np.array(v, copy=True) for v in vars(self).values()))


@dataclass(frozen=True)
class Sections:
    """Per section (in rating order) what its end date and time control decide: B, the
    2013 N* and the 2024 FIDE conversion (or not), the lowest peak with a floor, the year
    (NaN: unknown) and whether K is reduced (the Regular side of a dual-rated event)."""

    bonus_b: np.ndarray
    nstar_2013: np.ndarray
    fide_2024: np.ndarray
    peak_min: np.ndarray
    year: np.ndarray
    dual: np.ndarray


@dataclass(frozen=True)
class Rated:
    """The state after every section, and per (player, section) the section's values
    (``parts``, each an array over ``parts["player"]``) and per game row the opponent's
    Step 4 and Step 5 ratings and We or PWe (``rows``)."""

    state: State
    parts: dict[str, np.ndarray]
    rows: dict[str, np.ndarray]


def initial(
    fide: np.ndarray, birth: np.ndarray, year: np.ndarray, fide_2024: np.ndarray, params: Uscf
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Step 1 (§9.4): a first rating, N and record from a FIDE rating, else from the age
    (50 × age held to [100, 1300]), else 1300 with N = 0."""
    low = np.where(fide_2024, 1.5667 * fide - 1073.0, 0.94 * fide + 180.0)
    converted = np.where(fide <= 2000.0, low, 1.02 * fide + 20.0)
    by_age = np.clip(
        params.initial_per_year * (year - birth), params.min_rating, params.initial_max
    )
    has_fide = ~np.isnan(fide)
    rating = np.where(
        has_fide, converted, np.where(np.isnan(by_age), params.initial_no_age, by_age)
    )
    high = fide > params.fide_games_split
    games = np.where(has_fide, np.where(high, params.fide_games_high, params.fide_games_low), 0.0)
    record = np.where(has_fide, MIXED, NONE)
    return rating, games.astype(np.float64), record


def n_star(rating: np.ndarray, edition_2013: np.ndarray) -> np.ndarray:
    """N* (§9.5): 50/√(0.662 + 0.00000739·(2569 − R)²) up to 2355 from 2013-05-18, else
    50/√(1 + (2200 − R)²/100000) up to 2200; 50 above."""
    new = np.where(
        rating <= 2355.0, 50.0 / np.sqrt(0.662 + 0.00000739 * (2569.0 - rating) ** 2), 50.0
    )
    old = np.where(rating <= 2200.0, 50.0 / np.sqrt(1.0 + (2200.0 - rating) ** 2 / 100000.0), 50.0)
    found: np.ndarray = np.where(edition_2013, new, old)
    return found


@dataclass(frozen=True)
class Wave:
    """The players of one wave (each in one section) and their game rows: ``pos`` each
    row's player and ``opp`` its opponent as places in ``who``."""

    who: np.ndarray
    pos: np.ndarray
    opp: np.ndarray
    score: np.ndarray
    section: np.ndarray
    m: np.ndarray
    s: np.ndarray
    meetings: np.ndarray


def _wave(games: PlayedGames, rows: np.ndarray) -> Wave:
    pidx, oidx = games.pidx[rows], games.oidx[rows]
    who, pos = np.unique(pidx, return_inverse=True)
    opp = np.searchsorted(who, oidx)  # opponents play in the same section, so the same wave
    count = len(who)
    section = np.zeros(count, dtype=np.int64)
    section[pos] = games.event[rows]
    score = games.score[rows]
    pair, times = np.unique(pos * np.int64(count) + opp, return_counts=True)
    meetings = np.zeros(count, dtype=np.int64)
    np.maximum.at(meetings, pair // count, times)
    m = np.bincount(pos, minlength=count).astype(np.float64)
    s = np.bincount(pos, weights=score, minlength=count)
    return Wave(who, pos, opp, score, section, m, s, meetings)


@dataclass(frozen=True)
class Own:
    """A wave's players' own values for Steps 4 and 5: R0, N', the special formula or not,
    R0' and S' (special), B and whether K is reduced."""

    r0: np.ndarray
    n_eff: np.ndarray
    special: np.ndarray
    r0_adjusted: np.ndarray
    s_adjusted: np.ndarray
    bonus_b: np.ndarray
    dual: np.ndarray


def _special(wave: Wave, opponent: np.ndarray, own: Own, who: np.ndarray) -> np.ndarray:
    """The special formula (§9.6, without the cap) for the players ``who`` (a mask)."""
    places = np.flatnonzero(who)
    group_of = np.full(len(who), -1, dtype=np.int64)
    group_of[places] = np.arange(len(places))
    mine = who[wave.pos]
    prior = own.n_eff[places] > 0
    group = np.concatenate([group_of[wave.pos[mine]], np.flatnonzero(prior)])
    center = np.concatenate([opponent[mine], own.r0_adjusted[places][prior]])
    weight = np.concatenate([np.ones(int(mine.sum())), own.n_eff[places][prior]])
    return solve_special(group, center, weight, own.s_adjusted[places], own.r0[places])


def _formula(
    wave: Wave, opponent: np.ndarray, own: Own, params: Uscf
) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    """§9.6 or §9.7 for every player of the wave against ``opponent`` (per row): the rating
    and its parts (E, K, the bonus threshold, the bonus; the special formula's root)."""
    count = len(wave.who)
    r0 = own.r0[wave.pos]
    we = 1.0 / (1.0 + 10.0 ** (-(r0 - opponent) / 400.0))
    expected = np.bincount(wave.pos, weights=we, minlength=count)
    k = 800.0 / (own.n_eff + wave.m)
    reduce = own.dual & (own.r0 > 2200.0)
    k = np.where(reduce, k * np.where(own.r0 < 2500.0, 6.5 - 0.0025 * own.r0, 0.25), k)
    change = k * (wave.s - expected)
    eligible = (wave.m >= params.bonus_min_games) & (wave.meetings <= params.bonus_max_meetings)
    threshold, bonus = bonus_of(change, wave.m, own.bonus_b, eligible)
    standard = own.r0 + change + bonus
    root = np.full(count, np.nan)
    if own.special.any():
        root[own.special] = _special(wave, opponent, own, own.special)
    special = np.minimum(root, params.special_cap)
    rating = np.where(own.special, special, standard)
    std = ~own.special
    parts = {
        "expected": np.where(std, expected, np.nan),
        "k": np.where(std, k, np.nan),
        "threshold": np.where(std & eligible, threshold, np.nan),
        "bonus": np.where(std, bonus, np.nan),
        "root": root,
        "we": np.where(std[wave.pos], we, pwe(root[wave.pos], opponent)),
    }
    return rating, parts


def bonus_of(
    change: np.ndarray, m: np.ndarray, b: np.ndarray, eligible: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """The bonus threshold B·√max(m, 4) and the bonus max(0, K(S − E) − threshold) where
    ``eligible`` (§9.8), else 0."""
    threshold = b * np.sqrt(np.maximum(m, 4.0))
    return threshold, np.where(eligible, np.maximum(0.0, change - threshold), 0.0)


#: The parts of a section that are not floats (``rate_sections``).
_EMPTY: dict[str, type] = {
    "player": np.int64, "event": np.int64, "m": np.int64, "floor_kind": np.int64,
    "record": np.int64, "special": bool, "new": bool,
}  # fmt: skip


def rate_sections(
    before: State,
    fide: np.ndarray,
    birth: np.ndarray,
    games: PlayedGames,
    sections: Sections,
    params: Uscf,
) -> Rated:
    """Every section in rating order (``games.event``), a wave at a time."""
    state = before.copy()
    wave_of = waves(games.event, games.pidx)
    names = (
        "player", "event", "r0", "games", "n_star", "n_eff", "special", "m", "s", "r0_adjusted",
        "s_adjusted", "step3", "intermediate", "expected", "k", "bonus_b", "threshold", "bonus",
        "root", "value", "floor", "floor_kind", "post", "new", "record",
    )  # fmt: skip
    chunks: dict[str, list[np.ndarray]] = {name: [] for name in names}
    rows = {
        name: np.full(len(games), np.nan) for name in ("opponent_step4", "opponent_step5", "we")
    }
    for number in np.unique(wave_of):
        at = np.flatnonzero(wave_of == number)
        wave = _wave(games, at)
        who, sec = wave.who, wave.section
        # Step 1: players not rated yet.
        new = np.isnan(state.rating[who])
        if new.any():
            rating, count, record = initial(
                fide[who], birth[who], sections.year[sec], sections.fide_2024[sec], params
            )
            state.rating[who[new]] = rating[new]
            state.games[who[new]] = count[new]
            state.record[who[new]] = record[new]
        r0, n = state.rating[who], state.games[who]
        record = np.where((state.record[who] == NONE) & (n != 0), MIXED, state.record[who])
        # Step 2.
        star = n_star(r0, sections.nstar_2013[sec])
        n_eff = np.where(np.isnan(n), star, np.minimum(n, star))
        special = (n <= params.special_max_games) | (record == ALL_WINS) | (record == ALL_LOSSES)
        wins = record == ALL_WINS
        losses = record == ALL_LOSSES
        r0_adjusted = np.where(wins, r0 - 400.0, np.where(losses, r0 + 400.0, r0))
        s_adjusted = np.where(wins, wave.s + n_eff, np.where(losses, wave.s, wave.s + n_eff / 2.0))
        own = Own(r0, n_eff, special, r0_adjusted, s_adjusted, sections.bonus_b[sec],
                  sections.dual[sec])  # fmt: skip
        # Step 3: players with no games, N' = 1, against pre-event ratings.
        zero = n == 0
        step3 = np.full(len(who), np.nan)
        if zero.any():
            first = Own(r0, np.ones(len(who)), special, r0, wave.s + 0.5, own.bonus_b, own.dual)
            found = _special(wave, r0[wave.opp], first, zero)
            step3[zero] = np.maximum(np.minimum(found, params.special_cap), params.min_rating)
        pre = np.where(zero, step3, r0)
        # Step 4: the intermediate ratings; Step 5 against them.
        step4, _ = _formula(wave, pre[wave.opp], own, params)
        intermediate = np.maximum(step4, params.min_rating)
        value, parts = _formula(wave, intermediate[wave.opp], own, params)
        floor, kind = _floors(state, who, wave, sections.peak_min[sec], params)
        post = np.maximum(value, floor)
        # After the section (§9.11).
        m = wave.m
        state.rating[who] = post
        state.games[who] = n + m
        all_won = np.bincount(wave.pos, weights=wave.score == 1.0, minlength=len(who)) == m
        all_lost = wave.s == 0.0
        state.record[who] = np.where(
            (all_won & ((record == NONE) | (record == ALL_WINS))), ALL_WINS,
            np.where(all_lost & ((record == NONE) | (record == ALL_LOSSES)), ALL_LOSSES, MIXED),
        )  # fmt: skip
        established = np.isnan(state.games[who]) | (state.games[who] > params.provisional_games)
        state.peak[who] = np.where(established, np.fmax(state.peak[who], post), state.peak[who])
        state.abs_floor[who] = _personal_floor(state, who, wave, params)
        rows["opponent_step4"][at] = pre[wave.opp]
        rows["opponent_step5"][at] = intermediate[wave.opp]
        rows["we"][at] = parts["we"]
        values = {
            "player": who, "event": sec, "r0": r0, "games": n, "n_star": star, "n_eff": n_eff,
            "special": special, "m": m, "s": wave.s,
            "r0_adjusted": np.where(special, r0_adjusted, np.nan),
            "s_adjusted": np.where(special, s_adjusted, np.nan), "step3": step3,
            "intermediate": intermediate,
            "expected": parts["expected"], "k": parts["k"], "bonus_b": own.bonus_b,
            "threshold": parts["threshold"], "bonus": parts["bonus"], "root": parts["root"],
            "value": value, "floor": floor, "floor_kind": kind, "post": post, "new": new,
            "record": record,
        }  # fmt: skip
        for name in names:
            chunks[name].append(np.asarray(values[name]))
    # Without a section (a month without events) each part is empty, of the type a section
    # gives it: its indices stay indices.
    joined = {
        name: np.concatenate(chunks[name]) if chunks[name] else np.zeros(0, _EMPTY.get(name, float))
        for name in names
    }
    return Rated(state, joined, rows)


def _personal_floor(state: State, who: np.ndarray, wave: Wave, params: Uscf) -> np.ndarray:
    """AF' (§9.10): the personal absolute floor counting this section."""
    count = len(who)
    wins = np.bincount(wave.pos, weights=wave.score == 1.0, minlength=count)
    draws = np.bincount(wave.pos, weights=wave.score == 0.5, minlength=count)
    before = np.where(np.isnan(state.abs_floor[who]), params.min_rating, state.abs_floor[who])
    raised = (
        before
        + params.absolute_floor_win * wins
        + params.absolute_floor_draw * draws
        + params.absolute_floor_event * (wave.m >= 3)
    )
    floor: np.ndarray = np.minimum(raised, params.absolute_floor_max)
    return floor


def _floors(
    state: State, who: np.ndarray, wave: Wave, peak_min: np.ndarray, params: Uscf
) -> tuple[np.ndarray, np.ndarray]:
    """The floor in force after the section (§9.10) and its kind (``FLOOR_KINDS``): the
    highest of 100, AF', the peak floor (from the peak before the section) and the set
    floor; a tie is named by the later kind."""
    personal = _personal_floor(state, who, wave, params)
    peak = half_away(state.peak[who])
    by_peak = np.minimum(100.0 * np.floor((peak - 200.0) / 100.0), params.peak_floor_max)
    by_peak = np.where(peak >= peak_min, by_peak, np.nan)
    candidates = np.stack(
        [np.full(len(who), params.min_rating), personal, by_peak, state.floor[who]]
    )
    filled = np.where(np.isnan(candidates), -np.inf, candidates)
    floor = filled.max(axis=0)
    # The last kind reaching the floor, with a personal floor of 100 named absolute.
    reaching = (filled == floor) & ~((np.arange(4) == 1)[:, None] & (personal == params.min_rating))
    kind = 3 - np.argmax(reaching[::-1], axis=0)
    return floor, kind
