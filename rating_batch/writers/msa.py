"""US Chess's crosstable, as its Member Services Area (MSA) shows a section: msa.html (one
table per section, two lines per player) and the Crosstable sheet of report.xlsx. The frame
comes made (``systems.uscf.report.crosstable``): this module lays it out and decides no number
(docs/systems.md §9.15)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd

from rating_batch.writers.html import render, section_anchor
from rating_batch.writers.workbook import Sheet

#: The mark after a pre-event rating that is the FIDE conversion of Step 1, not a US Chess
#: rating (docs/systems.md §9.4), and what it says.
FIDE_MARK = "*"
FIDE_NOTE = (
    f"{FIDE_MARK} no US Chess rating: the pre-event rating is the player's FIDE rating "
    "converted (docs/systems.md §9.4, Step 1), on the games the conversion gives"
)
#: What index.html says of msa.html.
MSA_NOTE = (
    "msa.html (beside this page) and the Crosstable sheet of report.xlsx: each section's "
    "crosstable as US Chess's Member Services Area shows it (docs/systems.md §9.15)"
)
#: What the crosstable's cells say; the page adds the colour below each result (the sheet
#: has no second line for it).
LEGEND = (
    "Players by total points, then by post-event rating; each round gives the result and the "
    "opponent's number: W won, D drawn, L lost, X won by forfeit, F lost by forfeit, B a "
    "full-point bye, H a half-point bye, U not played{colour}. Ratings are whole numbers "
    "(rounded half away from zero); P<n>: provisional, on n games."
)
COLOUR = "; below it the colour (W white, B black)"


def _rounds(frame: pd.DataFrame) -> list[int]:
    """The section's rounds: those in which any of its players has a cell."""
    found = [int(c.removeprefix("round_")) for c in frame.columns if c.startswith("round_")]
    return [r for r in found if frame[f"round_{r}"].ne("").any()]


def pre_texts(frame: pd.DataFrame) -> pd.Series:
    """The pre-event rating as the MSA writes it, with ``FIDE_MARK`` on a FIDE conversion."""
    fide = frame["pre_from"].eq("fide").to_numpy(bool)
    texts: pd.Series = frame["pre_text"].where(~fide, frame["pre_text"] + FIDE_MARK)
    return texts


def _players(frame: pd.DataFrame, rounds: list[int]) -> list[dict[str, Any]]:
    rating = pre_texts(frame) + " → " + frame["post_text"]
    return [
        {
            "pair": int(row["pair"]),
            "name": row["name"],
            "id": "" if pd.isna(row["id"]) else str(row["id"]),
            "federation": row["federation"],
            "total": f"{row['total']:.1f}",
            "rating": shown,
            "cells": [row[f"round_{r}"] for r in rounds],
            "colours": [row[f"colour_{r}"] for r in rounds],
        }
        for row, shown in zip(frame.to_dict("records"), rating, strict=True)
    ]


def write_msa_html(table: pd.DataFrame, title: str, path: Path) -> None:
    """msa.html: the crosstable of each section (``report.crosstable``'s frame)."""
    sections = []
    for _, frame in table.groupby("event", sort=False):
        rounds = _rounds(frame)
        sections.append(
            {
                "name": str(frame["section"].iloc[0]),
                "key": str(frame["event"].iloc[0]),
                "anchor": section_anchor(str(frame["event"].iloc[0])),
                "rounds": rounds,
                "players": _players(frame, rounds),
            }
        )
    fide = bool(table["pre_from"].eq("fide").any())
    text = render(
        "msa.html",
        title=title,
        # A player in several sections is one player (one without an ID is one per row).
        facts=[
            ("sections", str(len(sections))),
            ("players", str(table["id"].nunique() + int(table["id"].isna().sum()))),
        ],
        sections=sections,
        legend=LEGEND.format(colour=COLOUR),
        fide_note=FIDE_NOTE if fide else "",
        index_link="index.html",
        body_class="msa",
    )
    path.write_text(text, encoding="utf-8")


def msa_sheet(table: pd.DataFrame, title: str) -> Sheet:
    """The Crosstable sheet: a row per player of each section, the rounds as the MSA writes
    them, and the rating before and after as whole numbers beside the MSA's text."""
    rounds = [c for c in table.columns if c.startswith("round_")]
    frame = pd.DataFrame(
        {
            "pair": table["pair"],
            "name": table["name"],
            "id": table["id"],
            "federation": table["federation"].replace("", pd.NA),
            "total": table["total"],
            # A round the section does not have (or the player sat out) is an empty cell.
            **{f"Rd {c.removeprefix('round_')}": table[c].replace("", pd.NA) for c in rounds},
            "pre": table["pre"].astype("Int64"),
            "post": table["post"].astype("Int64"),
            "rating": pre_texts(table) + " → " + table["post_text"],
            # Last: a printed page holds the MSA's columns beside the names.
            "event": table["event"],
            "section": table["section"],
        }
    )
    notes = [LEGEND.format(colour="")] + ([FIDE_NOTE] if table["pre_from"].eq("fide").any() else [])
    return Sheet(
        "Crosstable",
        frame=frame,
        heading=[f"Crosstable (US Chess MSA) — {title}", *notes],
        formats={"pre": "0", "post": "0", "pair": "0", "total": "0.0"},
        keys=2,
        widths={"section": 30},
    )
