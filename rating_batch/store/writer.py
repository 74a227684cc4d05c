"""One writer at a time on a database: every writing command, the desk's writes and a whole
``month`` run (its add and its publish) hold one lock, so a second writer waits for it or is
refused, whoever it is (docs/desk.md, docs/schedule.md §3).

The lock is on the database file itself, by a handle of its own: an advisory ``flock`` where
the system has one (Linux, macOS), else (Windows) a lock of one byte by ``msvcrt.locking``
(LockFileEx) at ``_FAR``, beyond any byte of data and SQLite's own lock bytes, since
Windows' locks are mandatory. SQLite's own locks (record locks on Unix, its bytes at 1 GiB on
Windows) never meet this one and stay as they are: this one is held around them, for as
long as the outermost writer of a thread works. Both kinds belong to the handle, so inside
it the same thread takes it again at no cost (the month's add and publish; counted here),
and another thread of the same process (two requests to the desk) waits for it as another
process does. Beside the database,
``<db>.writer`` says who holds it, for the message of the writer that waits."""

from __future__ import annotations

import contextlib
import datetime as dt
import errno
import importlib
import os
import socket
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType

#: How often a waiting writer tries the lock again (seconds).
_POLL = 0.05

_HELD = threading.local()
"""Per thread: the databases (their real paths) it holds the lock of, and how deep."""


#: Where the Windows lock lies: at 1 TiB, a thousand times a database of ten years of 10^5
#: player-games a month (docs/performance.md: 524 MB to 990 MB), so that no read of the
#: database meets it; and within what every file system lets a position reach.
_FAR = 1 << 40

Locks = tuple[Callable[[int], bool], Callable[[int], None]]
"""Take the lock by a file descriptor (False: another handle holds it), and release it."""


def flock_locks(fcntl: ModuleType) -> Locks:
    """The lock by ``flock`` (Linux, macOS, BSD)."""

    def take(fd: int) -> bool:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        return True

    return take, lambda fd: fcntl.flock(fd, fcntl.LOCK_UN)


def windows_locks(msvcrt: ModuleType) -> Locks:
    """The lock by ``msvcrt.locking`` of the byte at ``_FAR`` (Windows): a lock violation
    there is EACCES (a blocking mode would have been EDEADLOCK)."""

    def take(fd: int) -> bool:
        os.lseek(fd, _FAR, os.SEEK_SET)
        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        except OSError as error:
            if error.errno in (errno.EACCES, errno.EDEADLK):
                return False
            raise
        return True

    def release(fd: int) -> None:
        os.lseek(fd, _FAR, os.SEEK_SET)
        msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)

    return take, release


def _system_locks() -> Locks:
    """Chosen once: ``fcntl`` where Python has it, else Windows' ``msvcrt`` (neither is
    imported where it does not exist)."""
    try:
        fcntl = importlib.import_module("fcntl")
    except ImportError:
        return windows_locks(importlib.import_module("msvcrt"))
    return flock_locks(fcntl)


_TAKE, _RELEASE = _system_locks()


class Busy(Exception):
    """Another writer held the lock for the whole wait; ``holder`` says who."""

    def __init__(self, holder: str) -> None:
        super().__init__(holder)
        self.holder = holder


@contextlib.contextmanager
def one_writer(real: Path, owner: Path | None, command: str, wait: float) -> Iterator[None]:
    """Hold the writers' lock of the database ``real`` (waiting at most ``wait`` seconds,
    else ``Busy``); with ``owner``, say there that ``command`` holds it. Taken again by the
    thread holding it, it only counts."""
    held: dict[str, int] = _HELD.__dict__.setdefault("paths", {})
    key = str(real)
    if key in held:
        held[key] += 1
        try:
            yield
        finally:
            held[key] -= 1
        return
    try:
        handle = real.open("rb")
    except FileNotFoundError:
        yield  # nothing to lock yet: the database is being made
        return
    with handle:
        deadline = time.monotonic() + wait
        while not _TAKE(handle.fileno()):
            if time.monotonic() >= deadline:
                raise Busy(holder_of(real))
            time.sleep(_POLL)
        held[key] = 1
        try:
            if owner is not None:
                with contextlib.suppress(OSError):
                    owner.write_text(owner_text(command), encoding="utf-8")
            yield
        finally:
            del held[key]
            if owner is not None:
                with contextlib.suppress(OSError):  # Windows: a waiter is reading it
                    owner.unlink(missing_ok=True)
            _RELEASE(handle.fileno())


def nested(real: Path) -> bool:
    """Whether this thread holds the writers' lock of ``real`` from further out (a month
    run's add or publish)."""
    held: dict[str, int] = _HELD.__dict__.get("paths", {})
    return held.get(str(real), 0) > 1


def owner_path(real: Path) -> Path:
    """Where the writer holding the lock says who it is."""
    return real.parent / f"{real.name}.writer"


def holder_of(real: Path) -> str:
    """Who says he holds the writers' lock of ``real`` ("another program": nobody)."""
    try:
        return owner_path(real).read_text(encoding="utf-8").strip() or "another program"
    except OSError:
        return "another program"


def owner_text(command: str) -> str:
    """What ``<db>.writer`` says: the command, its process and machine, since when."""
    now = dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M:%S UTC")
    return f"'rating-batch {command}' (pid {os.getpid()} on {socket.gethostname()}, since {now})"
