"""Loaders: every input format becomes an ``Event`` (EventInfo plus the canonical frames).

``read_event(path)`` dispatches on the file's suffix through a dict; ``load_event`` also
raises one ``InputError`` when the file has errors.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, Concatenate, ParamSpec, TypeVar

from rating_batch.errors import InputError, Issue, errors_only
from rating_batch.loaders import ratinglist, statelist
from rating_batch.loaders.common import check_size, check_xlsx
from rating_batch.loaders.encoding import wide
from rating_batch.loaders.kinds import (
    LIST_SUFFIXES,
    event_given_as_list,
    is_event_file,
    is_rating_list,
    output_given_as_input,
    own_output,
)
from rating_batch.loaders.tabular import read_crosstable
from rating_batch.loaders.trf import parse_trfs, read_trf
from rating_batch.loaders.trf_decoding import TrfText, decode_trf
from rating_batch.parallel import alongside, available
from rating_batch.schema import Event

EventReader = Callable[..., Event]

Progress = Callable[[Sequence[Any], str], Iterable[Any]]
"""Wraps what a command works through (files, pages), e.g. in the CLI's progress bar."""


def no_progress(items: Sequence[Any], label: str) -> Iterable[Any]:
    return items


#: File suffix → reader. TRF files come as .trf, .txt, .tab (ICU) and .trfx; crosstables as
#: .xlsx (chess-results exports, hand-made sheets) and .csv (our template).
EVENT_READERS: dict[str, EventReader] = {
    ".trf": read_trf,
    ".trfx": read_trf,
    ".txt": read_trf,
    ".tab": read_trf,
    ".xlsx": read_crosstable,
    ".csv": read_crosstable,
}

__all__ = [
    "EVENT_READERS",
    "LIST_SUFFIXES",
    "is_rating_list",
    "load_event",
    "read_event",
    "read_events",
    "read_rating_list",
    "read_state_list",
]

Params = ParamSpec("Params")
Read = TypeVar("Read")


def _refusing_other_kinds(
    read: Callable[Concatenate[Path, Params], Read],
) -> Callable[Concatenate[Path, Params], Read]:
    """A list reader that refuses a file of another kind by what it is (docs/formats.md
    §12): an output of rating_batch, told before it is read (players.csv would read as a
    list), and an event, told when the reading fails."""

    @functools.wraps(read)
    def checked(path: Path, /, *args: Params.args, **kwargs: Params.kwargs) -> Read:
        output = own_output(path)
        if output is not None:
            raise InputError([output_given_as_input(path, output, wanted="a rating list")])
        try:
            return read(path, *args, **kwargs)
        except InputError:
            if is_event_file(path):
                raise InputError([event_given_as_list(path)]) from None
            raise

    return checked


#: A rating list of any supported format, another rating system's list: each refusing a
#: file of another kind by what it is.
read_rating_list = _refusing_other_kinds(ratinglist.read_rating_list)
read_state_list = _refusing_other_kinds(statelist.read_state_list)


def read_event(path: Path, *, key: str | None = None, encoding: str | None = None) -> Event:
    """Read one event file of any supported format (one that is not UTF-8 in ``encoding``,
    else in the code page its evidence points to); problems are in ``event.issues``."""
    reader = _checked_reader(path, encoding)
    return reader(path, key=key, encoding=encoding)


#: TRF files parsed together by ``read_events`` (bounds the batch's arrays to ~100 MB).
TRF_BATCH = 2_000
#: From this many TRF files, the later half is read on another core.
PARALLEL_TRFS = 400


def read_events(
    paths: Sequence[Path],
    keys: Sequence[str],
    progress: Progress = no_progress,
    encoding: str | None = None,
) -> list[Event | InputError]:
    """Read many event files, in order: each becomes its Event, or the InputError that
    stopped it. TRF files are decoded one by one and parsed ``TRF_BATCH`` at a time; from
    ``PARALLEL_TRFS`` of them, the later half is read by one child on the second core,
    started before anything is read (``parallel.alongside``: a child forked while the command
    is small, reusing its own memory batch after batch, costs a fraction of the page faults
    of a child per batch forked from a command holding the batches read before); its events
    come back pickled, their frames a batch of their own each. ``keys`` (one per file,
    distinct) name the events in their frames; ``encoding`` is that of the files that are
    not UTF-8 (``encoding.decode``)."""
    read: list[Event | InputError | None] = [None] * len(paths)
    trfs = [i for i, path in enumerate(paths) if EVENT_READERS.get(path.suffix.lower()) is read_trf]
    # Without a second core (parallel.available) every file is read here, in its turn.
    later = trfs[len(trfs) // 2 :] if len(trfs) >= PARALLEL_TRFS and available() else []
    apart = set(later)
    waiting: list[int] = []  # the TRF files of this process not read yet

    def read_waiting() -> None:
        for index, result in zip(waiting, _read_trfs(paths, keys, waiting, encoding), strict=True):
            read[index] = result
        waiting.clear()

    with alongside(
        lambda: _read_trf_batches(paths, keys, later, encoding), worth=bool(later)
    ) as elsewhere:
        for index, path in enumerate(progress(paths, "reading events")):
            if index in apart:
                continue
            try:
                if EVENT_READERS.get(path.suffix.lower()) is read_trf:
                    waiting.append(index)  # checked where it is read
                    if len(waiting) >= TRF_BATCH:
                        read_waiting()
                else:
                    reader = _checked_reader(path, encoding)
                    read[index] = reader(path, key=keys[index], encoding=encoding)
            except InputError as error:
                read[index] = error
            except OSError as error:
                read[index] = _unreadable(path, error)
        read_waiting()
        for index, result in zip(later, elsewhere.result(), strict=True):
            read[index] = result
    return [item for item in read if item is not None]


def _read_trf_batches(
    paths: Sequence[Path], keys: Sequence[str], indexes: Sequence[int], encoding: str | None
) -> list[Event | InputError]:
    """The TRF files ``indexes`` of ``paths``, read ``TRF_BATCH`` at a time."""
    return [
        result
        for at in range(0, len(indexes), TRF_BATCH)
        for result in _read_trfs(paths, keys, indexes[at : at + TRF_BATCH], encoding)
    ]


def _read_trfs(
    paths: Sequence[Path], keys: Sequence[str], indexes: Sequence[int], encoding: str | None
) -> list[Event | InputError]:
    """The TRF files ``indexes`` of ``paths``: each decoded on its own, then all parsed
    together."""
    results: list[Event | InputError | None] = [None] * len(indexes)
    texts: list[TrfText] = []
    decoded: list[int] = []
    for number, index in enumerate(indexes):
        try:
            _, data = _checked(paths[index], encoding, whole=True)  # the file read once
            texts.append(decode_trf(paths[index], key=keys[index], encoding=encoding, data=data))
            decoded.append(number)
        except InputError as error:
            results[number] = error
        except OSError as error:
            results[number] = _unreadable(paths[index], error)
    for number, event in zip(decoded, parse_trfs(texts), strict=True):
        results[number] = event
    return [result for result in results if result is not None]


def _unreadable(path: Path, error: OSError) -> InputError:
    return InputError([Issue(str(path), None, f"cannot read the file: {error.strerror}")])


def _checked_reader(path: Path, encoding: str | None = None) -> EventReader:
    """The reader for a file's type, once the file is known to be readable and not absurd (a
    text file holds no NUL byte, unless it is UTF-16 or UTF-32: by its byte-order mark, or as
    ``encoding`` says)."""
    return _checked(path, encoding)[0]


def _checked(path: Path, encoding: str | None, *, whole: bool = False) -> tuple[EventReader, bytes]:
    """``_checked_reader``'s reader, and the bytes it read: the first 4 KiB, or the whole
    file (``whole``: a TRF file decoded next, read once)."""
    reader = EVENT_READERS.get(path.suffix.lower())
    if reader is None:
        supported = ", ".join(sorted(EVENT_READERS))
        raise InputError(
            [Issue(str(path), None, f"unsupported file type {path.suffix!r}: use {supported}")]
        )
    try:
        too_big = check_size(path)
        if too_big:
            raise InputError([Issue(str(path), None, too_big)])
        if path.suffix.lower() == ".xlsx":
            refused = check_xlsx(path)
            if refused:
                raise InputError([Issue(str(path), None, refused)])
        with path.open("rb") as handle:
            data = handle.read(-1 if whole else 4096)
    except OSError as error:
        raise _unreadable(path, error) from None
    data_check = data[:4096]
    binary = path.suffix.lower() == ".xlsx"
    if (
        not binary
        and b"\x00" in data_check
        and not data_check.startswith((b"\xff\xfe", b"\xfe\xff"))
        and not (encoding and wide(encoding))
    ):
        raise InputError(
            [
                Issue(
                    str(path),
                    None,
                    "not a text file (it contains NUL bytes); if it is UTF-16 without a "
                    "byte-order mark, give --encoding utf-16-le or utf-16-be",
                )
            ]
        )
    return reader, data


def load_event(path: Path, *, key: str | None = None) -> Event:
    """Read one event and raise InputError (with every issue) if any of them is an error."""
    event = read_event(path, key=key)
    if errors_only(event.issues):
        raise InputError(event.issues)
    return event
