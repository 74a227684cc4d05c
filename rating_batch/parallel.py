"""Independent work on the machine's second core: one output written by a forked child while
the command writes the others (``beside``).

The child is a fork of the command: it sees every frame as they are, nothing is copied or
pickled on the way in, and only its error comes back. It never touches the database (the
command's connection belongs to the parent) and leaves by ``os._exit`` without running any
clean-up of the parent's. The work is done in the command itself, before it goes on, where
there is no fork (Windows), where a fork is not safe (macOS: its system libraries may hold
threads a child would miss, so Python starts children by ``spawn`` there), with one core, or
with ``RATING_BATCH_SERIAL=1``. The work is a closure, which ``spawn`` cannot send.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import pickle
import sys
from collections.abc import Callable, Iterator
from multiprocessing.connection import Connection
from typing import Generic, TypeVar, cast

from rating_batch.errors import RatingBatchError
from rating_batch.settings import serial

T = TypeVar("T")


def available() -> bool:
    """Whether work may go to a second process: a fork (Linux), a second core, and not
    ``RATING_BATCH_SERIAL=1``."""
    return (
        hasattr(os, "fork")
        and sys.platform.startswith("linux")
        and (os.cpu_count() or 1) > 1
        and not serial()
    )


def _child(work: Callable[[], object], results: Connection) -> None:
    try:
        results.send(("done", work()))
    except BaseException as error:  # everything goes back to the command, to be raised there
        try:
            pickle.dumps(error)
            results.send(("error", error))
        except Exception:
            results.send(("error", RatingBatchError(f"{type(error).__name__}: {error}")))
    finally:
        results.close()


class Started(Generic[T]):
    """Work started in a forked child (or done already, serial, or ``lazily`` when its result
    is taken): ``result`` waits for it and gives its result, or raises its error here;
    ``stop`` ends it unfinished."""

    def __init__(self, work: Callable[[], T], *, worth: bool = True, lazily: bool = False) -> None:
        self._child: multiprocessing.process.BaseProcess | None = None
        self._later: Callable[[], T] | None = None
        if not (worth and available()):
            if lazily:
                self._later = work
                return
            self._done: tuple[str, object] = ("done", work())
            return
        context = multiprocessing.get_context("fork")
        self._received, sent = context.Pipe(duplex=False)
        self._child = context.Process(target=_child, args=(work, sent), daemon=True)
        self._child.start()
        sent.close()

    def result(self) -> T:
        if self._later is not None:
            work, self._later = self._later, None
            return work()
        if self._child is not None:
            try:
                self._done = self._received.recv()
            except EOFError:  # the child died without a word (killed)
                self._done = ("error", RatingBatchError("a worker process stopped unexpectedly"))
            finally:
                self._received.close()
                self._child.join()
                self._child = None
        kind, value = self._done
        if kind == "error":
            assert isinstance(value, BaseException)
            raise value
        return cast(T, value)  # what work() returned, pickled back from the child

    def stop(self) -> None:
        if self._child is not None:
            self._child.terminate()
            self._child.join()
            self._received.close()
            self._child = None


#: Rows (games) from which work is worth a child of its own: below, starting one costs about
#: as much as it saves.
PARALLEL_ROWS = 2_000


def worth(rows: int) -> bool:
    """Whether work over ``rows`` rows is worth a child of its own (``PARALLEL_ROWS``)."""
    return rows >= PARALLEL_ROWS


@contextlib.contextmanager
def alongside(
    work: Callable[[], T], *, worth: bool = True, lazily: bool = False
) -> Iterator[Started[T]]:
    """``work`` started in a forked child for the body of the ``with``, which takes its result
    (``result()``: small, it comes back pickled). If the body fails, the child is stopped.
    Not ``worth`` a child (small work): done first, here; ``lazily``, when its result is
    taken (its error then comes where it would come from the child)."""
    started = Started(work, worth=worth, lazily=lazily)
    try:
        yield started
    except BaseException:
        started.stop()
        raise
    started.stop()  # taken already, or no longer wanted


@contextlib.contextmanager
def beside(work: Callable[[], None]) -> Iterator[None]:
    """Run ``work`` in a forked child while the body of the ``with`` runs; at its end wait for
    the child and raise its error, if any, here. If the body fails, the child is stopped."""
    with alongside(work) as started:
        yield
        started.result()
