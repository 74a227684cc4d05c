"""A title application's arithmetic, as an IT2 form sets it out (docs/norms.md §7): the
games each norm counts (13 at most, 9 for a 1.4.1c norm, one more per full point of
overscore), and every requirement of 1.5 met or not with its figure. The APPLICATION.toml
an officer writes is read here from its text, every problem at its ``file:line``. Pure."""

from __future__ import annotations

import datetime as dt
import math
import re
import tomllib
from dataclasses import dataclass, field
from typing import Any

from rating_batch.errors import InputError, Issue
from rating_batch.rules_check import did_you_mean
from rating_batch.titles.rules import EDITIONS, NORM_TITLES, NormRules, edition_for

#: The exemptions a norm may have been made under (1.4.3a-d).
NORM_EXEMPTIONS = ("national-championship", "national-team", "zonal", "swiss-1.4.3d")

#: The norms that serve each title (1.5.2: a higher norm serves a lower title when it meets
#: that title's requirements, which the file does not show: taken as met).
SERVES = {
    "GM": ("GM",),
    "IM": ("GM", "IM"),
    "WGM": ("GM", "IM", "WGM"),
    "WIM": ("GM", "IM", "WGM", "WIM"),
}

_TOP_KEYS = {
    "name": str,
    "fide_id": int,
    "sex": str,
    "title": str,
    "peak_rating": int,
    "games_at_peak": int,
}
_NORM_KEYS = {
    "event": str,
    "end": dt.date,
    "games": int,
    "title": str,
    "exemption": str,
    "points": float,
    "points_needed": float,
    "strong_event": bool,
    "one_round_a_day": bool,
    "credit_141c": bool,
}
_REQUIRED_TOP = ("name", "title", "peak_rating")
_REQUIRED_NORM = ("event", "end", "games", "title")


@dataclass(frozen=True)
class NormEntry:
    """One ``[[norms]]`` table: a norm as its IT1 certificate shows it."""

    event: str
    end: dt.date
    games: int
    title: str
    exemption: str = ""
    points: float | None = None
    points_needed: float | None = None
    strong_event: bool = False
    one_round_a_day: bool = False
    credit_141c: bool = False
    line: int | None = None


@dataclass(frozen=True)
class Application:
    """What an IT2 form carries."""

    name: str
    title: str
    peak_rating: int
    norms: tuple[NormEntry, ...]
    fide_id: int | None = None
    sex: str = ""
    games_at_peak: int | None = None


@dataclass(frozen=True)
class Requirement:
    """One requirement of the application: its article, what it asks, what was found."""

    article: str
    what: str
    found: str
    needed: str
    met: bool


@dataclass(frozen=True)
class Verdict:
    """An application's arithmetic."""

    application: Application
    rules: NormRules
    credits: tuple[int, ...]
    """Each norm's games in the application (0 for a norm that does not serve the title)."""
    requirements: tuple[Requirement, ...]
    not_checked: tuple[str, ...] = field(default=())

    @property
    def norm_games(self) -> int:
        return sum(self.credits)

    @property
    def eligible(self) -> bool:
        return all(r.met for r in self.requirements)

    @property
    def rating_ok(self) -> bool:
        return all(
            r.met
            for r in self.requirements
            if r.article == self.rules.articles["application_rating"]
        )

    @property
    def failing(self) -> str:
        """The requirements not met, each with its figure, ``;``-separated (as norms.csv)."""
        return "; ".join(
            f"{r.article} {r.what} {r.found} (needed {r.needed})"
            for r in self.requirements
            if not r.met
        )


def norm_credit(norm: NormEntry, rules: NormRules) -> int:
    """The games a norm counts (docs/norms.md §2.5): 9 for a 1.4.1c norm, else at most 13,
    plus one per full point scored over what the norm needed (1.4.1d)."""
    base = rules.credit_141c_rounds if norm.credit_141c else min(norm.games, rules.max_credit_games)
    over = 0
    if norm.points is not None and norm.points_needed is not None:
        over = max(0, math.floor(norm.points - norm.points_needed))
    return base + over


def check_application(application: Application) -> Verdict:
    """Every requirement of 1.5 (and 1.1.3a, 1.4.1c, 1.4.3e) for the title applied for,
    under the edition in force at the latest norm's end."""
    norms = application.norms
    latest = max((n.end for n in norms), default=None)
    rules = edition_for(latest)
    articles = rules.articles
    title = rules.title(application.title)
    serving = [n for n in norms if n.title in SERVES[application.title]]
    credits = tuple(norm_credit(n, rules) if n in serving else 0 for n in norms)
    games = sum(credits)
    requirements = [
        Requirement(
            articles["application_games"],
            "norm games",
            str(games),
            f"≥ {rules.application_games}",
            games >= rules.application_games,
        ),
        Requirement(
            articles["application_rating"],
            "peak rating",
            str(application.peak_rating),
            f"≥ {title.application_rating}",
            application.peak_rating >= title.application_rating,
        ),
        Requirement(
            articles["no_exemption"],
            "norms without an exemption",
            str(sum(1 for n in serving if not n.exemption)),
            "≥ 1",
            any(not n.exemption for n in serving),
        ),
        Requirement(
            articles["one_141c"],
            "norms with the 8 + 1 credit",
            str(sum(n.credit_141c for n in serving)),
            "≤ 1",
            sum(n.credit_141c for n in serving) <= 1,
        ),
    ]
    since = rules.strong_event_since
    if since is not None and any(n.end >= since for n in serving):
        strong = sum(n.strong_event for n in serving)
        requirements.append(
            Requirement(
                articles["strong_event"],
                f"strong-event norms (a norm from {since.isoformat()} on)",
                str(strong),
                "≥ 1",
                strong >= 1,
            )
        )
    if title.title in ("GM", "WGM"):
        daily = sum(n.one_round_a_day for n in serving)
        requirements.append(
            Requirement(
                articles["one_round_a_day"],
                "norms from one round a day",
                str(daily),
                "≥ 1",
                daily >= 1,
            )
        )
    return Verdict(
        application,
        rules,
        credits,
        tuple(requirements),
        (
            f"every norm event rated by FIDE ({articles['rated_event']})",
            "each norm meets this title's requirements when it is a higher title's (1.5.2)",
        ),
    )


def parse_application(text: str, source: str) -> Application:
    """An APPLICATION.toml read from its text; every problem raised at once, each at its
    line (a key missing: the line of its table)."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        found = re.search(r"line (\d+)", str(error))
        raise InputError(
            [Issue(source, int(found.group(1)) if found else None, f"not valid TOML: {error}")]
        ) from None
    lines = _lines(text)
    issues: list[Issue] = []
    top = _checked(data, _TOP_KEYS, _REQUIRED_TOP, lines, -1, source, issues, extra=("norms",))
    raw_norms = data.get("norms", [])
    if not isinstance(raw_norms, list) or not raw_norms:
        issues.append(Issue(source, None, "no [[norms]] table: give one per norm"))
        raw_norms = []
    norms = []
    for index, table in enumerate(raw_norms):
        values = _checked(table, _NORM_KEYS, _REQUIRED_NORM, lines, index, source, issues)
        line = lines.get((index, ""))
        if "exemption" in values and values["exemption"] not in NORM_EXEMPTIONS:
            issues.append(
                Issue(
                    source,
                    lines.get((index, "exemption"), line),
                    f"exemption {values['exemption']!r}: use one of {', '.join(NORM_EXEMPTIONS)}",
                )
            )
        if "title" in values and values["title"] not in NORM_TITLES:
            issues.append(
                Issue(
                    source,
                    lines.get((index, "title"), line),
                    f"title {values['title']!r}: use one of {', '.join(NORM_TITLES)}",
                )
            )
        norms.append((values, line))
    if "title" in top and top["title"] not in NORM_TITLES:
        issues.append(
            Issue(
                source,
                lines.get((-1, "title")),
                f"title {top['title']!r}: use one of {', '.join(NORM_TITLES)}",
            )
        )
    issues += _implausible(top, norms, lines, source)
    if issues:
        raise InputError(issues)
    return Application(
        name=top["name"],
        title=top["title"],
        peak_rating=top["peak_rating"],
        fide_id=top.get("fide_id"),
        sex=top.get("sex", ""),
        games_at_peak=top.get("games_at_peak"),
        norms=tuple(NormEntry(**values, line=line) for values, line in norms),
    )


#: A norm's games: 7 at the fewest (B.01 1.4.1's team events), 30 at the most (a double
#: round-robin of 16).
NORM_GAMES = (7, 30)
#: A peak rating an application may give.
PEAK_RATINGS = (1000, 3000)


def _implausible(
    top: dict[str, Any],
    norms: list[tuple[dict[str, Any], int | None]],
    lines: dict[tuple[int, str], int],
    source: str,
) -> list[Issue]:
    """Values of the right type that no IT2 can hold: each an error at its line (a wrong
    verdict nobody notices is worse than a refusal)."""
    issues: list[Issue] = []

    def bad(index: int, key: str, message: str) -> None:
        issues.append(Issue(source, lines.get((index, key), lines.get((index, ""))), message))

    sex = top.get("sex")
    if sex is None:
        bad(-1, "", 'sex is missing: "m", or "w" or "f" (the women\'s titles are for women)')
    elif sex.lower() not in ("m", "w", "f"):
        bad(-1, "sex", f'sex = {sex!r}: use "m", or "w" or "f"')
    elif sex.lower() == "m" and str(top.get("title", "")).startswith("W"):
        bad(-1, "sex", f"a {top['title']} application for a man: the women's titles are for women")
    low, high = PEAK_RATINGS
    peak = top.get("peak_rating")
    if peak is not None and not low <= peak <= high:
        bad(-1, "peak_rating", f"peak_rating = {peak}: a rating from {low} to {high}")
    if top.get("fide_id") is not None and top["fide_id"] < 1:
        bad(-1, "fide_id", f"fide_id = {top['fide_id']}: a FIDE ID is a positive number")
    if top.get("games_at_peak") is not None and top["games_at_peak"] < 0:
        bad(-1, "games_at_peak", f"games_at_peak = {top['games_at_peak']}: not below 0")
    today = dt.date.today()
    seen: dict[tuple[str, dt.date], int | None] = {}
    for index, (values, line) in enumerate(norms):
        games = values.get("games")
        fewest, most = NORM_GAMES
        if games is not None and not fewest <= games <= most:
            bad(index, "games", f"games = {games}: a norm is made over {fewest} to {most} games")
        for key in ("points", "points_needed"):
            value = values.get(key)
            if value is None:
                continue
            if value * 2 != int(value * 2) or value < 0 or (games is not None and value > games):
                bad(index, key, f"{key} = {value:g}: a score in half points, from 0 to the games")
        end = values.get("end")
        if end is not None and end > today:
            bad(index, "end", f"end = {end}: after today ({today})")
        if end is not None and end < dt.date(1970, 1, 1):
            bad(index, "end", f"end = {end}: before FIDE's title regulations")
        event = values.get("event")
        if event is not None and end is not None:
            if (event, end) in seen:
                bad(
                    index, "", f"the norm of {event!r} ended {end} again (line {seen[event, end]}):"
                    " an event gives one norm, counted once, whatever titles it was a norm for",
                )  # fmt: skip
            seen.setdefault((event, end), line)
    ends = [values["end"] for values, _ in norms if "end" in values]
    earliest = min(rules.since for rules in EDITIONS.values())
    if ends and max(ends) < earliest:
        bad(
            -1, "", f"every norm ended before {earliest}: the title regulations of that time "
            "(B.01 before its 2014 edition) are not built in, so the application cannot be judged",
        )  # fmt: skip
    return issues


def _checked(
    table: Any,
    keys: dict[str, type],
    required: tuple[str, ...],
    lines: dict[tuple[int, str], int],
    index: int,
    source: str,
    issues: list[Issue],
    extra: tuple[str, ...] = (),
) -> dict[str, Any]:
    """A table's known keys of the right type; unknown, missing and mistyped ones reported."""
    where = lines.get((index, ""))
    named = "[[norms]] " if index >= 0 else ""
    if not isinstance(table, dict):
        issues.append(Issue(source, where, f"{named}is not a table"))
        return {}
    values: dict[str, Any] = {}
    for key, value in table.items():
        line = lines.get((index, key), where)
        if key in extra:
            continue
        if key not in keys:
            issues.append(
                Issue(source, line, f"unknown key {key!r}" + did_you_mean(key, list(keys)))
            )
            continue
        wanted = keys[key]
        ok = isinstance(value, wanted) and not (wanted is int and isinstance(value, bool))
        if wanted is float and isinstance(value, int) and not isinstance(value, bool):
            value, ok = float(value), True
        if wanted is dt.date and isinstance(value, dt.datetime):
            ok = False
        if not ok:
            issues.append(Issue(source, line, f"{key} = {value!r}: expected {_kind(wanted)}"))
            continue
        values[key] = value
    for key in required:
        if key not in table:
            issues.append(Issue(source, where, f"{named}{key} is missing"))
    return values


def _kind(wanted: type) -> str:
    return {
        str: "a text",
        int: "a whole number",
        float: "a number",
        bool: "true or false",
        dt.date: "a date (YYYY-MM-DD)",
    }[wanted]


def _lines(text: str) -> dict[tuple[int, str], int]:
    """(table index, key) → line: -1 the top level, 0 … each ``[[norms]]`` in order; the key
    ``""`` is the table's header (line 1 for the top level)."""
    lines: dict[tuple[int, str], int] = {(-1, ""): 1}
    index = -1
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if re.match(r"\[\[\s*norms\s*\]\]", stripped):
            index += 1
            lines[(index, "")] = number
            continue
        key = re.match(r"([A-Za-z0-9_-]+)\s*=", stripped)
        if key:
            lines.setdefault((index, key.group(1)), number)
    return lines
