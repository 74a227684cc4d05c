"""What a rated period is (``rate``): under FIDE Elo the engine's frames with the events and
the rules each was rated under (``RateResult``), under another system its outcome
(``SystemRateResult``); both with the notes and warnings the officer reads, summed up alike
(``summary_text``, ``closing_rows``)."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

import pandas as pd

from rating_batch.errors import (
    Issue,
)
from rating_batch.periods import Period
from rating_batch.schema import Event, EventInfo
from rating_batch.systems.base import (
    LISTED,
    SYSTEM_STATUSES,
    StateSystem,
    SystemOutcome,
)
from rating_batch.systems.elo.calculations import individual_calculations
from rating_batch.systems.elo.engine import STATUSES, PeriodResult
from rating_batch.systems.elo.rules import Rules
from rating_batch.systems.params import described
from rating_batch.writers import (
    detail_notes,
)


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

    @property
    def label(self) -> str:
        return self.rules.edition

    def listing(self) -> pd.DataFrame:
        return listing_of(self.players, "new_rating")

    def status_counts(self) -> dict[str, int]:
        return counted_statuses(self.players, STATUSES)

    def summary(self) -> str:
        """The one-screen summary printed at the end of ``rate``."""
        counted = int(self.games["counted"].sum())
        paired = int(self.games["opponent_id"].notna().sum())
        return summary_text(self, self._editions(), self.status_counts(), counted, paired)

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
        return rows + closing_rows(
            [*self.notes, *detail_notes("Games", len(self.games))], self.warnings
        )


def listing_of(players: pd.DataFrame, value: str) -> pd.DataFrame:
    """The list a rated period would publish (``Rated.listing``): each player's ``value``
    and whether listed."""
    return pd.DataFrame(
        {
            "id": players["id"],
            "name": players["name"],
            "value": players[value],
            "listed": players["status"].isin(list(LISTED)),
        }
    )


@dataclass
class SystemRateResult:
    """A period rated under a system, with what the officer needs to read it."""

    system: StateSystem
    outcome: SystemOutcome
    games: pd.DataFrame
    events: list[EventInfo]
    """The events, as the files were given."""
    notes: list[str] = field(default_factory=list)
    warnings: list[Issue] = field(default_factory=list)
    outputs: list[Path] = field(default_factory=list)

    @property
    def players(self) -> pd.DataFrame:
        return self.outcome.players

    @property
    def label(self) -> str:
        return self.system.name

    def listing(self) -> pd.DataFrame:
        return listing_of(self.players, self.system.published)

    def status_counts(self) -> dict[str, int]:
        return counted_statuses(self.players, SYSTEM_STATUSES)

    def summary(self) -> str:
        """The one-screen summary printed at the end of ``rate``."""
        paired = self.games["oidx"].ge(0)
        counted = int((self.games["rated"] & paired).sum())
        return summary_text(
            self, self.system.title, self.status_counts(), counted, int(paired.sum())
        )

    def summary_rows(self) -> list[Sequence[object]]:
        rows: list[Sequence[object]] = [
            [f"Rating report: {self.system.title}"],
            [],
            ["System", self.system.name],
            ["Players", len(self.players)],
            *([f"  {status}", count] for status, count in self.status_counts().items()),
            [],
            ["Constants"],
            *(
                [key, f"{value}  ({meaning})"]
                for key, value, meaning in described(self.system.params)
            ),
            [],
            ["Events"],
            ["event", "name", "start", "end"],
        ]
        for info in self.events:
            rows.append([info.key, info.name, str(info.start or ""), str(info.end or "")])
        return rows + closing_rows(self.notes, self.warnings)


class _Summed(Protocol):
    @property
    def events(self) -> Sequence[object]: ...

    @property
    def warnings(self) -> Sequence[Issue]: ...

    @property
    def outputs(self) -> Sequence[Path]: ...

    @property
    def players(self) -> pd.DataFrame: ...


def counted_statuses(players: pd.DataFrame, statuses: Sequence[str]) -> dict[str, int]:
    """How many players have each of ``statuses``, in their order (0 for none)."""
    counts = players["status"].value_counts()
    return {status: int(counts.get(status, 0)) for status in statuses}


def summary_text(
    rated: _Summed, under: str, counts: dict[str, int], counted: int, paired: int
) -> str:
    """The one-screen summary printed at the end of ``rate``, under any system."""
    lines = [
        f"rated {len(rated.events)} event(s) as one period under {under}",
        f"players: {len(rated.players)} ({', '.join(f'{v} {k}' for k, v in counts.items())})",
        f"counted games: {counted} of {paired} paired rows",
    ]
    if rated.warnings:
        lines.append(f"warnings: {len(rated.warnings)} (printed below and in the Summary sheet)")
    lines.extend(f"wrote {path}" for path in rated.outputs)
    return "\n".join(lines)


def closing_rows(notes: Sequence[str], warnings: Sequence[Issue]) -> list[Sequence[object]]:
    """The Summary sheet's last rows, under any system: the notes, then the warnings."""
    rows: list[Sequence[object]] = [[], ["Notes"], *(["", note] for note in notes)]
    rows += [[], ["Warnings"], *(["", str(issue)] for issue in warnings)]
    if not warnings:
        rows.append(["", "none"])
    return rows


@dataclass
class KindOutcome:
    kind: str
    rules: Rules
    result: PeriodResult
    state: pd.DataFrame
    pending: pd.DataFrame
    listing: pd.DataFrame
    pooled: pd.DataFrame | None
    """The earlier periods' games still in the pools (for ``calculations``)."""
    events: pd.DataFrame
    notes: list[str]
    changes: pd.DataFrame
    """Against the previous list (``changes.list_changes``)."""
    warnings: list[Issue]
    """What the period's files say that disagrees, printed on the terminal too."""
    previous: Period | None
    """The list the new one follows (None: no earlier list of this kind)."""
    entrants: pd.DataFrame
    """Every event's players as its file lists them (``pages.ENTRANT_COLUMNS``)."""
    period: Period

    @functools.cached_property
    def calculations(self) -> pd.DataFrame:
        """Every counted game and first-rating pool explained (``individual_calculations``):
        made when first asked for, by the files that show them (a dry run never does)."""
        return individual_calculations(self.result, self.rules, self.pooled, self.period)
