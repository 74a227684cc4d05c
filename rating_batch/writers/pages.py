"""The per-event HTML pages: self-contained, printable, no scripts."""

from __future__ import annotations

import html
from collections.abc import Hashable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

Record = dict[Hashable, object]


def records(frame: pd.DataFrame) -> list[Record]:
    """A frame's rows as dicts of Python values, None for missing: made once for all the
    pages of a period, then shared out (per small frame, pandas costs ~1 ms a page)."""
    names = list(frame.columns)
    columns = [
        frame[name].astype(object).where(frame[name].notna(), None).tolist() for name in names
    ]
    return [dict(zip(names, values, strict=True)) for values in zip(*columns, strict=True)]


@dataclass
class EventPage:
    """What one event's HTML page shows (selected by the pipeline; this module only lays out),
    as rows of Python values (``records``).

    ``crosstable``: one row per player (``player``, ``name``, ``rating``, ``points``) and per
    round ``cell_<r>``, ``counted_<r>``, ``reason_<r>``. ``players``: per player ``player``,
    ``name``, ``id``, ``status``, ``rating``, ``k``, ``games``, ``score``, ``expected``,
    ``change``, ``new_rating``. ``games``: counted games (``player``, ``round``,
    ``opponent_name``, ``opponent_rating``, ``diff``, ``expected``, ``score``, ``delta``).
    """

    title: str
    facts: list[tuple[str, str]]
    rounds: int
    crosstable: list[Record]
    players: list[Record]
    games: list[Record]


PAGE_STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em; color: #111; }
h1 { margin-bottom: 0.2em; } .facts { color: #444; margin-top: 0; }
table { border-collapse: collapse; margin: 0.5em 0 1.5em; font-size: 0.9em; }
th, td { border: 1px solid #bbb; padding: 0.15em 0.45em; text-align: right; }
th { background: #eee; } td.name, th.name { text-align: left; }
td.counted { font-weight: bold; } td.uncounted { color: #888; text-decoration: line-through; }
section.player { break-inside: avoid; page-break-inside: avoid; margin-bottom: 1em; }
.legend, .totals { color: #444; font-size: 0.9em; }
@media print { body { margin: 0.5cm; } a { color: inherit; } }
"""


def _html(value: object, digits: int | None = None) -> str:
    if value is None or value is pd.NA or (isinstance(value, float) and np.isnan(value)):
        return ""
    if digits is not None and isinstance(value, int | float | np.integer | np.floating):
        return f"{float(value):.{digits}f}"
    return html.escape(str(value))


def write_event_html(page: EventPage, path: Path) -> None:
    """One self-contained, printable HTML file: no scripts, no external assets."""
    out = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{_html(page.title)}</title><style>{PAGE_STYLE}</style></head><body>",
        f"<h1>{_html(page.title)}</h1>",
        '<p class="facts">' + " · ".join(f"{_html(k)}: {_html(v)}" for k, v in page.facts) + "</p>",
        "<h2>Crosstable</h2>",
        "<table><thead><tr><th>No.</th><th class=name>Name</th><th>Rtg</th>",
        "".join(f"<th>{r}</th>" for r in range(1, page.rounds + 1)),
        "<th>Pts</th></tr></thead><tbody>",
    ]
    for row in page.crosstable:
        cells = []
        for r in range(1, page.rounds + 1):
            counted = bool(row.get(f"counted_{r}"))
            reason = row.get(f"reason_{r}")
            css = "counted" if counted else "uncounted"
            hint = f' title="{_html(reason)}"' if reason and not counted else ""
            cells.append(f"<td class={css}{hint}>{_html(row.get(f'cell_{r}'))}</td>")
        out.append(
            f"<tr><td>{_html(row['player'])}</td><td class=name>{_html(row['name'])}</td>"
            f"<td>{_html(row['rating'])}</td>{''.join(cells)}<td>{_html(row['points'])}</td></tr>"
        )
    out.append("</tbody></table>")
    out.append(
        '<p class="legend">Bold: counted for rating. Struck through: not counted (hover for the '
        "reason: bye, forfeit, unrated opponent …). In the calculations, D* is the difference "
        "after the 400-point rule.</p><h2>Calculations</h2>"
    )
    games: dict[object, list[dict[Hashable, object]]] = {}
    for game in page.games:
        games.setdefault(game["player"], []).append(game)
    for player in page.players:
        out.append(
            f'<section class="player"><h3>{_html(player["player"])}. {_html(player["name"])} '
            f"({_html(player['id'])}) — {_html(player['status'])}</h3>"
        )
        if player["player"] in games:
            out.append(
                "<table><thead><tr><th>Rd</th><th class=name>Opponent</th><th>Rtg</th><th>D</th>"
                "<th>PD</th><th>Score</th><th>ΔR</th></tr></thead><tbody>"
            )
            for game in games[player["player"]]:
                out.append(
                    f"<tr><td>{_html(game['round'])}</td>"
                    f"<td class=name>{_html(game['opponent_name'])}</td>"
                    f"<td>{_html(game['opponent_rating'])}</td>"
                    f"<td>{_html(game['diff'])}{'*' if game['capped'] else ''}</td>"
                    f"<td>{_html(game['expected'], 2)}</td><td>{_html(game['score'])}</td>"
                    f"<td>{_html(game['delta'], 2)}</td></tr>"
                )
            out.append("</tbody></table>")
        facts = [
            ("rating", _html(player["rating"])),
            ("K", _html(player["k"])),
            ("games", _html(player["games"])),
            ("score", _html(player["score"])),
            ("ΣPD", _html(player["expected"], 2)),
            ("change here", _html(player["change"], 2)),
            ("new rating (period)", _html(player["new_rating"])),
        ]
        shown = " · ".join(f"{k} {v}" for k, v in facts if v)
        out.append(f'<p class="totals">{shown}</p></section>')
    out.append("</body></html>")
    path.write_text("\n".join(out) + "\n", encoding="utf-8")
