"""A player's report under FIDE Elo (``elo.explain.PlayerReport``) or any other system
(``systems.explain.SystemPlayerReport``) three ways: text for a terminal of 100 columns,
``player-ID.xlsx`` (the player's name and ID on every sheet, history charts) and
``player-ID.html`` (printable). One writer per format; what differs is data: the tables'
columns (``Column``: FIDE's fixed widths and notation, or the system's own symbols to its
decimals, docs/systems.md, the same in all three), the lines of each list, the sheets, the
page's template."""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Container, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

import numpy as np
import pandas as pd

from rating_batch.periods import INITIAL, shown
from rating_batch.systems.base import StateSystem
from rating_batch.systems.elo.explain import PeriodPart, PlayerReport
from rating_batch.systems.explain import SystemListPart, SystemPlayerReport
from rating_batch.values import as_float, missing
from rating_batch.writers.common import half_away_text, list_values
from rating_batch.writers.html import STATUS_TEXT, anchor, empty_columns, render
from rating_batch.writers.player_titles import elo_tail, title_parts, title_sheets
from rating_batch.writers.workbook import (
    Sheet,
    history_charts,
    write_calculations_sheet,
    write_workbook,
)

#: The terminal report fits this many columns.
WIDTH = 100
#: A player's report under any system.
Report = PlayerReport | SystemPlayerReport
Row = Mapping[Hashable, Any]
#: A table's rows: records, or a frame's.
Rows = Iterable[Row] | pd.DataFrame


def _wrapped(text: str, indent: str, more: str = "  ") -> list[str]:
    return textwrap.wrap(text, WIDTH, initial_indent=indent, subsequent_indent=indent + more)


@dataclass(frozen=True)
class Column:
    """A column of a report's table: its heading and its cell's text from a row, in the
    terminal as in the page (``left``: text, aligned left; the page's class ``text``)."""

    head: str
    text: Callable[[Row], str]
    width: int = 0
    """In the terminal: at least this wide, text cut to it; 0: as wide as its widest cell."""
    left: bool = False
    gap: str = "  "
    """Before the column in the terminal (none before the first)."""
    head_gap: str | None = None
    """Before its heading, where not ``gap`` (FIDE's PD: D*'s cells end in their cap mark)."""

    def cell(self, row: Row) -> str:
        text = self.text(row)
        return text[: self.width - 1] + "…" if self.left and 0 < self.width < len(text) else text


def _str(value: object) -> str:
    return "" if value is None else str(value)


def _table(columns: Sequence[Column], rows: Rows, indent: str) -> list[str]:
    """Aligned columns of text, a heading line first."""
    records = rows.to_dict("records") if isinstance(rows, pd.DataFrame) else rows
    cells = [[c.cell(row) for c in columns] for row in records]
    widths = [c.width or max([len(c.head), *(len(r[i]) for r in cells)])
              for i, c in enumerate(columns)]  # fmt: skip
    lines = []
    for head, row in [(True, [c.head for c in columns]), *((False, r) for r in cells)]:
        gaps = [
            "",
            *(c.head_gap if head and c.head_gap is not None else c.gap for c in columns[1:]),
        ]
        lines.append((indent + "".join(
            gap + (text.ljust(width) if c.left else text.rjust(width))
            for gap, text, width, c in zip(gaps, row, widths, columns, strict=True)
        )).rstrip())  # fmt: skip
    return lines


def _html_table(columns: Sequence[Column], rows: Rows) -> dict[str, object]:
    """The same headings and cell texts for the page, each with its CSS class."""
    css = ["text" if c.left else "" for c in columns]
    records = rows.to_dict("records") if isinstance(rows, pd.DataFrame) else rows
    return {
        "heads": [(c.head, k) for c, k in zip(columns, css, strict=True)],
        "rows": [[(c.text(row), k) for c, k in zip(columns, css, strict=True)]
                 for row in records],
    }  # fmt: skip


def _columns(
    system: StateSystem, frame: pd.DataFrame, named: Callable[[StateSystem, str], str] | None = None
) -> list[Column]:
    """A frame's columns that hold a value, under the system's symbols."""

    def column(c: str) -> Column:
        return Column((named or heading)(system, c), lambda row: cell(system, c, row[c]),
                      left=c in TEXT)  # fmt: skip

    return [column(str(c)) for c in frame.columns if frame[c].notna().any()]


# -- FIDE Elo: its numbers and its tables ---------------------------------------------------


def _number(value: object, digits: int = 0, signed: bool = False) -> str:
    if missing(value):
        return ""
    text = f"{as_float(value):{'+' if signed else ''}.{digits}f}"
    return text[1:] if signed and text[1:].strip("0.") == "" else text


def _points(value: object) -> str:
    return "" if value is None else f"{as_float(value):g}"


def _elo(key: str, head: str, width: int, digits: int = 0, signed: bool = False,
         gap: str = " ") -> Column:  # fmt: skip
    return Column(head, lambda row: _number(row.get(key), digits, signed), width, gap=gap)


def _text(key: str, head: str, width: int, gap: str = " ") -> Column:
    return Column(head, lambda row: _str(row.get(key)), width, True, gap)


def _capped(row: Row) -> str:
    return f"{_number(row['diff']):>4}{'*' if row.get('capped') else ' '}"


SCORE = Column("res", lambda row: _points(row.get("score")), 4, gap=" ")
ELO_HISTORY = [
    Column("list", lambda row: shown(row["period"]), 8, True),
    Column("rating", lambda row: _number(row["rating"]) or "unrated", 7, gap=" "),
    _elo("k", "K", 3), Column("games", lambda row: str(row["games"]), 5, gap=" "),
    _elo("games_total", "total", 5),
    Column("", lambda row: "  inactive" if row["inactive"] else "", left=True, gap=""),
]  # fmt: skip
ELO_GAMES = [
    _elo("round", "Rd", 2), _text("opponent_name", "opponent", 26, "  "),
    _text("opponent_title", "Ti", 3), _text("opponent_federation", "Fed", 3),
    _elo("opponent_rating", "Ri", 5), SCORE, _elo("raw_diff", "D", 5),
    Column("D*", _capped, 5, gap=" "), Column("PD", lambda row: _number(row["expected"], 2), 5,
                                              gap="", head_gap=" "),
    _elo("delta", "ΔR", 6, 2, True), _elo("k_delta", "K·ΔR", 7, 2, True),
]  # fmt: skip
ELO_POOL = [
    Column("period", lambda row: "(rules)" if _hypothetical(row) else _str(row.get("period")),
           8, True),
    Column("event", lambda row: "" if _hypothetical(row) else _str(row.get("title")), 32, True,
           " "),
    _elo("round", "Rd", 2), _text("opponent_name", "opponent", 26, "  "),
    _elo("opponent_rating", "Ri", 5), SCORE,
]  # fmt: skip


def _hypothetical(row: Row) -> bool:
    return row.get("event") == "hypothetical"


#: The player workbook's calculation columns in FIDE's notation (a page wide when printed).
SHORT_LABELS = {
    "round": "Rd", "opponent_name": "opponent", "opponent_title": "Ti",
    "opponent_federation": "Fed", "rating": "Ro", "opponent_rating": "Ri", "raw_diff": "D",
    "diff": "D*", "rc": "Rc", "w": "W", "games": "n", "expected": "PD", "we": "We",
    "delta": "ΔR", "k": "K", "k_delta": "K·ΔR", "change": "K·ΣΔR", "new_rating": "Rn",
    "ra_rated": "Ra (rated)", "ra": "Ra", "first_rating": "Ru",
}  # fmt: skip


# -- another system: its notation -----------------------------------------------------------


#: Headings of the columns every system shares.
SHARED = {
    "kind": "list", "period": "period", "event": "event", "round": "Rd",
    "opponent_name": "opponent", "score": "result", "games": "games", "status": "status",
}  # fmt: skip
#: Headings of the history's columns that every system shares (a list's totals).
HISTORY = {"score": "points", "games": "games"}
#: Columns shown as text (left), in every system's tables.
TEXT = {"period", "opponent_name", "status", "event", "kind"}


def heading(system: StateSystem, column: str) -> str:
    """A column's heading: the system's symbol, else the shared one, else its name."""
    return system.notation.get(column, (SHARED.get(column, column), 2))[0]


def _history_heading(system: StateSystem, column: str) -> str:
    return HISTORY.get(column) or heading(system, column)


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


def _joined(system: StateSystem, values: Mapping[str, object]) -> str:
    """``r 1500.00 · RD 200.00 · σ 0.060000``: the values that are given, by their symbols."""
    shown = {c: cell(system, c, v) for c, v in values.items()}
    return " · ".join(f"{heading(system, c)} {text}" for c, text in shown.items() if text)


def _values_text(report: SystemPlayerReport, part: SystemListPart) -> str:
    """``r 1500.00 · RD 200.00 · σ 0.060000 · v 1.7785 · Δ -0.4834 → r′ 1464.05 · …``."""
    before, after = report.before_values(part), report.after_values(part)
    return f"{_joined(report.system, before)} → {_joined(report.system, after)}"


def _worked(report: SystemPlayerReport, part: SystemListPart) -> dict[str, list[str]]:
    """Per event of the list, the player's worked lines in the system's notation
    (``StateSystem.worked``: the DWZ's "Rn = 1912 + 800 × (3 − 3,538) / (28 + 5) = 1899")."""
    rows = part.rows
    if "event" not in rows or rows.empty:
        return {}
    listed = list_values(part.player)
    return {
        str(values["event"]): lines
        for values in rows.drop_duplicates("event").to_dict("records")
        if (lines := report.system.worked({**listed, **{str(k): v for k, v in values.items()}}))
    }


# -- text -----------------------------------------------------------------------------------


def player_text(report: Report) -> str:
    """The report for a terminal: the history per list kind, then each list the player
    played in (its calculation: events, games, a first rating), then what is still to come."""
    system: StateSystem | None = None
    if isinstance(report, PlayerReport):
        history, note = report.history, "rating"
        intro = ["no rating history"] if history.empty else []
        sections = [_period_text(part) for part in report.parts] + elo_tail(report)
    else:
        system, history, note = report.system, _shown_history(report), "the state"
        intro = _wrapped(f"rated under {system.name}: {system.title} (docs/systems.md)", "", "")
        intro += [] if report.parts else ["no published list has rated this player yet"]
        sections = [_list_text(report, part) for part in report.parts if part.played]
    lines = [report.heading(), *intro]
    for kind, rows in history.groupby("kind", sort=False) if len(history) else []:
        rows = rows.drop(columns=["kind"])
        columns = ELO_HISTORY if system is None else _columns(system, rows, _history_heading)
        lines += ["", f"{kind} list history ({note} after each list)", *_table(columns, rows, "  ")]
    for section in sections:
        lines += ["", *section]
    return "\n".join(lines)


def _period_text(part: PeriodPart) -> list[str]:
    lines = _wrapped(f"{part.kind} list {part.period} (rules {part.rules})", "")
    status = STATUS_TEXT.get(part.status, part.status)
    head = f"  {status}" + (f": Ro {_number(part.rating)}" if part.rating is not None else "")
    lines.append(head + (f", K {part.k}" if part.k is not None and part.events else ""))
    if part.note:
        lines += _wrapped(part.note, "  ")
    for event in part.events:
        lines += _wrapped(f"event {event.label.title} ({event.event}), {event.label.dates}", "  ")
        lines += _wrapped(
            f"Ro {_number(event.ro)} · Rc {_number(event.rc)} · W {_points(event.w)} of n "
            f"{event.n} · We {_number(event.we, 2)} · K {_number(event.k)} · ΣΔR "
            f"{_number(event.delta, 2, True)} · K·ΣΔR {_number(event.change, 2, True)}", "    "
        )  # fmt: skip
        lines += _table(ELO_GAMES, event.games, "    ")
    if (result := part.derivation) is not None:
        lines.append("  toward a first rating: the games pooled over periods, then the rules' "
                     "hypothetical opponents")  # fmt: skip
        lines += _table(ELO_POOL, part.pool, "    ")
        ra = _number(result["ra"], 2)
        if result["ra"] != result["ra_rated"]:
            rated = _number(result["ra_rated"], 2)
            ra = f"of the rated opponents {rated}, with the hypothetical ones {ra}"
        lines += _wrapped(
            f"n {_number(result['games'])} game(s) against rated opponents, W "
            f"{_points(result['score'])} · Ra {ra} · p {_number(result['p'], 2)} · dp "
            f"{_number(result['dp'], 0, True)} · Ru {_number(result['first_rating'])}", "  "
        )  # fmt: skip
        lines += _wrapped(str(result["formula"]), "  ")
    return lines + _wrapped(part.verdict, "  ")


def _list_text(report: SystemPlayerReport, part: SystemListPart) -> list[str]:
    """A list of another system: his values, then each game or event under its worked lines."""
    system = report.system
    lines = [_headline(report, part), *_wrapped(_values_text(report, part), "  ")]
    worked = _worked(report, part)
    for event, games in report.game_rows(part).groupby("event", sort=False):
        lines.append(f"  {event}")
        once = [c for c in system.event_values if c in games.columns]
        lines += _wrapped(_joined(system, {c: games[c].iloc[0] for c in once}), "    ", "")
        for line in worked.get(str(event), []):
            lines += _wrapped(line, "    ")
        games = games.drop(columns=["event", *once])
        lines += _table(_columns(system, games), games, "    ")
    return lines


# -- workbook -------------------------------------------------------------------------------


def write_player_workbook(report: Report, path: Path) -> None:
    """Summary, History (the state after each list), the Calculations of every list (grouped:
    list, event, game), a chart of the published rating per list kind, and the games pending
    toward a first rating (FIDE Elo, when there are any)."""
    sheets = _elo_sheets(report) if isinstance(report, PlayerReport) else _system_sheets(report)
    write_workbook([Sheet("Summary", rows=_summary_rows(report)), *sheets], path)


def _summary_rows(report: Report) -> list[Sequence[object]]:
    """Who the player is (by the id the system's lists key players by), then each list."""
    id_name = report.system.id_name if isinstance(report, SystemPlayerReport) else "FIDE ID"
    rows: list[Sequence[object]] = [
        [report.heading()], [], ["Name", report.name],
        [id_name, report.fide_id or f"none ({report.label})"],
        ["Federation", report.federation or ""], ["Born", report.born or ""],
    ]  # fmt: skip
    if isinstance(report, PlayerReport):
        rows += [[], ["Lists"]]
        for part in report.parts:
            rows += [[f"{part.kind} {part.period}", part.verdict]]
            rows += [["", part.note]] if part.note else []
        return rows + [[e, "the database holds no files of this publish"] for e in report.missing]
    system = report.system
    rows += [["System", f"{system.name}: {system.title}"], [], ["Lists"]]
    for each in report.parts:
        rows.append([f"{each.kind} {shown(each.period)}", _headline(report, each)])
        if each.played:
            rows.append(["", _values_text(report, each)])
            for event, lines in _worked(report, each).items():
                rows += [[event if i == 0 else "", line] for i, line in enumerate(lines)]
    return [*rows, [], ["Calculations"], ["", system.explained]]


def _elo_sheets(report: PlayerReport) -> list[Sheet]:
    title = report.heading()
    history = report.history.assign(
        period=report.history["period"].replace(INITIAL, "initial"),
        inactive=report.history["inactive"].astype(bool),
    )
    for column in ("rating", "k", "games", "games_total"):  # ratings are whole numbers
        history[column] = pd.to_numeric(history[column]).astype("Int64")
    pending = report.pending.assign(score=report.pending["half"] / 2).drop(columns=["half"])
    calculations = _elo_frame(report.parts)
    # The opponent column as wide as the names: the sentences spread over the next columns.
    names = calculations["opponent_name"].where(calculations["round"].notna()).str.len().dropna()
    return [
        Sheet("History", frame=history, heading=[f"{title} — rating history"], keys=2),
        Sheet("Calculations", frame=calculations, writer=write_calculations_sheet,
              heading=[f"{title} — individual calculations"], labels=SHORT_LABELS,
              keys=3,  # kind, period, event
              widths={"opponent_name": int(names.max()) + 3 if len(names) else 12}),
        *([Sheet("Pending", frame=pending, heading=[f"{title} — games toward a first rating"])]
          if len(pending) else []),  # none: no page saying so
        *history_charts(history, "rating", title), *title_sheets(report, title),
    ]  # fmt: skip


def _format(places: int) -> str:
    return "0" if places == 0 else "0." + "0" * places


def _system_sheets(report: SystemPlayerReport) -> list[Sheet]:
    system, title = report.system, report.heading()
    history = _shown_history(report)
    if len(history):
        history = history.assign(status=history["status"].map(STATUS_TEXT))
    calculations = _system_frame(report)

    def formats(frame: pd.DataFrame) -> dict[str, str]:
        return {str(c): _format(digits(system, str(c))) for c in frame if c in system.notation}

    published = system.published.removeprefix("new_")  # the history names the state plainly
    return [
        Sheet("History", frame=history, heading=[f"{title} — the state after each list"],
              labels={c: _history_heading(system, c) for c in history.columns},
              formats=formats(history)),
        *(history_charts(history, published, title, _format(digits(system, published)))
          if len(history) else []),
        Sheet("Calculations", frame=calculations, writer=write_calculations_sheet,
              heading=[f"{title} — calculations ({system.name}, docs/systems.md)"],
              labels={c: heading(system, c) for c in calculations.columns} | {"score": "points"},
              formats=formats(calculations)),
    ]  # fmt: skip


#: The most characters of a line of text in the Calculations sheet: it spreads from the
#: opponent column over the empty cells of its row, on the first page across.
TEXT_WIDTH = 105
#: FIDE's calculation columns, in their order; whole numbers, and decimals (to 2 places).
ELO_COLUMNS = [
    "kind", "period", "event", "round", "opponent_name", "opponent_title",
    "opponent_federation", "rating", "opponent_rating", "raw_diff", "diff", "rc", "w",
    "games", "expected", "we", "delta", "k", "k_delta", "change", "new_rating", "ra_rated",
    "ra", "p", "dp", "first_rating", "level",
]  # fmt: skip
#: What a game row of FIDE's calculation gives its calculation row.
GAME_COLUMNS = ["round", "opponent_name", "opponent_title", "opponent_federation",
                "opponent_rating", "raw_diff", "diff", "expected", "delta", "k",
                "k_delta"]  # fmt: skip
ELO_WHOLE = {"round", "rating", "opponent_rating", "raw_diff", "diff", "rc", "games", "k",
             "new_rating", "dp", "first_rating"}  # fmt: skip
ELO_TEXT = {"kind", "period", "event", "opponent_name", "opponent_title", "opponent_federation"}


def _elo_frame(parts: list[PeriodPart]) -> pd.DataFrame:
    """One row per period (level 0), per event (1) and per game or pooled game (2); what a
    sentence says (the period's outcome, where Ro and K came from, the first rating's
    arithmetic) on rows of its own, its text in the opponent column spreading to the right
    (a column of it would print on a page of its own)."""
    rows: list[dict[str, object]] = []

    def text(level: int, part: PeriodPart, sentence: str) -> None:
        for line in textwrap.wrap(sentence, TEXT_WIDTH, subsequent_indent="  "):
            rows.append({"level": level, "kind": part.kind, "period": part.period,
                         "opponent_name": line})  # fmt: skip

    for part in parts:
        at = {"kind": part.kind, "period": part.period}
        rows.append(at | {"level": 0, "rating": part.rating, "k": part.k, "change": part.change,
                          "new_rating": part.new_rating})  # fmt: skip
        text(0, part, part.verdict)
        if part.note:
            text(1, part, part.note)
        for event in part.events:
            rows.append(at | {"level": 1, "event": event.label.title,
                              "opponent_name": event.label.dates, "rating": event.ro,
                              "rc": event.rc, "w": event.w, "games": event.n, "we": event.we,
                              "k": event.k, "delta": event.delta,
                              "change": event.change})  # fmt: skip
            rows += [at | {"level": 2, "event": event.label.title, "w": game["score"]}
                     | {c: game.get(c) for c in GAME_COLUMNS} for game in event.games]  # fmt: skip
        if (result := part.derivation) is not None:
            rows.append(at | {"level": 1, "event": "first rating", "games": result["games"],
                              "w": result["score"], "ra_rated": result["ra_rated"],
                              "ra": result["ra"], "p": result["p"], "dp": result["dp"],
                              "first_rating": result["first_rating"]})  # fmt: skip
            text(1, part, str(result["formula"]))
            rows += [{"level": 2, "kind": part.kind, "period": game.get("period") or "",
                      "event": game.get("title"), "round": game.get("round"),
                      "opponent_name": game.get("opponent_name"),
                      "opponent_rating": game.get("opponent_rating"), "w": game.get("score")}
                     for game in part.pool]  # fmt: skip
    return _typed(pd.DataFrame(rows, columns=ELO_COLUMNS), ELO_WHOLE, ELO_TEXT, 2)


def _typed(frame: pd.DataFrame, whole: Container[str], text: Container[str] = (),
           places: int = -1) -> pd.DataFrame:  # fmt: skip
    """A calculation frame's columns as the workbook writes them: whole numbers, text (named,
    or holding a string), else decimals (to ``places``, if given); ``level`` as it is."""
    for column in frame.columns.drop("level"):
        if column in whole:
            frame[column] = pd.to_numeric(frame[column]).astype("Int64")
        elif column in text or frame[column].map(lambda v: isinstance(v, str)).any():
            frame[column] = frame[column].astype("string")
        else:
            decimals = pd.to_numeric(frame[column]).astype("Float64")
            frame[column] = decimals.round(places) if places >= 0 else decimals
    frame["level"] = frame["level"].astype("int64")
    return frame


def _system_frame(report: SystemPlayerReport) -> pd.DataFrame:
    """One row per list the player played in (level 0: his values in it) and per game or
    event (level 1), the columns as the system names them."""
    rows: list[dict[str, object]] = []
    order = ["kind", "period", "event", "round", "opponent_name", "score"]
    for part in [part for part in report.parts if part.played]:
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
    return _typed(frame[first + [c for c in frame.columns if c not in first]], {"round", "games"})


# -- HTML -----------------------------------------------------------------------------------


def write_player_html(report: Report, path: Path) -> None:
    """The report as one printable page: the history, then per list its calculation."""
    page = _elo_page(report) if isinstance(report, PlayerReport) else _system_page(report)
    path.write_text(render(title=report.heading(), index_link=None, **page), encoding="utf-8")


#: The columns of the games a player's page leaves out when no opponent fills them.
OPPONENT_COLUMNS = {"no-title": "title", "no-federation": "federation"}


def _elo_page(report: PlayerReport) -> dict[str, Any]:
    opponents: list[dict[Hashable, object]] = [
        {"title": game.get("opponent_title"), "federation": game.get("opponent_federation")}
        for part in report.parts for event in part.events for game in event.games
    ]  # fmt: skip
    history = report.history.assign(period=report.history["period"].map(shown))
    return {
        "template": "player.html", "report": report, "facts": [],
        # Each event's section for the player, where ``publish --out`` wrote it (the page
        # belongs in the folder that holds those periods).
        "links": {(part.kind, part.period, event.event): f"{part.period}/{part.kind}/events/"
                  f"{quote(event.event)}.html#{anchor(report.label)}"
                  for part in report.parts for event in part.events},
        "history": history.to_dict("records"),
        "pending": report.pending.assign(score=report.pending["half"] / 2).to_dict("records"),
        "body_class": " ".join(["player", *empty_columns(opponents, OPPONENT_COLUMNS)]),
        **title_parts(report),
    }  # fmt: skip


def _system_page(report: SystemPlayerReport) -> dict[str, Any]:
    system, lists = report.system, []
    for part in [part for part in report.parts if part.played]:
        values = pd.DataFrame([{**report.before_values(part), **report.after_values(part)}])
        worked = _worked(report, part)
        events = [{"event": event, "worked": worked.get(str(event), []),
                   **_html_table(_columns(system, games.drop(columns=["event"])), games)}
                  for event, games in report.game_rows(part).groupby("event", sort=False)
                  ]  # fmt: skip
        lists.append({"title": f"{part.kind} list {shown(part.period)}",
                      "headline": _played(report, part), "events": events,
                      "values": _html_table(_columns(system, values), values)})  # fmt: skip
    history = _shown_history(report)
    return {
        "template": "system_player.html", "facts": [("rated under", system.title)],
        "history": _html_table(_columns(system, history, _history_heading), history),
        "explanation": system.explained, "lists": lists,
    }  # fmt: skip
