"""A player's report (``explain.PlayerReport``) three ways: text for a terminal of 100
columns, ``player-ID.xlsx`` (the player's name and ID on every sheet, history charts) and
``player-ID.html`` (printable)."""

from __future__ import annotations

import textwrap
from collections.abc import Hashable, Sequence
from pathlib import Path
from typing import Protocol
from urllib.parse import quote

import pandas as pd

from rating_batch.periods import INITIAL, shown
from rating_batch.systems.elo.explain import EventPart, PeriodPart, PlayerReport
from rating_batch.values import as_float, missing
from rating_batch.writers.html import STATUS_TEXT, anchor, empty_columns, render
from rating_batch.writers.workbook import (
    Sheet,
    history_charts,
    write_calculations_sheet,
    write_workbook,
)

#: The terminal report fits this many columns.
WIDTH = 100

#: The player workbook's calculation columns in FIDE's notation (a page wide when printed).
SHORT_LABELS = {
    "round": "Rd", "opponent_name": "opponent", "opponent_title": "Ti",
    "opponent_federation": "Fed", "rating": "Ro", "opponent_rating": "Ri", "raw_diff": "D",
    "diff": "D*", "rc": "Rc", "w": "W", "games": "n", "expected": "PD", "we": "We",
    "delta": "ΔR", "k": "K", "k_delta": "K·ΔR", "change": "K·ΣΔR", "new_rating": "Rn",
    "ra_rated": "Ra (rated)", "ra": "Ra", "first_rating": "Ru",
}  # fmt: skip


def _number(value: object, digits: int = 0, signed: bool = False) -> str:
    if missing(value):
        return ""
    text = f"{as_float(value):{'+' if signed else ''}.{digits}f}"
    return text[1:] if signed and text[1:].strip("0.") == "" else text


def _points(value: object) -> str:
    if value is None:
        return ""
    number = as_float(value)
    return f"{number:g}"


def _cut(text: object, width: int) -> str:
    value = "" if text is None else str(text)
    return value if len(value) <= width else value[: width - 1] + "…"


def _wrapped(text: str, indent: str) -> list[str]:
    return textwrap.wrap(text, WIDTH, initial_indent=indent, subsequent_indent=indent + "  ")


# -- text -----------------------------------------------------------------------------------


def player_text(report: PlayerReport) -> str:
    """The report for a terminal: history per list, each published period's calculation,
    pending games."""
    lines = [report.heading()]
    if report.history.empty:
        lines.append("no rating history")
    for kind, rows in report.history.groupby("kind", sort=False):
        lines += ["", f"{kind} list history (rating after each list)"]
        lines.append(f"  {'list':8} {'rating':>7} {'K':>3} {'games':>5} {'total':>5}")
        for row in rows.to_dict("records"):
            rating = _number(row["rating"]) or "unrated"
            flag = "  inactive" if row["inactive"] else ""
            lines.append(
                f"  {shown(row['period']):8} {rating:>7} {_number(row['k']):>3} "
                f"{row['games']:>5} {_number(row['games_total']):>5}{flag}".rstrip()
            )
    for part in report.parts:
        lines += ["", *_period_text(part)]
    for each in report.missing:
        lines += ["", f"{each}: the database holds no files of this publish to explain it"]
    lines += _pending_text(report.pending)
    return "\n".join(lines)


def _period_text(part: PeriodPart) -> list[str]:
    lines = _wrapped(f"{part.kind} list {part.period} (rules {part.rules})", "")
    status = STATUS_TEXT.get(part.status, part.status)
    head = f"  {status}" + (f": Ro {_number(part.rating)}" if part.rating is not None else "")
    lines.append(head + (f", K {part.k}" if part.k is not None and part.events else ""))
    if part.note:
        lines += _wrapped(part.note, "  ")
    for event in part.events:
        lines += _event_text(event)
    if part.derivation is not None:
        lines += _first_rating_text(part)
    lines += _wrapped(part.verdict, "  ")
    return lines


def _event_text(event: EventPart) -> list[str]:
    label = event.label
    lines = _wrapped(f"event {label.title} ({event.event}), {label.dates}", "  ")
    lines += _wrapped(
        f"Ro {_number(event.ro)} · Rc {_number(event.rc)} · W {_points(event.w)} of n {event.n}"
        f" · We {_number(event.we, 2)} · K {_number(event.k)} · ΣΔR {_number(event.delta, 2, True)}"
        f" · K·ΣΔR {_number(event.change, 2, True)}",
        "    ",
    )
    lines.append(
        f"    {'Rd':>2}  {'opponent':26} {'Ti':3} {'Fed':3} {'Ri':>5} {'res':>4} {'D':>5} "
        f"{'D*':>5} {'PD':>5} {'ΔR':>6} {'K·ΔR':>7}"
    )
    for game in event.games:
        capped = "*" if game.get("capped") else " "
        lines.append(
            f"    {_number(game['round']):>2}  {_cut(game['opponent_name'], 26):26} "
            f"{_cut(game.get('opponent_title'), 3):3} {_cut(game.get('opponent_federation'), 3):3} "
            f"{_number(game['opponent_rating']):>5} {_points(game['score']):>4} "
            f"{_number(game['raw_diff']):>5} {_number(game['diff']):>4}{capped}"
            f"{_number(game['expected'], 2):>5} {_number(game['delta'], 2, True):>6} "
            f"{_number(game['k_delta'], 2, True):>7}"
        )
    return lines


def _first_rating_text(part: PeriodPart) -> list[str]:
    result = part.derivation
    assert result is not None
    lines = [
        "  toward a first rating: the games pooled over periods, then the rules' hypothetical "
        "opponents",
        f"    {'period':8} {'event':32} {'Rd':>2}  {'opponent':26} {'Ri':>5} {'res':>4}",
    ]
    for game in part.pool:
        hypothetical = game.get("event") == "hypothetical"
        lines.append(
            f"    {'(rules)' if hypothetical else _cut(game.get('period'), 8):8} "
            f"{'' if hypothetical else _cut(game.get('title'), 32):32} "
            f"{_number(game.get('round')):>2}  {_cut(game.get('opponent_name'), 26):26} "
            f"{_number(game.get('opponent_rating')):>5} {_points(game.get('score')):>4}"
        )
    ra = (
        f"Ra of the rated opponents {_number(result['ra_rated'], 2)}, with the hypothetical "
        f"ones {_number(result['ra'], 2)}"
        if result["ra"] != result["ra_rated"]
        else f"Ra {_number(result['ra'], 2)}"
    )
    lines += _wrapped(
        f"n {_number(result['games'])} game(s) against rated opponents, W "
        f"{_points(result['score'])} · {ra} · p {_number(result['p'], 2)} · dp "
        f"{_number(result['dp'], 0, True)} · Ru {_number(result['first_rating'])}",
        "  ",
    )
    lines += _wrapped(str(result["formula"]), "  ")
    return lines


def _pending_text(pending: pd.DataFrame) -> list[str]:
    lines: list[str] = []
    for kind, rows in pending.groupby("kind", sort=False):
        score = rows["half"].sum() / 2
        lines += [
            "",
            f"{kind}: {len(rows)} game(s) pending toward a first rating after the list of "
            f"{shown(rows['period'].iloc[0])}, {score:g} points:",
        ]
        lines += [
            f"  {row['game_period']} {row['event']} round {row['round']}: "
            f"opponent {row['opponent_rating']}, scored {row['half'] / 2:g}"
            for row in rows.to_dict("records")
        ]
    return lines


# -- workbook -------------------------------------------------------------------------------


def write_player_workbook(report: PlayerReport, path: Path) -> None:
    """History, the calculations of every published period (grouped: period, event, game),
    the pending games (when there are any) and a rating-history chart per list."""
    heading = report.heading()
    history = report.history.assign(
        period=report.history["period"].replace(INITIAL, "initial"),
        inactive=report.history["inactive"].astype(bool),
    )
    for column in ("rating", "k", "games", "games_total"):  # ratings are whole numbers
        history[column] = pd.to_numeric(history[column]).astype("Int64")
    pending = report.pending.assign(score=report.pending["half"] / 2).drop(columns=["half"])
    calculations = _calculation_frame(report.parts)
    # The opponent column as wide as the names: the sentences spread over the next columns.
    names = calculations["opponent_name"].where(calculations["round"].notna()).str.len().dropna()
    sheets = [
        Sheet("Summary", rows=_summary_rows(report)),
        Sheet("History", frame=history, heading=[f"{heading} — rating history"], keys=2),
        Sheet(
            "Calculations",
            frame=calculations,
            writer=write_calculations_sheet,
            heading=[f"{heading} — individual calculations"],
            labels=SHORT_LABELS,
            keys=3,  # kind, period, event
            widths={"opponent_name": int(names.max()) + 3 if len(names) else 12},
        ),
    ]
    if len(pending):  # none: no page saying so
        sheets.append(
            Sheet("Pending", frame=pending, heading=[f"{heading} — games toward a first rating"])
        )
    sheets += history_charts(history, "rating", heading)
    write_workbook(sheets, path)


class _Identified(Protocol):
    @property
    def name(self) -> str: ...
    @property
    def fide_id(self) -> str | None: ...
    @property
    def label(self) -> str: ...
    @property
    def federation(self) -> str | None: ...
    @property
    def born(self) -> str | None: ...

    def heading(self) -> str: ...


def identity_rows(report: _Identified, id_name: str = "FIDE ID") -> list[Sequence[object]]:
    """The top of a player workbook's Summary under any system: who the player is
    (``id_name``: what the system's lists key players by, ``StateSystem.id_name``)."""
    return [
        [report.heading()],
        [],
        ["Name", report.name],
        [id_name, report.fide_id or f"none ({report.label})"],
        ["Federation", report.federation or ""],
        ["Born", report.born or ""],
    ]


def _summary_rows(report: PlayerReport) -> list[Sequence[object]]:
    rows = [*identity_rows(report), [], ["Lists"]]
    for part in report.parts:
        rows.append([f"{part.kind} {part.period}", part.verdict])
        if part.note:
            rows.append(["", part.note])
    for each in report.missing:
        rows.append([each, "the database holds no files of this publish"])
    return rows


#: The most characters of a line of text in the Calculations sheet: it spreads from the
#: opponent column over the empty cells of its row, on the first page across.
TEXT_WIDTH = 105


def _calculation_frame(parts: list[PeriodPart]) -> pd.DataFrame:
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
        rows.append(
            {"level": 0, "kind": part.kind, "period": part.period, "rating": part.rating,
             "k": part.k, "change": part.change, "new_rating": part.new_rating}
        )  # fmt: skip
        text(0, part, part.verdict)
        if part.note:
            text(1, part, part.note)
        for event in part.events:
            rows.append(
                {"level": 1, "kind": part.kind, "period": part.period,
                 "event": event.label.title, "opponent_name": event.label.dates,
                 "rating": event.ro, "rc": event.rc, "w": event.w, "games": event.n,
                 "we": event.we, "k": event.k, "delta": event.delta, "change": event.change}
            )  # fmt: skip
            for game in event.games:
                rows.append(
                    {"level": 2, "kind": part.kind, "period": part.period,
                     "event": event.label.title, "round": game["round"],
                     "opponent_name": game["opponent_name"],
                     "opponent_title": game.get("opponent_title"),
                     "opponent_federation": game.get("opponent_federation"),
                     "opponent_rating": game["opponent_rating"], "w": game["score"],
                     "raw_diff": game["raw_diff"], "diff": game["diff"],
                     "expected": game["expected"], "delta": game["delta"], "k": game["k"],
                     "k_delta": game["k_delta"]}
                )  # fmt: skip
        if part.derivation is not None:
            result = part.derivation
            rows.append(
                {"level": 1, "kind": part.kind, "period": part.period, "event": "first rating",
                 "games": result["games"], "w": result["score"], "ra_rated": result["ra_rated"],
                 "ra": result["ra"], "p": result["p"], "dp": result["dp"],
                 "first_rating": result["first_rating"]}
            )  # fmt: skip
            text(1, part, str(result["formula"]))
            for game in part.pool:
                rows.append(
                    {"level": 2, "kind": part.kind, "period": game.get("period") or "",
                     "event": game.get("title"), "round": game.get("round"),
                     "opponent_name": game.get("opponent_name"),
                     "opponent_rating": game.get("opponent_rating"), "w": game.get("score")}
                )  # fmt: skip
    columns = [
        "kind", "period", "event", "round", "opponent_name", "opponent_title",
        "opponent_federation", "rating", "opponent_rating", "raw_diff", "diff", "rc", "w",
        "games", "expected", "we", "delta", "k", "k_delta", "change", "new_rating", "ra_rated",
        "ra", "p", "dp", "first_rating", "level",
    ]  # fmt: skip
    frame = pd.DataFrame(rows, columns=columns)
    integers = ["round", "rating", "opponent_rating", "raw_diff", "diff", "rc", "games", "k",
                "new_rating", "dp", "first_rating"]  # fmt: skip
    for column in integers:
        frame[column] = pd.to_numeric(frame[column]).astype("Int64")
    for column in ["w", "expected", "we", "delta", "k_delta", "change", "ra_rated", "ra", "p"]:
        frame[column] = pd.to_numeric(frame[column]).astype("Float64").round(2)
    for column in ["kind", "period", "event", "opponent_name", "opponent_title",
                   "opponent_federation"]:  # fmt: skip
        frame[column] = frame[column].astype("string")
    frame["level"] = frame["level"].astype("int64")
    return frame


# -- HTML -----------------------------------------------------------------------------------


def _event_links(report: PlayerReport) -> dict[tuple[str, str, str], str]:
    """Per (kind, period, event key), the player's section on the event's page, where
    ``publish --out`` wrote it: ``YYYY-MM/KIND/events/KEY.html#p-ID`` from the folder that
    holds those periods (the player's page belongs there)."""
    return {
        (part.kind, part.period, event.event): (
            f"{part.period}/{part.kind}/events/{quote(event.event)}.html#{anchor(report.label)}"
        )
        for part in report.parts
        for event in part.events
    }


def write_player_html(report: PlayerReport, path: Path) -> None:
    """The report as one printable page."""
    history = report.history.assign(period=report.history["period"].map(shown))
    text = render(
        "player.html",
        report=report,
        links=_event_links(report),
        history=history.to_dict("records"),
        pending=report.pending.assign(score=report.pending["half"] / 2).to_dict("records"),
        title=report.heading(),
        facts=[],
        index_link=None,
        body_class=" ".join(["player", *empty_columns(_opponents(report), OPPONENT_COLUMNS)]),
    )
    path.write_text(text, encoding="utf-8")


#: The columns of the games a player's page leaves out when no opponent fills them.
OPPONENT_COLUMNS = {"no-title": "title", "no-federation": "federation"}


def _opponents(report: PlayerReport) -> list[dict[Hashable, object]]:
    """The opponents of every game the report shows, as ``empty_columns`` reads them."""
    return [
        {"title": game.get("opponent_title"), "federation": game.get("opponent_federation")}
        for part in report.parts
        for event in part.events
        for game in event.games
    ]
