"""FIDE Elo as a ``RatingSystem`` (``pipelines/seam.py``): an edition of FIDE's regulations, the
edition in force at each event's start (``fide``), or a federation's rules file, rated by
``run.rate_loaded`` and written by ``outputs.write_rate_outputs``."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from rating_batch.assemble import list_identities
from rating_batch.errors import Issue
from rating_batch.inputs import is_list_file
from rating_batch.loaders import read_rating_list
from rating_batch.pipelines.elo.database import EloDatabase
from rating_batch.pipelines.elo.run import rate_loaded
from rating_batch.pipelines.outputs import write_rate_outputs
from rating_batch.pipelines.rated import RateResult
from rating_batch.pipelines.seam import RateRequest, RuleBook
from rating_batch.schema import NationalId
from rating_batch.systems.elo.rules import FIDE_BY_DATE, LATEST, Rules
from rating_batch.systems.elo.rules_file import describe, named_rules, parse_rules_text
from rating_batch.systems.homes import ELO


class EloSystem:
    """FIDE Elo under ``rules_name``: an edition's name, ``fide`` or a rules file."""

    name = ELO
    title = "FIDE Elo"
    lower_is_better = False
    national_id: NationalId | None = None  # FIDE's own id is the FIDE ID
    takes_elo_list = True
    compares_in_detail = True

    def __init__(self, rules_name: str = FIDE_BY_DATE) -> None:
        self.rules_name = rules_name
        self.database = EloDatabase()
        """Its part in the database's commands."""

    def rule_book(self, name: str, text: str | None) -> RuleBook:
        """FIDE's editions by date (``fide``), or one fixed rule set: an edition, or a
        federation's rules file (its text as kept in the database)."""
        if name == FIDE_BY_DATE:
            return RuleBook(name, None)
        if text is not None:
            return RuleBook(name, parse_rules_text(text, Path(name)))
        return RuleBook(name, named_rules(name))

    def kinds_of(self, minutes: float | None) -> tuple[str, ...] | None:
        return None  # the kind read from the time control (docs/rules.md §6)

    def lowest_rating(self) -> int:
        """A rules file's ``rating_min``, else FIDE's."""
        return named_rules(
            LATEST if self.rules_name == FIDE_BY_DATE else self.rules_name
        ).rating_min

    def _rules(self) -> Rules:
        """The rules named (``fide``: the latest edition's, for what does not depend on a
        date)."""
        return named_rules(LATEST if self.rules_name == FIDE_BY_DATE else self.rules_name)

    def is_own_list(self, path: Path) -> bool:
        return is_list_file(path)

    def list_issues(self, path: Path, encoding: str | None) -> list[Issue]:
        return read_rating_list(path, encoding=encoding).issues

    def list_rows(self, path: Path, encoding: str | None) -> pd.DataFrame:
        return list_identities(read_rating_list(path, encoding=encoding).frame)

    def describe(self) -> list[str]:
        rows = describe(self._rules())
        width = max(len(key) for key, _, _, _ in rows)
        return [
            f"{key:{width}}  {value}  [{origin}]" + (f"  (valid: {valid})" if valid else "")
            for key, value, origin, valid in rows
        ]

    def rate_events(self, request: RateRequest) -> RateResult:
        r = request
        rated = rate_loaded(
            r.events, r.issues, self.rules_name, r.list_path, r.kind, r.allow_overlap, r.encoding
        )
        if r.out is not None:
            rated.outputs = write_rate_outputs(rated, r.out, r.pages)
        return rated
