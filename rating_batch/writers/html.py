"""HTML pages from the package's jinja2 templates (``rating_batch/templates``), autoescaped:
self-contained (the style sheet inlined, no scripts, no external files) and printable. FIDE
Elo's index and event pages, and another system's page (``write_system_html``), share the
layout helpers."""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from itertools import pairwise
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

import numpy as np
import pandas as pd

from rating_batch.systems.base import ReportTable
from rating_batch.systems.elo.pages import EventPage, EventPages, IndexPage
from rating_batch.values import as_float, missing
from rating_batch.writers.common import (
    distinct,
    each_at_once,
    formatted,
    half_away_text,
    page_decimals,
)

if TYPE_CHECKING:
    from jinja2 import Environment

#: What each status means, as a page says it.
STATUS_TEXT = {
    "rated": "rated",
    "new": "first rating",
    "below_floor": "fell below the floor",
    "unrated": "unrated",
}


def _blank(value: object) -> object:
    """Missing as nothing; a whole number read as a float (a column with gaps) as a whole."""
    if missing(value):
        return ""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def _number(value: object, digits: int = 0) -> str:
    if missing(value):
        return ""
    return f"{as_float(value):.{digits}f}"


def _signed(value: object, digits: int = 0) -> str:
    if missing(value):
        return ""
    text = f"{as_float(value):+.{digits}f}"
    return text[1:] if text[1:].strip("0.") == "" else text  # 0.00, never +0.00 or -0.00


def _points(value: object) -> str:
    """A score as a crosstable writes it: 1, ½, 3½."""
    if missing(value):
        return ""
    number = as_float(value)
    whole = math.floor(number)
    half = number - whole >= 0.5
    if whole == 0 and half:
        return "½"
    return f"{whole}{'½' if half else ''}"


#: What an element id for a player may not hold (``anchor``).
NOT_IN_ANCHOR = r"[^A-Za-z0-9]+"


#: How the pages show a number, by kind (``displayed``): the filters' own functions.
FORMS: dict[str, Callable[[Any], str]] = {
    "whole": lambda v: str(int(v)),
    "points": _points,
    "decimal": lambda v: _number(v, 2),
    "signed": lambda v: _signed(v, 2),
}


def displayed(frame: pd.DataFrame, forms: Mapping[str, str]) -> pd.DataFrame:
    """``frame`` with a text column ``<name>_text`` per column of ``forms`` (a ``FORMS``
    kind): what the page prints, made once per distinct value, "" for a missing one (the row
    macros print text, they do not format numbers one by one)."""
    texts = {}
    for column, kind in forms.items():
        values = frame[column]
        form = FORMS[kind]
        mapping = {value: form(value) for value in values.dropna().unique().tolist()}
        texts[f"{column}_text"] = values.map(mapping).astype(object).where(values.notna(), "")
    return frame.assign(**texts)


#: The crosstable's numbers and each player's totals (``event_rows``).
CROSSTABLE_FORMS = {
    "rank": "whole", "fide_id": "whole", "rating": "whole", "points": "points",
    "games": "whole", "change": "signed", "new_rating": "whole", "performance": "whole",
    "rc": "whole", "w": "points", "n_scoring": "whole", "expected": "decimal", "k": "whole",
    "period_change": "signed",
}  # fmt: skip
#: The numbers of a game of a player's calculation (``game_row``).
GAME_FORMS = {
    "round": "whole", "opponent_rating": "whole", "score": "points", "raw_diff": "whole",
    "diff": "whole", "expected": "decimal", "delta": "signed", "k": "whole",
    "k_delta": "signed",
}  # fmt: skip


def anchor(value: object) -> str:
    """An element id for a player: letters, digits and '-' only."""
    return "p-" + re.sub(NOT_IN_ANCHOR, "-", str(value))


def section_anchor(key: str) -> str:
    """An element id for an event's section of a crosstable (msa.html): letters, digits
    and '-' only (an event key may hold a space, which no id may)."""
    return "s-" + re.sub(NOT_IN_ANCHOR, "-", key)


def anchors(values: pd.Series) -> pd.Series:
    """``anchor`` of a whole column."""
    return "p-" + values.astype("string").str.replace(NOT_IN_ANCHOR, "-", regex=True)


@cache
def _environment() -> Environment:
    from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape

    environment = Environment(
        loader=PackageLoader("rating_batch", "templates"),
        autoescape=select_autoescape(["html"]),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    environment.filters.update(
        blank=_blank,
        num=_number,
        signed=_signed,
        points=_points,
        anchor=anchor,
        status=lambda value: STATUS_TEXT.get(str(value), _blank(value)),
    )
    return environment


def render(template: str, **context: Any) -> str:
    """A page from one of the package's templates."""
    return _environment().get_template(template).render(**context)


#: Marks a field in a row macro's markup (``fill_rows``): no text or template holds it.
FIELD = "\x00"


class _Fields(dict[str, str]):
    """A row whose every column is its own name between ``FIELD`` marks."""

    def __missing__(self, key: str) -> str:
        return f"{FIELD}{key}{FIELD}"


Parts = tuple[tuple[str, ...], tuple[str, ...]]
"""Markup as its literal pieces and, between them, the columns it shows (``fill_parts``)."""


@cache
def _row_parts(macro: str, template: str = "rows.html") -> Parts:
    """A macro of ``template`` as its literal markup and, between, the columns it shows."""
    module = _environment().get_template(template).module
    return _split(str(getattr(module, macro)(_Fields())))


def page_parts(template: str, **context: Any) -> Parts:
    """A whole page of ``template`` whose ``row["…"]`` lookups are columns (``fill_parts``):
    one rendering for every page of that shape."""
    return _split(render(template, row=_Fields(), **context))


def _split(text: str) -> Parts:
    parts = text.split(FIELD)
    return tuple(parts[0::2]), tuple(parts[1::2])


def _texts(values: pd.Series, escape: bool) -> np.ndarray:
    """A column as the text a page shows (``_blank``), escaped: each distinct value once."""
    from markupsafe import escape as escaped

    if not escape:
        # Markup made per row (a page's history, chart, calculation) is seldom repeated:
        # hashing it to find the distinct ones costs more than it saves (issue 42).
        markup = values.to_numpy(object)
        if all(type(text) is str for text in markup.tolist()):
            return markup
    codes, uniques = pd.factorize(values)
    texts = uniques.tolist()
    if not all(type(text) is str for text in texts):
        texts = [str(_blank(value)) for value in texts]
    if escape:
        texts = each_at_once(texts, lambda text: str(escaped(text)))
    return np.array([*texts, ""], dtype=object)[codes]  # code -1 (missing): the last, ""


def escaped_texts(values: pd.Series) -> np.ndarray:
    """A column as the text a page shows, escaped (``_texts``)."""
    return _texts(values, escape=True)


def fill_rows(macro: str, frame: pd.DataFrame, template: str = "rows.html") -> np.ndarray:
    """Each row of ``frame`` laid out by a macro of ``template``, a whole column at a time
    (an event page's rows are ~10^6 cells at 10^5 games: per cell, templating costs ~5 µs)."""
    return fill_parts(_row_parts(macro, template), frame)


def fill_parts(parts: Parts, frame: pd.DataFrame) -> np.ndarray:
    """Each row of ``frame`` laid out as ``parts`` (``_row_parts``, ``page_parts``): a
    column named ``…_html`` is markup, any other is text, escaped."""
    literals, fields = parts
    # Every row's pieces joined once (adding each column to the rows made so far would copy
    # each row again per column).
    pieces: list[list[str]] = [[literals[0]] * len(frame)]
    for column, literal in zip(fields, literals[1:], strict=True):
        pieces.append(_texts(frame[column], escape=not column.endswith("_html")).tolist())
        pieces.append([literal] * len(frame))
    rows = np.empty(len(frame), dtype=object)
    rows[:] = list(map("".join, zip(*pieces, strict=True)))
    return rows


@dataclass
class EventRows:
    """An event page's repeated markup: the crosstable's rows and each player's section of
    the calculations (``None`` for an unrated player's, laid out with the page's pool)."""

    crosstable: str = ""
    sections: list[tuple[str, str | None]] = field(default_factory=list)
    """Per crosstable row: the section's start (anchor and heading) and its body."""
    pools: dict[str, str] = field(default_factory=dict)
    """Per unrated player id: the pooled games' rows toward a first rating."""


def event_rows(pages: EventPages) -> dict[str, EventRows]:
    """Every event page's rows, laid out for all events at once (``fill_rows``)."""
    table = pages.crosstable
    ids = table["id"].astype("string")
    games_html = _games_html(pages.games, table["event"].astype(str), ids)
    table = displayed(table, CROSSTABLE_FORMS).assign(
        anchor=anchors(ids),
        cells_html=_round_cells(table),
        games_html=games_html,
        title_part=(" " + table["title"].astype("string")).where(_truthy(table["title"]), ""),
        federation_part=(table["federation"].astype("string") + ", ").where(
            _truthy(table["federation"]), ""
        ),
        status_text=table["status"].astype("string").map(STATUS_TEXT).fillna(""),
        new_part=(
            " · after the period (all its events): Rn "
            + table["new_rating"].astype("Int64").astype("string")
        ).fillna(""),
        counts_for=np.where(
            table["status"].eq("unrated").fillna(False).to_numpy(bool),
            "a first rating",
            "the rating",
        ),
    )
    table["fide_part"] = ("FIDE ID " + table["fide_id_text"]).where(
        _truthy(table["fide_id"]), "no FIDE ID"
    )
    noted = _truthy(table["ro_k_note"])
    table["note_html"] = np.where(noted, fill_rows("note_line", table), "")
    table["others_html"] = _others_html(pages.others, table["event"].astype(str), ids)
    several = table["others_html"].ne("").to_numpy(bool)
    table["period_html"] = np.where(several, fill_rows("period_line", table), "")
    table["new_part"] = table["new_part"].where(~several, "")  # said by the period's line
    crosstable = fill_rows("crosstable_row", table)
    heads = fill_rows("section_head", table)
    played = table["games_html"].notna().to_numpy()
    bodies = np.where(played, fill_rows("played_section", table), np.array(None, dtype=object))
    none = ~played & ~ids.isin(list(pages.pooled)).to_numpy(bool)
    bodies = np.where(none, fill_rows("no_game_section", table), bodies)
    pools = _pool_rows(pages.pools, bool(pages.period))
    rows: dict[str, EventRows] = {}
    for event, positions in table.groupby("event", sort=False).indices.items():
        rows[str(event)] = EventRows(
            "".join(crosstable[positions].tolist()),
            list(zip(heads[positions].tolist(), bodies[positions].tolist(), strict=True)),
            pools,
        )
    return rows


def _pool_rows(pools: pd.DataFrame | None, periods: bool) -> dict[str, str]:
    """Each unrated player's pooled games as table rows (rows.html ``pool_row``), by id."""
    if pools is None or not len(pools):
        return {}
    hypothetical = pools["event"].astype("string").eq("hypothetical").fillna(False).to_numpy()
    laid = displayed(pools, {"score": "points"}).assign(
        event_text=pools["event"].astype("string").where(~hypothetical, "(rules)"),
        class_html=np.where(hypothetical, fill_rows("hypothetical_class", pools), ""),
        period_html=fill_rows("period_cell", pools) if periods else "",
    )
    joined = joined_by(fill_rows("pool_row", laid), pools["id"].astype(str).to_numpy())
    return {str(key): value for (key,), value in joined.items()}


def _others_html(others: pd.DataFrame | None, events: pd.Series, ids: pd.Series) -> pd.Series:
    """Each crosstable row's links to the player's other events of the period (rows.html
    ``other_event``), "" for a player of one event."""
    if others is None or not len(others):
        return pd.Series("", index=events.index, dtype=object)
    laid = displayed(others, {"change": "signed"}).assign(
        href=others["other"].astype(str).map(lambda key: f"{quote(key)}.html")
        + "#"
        + anchors(others["id"]),
    )
    joined = joined_by(
        fill_rows("other_event", laid),
        others["event"].astype(str).to_numpy(),
        others["id"].astype("string").to_numpy(),
    )
    wanted = zip(events.to_numpy().tolist(), ids.to_numpy().tolist(), strict=True)
    return pd.Series([joined.get(key, "") for key in wanted], index=events.index, dtype=object)


def _truthy(values: pd.Series) -> np.ndarray:
    """What a template's ``{% if value %}`` holds true: present, not "" and not 0."""
    present = values.notna().to_numpy(bool)
    text = values.astype("string").fillna("")
    return present & ~text.isin(["", "0"]).to_numpy(bool)


def _round_cells(table: pd.DataFrame) -> np.ndarray:
    """Each crosstable row's round cells as markup, up to its event's last round."""
    rounds = table["rounds"].to_numpy()
    parts = []
    for number in range(1, int(rounds.max(initial=0)) + 1):
        cell = table.get(f"cell_{number}", pd.Series(pd.NA, index=table.index))
        mark = table.get(f"mark_{number}", pd.Series(pd.NA, index=table.index))
        part = pd.DataFrame({"cell": cell, "mark": mark})
        marked = mark.notna().to_numpy()
        played = rounds >= number  # no cell past the event's last round
        laid = np.full(len(table), "", dtype=object)
        laid[played & marked] = fill_rows("marked_round_cell", part[played & marked])
        laid[played & ~marked] = fill_rows("round_cell", part[played & ~marked])
        parts.append(laid.tolist())
    cells = np.full(len(table), "", dtype=object)
    if parts:  # each row's cells joined once
        cells[:] = list(map("".join, zip(*parts, strict=True)))
    return cells


def _games_html(games: pd.DataFrame, events: pd.Series, ids: pd.Series) -> pd.Series:
    """The games of each crosstable row's calculation as table rows (missing: none)."""
    shown = displayed(games, GAME_FORMS)
    star = np.where(games["capped"].fillna(False).to_numpy(bool), "*", "")  # D changed by the cap
    shown = shown.assign(diff_text=shown["diff_text"] + star)
    joined = joined_by(
        fill_rows("game_row", shown),
        games["event"].astype(str).to_numpy(),
        games["id"].astype("string").to_numpy(),
    )
    wanted = zip(events.to_numpy().tolist(), ids.to_numpy().tolist(), strict=True)
    return pd.Series([joined.get(key) for key in wanted], index=events.index, dtype=object)


def joined_by(texts: np.ndarray, *keys: np.ndarray) -> dict[tuple[Hashable, ...], str]:
    """Each key's texts (a key: a row's values of ``keys``) joined in row order, rows with a
    missing key value left out: ``groupby(keys).agg("".join)`` without a pandas group per
    key (~10 µs each, 10^4 keys and more on a period's pages)."""
    combined = np.zeros(len(texts), dtype=np.int64)
    for key in keys:
        codes, uniques = pd.factorize(key)  # missing: -1
        combined = np.where((codes < 0) | (combined < 0), -1, combined * (len(uniques) + 1) + codes)
    present = np.flatnonzero(combined >= 0)
    groups = pd.factorize(combined[present])[0]  # numbered as they first appear
    order = np.argsort(groups, kind="stable")
    rows = present[order]
    starts = np.flatnonzero(np.diff(groups[order], prepend=-1))
    bounds = [*starts.tolist(), len(rows)]
    ordered = np.asarray(texts, dtype=object)[rows].tolist()
    pieces = ("".join(ordered[start:end]) for start, end in pairwise(bounds))
    firsts = rows[starts]
    names = zip(*(np.asarray(key, dtype=object)[firsts].tolist() for key in keys), strict=True)
    return dict(zip(names, pieces, strict=True))


def write_event_html(
    page: EventPage, path: Path, rows: EventRows, index_link: str | None = None
) -> None:
    """One event's page: its crosstable and every player's calculation."""
    from markupsafe import Markup

    module = _environment().get_template("first_section.html").module
    # A template's macros are attributes its module gains at run time.
    first_section = module.first_section  # type: ignore[attr-defined]  # made by jinja2
    sections = []
    for row, (head, body) in zip(page.crosstable, rows.sections, strict=True):
        if body is None:
            key = str(row["id"])
            pool = Markup(rows.pools.get(key, ""))
            body = str(first_section(page.firsts.get(key, []), page.period != "", pool))
        sections.append(head + body + "</section>\n")
    text = render(
        "event.html",
        page=page,
        # Made by fill_rows and the templates: escaped already.
        crosstable_rows=Markup(rows.crosstable),
        calculations=Markup("".join(sections)),
        title=page.title,
        facts=page.facts,
        index_link=index_link,
        body_class=" ".join(["event", *empty_columns(page.crosstable)]),
    )
    path.write_text(text, encoding="utf-8")


#: The columns a page leaves out when no player of it has a value there (pages.css hides them
#: by these classes of the page's body): titles, federations, FIDE IDs.
EMPTY_COLUMNS = {"no-title": "title", "no-federation": "federation", "no-fide-id": "fide_id"}


def empty_columns(
    players: Sequence[Mapping[Hashable, object]], columns: Mapping[str, str] = EMPTY_COLUMNS
) -> list[str]:
    """The classes of ``columns`` (``EMPTY_COLUMNS``) of a page whose ``players`` (records)
    have no value in that column."""
    return [
        css
        for css, column in columns.items()
        if not any(str(_blank(row.get(column))) for row in players)
    ]


def write_index_html(index: IndexPage, path: Path) -> None:
    """The index of a run or period, linking every event page and player section."""
    text = render("index.html", index=index, title=index.title, facts=index.facts, index_link=None)
    path.write_text(text, encoding="utf-8")


#: Players listed on the page (the CSVs and the workbook hold them all).
MAX_PAGE_PLAYERS = 5_000


@dataclass
class SystemPage:
    """What the page says besides its tables."""

    title: str
    facts: list[tuple[str, str]]
    constants: list[tuple[str, str, str]]
    explanation: str
    notes: list[str] = field(default_factory=list)
    player_columns: list[tuple[str, str]] = field(default_factory=list)
    """(name, CSS class: "text" for text columns, "" for numbers)."""
    calculation_columns: list[tuple[str, str]] = field(default_factory=list)
    more_players: int = 0
    notation: Mapping[str, tuple[str, int]] = field(default_factory=dict)
    """The system's symbol and decimals per column (``StateSystem.notation``): a column's
    heading and how many decimals its numbers show; ``new_x`` is headed as x with "→"."""
    report: Sequence[ReportTable] = ()
    """The federation's own tables (the DSB's Turnierauswertung), first on the page."""


def notation_heading(notation: Mapping[str, tuple[str, int]], column: str) -> str:
    """A column's heading from the system's notation, else its name."""
    if column in notation:
        return notation[column][0]
    return column


def _system_texts(
    values: pd.Series, name: str, notation: Mapping[str, tuple[str, int]]
) -> list[str]:
    """A column as the page shows it: numbers to the system's decimals for the column (else
    the column's page decimals), yes/no, text."""
    kind, codes, distinct_values = distinct(values)
    if kind == "float":
        digits = notation[name][1] if name in notation else page_decimals(name)
        return formatted(codes, distinct_values, lambda v: half_away_text(float(v), digits))
    if kind == "bool":
        return formatted(codes, distinct_values, lambda v: "yes" if v else "no")
    return formatted(codes, distinct_values, str)


def _headers(frame: pd.DataFrame, notation: Mapping[str, tuple[str, int]]) -> list[tuple[str, str]]:
    return [
        (
            notation_heading(notation, str(c)),
            "" if pd.api.types.is_numeric_dtype(frame[c].dtype) else "text",
        )
        for c in frame.columns
    ]


def table_rows(
    frame: pd.DataFrame,
    link: str | None = None,
    linked: np.ndarray | None = None,
    notation: Mapping[str, tuple[str, int]] | None = None,
) -> np.ndarray:
    """Each row of ``frame`` as a table row; the ``link`` column links to its player's
    calculation, in the rows ``linked`` marks (all without it): a player without one (no
    game) has no section to link to."""
    cells = np.full(len(frame), "", dtype=object)
    for name in frame.columns:
        texts = pd.DataFrame(
            {"text": _system_texts(frame[name], str(name), notation or {})}, index=frame.index
        )
        if name == link:
            texts["anchor"] = anchors(frame["id"]).to_numpy()
            marked = np.ones(len(frame), bool) if linked is None else linked
            cells = cells + np.where(
                marked, fill_rows("linked_cell", texts), fill_rows("name_cell", texts)
            )
            continue
        macro = "number_cell" if pd.api.types.is_numeric_dtype(frame[name].dtype) else "text_cell"
        cells = cells + fill_rows(macro, texts)
    return fill_rows("table_row", pd.DataFrame({"cells_html": cells}))


def constant_text(value: str) -> str:
    """A constant's value as a person writes it: a flag yes or no, a tuple's items listed
    ("5, 10, 15", not Python's "(5.0, 10.0, 15.0)"), a whole number without ".0"."""
    if value in ("True", "False"):
        return "yes" if value == "True" else "no"
    if value.startswith("(") and value.endswith(")"):
        items = [item.strip().strip("'\"") for item in value[1:-1].split(",")]
        return ", ".join(constant_text(item) for item in items if item)
    try:
        return f"{float(value):g}" if value.strip() else value
    except ValueError:
        return value


def write_system_html(
    players: pd.DataFrame, calculations: pd.DataFrame, page: SystemPage, path: Path
) -> None:
    """The page: constants, players (at most ``MAX_PAGE_PLAYERS``), their calculations."""
    from markupsafe import Markup

    page.constants = [(key, constant_text(value), what) for key, value, what in page.constants]
    shown = players.head(MAX_PAGE_PLAYERS)
    page.more_players = max(0, len(players) - len(shown))
    notation = page.notation
    page.player_columns = _headers(shown, notation)
    steps = calculations[calculations["id"].isin(shown["id"]).to_numpy(bool)]
    page.calculation_columns = _headers(steps.drop(columns=["id", "name"]), notation)
    laid = table_rows(steps.drop(columns=["id", "name"]), notation=notation)
    names = dict(zip(shown["id"].astype(str), shown["name"].astype(str), strict=True))
    sections = [
        {
            "id": key,
            "name": names.get(str(key), ""),
            "anchor": anchor(key),
            # Made by fill_rows from escaped texts.
            "rows": Markup("".join(laid[positions].tolist())),
        }
        for key, positions in steps.groupby(steps["id"].astype(str), sort=False).indices.items()
    ]
    rows = table_rows(shown, "name", shown["id"].isin(steps["id"]).to_numpy(bool), notation)
    text = render(
        "system.html",
        page=page,
        player_rows=Markup("".join(rows.tolist())),
        sections=sections,
        title=page.title,
        facts=page.facts,
        index_link=None,
        body_class="system",
    )
    path.write_text(text, encoding="utf-8")
