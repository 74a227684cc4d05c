"""The files a command reads: folders expanded into their event files, with the files
rating_batch wrote itself left aside (one note per folder), and ``--out`` kept apart from the
inputs (docs/formats.md §12).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from rating_batch.errors import Issue, RatingBatchError
from rating_batch.loaders import EVENT_READERS
from rating_batch.loaders.kinds import output_given_as_input, own_output


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
    the files rating_batch wrote (``kinds.own_output``: players.csv, games.csv,
    calculations.csv, changes.csv, compare.csv, report.xlsx, player-ID.xlsx) and the list
    given ``beside`` the events (``--list``). An output named as an input is an error
    (``wanted``: what the command takes there)."""
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
        for member in sorted(
            p for p in path.iterdir() if p.is_file() and p.suffix.lower() in EVENT_READERS
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
