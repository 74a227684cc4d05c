"""The largest game set that makes a norm (docs/norms.md §2.4, §2.5): the full
set first, for every player of every event and each norm title at once; then, for the few
players whose full set fails but could hold a norm, the sets that leave out the rounds after
the norm (a Swiss, 1.4.1e) and wins (1.4.1f), the most games first, all evaluated at once. A
row per player and norm title: the first set that qualifies, else the full set's failure."""

from __future__ import annotations

import itertools
from collections.abc import Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from rating_batch.schema import Event
from rating_batch.titles.check import evaluate
from rating_batch.titles.event import (
    CREDITED_ROUND,
    EventFacts,
    exemption_of,
    player_rounds,
    round_ranges,
)
from rating_batch.titles.rules import NORM_TITLES, NormRules, NormTitle

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
    seeker: int
    """The seeker's position in the title's seekers."""
    kept: tuple[int, ...]
    """Positions in the player's counted games."""
    dropped: tuple[str, ...]


@dataclass(frozen=True)
class _Field:
    """Every event's players and rounds as one frame each, keyed ``event × width + rank``."""

    facts: Sequence[EventFacts]
    people: pd.DataFrame
    """The players checked: ``event`` (the event's position), ``player``, ``key``, ``fide_id``,
    ``name``, ``federation``, ``title``, ``sex``, ``exemption``, ``rounds_counted``,
    ``games_dropped``, ``kept`` (the full set's rounds), ``games``, ``credit_141c``."""
    rounds: list[pd.DataFrame]
    counted: pd.DataFrame
    """The counted rounds of every event, with ``event`` and ``key``, sorted by key and round."""
    names: pd.Series
    """key → name, of every player."""
    width: int


def event_norms(
    event: Event,
    facts: EventFacts,
    *,
    exemption: str | None = None,
    wanted: Collection[int] | None = None,
) -> EventNorms:
    """Every player's (or the start ranks ``wanted``) best result for each norm title he
    could seek: GM and IM, WGM and WIM for women."""
    return events_norms([event], [facts], exemption=exemption, wanted=[wanted])[0]


def events_norms(
    events: Sequence[Event],
    facts: Sequence[EventFacts],
    *,
    exemption: str | None = None,
    wanted: Sequence[Collection[int] | None] | None = None,
) -> list[EventNorms]:
    """``event_norms`` of many events at once: one evaluation per edition and norm title."""
    field = _field(
        events,
        facts,
        exemption,
        wanted or [None] * len(events),
    )
    tables = []
    for edition in dict.fromkeys(f.rules.edition for f in facts):
        for name in NORM_TITLES:
            tables.append(_title_rows(field, edition, name))
    filled = [frame for frame in tables if not frame.empty]
    table = pd.concat(filled, ignore_index=True) if filled else _empty()
    order = {name: number for number, name in enumerate(NORM_TITLES)}
    table = table.assign(order=table["norm_title"].map(order)).sort_values(
        ["position", "player", "order"], kind="stable"
    )
    table = table.drop(columns=["order"])
    ends = np.searchsorted(table["position"].to_numpy(np.int64), np.arange(len(events) + 1))
    return [
        EventNorms(
            facts[index],
            table.iloc[ends[index] : ends[index + 1]]
            .drop(columns=["position"])
            .reset_index(drop=True),
            field.rounds[index],
        )
        for index in range(len(events))
    ]


def _empty() -> pd.DataFrame:
    return pd.DataFrame(columns=[*NORMS_COLUMNS, "event", "player", "position"])


def _field(
    events: Sequence[Event],
    facts: Sequence[EventFacts],
    exemption: str | None,
    wanted: Sequence[Collection[int] | None],
) -> _Field:
    rounds = [player_rounds(event, fact) for event, fact in zip(events, facts, strict=True)]
    width = 1 + max((int(e.players["player"].max()) for e in events if len(e.players)), default=0)
    everyone = []
    for index, (event, fact, chosen) in enumerate(zip(events, facts, wanted, strict=True)):
        people = event.players.drop_duplicates("player")
        if chosen is not None:
            people = people[people["player"].isin(list(chosen)).to_numpy(bool)]
        everyone.append(
            people[["player", "fide_id", "name", "federation", "title", "sex"]].assign(
                position=index,
                exemption=exemption_of(fact, people["federation"], exemption).to_numpy(),
            )
        )
    people = pd.concat(everyone, ignore_index=True) if everyone else pd.DataFrame()
    people = people.assign(key=people["position"] * width + people["player"])
    sizes = [len(frame) for frame in rounds]
    every = pd.concat(rounds, ignore_index=True).assign(
        position=np.repeat(np.arange(len(rounds)), sizes)
    )
    every = every.assign(key=every["position"].to_numpy(np.int64) * width + every["player"])
    names = pd.Series(
        pd.concat([e.players.drop_duplicates("player")["name"] for e in events]).to_numpy(),
        index=np.concatenate(
            [i * width + e.players.drop_duplicates("player")["player"].to_numpy(np.int64)
             for i, e in enumerate(events)]
        ),
    )  # fmt: skip
    every = every[every["key"].isin(people["key"]).to_numpy(bool)]
    counted = every[every["counted"].to_numpy(bool)]
    lists = counted.groupby("key", sort=False)["round"].agg(list)
    kept = people["key"].map(lists)
    kept = kept.where(kept.notna(), pd.Series([[]] * len(kept), index=kept.index))
    uncounted = every[~every["counted"].to_numpy(bool)]
    left = (
        ("r" + uncounted["round"].astype(str) + " " + uncounted["why"].astype(str))
        .groupby(uncounted["key"].to_numpy(), sort=False)
        .agg("; ".join)
    )
    games = np.bincount(
        pd.Index(people["key"]).get_indexer(pd.Index(counted["key"])), minlength=len(people)
    )
    full: list[object] = [tuple(int(n) for n in k) for k in kept]
    people = people.assign(
        kept=pd.Series(full, index=people.index, dtype=object),
        rounds_counted=[round_ranges(k) for k in kept],
        games_dropped=people["key"].map(left).astype(object).where(lambda t: t.notna(), ""),
        games=games,
        credit_141c=_credited_141c(every, people, facts, games),
    )
    return _Field(facts, people, rounds, counted, names, width)


def _credited_141c(
    every: pd.DataFrame, people: pd.DataFrame, facts: Sequence[EventFacts], games: np.ndarray
) -> np.ndarray:
    """1.4.1c: a 9-round event, 8 games counted and the ninth round a forfeit win or a
    pairing-allocated bye."""
    rounds = np.array([f.rounds for f in facts], dtype=np.int64)
    wanted_rounds = np.array([f.rules.credit_141c_rounds for f in facts], dtype=np.int64)
    wanted_games = np.array([f.rules.credit_141c_games for f in facts], dtype=np.int64)
    credit_round = ~every["counted"].to_numpy(bool) & every["result"].str.upper().isin(
        CREDITED_ROUND
    ).to_numpy(bool)
    credits = np.bincount(
        pd.Index(people["key"]).get_indexer(pd.Index(every["key"][credit_round])),
        minlength=len(people),
    )
    position = people["position"].to_numpy(np.int64)
    return np.asarray(
        (rounds[position] == wanted_rounds[position])
        & (games == wanted_games[position])
        & (credits == wanted_rounds[position] - wanted_games[position])
    )


def _title_rows(field: _Field, edition: str, name: str) -> pd.DataFrame:
    """The rows of one norm title for the events judged by one edition."""
    facts = field.facts
    rules = next(f.rules for f in facts if f.rules.edition == edition)
    title = rules.title(name)
    people = field.people
    of_edition = np.array([f.rules.edition == edition for f in facts], dtype=bool)
    women = people["sex"].fillna("").eq("F").to_numpy(bool)
    seekers = people[
        of_edition[people["position"].to_numpy(np.int64)] & (women | (not title.women_only))
    ]
    if seekers.empty:
        return pd.DataFrame()
    seekers = seekers.reset_index(drop=True)
    where = pd.Index(seekers["key"]).get_indexer(pd.Index(field.counted["key"]))
    rows = field.counted[where >= 0].assign(set=where[where >= 0])
    credited = seekers["credit_141c"].to_numpy(bool)
    min_games = np.where(credited, rules.credit_141c_games, rules.min_games)
    results = evaluate(rows, _sets(seekers, facts, min_games), rules, title)
    chosen: dict[int, _Set] = {}
    promising = _promising(results, seekers, facts, rules, min_games)
    tried: list[_Set] = []
    per_seeker: dict[int, pd.DataFrame] = {}
    if promising:
        per_seeker = {
            int(i): frame for i, frame in rows[rows["set"].isin(promising)].groupby("set")
        }
        for index in promising:
            fact = facts[int(seekers["position"].iat[index])]
            tried.extend(itertools.islice(_subsets(index, per_seeker[index], fact), MAX_SETS))
    if tried:  # none when no promising seeker has a round or a win to leave out
        # Every set's rows taken at once from the seekers' rows (a frame per set cost
        # ~0.4 ms each: 25,000 sets of a month took 11 s).
        order = list(per_seeker)
        pool = pd.concat([per_seeker[i] for i in order], ignore_index=True)
        sizes = np.array([len(per_seeker[i]) for i in order], dtype=np.int64)
        starts = dict(zip(order, (np.cumsum(sizes) - sizes).tolist(), strict=True))
        taken = [starts[item.seeker] + np.asarray(item.kept, dtype=np.int64) for item in tried]
        sizes = np.array([len(rows) for rows in taken], dtype=np.int64)
        owners = [item.seeker for item in tried]
        more = evaluate(
            pool.iloc[np.concatenate(taken)]
            .assign(set=np.repeat(np.arange(len(tried)), sizes))
            .reset_index(drop=True),
            _sets(seekers.iloc[owners], facts, np.full(len(tried), rules.min_games)),
            rules,
            title,
        )
        winners = more.assign(owner=owners)[more["norm"].to_numpy(bool)]
        for number, index in zip(
            winners.groupby("owner", sort=False).head(1).index,
            winners.groupby("owner", sort=False).head(1)["owner"],
            strict=True,
        ):
            chosen[int(index)] = tried[int(number)]
            results.iloc[int(index)] = more.iloc[int(number)]
        seekers = _subset_texts(seekers, chosen, per_seeker)
    return _compose(results, credited, seekers, field, rules, title)


def _sets(
    seekers: pd.DataFrame, facts: Sequence[EventFacts], min_games: np.ndarray
) -> pd.DataFrame:
    """``evaluate``'s sets frame: one per seeker (or per set tried, ``seekers`` repeated)."""
    position = seekers["position"].to_numpy(np.int64)
    drr = np.array([f.format == "double round-robin" for f in facts], dtype=bool)
    unrated_as = np.array([f.rules.unrated_rating(f.info.start) for f in facts], dtype=np.int64)
    return pd.DataFrame(
        {
            "federation": seekers["federation"].fillna("").astype(str).to_numpy(dtype=object),
            "drr": drr[position],
            "exemption": seekers["exemption"].to_numpy(dtype=object),
            "min_games": min_games,
            "unrated_as": unrated_as[position],
        }
    )


def _promising(
    results: pd.DataFrame,
    seekers: pd.DataFrame,
    facts: Sequence[EventFacts],
    rules: NormRules,
    min_games: np.ndarray,
) -> list[int]:
    """The players whose full set fails but a smaller one might not: enough games to leave
    one out, enough titled and target opponents for the smallest set, no event-level
    failure; in a round-robin, a mix that holds over the whole event (1.4.1f)."""
    position = seekers["position"].to_numpy(np.int64)
    clean = np.array([not f.problems for f in facts], dtype=bool)[position]
    predetermined = np.array([f.predetermined for f in facts], dtype=bool)[position]
    games = results["games"].to_numpy(np.int64)
    possible = (
        clean
        & ~results["norm"].to_numpy(bool)
        & (games > min_games)
        & (results["target_titled"].to_numpy(np.int64) >= rules.target_minimum)
        & (2 * results["titled"].to_numpy(np.int64) >= rules.min_games)
    )
    if possible.any():
        mix = ("games", "titled", "target", "federations", "caps")
        articles = tuple(f"{rules.articles[key]} " for key in mix)
        failing = results["failing"].fillna("").astype(str)
        mix_fails = failing.map(
            lambda text: any(part.startswith(articles) for part in text.split("; ") if part)
        ).to_numpy(bool)
        possible &= ~(predetermined & mix_fails)
    return [int(index) for index in np.flatnonzero(possible)]


def _subsets(seeker: int, games: pd.DataFrame, facts: EventFacts) -> Iterator[_Set]:
    """The smaller sets of one player, the most games first: for each size, the rounds
    after the norm left out first (a Swiss may end its set at any round, 1.4.1e), then
    wins left out as well (1.4.1f), the earliest first."""
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
                yield _Set(seeker, kept, dropped)


def _subset_texts(
    seekers: pd.DataFrame, chosen: Mapping[int, _Set], per_seeker: Mapping[int, pd.DataFrame]
) -> pd.DataFrame:
    """The seekers with ``kept``, ``rounds_counted`` and ``games_dropped`` of the sets chosen
    in place of their full ones."""
    kept = list(seekers["kept"])
    counted = list(seekers["rounds_counted"])
    dropped = list(seekers["games_dropped"])
    for index, item in chosen.items():
        numbers = per_seeker[index]["round"].to_numpy()[list(item.kept)]
        kept[index] = tuple(int(n) for n in numbers)
        counted[index] = round_ranges(kept[index])
        reasons = [text for text in str(dropped[index]).split("; ") if text] + list(item.dropped)
        dropped[index] = "; ".join(sorted(reasons, key=lambda t: int(t[1:].split(" ")[0])))
    return seekers.assign(kept=kept, rounds_counted=counted, games_dropped=dropped)


def _compose(
    results: pd.DataFrame,
    credited: np.ndarray,
    seekers: pd.DataFrame,
    field: _Field,
    rules: NormRules,
    title: NormTitle,
) -> pd.DataFrame:
    """norms.csv's rows of one title, and what the certificate shows besides."""
    facts = field.facts
    position = seekers["position"].to_numpy(np.int64)
    problems = np.array(["; ".join(f.problems) for f in facts], dtype=object)[position]
    failing = results["failing"].astype(str).to_numpy(dtype=object)
    has_problem = problems != ""
    failing = np.where(
        has_problem, pd.Series(problems + "; " + failing).str.strip("; ").to_numpy(), failing
    )
    norm = results["norm"].to_numpy(bool) & ~has_problem
    games = results["games"].to_numpy(np.int64)
    overscore = np.floor(results["points"] - results["points_needed"].fillna(0)).astype("int64")
    overscore = np.where(norm, np.maximum(overscore, 0), 0)
    base = np.where(credited, rules.credit_141c_rounds, np.minimum(games, rules.max_credit_games))
    raised = results["raised_opponent"]
    raised_name = pd.Series(position * field.width, dtype="Int64") + raised.reset_index(drop=True)
    fide_id = seekers["fide_id"]
    keys = [f.info.key for f in facts]
    return pd.DataFrame(
        {
            "id": np.where(
                fide_id.notna(), fide_id.astype("string"), seekers["player"].astype(str)
            ),
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
            "raised_opponent": raised_name.map(field.names).to_numpy(dtype=object),
            "raised_from": pd.array(results["raised_from"].to_numpy(), dtype="Int64"),
            "raised_to": pd.array(results["raised_to"].to_numpy(), dtype="Int64"),
            "titled": results["titled"].to_numpy(np.int64),
            "target_titled": results["target_titled"].to_numpy(np.int64),
            "federations": results["federations"].to_numpy(np.int64),
            "own_federation": results["own_federation"].to_numpy(np.int64),
            "largest_federation": results["largest_federation"].to_numpy(np.int64),
            "exemption": seekers["exemption"].to_numpy(dtype=object),
            "rounds_counted": seekers["rounds_counted"].to_numpy(dtype=object),
            "games_dropped": seekers["games_dropped"].to_numpy(dtype=object),
            "failing": np.where(norm, "", failing),
            "edition": rules.edition,
            "credit_games": pd.array(np.where(norm, base + overscore, 0), dtype="Int64"),
            "event": np.array(keys, dtype=object)[position],
            "player": seekers["player"].to_numpy(np.int64),
            "fide_id": fide_id.to_numpy(),
            "kept": seekers["kept"].to_numpy(dtype=object),
            "largest_federation_code": results["largest_federation_code"].to_numpy(dtype=object),
            "unrated": results["unrated"].to_numpy(np.int64),
            "points_needed": results["points_needed"].to_numpy(float),
            "credit_141c": credited,
            "overscore": overscore,
            "position": position,
        }
    ).assign(credit_games=lambda f: f["credit_games"].where(f["norm"]))
