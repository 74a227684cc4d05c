"""Which of the site's pages a publish must write (docs/site.md §2, issue 42): the site's cost
follows who played, not the list's size.

A manifest in the site's folder (``.pages.json``, a dot-file a web host does not list) keeps
a **fingerprint** of what every page depends on (the package's templates, stylesheet and
script, the ``[site]`` settings and logo, the system's notation, rating_batch's version, the
layout's version, the published lists) and a **digest** per player of the rows his page is
made from (his rating changes, identity, events, norms, last calculation). A publish whose
lists are the manifest's plus a new period (or the same, published again) writes only the new
period's folder (staged and renamed in), ``index.html``, the player pages whose digest changed
or that are new, and the older event pages that now link a new player's page (or no longer a
removed one); each page is replaced in place (a temporary name beside it, ``os.replace``).
Anything else (no manifest, another fingerprint, a file the site does not write) is a full
rewrite, as ``monthly/site.py`` does it.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import json
import os
import re
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path

import numpy as np
import pandas as pd

from rating_batch.portable import write_replacing
from rating_batch.staging import staged_outputs
from rating_batch.writers.site import (
    PERIOD_PAGES,
    SITE_FILES,
    Layout,
    Settings,
    SiteList,
    event_dates,
    stems_of,
    write_events,
    write_index,
    write_list_pages,
)
from rating_batch.writers.site_games import played
from rating_batch.writers.site_history import HISTORY_COLUMNS, change_rows, history
from rating_batch.writers.site_players import Worked, player_pages

#: The manifest's name in the site's folder.
MANIFEST = ".pages.json"

#: The site's layout: raised when what a page shows is made differently (every page changes,
#: so the next publish writes the whole site).
LAYOUT_VERSION = 2


@dataclass(frozen=True)
class Manifest:
    """What the site in a folder was written from: ``fingerprint`` (``fingerprint``),
    each player's page digest by id (``page_digests``), and the sums it was made of: those
    of the lists before the newest period (``older``) and of the newest's (``newest``)."""

    fingerprint: str
    digests: dict[str, str]
    older: dict[str, str] | None = None
    newest: dict[str, str] | None = None

    def text(self) -> str:
        return json.dumps(
            {"layout": LAYOUT_VERSION, "fingerprint": self.fingerprint, "pages": self.digests,
             "older": self.older, "newest": self.newest},
            separators=(",", ":"),
        )  # fmt: skip


def manifest_of(fingerprinted: str, digests: pd.Series, older: Sums, newest: Sums) -> Manifest:
    """The manifest of a site written with ``digests`` (``page_digests``' three answers)."""
    return Manifest(
        fingerprinted,
        dict(zip(digests.index.astype(str), digests.astype(str), strict=True)),
        {str(key): text for key, text in _texts(older).items()},
        {str(key): text for key, text in _texts(newest).items()},
    )


def read_manifest(folder: Path) -> Manifest | None:
    """The manifest of the site in ``folder`` (None: none, or not one we can read)."""
    try:
        data = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
        found = Manifest(
            str(data["fingerprint"]), dict(data["pages"]), data.get("older"), data.get("newest")
        )
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return found if data.get("layout") == LAYOUT_VERSION else None


def fingerprint(
    lists: Sequence[SiteList],
    settings: Settings,
    notation: Mapping[str, tuple[str, int]],
    system: str,
) -> str:
    """What every page depends on: the site's templates, stylesheet and script, the code
    that lays its pages out (``writers/site*.py``, ``writers/html.py``: a change there, even
    without a new version, makes the next publish write the whole site), ``[site]`` (its
    logo's bytes too), the system and its notation, rating_batch's version, the layout's
    version, and which lists are published (period and kind)."""
    digest = _sources(resources.files("rating_batch")).copy()
    logo = settings.logo
    described = [
        LAYOUT_VERSION, importlib.metadata.version("rating_batch"), system,
        sorted(notation.items()), settings.title,
        settings.language, settings.top, settings.junior_age, settings.senior_age,
        None if logo is None else [logo.extension, hashlib.sha256(logo.data).hexdigest()],
        [[str(each.period), each.kind] for each in lists],
    ]  # fmt: skip
    digest.update(json.dumps(described, default=str).encode())
    return digest.hexdigest()


#: ``_sources``' hashes by the package's folder.
_SOURCES: dict[str, hashlib._Hash] = {}


def _sources(package: Traversable) -> hashlib._Hash:
    """The hash of the site's templates and layout code under ``package`` (``fingerprint``),
    read once per process and folder: the code running does not change under it (a publish
    computes two fingerprints, the desk many; reading ~20 files each time was ~2 ms, issue
    42)."""
    found = _SOURCES.get(str(package))
    if found is not None:
        return found
    digest = hashlib.sha256()
    templates, writers = package.joinpath("templates"), package.joinpath("writers")
    sources = [
        *((templates, n) for n in sorted(t.name for t in templates.iterdir())
          if n.startswith("site")),
        *((writers, n) for n in sorted(w.name for w in writers.iterdir())
          if n.endswith(".py") and (n.startswith("site") or n == "html.py")),
    ]  # fmt: skip
    for folder, name in sources:
        digest.update(name.encode() + b"\0" + folder.joinpath(name).read_bytes() + b"\0")
    _SOURCES[str(package)] = digest
    return digest


#: A player's sums of row hashes: two 32-bit halves summed (exact in int64), by id.
Sums = pd.DataFrame


def page_digests(
    lists: Sequence[SiteList], worked: Worked | None, frozen: Sums | None = None
) -> tuple[pd.Series, Sums, Sums]:
    """Each listed player's digest (by id) of the rows his page is made from: his rating
    changes and identity (``change_rows``), and of each list his events, norms, calculations
    (with his players.csv rows there, which a system's worked lines read); and the sums of
    the lists before the newest period (``frozen`` when given: the manifest's, a published
    list's rows never change) and of the newest period's, which the manifest keeps. Per row
    ``pandas.util.hash_pandas_object``, summed per player as two 32-bit halves (exact in
    int64), so a row changed, added, removed or moved changes it."""
    rows = history(lists)
    if rows.empty:  # no list published (all taken back): no page
        return pd.Series(dtype=object), _sums([]), _sums([])
    shown_columns = ["id", "kind", "period", "rating", "change", "games", "title", "left"]
    listed = _sums([
        ("changes", change_rows(rows, lists)[shown_columns]),
        ("facts", rows.drop_duplicates("id", keep="last")[list(HISTORY_COLUMNS[:5])]),
    ])  # fmt: skip
    newest = lists[-1].period
    if frozen is None:
        frozen = _sums([p for each in lists if each.period != newest for p in _parts(each, worked)])
    latest = _sums([p for each in lists if each.period == newest for p in _parts(each, worked)])
    halves = listed.add(frozen, fill_value=0).add(latest, fill_value=0).astype(np.int64)
    digests = _texts(halves)
    return digests[digests.index.isin(rows["id"])], frozen, latest  # a page for the listed


def _parts(each: SiteList, worked: Worked | None) -> list[tuple[str, pd.DataFrame]]:
    """A list's rows a player's page is made from: his events, norms, calculations (every
    row of his: which of them a page shows follows from the periods he has rows in)."""
    where = {"period": str(each.period), "kind": each.kind}
    parts = []
    results = played(each.games)
    if not results.empty:
        events = each.events.set_index("key")
        dates = event_dates(each.events).set_axis(events.index)
        named = results.assign(
            name=results["event"].map(events["name"]),
            dates=results["event"].map(dates),
            **where,
        )
        parts.append(("played", named))
    if each.norms is not None:
        parts.append(("norms", each.norms.assign(**where)))
    mine = each.calculations
    if mine is not None and not mine.empty:
        # Whether his calculation links each event's page (``_event_links``).
        pages = [name[7:-5] for name in each.files if name.startswith("events/")]
        linked = mine["event"].isin(pages) if "event" in mine else False
        parts.append(("calculation", mine.assign(linked=linked, **where)))
        if worked is not None and each.players is not None:
            people = each.players[each.players["id"].isin(mine["id"])]
            parts.append(("players", people.assign(**where)))
    return parts


def _sums(parts: Sequence[tuple[str, pd.DataFrame]]) -> Sums:
    """Per id, the sums of the halves of its rows' hashes over ``parts``."""
    ids, hashes = [np.zeros(0, object)], [np.zeros(0, np.uint64)]
    for tag, part in parts:
        ids.append(part["id"].to_numpy(object))
        hashes.append(_row_hashes(part, tag))
    every = pd.DataFrame({"id": np.concatenate(ids), "h": np.concatenate(hashes)})
    h = every["h"].to_numpy(np.uint64)
    return (
        every.assign(
            high=(h >> np.uint64(32)).astype(np.int64),
            low=(h & np.uint64(0xFFFFFFFF)).astype(np.int64),
        )
        .groupby("id", sort=False)[["high", "low"]]
        .sum()
    )


#: Cells hashed in one call by ``_row_hashes`` (2^20): a small site's parts in one, a large
#: one's a column at a time (its texts in one call would hold every cell twice over: +850 MB
#: on the 10^6 month).
HASHED_AT_ONCE = 1 << 20


def _row_hashes(part: pd.DataFrame, tag: str) -> np.ndarray:
    """Each row's hash as ``pandas.util.hash_pandas_object(frame, index=False)`` gives it of
    the row's texts followed by ``tag`` and the row's place among its id's rows (0, 1, …):
    the columns' texts hashed together, up to ``HASHED_AT_ONCE`` cells a call (each text
    on its own, a missing one as u8max), then combined per row as pandas combines columns
    (CPython's tuple hash): a pandas call per column was most of a small site's digests
    (issue 42)."""
    rows = len(part)
    codes, _ = pd.factorize(part["id"])
    by_id = np.argsort(codes, kind="stable")
    starts = np.flatnonzero(np.diff(codes[by_id], prepend=-2))
    order = np.empty(rows, np.int64)
    order[by_id] = np.arange(rows) - np.repeat(starts, np.diff(np.append(starts, rows)))
    names = list(part.columns)
    columns = len(names) + 2  # the part's, its tag, the row's place

    def text(at: int) -> np.ndarray:
        if at < len(names):
            return part[names[at]].astype(str).to_numpy(object)
        return np.full(rows, tag, object) if at == len(names) else order.astype(str).astype(object)

    each_call = max(1, HASHED_AT_ONCE // max(rows, 1))
    out = np.full(rows, 0x345678, np.uint64)
    mult = np.uint64(1000003)
    for first in range(0, columns, each_call):
        block = [text(at) for at in range(first, min(first + each_call, columns))]
        hashed = pd.util.hash_array(np.concatenate(block)).reshape(len(block), rows)
        for at, column in enumerate(hashed, start=first):
            out ^= column
            out *= mult
            mult += np.uint64(82520 + 2 * (columns - at))
    return out + np.uint64(97531)


def _texts(halves: Sums) -> pd.Series:
    """Sums as the manifest writes them (``high.low`` in hexadecimal), by id."""
    high, low = (halves[column].map("{:x}".format).astype(object) for column in ("high", "low"))
    return high + "." + low


def _halves(texts: Mapping[str, str]) -> Sums:
    """The manifest's sums (``_texts``) read back."""
    split = pd.Series(texts, dtype=object).str.split(".", n=1, expand=True)
    if split.empty:
        return _sums([])
    return pd.DataFrame(
        {column: split[n].map(lambda text: int(text, 16)).astype(np.int64)
         for n, column in enumerate(("high", "low"))},
        index=split.index.rename("id"),
    )  # fmt: skip


def matching(
    manifest: Manifest | None,
    lists: Sequence[SiteList],
    settings: Settings,
    notation: Mapping[str, tuple[str, int]],
    system: str,
) -> tuple[str, str | None]:
    """This site's fingerprint, and what the site in place was written from by its
    ``manifest``: "new" (the lists before the newest period: a new period), "again" (these
    lists: published again), or None (no manifest, or anything else: a full rewrite)."""
    current = fingerprint(lists, settings, notation, system)
    if manifest is None or not lists:
        return current, None
    older = [each for each in lists if each.period != lists[-1].period]
    if manifest.fingerprint == fingerprint(older, settings, notation, system):
        return current, "new"
    return current, "again" if manifest.fingerprint == current else None


def frozen_sums(manifest: Manifest | None, case: str | None) -> Sums | None:
    """The sums of the lists before the newest period as the manifest keeps them, when it
    was written from those lists (``case`` "new": its older and newest sums) or from these
    ("again": its older sums); None: they must be hashed."""
    if manifest is None or manifest.older is None or manifest.newest is None:
        return None
    if case == "new":
        both = _halves(manifest.older).add(_halves(manifest.newest), fill_value=0)
        return both.astype(np.int64)
    return _halves(manifest.older) if case == "again" else None


def site_state(folder: Path) -> tuple[set[str], bool]:
    """The player pages in the site's ``folder`` (their stems), and whether it holds a file
    the site does not write (the officer's own: a full rewrite then, which refuses it)."""
    ours = re.compile(SITE_FILES)
    stems: set[str] = set()
    foreign = False
    for top, folders, files in os.walk(folder):
        relative = os.path.relpath(top, folder).replace(os.sep, "/")
        if relative == "players":
            stems = {name[:-5] for name in files if name.endswith(".html")}
            foreign = foreign or any(not ours.fullmatch(f"players/{n}") for n in files)
            foreign = foreign or bool(folders)
            folders.clear()
            continue
        prefix = "" if relative == "." else relative + "/"
        for name in [*files, *folders]:
            foreign = foreign or not ours.fullmatch(prefix + name)
    return stems, foreign


def write_changed(
    lists: Sequence[SiteList],
    layout: Layout,
    settings: Settings,
    pages: pd.Series,
    folder: Path,
    out: Path,
    worked: Worked | None,
    manifest: Manifest | None,
    case: str | None,
    digests: pd.Series,
    written: Manifest,
    cut: Callable[[Collection[str], Collection[str]], list[SiteList]] | None = None,
) -> int | None:
    """The pages a publish changes written in place of the site in ``folder`` (see the
    module's text), when its ``manifest`` allows it (``matching``'s ``case``), and the
    manifest ``written`` (of ``digests``); the player pages written (None: the whole site
    must be written, nothing was). ``cut``: ``lists`` with the rows of the players whose
    pages are written, and of the events of those with a page new or gone
    (``site.cut_lists``: the older lists are read for those alone)."""
    if manifest is None or case is None:
        return None
    newest = lists[-1].period
    older = [each for each in lists if each.period != newest]
    present, foreign = site_state(folder)
    if foreign:
        return None
    before = pd.Series(manifest.digests, dtype=object)
    changed = digests[digests.ne(before.reindex(digests.index)).to_numpy(bool)]
    missing = pages[~pages.isin(present)]  # a page deleted by hand is written again
    write = pd.Index(changed.index).union(pd.Index(missing.index))
    gone = before.index.difference(digests.index)
    # An older event page links a player when he has a page: one new (or gone) changes it.
    moved = set(digests.index.difference(before.index)) | set(gone)
    if cut is not None:
        lists = cut({*write.astype(str), *moved}, moved)
        older = [each for each in lists if each.period != newest]
    # Until the new manifest is in place, none: a publish stopped among the pages (a kill, a
    # full disk) leaves a site the next one writes whole, never pages it takes for the old.
    (folder / MANIFEST).unlink(missing_ok=True)
    made = 0
    for stems, texts in player_pages(lists, layout, pages, worked, write):
        for stem, text in zip(stems, texts, strict=True):
            replace_text(folder / "players" / f"{stem}.html", text)
        made += len(stems)
    for stem in stems_of(pd.Series(gone, dtype="string")):
        (folder / "players" / f"{stem}.html").unlink(missing_ok=True)
    for each in older:
        games = None if each.games is None else each.games[each.games["id"].isin(moved)]
        results = played(games)
        events = set(results.loc[results["id"].isin(moved), "event"])
        if events:
            write_events(each, layout, pages, folder / each.folder, replace_text, events)
    with staged_outputs(out) as outputs:
        outputs.own(folder / str(newest), PERIOD_PAGES)
        for each in lists:
            if each.period == newest:
                write_list_pages(each, layout, settings, pages, folder, outputs)
        write_index(lists, layout, folder, outputs)
    replace_text(folder / MANIFEST, written.text())
    return made


def replace_text(path: Path, text: str) -> None:
    """``path`` replaced by ``text`` at once (a web server serves the old page or the new,
    never half of one: ``portable.write_replacing``)."""
    write_replacing(path, text)
