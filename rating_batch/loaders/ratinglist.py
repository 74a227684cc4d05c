"""Rating lists: FIDE TXT (combined and single-kind), FIDE XML (current and the older
attribute form), and CSV/XLSX (``list.csv`` as rating_batch writes it, or any sheet with at
least ``id`` and ``rating``). See docs/formats.md §10.

Every format becomes one wide frame (``LIST_DTYPES``): identity columns, then for each list
kind ``<kind>_rating``, ``<kind>_games``, ``<kind>_k`` and ``<kind>_games_total``; CSV/XLSX
files may add history flags ``ever_<rating>`` (true/false: a published rating of that list has
reached it), per list kind like the ratings: ``<kind>_ever_<rating>``, or unprefixed for the
list being read. Unrated is NA (FIDE writes 0).

A player without a FIDE ID has the id rating_batch gives them in every list it writes
(``<event key>#<start rank>``: the event that made them): ``own_id``, with ``id`` missing.
The lists rating_batch publishes read back as they were: list.xlsx has its header below the
list's title (``HEADER_WITHIN`` rows), and a ``rank`` column that is not read.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd
from defusedxml import ElementTree

from rating_batch.errors import InputError, Issue
from rating_batch.loaders.common import (
    MAX_LIST_CELLS,
    check_size,
    check_xlsx,
    clean_texts,
    is_digits,
    long_lines,
    map_distinct,
    normalise_title,
    parse_birth_year,
    read_sheet,
)
from rating_batch.loaders.encoding import DecodingError, decode, table_evidence
from rating_batch.loaders.listchecks import list_issues
from rating_batch.schema import as_written
from rating_batch.systems.elo.rules import Rules

KINDS = ("standard", "rapid", "blitz")
PER_KIND = ("rating", "games", "k", "games_total")

LIST_DTYPES: dict[str, str] = {
    "id": "Int64",
    "own_id": "string",
    # The federation's own id (docs/formats.md §11.1), in capitals.
    "national_id": "string",
    "name": "string",
    "federation": "string",
    "sex": "string",
    "title": "string",
    "w_title": "string",
    "o_title": "string",
    "foa_title": "string",
    "birth_year": "Int64",
    "inactive": "boolean",
    **{f"{kind}_{field}": "Int64" for kind in KINDS for field in PER_KIND},
    "line": "int64",
}
_FLAG = re.compile(r"^(standard|rapid|blitz)_ever_\d{3,4}$")
#: IDs, ratings, games and K have at most this many digits (an 11-digit FIDE ID fits).
MAX_DIGITS = 12


def is_number(text: str) -> bool:
    """A whole number that fits the list's columns (longer digit runs are errors)."""
    return is_digits(text, MAX_DIGITS)


#: The id rating_batch gives a player without a FIDE ID: ``<event key>#<start rank>``
#: (monthly/identify.py; ``list#<line>`` for one that came without any id in a list).
OWN_ID = re.compile(r".+#[1-9][0-9]*")
#: What an id that is neither a FIDE ID nor ``OWN_ID`` is told.
NOT_AN_ID = (
    "is neither a FIDE ID (digits) nor the id rating_batch gives a player without one "
    "(<event>#<start rank>)"
)


_MONTH_TOKEN = re.compile(r"\b([A-Z]{3})(\d{2})\b")
_MONTHS = ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"]
FOA_TITLES = ("AGM", "AIM", "AFM", "ACM")


@dataclass
class RatingList:
    """A loaded rating list: the wide frame, which kinds it holds, and where it came from."""

    frame: pd.DataFrame
    kinds: tuple[str, ...]
    source: str
    format: str
    month: tuple[int, int] | None = None
    """(year, month) of the list, from a FIDE header token such as ``OCT26``."""
    header: str = ""
    """The FIDE TXT header line, to write a list back in the same layout."""
    issues: list[Issue] = field(default_factory=list)

    def for_kind(self, kind: str) -> pd.DataFrame:
        """The columns the engine uses for one list: id (own_id, name and federation for a
        player without one), rating, k, games_total, birth_year, standard_rating, the history
        flags and the line."""
        frame = self.frame
        columns = {
            "id": frame["id"],
            "own_id": frame["own_id"],
            "national_id": frame["national_id"],
            "name": frame["name"],
            "federation": frame["federation"],
            "rating": frame[f"{kind}_rating"],
            "k": frame[f"{kind}_k"],
            "games_total": frame[f"{kind}_games_total"],
            "birth_year": frame["birth_year"],
            "standard_rating": frame["standard_rating"],
            "line": frame["line"],
        }
        prefix = f"{kind}_"
        flags = {
            name.removeprefix(prefix): frame[name]
            for name in frame.columns
            if _FLAG.match(name) and name.startswith(prefix)
        }
        return pd.DataFrame({**columns, **flags})


def read_rating_list(
    path: Path, *, kind: str = "standard", rules: Rules | None = None, encoding: str | None = None
) -> RatingList:
    """Read a rating list of any supported format; ``kind`` is the list a single-kind CSV or
    XLSX file belongs to, ``encoding`` that of a TXT or CSV list that is not UTF-8 (else the
    code page its evidence points to). Raises InputError naming file and line for every bad
    value, and for every implausible one (``list_issues``, against ``rules``: any FIDE
    edition's by default); warnings stay in ``issues``."""
    suffix = path.suffix.lower()
    refused = check_size(path, MAX_LIST_BYTES)
    if refused:
        raise InputError([Issue(str(path), None, refused)])
    try:
        if suffix == ".xml":
            result = _read_xml(path)
        elif suffix == ".xlsx":
            refused = check_xlsx(path)
            if refused:
                raise InputError([Issue(str(path), None, refused)])
            result = _read_xlsx(path, kind)
        else:
            data = path.read_bytes()
            try:
                decoded = decode(data, encoding, table_evidence)
            except DecodingError as error:
                raise InputError([Issue(str(path), error.line, str(error))]) from None
            text, warning = decoded.text, decoded.warning()
            too_long = long_lines(text.splitlines(), str(path))
            if too_long:
                raise InputError([Issue(str(path), n, message) for n, message in too_long[:20]])
            if suffix == ".txt" or text.startswith("ID Number") or text.startswith("ID number"):
                result = parse_fide_txt(text, source=str(path), kind=kind)
            else:
                result = parse_rating_list_csv(text, source=str(path), kind=kind)
            if warning:
                result.issues.append(Issue(str(path), None, warning, "warning"))
    except OSError as error:
        raise InputError(
            [Issue(str(path), None, f"cannot read the list: {error.strerror}")]
        ) from None
    result.issues.extend(list_issues(result.frame, result.source, result.kinds, rules))
    result.issues.sort(key=lambda issue: issue.line or 0)
    if any(issue.severity == "error" for issue in result.issues):
        raise InputError(result.issues)
    return result


#: A rating list larger than this is refused before it is read (FIDE's combined TXT list of
#: 1.6 million players is about 250 MB).
MAX_LIST_BYTES = 1024 * 1024 * 1024


def _empty(rows: int) -> dict[str, list[object]]:
    return {name: [None] * rows for name in LIST_DTYPES}


def _finish(
    records: dict[str, list[object]], extra: dict[str, list[object]] | None = None
) -> pd.DataFrame:
    frame = pd.DataFrame(records).astype(LIST_DTYPES)
    for name, dtype in LIST_DTYPES.items():
        if dtype == "string":
            frame[name] = clean_texts(frame[name])
    for name, values in (extra or {}).items():
        frame[name] = pd.Series(values, dtype="boolean")
    zero = [f"{kind}_{column}" for kind in KINDS for column in ("rating", "k")]
    for column in (*zero, "birth_year"):  # FIDE writes 0 for none, 0 or 0000 for no birth year
        frame[column] = frame[column].mask(frame[column] == 0)
    return frame


# -- FIDE TXT ------------------------------------------------------------------------------------

#: Header label → (column, kind or None). The month token (``OCT26``) is the rating of a
#: single-kind list; ``Gms`` and ``K`` its games and K.
TXT_LABELS: dict[str, tuple[str, str | None]] = {
    "ID Number": ("id", None),
    "ID number": ("id", None),
    "Name": ("name", None),
    "Fed": ("federation", None),
    "Sex": ("sex", None),
    "Tit": ("title", None),
    "WTit": ("w_title", None),
    "OTit": ("o_title", None),
    "FOA": ("foa_title", None),
    "SRtng": ("rating", "standard"),
    "SGm": ("games", "standard"),
    "SK": ("k", "standard"),
    "RRtng": ("rating", "rapid"),
    "RGm": ("games", "rapid"),
    "Rk": ("k", "rapid"),
    "BRtng": ("rating", "blitz"),
    "BGm": ("games", "blitz"),
    "BK": ("k", "blitz"),
    "Rtng": ("rating", ""),  # a single-kind list whose month is unknown (rating_batch)
    "Gms": ("games", ""),
    "K": ("k", ""),
    "B-day": ("birth_year", None),
    "Flag": ("flag", None),
}
_HEAD_FIELDS = ("id", "name", "federation", "sex", "title", "w_title")


def _header_columns(header: str) -> list[tuple[str, str | None, int]]:
    """(column, kind, start) for each label of a FIDE TXT header, in order."""
    found: list[tuple[str, str | None, int]] = []
    for match in re.finditer(r"ID [Nn]umber|\S+", header):
        label = match.group(0)
        if label in TXT_LABELS:
            column, kind = TXT_LABELS[label]
            found.append((column, kind, match.start()))
        elif _MONTH_TOKEN.fullmatch(label):
            found.append(("rating", "", match.start()))
    return found


def parse_fide_txt(text: str, *, source: str, kind: str = "standard") -> RatingList:
    """FIDE's TXT lists: column starts come from the header line (each field starts where
    its label starts); from OTit on, fields are read as tokens, since long OTit values
    overflow into the FOA column (docs/formats.md §10.1)."""
    lines = text.splitlines()
    issues: list[Issue] = []
    if not lines:
        return RatingList(
            _finish(_empty(0)),
            (),
            source,
            "fide-txt",
            issues=[Issue(source, None, "the list is empty")],
        )
    header = lines[0]
    columns = _header_columns(header)
    names = [c for c, _, _ in columns]
    month_match = _MONTH_TOKEN.search(header)
    single = any(kind == "" for _, kind, _ in columns)
    if "id" not in names or "name" not in names or "rating" not in names:
        issues.append(
            Issue(
                source,
                1,
                f"not a FIDE list header (ID Number, Name, a rating column): {header[:80]!r}",
            )
        )
        return RatingList(_finish(_empty(0)), (), source, "fide-txt", issues=issues)
    kind_of_single = kind  # FIDE's single-kind downloads look alike for all three lists
    kinds = tuple(sorted({k for _, k, _ in columns if k}, key=KINDS.index)) or (kind_of_single,)
    starts = {column: start for column, kind, start in columns if kind is None}
    tail_start = starts.get("o_title", starts.get("foa_title"))
    numeric = [(column, kind or kind_of_single) for column, kind, _ in columns if kind is not None]
    body = [(number, line) for number, line in enumerate(lines[1:], start=2) if line.strip()]
    texts = [line for _, line in body]
    records = _empty(len(body))
    records["line"] = [number for number, _ in body]
    ordered_starts = sorted(start for _, _, start in columns)
    # The fixed fields, a column at a time.
    for column in _HEAD_FIELDS:
        if column not in starts:
            continue
        start = starts[column]
        following = [s for s in ordered_starts if s > start]
        end = following[0] if following else None
        if tail_start is not None:
            end = tail_start if end is None else min(end, tail_start)
        written = [line[start:end].strip() or None for line in texts]
        records[column] = map_distinct(written, lambda t: None if t is None else as_written(t))
    found: list[tuple[int, int, Issue]] = []
    _read_tails(texts, tail_start, numeric, records, "flag" in names, source, found)
    ids = records["id"]
    for row, identifier in enumerate(ids):
        if identifier is not None and not is_number(str(identifier)):
            if OWN_ID.fullmatch(str(identifier)):
                records["own_id"][row] = identifier
            else:
                message = f"ID Number {identifier!r} {NOT_AN_ID}"
                found.append((row, 1, Issue(source, body[row][0], message)))
            ids[row] = None
    issues.extend(issue for _, _, issue in sorted(found, key=lambda item: item[:2]))
    for column in ("title", "w_title"):
        records[column] = map_distinct(records[column], lambda t: normalise_title(t or ""))
    records["birth_year"] = map_distinct(records["birth_year"], lambda t: parse_birth_year(t or ""))
    frame = _finish(records)
    month = None
    if month_match and month_match.group(1) in _MONTHS:
        month = (2000 + int(month_match.group(2)), _MONTHS.index(month_match.group(1)) + 1)
    del single
    return RatingList(frame, kinds, source, "fide-txt", month, header, issues)


def _read_tails(
    texts: list[str],
    tail_start: int | None,
    numeric: list[tuple[str, str]],
    records: dict[str, list[object]],
    has_flag: bool,
    source: str,
    found: list[tuple[int, int, Issue]],
) -> None:
    """OTit, FOA, the numbers (ratings, games, K, B-day) and the flag, read as tokens from the
    end of each line (one regular expression over the column: titles, then exactly the
    expected numbers, then the flag)."""
    wanted = len(numeric) + 1  # + B-day
    flag = r"(?:\s+([^\s]*[^\d\s][^\s]*))?" if has_flag else "()"
    pattern = re.compile(
        r"^\s*(.*?)(?:^|\s+)"
        + r"\s+".join([rf"([0-9]{{1,{MAX_DIGITS}}})"] * wanted)
        + flag
        + r"\s*$"
    )
    tails = [line[tail_start:] if tail_start is not None else "" for line in texts]
    nothing = (None,) * (wanted + 2)
    found_parts = [
        nothing if match is None else match.groups() for match in map(pattern.match, tails)
    ]
    parts = pd.DataFrame(found_parts, columns=range(wanted + 2), dtype=object)
    matched = parts[1].notna().to_numpy(dtype=bool)
    for row in np.flatnonzero(~matched).tolist():
        message = f"expected {wanted} numbers after the titles, found {tails[row].strip()!r}"
        found.append((row, 0, Issue(source, int(str(records["line"][row])), message)))
    rows = np.flatnonzero(matched)
    titles = map_distinct(
        parts[0].fillna("").tolist(), lambda t: _split_titles([*map(as_written, t.split())])
    )
    for column, position in (("o_title", 0), ("foa_title", 1)):
        values = records[column]
        for row in rows.tolist():
            values[row] = titles[row][position]
    for index, (column, kind) in enumerate(numeric, start=1):
        values = records[f"{kind}_{column}"]
        numbers = parts[index].tolist()
        for row in rows.tolist():
            values[row] = int(numbers[row])
    births = parts[wanted].tolist()
    flags = parts[wanted + 1].fillna("").tolist()
    for row in rows.tolist():
        records["birth_year"][row] = births[row] if births[row] != "0" else ""
        records["inactive"][row] = "i" in flags[row]
        if "w" in flags[row] and records["sex"][row] is None:
            records["sex"][row] = "F"


def _split_titles(tokens: list[str]) -> tuple[str | None, str | None]:
    """OTit (a comma list) and FOA, also when the first overflows into the second
    (``SI,FI,LSI,SLI,NAAFM`` = ``SI,FI,LSI,SLI,NA`` + ``AFM``)."""
    if not tokens:
        return None, None
    foa = None
    if tokens[-1] in FOA_TITLES:
        foa = tokens.pop()
    elif tokens[-1].endswith(FOA_TITLES) and "," in tokens[-1]:
        foa, tokens[-1] = tokens[-1][-3:], tokens[-1][:-3]
    return (" ".join(tokens) or None), foa


# -- FIDE XML ------------------------------------------------------------------------------------

_XML_FIELDS = {
    "fideid": "id",
    "name": "name",
    "country": "federation",
    "sex": "sex",
    "title": "title",
    "w_title": "w_title",
    "o_title": "o_title",
    "foa_title": "foa_title",
    "rating": "standard_rating",
    "games": "standard_games",
    "k": "standard_k",
    "rapid_rating": "rapid_rating",
    "rapid_games": "rapid_games",
    "rapid_k": "rapid_k",
    "blitz_rating": "blitz_rating",
    "blitz_games": "blitz_games",
    "blitz_k": "blitz_k",
    "birthday": "birth_year",
    "flag": "flag",
}


def _xml_players(path: Path) -> Iterator[tuple[int, dict[str, str]]]:
    """Stream ``<player>`` elements (the full list is 856 MB), without entity expansion."""
    count = 0
    for _, element in ElementTree.iterparse(str(path), events=("end",), forbid_dtd=True):
        if element.tag != "player":
            continue
        count += 1
        values = {child.tag: (child.text or "").strip() for child in element}
        if "FIDEID" in element.attrib:
            values["fideid"] = element.attrib["FIDEID"]
        element.clear()
        yield count, values


def _read_xml(path: Path) -> RatingList:
    source = str(path)
    issues: list[Issue] = []
    rows: list[dict[str, object]] = []
    seen: set[str] = set()
    try:
        for count, values in _xml_players(path):
            seen.update(values)
            row: dict[str, object] = {"line": count}
            for tag, column in _XML_FIELDS.items():
                text = values.get(tag, "")
                if column.endswith(("_rating", "_games", "_k")) or column == "id":
                    if text and not is_number(text):
                        issues.append(
                            Issue(source, None, f"player {count}: <{tag}> {text!r} is not a number")
                        )
                        text = ""
                    row[column] = int(text) if text else None
                else:
                    row[column] = text or None
            row["birth_year"] = parse_birth_year(str(row.get("birth_year") or ""))
            row["title"] = normalise_title(str(row.get("title") or ""))
            row["w_title"] = normalise_title(str(row.get("w_title") or ""))
            row["inactive"] = "i" in str(row.pop("flag") or "")
            rows.append(row)
    except ElementTree.ParseError as error:
        issues.append(Issue(source, error.position[0], f"not well-formed XML: {error}"))
    except Exception as error:  # defusedxml's refusals (entities, DTDs) are not ParseErrors
        if type(error).__module__.startswith("defusedxml"):
            issues.append(Issue(source, None, f"refused: {error}"))
        else:
            raise
    records = _empty(len(rows))
    for index, row in enumerate(rows):
        for column, value in row.items():
            if column in records:
                records[column][index] = value
    kinds = ("standard", *tuple(k for k in ("rapid", "blitz") if f"{k}_rating" in seen))
    return RatingList(_finish(records), kinds, source, "fide-xml", issues=issues)


# -- CSV and XLSX --------------------------------------------------------------------------------

#: Headers a list may give the federation's own id under (docs/formats.md §11.1).
NATIONAL_ID_HEADERS = ("national_id", "zps", "zps-mgl", "pkz", "uscf_id", "ecf_code")
_CSV_INTEGERS = {"id", "birth_year"} | {f"{k}_{f}" for k in KINDS for f in PER_KIND}
_UNPREFIXED = {"rating", "games", "k", "games_total"}
_TRUE = {"true", "1", "yes", "y", "t"}
_FALSE = {"false", "0", "no", "n", "f", ""}


def parse_rating_list_csv(text: str, *, source: str, kind: str = "standard") -> RatingList:
    """A CSV list (comma or semicolon): ``id`` and a rating column required. Unprefixed
    ``rating``, ``games``, ``k``, ``games_total`` belong to ``kind``."""
    text = "\n".join(text.splitlines())  # a stray CR would end a row inside a cell
    sample = text[:4096]
    delimiter = ";" if sample.count(";") > sample.count(",") else ","
    reader = csv.reader(io.StringIO(text), delimiter=delimiter)
    try:
        rows = [[as_written(cell) for cell in row] for row in reader]
    except csv.Error as error:
        issue = Issue(source, reader.line_num, f"not readable as CSV: {error}")
        return RatingList(_finish(_empty(0)), (), source, "csv", issues=[issue])
    return _parse_table(rows, source, kind, "csv", lambda index: index + 1)


def _read_xlsx(path: Path, kind: str) -> RatingList:
    source, rows = read_sheet(path, None, str, MAX_LIST_CELLS)
    return _parse_table(rows, source, kind, "xlsx", lambda index: index + 1)


#: A list's header row is the first of this many that names ``id`` or a rating (list.xlsx has
#: its title, the rules and a blank row above it: pipelines/published.py, ``list_sheets``).
HEADER_WITHIN = 10
_HEADING = re.compile(r"id|((standard|rapid|blitz)_)?rating")


def header_row(rows: list[list[str]]) -> int:
    """The index of a CSV or XLSX list's header row: the first of the first ``HEADER_WITHIN``
    rows naming ``id`` or a rating column, else the first row (which then names neither)."""
    for index, row in enumerate(rows[:HEADER_WITHIN]):
        if any(_HEADING.fullmatch(cell.strip().lower()) for cell in row):
            return index
    return 0


def _parse_table(
    rows: list[list[str]], source: str, kind: str, form: str, line_of: object
) -> RatingList:
    issues: list[Issue] = []
    if not rows:
        return RatingList(
            _finish(_empty(0)), (), source, form, issues=[Issue(source, None, "the list is empty")]
        )
    top = header_row(rows)
    header = [name.strip().lower() for name in rows[top]]
    renamed = [
        "national_id"
        if name in NATIONAL_ID_HEADERS
        else f"{kind}_{name}"
        if name in _UNPREFIXED or _FLAG.match(f"{kind}_{name}")
        else name
        for name in header
    ]
    if "id" not in renamed:
        issues.append(Issue(source, top + 1, "missing column 'id' (the header must name it)"))
    if not any(name.endswith("_rating") for name in renamed):
        issues.append(Issue(source, top + 1, "missing column 'rating' (the header must name it)"))
    if issues:
        return RatingList(_finish(_empty(0)), (), source, form, issues=issues)
    body = [
        (number, row)
        for number, row in enumerate(rows[top + 1 :], start=top + 2)
        if any(c.strip() for c in row)
    ]
    records = _empty(len(body))
    flags: dict[str, list[object]] = {
        name: [None] * len(body) for name in renamed if _FLAG.match(name)
    }
    for index, (number, row) in enumerate(body):
        records["line"][index] = number
        for name, raw in zip(renamed, row, strict=False):
            _store(name, raw.strip(), records, flags, index, source, number, issues)
        missing = all(records[c][index] is None for c in ("id", "own_id", "national_id"))
        if missing and not any(i.line == number for i in issues):
            issues.append(Issue(source, number, "column 'id': missing FIDE ID"))
        if records["national_id"][index] is not None:
            records["national_id"][index] = str(records["national_id"][index]).upper()
    kinds = tuple(k for k in KINDS if f"{k}_rating" in renamed)
    return RatingList(_finish(records, flags), kinds, source, form, issues=issues)


def _store(
    name: str,
    raw: str,
    records: dict[str, list[object]],
    flags: dict[str, list[object]],
    index: int,
    source: str,
    line: int,
    issues: list[Issue],
) -> None:
    shown = (
        name.split("_", 1)[1]
        if name.split("_", 1)[0] in KINDS and name.split("_", 1)[1] in _UNPREFIXED
        else name
    )
    if name in flags:
        if raw.lower() in _TRUE | _FALSE:
            flags[name][index] = raw.lower() in _TRUE
        else:
            issues.append(Issue(source, line, f"column {name!r}: {raw!r} is not true or false"))
    elif name in _CSV_INTEGERS:
        if raw == "":
            return
        if raw.endswith(".0") and is_number(raw[:-2]):
            raw = raw[:-2]  # numbers from a spreadsheet
        if is_number(raw):
            records[name][index] = int(raw)
        elif raw.isascii() and raw.isdigit():
            issues.append(Issue(source, line, f"column {shown!r}: {raw!r} has too many digits"))
        elif name == "id" and OWN_ID.fullmatch(raw):
            records["own_id"][index] = raw
        elif name == "id":
            issues.append(Issue(source, line, f"column 'id': {raw!r} {NOT_AN_ID}"))
        else:
            issues.append(Issue(source, line, f"column {shown!r}: {raw!r} is not a whole number"))
    elif name == "inactive":
        records[name][index] = raw.lower() in _TRUE
    elif name in records and name not in ("line", "own_id"):
        records[name][index] = raw or None
