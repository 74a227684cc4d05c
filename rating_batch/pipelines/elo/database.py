"""FIDE Elo's part in the database's commands (``pipelines/seam.DatabasePart``): a database
made from a FIDE rating list (``init``: ratings, K and the history flags a list carries),
a period's list kinds rated and kept (``publish``: ``publish.rate_list``, written by
``published.write_period``), a list written again (``export-list``), and a player's
calculations read from the files each publish stored (``player``)."""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from rating_batch.assemble import player_ids
from rating_batch.errors import InputError, Issue, RulesError
from rating_batch.loaders import Progress, read_rating_list
from rating_batch.periods import (
    INITIAL,
    Period,
    list_before,
    list_date,
    next_list_period,
    period_name,
    shown,
)
from rating_batch.pipelines.changes import ListCounts, change_summary
from rating_batch.pipelines.elo.floor import below_floor_on_list, idle_below_floor
from rating_batch.pipelines.elo.norms import (
    NORMS_KIND,
    has_norms,
    stored_norms,
    write_period_norms,
)
from rating_batch.pipelines.elo.publish import rate_list, read_state
from rating_batch.pipelines.published import (
    LIST_FILES,
    TXT_LIST,
    Keeping,
    list_sheets,
    list_title,
    write_list,
    write_period,
)
from rating_batch.pipelines.rated import KindOutcome
from rating_batch.pipelines.rows import rows_of
from rating_batch.pipelines.seam import InitRequest, Outcome, Publisher, RuleBook
from rating_batch.staging import OutputSet, staged_outputs
from rating_batch.store import Store, create_store
from rating_batch.systems.elo.adjustment import adjustment_applies, adjustment_summary
from rating_batch.systems.elo.explain import EventLabel, PeriodPart, PlayerReport, period_part
from rating_batch.systems.elo.k import games_from_list_k, junior_year
from rating_batch.systems.elo.pages import date_span
from rating_batch.systems.elo.rules import Rules
from rating_batch.systems.elo.state import STATE_FIELDS, listing_of
from rating_batch.titles.by_rating import norms_gathered, titles_by_rating
from rating_batch.titles.rules import EDITIONS as NORM_EDITIONS
from rating_batch.titles.rules import LATEST as LATEST_NORMS
from rating_batch.validation import refuse_repeated_ids
from rating_batch.values import differs, number
from rating_batch.writers import (
    player_text,
    write_player_html,
    write_player_workbook,
)

#: The files of a list kind that ``export-list`` writes: every system's and FIDE's TXT list.
ELO_LIST_FILES = (*LIST_FILES, TXT_LIST)


class EloDatabase:
    """FIDE Elo's part in the database's commands."""

    def init(self, request: InitRequest) -> Outcome:
        r = request
        if r.from_elo:
            raise RulesError(
                f"--from-elo: {r.rules_name} is FIDE Elo; the list is an Elo list already"
            )
        book = r.book
        rating_list = read_rating_list(r.list_path, kind=r.kind or "standard", encoding=r.encoding)
        kinds = (r.kind,) if r.kind else rating_list.kinds
        if r.kind and r.kind not in rating_list.kinds:
            raise InputError([Issue(str(r.list_path), None, f"the list has no {r.kind} ratings")])
        label = r.period
        if label is None:
            label = period_name(*rating_list.month) if rating_list.month is not None else INITIAL
        frame = rating_list.frame
        refuse_repeated_ids(frame, rating_list.source)
        notes: list[str] = []
        warnings: list[Issue] = []
        with create_store(r.db) as store:
            store.create_tables_content(r.rules_name, r.rules_text)
            players = pd.DataFrame(
                {
                    "player_id": np.arange(1, len(frame) + 1),
                    "fide_id": frame["id"],
                    "national_id": frame["national_id"],
                    **{c: frame[c] for c in ("name", "federation", "sex", "title", "w_title")},
                    **{c: frame[c] for c in ("o_title", "foa_title", "birth_year")},
                    "created_by": _created_by(frame),
                }
            )
            players["name"] = players["name"].fillna("")
            store.insert_players(players)
            rules = book.for_period(label)
            for each in kinds:
                listed = rating_list.for_kind(each)
                rows, inferred = _initial_ratings(listed, frame, players, each, label, rules)
                warnings += below_floor_on_list(
                    listed, player_ids(players), each, rules.for_kind(each), rating_list.source
                )
                store.insert_ratings(rows)
                store.add_list(label, each, "init", r.rules_name)
                notes.append(f"{each}: {int(rows['rating'].notna().sum())} rated players")
                if inferred:
                    notes.append(
                        f"{each}: {inferred} players with K {rules.k_new} who are neither "
                        "juniors nor 2400+ are taken to have fewer than 30 games, counted from "
                        "0 from now on"
                    )
        month = "(month unknown: in force before every event)" if label == INITIAL else shown(label)
        return Outcome(
            [
                f"created {r.db} from {r.list_path}: {len(frame)} players, list {month}, "
                f"rules {r.rules_name}",
                *notes,
            ],
            [*rating_list.issues, *warnings],
        )

    def publisher(self, book: RuleBook) -> Publisher[KindOutcome]:
        return Publisher(EloLists(book))

    def also_rated(self, events: pd.DataFrame) -> set[str]:
        return set()  # an event is rated for the one list it is filed under

    def export(
        self, store: Store, book: RuleBook, period: Period, kinds: list[str],
        stored: dict[str, bytes], out: Path,
    ) -> list[Path]:  # fmt: skip
        """A published list's files as published; the initial list (or one published by an
        older version, which kept no files) made again from its stored ratings."""
        people = store.players()
        paths: list[Path] = []
        with staged_outputs(out) as outputs:
            for each in kinds:
                folder = out / ("initial" if period == INITIAL else period) / each
                files = {name: stored.get(f"{each}/{name}") for name in ELO_LIST_FILES}
                kept = {name: data for name, data in files.items() if data is not None}
                if len(kept) == len(files):
                    for name, data in kept.items():
                        outputs.write_bytes(folder / name, data)
                else:
                    rules = book.for_period(period).for_kind(each)
                    state = read_state(store, each, period)
                    table = people.assign(id=player_ids(people))
                    listing = listing_of(
                        state.assign(inactive=state["inactive"].astype(bool)), table, rules
                    )
                    sheets = list_sheets(listing, *list_title(each, period, rules))
                    write_list(listing, sheets, folder, outputs.path, txt=period)
                paths.extend(folder / name for name in ELO_LIST_FILES)
        return paths

    def explain(
        self, store: Store, book: RuleBook, person: dict[str, Any], label: str, out: Path | None
    ) -> str:
        report = gather(store, book, person, label)
        if out is not None:
            with staged_outputs(out.parent) as outputs:
                write_player_workbook(report, outputs.path(out.with_name(f"{out.name}.xlsx")))
                write_player_html(report, outputs.path(out.with_name(f"{out.name}.html")))
        return player_text(report)


POOL_COLUMNS = [
    "period", "kind", "player_id", "event_id", "round", "opponent_rating", "half", "game_period",
]  # fmt: skip


@dataclass(frozen=True)
class EloLists:
    """A period's list kinds rated as FIDE Elo lists (``publish.rate_list``), written with
    their reports and event pages (``published.write_period``)."""

    book: RuleBook

    def rate(self, store: Store, period: Period, kind: str) -> KindOutcome:
        return rate_list(store, self.book, period, kind)

    def write(
        self, outcomes: list[KindOutcome], period: Period, out: Path, outputs: OutputSet,
        progress: Progress, keeping: Keeping,
    ) -> list[Path]:  # fmt: skip
        paths = write_period(outcomes, period, out, outputs, progress, keeping)
        if has_norms(self.book.name):  # FIDE's title norms (docs/norms.md §8)
            paths += write_period_norms(outcomes, period, out, outputs)
        return paths

    def keep(self, store: Store, period: Period, outcome: KindOutcome) -> None:
        _store_outcome(store, period, outcome, self.book.name)

    def lines(self, outcome: KindOutcome) -> list[str]:
        players = outcome.result.players
        counts = players["status"].value_counts()
        # Those with games pending from earlier periods are unrated too, but did not play.
        unrated = int(((players["status"] == "unrated") & (players["events"] > 0)).sum())
        # The list's counts are changes.csv's, whatever the players' statuses say (a rapid
        # player joining from the standard rating is "rated" and new on the list).
        listed = ListCounts.of(outcome.changes, len(outcome.listing))
        under = int(counts.get("below_floor", 0)) - listed.below_floor
        idle = idle_below_floor(players)
        against = "no earlier list" if outcome.previous is None else shown(outcome.previous)
        return [
            f"{outcome.kind}: {len(outcome.events)} event(s) under {outcome.rules.edition}; "
            f"list of {listed.listed} players ({listed.kept} from the previous list, "
            f"{listed.arrivals()}); {listed.below_floor - idle} fell below the floor and left "
            "it"
            + (
                f", {idle} rated below the floor on the previous list left it without a game"
                if idle
                else ""
            )
            + (f", {under} more ended below it, not having been on the list" if under else "")
            + f", {unrated} played but are still unrated",
            f"  {change_summary(outcome.changes, against)}",
            *_adjusted_line(outcome),
        ]


def _adjusted_line(outcome: KindOutcome) -> list[str]:
    """Publish's line on a list adjustment the period's list took (docs/rules.md §7)."""
    players, rules = outcome.result.players, outcome.rules
    if "adjustment" not in players:
        return []
    said = adjustment_summary(rules, players)
    return [f"  list adjustment of {rules.adjustment_on} (docs/rules.md §7): {said}"]


def _store_outcome(store: Store, period: Period, outcome: KindOutcome, rules_name: str) -> None:
    """The new states (a row for everyone who played, and for any change against the
    list the period was rated from), the pool, the list."""
    kind = outcome.kind
    state = outcome.state
    merged = state.merge(
        outcome.previous_state, on="player_id", how="left", suffixes=("", "_before")
    )
    changed = merged["games"] > 0
    for name in STATE_FIELDS:
        if name == "games":
            continue
        changed |= differs(merged[name], merged[f"{name}_before"])
    pool = outcome.pending
    rows = pool.assign(period=period, kind=kind)[POOL_COLUMNS] if len(pool) else pd.DataFrame()
    store.store_publication(period, kind, state[changed.to_numpy(bool)], rows, rules_name)


def _created_by(frame: pd.DataFrame) -> pd.Series:
    """What made each player of a list (``players.created_by``, the public id of a player
    without a FIDE ID): ``list``; for a player without one, the id our lists give them
    (``<event key>#<start rank>``, so a list we published reads back as it was), else
    their national id, else ``list#<line>``."""
    national = frame["national_id"].where(frame["id"].isna())
    made = frame["own_id"].fillna(national).astype(object)
    made = made.where(made.notna())
    made = made.fillna(("list#" + frame["line"].astype(str)).where(frame["id"].isna()))
    return made.fillna("list")


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
    # The list's K is for the next period, whose juniors are judged as the rules say (§3).
    year = junior_year(rules, next_list_period(rules, period), None) if period != INITIAL else None
    games_total, new = games_from_list_k(listed, peak, rules, year)
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
    # Unrated rows are kept when they say something: lifetime games (a player who left the
    # list at the floor keeps them for K after a new first rating) or a history flag.
    flags = [name for name in listed.columns if name.startswith("ever_")]
    keep = (
        rating.notna()
        | listed["k"].notna()
        | listed["games_total"].notna()
        | listed[flags].notna().any(axis=1)
    ).to_numpy()
    return rows[keep], int((new & rating.notna()).sum())


def gather(store: Store, book: RuleBook, person: dict[str, Any], label: str) -> PlayerReport:
    """Everything the report shows, read from the database."""
    player_id = int(person["player_id"])
    fide = person["fide_id"]
    history = store.player_history(player_id)
    pending = store.player_pending(player_id).merge(
        store.last_published_by_kind(), on=["kind", "period"]
    )
    parts: list[PeriodPart] = []
    missing: list[str] = []
    former = store.former_id(player_id)
    played = store.player_published_periods(player_id)
    # A list adjustment moved every rating below its pivot (docs/rules.md §7): its list is
    # explained to those who did not play too.
    adjusted = [each for each in _adjusted_lists(store, book) if each not in set(
        played.itertuples(index=False, name=None))]  # fmt: skip
    every = sorted([*played.itertuples(index=False, name=None), *adjusted])
    for kind, period in every:
        listed = Period.parse(period)
        rules = book.for_period(listed).for_kind(kind)
        part = _period(store, rules, kind, listed, label, former)
        if part is None:
            missing.append(f"{kind} {period}")
        else:
            parts.append(part)
    standard = history[history["kind"] == NORMS_KIND]
    dates = standard["period"].map(lambda p: None if p == INITIAL else list_date(str(p)))
    norms = stored_norms(
        store,
        sorted(set(played.loc[played["kind"] == NORMS_KIND, "period"])),
        {label} if former is None else {label, former},
    )
    return PlayerReport(
        norms=norms,
        gathered=norms_gathered(norms, NORM_EDITIONS[LATEST_NORMS]),
        # FIDE's titles by rating are judged on FIDE's lists only: a federation's rules file
        # rates for its own list (as norms are written for FIDE's only).
        rating_titles=titles_by_rating(
            standard, dates, person.get("sex"), NORM_EDITIONS[LATEST_NORMS]
        )
        if has_norms(book.name)
        else pd.DataFrame(),
        label=label,
        name=str(person["name"]),
        fide_id=label if pd.notna(fide) else None,
        federation=str(person["federation"]) if pd.notna(person["federation"]) else None,
        title=str(person["title"]) if pd.notna(person.get("title")) else None,
        born=number(person["birth_year"]) or None,
        history=history,
        parts=parts,
        pending=pending,
        missing=missing,
    )


def _adjusted_lists(store: Store, book: RuleBook) -> list[tuple[str, str]]:
    """The published lists (kind, period) that took a list adjustment."""
    lists = store.lists()
    found = []
    for kind, period in lists[lists["origin"] == "publish"][["kind", "period"]].itertuples(
        index=False, name=None
    ):
        listed = Period.parse(str(period))
        rules = book.for_period(listed).for_kind(str(kind))
        if adjustment_applies(rules, list_before(lists, str(kind), listed), listed):
            found.append((str(kind), str(period)))
    return found


def _period(
    store: Store, rules: Any, kind: str, period: Period, label: str, former: str | None
) -> PeriodPart | None:
    """The player's calculation in one published list, from the files its publish stored
    (None when the database holds no files for it). A list published before he received
    his FIDE ID names him by the id he had, ``former``: it never changes."""
    ids = {label} if former is None else {label, former}
    calculations = rows_of(store.published_file(period, f"{kind}/calculations.csv"), ids)
    players = store.published_file(period, f"{kind}/players.csv")
    if calculations is None or players is None:
        return None
    opponents = set(calculations["opponent_id"].dropna().astype(str))
    people = rows_of(players, ids | opponents)
    assert people is not None
    mine = people[people["id"].isin(ids)].sort_values("id", key=lambda i: i != label)
    if mine.empty:
        return None
    row: dict[Hashable, object] = dict(mine.iloc[0].items())
    played_as = str(row["id"])
    calculations = calculations[calculations["id"].astype(str) == played_as]
    keys = set(calculations["event"].dropna().astype(str)) - {"hypothetical"}
    part = period_part(kind, period, rules, row, calculations, people, _labels(store, keys))
    if played_as != label:
        said = f"played as {played_as} (his id before he received FIDE ID {label})"
        part.note = f"{said}; {part.note}" if part.note else said
    return part


def _labels(store: Store, keys: set[str]) -> dict[str, EventLabel]:
    """How the stored events ``keys`` are named: title and dates (an event removed since the
    publish is named by its key)."""
    labels = {}
    for key in sorted(keys):
        event = store.event_by_key(key)
        if event is not None:
            labels[key] = EventLabel(str(event["name"]), date_span(event["start"], event["end"]))
    return labels
