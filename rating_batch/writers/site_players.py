"""The site's page of every player on a list: identity, rating history (a table and an
inline SVG chart), the events of each period linking their pages, and the calculation of
the last period he played in (the rows of calculations.csv, with a link to each event page's
calculation). Every part is made for a block of players at once, column by column."""

from __future__ import annotations

import html
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from itertools import pairwise
from pathlib import Path
from urllib.parse import quote

import numpy as np
import pandas as pd

from rating_batch.staging import OutputSet
from rating_batch.writers.common import half_away_text, list_values, page_decimals
from rating_batch.writers.html import (
    Parts,
    anchors,
    escaped_texts,
    fill_parts,
    joined_by,
    page_parts,
)
from rating_batch.writers.site import (
    HIDDEN,
    IDENTITY,
    Layout,
    SiteList,
    event_dates,
    signed_text,
    table_parts,
)
from rating_batch.writers.site_games import played, points
from rating_batch.writers.site_history import change_rows, charts, history


def write_player_pages(
    lists: Sequence[SiteList],
    layout: Layout,
    pages: pd.Series,
    folder: Path,
    outputs: OutputSet,
    worked: Worked | None = None,
) -> None:
    """``folder/<stem>.html`` for every player on any list (``pages``: each id's stem), into
    ``outputs``' staged folder (``player_pages``)."""
    where = str(outputs.folder(folder))
    for stems, made in player_pages(lists, layout, pages, worked):
        for stem, page in zip(stems, made, strict=True):
            with open(f"{where}/{stem}.html", "w", encoding="utf-8") as handle:
                handle.write(page)


def player_pages(
    lists: Sequence[SiteList],
    layout: Layout,
    pages: pd.Series,
    worked: Worked | None = None,
    only: pd.Series | None = None,
) -> Iterator[tuple[list[str], list[str]]]:
    """The pages of every player on any list (``pages``: each id's stem; ``only``: of those
    ids alone), as (stems, pages) ``PAGE_BLOCK`` players at a time: each piece of a page
    (history, chart, events, calculation) for a block's players only, so that a FIDE-size
    site holds one block's markup, not every player's. ``worked``: the system's worked lines
    of a player's event (``StateSystem.worked``, the DWZ's "Rn = …"), shown under his
    calculation. A page shows no list's date: nothing on it changes unless he plays."""
    if not lists:
        return
    chosen = pages if only is None else pages[pages.index.isin(only)]
    if chosen.empty:  # a list published again: no page changed
        return
    ids = pd.Series(chosen.index.astype(str))
    stems = chosen.to_numpy()
    tables = _calculation_tables(lists, layout)
    blocks = _Blocks(ids)
    cuts = [blocks.cut(each, table) for each, table in zip(lists, tables, strict=True)]
    parts = page_parts("site_player.html", **layout.context("../", ""))
    played = page_parts("site_player_played.html", **layout.context("../", ""))
    calculation = page_parts("site_player_calculation.html", **layout.context("../", ""))
    for number, (start, end) in enumerate(blocks.bounds):
        mine = [cut(number) for cut in cuts]
        rows = history(mine)
        changes = change_rows(rows, mine)
        people = rows.drop_duplicates("id", keep="last").set_index("id")
        frame = pd.DataFrame({"id": ids.iloc[start:end].to_numpy()})
        frame = frame.assign(
            name=frame["id"].map(people["name"]),
            facts=_facts(frame["id"], people, layout),
            history_html=_joined(frame["id"], changes, _change_markup(changes, layout)),
            chart_html=_each(frame["id"], charts(changes, layout.labels)),
            played_html=_each(frame["id"], _played(mine, layout)),
            norms_html=_each(frame["id"], _norms(mine, layout)),
            calculation_html=_each(frame["id"], _calculations(mine, tables, layout, worked)),
        )
        frame = frame.assign(
            played_section_html=_section(played, frame[["played_html"]]),
            calculation_section_html=_section(calculation, frame[["calculation_html"]]),
        )
        yield stems[start:end].tolist(), fill_parts(parts, frame).tolist()


def _section(parts: Parts, frame: pd.DataFrame) -> np.ndarray:
    """A page's section (its heading and table) around each row's markup, the one column of
    ``frame``; nothing where a player has none (no empty table, no heading over nothing)."""
    filled = fill_parts(parts, frame)
    return np.where(frame.iloc[:, 0].to_numpy(object) != "", filled, "")


def _change_markup(changes: pd.DataFrame, layout: Layout) -> np.ndarray:
    """The rows of a player's rating changes (``change_rows``): the list, its period,
    rating (or "not on this list"), change against the row before, games, title."""
    frame = changes.assign(
        kind_label=changes["kind"].map(layout.labels),
        period_html='<a href="' + changes["link"] + '">' + changes["period"] + "</a>",
        rating=changes["rating"].where(~changes["left"], layout.labels["not_on_list"]),
        change_text=signed_text(changes["change"]),
    )
    cells = [
        ("kind_label", "text"),
        ("period_html", "text"),
        ("rating", ""),
        ("change_text", ""),
        ("games", ""),
        ("title", "text"),
    ]
    return fill_parts(table_parts(cells), frame)


#: Players whose pages are made at a time (``write_player_pages``).
PAGE_BLOCK = 5_000


class _Blocks:
    """The players cut into blocks of ``PAGE_BLOCK`` in page order, and each list's rows
    of a block's players (in the rows' own order)."""

    def __init__(self, ids: pd.Series) -> None:
        self.block_of = pd.Series(np.arange(len(ids)) // PAGE_BLOCK, index=ids.to_numpy())
        starts = list(range(0, len(ids), PAGE_BLOCK))
        self.bounds = list(zip(starts, [*starts[1:], len(ids)], strict=True))

    def rows(self, frame: pd.DataFrame | None, keep: np.ndarray | None = None) -> list[np.ndarray]:
        """Per block, the positions of ``frame``'s rows whose ``id`` is of its players
        (with ``keep``, only the rows it marks)."""
        if frame is None:
            return [np.zeros(0, dtype=np.int64)] * len(self.bounds)
        codes = np.array(frame["id"].map(self.block_of), dtype=np.float64)
        if keep is not None:
            codes[~keep] = np.nan
        order = np.argsort(codes, kind="stable")  # a missing code sorts last: no block's
        edges = np.searchsorted(codes[order], np.arange(len(self.bounds) + 1), side="left")
        return [order[low:high] for low, high in pairwise(edges.tolist())]

    def cut(self, each: SiteList, table: _Table | None) -> Callable[[int], SiteList]:
        """The list ``each`` with a block's rows only (its calculations: those of the
        players whose page shows this list's, ``table``)."""
        listing = self.rows(each.listing)
        games = self.rows(each.games)
        calculations = each.calculations if table is not None else None
        calculated = self.rows(calculations, None if table is None else table.shown)

        def block(number: int) -> SiteList:
            return replace(
                each,
                listing=each.listing.iloc[listing[number]],
                games=None if each.games is None else each.games.iloc[games[number]],
                calculations=None
                if calculations is None
                else calculations.iloc[calculated[number]],
            )

        return block


def _by_id(texts: np.ndarray | pd.Series, ids: pd.Series, between: str = "") -> dict[str, str]:
    """Each id's texts joined in row order (``between`` them)."""
    if between:
        texts = np.asarray(texts, dtype=object) + between
    joined = joined_by(np.asarray(texts, dtype=object), ids.to_numpy(dtype=object))
    cut = len(between)
    return {str(key[0]): text[: len(text) - cut] for key, text in joined.items()}


def _each(ids: pd.Series, markup: dict[str, str] | pd.Series) -> pd.Series:
    """Each id's piece of ``markup`` ("" for none)."""
    return ids.map(markup).astype(object).fillna("")


def _joined(ids: pd.Series, frame: pd.DataFrame, rows: np.ndarray) -> pd.Series:
    """Each id's rows of ``frame`` (grouped by its ``id``) as one piece of markup."""
    return _each(ids, _by_id(rows, frame["id"]))


def _facts(ids: pd.Series, people: pd.DataFrame, layout: Layout) -> pd.Series:
    """The line under the name: id, federation, title, birth year."""
    joined = ids.astype(str)
    for column, prefix in (("federation", ""), ("title", ""), ("birth_year", "born_label")):
        value = ids.map(people[column]).fillna("").astype(str)
        shown = (layout.labels[prefix] + " " if prefix else "") + value
        joined = joined.where(value == "", joined + " · " + shown)
    return joined


def _played(lists: Sequence[SiteList], layout: Layout) -> dict[str, str]:
    """Each player's events, newest list first, each linking the site's event page."""
    frames = []
    for each in reversed(lists):
        results = played(each.games)
        if results.empty:
            continue
        events = each.events.set_index("key")
        frames.append(
            results.assign(
                period=str(each.period),
                kind_label=layout.labels[each.kind],
                name=results["event"].map(events["name"]).astype(object).fillna(results["event"]),
                dates=_each(results["event"], event_dates(each.events).set_axis(events.index)),
                link=f"../{each.folder}/event/" + results["event"].map(quote) + ".html",
            )
        )
    if not frames:
        return {}
    frame = pd.concat(frames, ignore_index=True)
    frame = frame.assign(
        event_html='<a href="' + frame["link"] + '">' + escaped_texts(frame["name"]) + "</a>",
        score_text=points(frame["score"]),
        games=frame["games"].astype(str),
    )
    cells = [
        ("period", "text"),
        ("kind_label", "text"),
        ("event_html", "name"),
        ("dates", "text"),
        ("games", ""),
        ("score_text", ""),
    ]
    return _by_id(fill_parts(table_parts(cells), frame), frame["id"])


def _norms(lists: Sequence[SiteList], layout: Layout) -> dict[str, str]:
    """Each player's title norms (docs/norms.md §8), newest list first, each norm linking
    its certificate among the list's files and its event to the event's page; a heading
    and a table, or nothing for a player without one."""
    frames = []
    for each in reversed(lists):
        if each.norms is None:
            continue
        norms = each.norms
        events = each.events.set_index("key")
        name = norms["event"].map(events["name"]).astype(object).fillna(norms["event"])
        certificate = norms["id"].str.replace("#", "-") + "-" + norms["norm_title"] + ".html"
        frames.append(
            norms.assign(
                period=str(each.period),
                name=name,
                norm_html='<a href="../'
                + each.folder
                + "/files/norms/"
                + norms["event"].map(quote)
                + "/"
                + certificate.map(quote)
                + '">'
                + escaped_texts(norms["norm_title"])
                + "</a>",
                event_html='<a href="../'
                + each.folder
                + "/event/"
                + norms["event"].map(quote)
                + '.html">'
                + escaped_texts(name)
                + "</a>",
            )
        )
    if not frames:
        return {}
    frame = pd.concat(frames, ignore_index=True)
    frame = frame.assign(score_text=points(pd.to_numeric(frame["points"])))
    cells = [("period", "text"), ("norm_html", "text"), ("event_html", "name"),
             ("games", ""), ("score_text", ""), ("Rp", "")]  # fmt: skip
    rows = _by_id(fill_parts(table_parts(cells), frame), frame["id"])
    head = "".join(
        f'<th scope="col" class="{css}">{html.escape(text)}</th>'
        for text, css in (
            (layout.labels["period"], "text"), (layout.labels["norm"], "text"),
            (layout.labels["event"], "name"), (layout.labels["games"], ""),
            (layout.labels["score"], ""), ("Rp", ""),
        )
    )  # fmt: skip
    return {
        key: f'<h2>{html.escape(layout.labels["norms"])}</h2><div class="scroll"><table>'
        f"<thead><tr>{head}</tr></thead><tbody>{text}</tbody></table></div>"
        for key, text in rows.items()
    }


#: Calculation rows laid out at a time (``_calculations``).
CALCULATION_BLOCK = 100_000


@dataclass(frozen=True)
class _Table:
    """How a list's calculations are shown on the pages of the players whose last
    calculation it holds (``shown``: their rows): the columns the period fills, decided on
    all of them, not on a block's."""

    shown: np.ndarray
    parts: Parts
    heading: str
    rounded: dict[str, dict[str, str]]
    """Per column, its texts with more decimals than a page shows, and how it shows them
    (``_rounded_texts``)."""


def _calculation_tables(lists: Sequence[SiteList], layout: Layout) -> list[_Table | None]:
    """Per list, its calculation table (None: no player's page shows its calculations);
    each player's page shows the last list he has a calculation in (every kind of that
    period)."""
    tables: list[_Table | None] = []
    for each, shown in zip(lists, shown_calculations(lists), strict=True):
        calculations = each.calculations
        if calculations is None or shown is None:
            tables.append(None)
            continue
        # The columns the period's rows fill, all of them (not only those of the players
        # whose page shows it, fewer as they play again): a page changes only when he plays.
        # Decided on all its rows (``facts``: kept when only some players' rows are read).
        facts = column_facts(calculations) if each.facts is None else each.facts
        columns = [c for c in calculations.columns if c in facts.index and not facts.at[c, "flag"]]
        # The columns the period fills; the step only where there are several kinds.
        columns = [c for c in columns if c not in ("period", "name") and facts.at[c, "filled"]]
        columns = [c for c in columns if c != "calculation" or facts.at[c, "several"]]
        css = {c: "" if facts.at[c, "numbers"] else "text" for c in columns}
        named = {c: html.escape(layout.heading(c, "calc.")) for c in columns}
        head = "".join(f'<th scope="col" class="{css[c]}">{named[c]}</th>' for c in columns)
        heading = (
            f'<h3>{layout.labels[each.kind]} {each.period}</h3><div class="scroll">'
            f'<table class="calculation"><thead><tr>{head}</tr></thead><tbody>'
        )
        parts = table_parts([(c, css[c]) for c in columns])
        # Each column's distinct values (a month's calculations repeat theirs), once: each
        # rounded on its own, so those of the rows at hand are enough.
        found = _rounded_columns(
            _distinct(calculations, columns), [_digits(layout, c) for c in columns],
            [c in layout.notation for c in columns],
        )  # fmt: skip
        rounded = {c: texts for c, texts in zip(columns, found, strict=True) if texts}
        tables.append(_Table(shown, parts, heading, rounded))
    return tables


#: What the site decides of a column on all of a list's rows (``column_facts``).
FACTS = ("flag", "filled", "several", "numbers")


def column_facts(frame: pd.DataFrame) -> pd.DataFrame:
    """Of each column of calculations.csv a page may show (not hidden, identity or rank),
    by name: whether every value is true, false or blank (``flag``: no system column,
    ``system_columns``), whether any is filled, whether it holds several distinct values,
    whether every filled value is a number (right-aligned)."""
    kept = [c for c in frame.columns if c not in HIDDEN and c not in (*IDENTITY, "rank")]
    texts, owner = _distinct(frame, kept)
    # All columns' distinct texts at once (a page's fixed cost was a few pandas calls per
    # column, issue 42): per column, how many of its texts are not a flag, filled (a missing
    # one too, as before), given, and filled but not a number.
    given = pd.notna(texts)
    filled = texts != ""
    number = np.ones(len(texts), bool)
    number[filled] = pd.to_numeric(pd.Series(texts[filled], dtype=object), errors="coerce").notna()
    flag = pd.Series(texts, dtype=object).isin(["true", "false", ""]).to_numpy(bool)

    def counted(each: np.ndarray) -> np.ndarray:
        return np.bincount(owner, weights=each, minlength=len(kept))

    return pd.DataFrame(
        {"flag": counted(~flag) == 0, "filled": counted(filled) > 0,
         "several": counted(given) > 1, "numbers": counted(~number) == 0},
        index=pd.Index(kept, dtype=object), columns=list(FACTS),
    )  # fmt: skip


def _distinct(frame: pd.DataFrame, columns: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
    """``columns``' distinct texts one column after the other (object), and the position in
    ``columns`` of each."""
    found = [np.asarray(frame[c].unique(), dtype=object) for c in columns]
    texts = np.concatenate(found) if found else np.zeros(0, object)
    return texts, np.repeat(np.arange(len(columns)), [len(each) for each in found])


def shown_calculations(lists: Sequence[SiteList]) -> list[np.ndarray | None]:
    """Per list, which of its calculations' rows the players' pages show (None: none): each
    page shows the last list he has a calculation in (every kind of that period)."""
    calculated = [
        pd.DataFrame({"id": each.calculations["id"], "period": str(each.period)})
        for each in lists
        if each.calculations is not None and not each.calculations.empty
    ]
    if not calculated:
        return [None] * len(lists)
    # The last period of each id: its last row once sorted by period (a groupby's max of
    # text takes seconds over a month's 10^6 rows).
    ordered = pd.concat(calculated, ignore_index=True).sort_values("period", kind="stable")
    last = ordered.drop_duplicates("id", keep="last").set_index("id")["period"]
    found: list[np.ndarray | None] = []
    for each in lists:
        calculations = each.calculations
        shown = (
            None
            if calculations is None or calculations.empty
            else (calculations["id"].map(last) == str(each.period)).to_numpy()
        )
        found.append(shown if shown is not None and shown.any() else None)
    return found


#: A system's worked lines of one event from its values (``StateSystem.worked``).
Worked = Callable[[Mapping[str, object]], list[str]]


def _worked_html(each: SiteList, worked: Worked | None) -> dict[str, str]:
    """Per player of the list, his worked lines of each event (the DWZ's uplift, E, Rn and
    Erst-DWZ lines, in the DSB's notation with its decimal comma), as paragraphs."""
    mine = each.calculations
    if worked is None or mine is None or mine.empty or "event" not in mine:
        return {}
    people = each.players if each.players is not None else pd.DataFrame({"id": []})
    listed = people.drop_duplicates("id").set_index("id").to_dict("index")
    found: dict[str, str] = {}
    for row in mine.drop_duplicates(["id", "event"]).to_dict("records"):
        values = {str(k): v for k, v in row.items()}
        key = str(values["id"])
        player = {str(k): v for k, v in listed.get(key, {}).items()}
        lines = worked({**list_values(player), **values})
        if lines:
            text = "<br>".join(html.escape(line) for line in lines)
            heading = html.escape(str(values["event"]))
            found[key] = found.get(key, "") + (
                f'<p class="worked"><strong>{heading}</strong><br>{text}</p>'
            )
    return found


def _calculations(
    lists: Sequence[SiteList],
    tables: Sequence[_Table | None],
    layout: Layout,
    worked: Worked | None = None,
) -> dict[str, str]:
    """Each player's calculation (``_calculation_tables``): calculations.csv's rows under a
    heading, his worked lines (``_worked_html``), and links to his section of each event
    page."""
    found: dict[str, list[str]] = {}
    for each, table in zip(lists, tables, strict=True):
        mine = each.calculations
        if table is None or mine is None or mine.empty:
            continue
        rows: dict[str, str] = {}
        # A block of rows at a time: each laid out as a piece per column before it is joined.
        for start in range(0, len(mine), CALCULATION_BLOCK):
            block = mine.iloc[start : start + CALCULATION_BLOCK]
            block = block.assign(
                **{c: block[c].map(texts).fillna(block[c]) for c, texts in table.rounded.items()}
            )
            for key, text in _by_id(fill_parts(table.parts, block), block["id"]).items():
                rows[key] = rows.get(key, "") + text
        links = _event_links(mine, each, layout.labels["calculation_page"])
        lines = _worked_html(each, worked)
        for key, text in rows.items():
            found.setdefault(key, []).append(
                table.heading + text + "</tbody></table></div>" + lines.get(key, "")
                + links.get(key, "")
            )  # fmt: skip
    return {key: "".join(parts) for key, parts in found.items()}


#: A decimal number's text with its fraction digits (``_rounded_texts``).
_DECIMAL = r"^-?\d+\.(\d+)$"


def _digits(layout: Layout, name: str) -> int:
    """The decimals a calculation's column is shown with: the system's (its notation: the
    DWZ's We 3, its Leistung 0), else the column's page decimals (``page_decimals``)."""
    return layout.notation[name][1] if name in layout.notation else page_decimals(name)


def _rounded_texts(texts: pd.Series, digits: int, exact: bool = False) -> dict[str, str]:
    """Of a calculations.csv column's distinct texts, each decimal with more fraction digits
    than ``digits``, and its text rounded to them; shorter ones (an Elo row's "0.89",
    "1750.5") are shown as written (docs/site.md §1: no 0.5070520025006372 on a page).
    ``exact``: the system's own decimals (its notation), to which every number is written,
    a shorter one too (Glicko-2's σ 0.06 is 0.060000 beside σ′ 0.059984)."""
    values = texts.to_numpy(object)
    return _rounded_columns((values, np.zeros(len(values), np.int64)), [digits], [exact])[0]


def _rounded_columns(
    distinct: tuple[np.ndarray, np.ndarray], digits: Sequence[int], exact: Sequence[bool]
) -> list[dict[str, str]]:
    """``_rounded_texts`` of several columns at once: ``distinct`` (``_distinct``: texts and
    the column of each), each column's ``digits`` and ``exact``; per column, its texts
    shown otherwise."""
    values, owner = distinct
    text = pd.Series(values, dtype=object)
    places = np.asarray(digits, np.int64)[owner]
    fraction = text.str.extract(_DECIMAL, expand=False).str.len().fillna(0).to_numpy()
    change = fraction > places
    precise = np.asarray(exact, bool)[owner]
    if precise.any():
        number = text.str.fullmatch(r"-?\d+(\.\d+)?").fillna(False).to_numpy(bool)
        change = np.where(precise, number & (fraction != places), change)
    found: list[dict[str, str]] = [{} for _ in digits]
    if not change.any():
        return found
    numbers = pd.to_numeric(text[change]).to_numpy()
    for column, written, number, to in zip(
        owner[change], values[change], numbers, places[change], strict=True
    ):  # one per distinct text shown otherwise
        found[column][written] = half_away_text(float(number), int(to))
    return found


def _event_links(mine: pd.DataFrame, each: SiteList, label: str) -> dict[str, str]:
    """Per player, links to his section of each event page (where the list has them)."""
    if "event" not in mine:
        return {}
    pairs = mine[["id", "event"]].drop_duplicates()
    pairs = pairs[[f"events/{key}.html" in each.files for key in pairs["event"]]]
    if pairs.empty:
        return {}
    links = (
        '<a href="../'
        + each.folder
        + "/files/events/"
        + pairs["event"].map(quote)
        + ".html#"
        + anchors(pairs["id"])
        + '">'
        + escaped_texts(pairs["event"])
        + "</a>"
    )
    joined = _by_id(links.to_numpy(object), pairs["id"], " · ")
    return {key: f'<p class="note">{label}: {text}</p>' for key, text in joined.items()}
