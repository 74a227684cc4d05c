"""Previous rating lists given with ``--list``: CSV with at least ``id`` and ``rating``.

Optional columns: ``k``, ``birth_year``, ``games_total``, ``standard_rating`` (for rapid and
blitz lists: where an unrated player starts from) and flags such as ``ever_2400`` and
``ever_2300`` (``true``/``false``, ``1``/``0``, ``yes``/``no``). A ``list.csv`` written by
rating_batch is valid input. The FIDE TXT/XML formats come with the rating database.
"""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path

import pandas as pd

from rating_batch.errors import InputError, Issue
from rating_batch.loaders.common import decode_text

REQUIRED = ("id", "rating")
INTEGER_COLUMNS = ("id", "rating", "k", "birth_year", "games_total", "standard_rating")
_FLAG = re.compile(r"^ever_\d{3,4}$")
_TRUE = {"true", "1", "yes", "y", "t"}
_FALSE = {"false", "0", "no", "n", "f", ""}


def read_rating_list(path: Path) -> pd.DataFrame:
    """Read a CSV rating list; InputError naming file, line and column for every bad value."""
    text, _ = decode_text(path.read_bytes())
    return parse_rating_list_csv(text, source=str(path))


def parse_rating_list_csv(text: str, *, source: str) -> pd.DataFrame:
    """Parse CSV text (comma or semicolon separated) into the list columns, typed."""
    sample = text[:4096]
    delimiter = ";" if sample.count(";") > sample.count(",") else ","
    rows = list(csv.reader(io.StringIO(text), delimiter=delimiter))
    if not rows:
        raise InputError([Issue(source, None, "the list is empty")])
    header = [name.strip().lower() for name in rows[0]]
    missing = [name for name in REQUIRED if name not in header]
    if missing:
        raise InputError(
            [
                Issue(source, 1, f"missing column {name!r} (the header must name it)")
                for name in missing
            ]
        )
    wanted = [name for name in header if name in INTEGER_COLUMNS or _FLAG.match(name)]
    issues: list[Issue] = []
    records: dict[str, list[object]] = {name: [] for name in wanted}
    for number, row in enumerate(rows[1:], start=2):
        if not any(cell.strip() for cell in row):
            continue
        cells = dict(zip(header, row, strict=False))
        for name in wanted:
            raw = (cells.get(name) or "").strip()
            records[name].append(_value(name, raw, source, number, issues))
    if issues:
        raise InputError(issues)
    frame = pd.DataFrame(records)
    for name in wanted:
        frame[name] = frame[name].astype("boolean" if _FLAG.match(name) else "Int64")
    frame["rating"] = frame["rating"].mask(frame["rating"] == 0)
    return frame.dropna(subset=["id"]).reset_index(drop=True)


def _value(name: str, raw: str, source: str, line: int, issues: list[Issue]) -> object:
    if _FLAG.match(name):
        if raw.lower() in _TRUE:
            return True
        if raw.lower() in _FALSE:
            return False
        issues.append(Issue(source, line, f"column {name!r}: {raw!r} is not true or false"))
        return None
    if raw == "":
        if name == "id":
            issues.append(Issue(source, line, "column 'id': missing FIDE ID"))
        return None
    if raw.isdigit():
        return int(raw)
    issues.append(Issue(source, line, f"column {name!r}: {raw!r} is not a whole number"))
    return None
