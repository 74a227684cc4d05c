"""The 001 records of TRF files (docs/formats.md §4): each player's fields and his rounds,
read from fixed columns as arrays over many files at once, and the points each record states
checked against its rounds."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

import numpy as np
import pandas as pd

from rating_batch.errors import Issue, Severity
from rating_batch.loaders.common import (
    NOT_A_TITLE,
    clean_text,
    fide_title,
    map_distinct,
    normalise_sex,
    parse_birth_year,
)
from rating_batch.loaders.trf_bytes import (
    BLANK,
    CHARACTERS,
    LOWER,
    PLACEHOLDER,
    UPPER,
    byte_matrix,
    decimals,
    fold,
    integers,
    table,
    texts,
)
from rating_batch.loaders.trf_bytes import written as written_at
from rating_batch.loaders.trf_decoding import (
    FIELD,
    PLAYER_FIELDS,
    ROUND_START,
    ROUND_WIDTH,
)
from rating_batch.schema import (
    GAMES_DTYPES,
    PLAYERS_DTYPES,
    REASON_DTYPE,
    REASONS,
    conform,
)

# Inside a round block: opponent [0:4], colour [5], result [7]; [4], [6], [8:10] are blank.
BLOCK_BLANKS = (4, 6, 8, 9)


# Result codes (docs/formats.md §4.3), compared upper-cased.
_POINTS = {"1": 1.0, "+": 1.0, "W": 1.0, "F": 1.0, "U": 1.0, "=": 0.5, "D": 0.5, "H": 0.5}


_KNOWN_RESULTS = frozenset("10=+-WDLHFUZ ")


_UNKNOWN_RESULTS = frozenset("X?A")  # seen in other readers: unrated, unplayed, warned

#: The fields read as text (the others are numbers, read as digits).
_TEXTS = frozenset({"sex", "title", "name", "federation", "birth", "points"})

# The codes as byte lookup tables, indexed by the folded byte (trf_bytes).
_COLOURS = table("wb- ")
_AT_BOARD = table("wb")
_KNOWN = table("".join(_KNOWN_RESULTS))
_ODD = table("".join(_UNKNOWN_RESULTS))
_PLAYED = table("1=0")
_FORFEIT = table("+-")
_LEGACY_BYE = table("+=")
_SCORE = np.zeros(256, dtype=np.float64)
_SCORE[[ord(code) for code in _POINTS]] = list(_POINTS.values())
_CONTROL = np.zeros(256, dtype=bool)
_CONTROL[[*range(32), 127]] = True
#: Byte → the code as written (a str), None for a blank.
_WRITTEN = CHARACTERS.astype(object)
_WRITTEN[BLANK] = None
#: Folded colour byte → the colour of a game at the board, None for any other.
_AT_BOARD_TEXT = _WRITTEN.copy()
_AT_BOARD_TEXT[~_AT_BOARD] = None


@dataclass
class _Files:
    """The files of one batch, and which file each 001 line comes from."""

    sources: np.ndarray  # object array, one per file
    keys: np.ndarray
    of_line: np.ndarray  # file index of each 001 line
    issues: list[list[Issue]]  # each file's issues, in the order they are found

    def add(self, indexed: Iterable[tuple[int, Issue]]) -> None:
        for file, issue in indexed:
            self.issues[file].append(issue)


def _parse_players(
    lines: list[str], numbers: list[int], files: _Files
) -> tuple[pd.DataFrame, pd.DataFrame, np.ndarray, np.ndarray]:
    """The 001 records of every file of the batch, as one array.

    Returns the players and games frames (rows grouped by file), and per file the number of
    rounds with data and whether TRF06 notation was seen."""
    count = len(lines)
    longest = max((len(line) for line in lines), default=0)
    rounds = max(0, -(-(longest - ROUND_START) // ROUND_WIDTH))
    width = max(ROUND_START + rounds * ROUND_WIDTH, FIELD["rank"][1])
    codes, wide = byte_matrix(lines, width)
    line_numbers = np.array(numbers, dtype=np.int64)
    of_line = files.of_line
    # Keys made of (file, start rank): duplicates are per file.
    stride = 10**4  # start ranks have four columns

    def issue(index: int, message: str, severity: Severity = "error") -> tuple[int, Issue]:
        file = int(of_line[index])
        return file, Issue(files.sources[file], int(line_numbers[index]), message, severity)

    numeric: dict[str, tuple[np.ndarray, np.ndarray]] = {}
    severities: tuple[tuple[str, Severity], ...] = (
        ("start_rank", "error"),
        ("rating", "error"),
        ("fide_id", "warning"),
    )
    for name, severity in severities:
        start, end = FIELD[name]
        value, present, bad = integers(codes[:, start:end])
        label = name.replace("_", " ")
        files.add(
            issue(
                index,
                f"{label} {lines[index][start:end]!r} is not a number (columns {start + 1}-{end})",
                severity,
            )
            for index in np.flatnonzero(bad).tolist()
        )
        numeric[name] = (value, present & ~bad)
    ranks, has_rank = numeric["start_rank"]
    files.add(
        issue(index, "missing start rank (columns 5-8)")
        for index in np.flatnonzero(~has_rank).tolist()
        if lines[index][4:8].strip() == ""
    )
    ranked = np.where(has_rank, of_line * stride + ranks, -1 - np.arange(count))
    duplicated = pd.Series(ranked).duplicated(keep="first").to_numpy()
    if duplicated.any():
        first_line = pd.Series(line_numbers).groupby(ranked).transform("first").to_numpy()
        files.add(
            issue(
                index,
                f"duplicate start rank {int(ranks[index])} (first on line {first_line[index]})",
            )
            for index in np.flatnonzero(duplicated).tolist()
        )

    text = texts(codes, lines, wide, [field for field in PLAYER_FIELDS if field[0] in _TEXTS])
    titles = map_distinct(text["title"], fide_title)
    files.add(
        issue(
            index, f"title {str(text['title'][index])!r} {NOT_A_TITLE} (columns 11-13)", "warning"
        )
        for index in np.flatnonzero(
            (text["title"] != "") & pd.isna(np.array(titles, dtype=object))
        ).tolist()
    )
    rating, has_rating = numeric["rating"]
    fide_id, has_id = numeric["fide_id"]
    # The final ranking, for the crosstable's order only: unreadable is simply absent.
    final, has_final, unreadable = integers(codes[:, FIELD["rank"][0] : FIELD["rank"][1]])
    has_final &= ~unreadable
    points = _points(codes, wide, text["points"])
    event_of_line = pd.array(files.keys[of_line], dtype="string")
    source_of_line = pd.array(files.sources[of_line], dtype="string")
    players = pd.DataFrame(
        {
            "event": event_of_line,
            "player": np.where(has_rank, ranks, 0),
            # docs/formats.md §4.1: a rating or ID of 0 (or blank) means unrated / unknown.
            "fide_id": pd.array(np.where(has_id & (fide_id > 0), fide_id, 0), dtype="Int64"),
            "name": _names(text["name"], codes, wide),
            "federation": map_distinct(text["federation"], lambda t: t.upper() or None),
            "sex": map_distinct(text["sex"], normalise_sex),
            "title": titles,
            "birth_year": pd.array(map_distinct(text["birth"], parse_birth_year), dtype="Int64"),
            "rating": pd.array(np.where(has_rating, rating, 0), dtype="Int64"),
            "points": points,
            "rank": pd.array(np.where(has_final & (final > 0), final, 0), dtype="Int64"),
            "source": source_of_line,
            "line": line_numbers,
        }
    )
    for column in ("fide_id", "rating", "rank"):
        players[column] = players[column].mask(players[column] == 0)
    players = conform(players, PLAYERS_DTYPES)

    games, played, legacy = _parse_rounds(codes, rounds, players, lines, files)
    return players, games, played, legacy


def _points(
    codes: np.ndarray, wide: np.ndarray, written: np.ndarray
) -> pd.api.extensions.ExtensionArray:
    """The points each line declares (Float64, NA where blank or unreadable): digits around
    one '.' or ',' by digit arithmetic, anything else (and lines beyond ASCII) as
    ``pd.to_numeric`` reads it, the comma a point."""
    start, end = FIELD["points"]
    value, plain, blank = decimals(codes[:, start:end])
    plain &= ~wide
    points = pd.array(np.where(plain, value, np.nan), dtype="Float64")
    rest = ~plain & (~blank | wide)
    if rest.any():
        read = pd.to_numeric(
            pd.Series(written[rest], dtype="string").str.replace(",", ".", regex=False),
            errors="coerce",
        )
        points[rest] = read.astype("Float64").array
    return points


def _names(names: np.ndarray, codes: np.ndarray, wide: np.ndarray) -> np.ndarray:
    """The names cleaned of control characters (``clean_text``): only those of lines beyond
    ASCII or with a control byte (a tab) in the name's columns need it."""
    cleaned = names.astype(object)
    start, end = FIELD["name"]
    rows = np.flatnonzero(wide | _CONTROL[codes[:, start:end]].any(axis=1))
    if len(rows):
        cleaned[rows] = map_distinct(cleaned[rows], clean_text)
    return cleaned


def _parse_rounds(
    codes: np.ndarray,
    rounds: int,
    players: pd.DataFrame,
    lines: list[str],
    files: _Files,
) -> tuple[pd.DataFrame, np.ndarray, np.ndarray]:
    count = len(players)
    of_line = files.of_line
    file_count = len(files.keys)
    blocks = codes[:, ROUND_START : ROUND_START + rounds * ROUND_WIDTH].reshape(
        count, rounds, ROUND_WIDTH
    )
    # Padding after a file's last round with any content is not a round (e.g. a TRFx file
    # written before the next round is paired).
    content = (blocks != 32).any(axis=2)
    last = np.zeros(count, dtype=np.int64)
    if rounds:
        last = np.where(content.any(axis=1), rounds - np.argmax(content[:, ::-1], axis=1), 0)
    played = np.zeros(file_count, dtype=np.int64)
    np.maximum.at(played, of_line, last)
    used = np.arange(rounds) < played[of_line][:, None]  # (lines, rounds): rows of the frame

    opponent, has_opponent, bad_opponent = integers(blocks[:, :, 0:4])
    # Colour and result codes folded by a byte table; a character beyond ASCII as the
    # code-point parse folded it (trf_bytes.fold).
    columns = ROUND_START + np.arange(rounds) * ROUND_WIDTH
    raw_colour, raw_result = blocks[:, :, 5], blocks[:, :, 7]
    colour, result = LOWER[raw_colour], UPPER[raw_result]
    fold(colour, raw_colour, columns + 5, lines, np.char.lower)
    fold(result, raw_result, columns + 7, lines, np.char.upper)
    separators = (blocks[:, :, list(BLOCK_BLANKS)] != 32).any(axis=-1)
    bad_colour = ~_COLOURS[colour]
    known = _KNOWN[result]
    odd = _ODD[result]
    misaligned = separators | bad_opponent | bad_colour
    unknown_code = ~(known | odd) & ~misaligned
    line_of = players["line"].to_numpy()
    me = players["player"].to_numpy()

    def flag(mask: np.ndarray, message: Callable[[int, int], str], severity: Severity) -> None:
        for row, rnd in zip(*(axis.tolist() for axis in np.nonzero(mask & used)), strict=True):
            file = int(of_line[row])
            text = f"round {rnd + 1}: {message(row, rnd)}"
            files.issues[file].append(Issue(files.sources[file], int(line_of[row]), text, severity))

    def misaligned_block(row: int, rnd: int) -> str:
        start = ROUND_START + rnd * ROUND_WIDTH
        hint = ""
        if not lines[row].isascii():
            hint = " (the line has non-ASCII characters: is the file in another encoding?)"
        return (
            f"misaligned round block {lines[row][start : start + 8]!r} "
            f"(expected 'nnnn c r' in columns {start + 1}-{start + 8}){hint}"
        )

    paired = has_opponent & (opponent > 0)
    at_board = _AT_BOARD[colour]
    played_code = _PLAYED[result]

    def written(row: int, rnd: int) -> str:
        return written_at(lines, row, int(columns[rnd]) + 7)

    flag(misaligned, misaligned_block, "error")
    flag(
        unknown_code,
        lambda row, rnd: (
            f"unknown result code {written(row, rnd)!r} (TRF codes: 1 = 0 + - W D L H F "
            "U Z, or blank)"
        ),
        "error",
    )
    # A played result needs the colour of a game at the board (docs/formats.md §4.2, §4.3).
    no_board = paired & ~at_board & played_code & ~misaligned
    flag(
        no_board,
        lambda row, rnd: (
            f"result {written(row, rnd)!r} against {opponent[row, rnd]} with colour "
            f"{str(CHARACTERS[colour[row, rnd]]).strip() or 'blank'!r}: a game played at the "
            "board has colour w or b (a forfeit is + or -)"
        ),
        "error",
    )
    misaligned = misaligned | unknown_code
    flag(
        odd & ~misaligned,
        lambda row, rnd: (
            f"result code {written(row, rnd)!r} is not a TRF16 code; taken as an unplayed game"
        ),
        "warning",
    )
    flag(
        ~paired & (result == ord("0")),
        lambda row, rnd: "result '0' without an opponent read as a zero-point bye",
        "warning",
    )
    flag(
        paired & at_board & (result == BLANK),
        lambda row, rnd: f"game against {opponent[row, rnd]} has no result; not rated",
        "warning",
    )
    flag(
        paired & (opponent == me[:, None]),
        lambda row, rnd: f"player {me[row]} is paired against themself",
        "error",
    )

    rated = paired & at_board & played_code & ~misaligned
    reason = np.select(
        [misaligned, rated, ~paired, _FORFEIT[result] | ~at_board, played_code],
        [REASONS.index("unreadable"), -1, REASONS.index("bye"), *[REASONS.index("forfeit")] * 2],
        default=REASONS.index("unplayed"),
    )
    score = _SCORE[result]
    # TRF06 notation: forfeits with colour '-' and byes written '0000 - +' / '0000 - ='.
    legacy_seen = ((paired & (colour == ord("-"))) | (~paired & _LEGACY_BYE[result])) & used
    legacy = np.bincount(of_line, weights=legacy_seen.sum(axis=1), minlength=file_count) > 0

    row_of = np.broadcast_to(np.arange(count)[:, None], used.shape)[used]
    round_of = np.broadcast_to(np.arange(rounds), used.shape)[used]
    # The codes as written (not folded), a blank none.
    written_codes = _WRITTEN[raw_result[used]]
    for cell in np.flatnonzero(raw_result[used] == PLACEHOLDER).tolist():
        written_codes[cell] = written(int(row_of[cell]), int(round_of[cell]))
    games = pd.DataFrame(
        {
            "event": players["event"].array.take(row_of),
            "round": round_of + 1,
            "player": me[row_of],
            "opponent": pd.arrays.IntegerArray(np.where(paired, opponent, 0)[used], ~paired[used]),
            "colour": _AT_BOARD_TEXT[colour[used]],
            "result": written_codes,
            "score": score[used],
            "rated": rated[used],
            "reason": pd.Categorical.from_codes(reason[used], dtype=REASON_DTYPE),
            "source": players["source"].array.take(row_of),
            "line": line_of[row_of],
        }
    )
    return conform(games, GAMES_DTYPES), played, legacy


def _check_points(
    players: pd.DataFrame,
    games: pd.DataFrame,
    files: _Files,
    played: np.ndarray,
    scored: np.ndarray,
) -> list[tuple[int, Issue]]:
    """Declared points that disagree with the rounds: a warning, never used for rating (§9).
    Files with a scoring system of their own (``scored`` False) are not checked."""
    if not len(players):
        return []
    rows = np.repeat(np.arange(len(players)), played[files.of_line])
    totals = np.bincount(rows, weights=games["score"].to_numpy(), minlength=len(players))
    declared = players["points"].to_numpy(dtype=np.float64, na_value=np.nan)
    differ = ~np.isnan(declared) & (np.abs(declared - totals) > 1e-9) & scored[files.of_line]
    lines = players["line"].to_numpy()
    return [
        (
            int(files.of_line[i]),
            Issue(
                str(files.sources[files.of_line[i]]),
                int(lines[i]),
                f"declared points {declared[i]:g} but the rounds give {totals[i]:g}",
                "warning",
            ),
        )
        for i in np.flatnonzero(differ).tolist()
    ]
