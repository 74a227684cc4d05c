"""``player`` in a database rating under another system (docs/systems.md): per published list
the player's state before and after and, game by game or event by event, the system's own
quantities (Glicko-2 g, E, v, Δ; TrueSkill μ and σ around each game; Harkness and Ingo
average, percentage, performance), read from the files that publish stored."""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pandas as pd

from rating_batch.production.common import number
from rating_batch.staging import staged_outputs
from rating_batch.store import Store
from rating_batch.systems import RatingSystem
from rating_batch.writers import Sheet, write_workbook

#: Columns of calculations.csv that name the row rather than explain it.
_NAMING = {"id", "name", "event", "opponent_id"}


def system_player_report(
    store: Store,
    system: RatingSystem,
    person: dict[str, Any],
    label: str,
    read_rows: Callable[[bytes | None, set[str]], pd.DataFrame | None],
    files: Path | None,
) -> str:
    """The player's text report; with ``files`` (``OUT/player-<id>``), that .xlsx too."""
    player_id = int(person["player_id"])
    federation = person["federation"] if pd.notna(person["federation"]) else "-"
    born = number(person["birth_year"]) or "?"
    lines = [
        f"{person['name']} ({label}), {federation}, born {born}",
        *textwrap.wrap(f"rated under {system.name}: {system.title} (docs/systems.md)", 100),
    ]
    summaries: list[pd.DataFrame] = []
    details: list[pd.DataFrame] = []
    periods = store.player_system_periods(player_id)
    if periods.empty:
        lines.append("no published list has rated this player yet")
    for kind, period in periods.itertuples(index=False):
        players = read_rows(store.published_file(period, f"{kind}/players.csv"), {label})
        rows = read_rows(store.published_file(period, f"{kind}/calculations.csv"), {label})
        if players is None or players.empty:
            continue
        row = players.iloc[0]
        lines += ["", *textwrap.wrap(_headline(kind, period, row, system), 100,
                                     subsequent_indent="  ")]  # fmt: skip
        summaries.append(players.assign(list=period, kind=kind))
        if rows is not None and len(rows):
            lines += _calculation_lines(rows)
            details.append(rows.assign(list=period, kind=kind))
    if files is not None:
        with staged_outputs(files.parent) as outputs:
            write_workbook(
                [
                    Sheet("Player", rows=[[line] for line in lines]),
                    Sheet("Lists", frame=_joined(summaries), heading=[lines[0]]),
                    Sheet("Calculations", frame=_joined(details), heading=[lines[0]]),
                ],
                outputs.path(files.parent / f"{files.name}.xlsx"),
            )
    return "\n".join(lines)


def _joined(frames: list[pd.DataFrame]) -> pd.DataFrame:
    if not frames:
        return pd.DataFrame({"list": pd.Series(dtype="string")})
    joined = pd.concat(frames, ignore_index=True)
    first = ["list", "kind"]
    return joined[first + [c for c in joined.columns if c not in first]]


def _headline(kind: str, period: str, row: pd.Series, system: RatingSystem) -> str:
    """``2026-03 standard (rated): 6 games, 3.5 points; rating 1500.00 → 1716.18, …``."""
    changes = [
        f"{column} {shown(row.get(column))} → {shown(row.get(f'new_{column}'))}"
        for column, dtype in system.state.items()
        if dtype != "string"
    ]
    games = int(row["games"])
    return (
        f"{period} {kind} ({row['status']}): {games} game{'s' * (games != 1)}, "
        f"{shown(row['score'])} points; {', '.join(changes)}"
    )


def _calculation_lines(rows: pd.DataFrame) -> list[str]:
    """The player's calculations: values the same on every row once, then a table of the
    others (ratings and deviations to 2 decimals, smaller numbers to 6)."""
    explained = [c for c in rows.columns if c not in _NAMING]
    same = [c for c in explained if rows[c].nunique(dropna=False) == 1 and len(rows) > 1]
    varying = [c for c in explained if c not in same]
    lines = []
    if same:
        text = ", ".join(f"{c} {shown(rows[c].iloc[0])}" for c in same)
        lines += textwrap.wrap(text, 98, initial_indent="  ", subsequent_indent="  ")
    for event, part in rows.groupby("event", sort=False):
        lines.append(f"  {event}")
        table = part[varying].copy()
        if "opponent_name" in table:
            table["opponent_name"] = table["opponent_name"].astype("string").str.slice(0, 22)
        cells = [[shown(v) if c != "opponent_name" else str(v) for c, v in r.items()]
                 for _, r in table.iterrows()]  # fmt: skip
        heads = [str(c) for c in varying]
        widths = [max([len(h), *(len(r[i]) for r in cells)]) for i, h in enumerate(heads)]
        for cell in [heads, *cells]:
            line = "  ".join(v.ljust(w) for v, w in zip(cell, widths, strict=True))
            lines.append(f"    {line}".rstrip())
    return lines


def shown(value: object) -> str:
    """A number for the report: whole and half numbers as they are, others to 2 decimals,
    values below 1 to 6."""
    if isinstance(value, str):
        return value
    if value is None or pd.isna(value):  # type: ignore[call-overload]
        return "-"
    number_ = float(value)  # type: ignore[arg-type]
    if (2 * number_).is_integer() and abs(number_) < 1e6:
        return f"{number_:g}"  # whole and half points, whole ratings
    if abs(number_) < 1:
        return f"{number_:.6f}".rstrip("0")
    return f"{number_:.2f}"
