"""``drift``: the pool over time, from the database's lists (docs/drift.md). Every list of one
kind is read from the ratings it holds, and each published list's players.csv (the file its
publish wrote, kept in the database) for what the period's games, rounding and any list
adjustment did; ``rating_batch.drift`` makes the numbers, ``writers/drift.py`` the page and
the CSV. Read-only: the database is never changed."""

from __future__ import annotations

import codecs
import io
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from rating_batch.assemble import player_ids
from rating_batch.drift import LEDGER, Drift, compute_drift
from rating_batch.errors import RatingBatchError
from rating_batch.periods import INITIAL, Period
from rating_batch.staging import staged_outputs
from rating_batch.store import Store, open_store
from rating_batch.store.places import keep_out_of_stores
from rating_batch.writers.drift import write_drift_csv, write_drift_html

#: What drift reads of each published players.csv.
ROW_COLUMNS = ("id", "status", "rating", "games", "score", "expected", "change", "new_rating")


@dataclass
class DriftReport:
    """The pool over time and the files written."""

    drift: Drift
    outputs: list[Path] = field(default_factory=list)

    def summary(self) -> str:
        table = self.drift.lists
        first, last = table.iloc[0], table.iloc[-1]
        lines = [
            f"{self.drift.kind} lists {first['period']} to {last['period']}: {len(table)} list(s)",
            f"mean {first['mean']:.1f} → {last['mean']:.1f} ({last['mean'] - first['mean']:+.1f}); "
            f"median {first['median']:.1f} → {last['median']:.1f}",
        ]
        if len(table) > 1:
            moved = table.iloc[1:]
            lines.append(
                "the mean's change: "
                f"{moved['from_rating_changes'].sum():+.1f} from rating changes, "
                f"{moved['from_joining'].sum():+.1f} from players joining, "
                f"{moved['from_leaving'].sum():+.1f} from players leaving (list by list, summed)"
            )
            sums = moved[["total_change", *LEDGER]].sum()
            leaving = sums["leaving_floor"] + sums["leaving_other"]
            lines.append(
                f"the points: {_signed(sums['total_change'], 0)} = "
                f"{_signed(sums['entering'], 0)} entering {_signed(-leaving, 0)} leaving "
                f"{_signed(sums['games'], 1)} games {_signed(sums['rounding'], 1)} rounding "
                f"{_signed(sums['adjustment'], 0)} adjustment {_signed(sums['other'], 1)} other"
            )
        lines.extend(f"wrote {path}" for path in self.outputs)
        return "\n".join(lines)


def _signed(value: float, decimals: int) -> str:
    """A sum with its sign, thousands grouped; a sum that rounds to zero is +0."""
    return f"{round(float(value), decimals) + 0.0:+,.{decimals}f}"


def _rows(store: Store, period: Period, kind: str) -> pd.DataFrame | None:
    data = store.published_file(period, f"{kind}/players.csv")
    if data is None:
        return None
    frame = pd.read_csv(
        io.BytesIO(data.removeprefix(codecs.BOM_UTF8)),
        dtype={"id": "string", "status": "string"},
        keep_default_na=False,
        na_values=[""],
    )
    wanted = [column for column in (*ROW_COLUMNS, "adjustment") if column in frame]
    return frame[wanted].assign(period=period)


def read_drift(store: Store, kind: str, db: Path) -> Drift:
    """The lists of ``kind`` and their published players.csv files, measured."""
    lists = store.list_ratings(kind)
    if lists.empty:
        raise RatingBatchError(
            f"{db}: no {kind} list with FIDE Elo ratings (drift reads the lists of FIDE Elo "
            "and federation Elo databases)"
        )
    people = store.players(sorted(lists["player_id"].unique()))
    ids = pd.Series(player_ids(people).to_numpy(), index=people["player_id"].to_numpy())
    lists = lists.assign(id=lists["player_id"].map(ids).astype("string"))
    published = [period for period in lists["period"].unique() if period != INITIAL]
    found = [rows for p in published if (rows := _rows(store, Period.parse(p), kind)) is not None]
    rows = (
        pd.concat(found, ignore_index=True)
        if found
        else pd.DataFrame({column: [] for column in (*ROW_COLUMNS, "period")}, dtype="string")
    )
    # A published file never changes: the lists before a player received his FIDE ID name
    # him by the id he had (<event>#<start rank>, his ``created_by``); each is his now.
    received = people[people["fide_id"].notna() & people["created_by"].str.contains("#")]
    now = pd.Series(player_ids(received).to_numpy(), index=received["created_by"].to_numpy())
    rows = rows.assign(id=rows["id"].map(now).astype("string").fillna(rows["id"]))
    return compute_drift(lists[["period", "id", "rating", "birth_year"]], rows, kind)


def drift_report(*, db: Path, out: Path, kind: str = "standard") -> DriftReport:
    """The pool over time (``drift``): ``OUT/drift-KIND.html`` and ``OUT/drift-KIND.csv``."""
    with open_store(db) as store:
        keep_out_of_stores(store.places, out)
        drift = read_drift(store, kind, db)
    report = DriftReport(drift)
    paths = [out / f"drift-{kind}.html", out / f"drift-{kind}.csv"]
    with staged_outputs(out) as outputs:
        write_drift_html(drift, outputs.path(paths[0]))
        write_drift_csv(drift, outputs.path(paths[1]))
    report.outputs = paths
    return report
