"""What a rated period is (``rate`` under FIDE Elo): the engine's frames with the events,
the rules each was rated under, and the notes and warnings the officer reads."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from rating_batch.errors import (
    Issue,
)
from rating_batch.schema import Event
from rating_batch.systems.base import LISTED
from rating_batch.systems.elo.engine import STATUSES, PeriodResult
from rating_batch.systems.elo.rules import Rules
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
