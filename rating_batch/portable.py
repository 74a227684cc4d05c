"""What Windows does otherwise, in one place: whether a process is still running, and moving a
file into place while another program has it open.

- ``alive``: ``os.kill(pid, 0)`` asks Unix whether a process runs; on Windows any signal
  but Ctrl+C and Ctrl+Break ends it (TerminateProcess), so there the process is opened and
  its exit code read instead.
- ``put_new``: a finished file put where none is, by a hard link, which never replaces;
  where the file system has none (FAT and exFAT, as on a USB stick), by a check and a move.
- ``replace``: on Windows a file another program holds open (a list in Excel, a download
  under way, a virus scanner's look at a new file) can be neither replaced nor moved; the
  move is tried again for ``RETRY_FOR`` seconds, then refused with an error that names the
  file and says to close it there. Elsewhere a refusal is the system's, reported at once.
"""

from __future__ import annotations

import ctypes
import errno
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

#: How long a move refused by another program's hold on the file is tried again (seconds).
RETRY_FOR = 2.0

#: Windows' errors for a file another program holds open: access denied (replacing a file
#: open without delete sharing), sharing violation (moving it), lock violation.
IN_USE = frozenset({5, 32, 33})

#: OpenProcess's right to read the exit code; GetExitCodeProcess's code of a running process;
#: OpenProcess's error for a process that exists but is not ours to open.
_QUERY_LIMITED_INFORMATION = 0x1000
_STILL_ACTIVE = 259
_ACCESS_DENIED = 5


def alive(pid: int) -> bool:
    """Whether process ``pid`` is still running (on this machine)."""
    if sys.platform == "win32":
        kernel32 = ctypes.WinDLL("kernel32", use_last_error=True)
        # A handle is pointer-sized: ctypes' default, a C int, would cut it on 64-bit Windows.
        kernel32.OpenProcess.restype = ctypes.c_void_p
        kernel32.GetExitCodeProcess.argtypes = (ctypes.c_void_p, ctypes.POINTER(ctypes.c_uint32))
        kernel32.CloseHandle.argtypes = (ctypes.c_void_p,)
        return windows_alive(pid, kernel32, ctypes.get_last_error)
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def windows_alive(pid: int, kernel32: Any, last_error: Callable[[], int]) -> bool:
    """``alive`` on Windows, by ``kernel32``'s OpenProcess and GetExitCodeProcess. When it
    cannot tell, it says running: a running command's files are never taken for a dead
    one's."""
    handle = kernel32.OpenProcess(_QUERY_LIMITED_INFORMATION, False, pid)
    if not handle:
        return last_error() == _ACCESS_DENIED  # else no such process
    try:
        code = ctypes.c_uint32()
        if not kernel32.GetExitCodeProcess(handle, ctypes.byref(code)):
            return True
        return code.value == _STILL_ACTIVE
    finally:
        kernel32.CloseHandle(handle)


def replace(source: Path, target: Path, *, rename: bool = False, held: Path | None = None) -> None:
    """``os.replace(source, target)`` (``os.rename`` with ``rename``: on Windows never over
    an existing file), tried again for ``RETRY_FOR`` seconds while another program holds a
    file open; then a PermissionError naming ``held`` (default ``target``: the file the
    officer may have open), whose text says to close it."""
    move = os.rename if rename else os.replace
    deadline = time.monotonic() + RETRY_FOR
    pause = 0.05
    while True:
        try:
            move(source, target)
            return
        except PermissionError as error:
            if getattr(error, "winerror", None) not in IN_USE:
                raise
            if time.monotonic() >= deadline:
                named = target if held is None else held
                raise PermissionError(errno.EACCES, in_use_text(named), str(named)) from None
        time.sleep(pause)
        pause = min(pause * 2, 0.4)


def write_replacing(path: Path, data: str | bytes) -> None:
    """``path`` replaced by ``data`` (a text as UTF-8) at once: written under a hidden name
    beside it, then ``replace``d over it, so that a reader (a web server, a later command)
    finds the old file or the new, never half of one; the hidden file removed if that fails."""
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        if isinstance(data, str):
            temporary.write_text(data, encoding="utf-8")
        else:
            temporary.write_bytes(data)
        replace(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise


def put_new(temporary: Path, final: Path) -> bool:
    """``temporary`` put at ``final`` unless something is there (False: nothing moved). A
    file system without hard links leaves a small window between the check and the move."""
    try:
        os.link(temporary, final)
    except FileExistsError:
        return False
    except OSError:
        if final.exists():
            return False
        replace(temporary, final)
    return True


def in_use_text(path: Path) -> str:
    """Why a move was refused, and what to do, for a message."""
    what = "a file in it is" if path.is_dir() else "it is"
    return f"{what} open in another program: close it there, then try again"
