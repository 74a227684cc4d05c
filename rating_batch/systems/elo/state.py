"""FIDE Elo's state carried from one list to the next (docs/rules.md §3–§6): each player's
rating, K for the next period, games, peak, last game and inactivity, the first-rating pool,
and the new list's rows. Pure: frames in, frames out; the monthly commands read and store
them (monthly/rate_kind.py)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from rating_batch.periods import Period, month_count, month_index, next_list_period
from rating_batch.systems.elo.adjustment import adjusted
from rating_batch.systems.elo.engine import PeriodResult
from rating_batch.systems.elo.k import history_flags, junior_year, list_k
from rating_batch.systems.elo.rules import Rules


@dataclass(frozen=True)
class Publication:
    """One list kind's period being published: what ``next_state`` and ``new_pool`` need."""

    result: PeriodResult
    table: pd.DataFrame
    prior: pd.DataFrame
    frame: pd.DataFrame
    rules: Rules
    period: Period
    kind: str
    pool_reset: set[int]
    event_ids: dict[str, int]
    adjusted: bool = False
    """The list took the rules' adjustment (docs/rules.md §7): the pool carried on holds its
    opponents' ratings adjusted too."""


def next_state(publication: Publication) -> tuple[pd.DataFrame, pd.DataFrame, list[str]]:
    """Every player's state after the period, the new pending pool, and notes."""
    result, table, rules = publication.result, publication.table, publication.rules
    period, kind = publication.period, publication.kind
    players = result.players
    status = players["status"].astype(str).to_numpy()
    old_rating = table["rating"]
    rating = pd.Series(players["new_rating"].to_numpy(), dtype="Int64")
    rating = rating.where(np.isin(status, ["rated", "new"]), pd.NA)
    games = players["games"].to_numpy(np.int64)
    was_rated = old_rating.notna().to_numpy()
    total = table["games_total"].astype("Int64")
    counted = pd.Series(np.where(was_rated, games, 0), dtype="Int64")
    games_total = (total + counted).where(was_rated, total)
    new = status == "new"
    # A new rating: the games before it (a player who fell below the floor keeps them, §3.3),
    # plus the pool's games when the rules count them toward the 30.
    before = total.fillna(0).to_numpy(np.int64)
    if rules.pool_games_count_toward_new:
        pool_games = players["pool_games"].fillna(0).astype("int64").to_numpy()
        games_total = games_total.mask(new, before + pool_games)
    else:
        games_total = games_total.mask(new, before)
    peak = pd.concat([table["peak"].astype("Int64"), rating], axis=1).max(axis=1).astype("Int64")
    played = games > 0
    last_played = pd.Series(np.where(played, period, table["last_played"]), dtype="object")
    last_played = last_played.where(last_played.notna(), None)
    inactive_before = table["inactive"].fillna(0).astype(bool).to_numpy()
    idle = month_count(period) - month_index(last_played)
    # Unknown (no game since the initial list): keep the list's flag until they play.
    inactive = (idle >= 12).fillna(pd.Series(inactive_before)).to_numpy(bool)
    # K on the new list, for the next period (§3): from the new rating and history.
    next_year = junior_year(rules, next_list_period(rules, period), None)
    k = list_k(rating, table["birth_year"], games_total, peak, rules, next_year)
    first_done = players["first_event_done"].to_numpy(bool)
    state = pd.DataFrame(
        {
            "player_id": table["player_id"].to_numpy(),
            "kind": kind,
            "period": period,
            "rating": rating,
            "k": pd.Series(k.to_numpy(), dtype="Int64").where(rating.notna(), pd.NA),
            "games": games,
            "games_total": games_total,
            "peak": peak,
            "last_played": last_played,
            "inactive": inactive.astype(int),
            "first_event_done": first_done.astype(int),
            "pool_start": table["pool_start"].where(table["pool_start"].notna(), None).to_numpy(),
        }
    )
    pending, starts = new_pool(publication)
    state["pool_start"] = state["player_id"].map(starts).where(state["rating"].isna(), None)
    state["pool_start"] = state["pool_start"].where(state["pool_start"].notna(), None)
    notes = [
        "inactive: no counted game for 12 months (flag kept from the list until a player plays)",
        f"K on the new list is for the next period, with juniors judged against {next_year}",
    ]
    return state, pending, notes


def new_pool(publication: Publication) -> tuple[pd.DataFrame, dict[int, str]]:
    """The first-rating pool after the period: pending games plus this period's counted
    games of players still unrated (§4); emptied when a rating is published, or reset when
    below the floor if the rules say so."""
    result, table, prior, frame = (
        publication.result,
        publication.table,
        publication.prior,
        publication.frame,
    )
    rules, period, event_ids = publication.rules, publication.period, publication.event_ids
    pool_reset = publication.pool_reset
    players = result.players
    status = players["status"].astype(str)
    player_ids = table["player_id"].to_numpy()
    unrated = status == "unrated"
    if not rules.keep_pool_below_floor:
        complete = players["pool_games"].fillna(0) >= rules.first_min_games
        unrated &= ~(complete & (players["provisional"] < rules.floor)).fillna(False)
    keep_ids = set(player_ids[unrated.to_numpy()])
    # The engine's games keep the order of ``frame`` (already in run order).
    games = result.games
    counted = games["counted"].to_numpy(bool)
    owner = player_ids[frame["pidx"].to_numpy()]
    mine = games[counted].assign(player_id=owner[counted])
    mine = mine[mine["player_id"].isin(keep_ids) & mine["rating"].isna()]
    fresh = pd.DataFrame(
        {
            "player_id": mine["player_id"].to_numpy(),
            "event_id": mine["event"].astype(str).map(event_ids).to_numpy(),
            "round": mine["round"].to_numpy(),
            "opponent_rating": mine["opponent_rating"].astype("int64").to_numpy(),
            "half": np.rint(mine["score"].to_numpy() * 2).astype(np.int64),
            "game_period": period,
        }
    )
    old = prior[prior["player_id"].isin(keep_ids)] if len(prior) else prior
    starts: dict[int, str] = {}
    if len(old):
        firsts = old.groupby("player_id")["game_period"].min()
        starts.update(dict(zip(firsts.index.tolist(), firsts.astype(str).tolist(), strict=True)))
    for player_id in fresh["player_id"].unique():
        starts.setdefault(int(player_id), period)
    for player_id in pool_reset:
        if player_id in keep_ids and player_id in set(fresh["player_id"]):
            starts[int(player_id)] = period
    pool = pd.concat([old.drop(columns=["pidx"], errors="ignore"), fresh], ignore_index=True)
    if publication.adjusted and len(pool):
        # Games rated with the list before are carried on at the new scale, once.
        ratings = pool["opponent_rating"].to_numpy(np.int64)
        pool["opponent_rating"] = adjusted(ratings, rules)
    return pool, starts


def listing_of(state: pd.DataFrame, table: pd.DataFrame, rules: Rules) -> pd.DataFrame:
    """The new rating list: rated players only (players with a pending first rating do not
    appear), ordered by rating, then name, then id."""
    listed = state[state["rating"].notna()].merge(
        table.drop(columns=[*STATE_FIELDS, "kind", "period"], errors="ignore"),
        on="player_id",
        how="left",
    )
    listed["class"] = rules.class_of(listed["rating"])
    listed["inactive"] = listed["inactive"].astype(bool)
    # The history K depends on, for this list only (§3, §6): a later --list or init reads it.
    flags = history_flags(rules)
    for name, threshold in flags.items():
        listed[name] = (listed["peak"].astype("Int64") >= threshold).fillna(False).astype(bool)
    listed = listed.sort_values(
        ["rating", "name", "id"], ascending=[False, True, True], kind="stable"
    )
    columns = [c for c in LIST_COLUMNS if c != "class" or rules.classes]
    return listed[[*columns, *flags]].reset_index(drop=True)


LIST_COLUMNS = [
    "id", "name", "federation", "sex", "title", "w_title", "o_title", "foa_title",
    "birth_year", "rating", "k", "games", "games_total", "inactive", "class",
]  # fmt: skip


#: A player's state in one list kind (a ``ratings`` row without its kind and period).
STATE_DTYPES = {
    "player_id": "int64", "rating": "Int64", "k": "Int64", "games": "int64",
    "games_total": "Int64", "peak": "Int64", "last_played": "object", "inactive": "int64",
    "first_event_done": "int64", "pool_start": "object",
}  # fmt: skip


STATE_FIELDS = [name for name in STATE_DTYPES if name != "player_id"]


EMPTY_STATE = pd.DataFrame({name: pd.Series(dtype=dtype) for name, dtype in STATE_DTYPES.items()})
