"""``player``: "how was my rating computed?" For a player, the rating history per list and,
for every published period the player played in, FIDE's individual calculation read from the
files that publish wrote (stored in the database: a published list never changes, so neither
does its explanation); the games pending toward a first rating. ``player --name`` finds
players. Under another rating system, the same from its stored states
(``system_player_report``). Read-only: the database is never changed.

A player is named by FIDE ID, or without one by the id the lists print for him
(``<event>#<start rank>``); the database's own row numbers are never matched, so no typed
number can show somebody else. ``--name`` finds both.
"""

from __future__ import annotations

import codecs
import io
import re
from collections.abc import Callable, Hashable
from pathlib import Path
from typing import Any

import pandas as pd

from rating_batch.errors import RatingBatchError
from rating_batch.loaders.common import MAX_ID_DIGITS, is_digits
from rating_batch.monthly.common import number, player_ids, rule_book
from rating_batch.names import name_key
from rating_batch.schema import as_written
from rating_batch.staging import staged_outputs
from rating_batch.store import Store, open_store
from rating_batch.system_explain import SystemListPart, SystemPlayerReport
from rating_batch.systems import StateSystem
from rating_batch.systems.elo.explain import EventLabel, PeriodPart, PlayerReport, period_part
from rating_batch.systems.elo.pages import date_span
from rating_batch.systems.elo.rules import KINDS
from rating_batch.writers import player_text, write_player_html, write_player_workbook
from rating_batch.writers.common import neutralise
from rating_batch.writers.system_player import (
    system_player_text,
    write_system_player_html,
    write_system_player_workbook,
)

#: ``player --name`` lists at most this many players.
MAX_FOUND = 50


def player_report(fide_id: str, *, db: Path, out: Path | None = None) -> str:
    """The player with this FIDE ID (or, without one, this ``<event>#<start rank>`` id), as
    text; with ``out``, also ``player-<id>.xlsx`` and ``player-<id>.html``."""
    without = "#" in fide_id
    if not without and not is_digits(fide_id, MAX_ID_DIGITS):  # "¹²".isdigit() is True
        raise RatingBatchError(
            f"{fide_id!r} is not a FIDE ID (digits only) nor the id of a player without one "
            "(<event>#<start rank>, as the lists print it); 'rating-batch player --name TEXT' "
            "finds players by name, with or without a FIDE ID"
        )
    with open_store(db) as store:
        if without:
            person = store.player_without_fide_id(fide_id)
        else:
            person = store.player_by_fide_id(int(fide_id))
        if person is None:
            what = "player without a FIDE ID whose id is" if without else "player with FIDE ID"
            raise RatingBatchError(
                f"no {what} {fide_id} in {db} ('rating-batch player --name TEXT' searches by name)"
            )
        return _report(store, person, out)


def find_players(text: str, *, db: Path, out: Path | None = None) -> str:
    """Players whose name contains ``text`` (accents, case and word order aside); the report
    of the one found when there is exactly one."""
    wanted = name_key(text).split()
    if not wanted:
        raise RatingBatchError(f"--name {text!r}: give some letters of the name")
    with open_store(db) as store:
        people = store.players()
        found = people[[all(word in key for word in wanted) for key in people["name_key"]]]
        if found.empty:
            raise RatingBatchError(f"no player named like {text!r} in {db}")
        if len(found) == 1:
            person = {str(k): v for k, v in found.iloc[0].items()}
            return _report(store, person, out)
    labels = player_ids(found)
    lines = [f"{len(found)} players named like {text!r}:"]
    for (_, row), label in zip(found.head(MAX_FOUND).iterrows(), labels, strict=False):
        born = number(row["birth_year"]) or "?"
        federation = row["federation"] if pd.notna(row["federation"]) else "-"
        fide = f"FIDE ID {label}" if pd.notna(row["fide_id"]) else f"no FIDE ID ({label})"
        lines.append(f"  {row['name']}, {federation}, born {born}: {fide}")
    if len(found) > MAX_FOUND:
        lines.append(f"  … and {len(found) - MAX_FOUND} more: give more of the name")
    lines.append("'rating-batch player ID' shows one: the FIDE ID, or the id in brackets")
    return "\n".join(lines)


def _label(person: dict[str, Any]) -> str:
    """The player's public id: the FIDE ID, else ``<event>#<start rank>``."""
    fide = person["fide_id"]
    return str(int(fide)) if pd.notna(fide) else str(person["created_by"])


def _stem(label: str) -> str:
    """The name of the player's report files (``player-<id>``)."""
    return f"player-{label.replace('#', '-')}"


def _report(store: Store, person: dict[str, Any], out: Path | None) -> str:
    """The player's report as text; with ``out``, its workbook and page written, and said
    (as every command says what it wrote)."""
    text = _explained(store, person, out)
    if out is None:
        return text
    stem = _stem(_label(person))
    return "\n".join([text, *(f"wrote {out / stem}{suffix}" for suffix in (".xlsx", ".html"))])


def _explained(store: Store, person: dict[str, Any], out: Path | None) -> str:
    system = rule_book(store).system
    if system is not None:
        label = _label(person)
        files = None if out is None else out / _stem(label)
        return system_player_report(store, system, person, label, _rows_of, files)
    report = gather(store, person)
    if out is not None:
        stem = _stem(report.label)
        with staged_outputs(out) as outputs:
            write_player_workbook(report, outputs.path(out / f"{stem}.xlsx"))
            write_player_html(report, outputs.path(out / f"{stem}.html"))
    return player_text(report)


def gather(store: Store, person: dict[str, Any]) -> PlayerReport:
    """Everything the report shows, read from the database."""
    player_id = int(person["player_id"])
    fide = person["fide_id"]
    label = _label(person)
    history = store.player_history(player_id)
    pending = store.player_pending(player_id).merge(
        store.last_published_by_kind(), on=["kind", "period"]
    )
    book = rule_book(store)
    parts: list[PeriodPart] = []
    missing: list[str] = []
    for kind, period in store.player_published_periods(player_id).itertuples(index=False):
        part = _period(store, book.for_period(period).for_kind(kind), kind, period, label)
        if part is None:
            missing.append(f"{kind} {period}")
        else:
            parts.append(part)
    return PlayerReport(
        label=label,
        name=str(person["name"]),
        fide_id=label if pd.notna(fide) else None,
        federation=str(person["federation"]) if pd.notna(person["federation"]) else None,
        title=str(person["title"]) if pd.notna(person.get("title")) else None,
        born=number(person["birth_year"]) or None,
        history=history,
        parts=parts,
        pending=pending,
        missing=missing,
    )


def _period(store: Store, rules: Any, kind: str, period: str, label: str) -> PeriodPart | None:
    """The player's calculation in one published list, from the files its publish stored
    (None when the database holds no files for it)."""
    calculations = _rows_of(store.published_file(period, f"{kind}/calculations.csv"), {label})
    players = store.published_file(period, f"{kind}/players.csv")
    if calculations is None or players is None:
        return None
    opponents = set(calculations["opponent_id"].dropna().astype(str))
    people = _rows_of(players, {label} | opponents)
    assert people is not None
    mine = people[people["id"] == label]
    if mine.empty:
        return None
    row: dict[Hashable, object] = dict(mine.iloc[0].items())
    keys = set(calculations["event"].dropna().astype(str)) - {"hypothetical"}
    return period_part(kind, period, rules, row, calculations, people, _labels(store, keys))


def _labels(store: Store, keys: set[str]) -> dict[str, EventLabel]:
    """How the stored events ``keys`` are named: title and dates (an event removed since the
    publish is named by its key)."""
    labels = {}
    for key in sorted(keys):
        event = store.event_by_key(key)
        if event is not None:
            labels[key] = EventLabel(str(event["name"]), date_span(event["start"], event["end"]))
    return labels


#: A CSV file's bytes in which no quoted field holds a line break (each quote opens or closes
#: a field on its own line), so that its records are its lines.
_ONE_LINE_RECORDS = re.compile(rb'(?:[^"]*+"[^"\n]*+")*+[^"]*+\Z')
#: One CSV record: plain bytes and quoted fields (which may hold line breaks) up to a line end.
_RECORD = re.compile(rb'(?:[^"\n]++|"[^"]*+")*+(?:\n|\Z)')


def _rows_of(data: bytes | None, ids: set[str]) -> pd.DataFrame | None:
    """The rows of one of our CSV files (UTF-8 with BOM, ``id`` first) whose id is one of
    ``ids``: the records are picked out of the file's bytes before any parsing (a national
    period's calculations.csv holds millions of rows; a player has a few dozen). A record is
    a line unless a quoted field holds a line break: an event key made from a file name by
    a version that kept its newlines; then the records are found field by field."""
    if data is None:
        return None
    header, _, body = data.removeprefix(codecs.BOM_UTF8).partition(b"\n")
    # An id as our writers wrote it: neutralised (an event key "=1+2" gives "'=1+2#3"),
    # quoted when it holds a comma or a quote.
    written = sorted({form for i in ids for form in (i, neutralise(i))})
    starts = tuple(
        start.encode("utf-8")
        for i in written
        for start in (f"{i},", '"' + i.replace('"', '""') + '",')
    )
    if not ids:
        records = []
    elif _ONE_LINE_RECORDS.match(body):
        pattern = b"|".join(re.escape(start) for start in starts)
        records = re.findall(rb"^(?:" + pattern + rb").*$", body, flags=re.M)
    else:
        records = [
            found.group().removesuffix(b"\n")
            for found in _RECORD.finditer(body)
            if body.startswith(starts, found.start())
        ]
    frame = pd.read_csv(
        io.BytesIO(b"\n".join([header, *records])),
        encoding="utf-8",
        lineterminator="\n",  # a lone CR is part of a field (csv.writer left it bare)
        dtype={"id": "string", "opponent_id": "string", "name": "string"},
        keep_default_na=False,
        na_values=[""],
    )
    # Every text as the files gave it (names, federations, titles, event keys), not as our
    # CSV writers neutralised it for spreadsheets.
    for column in frame.columns:
        if frame[column].dtype == object or isinstance(frame[column].dtype, pd.StringDtype):
            frame[column] = frame[column].map(as_written, na_action="ignore")
    return frame


#: Reads the rows of one of our stored CSV files whose id is one of a set (``player._rows_of``).
RowReader = Callable[[bytes | None, set[str]], pd.DataFrame | None]


def system_player_report(
    store: Store,
    system: StateSystem,
    person: dict[str, Any],
    label: str,
    read_rows: RowReader,
    files: Path | None,
) -> str:
    """The player's text report; with ``files`` (``OUT/player-<id>``), the workbook and
    the page too, all or none."""
    report = gather_system_player(store, system, person, label, read_rows)
    if files is not None:
        with staged_outputs(files.parent) as outputs:
            write_system_player_workbook(
                report, outputs.path(files.with_name(f"{files.name}.xlsx"))
            )
            write_system_player_html(report, outputs.path(files.with_name(f"{files.name}.html")))
    return system_player_text(report)


def gather_system_player(
    store: Store, system: StateSystem, person: dict[str, Any], label: str, read_rows: RowReader
) -> SystemPlayerReport:
    """Every published list of the kinds the player has a state in, from the first that
    holds him: his players.csv row and calculations.csv rows as that publish stored them."""
    lists = store.lists()
    his = store.player_system_periods(int(person["player_id"]))
    parts: list[SystemListPart] = []
    for kind, first in his.groupby("kind", sort=False)["period"].min().items():
        of_kind = lists[lists["kind"] == kind].sort_values("period")
        periods = of_kind["period"].tolist()
        published = of_kind[(of_kind["origin"] == "publish") & (of_kind["period"] >= first)]
        for period in published["period"]:
            players = read_rows(store.published_file(period, f"{kind}/players.csv"), {label})
            if players is None or players.empty:
                continue
            rows = read_rows(store.published_file(period, f"{kind}/calculations.csv"), {label})
            earlier = [p for p in periods if p < period]
            parts.append(
                SystemListPart(
                    kind=str(kind),
                    period=str(period),
                    previous=str(earlier[-1]) if earlier else None,
                    player={str(k): v for k, v in players.iloc[0].items()},
                    rows=rows if rows is not None else pd.DataFrame(),
                )
            )
    federation, title = person["federation"], person.get("title")
    return SystemPlayerReport(
        label=label,
        name=str(person["name"]),
        federation=str(federation) if pd.notna(federation) else None,
        born=number(person["birth_year"]) or None,
        system=system,
        parts=sorted(parts, key=lambda part: (KINDS.index(part.kind), part.period)),
        fide_id=label if pd.notna(person["fide_id"]) else None,
        title=str(title) if pd.notna(title) else None,
    )
