"""A player's report under another rating system (``system_explain.SystemPlayerReport``)
three ways: text for a terminal of 100 columns, ``player-ID.xlsx`` (Summary, History, a
chart per list kind, the Calculations grouped by list and game or event) and
``player-ID.html`` (one printable page). Every column is headed by the system's own symbol
(Glicko-2's r, RD, σ, g, E, v, Δ …) and shown to the same decimals in all three."""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
import pandas as pd

from rating_batch.periods import shown
from rating_batch.systems.base import StateSystem
from rating_batch.systems.elo.rules import KINDS
from rating_batch.systems.explain import SystemListPart, SystemPlayerReport
from rating_batch.values import as_float, missing
from rating_batch.writers.common import half_away_text, list_values
from rating_batch.writers.html import STATUS_TEXT, render
from rating_batch.writers.player import identity_rows
from rating_batch.writers.workbook import (
    Sheet,
    history_charts,
    write_calculations_sheet,
    write_workbook,
)

#: The terminal report fits this many columns.
WIDTH = 100
#: A column's heading under a system (``heading``, or the history's ``_history_heading``).
Namer = Callable[[StateSystem, str], str]
#: Headings of the columns every system shares.
SHARED = {
    "kind": "list", "period": "period", "event": "event", "round": "Rd",
    "opponent_name": "opponent", "score": "result", "games": "games", "status": "status",
}  # fmt: skip


def heading(system: StateSystem, column: str) -> str:
    """A column's heading: the system's symbol, else the shared one, else its name."""
    return system.notation.get(column, (SHARED.get(column, column), 2))[0]


def digits(system: StateSystem, column: str) -> int:
    return system.notation.get(column, ("", 2))[1]


def cell(system: StateSystem, column: str, value: object) -> str:
    """A value as every report shows it: missing as nothing, scores as points (½), numbers
    to the system's decimals, text as it is."""
    if missing(value):
        return ""
    if column == "status":
        return STATUS_TEXT.get(str(value), str(value))
    if isinstance(value, str):
        return value
    if isinstance(value, bool | np.bool_):
        return "✓" if value else "–"  # a flag (the DWZ's umgestuft 2026), in any language
    if column == "score":
        return points(as_float(value))
    if column in ("round", "games"):
        return f"{as_float(value):.0f}"
    return half_away_text(as_float(value), digits(system, column))


def points(value: float) -> str:
    whole, half = int(value), value % 1 >= 0.5
    return f"{whole or ''}½" if half else str(whole)


#: Headings of the history's columns that every system shares (a list's totals).
HISTORY = {"score": "points", "games": "games"}


def _history_heading(system: StateSystem, column: str) -> str:
    return HISTORY.get(column) or heading(system, column)


def _shown_history(report: SystemPlayerReport) -> pd.DataFrame:
    """The history with each list's period as the reports name it."""
    history = report.history()
    return history.assign(period=history["period"].map(shown)) if len(history) else history


def _played(report: SystemPlayerReport, part: SystemListPart) -> str:
    """``rated: 12 games, 9½ points``."""
    games = int(as_float(part.player.get("games") or 0))
    score = cell(report.system, "score", part.player.get("score")) or "0"
    status = cell(report.system, "status", part.player.get("status"))
    return f"{status}: {games} game{'s' * (games != 1)}, {score} point{'s' * (score != '1')}"


def _headline(report: SystemPlayerReport, part: SystemListPart) -> str:
    """``2026-02 standard (rated): 12 games, 9½ points``."""
    status, _, games = _played(report, part).partition(": ")
    return f"{shown(part.period)} {part.kind} ({status}): {games}"


def _values_text(report: SystemPlayerReport, part: SystemListPart) -> str:
    """``r 1500.00 · RD 200.00 · σ 0.060000 · v 1.7785 · Δ -0.4834 → r′ 1464.05 · …``."""
    before, after = report.before_values(part), report.after_values(part)
    system = report.system

    def joined(values: dict[str, object]) -> str:
        shown = {c: cell(system, c, v) for c, v in values.items()}
        return " · ".join(f"{heading(system, c)} {text}" for c, text in shown.items() if text)

    return f"{joined(before)} → {joined(after)}"


# -- text -----------------------------------------------------------------------------------


def system_player_text(report: SystemPlayerReport) -> str:
    """The report for a terminal: the state after each list, then each list the player
    played in: his values in it and his games (or events)."""
    system = report.system
    lines = [report.heading(), *textwrap.wrap(
        f"rated under {system.name}: {system.title} (docs/systems.md)", WIDTH)]  # fmt: skip
    if not report.parts:
        lines.append("no published list has rated this player yet")
    for kind, rows in _by_kind(_shown_history(report)):
        lines += ["", f"{kind} list history (the state after each list)"]
        lines += _table(system, rows.drop(columns=["kind"]), "  ", _history_heading)
    for part in report.parts:
        if not part.played:
            continue
        lines += ["", _headline(report, part)]
        lines += textwrap.wrap(_values_text(report, part), WIDTH, initial_indent="  ",
                               subsequent_indent="    ")  # fmt: skip
        worked = _worked(report, part)
        for event, games in report.game_rows(part).groupby("event", sort=False):
            lines.append(f"  {event}")
            once = [c for c in system.event_values if c in games.columns]
            values = {c: cell(system, c, games[c].iloc[0]) for c in once}
            shown = " · ".join(f"{heading(system, c)} {text}" for c, text in values.items() if text)
            lines += textwrap.wrap(shown, WIDTH, initial_indent="    ", subsequent_indent="    ")
            for line in worked.get(str(event), []):
                lines += textwrap.wrap(line, WIDTH, initial_indent="    ",
                                       subsequent_indent="      ")  # fmt: skip
            lines += _table(system, games.drop(columns=["event", *once]), "    ", heading)
    return "\n".join(lines)


def _worked(report: SystemPlayerReport, part: SystemListPart) -> dict[str, list[str]]:
    """Per event of the list, the player's worked lines in the system's notation
    (``StateSystem.worked``: the DWZ's "Rn = 1912 + 800 × (3 − 3,538) / (28 + 5) = 1899")."""
    rows = part.rows
    if "event" not in rows or rows.empty:
        return {}
    firsts = rows.drop_duplicates("event")
    listed = list_values(part.player)
    return {
        str(values["event"]): lines
        for values in firsts.to_dict("records")
        if (lines := report.system.worked({**listed, **{str(k): v for k, v in values.items()}}))
    }


def _by_kind(history: pd.DataFrame) -> list[tuple[str, pd.DataFrame]]:
    if history.empty:
        return []
    return [(kind, history[history["kind"] == kind]) for kind in KINDS
            if (history["kind"] == kind).any()]  # fmt: skip


def _table(system: StateSystem, frame: pd.DataFrame, indent: str, namer: Namer) -> list[str]:
    """A frame as aligned columns: text left, numbers right."""
    columns = [c for c in frame.columns if frame[c].notna().any()]
    heads = [namer(system, str(c)) for c in columns]
    cells = [[cell(system, str(c), row[c]) for c in columns] for row in frame.to_dict("records")]
    widths = [max([len(h), *(len(r[i]) for r in cells)]) for i, h in enumerate(heads)]
    text = [c in ("period", "opponent_name", "status", "event") for c in columns]
    lines = []
    for row in [heads, *cells]:
        parts = [v.ljust(w) if left else v.rjust(w)
                 for v, w, left in zip(row, widths, text, strict=True)]  # fmt: skip
        lines.append((indent + "  ".join(parts)).rstrip())
    return lines


# -- workbook -------------------------------------------------------------------------------


def _format(places: int) -> str:
    return "0" if places == 0 else "0." + "0" * places


def _formats(system: StateSystem, columns: Sequence[str]) -> dict[str, str]:
    return {c: _format(digits(system, c)) for c in columns if c in system.notation}


def write_system_player_workbook(report: SystemPlayerReport, path: Path) -> None:
    """Summary, History (the state after each list), a chart of the published rating per
    list kind, and the Calculations: per list the player's values (bold, level 0), then
    each game or event (level 1)."""
    system = report.system
    title = report.heading()
    history = _shown_history(report)
    if len(history):
        history = history.assign(status=history["status"].map(STATUS_TEXT))
    sheets = [
        Sheet("Summary", rows=_summary_rows(report)),
        Sheet(
            "History",
            frame=history,
            heading=[f"{title} — the state after each list"],
            labels={c: _history_heading(system, c) for c in history.columns},
            formats=_formats(system, list(history.columns)),
        ),
    ]
    published = system.published.removeprefix("new_")  # the history names the state plainly
    if len(history):
        sheets += history_charts(history, published, title, _format(digits(system, published)))
    calculations = _calculation_frame(report)
    sheets.append(
        Sheet(
            "Calculations",
            frame=calculations,
            writer=write_calculations_sheet,
            heading=[f"{title} — calculations ({system.name}, docs/systems.md)"],
            labels={c: heading(system, c) for c in calculations.columns} | {"score": "points"},
            formats=_formats(system, list(calculations.columns)),
        )
    )
    write_workbook(sheets, path)


def _summary_rows(report: SystemPlayerReport) -> list[Sequence[object]]:
    rows = [
        *identity_rows(report, report.system.id_name),
        ["System", f"{report.system.name}: {report.system.title}"],
        [],
        ["Lists"],
    ]
    for part in report.parts:
        rows.append([f"{part.kind} {shown(part.period)}", _headline(report, part)])
        if part.played:
            rows.append(["", _values_text(report, part)])
            for event, lines in _worked(report, part).items():
                rows += [[event if i == 0 else "", line] for i, line in enumerate(lines)]
    rows += [[], ["Calculations"], ["", report.system.explained]]
    return rows


def _calculation_frame(report: SystemPlayerReport) -> pd.DataFrame:
    """One row per list the player played in (level 0: his values in it) and per game or
    event (level 1), the columns as the system names them."""
    rows: list[dict[str, object]] = []
    order = ["kind", "period", "event", "round", "opponent_name", "score"]
    for part in report.parts:
        if not part.played:
            continue
        head = {"kind": part.kind, "period": shown(part.period), "level": 0}
        games = report.game_rows(part)
        rows.append(head | {"games": part.player.get("games"), "score": part.player.get("score"),
                            **report.before_values(part), **report.after_values(part)})  # fmt: skip
        for game in games.to_dict("records"):
            rows.append(head | {"level": 1} | {str(k): v for k, v in game.items()})
        order += [c for c in games.columns if c not in order]
    frame = pd.DataFrame(rows)
    if frame.empty:
        return pd.DataFrame({"kind": pd.Series(dtype="string"), "level": pd.Series(dtype=int)})
    # Each game's (or event's) own columns beside it, then the list's: games and his values.
    first = [c for c in order if c in frame.columns]
    frame = frame[first + [c for c in frame.columns if c not in first]]
    for column in frame.columns:
        if column in ("round", "games"):
            frame[column] = pd.to_numeric(frame[column]).astype("Int64")
        elif column != "level" and frame[column].map(lambda v: isinstance(v, str)).any():
            frame[column] = frame[column].astype("string")
        elif column != "level":
            frame[column] = pd.to_numeric(frame[column]).astype("Float64")
    frame["level"] = frame["level"].astype("int64")
    return frame


# -- HTML -----------------------------------------------------------------------------------


def write_system_player_html(report: SystemPlayerReport, path: Path) -> None:
    """The report as one printable page: the history table, then per list the player's
    values and a table per event."""
    system = report.system
    lists = []
    for part in report.parts:
        if not part.played:
            continue
        values = {**report.before_values(part), **report.after_values(part)}
        worked = _worked(report, part)
        events = [
            {
                "event": event,
                "worked": worked.get(str(event), []),
                **_html_table(system, games.drop(columns=["event"]), heading),
            }
            for event, games in report.game_rows(part).groupby("event", sort=False)
        ]
        lists.append(
            {
                "title": f"{part.kind} list {shown(part.period)}",
                "headline": _played(report, part),
                "values": _html_table(system, pd.DataFrame([values]), heading),
                "events": events,
            }
        )
    text = render(
        "system_player.html",
        title=report.heading(),
        facts=[("rated under", system.title)],
        index_link=None,
        history=_html_table(system, _shown_history(report), _history_heading),
        explanation=system.explained,
        lists=lists,
    )
    path.write_text(text, encoding="utf-8")


def _html_table(system: StateSystem, frame: pd.DataFrame, namer: Namer) -> dict[str, object]:
    """Headings (with their CSS class) and rows of cell texts: the same texts as the
    terminal's."""
    columns = [c for c in frame.columns if frame[c].notna().any()]
    text = {"period", "opponent_name", "status", "event", "kind"}
    return {
        "heads": [(namer(system, str(c)), "text" if c in text else "") for c in columns],
        "rows": [
            [(cell(system, str(c), row[c]), "text" if c in text else "") for c in columns]
            for row in frame.to_dict("records")
        ],
    }
