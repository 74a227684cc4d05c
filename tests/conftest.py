"""Shared fixtures: corpus paths and a helper that rates TRF text written in a test."""

from __future__ import annotations

import csv
import dataclasses
import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

sys.path.insert(0, str(Path(__file__).parent))

from budget import long_tests

from rating_batch.pipelines.rated import RateResult
from rating_batch.rate import rate_events

DATA = Path(__file__).parent / "data"
TRF_CORPUS = sorted((DATA / "trf").glob("*.trf"))

RateTexts = Callable[..., RateResult]


@pytest.fixture
def rate_texts(tmp_path: Path) -> RateTexts:
    """Write each TRF text to a file and rate them all as one period (no output files)."""

    def run(
        *texts: str, rules: str = "fide-2025", list_csv: str | None = None, kind: str | None = None
    ) -> RateResult:
        paths = []
        for index, text in enumerate(texts, start=1):
            path = tmp_path / f"event{index}.trf"
            path.write_text(text, encoding="utf-8")
            paths.append(path)
        list_path = None
        if list_csv is not None:
            list_path = tmp_path / "list.csv"
            list_path.write_text(list_csv, encoding="utf-8")
        return rate_events(paths, rules_name=rules, list_path=list_path, kind=kind)

    return run


def read_csv(path: Path) -> list[dict[str, str]]:
    """Rows of a CSV file we wrote (UTF-8 with BOM), as text."""
    with path.open(encoding="utf-8-sig", newline="") as handle:
        return list(csv.DictReader(handle))


def player(result: RateResult, fide_id: int) -> pd.Series:
    """The players.csv row of one FIDE ID."""
    rows = result.players[result.players["fide_id"] == fide_id]
    assert len(rows) == 1, f"expected one row for {fide_id}, found {len(rows)}"
    return rows.iloc[0]


@pytest.hookimpl(tryfirst=True)  # before ``-m`` deselects by mark
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark ``long`` the tests named in long_tests.txt (all the parameters of a function)."""
    long = long_tests()
    for item in items:
        if item.nodeid.split("[")[0] in long:
            item.add_marker(pytest.mark.long)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--update-golden",
        action="store_true",
        help="Rewrite tests/golden from the current outputs (then review the diff and commit).",
    )


def glicko2_giving(
    monkeypatch: pytest.MonkeyPatch, **spoil: Callable[[np.ndarray], np.ndarray]
) -> None:
    """Glicko-2's calculation made to give ``spoil[field](computed)`` for each field named
    (``Glicko2Period``): a period beyond what can be computed, which no constant within its
    range is known to reach."""
    from rating_batch.systems import glicko2

    real = glicko2.rate_glicko2

    def spoilt(*args: object) -> glicko2.Glicko2Period:
        done = real(*args)  # type: ignore[arg-type]  # a spy forwards what it was given
        changed = {name: change(getattr(done, name)) for name, change in spoil.items()}
        return dataclasses.replace(done, **changed)

    monkeypatch.setattr(glicko2, "rate_glicko2", spoilt)
