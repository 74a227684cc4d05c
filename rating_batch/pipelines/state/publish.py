"""``publish`` in a database that rates under another system (docs/systems.md): each list
kind's period rated from the stored games and the previous list's states, the new states
stored (unrounded), and the files written as ``rate`` writes them plus the list.

The order of periods, the staging of files, the files stored for re-publishing and the
one transaction are ``publish``'s own (``monthly/publish.py``); this module rates a kind
and writes its files.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from rating_batch.assemble import player_ids
from rating_batch.errors import Issue, RatingBatchError
from rating_batch.loaders.common import time_control_minutes
from rating_batch.periods import Period, list_before, shown, stored_day, stored_round_dates
from rating_batch.pipelines.outputs import write_system_files
from rating_batch.pipelines.published import list_sheets, write_list
from rating_batch.pipelines.rated import SystemRateResult
from rating_batch.pipelines.state.rate import event_facts
from rating_batch.pipelines.state.states import (
    IDENTITY_COLUMNS,
    numeric_columns,
    read_system_state,
    rounded,
    state_rows,
)
from rating_batch.schema import EventInfo
from rating_batch.staging import OutputSet
from rating_batch.store import Store
from rating_batch.systems.base import LISTED, StateSystem, SystemInput, rate_finite, rating_key
from rating_batch.systems.games import PlayedGames
from rating_batch.systems.params import described
from rating_batch.values import differs

GAME_COLUMNS = [
    "event", "round", "id", "opponent_id", "player", "opponent", "colour", "result", "score",
    "rated", "reason", "rating", "opponent_rating", "source", "line",
]  # fmt: skip


@dataclass
class SystemKindOutcome:
    """One list kind of a period rated under a system."""

    kind: str
    rated: SystemRateResult
    state: pd.DataFrame
    """``system_states`` rows to store (players whose state is new or changed)."""
    listing: pd.DataFrame
    previous: Period | None
    warnings: list[Issue] = field(default_factory=list)
    changes: pd.DataFrame | None = None
    """None: the systems' lists report no changes.csv (docs/systems.md)."""


def rate_system_kind(
    store: Store, system: StateSystem, period: Period, kind: str
) -> SystemKindOutcome:
    """Rate ``kind``'s events of ``period`` from the previous list's states."""
    previous = list_before(store.lists(), kind, period)
    before = read_system_state(store, system, kind, previous)
    events, infos = _events(store, period, kind, system)
    entries = _of_events(store.period_entries, period, events)
    stored = _of_events(store.period_games, period, events)
    ids = sorted(set(before["player_id"]) | set(entries["player_id"]))
    table = pd.DataFrame({"player_id": ids}).merge(store.players(ids), on="player_id", how="left")
    table["id"] = player_ids(table).to_numpy()
    twice = table["id"].duplicated(keep=False)
    if twice.any():
        raise RatingBatchError(
            f"players {', '.join(table['id'][twice].unique()[:5])} share a public id: one "
            "person entered twice, or two people named alike. The way out: rating-batch "
            "remove the event that made the second; give the players of its file their "
            "national ids (or FIDE IDs), or edit-player the database's player (--national-id, "
            "--federation) so that add finds him; then add the event again"
        )
    state = table[["player_id"]].merge(before, on="player_id", how="left")
    games = _games(stored, entries, events, table)
    rank = pd.Series(range(len(events)), index=events["key"].to_numpy())
    # The rating each player's event file gives (his last entry of the period): the FIDE
    # rating a national system reads (docs/systems.md §10.4), as rate reads it.
    in_file = entries.dropna(subset=["rating_in_file"]).drop_duplicates("player_id", keep="last")
    table["rating"] = (
        in_file.set_index("player_id")["rating_in_file"].reindex(table["player_id"]).to_numpy()
    )
    outcome = rate_finite(
        system,
        SystemInput(
            players=table[["id", "name", "federation", "birth_year"]]
            .assign(rating=_file_ratings(entries, events, table))
            .astype({"rating": "Int64"}),
            state=state[list(system.state)].reset_index(drop=True),
            games=PlayedGames.of(games, rank, len(table)),
            events=list(events["key"]),
            period=period,
            year=period.year,
            facts=event_facts(infos),
            kind=kind,
        ),
    )
    players = outcome.players
    player_id = players["id"].map(pd.Series(table["player_id"].to_numpy(), index=table["id"]))
    new = pd.DataFrame({c: players[system.carried_as.get(c, f"new_{c}")] for c in system.state})
    changed = players["games"].to_numpy() > 0
    for column in system.state:
        changed |= differs(new[column], players[column])
    rows = state_rows(system, player_id[changed], new[changed], kind, period)
    notes = [*outcome.notes, f"previous list: {shown(previous) if previous else 'none'}"]
    if not len(events):
        # A month without events is published like any other (docs/systems.md §7); the
        # report says why no calculation follows.
        notes.append(
            f"no {kind} event in {shown(period)}: every state carried over as {system.name} "
            "carries a period without games"
        )
    rated = SystemRateResult(system, outcome, games[GAME_COLUMNS], infos, notes)
    listing = system_listing(system, players, table)
    return SystemKindOutcome(kind, rated, rows, listing, previous)


def system_kinds(system: StateSystem, time_control: object) -> tuple[str, ...]:
    """The kinds ``system`` rates an event of this stored time control for, beyond the
    one it is filed under (US Chess's dual rating, docs/systems.md §9.1)."""
    text = str(time_control or "")
    return system.kinds_of(time_control_minutes("", text)) or ()


def _of_events(
    read: Callable[[Period, str], pd.DataFrame], period: Period, events: pd.DataFrame
) -> pd.DataFrame:
    """The rows ``read`` gives of the period's ``events``, whatever kinds they are filed
    under."""
    parts = [read(period, kind) for kind in sorted(set(events["kind"]))]
    if not parts:
        return read(period, "")
    rows = pd.concat(parts, ignore_index=True) if len(parts) > 1 else parts[0]
    return rows[rows["event_id"].isin(events["event_id"])].reset_index(drop=True)


def _events(
    store: Store, period: Period, kind: str, system: StateSystem
) -> tuple[pd.DataFrame, list[EventInfo]]:
    """The period's events of ``kind`` (filed under it, or rated for it as well by the
    system) in rating order (``rate.rating_key``), as rows and as their facts."""
    by_start = system.by_start
    events = store.events(period)
    also = events["time_control"].map(lambda text: kind in system_kinds(system, text))
    events = events[(events["kind"] == kind) | also.astype(bool)]

    infos = sorted(
        (
            EventInfo(key=str(key), name=str(name), source=str(source), start=stored_day(start),
                      end=stored_day(end), time_control=str(control or ""),
                      round_dates=stored_round_dates(rounds))
            for key, name, source, start, end, control, rounds in zip(
                events["key"], events["name"], events["source"], events["start"],
                events["end"], events["time_control"], events["round_dates"], strict=True,
            )
        ),
        key=lambda info: rating_key(info, by_start),
    )  # fmt: skip
    ordered = events.set_index("key").loc[[info.key for info in infos]].reset_index()
    return ordered, infos


def _file_ratings(entries: pd.DataFrame, events: pd.DataFrame, table: pd.DataFrame) -> np.ndarray:
    """Each player's rating in his last event file of the period (NA: none), as ``rate``
    gives it to a system (US Chess's first rating from a FIDE rating, docs/systems.md §9.4)."""
    place = pd.Series(np.arange(len(events)), index=events["event_id"].to_numpy())
    filed = entries.dropna(subset=["rating_in_file"])
    filed = filed.assign(place=place.reindex(filed["event_id"]).to_numpy())
    last = filed.sort_values("place", kind="stable").groupby("player_id")["rating_in_file"].last()
    return last.reindex(table["player_id"]).astype("Float64").to_numpy()


def _games(
    stored: pd.DataFrame, entries: pd.DataFrame, events: pd.DataFrame, table: pd.DataFrame
) -> pd.DataFrame:
    """The stored games as the systems read them (``PlayedGames.of``) and games.csv shows
    them: both players by start rank, database player and row in ``table``."""
    pidx = pd.Series(np.arange(len(table)), index=table["player_id"].to_numpy())
    public = table["id"].to_numpy(dtype=object)
    seat = entries.set_index(["event_id", "start_rank"])
    me = pd.MultiIndex.from_arrays([stored["event_id"], stored["start_rank"]])
    them = pd.MultiIndex.from_arrays([stored["event_id"], stored["opponent_rank"].fillna(-1)])
    mine = seat["player_id"].reindex(me).to_numpy()
    theirs = seat["player_id"].reindex(them)
    own = pidx.reindex(mine).to_numpy(np.int64)
    other = pidx.reindex(theirs.to_numpy()).fillna(-1).to_numpy(np.int64)
    events_by_id = events.set_index("event_id")
    frame = pd.DataFrame(
        {
            "event": events_by_id["key"].reindex(stored["event_id"]).to_numpy(),
            "round": stored["round"].to_numpy(np.int64),
            "id": public[own],
            "opponent_id": np.where(other >= 0, public[np.maximum(other, 0)], None),
            "player": stored["start_rank"].to_numpy(np.int64),
            "opponent": stored["opponent_rank"].astype("Int64").to_numpy(),
            "colour": stored["colour"].to_numpy(),
            "result": stored["result"].to_numpy(),
            "score": stored["score"].to_numpy(np.float64),
            "rated": stored["rated"].astype(bool).to_numpy(),
            "reason": stored["reason"].to_numpy(),
            "rating": seat["rating_in_file"].reindex(me).astype("Int64").to_numpy(),
            "opponent_rating": seat["rating_in_file"].reindex(them).astype("Int64").to_numpy(),
            "source": events_by_id["source"].reindex(stored["event_id"]).to_numpy(),
            "line": stored["line"].to_numpy(np.int64),
            "pidx": own,
            "oidx": other,
        }
    )
    order = events["key"].reset_index().set_index("key")["index"]
    frame["event_order"] = frame["event"].map(order).to_numpy(np.int64)
    return frame.sort_values(["event_order", "player", "round"], kind="stable").reset_index(
        drop=True
    )


def system_listing(system: StateSystem, players: pd.DataFrame, table: pd.DataFrame) -> pd.DataFrame:
    """list.csv: every player with a state after the period whose status is listed (a
    state kept but not published, as an ECF grade on too few games, is not), best first,
    the published value as ``rating``, each state column rounded as the system publishes
    them, and the columns the system adds (``list_extra``)."""
    has = players[[f"new_{c}" for c in numeric_columns(system)]].notna().all(axis=1)
    has &= players["status"].isin(LISTED)
    listed = players[has.to_numpy(bool)]
    identity = table.set_index("id").reindex(listed["id"].to_numpy())
    frame = pd.DataFrame({"id": listed["id"].to_numpy()})
    for column in IDENTITY_COLUMNS[1:]:
        frame[column] = identity[column].to_numpy() if column in identity else None
    frame["birth_year"] = frame["birth_year"].astype("Int64")
    digits = system.list_digits
    frame["rating"] = rounded(
        listed[system.published].reset_index(drop=True), digits.get("rating", 0)
    ).to_numpy()
    for column in system.state:
        if column == "rating":
            continue
        values = listed[f"new_{column}"].reset_index(drop=True)
        frame[column] = (
            rounded(values, digits[column]).to_numpy() if column in digits else values.to_numpy()
        )
    for column, added in system.list_extra(listed).items():
        frame[column] = added
    frame["games"] = listed["games"].to_numpy(np.int64)
    exact = listed[system.published].to_numpy(np.float64)
    order = np.lexsort((frame["id"].astype(str).to_numpy(), exact if system.lower_is_better
                        else -exact))  # fmt: skip
    return system.list_columns(frame.iloc[order].reset_index(drop=True))


def write_system_kind(
    outcome: SystemKindOutcome, period: Period, out: Path, outputs: OutputSet
) -> list[Path]:
    """One kind's files: the list (list.csv, list.xlsx) and the run's files (report.xlsx
    with the list in it)."""
    folder = out / period / outcome.kind
    system = outcome.rated.system
    title = f"Rating list: {outcome.kind}, {shown(period)}"
    # The line under the title names the rules as under Elo ("rules fide-2025: …") and only
    # the constants a rules file set: every constant on one line (US Chess has 27) made the
    # printed list too wide to read; report.xlsx and index.html list them all.
    given = [f"{k} {v}" for k, v, _ in described(system.params) if k in system.sources]
    details = f"rules {system.name}: {system.title}" + (f"; {', '.join(given)}" if given else "")
    sheets = list_sheets(outcome.listing, title, details, lower_is_better=system.lower_is_better)
    listed = write_list(outcome.listing, sheets, folder, outputs.path)
    heading = f"{system.title}: {outcome.kind}, list of {shown(period)}"
    return [*listed, *write_system_files(outcome.rated, folder, outputs, sheets[:1], heading)]
