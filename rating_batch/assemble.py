"""Assemble one rating period from loaded events and an optional previous list (pure).

Identity: a player is their FIDE ID when the file gives one, else ``<event>#<start rank>``; a
FIDE ID under two names (spelling aside) in two files is a warning naming both.
Ratings (docs/rules.md §1, §2.6): with a list, every game uses the list's rating; without
one, each game uses the rating written in its own event, and the rating the period change is
added to is the one in the player's latest-starting event.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import cast

import numpy as np
import pandas as pd

from rating_batch.errors import (
    Issue,
    RatingBatchError,
)
from rating_batch.identity import find_rows
from rating_batch.loaders.common import time_control_minutes
from rating_batch.names import fide_id_conflicts
from rating_batch.periods import FIRST_YEAR, LAST_YEAR, period_of
from rating_batch.schema import IDENTITY_KEY, Event, combined, conform
from rating_batch.systems.base import StateSystem
from rating_batch.systems.elo.engine import PERIOD_GAMES, PERIOD_PLAYERS, in_run_order
from rating_batch.systems.elo.k import as_new_players, junior_year
from rating_batch.systems.elo.rules import KINDS, Kind, Rules

#: Columns a previous rating list may give (``id`` and ``rating`` required).
LIST_COLUMNS: dict[str, str] = {
    "id": "Int64",
    "rating": "Int64",
    "k": "Int64",
    "birth_year": "Int64",
    "games_total": "Int64",
    "ever_2400": "boolean",
    "ever_2300": "boolean",
}


@dataclass(frozen=True)
class Period:
    """The engine's input for one period, with the issues found while assembling it."""

    players: pd.DataFrame
    games: pd.DataFrame
    events: list[Event]
    year: int | None
    issues: list[Issue] = field(default_factory=list)


def order_events(events: Sequence[Event]) -> list[Event]:
    """Events by start date (unknown dates last), keeping the given order on ties."""
    return sorted(events, key=lambda event: event.info.start or dt.date.max)


def period_year(events: Sequence[Event], rules: Rules) -> int | None:
    """The year the period's juniors are judged against (docs/rules.md §3): the events are
    the list period of their latest end (or start) date, as ``publish`` would rate them."""
    dates = [event.info.end or event.info.start for event in events]
    known = [date for date in dates if date is not None]
    if not known:
        return None
    latest = max(known)
    period = period_of(rules, latest) if FIRST_YEAR <= latest.year < LAST_YEAR else None
    return junior_year(rules, period, latest)


def assemble_period(
    events: Sequence[Event], rules: Rules, rating_list: pd.DataFrame | None = None
) -> Period:
    """Build PERIOD_PLAYERS and PERIOD_GAMES frames for ``rate_period``.

    ``rating_list`` has the columns of ``LIST_COLUMNS`` (``id`` = FIDE ID); a flag named
    ``ever_<threshold>`` is used when the rules' threshold has one.
    """
    ordered = order_events(events)
    issues: list[Issue] = []
    order = {event.info.key: index for index, event in enumerate(ordered)}
    players = event_players(events, order)
    twice = players[
        players.duplicated(["event", "fide_id"], keep=False) & players["fide_id"].notna()
    ]
    for source, line, fide_id in zip(
        twice["source"].tolist(), twice["line"].tolist(), twice["fide_id"].tolist(), strict=True
    ):
        issues.append(Issue(source, line, f"FIDE ID {fide_id} appears more than once in this file"))
    # One FIDE ID under two names in two files: one player, but perhaps two people (a typo
    # in an ID): said, as ``add`` says it (monthly/identify.py).
    with_id = players[players["fide_id"].notna()]
    issues += fide_id_conflicts(
        with_id,
        with_id.drop_duplicates("fide_id", keep="last"),
        "the latest-starting event's name is used",
    )

    latest = players.drop_duplicates("id", keep="last")  # players are in event order
    people = latest.set_index("id")
    people["events"] = players.groupby("id")["event"].nunique()
    for column in ("k", "games_total", "ever_high", "ever_junior_ceiling"):
        people[column] = pd.NA
    people["rating_source"] = "file"
    if rating_list is not None:
        people, notes = _apply_list(people, rating_list, rules)
        issues.extend(notes)
    people = people.reset_index()
    table = conform(people, PERIOD_PLAYERS)
    pidx = pd.Series(np.arange(len(table)), index=table["id"])

    games = with_event_order(combined(events, "games"), order)  # in_run_order sorts them
    keyed = players.set_index(["event", "player"])
    own = pd.MultiIndex.from_frame(games[["event", "player"]])
    against = pd.MultiIndex.from_arrays([games["event"], games["opponent"].fillna(-1)])
    games["id"] = keyed["id"].reindex(own).to_numpy()
    games["opponent_id"] = keyed["id"].reindex(against).to_numpy()
    games["pidx"] = pidx.reindex(games["id"]).to_numpy()
    games["oidx"] = pidx.reindex(games["opponent_id"]).fillna(-1).to_numpy()
    if rating_list is None:
        games["rating"] = keyed["rating"].reindex(own).to_numpy()
        games["opponent_rating"] = keyed["rating"].reindex(against).to_numpy()
    else:
        by_id = table.set_index("id")["rating"]
        games["rating"] = by_id.reindex(games["id"]).to_numpy()
        games["opponent_rating"] = by_id.reindex(games["opponent_id"]).to_numpy()
    games = in_run_order(conform(games, PERIOD_GAMES), len(table))
    return Period(table, games, ordered, period_year(ordered, rules), issues)


def event_players(events: Sequence[Event], order: dict[str, int]) -> pd.DataFrame:
    """The events' player rows in ``order`` (event key → place), each with its ``id``: the
    FIDE ID, else ``<event>#<start rank>``."""
    players = in_event_order(combined(events, "players"), order)
    players["id"] = (
        players["fide_id"]
        .astype("string")
        .where(
            players["fide_id"].notna(),
            players["event"] + "#" + players["player"].astype("string"),
        )
    )
    return players


def period_people(events: Sequence[Event]) -> pd.DataFrame:
    """Each person of the period once, as ``assemble_period`` takes him (his row of the
    latest-starting event), indexed by ``id``: what ``identity.find_rows`` needs."""
    ordered = order_events(events)
    order = {event.info.key: index for index, event in enumerate(ordered)}
    return event_players(events, order).drop_duplicates("id", keep="last").set_index("id")


def with_event_order(frame: pd.DataFrame, order: dict[str, int]) -> pd.DataFrame:
    """A frame of several events with each row's ``event_order``."""
    return frame.assign(event_order=frame["event"].map(order).astype("int64"))


def in_event_order(frame: pd.DataFrame, order: dict[str, int]) -> pd.DataFrame:
    """A frame of several events with an ``event_order`` column, its rows in that order (the
    rows of each event keep theirs): as if the events' frames were joined in that order."""
    frame = with_event_order(frame, order)
    rank = frame["event_order"].to_numpy()
    if len(rank) and (np.diff(rank) < 0).any():
        frame = frame.iloc[np.argsort(rank, kind="stable")].reset_index(drop=True)
    return frame


def _list_rows(people: pd.DataFrame, listed: pd.DataFrame) -> tuple[np.ndarray, list[Issue]]:
    """Each player's row of the list (-1: none), by the one rule ``add`` finds a database's
    players by (``identity.find_rows``: FIDE ID, else national id, else the id our lists
    give, else exact name, birth year and federation); a player matching two rows is an
    error naming them, a near match a warning."""
    seekers = people.reset_index(names="public_id")
    rows, errors, warnings = find_rows(seekers, list_identities(listed), "the list")
    return rows, errors + warnings


def list_identities(listed: pd.DataFrame) -> pd.DataFrame:
    """A list's rows as ``identity.find_rows`` knows them: the FIDE ID (a numeric id), the
    public id (the id our lists give a player without one), the national id, the identity
    columns and the row's label (``list row 6``)."""
    ids = listed["id"].astype("string")
    numeric = ids.str.fullmatch(r"\d{1,12}").fillna(False).to_numpy(bool)
    own = listed["own_id"] if "own_id" in listed else ids.where(~numeric)
    known = pd.DataFrame(
        {
            "fide_id": pd.to_numeric(ids.where(numeric), errors="coerce").astype("Int64"),
            "public_id": own.astype("string").to_numpy(),
            "national_id": listed["national_id"].to_numpy() if "national_id" in listed else pd.NA,
            "label": "list row " + listed["line"].astype("string"),
        }
    )
    for column in IDENTITY_KEY:
        known[column] = listed[column].to_numpy() if column in listed else pd.NA
    return known


def unlisted_first(frame: pd.DataFrame, used: str) -> pd.DataFrame:
    """Rows whose file rating differs from the list, those not on the list (``used`` NA)
    first, each group in its own order: their file's rating is not used at all (§1)."""
    return frame.iloc[np.argsort(frame[used].notna().to_numpy(bool), kind="stable")]


def rating_example(name: object, in_file: int, used: int | None) -> str:
    """A file's rating beside the list's, which is used (§1): ``A (1650 in the file, 1600 on
    the list)``; a player not on the list is unrated, whatever the file says."""
    listed = "not on the list: unrated" if used is None else f"{used} on the list"
    return f"{name} ({in_file} in the file, {listed})"


def _apply_list(
    people: pd.DataFrame, rating_list: pd.DataFrame, rules: Rules
) -> tuple[pd.DataFrame, list[Issue]]:
    """Take rating, K, history and birth year from the previous list (``_list_rows``)."""
    listed = rating_list.reset_index(drop=True)
    rows, issues = _list_rows(people, listed)

    def take(column: str) -> pd.Series:
        """Each player's value of a list column (NA: not on the list)."""
        return pd.Series(listed[column].reindex(rows).to_numpy(), index=people.index)

    file_rating = people["rating"]
    people = people.copy()
    people["rating"] = take("rating").astype("Int64")
    people["rating_source"] = "list"
    differs = file_rating.notna() & (file_rating != people["rating"]).fillna(True)
    if differs.any():
        shown = unlisted_first(people[differs].assign(in_file=file_rating[differs]), "rating")
        examples = ", ".join(
            rating_example(name, int(before), None if pd.isna(after) else int(after))
            for name, before, after in zip(
                shown["name"].tolist()[:3],
                shown["in_file"].tolist()[:3],
                shown["rating"].tolist()[:3],
                strict=True,
            )
        )
        issues.append(
            Issue(
                "--list",
                None,
                f"{int(differs.sum())} players' ratings in the event files differ from the "
                f"list, which is used: {examples}",
                "warning",
            )
        )
    for column, source in (
        ("k", "k"),
        ("games_total", "games_total"),
        ("ever_high", f"ever_{rules.high_threshold}"),
        ("ever_junior_ceiling", f"ever_{rules.junior_ceiling}"),
    ):
        if source in listed:
            people[column] = take(source)
    if "birth_year" in listed:
        people["birth_year"] = take("birth_year").astype("Int64").fillna(people["birth_year"])
    if rules.kind != "standard" and rules.start_from_standard and "standard_rating" in listed:
        # §6: unrated in rapid/blitz but rated in standard: start from the standard rating,
        # with K as for a new player (rule 3.3, uncertain).
        standard = take("standard_rating").astype("Int64")
        start = people["rating"].isna() & standard.notna() & (standard > 0)
        people.loc[start, "rating"] = standard[start]
        people.loc[start, "rating_source"] = "standard"
        as_new_players(people, start)
        if start.any():
            issues.append(
                Issue(
                    "--list",
                    None,
                    f"{int(start.sum())} players unrated in {rules.kind} start from their "
                    "standard rating, with K as for a new player",
                    "warning",
                )
            )
    return people, issues


def choose_kind(
    events: Sequence[Event], kind: str | None, system: StateSystem | None = None
) -> tuple[Kind, list[str]]:
    """The list the events are rated for: ``--kind``, else read from their time controls
    (by ``system.kinds_of`` where it says, docs/systems.md §9.1)."""
    own = _system_kinds(events, system)
    if kind is not None:
        if kind not in KINDS:
            raise RatingBatchError(f"unknown kind {kind!r}: choose one of {', '.join(KINDS)}")
        wrong = [
            f"{key} ({', '.join(rated) or 'not rated'})"
            for key, rated in own.items()
            if rated is not None and kind not in rated
        ]
        if wrong and system is not None:
            raise RatingBatchError(
                f"under {system.name}, the time control of {', '.join(wrong)} does not "
                f"belong to the {kind} list: rate it for its own list"
            )
        unread = [key for key, rated in own.items() if rated is None]
        taken = [f"no readable time control in {', '.join(unread)}: taken as {kind}"]
        return kind, [f"list: {kind} (--kind)", *(taken if unread else [])]
    # Each event's kind: the system's first for its time control, else as read.
    read = {event.info.key: event.info.kind for event in events}
    read.update({key: rated[0] for key, rated in own.items() if rated})
    unrated = [key for key, rated in own.items() if rated == ()]
    if unrated and system is not None:
        raise RatingBatchError(
            f"under {system.name}, {', '.join(unrated)} is not rated: its time control is too "
            "fast for any list"
        )
    kinds = sorted({k for k in read.values() if k is not None})
    if len(kinds) > 1:
        found = ", ".join(f"{key}: {k}" for key, k in read.items() if k is not None)
        raise RatingBatchError(
            f"the events are of different kinds ({found}): rate each kind separately, or pass "
            "--kind to rate them all for one list"
        )
    notes = []
    unread = [key for key, k in read.items() if k is None]
    if not kinds:
        notes.append("list: standard (no readable time control; pass --kind to change it)")
        return "standard", notes
    notes.append(f"list: {kinds[0]} (read from the time control)")
    if unread:
        notes.append(f"no readable time control in {', '.join(unread)}: taken as {kinds[0]}")
    return cast(Kind, kinds[0]), notes  # each a value of KINDS, as the readers give them


def _system_kinds(
    events: Sequence[Event], system: StateSystem | None
) -> dict[str, tuple[str, ...] | None]:
    """Per event the kinds ``system`` rates its time control for (None: unreadable), for a
    system with kinds of its own (one that places an hour's game; none: {})."""
    if system is None or system.kinds_of(60.0) is None:
        return {}
    return {
        event.info.key: system.kinds_of(
            time_control_minutes(event.info.time_control_code, event.info.time_control)
        )
        for event in events
    }


def player_ids(people: pd.DataFrame) -> pd.Series:
    """Each player's public id: the FIDE ID, else ``<event>#<start rank>``."""
    return people["fide_id"].astype("Int64").astype("string").fillna(people["created_by"])
