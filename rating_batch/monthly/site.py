"""The federation's web site (docs/site.md): every published list as pages under
``OUT/site/``, read from the files each publish kept in the database (a published list never
changes, so neither do its pages), written whole into a staging folder and switched in.

``publish`` writes it after each new list; ``rating-batch site --out OUT`` writes it again,
as after ``unpublish``. The site is plain files (no server code): any web host serves it.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import NamedTuple

import numpy as np
import pandas as pd

from rating_batch.errors import RatingBatchError, RulesError
from rating_batch.monthly.site_pages import (
    MANIFEST,
    frozen_sums,
    manifest_of,
    matching,
    page_digests,
    read_manifest,
    write_changed,
)
from rating_batch.monthly.site_rows import CUT_FILES, ROWS_FOLDER, Cut, RowCache
from rating_batch.monthly.site_settings import SiteSettings, site_settings
from rating_batch.periods import Period
from rating_batch.pipelines.registry import database_system
from rating_batch.pipelines.state.system import StatePipeline
from rating_batch.staging import OutputProblem, staged_outputs
from rating_batch.store import Store, open_store
from rating_batch.store.places import keep_out_of_stores
from rating_batch.writers.site import (
    SITE_FILES,
    SiteList,
    player_stems,
    ranked_lists,
    site_layout,
    write_site_pages,
)
from rating_batch.writers.site_games import GAME_COLUMNS
from rating_batch.writers.site_players import write_player_pages

#: The site's folder under ``--out``.
SITE_FOLDER = "site"

#: The published files the site carries (under ``PERIOD/KIND/files/``), for download and
#: for the event pages; players.csv, games.csv and calculations.csv stay in the period's folder.
CARRIED = (
    "list.csv", "list.xlsx", "list.txt", "changes.csv", "report.xlsx", "index.html",
    "msa.html",  # US Chess's crosstable, which index.html links
)  # fmt: skip


#: What to do about a ``[site]`` problem found when the site is written: its text is the one
#: ``init`` checked, so only the logo's file can have changed since (docs/site.md §3).
LOGO_FIX = "the logo is read from its path each time the web site is written: put the image there"


class SiteNotWritten(RatingBatchError):
    """The web site could not be written; what was done before it (a publish) stands."""


def check_site(store: Store) -> None:
    """Before a publish changes anything: refuse it when the site it writes could not be
    written for its ``[site]`` settings (a logo that is no longer an image: the site never
    carries another file, and a list is not published without its site)."""
    text, source = store.meta("rules_text"), store.meta("rules") or ""
    if not site_settings(text, source, logo=False).with_publish:
        return  # 'rating-batch site' writes it, and checks the logo then
    try:
        site_settings(text, source)
    except RulesError as problem:
        raise RulesError(f"{problem}; nothing was published: {LOGO_FIX}") from None


class SiteWritten(NamedTuple):
    """What ``write_site`` wrote: the site's folder, how many player pages of how many."""

    folder: Path
    pages: int
    players: int


def write_site(store: Store, out: Path, *, publishing: bool = False) -> SiteWritten | None:
    """The whole site of ``store``'s published lists under ``out/site``, replacing the one
    there (a half-written site is never in place); or, ``publishing`` over a site whose
    manifest allows it, only the pages the new list changed, each in place
    (``site_pages.write_changed``): what it wrote. ``publishing``: as
    part of a publish, which writes it unless ``[site] with_publish = false`` (None)."""
    try:
        settings = site_settings(store.meta("rules_text"), store.meta("rules") or "")
    except RulesError as problem:  # the logo, read again now (``check_site``)
        raise SiteNotWritten(
            f"the web site was not written: {problem}; the published lists and their files "
            f"are in place: {LOGO_FIX}, and 'rating-batch site --out {out}' writes the site"
        ) from None
    if publishing and not settings.with_publish:
        return None
    system = database_system(store)
    folder = out / SITE_FOLDER
    # A publish takes the older lists' part of each digest from the site's manifest, and
    # their rows of the players whose pages it writes from the copies beside the site.
    manifest = read_manifest(folder) if publishing else None
    rows = RowCache(store, out / ROWS_FOLDER, out)
    lists = read_site_lists(store, rows, deferred=manifest is not None)
    lists = ranked_lists(lists, system.lower_is_better)
    pages = player_stems(lists)
    # The system's symbols and decimals head and round its own columns (docs/site.md §1).
    notation = system.system.notation if isinstance(system, StatePipeline) else {}
    # Its worked lines stand under a player's calculation (the DWZ's form, §10.9).
    worked = system.system.worked if isinstance(system, StatePipeline) else None
    layout = site_layout(settings, notation)
    name = type(system.system).__name__ if isinstance(system, StatePipeline) else "elo"
    current, case = matching(manifest, lists, settings, notation, name)
    frozen = frozen_sums(manifest, case)
    if frozen is None:  # every list's rows are hashed, and (case None) every page written
        lists = whole_lists(rows, lists)
    digests, older, newest = page_digests(lists, worked, frozen)
    written = manifest_of(current, digests, older, newest)
    try:
        if publishing:  # only the pages this list changed, where the site in place allows it
            made = write_changed(
                lists, layout, settings, pages, folder, out, worked, manifest, case, digests,
                written, lambda ids, moved: cut_lists(rows, lists, ids, moved),
            )  # fmt: skip
            if made is not None:
                rows.prune()
                return SiteWritten(folder, made, len(pages))
            lists = whole_lists(rows, lists)
        with staged_outputs(out) as outputs:
            outputs.own(folder, SITE_FILES)
            write_site_pages(lists, settings, pages, folder, outputs, notation)
            write_player_pages(lists, layout, pages, folder / "players", outputs, worked)
            outputs.path(folder / MANIFEST).write_text(written.text(), encoding="utf-8")
        rows.prune()
    except OSError as problem:  # a page replaced in place
        raise SiteNotWritten(
            f"the web site was not written: {problem.filename}: {problem.strerror}; the "
            f"published lists and their files are in place, and 'rating-batch site --out "
            f"{out}' writes the site"
        ) from None
    except OutputProblem as problem:
        # After publish's commit: the list stands whatever becomes of its pages.
        raise SiteNotWritten(
            f"the web site was not written: {problem}; the published lists and their files "
            f"are in place, and 'rating-batch site --out {out}' writes the site"
        ) from None
    return SiteWritten(folder, len(pages), len(pages))


def site_from_database(db: Path, out: Path, wait: float) -> str:
    """``rating-batch site``: the site written again from ``db``; what was written."""
    with open_store(db, wait=wait) as store:
        keep_out_of_stores(store.places, out)
        written = write_site(store, out)
        assert written is not None  # only a publish may leave the site to 'site'
        published = store.lists()
    count = int((published["origin"] == "publish").sum())
    return f"wrote {written.folder}/index.html: {count} published list(s)"


def read_site_lists(
    store: Store, rows: RowCache | None = None, *, deferred: bool = False
) -> list[SiteList]:
    """Every published list, oldest first, each with the change against the previous
    published list of its kind (NA for a player not on it; on the first published list of
    a kind, NA for all: the list before it was imported, docs/site.md §1). ``rows``: how
    its files are read (``site_rows.RowCache``; None: whole, nothing kept). ``deferred``:
    the lists before the newest period without their games, players and calculations,
    ``partial`` (``site_rows.cut_lists`` reads the rows of the players whose pages are
    written), where the site keeps a copy of those files to cut them from."""
    rows = rows or RowCache(store, None)
    lists = store.lists()
    newest = lists.loc[lists["origin"] == "publish", "period"].max()
    result: list[SiteList] = []
    # Per kind: the origin of its latest list so far (init or publish), and that list as
    # the site read it when it was a published list with files (else None).
    origin: dict[str, str] = {}
    previous: dict[str, pd.DataFrame | None] = {}
    for period_text, kind_text, made in lists[["period", "kind", "origin"]].itertuples(index=False):
        kind = str(kind_text)
        after_published = origin.get(kind) == "publish"
        origin[kind] = str(made)
        if made != "publish":
            continue
        period = Period.parse(str(period_text))
        listing = rows.whole(period, f"{kind}/list.csv")
        previous_listing = previous.get(kind)
        previous[kind] = listing
        if listing is None:
            continue  # published by an older rating_batch, which kept no files
        rating = pd.to_numeric(listing["rating"], errors="coerce")
        change = pd.Series(np.nan, index=listing.index)
        if after_published:
            changes = rows.whole(period, f"{kind}/changes.csv", CHANGE_COLUMNS)
            if changes is not None:
                change = _listed_changes(listing, changes)
            elif previous_listing is not None:
                # No changes.csv: the other systems' publish writes none (pipelines/state;
                # the Glicko-2 change of tests/monthly/test_site_numbers.py needs this), so
                # the change is their list.csv's rating against the previous list's.
                old = pd.to_numeric(previous_listing["rating"], errors="coerce")
                old = old.set_axis(previous_listing["id"])
                change = rating - listing["id"].map(old[~old.index.duplicated()])
        listing = listing.assign(rating_value=rating, change_value=change)
        each = SiteList(
            period=period,
            kind=kind,
            listing=listing,
            players=None,
            games=None,
            calculations=None,
            events=store.events(period),
            files=_Carried(store, period, kind),
            norms=_made(rows.whole(period, f"{kind}/norms.csv")),
        )
        cut = deferred_list(rows, each) if deferred and period_text != newest else None
        result.append(cut or whole_list(rows, each))
    return result


def whole_lists(rows: RowCache, lists: Sequence[SiteList]) -> list[SiteList]:
    """``lists`` with each ``partial`` one read whole (``whole_list``)."""
    return [whole_list(rows, each) if each.partial else each for each in lists]


def whole_list(rows: RowCache, each: SiteList) -> SiteList:
    """``each`` with its games, players and calculations read whole."""
    period, kind = each.period, each.kind
    games = rows.whole(period, f"{kind}/games.csv", GAME_COLUMNS)
    return replace(
        each,
        players=rows.whole(period, f"{kind}/players.csv"),
        games=games,
        calculations=rows.whole(period, f"{kind}/calculations.csv"),
        events=_events(each.events, None if games is None else games["event"].unique()),
        partial=False,
        facts=rows.facts.get((period, f"{kind}/calculations.csv")),  # None: decided anew
    )


def deferred_list(rows: RowCache, each: SiteList) -> SiteList | None:
    """``each`` without its games, players and calculations, ``partial``, when the site
    keeps a copy of each of them (stored) to cut its players' rows from (``cut_lists``):
    its events are those of its games' copy; None: it must be read whole."""
    found: dict[str, Cut | None] = {}
    fits = True
    for name in CUT_FILES:
        path = f"{each.kind}/{name}"
        if rows.store.published_digest(each.period, path) is None:
            found[name] = None  # not published with this list: none to read either way
            continue
        found[name] = rows.index(each.period, path)  # every one looked at: kept again
        fits = fits and found[name] is not None
    if not fits:
        return None
    games, calculations = found["games.csv"], found["calculations.csv"]
    if calculations is not None and calculations.facts is None:
        return None
    rows.cuts[(each.period, each.kind)] = found
    return replace(
        each,
        events=_events(each.events, None if games is None else games.events.tolist()),
        partial=True,
        facts=None if calculations is None else calculations.facts,
    )


def cut_lists(
    rows: RowCache, lists: Sequence[SiteList], ids: Collection[str], moved: Collection[str]
) -> list[SiteList]:
    """The ``partial`` lists with the rows their pages need of ``ids`` (the players whose
    pages are written) and, for the event pages of ``moved`` (players with a new page, or
    none any longer), every row of the events they played: their games and calculations,
    and players.csv's rows of each player in those games; any other list as it is."""
    result = []
    for each in lists:
        found = rows.cuts.get((each.period, each.kind))
        if not each.partial or found is None:
            result.append(each)
            continue
        games, players = found["games.csv"], found["players.csv"]
        calculations = found["calculations.csv"]
        events = set() if games is None else games.events_of(moved)
        frames: dict[str, pd.DataFrame | None] = {"games.csv": None}
        if games is not None:
            frames["games.csv"] = games.frame(games.rows(ids, events), GAME_COLUMNS)
        played_rows = frames["games.csv"]
        people = set(ids) | (set() if played_rows is None else set(played_rows["id"]))
        # An event page's "rating before" is its players' calculation rows of the event.
        for name, cut, wanted, of in (("players.csv", players, people, ()),
                                      ("calculations.csv", calculations, ids, events)):  # fmt: skip
            frames[name] = None if cut is None else cut.frame(cut.rows(wanted, of), None)
        if any(frames[name] is None and found[name] is not None for name in CUT_FILES):
            result.append(whole_list(rows, each))  # a copy that does not fit: read whole
            continue
        games_rows, players_rows = frames["games.csv"], frames["players.csv"]
        calculation_rows = frames["calculations.csv"]
        result.append(
            replace(each, games=games_rows, players=players_rows, calculations=calculation_rows)
        )
    return result


#: What the site reads of changes.csv (``_listed_changes``).
CHANGE_COLUMNS = ("change", "id", "difference")


def _listed_changes(listing: pd.DataFrame, changes: pd.DataFrame) -> pd.Series:
    """Each listed player's change as the list's changes.csv gives it (FIDE Elo's publish,
    ``list_changes``: against the previous list of the kind, by person, so
    a FIDE ID given or corrected since keeps the player's change): a ``rating`` row's
    ``difference``; NA for a player ``new`` on the list; 0 for anyone else (on both lists,
    his rating unchanged: changes.csv has no row for him)."""
    what = changes["change"]
    rated = changes[what == "rating"].drop_duplicates("id").set_index("id")["difference"]
    change = listing["id"].map(pd.to_numeric(rated, errors="coerce")).fillna(0.0)
    return change.mask(listing["id"].isin(changes.loc[what == "new", "id"]))


def _made(norms: pd.DataFrame | None) -> pd.DataFrame | None:
    """The norms made, of a period's norms.csv (None: none, or no norms.csv)."""
    if norms is None:
        return None
    made = norms[norms["norm"].str.lower().eq("true").to_numpy(bool)]
    return made if len(made) else None


def _events(events: pd.DataFrame, rated: Iterable[object] | None) -> pd.DataFrame:
    """A list's events: those its games.csv names (``rated``, its distinct event keys: an
    event filed under one kind may be rated for another too, docs/systems.md §9.1): key,
    name, start, end (text)."""
    events = events[events["key"].isin([] if rated is None else rated)]
    return events[["key", "name", "start", "end"]].astype("string").fillna("")


class _Carried(Mapping[str, bytes]):
    """The published files the site carries for a list, by path within its folder: each
    read from the store when asked for (a month's event pages are written one by one, not
    held at once)."""

    def __init__(self, store: Store, period: Period, kind: str) -> None:
        self._store, self._period, self._kind = store, period, kind
        self._names = [
            name
            for head, _, name in (path.partition("/") for path in store.published_paths(period))
            if head == kind and (name in CARRIED or name.startswith(("events/", "norms/")))
        ]
        self._known = set(self._names)

    def __getitem__(self, name: str) -> bytes:
        if name not in self._known:
            raise KeyError(name)
        return self._store.published_file(self._period, f"{self._kind}/{name}") or b""

    def __iter__(self) -> Iterator[str]:
        return iter(self._names)

    def __len__(self) -> int:
        return len(self._names)

    def __contains__(self, name: object) -> bool:
        return name in self._known


__all__ = [
    "SITE_FOLDER",
    "SiteSettings",
    "check_site",
    "read_site_lists",
    "site_from_database",
    "write_site",
]
