"""Canonical frames: column names and dtypes declared once, checked at the module boundaries.

Every loader returns, per event, an ``EventInfo`` and two frames:

* the **players frame**, one row per player line (``PLAYERS_DTYPES``);
* the **games frame**, long format, one row per player per round (``GAMES_DTYPES``): each game
  appears once from each side; byes and unplayed rounds are rows with ``opponent`` NA.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

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

#: Result codes of a game played over the board and rated (trf-format.md §4.3).
RATED_CODES = frozenset({"1", "=", "0"})


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
    """Cast to the declared dtypes and column order (the last step of every loader)."""
    return frame.astype(dtypes)[list(dtypes)]


def empty_frame(dtypes: Dtypes) -> pd.DataFrame:
    """A frame with no rows and the declared columns."""
    return conform(pd.DataFrame({name: [] for name in dtypes}), dtypes)


def check_frame(frame: pd.DataFrame, dtypes: Dtypes, what: str) -> list[str]:
    """Contract check at a boundary: missing columns and wrong dtypes, as messages."""
    problems = [f"{what}: missing column {name!r}" for name in dtypes if name not in frame]
    for name, dtype in dtypes.items():
        if name in frame and frame[name].dtype != dtype:
            problems.append(f"{what}: column {name!r} is {frame[name].dtype}, expected {dtype}")
    return problems


def check_games(games: pd.DataFrame, players: pd.DataFrame) -> list[Issue]:
    """Consistency of one event's games: opponents exist and both sides agree.

    A played game must appear on both players' lines in the same round, with opposite colours
    and complementary results (trf-format.md §4.3). Rated games that disagree are errors;
    disagreements on unplayed codes (forfeits, W/D/L) are warnings.
    """
    issues: list[Issue] = []
    known = set(players["player"].tolist())
    paired = games[games["opponent"].notna()]
    unknown = paired[~paired["opponent"].isin(known)]
    for source, line, rnd, opponent in zip(
        *(unknown[name].tolist() for name in ("source", "line", "round", "opponent")), strict=True
    ):
        message = f"round {rnd}: opponent {opponent} is not a player of this file"
        issues.append(Issue(source, line, message))
    paired = paired[paired["opponent"].isin(known)]
    mirror = paired[["round", "player", "opponent", "colour", "result", "line"]].rename(
        columns={
            "player": "opponent",
            "opponent": "player",
            "colour": "colour_back",
            "result": "result_back",
            "line": "line_back",
        }
    )
    both = paired.merge(mirror, on=["round", "player", "opponent"], how="left")
    complement = {"1": "0", "0": "1", "=": "=", "+": "-", "-": "+", "W": "L", "L": "W", "D": "D"}
    complement |= {"X": "X", "?": "?"}  # unknown results: the same on both sides
    expected_back = both["result"].str.upper().map(complement)
    missing = both["line_back"].isna()
    # A disagreement is reported once per game, on the line of the lower start rank.
    once = ~missing & (both["player"] < both["opponent"])
    back = both["result_back"].str.upper()
    double_forfeit = (both["result"] == "-") & (back == "-")  # both lost by forfeit
    wrong_result = once & (back != expected_back).fillna(True) & ~double_forfeit.fillna(False)
    colours = both["colour"].isin(["w", "b"]) & both["colour_back"].isin(["w", "b"])
    wrong_colour = once & colours & (both["colour"] == both["colour_back"]).fillna(False)
    for mask, text in (
        (missing, "opponent {opponent} does not have this game"),
        (wrong_result, "result {result!r} against {opponent}, whose line {other:.0f} has {back!r}"),
        (wrong_colour, "colour {colour!r} against {opponent}, whose line {other:.0f} has it too"),
    ):
        for row in both[mask].itertuples(index=False):
            message = text.format(
                opponent=row.opponent,
                round=row.round,
                result=row.result,
                back=row.result_back,
                colour=row.colour,
                other=row.line_back,
            )
            severity: Severity = "error" if row.rated else "warning"
            issues.append(
                Issue(
                    str(row.source), int(str(row.line)), f"round {row.round}: {message}", severity
                )
            )
    return issues
