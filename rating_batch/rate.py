"""The only place that joins loaders, engine and writers.

``rate_events`` rates event files as one period (``rating-batch rate``); ``check_files``
validates files without writing anything (``rating-batch check``).
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Sequence
from pathlib import Path
from typing import Protocol, cast

import pandas as pd

from rating_batch.assemble import assemble_period, order_events
from rating_batch.errors import (
    InputError,
    Issue,
    RatingBatchError,
    Severity,
    errors_only,
    ordered_issues,
    raise_if_errors,
)
from rating_batch.inputs import (
    Inputs,
    expand_inputs,
    file_of,
    is_list_file,
    keep_out_apart,
    load_events,
    read_and_validate,
)
from rating_batch.loaders import (
    Progress,
    no_progress,
    read_rating_list,
    read_state_list,
)
from rating_batch.loaders.statelist import is_state_list
from rating_batch.names import name_key
from rating_batch.outputs import write_rate_outputs
from rating_batch.parallel import alongside, worth
from rating_batch.rated import RateResult
from rating_batch.schema import Event, combined
from rating_batch.system_rating import SystemRateResult, rate_with_system, write_system_outputs
from rating_batch.systems import RatingSystem, find_system
from rating_batch.systems.base import LISTED
from rating_batch.systems.elo.engine import rate_period
from rating_batch.systems.elo.rules import FIDE_BY_DATE, KINDS, Kind, Rules, edition_in_force
from rating_batch.systems.elo.rules_file import named_rules
from rating_batch.validation import LOWEST_RATING, overlapping_events

log = logging.getLogger(__name__)


def lowest_rating(rules_name: str) -> int:
    """The lowest rating an event file may give under ``rules_name``: a rules file's
    ``rating_min``, else FIDE's (also under another rating system)."""
    if rules_name == FIDE_BY_DATE or find_system(rules_name) is not None:
        return LOWEST_RATING
    return named_rules(rules_name).rating_min


def choose_kind(events: Sequence[Event], kind: str | None) -> tuple[Kind, list[str]]:
    """The list the events are rated for: ``--kind``, else read from their time controls."""
    if kind is not None:
        if kind not in KINDS:
            raise RatingBatchError(f"unknown kind {kind!r}: choose one of {', '.join(KINDS)}")
        return kind, [f"list: {kind} (--kind)"]
    read = {event.info.key: event.info.kind for event in events}
    kinds = sorted({k for k in read.values() if k is not None})
    if len(kinds) > 1:
        found = ", ".join(f"{key}: {k}" for key, k in read.items() if k is not None)
        raise RatingBatchError(
            f"the events are of different kinds ({found}): rate each kind separately, or pass "
            "--kind to rate them all for one list"
        )
    notes = []
    unread = [key for key, k in read.items() if k is None]
    if not kinds:
        notes.append("list: standard (no readable time control; pass --kind to change it)")
        return "standard", notes
    notes.append(f"list: {kinds[0]} (read from the time control)")
    if unread:
        notes.append(f"no readable time control in {', '.join(unread)}: taken as {kinds[0]}")
    return cast(Kind, kinds[0]), notes  # each a value of KINDS, as the readers give them


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


def rate_events(
    inputs: Sequence[Path],
    *,
    rules_name: str = FIDE_BY_DATE,
    list_path: Path | None = None,
    kind: str | None = None,
    out: Path | None = None,
    progress: Progress = no_progress,
    allow_overlap: bool = False,
    encoding: str | None = None,
) -> RateResult | SystemRateResult:
    """Rate event files as one period; write players.csv, games.csv and report.xlsx to ``out``.
    A ``rules_name`` naming another rating system (docs/systems.md) rates them under it;
    ``encoding`` is that of the files (events and list) that are not UTF-8.

    Two files sharing half or more of their played games (the same results reported twice)
    are refused unless ``allow_overlap``.

    Example::

        result = rate_events([Path("sample_data/events")], out=Path("out"))
        print(result.players[["name", "rating", "new_rating"]])
    """
    if out is not None:
        keep_out_apart(out, inputs, list_path)
    rater = find_rater(rules_name)
    events, issues = load_events(
        expand_inputs(inputs, beside=list_path),
        progress,
        lowest_rating=lowest_rating(rules_name),
        encoding=encoding,
    )
    rated = rater.rate(events, issues, list_path, kind, allow_overlap, encoding=encoding)
    if out is not None:
        rated.outputs = rater.write(rated, out)
    return rated


def overlap_issues(events: Sequence[Event], allow_overlap: bool) -> list[Issue]:
    """Files sharing half or more of their played games: errors, or warnings when allowed.
    Players are compared by FIDE ID, else by name (``names.name_key``)."""
    if len(events) < 2:
        return []
    players = combined(events, "players")
    games = combined(events, "games")
    who = pd.Series(
        ("F" + players["fide_id"].astype("string"))
        .fillna("N" + players["name"].fillna("").astype(str).map(name_key))
        .to_numpy(),
        index=pd.MultiIndex.from_arrays([players["event"], players["player"]]),
    )
    played = games[games["rated"].to_numpy(bool) & games["opponent"].notna().to_numpy()]
    pairs = overlapping_events(
        pd.DataFrame(
            {
                "event": played["event"].to_numpy(),
                "round": played["round"].to_numpy(),
                "player": who.reindex(
                    pd.MultiIndex.from_arrays([played["event"], played["player"]])
                ).to_numpy(),
                "opponent": who.reindex(
                    pd.MultiIndex.from_arrays([played["event"], played["opponent"].astype("int64")])
                ).to_numpy(),
                "score": played["score"].to_numpy(),
            }
        ),
        pd.DataFrame(
            {
                "event": [event.info.key for event in events],
                "first": [_iso(event.info.start or event.info.end) for event in events],
                "last": [_iso(event.info.end or event.info.start) for event in events],
            }
        ),
    )
    source = {event.info.key: event.info.source for event in events}
    severity: Severity = "warning" if allow_overlap else "error"
    hint = " (both are rated as given)" if allow_overlap else "; --allow-overlap rates both anyway"
    return [
        Issue(
            source[str(pair["event_y"])],
            None,
            f"shares {pair['shared']} of its {pair['played_y']} played games with "
            f"{source[str(pair['event_x'])]}: the same results reported twice?{hint}",
            severity,
        )
        for pair in pairs.to_dict("records")
    ]


def _iso(date: dt.date | None) -> str | None:
    return None if date is None else date.isoformat()


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

    def read_list() -> tuple[pd.DataFrame, list[Issue]] | None:
        if list_path is None:
            return None
        # Unprefixed columns of a CSV list (rating, k …) belong to the list being rated.
        listed = read_rating_list(list_path, kind=chosen_kind, encoding=encoding)
        return listed.for_kind(chosen_kind), listed.issues

    # A child reads the list while the files are compared; the errors come in the same order
    # as one after the other: the files' overlaps, the rules, then the list.
    games = len(combined(events, "games"))
    with alongside(read_list, worth=list_path is not None and worth(games), lazily=True) as listing:
        overlaps = overlap_issues(events, allow_overlap)
        raise_if_errors(overlaps)
        issues = [*issues, *overlaps]
        rules, event_rules, rule_notes = resolve_rules(rules_name, events, chosen_kind)
        read = listing.result()
    rating_list, list_warnings = read if read is not None else (None, [])
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
    warnings = [*issues, *list_warnings, *period.issues]  # no errors are left at this point
    return RateResult(result, period.events, rules, event_rules, notes, warnings)


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


def check_files(
    paths: Sequence[Path], rules_name: str | None = None, encoding: str | None = None
) -> list[Issue]:
    """Every problem of every file (tournament files and rating lists), as ``add`` (and
    ``init`` for lists) would find it; writes nothing. Errors first, then warnings, each
    file's in line order. With ``rules_name`` naming another rating system, a CSV with
    ``id`` and that system's state columns is checked as its list (docs/formats.md §11);
    ``encoding`` is that of the files that are not UTF-8."""
    inputs = expand_inputs(paths, wanted="an event or a rating list")
    files = inputs.files
    if not files:
        none = Issue("check", None, "no files given (or none in the folders given)")
        return ordered_issues([*inputs.issues, *([] if errors_only(inputs.issues) else [none])])
    system = find_system(rules_name) if rules_name is not None else None
    # A rules file's every problem first (exit 1); its rating_min judges the events' ratings.
    lowest = LOWEST_RATING if rules_name is None else lowest_rating(rules_name)
    # A file named is a list by its shape, any list, under another system too; one found in
    # a folder of events is read as an event, and refused as add would (docs/formats.md §12).
    lists = [
        path not in inputs.found
        and (
            is_list_file(path)
            or (system is not None and is_state_list(path, system.state, system.optional_state))
        )
        for path in files
    ]
    events = [path for path, is_list in zip(files, lists, strict=True) if not is_list]
    _, issues = read_and_validate(
        Inputs(events, inputs.found, inputs.issues),
        "check",
        lowest_rating=lowest,
        encoding=encoding,
    )
    for path in (path for path, is_list in zip(files, lists, strict=True) if is_list):
        try:
            if system is not None:
                read_state_list(
                    path, system.state, system.name, system.bounds, encoding, system.optional_state
                )
            else:
                issues.extend(read_rating_list(path, encoding=encoding).issues)
        except InputError as error:
            issues.extend(error.issues)
    # Files in the order given (a sheet's issues are its workbook's).
    given = {str(path): number for number, path in enumerate(files)}
    issues.sort(key=lambda issue: given.get(file_of(issue), -1))
    return ordered_issues(issues)


Rated = RateResult | SystemRateResult


class Rater(Protocol):
    """Rates loaded events as one period and writes the outputs."""

    lower_is_better: bool
    takes_elo_list: bool
    """Whether ``--list`` (a FIDE Elo list) is this rater's previous list."""

    def rate(
        self,
        events: list[Event],
        issues: list[Issue],
        list_path: Path | None,
        kind: str | None,
        allow_overlap: bool,
        *,
        encoding: str | None = None,
    ) -> Rated: ...

    def write(self, rated: Rated, out: Path) -> list[Path]: ...

    def label(self, rated: Rated) -> str: ...

    def listing(self, rated: Rated) -> pd.DataFrame:
        """``id``, ``name``, ``value`` (the published rating), ``listed``."""
        ...


class EloRater:
    """FIDE Elo under a rules name (``rate_loaded``)."""

    lower_is_better = False
    takes_elo_list = True

    def __init__(self, rules_name: str) -> None:
        self.rules_name = rules_name

    def rate(
        self,
        events: list[Event],
        issues: list[Issue],
        list_path: Path | None,
        kind: str | None,
        allow_overlap: bool,
        *,
        encoding: str | None = None,
    ) -> RateResult:
        return rate_loaded(
            events, issues, self.rules_name, list_path, kind, allow_overlap, encoding
        )

    def write(self, rated: Rated, out: Path) -> list[Path]:
        assert isinstance(rated, RateResult)
        return write_rate_outputs(rated, out)

    def label(self, rated: Rated) -> str:
        assert isinstance(rated, RateResult)
        return rated.rules.edition

    def listing(self, rated: Rated) -> pd.DataFrame:
        return _listing(rated.players, "new_rating")


class SystemRater:
    """Another rating system (``system_rating.rate_with_system``)."""

    takes_elo_list = False

    def __init__(self, system: RatingSystem) -> None:
        self.system = system
        self.lower_is_better = system.lower_is_better

    def rate(
        self,
        events: list[Event],
        issues: list[Issue],
        list_path: Path | None,
        kind: str | None,
        allow_overlap: bool,
        *,
        encoding: str | None = None,
    ) -> SystemRateResult:
        # One list kind at a time, as under Elo: mixed kinds are refused unless --kind.
        chosen, kind_notes = choose_kind(events, kind)
        overlaps = overlap_issues(events, allow_overlap)
        rated = rate_with_system(
            events, issues, self.system, list_path, overlaps, encoding, kind=chosen
        )
        rated.notes[:0] = kind_notes
        return rated

    def write(self, rated: Rated, out: Path) -> list[Path]:
        assert isinstance(rated, SystemRateResult)
        return write_system_outputs(rated, out)

    def label(self, rated: Rated) -> str:
        return self.system.name

    def listing(self, rated: Rated) -> pd.DataFrame:
        return _listing(rated.players, self.system.published)


def _listing(players: pd.DataFrame, value: str) -> pd.DataFrame:
    """The list a rated period would publish: each player's ``value`` and whether listed."""
    return pd.DataFrame(
        {
            "id": players["id"],
            "name": players["name"],
            "value": players[value],
            "listed": players["status"].isin(list(LISTED)),
        }
    )


def find_rater(rules: str) -> Rater:
    """The rater ``--rules`` names: another system from the registry, else FIDE Elo."""
    system = find_system(rules)
    return SystemRater(system) if system is not None else EloRater(rules)
