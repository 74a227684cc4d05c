"""Canonical frames: column names and dtypes declared once, checked at the module boundaries.

Every loader returns, per event, an ``EventInfo`` and two frames:

* the **players frame**, one row per player line (``PLAYERS_DTYPES``);
* the **games frame**, long format, one row per player per round (``GAMES_DTYPES``): each game
  appears once from each side; byes and unplayed rounds are rows with ``opponent`` NA.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from rating_batch.errors import Issue, Severity

#: Why a row is not a game played over the board with a rated result (loaders), and why a
#: played game does not count for rating (engine). NA when the game counts.
REASONS = (
    "bye",
    "forfeit",
    "unplayed",
    "unreadable",
    "unrated_opponent",
    "not_rated",
    "rating_gap",
    "short_event",
    "first_event_disregarded",
)
REASON_DTYPE = pd.CategoricalDtype(list(REASONS))

GAMES_DTYPES: dict[str, str | pd.CategoricalDtype] = {
    "event": "string",
    "round": "int64",
    "player": "int64",  # start rank within the event
    "opponent": "Int64",  # start rank, NA for byes and rounds without an opponent
    "colour": "string",  # "w", "b" or NA
    "result": "string",  # the code as written in the source ("1", "=", "+", "H", …)
    "score": "float64",  # points for the standings: 1.0 / 0.5 / 0.0
    "rated": "bool",  # a game played over the board with a rated result code (1, =, 0)
    "reason": REASON_DTYPE,  # bye, forfeit, unplayed or unreadable; NA for rated games
    "source": "string",
    "line": "int64",
}

PLAYERS_DTYPES: dict[str, str] = {
    "event": "string",
    "player": "int64",  # start rank within the event
    "fide_id": "Int64",
    "name": "string",
    "federation": "string",
    "sex": "string",  # "M", "F" or NA
    "title": "string",
    "birth_year": "Int64",
    "rating": "Int64",  # NA = unrated in this event's file
    "points": "Float64",  # declared standings points (not used for rating)
    "source": "string",
    "line": "int64",
}


@dataclass(frozen=True, slots=True)
class EventInfo:
    """Metadata of one event (tournament)."""

    key: str
    """Event key used in every frame (the file stem, unless the file names it)."""
    name: str
    source: str
    start: dt.date | None = None
    end: dt.date | None = None
    rounds: int = 0
    time_control: str = ""
    time_control_code: str = ""
    """TRF-2026 tag 222, e.g. ``5400+30``."""
    kind: str | None = None
    """The list kind read from the time control (standard, rapid, blitz); None if unreadable."""
    encoding: str = ""
    format: str = ""
    city: str = ""
    federation: str = ""


@dataclass(frozen=True)
class Event:
    """One loaded event: metadata, canonical frames and the warnings found while loading."""

    info: EventInfo
    players: pd.DataFrame
    games: pd.DataFrame
    issues: list[Issue] = field(default_factory=list)


Dtypes = dict[str, str] | dict[str, str | pd.CategoricalDtype]


def conform(frame: pd.DataFrame, dtypes: Dtypes) -> pd.DataFrame:
    """Cast to the declared dtypes and column order (the last step of every loader).

    Only the columns not already of their dtype are cast (this runs twice per event file).
    """
    changes = {
        name: dtype
        for name, dtype in dtypes.items()
        if name not in frame or frame[name].dtype != dtype
    }
    return (frame.astype(changes) if changes else frame)[list(dtypes)]


#: The result the other side of a game must show (trf-format.md §4.3); unknown codes match
#: themselves, and a double forfeit ('-' on both sides) is consistent.
COMPLEMENT = {"1": "0", "0": "1", "=": "=", "+": "-", "-": "+", "W": "L", "L": "W", "D": "D",
              "X": "X", "?": "?"}  # fmt: skip


def check_games(games: pd.DataFrame, players: pd.DataFrame) -> list[Issue]:
    """Consistency of one event's games: opponents exist and both sides agree.

    A played game must appear on both players' lines in the same round, with opposite colours
    and complementary results (trf-format.md §4.3). Rated games that disagree are errors;
    disagreements on unplayed codes (forfeits, W/D/L) are warnings. The two sides are found
    through a (round, start rank) table, not a merge: this runs once per event file.
    """
    issues: list[Issue] = []
    if games.empty:
        return issues
    rnd = games["round"].to_numpy(np.int64)
    me = games["player"].to_numpy(np.int64)
    opponent = games["opponent"].to_numpy(dtype=np.int64, na_value=-1)
    ranks = players["player"].to_numpy(np.int64)
    top = int(max(me.max(), opponent.max(), ranks.max() if len(ranks) else 0))
    present = np.zeros(top + 1, dtype=bool)
    present[ranks[ranks >= 0]] = True
    paired = opponent > 0
    known = paired & present[np.clip(opponent, 0, top)]
    sources = games["source"].tolist()
    lines = games["line"].tolist()
    for row in np.flatnonzero(paired & ~known).tolist():
        message = f"round {rnd[row]}: opponent {opponent[row]} is not a player of this file"
        issues.append(Issue(sources[row], lines[row], message))
    where = np.full((int(rnd.max()) + 1, top + 1), -1, dtype=np.int64)
    where[rnd, np.clip(me, 0, top)] = np.arange(len(games))
    back = np.where(known, where[rnd, np.clip(opponent, 0, top)], -1)
    missing = known & ((back < 0) | (opponent[np.maximum(back, 0)] != me))
    mirrored = known & ~missing
    once = mirrored & (me < opponent)  # reported once per game, on the lower start rank
    results = [
        str(r).upper() if r is not None and r is not pd.NA else "" for r in games["result"].tolist()
    ]
    colours = [c if isinstance(c, str) else "" for c in games["colour"].tolist()]
    rated = games["rated"].to_numpy(bool)
    for row in np.flatnonzero(missing).tolist():
        severity: Severity = "error" if rated[row] else "warning"
        message = f"round {rnd[row]}: opponent {opponent[row]} does not have this game"
        issues.append(Issue(sources[row], lines[row], message, severity))
    for row in np.flatnonzero(once).tolist():
        other = int(back[row])
        mine, theirs = results[row], results[other]
        severity = "error" if rated[row] else "warning"
        if COMPLEMENT.get(mine) != theirs and not (mine == theirs == "-"):
            written = games["result"].iat[row]
            message = (
                f"round {rnd[row]}: result {written!r} against {opponent[row]}, whose line "
                f"{lines[other]} has {games['result'].iat[other]!r}"
            )
            issues.append(Issue(sources[row], lines[row], message, severity))
        if colours[row] in ("w", "b") and colours[row] == colours[other]:
            message = (
                f"round {rnd[row]}: colour {colours[row]!r} against {opponent[row]}, whose line "
                f"{lines[other]} has it too"
            )
            issues.append(Issue(sources[row], lines[row], message, severity))
    return issues
