"""The norm files (docs/norms.md): norms.csv with the columns of the contract, norms.html
(the event's sortable table) and a certificate page per norm. They format; the numbers are
``norms.search``'s and ``norms.certificate``'s."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from rating_batch.norms.certificate import Certificate
from rating_batch.norms.search import NORMS_COLUMNS, EventNorms
from rating_batch.writers.csvfile import write_csv
from rating_batch.writers.html import render


def write_norms_csv(rows: pd.DataFrame, path: Path) -> None:
    """norms.csv: one row per player and norm title, the contract's columns in order."""
    write_csv(rows[list(NORMS_COLUMNS)].reset_index(drop=True), path)


def write_norms_html(found: EventNorms, path: Path, folder: str = "norms") -> None:
    """The event's table of every player's result per norm title, each norm linking to its
    certificate in ``folder``."""
    rows = (
        found.rows.assign(
            link=folder
            + "/"
            + found.rows["id"].astype(str)
            + "-"
            + found.rows["norm_title"]
            + ".html",
            points=found.rows["points"].map(lambda v: f"{v:g}"),
            failing=found.rows["failing"].fillna(""),
        )
        .astype(object)
        .fillna("")
    )
    facts = found.facts
    info = facts.info
    page = render(
        "norms.html",
        title=f"Norms: {info.name or info.key}",
        facts=[
            ("Dates", f"{info.start or '?'} – {info.end or '?'}"),
            ("Players", facts.players),
            ("Rounds", facts.rounds),
        ],
        index_link=None,
        edition=facts.rules.edition,
        format=facts.format,
        notes=list(facts.notes),
        rows=rows.to_dict("records"),
        norms=rows[found.rows["norm"].to_numpy(bool)].to_dict("records"),
    )
    path.write_text(page, encoding="utf-8")


def write_certificate(cert: Certificate, path: Path) -> None:
    """One IT1-shaped certificate, printable on A4."""
    page = render(
        "certificate.html",
        title=cert.title,
        facts=None,
        index_link="../norms.html",
        body_class="certificate",
        cert=cert,
    )
    path.write_text(page, encoding="utf-8")
