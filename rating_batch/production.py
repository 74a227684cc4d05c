"""Monthly list production: ``init``, ``add``, ``publish`` and ``player``.

Joins the loaders, the store, the engine and the writers (as ``pipeline.py`` does for
``rate``). Every command is one database transaction; ``publish`` writes its files to
temporary names, commits, then renames them, so an interrupted run leaves the database as
before and a repeated one reproduces the same files byte for byte.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import hashlib
from collections.abc import Hashable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from rating_batch.engine import (
    PERIOD_GAMES,
    PERIOD_PLAYERS,
    PeriodResult,
    calculation_rows,
    individual_calculations,
    k_factors,
    rate_period,
)
from rating_batch.errors import InputError, Issue, RatingBatchError, RulesError
from rating_batch.loaders import read_rating_list
from rating_batch.pipeline import (
    Progress,
    charts_sheet,
    event_pages,
    expand_inputs,
    load_events,
    no_progress,
    uncertain_notes,
)
from rating_batch.rules import (
    FIDE_BY_DATE,
    KINDS,
    Period,
    Rules,
    edition_in_force,
    is_list_period,
    list_date,
    named_rules,
    next_list_period,
    parse_period,
    parse_rules_text,
    period_name,
    period_of,
)
from rating_batch.schema import REASON_DTYPE, Event, EventInfo, conform
from rating_batch.store import Store
from rating_batch.writers import (
    MAX_DETAIL_ROWS,
    OutputSet,
    Sheet,
    atomic_outputs,
    write_calculations_sheet,
    write_chart_sheet,
    write_csv,
    write_event_html,
    write_list_txt,
    write_workbook,
)

#: A period with more events gets no HTML pages (a federation's month has far fewer).
MAX_EVENT_PAGES = 1_000

INITIAL: Period = "0000-00"
"""The period of an initial list whose month is unknown: in force before every event."""

LIST_COLUMNS = [
    "id", "name", "federation", "sex", "title", "w_title", "o_title", "foa_title",
    "birth_year", "rating", "k", "games", "games_total", "inactive", "class",
]  # fmt: skip


# -- the rules a database was made with ------------------------------------------------------------


@dataclass(frozen=True)
class RuleBook:
    """The rules of a database: FIDE's editions by date, or one fixed rule set."""

    name: str
    fixed: Rules | None

    def for_date(self, on: dt.date | None) -> Rules:
        return self.fixed or edition_in_force(on)

    def for_period(self, period: Period) -> Rules:
        """The rules deciding K, floor and first ratings: in force at the period's list."""
        return self.fixed or edition_in_force(None if period == INITIAL else list_date(period))


def _book(name: str, text: str | None) -> RuleBook:
    if name == FIDE_BY_DATE:
        return RuleBook(name, None)
    if text is not None:
        return RuleBook(name, parse_rules_text(text, Path(name)))
    return RuleBook(name, named_rules(name))


def rule_book(store: Store) -> RuleBook:
    return _book(store.meta("rules") or FIDE_BY_DATE, store.meta("rules_text"))


@contextlib.contextmanager
def _database(path: Path) -> Iterator[Store]:
    with Store.open(path) as store:
        yield store


# -- init ------------------------------------------------------------------------------------------


@dataclass
class InitResult:
    lines: list[str]

    def summary(self) -> str:
        return "\n".join(self.lines)


def init_database(
    list_path: Path,
    *,
    db: Path,
    kind: str | None = None,
    period: str | None = None,
    rules_name: str = FIDE_BY_DATE,
) -> InitResult:
    """Create the database from a rating list (a combined FIDE list fills all three kinds)."""
    text = None
    if rules_name.lower().endswith(".toml"):
        try:
            text = Path(rules_name).read_text(encoding="utf-8")
        except OSError as error:
            raise RulesError(
                f"{rules_name}: cannot read the rules file: {error.strerror}"
            ) from None
    book = _book(rules_name, text)
    rating_list = read_rating_list(list_path, kind=kind or "standard")
    kinds = (kind,) if kind else rating_list.kinds
    if kind and kind not in rating_list.kinds:
        raise InputError([Issue(str(list_path), None, f"the list has no {kind} ratings")])
    if period is not None:
        parse_period(period)
        label = period
    elif rating_list.month is not None:
        label = period_name(*rating_list.month)
    else:
        label = INITIAL
    frame = rating_list.frame
    twice = frame[frame["id"].duplicated(keep=False) & frame["id"].notna()]
    if len(twice):
        raise InputError(
            Issue(rating_list.source, int(line), f"FIDE ID {fide_id} appears more than once")
            for fide_id, line in zip(twice["id"], twice["line"], strict=True)
        )
    notes: list[str] = []
    try:
        with Store.open(db, create=True) as store, store.transaction():
            store.create_schema()
            store.set_meta("rules", rules_name)
            if text is not None:
                store.set_meta("rules_text", text)
            players = pd.DataFrame(
                {
                    "player_id": np.arange(1, len(frame) + 1),
                    "fide_id": frame["id"],
                    **{c: frame[c] for c in ("name", "federation", "sex", "title", "w_title")},
                    **{c: frame[c] for c in ("o_title", "foa_title", "birth_year")},
                    "created_by": "list",
                }
            )
            players["name"] = players["name"].fillna("")
            store.insert("players", players)
            rules = book.for_period(label)
            for each in kinds:
                rows, inferred = _initial_ratings(
                    rating_list.for_kind(each), frame, players, each, label, rules
                )
                store.insert("ratings", rows)
                store.insert(
                    "lists",
                    pd.DataFrame(
                        {
                            "period": [label],
                            "kind": [each],
                            "origin": ["init"],
                            "rules": [rules_name],
                        }
                    ),
                )
                notes.append(f"{each}: {int(rows['rating'].notna().sum())} rated players")
                if inferred:
                    notes.append(
                        f"{each}: {inferred} players with K {rules.k_new} who are neither "
                        "juniors nor "
                        "2400+ are taken to have fewer than 30 games, counted from 0 from now on"
                    )
    except BaseException:
        for suffix in ("", "-wal", "-shm", "-journal"):
            Path(f"{db}{suffix}").unlink(missing_ok=True)
        raise
    shown = "(month unknown: in force before every event)" if label == INITIAL else label
    return InitResult(
        [
            f"created {db} from {list_path}: {len(frame)} players, list {shown}, "
            f"rules {rules_name}",
            *notes,
        ]
    )


def _initial_ratings(
    listed: pd.DataFrame,
    frame: pd.DataFrame,
    players: pd.DataFrame,
    kind: str,
    period: Period,
    rules: Rules,
) -> tuple[pd.DataFrame, int]:
    """One ratings row per player with a rating or a K in this kind."""
    rating = listed["rating"]
    peak = rating.copy()
    for name in listed.columns:
        if name.startswith("ever_"):
            threshold = int(name.split("_")[1])
            reached = listed[name].fillna(False).astype(bool)
            peak = peak.where(~reached | (peak >= threshold), threshold)
    games = frame[f"{kind}_games"].fillna(0).astype("int64")
    games_total = listed["games_total"].copy()
    # K 40 on a FIDE list for a player who is neither junior nor 2400+ means fewer than 30
    # games: count from 0, so that K drops to 20 once 30 games are played here.
    year = list_date(period).year if period != INITIAL else None
    unknown = pd.Series(pd.NA, index=rating.index, dtype="Int64")
    experienced = list_k(rating, listed["birth_year"], unknown, peak, rules, year)
    new = (
        games_total.isna()
        & (listed["k"] == rules.k_new).fillna(False)
        & (experienced != rules.k_new)
    )
    games_total = games_total.mask(new, 0)
    rows = pd.DataFrame(
        {
            "player_id": players["player_id"],
            "kind": kind,
            "period": period,
            "rating": rating,
            "k": listed["k"],
            "games": games,
            "games_total": games_total,
            "peak": peak,
            "last_played": games.gt(0).map({True: period, False: None}),
            "inactive": frame["inactive"].fillna(False).astype(int),
            "first_event_done": 1,
            "pool_start": None,
        }
    )
    keep = (rating.notna() | listed["k"].notna()).to_numpy()
    return rows[keep], int((new & rating.notna()).sum())


# -- add -------------------------------------------------------------------------------------------


@dataclass
class AddResult:
    lines: list[str]
    warnings: list[Issue] = field(default_factory=list)

    def summary(self) -> str:
        shown = [*self.lines]
        if self.warnings:
            shown.append(f"warnings: {len(self.warnings)} (-v prints them)")
        return "\n".join(shown)


def add_events(
    paths: Sequence[Path], *, db: Path, kind: str | None = None, progress: Progress = no_progress
) -> AddResult:
    """Validate and store events, each in the period of its end date; never twice."""
    events, issues = load_events(expand_inputs(paths), progress)
    lines: list[str] = []
    warnings = list(issues)
    with _database(db) as store, store.transaction():
        book = rule_book(store)
        problems: list[Issue] = []
        seen: set[str] = set()
        digests: list[str] = []
        for event in events:
            info = event.info
            digest = hashlib.sha256(Path(info.source).read_bytes()).hexdigest()
            digests.append(digest)
            problems.extend(_duplicate(store, event, digest, seen))
            seen.add(digest)
            end = info.end or info.start
            if end is None:
                problems.append(
                    Issue(
                        info.source,
                        None,
                        "no start or end date (records 042/052, or 132): "
                        "the event cannot be given a rating period",
                    )
                )
        if problems:
            raise InputError(problems)
        known = KnownPlayers.read(store)
        for event, digest in zip(events, digests, strict=True):
            line, new_players, late = _store_event(store, book, event, kind, digest, known)
            warnings.extend(known.warnings)
            known.warnings.clear()
            lines.append(line)
            lines.extend(f"  new player: {name}" for name in new_players)
            warnings.extend(late)
    return AddResult(lines, warnings)


def _duplicate(store: Store, event: Event, digest: str, seen: set[str]) -> list[Issue]:
    info = event.info
    found = store.connection.execute(
        "SELECT key, period FROM events "
        'WHERE content_hash = ? OR (name = ? AND start IS ? AND "end" IS ?)',
        (digest, info.name, _iso(info.start), _iso(info.end)),
    ).fetchone()
    if found is not None:
        return [
            Issue(
                info.source,
                None,
                f"already added as {found[0]} (period {found[1]}): an event is never counted twice",
            )
        ]
    if digest in seen:
        return [Issue(info.source, None, "the same file is given twice")]
    return []


def _iso(date: dt.date | None) -> str | None:
    return None if date is None else date.isoformat()


def _last_published(store: Store, kind: str) -> Period | None:
    row = store.connection.execute(
        "SELECT MAX(period) FROM lists WHERE kind = ? AND origin = 'publish'", (kind,)
    ).fetchone()
    return None if row is None or row[0] is None else str(row[0])


def _store_event(
    store: Store, book: RuleBook, event: Event, kind: str | None, digest: str, known: KnownPlayers
) -> tuple[str, list[str], list[Issue]]:
    info = event.info
    chosen = kind or info.kind or "standard"
    end = info.end or info.start
    assert end is not None  # checked by add_events
    rules = book.for_date(end)
    period = period_of(rules, end)
    warnings = []
    last = _last_published(store, chosen)
    if last is not None and period <= last:
        later = next_list_period(rules, last)
        warnings.append(
            Issue(
                info.source,
                None,
                f"ended {end}, in period {period}, which is already published: "
                f"rated in {later} (the next list)",
                "warning",
            )
        )
        period = later
    key = _unique_key(known.keys, info.key)
    known.keys.add(key)
    cursor = store.connection.execute(
        'INSERT INTO events (key, name, source, content_hash, start, "end", kind, period, format, '
        "encoding, time_control) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            key, info.name, info.source,
            digest,
            _iso(info.start), _iso(info.end), chosen, period, info.format, info.encoding,
            info.time_control,
        ),
    )  # fmt: skip
    event_id = int(cursor.lastrowid or 0)
    key = store.connection.execute(
        "SELECT key FROM events WHERE event_id = ?", (event_id,)
    ).fetchone()[0]
    ids, created = _identify(store, event, key, known)
    store.insert(
        "event_players",
        pd.DataFrame(
            {
                "event_id": event_id,
                "start_rank": event.players["player"],
                "player_id": ids,
                "rating_in_file": event.players["rating"],
                "line": event.players["line"],
            }
        ),
    )
    games = event.games
    store.insert(
        "games",
        pd.DataFrame(
            {
                "event_id": event_id,
                "round": games["round"],
                "start_rank": games["player"],
                "opponent_rank": games["opponent"],
                "colour": games["colour"],
                "result": games["result"],
                "score": games["score"],
                "rated": games["rated"].astype(int),
                "reason": games["reason"].astype("string"),
                "line": games["line"],
            }
        ),
    )
    dates = f"{_iso(info.start)}…{_iso(info.end)}"
    line = f"added {key} ({info.name}, {dates}): {chosen}, period {period}, "
    line += f"{len(event.players)} players"
    return line, created, warnings


def _unique_key(taken: set[str], key: str) -> str:
    """Event keys name events in every report; a second ``open.trf`` becomes ``open-2``."""
    candidate, number = key, 1
    while candidate in taken:
        number += 1
        candidate = f"{key}-{number}"
    return candidate


Identity = tuple[str, int | None, str | None]
"""Exact name, birth year and federation: how a player without a FIDE ID is recognised."""


def _identity(name: object, birth: object, federation: object) -> Identity:
    return (
        str(name),
        None if pd.isna(birth) else int(birth),  # type: ignore[call-overload]
        None if pd.isna(federation) else str(federation),  # type: ignore[call-overload]
    )


@dataclass
class KnownPlayers:
    """The database's players, looked up by FIDE ID and by identity, kept current while an
    ``add`` creates players (read once per command, not once per event)."""

    by_fide: dict[int, int]
    by_identity: dict[Identity, list[tuple[int, int | None]]]
    keys: set[str]
    next_id: int
    birth_years: dict[int, int] = field(default_factory=dict)
    warnings: list[Issue] = field(default_factory=list)

    @classmethod
    def read(cls, store: Store) -> KnownPlayers:
        people = store.players()
        by_fide = {
            int(f): int(p)
            for f, p in zip(people["fide_id"].tolist(), people["player_id"].tolist(), strict=True)
            if pd.notna(f)
        }
        by_identity: dict[Identity, list[tuple[int, int | None]]] = {}
        for row in people[["player_id", "fide_id", "name", "birth_year", "federation"]].to_dict(
            "records"
        ):
            identity = _identity(row["name"], row["birth_year"], row["federation"])
            fide = None if pd.isna(row["fide_id"]) else int(row["fide_id"])
            by_identity.setdefault(identity, []).append((int(row["player_id"]), fide))
        keys = {str(k) for (k,) in store.connection.execute("SELECT key FROM events")}
        next_id = int(people["player_id"].max()) + 1 if len(people) else 1
        born = people.dropna(subset=["birth_year"])
        birth_years = dict(
            zip(
                born["player_id"].astype(int).tolist(),
                born["birth_year"].astype(int).tolist(),
                strict=True,
            )
        )
        return cls(by_fide, by_identity, keys, next_id, birth_years)


def _identify(
    store: Store, event: Event, key: str, known: KnownPlayers
) -> tuple[np.ndarray, list[str]]:
    """Each event player's database id: by FIDE ID, else exact name + birth year +
    federation; a player found nowhere is created; two candidates are an error."""
    players = event.players.reset_index(drop=True)
    problems: list[Issue] = []
    created: list[str] = []
    new_rows = []
    ids: list[int] = []
    for row in players.to_dict("records"):
        fide = None if pd.isna(row["fide_id"]) else int(row["fide_id"])
        if fide is not None and fide in known.by_fide:
            ids.append(known.by_fide[fide])
            continue
        identity = _identity(row["name"], row["birth_year"], row["federation"])
        candidates = [] if fide is not None else known.by_identity.get(identity, [])
        if len(candidates) > 1:
            names = ", ".join(
                f"#{player_id} {row['name']} (FIDE ID {other if other is not None else 'none'})"
                for player_id, other in candidates
            )
            problems.append(
                Issue(
                    str(row["source"]),
                    int(row["line"]),
                    f"{row['name']!r} matches several players: {names}; give the FIDE ID in "
                    "the file",
                )
            )
            ids.append(-1)
            continue
        if len(candidates) == 1:
            ids.append(candidates[0][0])
            continue
        player_id = known.next_id
        known.next_id += 1
        ids.append(player_id)
        if fide is not None:
            known.by_fide[fide] = player_id
        known.by_identity.setdefault(identity, []).append((player_id, fide))
        new_rows.append(
            {
                "player_id": player_id,
                "fide_id": fide,
                "name": row["name"],
                "federation": row["federation"],
                "sex": row["sex"],
                "title": row["title"],
                "birth_year": row["birth_year"],
                "created_by": f"{key}#{row['player']}",
            }
        )
        created.append(f"{row['name']} ({key}#{row['player']})")
    if problems:
        raise InputError(problems)
    if new_rows:
        store.insert("players", pd.DataFrame(new_rows))
    resolved = np.array(ids, dtype=np.int64)
    known.warnings.extend(_birth_year_conflicts(known, players, resolved))
    _complete_identities(store, players, resolved)
    return resolved, created


def _birth_year_conflicts(
    players_known: KnownPlayers, players: pd.DataFrame, ids: np.ndarray
) -> list[Issue]:
    """A birth year in the file that differs from the one the database knows (the database's
    is kept): a warning with the file and line (issue 7: consistency across events)."""
    known = players_known.birth_years
    warnings = []
    for player_id, year, row in zip(
        ids.tolist(), players["birth_year"].tolist(), players.to_dict("records"), strict=True
    ):
        if (
            year is not pd.NA
            and year is not None
            and player_id in known
            and known[player_id] != year
        ):
            warnings.append(
                Issue(
                    str(row["source"]),
                    int(row["line"]),
                    f"{row['name']}: born {year} in this file, {known[player_id]} in the database "
                    "(the database's is kept)",
                    "warning",
                )
            )
        elif year is not pd.NA and year is not None and player_id not in known:
            known[player_id] = int(year)  # the database now knows it (see _complete_identities)
    return warnings


IDENTITY = ("name", "federation", "sex", "title", "birth_year")


def _complete_identities(store: Store, players: pd.DataFrame, ids: np.ndarray) -> None:
    """Fill what the database does not know yet (a list without names or birth years) from
    the event file; what it knows is never overwritten."""
    for column in IDENTITY:
        empty = "(name IS NULL OR name = '')" if column == "name" else f"{column} IS NULL"
        values = players[column].astype(object).where(players[column].notna(), None)
        store.connection.executemany(
            f"UPDATE players SET {column} = ? WHERE player_id = ? AND {empty}",
            [
                (v, int(i))
                for v, i in zip(values.tolist(), ids.tolist(), strict=True)
                if v not in (None, "")
            ],
        )


# -- publish ---------------------------------------------------------------------------------------


@dataclass
class KindOutcome:
    kind: str
    rules: Rules
    result: PeriodResult
    state: pd.DataFrame
    pending: pd.DataFrame
    listing: pd.DataFrame
    calculations: pd.DataFrame
    events: pd.DataFrame
    notes: list[str]


@dataclass
class PublishResult:
    period: Period
    outcomes: list[KindOutcome]
    outputs: list[Path] = field(default_factory=list)

    def summary(self) -> str:
        lines = [f"published {self.period}"]
        for outcome in self.outcomes:
            counts = outcome.result.players["status"].value_counts()
            described = ", ".join(
                f"{int(counts.get(s, 0))} {s}" for s in ("rated", "new", "below_floor", "unrated")
            )
            lines.append(
                f"{outcome.kind}: {len(outcome.events)} event(s), list of {len(outcome.listing)} "
                f"rated players ({described}) under {outcome.rules.edition}"
            )
        lines.extend(f"wrote {path}" for path in self.outputs)
        return "\n".join(lines)


def publish_period(
    period: str, *, db: Path, out: Path, progress: Progress = no_progress
) -> PublishResult:
    """Rate a period for every list kind, store the new lists and write them with reports."""
    parse_period(period)
    with _database(db) as store:
        book = rule_book(store)
        rules = book.for_period(period)
        if not is_list_period(rules, period):
            months = ", ".join(str(m) for m in rules.list_months)
            raise RatingBatchError(
                f"{period} is not a list month under {rules.edition} (lists in months {months})"
            )
        lists = store.lists()
        known_kinds = set(lists["kind"]) | set(store.events(period)["kind"])
        kinds = [k for k in KINDS if k in known_kinds and k in rules.kinds]
        # Files are renamed into place only after the database has committed: a crash in
        # between leaves complete old files, and publishing again reproduces the new ones.
        with atomic_outputs() as outputs, store.transaction():
            outcomes = []
            for kind in kinds:
                _check_order(store, lists, kind, period)
                outcomes.append(_publish_kind(store, book, period, kind))
            paths = _write_period(outcomes, period, out, outputs, progress)
            for outcome in outcomes:
                _store_outcome(store, period, outcome, book.name)
    return PublishResult(period, outcomes, paths)


def _check_order(store: Store, lists: pd.DataFrame, kind: str, period: Period) -> None:
    published = lists[(lists["kind"] == kind) & (lists["origin"] == "publish")]["period"]
    last = str(published.max()) if len(published) else None
    if last is not None and period < last:
        raise RatingBatchError(
            f"{kind}: {period} is earlier than the last published period {last}; periods are "
            "published in order (re-publishing the last one is allowed)"
        )
    waiting = store.frame(
        "SELECT DISTINCT period FROM events "
        "WHERE kind = ? AND period < ? AND period > ? ORDER BY period",
        (kind, period, last or ""),
    )["period"].tolist()
    if waiting:
        raise RatingBatchError(
            f"{kind}: publish {', '.join(waiting)} first: its events are not rated yet"
        )


def _previous(lists: pd.DataFrame, kind: str, period: Period) -> Period | None:
    before = lists[(lists["kind"] == kind) & (lists["period"] < period)]["period"]
    return str(before.max()) if len(before) else None


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


def month_index(periods: pd.Series) -> pd.Series:
    """Periods ``YYYY-MM`` as a month count (year × 12 + month), NA for none or INITIAL."""
    text = periods.astype("string")
    known = text.notna() & (text != INITIAL)
    year = pd.to_numeric(text.str.slice(0, 4).where(known), errors="coerce")
    month = pd.to_numeric(text.str.slice(5, 7).where(known), errors="coerce")
    return (year * 12 + month).astype("Int64")


def _month_of(period: Period) -> int:
    year, month = parse_period(period)
    return year * 12 + month


def _ratings_at(
    store: Store,
    lists: pd.DataFrame,
    kind: str,
    start: dt.date | None,
    period: Period,
    from_standard: bool,
) -> pd.Series:
    """Ratings (by player id) of the list in force at ``start``; for rapid and blitz with
    ``from_standard``, a player unrated there starts from their standard rating (§6)."""
    ratings = _state(store, kind, _in_force(lists, kind, start, period)).set_index("player_id")[
        "rating"
    ]
    if from_standard:
        standard = _state(store, "standard", _in_force(lists, "standard", start, period))
        fallback = standard.set_index("player_id")["rating"]
        ratings = ratings.reindex(ratings.index.union(fallback.index))
        ratings = ratings.fillna(fallback.reindex(ratings.index)).astype("Int64")
    return ratings.dropna()


EMPTY_STATE = pd.DataFrame(
    {name: pd.Series(dtype=dtype) for name, dtype in {
        "player_id": "int64", "rating": "Int64", "k": "Int64", "games": "int64",
        "games_total": "Int64", "peak": "Int64", "last_played": "object", "inactive": "int64",
        "first_event_done": "int64", "pool_start": "object",
    }.items()}
)  # fmt: skip


def _state(store: Store, kind: str, period: Period | None) -> pd.DataFrame:
    if period is None:
        return EMPTY_STATE.copy()
    state = store.state(kind, period)
    return state.astype({"rating": "Int64", "k": "Int64", "games_total": "Int64", "peak": "Int64"})


def _publish_kind(store: Store, book: RuleBook, period: Period, kind: str) -> KindOutcome:
    rules = book.for_period(period).for_kind(kind)
    lists = store.lists()
    previous = _previous(lists, kind, period)
    state = _state(store, kind, previous)
    events = store.events(period)
    events = events[events["kind"] == kind].copy()
    events["start_date"] = [dt.date.fromisoformat(s) if s else None for s in events["start"]]
    events = events.sort_values(
        ["start", "event_id"], na_position="last", kind="stable"
    ).reset_index(drop=True)
    people = store.players()
    entries = store.frame(
        "SELECT ep.* FROM event_players ep JOIN events e USING (event_id) "
        "WHERE e.period = ? AND e.kind = ?",
        (period, kind),
    )
    games = store.frame(
        "SELECT g.* FROM games g JOIN events e USING (event_id) WHERE e.period = ? AND e.kind = ?",
        (period, kind),
    )
    # Everyone with a state or a game this period.
    ids = sorted(set(state["player_id"]) | set(entries["player_id"]))
    table = pd.DataFrame({"player_id": ids}).merge(people, on="player_id", how="left")
    table = table.merge(state, on="player_id", how="left")
    table["id"] = np.where(
        table["fide_id"].notna(),
        table["fide_id"].astype("Int64").astype("string"),
        table["created_by"],
    )
    counts = entries.groupby("player_id")["event_id"].nunique()
    table["events"] = table["player_id"].map(counts).fillna(0).astype("int64")
    from_standard = kind != "standard" and rules.start_from_standard
    notes: list[str] = []
    if from_standard:
        # §6: unrated in this list but rated in standard: start from the standard rating,
        # with K as for a new player (rule 3.3, uncertain).
        standard = _state(store, "standard", _previous(lists, "standard", period))
        start = table["player_id"].map(standard.set_index("player_id")["rating"]).astype("Int64")
        starting = (
            table["rating"].isna() & start.notna() & table["player_id"].isin(entries["player_id"])
        )
        table.loc[starting, "rating"] = start[starting]
        table.loc[starting, "games_total"] = 0
        table.loc[starting, "k"] = pd.NA
        if starting.any():
            notes.append(
                f"{int(starting.sum())} players unrated in {kind} start from their standard rating"
            )
    table["ever_high"] = (table["peak"] >= rules.high_threshold).astype("boolean")
    table["ever_junior_ceiling"] = (table["peak"] >= rules.junior_ceiling).astype("boolean")
    table["first_event_done"] = table["first_event_done"].fillna(0).astype(bool)
    pidx = pd.Series(np.arange(len(table)), index=table["player_id"])
    players = conform(table.assign(fide_id=table["fide_id"].astype("Int64")), PERIOD_PLAYERS)
    players["first_event_done"] = table["first_event_done"].to_numpy()

    frame = _period_games(
        store, events, entries, games, lists, kind, period, table, pidx, from_standard
    )
    prior, pool_reset = _prior_pool(store, kind, previous, period, rules, table, pidx)
    event_rules = {
        key: book.for_date(start).for_kind(kind)
        for key, start in zip(events["key"], events["start_date"], strict=True)
    }
    event_starts = dict(zip(events["key"], events["start_date"], strict=True))
    year = list_date(period).year
    result = rate_period(
        players, frame, rules, event_rules=event_rules, event_starts=event_starts,
        period_year=year, prior=prior,
    )  # fmt: skip
    event_ids = dict(zip(events["key"], events["event_id"], strict=True))
    new_state, pending, state_notes = _next_state(
        Publication(result, table, prior, frame, rules, period, kind, pool_reset, event_ids)
    )
    listing = _listing(new_state, table, rules)
    calculations = individual_calculations(result)
    notes = [*notes, *state_notes, *result.notes, *uncertain_notes(rules)]
    notes += consistency_notes(entries, frame, table, events)
    if previous is None:
        notes.append(f"no earlier {kind} list: every player starts unrated")
    return KindOutcome(
        kind, rules, result, new_state, pending, listing, calculations, events, notes
    )


def consistency_notes(
    entries: pd.DataFrame, frame: pd.DataFrame, table: pd.DataFrame, events: pd.DataFrame
) -> list[str]:
    """What the period's files say that disagrees (issue 7): ratings written in a file that
    differ from the list in force (the list is used), one player with different ratings in
    the files of the period, and two events that share most of their games (results reported
    twice in overlapping files)."""
    notes: list[str] = []
    key_of = dict(zip(events["event_id"], events["key"], strict=True))
    names = table.set_index("player_id")["name"]
    used = frame.drop_duplicates(["event", "player"]).set_index(["event", "player"])["rating"]
    written = entries.assign(event=entries["event_id"].map(key_of))
    written["used"] = used.reindex(
        pd.MultiIndex.from_frame(written[["event", "start_rank"]])
    ).to_numpy()
    differ = written[
        written["rating_in_file"].notna()
        & (written["rating_in_file"].astype("Int64") != written["used"].astype("Int64")).fillna(
            True
        )
    ]
    for event, rows in differ.groupby("event", sort=True):
        shown = ", ".join(
            f"{names.get(r['player_id'], '?')} ({int(r['rating_in_file'])} in the file, "
            f"{int(r['used']) if pd.notna(r['used']) else 'unrated'} on the list)"
            for r in rows.head(3).to_dict("records")
        )
        notes.append(
            f"{event}: {len(rows)} rating(s) in the file differ from the list in force, which is "
            f"used: {shown}"
        )
    ratings = (
        written.dropna(subset=["rating_in_file"]).groupby("player_id")["rating_in_file"].nunique()
    )
    for player_id in ratings[ratings > 1].index.tolist()[:20]:
        seen = written[written["player_id"] == player_id][["event", "rating_in_file"]]
        shown = ", ".join(f"{r['rating_in_file']} in {r['event']}" for r in seen.to_dict("records"))
        notes.append(
            f"{names.get(player_id, '?')} has different ratings in this period's files: {shown}"
        )
    played = frame[frame["rated"].to_numpy(bool) & frame["oidx"].ge(0).to_numpy()]
    games = pd.DataFrame(
        {
            "event": played["event"].astype(str).to_numpy(),
            "game": (
                played["id"].astype(str) + "|" + played["opponent_id"].astype(str) + "|"
                + played["round"].astype(str) + "|" + played["result"].astype(str)
            ).to_numpy(),
        }
    )  # fmt: skip
    shared = games.merge(games, on="game")
    shared = shared[shared["event_x"] < shared["event_y"]]
    sizes = games.groupby("event").size()
    pairs = shared.groupby(["event_x", "event_y"]).size().reset_index(name="count")
    for pair in pairs.to_dict("records"):
        first, second, count = str(pair["event_x"]), str(pair["event_y"]), int(pair["count"])
        if count >= 3 and count >= 0.5 * min(sizes[first], sizes[second]):
            notes.append(
                f"{first} and {second} share {count // 2} identical games: the same results "
                "reported twice? (both are rated as given)"
            )
    return notes


def _period_games(
    store: Store,
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
    order = {int(e): i for i, e in enumerate(events["event_id"])}
    key_of = dict(zip(events["event_id"], events["key"], strict=True))
    source_of = dict(zip(events["event_id"], events["source"], strict=True))
    rating_in_event = []
    # Most events share the list in force: each list is read once.
    loaded: dict[tuple[Period | None, Period | None], pd.Series] = {}
    for event_id, start in zip(events["event_id"], events["start_date"], strict=True):
        lists_used = (
            _in_force(lists, kind, start, period),
            _in_force(lists, "standard", start, period) if from_standard else None,
        )
        if lists_used not in loaded:
            loaded[lists_used] = _ratings_at(store, lists, kind, start, period, from_standard)
        ratings = loaded[lists_used]
        chosen = entries[entries["event_id"] == event_id][["event_id", "start_rank", "player_id"]]
        rating_in_event.append(
            chosen.assign(rating=chosen["player_id"].map(ratings).astype("Int64"))
        )
    rated = (
        pd.concat(rating_in_event)
        if rating_in_event
        else entries.assign(rating=pd.Series(dtype="Int64"))
    )
    mine = games.merge(rated, on=["event_id", "start_rank"], how="left")
    theirs = rated.rename(
        columns={
            "start_rank": "opponent_rank",
            "player_id": "opponent_player",
            "rating": "opponent_rating",
        }
    )
    mine = mine.merge(theirs, on=["event_id", "opponent_rank"], how="left")
    ids = table.set_index("player_id")["id"]
    frame = pd.DataFrame(
        {
            "event": mine["event_id"].map(key_of),
            "event_order": mine["event_id"].map(order).astype("int64"),
            "round": mine["round"],
            "id": mine["player_id"].map(ids),
            "opponent_id": mine["opponent_player"].map(ids),
            "pidx": mine["player_id"].map(pidx).astype("int64"),
            "oidx": mine["opponent_player"].map(pidx).fillna(-1).astype("int64"),
            "player": mine["start_rank"],
            "opponent": mine["opponent_rank"].astype("Int64"),
            "colour": mine["colour"],
            "result": mine["result"],
            "score": mine["score"],
            "rated": mine["rated"].astype(bool),
            "reason": pd.Categorical(mine["reason"], dtype=REASON_DTYPE),
            "rating": mine["rating"].astype("Int64"),
            "opponent_rating": mine["opponent_rating"].astype("Int64"),
            "source": mine["event_id"].map(source_of),
            "line": mine["line"],
        }
    )
    frame = frame.sort_values(["event_order", "pidx", "round"], kind="stable").reset_index(
        drop=True
    )
    return conform(frame, PERIOD_GAMES)


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
    now = _month_of(period)
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


@dataclass(frozen=True)
class Publication:
    """One list kind's period being published: what ``_next_state`` and ``_new_pool`` need."""

    result: PeriodResult
    table: pd.DataFrame
    prior: pd.DataFrame
    frame: pd.DataFrame
    rules: Rules
    period: Period
    kind: str
    pool_reset: set[int]
    event_ids: dict[str, int]


def list_k(
    rating: pd.Series,
    birth_year: pd.Series,
    games_total: pd.Series,
    peak: pd.Series,
    rules: Rules,
    year: int | None,
) -> pd.Series:
    """K that a list gives for the next period (§3), from the rating and history."""
    index = rating.index
    frame = pd.DataFrame(
        {
            "rating": rating,
            "k": pd.Series(pd.NA, index=index, dtype="Int64"),
            "birth_year": pd.Series(birth_year.to_numpy(), index=index, dtype="Int64"),
            "games_total": pd.Series(games_total.to_numpy(), index=index, dtype="Int64"),
            "ever_high": (peak >= rules.high_threshold).astype("boolean"),
            "ever_junior_ceiling": (peak >= rules.junior_ceiling).astype("boolean"),
        }
    )
    return pd.Series(k_factors(frame, rules, year)["k"].to_numpy(), index=index, dtype="Int64")


def _next_state(publication: Publication) -> tuple[pd.DataFrame, pd.DataFrame, list[str]]:
    """Every player's state after the period, the new pending pool, and notes."""
    result, table, rules = publication.result, publication.table, publication.rules
    period, kind = publication.period, publication.kind
    players = result.players
    status = players["status"].astype(str).to_numpy()
    old_rating = table["rating"]
    rating = pd.Series(players["new_rating"].to_numpy(), dtype="Int64")
    rating = rating.where(np.isin(status, ["rated", "new"]), pd.NA)
    games = players["games"].to_numpy(np.int64)
    was_rated = old_rating.notna().to_numpy()
    total = table["games_total"].astype("Int64")
    counted = pd.Series(np.where(was_rated, games, 0), dtype="Int64")
    games_total = (total + counted).where(was_rated, total)
    new = status == "new"
    if rules.pool_games_count_toward_new:
        pool_games = players["pool_games"].fillna(0).astype("int64").to_numpy()
        games_total = games_total.mask(new, pool_games)
    else:
        games_total = games_total.mask(new, 0)
    peak = pd.concat([table["peak"].astype("Int64"), rating], axis=1).max(axis=1).astype("Int64")
    played = games > 0
    last_played = pd.Series(np.where(played, period, table["last_played"]), dtype="object")
    last_played = last_played.where(last_played.notna(), None)
    inactive_before = table["inactive"].fillna(0).astype(bool).to_numpy()
    idle = _month_of(period) - month_index(last_played)
    # Unknown (no game since the initial list): keep the list's flag until they play.
    inactive = (idle >= 12).fillna(pd.Series(inactive_before)).to_numpy(bool)
    # K on the new list, for the next period (§3): from the new rating and history.
    next_year = list_date(next_list_period(rules, period)).year
    k = list_k(rating, table["birth_year"], games_total, peak, rules, next_year)
    first_done = players["first_event_done"].to_numpy(bool)
    state = pd.DataFrame(
        {
            "player_id": table["player_id"].to_numpy(),
            "kind": kind,
            "period": period,
            "rating": rating,
            "k": pd.Series(k.to_numpy(), dtype="Int64").where(rating.notna(), pd.NA),
            "games": games,
            "games_total": games_total,
            "peak": peak,
            "last_played": last_played,
            "inactive": inactive.astype(int),
            "first_event_done": first_done.astype(int),
            "pool_start": table["pool_start"].where(table["pool_start"].notna(), None).to_numpy(),
        }
    )
    pending, starts = _new_pool(publication)
    state["pool_start"] = state["player_id"].map(starts).where(state["rating"].isna(), None)
    state["pool_start"] = state["pool_start"].where(state["pool_start"].notna(), None)
    notes = [
        "inactive: no counted game for 12 months (flag kept from the list until a player plays)",
        f"K on the new list is for the next period, with juniors judged against {next_year}",
    ]
    return state, pending, notes


def _new_pool(publication: Publication) -> tuple[pd.DataFrame, dict[int, str]]:
    """The first-rating pool after the period: pending games plus this period's counted
    games of players still unrated (§4); emptied when a rating is published, or reset when
    below the floor if the rules say so."""
    result, table, prior, frame = (
        publication.result,
        publication.table,
        publication.prior,
        publication.frame,
    )
    rules, period, event_ids = publication.rules, publication.period, publication.event_ids
    pool_reset = publication.pool_reset
    players = result.players
    status = players["status"].astype(str)
    player_ids = table["player_id"].to_numpy()
    unrated = status == "unrated"
    if not rules.keep_pool_below_floor:
        complete = players["pool_games"].fillna(0) >= rules.first_min_games
        unrated &= ~(complete & (players["provisional"] < rules.floor)).fillna(False)
    keep_ids = set(player_ids[unrated.to_numpy()])
    # The engine's games keep the order of ``frame`` (already in run order).
    games = result.games
    counted = games["counted"].to_numpy(bool)
    owner = player_ids[frame["pidx"].to_numpy()]
    mine = games[counted].assign(player_id=owner[counted])
    mine = mine[mine["player_id"].isin(keep_ids) & mine["rating"].isna()]
    fresh = pd.DataFrame(
        {
            "player_id": mine["player_id"].to_numpy(),
            "event_id": mine["event"].astype(str).map(event_ids).to_numpy(),
            "round": mine["round"].to_numpy(),
            "opponent_rating": mine["opponent_rating"].astype("int64").to_numpy(),
            "half": np.rint(mine["score"].to_numpy() * 2).astype(np.int64),
            "game_period": period,
        }
    )
    old = prior[prior["player_id"].isin(keep_ids)] if len(prior) else prior
    starts: dict[int, str] = {}
    if len(old):
        firsts = old.groupby("player_id")["game_period"].min()
        starts.update(dict(zip(firsts.index.tolist(), firsts.astype(str).tolist(), strict=True)))
    for player_id in fresh["player_id"].unique():
        starts.setdefault(int(player_id), period)
    for player_id in pool_reset:
        if player_id in keep_ids and player_id in set(fresh["player_id"]):
            starts[int(player_id)] = period
    return pd.concat(
        [old.drop(columns=["pidx"], errors="ignore"), fresh], ignore_index=True
    ), starts


def _listing(state: pd.DataFrame, table: pd.DataFrame, rules: Rules) -> pd.DataFrame:
    """The new rating list: rated players only (players with a pending first rating do not
    appear), ordered by rating, then name, then id."""
    listed = state[state["rating"].notna()].merge(
        table.drop(
            columns=[
                "rating",
                "k",
                "games",
                "games_total",
                "peak",
                "last_played",
                "inactive",
                "first_event_done",
                "pool_start",
                "kind",
                "period",
            ],
            errors="ignore",
        ),
        on="player_id",
        how="left",
    )
    listed["class"] = rules.class_of(listed["rating"])
    listed["inactive"] = listed["inactive"].astype(bool)
    listed = listed.sort_values(
        ["rating", "name", "id"], ascending=[False, True, True], kind="stable"
    )
    columns = [c for c in LIST_COLUMNS if c != "class" or rules.classes]
    return listed[columns].reset_index(drop=True)


def _store_outcome(store: Store, period: Period, outcome: KindOutcome, rules_name: str) -> None:
    """Replace this period's rows (re-publishing) with the new state and pool."""
    kind = outcome.kind
    for table in ("ratings", "pending", "lists"):
        store.connection.execute(
            f"DELETE FROM {table} WHERE kind = ? AND period = ?", (kind, period)
        )
    previous = _state(store, kind, _previous(store.lists(), kind, period))
    state = outcome.state
    merged = state.merge(previous, on="player_id", how="left", suffixes=("", "_before"))
    compared = [
        "rating",
        "k",
        "games_total",
        "peak",
        "last_played",
        "inactive",
        "first_event_done",
        "pool_start",
    ]
    changed = merged["games"] > 0
    for name in compared:
        now, before = merged[name], merged[f"{name}_before"]
        changed |= ~((now == before) | (now.isna() & before.isna())).fillna(False)
    store.insert("ratings", state[changed.to_numpy(bool)])
    pool = outcome.pending
    if len(pool):
        rows = pool.assign(period=period, kind=kind)[
            [
                "period",
                "kind",
                "player_id",
                "event_id",
                "round",
                "opponent_rating",
                "half",
                "game_period",
            ]
        ]
        store.insert("pending", rows)
    store.insert(
        "lists",
        pd.DataFrame(
            {"period": [period], "kind": [kind], "origin": ["publish"], "rules": [rules_name]}
        ),
    )


def list_sheets(listing: pd.DataFrame) -> list[Sheet]:
    """A list workbook: the list, and its rating distribution as a chart."""
    return [Sheet("List", frame=listing), charts_sheet(listing["rating"])]


def _write_period(
    outcomes: list[KindOutcome],
    period: Period,
    out: Path,
    outputs: OutputSet,
    progress: Progress = no_progress,
) -> list[Path]:
    paths: list[Path] = []
    for outcome in outcomes:
        folder = out / period / outcome.kind
        result = outcome.result
        players = result.players.drop(
            columns=["k_before_cap", "first_event_done"]
            + ([] if outcome.rules.classes else ["class"])
        )
        targets = {
            name: folder / name
            for name in (
                "list.csv",
                "list.xlsx",
                "list.txt",
                "players.csv",
                "games.csv",
                "calculations.csv",
                "report.xlsx",
            )
        }
        write_csv(outcome.listing, outputs.path(targets["list.csv"]))
        write_workbook(list_sheets(outcome.listing), outputs.path(targets["list.xlsx"]))
        write_list_txt(outcome.listing, outputs.path(targets["list.txt"]), period=period)
        write_csv(players, outputs.path(targets["players.csv"]))
        write_csv(result.games, outputs.path(targets["games.csv"]))
        write_csv(outcome.calculations, outputs.path(targets["calculations.csv"]))
        summary: list[Sequence[object]] = [
            ["rating_batch period report"],
            [],
            ["Period", period],
            ["List", outcome.kind],
            ["Rules", f"{outcome.rules.edition}: {outcome.rules.title}"],
            ["Events", len(outcome.events)],
            ["Players on the new list", len(outcome.listing)],
        ]
        summary += [[], ["Events"], ["key", "name", "start", "end", "source"]]
        summary += [
            [key, name, start or "", end or "", source]
            for key, name, start, end, source in outcome.events[
                ["key", "name", "start", "end", "source"]
            ].itertuples(index=False)
        ]
        notes = list(outcome.notes)
        for sheet, rows in (
            ("Games", len(result.games)),
            ("Calculations", len(outcome.calculations)),
        ):
            if rows > MAX_DETAIL_ROWS:
                notes.append(
                    f"the {sheet} sheet holds the first {MAX_DETAIL_ROWS:,} of {rows:,} rows: "
                    f"{sheet.lower()}.csv has them all"
                )
        if len(outcome.events) > MAX_EVENT_PAGES:
            notes.append(
                f"{len(outcome.events):,} events: no HTML pages (written up to "
                f"{MAX_EVENT_PAGES:,}; rate an event on its own for its page)"
            )
        summary += [[], ["Notes"], *([["", note] for note in notes])]
        write_workbook(
            [
                Sheet("Summary", rows=summary),
                Sheet("Players", frame=players),
                Sheet("Games", frame=result.games.head(MAX_DETAIL_ROWS)),
                Sheet(
                    "Calculations",
                    frame=calculation_rows(outcome.calculations.head(MAX_DETAIL_ROWS)),
                    writer=write_calculations_sheet,
                ),
                charts_sheet(outcome.listing["rating"]),
            ],
            outputs.path(targets["report.xlsx"]),
        )
        paths.extend(targets.values())
        if len(outcome.events) > MAX_EVENT_PAGES:
            continue
        by_event = dict(tuple(result.games.groupby("event", sort=False, observed=True)))
        events = [_event_of(row, by_event, result) for row in outcome.events.to_dict("records")]
        rules_of = {event.info.key: outcome.rules for event in events}
        pages = event_pages(result, events, rules_of)
        for key, page in progress(pages, f"{outcome.kind} event pages"):
            path = folder / "events" / f"{key}.html"
            write_event_html(page, outputs.path(path))
            paths.append(path)
    return paths


def _event_of(
    row: Mapping[Hashable, object], by_event: Mapping[Any, pd.DataFrame], result: PeriodResult
) -> Event:
    """A stored event for its HTML page: metadata, and its players as the period rated them
    (start rank, name, the rating used, points)."""
    key = str(row["key"])
    games = by_event.get(key, result.games.iloc[0:0])
    names = result.players.set_index("id")["name"]
    players = (
        games.groupby("player", sort=True)
        .agg(id=("id", "first"), rating=("rating", "first"), points=("score", "sum"))
        .reset_index()
    )
    players["name"] = players["id"].map(names)
    end = row["end"]
    info = EventInfo(
        key=key,
        name=str(row["name"]),
        source=str(row["source"]),
        start=row["start_date"],  # type: ignore[arg-type]
        end=dt.date.fromisoformat(str(end)) if isinstance(end, str) and end else None,
        time_control=str(row["time_control"] or ""),
    )
    return Event(info, players, games)


# -- player ----------------------------------------------------------------------------------------


def player_report(reference: str, *, db: Path, out: Path | None = None) -> str:
    """A player's rating history per list, and the games pending toward a first rating;
    with ``out``, also ``player-<reference>.xlsx`` (History, Pending and a Charts sheet with
    the rating history as a line chart per list)."""
    with _database(db) as store:
        people = store.players()
        found = people[
            (people["fide_id"].astype("Int64").astype("string") == reference)
            | (people["created_by"] == reference)
            | (people["player_id"].astype(str) == reference.lstrip("#"))
        ]
        if found.empty:
            raise RatingBatchError(
                f"no player {reference!r} in {db} (give a FIDE ID, or <event>#<start rank>)"
            )
        person = found.iloc[0]
        player_id = int(person["player_id"])
        history = store.frame(
            "SELECT kind, period, rating, k, games, games_total, inactive FROM ratings "
            "WHERE player_id = ? ORDER BY kind, period",
            (player_id,),
        )
        pending = store.frame(
            "SELECT p.kind, p.period, e.key AS event, p.round, p.opponent_rating, p.half, "
            "p.game_period FROM pending p JOIN events e USING (event_id) "
            "WHERE p.player_id = ? ORDER BY p.kind, p.period",
            (player_id,),
        )
        published = store.frame(
            "SELECT kind, MAX(period) AS period FROM lists WHERE origin = 'publish' GROUP BY kind"
        )
    if out is not None:
        path = out / f"player-{reference.replace('#', '-')}.xlsx"
        with atomic_outputs() as outputs:
            sheets = [Sheet("History", frame=history), Sheet("Pending", frame=pending)]
            for each in [k for k in KINDS if k in set(history["kind"])]:
                rows = history[history["kind"] == each]
                chart = pd.DataFrame(
                    {
                        "period": rows["period"].replace(INITIAL, "initial"),
                        f"{each} rating": rows["rating"],
                    }
                )
                sheets.append(
                    Sheet(f"Chart {each}", frame=chart.dropna(), writer=write_chart_sheet)
                )
            write_workbook(sheets, outputs.path(path))
    fide = person["fide_id"]
    lines = [
        f"{person['name']} (FIDE ID {int(fide) if pd.notna(fide) else 'none'}, "
        f"{person['federation'] if pd.notna(person['federation']) else '-'}, born "
        f"{int(person['birth_year']) if pd.notna(person['birth_year']) else '?'})"
    ]
    if history.empty:
        lines.append("no rating history")
    history["order"] = history["kind"].map(KINDS.index)
    for kind, rows in history.sort_values(["order", "period"]).groupby("kind", sort=False):
        lines.append(f"{kind}:")
        lines.append(f"  {'list':8} {'rating':>7} {'K':>3} {'games':>5} {'total':>5}")
        for row in rows.to_dict("records"):
            shown = _number(row["rating"]) or "unrated"
            period = "initial" if row["period"] == INITIAL else row["period"]
            total, k = _number(row["games_total"]), _number(row["k"])
            flag = "  inactive" if row["inactive"] else ""
            text = f"  {period:8} {shown:>7} {k:>3} {row['games']:>5} {total:>5}{flag}"
            lines.append(text.rstrip())
    if not pending.empty:
        latest = pending.merge(published, on=["kind", "period"])
        for kind, rows in latest.groupby("kind", sort=False):
            score = rows["half"].sum() / 2
            lines.append(
                f"{kind}: {len(rows)} game(s) pending toward a first rating, {score:g} points:"
            )
            for row in rows.to_dict("records"):
                lines.append(
                    f"  {row['game_period']} {row['event']} round {row['round']}: "
                    f"opponent {row['opponent_rating']}, scored {row['half'] / 2:g}"
                )
    return "\n".join(lines)


def _number(value: object) -> str:
    """A whole number for a report, or "" when missing."""
    return "" if pd.isna(value) else str(int(value))  # type: ignore[call-overload]


# -- export ----------------------------------------------------------------------------------------


def export_list(period: str, *, db: Path, out: Path, kind: str | None = None) -> list[Path]:
    """Write a stored list (the initial one or a published one) as list.csv, .xlsx and .txt."""
    with _database(db) as store:
        lists = store.lists()
        label = INITIAL if period in ("initial", INITIAL) else period
        if label != INITIAL:
            parse_period(label)
        chosen = lists[(lists["period"] == label) & ((lists["kind"] == kind) if kind else True)]
        if chosen.empty:
            known = ", ".join(
                f"{p} {k}" for p, k in zip(lists["period"], lists["kind"], strict=True)
            )
            raise RatingBatchError(
                f"no {kind or ''} list {period} in {db} (known: {known or 'none'})"
            )
        book = rule_book(store)
        people = store.players()
        paths: list[Path] = []
        with atomic_outputs() as outputs:
            for each in chosen["kind"]:
                rules = book.for_period(label).for_kind(each)
                state = _state(store, each, label)
                state = state[state["period"] == label] if label == INITIAL else state
                table = people.assign(
                    id=people["fide_id"]
                    .astype("Int64")
                    .astype("string")
                    .fillna(people["created_by"])
                )
                listing = _listing(
                    state.assign(inactive=state["inactive"].astype(bool)), table, rules
                )
                folder = out / ("initial" if label == INITIAL else label) / each
                write_csv(listing, outputs.path(folder / "list.csv"))
                write_workbook(list_sheets(listing), outputs.path(folder / "list.xlsx"))
                write_list_txt(listing, outputs.path(folder / "list.txt"), period=label)
                paths.extend(folder / name for name in ("list.csv", "list.xlsx", "list.txt"))
    return paths
