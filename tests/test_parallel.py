"""Work beside the command (parallel.py): done, its error raised in the command, and the same
with the work done in the command itself (RATING_BATCH_SERIAL=1)."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

from rating_batch.parallel import beside


@pytest.fixture(params=["0", "1"], ids=["forked", "serial"])
def serial(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("RATING_BATCH_SERIAL", request.param)
    return str(request.param)


def test_the_work_is_done_while_the_command_goes_on(serial: str, tmp_path: Path) -> None:
    target = tmp_path / "child.txt"
    with beside(lambda: target.write_text(str(os.getpid()), encoding="utf-8")):
        (tmp_path / "parent.txt").write_text("written", encoding="utf-8")
    written_by = int(target.read_text(encoding="utf-8"))
    # Forked, another process wrote it (on a machine of one core it is the command itself).
    assert (written_by != os.getpid()) == (serial == "0" and (os.cpu_count() or 1) > 1)
    assert (tmp_path / "parent.txt").read_text(encoding="utf-8") == "written"


def test_the_works_error_is_raised_in_the_command(serial: str) -> None:
    def full_disk() -> None:
        raise OSError(errno.ENOSPC, "No space left on device", "report.xlsx")

    with pytest.raises(OSError) as raised, beside(full_disk):
        pass
    assert (raised.value.errno, raised.value.filename) == (errno.ENOSPC, "report.xlsx")


def test_an_error_that_cannot_travel_keeps_its_message(serial: str) -> None:
    class Local(Exception):  # a class defined in a function cannot be pickled
        pass

    def fails() -> None:
        raise Local("the sheet is too wide")

    with pytest.raises(Exception, match="the sheet is too wide"), beside(fails):
        pass


def test_when_the_command_fails_its_error_wins_and_the_work_is_stopped(serial: str) -> None:
    import time

    def slow() -> None:
        time.sleep(0 if serial == "1" else 60)

    start = time.monotonic()
    with pytest.raises(ValueError, match="bad input"), beside(slow):
        raise ValueError("bad input")
    assert time.monotonic() - start < 30
