"""What a file is, by its shape: an event (a TRF file, a crosstable), a rating list (FIDE TXT
and XML, a CSV or sheet with ``id`` and a rating), or a file rating_batch wrote itself
(players.csv, games.csv, report.xlsx …: by its header). A file given where another kind
belongs is told what it is and where it goes, and a folder of events leaves the tool's own
outputs aside (docs/formats.md §12).
"""

from __future__ import annotations

import csv
import html
import re
import zipfile
from dataclasses import dataclass
from pathlib import Path

from rating_batch.errors import InputError, Issue
from rating_batch.loaders.common import MAX_LIST_CELLS, check_size, check_xlsx
from rating_batch.loaders.encoding import RAW_LINES
from rating_batch.loaders.ratinglist import MAX_LIST_BYTES, TXT_LABELS, header_row
from rating_batch.loaders.tabular import RawTable, _find_header, _is_round, _read_csv, _read_xlsx

#: The bytes of a file read to tell what it is (a header is in its first rows): a list may be
#: far larger than an event may (``MAX_LIST_BYTES``).
HEAD_BYTES = 256 * 1024
#: Byte-order marks a file may start with (a careless export writes a second one).
_BOMS = b"\xef\xbb\xbf"
#: Suffixes that may hold a rating list instead of an event.
LIST_SUFFIXES = (".csv", ".xlsx", ".xml")
#: Suffixes only TRF files have (``.txt`` is a TRF file or a FIDE TXT list).
TRF_SUFFIXES = (".trf", ".trfx", ".tab")
#: A TRF record that every tournament file has: a player (001) or a tournament tag.
_TRF_RECORD = re.compile(rb"^(?:\xef\xbb\xbf)*(?:001|012|022|032|042|052|062|072|122) ", re.M)
_RATING_HEADER = re.compile(r"((standard|rapid|blitz)_)?rating")
_MONTH_TOKEN = re.compile(r"[A-Z]{3}\d{2}")

#: The files rating_batch writes that are neither events nor lists, told by the leading
#: columns of their header (a list.csv it writes is a list: ``is_rating_list``). Each holds
#: under every rating system, whatever columns the rules add at the end.
OUTPUT_HEADERS: dict[str, re.Pattern[str]] = {
    # FIDE Elo's players, then another system's (id, name, federation, games, score, state …),
    # as written: with the new_… columns (renamed, they make the next list: §11).
    "players.csv": re.compile(
        r"id,name,federation,(title,sex,birth_year,status|games,score),(.*,)?new_"
    ),
    "games.csv": re.compile(r"event,round,id,opponent_id,"),
    "calculations.csv": re.compile(r"id,name,event,"),
    "changes.csv": re.compile(r"change,id,name,federation,"),
    # compare-rules: two FIDE Elo rule sets, or two systems ranked
    "compare.csv": re.compile(r"id,name,(rating,status_a,|.*,rank change$)"),
}
#: The workbooks rating_batch writes that are neither events nor lists, by their first sheets.
OUTPUT_SHEETS: dict[tuple[str, str], str] = {
    ("Summary", "Players"): "report.xlsx",  # rate, publish; compare.xlsx alike
    ("Summary", "History"): "player-ID.xlsx",  # player --out
}


@dataclass(frozen=True)
class Output:
    """A file rating_batch wrote: which one, and what shows it (its header, abridged)."""

    name: str
    shape: str


def own_output(path: Path) -> Output | None:
    """The output of rating_batch a CSV or XLSX file is by its header (``OUTPUT_HEADERS``,
    ``OUTPUT_SHEETS``), or None (an event, a list, anything else, or a file not readable)."""
    suffix = path.suffix.lower()
    try:
        if suffix == ".csv" and not check_size(path, MAX_LIST_BYTES):
            with path.open("rb") as handle:
                # The first line, whatever its end (CRLF, LF or a lone CR).
                first = RAW_LINES.split(handle.read(64 * 1024).lstrip(_BOMS), maxsplit=1)[0]
            cells = next(csv.reader([first.decode("utf-8", "replace")]), [])
            header = ",".join(cells)
            for output, pattern in OUTPUT_HEADERS.items():
                if pattern.match(header):
                    return Output(output, "header " + _abridged(cells, 4))
        elif suffix == ".xlsx" and not check_size(path, MAX_LIST_BYTES) and not check_xlsx(path):
            sheets = _sheet_names(path)
            workbook = OUTPUT_SHEETS.get((sheets[0], sheets[1])) if len(sheets) > 1 else None
            if workbook is not None:
                return Output(workbook, "sheets " + _abridged(sheets, 3, sep=", "))
    except (OSError, zipfile.BadZipFile, csv.Error):
        return None
    return None


def _sheet_names(path: Path) -> list[str]:
    """A workbook's sheet names, in order, from its ``xl/workbook.xml`` (nothing else is
    unpacked)."""
    with zipfile.ZipFile(path) as archive:
        try:
            info = archive.getinfo("xl/workbook.xml")
        except KeyError:
            return []
        if info.file_size > 1024 * 1024:
            return []
        text = archive.read(info).decode("utf-8", "replace")
    return [html.unescape(name) for name in re.findall(r"<sheet\b[^>]*?\bname=\"([^\"]*)\"", text)]


def is_rating_list(path: Path) -> bool:
    """Whether a file holds a rating list rather than an event: XML and FIDE TXT lists by
    their shape, CSV/XLSX by a header with ``id`` (below a title, as in our list.xlsx) but no
    ``name``+rounds. A CSV file is told from its first ``HEAD_BYTES``."""
    suffix = path.suffix.lower()
    if suffix == ".xml":
        return True
    if suffix not in (*LIST_SUFFIXES, ".txt") or check_size(path, MAX_LIST_BYTES):
        return False  # an event file, or one no reader reads (too large, a FIFO …)
    if suffix == ".txt":
        return _txt_header(path) is not None
    raw = _raw_table(path)
    return raw is not None and _is_list_table(raw)


def _is_list_table(raw: RawTable) -> bool:
    if not raw.rows:
        return False
    header = raw.rows[header_row(raw.rows)]
    names = {cell.strip().lower() for cell in header}
    # Our list.xlsx has a rank and a name, as a crosstable has: an id, a rating and no round.
    if "id" in names and "rating" in names and not any(map(_is_round, header)):
        return True
    return _find_header(raw) is None and "id" in names


def is_event_file(path: Path) -> bool:
    """Whether a file holds an event: a TRF file (by its suffix, or a ``.txt`` with TRF
    records), or a CSV/XLSX crosstable (a ``Name`` header with a number or rounds) that is
    not a rating list."""
    suffix = path.suffix.lower()
    try:
        if suffix in TRF_SUFFIXES:
            return True
        if suffix == ".txt":
            with path.open("rb") as handle:
                return _TRF_RECORD.search(handle.read(HEAD_BYTES)) is not None
        if suffix in (".csv", ".xlsx") and not check_size(path, MAX_LIST_BYTES):
            raw = _raw_table(path)
            return raw is not None and _find_header(raw) is not None and not _is_list_table(raw)
    except OSError:
        return False
    return False


def _raw_table(path: Path) -> RawTable | None:
    """A CSV's first ``HEAD_BYTES`` or a sheet, as rows, read as a list would be (within a
    list's bound); None when it cannot be read so."""
    suffix = path.suffix.lower()
    if suffix == ".xlsx" and check_xlsx(path):
        return None
    try:
        return (
            _read_xlsx(path, None, MAX_LIST_CELLS)
            if suffix == ".xlsx"
            else _read_csv(path, head=HEAD_BYTES)
        )
    except (InputError, OSError):
        return None


def _table_header(path: Path) -> list[str] | None:
    """A CSV or sheet's header row as a list reads it (``header_row``), or None."""
    raw = _raw_table(path)
    if raw is None or not raw.rows:
        return None
    return raw.rows[header_row(raw.rows)]


def _txt_header(path: Path) -> str | None:
    """A FIDE TXT list's header line (``ID Number Name …``), or None."""
    with path.open("rb") as handle:
        head = handle.read(4096).lstrip(_BOMS)
    if not head.lower().startswith(b"id number"):
        return None
    return head.split(b"\n", 1)[0].decode("ascii", "replace").rstrip("\r")


def _abridged(cells: list[str], keep: int, last: str | None = None, sep: str = ",") -> str:
    """``id,name,…,rating``: the first ``keep - 1`` cells, then ``last`` (else the last cell),
    with ``…`` for what lies between."""
    cells = [cell.strip() for cell in cells if cell.strip()]
    if len(cells) <= keep:
        return sep.join(cells)
    tail = last if last is not None else cells[-1]
    return sep.join([*cells[: keep - 1], "…", tail])


def list_shape(path: Path) -> str:
    """What shows a rating list to be one: ``header id,name,…,rating`` (CSV, XLSX), FIDE's
    TXT header, or FIDE's XML."""
    suffix = path.suffix.lower()
    if suffix == ".xml":
        return "FIDE's XML layout"
    try:
        if suffix == ".txt":
            header = _txt_header(path) or ""
            labels = re.findall(r"ID [Nn]umber|\S+", header)
            ratings = [
                label
                for label in labels
                if TXT_LABELS.get(label, ("", None))[0] == "rating" or _MONTH_TOKEN.fullmatch(label)
            ]
            shown = _abridged(labels, 3, ratings[0] if ratings else None, sep=", ")
            return "FIDE's TXT layout: " + shown
        cells = _table_header(path) or []
    except OSError:
        return "a header with id and rating"
    ratings = [cell for cell in cells if _RATING_HEADER.fullmatch(cell.strip().lower())]
    return "header " + _abridged(cells, 3, ratings[-1] if ratings else None)


def event_shape(path: Path) -> str:
    """What shows an event to be one: ``TRF`` or ``a crosstable, header No,Name,…,1``."""
    if path.suffix.lower() not in (".csv", ".xlsx"):
        return "TRF"
    raw = _raw_table(path)
    found = None if raw is None else _find_header(raw)
    if raw is None or found is None:
        return "a crosstable"
    return "a crosstable, header " + _abridged(raw.rows[found], 4)


def list_given_as_event(path: Path, *, in_folder: bool = False) -> Issue:
    """A rating list given where an event belongs (in a folder of events: found there)."""
    where = (
        " in a folder of events: move it out of the folder, and" if in_folder else ", not an event:"
    )
    return Issue(
        str(path),
        None,
        f"this is a rating list ({list_shape(path)}){where} give it with --list, or to init --list",
    )


def event_given_as_list(path: Path) -> Issue:
    """An event file given where a rating list belongs."""
    return Issue(
        str(path),
        None,
        f"this is a tournament file ({event_shape(path)}), not a rating list: give it to "
        "add or rate as an event, not as --list",
    )


def output_given_as_input(path: Path, output: Output, *, wanted: str) -> Issue:
    """A file rating_batch wrote given where an input belongs (``wanted``: "an event",
    "a rating list" …)."""
    hint = (
        "; a list is list.csv as publish or export-list writes it"
        if wanted == "a rating list"
        else ""
    )
    return Issue(
        str(path),
        None,
        f"this is {output.name} as rating_batch writes it ({output.shape}): an output, "
        f"not {wanted}{hint}",
    )
