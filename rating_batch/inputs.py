"""The files a command reads: folders expanded into their event files, with the files
rating_batch wrote itself left aside (one note per folder), and ``--out`` kept apart from the
inputs (docs/formats.md §12).
"""

from __future__ import annotations

import hashlib
import os
import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from rating_batch.errors import (
    InputError,
    Issue,
    RatingBatchError,
    errors_only,
    raise_if_errors,
)
from rating_batch.loaders import (
    EVENT_READERS,
    Progress,
    is_rating_list,
    no_progress,
    read_events,
)
from rating_batch.loaders.kinds import list_given_as_event, output_given_as_input, own_output
from rating_batch.schema import CONTROL_CHARACTERS, Event, one_batch
from rating_batch.terminal import BIDI_CONTROLS
from rating_batch.validation import LOWEST_RATING, Purpose, validate_events


@dataclass(frozen=True)
class Inputs:
    """The files a command reads, and what was said of the files left aside."""

    files: list[Path]
    """In order: the files named, and each folder's event files sorted by name."""
    found: frozenset[Path] = frozenset()
    """The files of ``files`` found in a folder rather than named."""
    issues: list[Issue] = field(default_factory=list)
    """A note (a warning) per folder holding outputs of rating_batch, which are not read,
    and an error per output named as an input."""


def expand_inputs(
    inputs: Iterable[Path], *, beside: Path | None = None, wanted: str = "an event"
) -> Inputs:
    """Files as given; a folder becomes its supported event files, sorted by name, but for
    the hidden ones (``is_hidden``), the files rating_batch wrote (``kinds.own_output``:
    players.csv, games.csv, calculations.csv, changes.csv, compare.csv, report.xlsx,
    player-ID.xlsx) and the list given ``beside`` the events (``--list``). An output named as
    an input is an error (``wanted``: what the command takes there)."""
    apart = None if beside is None else beside.resolve()
    files: list[Path] = []
    found: set[Path] = set()
    issues: list[Issue] = []
    for path in inputs:
        if not path.is_dir():
            output = own_output(path)
            if output is None:
                files.append(path)
            else:
                issues.append(output_given_as_input(path, output, wanted=wanted))
            continue
        skipped: list[str] = []
        for member in sorted(  # by the name as it is: Windows' paths compare without case
            (
                p
                for p in path.iterdir()
                if p.is_file() and p.suffix.lower() in EVENT_READERS and not is_hidden(p)
            ),
            key=lambda p: p.name,
        ):
            if apart is not None and member.resolve() == apart:
                continue
            if own_output(member) is not None:
                skipped.append(member.name)
                continue
            files.append(member)
            found.add(member)
        if skipped:
            issues.append(
                Issue(
                    str(path),
                    None,
                    f"{len(skipped)} file(s) rating_batch wrote left aside, never read as "
                    f"events: {', '.join(skipped)}",
                    "warning",
                )
            )
    return Inputs(files, frozenset(found), issues)


def is_hidden(path: Path) -> bool:
    """A hidden file or folder (``.name``): never read from a folder, as the staging folders
    rating_batch writes and the ``._name`` copies macOS leaves on shared drives."""
    return path.name.startswith(".")


def keep_out_apart(out: Path, inputs: Sequence[Path], list_path: Path | None = None) -> None:
    """Refuse an ``--out`` that is an input folder or lies inside one, or that is the folder
    of an input file (an event, the list): the outputs would lie among the inputs, and the
    next reading of that folder would meet them. Nothing is written before this check."""
    target = out.resolve()
    for given in [*inputs, *([] if list_path is None else [list_path])]:
        real = given.resolve()
        if given.is_dir():
            if target == real:
                problem = f"is the input folder {given}"
            elif real in target.parents:
                problem = f"is inside the input folder {given}"
            else:
                continue
            folder = real
        elif target == real.parent:
            problem, folder = f"is the folder of the input {given}", real.parent
        else:
            continue
        raise RatingBatchError(
            f"--out {out} {problem}: the outputs would lie among the inputs; choose another "
            f"folder (e.g. --out {_shown(folder.parent / f'{folder.name}-out')})"
        )


def _shown(path: Path) -> str:
    """``path`` as the officer would type it: relative to the working folder when it is
    below the folder's parent, else absolute."""
    try:
        relative = os.path.relpath(path)
    except ValueError:  # another drive (Windows)
        return str(path)
    return relative if not relative.startswith(os.pardir + os.sep + os.pardir) else str(path)


def read_and_validate(
    inputs: Inputs,
    purpose: Purpose,
    progress: Progress = no_progress,
    *,
    accept_dates: bool = False,
    lowest_rating: int = LOWEST_RATING,
    encoding: str | None = None,
) -> tuple[list[Event], list[Issue]]:
    """Read every file and validate every event read (the one pass ``check``, ``rate`` and
    ``add`` share): the events, and every issue of every file, in the order given (what
    ``expand_inputs`` said first); ``lowest_rating`` is the rules' ``rating_min``,
    ``encoding`` that of files that are not UTF-8. A rating list given as an event, or found
    in a folder of events, is said to be one."""
    paths = inputs.files
    keys = distinct_keys([path.stem for path in paths])
    events: list[Event] = []
    issues: list[Issue] = []
    for item in read_events(paths, keys, progress, encoding):
        if isinstance(item, InputError):
            issues.extend(item.issues)
        else:
            events.append(item)
            issues.extend(item.issues)
    events = one_batch(events)
    readable = [e for e in events if not any(i.severity == "error" for i in e.issues)]
    issues.extend(
        validate_events(readable, purpose, accept_dates=accept_dates, lowest_rating=lowest_rating)
    )
    # A list read as an event fails, in the reader or in the checks (no game played): it is
    # then said to be a list, not what an event would lack.
    failed = {file_of(issue) for issue in errors_only(issues)}
    lists = {str(path): path for path in paths if str(path) in failed and is_list_file(path)}
    issues = [issue for issue in issues if file_of(issue) not in lists]
    issues += [list_given_as_event(path, in_folder=path in inputs.found) for path in lists.values()]
    return events, [*inputs.issues, *issues]


def file_of(issue: Issue) -> str:
    """The file an issue is of (a sheet's issues, ``book.xlsx[Sheet1]``, are its workbook's)."""
    return re.sub(r"\[[^\]]*\]$", "", issue.source)


def load_events(
    inputs: Inputs | Sequence[Path],
    progress: Progress = no_progress,
    *,
    purpose: Purpose = "rate",
    accept_dates: bool = False,
    lowest_rating: int = LOWEST_RATING,
    encoding: str | None = None,
) -> tuple[list[Event], list[Issue]]:
    """Load and validate every file, collecting every issue of every file before failing."""
    if not isinstance(inputs, Inputs):
        inputs = Inputs(list(inputs))
    if not inputs.files:
        command = "add" if purpose == "add" else "rate"
        none = Issue(command, None, "no event files given (or none in the folders given)")
        raise InputError([*inputs.issues, *([] if errors_only(inputs.issues) else [none])])
    events, issues = read_and_validate(
        inputs,
        purpose,
        progress,
        accept_dates=accept_dates,
        lowest_rating=lowest_rating,
        encoding=encoding,
    )
    raise_if_errors(issues)
    return events, issues


#: An event key (and so an event page's file name) is at most this long: longer file names are
#: shortened, with a hash of the whole name so that two long names stay apart.
MAX_KEY_LENGTH = 80


#: What a key never holds, whatever its file's name: control characters (schema's: C0, DEL,
#: C1, line and paragraph separators), which would reach the officer's terminal as escape
#: sequences or split a CSV record, and the bidi controls (U+061C, U+200E-F, U+202A-E,
#: U+2066-9), which would show a key in another order than it is typed.
_NOT_IN_KEYS = re.compile(rf"{CONTROL_CHARACTERS.pattern}|[{BIDI_CONTROLS}]")


def safe_key(name: str) -> str:
    """A file stem as an event key that prints as it is and that every file system can name a
    page after: in NFC (the two spellings of ``café`` are one key), every control or bidi
    character replaced by ``_``, at most ``MAX_KEY_LENGTH`` characters (and 160 bytes), else
    cut with an 8-character hash suffix, and not starting with ``-`` (``remove -rf`` would
    read it as an option). Keys are made again from keys, so ``safe_key`` of a key is itself."""
    name = _NOT_IN_KEYS.sub("_", unicodedata.normalize("NFC", name))
    if len(name) > MAX_KEY_LENGTH or len(name.encode("utf-8")) > 2 * MAX_KEY_LENGTH:
        digest = hashlib.sha1(name.encode("utf-8")).hexdigest()[:8]
        head = name[: MAX_KEY_LENGTH - 9]
        while len(head.encode("utf-8")) > 2 * MAX_KEY_LENGTH - 9:
            head = head[:-1]
        name = f"{head.rstrip(' .-')}-{digest}"
    return f"_{name[1:]}" if name.startswith("-") else name


def distinct_keys(names: Sequence[str], taken: Iterable[str] = ()) -> list[str]:
    """Event keys name events in every report, so they are distinct: each name as it is
    (``safe_key``), or, when it is taken (by an earlier name or ``taken``), the first free
    ``name-2``, ``name-3`` … Taken whatever its case: the keys name pages, and Windows' and
    macOS' file systems hold ``Open.html`` and ``open.html`` as one file."""
    used = {key.casefold() for key in taken}
    keys = []
    for name in map(safe_key, names):
        candidate, number = name, 1
        while candidate.casefold() in used:
            number += 1
            candidate = f"{name}-{number}"
        used.add(candidate.casefold())
        keys.append(candidate)
    return keys


def is_list_file(path: Path) -> bool:
    """Whether a file is a rating list by its shape (an unreadable one is not: the event
    reader reports it)."""
    try:
        return is_rating_list(path)
    except OSError:
        return False
