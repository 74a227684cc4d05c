"""``init``: a new rating database from a rating list, under FIDE Elo (``init_database``) or
another rating system (``init_system_database``: from its own state list, or seeded from an
Elo list with ``--from-elo``).

The database is made in a temporary file and put in place only when complete; a path where
anything already exists is refused and left as it was (``store.create_store``).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from rating_batch.errors import InputError, Issue, RulesError, raise_if_errors
from rating_batch.loaders import read_rating_list, read_state_list
from rating_batch.loaders.statelist import is_state_list
from rating_batch.monthly.common import (
    Outcome,
    book_from,
    player_ids,
    read_rules_file,
    refuse_repeated_ids,
)
from rating_batch.monthly.floor import below_floor_on_list
from rating_batch.monthly.states import numeric_columns, state_rows
from rating_batch.periods import (
    INITIAL,
    Period,
    canonical_period,
    junior_year,
    next_list_period,
    period_name,
    shown,
)
from rating_batch.store import create_store, ensure_new
from rating_batch.systems import RatingSystem
from rating_batch.systems.elo.k import list_k
from rating_batch.systems.elo.rules import FIDE_BY_DATE, Rules


def init_database(
    list_path: Path,
    *,
    db: Path,
    kind: str | None = None,
    period: str | None = None,
    rules_name: str = FIDE_BY_DATE,
    from_elo: bool = False,
    encoding: str | None = None,
) -> Outcome:
    """Create the database from a rating list (a combined FIDE list fills all three kinds;
    ``encoding``: the list's, when it is not UTF-8)."""
    label = canonical_period(period) if period is not None else None
    ensure_new(db)  # before the list is even read: nothing at ``db`` is ever touched
    text = read_rules_file(rules_name)
    book = book_from(rules_name, text)
    if book.system is not None:
        return init_system_database(
            list_path,
            db=db,
            kind=kind or "standard",
            label=label or INITIAL,
            rules_name=rules_name,
            rules_text=text,
            system=book.system,
            from_elo=from_elo,
            encoding=encoding,
        )
    if from_elo:
        raise RulesError(f"--from-elo: {rules_name} is FIDE Elo; the list is an Elo list already")
    rating_list = read_rating_list(list_path, kind=kind or "standard", encoding=encoding)
    kinds = (kind,) if kind else rating_list.kinds
    if kind and kind not in rating_list.kinds:
        raise InputError([Issue(str(list_path), None, f"the list has no {kind} ratings")])
    if label is None:
        label = period_name(*rating_list.month) if rating_list.month is not None else INITIAL
    frame = rating_list.frame
    refuse_repeated_ids(frame, rating_list.source)
    notes: list[str] = []
    warnings: list[Issue] = []
    with create_store(db) as store:
        store.create_tables_content(rules_name, text)
        players = pd.DataFrame(
            {
                "player_id": np.arange(1, len(frame) + 1),
                "fide_id": frame["id"],
                **{c: frame[c] for c in ("name", "federation", "sex", "title", "w_title")},
                **{c: frame[c] for c in ("o_title", "foa_title", "birth_year")},
                "created_by": _created_by(frame),
            }
        )
        players["name"] = players["name"].fillna("")
        store.insert_players(players)
        rules = book.for_period(label)
        for each in kinds:
            listed = rating_list.for_kind(each)
            rows, inferred = _initial_ratings(listed, frame, players, each, label, rules)
            warnings += below_floor_on_list(
                listed, player_ids(players), each, rules.for_kind(each), rating_list.source
            )
            store.insert_ratings(rows)
            store.add_list(label, each, "init", rules_name)
            notes.append(f"{each}: {int(rows['rating'].notna().sum())} rated players")
            if inferred:
                notes.append(
                    f"{each}: {inferred} players with K {rules.k_new} who are neither juniors "
                    "nor 2400+ are taken to have fewer than 30 games, counted from 0 from now on"
                )
    month = "(month unknown: in force before every event)" if label == INITIAL else shown(label)
    return Outcome(
        [
            f"created {db} from {list_path}: {len(frame)} players, list {month}, "
            f"rules {rules_name}",
            *notes,
        ],
        [*rating_list.issues, *warnings],
    )


def _created_by(frame: pd.DataFrame) -> pd.Series:
    """What made each player of a list (``players.created_by``, the public id of a player
    without a FIDE ID): ``list``; for a player without one, the id our lists give them
    (``<event key>#<start rank>``, so a list we published reads back as it was), else
    ``list#<line>``."""
    made = frame["own_id"].astype(object).where(frame["own_id"].notna())
    made = made.fillna(("list#" + frame["line"].astype(str)).where(frame["id"].isna()))
    return made.fillna("list")


def _initial_ratings(
    listed: pd.DataFrame,
    frame: pd.DataFrame,
    players: pd.DataFrame,
    kind: str,
    period: Period,
    rules: Rules,
) -> tuple[pd.DataFrame, int]:
    """One ratings row per player with a rating or a K in this kind."""
    rating = listed["rating"]
    peak = rating.copy()
    for name in listed.columns:
        if name.startswith("ever_"):
            threshold = int(name.split("_")[1])
            reached = listed[name].fillna(False).astype(bool)
            peak = peak.where(~reached | (peak >= threshold), threshold)
    games = frame[f"{kind}_games"].fillna(0).astype("int64")
    games_total = listed["games_total"].copy()
    # K 40 on a FIDE list for a player who is neither junior nor 2400+ means fewer than 30
    # games: count from 0, so that K drops to 20 once 30 games are played here. The list's K
    # is for the next period, whose juniors are judged as the rules say (§3).
    year = junior_year(rules, next_list_period(rules, period), None) if period != INITIAL else None
    unknown = pd.Series(pd.NA, index=rating.index, dtype="Int64")
    experienced = list_k(rating, listed["birth_year"], unknown, peak, rules, year)
    new = (
        games_total.isna()
        & (listed["k"] == rules.k_new).fillna(False)
        & (experienced != rules.k_new)
    )
    games_total = games_total.mask(new, 0)
    rows = pd.DataFrame(
        {
            "player_id": players["player_id"],
            "kind": kind,
            "period": period,
            "rating": rating,
            "k": listed["k"],
            "games": games,
            "games_total": games_total,
            "peak": peak,
            "last_played": games.gt(0).map({True: period, False: None}),
            "inactive": frame["inactive"].fillna(False).astype(int),
            "first_event_done": 1,
            "pool_start": None,
        }
    )
    # Unrated rows are kept when they say something: lifetime games (a player who left the
    # list at the floor keeps them for K after a new first rating) or a history flag.
    flags = [name for name in listed.columns if name.startswith("ever_")]
    keep = (
        rating.notna()
        | listed["k"].notna()
        | listed["games_total"].notna()
        | listed[flags].notna().any(axis=1)
    ).to_numpy()
    return rows[keep], int((new & rating.notna()).sum())


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
    if not from_elo and is_state_list(list_path, system.state, system.optional_state):
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
    listed = read_state_list(
        path, system.state, system.name, system.bounds, encoding, system.optional_state
    )
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
    return players, system.from_list(listed[list(system.state)]), "read from the list"


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
