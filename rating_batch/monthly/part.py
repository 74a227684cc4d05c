"""What a rating system does in the database's commands (``RatingSystem.database``): make a
database from a list (``init``), rate a period's list kinds and keep them (``publish``),
write a list again (``export-list``) and explain a player (``player``). The commands own
everything else: the order of periods, the locks and transactions, the staged files and the
copies kept of them. FIDE Elo's part is ``pipelines/elo/database.py``, every other system's
``pipelines/state/database.py``."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import pandas as pd

from rating_batch.loaders import Progress
from rating_batch.monthly.common import Outcome, RuleBook
from rating_batch.periods import INITIAL, Period
from rating_batch.pipelines.published import Keeping
from rating_batch.staging import OutputSet
from rating_batch.store import Store


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


class Publisher(Protocol):
    """One publish of one period: each list kind rated (``rate``), its files written
    (``write``), the new states kept (``keep``), and what to print (``result``)."""

    def rate(self, store: Store, period: Period, kind: str) -> None: ...

    def write(
        self, period: Period, out: Path, outputs: OutputSet, progress: Progress,
        keeping: Keeping,
    ) -> list[Path]: ...  # fmt: skip

    def keep(self, store: Store, period: Period) -> None: ...

    def result(self, period: Period, paths: list[Path], *, dry_run: bool) -> PublishResult: ...


class DatabasePart(Protocol):
    """A rating system's part in the database's commands."""

    def init(self, request: InitRequest) -> Outcome:
        """A new database at ``request.db`` from the list, all or nothing."""
        ...

    def publisher(self, book: RuleBook) -> Publisher: ...

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
