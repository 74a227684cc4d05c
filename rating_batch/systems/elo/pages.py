"""What the HTML pages show, chosen from a rated period: per event its crosstable in the
final ranking and each player's calculation (rating change or first rating); per run or
published period an index of the events and players. Tables are made once for all the
events and split by event; ``writers.html`` lays the pages out.

The reasons a game does not count are shown as footnote marks (``REASON_MARKS``), visible on
paper and on phones, explained under the crosstable."""

from __future__ import annotations

from collections.abc import Collection, Hashable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np
import pandas as pd

from rating_batch.schema import EventInfo
from rating_batch.systems.elo.engine import PeriodResult
from rating_batch.systems.elo.first import performance
from rating_batch.systems.elo.reasons import ro_k_notes
from rating_batch.systems.elo.rules import Rules
from rating_batch.systems.elo.tables import divide_half_up

Record = dict[Hashable, object]

#: Each reason a game does not count: its footnote mark and what it means (docs/rules.md §1).
REASON_MARKS: dict[str, tuple[str, str]] = {
    "bye": ("b", "bye: no game played"),
    "forfeit": ("f", "forfeit: a game won or lost without play"),
    "unplayed": ("u", "not played (absent, or paired without a game)"),
    "unreadable": ("x", "the result in the file could not be read"),
    "unrated_opponent": ("r", "the opponent is unrated (counts only toward a first rating)"),
    "not_rated": ("n", "the player had no rating in this event's file"),
    "rating_gap": ("g", "the players are too far apart in rating for this list"),
    "short_event": ("s", "the event gave too few games toward a first rating"),
    "first_event_disregarded": ("d", "a first event with a score too low to count"),
}

#: Columns an event's entrants frame has (``event_pages``' ``entrants``): the players as
#: the file lists them.
ENTRANT_COLUMNS = ["event", "player", "fide_id", "name", "federation", "title", "rank"]


def records(frame: pd.DataFrame) -> list[Record]:
    """A frame's rows as dicts of Python values, None for missing: made once for all the
    pages of a period, then shared out (per small frame, pandas costs ~1 ms a page)."""
    names = list(frame.columns)
    columns = [
        frame[name].astype(object).where(frame[name].notna(), None).tolist() for name in names
    ]
    return [dict(zip(names, values, strict=True)) for values in zip(*columns, strict=True)]


def split_records(frame: pd.DataFrame, by: pd.Series | np.ndarray) -> dict[str, list[Record]]:
    """A frame's rows (``records``, made once) per value of ``by``, in their order."""
    rows = records(frame)
    keys = by.to_numpy() if isinstance(by, pd.Series) else by
    return {
        str(key): [rows[i] for i in np.asarray(positions).tolist()]
        for key, positions in frame.groupby(keys, sort=False).indices.items()
    }


@dataclass
class EventPage:
    """One event's page, as rows of Python values (``records``).

    ``crosstable``: per player in final-ranking order ``rank``, ``player`` (start number),
    ``name``, ``title``, ``federation``, ``fide_id``, ``id``, ``rating``, ``points``,
    ``games`` (counted), ``change`` (this event's K·ΣΔR), ``k``, ``new_rating``, ``status``,
    ``performance`` (Rp in this event), with the event's totals (``rc``, ``w``,
    ``n_scoring``, ``expected``). The crosstable's cells and the games of each player's
    calculation are in ``EventPages``' frames, laid out for all events at once.
    ``firsts``: per unrated player ``id`` the pooled games and the derivation row
    (``calculations.individual_calculations``)."""

    key: str
    title: str
    facts: list[tuple[str, str]]
    rounds: int
    ranked_by: str
    """``the file's final ranking`` or ``points`` (the file gives no final ranking)."""
    crosstable: list[Record]
    marks: list[tuple[str, str]]
    firsts: dict[str, list[Record]] = field(default_factory=dict)
    period: str = ""


@dataclass
class EventPages:
    """Every event's page, with the rows they share out as whole frames (a writer lays out
    all events' rows at once, then splits them by ``event`` and ``id``).

    ``crosstable``: ``EventPage.crosstable``'s rows of every event with its ``event``, per
    round ``cell_<r>`` and ``mark_<r>`` (a footnote mark when the game does not count), and
    ``rounds`` (the event's). ``games``: the counted games of each player's calculation
    (``event``, ``id``, the calculation's columns and the opponent's title and federation)."""

    pages: list[EventPage]
    crosstable: pd.DataFrame
    games: pd.DataFrame
    pooled: frozenset[str] = frozenset()
    """The ids of the players with games toward a first rating (``EventPage.firsts``)."""
    pools: pd.DataFrame | None = None
    """Their pooled games (the calculations' ``first_rating`` rows)."""
    period: str = ""
    others: pd.DataFrame | None = None
    """Per (``event``, ``id``) the player's other events of the period (``other``, its
    ``title``, ``dates`` and the player's ``change`` there; ``other_events``)."""

    def subset(self, keys: Collection[str]) -> EventPages:
        """The pages of the events ``keys`` alone, with their rows (the pools are shared)."""
        wanted = set(keys)

        def rows(frame: pd.DataFrame) -> pd.DataFrame:
            return frame[frame["event"].astype(str).isin(wanted).to_numpy()].reset_index(drop=True)

        return replace(
            self,
            pages=[page for page in self.pages if page.key in wanted],
            crosstable=rows(self.crosstable),
            games=rows(self.games),
            others=None if self.others is None else rows(self.others),
        )


@dataclass
class IndexPage:
    """The index of a run or published period: its events and players with links."""

    title: str
    facts: list[tuple[str, str]]
    events: list[Record]
    players: list[Record]
    more_players: int = 0
    """Players not listed (a period of more than ``MAX_INDEX_PLAYERS``)."""
    linked: bool = True
    """Whether the events have pages to link (a month-size ``rate`` writes them on request)."""
    note: str = ""
    """Said above the events: why they are not linked and how to get their pages."""


#: An index page lists at most this many players (a national period of 10^5 players would
#: be a page of tens of MB; the lists and reports hold them all).
MAX_INDEX_PLAYERS = 5_000


def event_pages(
    result: PeriodResult,
    infos: Sequence[EventInfo],
    event_rules: Mapping[str, Rules],
    entrants: pd.DataFrame,
    calculations: pd.DataFrame,
    period: str = "",
) -> EventPages:
    """Each event's page. ``entrants``: every event's players as its file lists them
    (``ENTRANT_COLUMNS``); ``calculations``: the period's individual calculations."""
    games = result.games
    event_of_game = games["event"].astype(str)
    crosstable = _crosstables(result, event_of_game, entrants, event_rules)
    rounds = games.groupby(event_of_game, sort=False)["round"].max()
    changes = calculations[calculations["calculation"].eq("rating_change").to_numpy()]
    changes = _with_opponents(changes, crosstable)
    k = changes.assign(event=changes["event"].astype(str)).drop_duplicates(["event", "id"])
    crosstable = crosstable.merge(
        k[["event", "id", "k"]].rename(columns={"event": "_event"}), on=["_event", "id"],
        how="left",
    )  # fmt: skip
    crosstable["rounds"] = crosstable["_event"].map(rounds).fillna(0).astype(np.int64)
    crosstable["ro_k_note"] = _ro_k_notes(result.players, crosstable, event_rules)
    period_change = result.players.set_index("id")["change"].astype("Float64").round(2)
    crosstable["period_change"] = crosstable["id"].map(period_change)
    shown = [c for c in crosstable.columns if not c.startswith(("cell_", "mark_", "_"))]
    tables = split_records(crosstable[shown], crosstable["_event"])
    by_points = crosstable.groupby("_event", sort=False)["_by_points"].first()
    used = _marks_by_event(games, event_of_game)
    pools = calculations[~calculations["calculation"].eq("rating_change").to_numpy()]
    firsts = split_records(pools, pools["id"].astype(str)) if len(pools) else {}
    pages = []
    for info in infos:
        key = info.key
        rules = event_rules.get(key)
        table = tables.get(key, [])
        facts = [
            ("dates", dates_of(info)),
            ("place", place_of(info)),
            ("list", rules.kind if rules else ""),
            ("rules", rules.label() if rules else ""),
            ("time control", info.time_control),
            ("players", str(len(table))),
            ("rounds", str(int(rounds.get(key, 0)))),
            ("file", Path(info.source).name),
        ]
        ids = [str(row["id"]) for row in table]
        pages.append(
            EventPage(
                key=key,
                title=info.name,
                facts=[(k, v) for k, v in facts if v],
                rounds=int(rounds.get(key, 0)),
                ranked_by="points" if by_points.get(key, True) else "the file's final ranking",
                crosstable=table,
                marks=[REASON_MARKS[reason] for reason in used.get(key, [])],
                firsts={i: firsts[i] for i in ids if i in firsts},
                period=period,
            )
        )
    crosstable = crosstable.rename(columns={"_event": "event"})
    pooled = pools[pools["calculation"].eq("first_rating").to_numpy()]
    others = other_events(result, infos)
    return EventPages(pages, crosstable, changes, frozenset(firsts), pooled, period, others)


def date_span(start: object, end: object) -> str:
    """An event's dates as every report shows them: ``2026-02-21 – 2026-02-23``."""
    return f"{start or '?'} – {end or '?'}"


def dates_of(info: EventInfo) -> str:
    """``date_span`` of an event's dates."""
    return date_span(info.start, info.end)


def place_of(info: EventInfo) -> str:
    """Where an event was played, as its file says (city, federation): "" when unknown."""
    return ", ".join(part for part in (info.city, info.federation) if part)


def other_events(result: PeriodResult, infos: Sequence[EventInfo]) -> pd.DataFrame:
    """For each player's event of the period, each of the player's other events: ``event``,
    ``id``, ``other``, ``title``, ``dates`` and ``change`` (K·ΣΔR there), in the order of the
    events (a period's total is the sum over all of them)."""
    runs = result.player_events
    frame = pd.DataFrame(
        {
            "id": result.players["id"].to_numpy()[runs["pidx"].to_numpy()],
            "event": runs["event"].astype(str).to_numpy(),
            "change": runs["change"].astype("Float64").round(2).to_numpy(),
        }
    )
    several = frame["id"].duplicated(keep=False).to_numpy()
    frame = frame[several]
    pairs = frame[["event", "id"]].merge(frame.rename(columns={"event": "other"}), on="id")
    pairs = pairs[pairs["event"] != pairs["other"]]
    titles = {info.key: info.name for info in infos}
    dates = {info.key: dates_of(info) for info in infos}
    order = {info.key: n for n, info in enumerate(infos)}
    pairs = pairs.assign(
        title=pairs["other"].map(titles),
        dates=pairs["other"].map(dates),
        _order=pairs["other"].map(order),
    )
    pairs = pairs.sort_values(["event", "id", "_order"], kind="stable")
    return pairs.drop(columns="_order").reset_index(drop=True)


def _ro_k_notes(
    players: pd.DataFrame, crosstable: pd.DataFrame, event_rules: Mapping[str, Rules]
) -> pd.Series:
    """Each crosstable row's note on the player's Ro and K in the period (``reasons``)."""
    columns = ["id", "rating", "rating_source", "k", "k_before_cap", "k_source", "games"]
    period = crosstable[["id"]].merge(players[columns], on="id", how="left")
    caps = (
        crosstable["_event"]
        .map({key: rules.k_games_cap for key, rules in event_rules.items()})
        .astype("Int64")
    )
    kind = next((rules.kind for rules in event_rules.values()), "")
    notes = ro_k_notes(period, kind, caps.set_axis(period.index))
    return notes.set_axis(crosstable.index)


def _crosstables(
    result: PeriodResult,
    event_of_game: pd.Series,
    entrants: pd.DataFrame,
    event_rules: Mapping[str, Rules],
) -> pd.DataFrame:
    """Every event's crosstable rows, events in turn, each in final-ranking order."""
    games = result.games
    # Mapped once per distinct reason (the column is categorical), not once per game.
    mark = (
        games["reason"]
        .astype("category")
        .map({reason: m for reason, (m, _) in REASON_MARKS.items()})
        .astype("string")
    )
    symbol = games["result"].astype("string").replace({"=": "½"}).fillna("")
    paired = games["opponent"].notna()
    cell = (
        games["opponent"].astype("string").fillna("") + games["colour"].astype("string").fillna("")
    ).where(paired, "") + symbol
    cells = pd.DataFrame(
        {
            "event": event_of_game,
            "player": games["player"],
            "round": games["round"],
            "cell": cell,
            "mark": mark.where(~games["counted"].to_numpy(bool)),
        }
    )
    wide = cells.pivot_table(
        index=["event", "player"], columns="round", values=["cell", "mark"], aggfunc="first"
    )
    wide.columns = [f"{column[0]}_{column[1]}" for column in wide.columns.to_list()]
    counted = games["counted"].to_numpy(bool)
    scoring = counted & games["diff"].notna().to_numpy()
    opponent_rating = games["opponent_rating"].astype("Int64")
    per_player = (
        pd.DataFrame(
            {
                "event": event_of_game,
                "player": games["player"],
                "id": games["id"],
                "rating": games["rating"],
                "score": games["score"],
                "games": counted.astype(np.int64),
                # Rp counts the games against rated opponents (docs/rules.md §5).
                "rp_n": (counted & opponent_rating.notna().to_numpy()).astype(np.int64),
                "rp_half": np.where(
                    counted & opponent_rating.notna().to_numpy(),
                    np.rint(games["score"].to_numpy(np.float64) * 2),
                    0,
                ).astype(np.int64),
                "rp_sum": np.where(counted, opponent_rating.fillna(0).to_numpy(np.int64), 0),
                # The rating calculation's games: counted, with a PD (rated players only).
                "n_scoring": scoring.astype(np.int64),
                "w": np.where(scoring, games["score"].to_numpy(np.float64), 0.0),
                "expected": games["expected"].astype("Float64").fillna(0).to_numpy(np.float64),
                "rc_sum": np.where(scoring, opponent_rating.fillna(0).to_numpy(np.int64), 0),
            }
        )
        .groupby(["event", "player"], sort=False)
        .agg(
            id=("id", "first"),
            rating=("rating", "first"),
            points=("score", "sum"),
            games=("games", "sum"),
            rp_n=("rp_n", "sum"),
            rp_half=("rp_half", "sum"),
            rp_sum=("rp_sum", "sum"),
            n_scoring=("n_scoring", "sum"),
            w=("w", "sum"),
            expected=("expected", "sum"),
            rc_sum=("rc_sum", "sum"),
        )
        .reset_index()
    )
    per_player["performance"] = _performances(per_player, event_rules)
    # The event's part of the calculation: Rc (opponents' average, half up) and We.
    n_scoring = per_player["n_scoring"].to_numpy(np.int64)
    per_player["rc"] = pd.array(
        divide_half_up(per_player["rc_sum"].to_numpy(np.int64), np.maximum(n_scoring, 1)),
        dtype="Int64",
    )
    per_player["rc"] = per_player["rc"].where(n_scoring > 0)
    per_player["expected"] = per_player["expected"].round(2).where(n_scoring > 0)
    players = result.players.set_index("id")
    change = result.player_events.assign(
        id=result.players["id"].to_numpy()[result.player_events["pidx"].to_numpy()],
        event=result.player_events["event"].astype(str),
    )[["event", "id", "change"]]
    table = (
        entrants[ENTRANT_COLUMNS]
        .assign(event=entrants["event"].astype(str))
        .merge(per_player, on=["event", "player"], how="left")
        .merge(change, on=["event", "id"], how="left")
        .merge(players[["status", "new_rating"]], left_on="id", right_index=True, how="left")
        .merge(wide.reset_index(), on=["event", "player"], how="left")
    )
    table["change"] = table["change"].astype("Float64").round(2)
    # The file's final ranking when it gives one for every player; else by points (then the
    # start number), ranks shared by equal points.
    given = (
        table["rank"].notna().groupby(table["event"], sort=False).transform("all").to_numpy(bool)
    )
    table["_by_points"] = ~given
    by_points = (
        table.groupby("event", sort=False)["points"]
        .rank(method="min", ascending=False)
        .astype("Int64")
    )
    table["rank"] = table["rank"].astype("Int64").where(given, by_points)
    order = {key: n for n, key in enumerate(pd.unique(table["event"]))}
    table["_event_order"] = table["event"].map(order)
    table = table.sort_values(["_event_order", "rank", "player"], kind="stable")
    table = table.drop(columns=["_event_order", "rp_n", "rp_half", "rp_sum", "rc_sum"])
    return table.rename(columns={"event": "_event"}).reset_index(drop=True)


def _performances(per_player: pd.DataFrame, event_rules: Mapping[str, Rules]) -> pd.Series:
    """Rp in each event (against rated opponents), under the rules of that event."""
    values = pd.Series(pd.NA, index=per_player.index, dtype="Int64")
    n = per_player["rp_n"].to_numpy(np.int64)
    for keys in _events_by_rules(per_player["event"], event_rules).values():
        rules = event_rules[keys[0]]
        rows = per_player["event"].isin(keys).to_numpy() & (n > 0)
        if rows.any():
            values[rows] = performance(
                n[rows],
                per_player["rp_half"].to_numpy(np.int64)[rows],
                per_player["rp_sum"].to_numpy(np.int64)[rows],
                rules,
            )
    return values


def _events_by_rules(events: pd.Series, event_rules: Mapping[str, Rules]) -> dict[str, list[str]]:
    grouped: dict[str, list[str]] = {}
    for key in pd.unique(events).tolist():
        rules = event_rules.get(str(key))
        if rules is not None:
            grouped.setdefault(f"{rules.edition}/{rules.kind}", []).append(str(key))
    return grouped


def _marks_by_event(games: pd.DataFrame, event_of_game: pd.Series) -> dict[str, list[str]]:
    """The reasons seen in each event's uncounted games, in ``REASON_MARKS`` order."""
    reasons = pd.DataFrame(
        {"event": event_of_game, "reason": games["reason"].astype("string")}
    ).dropna()
    order = list(REASON_MARKS)
    seen = reasons.drop_duplicates().groupby("event", sort=False)["reason"].agg(set)
    return {str(k): [r for r in order if r in v] for k, v in seen.items()}


def _with_opponents(changes: pd.DataFrame, crosstable: pd.DataFrame) -> pd.DataFrame:
    """The counted games with the opponent's title and federation as the event's file gives
    them, and D before the 400-point rule (``raw_diff``)."""
    people = crosstable[["_event", "id", "title", "federation"]].rename(
        columns={
            "_event": "event",
            "id": "opponent_id",
            "title": "opponent_title",
            "federation": "opponent_federation",
        }
    )
    games = changes.assign(event=changes["event"].astype(str))
    merged = games.merge(
        people.drop_duplicates(["event", "opponent_id"]), on=["event", "opponent_id"], how="left"
    )
    raw = merged["rating"].astype("Int64") - merged["opponent_rating"].astype("Int64")
    return merged.assign(raw_diff=raw)


def index_page(
    title: str,
    facts: list[tuple[str, str]],
    pages: Sequence[EventPage],
    players: pd.DataFrame,
    infos: Sequence[EventInfo],
    unlinked: Sequence[Record] = (),
    note: str = "",
) -> IndexPage:
    """The index of a run or period: each event (dates, players, link to its page) and each
    player (status, ratings, the events played, linked to the player's section there).
    ``unlinked``: the events as ``index_events`` gives them, when they have no pages (then
    nothing is linked, and ``note`` says why)."""
    first_event = {
        str(row["id"]): page.key for page in pages for row in page.crosstable if row.get("id")
    }
    dates = {info.key: dates_of(info) for info in infos}
    places = {info.key: place_of(info) for info in infos}
    events: list[Record] = [
        {
            "key": page.key,
            "title": page.title,
            "dates": dates.get(page.key, ""),
            "place": places.get(page.key, ""),
            "players": len(page.crosstable),
            "rounds": page.rounds,
        }
        for page in pages
    ]
    order = players["name"].astype("string").str.casefold().argsort(kind="stable")
    shown = players.iloc[order].head(MAX_INDEX_PLAYERS)
    columns = ["id", "name", "federation", "status", "rating", "games", "new_rating"]
    rows = records(shown[[c for c in columns if c in shown.columns]])
    for row in rows:
        row["event"] = first_event.get(str(row["id"]))
    more = max(0, len(players) - MAX_INDEX_PLAYERS)
    if unlinked:
        return IndexPage(title, facts, list(unlinked), rows, more, linked=False, note=note)
    return IndexPage(title, facts, events, rows, more)


def index_events(
    result: PeriodResult, infos: Sequence[EventInfo], entrants: pd.DataFrame
) -> list[Record]:
    """The index's row of each event as ``index_page`` makes it from the event's page (its
    title, dates, place, players as its file lists them, rounds played), without laying out
    the pages: for an index whose events have none."""
    players = entrants["event"].astype(str).value_counts()
    games = result.games
    rounds = games.groupby(games["event"].astype(str), sort=False)["round"].max()
    return [
        {
            "key": info.key,
            "title": info.name,
            "dates": dates_of(info),
            "place": place_of(info),
            "players": int(players.get(info.key, 0)),
            "rounds": int(rounds.get(info.key, 0)),
        }
        for info in infos
    ]


def entrants_of(players: pd.DataFrame) -> pd.DataFrame:
    """An entrants frame (``ENTRANT_COLUMNS``) from event files' players frames."""
    return players.reindex(columns=ENTRANT_COLUMNS)
