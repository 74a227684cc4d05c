"""The DWZ behind the seam (``systems.RatingSystem``, docs/systems.md §10): the list's state
in, the engine over the events in the DSB's order, players.csv and calculations.csv out."""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Callable, Mapping
from typing import ClassVar

import numpy as np
import pandas as pd

from rating_batch.errors import RulesError
from rating_batch.schema import NationalId
from rating_batch.systems.base import (
    SystemBase,
    SystemInput,
    SystemOutcome,
    game_rows,
    outcome_players,
)
from rating_batch.systems.dwz.constants import Dwz
from rating_batch.systems.dwz.engine import DwzRun, DwzState, EventDates, rate_events
from rating_batch.systems.dwz.report import E0_DIGITS, evaluation_tables, worked_lines
from rating_batch.systems.dwz.rests import format_rests, parse_rests, rests_problem

#: The values of a player's evaluation in an event (calculations.csv, after the game's).
EVENT_VALUES = ("r0", "r0_source", "index", "age", "j", "e0", "fb", "sbr", "e", "n", "w",
                "we", "rc", "performance", "new_rating", "new_index", "stage",
                "restpartien_used", "start", "steps", "rp", "ri", "floored",
                "restpartien_stored")  # fmt: skip


def years_before(day: dt.date, years: int) -> dt.date:
    """The same day ``years`` earlier (29 February: the 28th)."""
    try:
        return day.replace(year=day.year - years)
    except ValueError:
        return day.replace(year=day.year - years, day=28)


def event_dates(facts: pd.DataFrame | None, count: int, params: Dwz) -> EventDates:
    """Per event in rating order its end date and the edition in force then (§10.3); an
    event without dates counts as the latest."""
    ends: list[dt.date | None] = (
        [None] * count if facts is None else [e if e is not None else s for s, e in
                                              zip(facts["start"], facts["end"], strict=True)]
    )  # fmt: skip
    editions = [params.edition_at(end) for end in ends]
    days = [end or dt.date.max for end in ends]
    return EventDates(
        end_day=np.array([d.toordinal() for d in days], np.int64),
        end_year=np.array([d.year for d in days], np.int64),
        rests_from=np.array(
            [years_before(d, int(params.restpartien_years)).toordinal() for d in days], np.int64
        ),
        p_decimals=np.array([e.p_decimals for e in editions], np.int64),
        brake_at_equal=np.array([e.brake_when == "W<=We" for e in editions], bool),
        exceptional=np.array([e.exceptional for e in editions], bool),
        edition=[e.name for e in editions],
    )


def _numbers(frame: pd.DataFrame, column: str) -> np.ndarray:
    return frame[column].astype("Float64").to_numpy(np.float64, na_value=np.nan)


class DwzSystem(SystemBase[Dwz]):
    """The DWZ of the Deutscher Schachbund (docs/systems.md §10)."""

    constants = Dwz
    name: ClassVar[str] = "dwz"
    title: ClassVar[str] = "DWZ (Deutscher Schachbund), per event"
    state: ClassVar[dict[str, str]] = {
        "rating": "Int64", "index": "Int64", "uplifted": "boolean", "restpartien": "string",
    }  # fmt: skip
    published: ClassVar[str] = "new_rating"
    list_digits: ClassVar[dict[str, int]] = {"rating": 0, "index": 0}
    by_start: ClassVar[bool] = False
    text_checks: ClassVar[dict[str, Callable[[str], str]]] = {"restpartien": rests_problem}
    birth_from_list: ClassVar[bool] = True
    # A DWZ list keys players by the DSB's own number (ZPS and membership, or PKZ), which
    # most club players have instead of a FIDE ID (docs/formats.md).
    id_name: ClassVar[str] = "ID"
    # The DSB keys its members by club (ZPS: five characters) and membership number, or
    # by the person's PKZ (digits).
    national_id: ClassVar[NationalId | None] = NationalId(
        "ZPS-Mgl or PKZ",
        ("zps", "zps-mgl", "pkz"),
        r"[0-9A-Z]\d{4}-\d{1,4}|\d{4,10}",
        "C0327-123 or 10234567",
    )
    explained: ClassVar[str] = (
        "Per player, counted game and event in the DSB's order (end date, then key): the "
        "opponent's rating used, D and P(D); the player's R0 (DWZ or FIDE), index, age, J, "
        "E0, fB, SBr, E, n, W, We, Rc, Rh and the new DWZ and index (Rn = R0 + 800·(W − We)"
        "/(E + n)); for a first DWZ the stage, the Restpartien used, the start value, the "
        "steps of the iteration and Rp (docs/systems.md §10)."
    )
    # The DSB's symbols and German words (docs/systems.md §10.9), to the decimals the DSB
    # prints: We and P(D) 3, the DWZ, its index, E and the Leistung (Rh) whole.
    notation: ClassVar[dict[str, tuple[str, int]]] = {
        "rating": ("DWZ", 0), "new_rating": ("DWZ neu", 0), "index": ("Index", 0),
        "new_index": ("Index neu", 0), "opponent_rating": ("Ri", 0), "d": ("D", 0),
        "p": ("P(D)", 3), "r0": ("R0", 0), "r0_source": ("R0 aus", 0), "age": ("Alter", 0),
        "j": ("J", 0), "e0": ("E0", E0_DIGITS), "fb": ("fB", 4), "sbr": ("SBr", 4), "e": ("E", 0),
        "n": ("n", 0), "w": ("W", 1), "we": ("We", 3), "expected": ("We", 3),
        "rc": ("Rc", 2), "performance": ("Leistung", 0), "stage": ("Stufe", 0),
        "start": ("Start-Rp", 2), "steps": ("Schritte", 0), "rp": ("Rp", 2),
        "ri": ("Rp gerundet", 0), "floored": ("Untergrenze 700 + Rp/8", 0),
        "restpartien": ("Restpartien", 0), "new_restpartien": ("Restpartien neu", 0),
        "restpartien_used": ("Restpartien genutzt", 0),
        "restpartien_stored": ("Restpartien gespeichert", 0),
        "uplifted": ("umgestuft 2026", 0), "new_uplifted": ("umgestuft 2026 neu", 0),
        "edition": ("Wertungsordnung", 0), "dwz": ("DWZ/Index", 0),
    }  # fmt: skip
    player_values: ClassVar[tuple[str, ...]] = ("edition", *EVENT_VALUES)
    limits: ClassVar[dict[str, tuple[float, float, str]]] = {
        "rating": (1.0, 3999.0, ""),
        "index": (1.0, 10000.0, "the number of evaluations so far, 1 or more"),
    }
    made_from_elo: ClassVar[bool] = False
    from_elo_note = "no DWZ is made from an Elo rating (a FIDE rating counts in its event)"

    def from_elo(self, elo: pd.Series) -> pd.DataFrame:
        # §10.4: a FIDE rating is no DWZ; it counts from the event file, event by event.
        raise RulesError(
            "dwz: no DWZ is made from an Elo rating (a FIDE rating in an event file counts "
            "there, docs/systems.md §10.4): init from a DWZ list of id, rating, index"
        )

    def worked(self, values: Mapping[str, object]) -> list[str]:
        return worked_lines(values, self._params)

    def lists_everyone(self, facts: pd.DataFrame) -> bool:
        # §10.8: a run crossing the uplift date changes every state of the list.
        dates = event_dates(facts, len(facts), self._params)
        day = self._params.uplift_day.toordinal()
        return bool(self._params.uplift and (dates.end_day >= day).any())

    def list_columns(self, listing: pd.DataFrame) -> pd.DataFrame:
        # docs/systems.md §10.2: the DWZ as the DSB shows it, "rating-index" (1712-62).
        dwz = listing["rating"].astype("Int64").astype("string")
        index = listing["index"].astype("Int64").astype("string")
        return listing.assign(dwz=(dwz + "-" + index).astype("string"))

    def rate(self, period: SystemInput) -> SystemOutcome:
        params = self._params
        state = period.state.astype(self.state)  # a list's columns may come as objects
        state["uplifted"] = state["uplifted"].fillna(False)
        period = dataclasses.replace(period, state=state)
        before = DwzState(
            _numbers(state, "rating"),
            _numbers(state, "index"),
            state["uplifted"].to_numpy(bool),
            parse_rests(state["restpartien"]),
        )
        count = len(period.players)
        dates = event_dates(period.facts, max(len(period.events), 1), params)
        fide = _numbers(period.players, "rating") if "rating" in period.players else None
        births = _numbers(period.players, "birth_year")
        with np.errstate(invalid="ignore", divide="ignore"):
            run = rate_events(
                before, fide if fide is not None else np.full(count, np.nan), births,
                period.games, dates, params,
            )  # fmt: skip
        return SystemOutcome(
            self._players(period, run),
            self._calculations(period, run, dates),
            self._notes(run, dates),
            evaluation_tables(
                run,
                period.games,
                period.players["name"],
                period.events,
                _shown_dates(period.facts, len(period.events)),
                params,
            ),
        )

    def _players(self, period: SystemInput, run: DwzRun) -> pd.DataFrame:
        after = run.state
        count = len(period.players)
        last = _last_values(run, count, ("we", "e", "performance", "stage"))
        listed = ~np.isnan(after.dwz)
        frame = outcome_players(
            period,
            {
                "rating": after.dwz,
                "index": after.index,
                "uplifted": after.uplifted,
                "restpartien": format_rests(after.rests, count),
            },
            {
                "expected": last["we"],
                "e": last["e"],
                "performance": last["performance"],
                "stage": np.where(last["stage"] > 0, last["stage"], np.nan),
            },
            rated_now=listed,
        )
        frame["new_restpartien"] = frame["new_restpartien"].astype("string")
        frame["new_uplifted"] = frame["new_uplifted"].astype("boolean")
        # docs/systems.md §10.2: the DWZ, its index, E and the stage are whole numbers.
        whole = ["rating", "index", "new_rating", "new_index", "e", "stage"]
        return frame.astype({column: "Int64" for column in whole})

    def _calculations(self, period: SystemInput, run: DwzRun, dates: EventDates) -> pd.DataFrame:
        shown = ~np.isnan(run.rating_used)
        games: pd.DataFrame = game_rows(period).assign(
            opponent_rating=run.rating_used, d=run.d, p=run.p,
            _player=period.games.pidx, _event=period.games.event,
        )[shown]  # fmt: skip
        records = run.records
        if not records:
            return games.drop(columns=["_player", "_event"]).reset_index(drop=True)
        source = np.where(records["by_fide"], "FIDE", "DWZ")
        values = pd.DataFrame(
            {
                "_player": records["player"],
                "_event": records["event"],
                "edition": np.array(dates.edition, dtype=object)[records["event"]],
                **{key: records[key] for key in ("r0",)},
                "r0_source": pd.Series(source, dtype="string").where(~np.isnan(records["r0"])),
                **{key: records[key] for key in ("index", "age", "j", "e0", "fb", "sbr",
                                                 "e", "n", "w", "we", "rc", "performance")},
                "new_rating": records["new_dwz"],
                "new_index": records["new_index"],
                "stage": records["stage"],
                "restpartien_used": records["rests_used"],
                "start": records["start"],
                "steps": records["steps"],
                "rp": records["rp"],
                "ri": records["ri"],
                "floored": pd.Series(records["floored"], dtype="boolean").where(
                    records["stage"] > 0
                ),
                "restpartien_stored": records["rests_stored"],
            }
        )  # fmt: skip
        a0 = ~np.isnan(records["r0"])
        for key in ("j", "e0", "fb", "sbr", "e"):
            values[key] = np.where(a0 & records["evaluated"], values[key], np.nan)
        # Each value only where it means something: a first DWZ's, a candidate's.
        first = records["stage"] > 0
        for key in ("stage", "restpartien_used", "steps"):
            values[key] = np.where(first, values[key], np.nan)
        stored = ~a0 & ~first
        values["restpartien_stored"] = np.where(stored, values["restpartien_stored"], np.nan)
        merged: pd.DataFrame = games.merge(
            values, on=["_player", "_event"], how="left", validate="m:1"
        )
        whole = ["r0", "index", "age", "j", "e", "n", "new_rating", "new_index", "stage", "ri",
                 "restpartien_used", "steps", "restpartien_stored"]  # fmt: skip
        merged = merged.astype({column: "Int64" for column in whole})
        return merged.drop(columns=["_player", "_event"]).reset_index(drop=True)

    def _notes(self, run: DwzRun, dates: EventDates) -> list[str]:
        params = self._params
        editions = ", ".join(dict.fromkeys(dates.edition))
        notes = [
            f"DWZ (docs/systems.md §10): events by end date, then key; edition(s) {editions} "
            f"by end date; P(D) = Φ(D / ({params.sigma:g}·√2)); Rn = R0 + 800·(W − We)/(E + n)",
            *run.notes,
        ]
        undated = int((dates.end_day == dt.date.max.toordinal()).sum())
        if undated:
            notes.append(
                f"{undated} event(s) without dates: rated last, under the latest edition, "
                "after the uplift date (give the dates for the DSB's order)"
            )
        # The DWZs it mapped: not a player without one (a first DWZ is made on the new
        # scale; his flag is only set) nor one the list gives as uplifted already.
        uplifted = int(np.count_nonzero(~np.isnan(run.uplifted_from[0])))
        if uplifted:
            notes.append(
                f"the 2026 uplift (§10.8) mapped the DWZ of {uplifted} player(s) before the "
                f"first event ending on or after {params.uplift_date}"
            )
        return notes


def _shown_dates(facts: pd.DataFrame | None, count: int) -> list[str]:
    """Each event's dates as a heading shows them ("2025-03-01 – 2025-03-09"; "" if none)."""
    if facts is None:
        return [""] * count
    return [
        " – ".join(dict.fromkeys(str(day) for day in (start, end) if day is not None))
        for start, end in zip(facts["start"], facts["end"], strict=True)
    ]


def _last_values(run: DwzRun, count: int, keys: tuple[str, ...]) -> dict[str, np.ndarray]:
    """Per player the values of the last event that evaluated him or gave him a first DWZ
    (NaN: none; an event whose games did not count for him is not his evaluation)."""
    out = {key: np.full(count, np.nan) for key in keys}
    if not run.records:
        return out
    records = run.records
    order = np.argsort(records["event"], kind="stable")  # later events overwrite
    order = order[(records["evaluated"] | (records["stage"] > 0))[order]]
    players = records["player"][order]
    for key in keys:
        out[key][players] = records[key][order].astype(np.float64)
    return out
