"""``add``: validate events and store them, each in the rating period of its end date.

Refused, and nothing stored (each with a flag to accept it deliberately where a real case
exists):

* an event already stored (same content, or same name and dates), or given twice;
* an event sharing half or more of its played games with a stored one or another of the same
  ``add`` (``--allow-overlap``): the same results reported twice;
* an event without dates; one ending before the initial list's period, more than 12 months
  away from the database's last list, in the future, or lasting over 60 days
  (``--accept-dates``).

An event ending in a period that is already published goes to the next list, and ``add``
says so on the terminal.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import functools
import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from rating_batch.errors import InputError, Issue, Severity, errors_only, raise_if_errors
from rating_batch.identity import id_form_issues
from rating_batch.inputs import Inputs, distinct_keys, expand_inputs, load_events
from rating_batch.loaders import Progress, no_progress
from rating_batch.loaders.common import time_control_minutes
from rating_batch.monthly.common import MAX_MONTHS_AWAY, iso, placed_period, placement_floor
from rating_batch.monthly.identify import IdentityPlan, plan_identities, store_identities
from rating_batch.parallel import alongside, worth
from rating_batch.periods import (
    FIRST_YEAR,
    INITIAL,
    LAST_YEAR,
    Period,
    months_between,
    period_of,
    round_dates_text,
)
from rating_batch.pipelines.registry import database_system, rule_book
from rating_batch.pipelines.seam import Outcome, RuleBook
from rating_batch.schema import Event, combined
from rating_batch.store import DEFAULT_WAIT, Store, open_store
from rating_batch.validation import meet, overlapping_events


@dataclass(frozen=True)
class AddOptions:
    """What the officer accepts deliberately, and how the command runs."""

    kind: str | None = None
    accept_dates: bool = False
    allow_overlap: bool = False
    dry_run: bool = False
    wait: float = DEFAULT_WAIT
    today: dt.date | None = None
    encoding: str | None = None
    """The encoding of the files that are not UTF-8 (``--encoding``); else found per file."""
    keep_apart: frozenset[int] = frozenset()
    """New FIDE IDs that stay new players, even when a known player without a FIDE ID has
    exactly their name, birth year and federation (monthly/identify.py)."""
    new_only: bool = False
    """Files whose content is stored already are skipped with a line each, not refused
    (``--new-only``: an inbox read again on a schedule)."""


#: What ``add --new-only`` says when every file is stored already.
NOTHING_NEW = "nothing new to add"


@dataclass
class Added(Outcome):
    """What an ``add`` did, and how many events it added and stored files it skipped."""

    added: int = 0
    skipped: int = 0


def add_events(
    paths: Sequence[Path] | Inputs,
    *,
    db: Path,
    options: AddOptions = AddOptions(),
    progress: Progress = no_progress,
) -> Added:
    """Validate and store events, each in the period of its end date; never twice.

    The events of one ``add`` are stored together: players are identified for all of them at
    once and each table gets one bulk insert. ``paths`` may be files and folders, or the
    files a command chose already (``Inputs``: ``month``'s inbox, docs/schedule.md §4)."""
    inputs = paths if isinstance(paths, Inputs) else expand_inputs(paths)
    # The transaction (holding the write lock, recording what it changes) starts before the
    # files are read: two adds at once see each other's events.
    with (
        open_store(
            db, write=True, command="add", wait=options.wait, dry_run=options.dry_run
        ) as store,
        store.writing(dry_run=options.dry_run),
    ):
        book = rule_book(store)
        skipped: list[str] = []
        digests: list[str] | None = None  # each file hashed once
        if options.new_only:
            inputs, digests, skipped = _already_stored(store, inputs, _digests(inputs.files))
            if not inputs.files:
                return Added([*skipped, NOTHING_NEW], list(inputs.issues), skipped=len(skipped))
        events, issues = load_events(
            inputs,
            progress,
            purpose="add",
            accept_dates=options.accept_dates,
            lowest_rating=(book.fixed or book.for_date(None)).rating_min,
            encoding=options.encoding,
        )
        warnings = list(issues)
        digests = _digests(inputs.files) if digests is None else digests
        problems = _refused(store, events, digests)
        raise_if_errors(problems)
        dated = _date_problems(store, book, events, options)
        raise_if_errors(dated)
        warnings += dated
        placed = _placements(store, book, events, options.kind)
        warnings += [issue for place in placed for issue in place.warnings]
        keys = distinct_keys([event.info.key for event in events], store.event_keys())
        first_id = store.next_event_id()
        event_ids = np.arange(first_id, first_id + len(events), dtype=np.int64)
        store.insert_events(
            pd.DataFrame(
                {
                    "event_id": event_ids,
                    "key": keys,
                    "name": [e.info.name for e in events],
                    "source": [e.info.source for e in events],
                    "content_hash": digests,
                    "start": [iso(e.info.start) for e in events],
                    "end": [iso(e.info.end) for e in events],
                    "kind": [p.kind for p in placed],
                    "period": [p.period for p in placed],
                    "format": [e.info.format for e in events],
                    "encoding": [e.info.encoding for e in events],
                    "time_control": [e.info.time_control for e in events],
                    "round_dates": [round_dates_text(e.info.round_dates) for e in events],
                    "federation": [e.info.federation or None for e in events],
                    "city": [e.info.city or None for e in events],
                }
            )
        )
        players = _batch(events, "players", event_ids, keys)
        games = _batch(events, "games", event_ids, keys)
        people, next_id = store.players(), store.next_player_id()
        warnings += id_form_issues(players, database_system(store).national_id)
        stored = _stored_games(store, events, keys)

        def identities_and_repeats() -> tuple[IdentityPlan, list[Issue]]:
            plan = plan_identities(people, players, next_id, options.keep_apart)
            repeats = _overlaps(events, keys, players, games, plan.identified.ids, stored, options)
            return plan, repeats

        # Who is who, and which events repeat others, are worked out on the second core while
        # the games (which need neither) are inserted: an error there rolls the add back.
        with alongside(identities_and_repeats, worth=worth(len(games))) as checking:
            _insert_games(store, games)
            plan, overlaps = checking.result()
        identified = store_identities(store, plan)
        warnings += identified.warnings
        raise_if_errors(overlaps)
        warnings += overlaps
        _insert_entries(store, players, identified.ids)
    created = identified.created.groupby("event_index")["label"].agg(list).to_dict()
    attached = identified.attached.groupby("event_index")["label"].agg(list).to_dict()
    sizes = np.bincount(players["event_index"].to_numpy(np.int64), minlength=len(events))
    verb = "would add" if options.dry_run else "added"
    lines: list[str] = list(skipped)
    for index, (event, key, place) in enumerate(zip(events, keys, placed, strict=True)):
        info = event.info
        unread = " (no readable time control: --kind rapid or blitz for another list)"
        lines.append(
            f"{verb} {key} ({info.name}, {iso(info.start) or 'no start date'}…{iso(info.end)}): "
            f"{place.kind}"
            f"{unread if place.unread else ''}, period {place.period}, {sizes[index]} players"
        )
        lines.extend(f"  new player: {label}" for label in created.get(index, []))
        lines.extend(f"  {label}" for label in attached.get(index, []))
    if options.dry_run:
        lines.append("dry run: nothing was changed")
    elif store.undo_point is not None:
        lines.append(
            f"'rating-batch restore latest' takes this add back (journal entry {store.undo_point})"
        )
    lines += store.notes
    return Added(lines, warnings, added=len(events), skipped=len(skipped))


def _batch(
    events: Sequence[Event], frame: str, event_ids: np.ndarray, keys: Sequence[str]
) -> pd.DataFrame:
    """One frame of every event (``players`` or ``games``), with each row's database event id,
    the event's index in the ``add`` and its stored key."""
    index = {event.info.key: number for number, event in enumerate(events)}
    batch = combined(events, frame)
    # Each distinct key looked up once (a map of 10^6 texts is five times a factorize).
    codes, uniques = pd.factorize(batch["event"].to_numpy(dtype=object))
    position = np.array([index[key] for key in uniques], dtype=np.int64)[codes]
    return batch.assign(
        event_index=position,
        event_id=event_ids[position],
        key=np.array(keys, dtype=object)[position],
    )


def _digests(paths: Sequence[Path]) -> list[str]:
    """Each file's content as the database knows it: its SHA-256."""
    return [hashlib.sha256(path.read_bytes()).hexdigest() for path in paths]


def _already_stored(
    store: Store, inputs: Inputs, digests: list[str]
) -> tuple[Inputs, list[str], list[str]]:
    """``--new-only``: the files whose content (``digests``) is stored already, left out
    with a line each (docs/schedule.md §1); the others and their digests as they were."""
    empty = [None] * len(digests)
    stored = store.event_identities(
        pd.DataFrame({"content_hash": digests, "name": empty, "start": empty, "end": empty})
    )
    by_hash = {
        digest: (key, period)
        for digest, key, period in zip(
            stored["content_hash"], stored["key"], stored["period"], strict=True
        )
    }
    kept: list[Path] = []
    kept_digests: list[str] = []
    lines: list[str] = []
    for path, digest in zip(inputs.files, digests, strict=True):
        found = by_hash.get(digest)
        if found is None:
            kept.append(path)
            kept_digests.append(digest)
        else:
            lines.append(f"skipped {path}: already stored as {found[0]} (period {found[1]})")
    return dataclasses.replace(inputs, files=kept), kept_digests, lines


def _refused(store: Store, events: Sequence[Event], digests: Sequence[str]) -> list[Issue]:
    """Events that cannot be added: already in the database (same content, or same name and
    dates), given twice, or without any date to put them in a period."""
    stored = store.event_identities(
        pd.DataFrame(
            {
                "content_hash": list(digests),
                "name": [event.info.name for event in events],
                "start": [iso(event.info.start) for event in events],
                "end": [iso(event.info.end) for event in events],
            }
        )
    )
    by_hash = {
        h: (k, p)
        for h, k, p in zip(stored["content_hash"], stored["key"], stored["period"], strict=True)
    }
    by_name = {
        (n, s, e): (k, p)
        for n, s, e, k, p in zip(
            stored["name"],
            stored["start"].astype(object).where(stored["start"].notna(), None),
            stored["end"].astype(object).where(stored["end"].notna(), None),
            stored["key"],
            stored["period"],
            strict=True,
        )
    }
    problems: list[Issue] = []
    seen_hash: set[str] = set()
    seen_name: dict[tuple[str, str | None, str | None], str] = {}
    for event, digest in zip(events, digests, strict=True):
        info = event.info
        name = (info.name, iso(info.start), iso(info.end))
        found = by_hash.get(digest) or by_name.get(name)
        if found is not None:
            problems.append(
                Issue(
                    info.source,
                    None,
                    f"already added as {found[0]} (period {found[1]}): an event is never "
                    f"counted twice (a corrected file? 'rating-batch remove {found[0]}' first, "
                    "if its period is not published)",
                )
            )
        elif digest in seen_hash:
            problems.append(Issue(info.source, None, "the same file is given twice"))
        elif name in seen_name and None not in name[1:]:
            problems.append(
                Issue(
                    info.source,
                    None,
                    f"the same event (name and dates) as {seen_name[name]}: "
                    "an event is never counted twice",
                )
            )
        seen_hash.add(digest)
        seen_name.setdefault(name, info.source)
    return problems


def _date_problems(
    store: Store, book: RuleBook, events: Sequence[Event], options: AddOptions
) -> list[Issue]:
    """Dates that are plausible typos: errors, or warnings with ``--accept-dates``."""
    severity: Severity = "warning" if options.accept_dates else "error"
    hint = "" if options.accept_dates else " (--accept-dates adds it anyway)"
    initial = store.initial_period()
    known_initial = initial if initial not in (None, INITIAL) else None
    reference = store.last_published() or known_initial
    today = options.today or dt.date.today()
    current = period_of(book.for_date(today), today)
    # The month's thousands of events end on a few dozen days: each day's period found once.
    period_on = functools.cache(lambda end: period_of(book.for_date(end), end))
    problems = []
    for event in events:
        info = event.info
        end = info.end or info.start
        assert end is not None  # events without dates are refused by validation
        start = info.start or end

        def problem(message: str, source: str = info.source) -> None:
            problems.append(Issue(source, None, message + hint, severity))

        if not FIRST_YEAR <= end.year < LAST_YEAR or not FIRST_YEAR <= start.year < LAST_YEAR:
            problem(f"dated {start}…{end}: not a plausible date")
            continue
        # One problem an event, the likeliest typo first.
        period = period_on(end)
        if end > today + dt.timedelta(days=1):
            problem(f"ends on {end}, in the future (today is {today}): a typo in a date?")
        elif known_initial is not None and period <= known_initial:
            problem(
                f"ended {end}, before the initial list ({known_initial}) was made: its games "
                "should be in that list already"
            )
        elif reference is not None and abs(months_between(reference, period)) > MAX_MONTHS_AWAY:
            problem(
                f"ended {end} (period {period}), more than {MAX_MONTHS_AWAY} months from the "
                f"database's last list ({reference}): a typo in the year?"
            )
        elif reference is None and months_between(period, current) > MAX_MONTHS_AWAY:
            # No list month to measure against (an initial list of unknown month): today's.
            problem(
                f"ended {end} (period {period}), more than {MAX_MONTHS_AWAY} months before "
                f"today ({today}), and the initial list's month is unknown: a typo in the year?"
            )
    return problems


def rated_period(
    store: Store, book: RuleBook, event: Event, options: AddOptions = AddOptions()
) -> Period | None:
    """The list period ``add`` would rate ``event`` in (its end date's, or the next list
    when that one is published already, as ``_placements``), or None when its dates cannot
    be trusted: none, or refused as a likely typo (``_date_problems``). A period's lists of
    every kind are published together, so the kind does not change it."""
    end = event.info.end or event.info.start
    if end is None or errors_only(_date_problems(store, book, [event], options)):
        return None
    return placed_period(book, end, placement_floor(store))[1]


@dataclass(frozen=True)
class Placement:
    """Where an added event goes: its list kind and rating period."""

    kind: str
    period: Period
    warnings: list[Issue]
    unread: bool = False
    """No ``--kind`` and no readable time control: standard, by default (§6)."""


def _placements(
    store: Store, book: RuleBook, events: Sequence[Event], kind: str | None
) -> list[Placement]:
    """Each event's kind and period: that of its end date, or the next list when that
    period is already published or is the initial list's (with a warning printed)."""
    system = database_system(store)
    initial = store.initial_period()
    floor = placement_floor(store)
    lists = store.lists()
    published = set(lists[lists["origin"] == "publish"]["period"])
    # Found once for each end date and time control (a few dozen in a month of thousands).
    kinds = functools.cache(lambda code, text: system.kinds_of(time_control_minutes(code, text)))
    periods = functools.cache(lambda end: placed_period(book, end, floor))
    placed = []
    for event in events:
        info = event.info
        # A system with kinds of its own files an event under its first (§9.1).
        own = kinds(info.time_control_code, info.time_control)
        if own == ():
            fast = f"time control {info.time_control!r}: too fast for any list under "
            raise InputError([Issue(info.source, None, fast + system.name)])
        chosen = kind or (own[0] if own else None) or info.kind or "standard"
        end = info.end or info.start
        assert end is not None  # events without dates are refused by validation
        period, later = periods(end)
        warnings = []
        if later != period:
            if period in published:
                what = "is already published"
            elif initial is not None and period <= initial:
                what = "is the initial list's"
            else:  # passed over by a --skip-to: never published, and never will be
                what = f"a --skip-to left unpublished (the last published list is {floor})"
            warnings.append(
                Issue(
                    info.source,
                    None,
                    f"ended {end}, in period {period}, which {what}: rated in {later} "
                    "(the next list)",
                    "warning",
                )
            )
            period = later
        placed.append(Placement(chosen, period, warnings, unread=kind is None and not info.kind))
    return placed


def _insert_entries(store: Store, players: pd.DataFrame, ids: np.ndarray) -> None:
    """The new events' players, as identified (``ids``)."""
    store.insert_event_players(
        pd.DataFrame(
            {
                "event_id": players["event_id"],
                "start_rank": players["player"],
                "player_id": ids,
                "rating_in_file": players["rating"],
                "line": players["line"],
                **{c: players[c] for c in ("name", "federation", "sex", "title")},
                "birth_year": players["birth_year"],
                "final_rank": players["rank"],
            }
        )
    )


def _insert_games(store: Store, games: pd.DataFrame) -> None:
    """The new events' games (by start rank: they need no identities)."""
    store.insert_games(
        pd.DataFrame(
            {
                "event_id": games["event_id"],
                "round": games["round"],
                "start_rank": games["player"],
                "opponent_rank": games["opponent"],
                "colour": games["colour"],
                "result": games["result"],
                "score": games["score"],
                "rated": games["rated"].astype(np.int64),
                "reason": games["reason"],  # categories or texts: pack reads either
                "line": games["line"],
            }
        )
    )


@dataclass(frozen=True)
class _StoredGames:
    """The stored events the new ones might repeat (``events_to_compare``: dates that meet
    theirs, or the same name) and their games played over the board (``played_games``)."""

    events: pd.DataFrame
    games: pd.DataFrame


def _spans(events: Sequence[Event]) -> tuple[list[str | None], list[str | None]]:
    """Each event's first and last day (ISO; either one for both when only one is known)."""
    starts = [iso(e.info.start or e.info.end) for e in events]
    ends = [iso(e.info.end or e.info.start) for e in events]
    return starts, ends


def _stored_games(store: Store, events: Sequence[Event], keys: Sequence[str]) -> _StoredGames:
    starts, ends = _spans(events)
    # A resend with corrected dates keeps its name and games: events of the same name are
    # compared whatever their dates.
    stored = store.events_to_compare(
        min(s for s in starts if s),
        max(e for e in ends if e),
        sorted({event.info.name for event in events}),
    )
    stored = stored[~stored["key"].isin(keys)]  # the new events are stored already
    return _StoredGames(stored, store.played_games(stored["event_id"].tolist()))


def _overlaps(
    events: Sequence[Event],
    keys: Sequence[str],
    players: pd.DataFrame,
    games: pd.DataFrame,
    ids: np.ndarray,
    known: _StoredGames,
    options: AddOptions,
) -> list[Issue]:
    """New events that share half or more of their played games with a stored event (one
    of ``known``) or with another event of this ``add`` whose dates meet theirs, or of the
    same name whatever the dates (a resend with corrected dates: the message gives both
    events' dates). Pure: no database."""
    who = pd.Series(ids, index=pd.MultiIndex.from_arrays([players["event_id"], players["player"]]))
    # The played games' columns taken alone (the whole frame filtered would copy its texts).
    played = games["rated"].to_numpy(bool) & games["opponent"].notna().to_numpy()
    event_ids = games["event_id"].to_numpy(np.int64)[played]
    mine = who.reindex(
        pd.MultiIndex.from_arrays([event_ids, games["player"].to_numpy(np.int64)[played]])
    )
    theirs = who.reindex(
        pd.MultiIndex.from_arrays(
            [event_ids, games["opponent"].to_numpy(np.int64, na_value=0)[played]]
        )
    )
    new = pd.DataFrame(
        {
            "event": games["key"].to_numpy()[played],
            "round": games["round"].to_numpy()[played],
            "player": mine.to_numpy(),
            "opponent": theirs.to_numpy(),
            "score": games["score"].to_numpy()[played],
        }
    )
    starts, ends = _spans(events)
    stored, old = known.events, known.games
    key_of = dict(zip(stored["event_id"], stored["key"], strict=True))
    old_frame = pd.DataFrame(
        {
            "event": old["event_id"].map(key_of).to_numpy(),
            "round": old["round"].to_numpy(),
            "player": old["player_id"].to_numpy(),
            "opponent": old["opponent_id"].to_numpy(),
            "score": old["score"].to_numpy(),
        }
    )
    spans = pd.concat(
        [
            pd.DataFrame(
                {"event": list(keys), "first": starts, "last": ends,
                 "name": [event.info.name for event in events]}
            ),
            stored.assign(event=stored["key"])[["event", "first", "last", "name"]],
        ]
    ).set_index("event")  # fmt: skip
    pairs = overlapping_events(pd.concat([new, old_frame], ignore_index=True))
    batch = dict(zip(keys, events, strict=True))
    order = {key: number for number, key in enumerate(keys)}
    stored_info = {
        str(key): (str(source), str(period))
        for key, source, period in zip(
            stored["key"], stored["source"], stored["period"], strict=True
        )
    }
    severity: Severity = "warning" if options.allow_overlap else "error"
    hint = "" if options.allow_overlap else "; --allow-overlap adds it anyway"
    problems = []
    for pair in pairs.to_dict("records"):
        x, y = str(pair["event_x"]), str(pair["event_y"])
        # Said of the new event, or of the later of two new ones.
        if x not in batch or (y in batch and order[y] > order[x]):
            x, y = y, x
            pair["played_x"], pair["played_y"] = pair["played_y"], pair["played_x"]
        if x not in batch:
            continue  # two stored events (added with --allow-overlap earlier)
        event = batch[x]
        here, there = spans.loc[x], spans.loc[y]
        when, again = "", "the same results reported twice?"
        if not meet(here["first"], here["last"], there["first"], there["last"]):
            if here["name"] != there["name"]:
                continue  # two matches between the same players, at other dates
            when = f", played {there['first']}…{there['last']}; this file {here['first']}…"
            when += f"{here['last']}"
            again = "the same results reported twice, with corrected dates?"
        if y in batch:
            other = f"{batch[y].info.source} (in this add{when})"
            advice = again
        else:
            source, period = stored_info[y]
            other = f"the stored event {y} (file {source}, period {period}{when})"
            advice = f"{again} If this is a corrected file, 'rating-batch remove {y}' first"
        problems.append(
            Issue(
                event.info.source,
                None,
                f"shares {pair['shared']} of its {pair['played_x']} played games with {other}: "
                f"{advice}{hint}",
                severity,
            )
        )
    return problems
