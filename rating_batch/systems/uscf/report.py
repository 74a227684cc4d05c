"""US Chess's own report of a section: the crosstable of its Member Services Area (MSA), as a
frame a writer lays out (docs/systems.md §9.15).

One row per player of each section, in MSA order: by total points, then by post-event rating
(US Chess sorts its crosstables into point groups, then by post-event rating), numbered from 1
in that order; each round's cell is the result letter and the opponent's number in that order.
The ratings are the rated values rounded half away from zero (§9.11) with ``P<n>`` where the
rating rests on ``provisional_games`` games or fewer."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from rating_batch.systems.base import half_away

#: Where a section's pre-event rating comes from: a US Chess rating (a list's, or an earlier
#: section's of the period); the FIDE conversion of Step 1 (§9.4 a); none (§9.4 b, c: an
#: initial rating on no games, which the MSA shows as "Unrated").
PRE_FROM = ("rated", "fide", "unrated")
#: The MSA's letters: a game won, drawn, lost; a forfeit won, lost; a full-point, half-point,
#: zero-point bye (or a round not played).
LETTERS = ("W", "D", "L", "X", "F", "B", "H", "U")

#: The frame's columns before the rounds (``round_1``, ``colour_1``, … follow, then the
#: ratings).
COLUMNS = ("event", "section", "pair", "id", "name", "federation", "total")
RATING_COLUMNS = (
    "pre", "pre_games", "pre_from", "post", "post_games", "pre_text", "post_text",
)  # fmt: skip


def crosstable(
    players: pd.DataFrame,
    calculations: pd.DataFrame,
    games: pd.DataFrame,
    order: Sequence[str],
    names: Mapping[str, str],
    provisional_games: int,
) -> pd.DataFrame:
    """The MSA crosstable of every section, sections in rating ``order`` (event keys).

    In: players.csv (``id``, ``name``, ``federation``, the state before the period:
    ``rating``, ``games_total``), calculations.csv (``event``, ``id``, ``rating`` = R0, ``n``,
    ``m``, ``new_rating``), the games frame (every round's row: ``event``, ``round``,
    ``player``, ``opponent``, ``id``, ``colour``, ``score``, ``reason``) and each section's
    name. Out: ``COLUMNS``, per round r ``round_r`` ("W 12", "B", "" when the player has no row
    in the round) and ``colour_r`` ("W", "B"; "" unless played over the board), then
    ``RATING_COLUMNS``: ``pre``/``post`` rounded (NA: unrated), ``pre_games``/``post_games``
    the games they rest on (NA: not known, established), ``pre_from`` (``PRE_FROM``), and the
    MSA's texts ("1501P3", "Unrated")."""
    rank = {key: place for place, key in enumerate(order)}
    rows = games[games["event"].isin(rank)]
    if rows.empty:  # a month without events (publish): no section
        return pd.DataFrame({c: pd.Series(dtype="object") for c in [*COLUMNS, *RATING_COLUMNS]})
    entrants = (
        rows.groupby(["event", "id"], sort=False)
        .agg(player=("player", "first"), total=("score", "sum"))
        .reset_index()
    )
    entrants["at"] = entrants["event"].map(rank).astype(np.int64)
    ratings = _ratings(entrants, players, calculations, provisional_games)
    who = players.drop_duplicates("id").set_index("id")
    frame = entrants.join(ratings)
    frame["name"] = frame["id"].map(who["name"]).astype("string")
    frame["federation"] = frame["id"].map(who["federation"]).astype("string").fillna("")
    frame["section"] = frame["event"].map(names).fillna(frame["event"]).astype("string")
    # Point groups, then the post-event rating (unrated last), then the start number.
    frame = frame.sort_values(
        ["at", "total", "post", "player"],
        ascending=[True, False, False, True],
        na_position="last",
        kind="stable",
    ).reset_index(drop=True)
    frame["pair"] = frame.groupby("at").cumcount() + 1
    cells = _cells(rows, frame)
    frame = frame.join(cells, on=["event", "player"])
    rounds = [c for c in cells.columns if c.startswith(("round_", "colour_"))]
    frame[rounds] = frame[rounds].fillna("")
    frame["id"] = frame["id"].astype("string").where(~frame["id"].str.contains("#", regex=False))
    return frame[[*COLUMNS, *rounds, *RATING_COLUMNS]]


def _ratings(
    entrants: pd.DataFrame,
    players: pd.DataFrame,
    calculations: pd.DataFrame,
    provisional_games: int,
) -> pd.DataFrame:
    """Each entrant's rating before and after his section (``RATING_COLUMNS``), indexed as
    ``entrants``. A section where he played a counted game has his R0, N and post-event
    rating in calculations.csv; otherwise his rating is the one he came with: his last
    section's post-event rating in the period, else the list's (§9.9, §9.11)."""
    played = (
        calculations.groupby(["event", "id"], sort=False)
        .agg(r0=("rating", "first"), n=("n", "first"), m=("m", "first"),
             rated=("new_rating", "first"))
        .reset_index()
    )  # fmt: skip
    at = entrants[["event", "id", "at"]].reset_index().merge(played, on=["event", "id"], how="left")
    at = at.set_index("index").reindex(entrants.index)
    games_after = at["n"].astype("Float64") + at["m"].astype("Float64")
    # The last section before this one in which he played counted games (merge_asof: the
    # nearest earlier "at" of the same id).
    done = at[at["rated"].notna()].assign(after=games_after)[["id", "at", "rated", "after"]]
    earlier = (
        pd.merge_asof(
            at[["id", "at"]].reset_index().sort_values("at"),
            done.sort_values("at").rename(columns={"rated": "before", "after": "games_before"}),
            on="at",
            by="id",
            allow_exact_matches=False,
        )
        .set_index("index")
        .reindex(entrants.index)
    )
    listed = players.drop_duplicates("id").set_index("id")
    list_rating = entrants["id"].map(listed["rating"]).astype("Float64")
    list_games = entrants["id"].map(listed["games_total"]).astype("Float64")
    came = earlier["before"].astype("Float64").fillna(list_rating)
    came_games = (
        earlier["games_before"].astype("Float64").where(earlier["before"].notna(), list_games)
    )
    played_now = at["rated"].notna()
    pre = at["r0"].astype("Float64").where(played_now, came)
    pre_games = at["n"].astype("Float64").where(played_now, came_games)
    had = came.notna()
    pre_from = np.where(
        had, "rated", np.where(played_now & (pre_games > 0).fillna(False), "fide", "unrated")
    )
    post = at["rated"].astype("Float64").where(played_now, came)
    post_games = games_after.where(played_now, came_games)
    pre = pre.where(pre_from != "unrated")
    out = pd.DataFrame(
        {
            "pre": _rounded(pre),
            "pre_games": pre_games.round().astype("Int64"),
            "pre_from": pd.Categorical(pre_from, categories=list(PRE_FROM)),
            "post": _rounded(post),
            "post_games": post_games.round().astype("Int64"),
        },
        index=entrants.index,
    )
    out["pre_text"] = _texts(out["pre"], out["pre_games"], provisional_games)
    out["post_text"] = _texts(out["post"], out["post_games"], provisional_games)
    return out


def _rounded(values: pd.Series) -> pd.Series:
    """Whole numbers, half away from zero (§9.11), NA kept."""
    numbers = values.astype("Float64").to_numpy(np.float64, na_value=np.nan)
    return pd.Series(half_away(numbers), index=values.index).round().astype("Int64")


def _texts(rating: pd.Series, games: pd.Series, provisional_games: int) -> pd.Series:
    """The MSA's rating: "1501", "1501P3" on ``provisional_games`` games or fewer, or
    "Unrated"."""
    text = rating.astype("string")
    provisional = (games <= provisional_games).fillna(False).to_numpy(bool)
    text = text.where(~provisional, text + "P" + games.astype("string"))
    return text.fillna("Unrated")


def _cells(rows: pd.DataFrame, frame: pd.DataFrame) -> pd.DataFrame:
    """Each round's cell per (event, start number): the letter (``LETTERS``) and, against an
    opponent, his number in MSA order; and the colour."""
    pairs = frame.set_index(["event", "player"])["pair"]
    opponent = pd.MultiIndex.from_arrays(
        [rows["event"].to_numpy(), rows["opponent"].fillna(-1).to_numpy(np.int64)]
    )
    number = pd.Series(pairs.reindex(opponent).to_numpy(), index=rows.index).astype("Int64")
    score = rows["score"].to_numpy(np.float64)
    against = rows["opponent"].notna().to_numpy(bool)
    unplayed = rows["reason"].isin(["forfeit", "unplayed"]).to_numpy(bool)
    by_score = np.select([score >= 1, score > 0], [0, 1], 2)  # W, D, L / B, H, U
    letter = np.where(
        against,
        np.where(unplayed, np.select([score >= 1, score > 0], [3, 6], 4), by_score),
        by_score + 5,
    )
    text = pd.Series(np.array(LETTERS)[letter], index=rows.index, dtype="string")
    text = text.where(~against, text + " " + number.astype("string"))
    colour = rows["colour"].astype("string").str.upper().fillna("")
    cells = pd.DataFrame(
        {"event": rows["event"], "player": rows["player"], "round": rows["round"],
         "round_": text, "colour_": colour.where(against & ~unplayed, "")}
    ).drop_duplicates(["event", "player", "round"])  # fmt: skip
    wide = cells.pivot(index=["event", "player"], columns="round", values=["round_", "colour_"])
    numbers = sorted({int(r) for r in cells["round"]})
    order = [(kind, r) for r in numbers for kind in ("round_", "colour_")]
    wide = wide.reindex(columns=pd.MultiIndex.from_tuples(order))
    wide.columns = [f"{kind}{r}" for kind, r in order]
    return wide
