"""The federation's web site: static pages of every published list (docs/site.md).

``site/index.html`` links every list, newest first; each list has its page (filters and sort
by the vendored ``site.js``, no server), its top lists, a page per event and the files
publish wrote; every player on a list has a page (``writers/site_players.py``). Pages of one
shape are one rendering of a template whose per-page values are columns (``page_parts``), so
10^5 player pages cost a few column operations and the writing of the files.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from importlib import resources
from pathlib import Path
from typing import Protocol
from urllib.parse import quote

import numpy as np
import pandas as pd

from rating_batch.periods import Period, list_date
from rating_batch.staging import OutputSet
from rating_batch.writers.common import half_away_text
from rating_batch.writers.html import (
    Parts,
    escaped_texts,
    fill_parts,
    page_parts,
    render,
    section_anchor,
)
from rating_batch.writers.site_games import played, points
from rating_batch.writers.site_labels import LANGUAGES

#: What a period's folder of the site holds (paths relative to it); a page replaced in place
#: is written first under a hidden temporary name beside it (``.NAME.PID.tmp``).
PERIOD_PAGES = (
    r"(standard|rapid|blitz)(/(list\.html|top\.html|event(/[^/]+\.html|/\.[^/]+\.tmp)?|"
    r"files(/[^/]+|/events(/[^/]+\.html)?|/norms(/[^/]+(/[^/]+\.html)?)?)?))?"
)
#: What a site's folder holds (paths relative to it): anything else there is not ours.
#: ``.pages.json``: which page was made from what (``monthly/site_pages.py``).
SITE_FILES = (
    r"index\.html|site\.(css|js)|logo\.[A-Za-z0-9]+|\.pages\.json|\.[^/]+\.tmp|"
    r"players(/[^/]+\.html|/\.[^/]+\.tmp)?|[0-9]{4}-[0-9]{2}(/" + PERIOD_PAGES + ")?"
)

#: A list's columns every system writes (docs/formats.md), shown in this order.
IDENTITY = ("name", "federation", "title", "birth_year")
#: list.csv columns never shown as a column of the page (their values are in others).
HIDDEN = {
    "id",
    "sex",
    "w_title",
    "o_title",
    "foa_title",
    "rating",
    "games",
    "rating_value",
    # The ECF's P-method pool (docs/systems.md §12): the calculation's working, carried to
    # the next list, no number a reader of the list looks for.
    "pool_opponents",
    "pool_points",
    "change_value",
}


class Image(Protocol):
    """An image file the site carries, as it was read and checked (``site_settings.Logo``)."""

    @property
    def data(self) -> bytes: ...
    @property
    def extension(self) -> str: ...


class Settings(Protocol):
    """What the pages take from the rules file's ``[site]`` (``SiteSettings``)."""

    @property
    def title(self) -> str: ...
    @property
    def logo(self) -> Image | None: ...
    @property
    def language(self) -> str: ...
    @property
    def top(self) -> int: ...
    @property
    def junior_age(self) -> int: ...
    @property
    def senior_age(self) -> int: ...


@dataclass(frozen=True)
class SiteList:
    """A published list as the site shows it: its files as written (text columns)."""

    period: Period
    kind: str
    listing: pd.DataFrame
    """list.csv, with ``rating_value`` and ``change_value`` (against the previous published
    list of the kind: changes.csv's, ``monthly/site.read_site_lists``)."""
    players: pd.DataFrame | None
    games: pd.DataFrame | None
    """games.csv's columns the site reads (``GAME_COLUMNS``)."""
    calculations: pd.DataFrame | None
    events: pd.DataFrame
    """key, name, start, end."""
    files: Mapping[str, bytes]
    """The published files the site carries, by path within the list's folder (each read
    when it is written: a month's event pages need not all be held at once)."""
    norms: pd.DataFrame | None = None
    """The period's norms.csv (FIDE's standard lists, docs/norms.md §8): the norms made."""
    partial: bool = False
    """games, players and calculations hold some players' rows only (an older list of an
    incremental publish, ``monthly/site_rows.py``): ``events`` are all its games' events."""
    facts: pd.DataFrame | None = None
    """calculations.csv's ``column_facts`` on all its rows (None: decided on ``calculations``)."""

    @property
    def folder(self) -> str:
        return f"{self.period}/{self.kind}"


@dataclass(frozen=True)
class Layout:
    """What every page shares: the labels, the federation's title and logo."""

    labels: dict[str, str]
    title: str
    logo: str
    """The logo's file name in the site ("" for none)."""
    notation: Mapping[str, tuple[str, int]] = field(default_factory=dict)
    """The rating system's symbol and decimals per column (``StateSystem.notation``; none
    under FIDE Elo): a system's own column is headed and rounded by it, never by one of the
    site's words (the DWZ's ``index`` is no "Rating lists")."""

    def heading(self, column: str, prefix: str = "") -> str:
        """A system's column's heading: its symbol, else the site's word, else its name."""
        if column in self.notation:
            return self.notation[column][0]
        return self.labels.get(prefix + column, column)

    def list_heading(self, column: str) -> str:
        """A column's heading on a public list: the system's word for it with a capital
        ("peak" is "Peak", "grade games" "Grade games"), the site's word where the system
        has a letter only (ECF's R, Glicko-2's r: "Rating") or none."""
        symbol = self.notation.get(column, ("", 0))[0]
        if re.match(r"[a-z]{2}", symbol):
            return symbol[0].upper() + symbol[1:]
        if len(symbol) > 1 or (symbol and column != "rating"):
            return symbol
        return self.labels.get(column, column)

    def context(self, root: str, date: str) -> dict[str, object]:
        """The base template's values for a page ``root`` below the site's folder."""
        return {
            "L": self.labels,
            "site_title": self.title,
            "logo": self.logo,
            "root": root,
            "list_date": date,
        }


def site_layout(
    settings: Settings, notation: Mapping[str, tuple[str, int]] | None = None
) -> Layout:
    """The pages' shared parts as ``settings`` choose them, and the system's ``notation``."""
    logo = "" if settings.logo is None else f"logo.{settings.logo.extension}"
    return Layout(LANGUAGES[settings.language], settings.title, logo, dict(notation or {}))


def ranked_lists(lists: Sequence[SiteList], lower_is_better: bool) -> list[SiteList]:
    """The lists with each player's ``rank`` (equal ratings, equal rank)."""
    return [_ranked(each, lower_is_better) for each in lists]


def write_site_pages(
    lists: Sequence[SiteList],
    settings: Settings,
    pages: pd.Series,
    folder: Path,
    outputs: OutputSet,
    notation: Mapping[str, tuple[str, int]] | None = None,
) -> None:
    """The site's index, static files, and every list's pages (``ranked_lists``) into
    ``outputs`` under ``folder`` (``pages``: each listed player's page, ``player_stems``;
    ``notation``: the system's, ``site_layout``)."""
    layout = site_layout(settings, notation)
    for name in ("site.css", "site.js"):
        data = resources.files("rating_batch").joinpath("templates", name).read_bytes()
        outputs.write_bytes(folder / name, data)
    if settings.logo is not None:
        outputs.write_bytes(folder / layout.logo, settings.logo.data)  # the bytes checked
    write_index(lists, layout, folder, outputs)
    for each in lists:
        write_list_pages(each, layout, settings, pages, folder, outputs)


def write_index(
    lists: Sequence[SiteList], layout: Layout, folder: Path, outputs: OutputSet
) -> None:
    """The site's ``index.html``: every list, newest first, with the newest list's date."""
    page = render("site_index.html", lists=_index(lists), **layout.context("", latest_date(lists)))
    _write(outputs, folder / "index.html", page)


def write_list_pages(
    each: SiteList,
    layout: Layout,
    settings: Settings,
    pages: pd.Series,
    folder: Path,
    outputs: OutputSet,
) -> None:
    """A list's folder of the site: its list and top pages, the files carried, its events."""
    base = folder / each.folder
    date = str(list_date(each.period))
    _write(outputs, base / "list.html", _list_page(each, layout, settings, pages, date))
    _write(outputs, base / "top.html", _top_page(each, layout, settings, pages, date))
    for name, data in each.files.items():
        outputs.write_bytes(base / "files" / name, data)
    write_events(each, layout, pages, base, lambda path, text: _write(outputs, path, text))


def latest_date(lists: Sequence[SiteList]) -> str:
    """The date of the newest list ("" for none)."""
    return str(list_date(lists[-1].period)) if lists else ""


def _write(outputs: OutputSet, path: Path, text: str) -> None:
    outputs.path(path).write_text(text, encoding="utf-8")


def _ranked(each: SiteList, lower_is_better: bool) -> SiteList:
    """The list with each player's rank (equal ratings, equal rank)."""
    rank = each.listing["rating_value"].rank(method="min", ascending=lower_is_better)
    return replace(each, listing=each.listing.assign(rank=rank.astype("Int64")))


def player_stems(lists: Sequence[SiteList]) -> pd.Series:
    """Each listed player's page name (``players/<stem>.html``), by id: an id that is not a
    FIDE ID (``<event>#<rank>``) with every character but letters, digits, '_' and '-' as '-'."""
    ids = pd.unique(pd.concat([each.listing["id"] for each in lists] or [pd.Series(dtype=str)]))
    return stems_of(pd.Series(ids, index=ids, dtype="string"))


def stems_of(ids: pd.Series) -> pd.Series:
    """Page names of ids (``player_stems``)."""
    return ids.str.replace(r"[^A-Za-z0-9_-]", "-", regex=True).map(quote)


def player_links(ids: pd.Series, pages: pd.Series, root: str) -> pd.Series:
    """Each id's page link from a page ``root`` below the site (NA: no page)."""
    return root + "players/" + ids.map(pages) + ".html"


def linked_names(names: pd.Series, ids: pd.Series, pages: pd.Series, root: str) -> np.ndarray:
    """Each name as markup: a link to the player's page when he has one."""
    text = escaped_texts(names)
    links = player_links(ids, pages, root)
    has = links.notna().to_numpy(bool)
    linked = '<a href="' + links.fillna("").to_numpy(object) + '">' + text + "</a>"
    return np.where(has, linked, text)


def table_parts(cells: Sequence[tuple[str, str]], row_start: str = "<tr>") -> Parts:
    """A table row of ``cells`` (column, the cell's class) as ``fill_parts`` takes it; a
    column named ``…_html`` is markup. ``row_start`` may hold fields as ``\\x00col\\x00``."""
    start = row_start.split("\x00")
    literals, fields = list(start[0::2]), list(start[1::2])
    for column, css in cells:
        literals[-1] += f'<td class="{css}">' if css else "<td>"
        fields.append(column)
        literals.append("</td>")
    literals[-1] += "</tr>\n"
    return tuple(literals), tuple(fields)


def signed_text(values: pd.Series) -> pd.Series:
    """A change as the list shows it: +12, −3, 0; "" for none."""
    number = pd.to_numeric(values, errors="coerce").round(0)
    text = number.map(lambda v: "" if pd.isna(v) else f"{int(v):+d}".replace("-", "−"))
    return text.where(number != 0, "0")


#: The list page's columns before a system's own: (list.csv column, label key, class, sort).
_LEADING = [
    ("rank", "rank", "", "num"),
    ("name_html", "name", "name", "text"),
    ("federation", "federation", "text", "text"),
    ("title", "title", "text", "text"),
    ("birth_year", "birth_year", "", "num"),
    ("rating", "rating", "", "num"),
    ("change_text", "change", "", "num"),
    ("games", "games", "", "num"),
]


def system_columns(
    listing: pd.DataFrame, distinct: Mapping[str, pd.Series] | None = None
) -> list[str]:
    """The columns a system adds to its list (K, RD, volatility…), in list.csv's order:
    those not shown already and not true/false flags (``distinct``: each column's distinct
    values, when known)."""
    flags = {"true", "false", ""}
    return [
        column
        for column in listing.columns
        if column not in HIDDEN
        and column not in IDENTITY
        and column != "rank"
        and not set(listing[column].unique() if distinct is None else distinct[column]) <= flags
    ]


def _list_page(
    each: SiteList, layout: Layout, settings: Settings, pages: pd.Series, date: str
) -> str:
    listing = each.listing
    extra = system_columns(listing)
    columns = _filled([*_LEADING, *((c, c, "", "num") for c in extra)], listing)
    frame = listing.assign(
        name_html=linked_names(listing["name"], listing["id"], pages, "../../"),
        change_text=signed_text(listing["change_value"]),
        sex=listing.get("sex", ""),
        **{column: same_decimals(listing[column]) for column in extra},
    )
    row = '<tr data-sex="\x00sex\x00" data-born="\x00birth_year\x00" data-fed="\x00federation\x00">'
    rows = fill_parts(table_parts([(c, css) for c, _, css, _ in columns], row), frame)
    federations = sorted(f for f in listing["federation"].unique() if f)
    extra_keys = set(extra)
    heads = [
        (layout.list_heading(key) if key in {*extra_keys, "rating"} else layout.labels[key], css,
         sort)
        for _, key, css, sort in columns
    ]  # fmt: skip
    return render(
        "site_list.html",
        each=each,
        kind=layout.labels[each.kind],
        heads=heads,
        rows_html="".join(rows.tolist()),
        federations=federations,
        count=len(listing),
        year=each.period.year,
        settings=settings,
        **layout.context("../../", date),
    )


def same_decimals(texts: pd.Series) -> pd.Series:
    """A list column's numbers each to the most decimals any of them has, as the system
    wrote the column (list.csv drops trailing zeros: Glicko-2's σ 0.06 beside 0.059984 is
    0.060000); a text not a number as it is."""
    text = texts.astype(str)
    number = text.str.fullmatch(r"-?\d+(\.\d+)?")
    places = text.str.extract(r"\.(\d+)$", expand=False).str.len().fillna(0)
    most = int(places[number].max()) if number.any() else 0
    if not most or (places[number] == most).all():
        return texts
    return text.where(~number, text.map(lambda v: f"{float(v):.{most}f}" if v else v))


#: Columns a page shows even when no player has a value in them.
_ALWAYS = {"rank", "name_html", "rating", "change_text", "games"}


def _filled(
    columns: list[tuple[str, str, str, str]], listing: pd.DataFrame
) -> list[tuple[str, str, str, str]]:
    """``columns`` without those no player of the list has a value in (no title, say)."""
    return [
        column
        for column in columns
        if column[0] in _ALWAYS or (column[0] in listing and (listing[column[0]] != "").any())
    ]


def top_lists(listing: pd.DataFrame, year: int, settings: Settings) -> dict[str, pd.DataFrame]:
    """The top ``settings.top`` of the open list, women, juniors (under ``junior_age`` in the
    list's year) and seniors (``senior_age`` or older), each in list order."""
    age = year - pd.to_numeric(listing["birth_year"], errors="coerce")
    sex = listing["sex"] if "sex" in listing else pd.Series("", index=listing.index)
    groups = {
        "open": pd.Series(True, index=listing.index),
        "women": sex == "F",
        "juniors": age < settings.junior_age,
        "seniors": age >= settings.senior_age,
    }
    return {
        name: listing[chosen.fillna(False).to_numpy(bool)].head(settings.top)
        for name, chosen in groups.items()
    }


def _top_page(
    each: SiteList, layout: Layout, settings: Settings, pages: pd.Series, date: str
) -> str:
    columns = _filled([_LEADING[i] for i in (0, 1, 2, 3, 4, 5)], each.listing)
    parts = table_parts([(column, css) for column, _, css, _ in columns])
    heads = [(layout.labels[key], css) for _, key, css, _ in columns]
    tops = top_lists(each.listing, each.period.year, settings)
    # One layout for the tables, cut apart (each call's fixed cost was the page's, issue 42).
    sizes = [len(frame) for frame in tops.values()]
    joined = pd.concat(tops.values())
    names = linked_names(joined["name"], joined["id"], pages, "../../")
    rank = np.concatenate([np.arange(1, size + 1) for size in sizes])
    rows = fill_parts(parts, joined.assign(rank=rank, name_html=names)).tolist()
    ends = np.cumsum(sizes).tolist()
    tables = [(k, "".join(rows[e - n : e])) for k, n, e in zip(tops, sizes, ends, strict=True)]
    return render(
        "site_top.html",
        each=each,
        kind=layout.labels[each.kind],
        tables=tables,
        heads=heads,
        settings=settings,
        **layout.context("../../", date),
    )


def event_dates(events: pd.DataFrame) -> pd.Series:
    """An event's dates as ``start – end`` (one date when it is one day)."""
    same = (events["start"] == events["end"]) | (events["end"] == "")
    return events["start"].where(same, events["start"] + " – " + events["end"])


def write_events(
    each: SiteList,
    layout: Layout,
    pages: pd.Series,
    base: Path,
    put: Callable[[Path, str], None],
    only: Collection[str] | None = None,
) -> None:
    """A page per event of the list (``only``: of those keys), each given to ``put``: its
    players with games, score, rating before the period and on the list, each linking his
    page."""
    games = each.games
    if only is not None and games is not None:  # those events' games alone, then grouped
        games = games[games["event"].isin(list(only))]
    results = played(games)
    if results.empty or each.events.empty:
        return
    people = each.players if each.players is not None else pd.DataFrame({"id": [], "name": []})
    known = people.drop_duplicates("id").set_index("id")
    listed = each.listing.drop_duplicates("id").set_index("id")["rating"]
    results = results.assign(
        name=results["id"].map(known["name"]).fillna(results["id"]),
        federation=results["id"].map(known["federation"]) if "federation" in known else "",
        before=_before(each, results, known),
        after=results["id"].map(listed).fillna(""),
        score_text=points(results["score"]),
    ).sort_values(["event", "score", "name"], ascending=[True, False, True], kind="stable")
    results["name_html"] = linked_names(results["name"], results["id"], pages, "../../../")
    cells = [
        ("name_html", "name"),
        ("federation", "text"),
        ("games", ""),
        ("score_text", ""),
        ("before", ""),
        ("after", ""),
    ]
    rows = fill_parts(table_parts(cells), results)
    body = {
        str(key): "".join(rows[at].tolist())
        for key, at in results.groupby("event", sort=False).indices.items()
    }
    events = each.events[each.events["key"].isin(list(body))]
    crosstable = layout.labels["crosstable"]
    frame = events.assign(
        dates=event_dates(events),
        rows_html=events["key"].map(body),
        link_html=[_crosstable_link(each, key, crosstable) for key in events["key"]],
    )
    parts = page_parts(
        "site_event.html",
        each=each,
        kind=layout.labels[each.kind],
        **layout.context("../../../", str(list_date(each.period))),
    )
    for key, page in zip(frame["key"], fill_parts(parts, frame), strict=True):
        put(base / "event" / f"{key}.html", str(page))


def _crosstable_link(each: SiteList, key: str, label: str) -> str:
    """The event page's link to its crosstable: the event's own page (FIDE Elo's
    ``events/<key>.html``), else its section of the system's crosstable (US Chess's
    ``msa.html``, docs/systems.md §9.15), else none."""
    if f"events/{key}.html" in each.files:
        return f' · <a href="../files/events/{quote(key)}.html">{label}</a>'
    if "msa.html" in each.files:
        return f' · <a href="../files/msa.html#{section_anchor(key)}">{label}</a>'
    return ""


def _before(each: SiteList, results: pd.DataFrame, known: pd.DataFrame) -> pd.Series:
    """Each player's rating before the event as its calculation used it (calculations.csv's
    ``rating`` for the event: US Chess's section after section, a FIDE rating converted for
    a player without one, docs/systems.md §9.4; the DWZ's ``r0`` with its ``index``, after
    the 2026 uplift where it acted, as the DSB writes it: 1984-88, §10.9), else
    players.csv's; rounded as the system rounds its lists, to list.csv's decimals (half away
    from zero, ``half_away_text``: 1500.5 is 1501)."""
    empty = pd.Series("", index=results.index)
    before = results["id"].map(known["rating"]) if "rating" in known else empty
    worked = each.calculations
    column = next((c for c in ("rating", "r0") if worked is not None and c in worked), "")
    index = empty
    if worked is not None and column and {"id", "event"} <= set(worked.columns):
        # The rows of these players and events alone (the first of each pair is the same),
        # taken in one copy (a month's calculations are ~10^6 rows).
        mine = worked["id"].isin(results["id"].unique()) & worked["event"].isin(
            results["event"].unique()
        )
        kept = (worked[column].astype(str) != "") & mine
        used = worked[kept.to_numpy(bool)].drop_duplicates(["id", "event"])
        used = used.set_index(["id", "event"])
        keys = pd.MultiIndex.from_frame(results[["id", "event"]].astype(str))
        found = pd.Series(used[column].reindex(keys).to_numpy(), index=results.index)
        before = found.fillna(before) if column == "rating" else found.fillna("")
        if column == "r0" and "index" in used:
            index = pd.Series(used["index"].reindex(keys).to_numpy(), index=results.index)
    # To the list's own decimals (list.csv's rating: US Chess and ECF grade whole, though
    # the calculation keeps 2).
    fractions = each.listing["rating"].astype(str).str.extract(r"\.(\d+)$", expand=False)
    places = int(fractions.str.len().max()) if fractions.notna().any() else 0
    value = pd.to_numeric(before, errors="coerce")
    text = (
        before.fillna("")
        .astype(str)
        .where(value.isna(), value.map(lambda v: half_away_text(float(v), places)))
    )
    index = index.fillna("").astype(str)
    return text.where((index == "") | (text == ""), text + "-" + index)


def _index(lists: Sequence[SiteList]) -> list[dict[str, object]]:
    """The index's entries, newest list first."""
    entries = []
    for each in reversed(lists):
        names = ("list.csv", "list.xlsx", "list.txt", "changes.csv", "report.xlsx", "msa.html")
        have = [name for name in names if name in each.files]
        # The events of its games (each row is one of ``played``'s, grouped or not); of a
        # list cut by player, its events are already those of all its games.
        keys: Iterable[object] = [] if each.games is None else each.games["event"].unique()
        events = each.events if each.partial else each.events[each.events["key"].isin(keys)]
        events = events.assign(dates=event_dates(events))
        entries.append(
            {
                "each": each,
                "date": str(list_date(each.period)),
                "files": have,
                "period_page": "index.html" in each.files,
                "players": len(each.listing),
                "events": [
                    (quote(key), name, dates)
                    for key, name, dates in events[["key", "name", "dates"]].itertuples(index=False)
                ],
            }
        )
    return entries
