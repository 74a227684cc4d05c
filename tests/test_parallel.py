"""Work beside the command (parallel.py): done, its error raised in the command, and the same
with the work done in the command itself (RATING_BATCH_SERIAL=1, or no fork: Windows, macOS,
``make test-portable``)."""

from __future__ import annotations

import errno
import os
import sys
from pathlib import Path

import pytest

from rating_batch.parallel import alongside, available, beside


@pytest.fixture(params=["0", "1"], ids=["forked", "serial"])
def serial(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Whether the work is done in the command ("1"): asked for, or no fork here."""
    monkeypatch.setenv("RATING_BATCH_SERIAL", request.param)
    return "0" if available() else "1"


def test_a_child_is_forked_on_linux_only_with_a_second_core(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("RATING_BATCH_SERIAL", "0")
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    monkeypatch.setattr(sys, "platform", "linux")
    assert available() == hasattr(os, "fork")  # no fork under make test-portable
    monkeypatch.setattr(sys, "platform", "darwin")  # forking there is not safe
    assert not available()
    monkeypatch.setattr(sys, "platform", "linux")
    monkeypatch.delattr(os, "fork", raising=False)  # as on Windows
    assert not available()


def test_without_fork_the_work_is_done_in_the_command(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("RATING_BATCH_SERIAL", "0")
    monkeypatch.delattr(os, "fork", raising=False)
    target = tmp_path / "work.txt"
    with beside(lambda: target.write_text(str(os.getpid()), encoding="utf-8")):
        assert target.read_text(encoding="utf-8") == str(os.getpid())  # done before the body
    with alongside(lambda: os.getpid()) as started:
        assert started.result() == os.getpid()


def test_the_work_is_done_while_the_command_goes_on(serial: str, tmp_path: Path) -> None:
    target = tmp_path / "child.txt"
    with beside(lambda: target.write_text(str(os.getpid()), encoding="utf-8")):
        (tmp_path / "parent.txt").write_text("written", encoding="utf-8")
    written_by = int(target.read_text(encoding="utf-8"))
    # Forked, another process wrote it (without fork or a second core, the command itself).
    assert (written_by != os.getpid()) == (serial == "0")
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


def test_a_result_comes_back_from_the_work_alongside(serial: str) -> None:
    """``alongside``: the child's result (small, pickled) taken in the body, computed from what
    the command had when it started the work (a fork sees the frames as they were)."""
    numbers = list(range(1000))
    with alongside(lambda: (sum(numbers), os.getpid())) as started:
        numbers.append(10**6)  # the command goes on; the work's copy is the one it was given
        total, pid = started.result()
    assert total == 499500  # serial, the work is done before the body starts
    assert (pid != os.getpid()) == (serial == "0")


def test_a_result_never_taken_is_not_waited_for_and_errors_go_with_the_body(
    serial: str,
) -> None:
    import time

    def slow() -> int:
        time.sleep(0 if serial == "1" else 60)
        return 1

    start = time.monotonic()
    with pytest.raises(ValueError, match="bad input"), alongside(slow):
        raise ValueError("bad input")
    with alongside(slow):
        pass  # no longer wanted: stopped, not waited for
    assert time.monotonic() - start < 30


def test_input_and_rules_errors_arrive_whole_from_the_work(serial: str) -> None:
    """The project's errors travel with what they carry (an InputError its issues, made
    again from them; a RulesError its problems), not only their text."""
    from rating_batch.errors import InputError, Issue, RulesError

    issues = [Issue("a.trf", 7, "round 3: no opponent 99"), Issue("b.trf", None, "empty", "error")]

    def bad_input() -> None:
        raise InputError(issues)

    with pytest.raises(InputError) as raised, beside(bad_input):
        pass
    assert raised.value.issues == issues and "a.trf" in str(raised.value)

    def bad_rules() -> None:
        raise RulesError("k_new is not a number", [("k_new", "not a number")])

    with pytest.raises(RulesError) as rules, beside(bad_rules):
        pass
    assert rules.value.problems == [("k_new", "not a number")]
    assert str(rules.value) == "k_new is not a number"


def test_small_work_done_lazily_errs_where_its_result_is_taken(serial: str) -> None:
    """Not worth a child and ``lazily``: done when its result is taken, so that an error of
    the body before that point comes first, as it does when the work is in a child."""
    done: list[str] = []

    def work() -> int:
        done.append("work")
        raise ValueError("the list is unreadable")

    with pytest.raises(KeyError), alongside(work, worth=False, lazily=True):
        raise KeyError("the files overlap")  # the body's error: the work never ran
    assert done == []
    with alongside(work, worth=False, lazily=True) as started:
        done.append("body")
        with pytest.raises(ValueError, match="the list is unreadable"):
            started.result()
    assert done == ["body", "work"]
    with alongside(lambda: 7, worth=False, lazily=True) as started:
        assert started.result() == 7
