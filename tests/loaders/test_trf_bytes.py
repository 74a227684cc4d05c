"""The 001 records read as bytes (loaders/trf_bytes.py, issue 42): generated records, written
in fixed columns *of characters*, read back to the values they were written from.

Names beyond ASCII (Latin-1, Latin-2, Cyrillic, CJK) keep their columns; ranks up to four
digits, numbers right- or left-aligned, byes, forfeits, lower-case codes and blank cells.
What each cell must read as is written out here from docs/formats.md §4 (the 001 layout and
the round block ``nnnn c r``; §4.3 the result codes and their points), never taken from the
reader. A second property swaps every name for one beyond ASCII of the same length: the
frames and the messages must not change but for the names."""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np
import pandas as pd
from budget import runs
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rating_batch.loaders.trf import parse_trf
from rating_batch.loaders.trf_bytes import PLACEHOLDER, _digits, byte_matrix, integers

SETTINGS = settings(
    max_examples=runs(1000, 50),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    derandomize=True,
)

# docs/formats.md §4.3: the points of each result code (upper-cased); the others score 0.
POINTS = {"1": 1.0, "+": 1.0, "W": 1.0, "F": 1.0, "U": 1.0, "=": 0.5, "D": 0.5, "H": 0.5}
# Codes of a game (§4.3): known (TRF16) and seen in other readers (taken as unplayed).
CODES = "10=+-WDLHFUZwdlhfuz XA?"
ASCII_NAME = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz,.-' "
WIDE_NAME = "ÄÖÜäöüßéèçñøåłŁśŚżŻčČřŘőŐЖжШшЯяΩω中文名字"


@dataclass
class Cell:
    opponent: int | None  # None: blank (a bye or no game); 0 written as 0000
    colour: str  # one of "wbWB- "
    result: str  # one character of CODES
    left: bool  # the opponent's digits left-aligned in the 4 columns


@dataclass
class Record:
    rank: int
    name: str
    rating: int | None
    fide_id: int | None
    sex: str
    federation: str
    points: str
    final: int | None
    cells: list[Cell]


def column(value: int | None, width: int, left: bool = False) -> str:
    text = "" if value is None else str(value)
    return text.ljust(width) if left else text.rjust(width)


def line_of(record: Record) -> str:
    """The 001 line, counted in characters (docs/formats.md §4.1)."""
    line = (
        "001 "
        + column(record.rank, 4)
        + " "
        + record.sex
        + "   "  # title (11-13)
        + " "
        + record.name.ljust(33)
        + " "
        + column(record.rating, 4)
        + " "
        + record.federation.ljust(3)
        + " "
        + column(record.fide_id, 11)
        + " "
        + " " * 10  # birth (70-79)
        + " "
        + record.points.rjust(4)
        + " "
        + column(record.final, 4)
        + "  "
    )
    assert len(line) == 91
    for cell in record.cells:
        opponent = "0000" if cell.opponent == 0 else column(cell.opponent, 4, cell.left)
        line += f"{opponent} {cell.colour} {cell.result}  "
    return line.rstrip()


@st.composite
def records(draw: st.DrawFn, alphabet: str = ASCII_NAME + WIDE_NAME) -> list[Record]:
    count = draw(st.integers(1, 8))
    ranks = draw(st.lists(st.integers(1, 9999), min_size=count, max_size=count, unique=True))
    rounds = draw(st.integers(0, 5))
    opponents = st.one_of(st.none(), st.just(0), st.sampled_from(ranks), st.integers(1, 9999))
    cell = st.builds(
        Cell, opponents, st.sampled_from("wbWB- "), st.sampled_from(CODES), st.booleans()
    )
    found = []
    for rank in ranks:
        name = draw(st.text(alphabet, max_size=33)).strip()
        points = draw(st.sampled_from(["", "0", "1.5", "2,5", "10.0", " 3", "0.5"]))
        found.append(
            Record(
                rank=rank,
                name=name,
                rating=draw(st.one_of(st.none(), st.integers(0, 2900))),
                fide_id=draw(st.one_of(st.none(), st.integers(0, 99_999_999_999))),
                sex=draw(st.sampled_from(" mwMWf")),
                federation=draw(st.sampled_from(["", "GER", "irl", "POL"])),
                points=points,
                final=draw(st.one_of(st.none(), st.integers(0, 9999))),
                cells=draw(st.lists(cell, min_size=rounds, max_size=rounds)),
            )
        )
    return found


def parsed(lines: list[str]) -> tuple[pd.DataFrame, pd.DataFrame, list[str]]:
    event = parse_trf(["012 Generated", *lines], source="generated.trf")
    return event.players, event.games, [str(issue) for issue in event.issues]


@SETTINGS
@given(records())
def test_generated_records_read_back_as_written(found: list[Record]) -> None:
    players, games, _ = parsed([line_of(record) for record in found])

    assert players["player"].tolist() == [r.rank for r in found]
    assert players["line"].tolist() == list(range(2, len(found) + 2))
    assert players["name"].tolist() == [r.name for r in found]
    # §4.1: a rating or an ID of 0 (or blank) means unrated / unknown.
    assert players["rating"].tolist() == [r.rating or pd.NA for r in found]
    assert players["fide_id"].tolist() == [r.fide_id or pd.NA for r in found]
    assert players["rank"].tolist() == [r.final or pd.NA for r in found]
    assert players["federation"].tolist() == [r.federation.upper() or pd.NA for r in found]
    sexes = {"m": "M", "M": "M", "w": "F", "W": "F", "f": "F", " ": pd.NA}
    assert players["sex"].tolist() == [sexes[r.sex] for r in found]
    points = [float(r.points.replace(",", ".")) if r.points else pd.NA for r in found]
    assert players["points"].tolist() == points

    # Rows: every round up to the last one with anything written, on any line.
    def block(record: Record, index: int) -> str:
        return line_of(record)[91 + 10 * index : 101 + 10 * index]

    last = max(
        (i + 1 for r in found for i in range(len(r.cells)) if block(r, i).strip()), default=0
    )
    expected = []
    for record in found:
        for index, cell in enumerate(record.cells[:last]):
            paired = bool(cell.opponent)  # blank or 0000: no opponent (a bye)
            code = cell.result.upper()
            at_board = cell.colour in "wbWB"
            expected.append(
                {
                    "round": index + 1,
                    "player": record.rank,
                    "opponent": cell.opponent if paired else pd.NA,
                    "colour": cell.colour.lower() if at_board else pd.NA,
                    "result": pd.NA if cell.result == " " else cell.result,
                    "score": POINTS.get(code, 0.0),
                    # §4.2/§4.3: rated when paired at the board with a played result.
                    "rated": paired and at_board and code in ("1", "=", "0"),
                }
            )
    columns = ["round", "player", "opponent", "colour", "result", "score", "rated"]
    got = [[None if pd.isna(v) else v for v in row] for row in games[columns].itertuples(False)]
    assert got == [[None if pd.isna(row[c]) else row[c] for c in columns] for row in expected]


@SETTINGS
@given(records(ASCII_NAME), st.data())
def test_names_beyond_ascii_change_nothing_but_the_names(
    found: list[Record], data: st.DataObject
) -> None:
    ascii_lines = [line_of(record) for record in found]
    for record in found:
        if record.name:
            wide = data.draw(st.text(WIDE_NAME, min_size=1, max_size=1))
            # The same length in characters: every column after the name stays in place.
            record.name = wide * len(record.name)
    wide_lines = [line_of(record) for record in found]
    players, games, issues = parsed(ascii_lines)
    wide_players, wide_games, wide_issues = parsed(wide_lines)

    pd.testing.assert_frame_equal(games, wide_games)
    pd.testing.assert_frame_equal(players.drop(columns="name"), wide_players.drop(columns="name"))
    assert wide_players["name"].tolist() == [r.name for r in found]
    hint = " (the line has non-ASCII characters: is the file in another encoding?)"
    assert [issue.replace(hint, "") for issue in wide_issues] == issues


def test_a_line_beyond_ascii_keeps_its_columns_in_the_matrix() -> None:
    codes, wide = byte_matrix(["001 Łódź", "001 Lodz", "001 中"], 10)
    assert wide.tolist() == [True, False, True]
    assert bytes(codes[0]) == b"001 \x1a\x1ad\x1a  " and PLACEHOLDER == 0x1A
    assert bytes(codes[1]) == b"001 Lodz  "
    assert bytes(codes[2]) == b"001 \x1a     "


def test_codes_beyond_ascii_read_as_characters_are() -> None:
    # Round 1's colour is 'ẘ': not a colour, the block misaligned; round 2's result is 'ﬀ',
    # which upper-cases to 'FF': read as 'F' (a full-point bye, §4.3: 1 point, not rated), as
    # the code-point parse of before read it (np.char.upper keeps one character); kept as
    # written.
    line = "001    1      Łukasz Ŵ".ljust(91) + "   2 ẘ 1     2 w ﬀ  "
    other = "001    2      Other".ljust(91) + "   1 b 0     1 b -  "
    _, games, issues = parsed([line, other])
    assert games["result"].tolist() == ["1", "ﬀ", "0", "-"]
    assert games["score"].tolist()[1] == 1.0
    assert games["rated"].tolist()[:2] == [False, False]
    assert games["reason"].astype(str).tolist()[:2] == ["unreadable", "unplayed"]
    assert issues[0] == (
        "generated.trf:2: round 1: misaligned round block '   2 ẘ 1' (expected 'nnnn c r' in "
        "columns 92-99) (the line has non-ASCII characters: is the file in another encoding?)"
    )


def test_numbers_beyond_ascii_are_not_digits() -> None:
    # '٣' (Arabic-Indic three) is a digit to Python's isdigit, not to TRF (ASCII digits only).
    line = "001    1      Name".ljust(48) + "2٣00"
    players, _, issues = parsed([line])
    assert players["rating"].isna().all()
    assert issues == [
        "generated.trf:2: rating '2٣00' is not a number (columns 49-52)",
    ]
    assert np.array_equal(players["player"].to_numpy(), [1])


def test_four_column_numbers_read_by_byte_pairs() -> None:
    # (field, value where read, present, bad): one run of ASCII digits between blanks.
    cases = [
        ("  12", 12, True, False),
        ("12  ", 12, True, False),
        (" 12 ", 12, True, False),
        ("0000", 0, True, False),
        ("9999", 9999, True, False),
        ("    ", 0, False, False),
        ("1 2 ", 12, True, True),  # two runs: a misaligned field
        (" x1 ", 1, True, True),
        ("-1  ", 1, True, True),
    ]
    block = np.frombuffer("".join(c[0] for c in cases).encode(), np.uint8).reshape(-1, 4)
    value, present, bad = integers(block)
    assert value.tolist() == [c[1] for c in cases]
    assert present.tolist() == [c[2] for c in cases]
    assert bad.tolist() == [c[3] for c in cases]


def test_byte_pair_tables_agree_with_the_column_by_column_reading() -> None:
    # Every four-byte field over digits, a blank, a letter and the placeholder.
    alphabet = np.frombuffer(b"0 9x\x1a", np.uint8)
    fields = np.array(list(itertools.product(alphabet, repeat=4)), dtype=np.uint8)
    for by_pairs, by_columns in zip(integers(fields), _digits(fields), strict=True):
        assert by_pairs.dtype == by_columns.dtype
        assert np.array_equal(by_pairs, by_columns)


def test_declared_points_read_as_their_decimal_text() -> None:
    # Every points field (columns 81-84) over digits, blank, both decimal marks and a letter:
    # the value the text writes (the comma a point), NA when blank or not a number.
    alphabet = "05 .,x"
    fields = ["".join(chars) for chars in itertools.product(alphabet, repeat=4)]
    lines = [f"001 {rank:4d}      Name".ljust(80) + field for rank, field in enumerate(fields, 1)]
    players, _, _ = parsed(lines)

    def value(field: str) -> float | None:
        try:
            return float(field.strip().replace(",", "."))
        except ValueError:
            return None

    got = [None if pd.isna(v) else v for v in players["points"]]
    assert got == [value(field) for field in fields]
