"""Canonical frames: column names and dtypes declared once, checked at the module boundaries.

Every loader returns, per event, an ``EventInfo`` and two frames:

* the **players frame**, one row per player line (``PLAYERS_DTYPES``);
* the **games frame**, long format, one row per player per round (``GAMES_DTYPES``): each game
  appears once from each side; byes and unplayed rounds are rows with ``opponent`` NA.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from rating_batch.errors import Issue, Severity

#: Control characters (C0, DEL, C1) and Unicode line and paragraph separators: never part of a
#: name or a code. Readers remove them from every text field; writers of fixed-width files
#: replace any left (a newline in a name would split a record, an escape sequence would reach
#: the officer's terminal).
CONTROL_CHARACTERS = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")
#: What a spreadsheet would evaluate at the start of a text: writers neutralise such text (an
#: apostrophe before it in a CSV), and the list reader reads our CSV lists back without it.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def as_written(text: str) -> str:
    """A text as it was before our CSV writers neutralised it (``'=1+1`` is ``=1+1``, and
    ``''=1`` is ``'=1``: a text of its own starting with apostrophes before a formula sign
    was written with one more, ``writers.common.neutralise``): what reads our own CSV files
    back shows what the input held."""
    quoted = text.startswith("'") and text.lstrip("'").startswith(FORMULA_STARTS)
    return text[1:] if quoted else text


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
    # The player's id in the federation's own scheme (docs/formats.md §11.1), as written.
    "national_id": "string",
    "name": "string",
    "federation": "string",
    "sex": "string",  # "M", "F" or NA
    "title": "string",
    "birth_year": "Int64",
    "rating": "Int64",  # NA = unrated in this event's file
    "points": "Float64",  # declared standings points (not used for rating)
    "rank": "Int64",  # final ranking as the file gives it; NA if it gives none
    "source": "string",
    "line": "int64",
}


@dataclass(frozen=True)
class NationalId:
    """How a federation keys its players without a FIDE ID (docs/formats.md §11.1): the
    id's name, the column headers a list or file may give it under besides ``national_id``,
    the pattern a value matches (in capitals, without spaces around) and an example."""

    label: str
    headers: tuple[str, ...]
    pattern: str
    example: str


#: How a player without a FIDE ID is recognised in a database or a rating list: exact name,
#: birth year and federation (docs/formats.md §11.1).
IDENTITY_KEY = ["name", "birth_year", "federation"]


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
    round_dates: tuple[dt.date | None, ...] = ()
    """Each round's date as the file gives it (TRF record 132; None where unreadable), in
    round order; empty: the file dates no round."""


class EventBatch:
    """The frames of events loaded together: one players and one games frame whose rows are
    grouped by event, in order (``ends``: each event's last row + 1). Its events slice their
    own rows from it only when asked, so work over many events needs no slicing at all."""

    def __init__(
        self, players: pd.DataFrame, games: pd.DataFrame, player_ends: np.ndarray,
        game_ends: np.ndarray,
    ) -> None:  # fmt: skip
        self.players = players
        self.games = games
        self.ends = {"players": player_ends, "games": game_ends}

    def __len__(self) -> int:
        return len(self.ends["players"])

    def span(self, name: str, first: int, last: int) -> tuple[int, int]:
        """The rows of events ``first`` … ``last`` in the ``players`` or ``games`` frame."""
        ends = self.ends[name]
        return (int(ends[first - 1]) if first else 0), int(ends[last])

    def rows(self, name: str, index: int) -> pd.DataFrame:
        """One event's rows of the ``players`` or ``games`` frame, indexed from 0."""
        start, stop = self.span(name, index, index)
        frame: pd.DataFrame = getattr(self, name)
        return frame.iloc[start:stop].reset_index(drop=True)


class Event:
    """One loaded event: metadata, canonical frames and the warnings found while loading.

    An event read with others (``EventBatch``) gets its frames from the batch's when they are
    first used."""

    __slots__ = ("_batch", "_frames", "_index", "info", "issues")

    def __init__(
        self,
        info: EventInfo,
        players: pd.DataFrame | None = None,
        games: pd.DataFrame | None = None,
        issues: list[Issue] | None = None,
        *,
        batch: EventBatch | None = None,
        index: int = 0,
    ) -> None:
        if batch is None and (players is None or games is None):
            raise TypeError("an Event needs its players and games frames, or a batch")
        self.info = info
        self.issues = issues if issues is not None else []
        self._frames = {"players": players, "games": games}
        self._batch = batch
        self._index = index

    def _frame(self, name: str) -> pd.DataFrame:
        frame = self._frames[name]
        if frame is None:
            assert self._batch is not None
            frame = self._frames[name] = self._batch.rows(name, self._index)
        return frame

    @property
    def players(self) -> pd.DataFrame:
        return self._frame("players")

    @property
    def games(self) -> pd.DataFrame:
        return self._frame("games")

    def __repr__(self) -> str:
        return f"Event({self.info.key!r}, {self.info.source!r})"


def one_batch(events: Sequence[Event]) -> list[Event]:
    """The same events over one batch: each run of consecutive events of the same batch is one
    block of rows, other events add their own frames, and one concatenation joins them."""
    pieces: dict[str, list[pd.DataFrame]] = {"players": [], "games": []}
    sizes: dict[str, list[int]] = {"players": [], "games": []}
    position = 0
    while position < len(events):
        event, end = events[position], position + 1
        batch = event._batch
        if batch is not None:
            while (
                end < len(events)
                and events[end]._batch is batch
                and events[end]._index == events[end - 1]._index + 1
            ):
                end += 1
        for name in pieces:
            if batch is None:
                pieces[name].append(event._frame(name))
                sizes[name].append(len(pieces[name][-1]))
                continue
            first, last = event._index, events[end - 1]._index
            start, stop = batch.span(name, first, last)
            pieces[name].append(getattr(batch, name).iloc[start:stop])
            sizes[name].extend(np.diff(batch.ends[name][first : last + 1], prepend=start).tolist())
        position = end
    if not events:
        return []
    frames = {name: pd.concat(pieces[name], ignore_index=True) for name in pieces}
    merged = EventBatch(
        frames["players"],
        frames["games"],
        np.cumsum(np.array(sizes["players"], dtype=np.int64)),
        np.cumsum(np.array(sizes["games"], dtype=np.int64)),
    )
    return [
        Event(event.info, issues=event.issues, batch=merged, index=index)
        for index, event in enumerate(events)
    ]


def combined(events: Sequence[Event], name: str) -> pd.DataFrame:
    """The ``players`` or ``games`` frame of all the events, in their order: the batch's own
    frame when the events are exactly one batch (``one_batch``), else one concatenation."""
    batch = events[0]._batch if events else None
    if (
        batch is not None
        and len(events) == len(batch)
        and all(e._batch is batch and e._index == i for i, e in enumerate(events))
    ):
        whole: pd.DataFrame = getattr(batch, name)
        return whole
    if not events:
        dtypes = PLAYERS_DTYPES if name == "players" else GAMES_DTYPES
        return pd.DataFrame({column: pd.Series(dtype=dtype) for column, dtype in dtypes.items()})
    joined: pd.DataFrame = pd.concat([getattr(e, name) for e in events], ignore_index=True)
    return joined


Dtypes = dict[str, str] | dict[str, str | pd.CategoricalDtype]


#: Columns of the canonical frames that some formats cannot give (``conform`` adds them empty).
UNGIVEN = ("national_id",)


def conform(frame: pd.DataFrame, dtypes: Dtypes) -> pd.DataFrame:
    """Cast to the declared dtypes and column order (the last step of every loader).

    Only the columns not already of their dtype are cast (this runs twice per event file).
    A column of ``UNGIVEN`` a format cannot carry (a TRF's national id) is added empty.
    """
    absent = [name for name in UNGIVEN if name in dtypes and name not in frame]
    if absent:
        frame = frame.assign(**{name: pd.Series(pd.NA, index=frame.index) for name in absent})
    changes = {
        name: dtype
        for name, dtype in dtypes.items()
        # By name: pandas' "str" (NaN for missing) compares equal to "string" (NA).
        if name not in frame or str(frame[name].dtype) != str(pd.api.types.pandas_dtype(dtype))
    }
    return (frame.astype(changes) if changes else frame)[list(dtypes)]


#: The result the other side of a game must show (docs/formats.md §4.3); unknown codes match
#: themselves, a double forfeit ('-' on both sides) is consistent, and so is no result on
#: both lines (paired, not played yet).
COMPLEMENT = {"1": "0", "0": "1", "=": "=", "+": "-", "-": "+", "W": "L", "L": "W", "D": "D",
              "X": "X", "?": "?", "": ""}  # fmt: skip


def check_games(games: pd.DataFrame, players: pd.DataFrame) -> list[Issue]:
    """Consistency of the games: opponents exist and both sides agree (``event_issues``)."""
    return [issue for _, issue in event_issues(games, players)]


def event_issues(games: pd.DataFrame, players: pd.DataFrame) -> list[tuple[str, Issue]]:
    """Consistency of one or many events' games, as (event key, issue), event by event.

    A game must appear on both players' lines in the same round, with opposite colours and
    complementary results, played (at the board) on both or on neither (docs/formats.md §4.3):
    any disagreement is an error, whichever line it is found on, since the file says two things
    of one game. A FIDE ID on two lines of one file is an error too. The other side of every
    game is found by a sorted search over (event, round, start rank) keys, for all events at
    once; only the rows with a problem are visited in Python.
    """
    codes, events = pd.factorize(
        pd.concat([games["event"], players["event"]], ignore_index=True), use_na_sentinel=False
    )
    event, player_event = codes[: len(games)], codes[len(games) :]
    if games.empty:
        return [(str(events[code]), issue) for code, issue in _duplicate_ids(players, player_event)]
    rnd = games["round"].to_numpy(np.int64)
    me = games["player"].to_numpy(np.int64)
    opponent = games["opponent"].to_numpy(dtype=np.int64, na_value=-1)
    ranks = players["player"].to_numpy(np.int64)
    width = int(max(me.max(), opponent.max(), ranks.max() if len(ranks) else 0)) + 1
    height = int(rnd.max()) + 1
    listed = np.unique(player_event[ranks >= 0] * width + ranks[ranks >= 0])
    paired = opponent > 0
    against = event * width + np.clip(opponent, 0, width - 1)
    spot = np.minimum(np.searchsorted(listed, against), max(len(listed) - 1, 0))
    known = paired & (listed[spot] == against) if len(listed) else np.zeros_like(paired)
    # The row of the same event and round whose player is my opponent (the last one written).
    own_key = (event * height + rnd) * width + np.clip(me, 0, width - 1)
    order = np.argsort(own_key, kind="stable")
    ordered = own_key[order]
    wanted = (event * height + rnd) * width + np.clip(opponent, 0, width - 1)
    place = np.searchsorted(ordered, wanted, side="right") - 1
    hit = known & (place >= 0) & (ordered[np.maximum(place, 0)] == wanted)
    back = np.where(hit, order[np.maximum(place, 0)], -1)
    missing = known & ((back < 0) | (opponent[np.maximum(back, 0)] != me))
    mirrored = known & ~missing
    once = mirrored & (me < opponent)  # reported once per game, on the lower start rank
    other = np.maximum(back, 0)

    # Compared upper-cased: the distinct codes folded, not every cell (issue 42).
    written_codes, written = pd.factorize(games["result"].fillna(""))
    folded, results = pd.factorize(np.array([str(code).upper() for code in written], dtype=object))
    result_codes = folded[written_codes]
    where_result = {str(code): index for index, code in enumerate(results)}
    complement = np.array(
        [where_result.get(COMPLEMENT.get(str(code), "\0"), -2) for code in results] or [-2]
    )
    double_forfeit = where_result.get("-", -3)
    bad_result = once & (complement[result_codes] != result_codes[other])
    bad_result &= ~((result_codes == double_forfeit) & (result_codes[other] == double_forfeit))
    colour = games["colour"].fillna("").to_numpy(dtype=object)
    same_colour = once & np.isin(colour, ["w", "b"]) & (colour == colour[other])
    rated = games["rated"].to_numpy(bool)
    # Played on one line only (a colour '-' or a forfeit code on the other): counted for one
    # player and not the other.
    one_sided = once & ~bad_result & (rated != rated[other])

    sources = games["source"].to_numpy(dtype=object)
    lines = games["line"].to_numpy(np.int64)
    found: list[tuple[int, Issue]] = []

    def report(row: int, message: str, severity: Severity = "error") -> None:
        found.append(
            (int(event[row]), Issue(str(sources[row]), int(lines[row]), message, severity))
        )

    for row in np.flatnonzero(paired & ~known).tolist():
        report(row, f"round {rnd[row]}: opponent {opponent[row]} is not a player of this file")
    for row in np.flatnonzero(missing).tolist():
        report(row, f"round {rnd[row]}: opponent {opponent[row]} does not have this game")
    for row in np.flatnonzero(bad_result | same_colour | one_sided).tolist():
        twin = int(back[row])
        if bad_result[row]:
            report(
                row,
                f"round {rnd[row]}: result {games['result'].iat[row]!r} against "
                f"{opponent[row]}, whose line {lines[twin]} has {games['result'].iat[twin]!r}"
                + _typo_hint(games["result"].iat[row], games["result"].iat[twin]),
            )
        if same_colour[row]:
            report(
                row,
                f"round {rnd[row]}: colour {colour[row]!r} against {opponent[row]}, whose line "
                f"{lines[twin]} has it too",
            )
        if one_sided[row]:
            played, unplayed = (row, twin) if rated[row] else (twin, row)
            report(
                row,
                f"round {rnd[row]}: the game against {opponent[row]} is played on line "
                f"{lines[played]} (colour {colour[played]!r}) but not on line {lines[unplayed]} "
                f"(colour {colour[unplayed] or '-'!r})",
            )
    found.extend(_duplicate_ids(players, player_event))
    found.sort(key=lambda item: item[0])  # stable: each event's issues keep their order
    return [(str(events[code]), issue) for code, issue in found]


def _typo_hint(mine: object, theirs: object) -> str:
    """A lower-case letter code against a played result: a digit typed as a letter?"""
    pair = (
        str(mine) if isinstance(mine, str) else "",
        str(theirs) if isinstance(theirs, str) else "",
    )
    for code, other in (pair, pair[::-1]):
        if code == "l" and other == "0":
            return " ('l' is a loss of less than one move: a '1' typed as 'l'?)"
    return ""


def _duplicate_ids(players: pd.DataFrame, player_event: np.ndarray) -> list[tuple[int, Issue]]:
    """A FIDE ID on two lines of one file (one player would play the other)."""
    keyed = pd.DataFrame(
        {
            "event": player_event,
            "fide_id": players["fide_id"].to_numpy(),
            "line": players["line"].to_numpy(),
        }
    )
    known = keyed["fide_id"].notna().to_numpy()
    twice = keyed[keyed.duplicated(["event", "fide_id"], keep="first").to_numpy() & known]
    if twice.empty:
        return []
    first = keyed[known].drop_duplicates(["event", "fide_id"])
    first_line = first.set_index(["event", "fide_id"])["line"]
    sources = players["source"].to_numpy(dtype=object)
    return [
        (
            int(event),
            Issue(
                str(sources[index]),
                int(line),
                f"FIDE ID {int(fide_id)} is also on line {int(first_line[(event, fide_id)])}: "
                "one player cannot have two lines",
            ),
        )
        for index, event, fide_id, line in zip(
            twice.index.tolist(), twice["event"], twice["fide_id"], twice["line"], strict=True
        )
    ]


#: A missing rating in the engine's integer arrays.
NO_RATING = -1


def integers(column: pd.Series) -> np.ndarray:
    """A nullable integer column as int64, NA as ``NO_RATING``."""
    return np.asarray(column.to_numpy(dtype=np.int64, na_value=NO_RATING))
