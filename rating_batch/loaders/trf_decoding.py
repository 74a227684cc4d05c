"""A TRF file's bytes made lines: the record layout, and the decoding (docs/formats.md §2).

The layout is data (``PLAYER_FIELDS``), shared with the parser (``trf.py``). The encoding of a
file that is not UTF-8 is found from its own evidence (``encoding.decode``): the names of its
001 records, its 012 name and 022 city, and the federations of its 001 and 032 records.

A program writing a double-byte code page (Shift-JIS) may count the columns in bytes, a kanji
taking two: decoded, every field after such a name would shift left. Such a line (its fields
in place counted in bytes, not in characters) is laid out again in characters.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from rating_batch.errors import Issue
from rating_batch.loaders.common import MAX_LINE_CHARACTERS, long_lines, split_lines
from rating_batch.loaders.encoding import (
    CODE_PAGES,
    RAW_LINES,
    SINGLE_BYTE,
    DecodingError,
    Evidence,
    decode,
)

#: The static part of the 001 record: (field, start, end) as 0-based, end-exclusive slices.
PLAYER_FIELDS: tuple[tuple[str, int, int], ...] = (
    ("start_rank", 4, 8),
    ("sex", 9, 10),
    ("title", 10, 13),
    ("name", 14, 47),
    ("rating", 48, 52),
    ("federation", 53, 56),
    ("fide_id", 57, 68),
    ("birth", 69, 79),
    ("points", 80, 84),
    ("rank", 85, 89),
)
FIELD = {name: (start, end) for name, start, end in PLAYER_FIELDS}
ROUND_START = 91
"""0-based column of round 1's opponent field (cols 92-95)."""
ROUND_WIDTH = 10


@dataclass
class TrfText:
    """One TRF file's decoded lines, before parsing (several are parsed together)."""

    lines: list[str]
    source: str
    key: str
    encoding: str = ""
    issues: list[Issue] = field(default_factory=list)


def decode_trf(
    path: Path, *, encoding: str | None = None, key: str | None = None, data: bytes | None = None
) -> TrfText:
    """Read and decode a TRF file (recording the encoding, with a warning when it is a guess);
    absurd lines are reported and the file is not sliced into arrays. ``data``: the file's
    bytes, read already."""
    source, key = str(path), key or path.stem
    data = path.read_bytes() if data is None else data
    try:
        decoded = decode(data, encoding, trf_evidence)
    except DecodingError as error:
        return TrfText([], source, key, "", [Issue(source, error.line, str(error))])
    lines = _split(decoded.text)
    codec = CODE_PAGES.get(decoded.encoding)
    if codec is not None and codec not in SINGLE_BYTE:
        lines = _in_characters(lines, RAW_LINES.split(data), codec)
    warning = decoded.warning()
    issues = [Issue(source, None, warning, "warning")] if warning else []
    too_long = long_lines(lines, source) if _longest(lines) > MAX_LINE_CHARACTERS else []
    if too_long:
        issues += [Issue(source, number, message) for number, message in too_long]
        return TrfText([], source, key, decoded.encoding, issues)
    return TrfText(lines, source, key, decoded.encoding, issues)


def _split(text: str) -> list[str]:
    """``split_lines``, without a regular expression when the text has no CR (most files)."""
    if "\r" in text:
        return split_lines(text)
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def _longest(lines: list[str]) -> int:
    return max(map(len, lines), default=0)


_NAME = FIELD["name"]
_FEDERATION = FIELD["federation"]
_TAGGED_NAMES = (b"012 ", b"022 ")


def trf_evidence(data: bytes) -> Evidence:
    """The names (001 names, the 012 name, the 022 city) and federations (001 and 032) of a
    TRF file, read in its bytes: the federations are ASCII, in place whatever the code page
    (in a double-byte one, where its writer counted the columns in bytes)."""
    names: list[bytes] = []
    federations: list[str] = []
    for line in RAW_LINES.split(data):
        if line.startswith(b"001 "):
            names.append(line[_NAME[0] : _NAME[1]].strip())
            federations.append(line[_FEDERATION[0] : _FEDERATION[1]].decode("latin-1").strip())
        elif line.startswith(_TAGGED_NAMES):
            names.append(line[4:].strip())
        elif line.startswith(b"032 "):
            federations.append(line[4:].decode("latin-1").strip())
    return Evidence([name for name in names if not name.isascii()], federations)


def _in_characters(lines: list[str], raw: list[bytes], codec: str) -> list[str]:
    """Each 001 line whose fields are in place counted in bytes but not in characters, laid
    out in characters: its name decoded from its 33 bytes, the rest as it is."""
    start, end = _NAME
    laid: list[str] = []
    for line, data in zip(lines, raw, strict=False):
        text = data.decode("latin-1")  # one character a byte: the columns counted in bytes
        if line.startswith("001 ") and _in_place(text) and not _in_place(line):
            name = data[start:end].decode(codec, errors="replace").rstrip()
            line = line[:start] + name.ljust(end - start) + data[end:].decode(codec)
        laid.append(line)
    return laid


def _in_place(line: str) -> bool:
    """Whether a 001 line's fields after the name are where the layout puts them: blanks
    around the rating, which is digits or blank."""
    rating = line[FIELD["rating"][0] : FIELD["rating"][1]].strip()
    around = line[_NAME[1] : _NAME[1] + 1] + line[_FEDERATION[0] - 1 : _FEDERATION[0]]
    return not around.strip() and (rating.isdigit() or not rating)
