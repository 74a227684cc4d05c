""" "How was my rating computed?": one player's calculation for one list and period, from the
rows the publish wrote (its calculations.csv and players.csv), arranged as FIDE's individual
calculation: per event Ro, Rc, W, n, We, K, ΣΔR and K·ΣΔR with its games; the first-rating
derivation step by step; for a player below the floor, the computed rating and why it is not
on the list. Pure: the production ``player`` command reads the rows and writes the reports.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np
import pandas as pd

from rating_batch.systems.elo.adjustment import adjustment_line
from rating_batch.systems.elo.pages import Record as Row
from rating_batch.systems.elo.pages import records
from rating_batch.systems.elo.reasons import ro_k_notes
from rating_batch.systems.elo.rules import KINDS, Rules
from rating_batch.systems.elo.tables import divide_half_up
from rating_batch.values import as_float, as_int, missing


@dataclass(frozen=True)
class EventLabel:
    """How an event is named to a reader: its title and dates (its key names its files)."""

    title: str
    dates: str


@dataclass
class EventPart:
    """One event's part of a period's rating change."""

    event: str
    label: EventLabel
    ro: int | None
    rc: int | None
    """The counted opponents' average rating, rounded half up."""
    w: float
    n: int
    we: float
    k: int | None
    delta: float
    """ΣΔR = W − We."""
    change: float
    """K·ΣΔR."""
    games: list[Row]


@dataclass
class PeriodPart:
    """A player's calculation for one list kind and period."""

    kind: str
    period: str
    rules: str
    status: str
    rating: int | None
    k: int | None
    games: int | None
    change: float | None
    new_rating: int | None
    events: list[EventPart] = field(default_factory=list)
    pool: list[Row] = field(default_factory=list)
    """First rating: the pooled games, hypothetical opponents last."""
    derivation: Row | None = None
    """First rating: ``calculations`` ``first_rating_result`` row."""
    verdict: str = ""
    """What the period did, in a sentence (rated, first rating, fell below the floor …)."""
    note: str = ""
    """Where Ro and K came from when a reader would not guess it (``reasons.ro_k_notes``)."""
    adjustment: int | None = None
    """The points a list adjustment added to the rating computed (docs/rules.md §7)."""


def period_part(
    kind: str,
    period: str,
    rules: Rules,
    player: Row,
    calculations: pd.DataFrame,
    people: pd.DataFrame,
    events: Mapping[str, EventLabel] | None = None,
) -> PeriodPart:
    """The player's calculation from a published period's rows.

    ``player``: the player's players.csv row; ``calculations``: the player's
    calculations.csv rows; ``people``: players.csv rows of the opponents (``id``, ``title``,
    ``federation``), for the games' opponent columns; ``events``: by key, how the events are
    named (a pooled game's row gets its event's ``title``)."""
    events = events or {}
    status = str(player.get("status") or "")
    part = PeriodPart(
        kind=kind,
        period=period,
        rules=rules.label(),
        status=status,
        rating=_whole(player.get("rating")),
        k=_whole(player.get("k")),
        games=_whole(player.get("games")),
        change=_decimal(player.get("change")),
        new_rating=_whole(player.get("new_rating")),
        adjustment=_whole(player.get("adjustment")) or None,
    )
    changes = calculations[calculations["calculation"].eq("rating_change").to_numpy()]
    if len(changes):
        part.events = _events(changes, people, events)
    pool = calculations[calculations["calculation"].eq("first_rating").to_numpy()]
    part.pool = records(pool)
    for game in part.pool:
        key = str(game.get("event"))
        game["title"] = events[key].title if key in events else key
    derivation = calculations[calculations["calculation"].eq("first_rating_result").to_numpy()]
    part.derivation = records(derivation)[0] if len(derivation) else None
    part.verdict = _verdict(part, rules)
    part.note = str(ro_k_notes(pd.DataFrame([player]), kind, rules.k_games_cap).iloc[0])
    raised = part.adjustment
    if raised and part.new_rating is not None:
        said = adjustment_line(rules, part.new_rating - raised, part.new_rating)
        part.note = f"{said}; {part.note}" if part.note else said
    return part


def _events(
    changes: pd.DataFrame, people: pd.DataFrame, labels: Mapping[str, EventLabel]
) -> list[EventPart]:
    opponents = people.set_index("id")
    games = changes.assign(
        opponent_title=changes["opponent_id"].map(opponents["title"]),
        opponent_federation=changes["opponent_id"].map(opponents["federation"]),
        raw_diff=changes["rating"].astype("Int64") - changes["opponent_rating"].astype("Int64"),
    )
    parts = []
    for event, rows in games.groupby("event", sort=False):
        n = len(rows)
        ratings = rows["opponent_rating"].to_numpy(np.int64)
        w = float(rows["score"].astype(float).sum())
        we = round(float(rows["expected"].astype(float).sum()), 2)
        parts.append(
            EventPart(
                event=str(event),
                label=labels.get(str(event), EventLabel(str(event), "")),
                ro=_whole(rows["rating"].iloc[0]),
                rc=int(divide_half_up(np.array([ratings.sum()]), np.array([n]))[0]),
                w=w,
                n=n,
                we=we,
                k=_whole(rows["k"].iloc[0]),
                delta=round(w - we, 2),
                change=round(float(rows["k_delta"].astype(float).sum()), 2),
                games=records(rows),
            )
        )
    return parts


def _verdict(part: PeriodPart, rules: Rules) -> str:
    """What the period did to the player, in a sentence."""
    raised = part.adjustment or 0
    computed = None if part.new_rating is None else part.new_rating - raised
    then = f", adjusted to {part.new_rating} (docs/rules.md §7)" if raised else ""
    if part.status == "rated":
        if part.change is None:
            if raised:
                return f"rated {part.rating}; no counted game this period{then}"
            return f"rated {part.rating}; no counted game this period: the rating stays"
        return (
            f"Rn = Ro {part.rating} + change {part.change:+.2f} = "
            f"{(part.rating or 0) + part.change:.2f} → {computed}{then}"
        )
    if part.status == "new":
        first = f"first rating {computed}{then}" if raised else f"first rating {computed}"
        return f"{first}: on the list from {part.period}"
    if part.status == "below_floor":
        return (
            f"computed rating {computed} = Ro {part.rating} + change {part.change or 0:+.2f}"
            f"{then}{',' if raised else ''} is below the floor {rules.floor}: off the list, "
            "unrated again"
        )
    if part.derivation is not None:
        return f"still unrated: {part.derivation.get('outcome')}"
    return "unrated: no game counted toward a first rating this period"


class Person(Protocol):
    """Who a player's report is about, as its heading names him (read-only)."""

    @property
    def label(self) -> str: ...
    @property
    def name(self) -> str: ...
    @property
    def fide_id(self) -> str | None: ...
    @property
    def federation(self) -> str | None: ...
    @property
    def title(self) -> str | None: ...
    @property
    def born(self) -> str | None: ...


def player_heading(person: Person, id_name: str = "FIDE ID") -> str:
    """``GM Name (FIDE ID n, FED, born y)``, or ``(no FIDE ID, <event>#<rank>, …)``: the top
    of every page and sheet of a player's report, under any rating system (``id_name``: what
    the system's lists key players by, docs/systems.md)."""
    identity = f"{id_name} {person.fide_id}" if person.fide_id else f"no {id_name}, {person.label}"
    title = f"{person.title} " if person.title else ""
    born = person.born or "?"
    return f"{title}{person.name} ({identity}, {person.federation or '-'}, born {born})"


def in_list_order(frame: pd.DataFrame) -> pd.DataFrame:
    """A player's rows of several lists (a ``kind`` column) in the reports' one order of the
    lists: standard, rapid, blitz (``KINDS``), each list's rows in the order they came."""
    if frame.empty:
        return frame
    order = frame["kind"].map(KINDS.index).to_numpy().argsort(kind="stable")
    return frame.iloc[order].reset_index(drop=True)


def _whole(value: object) -> int | None:
    if missing(value):
        return None
    if isinstance(value, str):
        return int(value) if value.strip() else None
    return as_int(value)


def _decimal(value: object) -> float | None:
    if missing(value):
        return None
    if isinstance(value, str):
        return float(value) if value.strip() else None
    return as_float(value)


@dataclass
class PlayerReport:
    """Everything ``player`` shows of one player."""

    label: str
    """The player's id in our files: the FIDE ID, else the event label that created them."""
    name: str
    fide_id: str | None
    federation: str | None
    title: str | None
    born: str | None
    history: pd.DataFrame
    """Per list kind and period: rating, k, games, games_total, inactive."""
    parts: list[PeriodPart]
    pending: pd.DataFrame
    """Games pending toward a first rating after the last published list of each kind."""
    missing: list[str] = field(default_factory=list)
    """Published lists the player played in whose files the database does not hold."""
    norms: pd.DataFrame = field(default_factory=pd.DataFrame)
    """The title norms he made in the published periods' events: their norms.csv rows
    (``norms.csv``'s columns, ``event``, ``period``; docs/norms.md §8)."""
    rating_titles: pd.DataFrame = field(default_factory=pd.DataFrame)
    """The titles by rating he could hold, reached or not (``titles.by_rating``)."""
    gathered: pd.DataFrame = field(default_factory=pd.DataFrame)
    """Per norm title, his norms and the games they count (``titles.by_rating``)."""

    def __post_init__(self) -> None:
        # One order of the lists in every report, text, sheets and page alike.
        self.history = in_list_order(self.history)
        self.pending = in_list_order(self.pending)
        self.parts = sorted(self.parts, key=lambda part: (KINDS.index(part.kind), part.period))

    def heading(self) -> str:
        return player_heading(self)
