"""The only place that joins loaders, engine and writers.

``rate_events`` rates event files as one period (``rating-batch rate``); ``check_files``
validates files without writing anything (``rating-batch check``).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from rating_batch.engine import STATUSES, PeriodResult, rate_period
from rating_batch.errors import InputError, Issue, raise_if_errors
from rating_batch.loaders import EVENT_READERS, read_event, read_rating_list
from rating_batch.period import assemble_period, order_events
from rating_batch.rules import FIDE_BY_DATE, Rules, edition_in_force, named_rules
from rating_batch.schema import Event
from rating_batch.writers import Sheet, atomic_outputs, write_csv, write_workbook

log = logging.getLogger(__name__)

LIST_SUFFIXES = (".csv",)


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
            lines.append(f"warnings: {len(self.warnings)} (see the Summary sheet)")
        lines.extend(f"wrote {path}" for path in self.outputs)
        return "\n".join(lines)

    def _editions(self) -> str:
        names = sorted({rules.edition for rules in self.event_rules.values()})
        return ", ".join(names) if names else self.rules.edition

    def summary_rows(self) -> list[Sequence[object]]:
        """Key-value rows of the Summary sheet."""
        rows: list[Sequence[object]] = [
            ["rating_batch rating report"],
            [],
            ["Rules", f"{self.rules.edition}: {self.rules.title}"],
            ["Rules source", self.rules.source],
            ["Players", len(self.players)],
        ]
        rows.extend([f"  {status}", count] for status, count in self.status_counts().items())
        rows.append(["Counted games (player-games)", int(self.games["counted"].sum())])
        rows += [[], ["Events"]]
        rows.append(
            [
                "event",
                "name",
                "file",
                "start",
                "end",
                "rounds",
                "players",
                "format",
                "encoding",
                "edition",
            ]
        )
        for event in self.events:
            info = event.info
            rows.append(
                [
                    info.key,
                    info.name,
                    info.source,
                    info.start.isoformat() if info.start else "",
                    info.end.isoformat() if info.end else "",
                    info.rounds,
                    len(event.players),
                    info.format,
                    info.encoding,
                    self.event_rules[info.key].edition,
                ]
            )
        rows += [[], ["Notes"]]
        rows.extend(["", note] for note in self.notes)
        rows += [[], ["Warnings"]]
        rows.extend(["", str(issue)] for issue in self.warnings)
        if not self.warnings:
            rows.append(["", "none"])
        return rows


def expand_inputs(inputs: Iterable[Path]) -> list[Path]:
    """Files as given; a directory becomes its supported event files, sorted by name."""
    files: list[Path] = []
    for path in inputs:
        if path.is_dir():
            files.extend(
                sorted(
                    p for p in path.iterdir() if p.is_file() and p.suffix.lower() in EVENT_READERS
                )
            )
        else:
            files.append(path)
    return files


def load_events(paths: Sequence[Path]) -> tuple[list[Event], list[Issue]]:
    """Load every file, collecting every issue of every file before failing."""
    events: list[Event] = []
    issues: list[Issue] = []
    keys: dict[str, int] = {}
    for path in paths:
        key = path.stem
        keys[key] = keys.get(key, 0) + 1
        if keys[key] > 1:
            key = f"{key}-{keys[key]}"
        try:
            event = read_event(path, key=key)
        except InputError as error:
            issues.extend(error.issues)
            continue
        events.append(event)
        issues.extend(event.issues)
    if not paths:
        issues.append(Issue("rate", None, "no event files given (or none in the folders given)"))
    raise_if_errors(issues)
    return events, issues


def resolve_rules(name: str, events: Sequence[Event]) -> tuple[Rules, dict[str, Rules]]:
    """The period's rules and each event's edition (``fide``: in force at its start date)."""
    if name != FIDE_BY_DATE:
        rules = named_rules(name)
        return rules, {event.info.key: rules for event in events}
    per_event = {event.info.key: edition_in_force(event.info.start) for event in events}
    ordered = order_events(events)
    latest = ordered[-1].info if ordered else None
    period = edition_in_force(latest.end or latest.start if latest else None)
    return period, per_event


def rate_events(
    inputs: Sequence[Path],
    *,
    rules_name: str = FIDE_BY_DATE,
    list_path: Path | None = None,
    out: Path | None = None,
) -> RateResult:
    """Rate event files as one period; write players.csv, games.csv and report.xlsx to ``out``.

    Example::

        result = rate_events([Path("sample_data/events")], out=Path("out"))
        print(result.players[["name", "rating", "new_rating"]])
    """
    events, issues = load_events(expand_inputs(inputs))
    rules, event_rules = resolve_rules(rules_name, events)
    rating_list = read_rating_list(list_path) if list_path is not None else None
    period = assemble_period(events, rules, rating_list)
    raise_if_errors(period.issues)
    result = rate_period(
        period.players,
        period.games,
        rules,
        event_rules=event_rules,
        period_year=period.year,
    )
    notes = list(result.notes)
    if rating_list is None:
        notes.append(
            "no previous list given: each game uses the ratings written in its event file, and "
            "a player's rating is the one in their latest-starting event (rating-rules.md §2.6)"
        )
    else:
        notes.append(f"ratings, K and history from the list {list_path}")
    if period.year is None:
        notes.append("no event gives a date: juniors cannot be recognised for K")
    else:
        notes.append(
            f"juniors: born {period.year - rules.junior_age} or later (period year {period.year})"
        )
    undated = [event.info.key for event in events if event.info.start is None]
    if undated and rules_name == FIDE_BY_DATE:
        notes.append(f"no start date in {', '.join(undated)}: rated under the latest edition")
    for key, edition in event_rules.items():
        start = next(e.info.start for e in events if e.info.key == key)
        if (
            start is not None
            and edition.in_force_from is not None
            and start < edition.in_force_from
        ):
            notes.append(
                f"{key} started {start}, before {edition.edition} came into force "
                f"({edition.in_force_from}); no older edition is available"
            )
    warnings = [*issues, *period.issues]  # no errors are left at this point
    rated = RateResult(result, period.events, rules, event_rules, notes, warnings)
    if out is not None:
        rated.outputs = write_rate_outputs(rated, out)
    return rated


def write_rate_outputs(rated: RateResult, out: Path) -> list[Path]:
    """players.csv, games.csv and report.xlsx, all or none."""
    players = rated.players.drop(columns=["k_before_cap"])
    games = rated.games
    events = rated.result.player_events.assign(
        id=lambda frame: rated.players["id"].to_numpy()[frame["pidx"].to_numpy()]
    )[["id", "event", "games", "score", "expected", "change"]]
    paths = [out / "players.csv", out / "games.csv", out / "report.xlsx"]
    with atomic_outputs() as outputs:
        write_csv(players, outputs.path(paths[0]))
        write_csv(games, outputs.path(paths[1]))
        write_workbook(
            [
                Sheet("Summary", rows=rated.summary_rows()),
                Sheet("Players", frame=players),
                Sheet("Games", frame=games),
                Sheet("Player events", frame=events),
            ],
            outputs.path(paths[2]),
        )
    return paths


def check_files(paths: Sequence[Path]) -> list[Issue]:
    """Every problem of every file (tournament files and CSV rating lists); writes nothing."""
    issues: list[Issue] = []
    for path in expand_inputs(paths):
        try:
            if path.suffix.lower() in LIST_SUFFIXES:
                read_rating_list(path)
            else:
                issues.extend(read_event(path).issues)
        except InputError as error:
            issues.extend(error.issues)
    return issues
