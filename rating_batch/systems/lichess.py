"""Lichess (docs/systems.md §14): Glicko-2 one game at a time, as Lichess rates from its
published source (scalachess's rating module, lila's ``Glicko`` and per-game policy). Each
game is a rating period of its own with no elapsed period inside it (φ* = φ); a player's RD
grows with the days since his last game; caps before and after every game, ±700 at most per
game, a first-move advantage for White, the rating shown truncated. Games are rated in
rating order (event, round, board), a step of games that share no player at once
(``games.game_steps``)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np
import pandas as pd

from rating_batch.errors import RatingBatchError
from rating_batch.periods import INITIAL, Period
from rating_batch.systems.base import (
    SystemBase,
    SystemInput,
    SystemOutcome,
    game_rows,
    half_away,
    not_whole,
    outcome_players,
    seeded,
)
from rating_batch.systems.games import PlayedGames, game_steps
from rating_batch.systems.glicko2 import SCALE, Glicko2System, g_of, volatility_after
from rating_batch.systems.params import (
    FROM_ELO_RD,
    GLICKO_DEVIATIONS,
    GLICKO_RATINGS,
    Clash,
    field,
    number,
    one_of,
    optional,
)

#: How the list shows a rating: Lichess truncates (``rating.toInt``), or half away from zero.
SHOWN: dict[str, Callable[[np.ndarray], np.ndarray]] = {
    "truncate": np.trunc,
    "half_away": half_away,
}


class Ids(tuple[str, ...]):
    """Players' ids as a rules file gives them (``bot_ids``), shown as the file writes them."""

    def __str__(self) -> str:
        return ", ".join(self) if self else "none"


def ids(value: Any) -> str:
    """What is wrong with a rules file's list of ids (whole numbers or texts), "" if nothing."""
    if not isinstance(value, list | tuple) or not all(
        (isinstance(i, int) and not isinstance(i, bool) and i > 0)
        or (isinstance(i, str) and i.strip())
        for i in value
    ):
        return "must be a list of players' ids, such as [900000001, 900000002]"
    return ""


NO_BOTS = Ids()


@dataclass(frozen=True)
class Lichess:
    """Lichess's constants (the ``[lichess]`` section of a rules file), each from its source
    line (docs/systems.md §14.1)."""

    initial_rating: float = field(1500.0, number(*GLICKO_RATINGS), "rating of a new player")
    initial_rd: float = field(500.0, number(*GLICKO_DEVIATIONS), "RD of a new player")
    initial_volatility: float = field(0.09, number(0.0001, 1), "volatility of a new player")
    tau: float = field(0.75, number(0.01, 10), "system constant τ")
    epsilon: float = field(
        1e-6, number(0, 0.01, above=True), "convergence of the volatility iteration"
    )
    step6_periods: float = field(
        0.0, number(0, 100), "rating periods inside a game's step 6 (0: φ* = φ)"
    )
    rd_growth_per_day: float = field(
        0.21436, number(0, 100), "rating periods per day since the last game (RD growth)"
    )
    rd_min: float = field(45.0, number(*GLICKO_DEVIATIONS), "smallest RD")
    rd_max: float = field(500.0, number(*GLICKO_DEVIATIONS), "largest RD")
    volatility_max: float = field(0.1, number(0.0001, 1), "largest volatility")
    rating_min: float = field(400.0, number(*GLICKO_RATINGS), "lowest rating")
    max_change_per_game: float = field(
        700.0, number(0, 10000, above=True), "largest change of a rating in one game"
    )
    color_advantage: float = field(
        11.782457, number(-1000, 1000), "first-move advantage A (White +A/2, Black −A/2)"
    )
    provisional_rd: float = field(110.0, number(*GLICKO_DEVIATIONS), "RD from which '?'")
    publish_rounding: str = field(
        "truncate", one_of(*SHOWN), "how the list shows a rating (truncate or half_away)"
    )
    regulator_standard: float | None = field(
        None, optional(number(0, 10)), "factor on standard gains (none)"
    )
    regulator_rapid: float | None = field(
        None, optional(number(0, 10)), "factor on rapid gains (none)"
    )
    regulator_blitz: float | None = field(
        None, optional(number(0, 10)), "factor on blitz gains (none)"
    )
    from_elo_rd: float = field(
        FROM_ELO_RD, number(*GLICKO_DEVIATIONS), "RD of a state made from an Elo rating"
    )
    bot_ids: tuple[str, ...] = field(
        NO_BOTS, ids, "the bots' ids: a human's game against one moves him half (none)"
    )
    bot_initial_rating: float = field(
        2000.0, number(*GLICKO_RATINGS), "rating of a bot new to the list"
    )

    def __post_init__(self) -> None:
        # A rules file gives a TOML array; kept as ids written as the lists write them.
        object.__setattr__(self, "bot_ids", Ids(str(i).strip() for i in self.bot_ids))

    def inconsistent(self) -> list[Clash]:
        if self.rd_min > self.rd_max:
            return [(("rd_min", "rd_max"), f"{self.rd_min:g} is more than rd_max "
                     f"{self.rd_max:g}: lower one or raise the other")]  # fmt: skip
        return []


@dataclass(frozen=True)
class LichessGames:
    """Per player the state after the period (``rating``, ``rd``, ``volatility``, ``games``,
    ``last_day``: an ordinal, NaN none); per game row what its update was made of."""

    rating: np.ndarray
    rd: np.ndarray
    volatility: np.ndarray
    games: np.ndarray
    last_day: np.ndarray
    rows: dict[str, np.ndarray]


def _live(rating: np.ndarray, rd: np.ndarray, sigma: np.ndarray, days: np.ndarray,
          p: Lichess) -> tuple[np.ndarray, np.ndarray, np.ndarray]:  # fmt: skip
    """Steps 1–2: the RD grown for the days since the last game, then the inputs capped."""
    periods = np.nan_to_num(days) * p.rd_growth_per_day
    phi = np.clip(rd, p.rd_min, p.rd_max) / SCALE
    grown = np.clip(SCALE * np.sqrt(phi**2 + periods * sigma**2), p.rd_min, p.rd_max)
    return np.maximum(rating, p.rating_min), grown, np.minimum(sigma, p.volatility_max)


def one_game(
    rating: np.ndarray, rd: np.ndarray, sigma: np.ndarray,
    opp_rating: np.ndarray, opp_rd: np.ndarray, advantage: np.ndarray, score: np.ndarray,
    p: Lichess,
) -> dict[str, np.ndarray]:  # fmt: skip
    """Step 3: Glicko-2 over one game from capped states (``advantage``: the player's +A/2
    as White, −A/2 as Black), for many games at once."""
    mu, phi = (rating - 1500.0) / SCALE, rd / SCALE
    g = g_of(opp_rd / SCALE)
    gap = mu + advantage / SCALE - ((opp_rating - 1500.0) / SCALE - advantage / SCALE)
    expected = 1.0 / (1.0 + np.exp(-g * gap))
    v = 1.0 / (g**2 * expected * (1.0 - expected))
    delta = v * g * (score - expected)
    new_sigma = volatility_after(delta, phi, v, sigma, p.tau, p.epsilon)
    phi_star = np.sqrt(phi**2 + p.step6_periods * new_sigma**2)
    new_phi = 1.0 / np.sqrt(1.0 / phi_star**2 + 1.0 / v)
    new_rating = SCALE * (mu + new_phi**2 * g * (score - expected)) + 1500.0
    return {"g": g, "expected": expected, "v": v, "delta": delta,
            "rating": new_rating, "rd": SCALE * new_phi, "volatility": new_sigma}  # fmt: skip


def _after(stored: tuple[np.ndarray, np.ndarray, np.ndarray], done: dict[str, np.ndarray],
           factor: float | None, halved: np.ndarray, p: Lichess,
           ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:  # fmt: skip
    """Steps 4–6: the regulator on gains; a human's game against a bot (``halved``) moving
    r, RD and σ half way from the stored values to the new (lila's ``halvedAgainstBot``:
    the mean of old and new); ±max_change_per_game from the stored rating, a reset of what is
    beyond sense, the caps."""
    rating, rd, sigma = done["rating"], done["rd"], done["volatility"]
    old_rating, old_rd, old_sigma = stored
    if factor is not None:
        rating = np.where(rating > old_rating, old_rating + factor * (rating - old_rating),
                          rating)  # fmt: skip
    rating = np.where(halved, (old_rating + rating) / 2.0, rating)
    rd = np.where(halved, (old_rd + rd) / 2.0, rd)
    sigma = np.where(halved, (old_sigma + sigma) / 2.0, sigma)
    step = p.max_change_per_game
    rating = np.clip(rating, old_rating - step, old_rating + step)
    crazy = ~((rating > 0) & (rating < 4000) & (rd > 0) & (rd < 1000)
              & (sigma > 0) & (sigma < 0.2))  # fmt: skip
    rating = np.where(crazy, p.initial_rating, rating)
    rd = np.where(crazy, p.initial_rd, rd)
    sigma = np.where(crazy, p.initial_volatility, sigma)
    return (np.maximum(rating, p.rating_min), np.clip(rd, p.rd_min, p.rd_max),
            np.minimum(sigma, p.volatility_max))  # fmt: skip


def rate_lichess(
    rating: np.ndarray, rd: np.ndarray, sigma: np.ndarray, total: np.ndarray,
    last_day: np.ndarray, day: np.ndarray, games: PlayedGames, p: Lichess,
    factor: float | None = None, bot: np.ndarray | None = None,
) -> LichessGames:  # fmt: skip
    """Every game in rating order, a step of games that share no player at once (steps 1–6
    of docs/systems.md §14.3). ``day``: each game row's day (``SystemInput.game_days``);
    ``bot``: per player, whether he is a bot (step 5)."""
    state = [np.asarray(a, np.float64).copy() for a in (rating, rd, sigma, total, last_day)]
    r, d, s, n, last = state
    names = ("rating_before", "rd_before", "days", "rd_live", "opponent_rating", "opponent_rd",
             "advantage", "g", "expected", "v", "delta", "new_rating", "new_rd",
             "new_volatility")  # fmt: skip
    rows = {name: np.full(len(games), np.nan) for name in names}
    rows["halved"] = np.zeros(len(games), bool)
    is_bot = np.zeros(len(r), bool) if bot is None else np.asarray(bot, bool)
    white_half = np.where(games.white, 0.5, -0.5) * p.color_advantage
    for one, two in game_steps(games):
        both = np.concatenate([one, two])
        me = games.pidx[both]
        # A game dated before the last one (a list's last_game after it) adds no growth.
        days = np.maximum(day[both] - last[me], 0.0)
        live_r, live_d, live_s = _live(r[me], d[me], s[me], days, p)
        half = len(one)
        swap = np.concatenate([np.arange(half, 2 * half), np.arange(half)])
        done = one_game(live_r, live_d, live_s, live_r[swap], live_d[swap], white_half[both],
                        games.score[both], p)  # fmt: skip
        # Step 5: only the human of a game between a human and a bot is halved.
        halved = ~is_bot[me] & is_bot[me][swap]
        new_r, new_d, new_s = _after((r[me], d[me], s[me]), done, factor, halved, p)
        shown = {"rating_before": r[me], "rd_before": d[me], "days": days, "rd_live": live_d,
                 "opponent_rating": live_r[swap], "opponent_rd": live_d[swap],
                 "advantage": white_half[both], "new_rating": new_r, "new_rd": new_d,
                 "new_volatility": new_s}  # fmt: skip
        for name in names:
            rows[name][both] = shown[name] if name in shown else done[name]
        rows["halved"][both] = halved
        r[me], d[me], s[me] = new_r, new_d, new_s
        n[me] += 1
        last[me] = np.fmax(last[me], day[both])
    return LichessGames(r, d, s, n, last, rows)


def is_iso_day(text: str) -> str:
    """What is wrong with a list's ``last_game`` (an ISO date, YYYY-MM-DD), "" if nothing."""
    try:
        dt.date.fromisoformat(text)
    except ValueError:
        return f"last_game {text!r} is not a date written YYYY-MM-DD"
    return "" if len(text) == 10 else f"last_game {text!r} is not a date written YYYY-MM-DD"


def day_numbers(column: pd.Series) -> np.ndarray:
    """A ``last_game`` column (ISO dates, NA none) as ordinals (NaN none)."""
    return np.array([np.nan if pd.isna(text) else float(dt.date.fromisoformat(str(text))
                     .toordinal()) for text in column], dtype=np.float64)  # fmt: skip


def refuse_later_last_games(period: SystemInput, last: np.ndarray) -> None:
    """A list's ``last_game`` after every game of the period rated (a typo: 2027 for 2025)
    would be carried to the next list and take every later game's RD growth away: refused,
    naming the players (docs/systems.md §14)."""
    days = period.game_days()
    if not len(days) or np.isnan(days).all():
        return
    latest = np.nanmax(days)
    later = np.flatnonzero(~np.isnan(last) & (last > latest))
    if len(later):
        ids = period.players["id"].to_numpy()[later]
        shown = ", ".join(
            f"{i} ({dt.date.fromordinal(int(day))})"
            for i, day in zip(ids[:5], last[later][:5], strict=True)
        )
        raise RatingBatchError(
            f"last_game after every game rated ({dt.date.fromordinal(int(latest))}): {shown}"
            f"{' …' if len(later) > 5 else ''}: a typo in the list's dates?"
        )


def after_month(state: pd.DataFrame, month: Period) -> list[tuple[int, str]]:
    """The rows of a list of ``month`` whose ``last_game`` is after that month's last day (a
    list cannot know a later game; one before the period's games would pass
    ``refuse_later_last_games`` and take the RD growth away): (row position, why)."""
    if month == INITIAL:
        return []
    end = dt.date(month.year + month.month // 12, month.month % 12 + 1, 1).toordinal() - 1
    days = day_numbers(state["last_game"])
    return [
        (int(row), f"last_game {dt.date.fromordinal(int(days[row]))} is after the list's month "
         f"{month}: a list cannot know a later game (a typo in the date, or the wrong --period?)")
        for row in np.flatnonzero(~np.isnan(days) & (days > end))
    ]  # fmt: skip


def day_texts(days: np.ndarray) -> np.ndarray:
    """Ordinals (NaN none) as ISO dates (None none)."""
    return np.array([None if np.isnan(day) else dt.date.fromordinal(int(day)).isoformat()
                     for day in days], dtype=object)  # fmt: skip


class LichessSystem(SystemBase[Lichess]):
    """Lichess behind the seam (``systems.StateSystem``)."""

    constants = Lichess
    name: ClassVar[str] = "lichess"
    title: ClassVar[str] = "Lichess (Glicko-2 one game at a time)"
    state: ClassVar[dict[str, str]] = {
        "rating": "Float64", "rd": "Float64", "volatility": "Float64",
        "games_total": "Float64", "last_game": "string",
    }  # fmt: skip
    text_checks: ClassVar[dict[str, Callable[[str], str]]] = {"last_game": is_iso_day}
    explained: ClassVar[str] = (
        "Per game, in the order rated: the player's r and RD before it, the days since his "
        "last game and the RD grown for them (capped), the opponent's r and grown RD, the "
        "first-move advantage (±A/2), g, E, v and Δ of Glicko-2 over that one game, then r, "
        "RD and σ after it, held within ±700 of r and the caps (docs/systems.md §14)."
    )
    published: ClassVar[str] = "shown"
    list_digits: ClassVar[dict[str, int]] = {
        "rating": 0, "rd": 2, "volatility": 6, "games_total": 0,
    }  # fmt: skip
    notation: ClassVar[dict[str, tuple[str, int]]] = {
        "rating_before": ("r", 2), "rd_before": ("RD", 2), "days": ("days", 0),
        "rd_live": ("RD live", 2), "opponent_rating": ("r_j", 2), "opponent_rd": ("RD_j", 2),
        "advantage": ("±A/2", 2), "g": ("g", 4), "expected": ("E", 4), "v": ("v", 4),
        "delta": ("Δ", 4), "new_rating": ("r′", 2), "new_rd": ("RD′", 2),
        "new_volatility": ("σ′", 6), "shown": ("shown", 0), "rating": ("r", 2),
        "rd": ("RD", 2), "volatility": ("σ", 6), "games_total": ("games total", 0),
        "new_games_total": ("games total′", 0),
        "last_game": ("last game", 0), "new_last_game": ("last game′", 0),
    }  # fmt: skip
    limits: ClassVar[dict[str, tuple[float, float, str]]] = {
        **Glicko2System.limits,
        "games_total": (0.0, 1e9, "the number of rated games so far"),
    }

    @property
    def bounds(self) -> dict[str, tuple[float, float, str]]:
        """Glicko-2's, held to the constants: Lichess makes no rating below ``rating_min`` and
        no σ above ``volatility_max``, and a list holding one moved its player at his first
        game without a word (σ 5: RD 500 after nine days; a rating of −50 raised to 400)."""
        p = self._params
        rating, volatility = self.limits["rating"], self.limits["volatility"]
        return {
            **self.limits,
            "rating": (p.rating_min, rating[1], f"Lichess's lowest rating is {p.rating_min:g}"),
            "volatility": (volatility[0], p.volatility_max,
                           f"σ at most volatility_max {p.volatility_max:g}"),
        }  # fmt: skip

    def list_problems(self, state: pd.DataFrame) -> list[tuple[int, str]]:
        return not_whole(state, "games_total", "a count of rated games")

    def list_month_problems(self, state: pd.DataFrame, month: Period) -> list[tuple[int, str]]:
        return after_month(state, month)

    def from_elo(self, elo: pd.Series) -> pd.DataFrame:
        p = self._params
        return seeded(elo, self.state, rating=elo, rd=p.from_elo_rd,
                      volatility=p.initial_volatility, games_total=0.0)  # fmt: skip

    @property
    def from_elo_note(self) -> str:
        p = self._params
        return (
            f"rating = Elo, RD {p.from_elo_rd:g}, volatility {p.initial_volatility:g}, "
            "no games and no last game"
        )

    def list_extra(self, players: pd.DataFrame) -> dict[str, np.ndarray]:
        """The list marks a provisional rating: RD at least ``provisional_rd`` (Lichess's
        "?", docs/systems.md §14.3 step 7)."""
        rd = players["new_rd"].to_numpy(np.float64, na_value=np.nan)
        return {"provisional": rd >= self._params.provisional_rd}

    def rate(self, period: SystemInput) -> SystemOutcome:
        p = self._params
        rating = period.initial("rating", p.initial_rating)
        rd = period.initial("rd", p.initial_rd)
        volatility = period.initial("volatility", p.initial_volatility)
        total = period.initial("games_total", 0.0)
        last = day_numbers(period.state["last_game"])
        refuse_later_last_games(period, last)
        factor = getattr(p, f"regulator_{period.kind}", None) if period.kind else None
        # Step 5's bots (a rules file's bot_ids); a bot new to the list starts at
        # bot_initial_rating (lila's defaultBot, 2000/500/0.09).
        bot = period.players["id"].astype("string").str.strip().isin(p.bot_ids).to_numpy(bool)
        new = period.state["rating"].isna().to_numpy(bool)
        rating = np.where(bot & new, p.bot_initial_rating, rating)
        done = rate_lichess(rating, rd, volatility, total, last, period.game_days(),
                            period.games, p, factor, bot)  # fmt: skip
        if not p.bot_ids:  # calculations.csv as before unless bots are named
            del done.rows["halved"]
        after = {"rating": done.rating, "rd": done.rd, "volatility": done.volatility,
                 "games_total": done.games, "last_game": day_texts(done.last_day)}  # fmt: skip
        players = outcome_players(period, after, {"shown": SHOWN[p.publish_rounding](done.rating)})
        calculations = game_rows(period).assign(**done.rows)
        shown = "truncated" if p.publish_rounding == "truncate" else "rounded half away"
        regulated = f"; gains × {factor:g} (regulator)" if factor is not None else ""
        if p.bot_ids:
            regulated += (
                f"; {int(bot.sum())} bot(s) of bot_ids here (new ones start at "
                f"{p.bot_initial_rating:g}): a human's game against a bot moves him half way "
                "(the mean of his old and new r, RD and σ)"
            )
        notes = [
            f"Lichess (docs/systems.md §14): Glicko-2 one game at a time, tau {p.tau:g}, "
            f"φ* = φ inside a game (step6_periods {p.step6_periods:g}); RD grown by "
            f"{p.rd_growth_per_day:g} periods a day since the last game; RD within "
            f"[{p.rd_min:g}, {p.rd_max:g}], σ at most {p.volatility_max:g}, r at least "
            f"{p.rating_min:g}, at most ±{p.max_change_per_game:g} a game; first-move advantage "
            f"{p.color_advantage:.10g}; new players {p.initial_rating:g}/{p.initial_rd:g}/"
            f"{p.initial_volatility:g}; the list's rating {shown}, state unrounded{regulated}",
            "a game's day: its round's date (TRF record 132), else the event's days spread "
            "over its rounds",
        ]
        return SystemOutcome(players, calculations, notes)
