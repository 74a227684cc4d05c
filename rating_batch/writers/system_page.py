"""The HTML page of a period rated under another system (docs/systems.md): its constants,
its players with their states before and after, and each player's calculation, laid out from
``templates/system.html`` (rows a column at a time, ``html.fill_rows``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from rating_batch.writers.common import NUMBER_FORMATS, distinct, formatted
from rating_batch.writers.html import anchor, anchors, fill_rows, render

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


def _decimals(name: str) -> int:
    form = NUMBER_FORMATS.get(name, ("", "0.00"))[1]
    return len(form.split(".", 1)[1]) if "." in form else 2


def _texts(values: pd.Series, name: str) -> list[str]:
    """A column as the page shows it: numbers to the column's decimals, yes/no, text."""
    kind, codes, distinct_values = distinct(values)
    if kind == "float":
        digits = _decimals(name)
        return formatted(codes, distinct_values, lambda v: f"{float(v):.{digits}f}")
    if kind == "bool":
        return formatted(codes, distinct_values, lambda v: "yes" if v else "no")
    return formatted(codes, distinct_values, str)


def _headers(frame: pd.DataFrame) -> list[tuple[str, str]]:
    return [
        (str(c), "" if pd.api.types.is_numeric_dtype(frame[c].dtype) else "text")
        for c in frame.columns
    ]


def table_rows(frame: pd.DataFrame, link: str | None = None) -> np.ndarray:
    """Each row of ``frame`` as a table row; the ``link`` column links to its player."""
    cells = np.full(len(frame), "", dtype=object)
    for name in frame.columns:
        texts = pd.DataFrame({"text": _texts(frame[name], str(name))}, index=frame.index)
        if name == link:
            macro = "linked_cell"
            texts["anchor"] = anchors(frame["id"]).to_numpy()
        elif pd.api.types.is_numeric_dtype(frame[name].dtype):
            macro = "number_cell"
        else:
            macro = "text_cell"
        cells = cells + fill_rows(macro, texts)
    return fill_rows("table_row", pd.DataFrame({"cells_html": cells}))


def write_system_html(
    players: pd.DataFrame, calculations: pd.DataFrame, page: SystemPage, path: Path
) -> None:
    """The page: constants, players (at most ``MAX_PAGE_PLAYERS``), their calculations."""
    from markupsafe import Markup

    shown = players.head(MAX_PAGE_PLAYERS)
    page.more_players = max(0, len(players) - len(shown))
    page.player_columns = _headers(shown)
    steps = calculations[calculations["id"].isin(shown["id"]).to_numpy(bool)]
    page.calculation_columns = _headers(steps.drop(columns=["id", "name"]))
    laid = table_rows(steps.drop(columns=["id", "name"]))
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
    text = render(
        "system.html",
        page=page,
        player_rows=Markup("".join(table_rows(shown, link="name").tolist())),
        sections=sections,
        title=page.title,
        facts=page.facts,
        index_link=None,
        body_class="system",
    )
    path.write_text(text, encoding="utf-8")
