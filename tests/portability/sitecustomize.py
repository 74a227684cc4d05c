"""The portability check (``make test-portable``, docs/testing.md §5): Windows' limits,
played in every Python process of a test run on Linux or macOS.

Python imports ``sitecustomize`` at start-up from the path. The Makefile puts this folder
on PYTHONPATH and sets ``RATING_BATCH_PORTABILITY=1``, so that the test process and every
process it starts (the real CLI, the desk, multiprocessing's children) inherit both. Then:

* the Unix-only modules (``UNIX_ONLY``) cannot be imported;
* ``os`` has no ``fork``, ``forkpty``, ``register_at_fork``, nor the other Unix-only calls
  of ``UNIX_ONLY_CALLS``;
* multiprocessing starts its children by ``spawn``, as on Windows;
* ``msvcrt`` is a stand-in for Windows' own, with only ``locking`` (the writers' lock's
  Windows branch, store/writer.py), played by ``flock``: it refuses a lock that would cover
  bytes of the file, as Windows' locks are mandatory and would stop SQLite reading them.

tests/faults/sitecustomize.py, which takes this one's place on the path in the processes
it breaks, runs this file too.
"""

from __future__ import annotations

import errno
import os
import sys
import types

#: Modules of Unix only (each absent from Python on Windows).
UNIX_ONLY = ("fcntl", "termios", "tty", "pty", "resource", "pwd", "grp", "syslog")

#: Calls of ``os`` absent on Windows. Not those that Python's and pytest's own code for Unix
#: calls (``getuid`` for pytest's temporary folders, ``waitpid``' status macros for
#: subprocess): tests/test_portable.py finds them in rating_batch's source instead.
UNIX_ONLY_CALLS = (
    "fork", "forkpty", "register_at_fork", "statvfs", "fstatvfs", "getpgid", "setsid",
    "killpg", "chown", "lchown", "fchown", "getloadavg", "sched_getaffinity", "mkfifo", "nice",
)  # fmt: skip


def _msvcrt(flock: types.ModuleType) -> types.ModuleType:
    """``msvcrt`` with ``locking`` alone: LK_NBLCK fails at once with EACCES, as Windows'
    LockFileEx does (a lock violation); LK_UNLCK releases."""
    stand_in = types.ModuleType("msvcrt", "Windows' msvcrt.locking, played by flock")
    stand_in.LK_UNLCK, stand_in.LK_LOCK, stand_in.LK_NBLCK = 0, 1, 2  # type: ignore[attr-defined]  # a module made here

    def locking(fd: int, mode: int, nbytes: int) -> None:
        if os.lseek(fd, 0, os.SEEK_CUR) < os.fstat(fd).st_size:
            raise AssertionError("a lock over the file's bytes: on Windows nobody could read them")
        if mode == stand_in.LK_UNLCK:  # type: ignore[attr-defined]  # set above
            flock.flock(fd, flock.LOCK_UN)
            return
        try:
            flock.flock(fd, flock.LOCK_EX | flock.LOCK_NB)
        except BlockingIOError:
            raise PermissionError(errno.EACCES, "Permission denied") from None

    stand_in.locking = locking  # type: ignore[attr-defined]  # a module made here
    return stand_in


def _apply() -> None:
    import fcntl  # the stand-in's, before nobody can import it
    import multiprocessing
    import subprocess  # noqa: F401  # it takes an importable msvcrt for Windows: first, then

    sys.modules["msvcrt"] = _msvcrt(fcntl)
    for name in UNIX_ONLY:
        sys.modules[name] = None  # type: ignore[assignment]  # import then raises ImportError
    for name in UNIX_ONLY_CALLS:
        if hasattr(os, name):
            delattr(os, name)
    multiprocessing.set_start_method("spawn", force=True)


if os.environ.get("RATING_BATCH_PORTABILITY", "") == "1":
    _apply()
