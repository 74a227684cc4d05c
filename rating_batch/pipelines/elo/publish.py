"""Rating one list kind for a period being published: every game with the ratings of the
list in force at its event's start (§1), K from the previous list, the first-rating pool over
earlier periods (§4, §8), the floor and inactivity, and each player's state for the next list.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd

from rating_batch.assemble import rating_example, unlisted_first
from rating_batch.errors import Issue, RatingBatchError
from rating_batch.parallel import alongside, worth
from rating_batch.periods import (
    INITIAL,
    Period,
    list_before,
    list_date,
    month_count,
    month_index,
    stored_day,
)
from rating_batch.pipelines.changes import edits_since, list_changes
from rating_batch.pipelines.elo.floor import left_without_playing
from rating_batch.pipelines.elo.run import junior_note, uncertain_notes
from rating_batch.pipelines.rated import KindOutcome
from rating_batch.pipelines.seam import RuleBook
from rating_batch.schema import REASON_DTYPE, conform
from rating_batch.store import Store
from rating_batch.systems.elo.adjustment import adjustment_applies, adjustment_note
from rating_batch.systems.elo.engine import PERIOD_GAMES, PERIOD_PLAYERS, rate_period
from rating_batch.systems.elo.k import junior_year, k_in_force
from rating_batch.systems.elo.rules import Rules
from rating_batch.systems.elo.state import EMPTY_STATE, Publication, listing_of, next_state
from rating_batch.validation import overlapping_events

#: Consistency notes name at most this many events each (a month of FIDE files can have
#: thousands made with an old list).
MAX_EVENT_NOTES = 50


def _origin(lists: pd.DataFrame, kind: str, period: Period | None) -> str | None:
    """How the list of ``period`` came: ``init`` (imported) or ``publish`` (None: none)."""
    row = lists[(lists["kind"] == kind) & (lists["period"] == period)]
    return str(row["origin"].iloc[0]) if len(row) else None


def _in_force(
    lists: pd.DataFrame, kind: str, start: dt.date | None, period: Period
) -> Period | None:
    """The list in force at an event's start: the latest one published on or before it (§1)."""
    candidates = sorted(
        p for p in lists[(lists["kind"] == kind) & (lists["period"] < period)]["period"]
    )
    chosen = None
    for candidate in candidates:
        if candidate == INITIAL or start is None or list_date(candidate) <= start:
            chosen = candidate
    return chosen or (candidates[0] if candidates else None)


StateOf = Callable[[str, Period | None], pd.DataFrame]
"""A list's states by kind and period, each read once a command (``_states``)."""


def _states(store: Store) -> StateOf:
    """``read_state`` of ``store``, each list read once: the list in force at the period's
    events is most often the one it follows, already read (0.45 s for 10^5 players)."""
    read: dict[tuple[str, Period | None], pd.DataFrame] = {}

    def state_of(kind: str, period: Period | None) -> pd.DataFrame:
        if (kind, period) not in read:
            read[kind, period] = read_state(store, kind, period)
        return read[kind, period]

    return state_of


def _ratings_at(
    state_of: StateOf,
    lists: pd.DataFrame,
    kind: str,
    start: dt.date | None,
    period: Period,
    from_standard: bool,
) -> pd.Series:
    """Ratings (by player id) of the list in force at ``start``; for rapid and blitz with
    ``from_standard``, a player unrated there starts from their standard rating (§6)."""
    ratings = state_of(kind, _in_force(lists, kind, start, period)).set_index("player_id")["rating"]
    if from_standard:
        standard = state_of("standard", _in_force(lists, "standard", start, period))
        fallback = standard.set_index("player_id")["rating"]
        ratings = ratings.reindex(ratings.index.union(fallback.index))
        ratings = ratings.fillna(fallback.reindex(ratings.index)).astype("Int64")
    return ratings.dropna()


#: What to do about a database whose rows no command of ours could have left.
CHANGED_BY_HAND = (
    " (changed outside rating_batch?): nothing was published; 'rating-batch backups' lists "
    "the copies to restore"
)


def rate_list(store: Store, book: RuleBook, period: Period, kind: str) -> KindOutcome:
    """Rate the period's events of one list kind, and each player's state after it."""
    rules = book.for_period(period).for_kind(kind)
    lists = store.lists()
    previous = list_before(lists, kind, period)
    # The period's games (the largest read) are read beside the others.
    state_of = _states(store)
    with store.reading_aside(lambda other: other.period_games(period, kind)) as stored:
        state = state_of(kind, previous)
        events = store.events(period)
        events = events[events["kind"] == kind].copy()
        # A start the file did not give is NULL, read back as None or, beside dated events,
        # NaN: no date either way (ordered last).
        events["start_date"] = [stored_day(s) for s in events["start"]]
        events = events.sort_values(
            ["start", "event_id"], na_position="last", kind="stable"
        ).reset_index(drop=True)
        people = store.players()
        entries = store.period_entries(period, kind)
        games = stored.result()
    # Everyone with a state or a game this period; a player of an entry the database no
    # longer has (deleted by hand) has no identity to rate under: refused, as the store
    # would refuse his row.
    entered = entries["player_id"].unique()
    if not np.isin(entered, people["player_id"].to_numpy()).all():
        raise RatingBatchError(
            f"the database holds games of {period} of an unknown player{CHANGED_BY_HAND}"
        )
    ids = sorted(set(state["player_id"]) | set(entered))
    table = pd.DataFrame({"player_id": ids}).merge(people, on="player_id", how="left")
    table = table.merge(state, on="player_id", how="left")
    table["id"] = np.where(
        table["fide_id"].notna(),
        table["fide_id"].astype("Int64").astype("string"),
        table["created_by"],
    )
    # A K this tool derived for its own list from a birth year corrected since is derived
    # again (docs/rules.md §3); the list's other K's are taken as it gives them.
    edits = edits_since(store, previous, kind)
    corrected = table["player_id"].isin(edits.loc[edits["field"] == "birth_year", "player_id"])
    derived = _origin(lists, kind, previous) == "publish"
    listed_k = table["k"].astype("Int64")
    table["k"] = k_in_force(listed_k, corrected, derived=derived)
    again = int((listed_k.notna() & table["k"].isna()).sum())
    counts = entries.groupby("player_id")["event_id"].nunique()
    table["events"] = table["player_id"].map(counts).fillna(0).astype("int64")
    from_standard = kind != "standard" and rules.start_from_standard
    table["rating_source"] = "list"
    notes: list[str] = []
    if again:
        notes.append(
            f"K derived again for {again} player(s) whose birth year was corrected after the "
            f"{previous} list: its K was rating_batch's own, derived from the birth year before "
            "(docs/rules.md §3)"
        )
    if from_standard:
        # §6: unrated in this list but rated in standard: start from the standard rating,
        # with K as for a new player (rule 3.3, uncertain).
        standard = state_of("standard", list_before(lists, "standard", period))
        start = table["player_id"].map(standard.set_index("player_id")["rating"]).astype("Int64")
        starting = (
            table["rating"].isna() & start.notna() & table["player_id"].isin(entries["player_id"])
        )
        table.loc[starting, "rating"] = start[starting]
        table.loc[starting, "rating_source"] = "standard"
        table.loc[starting, "games_total"] = 0
        table.loc[starting, "k"] = pd.NA
        if starting.any():
            notes.append(
                f"{int(starting.sum())} players unrated in {kind} start from their standard rating"
            )
    table["ever_high"] = (table["peak"] >= rules.high_threshold).astype("boolean")
    table["ever_junior_ceiling"] = (table["peak"] >= rules.junior_ceiling).astype("boolean")
    if from_standard:
        # No history in this list: the borrowed rating says nothing of 2400 or 2300 reached.
        table.loc[starting, ["ever_high", "ever_junior_ceiling"]] = False
    table["first_event_done"] = table["first_event_done"].fillna(0).astype(bool)
    pidx = pd.Series(np.arange(len(table)), index=table["player_id"])
    players = conform(table.assign(fide_id=table["fide_id"].astype("Int64")), PERIOD_PLAYERS)
    players["first_event_done"] = table["first_event_done"].to_numpy()

    frame = _period_games(
        state_of, events, entries, games, lists, kind, period, table, pidx, from_standard
    )
    # What the files say that disagrees is looked for on the second core meanwhile.
    with alongside(
        lambda: consistency_notes(entries, frame, table, events), worth=worth(len(frame))
    ) as checking:
        prior, pool_reset = _prior_pool(store, kind, previous, period, rules, table, pidx)
        event_rules = {
            key: book.for_date(start).for_kind(kind)
            for key, start in zip(events["key"], events["start_date"], strict=True)
        }
        event_starts = dict(zip(events["key"], events["start_date"], strict=True))
        # Juniors are judged by the period's year (§3): as the rules say, its closing date's
        # or its events' latest end date's.
        ends = [
            stored_day(end) or stored_day(start)
            for end, start in zip(events["end"], events["start"], strict=True)
        ]
        latest = max((day for day in ends if day), default=None)
        year = junior_year(rules, period, latest)
        adjust = adjustment_applies(rules, previous, period)
        result = rate_period(
            players, frame, rules, event_rules=event_rules, event_starts=event_starts,
            period_year=year, prior=prior, adjust=adjust,
        )  # fmt: skip
        event_ids = dict(zip(events["key"], events["event_id"], strict=True))
        new_state, pending, state_notes = next_state(
            Publication(
                result, table, prior, frame, rules, period, kind, pool_reset, event_ids, adjust
            )
        )
        listing = listing_of(new_state, table, rules)
        changes = list_changes(
            state,
            new_state,
            table,
            pd.DataFrame(
                {
                    "player_id": table["player_id"].to_numpy(),
                    "status": result.players["status"].to_numpy(),
                    "new_rating": result.players["new_rating"].to_numpy(),
                    "rating_source": result.players["rating_source"].to_numpy(),
                    "adjustment": result.players.get("adjustment", pd.Series(dtype="Int64"))
                    .reindex(result.players.index)
                    .to_numpy(),
                }
            ),
            edits,
        )
        pooled = _pooled_games(store, kind, previous, prior, table)
        notes = [*notes, junior_note(rules, year), *state_notes, *result.notes]
        if adjust:
            notes.append(adjustment_note(rules, previous, result.players))
        notes += uncertain_notes(rules)
        disagreements = checking.result()
    if previous is None:
        notes.append(f"no earlier {kind} list: every player starts unrated")
    source_of = dict(zip(events["key"], events["source"], strict=True))
    warnings = [
        Issue(
            source_of[key] if key is not None else f"the {kind} list of {period}",
            None,
            note.removeprefix(f"{key}: "),
            "warning",
        )
        for key, note in disagreements
    ] + left_without_playing(result.players, kind, period, previous, rules)
    return KindOutcome(
        kind, rules, result, new_state, pending, listing, pooled, events, notes, changes,
        warnings, previous, _entrants(entries, events, table), period, state,
    )  # fmt: skip


def _entrants(entries: pd.DataFrame, events: pd.DataFrame, table: pd.DataFrame) -> pd.DataFrame:
    """The period's event players as their files list them, for the event pages."""
    fide = table.set_index("player_id")["fide_id"].astype("Int64")
    return pd.DataFrame(
        {
            "event": entries["event_id"].map(events.set_index("event_id")["key"]),
            "player": entries["start_rank"].astype("int64"),
            "fide_id": entries["player_id"].map(fide).astype("Int64"),
            "name": entries["name"],
            "federation": entries["federation"],
            "title": entries["title"],
            "rank": entries["final_rank"].astype("Int64"),
            # The file's sex, else the database's: the norms a player seeks (WGM, WIM).
            "sex": entries["sex"].fillna(
                entries["player_id"].map(table.set_index("player_id")["sex"])
            ),
        }
    )


def consistency_notes(
    entries: pd.DataFrame, frame: pd.DataFrame, table: pd.DataFrame, events: pd.DataFrame
) -> list[tuple[str | None, str]]:
    """What the period's files say that disagrees, as (the event it is about, note): ratings
    written in a file that differ from the list in force (the list is used), one player with
    different ratings in the files of the period, and two events that share most of their
    games (added with ``--allow-overlap``)."""
    notes: list[tuple[str | None, str]] = []
    key_of = dict(zip(events["event_id"], events["key"], strict=True))
    names = table.set_index("player_id")["name"]
    written = entries.assign(event=entries["event_id"].map(key_of))
    # The rating each entry was rated with (its first game's), found by one integer an
    # entry, (event, start rank), rather than by drop_duplicates and a MultiIndex of texts.
    codes, keys = pd.factorize(frame["event"])
    ranks = frame["player"].to_numpy(np.int64)
    width = max(ranks.max(initial=0), written["start_rank"].to_numpy(np.int64).max(initial=0)) + 1
    rated_with = pd.Index(codes * width + ranks)
    firsts = np.flatnonzero(~rated_with.duplicated())
    at = pd.Index(keys).get_indexer(written["event"])
    wanted = np.where(at < 0, -1, at * width + written["start_rank"].to_numpy(np.int64))
    found = rated_with[firsts].get_indexer(wanted)
    written["used"] = (
        frame["rating"].array.take(np.where(found < 0, -1, firsts[found]), allow_fill=True)
    ).to_numpy()
    differ = written[
        written["rating_in_file"].notna()
        & (written["rating_in_file"].astype("Int64") != written["used"].astype("Int64")).fillna(
            True
        )
    ]
    # One note per event (its first three players, those not on the list first: their
    # file's rating is not used at all), for the first MAX_EVENT_NOTES events.
    counts = differ.groupby("event", sort=True).size()
    shown_events = counts.index[:MAX_EVENT_NOTES]
    examples: dict[str, list[str]] = {}
    heads = unlisted_first(differ[differ["event"].isin(shown_events)], "used")
    heads = heads.groupby("event", sort=True).head(3)
    for event, player_id, in_file, used_rating in zip(
        heads["event"].tolist(),
        heads["player_id"].tolist(),
        heads["rating_in_file"].tolist(),
        heads["used"].tolist(),
        strict=True,
    ):
        examples.setdefault(str(event), []).append(
            rating_example(
                names.get(player_id, "?"),
                int(in_file),
                None if pd.isna(used_rating) else int(used_rating),
            )
        )
    for event in shown_events:
        notes.append(
            (
                str(event),
                f"{event}: {counts[event]} rating(s) in the file differ from the list in force, "
                f"which is used: {', '.join(examples[str(event)])}",
            )
        )
    if len(counts) > MAX_EVENT_NOTES:
        notes.append(
            (
                None,
                f"… and {len(counts) - MAX_EVENT_NOTES:,} more events whose files give ratings "
                "that differ from the list in force "
                f"({int(counts.iloc[MAX_EVENT_NOTES:].sum()):,} ratings)",
            )
        )
    ratings = (
        written.dropna(subset=["rating_in_file"]).groupby("player_id")["rating_in_file"].nunique()
    )
    for player_id in ratings[ratings > 1].index.tolist()[:20]:
        seen = written[written["player_id"] == player_id][["event", "rating_in_file"]]
        shown = ", ".join(f"{r['rating_in_file']} in {r['event']}" for r in seen.to_dict("records"))
        notes.append(
            (
                None,
                f"{names.get(player_id, '?')} has different ratings in this period's files: "
                f"{shown}",
            )
        )
    played = frame[frame["rated"].to_numpy(bool) & frame["oidx"].ge(0).to_numpy()]
    # Players by their place in the period's table (one a player id, as their public ids
    # are): integers, which overlapping_events hashes far faster than 10^6 texts.
    pairs = overlapping_events(
        pd.DataFrame(
            {
                "event": played["event"].astype(str).to_numpy(),
                "round": played["round"].to_numpy(),
                "player": played["pidx"].to_numpy(np.int64),
                "opponent": played["oidx"].to_numpy(np.int64),
                "score": played["score"].to_numpy(),
            }
        )
    )
    for pair in pairs.to_dict("records"):
        first, second = str(pair["event_x"]), str(pair["event_y"])
        notes.append(
            (
                second,
                f"{first} and {second} share {pair['shared']} identical games: the same "
                "results reported twice? (both are rated as given)",
            )
        )
    return notes


def _period_games(
    state_of: StateOf,
    events: pd.DataFrame,
    entries: pd.DataFrame,
    games: pd.DataFrame,
    lists: pd.DataFrame,
    kind: str,
    period: Period,
    table: pd.DataFrame,
    pidx: pd.Series,
    from_standard: bool,
) -> pd.DataFrame:
    """The engine's games frame: each event's games with the ratings of the list in force at
    its start date (§1), the rows in (event, player) order."""
    # Events share the lists in force (one per start date at most): each is read once, and
    # the entries of all the events using it get their ratings together.
    in_force = {
        start: (
            _in_force(lists, kind, start, period),
            _in_force(lists, "standard", start, period) if from_standard else None,
        )
        for start in dict.fromkeys(events["start_date"])
    }
    users: dict[tuple[Period | None, Period | None], list[Any]] = {}
    first_start: dict[tuple[Period | None, Period | None], dt.date | None] = {}
    for event_id, start in zip(events["event_id"], events["start_date"], strict=True):
        users.setdefault(in_force[start], []).append(event_id)
        first_start.setdefault(in_force[start], start)
    rating_in_event = []
    for lists_used, event_ids in users.items():
        ratings = _ratings_at(state_of, lists, kind, first_start[lists_used], period, from_standard)
        chosen = entries[entries["event_id"].isin(event_ids)][
            ["event_id", "start_rank", "player_id"]
        ]
        rating_in_event.append(
            chosen.assign(rating=chosen["player_id"].map(ratings).astype("Int64"))
        )
    rated = (
        pd.concat(rating_in_event)
        if rating_in_event
        else entries.assign(rating=pd.Series(dtype="Int64"))
    )
    # Each game's entry and its opponent's, found by one integer a row, (event, start rank),
    # and every column taken by position: no merge, no map per column (this function on the
    # 10^6 month: 0.74-1.10 s with two merges and six maps, 0.49-0.58 s so).
    games = games.reset_index(drop=True)
    ranks, own = rated["start_rank"].to_numpy(np.int64), games["start_rank"].to_numpy(np.int64)
    opponent_rank = games["opponent_rank"].to_numpy(np.float64, na_value=np.nan)
    faced = np.where(np.isnan(opponent_rank), -1, opponent_rank).astype(np.int64)
    width = max(ranks.max(initial=0), own.max(initial=0), faced.max(initial=0)) + 1
    entry = pd.Index(rated["event_id"].to_numpy(np.int64) * width + ranks)
    played_in = games["event_id"].to_numpy(np.int64)
    at = entry.get_indexer(played_in * width + own)
    if (at < 0).any():
        raise RatingBatchError(
            f"the database holds games of {period} without their entry{CHANGED_BY_HAND}"
        )
    facing = np.where(faced < 0, -1, entry.get_indexer(played_in * width + faced))
    players = rated["player_id"].to_numpy(np.int64)
    player, opponent = players[at], np.where(facing < 0, -1, players[facing])
    in_table = pd.Index(table["player_id"])
    ids = table["id"].astype(object).to_numpy()
    mine, theirs = in_table.get_indexer(player), in_table.get_indexer(opponent)
    place = pd.Index(pidx.index).get_indexer(np.concatenate([player, opponent]))
    indices = pidx.to_numpy(np.int64)
    event_at = pd.Index(events["event_id"]).get_indexer(played_in)
    rating_of = rated["rating"].astype("Int64").array
    frame = pd.DataFrame(
        {
            "event": events["key"].to_numpy(object)[event_at],
            "event_order": event_at.astype("int64"),
            "round": games["round"],
            "id": np.where(mine < 0, None, ids[mine]),
            "opponent_id": np.where(theirs < 0, None, ids[theirs]),
            "pidx": indices[place[: len(player)]],
            "oidx": np.where(place[len(player) :] < 0, -1, indices[place[len(player) :]]),
            "player": games["start_rank"],
            "opponent": games["opponent_rank"].astype("Int64"),
            "colour": games["colour"],
            "result": games["result"],
            "score": games["score"],
            "rated": games["rated"].astype(bool),
            "reason": pd.Categorical(games["reason"], dtype=REASON_DTYPE),
            "rating": rating_of.take(at, allow_fill=True),
            "opponent_rating": rating_of.take(facing, allow_fill=True),
            "source": events["source"].to_numpy(object)[event_at],
            "line": games["line"],
        }
    )
    rows = np.lexsort(
        (
            frame["round"].to_numpy(np.int64),
            frame["pidx"].to_numpy(np.int64),
            frame["event_order"].to_numpy(np.int64),
        )
    )
    return conform(frame.take(rows).reset_index(drop=True), PERIOD_GAMES)


def _pooled_games(
    store: Store, kind: str, previous: Period | None, prior: pd.DataFrame, table: pd.DataFrame
) -> pd.DataFrame | None:
    """The earlier periods' games still in the pools (``calculations.POOL_COLUMNS``)."""
    if previous is None or not len(prior):
        return None
    games = store.pending_games(kind, previous)
    kept = prior[["player_id", "round", "game_period"]].assign(keep=True)
    games = games.merge(kept, on=["player_id", "round", "game_period"], how="inner")
    public = table.set_index("player_id")
    return pd.DataFrame(
        {
            "id": games["player_id"].map(public["id"]).to_numpy(),
            "event": games["event"].to_numpy(),
            "round": games["round"].to_numpy(),
            "period": games["game_period"].to_numpy(),
            "opponent_id": games["opponent_player"].map(public["id"]).to_numpy(),
            "opponent_name": games["opponent_player"].map(public["name"]).to_numpy(),
            "opponent_rating": games["opponent_rating"].to_numpy(),
            "score": games["half"].to_numpy() / 2,
        }
    )


def _prior_pool(
    store: Store,
    kind: str,
    previous: Period | None,
    period: Period,
    rules: Rules,
    table: pd.DataFrame,
    pidx: pd.Series,
) -> tuple[pd.DataFrame, set[int]]:
    """Pending first-rating games still inside the pool window (§4, §8)."""
    if previous is None:
        return pd.DataFrame(
            {"pidx": [], "opponent_rating": [], "half": [], "player_id": [], "game_period": []}
        ), set()
    pending = store.pending(kind, previous)
    if pending.empty:
        return pending.assign(pidx=pd.Series(dtype="int64")), set()
    reset: set[int] = set()
    now = month_count(period)
    if rules.pool_window == "rolling":
        age = now - month_index(pending["game_period"])
        pending = pending[(age < rules.pool_months).fillna(True).to_numpy(bool)]
    else:
        # Anchored: the window starts at the pool's first game; when it has run out, the
        # whole pool is reset (§8).
        starts = table.set_index("player_id")["pool_start"]
        age = now - month_index(pending["player_id"].map(starts))
        expired = (age >= rules.pool_months).fillna(False).to_numpy(bool)
        reset = set(pending.loc[expired, "player_id"])
        pending = pending[~expired]
    return pending.assign(pidx=pending["player_id"].map(pidx).astype("int64")), reset


def read_state(store: Store, kind: str, period: Period | None) -> pd.DataFrame:
    """Every player's state in ``kind`` as of the list of ``period`` (none: empty)."""
    if period is None:
        return EMPTY_STATE.copy()
    state = store.state(kind, period)
    return state.astype({"rating": "Int64", "k": "Int64", "games_total": "Int64", "peak": "Int64"})
