"""What every command asks of a rating system, in one file: ``RatingSystem`` (its name, whether
lower is better, the list it reads, a rated period (``Rated``) from loaded events
(``RateRequest``)) and its part in the database's commands (``DatabasePart``: make a database
from a list (``init``), rate a period's list kinds and keep them (``publish``), write a list
again (``export-list``) and explain a player (``player``)); the rules of a database
(``RuleBook``) and what a command did (``Outcome``). The commands own everything else: the
order of periods, the locks and transactions, the staged files and the copies kept of them.
FIDE Elo's implementation is ``elo/`` (``elo/system.EloSystem``), every other system's
``state/`` (``state/system.StatePipeline``); ``registry.find_system`` gives one for every
``--rules`` value."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Generic, Protocol, TypeVar

import pandas as pd

from rating_batch.errors import Issue
from rating_batch.loaders import Progress
from rating_batch.periods import INITIAL, Period, list_date
from rating_batch.pipelines.published import Keeping
from rating_batch.schema import Event, NationalId
from rating_batch.staging import OutputSet
from rating_batch.store import Store
from rating_batch.systems.elo.rules import Rules, edition_in_force


@dataclass(frozen=True)
class RuleBook:
    """The rules of a database: FIDE's editions by date, or one fixed rule set; under
    another rating system, the latest edition's (its periods are FIDE's current monthly
    lists)."""

    name: str
    fixed: Rules | None

    def for_date(self, on: dt.date | None) -> Rules:
        return self.fixed or edition_in_force(on)

    def for_period(self, period: Period) -> Rules:
        """The rules deciding K, floor and first ratings: in force at the period's list."""
        return self.fixed or edition_in_force(None if period == INITIAL else list_date(period))


@dataclass
class Outcome:
    """What a command did (lines for the terminal) and the warnings it found. The CLI prints
    the lines, then the warnings (all of them with -v, the first ``SHOWN_WARNINGS`` by
    default, none with --quiet)."""

    lines: list[str] = field(default_factory=list)
    warnings: list[Issue] = field(default_factory=list)
    outputs: list[Path] = field(default_factory=list)

    def summary(self) -> str:
        lines = [line for line in self.lines if line]
        return "\n".join([*lines, *(f"wrote {path}" for path in self.outputs)])


@dataclass(frozen=True)
class InitRequest:
    """``init``: the list, the new database, the list kind (None: every kind the list has,
    or the system's one), the list's period (None: the list's own month, else before every
    event), the rules as named, the rules file's text and the book they make, whether an
    Elo list seeds another system's states (``--from-elo``), and the list's encoding when
    it is not UTF-8."""

    list_path: Path
    db: Path
    kind: str | None
    period: Period | None
    rules_name: str
    rules_text: str | None
    book: RuleBook
    from_elo: bool = False
    encoding: str | None = None


@dataclass
class PublishResult(Outcome):
    period: Period = INITIAL
    outcomes: Sequence[object] = field(default_factory=list)
    """Each list kind's rated period, as the system made it."""
    changes: dict[str, pd.DataFrame] = field(default_factory=dict)
    """Each list kind's changes against its previous list, as ``changes.csv`` has them
    (``changes.CHANGE_COLUMNS``), where the system reports them."""


class KindResult(Protocol):
    """One list kind of a period as a system rated it at publish: what every system's says
    alike (the previous list, the warnings, the changes where the system reports them)."""

    @property
    def kind(self) -> str: ...

    @property
    def previous(self) -> Period | None: ...

    @property
    def warnings(self) -> list[Issue]: ...

    @property
    def changes(self) -> pd.DataFrame | None: ...


R = TypeVar("R", bound=KindResult)


class KindLists(Protocol[R]):
    """What a system does for each list kind of a period at publish: rate it from the
    previous list (``rate``), write the kinds' files (``write``), keep its new states
    (``keep``) and say what it did (``lines``)."""

    def rate(self, store: Store, period: Period, kind: str) -> R: ...

    def write(
        self, outcomes: list[R], period: Period, out: Path, outputs: OutputSet,
        progress: Progress, keeping: Keeping,
    ) -> list[Path]: ...  # fmt: skip

    def keep(self, store: Store, period: Period, outcome: R) -> None: ...

    def lines(self, outcome: R) -> list[str]: ...


@dataclass
class Publisher(Generic[R]):
    """One publish of one period under any system: each list kind rated (``rate``), its
    files written (``write``), the new states kept (``keep``), and what to print
    (``result``); the system's part is ``lists``."""

    lists: KindLists[R]
    outcomes: list[R] = field(default_factory=list)

    def rate(self, store: Store, period: Period, kind: str) -> None:
        self.outcomes.append(self.lists.rate(store, period, kind))

    def write(
        self, period: Period, out: Path, outputs: OutputSet, progress: Progress,
        keeping: Keeping,
    ) -> list[Path]:  # fmt: skip
        return self.lists.write(self.outcomes, period, out, outputs, progress, keeping)

    def keep(self, store: Store, period: Period) -> None:
        for outcome in self.outcomes:
            self.lists.keep(store, period, outcome)

    def result(self, period: Period, paths: list[Path], *, dry_run: bool) -> PublishResult:
        """What publish prints: the period, each kind's lines, the kinds' warnings."""
        lines = [f"{'would publish' if dry_run else 'published'} {period}"]
        for outcome in self.outcomes:
            lines += self.lists.lines(outcome)
        if dry_run:
            lines.append("dry run: nothing was changed or written")
        warnings = [issue for outcome in self.outcomes for issue in outcome.warnings]
        changes = {o.kind: o.changes for o in self.outcomes if o.changes is not None}
        return PublishResult(
            lines, warnings, paths, period=period, outcomes=self.outcomes, changes=changes
        )


class DatabasePart(Protocol):
    """A rating system's part in the database's commands."""

    def init(self, request: InitRequest) -> Outcome:
        """A new database at ``request.db`` from the list, all or nothing."""
        ...

    def publisher(self, book: RuleBook) -> Publisher[Any]: ...

    def also_rated(self, events: pd.DataFrame) -> set[str]:
        """The list kinds the system rates stored ``events`` for beyond the one each is
        filed under (US Chess's dual rating, docs/systems.md §9.1)."""
        ...

    def export(
        self, store: Store, book: RuleBook, period: Period, kinds: list[str],
        stored: dict[str, bytes], out: Path,
    ) -> list[Path]:  # fmt: skip
        """The list of ``period`` of each kind written again under ``out`` (``stored``: the
        files publish kept, by ``KIND/NAME``), staged: all or none."""
        ...

    def explain(
        self, store: Store, book: RuleBook, person: dict[str, Any], label: str, out: Path | None
    ) -> str:
        """A player's report as text (``label``: his public id); with ``out``, its workbook
        and page written under it as ``player-<id>``."""
        ...


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
    pages: bool | None = None
    """Whether FIDE Elo's event pages are written (None: by the run's size)."""


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
