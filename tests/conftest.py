"""Shared fixtures: corpus paths and a helper that rates TRF text written in a test."""

from __future__ import annotations

import csv
import dataclasses
import gc
import shutil
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


#: How much a test weighs in the order of the modules (``heaviest_first``): a ``slow`` one
#: (a real process killed, faulted or racing: 5–40 s each on the 2-core machine), a ``long``
#: one (0.6 s or more), any other (most take 0.01–0.3 s).
WEIGHT_SLOW, WEIGHT_LONG, WEIGHT_OTHER = 20.0, 3.0, 0.1


def heaviest_first(items: list[pytest.Item]) -> list[pytest.Item]:
    """The modules in the order of their weight, heaviest first, each module's tests together
    and in their own order (a module's fixtures are made once, as in file order): the workers
    of ``-n`` start on the longest and end on the short ones, so neither idles at the end
    waiting for the other's long test (docs/testing.md §6)."""
    weight: dict[str, float] = {}
    for item in items:
        if item.get_closest_marker("slow"):
            each = WEIGHT_SLOW
        else:
            each = WEIGHT_LONG if item.get_closest_marker("long") else WEIGHT_OTHER
        module = item.nodeid.split("::")[0]
        weight[module] = weight.get(module, 0.0) + each
    first = {module: index for index, module in enumerate(weight)}

    def order(item: pytest.Item) -> tuple[float, int]:
        module = item.nodeid.split("::")[0]
        return -weight[module], first[module]

    return sorted(items, key=order)


def keeps_a_fixture(item: pytest.Item) -> bool:
    """Whether the test uses a module- or session-scoped fixture of its own module (a
    database or a month made once for the module): all the tests of such a module run on one
    worker under ``--dist loadgroup``, so that the fixture is made once, not once a worker."""
    info = getattr(item, "_fixtureinfo", None)
    if info is None:
        return False
    module = item.nodeid.split("::")[0]
    return any(
        definition.scope != "function" and definition.baseid == module
        for definitions in info.name2fixturedefs.values()
        for definition in definitions
    )


@pytest.hookimpl(tryfirst=True)  # before ``-m`` deselects by mark, and before xdist reads
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark ``long`` the tests named in long_tests.txt (all the parameters of a function);
    group the modules that make a fixture once (``keeps_a_fixture``); order the modules
    heaviest first (``heaviest_first``)."""
    long = long_tests()
    grouped = {item.nodeid.split("::")[0] for item in items if keeps_a_fixture(item)}
    for item in items:
        if item.nodeid.split("[")[0] in long:
            item.add_marker(pytest.mark.long)
        module = item.nodeid.split("::")[0]
        if module in grouped:
            item.add_marker(pytest.mark.xdist_group(module))
    items[:] = heaviest_first(items)


def pytest_collection_finish(session: pytest.Session) -> None:
    """Everything made so far (the modules, the tests collected) kept out of the garbage
    collector's passes: they live as long as the run, and each full pass over them cost 4–6 %
    of the suite's processor time (docs/testing.md §6)."""
    gc.collect()
    gc.freeze()


@pytest.fixture(scope="session")
def made_once(tmp_path_factory: pytest.TempPathFactory) -> Callable[..., Path]:
    """``made_once(build, folder)``: the folder ``build(folder)`` makes (a database made by
    its commands, its events, its lists), made once in this process and copied into
    ``folder`` for each test (``shutil.copytree``: the database, its files and folders, byte
    for byte): each test starts from the same state and changes only its own copy. ``build``
    is keyed by its module and name, and writes only inside the folder it is given. A path
    the database records (an event's source file) is the path in the folder made once, not
    in the copy: a test that reads such a path builds its own folder."""
    made: dict[str, Path] = {}

    def copy(build: Callable[[Path], object], folder: Path) -> Path:
        key = f"{build.__module__}.{build.__qualname__}"
        if key not in made:
            where = tmp_path_factory.mktemp(build.__name__.strip("_") or "made")
            build(where)
            made[key] = where
        shutil.copytree(made[key], folder, symlinks=True, dirs_exist_ok=True)
        return folder

    return copy


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
