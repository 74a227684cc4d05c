"""What ``rate`` and ``compare-rules`` rate with, behind one interface (``Rater``): FIDE Elo
(an edition, ``fide``, or a federation's Elo rules file: ``pipeline``) or another rating
system (docs/systems.md: ``system_rating``). ``find_rater`` is the only place that tells them
apart, by asking the systems' registry."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Protocol

import pandas as pd

from rating_batch.compare import LISTED
from rating_batch.errors import Issue
from rating_batch.pipeline import (
    RateResult,
    choose_kind,
    overlap_issues,
    rate_loaded,
    write_rate_outputs,
)
from rating_batch.schema import Event
from rating_batch.system_rating import SystemRateResult, rate_with_system, write_system_outputs
from rating_batch.systems import RatingSystem, find_system

Rated = RateResult | SystemRateResult


class Rater(Protocol):
    """Rates loaded events as one period and writes the outputs."""

    lower_is_better: bool
    takes_elo_list: bool
    """Whether ``--list`` (a FIDE Elo list) is this rater's previous list."""

    def rate(
        self,
        events: list[Event],
        issues: list[Issue],
        list_path: Path | None,
        kind: str | None,
        allow_overlap: bool,
        *,
        encoding: str | None = None,
    ) -> Rated: ...

    def write(self, rated: Rated, out: Path) -> list[Path]: ...

    def label(self, rated: Rated) -> str: ...

    def listing(self, rated: Rated) -> pd.DataFrame:
        """``id``, ``name``, ``value`` (the published rating), ``listed``."""
        ...


class EloRater:
    """FIDE Elo under a rules name (``pipeline.rate_loaded``)."""

    lower_is_better = False
    takes_elo_list = True

    def __init__(self, rules_name: str) -> None:
        self.rules_name = rules_name

    def rate(
        self,
        events: list[Event],
        issues: list[Issue],
        list_path: Path | None,
        kind: str | None,
        allow_overlap: bool,
        *,
        encoding: str | None = None,
    ) -> RateResult:
        return rate_loaded(
            events, issues, self.rules_name, list_path, kind, allow_overlap, encoding
        )

    def write(self, rated: Rated, out: Path) -> list[Path]:
        assert isinstance(rated, RateResult)
        return write_rate_outputs(rated, out)

    def label(self, rated: Rated) -> str:
        assert isinstance(rated, RateResult)
        return rated.rules.edition

    def listing(self, rated: Rated) -> pd.DataFrame:
        return _listing(rated.players, "new_rating")


class SystemRater:
    """Another rating system (``system_rating.rate_with_system``)."""

    takes_elo_list = False

    def __init__(self, system: RatingSystem) -> None:
        self.system = system
        self.lower_is_better = system.lower_is_better

    def rate(
        self,
        events: list[Event],
        issues: list[Issue],
        list_path: Path | None,
        kind: str | None,
        allow_overlap: bool,
        *,
        encoding: str | None = None,
    ) -> SystemRateResult:
        # One list kind at a time, as under Elo: mixed kinds are refused unless --kind.
        _, kind_notes = choose_kind(events, kind)
        overlaps = overlap_issues(events, allow_overlap)
        rated = rate_with_system(events, issues, self.system, list_path, overlaps, encoding)
        rated.notes[:0] = kind_notes
        return rated

    def write(self, rated: Rated, out: Path) -> list[Path]:
        assert isinstance(rated, SystemRateResult)
        return write_system_outputs(rated, out)

    def label(self, rated: Rated) -> str:
        return self.system.name

    def listing(self, rated: Rated) -> pd.DataFrame:
        return _listing(rated.players, self.system.published)


def _listing(players: pd.DataFrame, value: str) -> pd.DataFrame:
    """The list a rated period would publish: each player's ``value`` and whether listed."""
    return pd.DataFrame(
        {
            "id": players["id"],
            "name": players["name"],
            "value": players[value],
            "listed": players["status"].isin(list(LISTED)),
        }
    )


def find_rater(rules: str) -> Rater:
    """The rater ``--rules`` names: another system from the registry, else FIDE Elo."""
    system = find_system(rules)
    return SystemRater(system) if system is not None else EloRater(rules)


__all__: Sequence[str] = ["EloRater", "Rater", "SystemRater", "find_rater"]
