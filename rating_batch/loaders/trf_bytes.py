"""The 001 lines of TRF files as one fixed-width matrix of bytes (docs/formats.md §4).

TRF is fixed-width in *characters*. A line of ASCII characters is its own bytes, one a column:
such lines (nearly all) go into a ``uint8`` matrix at C speed, and their fields are read from it
by digit arithmetic, byte comparisons and lookup tables. A line with any other character (a
name in Latin-2, Cyrillic …) keeps its columns by the same matrix holding ``PLACEHOLDER`` for
each such character: never a digit, a blank or a code, so every check reads it as the code-point
parse did; its text fields, and any code written in such a character, are read from the decoded
line itself (``texts``, ``fold``), so the frames are those of a parse of the characters.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

#: What a character beyond ASCII becomes in the matrix: a control character, which the scan
#: has replaced by a blank in every line (so it stands for nothing else).
PLACEHOLDER = 0x1A
BLANK = 32

#: Byte → its one-character string ('\x00'…'\xff'): codes back to text.
CHARACTERS = np.array([chr(code) for code in range(256)], dtype="<U1")
#: Byte → ASCII lower / upper case (colour and result codes, compared folded).
LOWER = np.array([ord(chr(code).lower()) if code < 128 else code for code in range(256)], np.uint8)
UPPER = np.array([ord(chr(code).upper()) if code < 128 else code for code in range(256)], np.uint8)


def table(codes: str) -> np.ndarray:
    """A byte lookup table: True for the bytes of ``codes`` (ASCII)."""
    found = np.zeros(256, dtype=bool)
    found[list(codes.encode("ascii"))] = True
    return found


def byte_matrix(lines: Sequence[str], width: int) -> tuple[np.ndarray, np.ndarray]:
    """A (lines, width) ``uint8`` matrix padded with blanks, and which lines are not ASCII
    (their characters beyond ASCII are ``PLACEHOLDER``, one column each)."""
    count = len(lines)
    codes = np.full((count, width), BLANK, dtype=np.uint8)
    wide = np.fromiter((not line.isascii() for line in lines), dtype=bool, count=count)
    narrow = np.flatnonzero(~wide)
    if len(narrow) == count and count:
        block = np.array(lines, dtype=f"S{width}").view(np.uint8).reshape(count, width)
        codes[:] = block
    elif len(narrow):
        block = np.array([lines[i] for i in narrow.tolist()], dtype=f"S{width}")
        codes[narrow] = block.view(np.uint8).reshape(len(narrow), width)
    # Padding of the 'S' dtype is NUL: the lines themselves hold none (the scan blanks them).
    codes[codes == 0] = BLANK
    if wide.any():
        rows = np.flatnonzero(wide)
        points = np.array([lines[i] for i in rows.tolist()], dtype=f"<U{width}")
        points = points.view(np.uint32).reshape(len(rows), width)
        codes[rows] = np.where(
            points == 0, BLANK, np.where(points > 127, PLACEHOLDER, points)
        ).astype(np.uint8)
    return codes, wide


def texts(
    codes: np.ndarray,
    lines: Sequence[str],
    wide: np.ndarray,
    fields: Sequence[tuple[str, int, int]],
) -> dict[str, np.ndarray]:
    """Each field's stripped text (a ``<U`` array), ASCII lines from the matrix, the others
    from their characters."""
    rows = np.flatnonzero(wide).tolist()
    found: dict[str, np.ndarray] = {}
    for name, start, end in fields:
        block = np.ascontiguousarray(codes[:, start:end]).view(f"S{end - start}").ravel()
        values = np.char.strip(block).astype(f"<U{end - start}")
        for row in rows:
            values[row] = lines[row][start:end].strip()
        found[name] = values
    return found


def _digits(codes: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Right- or left-aligned unsigned integers from a (..., width) block of bytes.

    Returns (value, present, bad): ``present`` where any digit is found, ``bad`` where the
    field holds anything but one run of digits surrounded by blanks.
    """
    digit = (codes >= 48) & (codes <= 57)
    blank = codes == 32
    value = np.zeros(codes.shape[:-1], dtype=np.int64)
    for column in range(codes.shape[-1]):
        step = digit[..., column]
        value = np.where(step, value * 10 + (codes[..., column].astype(np.int64) - 48), value)
    present = np.asarray(digit.any(axis=-1), dtype=bool)
    # One contiguous run: the number of digit starts (digit after non-digit) is at most one.
    starts = digit & ~np.concatenate(
        [np.zeros((*digit.shape[:-1], 1), dtype=bool), digit[..., :-1]], axis=-1
    )
    bad = np.asarray(~(digit | blank).all(axis=-1) | (starts.sum(axis=-1) > 1), dtype=bool)
    return value, present, bad


# Each pair of bytes (a uint16, little-endian: the first byte the low one) read by
# ``_digits``: its digits' value and count, whether it is digits and blanks only, how many
# runs of digits start in it, and whether it starts / ends with a digit.
_PAIRS = np.arange(65536)
_PAIR_BYTES = np.stack([_PAIRS & 0xFF, _PAIRS >> 8], axis=1).astype(np.uint8)
_PAIR_VALUE = _digits(_PAIR_BYTES)[0]
_PAIR_DIGIT = (_PAIR_BYTES >= 48) & (_PAIR_BYTES <= 57)
_PAIR_COUNT = _PAIR_DIGIT.sum(axis=1)
_PAIR_CLEAN = ((_PAIR_BYTES == BLANK) | _PAIR_DIGIT).all(axis=1)
_PAIR_RUNS = _PAIR_DIGIT[:, 0].astype(np.int64) + (_PAIR_DIGIT[:, 1] & ~_PAIR_DIGIT[:, 0])
_TENS = np.array([1, 10, 100], dtype=np.int64)


def integers(codes: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``_digits`` of a (..., width) block; a four-byte field (start rank, rating, opponent,
    final rank) by the tables of its two byte pairs (each two bytes' digits concatenated)."""
    if codes.shape[-1] != 4:
        return _digits(codes)
    pairs = np.ascontiguousarray(codes).view("<u2")
    first, last = pairs[..., 0], pairs[..., 1]
    value = _PAIR_VALUE[first] * _TENS[_PAIR_COUNT[last]] + _PAIR_VALUE[last]
    present = (_PAIR_COUNT[first] + _PAIR_COUNT[last]) > 0
    runs = _PAIR_RUNS[first] + _PAIR_RUNS[last] - (_PAIR_DIGIT[first, 1] & _PAIR_DIGIT[last, 0])
    bad = ~(_PAIR_CLEAN[first] & _PAIR_CLEAN[last]) | (runs > 1)
    return value, present, bad


def decimals(codes: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Decimal numbers of a (rows, width) block: one run of digits with at most one '.' or
    ',' in it, between blanks (``3``, `` 2.5``, ``10,0``). Returns (value, plain, blank):
    ``plain`` where the field is such a number (its value the digits' integer over a power of
    ten, as exact as reading the text), ``blank`` where it is empty."""
    digit = (codes >= 48) & (codes <= 57)
    point = (codes == 46) | (codes == 44)
    filled = codes != BLANK
    starts = filled.copy()
    starts[:, 1:] &= ~filled[:, :-1]
    after = np.cumsum(point, axis=1) > 0  # at or after the separator
    plain = (
        ((digit | point | ~filled).all(axis=1))
        & (starts.sum(axis=1) == 1)
        & (point.sum(axis=1) <= 1)
        & digit.any(axis=1)
    )
    value = np.zeros(len(codes), dtype=np.int64)
    for column in range(codes.shape[1]):
        value = np.where(
            digit[:, column], value * 10 + codes[:, column].astype(np.int64) - 48, value
        )
    places = (digit & after).sum(axis=1)
    return value / 10.0**places, plain, ~filled.any(axis=1)


def written(lines: Sequence[str], row: int, column: int) -> str:
    """The character of a line at a 0-based column (a blank past its end), as written."""
    line = lines[row]
    return line[column] if column < len(line) else " "


def fold(
    folded: np.ndarray,
    raw: np.ndarray,
    columns: np.ndarray,
    lines: Sequence[str],
    case: Callable[[np.ndarray], np.ndarray],
) -> None:
    """Case-fold in place the cells (rows, rounds) of ``folded`` whose ``raw`` byte is a
    placeholder, from the character written there (``columns``: each round's 0-based column),
    as the code-point parse did (``np.char.lower``/``upper``, which keep one character: 'ﬀ'
    becomes 'F'); a fold beyond ASCII stays a placeholder."""
    cells = np.argwhere(raw == PLACEHOLDER)
    if not len(cells):
        return
    characters = np.array(
        [written(lines, row, int(columns[rnd])) for row, rnd in cells.tolist()], dtype="<U1"
    )
    points = case(characters).view(np.uint32)
    folded[cells[:, 0], cells[:, 1]] = np.where(points > 127, PLACEHOLDER, points).astype(np.uint8)
