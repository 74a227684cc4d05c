"""What Windows does otherwise (portable.py), tried here with Windows' answers simulated; the
source kept free of Unix-only calls; and the portability check (tests/portability) on
when asked for."""

from __future__ import annotations

import ast
import ctypes
import errno
import os
import subprocess
import sys
from pathlib import Path

import pytest

from rating_batch import portable
from rating_batch.portable import alive, in_use_text, put_new, replace, windows_alive

PACKAGE = Path(portable.__file__).parent
PORTABILITY = Path(__file__).parent / "portability"


def in_use(path: object) -> PermissionError:
    """What Windows raises moving a file that another program holds open."""
    error = PermissionError(errno.EACCES, "The process cannot access the file", str(path))
    error.winerror = 32  # type: ignore[attr-defined]  # set by Python on Windows only
    return error


class Moves(list[tuple[object, object]]):
    """The moves tried (``_spy``), and how many of the first are refused."""

    refusals = 0


def test_a_file_held_a_moment_is_replaced_once_it_is_let_go(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    made = Moves()
    made.refusals = 2
    _spy(monkeypatch, made)
    (tmp_path / "new").write_text("new")
    (tmp_path / "list.xlsx").write_text("old")
    replace(tmp_path / "new", tmp_path / "list.xlsx")
    assert len(made) == 3
    assert (tmp_path / "list.xlsx").read_text() == "new" and not (tmp_path / "new").exists()


def test_a_file_held_open_is_named_with_what_to_do_and_nothing_moves(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    made = Moves()
    made.refusals = 10**6
    _spy(monkeypatch, made)
    (tmp_path / "new").write_text("new")
    (tmp_path / "list.xlsx").write_text("old")
    with pytest.raises(PermissionError) as raised:
        replace(tmp_path / "new", tmp_path / "list.xlsx")
    assert raised.value.filename == str(tmp_path / "list.xlsx")
    assert raised.value.strerror == "it is open in another program: close it there, then try again"
    assert 3 <= len(made) <= 10  # tried again for RETRY_FOR (0.3 s), not at once, not forever
    assert (tmp_path / "list.xlsx").read_text() == "old" and (tmp_path / "new").read_text() == "new"


def test_a_refusal_that_is_not_another_programs_hold_is_raised_at_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    tries = []

    def denied(source: object, target: object) -> None:
        tries.append(target)
        raise PermissionError(errno.EACCES, "Permission denied", str(target))  # no winerror

    monkeypatch.setattr(os, "rename", denied)
    with pytest.raises(PermissionError, match="Permission denied"):
        replace(tmp_path / "a", tmp_path / "b", rename=True)
    assert tries == [tmp_path / "b"]


def test_a_folder_held_is_said_to_hold_an_open_file(tmp_path: Path) -> None:
    assert in_use_text(tmp_path) == (
        "a file in it is open in another program: close it there, then try again"
    )


def _spy(monkeypatch: pytest.MonkeyPatch, made: Moves) -> None:
    real = os.replace

    def held(source: object, target: object) -> None:
        made.append((source, target))
        if len(made) <= made.refusals:
            raise in_use(target)
        real(source, target)  # type: ignore[arg-type]  # a spy forwards what it was given

    monkeypatch.setattr(portable, "RETRY_FOR", 0.3)
    monkeypatch.setattr(os, "replace", held)


@pytest.mark.parametrize("links", [True, False], ids=["hard-links", "no-hard-links"])
def test_a_new_file_is_put_only_where_none_is(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, links: bool
) -> None:
    if not links:  # FAT, exFAT

        def no_links(source: object, target: object) -> None:
            raise OSError(errno.EPERM, "Operation not permitted", str(source))

        monkeypatch.setattr(os, "link", no_links)
    (tmp_path / "new").write_text("new")
    (tmp_path / "there").write_text("there")
    assert not put_new(tmp_path / "new", tmp_path / "there")
    assert (tmp_path / "there").read_text() == "there"
    assert put_new(tmp_path / "new", tmp_path / "db")
    assert (tmp_path / "db").read_text() == "new"


# -- alive: os.kill(pid, 0) on Unix; on Windows, where it would end the process, its exit code


def test_a_running_process_is_alive_and_a_finished_one_is_not() -> None:
    finished = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                              capture_output=True, text=True, check=True)  # fmt: skip
    assert alive(os.getpid())
    assert not alive(int(finished.stdout))


class Kernel32:
    """kernel32 as ``windows_alive`` calls it: OpenProcess gives ``handle`` (0: refused, with
    ``error``), GetExitCodeProcess says ``code`` (None: fails); handles closed are kept."""

    def __init__(self, handle: int, error: int = 0, code: int | None = None) -> None:
        self.handle, self.error, self.code = handle, error, code
        self.closed: list[int] = []

    def OpenProcess(self, access: int, inherit: bool, pid: int) -> int:  # Windows' name
        assert access == 0x1000 and not inherit  # PROCESS_QUERY_LIMITED_INFORMATION
        return self.handle

    def GetExitCodeProcess(self, handle: int, code: object) -> bool:  # Windows' name
        assert handle == self.handle
        if self.code is None:
            return False
        code._obj.value = self.code  # type: ignore[attr-defined]  # ctypes.byref's object
        return True

    def CloseHandle(self, handle: int) -> bool:  # Windows' name
        self.closed.append(handle)
        return True


class Loaded:
    """``Kernel32`` as ctypes.WinDLL loads it: calls that take a restype and argtypes."""

    def __init__(self, kernel32: Kernel32) -> None:
        for name in ("OpenProcess", "GetExitCodeProcess", "CloseHandle"):
            call = getattr(kernel32, name)
            setattr(self, name, lambda *args, call=call: call(*args))


@pytest.mark.parametrize(
    ("kernel32", "expected"),
    [
        (Kernel32(0, error=87), False),  # ERROR_INVALID_PARAMETER: no such process
        (Kernel32(0, error=5), True),  # ERROR_ACCESS_DENIED: another user's, running
        (Kernel32(44, code=259), True),  # STILL_ACTIVE
        (Kernel32(44, code=0), False),  # ended
        (Kernel32(44, code=None), True),  # cannot tell: never taken for dead
    ],
    ids=["no-such-process", "not-ours", "running", "ended", "unknown"],
)
def test_on_windows_a_process_is_alive_by_its_exit_code(kernel32: Kernel32, expected: bool) -> None:
    assert windows_alive(4242, kernel32, lambda: kernel32.error) is expected
    assert kernel32.closed == ([] if kernel32.handle == 0 else [44])  # every handle closed


def test_on_windows_alive_never_sends_a_signal(monkeypatch: pytest.MonkeyPatch) -> None:
    def kill(pid: int, signal: int) -> None:
        raise AssertionError("os.kill ends the process on Windows")

    kernel32 = Kernel32(44, code=259)
    loaded = Loaded(kernel32)
    monkeypatch.setattr(sys, "platform", "win32")
    monkeypatch.setattr(os, "kill", kill)
    monkeypatch.setattr(ctypes, "WinDLL", lambda name, use_last_error: loaded, raising=False)
    monkeypatch.setattr(ctypes, "get_last_error", lambda: 0, raising=False)
    assert alive(4242) and kernel32.closed == [44]
    # The handle kept whole: typed as a pointer, not ctypes' default C int.
    assert loaded.OpenProcess.restype is ctypes.c_void_p  # type: ignore[attr-defined]  # set by alive
    assert loaded.CloseHandle.argtypes == (ctypes.c_void_p,)  # type: ignore[attr-defined]  # the same


# -- the source: no Unix-only module or call but where it is chosen by platform ---------------

#: Modules Python has on Unix only.
UNIX_MODULES = {"fcntl", "termios", "tty", "pty", "resource", "pwd", "grp", "syslog", "posix"}

#: ``os`` and ``signal`` names absent on Windows (or, for os.kill, ending the process there).
UNIX_NAMES = {
    "os": {"fork", "forkpty", "register_at_fork", "statvfs", "fstatvfs", "getuid", "geteuid",
           "getgid", "getegid", "getpgid", "setsid", "killpg", "chown", "lchown", "fchown",
           "getloadavg", "sched_getaffinity", "mkfifo", "nice", "kill", "ST_RDONLY",
           "WNOHANG", "sync", "uname"},
    "signal": {"SIGKILL", "SIGALRM", "SIGHUP", "SIGUSR1", "SIGUSR2", "SIGCHLD", "SIGPIPE",
               "SIGQUIT", "SIGSTOP", "SIGCONT", "alarm", "setitimer", "pause", "pthread_kill"},
}  # fmt: skip

#: Where one is used, and how it is kept off Windows.
ALLOWED = {
    ("portable.py", "os.kill"),  # after sys.platform == "win32" has taken Windows elsewhere
    ("store/database.py", "os.statvfs"),  # behind hasattr(os, "statvfs")
    ("store/database.py", "os.ST_RDONLY"),  # the same
}


def unix_only_uses() -> set[tuple[str, str]]:
    found = set()
    for path in sorted(PACKAGE.rglob("*.py")):
        where = path.relative_to(PACKAGE).as_posix()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                found |= {(where, a.name) for a in node.names if a.name in UNIX_MODULES}
            elif isinstance(node, ast.ImportFrom) and node.module in UNIX_MODULES:
                found.add((where, node.module))
            elif (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.attr in UNIX_NAMES.get(node.value.id, ())
            ):
                found.add((where, f"{node.value.id}.{node.attr}"))
    return found


def test_no_unix_only_module_or_call_but_where_the_platform_is_chosen() -> None:
    assert unix_only_uses() == ALLOWED


def test_the_writers_lock_names_its_modules_only_as_it_chooses_one() -> None:
    # store/writer.py imports fcntl, or else msvcrt, by name at import time: nowhere else.
    text = (PACKAGE / "store" / "writer.py").read_text(encoding="utf-8")
    assert text.count('import_module("fcntl")') == 1 and text.count('import_module("msvcrt")') == 1
    assert not any("msvcrt" in p.read_text(encoding="utf-8") for p in PACKAGE.rglob("*.py")
                   if p.name != "writer.py")  # fmt: skip


# -- the portability check itself ---------------------------------------------------------------

PROBE = """
import multiprocessing, os, sys
try:
    import fcntl
    fcntl_ok = True
except ImportError:
    fcntl_ok = False
from rating_batch.store import writer
print(fcntl_ok, hasattr(os, "fork"), multiprocessing.get_start_method(),
      writer._TAKE.__qualname__.split(".")[0])
"""


def limits_of(environment: dict[str, str]) -> str:
    done = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True,
                          env=environment, check=True)  # fmt: skip
    return done.stdout.strip()


def test_a_process_started_under_the_check_has_windows_limits() -> None:
    environment = {**os.environ, "RATING_BATCH_PORTABILITY": "1",
                   "PYTHONPATH": str(PORTABILITY)}  # fmt: skip
    assert limits_of(environment) == "False False spawn windows_locks"


def test_the_check_is_on_exactly_when_asked_here_and_in_the_processes_started() -> None:
    on = os.environ.get("RATING_BATCH_PORTABILITY", "") == "1"
    assert hasattr(os, "fork") is not on
    assert hasattr(os, "register_at_fork") is not on
    for module in ("fcntl", "termios", "resource", "pwd", "grp"):
        if on:
            with pytest.raises(ImportError):
                __import__(module)
        else:
            __import__(module)
    if on:
        import multiprocessing

        assert multiprocessing.get_start_method() == "spawn"
    # A process started as the tests start the CLI: the same environment, the same limits.
    started = limits_of(dict(os.environ)).split()
    if on:
        assert started == ["False", "False", "spawn", "windows_locks"]
    else:
        assert started[:2] == ["True", "True"] and started[3] == "flock_locks"
