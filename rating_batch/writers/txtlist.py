"""FIDE's fixed-width TXT list: ASCII (every letter transliterated), CRLF; text that a
spreadsheet importing it would evaluate (``=1+1``) neutralised as in every CSV (``'=1+1``).
Made a column at a time, each distinct value once, with no Python function called per
cell or row."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
from anyascii import anyascii

from rating_batch.schema import CONTROL_CHARACTERS
from rating_batch.writers.common import distinct, each_at_once, neutralise, neutralise_all
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


def txt_texts(values: list[str]) -> list[str]:
    """``txt_text`` of each value, all at once: control characters replaced in the texts
    joined (``each_at_once``), then one expression a text, no Python function called per
    text but anyascii for a text beyond ASCII (numpy's string functions were measured 2x
    slower than this on the bench list)."""
    texts = each_at_once(values, lambda text: CONTROL_CHARACTERS.sub(" ", text))
    return neutralise_all([text if text.isascii() else anyascii(text) for text in texts])


def write_list_txt(listing: pd.DataFrame, path: Path, *, period: str) -> None:
    """A FIDE-style fixed-width list (ASCII, CRLF): the header of FIDE's single-kind
    downloads with the list's month token (``DEC25``), numbers left-aligned, 0 for none.
    The cells are made a column at a time (each distinct value once), then joined into rows
    block by block."""
    year, month = (int(part) for part in period.split("-"))
    token = f"{_MONTH_NAMES[month - 1]}{year % 100:02d}" if month else "Rtng"
    layout = _widened(TXT_LIST_LAYOUT, listing)
    header = "".join(label.format(month=token).ljust(width) for label, width, _ in layout)
    sex = listing["sex"].astype("string")
    flags = np.where(listing["inactive"].to_numpy(bool), "i", "")
    flags = np.where((sex == "F").fillna(False).to_numpy(bool), np.char.add("w", flags), flags)
    columns = {name: listing.get(name, None) for _, _, name in TXT_LIST_LAYOUT}
    columns["flag"] = pd.Series(flags, index=listing.index, dtype="string")
    cells = [_txt_column(columns[name], name, width, len(listing)) for _, width, name in layout]
    with path.open("wb") as out:
        out.write((header.rstrip() + "\r\n").encode("ascii"))
        for start in range(0, len(listing), CSV_BLOCK):
            stop = min(start + CSV_BLOCK, len(listing))
            block = [texts[codes[start:stop]].tolist() for codes, texts in cells]
            rows = map(str.rstrip, map("".join, zip(*block, strict=True)))
            out.write(("\r\n".join(rows) + "\r\n").encode("ascii"))


def _widened(
    layout: tuple[tuple[str, int, str], ...], listing: pd.DataFrame
) -> tuple[tuple[str, int, str], ...]:
    """FIDE's layout, its ID column widened (by the header, which the reader follows) for an
    id longer than FIDE IDs: that of a player without one (``<event key>#<start rank>``),
    which would be cut and no longer name the player."""
    ids = listing["id"].astype("string").dropna()
    others = ids[~ids.str.isdigit().to_numpy(bool)].unique()  # FIDE IDs fit
    longest = max(map(len, txt_texts(list(others))), default=0)
    return tuple(
        (label, max(width, longest + 1) if name == "id" else width, name)
        for label, width, name in layout
    )


#: The TXT list's number columns: 0 for none.
_NUMBERS = ("rating", "games", "k", "birth_year")


def _txt_column(
    column: pd.Series | None, name: str, width: int, rows: int
) -> tuple[np.ndarray, np.ndarray]:
    """One column of the TXT list: each row's code and the cells they point to, the last
    (code -1) a missing value's: ASCII text (``txt_texts``), "" for missing text, a number
    as a whole one, 0 for none; each padded to its width, or one space after a longer one
    (OTit and later are read as tokens, as in FIDE's files); text of the columns read by
    position (``_FIXED_TXT_FIELDS``) cut to stay inside them."""
    blank = "0" if name in _NUMBERS else ""
    kind, codes, values = ("text", np.full(rows, -1), []) if column is None else distinct(column)
    if kind == "text":
        texts = txt_texts(list(values))
    else:  # a number as a whole one (a float cut as int() cuts it; a flag as 1 or 0)
        whole = np.asarray(values, dtype=np.float64 if kind == "float" else np.int64)
        # A missing float's bits stay among the distinct values, never pointed to (code -1).
        whole = np.where(np.isfinite(whole), whole, 0) if kind == "float" else whole
        texts = whole.astype(np.int64).astype(str).tolist()
    texts.append(blank)
    if name in _FIXED_TXT_FIELDS:  # read by column: must stay inside it
        texts = [text[: width - 1] for text in texts]
    return codes, np.array(
        [text.ljust(width) if len(text) < width else text + " " for text in texts], dtype=object
    )
