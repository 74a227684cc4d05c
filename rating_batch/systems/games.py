"""What every rating system reads of a period: its counted games as arrays, one row per
player per game (each game twice, once from each side), and the order games are rated in.

Byes, forfeits and unplayed games never count, in any system (docs/rules.md §1): only games
played over the board against an opponent of the period are rows here.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd


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
