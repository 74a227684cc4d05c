"""What an event gives the norm checks (docs/norms.md §2.1, §2.2, §2.6): its format
(Swiss, round-robin, double round-robin) told from the crosstable, the edition it is judged
by, the exemption 1.4.3d and the strong event of 1.5.6 computed from every round, and every
player's rounds, each counted or not with why. Pure: frames in, frames out."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from rating_batch.schema import NO_RATING, Event, EventInfo, integers
from rating_batch.titles.rules import NormRules, edition_for

#: The exemption 1.4.3d, as norms.csv and an application name it.
SWISS_EXEMPTION = "swiss-1.4.3d"
#: Exemptions for the players of the registering (host) federation only (1.4.3a, b).
HOST_ONLY = frozenset({"national-championship", "national-team"})

#: The federation code of players of no FIDE federation: their games do not count (1.4.2).
NON = "NON"
#: Result codes of a forfeit win and of the byes that give a point without a game: the
#: round 1.4.1c credits (docs/norms.md §2.5).
CREDITED_ROUND = frozenset({"+", "U", "F"})


@dataclass(frozen=True)
class EventFacts:
    """One event as the norm checks see it."""

    info: EventInfo
    rules: NormRules
    format: str
    """``swiss``, ``round-robin`` or ``double round-robin`` (told from the crosstable)."""
    players: int
    rounds: int
    swiss_exemption: bool
    """1.4.3d holds in every round (a Swiss only)."""
    strong: bool
    """1.5.6: a Swiss of at least 40 players averaging 2000 or more in every round."""
    problems: tuple[str, ...]
    """Event-level failures every row carries (``0.5 rapid event``)."""
    notes: tuple[str, ...]
    """What was found and is not a failure (1.1.4: an event longer than 30 days)."""

    @property
    def predetermined(self) -> bool:
        """Pairings fixed in advance: every scheduled round counts (1.4.1e)."""
        return self.format != "swiss"


def event_format(players: int, rounds: int) -> str:
    """A crosstable's format: n players in at least n − 1 rounds have all met (a Swiss never
    repeats a pairing): a round-robin; in at least 2(n − 1), twice."""
    if players >= 3 and rounds >= 2 * (players - 1):
        return "double round-robin"
    if players >= 3 and rounds >= players - 1:
        return "round-robin"
    return "swiss"


def event_facts(event: Event, edition: str | None = None) -> EventFacts:
    """The format, the edition, 1.4.3d and 1.5.6 of one event, and what fails every player."""
    info = event.info
    rules = edition_for(info.start, edition)
    games = event.games
    players = int(event.players["player"].nunique())
    rounds = int(games["round"].max()) if len(games) else 0
    rounds = max(rounds, info.rounds)
    shape = event_format(players, rounds)
    swiss = shape == "swiss"
    problems: list[str] = []
    if info.kind is not None and info.kind != "standard":
        problems.append(f"{rules.articles['standard']} {info.kind} event, not standard")
    if shape == "double round-robin" and players < rules.drr_players:
        problems.append(
            f"{rules.articles['drr']} double round-robin of {players} players < {rules.drr_players}"
        )
    notes = []
    if info.start is not None and info.end is not None and (info.end - info.start).days > 30:
        notes.append(
            f"{rules.articles['long_event']}: an event of more than 30 days rates each game "
            "with the list in force when it was played; the file's ratings are used"
        )
    present = _present(games, rounds) if swiss else games.iloc[:0]
    return EventFacts(
        info=info,
        rules=rules,
        format=shape,
        players=players,
        rounds=rounds,
        swiss_exemption=swiss and _swiss_exemption(event, present, rules),
        strong=swiss and _strong(event, present, rules),
        problems=tuple(problems),
        notes=tuple(notes),
    )


def _present(games: pd.DataFrame, rounds: int) -> pd.DataFrame:
    """Per player and round: ``played`` (a game at the board, or a pairing-allocated bye,
    which is not a missed round), and per player ``missed`` (rounds without either)."""
    played = (games["rated"].to_numpy(bool)) | (games["result"].fillna("") == "U").to_numpy()
    frame = pd.DataFrame(
        {"player": games["player"].to_numpy(), "round": games["round"].to_numpy(), "in": played}
    )
    missed = rounds - frame.groupby("player")["in"].sum()
    return frame.assign(missed=frame["player"].map(missed).to_numpy())


def _swiss_exemption(event: Event, present: pd.DataFrame, rules: NormRules) -> bool:
    """1.4.3d: every round has enough rated foreigners, of enough federations, enough of
    them GM, IM, WGM or WIM; counting only players who missed at most the rounds allowed."""
    host = event.info.federation
    if not host or present.empty:
        return False
    people = event.players.set_index("player")
    foreign = people["rating"].notna() & people["federation"].fillna(host).ne(host)
    titled = foreign & people["title"].isin(rules.swiss_exemption_titles).to_numpy(bool)
    if foreign.sum() < rules.swiss_exemption_players or titled.sum() < rules.swiss_exemption_titled:
        return False  # too few in the whole event for any round
    rows = present[present["in"].to_numpy()]
    if rules.swiss_exemption_missed is not None:
        rows = rows[rows["missed"] <= rules.swiss_exemption_missed]
    rows = rows[foreign.reindex(rows["player"]).fillna(False).to_numpy(bool)]
    if rows.empty:
        return False
    federation = people["federation"].reindex(rows["player"]).to_numpy(dtype=object)
    titled = people["title"].reindex(rows["player"]).isin(rules.swiss_exemption_titles)
    per_round = pd.DataFrame(
        {"round": rows["round"].to_numpy(), "federation": federation, "titled": titled.to_numpy()}
    ).groupby("round")
    figures = per_round.agg(
        players=("federation", "size"),
        federations=("federation", lambda f: f[f != "FID"].nunique()),
        titled=("titled", "sum"),
    )
    all_rounds = present["round"].nunique()
    return bool(
        len(figures) == all_rounds
        and (figures["players"] >= rules.swiss_exemption_players).all()
        and (figures["federations"] >= rules.swiss_exemption_federations).all()
        and (figures["titled"] >= rules.swiss_exemption_titled).all()
    )


def _strong(event: Event, present: pd.DataFrame, rules: NormRules) -> bool:
    """1.5.6: at least 40 players in every round, averaging at least 2000, counting players
    who missed at most one round, pairing-allocated byes out (decision 7: the average of
    every rated participant of the round, or of its 40 highest rated)."""
    games = event.games
    rated = event.players.set_index("player")["rating"]
    if rated.notna().sum() < rules.strong_event_players:
        return False  # too few in the whole event for any round
    rows = present[present["in"].to_numpy() & (present["missed"] <= 1).to_numpy()]
    rows = rows[(games["result"].fillna("") != "U").reindex(rows.index).to_numpy(bool)]
    if rows.empty:
        return False
    ratings = rated.reindex(rows["player"]).to_numpy(dtype="float64", na_value=np.nan)
    frame = pd.DataFrame({"round": rows["round"].to_numpy(), "rating": ratings})
    figures = frame.groupby("round").agg(players=("rating", "size"), average=("rating", "mean"))
    if not rules.strong_average_of_all:
        top = frame.dropna().sort_values(["round", "rating"], ascending=[True, False])
        top = top.groupby("round").head(rules.strong_event_players)
        figures = figures.assign(average=top.groupby("round")["rating"].mean())
    return bool(
        len(figures) == present["round"].nunique()
        and (figures["players"] >= rules.strong_event_players).all()
        and (figures["average"] >= rules.strong_event_average).all()
    )


def player_rounds(event: Event, facts: EventFacts) -> pd.DataFrame:
    """Every player's every round, with the opponent as the norm checks see him and whether
    the game counts (docs/norms.md §2.2).

    Returns columns ``player``, ``round``, ``opponent`` (0: none), ``result``, ``halves``,
    ``counted`` (bool), ``why`` (why not: ``bye``, ``forfeit``, ``not played``, ``NON
    opponent``, ``unrated opponent without a point``), ``rating`` (the opponent's, -1
    unrated), ``title``, ``federation``, ``name`` (the opponent's), sorted by player and
    round."""
    games = event.games
    people = event.players.drop_duplicates("player").set_index("player")
    values = integers(people["rating"])
    rating = pd.Series(values, index=people.index)
    opponent = games["opponent"].fillna(0).to_numpy(np.int64)
    paired = opponent > 0
    opponents = pd.Index(people.index).get_indexer(pd.Index(opponent))
    known = paired & (opponents >= 0)
    take = np.where(known, opponents, 0)
    column = {
        name: np.where(known, people[name].fillna("").astype(str).to_numpy(dtype=object)[take], "")
        for name in ("title", "federation", "name")
    }
    opponent_rating = np.where(known, rating.to_numpy(np.int64)[take], NO_RATING)
    counted = games["rated"].to_numpy(bool) & known
    non = counted & (column["federation"] == NON)
    zero = np.zeros(len(games), dtype=bool)
    if facts.predetermined:
        zero = counted & (opponent_rating == NO_RATING) & _pointless_unrated(games, rating)[take]
    reason = games["reason"].astype(object).fillna("").to_numpy(dtype=object)
    why = np.select(
        [non, zero, counted, reason == "bye", reason == "forfeit"],
        ["NON opponent", "unrated opponent without a point", "", "bye", "forfeit"],
        default="not played",
    )
    return (
        pd.DataFrame(
            {
                "player": games["player"].to_numpy(np.int64),
                "round": games["round"].to_numpy(np.int64),
                "opponent": opponent,
                "result": games["result"].fillna("").to_numpy(dtype=object),
                "halves": np.rint(2 * games["score"].to_numpy(float)).astype(np.int64),
                "counted": counted & ~non & ~zero,
                "why": why,
                "rating": opponent_rating,
                **column,
            }
        )
        .sort_values(["player", "round"], kind="stable")
        .reset_index(drop=True)
    )


def _pointless_unrated(games: pd.DataFrame, rating: pd.Series) -> np.ndarray:
    """By start rank (the order of ``rating``): an unrated player who scored nothing against
    rated opponents (1.4.2: his games do not count in a round-robin)."""
    ranks = rating.index.to_numpy(np.int64)
    against = games["opponent"].fillna(0).to_numpy(np.int64)
    where = pd.Index(ranks).get_indexer(pd.Index(against))
    rated_opponent = (where >= 0) & (rating.to_numpy(np.int64)[np.maximum(where, 0)] != NO_RATING)
    played = games["rated"].to_numpy(bool) & rated_opponent
    points = (
        pd.Series(np.where(played, games["score"].to_numpy(float), 0.0))
        .groupby(games["player"].to_numpy(np.int64))
        .sum()
    )
    scored = points.reindex(ranks).fillna(0.0).to_numpy() > 0
    return np.asarray((rating.to_numpy(np.int64) == NO_RATING) & ~scored)


def exemption_of(facts: EventFacts, federation: pd.Series, named: str | None) -> pd.Series:
    """Each player's exemption from the foreigner rule (1.4.3): the one named for the event
    (a and b for the host federation's players only), else 1.4.3d where it holds; ``""``
    for none."""
    host = facts.info.federation
    if named is not None:
        applies = (
            federation.fillna("").eq(host) if named in HOST_ONLY else federation.notna() | True
        )
        return pd.Series(np.where(applies.to_numpy(bool), named, ""), index=federation.index)
    chosen = SWISS_EXEMPTION if facts.swiss_exemption else ""
    return pd.Series(chosen, index=federation.index, dtype=object)


def round_ranges(rounds: Sequence[int]) -> str:
    """``1-9`` or ``1-8,10``: rounds as runs."""
    parts: list[str] = []
    ordered = sorted(rounds)
    start = previous = None
    for number in ordered:
        if previous is not None and number == previous + 1:
            previous = number
            continue
        if start is not None:
            parts.append(str(start) if start == previous else f"{start}-{previous}")
        start = previous = number
    if start is not None:
        parts.append(str(start) if start == previous else f"{start}-{previous}")
    return ",".join(parts)
