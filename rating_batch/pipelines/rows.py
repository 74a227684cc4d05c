"""The rows of one of the tool's own CSV files, stored by a publish, for a few players: what
``player`` reads of the files each publish kept (under every system)."""

from __future__ import annotations

import codecs
import io
import re
from collections.abc import Callable

import pandas as pd

from rating_batch.schema import as_written
from rating_batch.writers.common import neutralise

#: A CSV file's bytes in which no quoted field holds a line break (each quote opens or closes
#: a field on its own line), so that its records are its lines.
_ONE_LINE_RECORDS = re.compile(rb'(?:[^"]*+"[^"\n]*+")*+[^"]*+\Z')


#: One CSV record: plain bytes and quoted fields (which may hold line breaks) up to a line end.
_RECORD = re.compile(rb'(?:[^"\n]++|"[^"]*+")*+(?:\n|\Z)')


def rows_of(data: bytes | None, ids: set[str]) -> pd.DataFrame | None:
    """The rows of one of our CSV files (UTF-8 with BOM, ``id`` first) whose id is one of
    ``ids``: the records are picked out of the file's bytes before any parsing (a national
    period's calculations.csv holds millions of rows; a player has a few dozen). A record is
    a line unless a quoted field holds a line break: an event key made from a file name by
    a version that kept its newlines; then the records are found field by field."""
    if data is None:
        return None
    header, _, body = data.removeprefix(codecs.BOM_UTF8).partition(b"\n")
    # An id as our writers wrote it: neutralised (an event key "=1+2" gives "'=1+2#3"),
    # quoted when it holds a comma or a quote.
    written = sorted({form for i in ids for form in (i, neutralise(i))})
    starts = tuple(
        start.encode("utf-8")
        for i in written
        for start in (f"{i},", '"' + i.replace('"', '""') + '",')
    )
    if not ids:
        records = []
    elif _ONE_LINE_RECORDS.match(body):
        pattern = b"|".join(re.escape(start) for start in starts)
        records = re.findall(rb"^(?:" + pattern + rb").*$", body, flags=re.M)
    else:
        records = [
            found.group().removesuffix(b"\n")
            for found in _RECORD.finditer(body)
            if body.startswith(starts, found.start())
        ]
    frame = pd.read_csv(
        io.BytesIO(b"\n".join([header, *records])),
        encoding="utf-8",
        lineterminator="\n",  # a lone CR is part of a field (csv.writer left it bare)
        dtype={"id": "string", "opponent_id": "string", "name": "string"},
        keep_default_na=False,
        na_values=[""],
    )
    # Every text as the files gave it (names, federations, titles, event keys), not as our
    # CSV writers neutralised it for spreadsheets.
    for column in frame.columns:
        if frame[column].dtype == object or isinstance(frame[column].dtype, pd.StringDtype):
            frame[column] = frame[column].map(as_written, na_action="ignore")
    return frame


#: Reads the rows of one of our stored CSV files whose id is one of a set (``rows_of``).
RowReader = Callable[[bytes | None, set[str]], pd.DataFrame | None]
