"""Rating regulations as data: one frozen ``Rules`` instance per edition.

Code never branches on an edition's name: every difference between editions is a field.
The FIDE conversion tables (rating-rules.md, ``fide_pd_table.csv`` and ``fide_dp_table.csv``)
are package data, loaded once and never re-derived.
"""

from __future__ import annotations

import csv
import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Literal

from rating_batch.errors import RulesError

Kind = Literal["standard", "rapid", "blitz"]
KINDS: tuple[Kind, ...] = ("standard", "rapid", "blitz")

#: ``--rules`` value that picks, for each event, the FIDE edition in force at its start date.
FIDE_BY_DATE = "fide"


@dataclass(frozen=True, slots=True)
class Tables:
    """FIDE's two conversion tables, in integer units (hundredths of a point, rating points).

    ``pd_high[d]``/``pd_low[d]`` give the expected score in hundredths for an absolute rating
    difference ``d`` (0 … ``len - 1``; larger differences use the last entry) of the higher-
    and lower-rated player. ``dp[p]`` gives the rating difference for a fractional score of
    ``p`` hundredths (0 … 100).
    """

    pd_high: tuple[int, ...]
    pd_low: tuple[int, ...]
    dp: tuple[int, ...]


def _hundredths(text: str) -> int:
    whole, _, frac = text.strip().partition(".")
    return int(whole) * 100 + int((frac + "00")[:2])


def _read_package_csv(name: str) -> list[dict[str, str]]:
    with resources.files("rating_batch.data").joinpath(name).open(encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


@cache
def fide_tables() -> Tables:
    """Load and check the FIDE tables shipped in ``rating_batch/data``."""
    bands = _read_package_csv("fide_pd_table.csv")
    high: list[int] = []
    low: list[int] = []
    for band in bands:
        start = int(band["diff_min"])
        if start != len(high):
            raise RulesError(f"fide_pd_table.csv: band starting at {start} leaves a gap")
        end = int(band["diff_max"]) if band["diff_max"].strip() else start
        for _ in range(start, end + 1):
            high.append(_hundredths(band["p_high"]))
            low.append(_hundredths(band["p_low"]))
    dp_rows = _read_package_csv("fide_dp_table.csv")
    dp = [0] * 101
    seen = set()
    for row in dp_rows:
        index = _hundredths(row["p"])
        dp[index] = int(row["dp"])
        seen.add(index)
    if seen != set(range(101)):
        raise RulesError("fide_dp_table.csv: expected one row for each p from 0.00 to 1.00")
    return Tables(pd_high=tuple(high), pd_low=tuple(low), dp=tuple(dp))


@dataclass(frozen=True, slots=True)
class RatingClass:
    """A named rating band of a list: ``minimum <= rating`` (the next class starts above)."""

    name: str
    minimum: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Rules:
    """One edition of the rating regulations. Every value cites its article of rating-rules.md."""

    edition: str
    """Registry key used by ``--rules``, e.g. ``"fide-2025"``."""
    title: str
    """Human description shown in reports."""
    source: str = "built-in edition"
    """Where the values come from: the built-in edition, or a federation's rules file."""
    in_force_from: dt.date | None = None
    """First start date this edition applies to under ``--rules fide`` (§7)."""

    # -- expected score (§2) ------------------------------------------------------------------
    expected: Literal["table", "logistic"] = "table"
    """``table``: FIDE's PD table; ``logistic``: 1/(1+10^(-D/400)), for clubs only."""
    difference_cap: int | None = 400
    """The 400-point rule: |D| above this is taken as this value (§2.2); ``None`` = no cap."""
    cap_exempt_from: int | None = 2650
    """Players rated at or above this use the real D (§2.2, from 1 Oct 2025, standard only)."""
    cap_scope: Literal["every_game", "largest_gap_per_event"] = "every_game"
    """Which games the cap applies to: all, or only the largest gap per player per event (§7)."""

    # -- K-factor (§3) ------------------------------------------------------------------------
    k_high: int = 10
    """K once a published rating has ever reached ``high_threshold`` (§3.1)."""
    high_threshold: int = 2400
    k_junior: int | None = 40
    """K for juniors below the junior ceiling (§3.2); ``None`` = no junior rule."""
    junior_age: int = 18
    """Junior while period year − birth year ≤ this (§3.2)."""
    junior_ceiling: int = 2300
    junior_ceiling_basis: Literal["ever", "current"] = "ever"
    """Judge the junior ceiling on the highest rating ever published, or on the current one."""
    k_new: int = 40
    """K until ``new_player_games`` rated games are completed (§3.3)."""
    new_player_games: int = 30
    pool_games_count_toward_new: bool = True
    """Whether the games that produced the first rating count toward the 30 (§3.3, uncertain)."""
    k_default: int = 20
    k_games_cap: int | None = 700
    """K × n may not exceed this over the period (§3, the 700 cap); ``None`` = off."""

    # -- floor (§2.7) -------------------------------------------------------------------------
    floor: int = 1400
    """A new rating below this is not published: the player becomes unrated."""

    # -- first rating (§4) --------------------------------------------------------------------
    first_min_games: int = 5
    """Games against rated opponents needed in the pool."""
    first_formula: Literal["hypothetical", "half_point_step"] = "hypothetical"
    """``hypothetical``: Ru = Ra + dp(p) with hypothetical drawn opponents added (2024 rules);
    ``half_point_step``: Ru = Ra + step × (2W − n) when W > n/2, else Ra + dp(p) (older rules)."""
    hypothetical_opponents: int = 2
    hypothetical_rating: int = 1800
    hypothetical_half_points: int = 1
    """Score against each hypothetical opponent, in half points (1 = a draw)."""
    first_step: float = 20.0
    """Points per half point above 50 % (``half_point_step`` formula)."""
    first_round_average: bool = False
    """Round the opponents' average half up before adding dp (fide-2011's Rc)."""
    first_rating_max: int | None = 2200
    """Cap on a first rating; ``None`` = no cap."""
    pool_months: int = 26
    """First-rating games are pooled over at most this many months."""
    zero_first_event_disregarded: bool = True
    """A player scoring zero (against rated opponents) in their first event has it disregarded."""

    # -- periods (§1) -------------------------------------------------------------------------
    period_months: int = 1
    closing_offset_days: int = 3

    # -- lists -----------------------------------------------------------------------------------
    classes: tuple[RatingClass, ...] = ()
    """Rating classes, lowest first; empty when the rules define none."""
    tables: Tables = field(default_factory=fide_tables, repr=False)

    def __post_init__(self) -> None:
        problems = []
        for name in ("k_high", "k_new", "k_default"):
            if getattr(self, name) <= 0:
                problems.append(f"{name} must be positive, not {getattr(self, name)}")
        if self.k_junior is not None and self.k_junior <= 0:
            problems.append(f"k_junior must be positive, not {self.k_junior}")
        if self.difference_cap is not None and self.difference_cap <= 0:
            problems.append(f"difference_cap must be positive, not {self.difference_cap}")
        if self.first_min_games < 1:
            problems.append(f"first_min_games must be at least 1, not {self.first_min_games}")
        if self.first_rating_max is not None and self.first_rating_max < self.floor:
            problems.append(
                f"floor {self.floor} is above the first-rating cap {self.first_rating_max}"
            )
        if self.k_games_cap is not None and self.k_games_cap <= 0:
            problems.append(f"k_games_cap must be positive, not {self.k_games_cap}")
        if problems:
            raise RulesError(f"{self.source}: " + "; ".join(problems))


FIDE_2025 = Rules(
    edition="fide-2025",
    title="FIDE Rating Regulations effective 1 October 2025 (2650 exemption)",
    in_force_from=dt.date(2025, 10, 1),
)

EDITIONS: Mapping[str, Rules] = {rules.edition: rules for rules in (FIDE_2025,)}
LATEST = "fide-2025"


def edition_in_force(on: dt.date | None) -> Rules:
    """The FIDE edition in force on a date (the latest one when the date is unknown)."""
    dated = sorted(
        (rules for rules in EDITIONS.values() if rules.in_force_from is not None),
        key=lambda rules: rules.in_force_from or dt.date.min,
    )
    if on is None:
        return EDITIONS[LATEST]
    chosen = dated[0]
    for rules in dated:
        if rules.in_force_from is not None and rules.in_force_from <= on:
            chosen = rules
    return chosen


def named_rules(name: str) -> Rules:
    """The edition registered under ``name``; RulesError naming the known ones otherwise."""
    try:
        return EDITIONS[name]
    except KeyError:
        known = ", ".join([FIDE_BY_DATE, *sorted(EDITIONS)])
        raise RulesError(f"unknown rules {name!r}: choose one of {known}") from None
