"""The largest game set that makes a norm (docs/norms.md §2.4, §2.5): the full
set first, for every player and norm title at once; then, for the few players whose full set
fails but could hold a norm, the sets that leave out the rounds after the norm (a Swiss,
1.4.1e) and wins (1.4.1f), the most games first, all evaluated at once. A row per player and
norm title: the first set that qualifies, else the full set's failure."""

from __future__ import annotations

import itertools
from collections.abc import Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from rating_batch.norms.check import evaluate
from rating_batch.norms.event import (
    CREDITED_ROUND,
    EventFacts,
    exemption_of,
    player_rounds,
    round_ranges,
)
from rating_batch.norms.rules import NORM_TITLES, NormRules, NormTitle
from rating_batch.schema import Event

#: The sets tried for one player and title at most (the most games first): 13 games leave
#: out at most 4 of them, a few hundred sets; this bounds a 30-round event.
MAX_SETS = 5_000

#: The columns of norms.csv (docs/norms.md §1), in order.
NORMS_COLUMNS = (
    "id",
    "name",
    "federation",
    "title",
    "sex",
    "norm_title",
    "norm",
    "games",
    "points",
    "Ra",
    "Rp",
    "p",
    "dp",
    "raised_opponent",
    "raised_from",
    "raised_to",
    "titled",
    "target_titled",
    "federations",
    "own_federation",
    "largest_federation",
    "exemption",
    "rounds_counted",
    "games_dropped",
    "failing",
    "edition",
    "credit_games",
)


@dataclass(frozen=True)
class EventNorms:
    """One event's norm results: ``rows`` (norms.csv's columns and, after them, what a
    certificate shows besides: ``event``, ``player``, ``fide_id``, ``kept`` (the rounds of
    the set), ``largest_federation_code``, ``unrated``, ``points_needed``, ``credit_141c``,
    ``overscore``, ``target``), and every player's ``rounds`` (``event.player_rounds``)."""

    facts: EventFacts
    rows: pd.DataFrame
    rounds: pd.DataFrame


@dataclass(frozen=True)
class _Set:
    player: int
    kept: tuple[int, ...]
    """Positions in the player's counted games."""
    dropped: tuple[str, ...]


def event_norms(
    event: Event,
    facts: EventFacts,
    *,
    exemption: str | None = None,
    wanted: Collection[int] | None = None,
    ratings: Mapping[int, int] | None = None,
) -> EventNorms:
    """Every player's (or the start ranks ``wanted``) best result for each norm title he
    could seek: GM and IM, WGM and WIM for women."""
    rounds = player_rounds(event, facts, ratings)
    people = event.players.drop_duplicates("player").set_index("player")
    if wanted is not None:
        people = people[people.index.isin(list(wanted))]
    people = people.assign(exemption=exemption_of(facts, people["federation"], exemption))
    counted = rounds[rounds["counted"].to_numpy(bool)]
    rows = [
        _title_rows(facts, people, rounds, counted, facts.rules.title(name)) for name in NORM_TITLES
    ]
    filled = [frame for frame in rows if not frame.empty]
    table = pd.concat(filled, ignore_index=True) if filled else pd.DataFrame()
    if table.empty:
        table = pd.DataFrame(columns=[*NORMS_COLUMNS, "event", "player"])
    else:
        order = {name: number for number, name in enumerate(NORM_TITLES)}
        table = table.sort_values(
            ["player", "norm_title"], key=lambda c: c.map(order) if c.name == "norm_title" else c
        ).reset_index(drop=True)
    return EventNorms(facts, table, rounds)


def _title_rows(
    facts: EventFacts,
    people: pd.DataFrame,
    rounds: pd.DataFrame,
    counted: pd.DataFrame,
    title: NormTitle,
) -> pd.DataFrame:
    rules = facts.rules
    seekers = people[people["sex"].fillna("").eq("F").to_numpy(bool) | (not title.women_only)]
    if seekers.empty:
        return pd.DataFrame()
    ranks = seekers.index.to_numpy(np.int64)
    mine = counted[counted["player"].isin(ranks).to_numpy(bool)]
    per_player = {int(rank): frame for rank, frame in zip(*_groups(mine), strict=True)}
    credited = _credited_141c(rounds, facts, ranks, rules)
    full = [_Set(int(rank), tuple(range(len(per_player.get(int(rank), ())))), ()) for rank in ranks]
    min_games = np.where(credited, rules.credit_141c_games, rules.min_games)
    results = _evaluate(full, per_player, seekers, facts, title, min_games)
    chosen = dict(enumerate(full))
    promising = _promising(results, full, per_player, facts, title, min_games)
    if promising:
        tried: list[_Set] = []
        owner: list[int] = []
        for index in promising:
            sets = list(itertools.islice(_subsets(full[index], per_player, facts), MAX_SETS))
            tried.extend(sets)
            owner.extend([index] * len(sets))
        if tried:
            more = _evaluate(
                tried, per_player, seekers.loc[[s.player for s in tried]], facts, title,
                np.full(len(tried), rules.min_games),
            )  # fmt: skip
            winners = more.assign(owner=owner)[more["norm"].to_numpy(bool)]
            first = winners.groupby("owner", sort=False).head(1)
            for number, index in zip(first.index, first["owner"], strict=True):
                chosen[int(index)] = tried[int(number)]
                results.iloc[int(index)] = more.iloc[int(number)]
    return _compose(results, chosen, credited, seekers, rounds, per_player, facts, title)


def _groups(frame: pd.DataFrame) -> tuple[list[int], list[pd.DataFrame]]:
    """A frame's rows by player: the start ranks, and each one's rows."""
    ranks, frames = [], []
    for rank, rows in frame.groupby("player", sort=False):
        ranks.append(int(str(rank)))
        frames.append(rows)
    return ranks, frames


def _credited_141c(
    rounds: pd.DataFrame, facts: EventFacts, ranks: np.ndarray, rules: NormRules
) -> np.ndarray:
    """1.4.1c: a 9-round event, 8 games counted and the ninth round a forfeit win or a
    pairing-allocated bye."""
    if facts.rounds != rules.credit_141c_rounds:
        return np.zeros(len(ranks), dtype=bool)
    frame = rounds[rounds["player"].isin(ranks).to_numpy(bool)]
    games = frame.groupby("player")["counted"].sum().reindex(ranks).fillna(0)
    credit = (
        (~frame["counted"] & frame["result"].str.upper().isin(CREDITED_ROUND))
        .groupby(frame["player"])
        .sum()
        .reindex(ranks)
        .fillna(0)
    )
    return np.asarray(
        (games.to_numpy() == rules.credit_141c_games)
        & (credit.to_numpy() == rules.credit_141c_rounds - rules.credit_141c_games)
    )


def _evaluate(
    sets: Sequence[_Set],
    per_player: Mapping[int, pd.DataFrame],
    seekers: pd.DataFrame,
    facts: EventFacts,
    title: NormTitle,
    min_games: np.ndarray,
) -> pd.DataFrame:
    """``check.evaluate`` of the sets, one result row per set, in order."""
    pieces = []
    for number, chosen in enumerate(sets):
        games = per_player.get(chosen.player)
        if games is None or not chosen.kept:
            continue
        pieces.append(games.iloc[list(chosen.kept)].assign(set=number))
    columns = ["set", "opponent", "round", "halves", "rating", "title", "federation"]
    rows = (
        pd.concat(pieces, ignore_index=True)[columns]
        if pieces
        else pd.DataFrame({name: pd.Series(dtype="int64") for name in columns})
    )
    frame = pd.DataFrame(
        {
            "federation": seekers["federation"].fillna("").astype(str).to_numpy(dtype=object),
            "drr": facts.format == "double round-robin",
            "exemption": seekers["exemption"].to_numpy(dtype=object),
            "min_games": min_games,
            "unrated_as": facts.rules.unrated_rating(facts.info.start),
        }
    )
    return evaluate(rows, frame, facts.rules, title)


def _promising(
    results: pd.DataFrame,
    full: Sequence[_Set],
    per_player: Mapping[int, pd.DataFrame],
    facts: EventFacts,
    title: NormTitle,
    min_games: np.ndarray,
) -> list[int]:
    """The players whose full set fails but a smaller one might not: enough games to leave
    one out, enough titled and target opponents for the smallest set; in a round-robin, a
    mix that holds over the whole event (1.4.1f)."""
    if facts.problems:
        return []
    rules = facts.rules
    games = results["games"].to_numpy(np.int64)
    possible = (
        ~results["norm"].to_numpy(bool)
        & (games > min_games)
        & (results["target_titled"].to_numpy(np.int64) >= rules.target_minimum)
        & (2 * results["titled"].to_numpy(np.int64) >= rules.min_games)
    )
    if facts.predetermined:
        mix = ("games", "titled", "target", "federations", "caps")
        articles = tuple(f"{rules.articles[key]} " for key in mix)
        failing = results["failing"].fillna("").astype(str)
        possible &= ~failing.map(
            lambda text: any(part.startswith(articles) for part in text.split("; ") if part)
        ).to_numpy(bool)
    return [int(index) for index in np.flatnonzero(possible)]


def _subsets(
    full: _Set, per_player: Mapping[int, pd.DataFrame], facts: EventFacts
) -> Iterator[_Set]:
    """The smaller sets of one player, the most games first: for each size, the rounds
    after the norm left out first (a Swiss may end its set at any round, 1.4.1e), then
    wins left out as well (1.4.1f), the earliest first."""
    games = per_player[full.player]
    rounds = games["round"].to_numpy(np.int64)
    wins = games["halves"].to_numpy(np.int64) == 2
    total = len(rounds)
    rules = facts.rules
    after, drop = rules.articles["after_norm"], rules.articles["drop_wins"]
    for size in range(total - 1, rules.min_games - 1, -1):
        # The rounds after the norm left out first (1.4.1e), then wins (1.4.1f).
        lengths = range(size, total + 1) if not facts.predetermined else (total,)
        for length in lengths:
            won = [index for index in range(length) if wins[index]]
            for left in itertools.combinations(won, length - size):
                kept = tuple(index for index in range(length) if index not in left)
                dropped = tuple(
                    [f"r{rounds[index]} after the norm ({after})" for index in range(length, total)]
                    + [f"r{rounds[index]} a win dropped ({drop})" for index in left]
                )
                yield _Set(full.player, kept, dropped)


def _compose(
    results: pd.DataFrame,
    chosen: Mapping[int, _Set],
    credited: np.ndarray,
    seekers: pd.DataFrame,
    rounds: pd.DataFrame,
    per_player: Mapping[int, pd.DataFrame],
    facts: EventFacts,
    title: NormTitle,
) -> pd.DataFrame:
    """norms.csv's rows of one title, and what the certificate shows besides."""
    rules = facts.rules
    uncounted = rounds[~rounds["counted"].to_numpy(bool)]
    left_out = {
        rank: [f"r{r} {why}" for r, why in zip(frame["round"], frame["why"], strict=True)]
        for rank, frame in zip(*_groups(uncounted), strict=True)
    }
    kept_rounds: list[tuple[int, ...]] = []
    dropped: list[str] = []
    counted_text: list[str] = []
    for index, rank in enumerate(seekers.index.to_numpy(np.int64).tolist()):
        chosen_set = chosen[index]
        played = per_player.get(rank)
        numbers: Sequence[int] | np.ndarray = (
            [] if played is None else played["round"].to_numpy()[list(chosen_set.kept)]
        )
        kept_rounds.append(tuple(int(n) for n in numbers))
        counted_text.append(round_ranges(kept_rounds[-1]))
        reasons = left_out.get(rank, []) + list(chosen_set.dropped)
        dropped.append("; ".join(sorted(reasons, key=lambda t: int(t[1:].split(" ")[0]))))
    failing = results["failing"].astype(str)
    if facts.problems:
        event_level = "; ".join(facts.problems)
        failing = (event_level + "; " + failing).str.strip("; ")
    norm = results["norm"].to_numpy(bool) & (not facts.problems)
    games = results["games"].to_numpy(np.int64)
    overscore = np.floor(results["points"] - results["points_needed"].fillna(0)).astype("int64")
    overscore = np.where(norm, np.maximum(overscore, 0), 0)
    base = np.where(credited, rules.credit_141c_rounds, np.minimum(games, rules.max_credit_games))
    names = rounds.drop_duplicates("opponent").set_index("opponent")["name"]
    raised = results["raised_opponent"]
    fide_id = seekers["fide_id"]
    return pd.DataFrame(
        {
            "id": np.where(fide_id.notna(), fide_id.astype("string"), seekers.index.astype(str)),
            "name": seekers["name"].to_numpy(dtype=object),
            "federation": seekers["federation"].to_numpy(dtype=object),
            "title": seekers["title"].to_numpy(dtype=object),
            "sex": seekers["sex"].to_numpy(dtype=object),
            "norm_title": title.title,
            "norm": norm,
            "games": games,
            "points": results["points"].to_numpy(float),
            "Ra": results["Ra"].to_numpy(np.int64),
            "Rp": results["Rp"].to_numpy(np.int64),
            "p": results["p"].to_numpy(np.int64),
            "dp": results["dp"].to_numpy(np.int64),
            "raised_opponent": raised.map(names).where(raised.notna(), None).to_numpy(dtype=object),
            "raised_from": pd.array(results["raised_from"].to_numpy(), dtype="Int64"),
            "raised_to": pd.array(results["raised_to"].to_numpy(), dtype="Int64"),
            "titled": results["titled"].to_numpy(np.int64),
            "target_titled": results["target_titled"].to_numpy(np.int64),
            "federations": results["federations"].to_numpy(np.int64),
            "own_federation": results["own_federation"].to_numpy(np.int64),
            "largest_federation": results["largest_federation"].to_numpy(np.int64),
            "exemption": seekers["exemption"].to_numpy(dtype=object),
            "rounds_counted": counted_text,
            "games_dropped": dropped,
            "failing": np.where(norm, "", failing.to_numpy(dtype=object)),
            "edition": rules.edition,
            "credit_games": pd.array(np.where(norm, base + overscore, 0), dtype="Int64").astype(
                "Int64"
            ),
            "event": facts.info.key,
            "player": seekers.index.to_numpy(np.int64),
            "fide_id": fide_id.to_numpy(),
            "kept": kept_rounds,
            "largest_federation_code": results["largest_federation_code"].to_numpy(dtype=object),
            "unrated": results["unrated"].to_numpy(np.int64),
            "points_needed": results["points_needed"].to_numpy(float),
            "credit_141c": credited,
            "overscore": overscore,
        }
    ).assign(credit_games=lambda f: f["credit_games"].where(f["norm"]))
