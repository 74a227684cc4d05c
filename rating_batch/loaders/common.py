"""Helpers shared by every loader: text fields, lenient dates, titles and sex codes, limits
(decoding bytes: ``encoding.py``)."""

from __future__ import annotations

import datetime as dt
import re
import stat
import zipfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from rating_batch.errors import InputError, Issue
from rating_batch.schema import CONTROL_CHARACTERS


def clean_text(text: str) -> str:
    """A text field without control characters (each becomes a space), trimmed."""
    return CONTROL_CHARACTERS.sub(" ", text).strip() if CONTROL_CHARACTERS.search(text) else text


def clean_texts(column: pd.Series) -> pd.Series:
    """``clean_text`` over a text column (missing values stay missing)."""
    if column.isna().all():
        return column
    texts = column.astype("string")
    dirty = texts.str.contains(CONTROL_CHARACTERS.pattern, regex=True).fillna(False)
    if not dirty.any():
        return column
    cleaned = texts.str.replace(CONTROL_CHARACTERS.pattern, " ", regex=True).str.strip()
    return texts.where(~dirty, cleaned)


def split_lines(text: str) -> list[str]:
    """Split on CRLF, CR or LF (docs/formats.md §2: all three occur)."""
    lines = re.split(r"\r\n|\r|\n", text)
    if lines and lines[-1] == "":
        lines.pop()
    return lines


_MONTHS = {
    name: number
    for number, names in enumerate(
        [
            ("jan", "january", "janvier", "januar", "enero"),
            ("feb", "february", "fevrier", "februar", "febrero"),
            ("mar", "march", "mars", "marz", "märz", "marzo"),
            ("apr", "april", "avril", "abril"),
            ("may", "mai", "mayo"),
            ("jun", "june", "juin", "juni", "junio"),
            ("jul", "july", "juillet", "juli", "julio"),
            ("aug", "august", "aout", "août", "agosto"),
            ("sep", "sept", "september", "septembre", "septiembre"),
            ("oct", "october", "octobre", "oktober", "octubre"),
            ("nov", "november", "novembre", "noviembre"),
            ("dec", "december", "decembre", "décembre", "dezember", "diciembre"),
        ],
        start=1,
    )
    for name in names
}


def _full_year(year: int) -> int:
    # Two-digit years: 00-69 are 20xx, 70-99 are 19xx.
    if year >= 100:
        return year
    return 2000 + year if year < 70 else 1900 + year


def _make_date(year: int, month: int, day: int) -> dt.date | None:
    try:
        return dt.date(_full_year(year), month, day)
    except (ValueError, OverflowError):  # impossible or absurd numbers: no date
        return None


DateOrder = str
"""How a file writes day, month and year when the year comes last: ``"day_first"`` (the
default, as in most of the world) or ``"month_first"`` (US)."""


def _day_month_year(text: str) -> tuple[int, int, int] | None:
    """The three numbers of a date written with a four-digit year last (``10/16/2018``)."""
    stripped = text.strip()
    if re.search(r"[^\W\d_]", stripped):
        return None
    groups = re.findall(r"\d+", stripped)
    if len(groups) != 3 or len(groups[2]) != 4 or len(groups[0]) > 2 or len(groups[1]) > 2:
        return None
    return int(groups[0]), int(groups[1]), int(groups[2])


def date_order(texts: Sequence[str]) -> tuple[DateOrder, str | None]:
    """The one order in which a file's dates are written, and a problem when they cannot all be
    read in one order (``20/04/2018`` is day first, ``10/16/2018`` month first: a typo in one
    of them). Dates a single order can read decide; otherwise day first."""
    day_only, month_only = [], []
    for text in texts:
        numbers = _day_month_year(text)
        if numbers is None:
            continue
        first, second, year = numbers
        as_day = _make_date(year, second, first) is not None
        as_month = _make_date(year, first, second) is not None
        if as_day and not as_month:
            day_only.append(text.strip())
        elif as_month and not as_day:
            month_only.append(text.strip())
    if day_only and month_only:
        return "day_first", (
            f"dates written in two orders: {day_only[0]!r} is day/month/year, "
            f"{month_only[0]!r} month/day/year: a typo in one of them?"
        )
    return ("month_first" if month_only else "day_first"), None


def parse_date(text: str, order: DateOrder | None = None) -> dt.date | None:
    """Read a date in any of the forms seen in tournament files; ``None`` if unreadable.

    Handles ``2011/07/02``, ``2008-02-01``, ``24/09/2010`` and ``25.02.2011`` (day first, or
    month first when ``order`` says the file writes them so: ``date_order``), ``28. 07. 2005``,
    ``10.09.13`` (TRF's YY.MM.DD), ``May 29, 2020`` and ``29 May 2020``. Without an ``order``,
    a date only month first can read (``10/16/2018``) is read so.
    """
    text = text.strip()
    if not text:
        return None
    words = re.findall(r"[^\W\d_]+", text.lower())
    numbers = [int(n) for n in re.findall(r"\d+", text)]
    month_words = [_MONTHS[w] for w in words if w in _MONTHS]
    if month_words and len(numbers) == 2:
        day, year = (numbers[0], numbers[1]) if numbers[0] <= 31 else (numbers[1], numbers[0])
        return _make_date(year, month_words[0], day)
    if len(numbers) != 3 or words:
        return None
    groups = re.findall(r"\d+", text)
    a, b, c = numbers
    if len(groups[0]) == 4:  # Y M D
        return _make_date(a, b, c)
    if len(groups[2]) == 4:  # D M Y, or M D Y in a file that writes month first
        if order == "month_first" or (order is None and b > 12 >= a):
            return _make_date(c, a, b)
        return _make_date(c, b, a)
    # All two-digit: TRF writes YY/MM/DD (tag 132); fall back to DD.MM.YY when impossible.
    return _make_date(a, b, c) or _make_date(c, b, a)


def parse_birth_year(text: str) -> int | None:
    """The year of a birth date in any form (``1978``, ``1969.12.06``, ``1975.  .``)."""
    match = re.search(r"(?<!\d)(1[89]\d\d|20\d\d)(?!\d)", text)
    return int(match.group(1)) if match else None


#: What an unknown birth date is made of: ``0``, ``0000`` or ``0000/00/00``, as FIDE's lists
#: and federations' data write it (docs/formats.md §4.1), as they write 0 for no rating.
UNKNOWN_YEAR = "0./- "


def is_unknown_year(text: str) -> bool:
    """A birth date written as zeros (``UNKNOWN_YEAR``)."""
    return bool(text.strip()) and not text.strip(UNKNOWN_YEAR)


# docs/formats.md §4.1: FIDE-list letter codes for titles.
TITLE_LETTERS = {
    "g": "GM",
    "m": "IM",
    "f": "FM",
    "c": "CM",
    "wg": "WGM",
    "wm": "WIM",
    "wf": "WFM",
    "wc": "WCM",
}


def normalise_title(text: str) -> str | None:
    """``GM``, ``g`` and ``  g`` all become ``GM``; blank becomes ``None``."""
    text = text.strip()
    if not text:
        return None
    return TITLE_LETTERS.get(text.lower(), text.upper())


#: FIDE's titles (docs/formats.md §4.1): the only values an event's title field holds, with
#: the Online Arena titles that chess-results' title column shows beside them.
FIDE_TITLES = frozenset(TITLE_LETTERS.values()) | {"AGM", "AIM", "AFM", "ACM"}
#: How a title field that holds something else is told.
NOT_A_TITLE = (
    "is not a FIDE title (GM, IM, FM, CM, WGM, WIM, WFM, WCM, or the letters g, m, f, c, wg, "
    "wm, wf, wc): left out"
)


def fide_title(text: str) -> str | None:
    """The FIDE title a title field names (``GM``, ``g``, `` wg``), else None: blank, or a
    value that is no FIDE title (``=1+``, ``-GM``), which the reader reports."""
    title = normalise_title(text)
    return title if title in FIDE_TITLES else None


def normalise_sex(text: str) -> str | None:
    """``m``/``M`` → ``M``; ``w``/``f``/``F`` → ``F``; anything else → ``None``."""
    text = text.strip().lower()
    if text == "m":
        return "M"
    if text in ("w", "f"):
        return "F"
    return None


# -- time controls → list kind (docs/rules.md §6; FIDE Laws, Appendices A and B) -------------

#: Thinking time per player, in minutes for the game (base + 60 × increment): up to 10 is
#: blitz, under 60 is rapid, 60 or more is standard.
BLITZ_MAX_MINUTES = 10
RAPID_BELOW_MINUTES = 60


def kind_of_minutes(minutes: float) -> str:
    if minutes <= BLITZ_MAX_MINUTES:
        return "blitz"
    if minutes < RAPID_BELOW_MINUTES:
        return "rapid"
    return "standard"


def minutes_of_encoded(text: str) -> float | None:
    """TRF-2026 tag 222 (``5400+30``, ``40/6000+30:900+30``, ``W300-B240``): minutes + inc."""
    first = text.strip().split(":")[0]
    armageddon = re.match(r"^W(\d+)(?:\+(\d+))?-B", first)
    if armageddon:
        return int(armageddon.group(1)) / 60 + int(armageddon.group(2) or 0)
    match = re.match(r"^(?:\d+/)?(\d+)(?:\+(\d+))?$", first)
    if not match:
        return None
    return int(match.group(1)) / 60 + int(match.group(2) or 0)


def minutes_of_text(text: str) -> float | None:
    """Free-text time controls (TRF tag 122, chess-results' "Time control"): minutes + inc.

    Reads ``90 minutes + 30 seconds per move``, ``40/120, 60``, ``1:30 + 10``, ``10+5``,
    ``G/45;d5``, ``90'+30"``, ``100'x40mm + …`` and ``2h``; ``None`` when no time is found.
    """
    text = text.lower().replace(",", " ").strip()
    if not text:
        return None
    hours = re.search(r"(\d+)\s*:\s*(\d\d)(?!\d)", text)
    if hours:
        base: float = int(hours.group(1)) * 60 + int(hours.group(2))
        rest = text[hours.end() :]
    else:
        as_hours = re.search(r"(\d+(?:\.\d+)?)\s*(?:h\b|hours?\b|hrs?\b)", text)
        per_moves = re.search(r"\b\d+\s*/\s*(\d+)", text)
        minutes = re.search(r"(\d+(?:\.\d+)?)\s*(?:'|min|minutes?\b|mins?\b|m\b)", text)
        plus_form = re.search(r"(\d+)\s*\+\s*\d+", text)
        leading = re.match(r"^(?:g\s*/\s*)?(\d+(?:\.\d+)?)", text)
        chosen = as_hours or per_moves or minutes or plus_form or leading
        if chosen is None:
            return None
        base = float(chosen.group(1)) * (60 if chosen is as_hours else 1)
        rest = text[chosen.end(1) :]
    increment = re.search(
        r"(?:\+|plus|d)\s*(\d+)\s*(?:\"|''|s\b|secs?\b|seconds?\b)?", rest
    ) or re.search(r"(\d+)\s*(?:\"|''|s\b|secs?\b|seconds?\b)", rest)
    return base + (int(increment.group(1)) if increment else 0)


def time_control_minutes(encoded: str, text: str) -> float | None:
    """Main time in minutes + increment in seconds of a time control (the TRF-2026 code,
    else the text); ``None`` when it cannot be read."""
    minutes = minutes_of_encoded(encoded) if encoded.strip() else None
    return minutes_of_text(text) if minutes is None else minutes


def kind_of_time_control(encoded: str, text: str) -> str | None:
    """The list kind a time control belongs to; ``None`` when it cannot be read."""
    minutes = time_control_minutes(encoded, text)
    return None if minutes is None else kind_of_minutes(minutes)


# -- limits on hostile or broken files (issue: nothing breaks, nothing is lost) ------------------

#: An event file larger than this is refused before it is read (the largest real TRF files
#: are well under 1 MB; a chess-results export under 1 MB).
MAX_EVENT_BYTES = 64 * 1024 * 1024
#: A line longer than this is an error (TRF lines are 100-400 characters).
MAX_LINE_CHARACTERS = 10_000
#: XLSX files are zip archives: refused when they unpack to more than this, hold more entries
#: or sheets than this, or compress a member more than ``MAX_ZIP_RATIO`` times (zip bombs).
MAX_XLSX_UNPACKED_BYTES = 512 * 1024 * 1024
MAX_XLSX_ENTRIES = 10_000
MAX_XLSX_SHEETS = 200
MAX_ZIP_RATIO = 200


def check_size(path: Path, limit: int = MAX_EVENT_BYTES) -> str | None:
    """Why a file must not be read (not a regular file: a FIFO would hang the reader; or too
    large), or None."""
    status = path.stat()
    if not stat.S_ISREG(status.st_mode):
        return "not a regular file (a pipe, a device or a folder): give the file itself"
    size = status.st_size
    if size > limit:
        return f"the file is {size:,} bytes; at most {limit:,} are read"
    return None


def check_xlsx(path: Path) -> str | None:
    """Why an XLSX file must not be opened (not a zip, a zip bomb, absurd contents), or None.

    Looks only at the zip directory: nothing is unpacked.
    """
    if not zipfile.is_zipfile(path):
        return "not an XLSX file (it is not a zip archive)"
    try:
        with zipfile.ZipFile(path) as archive:
            entries = archive.infolist()
    except (zipfile.BadZipFile, OSError) as error:
        return f"not a readable XLSX file: {error}"
    if len(entries) > MAX_XLSX_ENTRIES:
        return f"{len(entries):,} entries in the archive; at most {MAX_XLSX_ENTRIES:,}"
    unpacked = sum(entry.file_size for entry in entries)
    if unpacked > MAX_XLSX_UNPACKED_BYTES:
        return f"unpacks to {unpacked:,} bytes; at most {MAX_XLSX_UNPACKED_BYTES:,}"
    sheets = [
        e
        for e in entries
        if e.filename.startswith("xl/worksheets/") and e.filename.endswith(".xml")
    ]
    if len(sheets) > MAX_XLSX_SHEETS:
        return f"{len(sheets):,} sheets; at most {MAX_XLSX_SHEETS:,}"
    for entry in entries:
        if entry.file_size > 10_000_000 and entry.file_size > MAX_ZIP_RATIO * max(
            entry.compress_size, 1
        ):
            ratio = entry.file_size // max(entry.compress_size, 1)
            return f"{entry.filename} is compressed {ratio:,} times (a zip bomb?)"
    return None


#: Cells read from one XLSX sheet at most, counted as its rows × its widest row (every row is
#: as wide as the widest): an event's crosstable (1,000 players × 40 columns is 40,000 cells)…
MAX_EVENT_CELLS = 1_000_000
#: … and a rating list's (a whole sheet of 1,048,576 rows × 24 columns).
MAX_LIST_CELLS = 1_048_576 * 24


def read_sheet(
    path: Path, sheet: str | None, text: Callable[[object], str], most_cells: int
) -> tuple[str, list[list[str]]]:
    """The sheet ``sheet`` of an XLSX file (the first when None) as a source name
    (``book.xlsx[Sheet1]``) and its rows of ``text(value)`` (empty cells ""), each as wide
    as the widest, row n of the sheet at index n - 1.

    The ``<dimension>`` a sheet declares is ignored: openpyxl would pad every row to it,
    and a file of 2 kB can declare 16,384 columns × 1,048,576 rows. What is read instead is
    bounded: an InputError names the row at which rows × columns pass ``most_cells``.
    """
    from openpyxl import load_workbook

    try:
        book = load_workbook(path, read_only=True, data_only=True)
    except Exception as error:  # damaged zip or XML of any kind
        raise InputError([Issue(str(path), None, f"not a readable XLSX file: {error}")]) from None
    try:
        found = [ws for ws in book.worksheets if not sheet or ws.title == sheet]
        if not found:
            names = ", ".join(book.sheetnames)
            wanted = f"sheet {sheet!r}" if sheet else "worksheet"
            raise InputError([Issue(str(path), None, f"no {wanted} (sheets: {names})")])
        chosen = found[0]
        source = f"{path}[{chosen.title}]"
        chosen.reset_dimensions()
        rows: list[list[str]] = []
        widest = 0
        try:
            for number, values in enumerate(chosen.iter_rows(values_only=True), start=1):
                widest = max(widest, len(values))
                columns = max(widest, 1)  # an empty row counts as one cell
                if number * columns > most_cells:
                    problem = _too_large(number, columns, most_cells)
                    raise InputError([Issue(source, number, problem)])
                rows.append(["" if value is None else text(value) for value in values])
        except (ValueError, OverflowError, SyntaxError) as error:  # a cell openpyxl cannot read
            problem = (
                f"a cell after row {len(rows):,} cannot be read ({error}): a damaged file? "
                "open it in a spreadsheet and save it again"
            )
            raise InputError([Issue(source, None, problem)]) from None
    finally:
        book.close()
    for row in rows:
        row.extend([""] * (widest - len(row)))
    return source, rows


def _too_large(rows: int, columns: int, most_cells: int) -> str:
    from openpyxl.utils import get_column_letter

    return (
        f"the sheet reaches row {rows:,} and column {get_column_letter(columns)}: "
        f"{rows * columns:,} cells; at most {most_cells:,} are read: delete what lies "
        "beyond the table (cells or their formatting), or copy the table to a new sheet"
    )


def long_lines(lines: list[str], source: str) -> list[tuple[int, str]]:
    """(line number, message) for lines longer than ``MAX_LINE_CHARACTERS``."""
    return [
        (number, f"line of {len(line):,} characters; at most {MAX_LINE_CHARACTERS:,}")
        for number, line in enumerate(lines, start=1)
        if len(line) > MAX_LINE_CHARACTERS
    ]


#: A FIDE ID has at most this many digits.
MAX_ID_DIGITS = 10


def is_digits(text: str, most: int = 12) -> bool:
    """ASCII digits only, at most ``most`` of them (``"¹".isdigit()`` is True in Python)."""
    return text.isascii() and text.isdigit() and len(text) <= most


def map_distinct(values: Sequence[Any] | np.ndarray, function: Callable[[Any], Any]) -> list[Any]:
    """``function`` of each value, computed once per distinct value (a list repeats its
    sexes, titles and birth dates a lot); missing values are passed as None."""
    codes, distinct = pd.factorize(pd.Series(values, dtype=object), use_na_sentinel=False)
    mapped = [function(None if pd.isna(value) else value) for value in distinct]
    return [mapped[code] for code in codes.tolist()]
