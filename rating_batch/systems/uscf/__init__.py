"""US Chess (docs/systems.md §9; Glickman and Doan, "The US Chess Rating System"): sections
rated one after another by end date and key, each in five steps, state stored unrounded."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from typing import ClassVar

import numpy as np
import pandas as pd

from rating_batch.schema import NationalId
from rating_batch.systems.base import (
    SystemBase,
    SystemInput,
    SystemOutcome,
    game_rows,
    not_whole,
    outcome_players,
    seeded,
)
from rating_batch.systems.uscf.constants import (
    FIDE_2024,
    HIGHEST,
    NSTAR_2013,
    Uscf,
    from_date,
    in_force,
)
from rating_batch.systems.uscf.engine import (
    FLOOR_KINDS,
    RECORDS,
    Rated,
    Sections,
    State,
    initial,
    rate_sections,
)
from rating_batch.systems.uscf.report import crosstable

#: The calculations.csv columns of a section's values, as ``Rated.parts`` names them.
SECTION_COLUMNS = {
    "r0": "rating", "games": "n", "n_star": "n_star", "n_eff": "n_eff", "m": "m", "s": "s",
    "r0_adjusted": "r0_adjusted", "s_adjusted": "s_adjusted", "step3": "step3",
    "intermediate": "intermediate", "expected": "expected", "k": "k", "bonus_b": "b",
    "threshold": "threshold", "bonus": "bonus", "value": "before_floors", "floor": "floor",
    "post": "new_rating",
}  # fmt: skip


def sections_of(period: SystemInput, params: Uscf, kind: str | None) -> Sections:
    """What each section's end date and time control decide (docs/systems.md §8, §9)."""
    facts = period.facts
    # One value per section; a period without sections (a month without events) has none.
    count = len(facts) if facts is not None else len(period.events)
    ends: list[dt.date | None] = (
        [end if isinstance(end, dt.date) else None for end in facts["end"]]
        if facts is not None
        else [None] * count
    )
    minutes = (
        facts["minutes"].astype("float64").to_numpy()
        if facts is not None and "minutes" in facts
        else np.full(count, np.nan)
    )
    fallback = float(period.year) if period.year is not None else np.nan
    bonus = (
        np.full(count, params.bonus_b)
        if params.bonus_b is not None
        else in_force(params.bonus_history, ends)
    )
    peak = (
        np.full(count, params.peak_floor_min)
        if params.peak_floor_min is not None
        else in_force(params.peak_floor_history, ends)
    )
    dual = (
        params.dual_k_reduction
        and kind == "standard"
        and (minutes >= params.regular_min) & (minutes <= params.quick_max)
    )
    return Sections(
        bonus_b=bonus,
        nstar_2013=from_date(params.nstar, "2013", NSTAR_2013, ends),
        fide_2024=from_date(params.fide_conversion, "2024", FIDE_2024, ends),
        peak_min=peak,
        year=np.array([fallback if end is None else float(end.year) for end in ends]),
        dual=np.broadcast_to(np.asarray(dual, dtype=bool), (count,)).copy(),
    )


def state_of(period: SystemInput) -> State:
    """The state columns before the period as arrays (``record`` as ``RECORDS`` codes)."""
    codes = {name: code for code, name in enumerate(RECORDS) if name}
    record = period.state["record"].astype(object).map(codes)
    return State(
        rating=period.initial("rating", np.nan),
        games=period.initial("games_total", np.nan),
        record=record.fillna(0).to_numpy(np.int64),
        peak=period.initial("peak", np.nan),
        floor=period.initial("floor", np.nan),
        abs_floor=period.initial("abs_floor", np.nan),
    )


def _numbers(frame: pd.DataFrame, column: str) -> np.ndarray:
    if column not in frame:
        return np.full(len(frame), np.nan)
    return frame[column].astype("Float64").to_numpy(np.float64, na_value=np.nan)


class UscfSystem(SystemBase[Uscf]):
    """US Chess behind the seam (a ``systems.base.StateSystem``)."""

    constants = Uscf
    name: ClassVar[str] = "uscf"
    title: ClassVar[str] = "US Chess (Glickman and Doan 2017-2026), per section"
    state: ClassVar[dict[str, str]] = {
        "rating": "Float64", "games_total": "Float64", "record": "string", "peak": "Float64",
        "floor": "Float64", "abs_floor": "Float64",
    }  # fmt: skip
    optional: ClassVar[tuple[str, ...]] = ("games_total", "peak", "floor", "abs_floor")
    choices: ClassVar[dict[str, tuple[str, ...]]] = {"record": RECORDS[1:]}
    national_id: ClassVar[NationalId | None] = NationalId(
        "US Chess id", ("uscf_id",), r"\d{8}", "12345678"
    )
    explained: ClassVar[str] = (
        "Per section, in the order rated (end date, then key), one row per game: the "
        "opponent's rating in Step 4 (pre-event, or Step 3 for a player with no games) and in "
        "Step 5 (his intermediate rating), We or PWe against the Step 5 value; and the "
        "player's values in the section: R0, N, N*, N', the formula, m, S, R0' and S' "
        "(special), the Step 3 and Step 4 (intermediate) values, E, K, B, the bonus threshold "
        "and bonus, the value before floors, the floor in force and its kind, the post-event "
        "rating (docs/systems.md §9)."
    )
    published: ClassVar[str] = "new_rating"
    list_digits: ClassVar[dict[str, int]] = {"rating": 0, "peak": 0, "games_total": 0}
    # US Chess's own form: ratings (R0 included) whole, as its crosstables and lists show
    # them; K and the bonus to the two decimals of docs/systems.md §9.13's examples; the
    # intermediate values keep two.
    notation: ClassVar[dict[str, tuple[str, int]]] = {
        "rating": ("rating", 0), "new_rating": ("post-event", 0), "games_total": ("N", 0),
        "new_games_total": ("new N", 0), "peak": ("peak", 0), "new_peak": ("new peak", 0),
        "n": ("N", 0), "n_star": ("N*", 2), "n_eff": ("N'", 2), "m": ("m", 0),
        "s": ("S", 1), "r0_adjusted": ("R0'", 2), "s_adjusted": ("S'", 2),
        "step3": ("Step 3", 2), "intermediate": ("Step 4", 2), "expected": ("E", 4),
        "k": ("K", 2), "b": ("B", 0), "threshold": ("B·√max(m,4)", 2), "bonus": ("bonus", 2),
        "before_floors": ("before floors", 2), "floor": ("floor", 0),
        "opponent_step4": ("Ri (Step 4)", 2), "opponent_step5": ("Ri (Step 5)", 2),
        "we": ("We/PWe", 4), "record": ("record", 0), "new_record": ("new record", 0),
        "new_abs_floor": ("AF'", 0),
        "abs_floor": ("absolute floor", 0), "floor_in_force": ("floor in force", 0),
        "floor_kind": ("floor kind", 0), "new_floor": ("new floor", 0),
        "floored": ("floored", 0), "method": ("formula", 0),
    }  # fmt: skip
    by_start: ClassVar[bool] = False
    event_values: ClassVar[tuple[str, ...]] = (
        "formula", *list(SECTION_COLUMNS.values())[:-2], "floor", "floor_kind", "new_rating",
    )  # fmt: skip

    @property
    def bounds(self) -> dict[str, tuple[float, float, str]]:
        low = self._params.min_rating
        return {
            "rating": (low, HIGHEST, f"a US Chess rating is {low:g} or more"),
            "games_total": (0.0, 1e6, "the number of rated games"),
            "peak": (low, HIGHEST, ""),
            "floor": (low, HIGHEST, ""),
            "abs_floor": (low, self._params.absolute_floor_max, "a personal absolute floor"),
        }

    def kinds_of(self, minutes: float | None) -> tuple[str, ...] | None:
        """§9.1: Blitz 5 ≤ t ≤ 10, Quick 10 < t ≤ 65, Regular t ≥ 30; 30 ≤ t ≤ 65 is
        dual-rated (Regular first: ``rate`` without ``--kind`` rates t ≥ 30 for Regular)."""
        p = self._params
        if minutes is None:
            return None
        found = [
            kind
            for kind, within in (
                ("standard", minutes >= p.regular_min),
                ("rapid", p.blitz_max < minutes <= p.quick_max),
                ("blitz", p.not_rated_below <= minutes <= p.blitz_max),
            )
            if within
        ]
        return tuple(found)

    def list_extra(self, players: pd.DataFrame) -> dict[str, np.ndarray]:
        """§9.11: a rating on ``provisional_games`` (25) games or fewer is provisional (an
        empty count: established)."""
        total = players["new_games_total"].astype("Float64").to_numpy(np.float64, na_value=np.nan)
        return {"provisional": total <= self._params.provisional_games}

    def from_elo(self, elo: pd.Series) -> pd.DataFrame:
        p = self._params
        fide = elo.astype("Float64").to_numpy(np.float64, na_value=np.nan)
        latest = from_date(p.fide_conversion, "2024", FIDE_2024, [None])[0]
        rating, games, _ = initial(
            fide, np.full(len(fide), np.nan), np.full(len(fide), np.nan),
            np.full(len(fide), latest), p,
        )  # fmt: skip
        frame = seeded(elo, self.state, rating=pd.Series(rating), games_total=pd.Series(games))
        frame["record"] = pd.Series(["mixed"] * len(fide), dtype="string").where(~np.isnan(fide))
        return frame

    @property
    def from_elo_note(self) -> str:
        p = self._params
        which = "2001" if p.fide_conversion == "2001" else "2024"
        return (
            f"the US Chess conversion of a FIDE rating ({which}; docs/systems.md §9.4): N "
            f"{p.fide_games_high} above {p.fide_games_split:g}, else {p.fide_games_low}"
        )

    def crosstable(
        self,
        outcome: SystemOutcome,
        games: pd.DataFrame,
        order: Sequence[str],
        names: Mapping[str, str],
    ) -> pd.DataFrame:
        """Each section's crosstable as US Chess's MSA shows it (``report.crosstable``): the
        rated ``outcome``, the games frame, the event keys in rating order and names."""
        return crosstable(
            outcome.players, outcome.calculations, games, order, names,
            self._params.provisional_games,
        )  # fmt: skip

    def list_problems(self, state: pd.DataFrame) -> list[tuple[int, str]]:
        # §9.3: N counts games; a fraction would enter K (and the crosstable's P<n>) as given.
        return not_whole(state, "games_total", "the number of rated games (N)")

    def rate(self, period: SystemInput) -> SystemOutcome:
        p = self._params
        kind = period.kind
        before = state_of(period)
        fide = _numbers(period.players, "rating")
        birth = _numbers(period.players, "birth_year")
        sections = sections_of(period, p, kind)
        done = rate_sections(before, fide, birth, period.games, sections, p)
        notes = [
            "US Chess (docs/systems.md §9): sections by end date then key, each in five steps "
            "(the special formula solved exactly); ratings stored unrounded, list.csv rounded "
            "half away from zero"
        ]
        if sections.dual.any():
            notes.append("Regular side of a dual-rated event: K reduced above 2200 (§9.7)")
        return SystemOutcome(
            self._players(period, before, done), self._calculations(period, done), notes
        )

    def _players(self, period: SystemInput, before: State, done: Rated) -> pd.DataFrame:
        after, parts = done.state, done.parts
        record = np.array([RECORDS[code] or None for code in after.record], dtype=object)
        rated = ~np.isnan(after.rating)
        last = np.full(len(after.rating), -1, dtype=np.int64)
        order = np.argsort(parts["event"], kind="stable")  # later sections overwrite
        last[parts["player"][order].astype(np.int64)] = order
        seen = last >= 0

        def of_last(values: np.ndarray) -> np.ndarray:
            # A NaN after the sections' values: a player without one (last −1) reads it,
            # also when no section was rated (a month without events).
            return np.append(np.asarray(values, np.float64), np.nan)[last]

        extra = {
            "n_eff": of_last(parts["n_eff"]), "k": of_last(parts["k"]),
            "expected": of_last(parts["expected"]), "bonus": of_last(parts["bonus"]),
            "step3": of_last(parts["step3"]), "intermediate": of_last(parts["intermediate"]),
            "floor_in_force": of_last(parts["floor"]),
        }  # fmt: skip
        players = outcome_players(
            period,
            {"rating": after.rating, "games_total": after.games, "record": record,
             "peak": after.peak, "floor": after.floor, "abs_floor": after.abs_floor},
            extra,
            rated_now=rated,
        )  # fmt: skip
        special = of_last(parts["special"]) == 1.0
        method = pd.Series(np.where(special, "special", "standard")).where(seen)
        floored = pd.array(
            [bool(f) if s else None for f, s in zip(of_last(parts["value"]) < extra[
                "floor_in_force"], seen, strict=True)], dtype="boolean",
        )  # fmt: skip
        # docs/systems.md §9: new for a first rating now (absent from the list, or on 0 games).
        fresh = (np.isnan(before.rating) | (before.games == 0)) & seen
        status = np.where(~rated, "unrated", np.where(fresh, "new", "rated"))
        columns = list(players.columns)
        players = players.assign(method=method, floored=floored)
        players["status"] = pd.Categorical(status, categories=players["status"].cat.categories)
        place = columns.index("n_eff")
        columns = [*columns[:place], "method", *columns[place:-1], "floored", "status"]
        return players[columns]

    def _calculations(self, period: SystemInput, done: Rated) -> pd.DataFrame:
        parts, games = done.parts, period.games
        count = np.int64(games.players)
        key = parts["event"].astype(np.int64) * count + parts["player"].astype(np.int64)
        order = np.argsort(key)
        at = order[np.searchsorted(key[order], games.event * count + games.pidx)]
        frame = game_rows(period).assign(**done.rows)
        for name, column in SECTION_COLUMNS.items():
            frame[column] = parts[name][at].astype(np.int64) if name == "m" else parts[name][at]
            if column == "n_eff":
                special = parts["special"].astype(bool)[at]
                frame["formula"] = np.where(special, "special", "standard")
        kinds = np.array(FLOOR_KINDS, dtype=object)
        frame.insert(len(frame.columns) - 1, "floor_kind", kinds[parts["floor_kind"][at]])
        # Sections in the order rated (§9.12), each by round and board, white first.
        order = np.lexsort((~games.white, games.board, games.round, games.event))
        return frame.iloc[order].reset_index(drop=True)


__all__ = ["Uscf", "UscfSystem"]
