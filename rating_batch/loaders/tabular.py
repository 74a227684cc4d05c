"""Crosstables as spreadsheets: chess-results exports (XLSX) and hand-made CSV/XLSX events.

Every layout is first read as raw rows (each with its sheet row number), then one
normalisation step (``parse_crosstable``) turns them into the canonical frames:

* the header row is found by its content (the row with a ``Name`` column), and columns are
  mapped by label through ``HEADER_ALIASES`` (English and German chess-results labels, and
  the labels of our own template);
* the block above it gives the event: its title, and ``Label : value`` lines (``Date``,
  ``Time control (Rapid)``, ``Number of rounds`` …), or ``key,value`` rows in the template;
* Swiss round cells read ``12w1``, `` 41b½``, ``5w+``, ``7b-``, ``-1``/``bye`` (a full point
  without a game), ``-½`` (half-point bye), ``0``/``-0``/empty (not paired); opponents are
  starting numbers in a starting-rank table and row positions in a final-ranking table
  (docs/formats.md §8.1);
* round-robin tables (one column per opponent) take each game's round from FIDE's Berger
  tables, so that both sides of a game agree.

Problems name the sheet, the row and the column: ``book.xlsx[Sheet1]:23: round 3 (column H):
unreadable cell '12x'``.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import re
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from rating_batch.errors import InputError, Issue
from rating_batch.loaders.common import (
    MAX_EVENT_CELLS,
    MAX_ID_DIGITS,
    NOT_A_TITLE,
    clean_text,
    date_order,
    fide_title,
    is_digits,
    is_unknown_year,
    kind_of_time_control,
    long_lines,
    normalise_sex,
    parse_birth_year,
    parse_date,
    read_sheet,
    split_lines,
)
from rating_batch.loaders.encoding import DecodingError, decode, table_evidence
from rating_batch.schema import (
    GAMES_DTYPES,
    PLAYERS_DTYPES,
    REASON_DTYPE,
    Event,
    EventInfo,
    check_games,
    conform,
)

#: Header label (lower case, without dots and spaces) → canonical column.
HEADER_ALIASES: dict[str, str] = {
    "no": "number", "sno": "number", "nr": "number", "startno": "number", "start": "number",
    "rk": "rank", "rank": "rank", "rg": "rank", "pos": "rank",
    "name": "name", "player": "name",
    "rtg": "rating", "rtgi": "rating", "elo": "rating", "elofide": "rating", "rating": "rating",
    "fed": "federation", "federation": "federation", "land": "federation", "country": "federation",
    "fideid": "fide_id", "fide_id": "fide_id", "id": "fide_id", "fide": "fide_id",
    # The federation's own id (docs/formats.md §11.1), under its own name too.
    "national_id": "national_id", "nationalid": "national_id", "zps": "national_id",
    "pkz": "national_id", "zps-mgl": "national_id", "uscf_id": "national_id",
    "uscfid": "national_id", "ecf_code": "national_id", "ecfcode": "national_id",
    "birth_year": "birth_year", "born": "birth_year", "birth": "birth_year", "yob": "birth_year",
    "sex": "sex", "title": "title", "tit": "title",
    "pts": "points", "points": "points", "pkt": "points", "score": "points",
}  # fmt: skip
_ROUND_HEADER = re.compile(
    r"^(?:(\d+)\s*\.?\s*(?:rd|runde|r|round)\.?|(?:rd|r|round)\s*\.?\s*(\d+))$"
)
_SWISS_CELL = re.compile(
    r"^(?P<opponent>\d{1,6})\s*(?P<colour>[wbs])\s*(?P<result>1|0|½|=|\+|-|1/2|0[.,]5)?$"
)
_METADATA = re.compile(r"^\s*(?P<label>[^:]{2,60}?)\s*:\s*(?P<value>.*)$")
_RESULT_CODES = {"1": "1", "0": "0", "½": "=", "=": "=", "1/2": "=", "0.5": "=", "0,5": "=",
                 "+": "+", "-": "-"}  # fmt: skip
_BYES = {"-1": "U", "bye": "U", "+": "U", "1": "F", "-½": "H", "-0.5": "H", "-0,5": "H",
         "½": "H", "0.5": "H", "-0": "Z", "0": "Z", "": "Z", "*": "Z", "-": "Z"}  # fmt: skip
_POINTS = {"1": 1.0, "+": 1.0, "U": 1.0, "F": 1.0, "=": 0.5, "H": 0.5}


@dataclass
class RawTable:
    """A sheet or CSV file as rows of text cells, with the row numbers a user sees."""

    rows: list[list[str]]
    numbers: list[int]
    source: str
    encoding: str = "xlsx"
    """A CSV file's encoding (``encoding.decode``); "xlsx" for a sheet."""
    warnings: list[Issue] = field(default_factory=list)
    """What reading the file found to say (an encoding that is a guess)."""


def _cell_text(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return clean_text(str(value))


def read_crosstable(
    path: Path, *, key: str | None = None, sheet: str | None = None, encoding: str | None = None
) -> Event:
    """Read an XLSX or CSV crosstable (a CSV that is not UTF-8 in ``encoding``, else in the
    code page its evidence points to); problems are in ``event.issues``."""
    is_sheet = path.suffix.lower() == ".xlsx"
    raw = _read_xlsx(path, sheet) if is_sheet else _read_csv(path, encoding)
    return parse_crosstable(raw, key=key or path.stem, encoding=raw.encoding)


def _read_xlsx(path: Path, sheet: str | None, most_cells: int = MAX_EVENT_CELLS) -> RawTable:
    source, rows = read_sheet(path, sheet, _cell_text, most_cells)
    return RawTable(rows, list(range(1, len(rows) + 1)), source)


def _read_csv(path: Path, encoding: str | None = None, head: int | None = None) -> RawTable:
    """A CSV file's rows; with ``head``, those of its first ``head`` bytes only (the whole
    lines among them: enough to tell what the file is)."""
    if head is None:
        data = path.read_bytes()
    else:
        with path.open("rb") as handle:
            data = handle.read(head)
        if len(data) == head:
            data = data[: data.rfind(b"\n") + 1]
    try:
        decoded = decode(data, encoding, table_evidence)
    except DecodingError as error:
        raise InputError([Issue(str(path), error.line, str(error))]) from None
    text = decoded.text
    warning = decoded.warning()
    warnings = [Issue(str(path), None, warning, "warning")] if warning else []
    too_long = long_lines(split_lines(text), str(path))
    if too_long:
        raise InputError([Issue(str(path), number, message) for number, message in too_long[:20]])
    text = "\n".join(split_lines(text))  # a stray CR would end a row inside a cell
    sample = text[:4096]
    delimiter = max([",", ";", "\t"], key=sample.count)
    reader = csv.reader(io.StringIO(text), delimiter=delimiter)
    try:
        rows = list(reader)
    except csv.Error as error:
        raise InputError(
            [Issue(str(path), reader.line_num, f"not readable as CSV: {error}")]
        ) from None
    return RawTable(rows, list(range(1, len(rows) + 1)), str(path), decoded.encoding, warnings)


def _header_key(text: str) -> str:
    return re.sub(r"[\s.]", "", text.strip().lower())


def _find_header(raw: RawTable) -> int | None:
    for index, row in enumerate(raw.rows):
        keys = {_header_key(c) for c in row}
        if "name" in keys and (
            {"no", "rk", "sno", "nr", "pos", "rank"} & keys or any(_is_round(c) for c in row)
        ):
            return index
    return None


def _is_round(label: str) -> bool:
    text = _header_key(label)
    return bool(_ROUND_HEADER.match(text)) or is_digits(text, 3)


def _metadata(raw: RawTable, header: int) -> dict[str, str]:
    """Event name, dates and time control from the block above the header."""
    found: dict[str, str] = {}
    for row in raw.rows[:header]:
        cells = [c.strip() for c in row if c.strip()]
        if not cells:
            continue
        if len(cells) >= 2 and ":" not in cells[0]:  # template: key,value
            found.setdefault(cells[0].lower(), cells[1])
            continue
        text = cells[0]
        match = _METADATA.match(text)
        if match and not text.lower().startswith(("http", "from the tournament")):
            label = match.group("label").strip().lower()
            if label.startswith("time control"):
                found["time_control"] = match.group("value").strip()
                kind = re.search(r"\((standard|rapid|blitz)\)", label)
                if kind:
                    found["kind"] = kind.group(1)
            else:
                found.setdefault(label, match.group("value").strip())
        elif not text.lower().startswith(("from the tournament", "last update")):
            found.setdefault("title", text)
    return found


def _dates(meta: dict[str, str]) -> tuple[dt.date | None, dt.date | None, str | None]:
    """The event's start and end (read in one date order), and a problem if there is none."""
    text = meta.get("date") or meta.get("dates") or ""
    parts = re.split(r"\s+(?:to|bis|-|–)\s+", text) if text else []
    written = [meta.get("start", ""), meta.get("end", ""), *parts]
    order, mixed = date_order(written)
    start = parse_date(meta.get("start", ""), order) or None
    end = parse_date(meta.get("end", ""), order) or None
    if parts:
        start = start or parse_date(parts[0], order)
        end = end or parse_date(parts[-1], order)
    return start, end or start, mixed


def parse_crosstable(raw: RawTable, *, key: str, encoding: str = "") -> Event:
    """The one normalisation step: raw rows of any crosstable layout → canonical frames."""
    issues: list[Issue] = list(raw.warnings)
    header = _find_header(raw)
    if header is None:
        issues.append(
            Issue(
                raw.source, None, "no header row with a 'Name' column and a number or round columns"
            )
        )
        empty = Event(
            EventInfo(key=key, name=key, source=raw.source),
            conform(pd.DataFrame(columns=list(PLAYERS_DTYPES)), PLAYERS_DTYPES),
            conform(pd.DataFrame(columns=list(GAMES_DTYPES)), GAMES_DTYPES),
            issues,
        )
        return empty
    labels = raw.rows[header]
    columns: dict[str, int] = {}
    rounds: list[tuple[int, int]] = []  # (round or opponent number, column index)
    for index, label in enumerate(labels):
        text = _header_key(label)
        round_match = _ROUND_HEADER.match(text)
        number = (round_match.group(1) or round_match.group(2)) if round_match else text
        if (round_match or text.isdigit()) and is_digits(number, 3):  # at most round 999
            rounds.append((int(number), index))
        elif text in HEADER_ALIASES and HEADER_ALIASES[text] not in columns:
            columns[HEADER_ALIASES[text]] = index
        elif HEADER_ALIASES.get(text) == "national_id":  # a second id column (zps, pkz)
            columns[f"national_id {index}"] = index
        elif (
            text == "" and index < columns.get("name", 99) and "title" not in columns and index > 0
        ):
            columns["title"] = index  # chess-results: the unnamed column before Name
    digits = bool(rounds) and all(is_digits(_header_key(labels[c]), 3) for _, c in rounds)
    # Digit headers are opponents in a round robin, but rounds in a Swiss table (and in our
    # template): the cells decide ("12w1" names an opponent, "½" does not).
    swiss_cells = any(
        _SWISS_CELL.match(row[c].replace(" ", ""))
        for row in raw.rows[header + 1 :]
        for _, c in rounds
        if c < len(row)
    )
    round_robin = digits and not swiss_cells
    final_ranking = "number" not in columns and "rank" in columns
    meta = _metadata(raw, header)
    body: list[tuple[list[str], int]] = []
    for row, number in zip(raw.rows[header + 1 :], raw.numbers[header + 1 :], strict=True):
        name = row[columns["name"]].strip() if columns.get("name", 99) < len(row) else ""
        if not name:
            if body:
                break  # the table ends at the first row without a name (footers follow)
            continue
        body.append((row, number))
    players, games = _normalise(body, columns, rounds, round_robin, final_ranking, raw, key, issues)
    start, end, mixed = _dates(meta)
    if mixed:
        issues.append(Issue(raw.source, None, f"the event's dates: {mixed}"))
    title = meta.get("event") or meta.get("title") or key
    time_control = meta.get("time_control", "")
    kind = meta.get("kind") or kind_of_time_control("", time_control)
    info = EventInfo(
        key=key,
        name=title.strip(),
        source=raw.source,
        start=start,
        end=end,
        rounds=int(games["round"].max()) if len(games) else 0,
        time_control=time_control,
        kind=kind,
        encoding=encoding,
        format="chess-results final ranking"
        if final_ranking
        else ("round robin" if round_robin else "crosstable"),
        federation=meta.get("federation", ""),
    )
    if not issues or all(i.severity == "warning" for i in issues):
        issues.extend(check_games(games, players))
    return Event(info, players, games, issues)


def _value(row: list[str], columns: dict[str, int], name: str) -> str:
    index = columns.get(name)
    return row[index].strip() if index is not None and index < len(row) else ""


#: The most digits a number of a crosstable may have (an 11-digit FIDE ID fits).
MAX_DIGITS = 12
MAX_RATING = 4000


def _whole(text: str) -> int | None:
    text = text.strip().replace(".0", "") if text.endswith(".0") else text.strip()
    digits = text.isascii() and text.isdigit()  # '¹'.isdigit() is True
    return int(text) if digits and len(text) <= MAX_DIGITS else None


def _normalise(
    body: list[tuple[list[str], int]],
    columns: dict[str, int],
    rounds: list[tuple[int, int]],
    round_robin: bool,
    final_ranking: bool,
    raw: RawTable,
    key: str,
    issues: list[Issue],
) -> tuple[pd.DataFrame, pd.DataFrame]:
    from openpyxl.utils import get_column_letter

    players: dict[str, list[object]] = {name: [] for name in PLAYERS_DTYPES}
    games: dict[str, list[object]] = {name: [] for name in GAMES_DTYPES}
    count = len(body)
    seen: dict[int, int] = {}
    for position, (row, number) in enumerate(body, start=1):
        # Opponents are row positions in a final-ranking table, starting numbers otherwise.
        me = position if final_ranking else _whole(_value(row, columns, "number")) or position
        rating_text = _value(row, columns, "rating")
        rating = _whole(rating_text)
        if rating_text and rating is None:
            issues.append(Issue(raw.source, number, f"rating {rating_text!r} is not a number"))
        elif rating is not None and rating > MAX_RATING:
            issues.append(Issue(raw.source, number, f"rating {rating_text!r} is not a rating"))
            rating = None
        if me in seen:
            issues.append(
                Issue(raw.source, number, f"duplicate number {me} (first on row {seen[me]})")
            )
        seen.setdefault(me, number)
        points_text = _value(row, columns, "points").replace(",", ".").replace("½", ".5")
        try:
            points = float(points_text) if points_text else None
        except ValueError:
            issues.append(
                Issue(raw.source, number, f"points {points_text!r} is not a number", "warning")
            )
            points = None
        fide_text = _value(row, columns, "fide_id")
        fide = _whole(fide_text)
        if fide_text and (fide is None or fide >= 10**MAX_ID_DIGITS):
            issues.append(
                Issue(
                    raw.source,
                    number,
                    f"FIDE ID {fide_text!r} is not a FIDE ID (at most {MAX_ID_DIGITS} digits)",
                )
            )
            fide = None
        born_text = _value(row, columns, "birth_year")
        born = parse_birth_year(born_text)
        known = born_text and not is_unknown_year(born_text)
        if known and (born is None or born > dt.date.today().year):
            issues.append(
                Issue(raw.source, number, f"birth year {born_text!r} is not a year of birth")
            )
            born = None
        players["event"].append(key)
        players["player"].append(me)
        players["fide_id"].append(fide if fide else None)
        ids = [_value(row, columns, c) for c in columns if c.startswith("national_id")]
        players["national_id"].append(next((text for text in ids if text), None))
        players["name"].append(_value(row, columns, "name"))
        players["federation"].append(_value(row, columns, "federation").upper() or None)
        players["sex"].append(normalise_sex(_value(row, columns, "sex")))
        title_text = _value(row, columns, "title")
        title = fide_title(title_text)
        if title_text and title is None:
            where = f"column {get_column_letter(columns['title'] + 1)}"
            issues.append(
                Issue(
                    raw.source, number, f"title {title_text!r} {NOT_A_TITLE} ({where})", "warning"
                )
            )
        players["title"].append(title)
        players["birth_year"].append(born)
        players["rating"].append(rating if rating else None)
        players["points"].append(points)
        rank = _whole(_value(row, columns, "rank")) if "rank" in columns else None
        players["rank"].append(rank or (position if final_ranking else None))
        players["source"].append(raw.source)
        players["line"].append(number)
        for label, column in rounds:
            cell = row[column].strip() if column < len(row) else ""
            where = f"column {get_column_letter(column + 1)}"
            parsed = _round_robin_cell(cell, me, label) if round_robin else _swiss_cell(cell)
            if parsed is None:
                what = "opponent" if round_robin else "round"
                message = f"{what} {label} ({where}): unreadable cell {cell!r}"
                issues.append(Issue(raw.source, number, message))
                parsed = (None, None, "", "unreadable")
            opponent, colour, code, reason = parsed
            rnd = _berger_round(me, label, count) if round_robin else label
            if round_robin and opponent is None:
                continue  # the diagonal: a player does not meet themself
            games["event"].append(key)
            games["round"].append(rnd)
            games["player"].append(me)
            games["opponent"].append(opponent)
            games["colour"].append(colour)
            games["result"].append(code or None)
            games["score"].append(_POINTS.get(code, 0.0))
            games["rated"].append(reason == "")
            games["reason"].append(reason or None)
            games["source"].append(raw.source)
            games["line"].append(number)
    frame = pd.DataFrame(games)
    frame["reason"] = pd.Categorical(frame["reason"], dtype=REASON_DTYPE)
    frame = frame.sort_values(["player", "round"], kind="stable")
    return conform(pd.DataFrame(players), PLAYERS_DTYPES), conform(frame, GAMES_DTYPES)


def _swiss_cell(cell: str) -> tuple[int | None, str | None, str, str] | None:
    """(opponent, colour, TRF result code, reason) for a Swiss round cell; None if unreadable."""
    text = cell.replace(" ", "")
    match = _SWISS_CELL.match(text)
    if match:
        opponent = int(match.group("opponent"))
        colour = "b" if match.group("colour") in "bs" else "w"
        result = match.group("result")
        if result is None:
            return opponent, colour, "", "unplayed"  # paired, no result yet
        code = _RESULT_CODES[result]
        reason = "forfeit" if code in "+-" else ""
        return (opponent, colour, code, reason) if opponent else None
    lowered = text.lower()
    if lowered in _BYES:
        return None, None, _BYES[lowered], "bye"
    return None


def _round_robin_cell(
    cell: str, me: int, opponent: int
) -> tuple[int | None, str | None, str, str] | None:
    text = cell.replace(" ", "")
    if opponent == me or text in ("*", "x", "X"):
        return None, None, "", "bye"
    if text == "":
        return opponent, None, "", "unplayed"
    if text in _RESULT_CODES:
        code = _RESULT_CODES[text]
        return opponent, None, code, "forfeit" if code in "+-" else ""
    return None


def _berger_round(player: int, opponent: int, count: int) -> int:
    """The round in which two players meet in FIDE's Berger tables (C.05 Annex 1)."""
    n = count + count % 2
    a, b = sorted((player, opponent))
    if b == n:
        return (2 * a - 2) % (n - 1) + 1
    return (a + b - 2) % (n - 1) + 1
