"""What every rating system reads of a period: its counted games as arrays, one row per
player per game (each game twice, once from each side), and the order games are rated in.

Byes, forfeits and unplayed games never count, in any system (docs/rules.md §1): only games
played over the board against an opponent of the period are rows here.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from rating_batch.errors import RatingBatchError


@dataclass(frozen=True)
class PlayedGames:
    """The period's counted games, one row per player per game (both sides).

    ``event`` is the event's place in rating order (docs/systems.md §1: end date, start date,
    event key); ``board`` the start rank of the game's white player."""

    pidx: np.ndarray
    oidx: np.ndarray
    score: np.ndarray
    event: np.ndarray
    round: np.ndarray
    white: np.ndarray
    board: np.ndarray
    players: int

    def __len__(self) -> int:
        return len(self.pidx)

    @classmethod
    def of(cls, games: pd.DataFrame, event_rank: pd.Series, players: int) -> PlayedGames:
        """From a period's games frame (engine.PERIOD_GAMES): the rows played over the board
        against an opponent. ``event_rank``: each event key's place in rating order."""
        oidx = games["oidx"].to_numpy(np.int64)
        kept = games["rated"].to_numpy(bool) & (oidx >= 0)
        rows = games[kept]
        colour, colours = pd.factorize(rows["colour"])
        is_white = np.array([str(c).lower() == "w" for c in colours] + [False])
        white = is_white[colour]
        event, keys = pd.factorize(rows["event"])
        start = rows["player"].to_numpy(np.int64)
        opponent = rows["opponent"].to_numpy(np.int64, na_value=0)
        return cls(
            pidx=rows["pidx"].to_numpy(np.int64),
            oidx=rows["oidx"].to_numpy(np.int64),
            score=rows["score"].to_numpy(np.float64),
            event=event_rank.reindex([str(k) for k in keys]).to_numpy(np.int64)[event],
            round=rows["round"].to_numpy(np.int64),
            white=white,
            board=np.where(white, start, opponent),
            players=players,
        )

    @classmethod
    def from_pairs(
        cls,
        pairs: list[tuple[int, int, float]],
        players: int,
        *,
        events: list[int] | None = None,
        rounds: list[int] | None = None,
    ) -> PlayedGames:
        """Games given as (white, black, white's score), in order: both sides' rows (for the
        published examples and tests). Each game is its own round unless ``rounds`` says."""
        count = len(pairs)
        event = np.asarray(events if events is not None else [0] * count, dtype=np.int64)
        round_ = np.asarray(rounds if rounds is not None else list(range(1, count + 1)))
        white = np.array([w for w, _, _ in pairs], dtype=np.int64)
        black = np.array([b for _, b, _ in pairs], dtype=np.int64)
        score = np.array([s for _, _, s in pairs], dtype=np.float64)
        board = np.arange(1, count + 1, dtype=np.int64)
        return cls(
            pidx=np.concatenate([white, black]),
            oidx=np.concatenate([black, white]),
            score=np.concatenate([score, 1.0 - score]),
            event=np.concatenate([event, event]),
            round=np.concatenate([round_, round_]).astype(np.int64),
            white=np.concatenate([np.ones(count, bool), np.zeros(count, bool)]),
            board=np.concatenate([board, board]),
            players=players,
        )


def waves(unit: np.ndarray, pidx: np.ndarray) -> np.ndarray:
    """Each row's wave: units (events, or rounds of events) numbered in rating order are
    rated in waves such that a wave's units share no player and every player's units come in
    their order; a unit's wave is one more than the latest wave of its players' earlier
    units. Rows of one wave can be rated at once, each from the state the earlier waves left.
    """
    if len(unit) == 0:
        return np.zeros(0, dtype=np.int64)
    order = np.lexsort((pidx, unit))
    units, starts = np.unique(unit[order], return_index=True)
    members = np.split(pidx[order], starts[1:])
    last = np.zeros(int(pidx.max()) + 1, dtype=np.int64)
    wave_of = np.empty(len(units), dtype=np.int64)
    for position, players in enumerate(members):
        wave = int(last[players].max()) + 1
        last[players] = wave
        wave_of[position] = wave
    return wave_of[np.searchsorted(units, unit)]


def game_steps(games: PlayedGames) -> list[tuple[np.ndarray, np.ndarray]]:
    """Games rated one at a time in rating order (docs/systems.md §1.3: event, round, board),
    as steps of games that share no player: per step, each game's row from its player of the
    lower index and the same game's row from the other side. A round's games share no
    player, and rounds of different events that share none are one step (``waves``)."""
    first = np.flatnonzero(games.pidx < games.oidx)
    unit = games.event[first] * (int(games.round.max(initial=0)) + 1) + games.round[first]
    wave = waves(np.concatenate([unit, unit]),
                 np.concatenate([games.pidx[first], games.oidx[first]]))[: len(first)]  # fmt: skip
    partner = _partner_rows(games, first)
    return [(first[wave == step], partner[wave == step]) for step in np.unique(wave)]


def _partner_rows(games: PlayedGames, first: np.ndarray) -> np.ndarray:
    """For each row of ``first``, the row of the same game from the other side."""
    second = np.flatnonzero(games.pidx > games.oidx)
    key = (games.event, games.round, games.pidx, games.oidx)
    mine = np.lexsort([k[first] for k in (key[3], key[2], key[1], key[0])])
    theirs = np.lexsort([k[second] for k in (key[2], key[3], key[1], key[0])])
    if len(mine) != len(theirs):  # the loaders check both sides of every game
        raise RatingBatchError("a game of the period is given from one side only")
    result = np.empty(len(first), dtype=np.int64)
    result[mine] = second[theirs]
    return result
