"""The writers' lock (store/writer.py) by each system's means: flock, and Windows'
msvcrt.locking (here its stand-in of tests/portability, played by flock)."""

from __future__ import annotations

import errno
import importlib.util
import os
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

from rating_batch.store import writer
from rating_batch.store.writer import Busy, nested, one_writer, windows_locks

SITE = Path(__file__).parents[1] / "portability" / "sitecustomize.py"


class Msvcrt(ModuleType):
    """msvcrt.locking as Windows answers: ``refusal``, an errno, when the lock is held."""

    LK_UNLCK, LK_LOCK, LK_NBLCK = 0, 1, 2

    def __init__(self, refusal: int | None = None) -> None:
        super().__init__("msvcrt")
        self.refusal = refusal
        self.calls: list[tuple[int, int, int]] = []

    def locking(self, fd: int, mode: int, nbytes: int) -> None:
        self.calls.append((os.lseek(fd, 0, os.SEEK_CUR), mode, nbytes))
        if mode == self.LK_NBLCK and self.refusal is not None:
            raise OSError(self.refusal, os.strerror(self.refusal))


def test_the_windows_lock_is_one_byte_beyond_any_data_and_released_there(tmp_path: Path) -> None:
    db = tmp_path / "r.sqlite"
    db.write_bytes(b"x" * 4096)
    msvcrt = Msvcrt()
    take, release = windows_locks(msvcrt)
    with db.open("rb") as handle:
        assert take(handle.fileno())
        release(handle.fileno())
    assert msvcrt.calls == [(1 << 40, Msvcrt.LK_NBLCK, 1), (1 << 40, Msvcrt.LK_UNLCK, 1)]
    assert db.read_bytes() == b"x" * 4096  # a lock, not a write


@pytest.mark.parametrize("refusal", [errno.EACCES, errno.EDEADLK], ids=["violation", "deadlock"])
def test_a_windows_lock_held_elsewhere_is_not_taken(tmp_path: Path, refusal: int) -> None:
    (tmp_path / "r.sqlite").write_bytes(b"")
    take, _ = windows_locks(Msvcrt(refusal))
    with (tmp_path / "r.sqlite").open("rb") as handle:
        assert take(handle.fileno()) is False


def test_another_windows_error_is_raised(tmp_path: Path) -> None:
    (tmp_path / "r.sqlite").write_bytes(b"")
    take, _ = windows_locks(Msvcrt(errno.EBADF))
    with (tmp_path / "r.sqlite").open("rb") as handle, pytest.raises(OSError, match="Bad file"):
        take(handle.fileno())


def _stand_in() -> ModuleType:
    """The portability check's msvcrt (its own under make test-portable)."""
    if os.environ.get("RATING_BATCH_PORTABILITY", "") == "1":
        return importlib.import_module("msvcrt")
    spec = importlib.util.spec_from_file_location("portability_site", SITE)
    assert spec is not None and spec.loader is not None
    site = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(site)
    return site._msvcrt(importlib.import_module("fcntl"))  # type: ignore[no-any-return]


@pytest.fixture(params=["system", "windows"])
def locks(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    if request.param == "windows":
        take, release = windows_locks(_stand_in())
        monkeypatch.setattr(writer, "_TAKE", take)
        monkeypatch.setattr(writer, "_RELEASE", release)
    yield


def test_the_same_thread_enters_again_and_another_waits_then_is_told_who(
    tmp_path: Path, locks: None
) -> None:
    db = tmp_path / "r.sqlite"
    db.write_bytes(b"SQLite format 3\x00" + b"\x00" * 4080)
    owner = writer.owner_path(db)
    outcome: list[object] = []

    def second(wait: float) -> None:
        started = time.monotonic()
        try:
            with one_writer(db, owner, "add", wait):
                outcome.append("in")
        except Busy as busy:
            outcome.append((busy.holder, time.monotonic() - started >= wait))

    with one_writer(db, owner, "month", 5):
        with one_writer(db, owner, "add", 0):  # the month's add: no wait, only counted
            assert nested(db)
        assert not nested(db)
        waiter = threading.Thread(target=second, args=(0.3,))
        waiter.start()
        waiter.join()
        holder = owner.read_text(encoding="utf-8")
    assert holder.startswith(f"'rating-batch month' (pid {os.getpid()} on ")
    assert outcome == [(holder, True)]
    assert not owner.exists()  # the holder stopped saying so
    waiter = threading.Thread(target=second, args=(0,))
    waiter.start()
    waiter.join()
    assert outcome[-1] == "in"  # released: the next writer goes in
    assert db.read_bytes()[:16] == b"SQLite format 3\x00"
