"""What a rated period is (``rate``, ``publish``): one ``RatedPeriod`` under every system, with
the notes and warnings the officer reads, its list, its statuses counted and summed up alike;
its content under FIDE Elo the engine's frames with the events and the rules each was rated
under (``RateResult``), under another system its outcome (``SystemRateResult``). A list
kind's outcome at publish under FIDE Elo (``KindOutcome``)."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

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


class RatedPeriod:
    """A rated period under any system, with the notes and warnings the officer reads: what
    both kinds of content (``RateResult``, ``SystemRateResult``) say alike, said once (the
    list it would publish, the statuses, the one-screen summary, the Summary sheet); each
    gives its own facts through the hooks below."""

    events: Sequence[object]
    notes: list[str]
    warnings: list[Issue]
    outputs: list[Path]
    output_notes: Sequence[str] = ()
    """What the outputs written leave out and where it is: printed after them."""

    @property
    def players(self) -> pd.DataFrame:
        """players.csv: every player of the period with a ``status``."""
        raise NotImplementedError

    @property
    def published(self) -> str:
        """The players.csv column of the value the list publishes."""
        raise NotImplementedError

    @property
    def statuses(self) -> Sequence[str]:
        """A player's statuses, in the order the summaries count them."""
        raise NotImplementedError

    def listing(self) -> pd.DataFrame:
        """The list the period would publish: ``id``, ``name``, ``value``, ``listed``."""
        players = self.players
        return pd.DataFrame(
            {
                "id": players["id"],
                "name": players["name"],
                "value": players[self.published],
                "listed": players["status"].isin(list(LISTED)),
            }
        )

    def status_counts(self) -> dict[str, int]:
        """How many players have each status, in the statuses' order (0 for none)."""
        counts = self.players["status"].value_counts()
        return {status: int(counts.get(status, 0)) for status in self.statuses}

    def summary(self) -> str:
        """The one-screen summary printed at the end of ``rate``."""
        counted, paired = self._games_counted()
        lines = [
            f"rated {len(self.events)} event(s) as one period under {self._under()}",
            f"players: {len(self.players)} "
            f"({', '.join(f'{v} {k}' for k, v in self.status_counts().items())})",
            f"counted games: {counted} of {paired} paired rows",
        ]
        if self.warnings:
            lines.append(f"warnings: {len(self.warnings)} (printed below and in the Summary sheet)")
        lines.extend(f"wrote {path}" for path in self.outputs)
        lines.extend(self.output_notes)
        return "\n".join(lines)

    def summary_rows(self) -> list[Sequence[object]]:
        """Key-value rows of the Summary sheet: what rated it, the players by status, its
        own facts, the events, then the notes and the warnings."""
        rows: list[Sequence[object]] = [
            [f"Rating report: {self._title()}"],
            [],
            *self._rules_rows(),
            ["Players", len(self.players)],
            *([f"  {status}", count] for status, count in self.status_counts().items()),
            *self._more_rows(),
            [],
            ["Events"],
            *self._event_rows(),
            [],
            ["Notes"],
            *(["", note] for note in self._notes()),
            [],
            ["Warnings"],
            *(["", str(issue)] for issue in self.warnings),
        ]
        return rows if self.warnings else [*rows, ["", "none"]]

    # The hooks: each kind of content's own facts.
    def _games_counted(self) -> tuple[int, int]:
        """Player-games counted, and paired rows."""
        raise NotImplementedError

    def _under(self) -> str:
        raise NotImplementedError

    def _title(self) -> str:
        raise NotImplementedError

    def _rules_rows(self) -> list[Sequence[object]]:
        raise NotImplementedError

    def _more_rows(self) -> list[Sequence[object]]:
        return []

    def _event_rows(self) -> list[Sequence[object]]:
        raise NotImplementedError

    def _notes(self) -> list[str]:
        return self.notes


@dataclass
class RateResult(RatedPeriod):
    """A period rated under FIDE Elo: the engine's frames, the events and the rules each was
    rated under."""

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
    def published(self) -> str:
        return "new_rating"

    @property
    def statuses(self) -> Sequence[str]:
        return STATUSES

    @property
    def games(self) -> pd.DataFrame:
        return self.result.games

    @property
    def label(self) -> str:
        return self.rules.edition

    def heading(self) -> str:
        """What the rated period is, in a line (the top of every printed page)."""
        names = ", ".join(event.info.name for event in self.events[:3])
        more = f" and {len(self.events) - 3} more" if len(self.events) > 3 else ""
        return f"{names}{more} ({self._editions()})"

    def _editions(self) -> str:
        names = sorted({rules.edition for rules in self.event_rules.values()})
        return ", ".join(names) if names else self.rules.edition

    def _games_counted(self) -> tuple[int, int]:
        return int(self.games["counted"].sum()), int(self.games["opponent_id"].notna().sum())

    def _under(self) -> str:
        return self._editions()

    def _title(self) -> str:
        return self.heading()

    def _rules_rows(self) -> list[Sequence[object]]:
        return [["Rules", self.rules.label()], ["Rules source", self.rules.source]]

    def _more_rows(self) -> list[Sequence[object]]:
        return [["Counted games (player-games)", int(self.games["counted"].sum())]]

    def _event_rows(self) -> list[Sequence[object]]:
        # The file last: the widest column, printed beside the event's key on a page of its
        # own when the table is wider than a page.
        rows: list[Sequence[object]] = [
            ["event", "name", "start", "end", "rounds", "players", "format", "encoding",
             "edition", "file"]
        ]  # fmt: skip
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
        return rows

    def _notes(self) -> list[str]:
        # A report without its per-game sheets says where they are instead (output_notes).
        return [*self.notes, *(self.output_notes or detail_notes("Games", len(self.games)))]


@dataclass
class SystemRateResult(RatedPeriod):
    """A period rated under a system whose players carry a state: its outcome."""

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
    def statuses(self) -> Sequence[str]:
        return SYSTEM_STATUSES

    @property
    def label(self) -> str:
        return self.system.name

    @property
    def published(self) -> str:
        return self.system.published

    def _games_counted(self) -> tuple[int, int]:
        paired = self.games["oidx"].ge(0)
        return int((self.games["rated"] & paired).sum()), int(paired.sum())

    def _under(self) -> str:
        return self.system.title

    def _title(self) -> str:
        return self.system.title

    def _rules_rows(self) -> list[Sequence[object]]:
        return [["System", self.system.name]]

    def _more_rows(self) -> list[Sequence[object]]:
        return [
            [],
            ["Constants"],
            *(
                [key, f"{value}  ({meaning})"]
                for key, value, meaning in described(self.system.params)
            ),
        ]

    def _event_rows(self) -> list[Sequence[object]]:
        return [
            ["event", "name", "start", "end"],
            *(
                [info.key, info.name, str(info.start or ""), str(info.end or "")]
                for info in self.events
            ),
        ]


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
    previous_state: pd.DataFrame
    """Every player's state on the ``previous`` list, as the period was rated from it."""

    @functools.cached_property
    def calculations(self) -> pd.DataFrame:
        """Every counted game and first-rating pool explained (``individual_calculations``):
        made when first asked for, by the files that show them (a dry run never does)."""
        return individual_calculations(self.result, self.rules, self.pooled, self.period)
