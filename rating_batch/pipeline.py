"""The only place that joins loaders, engine and writers.

``rate_events`` rates event files as one period (``rating-batch rate``); ``check_files``
validates files without writing anything (``rating-batch check``).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import logging
import re
import unicodedata
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import pandas as pd

from rating_batch.errors import (
    InputError,
    Issue,
    RatingBatchError,
    Severity,
    errors_only,
    ordered_issues,
    raise_if_errors,
)
from rating_batch.inputs import Inputs, expand_inputs, keep_out_apart
from rating_batch.loaders import (
    Progress,
    is_rating_list,
    no_progress,
    read_events,
    read_rating_list,
    read_state_list,
)
from rating_batch.loaders.kinds import list_given_as_event
from rating_batch.loaders.statelist import is_state_list
from rating_batch.names import name_key
from rating_batch.overlap import overlapping_events
from rating_batch.parallel import alongside, beside, worth
from rating_batch.period import assemble_period, order_events
from rating_batch.schema import CONTROL_CHARACTERS, Event, EventInfo, combined, one_batch
from rating_batch.staging import OutputSet, staged_outputs
from rating_batch.system_rating import SystemRateResult
from rating_batch.systems.elo.calculations import (
    calculation_rows,
    change_distribution,
    individual_calculations,
    rating_distribution,
)
from rating_batch.systems.elo.engine import STATUSES, PeriodResult, rate_period
from rating_batch.systems.elo.pages import EventPages, entrants_of, event_pages, index_page
from rating_batch.systems.elo.reasons import ro_k_notes
from rating_batch.systems.elo.rules import FIDE_BY_DATE, KINDS, Kind, Rules, edition_in_force
from rating_batch.systems.elo.rules_file import named_rules
from rating_batch.terminal import BIDI_CONTROLS
from rating_batch.validation import LOWEST_RATING, Purpose, validate_events
from rating_batch.writers import (
    CALCULATION_LABELS,
    GAME_LABELS,
    MAX_DETAIL_ROWS,
    PLAYER_LABELS,
    EventRows,
    Sheet,
    detail_notes,
    event_rows,
    write_calculations_sheet,
    write_chart_sheet,
    write_csv,
    write_event_html,
    write_index_html,
    write_workbook,
)

log = logging.getLogger(__name__)


@dataclass
class RateResult:
    """A rated period: the engine's frames plus what the officer needs to read them."""

    result: PeriodResult
    events: list[Event]
    rules: Rules
    event_rules: dict[str, Rules]
    notes: list[str] = field(default_factory=list)
    warnings: list[Issue] = field(default_factory=list)
    outputs: list[Path] = field(default_factory=list)

    @property
    def players(self) -> pd.DataFrame:
        return self.result.players

    @property
    def games(self) -> pd.DataFrame:
        return self.result.games

    def status_counts(self) -> dict[str, int]:
        counts = self.players["status"].value_counts()
        return {status: int(counts.get(status, 0)) for status in STATUSES}

    def summary(self) -> str:
        """The one-screen summary printed at the end of ``rate``."""
        counts = self.status_counts()
        lines = [
            f"rated {len(self.events)} event(s) as one period under {self._editions()}",
            f"players: {len(self.players)} ({', '.join(f'{v} {k}' for k, v in counts.items())})",
            f"counted games: {int(self.games['counted'].sum())} of "
            f"{int(self.games['opponent_id'].notna().sum())} paired rows",
        ]
        if self.warnings:
            lines.append(f"warnings: {len(self.warnings)} (printed below and in the Summary sheet)")
        lines.extend(f"wrote {path}" for path in self.outputs)
        return "\n".join(lines)

    def heading(self) -> str:
        """What the rated period is, in a line (the top of every printed page)."""
        names = ", ".join(event.info.name for event in self.events[:3])
        more = f" and {len(self.events) - 3} more" if len(self.events) > 3 else ""
        return f"{names}{more} ({self._editions()})"

    def _editions(self) -> str:
        names = sorted({rules.edition for rules in self.event_rules.values()})
        return ", ".join(names) if names else self.rules.edition

    def summary_rows(self) -> list[Sequence[object]]:
        """Key-value rows of the Summary sheet."""
        rows: list[Sequence[object]] = [
            [f"Rating report: {self.heading()}"],
            [],
            ["Rules", self.rules.label()],
            ["Rules source", self.rules.source],
            ["Players", len(self.players)],
        ]
        rows.extend([f"  {status}", count] for status, count in self.status_counts().items())
        rows.append(["Counted games (player-games)", int(self.games["counted"].sum())])
        rows += [[], ["Events"]]
        # The file last: the widest column, printed beside the event's key on a page of its
        # own when the table is wider than a page.
        rows.append(
            ["event", "name", "start", "end", "rounds", "players", "format", "encoding",
             "edition", "file"]
        )  # fmt: skip
        for event in self.events:
            info = event.info
            rows.append(
                [
                    info.key,
                    info.name,
                    info.start.isoformat() if info.start else "",
                    info.end.isoformat() if info.end else "",
                    info.rounds,
                    len(event.players),
                    info.format,
                    info.encoding,
                    self.event_rules[info.key].edition,
                    info.source,
                ]
            )
        rows += [[], ["Notes"]]
        rows.extend(["", note] for note in self.notes)
        rows.extend(["", note] for note in detail_notes("Games", len(self.games)))
        rows += [[], ["Warnings"]]
        rows.extend(["", str(issue)] for issue in self.warnings)
        if not self.warnings:
            rows.append(["", "none"])
        return rows


def read_and_validate(
    inputs: Inputs,
    purpose: Purpose,
    progress: Progress = no_progress,
    *,
    accept_dates: bool = False,
    lowest_rating: int = LOWEST_RATING,
    encoding: str | None = None,
) -> tuple[list[Event], list[Issue]]:
    """Read every file and validate every event read (the one pass ``check``, ``rate`` and
    ``add`` share): the events, and every issue of every file, in the order given (what
    ``expand_inputs`` said first); ``lowest_rating`` is the rules' ``rating_min``,
    ``encoding`` that of files that are not UTF-8. A rating list given as an event, or found
    in a folder of events, is said to be one."""
    paths = inputs.files
    keys = distinct_keys([path.stem for path in paths])
    events: list[Event] = []
    issues: list[Issue] = []
    for item in read_events(paths, keys, progress, encoding):
        if isinstance(item, InputError):
            issues.extend(item.issues)
        else:
            events.append(item)
            issues.extend(item.issues)
    events = one_batch(events)
    readable = [e for e in events if not any(i.severity == "error" for i in e.issues)]
    issues.extend(
        validate_events(readable, purpose, accept_dates=accept_dates, lowest_rating=lowest_rating)
    )
    # A list read as an event fails, in the reader or in the checks (no game played): it is
    # then said to be a list, not what an event would lack.
    failed = {file_of(issue) for issue in errors_only(issues)}
    lists = {str(path): path for path in paths if str(path) in failed and _is_list(path)}
    issues = [issue for issue in issues if file_of(issue) not in lists]
    issues += [list_given_as_event(path, in_folder=path in inputs.found) for path in lists.values()]
    return events, [*inputs.issues, *issues]


def file_of(issue: Issue) -> str:
    """The file an issue is of (a sheet's issues, ``book.xlsx[Sheet1]``, are its workbook's)."""
    return re.sub(r"\[[^\]]*\]$", "", issue.source)


def load_events(
    inputs: Inputs | Sequence[Path],
    progress: Progress = no_progress,
    *,
    purpose: Purpose = "rate",
    accept_dates: bool = False,
    lowest_rating: int = LOWEST_RATING,
    encoding: str | None = None,
) -> tuple[list[Event], list[Issue]]:
    """Load and validate every file, collecting every issue of every file before failing."""
    if not isinstance(inputs, Inputs):
        inputs = Inputs(list(inputs))
    if not inputs.files:
        command = "add" if purpose == "add" else "rate"
        none = Issue(command, None, "no event files given (or none in the folders given)")
        raise InputError([*inputs.issues, *([] if errors_only(inputs.issues) else [none])])
    events, issues = read_and_validate(
        inputs,
        purpose,
        progress,
        accept_dates=accept_dates,
        lowest_rating=lowest_rating,
        encoding=encoding,
    )
    raise_if_errors(issues)
    return events, issues


def lowest_rating(rules_name: str) -> int:
    """The lowest rating an event file may give under ``rules_name``: a rules file's
    ``rating_min``, else FIDE's (also under another rating system)."""
    from rating_batch.systems import find_system

    if rules_name == FIDE_BY_DATE or find_system(rules_name) is not None:
        return LOWEST_RATING
    return named_rules(rules_name).rating_min


#: An event key (and so an event page's file name) is at most this long: longer file names are
#: shortened, with a hash of the whole name so that two long names stay apart.
MAX_KEY_LENGTH = 80

#: What a key never holds, whatever its file's name: control characters (schema's: C0, DEL,
#: C1, line and paragraph separators), which would reach the officer's terminal as escape
#: sequences or split a CSV record, and the bidi controls (U+061C, U+200E-F, U+202A-E,
#: U+2066-9), which would show a key in another order than it is typed.
_NOT_IN_KEYS = re.compile(rf"{CONTROL_CHARACTERS.pattern}|[{BIDI_CONTROLS}]")


def safe_key(name: str) -> str:
    """A file stem as an event key that prints as it is and that every file system can name a
    page after: in NFC (the two spellings of ``café`` are one key), every control or bidi
    character replaced by ``_``, at most ``MAX_KEY_LENGTH`` characters (and 160 bytes), else
    cut with an 8-character hash suffix, and not starting with ``-`` (``remove -rf`` would
    read it as an option). Keys are made again from keys, so ``safe_key`` of a key is itself."""
    name = _NOT_IN_KEYS.sub("_", unicodedata.normalize("NFC", name))
    if len(name) > MAX_KEY_LENGTH or len(name.encode("utf-8")) > 2 * MAX_KEY_LENGTH:
        digest = hashlib.sha1(name.encode("utf-8")).hexdigest()[:8]
        head = name[: MAX_KEY_LENGTH - 9]
        while len(head.encode("utf-8")) > 2 * MAX_KEY_LENGTH - 9:
            head = head[:-1]
        name = f"{head.rstrip(' .-')}-{digest}"
    return f"_{name[1:]}" if name.startswith("-") else name


def distinct_keys(names: Sequence[str], taken: Iterable[str] = ()) -> list[str]:
    """Event keys name events in every report, so they are distinct: each name as it is
    (``safe_key``), or, when it is taken (by an earlier name or ``taken``), the first free
    ``name-2``, ``name-3`` …"""
    used = set(taken)
    keys = []
    for name in map(safe_key, names):
        candidate, number = name, 1
        while candidate in used:
            number += 1
            candidate = f"{name}-{number}"
        used.add(candidate)
        keys.append(candidate)
    return keys


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
    return kinds[0], notes  # type: ignore[return-value]


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
    from rating_batch.raters import find_rater

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


def write_rate_outputs(rated: RateResult, out: Path) -> list[Path]:
    """players.csv, games.csv, calculations.csv, report.xlsx and the event pages, all or
    none."""
    hidden = ["first_event_done"] + ([] if rated.rules.classes else ["class"])
    players = rated.players.drop(columns=hidden)
    games = rated.games
    events = rated.result.player_events.assign(
        id=lambda frame: rated.players["id"].to_numpy()[frame["pidx"].to_numpy()]
    )[["id", "event", "games", "score", "expected", "change"]]
    calculations = individual_calculations(rated.result, rated.rules)
    paths = [out / "players.csv", out / "games.csv", out / "calculations.csv", out / "report.xlsx"]
    heading = rated.heading()
    with staged_outputs(out) as outputs:
        # The folder's pages are this run's: a page of an event no longer rated goes.
        outputs.own(out / "events", r"[^/]+\.html")
        report_book = outputs.path(paths[3])  # recorded here, not in the child (``beside``)

        def workbook() -> None:
            write_workbook(
                [
                    Sheet("Summary", rows=rated.summary_rows()),
                    *detail_sheets(players, games, calculations, heading, rated.rules),
                    Sheet(
                        "Player events",
                        frame=events,
                        heading=[f"Player events — {heading}"],
                        labels=PLAYER_LABELS,
                        keys=2,  # id, event
                    ),
                    replace(
                        charts_sheet(
                            rated.players["new_rating"].where(
                                rated.players["status"].isin(["rated", "new"])
                            )
                        ),
                        heading=[heading],
                    ),
                    replace(changes_chart_sheet(rated.players), heading=[heading]),
                ],
                report_book,
            )

        with beside(workbook):
            write_csv(players, outputs.path(paths[0]))
            write_csv(games, outputs.path(paths[1]))
            write_csv(calculations, outputs.path(paths[2]))
            paths += write_pages(
                outputs,
                out,
                PageSource(
                    rated.result,
                    [event.info for event in rated.events],
                    rated.event_rules,
                    entrants_of(combined(rated.events, "players")),
                    calculations,
                ),
                f"Rating report: {heading}",
                [
                    ("rules", rated._editions()),
                    ("events", str(len(rated.events))),
                    ("players", str(len(rated.players))),
                    ("counted games", str(int(games["counted"].sum()))),
                ],
            ).paths
    return paths


#: More events than this get no HTML pages (each page is for posting one event).
MAX_EVENT_PAGES = 1_000


@dataclass(frozen=True)
class PageSource:
    """What the HTML pages of a rated period are made from."""

    result: PeriodResult
    infos: Sequence[EventInfo]
    event_rules: Mapping[str, Rules]
    entrants: pd.DataFrame
    """Every event's players as its file lists them (``pages.ENTRANT_COLUMNS``)."""
    calculations: pd.DataFrame
    period: str = ""


Keep = Callable[[Sequence[tuple[Path, Path]]], list[Any]]
"""Keeps files as soon as they are written (publish keeps each beside its database): given
each file's final and staged path, keeps them and returns what it kept."""


@dataclass(frozen=True)
class WrittenPages:
    """The pages written (their final paths) and what ``keep`` kept of them."""

    paths: list[Path]
    kept: list[Any]


def write_pages(
    outputs: OutputSet,
    folder: Path,
    source: PageSource,
    title: str,
    facts: list[tuple[str, str]],
    progress: Progress = no_progress,
    label: str = "event pages",
    keep: Keep | None = None,
) -> WrittenPages:
    """``folder/index.html`` and one page per event in ``folder/events`` (none past
    ``MAX_EVENT_PAGES`` events: the index then lists the events without links); with
    ``keep``, each process keeps the pages it wrote as soon as they are written."""
    written = [folder / "index.html"]
    pages = []
    kept: list[Any] = []
    if len(source.infos) <= MAX_EVENT_PAGES:
        prepared = event_pages(
            source.result, source.infos, source.event_rules, source.entrants,
            source.calculations, source.period,
        )  # fmt: skip
        pages = prepared.pages
        places = {page.key: folder / "events" / f"{page.key}.html" for page in pages}
        written += places.values()
        # Staged paths are taken here (the output set is the command's): the later pages
        # are laid out and written by a child (``parallel.alongside``) from PARALLEL_PAGES on.
        staged = {key: (place, outputs.path(place)) for key, place in places.items()}
        keys = list(places)
        half = len(keys) // 2 if len(keys) >= PARALLEL_PAGES else len(keys)
        later = prepared.subset(keys[half:])
        with alongside(
            lambda: _write_event_pages(later, staged, keep), worth=bool(later.pages)
        ) as child:
            kept += _write_event_pages(prepared.subset(keys[:half]), staged, keep, progress, label)
            kept += child.result()
    played = source.result.players[source.result.players["events"].to_numpy() > 0]
    index = outputs.path(written[0])
    write_index_html(index_page(title, facts, pages, played, source.infos), index)
    if keep is not None:
        kept += keep([(written[0], index)])
    return WrittenPages(written, kept)


#: Event pages of a run are laid out and written on two cores from this many.
PARALLEL_PAGES = 50


def _write_event_pages(
    prepared: EventPages,
    staged: Mapping[str, tuple[Path, Path]],
    keep: Keep | None = None,
    progress: Progress = no_progress,
    label: str = "event pages",
) -> list[Any]:
    """The pages ``prepared``, each at its staged path (``staged``: each page's final and
    staged path); what ``keep`` kept of them."""
    rows = event_rows(prepared)
    for page in progress(prepared.pages, label):
        page_rows = rows.get(page.key, EventRows())
        write_event_html(page, staged[page.key][1], page_rows, index_link="../index.html")
    return [] if keep is None else keep([staged[page.key] for page in prepared.pages])


def detail_sheets(
    players: pd.DataFrame,
    games: pd.DataFrame,
    calculations: pd.DataFrame,
    heading: str,
    rules: Rules,
) -> list[Sheet]:
    """A report's Players, Games and Calculations sheets (the per-game ones cut at
    ``MAX_DETAIL_ROWS``: the CSVs hold every row); each rated player's heading row of the
    Calculations says where Ro and K came from when a reader would not guess it."""
    notes = ro_k_notes(players, rules.kind, rules.k_games_cap).set_axis(players["id"])
    return [
        Sheet(
            "Players",
            frame=players,
            heading=[f"Players — {heading}"],
            labels=PLAYER_LABELS,
            keys=2,  # id, name
        ),
        Sheet(
            "Games",
            frame=games.head(MAX_DETAIL_ROWS),
            heading=[f"Games — {heading}"],
            labels=GAME_LABELS,
            keys=3,  # event, round, id
        ),
        Sheet(
            "Calculations",
            frame=calculation_rows(calculations.head(MAX_DETAIL_ROWS), notes),
            writer=write_calculations_sheet,
            heading=[f"Individual calculations — {heading}"],
            labels=CALCULATION_LABELS,
            keys=2,  # id, name
        ),
    ]


def charts_sheet(ratings: pd.Series) -> Sheet:
    """The Charts sheet: how the ratings are distributed, as a table and a bar chart."""
    return Sheet("Charts", frame=rating_distribution(ratings), writer=write_chart_sheet)


def changes_chart_sheet(players: pd.DataFrame) -> Sheet:
    """The period's rating changes (rated players: new rating − rating), as bars."""
    rated = players[players["status"].isin(["rated", "below_floor"]).to_numpy()]
    changes = (rated["new_rating"].astype("Int64") - rated["rating"].astype("Int64")).dropna()
    return Sheet("Changes chart", frame=change_distribution(changes), writer=write_chart_sheet)


def check_files(
    paths: Sequence[Path], rules_name: str | None = None, encoding: str | None = None
) -> list[Issue]:
    """Every problem of every file (tournament files and rating lists), as ``add`` (and
    ``init`` for lists) would find it; writes nothing. Errors first, then warnings, each
    file's in line order. With ``rules_name`` naming another rating system, a CSV with
    ``id`` and that system's state columns is checked as its list (docs/formats.md §11);
    ``encoding`` is that of the files that are not UTF-8."""
    from rating_batch.systems import find_system

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
        and (_is_list(path) or (system is not None and is_state_list(path, system.state)))
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
                read_state_list(path, system.state, system.name, system.bounds, encoding)
            else:
                issues.extend(read_rating_list(path, encoding=encoding).issues)
        except InputError as error:
            issues.extend(error.issues)
    # Files in the order given (a sheet's issues are its workbook's).
    given = {str(path): number for number, path in enumerate(files)}
    issues.sort(key=lambda issue: given.get(file_of(issue), -1))
    return ordered_issues(issues)


def _is_list(path: Path) -> bool:
    try:
        return is_rating_list(path)
    except OSError:  # unreadable: reported by the event reader
        return False
