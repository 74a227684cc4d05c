"""What makes a loaded event plausible: the checks ``check``, ``rate`` and ``add`` share, after
each reader has checked its own format (every message ``file:line: what is wrong``); and
events that share their games (``overlapping_events``: the same results reported twice, a
resent or re-titled file, which would count every shared game twice).

* an event in which no game was played over the board is an error (nothing to rate: a
  registration list, or a file exported before round 1);
* a round in which nobody played, followed by rounds with games, is a warning (a round missing
  from the file becomes byes for everyone);
* an event without dates is an error where a rating period is needed (``add``, and ``check``,
  which checks files for the database), a warning for ``rate``;
* an event lasting over 60 days is a warning (an error for ``add`` unless ``--accept-dates``);
* a rating below the lowest a rating list may hold (the rules' ``rating_min``, 100 for FIDE's
  editions) is an error naming its line, as it is in a list (docs/rules.md §9): a typo, which
  would otherwise be rated against.

Pure: events in, issues out.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Hashable, Mapping, Sequence
from typing import Literal

import numpy as np
import pandas as pd

from rating_batch.errors import (
    InputError,
    Issue,
    Severity,
)
from rating_batch.names import name_key
from rating_batch.schema import Event, combined
from rating_batch.systems.elo.rules import (
    LATEST,
)
from rating_batch.systems.elo.rules_file import named_rules

Purpose = Literal["rate", "check", "add"]
"""The command the files are for: ``check`` judges them as ``add`` would, but warns where
``add`` asks for ``--accept-dates``."""

#: An event lasting longer than this many days gets a warning (a typo in a date, more often
#: than a league season).
LONG_EVENT_DAYS = 60
#: The lowest rating an event file may give without rules that say otherwise: that of FIDE's
#: editions (``Rules.rating_min``), as for a list.
LOWEST_RATING = named_rules(LATEST).rating_min


def validate_events(
    events: Sequence[Event],
    purpose: Purpose,
    *,
    accept_dates: bool = False,
    lowest_rating: int = LOWEST_RATING,
) -> list[Issue]:
    """The plausibility issues of each event, event by event in the order given;
    ``lowest_rating`` is the rules' ``rating_min``."""
    if not events:
        return []
    too_low = _low_ratings(events, lowest_rating)
    games = combined(events, "games")
    rated = games["rated"].to_numpy(bool)
    # Each event's rounds with a game played over the board, once (all events at once).
    played = (
        pd.DataFrame({"event": games["event"].astype(str).to_numpy()[rated],
                      "round": games["round"].to_numpy(np.int64)[rated]})
        .drop_duplicates()
        .groupby("event", sort=False)["round"]
    )  # fmt: skip
    last, count = played.max(), played.size()
    gaps = set(last.index[(last > count).to_numpy()])  # fewer rounds played than the last
    rounds_of: Mapping[Hashable, set[int]] = played.agg(set).to_dict() if gaps else {}
    issues: list[Issue] = []
    for event in events:
        info = event.info
        if info.key not in last.index:
            issues.append(
                Issue(
                    info.source,
                    None,
                    "no game in it was played over the board (only byes, forfeits or unplayed "
                    "rounds): nothing to rate (a registration list, or exported before round 1?)",
                )
            )
        elif info.key in gaps:
            missing = sorted(set(range(1, int(last[info.key]))) - rounds_of[info.key])
            shown = ", ".join(str(r) for r in missing)
            issues.append(
                Issue(
                    info.source,
                    None,
                    f"no game was played in round {shown}, but later rounds have games: "
                    "a round missing from the file?",
                    "warning",
                )
            )
        issues.extend(too_low.get(info.source, []))
        issues.extend(_date_issues(event, purpose, accept_dates))
    return issues


def _low_ratings(events: Sequence[Event], lowest: int) -> dict[str, list[Issue]]:
    """Each file's ratings below ``lowest``, by file: an error naming the line."""
    players = combined(events, "players")
    low = players[(players["rating"] < lowest).fillna(False).to_numpy(bool)]
    found: dict[str, list[Issue]] = {}
    for source, line, rating in zip(
        low["source"].tolist(), low["line"].tolist(), low["rating"].tolist(), strict=True
    ):
        found.setdefault(source, []).append(
            Issue(
                source,
                line,
                f"rating {rating} is below the lowest a rating list may hold ({lowest}, the "
                "rules' rating_min): a typo? (an unrated player's rating is left blank)",
            )
        )
    return found


def _date_issues(event: Event, purpose: Purpose, accept_dates: bool) -> list[Issue]:
    info = event.info
    start, end = info.start or info.end, info.end or info.start
    if start is None or end is None:
        severity: Severity = "warning" if purpose == "rate" else "error"
        what = (
            "the FIDE edition and juniors are judged without them"
            if purpose == "rate"
            else "the database cannot give it a rating period"
        )
        return [
            Issue(
                info.source,
                None,
                f"no start or end date (records 042/052, or 132; a crosstable's dates): {what}",
                severity,
            )
        ]
    days = (end - start).days + 1
    if days > LONG_EVENT_DAYS:
        refused = purpose == "add" and not accept_dates
        return [
            Issue(
                info.source,
                None,
                f"lasts {days} days ({start}…{end}), over {LONG_EVENT_DAYS}: a typo in a date?"
                + (" (--accept-dates adds it anyway)" if refused else ""),
                "error" if refused else "warning",
            )
        ]
    return []


#: Two events overlap when they share at least this share of the smaller one's played games.
OVERLAP_SHARE = 0.5


def overlapping_events(games: pd.DataFrame, spans: pd.DataFrame | None = None) -> pd.DataFrame:
    """Pairs of events sharing half or more of the smaller one's played games, and played at
    the same time: the same results reported twice (two separate matches between the same
    players with the same results are not at the same dates).

    Expects columns: ``event`` (a label), ``round``, ``player`` and ``opponent`` (identities
    of the two players, comparable across events: a database id, a FIDE ID or a name key),
    ``score`` (from ``player``'s side), one row per side of each game played over the board.
    Returns columns ``event_x``, ``event_y`` (``event_x`` < ``event_y``), ``shared`` (games
    in both), ``played_x``, ``played_y`` (each event's played games), largest share first.
    ``spans`` (optional): ``event``, ``first``, ``last`` (ISO dates, or None when unknown);
    pairs of events whose dates do not meet are left out.
    """
    columns = ["event_x", "event_y", "shared", "played_x", "played_y"]
    if games.empty:
        return pd.DataFrame(
            {c: pd.Series(dtype="object" if c.startswith("event") else "int64") for c in columns}
        )
    codes, _ = pd.factorize(pd.concat([games["player"], games["opponent"]], ignore_index=True))
    mine, theirs = codes[: len(games)], codes[len(games) :]
    # Each game once, from the side of the player with the smaller code (a game against
    # oneself, or a missing identity, is no game to compare).
    once = (mine < theirs) & (mine >= 0)
    half = np.rint(games["score"].to_numpy(float) * 2).astype(np.int64)
    # Events as numbers (each label once), in the order of their labels as text: the rows
    # compared are integers only.
    event, labels = pd.factorize(games["event"].to_numpy()[once])
    _, rank = np.unique(
        np.array([str(label) for label in labels], dtype=object), return_inverse=True
    )
    frame = pd.DataFrame(
        {
            "event": event,
            "round": games["round"].to_numpy(np.int64)[once],
            "a": mine[once],
            "b": theirs[once],
            "half": half[once],
        }
    ).drop_duplicates()
    played = np.bincount(frame["event"].to_numpy(), minlength=len(labels))
    repeated = frame[frame.duplicated(["round", "a", "b", "half"], keep=False)]
    pairs = repeated.merge(repeated, on=["round", "a", "b", "half"])
    pairs = pairs[rank[pairs["event_x"].to_numpy()] < rank[pairs["event_y"].to_numpy()]]
    counted = pairs.groupby(["event_x", "event_y"]).size()
    x, y = (counted.index.get_level_values(side).to_numpy(np.int64) for side in (0, 1))
    named = pd.Series(labels)  # the labels' dtype as a column of them infers it
    shared = pd.DataFrame(
        {
            "event_x": named.take(x).array,
            "event_y": named.take(y).array,
            "shared": counted.to_numpy(np.int64),
            "played_x": played[x],
            "played_y": played[y],
        }
    )
    smaller = np.minimum(shared["played_x"].to_numpy(), shared["played_y"].to_numpy())
    keep = shared["shared"].to_numpy() >= np.ceil(OVERLAP_SHARE * smaller)
    shared = shared[keep].assign(share=shared["shared"].to_numpy()[keep] / smaller[keep])
    if spans is not None and len(shared):
        first = spans.set_index("event")["first"]
        last = spans.set_index("event")["last"]
        together = [
            meet(first.get(x), last.get(x), first.get(y), last.get(y))
            for x, y in zip(shared["event_x"], shared["event_y"], strict=True)
        ]
        shared = shared[together]
    ordered: pd.DataFrame = shared.sort_values(
        ["share", "event_x", "event_y"], ascending=[False, True, True], kind="stable"
    )[columns]
    return ordered.reset_index(drop=True)


def meet(first_x: object, last_x: object, first_y: object, last_y: object) -> bool:
    """Whether two date ranges (ISO text, None when unknown) have a day in common."""
    if None in (first_x, last_x, first_y, last_y):
        return True
    return bool(str(first_x) <= str(last_y) and str(first_y) <= str(last_x))


def overlap_issues(events: Sequence[Event], allow_overlap: bool) -> list[Issue]:
    """Files sharing half or more of their played games: errors, or warnings when allowed.
    Players are compared by FIDE ID, else by name (``names.name_key``)."""
    if len(events) < 2:
        return []
    players = combined(events, "players")
    games = combined(events, "games")
    who = pd.Series(
        ("F" + players["fide_id"].astype("string"))
        .fillna("N" + players["name"].fillna("").astype(str).map(name_key))
        .to_numpy(),
        index=pd.MultiIndex.from_arrays([players["event"], players["player"]]),
    )
    played = games[games["rated"].to_numpy(bool) & games["opponent"].notna().to_numpy()]
    pairs = overlapping_events(
        pd.DataFrame(
            {
                "event": played["event"].to_numpy(),
                "round": played["round"].to_numpy(),
                "player": who.reindex(
                    pd.MultiIndex.from_arrays([played["event"], played["player"]])
                ).to_numpy(),
                "opponent": who.reindex(
                    pd.MultiIndex.from_arrays([played["event"], played["opponent"].astype("int64")])
                ).to_numpy(),
                "score": played["score"].to_numpy(),
            }
        ),
        pd.DataFrame(
            {
                "event": [event.info.key for event in events],
                "first": [_iso(event.info.start or event.info.end) for event in events],
                "last": [_iso(event.info.end or event.info.start) for event in events],
            }
        ),
    )
    source = {event.info.key: event.info.source for event in events}
    severity: Severity = "warning" if allow_overlap else "error"
    hint = " (both are rated as given)" if allow_overlap else "; --allow-overlap rates both anyway"
    return [
        Issue(
            source[str(pair["event_y"])],
            None,
            f"shares {pair['shared']} of its {pair['played_y']} played games with "
            f"{source[str(pair['event_x'])]}: the same results reported twice?{hint}",
            severity,
        )
        for pair in pairs.to_dict("records")
    ]


def _iso(date: dt.date | None) -> str | None:
    return None if date is None else date.isoformat()


def refuse_repeated_ids(frame: pd.DataFrame, source: str) -> None:
    """A rating list (``id``, ``line``) where a FIDE ID appears twice is an error naming
    each line: which of the two rows is the player cannot be guessed."""
    twice = frame[frame["id"].duplicated(keep=False) & frame["id"].notna()]
    if len(twice):
        raise InputError(
            Issue(source, int(line), f"FIDE ID {fide_id} appears more than once")
            for fide_id, line in zip(twice["id"], twice["line"], strict=True)
        )
