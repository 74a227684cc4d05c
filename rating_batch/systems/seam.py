"""What every command asks of a rating system (``RatingSystem``), FIDE Elo
(``elo/system.EloSystem``) as much as any other (``state/system.StatePipeline``): its name,
whether lower is better, the list it reads, a rated period (``Rated``) from loaded events
(``RateRequest``), and its part in the database's commands (``monthly/part.DatabasePart``).
``registry.find_system`` gives one for every ``--rules`` value."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import pandas as pd

from rating_batch.errors import Issue
from rating_batch.monthly.common import RuleBook
from rating_batch.monthly.part import DatabasePart
from rating_batch.schema import Event, NationalId


@dataclass(frozen=True)
class RateRequest:
    """Loaded events to rate as one period (``rate``, ``compare-rules``): the files' warnings,
    the previous list (None: the files' ratings), the list kind (None: read from the time
    controls), whether events sharing their games are rated anyway, the encoding of the
    files that are not UTF-8, and where the files go (None: nowhere)."""

    events: list[Event]
    issues: list[Issue]
    list_path: Path | None = None
    kind: str | None = None
    allow_overlap: bool = False
    encoding: str | None = None
    out: Path | None = None


class Rated(Protocol):
    """A period rated under a system: what ``rate`` prints and ``compare-rules`` compares."""

    notes: list[str]
    warnings: list[Issue]
    outputs: list[Path]

    @property
    def players(self) -> pd.DataFrame:
        """players.csv: every player of the period with a ``status``."""
        ...

    @property
    def label(self) -> str:
        """What rated it, in a word: an edition's name, a system's."""
        ...

    def summary(self) -> str:
        """The one-screen summary printed at the end of ``rate``."""
        ...

    def listing(self) -> pd.DataFrame:
        """The list the period would publish: ``id``, ``name``, ``value`` (the published
        rating) and ``listed``."""
        ...


class RatingSystem(Protocol):
    """What every command asks of a rating system (``registry.find_system`` gives one for
    every ``--rules`` value, FIDE Elo's editions and rules files too)."""

    @property
    def name(self) -> str: ...

    @property
    def title(self) -> str: ...

    @property
    def lower_is_better(self) -> bool: ...

    @property
    def national_id(self) -> NationalId | None:
        """Its federation's own id of a player, when it has one (docs/formats.md §11.1)."""
        ...

    @property
    def takes_elo_list(self) -> bool:
        """Whether ``--list`` of ``compare-rules`` (a FIDE Elo list) is this system's."""
        ...

    @property
    def compares_in_detail(self) -> bool:
        """Whether two of its rule sets are compared player by player (``compare-rules``),
        rather than by the lists they would publish."""
        ...

    @property
    def database(self) -> DatabasePart:
        """Its part in the database's commands (``init``, ``publish``, ``export-list``,
        ``player``)."""
        ...

    def rule_book(self, name: str, text: str | None) -> RuleBook:
        """The rules of a database made under ``name`` (and a rules file's ``text``): its
        periods, list months and kinds, and under FIDE Elo its K, floor and first ratings."""
        ...

    def kinds_of(self, minutes: float | None) -> tuple[str, ...] | None:
        """The list kinds an event whose time control is ``minutes`` (main time +
        increment) is rated for, the first being the one it is filed under (``()``: not
        rated at all); None: the kind read as under FIDE Elo (docs/systems.md §9.1)."""
        ...

    def lowest_rating(self) -> int:
        """The lowest rating an event file may give (docs/rules.md §9)."""
        ...

    def is_own_list(self, path: Path) -> bool:
        """Whether a file is, by its shape, a list of this system (``check``)."""
        ...

    def list_issues(self, path: Path, encoding: str | None) -> list[Issue]:
        """Every problem of a list of this system (``check``); raises ``InputError`` when
        it cannot be read at all."""
        ...

    def list_rows(self, path: Path, encoding: str | None) -> pd.DataFrame:
        """A list of this system's rows as ``identity.find_rows`` knows them
        (``assemble.list_identities``): ``check`` finds the event players in it as ``rate
        --list`` does."""
        ...

    def describe(self) -> list[str]:
        """Each value it rates by, a line each with where it comes from and its meaning or
        range (``rules NAME``)."""
        ...

    def rate_events(self, request: RateRequest) -> Rated:
        """Loaded events rated as one period; its files written when asked, all or none."""
        ...
