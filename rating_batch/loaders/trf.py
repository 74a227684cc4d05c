"""FIDE Tournament Report File (TRF06, TRF16, TRF-2026, TRFx): see trf-format.md.

``parse_trf(lines, source=…)`` is pure and never raises on bad content: it returns an
``Event`` whose ``issues`` list every problem found (errors and warnings), each with its file
and line. ``read_trf(path)`` only reads and decodes the file.

The 001 record is sliced by columns given as data (``PLAYER_FIELDS``), and all round blocks of
all players are decoded at once from a ``(players, rounds, 10)`` array of code points.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable, Iterable
from pathlib import Path

import numpy as np
import pandas as pd

from rating_batch.errors import Issue, Severity
from rating_batch.loaders.common import (
    decode_text,
    is_digits,
    kind_of_time_control,
    long_lines,
    normalise_sex,
    normalise_title,
    parse_birth_year,
    parse_date,
    split_lines,
)
from rating_batch.schema import (
    GAMES_DTYPES,
    PLAYERS_DTYPES,
    REASON_DTYPE,
    REASONS,
    Event,
    EventInfo,
    check_games,
    conform,
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
# Inside a round block: opponent [0:4], colour [5], result [7]; [4], [6], [8:10] are blank.
BLOCK_BLANKS = (4, 6, 8, 9)

#: Tournament records (trf-format.md §3) and what they become in EventInfo.
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

_RECORD = re.compile(r"^(\d{3})(?: |$)")
_EXTENSION = re.compile(r"^((?:XX|BB)[A-Z]|DAT)(?: |$)")
_RULER = re.compile(r"^[\d ]+$")
_TEMPLATE = re.compile(r"^DDD\s+SSSS")
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")

# Result codes (trf-format.md §4.3), compared upper-cased.
_POINTS = {"1": 1.0, "+": 1.0, "W": 1.0, "F": 1.0, "U": 1.0, "=": 0.5, "D": 0.5, "H": 0.5}
_KNOWN_RESULTS = frozenset("10=+-WDLHFUZ ")
_UNKNOWN_RESULTS = frozenset("X?A")  # seen in other readers: unrated, unplayed, warned


def read_trf(path: Path, *, encoding: str | None = None, key: str | None = None) -> Event:
    """Read a TRF file: decode it once (recording the encoding), then ``parse_trf``."""
    text, used = decode_text(path.read_bytes(), encoding)
    lines = split_lines(text)
    too_long = long_lines(lines, str(path))
    if too_long:  # absurd lines are not sliced into arrays: report them and stop here
        issues = [Issue(str(path), number, message) for number, message in too_long]
        return parse_trf([], source=str(path), key=key or path.stem, encoding=used, issues=issues)
    return parse_trf(lines, source=str(path), key=key or path.stem, encoding=used)


def parse_trf(
    lines: Iterable[str],
    *,
    source: str,
    key: str | None = None,
    encoding: str = "",
    issues: list[Issue] | None = None,
) -> Event:
    """Parse TRF lines into an Event; problems go to ``event.issues``, never raised."""
    issues = list(issues or [])
    tags: dict[str, str] = {}
    player_lines: list[str] = []
    player_numbers: list[int] = []
    unknown: dict[str, list[int]] = {}
    seen_tags: set[str] = set()
    for number, raw in enumerate(lines, start=1):
        line = raw.lstrip("\ufeff").rstrip("\r\n")
        if _CONTROL.search(line):
            # Same width, so the columns after it stay where they were.
            line = _CONTROL.sub("?", line)
            issues.append(Issue(source, number, "control characters replaced by '?'", "warning"))
        if not line.strip() or line.startswith("###"):
            continue
        record = _RECORD.match(line)
        extension = _EXTENSION.match(line)
        if record:
            tag = record.group(1)
            seen_tags.add(tag)
            if tag == "001":
                player_lines.append(line)
                player_numbers.append(number)
            elif tag in TOURNAMENT_TAGS:
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
            continue  # column rulers and field templates (trf-format.md §2)
        else:
            unknown.setdefault(line[:3], []).append(number)
    for tag, numbers in unknown.items():
        count = f" ({len(numbers)} lines)" if len(numbers) > 1 else ""
        issues.append(
            Issue(source, numbers[0], f"unknown record {tag!r} ignored{count}", "warning")
        )
    key = key or Path(source).stem
    players, games, player_issues = _parse_players(player_lines, player_numbers, source, key)
    issues.extend(player_issues)
    if not player_lines:
        issues.append(Issue(source, None, "no player records (lines starting '001') found"))
    elif not seen_tags & SCORING_TAGS:
        issues.extend(_check_points(players, games))
    # Games whose block could not be read on either side are reported once, as misaligned.
    blocked = games["reason"].eq("unreadable").fillna(False).to_numpy(bool)
    readable = games
    if blocked.any():
        unreadable = games.loc[blocked, ["player", "round"]].drop_duplicates()
        facing = (
            games[~blocked]
            .merge(unreadable.rename(columns={"player": "opponent"}), how="left", indicator=True)[
                "_merge"
            ]
            .eq("left_only")
        )
        readable = games[~blocked][facing.to_numpy()]
    issues.extend(check_games(readable, players))
    info = _event_info(tags, games, source, key, encoding, seen_tags, issues)
    return Event(info=info, players=players, games=games, issues=issues)


def _event_info(
    tags: dict[str, str],
    games: pd.DataFrame,
    source: str,
    key: str,
    encoding: str,
    seen_tags: set[str],
    issues: list[Issue],
) -> EventInfo:
    start = parse_date(tags.get("start", ""))
    end = parse_date(tags.get("end", ""))
    for tag, name in (("start", "042"), ("end", "052")):
        if tags.get(tag) and parse_date(tags[tag]) is None:
            issues.append(
                Issue(source, None, f"record {name}: unreadable date {tags[tag]!r}", "warning")
            )
    if start is None or end is None:
        round_dates = _round_dates(tags.get("round_dates_line", ""))
        if round_dates:
            start = start or min(round_dates)
            end = end or max(round_dates)
    if start and end and end < start:
        issues.append(Issue(source, None, f"end date {end} is before start date {start}"))
    played_rounds = int(games["round"].max()) if len(games) else 0
    declared = tags.get("rounds", "")
    # XXR / 142 declare the rounds of the whole event; a partial file has data for fewer.
    rounds = max(played_rounds, int(declared) if is_digits(declared, 3) else 0)
    if seen_tags & {"142", "162", "172", "192", "202", "212", "222", "310"}:
        version = "TRF-2026"
    elif any(tag.startswith(("XX", "BB")) for tag in seen_tags):
        version = "TRFx"
    elif games.attrs.get("legacy_codes"):
        version = "TRF06"
    else:
        version = "TRF16"
    return EventInfo(
        key=key,
        name=tags.get("name", "") or key,
        source=source,
        start=start,
        end=end,
        rounds=rounds,
        time_control=tags.get("time_control", ""),
        time_control_code=tags.get("time_control_code", ""),
        kind=kind_of_time_control(tags.get("time_control_code", ""), tags.get("time_control", "")),
        encoding=encoding,
        format=version,
        city=tags.get("city", ""),
        federation=tags.get("federation", ""),
    )


def _round_dates(line: str) -> list[dt.date]:
    dates = []
    for start in range(ROUND_START, len(line), ROUND_WIDTH):
        date = parse_date(line[start : start + 8])
        if date is not None:
            dates.append(date)
    return dates


# -- the 001 records ---------------------------------------------------------------------------


def _code_points(lines: list[str], width: int) -> np.ndarray:
    """A (lines, width) array of code points, padded with spaces."""
    array = np.array(lines, dtype=f"<U{width}").view(np.uint32).reshape(len(lines), width)
    return np.where(array == 0, 32, array)


def _text(codes: np.ndarray) -> np.ndarray:
    """Stripped strings from a (rows, width) block of code points."""
    block = np.ascontiguousarray(codes, dtype=np.uint32)
    width = block.shape[1]
    return np.char.strip(block.view(f"<U{width}").ravel())


def _integers(codes: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Parse right- or left-aligned unsigned integers from a (..., width) block.

    Returns (value, present, bad): ``present`` where any digit is found, ``bad`` where the
    field holds anything but one run of digits surrounded by blanks.
    """
    digit = (codes >= 48) & (codes <= 57)
    blank = codes == 32
    value = np.zeros(codes.shape[:-1], dtype=np.int64)
    for column in range(codes.shape[-1]):
        step = digit[..., column]
        value = np.where(step, value * 10 + (codes[..., column] - 48), value)
    present = np.asarray(digit.any(axis=-1), dtype=bool)
    # One contiguous run: the number of digit starts (digit after non-digit) is at most one.
    starts = digit & ~np.concatenate(
        [np.zeros((*digit.shape[:-1], 1), dtype=bool), digit[..., :-1]], axis=-1
    )
    bad = np.asarray(~(digit | blank).all(axis=-1) | (starts.sum(axis=-1) > 1), dtype=bool)
    return value, present, bad


def _chars(codes: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(codes, dtype=np.uint32).view("<U1").reshape(codes.shape)


def _parse_players(
    lines: list[str], numbers: list[int], source: str, key: str
) -> tuple[pd.DataFrame, pd.DataFrame, list[Issue]]:
    issues: list[Issue] = []
    count = len(lines)
    longest = max((len(line) for line in lines), default=0)
    rounds = max(0, -(-(longest - ROUND_START) // ROUND_WIDTH))
    width = max(ROUND_START + rounds * ROUND_WIDTH, FIELD["rank"][1])
    codes = _code_points(lines, width) if count else np.full((0, width), 32, dtype=np.uint32)
    line_numbers = np.array(numbers, dtype=np.int64)

    numeric: dict[str, tuple[np.ndarray, np.ndarray]] = {}
    for name, severity in (("start_rank", "error"), ("rating", "error"), ("fide_id", "warning")):
        start, end = FIELD[name]
        value, present, bad = _integers(codes[:, start:end])
        label = name.replace("_", " ")
        for index in np.flatnonzero(bad):
            issues.append(
                Issue(
                    source,
                    int(line_numbers[index]),
                    f"{label} {lines[index][start:end]!r} is not a number "
                    f"(columns {start + 1}-{end})",
                    severity,  # type: ignore[arg-type]
                )
            )
        numeric[name] = (value, present & ~bad)
    ranks, has_rank = numeric["start_rank"]
    for index in np.flatnonzero(~has_rank):
        if lines[index][4:8].strip() == "":
            issues.append(
                Issue(source, int(line_numbers[index]), "missing start rank (columns 5-8)")
            )
    duplicated = pd.Series(np.where(has_rank, ranks, -1)).duplicated(keep="first").to_numpy()
    for index in np.flatnonzero(duplicated & has_rank):
        first = int(line_numbers[np.flatnonzero(ranks == ranks[index])[0]])
        issues.append(
            Issue(
                source,
                int(line_numbers[index]),
                f"duplicate start rank {int(ranks[index])} (first on line {first})",
            )
        )

    text = {name: _text(codes[:, start:end]) for name, start, end in PLAYER_FIELDS}
    rating, has_rating = numeric["rating"]
    fide_id, has_id = numeric["fide_id"]
    points = pd.to_numeric(
        pd.Series(text["points"], dtype="string").str.replace(",", ".", regex=False),
        errors="coerce",
    )
    players = pd.DataFrame(
        {
            "event": key,
            "player": np.where(has_rank, ranks, 0),
            # trf-format.md §4.1: a rating or ID of 0 (or blank) means unrated / unknown.
            "fide_id": pd.array(np.where(has_id & (fide_id > 0), fide_id, 0), dtype="Int64"),
            "name": text["name"],
            "federation": [t.upper() or None for t in text["federation"]],
            "sex": [normalise_sex(t) for t in text["sex"]],
            "title": [normalise_title(t) for t in text["title"]],
            "birth_year": pd.array([parse_birth_year(t) for t in text["birth"]], dtype="Int64"),
            "rating": pd.array(np.where(has_rating, rating, 0), dtype="Int64"),
            "points": points.astype("Float64"),
            "source": source,
            "line": line_numbers,
        }
    )
    for column in ("fide_id", "rating"):
        players[column] = players[column].mask(players[column] == 0)
    players = conform(players, PLAYERS_DTYPES)

    games, round_issues = _parse_rounds(codes, rounds, players, lines, source, key)
    issues.extend(round_issues)
    return players, games, issues


def _parse_rounds(
    codes: np.ndarray,
    rounds: int,
    players: pd.DataFrame,
    lines: list[str],
    source: str,
    key: str,
) -> tuple[pd.DataFrame, list[Issue]]:
    issues: list[Issue] = []
    count = len(players)
    blocks = codes[:, ROUND_START : ROUND_START + rounds * ROUND_WIDTH].reshape(
        count, rounds, ROUND_WIDTH
    )
    # Padding after the last round with any content is not a round (e.g. a TRFx file
    # written before the next round is paired).
    filled = np.flatnonzero((blocks != 32).any(axis=(0, 2)))
    rounds = int(filled[-1]) + 1 if len(filled) else 0
    blocks = blocks[:, :rounds]
    opponent, has_opponent, bad_opponent = _integers(blocks[:, :, 0:4])
    colour = np.char.lower(_chars(blocks[:, :, 5]))
    result = np.char.upper(_chars(blocks[:, :, 7]))
    written = _chars(blocks[:, :, 7])
    separators = (blocks[:, :, list(BLOCK_BLANKS)] != 32).any(axis=-1)
    bad_colour = ~np.isin(colour, ["w", "b", "-", " "])
    known = np.isin(result, list(_KNOWN_RESULTS))
    odd = np.isin(result, list(_UNKNOWN_RESULTS))
    misaligned = separators | bad_opponent | bad_colour | ~(known | odd)
    line_of = players["line"].to_numpy()
    me = players["player"].to_numpy()

    def flag(mask: np.ndarray, message: Callable[[int, int], str], severity: Severity) -> None:
        for row, rnd in zip(*(axis.tolist() for axis in np.nonzero(mask)), strict=True):
            text = f"round {rnd + 1}: {message(row, rnd)}"
            issues.append(Issue(source, int(line_of[row]), text, severity))

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
    at_board = np.isin(colour, ["w", "b"])
    played_code = np.isin(result, ["1", "=", "0"])
    flag(misaligned, misaligned_block, "error")
    flag(
        odd & ~misaligned,
        lambda row, rnd: (
            f"result code {str(written[row, rnd])!r} is not a TRF16 code; taken as an unplayed game"
        ),
        "warning",
    )
    flag(
        ~paired & (result == "0"),
        lambda row, rnd: "result '0' without an opponent read as a zero-point bye",
        "warning",
    )
    flag(
        paired & at_board & (result == " "),
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
        [misaligned, rated, ~paired, np.isin(result, ["+", "-"]) | ~at_board, played_code],
        [REASONS.index("unreadable"), -1, REASONS.index("bye"), *[REASONS.index("forfeit")] * 2],
        default=REASONS.index("unplayed"),
    )
    codes_by_points = [
        list(code for code, v in _POINTS.items() if v == value) for value in (1.0, 0.5)
    ]
    score = np.select(
        [np.isin(result, codes_by_points[0]), np.isin(result, codes_by_points[1])],
        [1.0, 0.5],
        default=0.0,
    )

    written_codes = np.where(written == " ", "", written)
    games = pd.DataFrame(
        {
            "event": key,
            "round": np.tile(np.arange(1, rounds + 1), count),
            "player": np.repeat(me, rounds),
            "opponent": pd.array(np.where(paired, opponent, 0).ravel(), dtype="Int64"),
            "colour": np.where(at_board, colour, "").ravel(),
            "result": written_codes.ravel(),
            "score": score.ravel(),
            "rated": rated.ravel(),
            "reason": pd.Categorical.from_codes(reason.ravel(), dtype=REASON_DTYPE),
            "source": source,
            "line": np.repeat(line_of, rounds),
        }
    )
    games["opponent"] = games["opponent"].mask(games["opponent"] == 0)
    # TRF06 notation: forfeits with colour '-' and byes written '0000 - +' / '0000 - ='.
    legacy = (paired & (colour == "-")) | (~paired & np.isin(result, ["+", "="]))
    games.attrs["legacy_codes"] = bool(legacy.any())
    for column in ("colour", "result"):
        games[column] = games[column].replace("", None)
    return conform(games, GAMES_DTYPES), issues


def _check_points(players: pd.DataFrame, games: pd.DataFrame) -> list[Issue]:
    """Declared points that disagree with the rounds: a warning, never used for rating (§9)."""
    ranks = players["player"].to_numpy(np.int64)
    if not len(ranks):
        return []
    top = int(max(ranks.max(), games["player"].max() if len(games) else 0))
    totals = np.bincount(
        games["player"].to_numpy(np.int64), weights=games["score"].to_numpy(), minlength=top + 1
    )[np.clip(ranks, 0, top)]
    declared = players["points"].to_numpy(dtype=np.float64, na_value=np.nan)
    differ = ~np.isnan(declared) & (np.abs(declared - totals) > 1e-9)
    source, lines = str(players["source"].iat[0]), players["line"].tolist()
    return [
        Issue(
            source,
            lines[i],
            f"declared points {declared[i]:g} but the rounds give {totals[i]:g}",
            "warning",
        )
        for i in np.flatnonzero(differ).tolist()
    ]
