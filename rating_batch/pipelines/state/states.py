"""A rating system's states in the database (docs/systems.md): each player's state columns as
the system declares them, stored one row per column, read back as one row per player with
the system's dtypes; and the rounded list a publish writes (list.csv)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from rating_batch.assemble import player_ids
from rating_batch.errors import Issue, raise_if_errors
from rating_batch.loaders import read_state_list
from rating_batch.periods import Period
from rating_batch.store import Store
from rating_batch.systems.base import StateSystem, half_away


def numeric_columns(system: StateSystem) -> list[str]:
    """The state columns that are numbers and not ``optional`` (a player has all of them or
    is unrated); a true/false column (the DWZ's ``uplifted``) is not one of them."""
    return [
        column
        for column, dtype in system.state.items()
        if dtype not in ("string", "boolean") and column not in system.optional
    ]


def read_system_state(
    store: Store, system: StateSystem, kind: str, period: Period | None
) -> pd.DataFrame:
    """Every player's state in ``kind`` as of ``period``: player_id and the state columns
    (none: an empty frame)."""
    columns = {"player_id": "int64", **system.state}
    if period is None:
        return pd.DataFrame({name: pd.Series(dtype=dtype) for name, dtype in columns.items()})
    long = store.system_state(kind, period)
    wide = long.pivot(index="player_id", columns="name", values="value")
    wide = wide.reindex(columns=list(system.state)).reset_index()
    for name, dtype in system.state.items():
        values = wide[name]
        if dtype == "string":
            wide[name] = values.astype("string")
        else:
            wide[name] = pd.to_numeric(values, errors="coerce").astype(
                pd.api.types.pandas_dtype(dtype)
            )
    return wide.astype({"player_id": "int64"})[list(columns)]


def state_rows(
    system: StateSystem,
    player_id: pd.Series | np.ndarray,
    state: pd.DataFrame,
    kind: str,
    period: Period,
) -> pd.DataFrame:
    """``system_states`` rows for players with a state (all numeric columns given), one per
    state column; ``state`` is aligned with ``player_id`` and has the state columns."""
    numbers = numeric_columns(system)
    texts = [c for c, dtype in system.state.items() if dtype == "string"]
    # A text state alone is a state too (the DWZ's Restpartien of a player without DWZ).
    has = (state[numbers].notna().all(axis=1) | state[texts].notna().any(axis=1)).to_numpy(bool)
    ids = np.asarray(player_id)[has]
    parts = []
    for column, dtype in system.state.items():
        if dtype == "string":
            values = state[column].astype(object).to_numpy()[has]
        else:
            values = state[column].astype("Float64").to_numpy(np.float64, na_value=np.nan)[has]
        # An optional column left empty is not stored: it reads back empty.
        kept = ~pd.isna(values) if column in system.optional else np.ones(len(ids), bool)
        parts.append(
            pd.DataFrame(
                {
                    "player_id": ids[kept],
                    "kind": kind,
                    "period": period,
                    "name": column,
                    "value": pd.Series(values[kept], dtype=object),
                }
            )
        )
    return pd.concat(parts, ignore_index=True) if parts else pd.DataFrame()


def rounded(values: pd.Series, digits: int) -> pd.Series:
    """Values rounded half away from zero to ``digits`` decimals (docs/systems.md §7)."""
    numbers = values.astype("Float64").to_numpy(np.float64, na_value=np.nan)
    scale = 10.0**digits
    done = half_away(numbers * scale) / scale
    if digits == 0:
        return pd.Series(done, index=values.index).astype("Int64")
    return pd.Series(done, index=values.index).astype("Float64")


#: The identity columns written before the state in a system's lists.
IDENTITY_COLUMNS = ["id", "name", "federation", "sex", "title", "birth_year"]


def state_list(store: Store, system: StateSystem, kind: str, period: Period) -> pd.DataFrame:
    """The unrounded states of ``kind`` as of ``period`` (docs/formats.md §11: the list that
    ``rate --list`` and ``init`` read), every player with a state, by id."""
    state = read_system_state(store, system, kind, period)
    people = store.players(list(state["player_id"]))
    frame = pd.DataFrame(
        {
            "id": player_ids(people).to_numpy(),
            **{c: people[c].to_numpy() for c in IDENTITY_COLUMNS[1:]},
        }
    )  # fmt: skip
    frame["birth_year"] = frame["birth_year"].astype("Int64")
    if "national_id" in people and people["national_id"].notna().any():
        # Read back, the list finds its players by them (docs/formats.md §11.1); a database
        # that knows none writes no empty column.
        frame.insert(1, "national_id", people["national_id"].to_numpy())
    for column in system.state:
        frame[column] = state[column].to_numpy()
    return frame.sort_values("id", kind="stable").reset_index(drop=True)


def read_system_list(
    system: StateSystem, path: Path, encoding: str | None, month: Period | None = None
) -> pd.DataFrame:
    """A list of ``system`` (docs/formats.md §11), read and checked with everything the
    system says of its columns and rows (``list_problems``; ``list_month_problems`` when
    the list's ``month`` is known): one path for ``check``, ``rate --list`` and ``init``."""
    listed = read_state_list(
        path, system.state, system.name, system.bounds, encoding,
        optional=system.optional, choices=system.choices, text_checks=system.text_checks,
        alone=system.alone,
        not_from_elo="" if system.made_from_elo else system.from_elo_note,
        scheme=system.national_id,
    )  # fmt: skip
    lines = listed["line"].to_numpy()
    problems = system.list_problems(listed.reset_index(drop=True))
    if month is not None:
        problems += system.list_month_problems(listed.reset_index(drop=True), month)
    raise_if_errors([Issue(str(path), int(lines[row]), why) for row, why in problems[:20]])
    return listed
