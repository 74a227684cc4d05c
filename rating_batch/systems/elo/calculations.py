"""FIDE's "individual calculations": every number of a period explained, one row per game.

Pure: a ``rate_period`` result in, frames out (``calculations.csv`` and the Calculations sheet
show them). Three kinds of row (``calculation``):

* ``rating_change``: a counted game of a rated player: opponent, D as used (``capped`` when the
  400-point rule changed it), PD, ΔR, K after the 700 cap and K × ΔR;
* ``first_rating``: a game in an unrated player's first-rating pool (this period's, and those
  pending from earlier periods with their ``period``), then the hypothetical opponents the
  rules add (``event`` "hypothetical");
* ``first_rating_result``: that player's derivation: n, W, Ra of the rated opponents and Ra with
  the hypothetical ones, p, dp, the first rating before and after the cap, and the outcome
  (published, fewer games than needed, below the floor).

Every rated player's rows carry ``new_rating``, so a player's rows read to the end.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from rating_batch.systems.elo.engine import PeriodResult
from rating_batch.systems.elo.first import first_rating_parts
from rating_batch.systems.elo.rules import Rules
from rating_batch.systems.elo.tables import divide_half_up

COLUMNS = [
    "id", "name", "event", "round", "rating", "opponent_id", "opponent_name", "opponent_rating",
    "capped", "diff", "expected", "score", "delta", "k", "k_delta", "calculation", "period",
    "games", "ra_rated", "ra", "p", "dp", "first_rating", "new_rating", "formula", "outcome",
]  # fmt: skip
"""The columns of calculations.csv (``individual_calculations``)."""

POOL_COLUMNS = ["id", "event", "round", "period", "opponent_id", "opponent_name",
                "opponent_rating", "score"]  # fmt: skip
"""A first-rating pool's games (``individual_calculations``' ``pooled``)."""


def individual_calculations(
    result: PeriodResult, rules: Rules, pooled: pd.DataFrame | None = None, period: str = ""
) -> pd.DataFrame:
    """Every counted game and every first-rating pool, explained (``COLUMNS``), player by
    player in the order of ``result.players``.

    ``pooled``: games pending in unrated players' pools from earlier periods (``POOL_COLUMNS``);
    this period's pooled games come from ``result``. ``period`` names this period's games."""
    players = result.players.reset_index(drop=True)
    index = pd.Index(players["id"])
    changes = _rating_changes(result, players, index, period)
    pools = _pools(result, players, pooled, period)
    firsts = _first_rating_rows(pools, players, rules)
    frame = pd.concat(
        [
            changes,
            *(part.assign(_player=_positions(index, part["id"])) for part in (pools, firsts)),
        ],
        ignore_index=True,
    )
    frame = frame.reindex(columns=[*COLUMNS, "_order", "_kind", "_player"])
    # Player by player (anyone not in ``players`` last), then kind, then order: one stable
    # sort of integer keys (each row's player found once, by its part).
    order = np.lexsort(
        (
            frame["_order"].to_numpy(np.int64),
            frame["_kind"].to_numpy(np.int64),
            frame["_player"].to_numpy(np.int64),
        )
    )
    return _typed(frame[COLUMNS].take(order).reset_index(drop=True))


def _positions(index: pd.Index, ids: pd.Series) -> np.ndarray:
    """Each id's place among the period's players (``index``), after them all when it is not
    one of them: the sort key of ``individual_calculations``."""
    at = index.get_indexer(pd.Index(ids))
    return np.where(at < 0, len(index), at)


def _rating_changes(
    result: PeriodResult, players: pd.DataFrame, index: pd.Index, period: str
) -> pd.DataFrame:
    """A row per counted game of a rated player: each player's and opponent's values taken
    by position among the players (their ids hashed once each, not once per column)."""
    games = result.games
    rows = games[games["diff"].notna().to_numpy()]
    at = index.get_indexer(pd.Index(rows["id"]))
    facing = index.get_indexer(pd.Index(rows["opponent_id"]))
    names = players["name"].astype("string").array
    delta = np.rint(rows["delta"].to_numpy(dtype=np.float64) * 100).astype(np.int64)
    ks = players["k"].to_numpy(dtype=np.int64, na_value=0)
    k = np.where(at >= 0, ks[at], 0)
    raw = rows["rating"].to_numpy(dtype=np.int64) - rows["opponent_rating"].to_numpy(dtype=np.int64)
    return pd.DataFrame(
        {
            "id": rows["id"],
            "name": names.take(at, allow_fill=True),
            "event": rows["event"].astype("string"),
            "round": rows["round"],
            "rating": rows["rating"],
            "opponent_id": rows["opponent_id"],
            "opponent_name": names.take(facing, allow_fill=True),
            "opponent_rating": rows["opponent_rating"],
            "capped": raw != rows["diff"].to_numpy(dtype=np.int64),
            "diff": rows["diff"],
            "expected": rows["expected"],
            "score": rows["score"],
            "delta": rows["delta"],
            "k": pd.array(k, dtype="Int64"),
            # K × ΔR from integers: exactly two decimals, no binary tail.
            "k_delta": pd.array(np.round(k * delta / 100, 2), dtype="Float64"),
            "calculation": "rating_change",
            "period": period or pd.NA,
            "new_rating": players["new_rating"].astype("Int64").array.take(at, allow_fill=True),
            "_kind": 0,
            "_order": np.arange(len(rows)),
            "_player": np.where(at < 0, len(players), at),
        },
        index=rows.index,
    )


def _pools(
    result: PeriodResult, players: pd.DataFrame, pooled: pd.DataFrame | None, period: str
) -> pd.DataFrame:
    """The pooled games of every unrated player with a pool: earlier periods' first."""
    games = result.games
    unrated = players.loc[players["rating"].isna(), "id"]
    mine = games[games["counted"].to_numpy(bool) & games["id"].isin(unrated).to_numpy()]
    names = players.set_index("id")["name"]
    current = pd.DataFrame(
        {
            "id": mine["id"],
            "event": mine["event"].astype("string"),
            "round": mine["round"],
            "period": period or pd.NA,
            "opponent_id": mine["opponent_id"],
            "opponent_name": mine["opponent_id"].map(names),
            "opponent_rating": mine["opponent_rating"],
            "score": mine["score"],
        }
    )
    earlier = pooled[pooled["id"].isin(unrated)] if pooled is not None else None
    frames = [f for f in (earlier, current) if f is not None and len(f)]
    if not frames:
        return pd.DataFrame(columns=[*POOL_COLUMNS, "name", "calculation", "_kind", "_order"])
    pool = pd.concat(frames, ignore_index=True)
    return pool.assign(
        name=pool["id"].map(names),
        calculation="first_rating",
        _kind=1,
        _order=np.arange(len(pool)),
    )


def _first_rating_rows(pools: pd.DataFrame, players: pd.DataFrame, rules: Rules) -> pd.DataFrame:
    """Per unrated player with a pool: the hypothetical opponents, then the derivation."""
    if pools.empty:
        return pd.DataFrame(columns=COLUMNS)
    ratings = pools["opponent_rating"].astype("int64")
    half = np.rint(pools["score"].astype(float) * 2).astype(np.int64)
    by_player = pd.DataFrame({"id": pools["id"], "rating": ratings, "half": half}).groupby(
        "id", sort=False
    )
    totals = by_player.agg(n=("rating", "size"), total=("rating", "sum"), half=("half", "sum"))
    n = totals["n"].to_numpy(np.int64)
    half_points = totals["half"].to_numpy(np.int64)
    opponent_sum = totals["total"].to_numpy(np.int64)
    parts = first_rating_parts(n, half_points, opponent_sum, rules)
    ids = totals.index.to_series()
    names = players.set_index("id")["name"]
    status = players.set_index("id")["status"].astype("string")
    extra = rules.hypothetical_opponents if rules.first_formula == "hypothetical" else 0
    hypothetical = pd.DataFrame(
        {
            "id": np.repeat(ids.to_numpy(), extra),
            "event": "hypothetical",
            "opponent_name": "hypothetical opponent",
            "opponent_rating": rules.hypothetical_rating,
            "score": rules.hypothetical_half_points / 2,
            "calculation": "first_rating",
            "_kind": 2,
            "_order": np.tile(np.arange(extra), len(ids)),
        }
    ).assign(name=lambda frame: frame["id"].map(names))
    outcome = [
        _outcome(value, games, state, rules)
        for value, games, state in zip(
            parts["first_rating"], n, ids.map(status).fillna("unrated"), strict=True
        )
    ]
    results = pd.DataFrame(
        {
            "id": ids.to_numpy(),
            "name": ids.map(names).to_numpy(),
            "score": half_points / 2,
            "calculation": "first_rating_result",
            "games": n,
            "ra_rated": _hundredths(opponent_sum, n) / 100,
            "ra": _hundredths(parts["total"], parts["games"]) / 100,
            "p": parts["p"] / 100,
            "dp": parts["dp"],
            "first_rating": parts["first_rating"],
            "new_rating": pd.Series(parts["first_rating"], dtype="Int64").where(
                ids.map(status).eq("new").to_numpy()
            ),
            "formula": first_rating_formula(n, half_points, opponent_sum, parts, rules),
            "outcome": outcome,
            "_kind": 3,
            "_order": 0,
        }
    )
    return pd.concat([hypothetical, results], ignore_index=True)


def _hundredths(numerator: np.ndarray, denominator: np.ndarray) -> np.ndarray:
    """numerator / denominator in hundredths, rounded half up as the rules round (docs/rules.md
    §4.3: 1636.625 is 1636.63, where binary rounding would print 1636.62)."""
    numerator = np.asarray(numerator, dtype=np.int64)
    denominator = np.maximum(np.asarray(denominator, dtype=np.int64), 1)
    return divide_half_up(100 * numerator, denominator)


def _decimals(hundredths: np.ndarray) -> np.ndarray:
    """Hundredths as text with two decimals (``165500`` → ``1655.00``)."""
    values = np.asarray(hundredths, dtype=np.int64)
    whole = np.char.mod("%d", np.abs(values) // 100)
    text = np.char.add(np.char.add(whole, "."), np.char.mod("%02d", np.abs(values) % 100))
    return np.where(values < 0, np.char.add("-", text), text)


def _points(half_points: np.ndarray) -> np.ndarray:
    """Half points as points, written as a person would (``4``, ``4.5``)."""
    whole = np.char.mod("%d", half_points // 2)
    return np.where(half_points % 2 == 1, np.char.add(whole, ".5"), whole)


def first_rating_formula(
    n: np.ndarray,
    half_points: np.ndarray,
    opponent_sum: np.ndarray,
    parts: dict[str, np.ndarray],
    rules: Rules,
) -> np.ndarray:
    """Each first rating's arithmetic in one line, from the numbers ``first_rating_parts``
    used (docs/rules.md §4): how Ra is made (with the hypothetical opponents when the rules
    have them), p and dp, and Ru (before any cap: the outcome says when one applied)."""

    def text(*pieces: object) -> np.ndarray:
        out = np.full(len(n), "", dtype=object)
        for piece in pieces:
            out = out + (
                piece.astype(str).astype(object) if isinstance(piece, np.ndarray) else str(piece)
            )
        return out

    games, total, points = parts["games"], parts["total"], parts["points"]
    p = _decimals(parts["p"])
    dp = np.where(parts["dp"] == 0, "0", np.char.mod("%+d", parts["dp"]))
    value = np.char.mod("%d", parts["uncapped"])
    if rules.first_formula == "hypothetical":
        extra = rules.hypothetical_opponents
        ra = _decimals(_hundredths(total, games))
        sums = (
            text("(", opponent_sum, f" + {extra} × {rules.hypothetical_rating}) / ", games)
            if extra
            else text(opponent_sum, " / ", games)
        )
        exact = _decimals(_hundredths(total + parts["dp"] * games, games))
        return text(
            "Ra = ", sums, " = ", ra, "; p = ", _points(points), " / ", games, " = ", p,
            ", dp ", dp, "; Ru = Ra + dp = ", exact, " → ", value,
        )  # fmt: skip
    safe_n = np.maximum(n, 1)
    # Ra as a fraction ra_sum / ra_n: rounded first, half up (2011), or exact.
    if rules.first_round_average:
        rounded = divide_half_up(opponent_sum, safe_n)
        ra, ra_sum, ra_n = np.char.mod("%d", rounded), rounded, np.ones_like(safe_n)
    else:
        ra_sum, ra_n = opponent_sum, safe_n
        ra = _decimals(_hundredths(ra_sum, ra_n))
    above = parts["above"]
    # The step in hundredths is whole (12.5 → 1250): Ra + step × above exactly.
    step = round(rules.first_step * 100)
    stepped_value = divide_half_up(100 * ra_sum + step * above * ra_n, ra_n)
    start = text("Ra = ", opponent_sum, " / ", n, " = ", ra, "; W = ", _points(half_points))
    stepped = text(
        start, " of ", n, ", ", above, " half point(s) above 50%; ",
        f"Ru = Ra + {rules.first_step:g} × ", above, " = ",
        _decimals(stepped_value), " → ", value,
    )  # fmt: skip
    plain = text(
        start, " of ", n, ", p = ", p, ", dp ", dp, "; Ru = Ra + dp = ",
        _decimals(_hundredths(ra_sum + parts["dp"] * ra_n, ra_n)), " → ", value,
    )  # fmt: skip
    return np.where(above > 0, stepped, plain)


def _outcome(value: int, games: int, status: str, rules: Rules) -> str:
    """Why a pool's first rating is or is not published (§4)."""
    capped = (
        f"; capped at {rules.first_rating_max}"
        if rules.first_rating_max is not None and value == rules.first_rating_max
        else ""
    )
    if status == "new":
        return f"published: {value}{capped}"
    if games < rules.first_min_games:
        return (
            f"pending: {games} of the {rules.first_min_games} games against rated opponents needed"
        )
    if value < rules.floor:
        return f"not published: {value} is below the floor {rules.floor}{capped}"
    return f"pending: {value}{capped}"


def _typed(frame: pd.DataFrame) -> pd.DataFrame:
    types = {
        "id": "string", "name": "string", "event": "string", "round": "Int64",
        "rating": "Int64", "opponent_id": "string", "opponent_name": "string",
        "opponent_rating": "Int64", "capped": "boolean", "diff": "Int64",
        "expected": "Float64", "score": "Float64", "delta": "Float64", "k": "Int64",
        "k_delta": "Float64", "calculation": "string", "period": "string", "games": "Int64",
        "ra_rated": "Float64", "ra": "Float64", "p": "Float64", "dp": "Int64",
        "first_rating": "Int64", "new_rating": "Int64", "formula": "string",
        "outcome": "string",
    }  # fmt: skip
    return frame.astype(types)


def calculation_rows(calculations: pd.DataFrame, notes: pd.Series | None = None) -> pd.DataFrame:
    """The calculations grouped for reading: per player a heading row (a rated player's totals
    and new rating, or an unrated player's first-rating derivation), per event a subtotal
    row, then the games; ``level`` 0, 1, 2 (for outline levels).

    Expects ``individual_calculations`` columns; ``notes``: by player id, what a rated
    player's heading row says in ``outcome`` (``reasons.ro_k_notes``). Returns the columns
    plus ``level``, in order."""
    sums = ["expected", "score", "delta", "k_delta"]
    frame = calculations.reset_index(drop=True)
    player_order = pd.Series(pd.factorize(frame["id"])[0], index=frame.index)
    changes = frame["calculation"].eq("rating_change").to_numpy()
    results = frame["calculation"].eq("first_rating_result").to_numpy()
    event_key = frame["event"].fillna("").astype(str)
    # Each player's events numbered in order of first appearance: (player, event) pairs are
    # coded in that order, so a pair's place among its player's pairs is the event's number.
    pair = pd.factorize(pd.MultiIndex.from_arrays([player_order, event_key]))[0]
    _, first_rows = np.unique(pair, return_index=True)
    owner = player_order.to_numpy()[first_rows]
    place = pd.Series(owner).groupby(owner, sort=False).cumcount().to_numpy()
    event_order = pd.Series(place[pair], index=frame.index)
    games = frame[~results].assign(
        level=2, _p=player_order[~results], _e=event_order[~results], _k=2,
        _r=np.arange(int((~results).sum())),
    )  # fmt: skip
    rated = games[changes[~results]]
    events = (
        rated.groupby(["_p", "_e"], sort=False)
        .agg(id=("id", "first"), event=("event", "first"), **{c: (c, "sum") for c in sums})
        .reset_index()
        .assign(level=1, _k=1, _r=0, calculation="rating_change")
    )
    heads = (
        rated.groupby("_p", sort=False)
        .agg(
            id=("id", "first"),
            name=("name", "first"),
            rating=("rating", "first"),
            k=("k", "first"),
            new_rating=("new_rating", "first"),
            **{c: (c, "sum") for c in sums},
        )
        .reset_index()
        .assign(level=0, _e=-1, _k=0, _r=0, calculation="rating_change")
    )
    if notes is not None:
        heads["outcome"] = heads["id"].map(notes).replace("", pd.NA)
    derivations = frame[results].assign(level=0, _p=player_order[results], _e=-1, _k=0, _r=0)
    pools = games[~changes[~results]].assign(level=1)
    ordered = pd.concat([heads, events, rated, derivations, pools], ignore_index=True)
    ordered = ordered.sort_values(["_p", "_e", "_k", "_r"], kind="stable")
    for column in ("expected", "delta", "k_delta"):
        ordered[column] = ordered[column].round(2)  # sums of hundredths, without binary tails
    return ordered[[*calculations.columns, "level"]].reset_index(drop=True)


def _bands(values: pd.Series, width: int, column: str, separator: str) -> pd.DataFrame:
    """How many whole numbers fall in each band of ``width``: columns ``column`` (the band,
    e.g. ``1800-1899``) and ``players``, lowest first, empty bands in between included."""
    whole = values.dropna().to_numpy(dtype=np.int64)
    if not len(whole):
        return pd.DataFrame(
            {column: pd.Series(dtype="string"), "players": pd.Series(dtype="int64")}
        )
    low = whole.min() // width
    counts = np.bincount(whole // width - low)
    starts = (np.arange(len(counts)) + low) * width
    bands = [f"{start}{separator}{start + width - 1}" for start in starts.tolist()]
    return pd.DataFrame({column: bands, "players": counts.astype(np.int64)})


def rating_distribution(ratings: pd.Series, width: int = 100) -> pd.DataFrame:
    """How many ratings fall in each band of ``width`` points (the Charts sheet): ``band``
    (e.g. ``"1800-1899"``) and ``players``."""
    return _bands(ratings, width, "band", "-")


def change_distribution(changes: pd.Series, width: int = 10) -> pd.DataFrame:
    """How many rating changes (new rating − rating, whole points) fall in each band of
    ``width`` points (the period's changes chart): ``change`` (e.g. ``"-20 to -11"``) and
    ``players``."""
    return _bands(changes, width, "change", " to ")
