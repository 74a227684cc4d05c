"""Rating regulations as data: one frozen ``Rules`` instance per edition.

Code never branches on an edition's name: every difference between editions is a field.
A federation's rules file is read by ``rules_file``.
The FIDE conversion tables (docs/rules.md, ``fide_pd_table.csv`` and ``fide_dp_table.csv``)
are package data, loaded once and never re-derived.
"""

from __future__ import annotations

import csv
import datetime as dt
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields, replace
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING, Any, Literal, TypeAlias

from rating_batch.errors import RulesError

if TYPE_CHECKING:
    import pandas as pd

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
    """A named rating band of a list: ratings from ``minimum`` up to the next class's minimum."""

    name: str
    minimum: int


Switch = Literal["table", "logistic"]


@dataclass(frozen=True, slots=True, kw_only=True)
class Rules:
    """One edition of the rating regulations. Every value cites its article of docs/rules.md.

    Fields marked *uncertain* are the documented defaults of rules the regulations leave open;
    reports name them in their notes.
    """

    edition: str
    """Registry key used by ``--rules``, e.g. ``"fide-2025"``, or a rules file's name."""
    title: str
    """Human description shown in reports (those of the standard list)."""
    rapid_blitz_title: str | None = None
    """The title in the rapid and blitz lists' reports when ``title`` names a rule of the
    standard list alone (fide-2025's 2650 exemption: none in rapid and blitz, §6); ``None``:
    ``title``."""
    source: str = "built-in edition"
    """Where the values come from: the built-in edition, or a federation's rules file."""
    base: str | None = None
    """The edition a rules file builds on."""
    overridden: frozenset[str] = frozenset()
    """Fields a rules file sets (the others come from ``base``)."""
    in_force_from: dt.date | None = None
    """First start date this edition applies to under ``--rules fide`` (§7)."""
    kind: Kind = "standard"
    """The list these values are for; ``for_kind`` gives the rapid and blitz variants (§6)."""

    # -- expected score (§2, §6) ------------------------------------------------------------
    expected: Switch = "table"
    """``table``: FIDE's PD table; ``logistic``: 1/(1+10^(-D/400)), for clubs only."""
    difference_cap: int | None = 400
    """The 400-point rule: |D| above this is taken as this value (§2.2); ``None`` = no cap."""
    cap_exempt_from: int | None = 2650
    """Standard: players rated at or above this use the real D (§2.2, from 1 Oct 2025)."""
    rapid_blitz_cap_exempt_from: int | None = None
    """Rapid and blitz: the same exemption; FIDE has none (§6)."""
    cap_scope: Literal["every_game", "largest_gap_per_event"] = "every_game"
    """Which games the cap applies to: all, or only the largest gap per player per event (§7;
    on a tie the first in round order, uncertain)."""
    gap_exclusion: int | None = 600
    """Rapid and blitz: a game between players this far apart is not rated when either is
    rated above ``gap_exclusion_above`` (§6); ``None`` = off."""
    gap_exclusion_above: int = 2600
    gap_exclusion_from: dt.date | None = dt.date(2024, 12, 1)
    """Events starting before this date are not subject to the gap exclusion (§6)."""

    # -- K-factor (§3) ------------------------------------------------------------------------
    k_high: int = 10
    """K once a published rating has ever reached ``high_threshold`` (§3.1); checked first."""
    high_threshold: int = 2400
    k_junior: int | None = 40
    """K for juniors below the junior ceiling (§3.2); ``None`` = no junior rule."""
    junior_age: int = 18
    junior_age_basis: Literal["calendar_year", "birthday"] = "calendar_year"
    """``calendar_year``: junior while period year − birth year ≤ ``junior_age`` (§3.2);
    ``birthday``: until the birthday, taken as period year − birth year < ``junior_age`` when only
    the birth year is known (fide-2014, uncertain)."""
    junior_ceiling: int = 2300
    junior_ceiling_basis: Literal["ever", "current"] = "ever"
    """Judge the junior ceiling on the highest rating ever published, or on the current one."""
    junior_year: Literal["closing_date", "latest_end"] = "closing_date"
    """The year a period's juniors are judged against (§3): that of the period's closing date
    (FIDE's monthly lists: the January list rates December's events, a junior's), or that of
    the latest end date among the period's events (``periods.junior_year``)."""
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
    """A new rating below this is not published: the player becomes unrated. First ratings
    are published from this value on (§4)."""

    # -- first rating (§4) --------------------------------------------------------------------
    first_min_games: int = 5
    """Games against rated opponents needed in the pool."""
    first_formula: Literal["hypothetical", "half_point_step"] = "hypothetical"
    """``hypothetical``: Ru = Ra + dp(p) with hypothetical drawn opponents added (2024 rules);
    ``half_point_step``: Ru = Ra + step × (2W − n) when W > n/2, else Ra + dp(W/n) (older)."""
    hypothetical_opponents: int = 2
    hypothetical_rating: int = 1800
    hypothetical_half_points: int = 1
    """Score against each hypothetical opponent, in half points (1 = a draw)."""
    first_step: float = 20.0
    """Points per half point above 50 % (``half_point_step`` formula)."""
    first_round_average: bool = False
    """Round the opponents' average half up before adding to it (fide-2011's Rc)."""
    first_rating_max: int | None = 2200
    """Cap on a first rating; ``None`` = no cap."""
    pool_months: int = 26
    """First-rating games are pooled over at most this many months."""
    pool_window: Literal["rolling", "anchored"] = "rolling"
    """``rolling``: games older than the window drop out one by one; ``anchored``: the window
    starts at the pool's first game and the whole pool is reset when it expires."""
    pool_event_min_games: int = 1
    """An event counts for the pool only with at least this many games against rated
    opponents (fide-2011: blocks of 3)."""
    first_event_min_half_points: int = 1
    """The player's first event (block) is disregarded when it scores fewer half points than
    this against rated opponents (1: a zero is disregarded; 2: fide-2011's 1 point; 0: off)."""
    discard_until_scoring: bool = False
    """Disregard every scoreless event (against rated opponents) until the first scoring one,
    instead of the first event only."""
    keep_pool_below_floor: bool = True
    """Keep the pooled games when the result is below the floor (else start again)."""
    first_event_after_floor: bool = False
    """A player who falls below the floor gets the first-event rule back: his next scoreless
    events are disregarded again, as ``discard_until_scoring`` says (§4.1, §8)."""
    start_from_standard: bool = True
    """Rapid and blitz: an unrated player with a standard rating starts from it, with K as
    for a new player (§6, uncertain)."""

    # -- periods and lists (§1, §8) ---------------------------------------------------------
    period_months: int = 1
    list_months: tuple[int, ...] = tuple(range(1, 13))
    closing_offset_days: int = 3
    kinds: tuple[Kind, ...] = KINDS
    """The lists that exist."""
    classes: tuple[RatingClass, ...] = ()
    """Rating classes, lowest first; empty when the rules define none."""
    rating_min: int = 100
    rating_max: int = 3000
    """A rating list's ratings must lie in this range (a list rating outside it is an error:
    a typo, or a column that holds something else)."""
    # -- a one-time list operation (§7: FIDE's 2024 adjustment) ------------------------------
    adjustment_on: dt.date | None = dt.date(2024, 3, 1)
    """The date of a one-time adjustment of the list: the first list published on or after
    it that follows a list before it has every rating R below ``adjustment_pivot`` raised to
    R + round(``adjustment_factor`` × (pivot − R)), half up, before the floor (FIDE's lists of
    1 March 2024); ``None`` = none."""
    adjustment_pivot: int = 2000
    adjustment_factor: float = 0.4
    adjustment_kinds: tuple[Kind, ...] = KINDS
    """The lists adjusted (FIDE: standard, rapid and blitz alike)."""
    tables: Tables = field(default_factory=fide_tables, repr=False)

    def k_values(self) -> frozenset[int]:
        """The K factors these rules give (a rating list's K must be one of them)."""
        values = {self.k_high, self.k_new, self.k_default}
        if self.k_junior is not None:
            values.add(self.k_junior)
        return frozenset(values)

    def __post_init__(self) -> None:
        problems = [
            (involved[0], message)
            for involved, message in value_problems(
                {f.name: getattr(self, f.name) for f in fields(self)}
            )
        ]
        if problems:
            text = "; ".join(f"{name} {message}" for name, message in problems)
            raise RulesError(f"{self.source}: {text}", problems)

    def for_kind(self, kind: str) -> Rules:
        """These rules as they apply to one list (§6: rapid and blitz differ from standard)."""
        if kind == self.kind:
            return self
        if kind not in KINDS:
            raise RulesError(f"unknown list {kind!r}: choose one of {', '.join(KINDS)}")
        return replace(self, kind=kind)

    def is_rapid_or_blitz(self) -> bool:
        return self.kind != "standard"

    def list_title(self) -> str:
        """The title as this list's reports show it (§6)."""
        shown = self.rapid_blitz_title if self.is_rapid_or_blitz() else None
        return shown or self.title

    def label(self) -> str:
        """``fide-2025: FIDE Rating Regulations …``: the edition and its title, for this list."""
        return f"{self.edition}: {self.list_title()}"

    def exempt_from(self) -> int | None:
        """The rating from which the difference cap does not apply, for this list."""
        return (
            self.rapid_blitz_cap_exempt_from if self.is_rapid_or_blitz() else self.cap_exempt_from
        )

    def gap_exclusion_applies(self, start: dt.date | None) -> bool:
        """Whether the rapid/blitz 600-point exclusion applies to an event starting then."""
        if not self.is_rapid_or_blitz() or self.gap_exclusion is None:
            return False
        return self.gap_exclusion_from is None or (
            start is not None and start >= self.gap_exclusion_from
        )

    def class_of(self, ratings: pd.Series) -> pd.Series:
        """Each rating's class name (NA where there is no rating or no classes)."""
        import numpy as np
        import pandas as pd

        if not self.classes:
            return pd.Series(pd.NA, index=ratings.index, dtype="string")
        bounds = [c.minimum for c in self.classes]
        names = np.array([c.name for c in self.classes], dtype=object)
        values = ratings.to_numpy(dtype=np.float64, na_value=np.nan)
        position = np.searchsorted(np.array(bounds), values, side="right") - 1
        known = ~np.isnan(values) & (position >= 0)
        chosen = pd.Series(names[np.clip(position, 0, len(names) - 1)], index=ratings.index)
        return chosen.where(known).astype("string")


#: The fields that can be off (``None``; ``false`` in a rules file).
OPTIONAL_FIELDS = frozenset(f.name for f in fields(Rules) if str(f.type).endswith("| None"))

#: The fields held in half points, which a rules file and its messages give in points.
HALF_POINT_FIELDS = frozenset({"hypothetical_half_points", "first_event_min_half_points"})

#: The valid range of every numeric field (inclusive); ``rules FILE`` shows them. A value
#: outside is an error naming the key; ``None`` ("false" in a file) is allowed where the
#: field can be off.
RANGES: dict[str, tuple[float, float]] = {
    "period_months": (1, 12),
    "closing_offset_days": (0, 31),
    "difference_cap": (1, 1000),
    "cap_exempt_from": (1000, 3500),
    "rapid_blitz_cap_exempt_from": (1000, 3500),
    "gap_exclusion": (1, 3000),
    "gap_exclusion_above": (1000, 3500),
    "k_high": (1, 100),
    "high_threshold": (1000, 3500),
    "k_junior": (1, 100),
    "junior_age": (10, 25),
    "junior_ceiling": (1000, 3500),
    "k_new": (1, 100),
    "new_player_games": (1, 200),
    "k_default": (1, 100),
    "k_games_cap": (10, 10_000),
    "floor": (0, 3000),
    "first_min_games": (1, 50),
    "hypothetical_opponents": (0, 10),
    "hypothetical_rating": (0, 3500),
    "hypothetical_half_points": (0, 2),
    "first_step": (0.5, 100),
    "first_rating_max": (1000, 3500),
    "pool_months": (1, 120),
    "pool_event_min_games": (1, 20),
    "first_event_min_half_points": (0, 20),
    "rating_min": (0, 4000),
    "rating_max": (1, 4000),
    "adjustment_pivot": (100, 4000),
    "adjustment_factor": (0, 1),
}


#: A problem of a rule set's values: the fields it involves (the one it is about first)
#: and what is wrong.
Problem: TypeAlias = tuple[tuple[str, ...], str]


def value_problems(values: Mapping[str, Any], named: Callable[[str], str] = str) -> list[Problem]:
    """What is impossible in a rule set's values (``Rules``' fields by name), every problem
    at once (§8: a rules file's errors name its keys). A combination of values is judged
    only when each of them is possible on its own. ``named`` names a field in a message as
    the reader writes it (a rules file's key)."""
    problems: list[Problem] = []
    for name, (low, high) in RANGES.items():
        value = values[name]
        if value is not None and not low <= value <= high:
            shown = value / 2 if name in HALF_POINT_FIELDS else value
            problems.append(((name,), f"must be {range_text(name)}, not {_number(shown)}"))
    alone = {involved[0] for involved, _ in problems}
    step, months, listed = values["first_step"], values["period_months"], values["list_months"]
    if "first_step" not in alone and step * 2 != round(step * 2):
        problems.append((("first_step",), f"must be a multiple of 0.5, not {_number(step)}"))
    if "period_months" not in alone and 12 % months:
        problems.append((("period_months",), f"must divide 12 (1, 2, 3, 4, 6 or 12), not {months}"))
    if not listed or any(not 1 <= m <= 12 for m in listed):
        problems.append((("list_months",), f"must be months 1–12, not {list(listed)}"))
    if not values["kinds"]:
        problems.append((("kinds",), f"must list at least one of {', '.join(KINDS)}"))
    minimums = [c.minimum for c in values["classes"]]
    if minimums != sorted(set(minimums)):
        problems.append(
            (("classes",), "must be listed from the lowest, each from a different rating")
        )
    alone = {involved[0] for involved, _ in problems}
    lowest, highest = values["rating_min"], values["rating_max"]
    floor, cap = values["floor"], values["first_rating_max"]
    both: list[Problem] = []
    if lowest >= highest:
        both.append(
            (("rating_min", "rating_max"),
             f"{lowest} is not below {named('rating_max')} {highest}: the lowest rating a list "
             "may hold must be below the highest")
        )  # fmt: skip
    if cap is not None and cap < floor:
        both.append(
            (("floor", "first_rating_max"),
             f"{floor} is above the first-rating cap {cap} ({named('first_rating_max')}): "
             "lower the floor or raise the cap")
        )  # fmt: skip
    return problems + [problem for problem in both if alone.isdisjoint(problem[0])]


def _number(value: float) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)


def range_text(name: str) -> str:
    """A field's valid values in words: ``1–100``, ``1–100, or false`` (as a rules file
    writes "none / off")."""
    low, high = RANGES[name]
    if name in HALF_POINT_FIELDS:
        low, high = low / 2, high / 2  # shown in points, as the file writes them
    text = f"{_number(low)}–{_number(high)}"
    return f"{text}, or false" if name in OPTIONAL_FIELDS else text


# -- the FIDE editions (§7): each is the next newer one with its differences ----------------------

FIDE_2025 = Rules(
    edition="fide-2025",
    title="FIDE Rating Regulations effective 1 October 2025 (2650 exemption)",
    rapid_blitz_title="FIDE Rating Regulations effective 1 October 2025",
    in_force_from=dt.date(2025, 10, 1),
)
FIDE_2024 = replace(
    FIDE_2025,
    edition="fide-2024",
    title="FIDE Rating Regulations effective 1 March 2024 (first ratings with two 1800 draws)",
    rapid_blitz_title=None,
    in_force_from=dt.date(2024, 3, 1),
    cap_exempt_from=None,
)
FIDE_2022 = replace(
    FIDE_2024,
    edition="fide-2022",
    title="FIDE Rating Regulations effective 1 January 2022 (400 cap once per event)",
    in_force_from=dt.date(2022, 1, 1),
    cap_scope="largest_gap_per_event",
    first_formula="half_point_step",
    first_step=20.0,
    first_rating_max=None,
    floor=1000,
    adjustment_on=None,
)
FIDE_2014 = replace(
    FIDE_2022,
    edition="fide-2014",
    title="FIDE Rating Regulations effective 1 July 2014",
    in_force_from=dt.date(2014, 7, 1),
    cap_scope="every_game",
    junior_age_basis="birthday",
)
FIDE_2011 = replace(
    FIDE_2014,
    edition="fide-2011",
    title="FIDE Rating Regulations as applied on the March 2011 list",
    in_force_from=dt.date(2011, 3, 1),
    k_new=25,
    k_default=15,
    k_junior=None,
    junior_age_basis="calendar_year",
    first_min_games=9,
    pool_event_min_games=3,
    first_event_min_half_points=2,
    first_step=12.5,
    first_round_average=True,
    floor=1200,
)

EDITIONS: Mapping[str, Rules] = {
    rules.edition: rules for rules in (FIDE_2011, FIDE_2014, FIDE_2022, FIDE_2024, FIDE_2025)
}
LATEST = "fide-2025"

#: The K factors FIDE's lists have published (15 and 25 until 2011; 30 for new players from
#: July 2011 to June 2014): a list read without rules must give one of them.
FIDE_LIST_K = frozenset({10, 15, 20, 25, 30, 40}).union(
    *(edition.k_values() for edition in EDITIONS.values())
)


def edition_in_force(on: dt.date | None) -> Rules:
    """The FIDE edition in force on a date: the latest when the date is unknown, the earliest
    for a date before every edition."""
    if on is None:
        return EDITIONS[LATEST]
    dated = sorted(EDITIONS.values(), key=lambda rules: rules.in_force_from or dt.date.min)
    chosen = dated[0]
    for rules in dated:
        if rules.in_force_from is not None and rules.in_force_from <= on:
            chosen = rules
    return chosen
