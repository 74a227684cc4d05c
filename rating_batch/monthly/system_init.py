"""``init`` under a rating system other than FIDE Elo (docs/systems.md §7): a new database from
that system's list (docs/formats.md §11: ``id`` and the state columns, with the players'
names), or from a FIDE Elo rating list (a list without the state columns, or ``--from-elo``),
each player's state made from the Elo rating by the system's conversion
(``RatingSystem.from_elo``; a player unrated in the list stays unrated)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from rating_batch.errors import InputError, Issue, raise_if_errors
from rating_batch.loaders import read_rating_list, read_state_list
from rating_batch.loaders.statelist import is_state_list
from rating_batch.monthly.common import Outcome, refuse_repeated_ids
from rating_batch.monthly.states import numeric_columns, state_rows
from rating_batch.periods import Period
from rating_batch.store import create_store
from rating_batch.systems import RatingSystem

PLAYER_COLUMNS = ("federation", "sex", "title", "w_title", "o_title", "foa_title", "birth_year")


def init_system_database(
    list_path: Path,
    *,
    db: Path,
    kind: str,
    label: Period,
    rules_name: str,
    rules_text: str | None,
    system: RatingSystem,
    from_elo: bool = False,
    encoding: str | None = None,
) -> Outcome:
    """Create a database that rates under ``system`` from a list of one kind: the system's
    own list, or (``from_elo``, or a list without the state columns) an Elo list
    (``encoding``: the list's, when it is not UTF-8)."""
    warnings: list[Issue] = []
    if not from_elo and is_state_list(list_path, system.state):
        players, state, how = _from_state_list(list_path, system, encoding)
    else:
        players, state, how, warnings = _from_elo_list(list_path, system, kind, encoding)
    with create_store(db) as store:
        store.create_tables_content(rules_name, rules_text)
        store.insert_players(players)
        store.insert_system_states(state_rows(system, players["player_id"], state, kind, label))
        store.add_list(label, kind, "init", rules_name)
    rated = int(state[numeric_columns(system)].notna().all(axis=1).sum())
    return Outcome(
        [
            f"created {db} from {list_path}: {len(players)} players, list {label}, "
            f"rules {rules_name}" + (f" ({system.name})" if rules_name != system.name else ""),
            f"{kind}: {rated} players with a state under {system.name}, {how}",
        ],
        warnings,
    )


def _registered(ids: pd.Series, identity: pd.DataFrame) -> pd.DataFrame:
    """``players`` rows: a numeric id is a FIDE ID; any other id (``<event>#<rank>`` from an
    earlier players.csv, a national id) is kept as the player's public id."""
    numeric = ids.str.fullmatch(r"\d{1,12}").fillna(False).to_numpy(bool)
    fide = pd.to_numeric(ids.where(numeric), errors="coerce").astype("Int64")
    frame = pd.DataFrame(
        {
            "player_id": np.arange(1, len(ids) + 1),
            "fide_id": fide.to_numpy(),
            "name": identity["name"].fillna("").to_numpy()
            if "name" in identity
            else np.full(len(ids), ""),
        }
    )
    for column in PLAYER_COLUMNS:
        frame[column] = identity[column].to_numpy() if column in identity else None
    frame["created_by"] = np.where(numeric, "list", ids.to_numpy(dtype=object))
    return frame


def _from_state_list(
    path: Path, system: RatingSystem, encoding: str | None
) -> tuple[pd.DataFrame, pd.DataFrame, str]:
    listed = read_state_list(path, system.state, system.name, system.bounds, encoding)
    listed = listed.reset_index(drop=True)
    issues: list[Issue] = []
    if "birth_year" in listed:
        text = listed["birth_year"]
        years = pd.to_numeric(text, errors="coerce").astype("Int64")
        wrong = text.notna() & years.isna()
        issues += [
            Issue(str(path), int(line), f"birth_year {value!r} is not a year")
            for line, value in zip(listed["line"][wrong], text[wrong], strict=True)
        ]
        listed["birth_year"] = years
    raise_if_errors(issues[:20])
    players = _registered(listed["id"].astype("string"), listed)
    return players, listed[list(system.state)], "read from the list"


def _from_elo_list(
    path: Path, system: RatingSystem, kind: str, encoding: str | None
) -> tuple[pd.DataFrame, pd.DataFrame, str, list[Issue]]:
    rating_list = read_rating_list(path, kind=kind, encoding=encoding)
    warnings = rating_list.issues
    if kind not in rating_list.kinds:
        raise InputError([Issue(str(path), None, f"the list has no {kind} ratings")])
    frame = rating_list.frame
    refuse_repeated_ids(frame, rating_list.source)
    # A player without a FIDE ID keeps the id our lists give them, else is known by the
    # list's line (their public id).
    ids = frame["id"].astype("Int64").astype("string").fillna(frame["own_id"])
    ids = ids.fillna("list#" + frame["line"].astype("string"))
    players = _registered(ids, frame)
    seeded = system.from_elo(rating_list.for_kind(kind)["rating"].reset_index(drop=True))
    return players, seeded, f"from the Elo ratings ({system.from_elo_note})", warnings
