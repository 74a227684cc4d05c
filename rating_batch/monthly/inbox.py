"""``month``'s inbox (docs/schedule.md §4): its folders read with their subfolders, its files
added as ``add --new-only`` adds them but for the refused ones, and each refused file told
with the list period it would be rated in, which it holds."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from rating_batch.errors import InputError, Issue, RatingBatchError, ordered_issues
from rating_batch.inputs import (
    Inputs,
    distinct_keys,
    expand_inputs,
    file_of,
    is_hidden,
    keep_out_apart,
)
from rating_batch.loaders import read_events
from rating_batch.monthly.add import NOTHING_NEW, Added, AddOptions, add_events, rated_period
from rating_batch.periods import Period
from rating_batch.pipelines.registry import rule_book
from rating_batch.store import open_store, places_of
from rating_batch.terminal import one_line


@dataclass(frozen=True)
class Refusal:
    """A file of the inbox that ``add`` refused."""

    path: str
    """The file as the inbox names it."""
    problems: list[str]
    """What ``add`` said of it, errors first."""
    period: Period | None = None
    """The list it would be rated in (``add``'s rule: its end date's period, or the next
    list when that one is published); None when that cannot be told (a file that is no
    tournament file, without dates, or with dates refused as a typo): it may be of any."""

    def line(self) -> str:
        """One line: the file and its first problem (the log has them all)."""
        more = len(self.problems) - 1
        tail = f" (and {more} more: see the log)" if more > 0 else ""
        return f"refused {one_line(self.path)}: {self.problems[0]}{tail}"

    def text(self) -> str:
        """Every problem, one line each (the others indented under the first), for the log."""
        more = (f"  {problem}" for problem in self.problems[1:])
        return "\n".join([f"refused {one_line(self.path)}: {self.problems[0]}", *more])


@dataclass
class InboxAdd:
    """What the add of an inbox did, and the files it refused."""

    added: Added = field(default_factory=Added)
    refused: list[Refusal] = field(default_factory=list)
    failure: str | None = None
    """Why the add failed as a whole (no file to blame: nothing was added)."""


def inbox_inputs(inbox: Sequence[Path], *, db: Path, out: Path) -> Inputs:
    """The files of ``inbox``: its folders and their subfolders (a club's folder each, or
    ``inbox/2026-04/``), each read as ``add`` reads a folder, but for hidden folders and the
    database's own (its stored files, backups and the desk's uploads, should it lie in the
    inbox). An ``--out`` in the inbox is refused (its lists would be read back as events)."""
    keep_out_apart(out, inbox)
    places = places_of(db)
    aside = {
        folder.resolve()
        for folder in (places.files, places.backups, db.with_name(f"{db.name}.inbox"))
    }
    seen: set[Path] = set()
    given: list[Path] = []
    for path in inbox:
        given += _with_subfolders(path, aside, seen) if path.is_dir() else [path]
    return expand_inputs(given)


def _with_subfolders(folder: Path, aside: set[Path], seen: set[Path]) -> list[Path]:
    """``folder`` and every folder below it, sorted by name (each once: a link back up is
    not followed again)."""
    real = folder.resolve()
    if real in seen or real in aside:
        return []
    seen.add(real)
    folders = [folder]
    for member in sorted(p for p in folder.iterdir() if p.is_dir() and not is_hidden(p)):
        folders += _with_subfolders(member, aside, seen)
    return folders


def add_inbox(inputs: Inputs, *, db: Path, options: AddOptions) -> InboxAdd:
    """Add every file of ``inputs`` that ``add --new-only`` would add, in one add, leaving out
    each file it refuses: an add that fails names the files it refused; the others are added
    again without them, until one goes in (each try rolls back whole)."""
    named: dict[str, list[Issue]] = {}
    for issue in inputs.issues:  # an output named as an event: an error of its own
        if issue.severity == "error":
            named.setdefault(file_of(issue), []).append(issue)
    order = [str(path) for path in inputs.files]
    inputs = dataclasses.replace(
        inputs, issues=[issue for issue in inputs.issues if issue.severity != "error"]
    )
    done = InboxAdd()
    while True:
        try:
            done.added = add_events(inputs, db=db, options=options)
            break
        except InputError as error:
            refused = _by_file(error.issues, inputs.files)
            if not refused:
                done.failure = str(error)
                break
            named.update(refused)
            inputs = dataclasses.replace(
                inputs, files=[path for path in inputs.files if str(path) not in refused]
            )
        except RatingBatchError as error:
            done.failure = str(error)
            break
    done.added.lines = [line for line in done.added.lines if line != NOTHING_NEW]
    in_order = sorted(named, key=lambda name: order.index(name) if name in order else -1)
    done.refused = _placed({name: named[name] for name in in_order}, db=db, options=options)
    return done


def _by_file(issues: Sequence[Issue], files: Sequence[Path]) -> dict[str, list[Issue]]:
    """The issues of each file that an error names, when every error names one of ``files``
    (else none: the add failed for another reason)."""
    names = {str(path) for path in files}
    failed = {file_of(issue) for issue in issues if issue.severity == "error"}
    if not failed or not failed <= names:
        return {}
    return {
        name: ordered_issues(issue for issue in issues if file_of(issue) == name)
        for name in sorted(failed, key=[str(path) for path in files].index)
    }


def _placed(named: dict[str, list[Issue]], *, db: Path, options: AddOptions) -> list[Refusal]:
    """Each refused file with the list period it would be rated in, when its dates can be
    read (as ``add`` reads it: a file whose results are wrong still has its dates)."""
    if not named:
        return []
    refusals = []
    with open_store(db, command="month", wait=options.wait) as store:
        book = rule_book(store)
        for name, issues in named.items():
            path = Path(name)
            [read] = read_events([path], distinct_keys([path.stem]), encoding=options.encoding)
            period = None
            if not isinstance(read, InputError):
                period = rated_period(store, book, read, options)
            problems = [str(issue) for issue in issues]
            refusals.append(Refusal(name, problems, period))
    return refusals
