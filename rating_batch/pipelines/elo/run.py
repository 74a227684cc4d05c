"""FIDE Elo's rate of loaded events as one period (``rate`` and ``compare-rules``): the
rules of each event and of the period, the previous list, the engine, the notes the officer
reads."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pandas as pd

from rating_batch.assemble import assemble_period, choose_kind, order_events
from rating_batch.errors import (
    Issue,
    raise_if_errors,
)
from rating_batch.loaders import (
    read_rating_list,
)
from rating_batch.parallel import alongside, worth
from rating_batch.periods import Period, period_of
from rating_batch.pipelines.rated import RateResult
from rating_batch.schema import Event, combined
from rating_batch.systems.elo.adjustment import adjustment_applies
from rating_batch.systems.elo.engine import rate_period
from rating_batch.systems.elo.rules import FIDE_BY_DATE, Kind, Rules, edition_in_force
from rating_batch.systems.elo.rules_file import named_rules
from rating_batch.validation import overlap_issues


def resolve_rules(
    name: str, events: Sequence[Event], kind: Kind
) -> tuple[Rules, dict[str, Rules], list[str]]:
    """The period's rules and each event's, for the list kind.

    ``fide`` picks each event's edition by its start date (§7), and the period's (K, floor,
    first ratings) by the latest-starting event's. A name or a .toml file applies to all.
    """
    notes: list[str] = []
    if name != FIDE_BY_DATE:
        rules = named_rules(name).for_kind(kind)
        return rules, {event.info.key: rules for event in events}, notes
    per_event = {
        event.info.key: edition_in_force(event.info.start).for_kind(kind) for event in events
    }
    ordered = order_events(events)
    period = edition_in_force(ordered[-1].info.start if ordered else None).for_kind(kind)
    for event in events:
        edition, start = per_event[event.info.key], event.info.start
        if start is None:
            notes.append(f"no start date in {event.info.key}: rated under {edition.edition}")
        elif edition.in_force_from is not None and start < edition.in_force_from:
            notes.append(
                f"{event.info.key} started {start}, before the earliest edition available "
                f"({edition.edition}, {edition.in_force_from}): rated under it"
            )
    return period, per_event, notes


def rate_loaded(
    events: list[Event],
    issues: list[Issue],
    rules_name: str,
    list_path: Path | None,
    kind: str | None,
    allow_overlap: bool = False,
    encoding: str | None = None,
) -> RateResult:
    """Rate loaded events as one period (``rate`` and ``compare-rules`` share this)."""
    chosen_kind, notes = choose_kind(events, kind)

    def read_list() -> tuple[pd.DataFrame, list[Issue], tuple[int, int] | None] | None:
        if list_path is None:
            return None
        # Unprefixed columns of a CSV list (rating, k …) belong to the list being rated.
        listed = read_rating_list(list_path, kind=chosen_kind, encoding=encoding)
        return listed.for_kind(chosen_kind), listed.issues, listed.month

    # A child reads the list while the files are compared; the errors come in the same order
    # as one after the other: the files' overlaps, the rules, then the list.
    games = len(combined(events, "games"))
    with alongside(read_list, worth=list_path is not None and worth(games), lazily=True) as listing:
        overlaps = overlap_issues(events, allow_overlap)
        raise_if_errors(overlaps)
        issues = [*issues, *overlaps]
        rules, event_rules, rule_notes = resolve_rules(rules_name, events, chosen_kind)
        read = listing.result()
    rating_list, list_warnings, month = read if read is not None else (None, [], None)
    period = assemble_period(events, rules, rating_list)
    raise_if_errors(period.issues)
    result = rate_period(
        period.players,
        period.games,
        rules,
        event_rules=event_rules,
        event_starts={event.info.key: event.info.start for event in events},
        period_year=period.year,
    )
    notes += rule_notes + result.notes + uncertain_notes(rules)
    if rating_list is None:
        notes.append(
            "no previous list given: each game uses the ratings written in its event file, and "
            "a player's rating is the one in their latest-starting event (docs/rules.md §2.6)"
        )
    else:
        notes.append(f"ratings, K and history from the list {list_path}")
    notes.append(junior_note(rules, period.year))
    if month is not None and list_path is not None:
        list_warnings += _unadjusted(rules, Period(*month), events, str(list_path))
    warnings = [*issues, *list_warnings, *period.issues]  # no errors are left at this point
    return RateResult(result, period.events, rules, event_rules, notes, warnings)


def _unadjusted(rules: Rules, month: Period, events: list[Event], source: str) -> list[Issue]:
    """A warning when the list given is older than a list adjustment the rules carry and the
    events come after it (docs/rules.md §7): ``rate`` rates with the list as it is."""
    ends = [day for day in (e.info.end or e.info.start for e in events) if day is not None]
    if not ends or rules.adjustment_on is None:
        return []
    if not adjustment_applies(rules, month, period_of(rules, max(ends))):
        return []
    return [
        Issue(
            source, None,
            f"the list is of {month}, before the list adjustment of {rules.adjustment_on} "
            f"(docs/rules.md §7) and these events come after it: its ratings below "
            f"{rules.adjustment_pivot} are used as they are, not adjusted; give a list of "
            f"{rules.adjustment_on:%Y-%m} or later to rate with the adjusted ratings",
            "warning",
        )
    ]  # fmt: skip


def junior_note(rules: Rules, year: int | None) -> str:
    """How the period's juniors were recognised for K (docs/rules.md §3)."""
    if year is None:
        return "no event gives a date: juniors cannot be recognised for K"
    how = (
        "that of the period's closing date"
        if rules.junior_year == "closing_date"
        else "that of the latest end date among the period's events"
    )
    return (
        f"juniors for K: judged by birth year against the period year {year} ({how}; rules "
        "field junior_year)"
    )


def uncertain_notes(rules: Rules) -> list[str]:
    """The defaults taken where the regulations leave a rule open (docs/rules.md)."""
    notes = []
    if rules.cap_scope == "largest_gap_per_event":
        notes.append(
            "400 cap on the largest gap only: when two games tie, the first in round order is "
            "capped (uncertain; rules field cap_scope)"
        )
    if rules.junior_age_basis == "birthday" and rules.k_junior is not None:
        notes.append(
            f"junior K until the {rules.junior_age}th birthday: with birth years only, a player "
            f"turning {rules.junior_age} in the period year is no longer a junior (uncertain)"
        )
    if rules.kind != "standard" and rules.start_from_standard:
        notes.append(
            "players unrated in this list but rated in standard start from the standard rating "
            "with K as for a new player (§6, uncertain; rules field start_from_standard)"
        )
    return notes
