"""FIDE's fixed-width TXT list: ASCII (every letter transliterated), CRLF; text that a
spreadsheet importing it would evaluate (``=1+1``) neutralised as in every CSV (``'=1+1``)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
from anyascii import anyascii

from rating_batch.schema import CONTROL_CHARACTERS
from rating_batch.values import missing
from rating_batch.writers.common import formatted, neutralise
from rating_batch.writers.csvfile import CSV_BLOCK

#: FIDE's single-kind TXT list: (label, width) after the header of the downloads (§10.1).
TXT_LIST_LAYOUT = (
    ("ID Number", 15, "id"),
    ("Name", 61, "name"),
    ("Fed", 4, "federation"),
    ("Sex", 4, "sex"),
    ("Tit", 5, "title"),
    ("WTit", 5, "w_title"),
    ("OTit", 15, "o_title"),
    ("FOA", 4, "foa_title"),
    ("{month}", 6, "rating"),
    ("Gms", 4, "games"),
    ("K", 3, "k"),
    ("B-day", 6, "birth_year"),
    ("Flag", 4, "flag"),
)
_MONTH_NAMES = ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"]
_FIXED_TXT_FIELDS = {"id", "name", "federation", "sex", "title", "w_title"}


def ascii_text(text: str) -> str:
    """FIDE's lists are ASCII: every letter is transliterated (Mícheál → Micheal, Łukasz →
    Lukasz, ß → ss, Блюбаум → Blyubaum), never '?'; a control character (a newline would
    split the record) becomes a space."""
    text = CONTROL_CHARACTERS.sub(" ", text)
    if text.isascii():
        return text
    return str(anyascii(text))


def txt_text(value: object) -> str:
    """A text cell of the list: ASCII, and never a formula (neutralised as in every CSV)."""
    return neutralise(ascii_text(str(value)))


def write_list_txt(listing: pd.DataFrame, path: Path, *, period: str) -> None:
    """A FIDE-style fixed-width list (ASCII, CRLF): the header of FIDE's single-kind
    downloads with the list's month token (``DEC25``), numbers left-aligned, 0 for none."""
    year, month = (int(part) for part in period.split("-"))
    token = f"{_MONTH_NAMES[month - 1]}{year % 100:02d}" if month else "Rtng"
    layout = _widened(TXT_LIST_LAYOUT, listing)
    header = "".join(label.format(month=token).ljust(width) for label, width, _ in layout)
    sex = listing["sex"].astype("string")
    flags = np.where(listing["inactive"].to_numpy(bool), "i", "")
    flags = np.where((sex == "F").fillna(False).to_numpy(bool), np.char.add("w", flags), flags)
    columns = {name: listing.get(name, None) for _, _, name in TXT_LIST_LAYOUT}
    columns["flag"] = pd.Series(flags, index=listing.index)
    with path.open("wb") as out:
        out.write((header.rstrip() + "\r\n").encode("ascii"))
        for start in range(0, len(listing), CSV_BLOCK):
            stop = min(start + CSV_BLOCK, len(listing))
            parts = {
                name: None if column is None else column.iloc[start:stop]
                for name, column in columns.items()
            }
            cells = [
                _txt_column(parts[name], name, width, stop - start) for _, width, name in layout
            ]
            rows = ("".join(row).rstrip() + "\r\n" for row in zip(*cells, strict=True))
            out.write("".join(rows).encode("ascii"))


def _widened(
    layout: tuple[tuple[str, int, str], ...], listing: pd.DataFrame
) -> tuple[tuple[str, int, str], ...]:
    """FIDE's layout, its ID column widened (by the header, which the reader follows) for an
    id longer than FIDE IDs: that of a player without one (``<event key>#<start rank>``),
    which would be cut and no longer name the player."""
    ids = listing["id"].astype("string").dropna()
    others = ids[~ids.str.isdigit().to_numpy(bool)].unique()  # FIDE IDs fit
    longest = max((len(txt_text(text)) for text in others), default=0)
    return tuple(
        (label, max(width, longest + 1) if name == "id" else width, name)
        for label, width, name in layout
    )


def _txt_column(column: pd.Series | None, name: str, width: int, rows: int) -> list[str]:
    """One column of the TXT list, each cell padded to its width (each distinct value is
    formatted once, ``_formatted``): ASCII, 0 for a missing number, "" for missing text."""
    blank = "0" if name in ("rating", "games", "k", "birth_year") else ""

    def cell(value: object) -> str:
        if missing(value):
            text = blank
        elif isinstance(value, int | np.integer | float):
            text = str(int(value))
        else:
            text = txt_text(value)
        if name in _FIXED_TXT_FIELDS:
            text = text[: width - 1]  # read by column: must stay inside it
        # OTit and later are read as tokens: a long value overflows, as in FIDE's files.
        return text.ljust(width) if len(text) < width else text + " "

    if column is None:
        return [cell(None)] * rows
    codes, distinct = pd.factorize(column)
    return formatted(codes, list(distinct), cell, missing=cell(None))
