"""An event's games packed into one blob (store/packed.py): the bytes of format 1 as
docs/database.md §6 lays them out, written out by hand here; every column, missing values,
text tables, an empty event and a one-game event read back exactly."""

from __future__ import annotations

import sqlite3
import struct
import zlib

import numpy as np
import pandas as pd
import pytest

from rating_batch.errors import RatingBatchError
from rating_batch.store.packed import COLUMNS, FORMAT, MISSING, Unreadable, pack, unpack


def games(*rows: tuple[object, ...]) -> pd.DataFrame:
    return pd.DataFrame(list(rows), columns=list(COLUMNS))


def plain(column: pd.Series) -> list[object]:
    """A text column's values, None for missing (pandas reads texts as ``str``, NaN missing)."""
    return [None if pd.isna(value) else value for value in column]


def stored(frame: pd.DataFrame) -> list[tuple[int, int, int, bytes]]:
    return [(p.event_id, p.rows, p.format, p.data) for p in pack(frame)]


#: Event 7, round 1: start rank 1 (white, line 12) beats 2 (black, line 13).
ONE_GAME = games(
    (7, 1, 2, 1, "b", "0", 0.0, 1, None, 13),
    (7, 1, 1, 2, "w", "1", 1.0, 1, None, 12),
)


def test_a_one_game_event_is_the_bytes_of_the_layout() -> None:
    (packed,) = pack(ONE_GAME)
    assert (packed.event_id, packed.rows, packed.played, packed.format) == (7, 2, 2, 1)
    expected = b"".join(
        [
            bytes.fromhex("01000000 02000000"),  # start_rank <i4, rows in (round, rank) order
            bytes.fromhex("02000000 01000000"),  # opponent_rank <i4
            bytes.fromhex("0c000000 0d000000"),  # line <i4: 12, 13
            bytes.fromhex("0100 0100"),  # round <i2
            bytes.fromhex("0200 0000"),  # score <i2 in half-points: 1.0 → 2, 0.0 → 0
            bytes.fromhex("01 01"),  # rated u1
            # colour: 2 texts in 6 bytes ("b", "w", code-point order), codes w = 2, b = 1
            bytes.fromhex("0200 06000000") + b"\x01\x00b\x01\x00w" + bytes.fromhex("02 01"),
            # result: "0", "1"; codes "1" = 2, "0" = 1
            bytes.fromhex("0200 06000000") + b"\x01\x000\x01\x001" + bytes.fromhex("02 01"),
            bytes.fromhex("0000 00000000 00 00"),  # reason: no text, both none
        ]
    )
    # Then zlib's CRC-32 of all of it, <u4.
    assert packed.data == expected + struct.pack("<I", zlib.crc32(expected))


def test_every_column_and_missing_value_reads_back_as_stored_rows() -> None:
    frame = games(
        (3, 1, 1, 2, "w", "1", 1.0, 1, None, 20),
        (3, 1, 2, 1, "b", "0", 0.0, 1, None, 21),
        (3, 1, 3, None, None, "U", 1.0, 0, "bye", 22),  # a bye: no opponent, no colour
        (3, 2, 1, 3, "b", "+", 1.0, 0, "forfeit", 20),
        (3, 2, 3, 1, "w", "-", 0.0, 0, "forfeit", 22),
        (3, 2, 2, None, None, "H", 0.5, 0, "bye", 21),
        (3, 3, 32767, 40000, "w", "=", 0.5, 1, None, 2**31 - 1),  # the widest values
        (4, 32767, 1, None, None, "Z", 0.0, 0, "unplayed", 9),
    )
    back = unpack(stored(frame))
    # By event, round and start rank, as the table of rows' key kept them.
    expected = frame.sort_values(["event_id", "round", "start_rank"]).reset_index(drop=True)
    texts = ["colour", "result", "reason"]
    assert [plain(back[c]) for c in texts] == [plain(expected[c]) for c in texts]
    whole = ["event_id", "round", "start_rank", "score", "rated", "line"]
    assert back[whole].values.tolist() == expected[whole].values.tolist()
    assert back["opponent_rank"].fillna(-1).tolist() == [2, 1, -1, 3, -1, 1, 40000, -1]
    # As the table of rows was read (``Connection.frame``): whole numbers int64, the
    # opponent float64 when one is missing, texts as pandas infers them.
    assert back.drop(columns=texts).dtypes.astype(str).to_dict() == {
        "event_id": "int64", "round": "int64", "start_rank": "int64",
        "opponent_rank": "float64", "score": "float64", "rated": "int64", "line": "int64",
    }  # fmt: skip
    assert pd.isna(back["colour"][2]) and pd.isna(back["reason"][0])


def test_without_a_missing_opponent_the_ranks_are_integers() -> None:
    back = unpack(stored(ONE_GAME))
    assert back["opponent_rank"].dtype == np.int64
    assert back["opponent_rank"].tolist() == [2, 1]


def test_the_missing_opponent_is_the_int32_minimum() -> None:
    (packed,) = pack(games((5, 1, 1, None, None, "U", 1.0, 0, "bye", 3)))
    assert packed.played == 0
    assert packed.data[4:8] == struct.pack("<i", MISSING) == b"\x00\x00\x00\x80"


def test_texts_beyond_ascii_and_beyond_254_distinct_values() -> None:
    # 300 distinct results in one event: the codes are <u2 (0 stays none).
    rows = [(9, 1, rank, None, None, f"r{rank:03d}", 0.0, 0, "bye", rank) for rank in range(1, 301)]
    rows.append((9, 2, 1, None, "ß", "Ü", 0.5, 0, None, 400))
    frame = games(*rows)
    (packed,) = pack(frame)
    table = 301 * 2 + sum(len(t.encode()) for t in [*(r[5] for r in rows)])
    at = 301 * (4 * 3 + 2 * 2 + 1)
    colour_table = 2 + len("ß".encode())
    at += 6 + colour_table + 301  # colour: one text, u1 codes
    assert struct.unpack_from("<HI", packed.data, at) == (301, table)
    back = unpack([(9, packed.rows, packed.format, packed.data)])
    assert back["result"].tolist() == [r[5] for r in rows]
    assert plain(back["colour"]) == [None] * 300 + ["ß"]
    assert plain(back["reason"]) == ["bye"] * 300 + [None]


def test_many_events_with_many_texts_each_keep_only_their_own() -> None:
    """Many events × many distinct texts (the tables are then found by sorting, not by a
    flag per event and text): each event's result table holds only its two texts."""
    rows = [
        (event, 1, rank, None, None, f"x{event:02d}{rank}", 0.0, 0, "bye", rank)
        for event in range(1, 61)
        for rank in (1, 2)
    ]
    packed = pack(games(*rows))
    assert len(packed) == 60
    colour_at = 2 * (4 * 3 + 2 * 2 + 1)  # two rows of the fixed-width sections
    colour = 6 + 0 + 2  # no colour text: an empty table, two codes
    for number, event in enumerate(packed, start=1):
        texts = [f"x{number:02d}1", f"x{number:02d}2"]
        table = sum(2 + len(text) for text in texts)
        assert struct.unpack_from("<HI", event.data, colour_at + colour) == (2, table)
    back = unpack([(p.event_id, p.rows, p.format, p.data) for p in packed])
    assert back["result"].tolist() == [row[5] for row in rows]


def test_events_read_together_keep_their_own_tables() -> None:
    first = games((1, 1, 1, None, None, "H", 0.5, 0, "bye", 5))
    second = games((2, 1, 1, None, None, "F", 1.0, 0, "forfeit", 6))
    back = unpack(stored(first) + stored(second))
    assert back[["event_id", "result", "reason", "score"]].values.tolist() == [
        [1, "H", "bye", 0.5],
        [2, "F", "forfeit", 1.0],
    ]


def test_an_empty_event_and_no_event() -> None:
    assert pack(games()) == []
    empty = unpack([])
    assert list(empty.columns) == list(COLUMNS) and len(empty) == 0
    # An event of no games: the three text sections, each an empty table.
    none = bytes.fromhex("0000 00000000") * 3
    back = unpack([(4, 0, FORMAT, none + struct.pack("<I", zlib.crc32(none)))])
    assert len(back) == 0 and list(back.columns) == list(COLUMNS)


def test_a_game_twice_and_a_score_not_in_half_points_are_refused() -> None:
    with pytest.raises(sqlite3.IntegrityError, match="round 1, start rank 1 is given twice"):
        pack(
            games((1, 1, 1, 2, "w", "1", 1.0, 1, None, 5), (1, 1, 1, 2, "w", "1", 1.0, 1, None, 5))
        )
    with pytest.raises(RatingBatchError, match="whole number of half-points"):
        pack(games((1, 1, 1, 2, "w", "1", 0.25, 1, None, 5)))
    with pytest.raises(RatingBatchError, match="round 40000 is outside"):
        pack(games((1, 40000, 1, 2, "w", "1", 1.0, 1, None, 5)))


def test_another_layout_or_damaged_bytes_are_said() -> None:
    ((event, rows, _, data),) = stored(ONE_GAME)
    with pytest.raises(Unreadable, match="layout 2, which this version does not read"):
        unpack([(event, rows, 2, data)])
    with pytest.raises(Unreadable, match="damaged"):
        unpack([(event, rows, FORMAT, data[:-1])])
    with pytest.raises(Unreadable, match="damaged"):
        unpack([(event, rows, FORMAT, data + b"\x00")])
    with pytest.raises(Unreadable, match="damaged"):
        unpack([(event, rows, FORMAT, data[:-2] + b"\x07\x01")])  # reason code 7 of 0 texts


def _sealed(body: bytes) -> bytes:
    return body + struct.pack("<I", zlib.crc32(body))


def test_a_changed_byte_is_found_by_the_checksum_and_the_event_named() -> None:
    # A score byte of the first row changed from a loss to a win (the attack review's
    # reproduction): the sections still parse, the checksum does not hold.
    ((event, rows, _, data),) = stored(ONE_GAME)
    changed = bytearray(data)
    changed[14 * rows] ^= 0x02
    with pytest.raises(Unreadable) as refused:
        unpack([(event, rows, FORMAT, bytes(changed))], {event: "event open-2026"})
    assert str(refused.value) == (
        "the stored games of event open-2026 are damaged (its checksum does not match its "
        "bytes): put back a whole copy made before (rating-batch backups, then restore), or "
        "remove the event and add its file again"
    )


@pytest.mark.parametrize(
    ("at", "value", "what"),
    [
        # Offsets by the layout for ONE_GAME's 2 rows: start_rank at 0 and 4, opponent_rank
        # 8 and 12, line 16 and 20, round 24 and 26, score 28 and 30, rated 32 and 33.
        (32, b"\x02", "a rated flag other than 0 or 1"),
        (24, b"\x00\x00", "a round below 1"),
        (28, b"\x07\x00", "a score other than 0, ½ or 1"),  # 3.5 in half-points
        (8, b"\x01\x00\x00\x00", "a player paired against himself"),  # rank 1 v 1
        (4, b"\x01\x00\x00\x00", "a game twice"),  # row 2: round 1, rank 1 again
    ],
)
def test_values_pack_would_not_write_are_refused_though_the_checksum_holds(
    at: int, value: bytes, what: str
) -> None:
    ((event, rows, _, data),) = stored(ONE_GAME)
    body = bytearray(data[:-4])
    body[at : at + len(value)] = value
    with pytest.raises(Unreadable, match=f"event 7 are damaged \\({what}\\)"):
        unpack([(event, rows, FORMAT, _sealed(bytes(body)))])
