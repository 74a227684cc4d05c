"""The encoding of a text file (docs/formats.md §2): UTF-8 (a BOM stripped), UTF-16 by its
byte-order mark, else a code page found from the file's own evidence.

A file that is not UTF-8 was written in the code page of the Windows that made it: Windows-1252
in western Europe and the Americas, 1250 in central Europe, 1251 for Cyrillic, Shift-JIS (cp932)
in Japan …, and Russian and Ukrainian club software still writes KOI8-R and KOI8-U. Read in the
wrong one, a name changes alphabet without a word (``Żółkiewski`` becomes
``¯ó³kiewski``, ``Иванов`` becomes ``Èâàíîâ``). Each code page of ``CODE_PAGES`` is tried on
the file's names, and judged by:

* the letters it gives: a name holds letters, spaces and a little punctuation, so a reading
  that makes a symbol (``¯``, ``³``, ``“``), a control character, a word of two alphabets
  (``Mнcheбl``), a Latin word made mostly of accented letters (``Èâàíîâ``), or a Cyrillic or
  Greek word whose case is upside down (``йЧБОПЧ``, KOI8-R read as Windows-1251: the two code
  pages put the capitals where the other has the small letters) is wrong; a name all in small
  letters (``йчбопч``) is only less likely than the capitals the other reads in its bytes;
* the federations the file names (a TRF's 001 records and 032, a list's ``federation``
  column), each of which writes in one or two code pages (``FEDERATION_CODE_PAGES``);
* charset-normalizer's ranking of the code pages for the names' bytes (what a language
  model of letter frequencies says), where the two above leave a choice.

The reading is *sure* when the names read as letters in it and either every other such reading
gives the same text, or the federations vote for it; otherwise the reader warns, naming the
other readings and ``--encoding``. ``--encoding NAME`` reads every file that is not UTF-8 as
NAME instead (UTF-8 and UTF-16 files are told by their bytes and read as they are).
"""

from __future__ import annotations

import codecs
import re
import unicodedata
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

UTF8_BOM = b"\xef\xbb\xbf"

# docs/formats.md §2: a code page leaves a few bytes undefined (cp1252: 0x81, 0x8D, 0x8F,
# 0x90, 0x9D); they are read as Latin-1, so a stray byte never stops a file (the reading that
# makes a control character of a name's byte is judged wrong for it).
_LATIN1_FALLBACK = "rating-batch-latin1-fallback"


def _latin1_fallback(error: UnicodeError) -> tuple[str, int]:
    if not isinstance(error, UnicodeDecodeError):
        raise error
    chunk = error.object[error.start : error.end]
    return bytes(chunk).decode("latin-1"), error.end


codecs.register_error(_LATIN1_FALLBACK, _latin1_fallback)

#: The code pages a file that is not UTF-8 may be in, most common first (the order breaks the
#: last ties), by the name the report gives them → Python's codec.
CODE_PAGES: dict[str, str] = {
    "windows-1252": "cp1252",
    "windows-1250": "cp1250",
    "windows-1251": "cp1251",
    "windows-1253": "cp1253",
    "windows-1254": "cp1254",
    "windows-1257": "cp1257",
    "cp932": "cp932",
    "koi8-r": "koi8_r",
    "koi8-u": "koi8_u",
}
#: Code pages of one byte per character (the others count two for some characters).
SINGLE_BYTE = frozenset(
    {"cp1250", "cp1251", "cp1252", "cp1253", "cp1254", "cp1257", "koi8_r", "koi8_u"}
)

#: The code pages each federation's software writes (FIDE's three-letter codes); a federation
#: not here tells nothing. Data, not rules: a federation added here changes only how sure a
#: reading is, never a rating. Russia, Belarus and Ukraine write KOI8 as well as Windows-1251, so
#: their vote tells neither from the other: only the names' letters do.
FEDERATION_CODE_PAGES: dict[str, frozenset[str]] = {
    federation: frozenset(code_page.split("|"))
    for code_page, federations in {
        "windows-1252": "ENG SCO WLS IRL FRA GER ESP ITA POR NED BEL LUX SUI AUT DEN NOR SWE "
        "FIN ISL FAI AND MON SMR MLT USA CAN MEX ARG BRA CHI COL PER VEN URU PAR BOL ECU CUB "
        "CRC PUR DOM GUA HON ESA NCA PAN RSA AUS NZL",
        "windows-1250": "POL CZE SVK HUN SLO CRO BIH ROU ALB SRB MNE",
        "windows-1251|koi8-r": "RUS BLR",
        "windows-1251|koi8-u": "UKR",
        "windows-1251": "BUL MKD KAZ KGZ TJK MGL",
        "windows-1253": "GRE CYP",
        "windows-1254": "TUR",
        "windows-1257": "LTU LAT EST",
        "cp932": "JPN",
    }.items()
    for federation in federations.split()
}
#: What the report calls a codec Python names otherwise.
_SHOWN = {codec: name for name, codec in CODE_PAGES.items()}


class DecodingError(ValueError):
    """Bytes that the file's encoding cannot read: ``line`` is where (1-based)."""

    def __init__(self, message: str, line: int) -> None:
        super().__init__(message)
        self.line = line


@dataclass(frozen=True)
class Evidence:
    """What a file says of its own encoding, as bytes: its names (what a wrong code page
    garbles) and the federations it names (ASCII)."""

    names: list[bytes] = field(default_factory=list)
    federations: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Decoded:
    """A file's text, the encoding it was read in, and whether that reading is sure."""

    text: str
    encoding: str
    sure: bool = True
    why: str = ""
    example: str = ""
    """A name as this reading gives it (one that another reading gives otherwise)."""
    others: tuple[tuple[str, str], ...] = ()
    """Other code pages in which the names read as letters, but differently: each with how
    it gives ``example``."""

    def warning(self) -> str | None:
        """What to tell the officer of a reading that is not sure (None when it is)."""
        if self.sure:
            return None
        alternatives = "".join(f", {name} {text!r}" for name, text in self.others)
        shown = f" ({self.example!r}{alternatives})" if self.example else ""
        return (
            f"not UTF-8: read as {self.encoding}{shown}, unsure ({self.why}): if names read "
            "wrong, give --encoding with the file's code page (windows-1250, windows-1251, "
            "koi8-r, cp932 …)"
        )


def encoding_name(name: str) -> str:
    """A codec name as the report shows it (``cp1250`` → ``windows-1250``); LookupError for a
    name Python does not know."""
    codec = codecs.lookup(name).name
    return _SHOWN.get(codec, codec)


def decode(
    data: bytes,
    encoding: str | None = None,
    evidence: Callable[[bytes], Evidence] | None = None,
) -> Decoded:
    """Decode a text file: UTF-8 (BOM stripped), UTF-16 by its byte-order mark, else
    ``encoding`` when given, else the code page the file's evidence points to (read by
    ``evidence``, a format's reader that knows where its names are, else the non-ASCII words
    of the whole file; only for a file that is not UTF-8). Raises DecodingError (with the
    line) when UTF-16 or the given encoding cannot read the bytes."""
    if data.startswith(UTF8_BOM):
        text = data[len(UTF8_BOM) :].decode("utf-8", errors="replace")
        # A second byte-order mark, as a careless export writes, is no part of the text.
        return Decoded(text.lstrip("\ufeff"), "utf-8-sig")
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return Decoded(_strict(data, "utf-16"), "utf-16")
    if encoding and wide(encoding) and b"\x00" in data:
        # UTF-16 or UTF-32 without a byte-order mark: only the officer's word tells it (its
        # NUL bytes are valid UTF-8); a file without NUL bytes is no such file, and is read
        # by its bytes as any other. Plain "utf-16" is big-endian when the text starts with
        # the NUL byte of an ASCII character.
        if codecs.lookup(encoding).name == "utf-16":
            encoding = "utf-16-be" if data.startswith(b"\x00") else "utf-16-le"
        return Decoded(_strict(data, encoding), encoding_name(encoding))
    try:
        return Decoded(data.decode("utf-8"), "utf-8")
    except UnicodeDecodeError:
        pass
    if encoding:
        shown = encoding_name(encoding)
        return Decoded(_strict(data, encoding), shown, why="as --encoding says")
    return _detect(data, (evidence or text_evidence)(data))


def wide(encoding: str) -> bool:
    """Whether an encoding writes two or four bytes a character (UTF-16, UTF-32), so that a
    file in it holds NUL bytes; False for a name Python does not know."""
    try:
        return codecs.lookup(encoding).name.startswith(("utf-16", "utf-32"))
    except LookupError:
        return False


def _strict(data: bytes, encoding: str) -> str:
    try:
        return data.decode(encoding)
    except UnicodeDecodeError as error:
        line = data[: error.start].decode(encoding, errors="replace").count("\n") + 1
        raise DecodingError(
            f"not readable as {encoding} (byte {error.start + 1}: {error.reason}); a damaged "
            "or cut file?",
            line,
        ) from None
    except LookupError:
        raise DecodingError(f"unknown encoding {encoding!r}", 1) from None


#: The non-ASCII words of a text (what a code page changes), for a file of no known layout.
_WORD = re.compile(rb"[^\s,;\"'()]*[\x80-\xff][^\s,;\"'()]*")
#: Names looked at, at most (a list of a million players says no more than its first ones).
MOST_NAMES = 5_000


def text_evidence(data: bytes) -> Evidence:
    """The non-ASCII words of a file, as its names."""
    found: dict[bytes, None] = {}
    for match in _WORD.finditer(data):
        found.setdefault(match.group(), None)
        if len(found) >= MOST_NAMES:
            break
    return Evidence(list(found))


#: Header labels of a federation column in a CSV table (a list or a crosstable).
_FEDERATION_LABELS = frozenset({"fed", "federation", "country"})


def table_evidence(data: bytes) -> Evidence:
    """A CSV table's evidence: its non-ASCII words as names, and its federation column (found
    by its label in the first 20 rows), read in its bytes."""
    rows = [re.split(rb"[,;\t]", line) for line in RAW_LINES.split(data[:1_000_000])]
    federations: list[str] = []
    for number, row in enumerate(rows[:20]):
        labels = [cell.strip(b' "').lower().decode("latin-1") for cell in row]
        found = [i for i, label in enumerate(labels) if label in _FEDERATION_LABELS]
        if found:
            federations = [
                cells[found[0]].strip(b' "').decode("latin-1").upper()
                for cells in rows[number + 1 :]
                if len(cells) > found[0]
            ]
            break
    return Evidence(text_evidence(data).names, federations)


#: The line ends of a file's bytes (CRLF, CR or LF: docs/formats.md §2).
RAW_LINES = re.compile(rb"\r\n|\r|\n")


class _Reading(NamedTuple):
    bad: int
    """The names' words this code page makes implausible."""
    small: int
    """Its Cyrillic or Greek names without a capital: possible, but less likely than the
    capitals another code page reads in the same bytes (they choose, never make sure)."""
    texts: tuple[str, ...]


def _reading(names: Sequence[bytes], codec: str) -> _Reading | None:
    """What a code page makes of the names; None when a multi-byte code page cannot read
    them at all."""
    try:
        texts = tuple(
            name.decode(codec, errors=_LATIN1_FALLBACK if codec in SINGLE_BYTE else "strict")
            for name in names
        )
    except UnicodeDecodeError:
        return None
    bad = sum(_implausible(word) for text in texts for word in _WORDS.split(text))
    return _Reading(bad, sum(map(_in_small_letters, texts)), texts)


_WORDS = re.compile(r"[\s,.'’\-]+")
#: Scripts whose letters may share a word (a Japanese name mixes kanji and kana). Half-width
#: katakana stands alone: a name may be written in it, but not mixed with kanji, which is how
#: Shift-JIS reads the capitals of a Cyrillic code page (``鉀ﾗﾞﾅﾎﾋﾏ``).
_SCRIPT_GROUPS = dict.fromkeys(
    ("HIRAGANA", "KATAKANA", "KATAKANA-HIRAGANA", "CJK", "IDEOGRAPHIC"), "CJK"
)
#: A letter that only ends a word (Greek final sigma), followed by another letter.
_FINAL_ONLY = re.compile(r"ς\w")
#: Marks a name may hold that are not letters: the middle dot of a Japanese foreign name
#: (ジョン・スミス), and spaces, which count as no alphabet.
_NAME_MARKS = frozenset("・･")


#: Alphabets of capitals and small letters whose code pages swap them: KOI8 puts the small
#: Cyrillic letters where Windows-1251 has the capitals (docs/formats.md §2).
_CASED = frozenset({"CYRILLIC", "GREEK"})


def _in_small_letters(name: str) -> bool:
    """A Cyrillic or Greek name without a capital: the other case of a code page that swaps
    them (a name written in capitals, read in the wrong one)."""
    letters = [c for c in name if c.isalpha()]
    return bool(letters) and not any(c.isupper() for c in letters) and _scripts(letters) <= _CASED


def _scripts(letters: list[str]) -> set[str]:
    return {unicodedata.name(c, "?").split(" ")[0] for c in letters}


def _implausible(word: str) -> bool:
    """A word no name holds: a symbol or a control character, letters of two alphabets, a
    letter that only ends a word inside one (``ΟΈςπ``), a Latin word of three or more
    letters none of which is a plain one (``Èâàíîâ``), or a Cyrillic or Greek word that starts
    with a small letter and has a capital after it (``йЧБОПЧ``)."""
    if word.isascii():
        return False
    scripts = set()
    accented = 0
    for character in word:
        if character.isascii():
            if character.isalpha():
                scripts.add("LATIN")
            continue
        if character not in _NAME_MARKS and not unicodedata.category(character).startswith(
            ("L", "M", "Zs")
        ):
            return True
        if character in _NAME_MARKS or unicodedata.category(character) == "Zs":
            continue
        script = unicodedata.name(character, "?").split(" ")[0]
        scripts.add(_SCRIPT_GROUPS.get(script, script))
        accented += script == "LATIN"
    if len(scripts) > 1 or _FINAL_ONLY.search(word):
        return True
    if scripts <= _CASED and word[0].islower() and any(map(str.isupper, word[1:])):
        return True
    return scripts == {"LATIN"} and accented >= 3 and accented == sum(map(str.isalpha, word))


def _detect(data: bytes, evidence: Evidence) -> Decoded:
    readings: dict[str, _Reading] = {}
    for name, codec in CODE_PAGES.items():
        reading = _reading(evidence.names, codec)
        if reading is not None and _readable(data, codec):
            readings[name] = reading
    fewest = min(reading.bad for reading in readings.values())
    plausible = [name for name, reading in readings.items() if reading.bad == fewest]
    votes = Counter(
        code_page
        for federation in evidence.federations
        for code_page in FEDERATION_CODE_PAGES.get(federation, ())
    )
    ranked = _ranked(evidence.names, plausible)
    chosen = min(
        plausible, key=lambda name: (-votes[name], readings[name].small, ranked.index(name))
    )
    # Of the code pages giving the same text, the one the federations name, else the commoner.
    texts = readings[chosen].texts
    alike = [name for name in plausible if readings[name].texts == texts]
    chosen = min(alike, key=lambda name: (-votes[name], list(CODE_PAGES).index(name)))
    others: dict[tuple[str, ...], str] = {}  # each other reading once, by the texts it gives
    for name in plausible:
        if readings[name].texts != texts:
            others.setdefault(readings[name].texts, name)
    voted = votes[chosen] > 0 and all(votes[name] < votes[chosen] for name in others.values())
    sure = fewest == 0 and (not others or voted)
    if fewest:
        why = f"{fewest} word(s) of the names read as no name in any code page"
    elif voted:
        federations = sorted(
            f for f in set(evidence.federations) if chosen in FEDERATION_CODE_PAGES.get(f, ())
        )
        why = f"the names read as letters in it; federation {', '.join(federations)}"
    else:
        why = "the names read as letters in it"
    codec = CODE_PAGES[chosen]
    errors = _LATIN1_FALLBACK if codec in SINGLE_BYTE else "replace"
    differ = next(
        (i for i, text in enumerate(texts) if any(other[i] != text for other in others)), 0
    )
    return Decoded(
        data.decode(codec, errors=errors),
        chosen,
        sure,
        why,
        texts[differ] if texts else "",
        tuple((name, other[differ]) for other, name in others.items()),
    )


def _readable(data: bytes, codec: str) -> bool:
    """A multi-byte code page must read the whole file (the single-byte ones always do)."""
    if codec in SINGLE_BYTE:
        return True
    try:
        data.decode(codec)
    except UnicodeDecodeError:
        return False
    return True


def _ranked(names: Sequence[bytes], plausible: Sequence[str]) -> list[str]:
    """The plausible code pages, charset-normalizer's likeliest for the names first (the
    others in ``CODE_PAGES`` order)."""
    order = list(CODE_PAGES)
    if len(plausible) < 2 or not names:
        return order
    from charset_normalizer import from_bytes

    matches = from_bytes(b"\n".join(names), cp_isolation=[CODE_PAGES[n] for n in plausible])
    first = [_SHOWN.get(match.encoding, match.encoding) for match in matches]
    return [name for name in first if name in order] + [n for n in order if n not in first]
