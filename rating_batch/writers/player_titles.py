"""What a FIDE Elo player's report shows after his calculations, three ways (text, sheets,
the page's parts): the publishes it cannot explain, the games pending toward a first
rating, the title norms he made in the database's events and the titles by rating he
reached (docs/norms.md §8). They format; the numbers are ``norms.csv``'s and
``titles.by_rating``'s."""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from typing import Any
from urllib.parse import quote

import pandas as pd

from rating_batch.periods import shown
from rating_batch.systems.elo.explain import PlayerReport
from rating_batch.values import as_float, as_int, missing
from rating_batch.writers.workbook import Sheet

#: A norm's columns in every report: (heading, norms.csv column).
NORM_COLUMNS = (
    ("list", "period"), ("norm", "norm_title"), ("event", "event_name"), ("games", "games"),
    ("points", "points"), ("Ra", "Ra"), ("Rp", "Rp"), ("rounds", "rounds_counted"),
    ("credit", "credit_games"),
)  # fmt: skip
#: Where the titles by rating come from, under their heading.
RATING_TITLES_NOTE = (
    "FIDE B.01 1.3: FM 2300, CM 2200, WFM 2100, WCM 2000 on a published list, with 30 rated "
    "games then for a rating reached from 1 Jul 2017; from the database's standard lists"
)


def elo_tail(report: PlayerReport) -> list[list[str]]:
    """The publishes the database cannot explain, the games pending per list kind, then
    the norms and the titles by rating."""
    sections = [[f"{each}: the database holds no files of this publish to explain it"]
                for each in report.missing]  # fmt: skip
    for kind, rows in report.pending.groupby("kind", sort=False):
        sections.append(
            [f"{kind}: {len(rows)} game(s) pending toward a first rating after the list of "
             f"{shown(rows['period'].iloc[0])}, {rows['half'].sum() / 2:g} points:"]
            + [f"  {row['game_period']} {row['event']} round {row['round']}: "
               f"opponent {row['opponent_rating']}, scored {row['half'] / 2:g}"
               for row in rows.to_dict("records")]
        )  # fmt: skip
    return sections + _norms_text(report) + _titles_text(report)


def _cell(column: str, value: object) -> str:
    if missing(value) or value == "":
        return ""
    if column == "period":
        return shown(str(value))
    if column == "points":
        return f"{as_float(value):g}"
    if column in ("games", "Ra", "Rp", "credit_games"):
        return f"{as_float(value):.0f}"
    return str(value)


def _norm_cells(norms: pd.DataFrame) -> list[list[str]]:
    return [[_cell(column, row.get(column)) for _, column in NORM_COLUMNS]
            for row in norms.to_dict("records")]  # fmt: skip


def _norms_text(report: PlayerReport) -> list[list[str]]:
    if report.norms.empty:
        return []
    heads = [head for head, _ in NORM_COLUMNS]
    cells = _norm_cells(report.norms)
    widths = [max(len(text) for text in column) for column in zip(heads, *cells, strict=True)]
    left = {"list", "event", "norm", "rounds"}
    lines = [
        "  " + "  ".join(text.ljust(w) if head in left else text.rjust(w)
                         for head, text, w in zip(heads, row, widths, strict=True)).rstrip()
        for row in [heads, *cells]
    ]  # fmt: skip
    gathered = textwrap.wrap(_gathered(report), 100, initial_indent="  ", subsequent_indent="    ")
    return [
        ["title norms made (norms.csv of each published period, docs/norms.md §8)", *lines,
         *gathered]
    ]  # fmt: skip


def _gathered(report: PlayerReport) -> str:
    """``toward an application …: IM 1 norm, 10 of 27 games; …``."""
    each = [
        f"{row['title']} {row['norms']} norm{'s' * (row['norms'] != 1)}, "
        f"{row['games']} of {row['needed']} games"
        for row in report.gathered.to_dict("records")
    ]
    return (
        "toward an application (1.5.1: the games the norms count; every other requirement: "
        "rating-batch title-check): " + "; ".join(each)
    )


def _reached(row: dict[str, Any]) -> str:
    if row["reached"]:
        games = "" if missing(row["games"]) else f", {int(as_float(row['games']))} games"
        rating = "" if missing(row["rating"]) else str(as_int(row["rating"]))
        return f"reached on the list of {shown(str(row['period']))} ({rating}{games})"
    return f"not yet: on the list of {shown(str(row['period']))}, {row['note']}"


def _shown_titles(report: PlayerReport) -> list[dict[str, Any]]:
    """The titles by rating reached, or whose rating was reached without the games."""
    titles = report.rating_titles
    if titles.empty:
        return []
    return [
        {str(k): v for k, v in row.items()}
        for row in titles.to_dict("records")
        if row["reached"] or row["period"]
    ]


def _titles_text(report: PlayerReport) -> list[list[str]]:
    rows = _shown_titles(report)
    if not rows:
        return []
    return [
        [
            "titles by rating",
            *textwrap.wrap(
                f"({RATING_TITLES_NOTE})", 100, initial_indent="  ", subsequent_indent="   "
            ),
        ]
        + [
            line
            for row in rows
            for line in textwrap.wrap(
                f"{row['title']} by rating ({row['minimum']}): {_reached(row)}",
                100,
                initial_indent="  ",
                subsequent_indent="    ",
            )
        ]
    ]


def title_sheets(report: PlayerReport, title: str) -> list[Sheet]:
    """A Titles sheet (the norms, then the titles by rating), when there is anything."""
    titles = _shown_titles(report)
    if report.norms.empty and not titles:
        return []
    rows: list[Sequence[object]] = []
    if not report.norms.empty:
        rows += [["Title norms made"], [head for head, _ in NORM_COLUMNS]]
        for row in report.norms.to_dict("records"):
            rows.append([_value(column, row.get(column)) for _, column in NORM_COLUMNS])
        rows += [["", _gathered(report)], []]
    if titles:
        rows += [["Titles by rating"], ["", RATING_TITLES_NOTE]]
        rows += [[f"{row['title']} ({row['minimum']})", _reached(row)] for row in titles]
    return [Sheet("Titles", rows=[[f"{title} — titles"], [], *rows])]


def _value(column: str, value: object) -> object:
    """A cell of the sheet: numbers as numbers."""
    if column in ("games", "Ra", "Rp", "credit_games", "points") and not missing(value):
        number = as_float(value)
        return int(number) if number == int(number) else number
    return _cell(column, value)


def title_parts(report: PlayerReport) -> dict[str, Any]:
    """The page's parts: each norm's cells and its certificate's address (where
    ``publish --out`` wrote it, beside the event pages), and the titles by rating."""
    norms = [
        {
            "cells": cells,
            "link": f"{row['period']}/standard/norms/{quote(str(row['event']))}/"
            f"{quote(str(row['id']).replace('#', '-'))}-{row['norm_title']}.html",
        }
        for row, cells in zip(
            report.norms.to_dict("records"), _norm_cells(report.norms), strict=True
        )
    ]
    titles = [
        {"title": f"{row['title']} by rating ({row['minimum']})", "text": _reached(row)}
        for row in _shown_titles(report)
    ]
    return {
        "norms": norms,
        "norm_heads": [head for head, _ in NORM_COLUMNS],
        "gathered": _gathered(report) if norms else "",
        "rating_titles": titles,
        "rating_titles_note": RATING_TITLES_NOTE,
    }
