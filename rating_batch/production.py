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
from rating_batch.loaders import Progress, no_progress, read_rating_list
from rating_batch.pipeline import (
    MAX_EVENT_PAGES,
    charts_sheet,
    distinct_keys,
    event_pages,
    expand_inputs,
    load_events,
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
from rating_batch.schema import REASON_DTYPE, Event, EventInfo, combined, conform
from rating_batch.store import Store
from rating_batch.writers import (
    MAX_DETAIL_ROWS,
    OutputSet,
    Sheet,
    atomic_outputs,
    detail_notes,
    write_calculations_sheet,
    write_chart_sheet,
    write_csv,
    write_event_html,
    write_list_txt,
    write_workbook,
)

#: Consistency notes name at most this many events each (a month of FIDE files can have
#: thousands made with an old list).
MAX_EVENT_NOTES = 50

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
    """Validate and store events, each in the period of its end date; never twice.

    The events of one ``add`` are stored together: players are identified for all of them
    at once and each table gets one bulk insert (issue 6)."""
    events, issues = load_events(expand_inputs(paths), progress)
    warnings = list(issues)
    with _database(db) as store, store.transaction():
        book = rule_book(store)
        digests = [hashlib.sha256(Path(e.info.source).read_bytes()).hexdigest() for e in events]
        problems = _refused(store, events, digests)
        if problems:
            raise InputError(problems)
        placed = _placements(store, book, events, kind)
        warnings.extend(issue for place in placed for issue in place.warnings)
        taken = [str(key) for (key,) in store.connection.execute("SELECT key FROM events")]
        keys = distinct_keys([event.info.key for event in events], taken)
        first_id = int(
            store.connection.execute("SELECT COALESCE(MAX(event_id), 0) FROM events").fetchone()[0]
        )
        event_ids = np.arange(first_id + 1, first_id + 1 + len(events), dtype=np.int64)
        store.connection.executemany(
            'INSERT INTO events (event_id, key, name, source, content_hash, start, "end", kind, '
            "period, format, encoding, time_control) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                (
                    int(event_id), key, e.info.name, e.info.source, digest,
                    _iso(e.info.start), _iso(e.info.end), place.kind, place.period,
                    e.info.format, e.info.encoding, e.info.time_control,
                )
                for event_id, key, e, digest, place in zip(
                    event_ids, keys, events, digests, placed, strict=True
                )
            ],
        )  # fmt: skip
        players = _batch(events, "players", event_ids, keys)
        games = _batch(events, "games", event_ids, keys)
        identified = identify_players(store, players)
        warnings.extend(identified.warnings)
        store.insert(
            "event_players",
            pd.DataFrame(
                {
                    "event_id": players["event_id"],
                    "start_rank": players["player"],
                    "player_id": identified.ids,
                    "rating_in_file": players["rating"],
                    "line": players["line"],
                }
            ),
        )
        store.insert(
            "games",
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
                    "reason": games["reason"].astype("string"),
                    "line": games["line"],
                }
            ),
        )
    created = identified.created.groupby("event_index")["label"].agg(list).to_dict()
    sizes = np.bincount(players["event_index"].to_numpy(np.int64), minlength=len(events))
    lines: list[str] = []
    for index, (event, key, place) in enumerate(zip(events, keys, placed, strict=True)):
        info = event.info
        lines.append(
            f"added {key} ({info.name}, {_iso(info.start)}…{_iso(info.end)}): {place.kind}, "
            f"period {place.period}, {sizes[index]} players"
        )
        lines.extend(f"  new player: {label}" for label in created.get(index, []))
    return AddResult(lines, warnings)


def _batch(
    events: Sequence[Event], frame: str, event_ids: np.ndarray, keys: Sequence[str]
) -> pd.DataFrame:
    """One frame of every event (``players`` or ``games``), with each row's database event id,
    the event's index in the ``add`` and its stored key."""
    index = {event.info.key: number for number, event in enumerate(events)}
    batch = combined(events, frame)
    position = batch["event"].map(index).to_numpy(np.int64)
    return batch.assign(
        event_index=position,
        event_id=event_ids[position],
        key=np.array(keys, dtype=object)[position],
    )


def _refused(store: Store, events: Sequence[Event], digests: Sequence[str]) -> list[Issue]:
    """Events that cannot be added: already in the database (same content, or same name and
    dates), given twice, or without any date to put them in a period."""
    stored = store.frame('SELECT key, period, content_hash, name, start, "end" FROM events')
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
        name = (info.name, _iso(info.start), _iso(info.end))
        found = by_hash.get(digest) or by_name.get(name)
        if found is not None:
            problems.append(
                Issue(
                    info.source,
                    None,
                    f"already added as {found[0]} (period {found[1]}): "
                    "an event is never counted twice",
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
        if (info.end or info.start) is None:
            problems.append(
                Issue(
                    info.source,
                    None,
                    "no start or end date (records 042/052, or 132): "
                    "the event cannot be given a rating period",
                )
            )
    return problems


def _iso(date: dt.date | None) -> str | None:
    return None if date is None else date.isoformat()


def _last_published(store: Store, kind: str) -> Period | None:
    row = store.connection.execute(
        "SELECT MAX(period) FROM lists WHERE kind = ? AND origin = 'publish'", (kind,)
    ).fetchone()
    return None if row is None or row[0] is None else str(row[0])


@dataclass(frozen=True)
class Placement:
    """Where an added event goes: its list kind and rating period."""

    kind: str
    period: Period
    warnings: list[Issue]


def _placements(
    store: Store, book: RuleBook, events: Sequence[Event], kind: str | None
) -> list[Placement]:
    """Each event's kind and period: that of its end date, or the next list when the
    period is already published (with a warning)."""
    last: dict[str, Period | None] = {}
    placed = []
    for event in events:
        info = event.info
        chosen = kind or info.kind or "standard"
        end = info.end or info.start
        assert end is not None  # checked by _refused
        rules = book.for_date(end)
        period = period_of(rules, end)
        if chosen not in last:
            last[chosen] = _last_published(store, chosen)
        published = last[chosen]
        warnings = []
        if published is not None and period <= published:
            later = next_list_period(rules, published)
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
        placed.append(Placement(chosen, period, warnings))
    return placed


IDENTITY_KEY = ["name", "birth_year", "federation"]
"""Exact name, birth year and federation: how a player without a FIDE ID is recognised."""

IDENTITY = ("name", "federation", "sex", "title", "birth_year")
"""What the database knows of a player and an event file may complete."""


@dataclass
class Identified:
    """``identify_players``: each row's database id, the players created (event index and
    label) and the birth years that disagree with the database."""

    ids: np.ndarray
    created: pd.DataFrame
    warnings: list[Issue]


def identify_players(store: Store, players: pd.DataFrame) -> Identified:
    """Each player row's database id, for all the events of an ``add`` at once.

    A row with a FIDE ID is that FIDE ID's player; a row without one is the player with the
    same exact name, birth year and federation (among the database's players and those the
    ``add`` creates from FIDE IDs); a player found nowhere is created once, from the first
    row naming them; two candidates are an error naming them. The result does not depend
    on the order of the files. What the database does not know of a player (a list without
    names or birth years) is completed from the first file that gives it; a birth year that
    differs from the database's is a warning (the database's is kept)."""
    people = store.players()
    rows = players.reset_index(drop=True).copy()
    rows["position"] = np.arange(len(rows))
    fide = rows["fide_id"]
    by_fide = pd.Series(
        people["player_id"].to_numpy(np.int64), index=people["fide_id"].astype("Int64")
    )
    by_fide = by_fide[by_fide.index.notna()]
    ids = pd.Series(by_fide.reindex(fide).to_numpy(), index=rows.index, dtype="Int64")

    # New FIDE IDs: one player each, made from the first row carrying it.
    new_fide = fide.notna() & ids.isna()
    fide_creators = rows[new_fide].drop_duplicates("fide_id")

    # Rows without a FIDE ID: candidates by identity among the known players and the new ones.
    known = pd.concat(
        [
            people[["player_id", "fide_id", *IDENTITY_KEY]].assign(position=-1),
            fide_creators[["fide_id", *IDENTITY_KEY, "position"]].assign(player_id=-1),
        ],
        ignore_index=True,
    )
    known = known.astype({"name": "string", "birth_year": "Int64", "federation": "string"})
    no_fide = rows[fide.isna()]
    matches = no_fide[["position", *IDENTITY_KEY]].merge(
        known.rename(columns={"position": "creator", "player_id": "candidate"}),
        how="inner",
        on=IDENTITY_KEY,
    )
    count = matches.groupby("position").size()
    ambiguous = count[count > 1].index
    if len(ambiguous):
        raise InputError(_ambiguous(rows, matches[matches["position"].isin(ambiguous)]))
    single = matches.set_index("position")

    # Players found nowhere: one per identity, made from the first row with it.
    unmatched = no_fide[~no_fide["position"].isin(single.index)]
    identity_creators = unmatched.drop_duplicates(IDENTITY_KEY)
    creators = pd.concat([fide_creators, identity_creators]).sort_values("position")
    next_id = int(people["player_id"].max()) + 1 if len(people) else 1
    creators["player_id"] = np.arange(next_id, next_id + len(creators), dtype=np.int64)
    new_of_fide = creators.dropna(subset=["fide_id"]).set_index("fide_id")["player_id"]
    ids = ids.fillna(pd.Series(new_of_fide.reindex(fide).to_numpy(), dtype="Int64"))
    # Rows matched to a known player or to a creator row of a new FIDE ID.
    by_creator = creators.set_index("position")["player_id"]
    matched = single["candidate"].where(
        single["candidate"] >= 0, by_creator.reindex(single["creator"]).to_numpy()
    )
    ids.loc[matched.index.to_numpy()] = matched.to_numpy()
    new_identity = unmatched.merge(
        creators[creators["fide_id"].isna()][[*IDENTITY_KEY, "player_id"]],
        how="left",
        on=IDENTITY_KEY,
    )
    ids.loc[unmatched["position"].to_numpy()] = new_identity["player_id"].to_numpy()
    resolved = ids.to_numpy(dtype=np.int64)

    given = rows[list(IDENTITY)].copy()
    given["name"] = given["name"].mask(given["name"] == "")  # a blank name is no name
    first = given.groupby(resolved).first()  # each player's first value given, per column
    warnings = _birth_year_conflicts(people, rows, resolved, first["birth_year"])
    _store_identities(store, people, first, creators)
    created = pd.DataFrame(
        {
            "event_index": creators["event_index"].to_numpy(),
            "label": (
                creators["name"].fillna("").astype(object)
                + " ("
                + creators["key"].astype(str)
                + "#"
                + creators["player"].astype(str)
                + ")"
            ).to_numpy(),
        }
    )
    return Identified(resolved, created, warnings)


def _ambiguous(rows: pd.DataFrame, matches: pd.DataFrame) -> list[Issue]:
    problems = []
    for position in sorted(set(matches["position"].tolist())):
        row = rows.iloc[position]
        group = matches[matches["position"] == position]
        names = ", ".join(
            f"{'#' + str(candidate) if candidate >= 0 else 'a new player'} {row['name']} "
            f"(FIDE ID {other if other is not pd.NA else 'none'})"
            for candidate, other in zip(
                group["candidate"].tolist(), group["fide_id"].astype("Int64").tolist(), strict=True
            )
        )
        problems.append(
            Issue(
                str(row["source"]),
                int(row["line"]),
                f"{row['name']!r} matches several players: {names}; give the FIDE ID in the file",
            )
        )
    return problems


def _birth_year_conflicts(
    people: pd.DataFrame, rows: pd.DataFrame, ids: np.ndarray, first: pd.Series
) -> list[Issue]:
    """A birth year in a file that differs from the one the database knows, or from the one
    an earlier file of the ``add`` gave it (the database's is kept): a warning with the file
    and line (issue 7: consistency across events)."""
    years = rows["birth_year"]
    database = pd.Series(
        people["birth_year"].to_numpy(), index=people["player_id"].to_numpy(), dtype="Int64"
    )
    # The database's, else the first file's (``first``: by player id).
    reference = database.reindex(ids).fillna(first.reindex(ids)).to_numpy()
    known = pd.Series(reference, dtype="Int64")
    differ = (years.notna() & known.notna() & (years != known)).to_numpy(dtype=bool)
    lines = rows["line"].to_numpy(np.int64)
    return [
        Issue(
            str(rows["source"].iat[i]),
            int(lines[i]),
            f"{rows['name'].iat[i]}: born {rows['birth_year'].iat[i]} in this file, "
            f"{known.iat[i]} in the database (the database's is kept)",
            "warning",
        )
        for i in np.flatnonzero(differ).tolist()
    ]


def _store_identities(
    store: Store, people: pd.DataFrame, first: pd.DataFrame, creators: pd.DataFrame
) -> None:
    """Insert the new players, and fill what the database does not know of the others from
    the first file that gives it (``first``, by player id); what it knows is never
    overwritten."""
    new = creators.set_index("player_id")
    for column in IDENTITY:
        new[column] = new[column].fillna(first[column].reindex(new.index))
    new["name"] = new["name"].fillna("")
    store.insert(
        "players",
        pd.DataFrame(
            {
                "player_id": new.index.to_numpy(),
                "fide_id": new["fide_id"].to_numpy(),
                **{column: new[column].to_numpy() for column in IDENTITY},
                "created_by": (new["key"].astype(str) + "#" + new["player"].astype(str)).to_numpy(),
            }
        ),
    )
    stored = people.set_index("player_id")
    touched = first.index[first.index.isin(stored.index)]
    for column in IDENTITY:
        current = stored[column].reindex(touched)
        missing = current.isna() | (current == "") if column == "name" else current.isna()
        values = first[column].reindex(touched)[missing.fillna(True).to_numpy(dtype=bool)]
        values = values[values.notna()]
        store.connection.executemany(
            f"UPDATE players SET {column} = ? WHERE player_id = ?",
            [
                (v.item() if isinstance(v, np.generic) else v, int(i))
                for v, i in zip(values.tolist(), values.index.tolist(), strict=True)
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


#: A player's state in one list kind (a ``ratings`` row without its kind and period).
STATE_DTYPES = {
    "player_id": "int64", "rating": "Int64", "k": "Int64", "games": "int64",
    "games_total": "Int64", "peak": "Int64", "last_played": "object", "inactive": "int64",
    "first_event_done": "int64", "pool_start": "object",
}  # fmt: skip
STATE_FIELDS = [name for name in STATE_DTYPES if name != "player_id"]
EMPTY_STATE = pd.DataFrame({name: pd.Series(dtype=dtype) for name, dtype in STATE_DTYPES.items()})


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
    # One note per event (its first three players), for the first MAX_EVENT_NOTES events.
    counts = differ.groupby("event", sort=True).size()
    shown_events = counts.index[:MAX_EVENT_NOTES]
    examples: dict[str, list[str]] = {}
    heads = differ[differ["event"].isin(shown_events)].groupby("event", sort=True).head(3)
    for event, player_id, in_file, used_rating in zip(
        heads["event"].tolist(),
        heads["player_id"].tolist(),
        heads["rating_in_file"].tolist(),
        heads["used"].tolist(),
        strict=True,
    ):
        examples.setdefault(str(event), []).append(
            f"{names.get(player_id, '?')} ({int(in_file)} in the file, "
            f"{int(used_rating) if pd.notna(used_rating) else 'unrated'} on the list)"
        )
    for event in shown_events:
        notes.append(
            f"{event}: {counts[event]} rating(s) in the file differ from the list in force, "
            f"which is used: {', '.join(examples[str(event)])}"
        )
    if len(counts) > MAX_EVENT_NOTES:
        notes.append(
            f"… and {len(counts) - MAX_EVENT_NOTES:,} more events whose files give ratings that "
            f"differ from the list in force ({int(counts.iloc[MAX_EVENT_NOTES:].sum()):,} ratings)"
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
    # A game is (player, opponent, round, result) as one integer; only the games seen in
    # more than one event are paired up.
    key = np.zeros(len(played), dtype=np.int64)
    for column in ("id", "opponent_id", "round", "result"):
        codes, distinct = pd.factorize(played[column])
        key = key * (len(distinct) + 1) + codes
    games = pd.DataFrame({"event": played["event"].astype(str).to_numpy(), "game": key})
    repeated = games.drop_duplicates()
    repeated = repeated[repeated.duplicated("game", keep=False)]
    shared = repeated.merge(repeated, on="game")
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
        ratings = _ratings_at(store, lists, kind, first_start[lists_used], period, from_standard)
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
        table.drop(columns=[*STATE_FIELDS, "kind", "period"], errors="ignore"),
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
    changed = merged["games"] > 0  # a row for everyone who played, and for any change
    for name in STATE_FIELDS:
        if name == "games":
            continue
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
        # The period's players, as ``rate`` shows them: those of its events, and any whose
        # status changed without a game (the whole list is list.csv).
        shown = (result.players["events"] > 0) | result.players["status"].isin(
            ["new", "below_floor"]
        )
        players = result.players[shown.to_numpy(dtype=bool)].drop(
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
        notes = [
            *outcome.notes,
            *detail_notes("Games", len(result.games)),
            *detail_notes("Calculations", len(outcome.calculations)),
        ]
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
        infos = [_event_info(row) for row in outcome.events.to_dict("records")]
        rules_of = {info.key: outcome.rules for info in infos}
        pages = event_pages(result, infos, rules_of, _listed(result))
        for key, page in progress(pages, f"{outcome.kind} event pages"):
            path = folder / "events" / f"{key}.html"
            write_event_html(page, outputs.path(path))
            paths.append(path)
    return paths


def _event_info(row: Mapping[Hashable, object]) -> EventInfo:
    """A stored event's metadata, for its HTML page."""
    end = row["end"]
    return EventInfo(
        key=str(row["key"]),
        name=str(row["name"]),
        source=str(row["source"]),
        start=row["start_date"],  # type: ignore[arg-type]
        end=dt.date.fromisoformat(str(end)) if isinstance(end, str) and end else None,
        time_control=str(row["time_control"] or ""),
    )


def _listed(result: PeriodResult) -> pd.DataFrame:
    """Every event's players as the period rated them (start rank, name, the rating used,
    points), for the HTML pages: one grouping of the period's games."""
    games = result.games
    listed = (
        games.groupby([games["event"].astype(str), "player"], sort=True)
        .agg(id=("id", "first"), rating=("rating", "first"), points=("score", "sum"))
        .reset_index()
    )
    listed["name"] = listed["id"].map(result.players.set_index("id")["name"])
    return listed


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
