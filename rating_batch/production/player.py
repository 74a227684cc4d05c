"""``player``: a player's rating history per list and the games pending toward a first
rating; ``player --name`` finds players by name. Read-only: the database is never changed.

A player is named by FIDE ID only (the database's own row numbers are never matched, so no
typed number can show somebody else); players without one are found with ``--name``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd

from rating_batch.errors import RatingBatchError
from rating_batch.names import name_key
from rating_batch.periods import INITIAL, shown
from rating_batch.production.common import number, player_ids
from rating_batch.rules import KINDS
from rating_batch.staging import staged_outputs
from rating_batch.store import Store, open_store
from rating_batch.writers import Sheet, write_chart_sheet, write_workbook

#: ``player --name`` lists at most this many players.
MAX_FOUND = 50


def player_report(fide_id: str, *, db: Path, out: Path | None = None) -> str:
    """The player with this FIDE ID: history per list and pending games; with ``out``, also
    ``player-<FIDE ID>.xlsx`` (History, Pending and a rating-history chart per list)."""
    if not fide_id.isdigit():
        raise RatingBatchError(
            f"{fide_id!r} is not a FIDE ID (digits only); 'rating-batch player --name TEXT' "
            "finds players by name, with or without a FIDE ID"
        )
    with open_store(db) as store:
        person = store.player_by_fide_id(int(fide_id))
        if person is None:
            raise RatingBatchError(
                f"no player with FIDE ID {fide_id} in {db} ('rating-batch player --name TEXT' "
                "searches by name)"
            )
        return _report(store, person, out, f"player-{fide_id}.xlsx")


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
            label = person["fide_id"] if pd.notna(person["fide_id"]) else person["created_by"]
            return _report(store, person, out, f"player-{str(label).replace('#', '-')}.xlsx")
    labels = player_ids(found)
    lines = [f"{len(found)} players named like {text!r}:"]
    for (_, row), label in zip(found.head(MAX_FOUND).iterrows(), labels, strict=False):
        born = number(row["birth_year"]) or "?"
        federation = row["federation"] if pd.notna(row["federation"]) else "-"
        fide = f"FIDE ID {label}" if pd.notna(row["fide_id"]) else f"no FIDE ID ({label})"
        lines.append(f"  {row['name']}, {federation}, born {born}: {fide}")
    if len(found) > MAX_FOUND:
        lines.append(f"  … and {len(found) - MAX_FOUND} more: give more of the name")
    return "\n".join(lines)


def _report(store: Store, person: dict[str, Any], out: Path | None, filename: str) -> str:
    player_id = int(person["player_id"])
    history = store.player_history(player_id)
    pending = store.player_pending(player_id)
    published = store.last_published_by_kind()
    if out is not None:
        with staged_outputs(out) as outputs:
            sheets = [Sheet("History", frame=history), Sheet("Pending", frame=pending)]
            for each in [k for k in KINDS if k in set(history["kind"])]:
                rows = history[history["kind"] == each]
                chart = pd.DataFrame(
                    {
                        "period": rows["period"].replace(INITIAL, "initial"),
                        f"{each} rating": rows["rating"],
                    }
                )
                sheets.append(
                    Sheet(f"Chart {each}", frame=chart.dropna(), writer=write_chart_sheet)
                )
            write_workbook(sheets, outputs.path(out / filename))
    fide = person["fide_id"]
    lines = [
        f"{person['name']} ("
        + (f"FIDE ID {int(fide)}" if pd.notna(fide) else f"no FIDE ID, {person['created_by']}")
        + f", {person['federation'] if pd.notna(person['federation']) else '-'}, born "
        f"{number(person['birth_year']) or '?'})"
    ]
    if history.empty:
        lines.append("no rating history")
    history["order"] = history["kind"].map(KINDS.index)
    for kind, rows in history.sort_values(["order", "period"]).groupby("kind", sort=False):
        lines.append(f"{kind}:")
        lines.append(f"  {'list':8} {'rating':>7} {'K':>3} {'games':>5} {'total':>5}")
        for row in rows.to_dict("records"):
            rating = number(row["rating"]) or "unrated"
            total, k = number(row["games_total"]), number(row["k"])
            flag = "  inactive" if row["inactive"] else ""
            text = (
                f"  {shown(row['period']):8} {rating:>7} {k:>3} {row['games']:>5} {total:>5}{flag}"
            )
            lines.append(text.rstrip())
    if not pending.empty:
        latest = pending.merge(published, on=["kind", "period"])
        for kind, rows in latest.groupby("kind", sort=False):
            score = rows["half"].sum() / 2
            lines.append(
                f"{kind}: {len(rows)} game(s) pending toward a first rating, {score:g} points:"
            )
            for row in rows.to_dict("records"):
                lines.append(
                    f"  {row['game_period']} {row['event']} round {row['round']}: "
                    f"opponent {row['opponent_rating']}, scored {row['half'] / 2:g}"
                )
    return "\n".join(lines)
