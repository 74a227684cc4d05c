"""``rate`` under a system whose players carry a state (docs/systems.md): ``StatePipeline``
makes such a ``StateSystem`` a ``RatingSystem``. The same files, validation, identities and
output set as under FIDE Elo, the system's own numbers. The events are read and checked as for
Elo; the period's players and games are assembled once; the previous list (``--list``: a CSV
with ``id`` and the system's state columns) gives each player's state; the system rates
(``rated.SystemRateResult``), and ``outputs.write_system_outputs`` writes its files."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import numpy as np
import pandas as pd

from rating_batch.assemble import assemble_period, list_identities, period_people
from rating_batch.errors import Issue, raise_if_errors
from rating_batch.identity import find_rows, id_form_issues, written_id
from rating_batch.loaders.common import time_control_minutes
from rating_batch.periods import period_of
from rating_batch.pipelines.rated import SystemRateResult
from rating_batch.pipelines.state.states import read_system_list
from rating_batch.schema import Event, EventInfo
from rating_batch.systems.base import (
    StateSystem,
    SystemInput,
    rate_finite,
    rating_order,
)
from rating_batch.systems.elo.rules import LATEST
from rating_batch.systems.elo.rules_file import named_rules
from rating_batch.systems.games import PlayedGames


def event_facts(infos: Sequence[EventInfo]) -> pd.DataFrame:
    """``SystemInput.facts``: each event's key, dates, rounds' dates and time control, in the
    given order, and its minutes (main time + increment; NaN where unreadable)."""
    facts = pd.DataFrame(
        {
            "key": [info.key for info in infos],
            "start": [info.start for info in infos],
            "end": [info.end for info in infos],
            "time_control": [info.time_control_code or info.time_control for info in infos],
            "round_dates": [info.round_dates for info in infos],
        },
        dtype=object,
    )
    minutes = [time_control_minutes(info.time_control_code, info.time_control) for info in infos]
    facts["minutes"] = pd.Series([np.nan if m is None else m for m in minutes], dtype="float64")
    return facts


def rate_with_system(
    events: list[Event],
    issues: list[Issue],
    system: StateSystem,
    list_path: Path | None,
    overlaps: list[Issue],
    encoding: str | None = None,
    kind: str | None = None,
) -> SystemRateResult:
    """Rate loaded events as one period under ``system`` (``encoding``: the list's, when it
    is not UTF-8) for the list ``kind``."""
    raise_if_errors(overlaps)
    ordered = rating_order(events, system.by_start)
    rank = pd.Series(range(len(ordered)), index=[event.info.key for event in ordered])
    # Identities and the list's calendar only: no Elo number is used.
    elo = replace(named_rules(LATEST), **system.calendar)
    period = assemble_period(events, elo)
    raise_if_errors(period.issues)
    players = period.players.reset_index(drop=True)
    facts = event_facts([event.info for event in ordered])
    listed = (
        None
        if list_path is None
        else read_system_list(system, list_path, encoding).reset_index(drop=True)
    )
    state = pd.DataFrame({c: pd.Series(pd.NA, index=players.index, dtype=d)
                          for c, d in system.state.items()})  # fmt: skip
    notes: list[str] = []
    found_by: list[Issue] = []
    people = period_people(events).reindex(players["id"]).reset_index(names="public_id")
    national = file_ids(people)
    if listed is not None:
        # The list's rows as add finds the database's players (identity.find_rows).
        rows, errors, found_by = find_rows(people, list_identities(listed), "the list")
        found_by += id_form_issues(people, system.national_id)
        raise_if_errors(errors)
        if system.lists_everyone(facts):
            players, rows = with_listed(players, listed, rows)
            state = state.reindex(players.index)
        found = listed.reindex(rows)
        if "national_id" in found:  # the list's id is the one a database keeps (§11.1)
            kept = written_id(found["national_id"]).reset_index(drop=True)
            national = kept.fillna(national.reindex(kept.index))
        for column in system.state:
            # The system's dtype kept: a "string" column read back as object would count
            # as a number, and a rated player without last_period would show as new.
            state[column] = pd.Series(found[column].to_numpy(), dtype=system.state[column])
        if system.birth_from_list:
            players["birth_year"] = birth_years(players["birth_year"], found).to_numpy()
        notes.append(f"states from the list {list_path}; players not on it start as unrated")
    elif system.seeds_from_file:
        seeded = system.from_elo(players["rating"].reset_index(drop=True))
        for column in system.state:
            state[column] = seeded[column].to_numpy()
        notes.append(
            "no previous list given: each player starts from the rating written in their "
            f"event file ({system.from_elo_note})"
        )
    else:
        notes.append("no previous list given: every player starts as unrated")
    ends = [event.info.end or event.info.start for event in events]
    known = [date for date in ends if date is not None]
    label = period_of(elo, max(known)) if known else None
    outcome = rate_finite(
        system,
        SystemInput(
            players=players,
            state=state,
            games=PlayedGames.of(period.games, rank, len(players)),
            events=[event.info.key for event in ordered],
            period=label,
            year=label.year if label else None,
            facts=facts,
            kind=kind,
        ),
    )
    notes += outcome.notes
    outcome = replace(outcome, players=with_identity(outcome.players, players, national))
    if label:
        notes.append(f"the games go into the list of {label}")
    warnings = [*issues, *overlaps, *period.issues, *found_by]
    infos = [event.info for event in period.events]
    return SystemRateResult(system, outcome, period.games, infos, notes, warnings)


def file_ids(people: pd.DataFrame) -> pd.Series:
    """Each player's national id as his event file gives it (NA: none), indexed 0, 1, …"""
    given = people.get("national_id", pd.Series(pd.NA, index=people.index))
    return written_id(pd.Series(given)).reset_index(drop=True)


def with_identity(out: pd.DataFrame, players: pd.DataFrame, national: pd.Series) -> pd.DataFrame:
    """players.csv with what the next list finds each player by (docs/formats.md §11: the
    file renamed is the next period's list, and §11.1): ``national_id`` (when any player
    has one: the list's, else his file's) and ``birth_year``, after ``score``.
    ``national`` is per ``players`` row (0, 1, …)."""
    out = out.copy()
    # Each row's player by id (unique in a period), whatever order the system writes.
    at = pd.Index(players["id"].astype(str)).get_indexer(pd.Index(out["id"].astype(str)))
    # After score: loaders/kinds.py knows players.csv by the columns before it.
    columns = list(out.columns)
    where = columns.index("score") + 1 if "score" in columns else len(columns)
    ids = national.reindex(at)
    if "national_id" not in out and ids.notna().any():
        out.insert(where, "national_id", ids.to_numpy())
        where += 1
    if "birth_year" not in out:
        years = pd.to_numeric(players["birth_year"], errors="coerce").astype("Int64")
        out.insert(where, "birth_year", years.reset_index(drop=True).reindex(at).to_numpy())
    return out
    if "birth_year" not in out:
        columns = list(out.columns)
        where = columns.index("federation") + 1 if "federation" in columns else len(columns)
        years = pd.to_numeric(players["birth_year"], errors="coerce").astype("Int64")
        out.insert(where, "birth_year", years.to_numpy())
    ids = national.reindex(range(len(out)))
    if "national_id" not in out and ids.notna().any():
        out.insert(1, "national_id", ids.to_numpy())
    return out


def birth_years(in_files: pd.Series, found: pd.DataFrame) -> pd.Series:
    """Per player (``in_files``' order, indexed 0, 1, …) the list's birth year where
    ``found`` (the list's rows in that order) gives one, else the event file's
    (docs/systems.md §10.1)."""
    files = in_files.astype("Int64").reset_index(drop=True)
    if "birth_year" not in found:
        return files.rename(None)
    listed = pd.to_numeric(found["birth_year"], errors="coerce").astype("Int64")
    return listed.reset_index(drop=True).fillna(files).rename(None)


def with_listed(
    players: pd.DataFrame, listed: pd.DataFrame, rows: np.ndarray
) -> tuple[pd.DataFrame, np.ndarray]:
    """``players`` and, after them, each row of ``listed`` (a state list) that no player is
    (``rows``: each player's row, -1 none), with the list's id, name, federation and birth
    year (a system whose ``lists_everyone`` is true: every state of the list changes); and
    the rows of them all."""
    absent = np.setdiff1d(np.arange(len(listed)), rows)
    extra = pd.DataFrame({"id": listed["id"].to_numpy(dtype=object)[absent]})
    for column in ("name", "federation", "birth_year"):
        extra[column] = listed[column].to_numpy()[absent] if column in listed else None
    extra["name"] = extra["name"].fillna("")
    extra["birth_year"] = pd.to_numeric(extra["birth_year"], errors="coerce")
    extra = extra.reindex(columns=players.columns)
    for name, dtype in players.dtypes.items():
        if isinstance(dtype, np.dtype) and dtype.kind in "iub":  # no NA: none, 0 events
            extra[name] = extra[name].fillna(0)
    extra = extra.astype(players.dtypes.to_dict())
    together = pd.concat([players, extra], ignore_index=True)
    return together, np.concatenate([rows, absent])
