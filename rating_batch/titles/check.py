"""A norm's arithmetic over many game sets at once (docs/norms.md §2.3, checked in the
order of §7): the game minimum, the 35 % score, the titled half, the target-title third, the
federation mix, Ra with the one opponent raised to the floor, and Rp by the dp table. Pure
and vectorised: every candidate set of every player of every event is one group of rows."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

import numpy as np
import pandas as pd

from rating_batch.systems.elo.rules import fide_tables
from rating_batch.systems.elo.tables import divide_half_up
from rating_batch.titles.rules import NormRules, NormTitle

#: The federation code of FIDE's flag (players of no federation's own): a game and a titled
#: opponent, never a federation (decision 3).
FID = "FID"


@cache
def dp_table() -> np.ndarray:
    """dp by whole percentage p (0 … 100): the project's table 8.1.1, which is B.01's 1.4.9."""
    return np.array(fide_tables().dp, dtype=np.int64)


def ceil_share(count: np.ndarray, share: tuple[int, int]) -> np.ndarray:
    """count × share rounded up (a minimum: 50 % of 9 is 5)."""
    numerator, denominator = share
    return np.asarray((count * numerator + denominator - 1) // denominator, dtype=np.int64)


def floor_share(count: np.ndarray, share: tuple[int, int]) -> np.ndarray:
    """count × share rounded down (a maximum: 3/5 of 9 is 5)."""
    numerator, denominator = share
    return np.asarray(count * numerator // denominator, dtype=np.int64)


def percent_half_up(halves: np.ndarray, games: np.ndarray) -> np.ndarray:
    """The score as a whole percentage, .5 up (decision 8): 100 × (halves / 2) / games, so
    5/8 = 62.5 % is 63."""
    safe = np.maximum(games, 1)
    return np.asarray((100 * halves + safe) // (2 * safe), dtype=np.int64)


def halves_needed(
    ra: np.ndarray, games: np.ndarray, title: NormTitle, rules: NormRules
) -> np.ndarray:
    """The fewest half points over ``games`` at ``ra`` that give Rp ≥ the minimum and the
    35 % score; -1 where no score does (dp tops out at 800)."""
    table = dp_table()
    safe = np.maximum(games, 1)
    wanted = np.clip(title.min_rp - ra, table[0], None)
    percent = np.searchsorted(table, wanted, side="left")
    # percent_half_up(h, n) ≥ P  ⇔  100h + n ≥ 2nP  ⇔  h ≥ (2nP − n) / 100
    by_rp = -(-(2 * safe * percent - safe) // 100)
    by_score = -(-(2 * rules.min_score_percent * safe) // 100)
    if not rules.exact_score_minimum:
        by_score = -(-(2 * safe * rules.min_score_percent - safe) // 100)
    needed = np.maximum(np.maximum(by_rp, by_score), 0)
    return np.where((percent > 100) | (needed > 2 * safe), -1, needed).astype(np.int64)


def evaluate(
    rows: pd.DataFrame, sets: pd.DataFrame, rules: NormRules, title: NormTitle
) -> pd.DataFrame:
    """Each game set's figures for one norm title, and whether it is a norm.

    Expects columns, ``rows`` (one per game counted in a set, sorted by ``set``): ``set``
    (0 … len(sets) − 1), ``opponent`` (start rank), ``round``, ``halves`` (the score in half
    points), ``rating`` (the opponent's, ``-1`` unrated), ``title``, ``federation`` (the
    opponent's); ``sets``: ``federation`` (the player's), ``drr`` (a double round-robin),
    ``exemption`` (``""`` for none), ``min_games``, ``unrated_as``.

    Returns columns ``games``, ``points``, ``Ra``, ``Rp``, ``p``, ``dp``, ``raised_opponent``
    (a start rank), ``raised_from``, ``raised_to``, ``titled``, ``target_titled``,
    ``federations``, ``own_federation``, ``largest_federation`` (its count) and
    ``largest_federation_code``, ``unrated``, ``points_needed`` (at this Ra), ``norm`` and
    ``failing`` (every article not met with its figure, ``1.4.8a Rp 2593 < 2600``,
    ``;``-separated), indexed as ``sets``.
    """
    count = len(sets)
    where = rows["set"].to_numpy(np.int64)
    games = np.bincount(where, minlength=count).astype(np.int64)
    halves = np.bincount(where, weights=rows["halves"].to_numpy(np.int64), minlength=count)
    halves = halves.astype(np.int64)
    opponent = rows["opponent"].to_numpy(np.int64)
    titles = rows["title"].fillna("").astype(str)
    is_titled = titles.isin(rules.titled).to_numpy()
    is_target = titles.isin(title.targets).to_numpy()
    titled = np.bincount(where, weights=is_titled, minlength=count).astype(np.int64)
    drr = sets["drr"].to_numpy(bool)
    target_games = np.bincount(where, weights=is_target, minlength=count).astype(np.int64)
    width = int(opponent.max()) + 1 if len(opponent) else 1
    different = np.unique(where[is_target] * width + opponent[is_target]) // width
    target_players = np.bincount(different, minlength=count).astype(np.int64)
    target = np.where(drr, target_players, target_games)

    # Ratings: unrated as the edition says, then only the lowest opponent raised (1.4.6b-d).
    raw = rows["rating"].to_numpy(np.int64)
    unrated_as = sets["unrated_as"].to_numpy(np.int64)
    rating = np.where(raw < 0, unrated_as[where], raw)
    unrated = np.bincount(where, weights=raw < 0, minlength=count).astype(np.int64)
    total = np.bincount(where, weights=rating, minlength=count).astype(np.int64)
    order = np.lexsort((rows["round"].to_numpy(np.int64), rating, where))
    first = (
        np.flatnonzero(np.r_[True, where[order][1:] != where[order][:-1]]) if len(order) else order
    )
    lowest_row = order[first]
    has = np.zeros(count, dtype=bool)
    has[where[lowest_row]] = True
    lowest = np.full(count, title.floor, dtype=np.int64)
    lowest[where[lowest_row]] = rating[lowest_row]
    raised_rank = np.zeros(count, dtype=np.int64)
    raised_rank[where[lowest_row]] = opponent[lowest_row]
    raised = has & (lowest < title.floor)
    # The opponent raised is raised in every game against him (a double round-robin's two).
    meets = np.bincount(
        where, weights=(opponent == raised_rank[where]) & raised[where], minlength=count
    ).astype(np.int64)
    total = total + meets * (title.floor - lowest) * raised
    safe = np.maximum(games, 1)
    ra = np.where(games > 0, divide_half_up(total, safe), 0)
    p = np.where(games > 0, percent_half_up(halves, games), 0)
    dp = dp_table()[p]
    rp = ra + dp

    # Federations: FID and a blank code are no federation (decision 3).
    own = sets["federation"].fillna("").astype(str).to_numpy(dtype=object)
    federation = rows["federation"].fillna("").astype(str).to_numpy(dtype=object)
    is_federation = federation != ""
    if not rules.fid_is_federation:
        is_federation &= federation != FID
    codes, names = pd.factorize(np.concatenate([federation, own]))
    row_code, own_code = codes[: len(federation)], codes[len(federation) :]
    is_own = is_federation & (row_code == own_code[where]) & (own[where] != "")
    own_count = np.bincount(where, weights=is_own, minlength=count).astype(np.int64)
    keys, tallies = np.unique(
        where[is_federation] * (len(names) + 1) + row_code[is_federation], return_counts=True
    )
    key_set, key_code = keys // (len(names) + 1), keys % (len(names) + 1)
    foreign_key = key_code != own_code[key_set]
    foreign = np.bincount(key_set[foreign_key], minlength=count).astype(np.int64)
    federations = np.bincount(key_set, minlength=count).astype(np.int64)
    largest = np.zeros(count, dtype=np.int64)
    np.maximum.at(largest, key_set, tallies)
    # The largest federation's code: the first of the most frequent.
    by_size = np.lexsort((key_code, -tallies, key_set))
    top = (
        by_size[np.r_[True, key_set[by_size][1:] != key_set[by_size][:-1]]]
        if len(keys)
        else by_size
    )
    largest_code = np.full(count, "", dtype=object)
    largest_code[key_set[top]] = np.asarray(names, dtype=object)[key_code[top]]

    # The checks, in the order of docs/norms.md §2.3.
    min_games = sets["min_games"].to_numpy(np.int64)
    exempt = sets["exemption"].fillna("").astype(str).to_numpy(dtype=object) != ""
    need_points = -(-(2 * rules.min_score_percent * games) // 100)  # in halves
    score_ok = halves >= need_points if rules.exact_score_minimum else p >= rules.min_score_percent
    need_titled = ceil_share(games, rules.titled_share)
    need_target = np.maximum(rules.target_minimum, ceil_share(games, rules.target_share))
    need_target = np.where(
        drr, np.maximum(rules.drr_target_different, -(-need_target // 2)), need_target
    )
    max_own = floor_share(games, rules.own_share)
    max_one = floor_share(games, rules.one_federation_share)
    waive_caps = exempt & rules.exemptions_waive_caps
    max_unrated = floor_share(games, rules.unrated_share_max)
    articles = rules.articles
    checks: Sequence[tuple[np.ndarray, pd.Series]] = [
        (games < min_games, _text(articles["games"], " games ", games, " < ", min_games)),
        (
            ~score_ok,
            _text(articles["score"], " points ", halves / 2, " < ", need_points / 2)
            + f" ({rules.min_score_percent} %)",
        ),
        (titled < need_titled, _text(articles["titled"], " titled ", titled, " < ", need_titled)),
        (
            target < need_target,
            _text(
                articles["target"],
                f" {title.title}" + np.where(drr, " different ", " ").astype(object),
                target,
                " < ",
                need_target,
            ),
        ),
        (
            ~exempt & (foreign < rules.foreign_federations),
            _text(
                articles["federations"],
                " foreign federations ",
                foreign,
                " < ",
                np.full(count, rules.foreign_federations),
            ),
        ),
        (
            ~waive_caps & (own_count > max_own),
            _text(articles["caps"], " own federation ", own_count, " > ", max_own),
        ),
        (
            ~waive_caps & (largest > max_one),
            _text(
                articles["caps"],
                " one federation " + pd.Series(largest_code, dtype=object) + " ",
                largest,
                " > ",
                max_one,
            ),
        ),
        (
            rules.unrated_share_fails & (unrated > max_unrated),
            _text(articles["unrated"], " unrated opponents ", unrated, " > ", max_unrated),
        ),
        (
            ra < title.min_ra,
            _text(articles["ra_min"], " Ra ", ra, " < ", np.full(count, title.min_ra)),
        ),
        (rp < title.min_rp, _text(articles["rp"], " Rp ", rp, " < ", np.full(count, title.min_rp))),
    ]
    failed = np.zeros(count, dtype=bool)
    texts = []
    for fails, text in checks:
        failed |= fails
        texts.append(pd.Series(np.where(fails, text.to_numpy(dtype=object), ""), dtype=object))
    needed = halves_needed(ra, games, title, rules)
    return (
        pd.DataFrame(
            {
                "games": games,
                "points": halves / 2,
                "Ra": ra,
                "Rp": rp,
                "p": p,
                "dp": dp,
                "raised_opponent": pd.array(np.where(raised, raised_rank, 0), dtype="Int64"),
                "raised_from": pd.array(np.where(raised, lowest, 0), dtype="Int64"),
                "raised_to": pd.array(np.where(raised, title.floor, 0), dtype="Int64"),
                "titled": titled,
                "target_titled": target,
                "federations": federations,
                "own_federation": own_count,
                "largest_federation": largest,
                "largest_federation_code": largest_code,
                "unrated": unrated,
                "points_needed": np.where(needed >= 0, needed / 2, np.nan),
                "norm": ~failed,
                "failing": _joined(texts),
            },
            index=sets.index,
        )
        .astype({"raised_opponent": "Int64", "raised_from": "Int64", "raised_to": "Int64"})
        .pipe(_blank_unraised, raised)
    )


def _blank_unraised(frame: pd.DataFrame, raised: np.ndarray) -> pd.DataFrame:
    columns = ["raised_opponent", "raised_from", "raised_to"]
    return frame.assign(**{name: frame[name].where(raised) for name in columns})


def _text(article: str, *parts: object) -> pd.Series:
    """``article`` and the parts after it, element by element, as text (numbers as written:
    3.0 points as 3, 3.5 as 3.5)."""
    text = pd.Series(article, index=range(_length(parts)), dtype=object)
    for part in parts:
        if isinstance(part, str):
            text = text + part
        elif isinstance(part, pd.Series):
            text = text + part.reset_index(drop=True).astype(str)
        else:
            values = np.asarray(part)
            if values.dtype.kind == "O":
                text = text + pd.Series(values, dtype=object).astype(str)
            else:
                text = text + _numbers(values)
    return text


def _length(parts: Sequence[object]) -> int:
    for part in parts:
        if not isinstance(part, str):
            return len(part)  # type: ignore[arg-type]  # an array or a Series
    return 1


def _numbers(values: np.ndarray) -> pd.Series:
    """Numbers as text: whole ones without a decimal point, halves with one place."""
    if values.dtype.kind == "f":
        whole = values == np.floor(values)
        text = np.where(whole, values.astype(np.int64).astype(str), np.char.mod("%.1f", values))
        return pd.Series(text, dtype=object)
    return pd.Series(values.astype(str), dtype=object)


def _joined(texts: list[pd.Series]) -> pd.Series:
    """The texts of each row that are not empty, ``; ``-separated."""
    if not texts:
        return pd.Series(dtype=object)
    joined = texts[0].str.cat(pd.concat(texts[1:], axis=1), sep="; ")
    return joined.str.replace(r"(?:; )+", "; ", regex=True).str.strip("; ")
