"""The title norms of a published period (docs/norms.md §8; spec title-norms §A.3): each
standard event of the period as the norm checks see it, with the ratings it was rated with
(the list in force at its start, 1.4.6), checked for every player within reach of a norm,
and written among the period's files as ``standard/norms.csv`` with a certificate per norm:
kept with the publish, written again by a re-publish, taken back by ``unpublish``. Read
again, a few players' rows at a time, by ``player`` and the site."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pandas as pd

from rating_batch.periods import Period, stored_day
from rating_batch.pipelines.rated import KindOutcome
from rating_batch.pipelines.rows import rows_of
from rating_batch.schema import Event, EventInfo
from rating_batch.staging import OutputSet
from rating_batch.store import Store
from rating_batch.systems.elo.rules import EDITIONS, FIDE_BY_DATE
from rating_batch.titles.certificate import certificate
from rating_batch.titles.event import event_facts
from rating_batch.titles.rules import EDITIONS as NORM_EDITIONS
from rating_batch.titles.search import NORMS_COLUMNS, EventNorms, events_norms
from rating_batch.values import text_of
from rating_batch.writers.norms import write_certificate, write_norms_csv

#: A period's norms, beside its standard list (norms are standard play only, 0.5).
NORMS_KIND = "standard"
NORMS_FILE = "norms.csv"
#: The period's norms.csv: the contract's columns, then the event's key (one file holds
#: every event of the period; ``id`` is the player's public id, as every list gives it).
PERIOD_NORMS_COLUMNS = (*NORMS_COLUMNS, "event")
#: The loaders' reasons for a round without a game at the board (``schema.REASONS``); the
#: engine's own (an unrated opponent, a rating gap …) are games played.
UNPLAYED = ("bye", "forfeit", "unplayed", "unreadable")


def has_norms(book_name: str) -> bool:
    """Whether a database's lists are FIDE's (its editions by date, or one of them): norms
    are FIDE's; a federation's rules file rates for its own list."""
    return book_name == FIDE_BY_DATE or book_name in EDITIONS


def within_reach(games: pd.DataFrame, titles: pd.Series) -> pd.Series:
    """Whether each (event, player) could make any norm, by the two conditions no smaller
    set can mend: enough games at the board (1.4.1a, c: 8 with a credited ninth round) and
    three games against holders of a target title of the easiest norm (1.4.5b-e: WIM's GM,
    IM, WGM or WIM; max(3, ⌈n/3⌉) is never below 3). Never false for a player who has one.

    Expects ``games`` columns ``event``, ``player``, ``opponent``, ``reason`` (the rated
    period's games); ``titles``: each (event, start rank)'s title. Returns a boolean Series
    indexed by (event, player)."""
    rules = NORM_EDITIONS.values()
    fewest = min(min(r.min_games, r.credit_141c_games) for r in rules)
    target = min(r.target_minimum for r in rules)
    easiest = set().union(*(t.targets for r in rules for t in r.titles))
    played = games["opponent"].notna().to_numpy(bool) & ~games["reason"].isin(UNPLAYED).to_numpy(
        bool
    )
    keys = pd.MultiIndex.from_arrays([games["event"], games["opponent"].fillna(0)])
    titled = titles.reindex(keys).isin(easiest).to_numpy(bool)
    counts = (
        pd.DataFrame(
            {"event": games["event"], "player": games["player"], "n": played, "t": played & titled}
        )
        .groupby(["event", "player"])[["n", "t"]]
        .sum()
    )
    return (counts["n"] >= fewest) & (counts["t"] >= target)


def period_norms(outcome: KindOutcome) -> list[EventNorms]:
    """The norms of the period's events for the players within reach (``within_reach``),
    each event judged by the edition in force at its start. ``rows``' ``id`` is the
    player's public id (the FIDE ID, else ``<event>#<start rank>``)."""
    if outcome.kind != NORMS_KIND or outcome.result.games.empty:
        return []
    games = outcome.result.games
    entrants = outcome.entrants.assign(event=outcome.entrants["event"].astype(str))
    people = entrants.set_index(["event", "player"])
    reach = within_reach(games.assign(event=games["event"].astype(str)), people["title"])
    reach = reach[reach.to_numpy(bool)]
    if reach.empty:
        return []
    keys = list(dict.fromkeys(reach.index.get_level_values("event")))
    stored = outcome.events.assign(key=outcome.events["key"].astype(str)).set_index("key")
    events = [_event(key, stored.loc[key], games, entrants) for key in keys]
    wanted = [list(reach.loc[key].index.astype(int)) for key in keys]
    found = events_norms(events, [event_facts(event) for event in events], wanted=wanted)
    public = games.drop_duplicates(["event", "player"]).set_index(["event", "player"])["id"]

    def ids(rows: pd.DataFrame) -> np.ndarray:
        keys = pd.MultiIndex.from_arrays([rows["event"], rows["player"]])
        return public.reindex(keys).to_numpy()

    return [EventNorms(e.facts, e.rows.assign(id=ids(e.rows)), e.rounds) for e in found]


def _event(key: str, row: pd.Series, games: pd.DataFrame, entrants: pd.DataFrame) -> Event:
    """One stored event as the norm checks read it: its players as its file lists them,
    rated as the period rated them, and its rounds (a bye, a forfeit: no game)."""
    mine = games[(games["event"].astype(str) == key).to_numpy(bool)]
    ratings = mine.drop_duplicates("player").set_index("player")["rating"]
    players = entrants[(entrants["event"] == key).to_numpy(bool)]
    unplayed = mine["reason"].isin(UNPLAYED).to_numpy(bool)
    info = EventInfo(
        key=key,
        name=str(row["name"]),
        source=str(row["source"]),
        start=stored_day(row["start"]),
        end=stored_day(row["end"]),
        rounds=int(mine["round"].max()),
        time_control=str(row["time_control"] or ""),
        kind=str(row["kind"]),
        federation=text_of(row.get("federation")),  # 032: the host federation (1.4.3d)
        city=text_of(row.get("city")),
    )
    return Event(
        info,
        pd.DataFrame(
            {
                "event": key,
                "player": players["player"].astype("int64").to_numpy(),
                "fide_id": players["fide_id"].astype("Int64").to_numpy(),
                "name": players["name"].astype("string").to_numpy(),
                "federation": players["federation"].astype("string").to_numpy(),
                "title": players["title"].astype("string").to_numpy(),
                "sex": players["sex"].astype("string").to_numpy(),
                "rating": ratings.reindex(players["player"].to_numpy()).astype("Int64").to_numpy(),
            }
        ),
        pd.DataFrame(
            {
                "event": key,
                "round": mine["round"].astype("int64").to_numpy(),
                "player": mine["player"].astype("int64").to_numpy(),
                "opponent": mine["opponent"].astype("Int64").to_numpy(),
                "colour": mine["colour"].to_numpy(),
                "result": mine["result"].to_numpy(),
                "score": mine["score"].to_numpy(float),
                "rated": mine["opponent"].notna().to_numpy(bool) & ~unplayed,
                "reason": mine["reason"].where(unplayed).to_numpy(),
                "source": mine["source"].to_numpy(),
                "line": mine["line"].to_numpy(),
            }
        ),
    )


def write_period_norms(
    outcomes: Sequence[KindOutcome], period: Period, out: Path, outputs: OutputSet
) -> list[Path]:
    """``standard/norms.csv`` of the period (header only: no player within reach) and
    ``standard/norms/<event>/<id>-<TITLE>.html``, a certificate per norm; their paths.
    Written as single files of the output set, so that publish keeps each one."""
    paths: list[Path] = []
    for outcome in outcomes:
        if outcome.kind != NORMS_KIND:
            continue
        found = period_norms(outcome)
        folder = out / period / NORMS_KIND
        rows = [each.rows for each in found if not each.rows.empty]
        table = pd.concat(rows, ignore_index=True) if rows else pd.DataFrame(
            columns=list(PERIOD_NORMS_COLUMNS)
        )  # fmt: skip
        write_norms_csv(table, outputs.path(folder / NORMS_FILE), PERIOD_NORMS_COLUMNS)
        paths.append(folder / NORMS_FILE)
        for each in found:
            for index in np.flatnonzero(each.rows["norm"].to_numpy(bool)):
                cert = certificate(each, int(index))
                final = folder / certificate_path(each.facts.info.key, cert.file_name)
                write_certificate(cert, outputs.path(final), index_link=None)
                paths.append(final)
    return paths


def certificate_path(event: str, file_name: str) -> str:
    """A certificate's path in its list's folder."""
    return f"norms/{event}/{file_name.replace('#', '-')}"


def stored_norms(store: Store, periods: Sequence[str], ids: set[str]) -> pd.DataFrame:
    """The norms.csv rows of ``ids`` in the published ``periods`` (those whose publish wrote
    one), with ``period`` and ``event_name`` (the key of an event removed since); only the
    norms made (``norm`` true)."""
    frames = []
    for period in periods:
        rows = rows_of(store.published_file(Period.parse(period), f"{NORMS_KIND}/{NORMS_FILE}"),
                       ids)  # fmt: skip
        if rows is not None and len(rows):
            frames.append(rows.assign(period=period))
    if not frames:
        return pd.DataFrame(columns=[*PERIOD_NORMS_COLUMNS, "period", "event_name"])
    found = pd.concat(frames, ignore_index=True)
    found = found[found["norm"].astype(str).str.lower().eq("true").to_numpy(bool)]
    names = {key: store.event_by_key(key) for key in set(found["event"].astype(str))}
    name = found["event"].astype(str).map(lambda key: (names[key] or {}).get("name") or key)
    return found.assign(event_name=name).reset_index(drop=True)
