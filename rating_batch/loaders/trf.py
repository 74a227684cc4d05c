"""FIDE Tournament Report File (TRF06, TRF16, TRF-2026, TRFx): see docs/formats.md.

``parse_trf(lines, source=…)`` is pure and never raises on bad content: it returns an
``Event`` whose ``issues`` list every problem found (errors and warnings), each with its file
and line. ``read_trf(path)`` only reads and decodes the file.

Many files are parsed together (``parse_trfs``): each file's lines are scanned once for its
tags, then the 001 records of all the files are sliced by columns given as data
(``PLAYER_FIELDS``) from one fixed-width matrix of bytes (``trf_bytes``: a line with
characters beyond ASCII keeps its columns), and all their round blocks decoded at once from
its ``(players, rounds, 10)`` view by byte tables: the pandas work is done once per batch, not
once per file.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np
import pandas as pd

from rating_batch.errors import Issue
from rating_batch.loaders import common
from rating_batch.loaders.common import DateOrder, is_digits
from rating_batch.loaders.trf_decoding import (
    ROUND_START,
    ROUND_WIDTH,
    TrfText,
    decode_trf,
)
from rating_batch.loaders.trf_records import (
    _check_points,
    _Files,
    _parse_players,
)
from rating_batch.schema import (
    Event,
    EventBatch,
    EventInfo,
    event_issues,
)

#: Tournament records (docs/formats.md §3) and what they become in EventInfo.
TOURNAMENT_TAGS = {
    "012": "name",
    "022": "city",
    "032": "federation",
    "042": "start",
    "052": "end",
    "122": "time_control",
    "132": "round_dates",
    "142": "rounds",
    "222": "time_control_code",
}
#: Records that are understood and not needed for rating.
IGNORED_TAGS = frozenset(
    [
        "013",
        "062",
        "072",
        "082",
        "092",
        "102",
        "112",
        "152",
        "162",
        "172",
        "182",
        "192",
        "202",
        "212",
        "240",
        "250",
        "260",
        "299",
        "300",
        "310",
        "320",
        "330",
        "352",
        "362",
        "801",
        "802",
    ]
)
#: Tags that change the scoring system, so declared points need not be 1/½/0 sums.
SCORING_TAGS = frozenset({"162", "XXS", "BBW", "BBD", "BBL", "BBZ", "BBF", "BBU"})

#: Control characters in a line (tabs aside: real files put them in free-text records; a
#: text field is cleaned of them too, by ``clean_text``).
_LINE_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029]")
_RECORD = re.compile(r"^(\d{3})(?: |$)")
#: A National Rating Support line (TRF26): a federation code where the 001 record's is.
_NRS = re.compile(r"^[A-Z]{3} ")
_EXTENSION = re.compile(r"^((?:XX|BB)[A-Z]|DAT)(?: |$)")
_RULER = re.compile(r"^[\d ]+$")
_TEMPLATE = re.compile(r"^DDD\s+SSSS")


#: A month's files repeat their dates and time controls: each read once (pure functions).
_CACHE = 4096


@lru_cache(maxsize=_CACHE)
def _parse_date(text: str, order: DateOrder | None = None) -> dt.date | None:
    return common.parse_date(text, order)


@lru_cache(maxsize=_CACHE)
def _date_order(start: str, end: str) -> tuple[DateOrder, str | None]:
    return common.date_order([start, end])


_kind_of_time_control = lru_cache(maxsize=_CACHE)(common.kind_of_time_control)


def read_trf(path: Path, *, encoding: str | None = None, key: str | None = None) -> Event:
    """Read a TRF file: decode it once (recording the encoding), then parse it."""
    return parse_trfs([decode_trf(path, encoding=encoding, key=key)])[0]


def parse_trf(
    lines: Iterable[str],
    *,
    source: str,
    key: str | None = None,
    encoding: str = "",
    issues: list[Issue] | None = None,
) -> Event:
    """Parse TRF lines into an Event; problems go to ``event.issues``, never raised."""
    text = TrfText(list(lines), source, key or Path(source).stem, encoding, list(issues or []))
    return parse_trfs([text])[0]


@dataclass
class _Scan:
    """What the line-by-line pass over one file finds (everything but the 001 arrays)."""

    tags: dict[str, str]
    seen_tags: set[str]
    player_lines: list[str]
    player_numbers: list[int]
    national_ids: dict[int, str]
    """Start rank → national id, from the National Rating Support lines (TRF26)."""


#: The bytes ``_LINE_CONTROL`` matches in ASCII text (tab and line feed aside).
_CONTROL_BYTES = bytes([*range(9), *range(11, 32), 127])


def _clean(lines: list[str]) -> bool:
    """Whether no line has anything to clean: a control character, a byte-order mark, a line
    break (a file's own lines have none; a caller's may end with one). ASCII text (nearly
    every file) is checked as bytes, by deleting the control bytes (C speed, no regular
    expression)."""
    joined = "\n".join(lines)
    if joined.count("\n") != max(len(lines) - 1, 0):
        return False
    if joined.isascii():
        data = joined.encode("ascii")
        return len(data.translate(None, _CONTROL_BYTES)) == len(data)
    return "\ufeff" not in joined and not _LINE_CONTROL.search(joined)


def _scan(text: TrfText) -> _Scan:
    issues, source = text.issues, text.source
    tags: dict[str, str] = {}
    player_lines: list[str] = []
    player_numbers: list[int] = []
    unknown: dict[str, list[int]] = {}
    seen_tags: set[str] = set()
    supported: set[str] = set()  # the federations of 172 records
    nrs: list[tuple[int, str]] = []
    lines = text.lines
    if _clean(lines):
        # Nothing to clean in any line (most files): the 001 lines picked out at once, only
        # the others (a few per file) visited one by one.
        player_numbers = [
            n for n, line in enumerate(lines, 1) if line[:4] == "001 " or line == "001"
        ]
        player_lines = [lines[n - 1] for n in player_numbers]
        if player_numbers:
            seen_tags.add("001")
        players = set(player_numbers)
        others = [(n, line) for n, line in enumerate(lines, 1) if n not in players]
    else:
        others = []
        for number, raw in enumerate(lines, start=1):
            line = raw.lstrip("\ufeff").rstrip("\r\n")
            if _LINE_CONTROL.search(line):
                # A space keeps the width, so the columns after it stay where they were.
                line = _LINE_CONTROL.sub(" ", line)
                issues.append(Issue(source, number, "control characters removed", "warning"))
            if line.startswith("001 ") or line == "001":  # most lines: no regular expression
                seen_tags.add("001")
                player_lines.append(line)
                player_numbers.append(number)
            else:
                others.append((number, line))
    for number, line in others:
        if not line.strip() or line.startswith("###"):
            continue
        record = _RECORD.match(line)
        extension = _EXTENSION.match(line)
        if record:
            tag = record.group(1)
            seen_tags.add(tag)
            if tag == "172":
                supported.add(line[4:7])
            if tag in TOURNAMENT_TAGS:
                tags.setdefault(TOURNAMENT_TAGS[tag], line[4:].strip())
                if tag == "132":
                    tags["round_dates_line"] = line
            elif tag not in IGNORED_TAGS:
                unknown.setdefault(tag, []).append(number)
        elif extension:
            seen_tags.add(extension.group(1))
            if extension.group(1) == "XXR":
                tags.setdefault("rounds", line[4:].strip())
        elif _RULER.match(line) or _TEMPLATE.match(line):
            continue  # column rulers and field templates (docs/formats.md §2)
        elif _NRS.match(line):
            nrs.append((number, line))
        else:
            unknown.setdefault(line[:3], []).append(number)
    national_ids: dict[int, str] = {}
    ranks = {own[4:8].strip() for own in player_lines} if nrs else set()
    for number, line in nrs:
        # TRF26 National Rating Support: the 001 layout under a federation of a 172 record;
        # only the national id (columns 58-68) is read (docs/formats.md §11.1).
        rank, national = line[4:8].strip(), line[57:68].strip()
        if line[:3] not in supported:
            unknown.setdefault(line[:3], []).append(number)
        elif rank.isdigit() and national.strip("0"):
            national_ids[int(rank)] = national
            if rank not in ranks:
                issues.append(
                    Issue(source, number, f"national id {national} for start rank {rank}, "
                          "which no 001 record has: ignored (a wrong rank?)", "warning")
                )  # fmt: skip
    for tag, numbers in unknown.items():
        count = f" ({len(numbers)} lines)" if len(numbers) > 1 else ""
        issues.append(
            Issue(source, numbers[0], f"unknown record {tag!r} ignored{count}", "warning")
        )
    return _Scan(tags, seen_tags, player_lines, player_numbers, national_ids)


def parse_trfs(texts: Sequence[TrfText]) -> list[Event]:
    """Parse several TRF files at once: each is scanned line by line for its tags, then the
    001 records of all of them are decoded as one array (no pandas work per file)."""
    if len({text.key for text in texts}) != len(texts):
        raise ValueError(
            "the files of a batch need distinct keys (their games are told apart by key)"
        )
    scans = [_scan(text) for text in texts]
    lines = [line for scan in scans for line in scan.player_lines]
    numbers = [number for scan in scans for number in scan.player_numbers]
    counts = np.array([len(scan.player_lines) for scan in scans], dtype=np.int64)
    files = _Files(
        sources=np.array([text.source for text in texts], dtype=object),
        keys=np.array([text.key for text in texts], dtype=object),
        of_line=np.repeat(np.arange(len(texts)), counts),
        issues=[text.issues for text in texts],
    )
    players, games, rounds, legacy = _parse_players(lines, numbers, files)
    given = [
        (text.key, rank, national)
        for text, scan in zip(texts, scans, strict=True)
        for rank, national in scan.national_ids.items()
    ]
    if given:
        ids = pd.DataFrame(given, columns=["event", "player", "national_id"])
        by = pd.MultiIndex.from_frame(ids[["event", "player"]].astype({"player": "int64"}))
        found = pd.Series(ids["national_id"].to_numpy(), index=by).reindex(
            pd.MultiIndex.from_arrays([players["event"].astype(object), players["player"]])
        )
        players["national_id"] = pd.array(found.to_numpy(), dtype="string")
    for index, (text, scan) in enumerate(zip(texts, scans, strict=True)):
        if counts[index] or any(i.severity == "error" for i in text.issues):
            continue
        if not scan.seen_tags:
            # Nothing of TRF at all: one message, not one per line it cannot read.
            text.issues[:] = [
                Issue(
                    text.source,
                    None,
                    "not a tournament file: no TRF record in it (001 player lines, 012 name, "
                    "042 dates …); is it the right file?"
                    if any(line.strip() for line in text.lines)
                    else "the file is empty",
                )
            ]
        else:
            files.issues[index].append(
                Issue(text.source, None, "no player records (lines starting '001') found")
            )
    scored = np.array([not scan.seen_tags & SCORING_TAGS for scan in scans], dtype=bool)
    files.add(_check_points(players, games, files, rounds, scored))
    files.add(_check_pairs(games, players, files))
    batch = EventBatch(players, games, np.cumsum(counts), np.cumsum(counts * rounds))
    return [
        Event(
            _event_info(scan.tags, int(rounds[index]), bool(legacy[index]), text, scan.seen_tags),
            issues=files.issues[index],
            batch=batch,
            index=index,
        )
        for index, (text, scan) in enumerate(zip(texts, scans, strict=True))
    ]


def _check_pairs(
    games: pd.DataFrame, players: pd.DataFrame, files: _Files
) -> list[tuple[int, Issue]]:
    """Both sides of every game (``check_games``), leaving out games whose block could not be
    read on either side: those are reported once, as misaligned."""
    blocked = games["reason"].eq("unreadable").fillna(False).to_numpy(bool)
    readable = games
    if blocked.any():
        unreadable = games.loc[blocked, ["event", "player", "round"]].drop_duplicates()
        facing = (
            games[~blocked]
            .merge(unreadable.rename(columns={"player": "opponent"}), how="left", indicator=True)[
                "_merge"
            ]
            .eq("left_only")
        )
        readable = games[~blocked][facing.to_numpy()]
    file_of = {key: index for index, key in enumerate(files.keys.tolist())}
    return [(file_of[event], issue) for event, issue in event_issues(readable, players)]


def _event_info(
    tags: dict[str, str], played_rounds: int, legacy: bool, text: TrfText, seen_tags: set[str]
) -> EventInfo:
    source, issues = text.source, text.issues
    # One date order for the whole file (records 042 and 052).
    order, mixed = _date_order(tags.get("start", ""), tags.get("end", ""))
    if mixed:
        issues.append(Issue(source, None, f"records 042/052: {mixed}"))
    start = _parse_date(tags.get("start", ""), order)
    end = _parse_date(tags.get("end", ""), order)
    for tag, name in (("start", "042"), ("end", "052")):
        if tags.get(tag) and _parse_date(tags[tag], order) is None and not mixed:
            issues.append(
                Issue(source, None, f"record {name}: unreadable date {tags[tag]!r}", "warning")
            )
    dated, problem = _round_dates(tags.get("round_dates_line", ""))
    round_dates = [date for date in dated if date is not None]
    if round_dates and start and end and not mixed:
        first, last = min(round_dates), max(round_dates)
        if first < start or last > end:
            problem = (
                f"the event is dated {start}…{end} (records 042/052) but its rounds "
                f"{first}…{last} (record 132): which is right?"
            )
    if problem is None and round_dates != sorted(round_dates):
        problem = "record 132: the rounds' dates are not in round order"
    if problem is not None:
        # A round's date moves a game in time (the systems that grow a rating's deviation
        # with the days between games): a date in doubt is not used, the event's days are.
        issues.append(Issue(source, None, f"{problem} (the rounds' dates are not used)", "warning"))
        dated = [None] * len(dated)
    if (start is None or end is None) and round_dates:
        start = start or min(round_dates)
        end = end or max(round_dates)
    if start and end and end < start:
        issues.append(Issue(source, None, f"end date {end} is before start date {start}"))
    declared = tags.get("rounds", "")
    # XXR / 142 declare the rounds of the whole event; a partial file has data for fewer.
    rounds = max(played_rounds, int(declared) if is_digits(declared, 3) else 0)
    if seen_tags & {"142", "162", "172", "192", "202", "212", "222", "310"}:
        version = "TRF-2026"
    elif any(tag.startswith(("XX", "BB")) for tag in seen_tags):
        version = "TRFx"
    elif legacy:
        version = "TRF06"
    else:
        version = "TRF16"
    return EventInfo(
        key=text.key,
        name=tags.get("name", "") or text.key,
        source=source,
        start=start,
        end=end,
        rounds=rounds,
        time_control=tags.get("time_control", ""),
        time_control_code=tags.get("time_control_code", ""),
        kind=_kind_of_time_control(tags.get("time_control_code", ""), tags.get("time_control", "")),
        encoding=text.encoding,
        format=version,
        city=tags.get("city", ""),
        federation=tags.get("federation", ""),
        round_dates=tuple(dated),
    )


#: The orders a record 132 is seen written in, the standard's (YY/MM/DD) first.
ROUND_DATE_ORDERS = (("y", "m", "d"), ("y", "d", "m"), ("d", "m", "y"), ("m", "d", "y"))


def _round_dates(line: str) -> tuple[list[dt.date | None], str | None]:
    """Record 132: each round's date in round order (None where blank), all read in the one
    order that reads every one of them (YY/MM/DD, TRF's, first; some programs write another),
    and a problem when no order does (``26/02/30`` among ``26/01/15``: read day first it
    would be 2030): the line's dates are then not used."""
    pieces = [
        line[start : start + 8].strip() for start in range(ROUND_START, len(line), ROUND_WIDTH)
    ]
    written = [piece for piece in pieces if piece]
    for order in ROUND_DATE_ORDERS:
        read = [_in_order(piece, order) for piece in written]
        if all(read):
            found = iter(read)
            return [next(found) if piece else None for piece in pieces], None
    bad = next((p for p in written if _in_order(p, ROUND_DATE_ORDERS[0]) is None), written[0])
    return [None] * len(pieces), (
        f"record 132: the rounds' dates cannot all be read in one order ({bad!r} among them)"
    )


def _in_order(text: str, order: tuple[str, str, str]) -> dt.date | None:
    """``text`` (three numbers) as a date in ``order``; a two-digit year is this century's
    unless that would put it more than a year ahead."""
    parts = re.split(r"[/.\-]", text)
    if len(parts) != 3 or not all(part.isdigit() for part in parts):
        return None
    value = dict(zip(order, (int(part) for part in parts), strict=True))
    year = value["y"]
    if year < 100:
        year += 2000 if year <= dt.date.today().year % 100 + 1 else 1900
    try:
        return dt.date(year, value["m"], value["d"])
    except ValueError:
        return None


# -- the 001 records ---------------------------------------------------------------------------
