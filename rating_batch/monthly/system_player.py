"""``player`` in a database rating under another system (docs/systems.md §7): per published
list the player's state before and after and, game by game or event by event, the system's
own quantities (Glicko-2 g, E, v, Δ; TrueSkill μ and σ around each game; Harkness and Ingo
average, percentage, performance), read from the files that publish stored; as text, and
with ``--out`` as ``player-ID.xlsx`` and ``player-ID.html`` (``writers.system_player``)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pandas as pd

from rating_batch.monthly.common import number
from rating_batch.staging import staged_outputs
from rating_batch.store import Store
from rating_batch.system_explain import SystemListPart, SystemPlayerReport
from rating_batch.systems import RatingSystem
from rating_batch.systems.elo.rules import KINDS
from rating_batch.writers.system_player import (
    system_player_text,
    write_system_player_html,
    write_system_player_workbook,
)

#: Reads the rows of one of our stored CSV files whose id is one of a set (``player._rows_of``).
RowReader = Callable[[bytes | None, set[str]], pd.DataFrame | None]


def system_player_report(
    store: Store,
    system: RatingSystem,
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
    store: Store, system: RatingSystem, person: dict[str, Any], label: str, read_rows: RowReader
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
