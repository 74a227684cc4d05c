"""A system whose players carry a state (a ``StateSystem``: Glicko, TrueSkill, …) as a
``RatingSystem``: ``rate`` by ``rate.rate_with_system``, the database's commands by
``database.StateDatabase``."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pandas as pd

from rating_batch.assemble import choose_kind, list_identities
from rating_batch.errors import Issue
from rating_batch.loaders.statelist import is_state_list
from rating_batch.pipelines.outputs import write_system_outputs
from rating_batch.pipelines.rated import SystemRateResult
from rating_batch.pipelines.seam import RateRequest, RuleBook
from rating_batch.pipelines.state.database import StateDatabase
from rating_batch.pipelines.state.rate import rate_with_system
from rating_batch.pipelines.state.states import read_system_list
from rating_batch.schema import NationalId
from rating_batch.systems.base import StateSystem
from rating_batch.systems.elo.rules import LATEST
from rating_batch.systems.elo.rules_file import named_rules
from rating_batch.systems.params import described
from rating_batch.terminal import TERMINAL_WIDTH
from rating_batch.validation import LOWEST_RATING, overlap_issues


class StatePipeline:
    """A ``StateSystem`` as a ``RatingSystem``: rated from its own list (``id`` and its state
    columns), written as players.csv, games.csv, calculations.csv, report.xlsx and a page."""

    takes_elo_list = False
    compares_in_detail = False

    def __init__(self, system: StateSystem) -> None:
        self.system = system
        self.database = StateDatabase(system)
        """Its part in the database's commands."""
        self.name: str = system.name
        self.title: str = system.title
        self.lower_is_better: bool = system.lower_is_better
        self.national_id: NationalId | None = system.national_id

    def rule_book(self, name: str, text: str | None) -> RuleBook:
        """FIDE's current monthly lists (the latest edition's periods and kinds), or the
        system's own calendar (``StateSystem.calendar``: the ECF grade's seasons)."""
        # Named after the system, so that what is said of its periods ("not a list month
        # under ecf-grade") names the rules the officer chose, not the Elo edition beneath.
        calendar = dataclasses.replace(named_rules(LATEST), **self.system.calendar)
        return RuleBook(name, dataclasses.replace(calendar, edition=self.system.name))

    def kinds_of(self, minutes: float | None) -> tuple[str, ...] | None:
        return self.system.kinds_of(minutes)

    def lowest_rating(self) -> int:
        """FIDE's lowest rating: the files' Elo ratings are judged as under FIDE Elo."""
        return LOWEST_RATING

    def is_own_list(self, path: Path) -> bool:
        return is_state_list(path, self.system.state, self.system.optional, self.system.alone)

    def list_issues(self, path: Path, encoding: str | None) -> list[Issue]:
        system = self.system
        read_system_list(system, path, encoding)  # fmt: skip
        return []

    def list_rows(self, path: Path, encoding: str | None) -> pd.DataFrame:
        listed = read_system_list(self.system, path, encoding)
        return list_identities(listed.reset_index(drop=True))

    def describe(self) -> list[str]:
        system = self.system
        lines = [f"system  {system.name}: {system.title}  (docs/systems.md)"]
        constants = described(system.params)
        width = max(len(key) for key, _, _ in constants)
        for key, value, meaning in constants:
            origin = system.sources.get(key, f"{system.name} default")
            line = f"{key:{width}}  {value}  [{origin}]"
            # What it is, on the line when it fits, else below it.
            if len(line) + len(meaning) + 4 <= TERMINAL_WIDTH:
                lines.append(f"{line}  ({meaning})")
            else:
                lines.append(f"{line}\n{'':{width}}  ({meaning})")
        return lines

    def rate_events(self, request: RateRequest) -> SystemRateResult:
        r = request
        # One list kind at a time, as under Elo: mixed kinds are refused unless --kind.
        chosen, kind_notes = choose_kind(r.events, r.kind, self.system)
        overlaps = overlap_issues(r.events, r.allow_overlap)
        rated = rate_with_system(
            r.events, r.issues, self.system, r.list_path, overlaps, r.encoding, chosen
        )
        rated.notes[:0] = kind_notes
        if r.out is not None:
            rated.outputs = write_system_outputs(rated, r.out)
        return rated
