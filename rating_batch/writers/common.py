"""What every writer shares: formula neutralisation, number formats, and formatting each
distinct value of a column once."""

from __future__ import annotations

import datetime as dt
import math
import re
from collections.abc import Callable, Iterable, Mapping
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

import numpy as np
import pandas as pd

from rating_batch.schema import FORMULA_STARTS as FORMULA_STARTS  # the writers' own

#: Rows of a worksheet in Excel and LibreOffice (the header is one of them): a longer table
#: goes on in the next sheet (``write_workbook``).
MAX_SHEET_ROWS = 1_048_576
#: Per-game sheets (Games, Calculations) of a workbook hold at most this many rows; a larger
#: period is complete in games.csv and calculations.csv, and the Summary says so.
MAX_DETAIL_ROWS = 100_000
#: The characters XML cannot hold (a sheet shows them as '?') and the texts a spreadsheet
#: reads as error codes: openpyxl's own (``openpyxl.cell.cell``), kept here so that making
#: sheet XML needs no openpyxl, which is loaded only when a workbook is written (issue 42;
#: tests/test_startup.py checks they are still openpyxl's).
ILLEGAL_CHARACTERS_RE = re.compile(r"[\000-\010]|[\013-\014]|[\016-\037]")
ERROR_CODES = ("#NULL!", "#DIV/0!", "#VALUE!", "#REF!", "#NAME?", "#NUM!", "#N/A")


def detail_notes(sheet: str, rows: int) -> list[str]:
    """The Summary's note for a per-game sheet of ``rows`` rows cut at ``MAX_DETAIL_ROWS``
    (none when it is not cut)."""
    if rows <= MAX_DETAIL_ROWS:
        return []
    return [
        f"the {sheet} sheet holds the first {MAX_DETAIL_ROWS:,} of {rows:,} rows: "
        f"{sheet.lower()}.csv has them all"
    ]


#: Significant digits of a float written without a declared format: every float of a
#: machine-read file (``write_csv(machine_read=True)``: the other systems' players.csv and
#: calculations.csv), any undeclared float column, and every float a workbook stores. A
#: float's full text (17 digits) ends in bits that vary with the CPU's arithmetic (SIMD paths
#: of numpy's exp and log, FMA): 0.059998256379520415 on one machine is 0.05999825637952042
#: on another. Ten digits keep 10^6 times what any rating system publishes and drop those
#: bits, so the same run writes the same bytes on every machine (docs/formats.md §13).
SIGNIFICANT_DIGITS = 10
#: The CSV text format of an undeclared float (``SIGNIFICANT_DIGITS``).
SIGNIFICANT = f"{{:.{SIGNIFICANT_DIGITS}g}}"

#: Number formats by column name (CSV text format, XLSX number format): the precision each
#: column is published with; a float column not named here is written as ``SIGNIFICANT``.
NUMBER_FORMATS: dict[str, tuple[str, str]] = {
    "score": (SIGNIFICANT, "0.0"),
    "expected": ("{:.2f}", "0.00"),
    "change": ("{:.2f}", "0.00"),
    "delta": ("{:.2f}", "0.00"),
    "k_delta": ("{:.2f}", "0.00"),
    # The first-rating derivation and the player workbook's event rows (W, We): as the reports
    # write them, the text of calculations.csv as it was.
    "w": (SIGNIFICANT, "0.0"),
    "we": ("{:.2f}", "0.00"),
    "p": (SIGNIFICANT, "0.00"),
    "ra": (SIGNIFICANT, "0.00"),
    "ra_rated": (SIGNIFICANT, "0.00"),
    # The state of the other rating systems (docs/systems.md): to ``SIGNIFICANT_DIGITS`` in
    # CSV (``write_csv(machine_read=True)``), shown rounded in a sheet and on a page.
    **dict.fromkeys(
        (
            "rating",
            "new_rating",
            "opponent_rating",
            "rd",
            "new_rd",
            "rd_grown",
            "opponent_rd",
            "average",
            "percentage",
            "performance",
            "d2",
            "conservative",
            "elo_equivalent",
        ),
        (SIGNIFICANT, "0.00"),
    ),
    **dict.fromkeys(
        (
            "mu",
            "sigma",
            "new_mu",
            "new_sigma",
            "mu_before",
            "sigma_before",
            "mu_after",
            "sigma_after",
            "g",
            "v",
        ),
        (SIGNIFICANT, "0.000"),
    ),
    **dict.fromkeys(("volatility", "new_volatility"), (SIGNIFICANT, "0.000000")),
}


def float_form(
    name: str, *, machine_read: bool = False, exact: bool = False
) -> Callable[[Any], str]:
    """How a float column is written in CSV: its declared format (``NUMBER_FORMATS``), or
    ``SIGNIFICANT`` when it declares none; in a machine-read file every float as the number
    a workbook stores (``stored_float``: "1500.0", "0.05999825638"). ``exact``: the float
    in full, for a state that must read back bit for bit (state.csv: ``publish`` rates as
    ``rate --list`` with it does, docs/systems.md). The one rule of numbers written as text."""
    if exact:
        return lambda value: repr(float(value))
    if machine_read:
        return float_text
    return NUMBER_FORMATS.get(name, (SIGNIFICANT, ""))[0].format


def stored_float(value: float) -> float:
    """A float as a workbook stores it and a machine-read CSV writes it: to
    ``SIGNIFICANT_DIGITS`` (a cell's number format only hides digits; the stored double
    would still carry the machine's last bits)."""
    return float(SIGNIFICANT.format(value))


def float_text(value: float) -> str:
    """``repr(stored_float(value))`` ("1500.0", "0.05999825638", "1e-05") without reading
    the text back: ``SIGNIFICANT`` is already the shortest text of the number it rounds to
    (no two 10-digit decimals share a double), and repr writes a whole one with ".0". Below
    1e10 the two agree (above, "1.5e+10" where repr writes "15000000000.0", the same number);
    10^6 distinct values take 2.6 s against 4.7 s."""
    text = SIGNIFICANT.format(value)
    return text if "." in text or "e" in text or "n" in text else text + ".0"


#: How far a written float may stand from the number it was written for, relative to it:
#: one unit in its tenth significant digit (``SIGNIFICANT_DIGITS``). Tests of written numbers
#: and the golden files' comparison (tests/test_golden.py) allow this much.
WRITTEN_RELATIVE = 10.0 ** (1 - SIGNIFICANT_DIGITS)


def page_decimals(name: str) -> int:
    """Decimals a page shows a float column with: its sheet format's (``NUMBER_FORMATS``),
    else 2."""
    form = NUMBER_FORMATS.get(name, ("", "0.00"))[1]
    return len(form.split(".", 1)[1]) if "." in form else 2


#: The date stamped into every workbook, so that the same content gives the same bytes.
FIXED_TIMESTAMP = dt.datetime(2000, 1, 1)


#: Columns of codes from a closed set (TRF result codes ``=``, ``+``, ``-`` …): written as they
#: are, since a one-character code cannot carry a formula; neutralising is for free text.
CODE_COLUMNS = frozenset({"result"})


def neutralise(text: str) -> str:
    """Prefix text a spreadsheet would evaluate with an apostrophe (CSV); and text whose own
    apostrophes come before a formula sign (``'=1``), so that reading it back
    (``schema.as_written``) removes only the one added."""
    return "'" + text if text.lstrip("'").startswith(FORMULA_STARTS) else text


def neutralise_all(texts: list[str]) -> list[str]:
    """``neutralise`` of each text, written out as one expression a text (no Python function
    called per text: the CSV and TXT writers' distinct texts, issue 42)."""
    return ["'" + text if text.lstrip("'").startswith(FORMULA_STARTS) else text
            for text in texts]  # fmt: skip


def formatted(
    codes: np.ndarray, distinct: Iterable[Any], form: Callable[[Any], str], missing: str = ""
) -> list[str]:
    """Each distinct value formatted once, spread back over the column (code -1 is missing:
    ``missing``). Columns repeat few values (names, expected scores), so this is much faster
    than formatting every cell, and gives the very same text."""
    texts = np.array([form(value) for value in distinct] + [missing], dtype=object)
    result: list[str] = texts[codes].tolist()
    return result


#: Joins texts for ``each_at_once`` (a character no name holds; checked).
_SEPARATOR = "\uffff"


def each_at_once(texts: list[str], change: Callable[[str], str]) -> list[str]:
    """``change`` of each text, made on all of them joined as one string and split again:
    for a change made character by character (escaping, replacing control characters),
    which then runs once, not once per text."""
    joined = _SEPARATOR.join(texts)
    if joined.count(_SEPARATOR) != max(len(texts) - 1, 0):
        return [change(text) for text in texts]
    return change(joined).split(_SEPARATOR) if texts else []


ColumnKind = str
"""How a column is written: "bool", "float", "int" or "text"."""


def distinct(series: pd.Series) -> tuple[ColumnKind, np.ndarray, Iterable[Any]]:
    """A column's kind, each row's code (-1 for missing) and the distinct values the codes
    point to: what every table writer formats, once per distinct value (``formatted``)."""
    dtype = series.dtype
    if pd.api.types.is_bool_dtype(dtype):
        codes, flags = pd.factorize(series)
        return "bool", codes, list(flags)
    if pd.api.types.is_float_dtype(dtype):
        return ("float", *float_codes(series))
    if pd.api.types.is_numeric_dtype(dtype):
        codes, whole = pd.factorize(series)
        return "int", codes, list(whole)
    if isinstance(dtype, pd.StringDtype) or (
        isinstance(dtype, pd.CategoricalDtype)
        and all(isinstance(category, str) for category in dtype.categories)
    ):
        codes, texts = pd.factorize(series)  # already text: missing values are code -1
        return "text", codes, np.asarray(texts, dtype=object).tolist()
    codes, texts = pd.factorize(series.astype("string").astype(object).where(series.notna(), None))
    return "text", codes, list(texts)


def float_codes(series: pd.Series) -> tuple[np.ndarray, np.ndarray]:
    """Codes of a float column's distinct values (-1 for missing) and those values, told
    apart by bit pattern, so that -0.0 keeps its own text ("-0.00")."""
    floats = series.to_numpy(dtype=np.float64, na_value=np.nan)
    codes, bits = pd.factorize(floats.view(np.int64))
    codes[np.isnan(floats)] = -1
    return codes, np.asarray(bits, dtype=np.int64).view(np.float64)


def half_away_text(value: float, places: int) -> str:
    """``value`` to ``places`` decimals, a tie away from zero as the lists round (US Chess's
    1500.5 is 1501 in list.csv, docs/systems.md §9.11): Python's format rounds a tie to
    even, and the report would show 1500."""
    if not math.isfinite(value):
        return f"{value:.{places}f}"
    step = Decimal(1).scaleb(-places)
    return f"{Decimal(repr(value)).quantize(step, rounding=ROUND_HALF_UP):f}"


def list_values(player: Mapping[str, object]) -> dict[str, object]:
    """A player's players.csv values as ``StateSystem.worked`` reads them beside an event's
    calculations.csv values: ``list_<column>`` (his state on the list before: the DWZ's
    uplift line, docs/systems.md §10.8)."""
    return {f"list_{key}": value for key, value in player.items()}
