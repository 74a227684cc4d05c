"""Crash safety and concurrency with real processes (run 20 times each under ``make soak``,
5 under ``make test``: ``budget.py``).

* ``publish`` killed (SIGKILL) at any moment: the database is exactly as before or exactly
  as after a complete run, never in between, and integrity_check is clean; no output file is
  half-written (every final file present equals the complete run's; none before the commit).
* two ``add`` at once: different events both succeed; the same event is stored once and the
  other process fails cleanly. Nothing is lost or doubled.
"""

from __future__ import annotations

import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).parent.parent / "benchmarks"))
from budget import kill_fractions, runs
from generate import generate_month, make_federation, write_list_csv

#: Left out of ``make test-fast`` (kills real processes and runs commands concurrently).
pytestmark = pytest.mark.slow

#: The concurrent runs of two ``add`` (``budget.py``).
RUNS = runs(20, 5)
#: When each run of a kill loop kills its command (``budget.py``).
KILLS = kill_fractions(20, 5)
COMMAND = [sys.executable, "-m", "rating_batch"]


#: When a command of the undo journal ran: the one value two runs of a command differ in.
TAKEN = re.compile(r"""^(INSERT INTO "undo_commands" VALUES\(\d+,)'[^']*'""")


def dump(db: Path) -> list[str]:
    """Everything the database holds, its journal included, but when each command ran."""
    connection = sqlite3.connect(db)
    try:
        assert connection.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        return [TAKEN.sub(r"\1'…'", line) for line in connection.iterdump()]
    finally:
        connection.close()


JOURNAL = re.compile(r'(CREATE TABLE|INSERT INTO|CREATE INDEX) "?undo_')


def content(db: Path) -> list[str]:
    """What the database holds but its undo journal (the state an undo brings back)."""
    return [line for line in dump(db) if JOURNAL.match(line) is None]


def outputs(out: Path) -> dict[Path, bytes]:
    """The output files under ``out`` (a killed run's staging folder holds no outputs)."""
    return {
        p.relative_to(out): p.read_bytes()
        for p in (out.rglob("*") if out.exists() else [])
        if p.is_file() and not p.relative_to(out).parts[0].startswith(".rating-batch-staging-")
    }


def copy_database(source: Path, target: Path) -> Path:
    connection = sqlite3.connect(source)
    backup = sqlite3.connect(target)
    connection.backup(backup)
    backup.close()
    connection.close()
    return target


@pytest.fixture(scope="module")
def month(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    """A database with one month of events added (about 5,000 player-games), the state
    after a complete publish, its files, and how long a publish takes here."""
    root = tmp_path_factory.mktemp("month")
    rng = np.random.default_rng(11)
    federation = make_federation(600, rng)
    write_list_csv(federation, root / "list.csv")
    generate_month(federation, "2026-01", 5000, root, rng, sizes=(10, 40))
    base = root / "base.sqlite"
    for args in (
        ["init", "--list", root / "list.csv", "--period", "2026-01"],
        ["add", root / "2026-01"],
    ):
        subprocess.run(
            [*COMMAND, *map(str, args), "--db", str(base)], check=True, capture_output=True
        )
    reference = copy_database(base, root / "reference.sqlite")
    start = time.perf_counter()
    subprocess.run(
        [*COMMAND, "publish", "2026-02", "--db", str(reference), "--out", str(root / "reference")],
        check=True,
        capture_output=True,
    )
    elapsed = time.perf_counter() - start
    files = {
        p.relative_to(root / "reference"): p.read_bytes()
        for p in (root / "reference").rglob("*")
        if p.is_file()
    }
    return {"root": root, "base": base, "before": dump(base), "after": dump(reference),
            "files": files, "elapsed": elapsed}  # fmt: skip


def test_killing_publish_leaves_before_or_after(month: dict[str, object]) -> None:
    root, files = Path(str(month["root"])), month["files"]
    assert isinstance(files, dict)
    outcomes = {"before": 0, "after": 0}
    for run, fraction in enumerate(KILLS):
        db = copy_database(Path(str(month["base"])), root / f"kill{run}.sqlite")
        out = root / f"kill{run}"
        process = subprocess.Popen(
            [*COMMAND, "publish", "2026-02", "--db", str(db), "--out", str(out)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        # Spread the kills over the whole run, from start-up to the end.
        time.sleep(float(month["elapsed"]) * fraction)  # type: ignore[arg-type]  # a JSON value
        process.send_signal(signal.SIGKILL)
        process.wait()
        state = dump(db)
        assert state in (month["before"], month["after"]), f"run {run}: a partial database"
        written = outputs(out)
        if state == month["before"]:
            outcomes["before"] += 1
            assert written == {}, f"run {run}: files written for a period not stored"
        else:
            outcomes["after"] += 1
            for name, data in written.items():
                assert files[name] == data, f"run {run}: {name} is half-written"
            # Published: a plain re-run writes every file, as the complete run did.
            subprocess.run(
                [*COMMAND, "publish", "2026-02", "--db", str(db), "--out", str(out)],
                check=True,
                capture_output=True,
            )
            assert outputs(out) == files, f"run {run}: the re-run did not complete the files"
            assert not list(out.glob(".rating-batch-staging-*")), "staging left after a re-run"
        shutil.rmtree(out, ignore_errors=True)
    assert outcomes["before"] > 0  # some kills did land before the commit


def test_two_adds_at_once(month: dict[str, object], tmp_path: Path) -> None:
    root = Path(str(month["root"]))
    events = sorted((root / "2026-01").glob("*.trf"))[:2]
    init = tmp_path / "init.sqlite"
    subprocess.run(
        [
            *COMMAND,
            "init",
            "--list",
            str(root / "list.csv"),
            "--period",
            "2026-01",
            "--db",
            str(init),
        ],
        check=True,
        capture_output=True,
    )
    for run in range(RUNS):
        db = copy_database(init, tmp_path / f"both{run}.sqlite")
        first = subprocess.Popen(
            [*COMMAND, "add", str(events[0]), "--db", str(db)], stderr=subprocess.PIPE
        )
        second = subprocess.Popen(
            [*COMMAND, "add", str(events[1]), "--db", str(db)], stderr=subprocess.PIPE
        )
        assert (first.wait(), second.wait()) == (0, 0), run
        connection = sqlite3.connect(db)
        stored = connection.execute("SELECT COUNT(*) FROM events").fetchone()[0]
        # Each event's games stored once: one row of packed games per event.
        packed = connection.execute("SELECT COUNT(DISTINCT event_id) FROM event_games").fetchone()[
            0
        ]
        connection.close()
        assert (stored, packed) == (2, 2), run
        dump(db)  # integrity_check

        db = copy_database(init, tmp_path / f"same{run}.sqlite")
        processes = [
            subprocess.Popen(
                [*COMMAND, "add", str(events[0]), "--db", str(db)],
                stderr=subprocess.PIPE,
                text=True,
            )
            for _ in range(2)
        ]
        codes = sorted(p.wait() for p in processes)
        errors = [p.stderr.read() if p.stderr else "" for p in processes]
        assert codes == [0, 1], run
        assert any("already added as" in e for e in errors), errors
        connection = sqlite3.connect(db)
        assert connection.execute("SELECT COUNT(*) FROM events").fetchone()[0] == 1
        connection.close()
        dump(db)


def _kill_at_random(command: list[str], elapsed: float, fraction: float) -> None:
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(elapsed * fraction)
    process.send_signal(signal.SIGKILL)
    process.wait()


def _timed(command: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(command, check=True, capture_output=True)
    return time.perf_counter() - start


@pytest.fixture(scope="module")
def published(month: dict[str, object], tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The month's database after a complete publish (journal entry 2)."""
    root = tmp_path_factory.mktemp("published")
    db = copy_database(Path(str(month["base"])), root / "published.sqlite")
    subprocess.run(
        [*COMMAND, "publish", "2026-02", "--db", str(db), "--out", str(root / "out")],
        check=True,
        capture_output=True,
    )
    assert dump(db) == month["after"]
    return db


def test_killing_unpublish_leaves_the_publish_or_exactly_the_state_before_it(
    month: dict[str, object], published: Path, tmp_path: Path
) -> None:
    probe = copy_database(published, tmp_path / "probe.sqlite")
    elapsed = _timed([*COMMAND, "unpublish", "2026-02", "--db", str(probe)])
    before = [line for line in month["before"] if JOURNAL.match(line) is None]  # type: ignore[attr-defined]  # a JSON value
    assert content(probe) == before  # exactly as before the publish
    untouched = dump(published)
    seen = set()
    for run, fraction in enumerate(KILLS):
        db = copy_database(published, tmp_path / f"unpublish{run}.sqlite")
        _kill_at_random([*COMMAND, "unpublish", "2026-02", "--db", str(db)], elapsed, fraction)
        if dump(db) == untouched:  # killed before its commit: not a byte of it, journal too
            seen.add("after")
        else:
            assert content(db) == before, f"run {run}: a partial database"
            seen.add("before")
    assert "after" in seen  # some kills did land before the commit


def test_killing_restore_leaves_the_database_or_the_state_before_the_publish(
    month: dict[str, object], published: Path, tmp_path: Path
) -> None:
    probe = copy_database(published, tmp_path / "probe.sqlite")
    elapsed = _timed([*COMMAND, "restore", "latest", "--db", str(probe)])
    before = [line for line in month["before"] if JOURNAL.match(line) is None]  # type: ignore[attr-defined]  # a JSON value
    assert content(probe) == before
    untouched = dump(published)
    seen = set()
    for run, fraction in enumerate(KILLS):
        db = copy_database(published, tmp_path / f"restore{run}.sqlite")
        _kill_at_random([*COMMAND, "restore", "latest", "--db", str(db)], elapsed, fraction)
        if dump(db) == untouched:
            seen.add("after")
        else:
            assert content(db) == before, f"run {run}: a partial database"
            seen.add("before")
    assert "after" in seen
