"""Independent work on the machine's second core: one output written by a forked child while
the command writes the others (``beside``).

The child is a fork of the command: it sees every frame as they are, nothing is copied or
pickled on the way in, and only its error comes back. It never touches the database (the
command's connection belongs to the parent) and leaves by ``os._exit`` without running any
clean-up of the parent's. Where fork is unavailable, or with one core, or with
``RATING_BATCH_SERIAL=1``, the work is done in the command itself, before it goes on.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import pickle
from collections.abc import Callable, Iterator
from multiprocessing.connection import Connection

from rating_batch.errors import RatingBatchError


def _parallel() -> bool:
    return (
        "fork" in multiprocessing.get_all_start_methods()
        and (os.cpu_count() or 1) > 1
        and os.environ.get("RATING_BATCH_SERIAL", "") in ("", "0")
    )


def _child(work: Callable[[], None], results: Connection) -> None:
    try:
        work()
        results.send(None)
    except BaseException as error:  # everything goes back to the command, to be raised there
        try:
            pickle.dumps(error)
            results.send(error)
        except Exception:
            results.send(RatingBatchError(f"{type(error).__name__}: {error}"))
    finally:
        results.close()


@contextlib.contextmanager
def beside(work: Callable[[], None]) -> Iterator[None]:
    """Run ``work`` in a forked child while the body of the ``with`` runs; at its end wait for
    the child and raise its error, if any, here. If the body fails, the child is stopped."""
    if not _parallel():
        work()
        yield
        return
    context = multiprocessing.get_context("fork")
    received, sent = context.Pipe(duplex=False)
    child = context.Process(target=_child, args=(work, sent), daemon=True)
    child.start()
    sent.close()
    try:
        yield
    except BaseException:
        child.terminate()
        child.join()
        raise
    try:
        error = received.recv()
    except EOFError:  # the child died without a word (killed)
        error = RatingBatchError("the process writing an output stopped unexpectedly")
    finally:
        received.close()
        child.join()
    if error is not None:
        raise error
