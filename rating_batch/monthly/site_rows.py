"""The published CSV files as the site reads them, and the rows of some players only, cut
from a copy the site keeps (issue 42: a quiet month's publish writes ~3 % of the player
pages, and should not decompress and parse the older lists' 10^6-row files whole for them).

When the site reads a list's games.csv, calculations.csv or players.csv whole, it keeps
beside the site's folder (``OUT/.site-rows/``, not under ``site/``: nothing a web host
should get) the file's bytes as published and an index of them: where each row starts, the
row's id and event (as codes), and what the site decides on the whole file
(``writers.site.column_facts``). Both are named by the file's SHA-256 as the store keeps it,
so a copy can only be of that file: another publish, another file, another name. A copy is
used only when its bytes hash to that name and its index fits them (else the file is read
from the store whole, as before, and kept again); the rows cut from it are parsed as the
whole file would be, and their ids checked against the index. Copies no published list
names are removed.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import mmap
import zipfile
import zlib
from collections.abc import Collection, Sequence
from pathlib import Path

import numpy as np
import pandas as pd

from rating_batch.periods import Period
from rating_batch.portable import write_replacing
from rating_batch.schema import as_written
from rating_batch.store import Store
from rating_batch.writers.site_players import column_facts

#: The copies' folder under ``--out`` (beside ``site/``).
ROWS_FOLDER = ".site-rows"

#: The index's form: raised when it changes (older copies are then not used, and removed).
ROWS_VERSION = 1

#: The files the site cuts by player (the others are small, or the newest list's).
CUT_FILES = ("games.csv", "calculations.csv", "players.csv")


def parse_csv(data: bytes, columns: Sequence[str] | None = None) -> pd.DataFrame:
    """A published CSV file's bytes as text columns, each text as the input held it (not as
    our CSV writers neutralised it for spreadsheets: an event key, a name, a federation
    starting with ``=``, ``+``, ``-`` or ``@`` is shown, linked and compared as it is,
    docs/site.md §2); ``columns``: only those it has (an older file may lack one)."""
    frame = pd.read_csv(
        io.BytesIO(data), dtype=str, keep_default_na=False, encoding="utf-8-sig",
        usecols=None if columns is None else set(columns).__contains__,
    )  # fmt: skip
    if not _neutralised(data):
        return frame
    for column in frame.columns:
        quoted = frame[column].str.startswith("'")  # few: as_written on those alone
        if quoted.any():
            frame.loc[quoted, column] = frame.loc[quoted, column].map(as_written)
    return frame


def _neutralised(data: bytes) -> bool:
    """Whether a CSV file's bytes hold a field our writers neutralised: one starting with an
    apostrophe, after a comma, a line's end or an opening quote (no header does). Most files
    have none: each apostrophe is found at memchr speed and its byte before looked at (a
    pandas startswith over every column of a 10^6-row month costs 20 s, a regular
    expression over its bytes 5 s, three searches for two bytes 0.6 s, issue 42)."""
    at = data.find(b"'")
    while at != -1:
        if at and data[at - 1 : at] in (b",", b"\n", b'"'):
            return True
        at = data.find(b"'", at + 1)
    return False


class Cut:
    """A kept copy's index: row starts (the header's end first, the file's end last), each
    row's id and event as codes into ``ids`` and ``events``, and the file's column facts."""

    def __init__(self, arrays: dict[str, np.ndarray], data: mmap.mmap | bytes) -> None:
        self.starts = arrays["starts"]
        self.id_codes, self.ids = arrays["id_codes"], arrays["ids"]
        self.event_codes, self.events = arrays["event_codes"], arrays["events"]
        self.facts = _facts_of(arrays)
        self.data = data

    def rows(self, ids: Collection[str], events: Collection[str] = ()) -> np.ndarray:
        """The rows (in the file's order) of ``ids`` or of ``events``."""
        mask = np.isin(self.id_codes, _codes(self.ids, ids))
        if len(events) and len(self.event_codes):
            mask |= np.isin(self.event_codes, _codes(self.events, events))
        return np.flatnonzero(mask)

    def events_of(self, ids: Collection[str]) -> set[str]:
        """The events ``ids`` have rows in."""
        if not len(self.event_codes):
            return set()
        codes = self.event_codes[self.rows(ids)]
        return set(self.events[np.unique(codes)].tolist())

    def frame(self, rows: np.ndarray, columns: Sequence[str] | None) -> pd.DataFrame | None:
        """Those rows parsed as the whole file is (None: they are not the rows indexed)."""
        starts, data = self.starts, self.data
        text = b"".join(
            [data[: starts[0]], *(data[starts[row] : starts[row + 1]] for row in rows.tolist())]
        )
        frame = parse_csv(text, columns)
        if len(frame) != len(rows):
            return None
        if "id" in frame and not np.array_equal(
            frame["id"].to_numpy(str), self.ids[self.id_codes[rows]].astype(str)
        ):
            return None
        return frame


def _codes(known: np.ndarray, wanted: Collection[str]) -> np.ndarray:
    found: np.ndarray = pd.Index(known).get_indexer(pd.Index(list(wanted), dtype=object))
    return found[found >= 0]


def _facts_of(arrays: dict[str, np.ndarray]) -> pd.DataFrame | None:
    if "fact_columns" not in arrays:
        return None
    return pd.DataFrame(
        arrays["fact_values"], index=arrays["fact_columns"].tolist(),
        columns=arrays["fact_names"].tolist(),
    )  # fmt: skip


class RowCache:
    """The published CSV files of ``store`` as the site reads them: whole (kept beside the
    site in ``folder`` when they are cut later) or only some players' rows (``cut``).
    ``folder`` None: none kept (every file read whole)."""

    def __init__(self, store: Store, folder: Path | None, out: Path | None = None) -> None:
        self.store, self.folder, self.out = store, folder, out
        """``out``: where the period's files were published (``OUT/PERIOD/KIND/NAME``): a
        file found there with the bytes published is indexed in place, not copied."""
        self.facts: dict[tuple[Period, str], pd.DataFrame] = {}
        """calculations.csv's ``column_facts`` as ``whole`` found them, by period and path."""
        self.named: set[str] = set()
        """The copies the lists read name (``prune`` keeps those)."""
        self.cuts: dict[tuple[Period, str], dict[str, Cut | None]] = {}
        """Per deferred list (period, kind), the copies its rows are cut from, by name."""
        self.unfit: set[str] = set()
        """The copies found not to fit their file (``index``): kept again when read whole."""

    def whole(
        self, period: Period, path: str, columns: Sequence[str] | None = None
    ) -> pd.DataFrame | None:
        """A published CSV file read whole from the store (None: not stored); one the site
        cuts later kept beside it, with its index."""
        data = self.store.published_file(period, path)
        if data is None:
            return None
        frame = parse_csv(data, columns)
        if self.folder is not None and path.rpartition("/")[2] in CUT_FILES:
            digest = self.store.published_digest(period, path)
            if digest is not None:
                self.named.add(digest)
                with contextlib.suppress(OSError):  # a copy not kept: read whole next time
                    self._keep(period, path, digest, data, frame)
        return frame

    def index(self, period: Period, path: str) -> Cut | None:
        """The index of a published file's kept copy (None: none that fits its bytes)."""
        if self.folder is None:
            return None
        digest = self.store.published_digest(period, path)
        if digest is None:
            return None
        self.named.add(digest)
        found = _open(self.folder, digest, self._published(period, path))
        if found is None:
            self.unfit.add(digest)
        return found

    def _published(self, period: Period, path: str) -> Path | None:
        return None if self.out is None else self.out / str(period) / path

    def _keep(
        self, period: Period, path: str, digest: str, data: bytes, frame: pd.DataFrame
    ) -> None:
        """The file's index kept, and its bytes unless the period's folder holds them; each
        under a temporary name renamed in (the bytes first: an index names bytes that are
        there); of calculations.csv, with the columns' ``column_facts``."""
        assert self.folder is not None
        ends = _line_ends(data)
        if len(ends) != len(frame) + 1 or not data.endswith(b"\n"):
            return  # a field holding a line's end (or a blank line): this file is read whole
        if "id" not in frame:
            return
        if digest not in self.unfit and (self.folder / f"{digest}.{ROWS_VERSION}.npz").is_file():
            return  # kept before (a copy found not to fit is kept again)
        self.folder.mkdir(parents=True, exist_ok=True)
        id_codes, ids = pd.factorize(frame["id"])
        arrays: dict[str, np.ndarray] = {
            "digest": np.array(digest),
            "starts": (ends + 1).astype(np.int64),
            "id_codes": id_codes.astype(np.int32),
            "ids": np.asarray(ids, dtype=str),
            "event_codes": np.zeros(0, np.int32),
            "events": np.zeros(0, dtype=str),
        }
        if "event" in frame:
            event_codes, events = pd.factorize(frame["event"])
            arrays.update(event_codes=event_codes.astype(np.int32), events=np.asarray(events, str))
        if path.endswith("calculations.csv"):
            found = self.facts[(period, path)] = column_facts(frame)
            arrays.update(
                fact_columns=np.asarray(found.index, dtype=str),
                fact_names=np.asarray(found.columns, dtype=str),
                fact_values=found.to_numpy(bool),
            )
        if not _holds(self._published(period, path), data):
            write_replacing(self.folder / f"{digest}.csv", data)
        buffer = io.BytesIO()
        np.savez(buffer, allow_pickle=False, **arrays)
        write_replacing(self.folder / f"{digest}.{ROWS_VERSION}.npz", buffer.getvalue())

    def prune(self) -> None:
        """The copies no list read names removed (a list unpublished, another version's)."""
        if self.folder is None or not self.folder.is_dir():
            return
        for place in self.folder.iterdir():
            digest, _, rest = place.name.partition(".")
            if digest not in self.named or rest not in ("csv", f"{ROWS_VERSION}.npz"):
                with contextlib.suppress(OSError):
                    place.unlink()


#: The bytes looked at a time (``_line_ends``, ``_holds``): a 10^6-row file is ~140 MB, and
#: the site's memory is publish's peak.
CHUNK = 1 << 24


def _line_ends(data: bytes) -> np.ndarray:
    """Where each line of ``data`` ends (its line feed), a chunk at a time."""
    array = np.frombuffer(data, dtype=np.uint8)
    found = [np.zeros(0, np.int64)]
    for at in range(0, len(array), CHUNK):
        found.append(np.flatnonzero(array[at : at + CHUNK] == ord("\n")) + at)
    return np.concatenate(found)


def _holds(place: Path | None, data: bytes) -> bool:
    """Whether the file at ``place`` holds ``data`` (read a chunk at a time)."""
    if place is None:
        return False
    view = memoryview(data)
    try:
        with open(place, "rb") as handle:
            for at in range(0, len(data), CHUNK):
                if handle.read(CHUNK) != view[at : at + CHUNK]:
                    return False
            return handle.read(1) == b""
    except OSError:
        return False


def _open(folder: Path, digest: str, published: Path | None) -> Cut | None:
    """The index of the file ``digest`` names, and its bytes (the period's file as
    published, else the copy kept), when they hash to that name and the index was made of
    them."""
    try:
        with np.load(folder / f"{digest}.{ROWS_VERSION}.npz", allow_pickle=False) as saved:
            arrays = {name: saved[name] for name in saved.files}
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile, zlib.error):
        return None  # missing, or spoilt (cut short, bytes changed): the list is read whole
    starts = arrays.get("starts")
    if (
        str(arrays.get("digest")) != digest
        or starts is None
        or len(starts) != len(arrays.get("id_codes", ())) + 1
    ):
        return None
    for place in (published, folder / f"{digest}.csv"):
        data = _mapped(place)
        if data is None:
            continue
        if int(starts[-1]) == len(data) and hashlib.sha256(data).hexdigest() == digest:
            return Cut(arrays, data)
        data.close()
    return None


def _mapped(place: Path | None) -> mmap.mmap | None:
    if place is None:
        return None
    try:
        with open(place, "rb") as handle:
            return mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ)
    except (OSError, ValueError):  # missing, unreadable, or empty (no mapping)
        return None
