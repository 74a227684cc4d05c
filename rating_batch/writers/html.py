"""HTML pages from the package's jinja2 templates (``rating_batch/templates``), autoescaped:
self-contained (the style sheet inlined, no scripts, no external files) and printable."""

from __future__ import annotations

import math
import re
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rating_batch.pages import EventPage, IndexPage

if TYPE_CHECKING:
    from jinja2 import Environment

#: What each status means, as a page says it.
STATUS_TEXT = {
    "rated": "rated",
    "new": "first rating",
    "below_floor": "fell below the floor",
    "unrated": "unrated",
}


def _missing(value: object) -> bool:
    if value is None:
        return True
    try:
        return bool(value != value)  # NaN, pd.NA
    except TypeError:
        return True


def _blank(value: object) -> object:
    """Missing as nothing; a whole number read as a float (a column with gaps) as a whole."""
    if _missing(value):
        return ""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def _number(value: object, digits: int = 0) -> str:
    if _missing(value):
        return ""
    return f"{float(value):.{digits}f}"  # type: ignore[arg-type]


def _signed(value: object, digits: int = 0) -> str:
    if _missing(value):
        return ""
    text = f"{float(value):+.{digits}f}"  # type: ignore[arg-type]
    return text[1:] if text[1:].strip("0.") == "" else text  # 0.00, never +0.00 or -0.00


def _points(value: object) -> str:
    """A score as a crosstable writes it: 1, ½, 3½."""
    if _missing(value):
        return ""
    number = float(value)  # type: ignore[arg-type]
    whole = math.floor(number)
    half = number - whole >= 0.5
    if whole == 0 and half:
        return "½"
    return f"{whole}{'½' if half else ''}"


def _anchor(value: object) -> str:
    """An element id for a player: letters, digits and '-' only."""
    return "p-" + re.sub(r"[^A-Za-z0-9]+", "-", str(value))


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
        anchor=_anchor,
        status=lambda value: STATUS_TEXT.get(str(value), _blank(value)),
    )
    return environment


def render(template: str, **context: Any) -> str:
    """A page from one of the package's templates."""
    return _environment().get_template(template).render(**context)


def write_event_html(page: EventPage, path: Path, index_link: str | None = None) -> None:
    """One event's page: its crosstable and every player's calculation."""
    text = render(
        "event.html",
        page=page,
        title=page.title,
        facts=page.facts,
        index_link=index_link,
        body_class="event",
    )
    path.write_text(text, encoding="utf-8")


def write_index_html(index: IndexPage, path: Path) -> None:
    """The index of a run or period, linking every event page and player section."""
    text = render("index.html", index=index, title=index.title, facts=index.facts, index_link=None)
    path.write_text(text, encoding="utf-8")
