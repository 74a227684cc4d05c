"""An event's games packed into one blob (schema 11's ``event_games``), and read back.

The games of an event are written once (``add``) and read whole (``publish`` reads a
period's; ``add``'s overlap check and the first-rating pool an event's): one row per event
holding its player-games as packed columns costs a fraction of a row per player-game to
insert (no per-row statement, no index entry) and to read (``np.frombuffer`` views, no
Python object per value). docs/database.md §6 gives the layout for readers of the file.

Format 1 (``FORMAT``), for an event's ``n`` player-games in (round, start_rank) order: the
sections below one after the other, without padding; every number little-endian, written
with explicit dtypes (``<i4``, ``<i2``, ``u1``), so the bytes are the same on every machine.

============  =========  ==============================================================
section       bytes      values
============  =========  ==============================================================
start_rank    n × <i4    the player's start rank
opponent_rank n × <i4    the opponent's start rank; ``MISSING`` (-2^31): none (a bye, a
                         round without an opponent)
line          n × <i4    the row's line in the event's file
round         n × <i2    1 … 32767
score         n × <i2    half-points: the score × 2 (1.0 is 2, 0.5 is 1)
rated         n × u1     1 when the game counts for rating, else 0
colour        text       ``w``, ``b`` or none
result        text       the result code as the file wrote it
reason        text       why the row is not a rated game, or none
crc32         <u4        zlib's CRC-32 of every byte before it (a byte changed by a disk or
                         a copy is found on reading, not rated)
============  =========  ==============================================================

A text section is a code table and the codes: ``<u2`` m, the number of distinct texts, and
``<u4`` L, the table's length in bytes; the table: m times ``<u2`` length and that many bytes
of UTF-8, in code-point order; then n codes, ``u1`` when m < 255, else ``<u2``: 0 is none
(NULL), k the k-th text of the table. The int32 sections come first so that each section
starts aligned to its own width.

Read back, every event's games are checked as ``pack`` checks them before writing (a round
from 1, a score of 0, ½ or 1, a rated flag of 0 or 1, a start rank from 1, no player against
himself, each (round, start rank) once): a blob whose checksum holds but whose values could
not have been written is refused all the same.
"""

from __future__ import annotations

import sqlite3
import struct
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from rating_batch.errors import RatingBatchError

#: The layout ``pack`` writes; ``unpack`` reads this one (a later layout gets a new number).
FORMAT = 1

#: An int32 section's value for "none" (NULL): no start rank or line is ever this.
MISSING = -(2**31)

#: The games table's columns (schema 10's ``games``), as ``pack`` takes and ``unpack`` gives.
COLUMNS = (
    "event_id", "round", "start_rank", "opponent_rank", "colour", "result", "score", "rated",
    "reason", "line",
)  # fmt: skip

#: The fixed-width sections, in order: column, dtype.
_NUMBERS = (
    ("start_rank", "<i4"),
    ("opponent_rank", "<i4"),
    ("line", "<i4"),
    ("round", "<i2"),
    ("score", "<i2"),
    ("rated", "u1"),
)
_TEXTS = ("colour", "result", "reason")
_LENGTH = struct.Struct("<H")
#: A text section's head: how many texts its table holds, and the table's length in bytes.
_TABLE = struct.Struct("<HI")
#: The blob's last four bytes: the CRC-32 of the rest.
_CHECK = struct.Struct("<I")

#: What to do about damaged stored games (the officer's way out).
REPAIR = (
    "put back a whole copy made before (rating-batch backups, then restore), or remove the "
    "event and add its file again"
)


@dataclass(frozen=True)
class Packed:
    """One event's games as ``event_games`` keeps them: ``rows`` player-games, ``played``
    of them against an opponent (each game counted from both sides), the bytes of
    ``FORMAT``."""

    event_id: int
    rows: int
    played: int
    format: int
    data: bytes


class Unreadable(RatingBatchError):
    """Stored games in a layout this version does not read, or damaged."""


def pack(games: pd.DataFrame) -> list[Packed]:
    """Each event's games (``COLUMNS``; any row order), packed: one ``Packed`` per event
    with games, by event_id."""
    if games.empty:
        return []
    event_ids = _integers(games["event_id"], "event_id")
    order = np.lexsort(
        (
            _integers(games["start_rank"], "start_rank"),
            _integers(games["round"], "round"),
            event_ids,
        )
    )
    events = event_ids[order]
    ids, starts, counts = np.unique(events, return_index=True, return_counts=True)
    ends = starts + counts
    numbers = {column: _number_column(games, column, order) for column, _ in _NUMBERS}
    again = (
        (events[1:] == events[:-1])
        & (numbers["round"][1:] == numbers["round"][:-1])
        & (numbers["start_rank"][1:] == numbers["start_rank"][:-1])
    )
    if again.any():  # as the table of rows' primary key refused it
        twice = int(np.flatnonzero(again)[0])
        raise sqlite3.IntegrityError(
            f"UNIQUE constraint failed: event {events[twice]}'s game of round "
            f"{numbers['round'][twice]}, start rank {numbers['start_rank'][twice]} is given twice"
        )
    for column, value in numbers.items():
        _check_range(column, value, ids, starts)
    sections = [
        (numbers[column].astype(dtype).tobytes(), np.dtype(dtype).itemsize)
        for column, dtype in _NUMBERS
    ]
    texts = [_Texts(games[column].to_numpy(dtype=object)[order], starts, ends) for column in _TEXTS]
    against = (numbers["opponent_rank"] != MISSING).astype(np.int64)
    played = np.add.reduceat(against, starts)
    packed = []
    for at, event_id in enumerate(ids.tolist()):
        first, last = int(starts[at]), int(ends[at])
        parts = [data[first * width : last * width] for data, width in sections]
        parts += [text.section(at) for text in texts]
        body = b"".join(parts)
        data = body + _CHECK.pack(zlib.crc32(body))
        packed.append(Packed(event_id, last - first, int(played[at]), FORMAT, data))
    return packed


def damaged(name: str, what: str) -> Unreadable:
    """The refusal of an event's stored games that cannot be what was written."""
    return Unreadable(f"the stored games of {name} are damaged ({what}): {REPAIR}")


def unpack(
    stored: Sequence[tuple[int, int, int, bytes]], names: dict[int, str] | None = None
) -> pd.DataFrame:
    """The games of ``stored`` events (event_id, rows, format, data) as the games table's
    rows (``COLUMNS``), as ``Connection.frame`` gave them: integers int64 (opponent_rank
    float64 with NaN when some row has none), score float64, texts as objects with None.
    ``names``: how a message names each event (its key; else its number)."""
    if not stored:
        return pd.DataFrame({name: pd.Series(dtype=_EMPTY[name]) for name in COLUMNS})

    def name_of(event_id: int) -> str:
        return (names or {}).get(event_id) or f"event {event_id}"

    numbers: dict[str, list[np.ndarray]] = {column: [] for column, _ in _NUMBERS}
    texts = {column: _TextReader() for column in _TEXTS}
    for event_id, rows, layout, data in stored:
        name = name_of(event_id)
        if layout != FORMAT:
            raise Unreadable(
                f"the games of {name} are stored in layout {layout}, which this "
                f"version does not read (it reads {FORMAT}): a newer rating_batch wrote them"
            )
        if len(data) < _CHECK.size:
            raise damaged(name, "too short")
        view = memoryview(data)[: -_CHECK.size]
        if zlib.crc32(view) != _CHECK.unpack_from(data, len(data) - _CHECK.size)[0]:
            raise damaged(name, "its checksum does not match its bytes")
        at = 0
        for column, dtype in _NUMBERS:
            size = np.dtype(dtype).itemsize * rows
            if at + size > len(view):
                raise damaged(name, "too short")
            numbers[column].append(np.frombuffer(view[at : at + size], dtype=dtype))
            at += size
        for column in _TEXTS:
            at = texts[column].read(view, at, rows, name)
        if at != len(view):
            raise damaged(name, "stored length")
    counts = np.array([rows for _, rows, _, _ in stored], dtype=np.int64)
    ids = np.array([e for e, _, _, _ in stored], dtype=np.int64)
    whole = {column: np.concatenate(parts) for column, parts in numbers.items()}
    _check_read(whole, np.repeat(ids, counts), name_of)
    opponent = whole["opponent_rank"].astype(np.int64)
    none = opponent == MISSING
    frame = {
        "event_id": np.repeat(ids, counts),
        "round": whole["round"].astype(np.int64),
        "start_rank": whole["start_rank"].astype(np.int64),
        "opponent_rank": np.where(none, np.nan, opponent) if none.any() else opponent,
        "score": whole["score"].astype(np.float64) / 2,
        "rated": whole["rated"].astype(np.int64),
        "line": whole["line"].astype(np.int64),
    }
    for column, reader in texts.items():
        frame[column] = reader.values(counts)
    return pd.DataFrame({name: frame[name] for name in COLUMNS})


class _TextReader:
    """A text column read from many events: each distinct code table parsed once (most
    events share theirs), the codes made positions in one list of every text."""

    def __init__(self) -> None:
        self.texts: list[object] = [None]
        self.known: dict[str, int] = {}
        self.tables: dict[bytes, tuple[int, int]] = {}
        """A table's bytes → its place in ``flat`` and its number of texts."""
        self.flat: list[int] = []
        """Per table: 0 (none), then the positions of its texts in ``texts``."""
        self.codes: list[np.ndarray] = []
        self.starts: list[int] = []
        self.sizes: list[int] = []

    def read(self, view: memoryview, at: int, rows: int, name: str) -> int:
        """An event's section from ``at``; where the next one starts."""
        try:
            count, length = _TABLE.unpack_from(view, at)
        except struct.error:
            raise damaged(name, "a text table") from None
        at += _TABLE.size
        key = bytes(view[at : at + length])
        found = self.tables.get(key)
        if found is None:
            found = (len(self.flat), count)
            self.flat += [0, *self._parsed(key, count, name)]
            self.tables[key] = found
        at += length
        dtype = "u1" if count < 255 else "<u2"
        size = np.dtype(dtype).itemsize * rows
        if at + size > len(view):
            raise damaged(name, "text codes")
        self.codes.append(np.frombuffer(view[at : at + size], dtype=dtype))
        self.starts.append(found[0])
        self.sizes.append(found[1])
        return at + size

    def _parsed(self, table: bytes, count: int, name: str) -> list[int]:
        places, at = [], 0
        try:
            for _ in range(count):
                (length,) = _LENGTH.unpack_from(table, at)
                text = table[at + 2 : at + 2 + length].decode("utf-8")
                at += 2 + length
                if text not in self.known:
                    self.known[text] = len(self.texts)
                    self.texts.append(text)
                places.append(self.known[text])
        except (struct.error, UnicodeDecodeError):
            at = -1
        if at != len(table):
            raise damaged(name, "a text table")
        return places

    def values(self, counts: np.ndarray) -> np.ndarray:
        """Every event's texts in order, None for none."""
        codes = np.concatenate(self.codes).astype(np.int64)
        if (codes > np.repeat(np.array(self.sizes, dtype=np.int64), counts)).any():
            raise Unreadable(f"stored games are damaged (a text code beyond its table): {REPAIR}")
        places = np.array(self.flat, dtype=np.int64)[
            np.repeat(np.array(self.starts, dtype=np.int64), counts) + codes
        ]
        texts: np.ndarray = np.array(self.texts, dtype=object)[places]
        return texts


def _check_read(
    numbers: dict[str, np.ndarray], events: np.ndarray, name_of: Callable[[int], str]
) -> None:
    """Values read back that ``pack`` would not have written: the event's name and what."""
    rank, opponent, rounds = numbers["start_rank"], numbers["opponent_rank"], numbers["round"]
    same = (events[1:] == events[:-1]) & (rounds[1:] == rounds[:-1])
    wrong = {
        "a game twice": np.append(same & (rank[1:] <= rank[:-1]), False),
        "games out of order": np.append(
            (events[1:] == events[:-1]) & (rounds[1:] < rounds[:-1]), False
        ),
        "a round below 1": rounds < 1,
        "a start rank below 1": rank < 1,
        "a score other than 0, ½ or 1": (numbers["score"] < 0) | (numbers["score"] > 2),
        "a rated flag other than 0 or 1": numbers["rated"] > 1,
        "a player paired against himself": opponent == rank,
    }
    for what, rows in wrong.items():
        if rows.any():
            raise damaged(name_of(int(events[np.flatnonzero(rows)[0]])), what)


_EMPTY = {
    **dict.fromkeys(COLUMNS, "int64"),
    **dict.fromkeys(_TEXTS, "object"),
    "score": "float64",
}


def _integers(values: pd.Series, column: str) -> np.ndarray:
    if values.isna().any():
        raise RatingBatchError(f"a stored game has no {column}")
    whole: np.ndarray = values.to_numpy(dtype=np.int64)
    return whole


def _number_column(games: pd.DataFrame, column: str, order: np.ndarray) -> np.ndarray:
    """A fixed-width column's values in the rows' order, as the int64 the section holds."""
    values = games[column]
    whole: np.ndarray
    if column == "opponent_rank":
        missing = values.isna().to_numpy(bool)
        given = values.astype("Float64").fillna(MISSING).to_numpy(np.float64)
        whole = np.where(missing, MISSING, given).astype(np.int64)
    elif column == "score":
        halves = values.to_numpy(dtype=np.float64) * 2
        odd = np.flatnonzero(halves != np.round(halves))
        if len(odd):
            row = games.iloc[int(odd[0])]
            raise RatingBatchError(
                f"event {row['event_id']}, round {row['round']}, start rank "
                f"{row['start_rank']}: the game's score {row['score']} is not a whole number "
                "of half-points: the store keeps 1, ½, 0"
            )
        whole = halves.astype(np.int64)
    elif column == "rated":
        whole = values.astype(bool).to_numpy(np.int64)
    else:
        whole = _integers(values, column)
    ordered: np.ndarray = whole[order]
    return ordered


#: Each section's range (the int32 ones keep ``MISSING`` for "none" alone).
_RANGES = {
    "start_rank": (MISSING + 1, 2**31 - 1),
    "opponent_rank": (MISSING, 2**31 - 1),
    "line": (MISSING + 1, 2**31 - 1),
    "round": (1, 2**15 - 1),
    "score": (0, 2),  # half-points: 0, ½, 1
    "rated": (0, 1),
}


def _check_range(column: str, values: np.ndarray, ids: np.ndarray, starts: np.ndarray) -> None:
    low, high = _RANGES[column]
    wrong = np.flatnonzero((values < low) | (values > high))
    if len(wrong):
        event = ids[np.searchsorted(starts, wrong[0], side="right") - 1]
        raise RatingBatchError(
            f"event {event}: a game's {column} {values[wrong[0]]} is outside what the games "
            f"store keeps ({low}…{high})"
        )


class _Texts:
    """A text column of many events: each event's table of the texts it uses (code-point
    order) and its rows' codes, found for all events at once."""

    def __init__(self, values: np.ndarray, starts: np.ndarray, ends: np.ndarray) -> None:
        codes, uniques = pd.factorize(values, sort=True)  # None → -1; sorted by code point
        size = len(uniques) + 1
        event = np.repeat(np.arange(len(starts)), ends - starts)
        pairs = event * size + (codes + 1)  # per event, 0 (none) then its texts' places
        if len(starts) * size <= 4 * len(values) + 1024:
            # Few texts (a colour, a result code): a flag per (event, text) marks those used,
            # counted by a running sum instead of sorting every row's pair.
            present = np.zeros(len(starts) * size, dtype=bool)
            present[pairs] = True
            present[::size] = False  # none is no text of the table
            before = np.cumsum(present) - present  # the used pairs before each one
            used = np.flatnonzero(present)
            first = before[np.arange(len(starts)) * size]
            local = before[pairs] - first[event] + 1
        else:
            used = np.unique(pairs[codes >= 0])
            first = np.searchsorted(used, np.arange(len(starts)) * size)
            local = np.searchsorted(used, pairs) - first[event] + 1
        self.bounds = np.append(first, len(used))
        self.codes = np.where(codes >= 0, local, 0)
        self.used = used % size - 1
        self.encoded = [_LENGTH.pack(len(b)) + b for b in (str(u).encode() for u in uniques)]
        self.starts, self.ends = starts, ends
        self.narrow = self.codes.astype(np.uint8).tobytes()
        self._tables: dict[bytes, bytes] = {}

    def section(self, at: int) -> bytes:
        chosen = self.used[self.bounds[at] : self.bounds[at + 1]]
        key = chosen.tobytes()
        table = self._tables.get(key)
        if table is None:
            texts = b"".join(self.encoded[j] for j in chosen)
            table = _TABLE.pack(len(chosen), len(texts)) + texts
            self._tables[key] = table
        first, last = int(self.starts[at]), int(self.ends[at])
        if len(chosen) < 255:
            return table + self.narrow[first:last]
        return table + self.codes[first:last].astype("<u2").tobytes()
