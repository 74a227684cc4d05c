"""The commands without a database: ``rate_events`` rates event files as one period
(``rating-batch rate``) under the system ``--rules`` names (``pipelines.find_system``: FIDE Elo
or another); ``check_files`` validates files without writing anything (``rating-batch
check``)."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from pathlib import Path

import pandas as pd

from rating_batch.assemble import period_people
from rating_batch.errors import (
    InputError,
    Issue,
    errors_only,
    ordered_issues,
)
from rating_batch.identity import find_rows, id_form_issues
from rating_batch.inputs import (
    Inputs,
    expand_inputs,
    file_of,
    is_list_file,
    keep_out_apart,
    load_events,
    read_and_validate,
)
from rating_batch.loaders import (
    Progress,
    no_progress,
)
from rating_batch.pipelines import find_system
from rating_batch.pipelines.seam import Rated, RateRequest
from rating_batch.schema import Event
from rating_batch.systems.elo.rules import FIDE_BY_DATE

log = logging.getLogger(__name__)


def rate_events(
    inputs: Sequence[Path],
    *,
    rules_name: str = FIDE_BY_DATE,
    list_path: Path | None = None,
    kind: str | None = None,
    out: Path | None = None,
    progress: Progress = no_progress,
    allow_overlap: bool = False,
    encoding: str | None = None,
    pages: bool | None = None,
) -> Rated:
    """Rate event files as one period; write players.csv, games.csv and report.xlsx to ``out``.
    A ``rules_name`` naming another rating system (docs/systems.md) rates them under it;
    ``encoding`` is that of the files (events and list) that are not UTF-8; ``pages``
    whether to write a page per event (None: for a small run, ``outputs.pages_by_default``).

    Two files sharing half or more of their played games (the same results reported twice)
    are refused unless ``allow_overlap``.

    Example::

        result = rate_events([Path("sample_data/events")], out=Path("out"))
        print(result.players[["name", "rating", "new_rating"]])
    """
    if out is not None:
        keep_out_apart(out, inputs, list_path)
    system = find_system(rules_name)
    events, issues = load_events(
        expand_inputs(inputs, beside=list_path),
        progress,
        lowest_rating=system.lowest_rating(),
        encoding=encoding,
    )
    return system.rate_events(
        RateRequest(events, issues, list_path, kind, allow_overlap, encoding, out, pages)
    )


def _identity_issues(events: Sequence[Event], known: pd.DataFrame) -> list[Issue]:
    """The events' players found in a list as ``rate --list`` finds them
    (``identity.find_rows``): a player two rows match (an error), a near match (a warning)."""
    people = period_people(events).reset_index(names="public_id")
    _, errors, warnings = find_rows(people, known, "the list")
    return errors + warnings


def check_files(
    paths: Sequence[Path], rules_name: str | None = None, encoding: str | None = None
) -> list[Issue]:
    """Every problem of every file (tournament files and rating lists), as ``add`` (and
    ``init`` for lists) would find it; writes nothing. Errors first, then warnings, each
    file's in line order. With ``rules_name`` naming another rating system, a CSV with
    ``id`` and that system's state columns is checked as its list (docs/formats.md §11);
    ``encoding`` is that of the files that are not UTF-8."""
    inputs = expand_inputs(paths, wanted="an event or a rating list")
    files = inputs.files
    if not files:
        none = Issue("check", None, "no files given (or none in the folders given)")
        return ordered_issues([*inputs.issues, *([] if errors_only(inputs.issues) else [none])])
    system = find_system(rules_name or FIDE_BY_DATE)
    # A rules file's every problem first (exit 1); its rating_min judges the events' ratings.
    lowest = system.lowest_rating()
    # A file named is a list by its shape, any list, under another system too; one found in
    # a folder of events is read as an event, and refused as add would (docs/formats.md §12).
    lists = [
        path not in inputs.found and (is_list_file(path) or system.is_own_list(path))
        for path in files
    ]
    events = [path for path, is_list in zip(files, lists, strict=True) if not is_list]
    loaded, issues = read_and_validate(
        Inputs(events, inputs.found, inputs.issues),
        "check",
        lowest_rating=lowest,
        encoding=encoding,
    )
    if loaded:  # a national id the system would not write finds nobody (§11.1)
        issues += id_form_issues(period_people(loaded), system.national_id)
    for path in (path for path, is_list in zip(files, lists, strict=True) if is_list):
        try:
            issues.extend(system.list_issues(path, encoding))
            if loaded:  # who is who, as rate --list finds the events' players in it
                issues.extend(_identity_issues(loaded, system.list_rows(path, encoding)))
        except InputError as error:
            issues.extend(error.issues)
    # Files in the order given (a sheet's issues are its workbook's).
    given = {str(path): number for number, path in enumerate(files)}
    issues.sort(key=lambda issue: given.get(file_of(issue), -1))
    return ordered_issues(issues)
