"""The norm files (docs/norms.md): norms.csv with the columns of the contract, norms.html
(the event's sortable table), a certificate page per norm, and a title application's
application.csv and application.html. They format; the numbers are
``norms.search``'s and ``norms.certificate``'s."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pandas as pd

from rating_batch.titles.application import Verdict
from rating_batch.titles.certificate import Certificate
from rating_batch.titles.search import NORMS_COLUMNS, EventNorms
from rating_batch.writers.csvfile import write_csv
from rating_batch.writers.html import fill_rows, render


def write_norms_csv(rows: pd.DataFrame, path: Path, columns: Sequence[str] = NORMS_COLUMNS) -> None:
    """norms.csv: one row per player and norm title, the contract's columns in order (a
    published period's: then the event's key)."""
    write_csv(rows[list(columns)].reset_index(drop=True), path)


#: The columns norms.html shows.
_SHOWN = ("name", "id", "federation", "title", "norm_title", "norm", "games", "points", "Ra",
          "Rp", "p", "rounds_counted", "failing")  # fmt: skip


def write_norms_html(found: EventNorms, path: Path, folder: str = "norms") -> None:
    """The event's table of every player's result per norm title, each norm linking to its
    certificate in ``folder``."""
    from markupsafe import Markup, escape

    shown = found.rows[list(_SHOWN)]
    link = folder + "/" + shown["id"].astype(str) + "-" + shown["norm_title"] + ".html"
    norm = shown["norm"].to_numpy(bool)
    rows = shown.assign(
        points=shown["points"].map(lambda v: f"{v:g}"),
        row_class=np.where(norm, "norm", ""),
        result_html=np.where(
            norm, '<a href="' + link.map(lambda t: str(escape(t))) + '">NORM</a>', "no"
        ),
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
        rows_html=Markup("".join(fill_rows("norm_row", rows, "norms_rows.html"))),
        norms=rows.assign(link=link)[norm][["name", "norm_title", "link"]].to_dict("records"),
    )
    path.write_text(page, encoding="utf-8")


def write_certificate(
    cert: Certificate, path: Path, index_link: str | None = "../norms.html"
) -> None:
    """One IT1-shaped certificate, printable on A4 (``index_link``: the event's norms.html,
    None where there is none: a published period's)."""
    page = render(
        "certificate.html",
        title=cert.title,
        facts=None,
        index_link=index_link,
        index_label="all norms of the event",
        body_class="certificate",
        cert=cert,
    )
    path.write_text(page, encoding="utf-8")


def write_application_csv(verdict: Verdict, path: Path) -> None:
    """application.csv: one row, ``title, eligible, norm_games, rating_ok, failing``."""
    frame = pd.DataFrame(
        {
            "title": [verdict.application.title],
            "eligible": [verdict.eligible],
            "norm_games": [verdict.norm_games],
            "rating_ok": [verdict.rating_ok],
            "failing": [verdict.failing],
        }
    )
    write_csv(frame, path)


def write_application_html(verdict: Verdict, path: Path) -> None:
    """The application as an IT2 form sets it out, printable on A4."""
    application = verdict.application
    page = render(
        "application.html",
        title=f"Title application: {application.name}, {application.title}",
        facts=None,
        index_link=None,
        body_class="certificate",
        verdict=verdict,
        application=application,
        norms=list(zip(application.norms, verdict.credits, strict=True)),
    )
    path.write_text(page, encoding="utf-8")
