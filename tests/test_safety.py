"""The rating database survives every officer mistake (issue 12), through the command line
as real processes on real files: one test per way the tool lost data or misled before.

Faults of the machine (a full disk, a read-only folder, a refused rename) are injected into
the process by ``tests/faults/sitecustomize.py``.
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from db_helpers import COMMAND, data_dump, dump, event_file
from trf_text import P

FAULTS = Path(__file__).parent / "faults"

#: Left out of ``make test-fast`` (every test runs the command line as real processes, with
#: injected faults; the same rules are tested in process by tests/store and tests/production).
pytestmark = pytest.mark.slow


def process(
    *args: object, cwd: Path | None = None, fault: str | None = None
) -> tuple[int, str, str]:
    environment = dict(os.environ)
    if fault is not None:
        environment["PYTHONPATH"] = os.pathsep.join(
            [str(FAULTS), *filter(None, [environment.get("PYTHONPATH")])]
        )
        environment["RATING_BATCH_FAULT"] = fault
    done = subprocess.run(
        [*COMMAND, *map(str, args)],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=environment,
        timeout=300,
    )
    return done.returncode, done.stdout, done.stderr


def one_line_error(code: int, err: str) -> str:
    """The single ``Error: …`` line of a failed command (never a traceback)."""
    assert code == 1, err
    assert "Traceback" not in err
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), err
    return lines[0]


LIST = "id,rating\n11,1600\n12,1500\n13,1450\n"
#: ``made_once`` (tests/conftest.py) while this module runs: ``init`` and ``published``
#: copy the states made once by these same commands, as real processes, instead of running
#: them again for every test (two to four seconds of start-up and imports each).
_MADE: list[Callable[..., Path]] = []


@pytest.fixture
def folder(tmp_path: Path, made_once: Callable[..., Path]) -> Iterator[Path]:
    (tmp_path / "list.csv").write_text(LIST)
    _MADE[:] = [made_once]
    yield tmp_path
    _MADE.clear()


def _initialised(folder: Path) -> None:
    (folder / "list.csv").write_text(LIST)
    code, _, err = process("init", "--list", "list.csv", "--period", "2026-01", cwd=folder)
    assert code == 0, err


def _published(folder: Path) -> None:
    _initialised(folder)
    event_file(folder, "jan", [(1, 1, 2, "1-0")], day="2026/01/10")
    assert process("add", "jan.trf", cwd=folder)[0] == 0
    assert process("publish", "2026-02", "--out", "lists", cwd=folder)[0] == 0


def init(folder: Path) -> Path:
    """``folder`` as ``init --list list.csv --period 2026-01`` run in it leaves it (the
    state made once a worker, copied)."""
    _MADE[0](_initialised, folder)
    return folder / "rating_batch.sqlite"


def published(folder: Path) -> Path:
    """A database with one January event (jan.trf), published on the February list (in
    lists/): the state made once a worker, copied."""
    _MADE[0](_published, folder)
    return folder / "rating_batch.sqlite"


# -- "init run a second time deletes the existing database; --db list.csv deletes the list" --


def test_init_never_deletes_what_is_there(folder: Path) -> None:
    db = published(folder)
    state, data = dump(db), db.read_bytes()
    code, _, err = process("init", "--list", "list.csv", cwd=folder)
    assert "already exists; init never replaces a file" in one_line_error(code, err)
    assert db.exists() and dump(db) == state and db.read_bytes() == data
    listing = (folder / "list.csv").read_bytes()
    code, _, err = process("init", "--list", "list.csv", "--db", "list.csv", cwd=folder)
    assert "already exists" in one_line_error(code, err)
    assert (folder / "list.csv").read_bytes() == listing


# -- "init --period 2026-01 then publish 2026-01 empties the initial list, exit 0" -------------


def test_the_initial_lists_period_is_never_published(folder: Path) -> None:
    db = init(folder)
    state = dump(db)
    code, _, err = process("publish", "2026-01", "--out", "lists", cwd=folder)
    assert one_line_error(code, err) == (
        "Error: 2026-01 is the initial list's own period: it is never published (the next "
        "list is 2026-02)"
    )
    assert dump(db) == state and not (folder / "lists").exists()
    assert process("export-list", "initial", "--out", "x", cwd=folder)[0] == 0
    assert (folder / "x/2026-01/standard/list.csv").read_text(encoding="utf-8-sig").count(
        "\n"
    ) == 4  # the header and the three players, all still rated


# -- "publish 2026-4, '2026-04 ', 26-04 or 2027-03 are accepted; events of 2006 or 2062" ------


def test_a_mistyped_period_is_refused_and_the_right_one_still_works(folder: Path) -> None:
    # Each refusal leaves the database as it was (compared whole), so the right period
    # published once after all of them is what it would be after any one.
    db = init(folder)
    state = dump(db)
    for typed in ("2026-4", "2026-04 ", "26-04", "2027-03"):
        code, _, err = process("publish", typed, "--out", "lists", cwd=folder)
        one_line_error(code, err)
        assert dump(db) == state, typed
    assert process("publish", "2026-02", "--out", "lists", cwd=folder)[0] == 0


def test_an_event_dated_years_away_is_refused(folder: Path) -> None:
    db = init(folder)
    state = dump(db)
    for year in ("2006", "2062"):
        event = event_file(folder, f"typo{year}", [(1, 1, 2, "1-0")], day=f"{year}/01/10")
        code, _, err = process("add", event, cwd=folder)
        assert "(--accept-dates adds it anyway)" in one_line_error(code, err), year
        assert dump(db) == state, year
    assert process("publish", "2026-02", "--out", "lists", cwd=folder)[0] == 0


def test_a_publish_can_be_undone(folder: Path) -> None:
    db = init(folder)
    event = event_file(folder, "jan", [(1, 1, 2, "1-0")], day="2026/01/10")
    assert process("add", event, cwd=folder)[0] == 0
    before = data_dump(db)
    assert process("publish", "2026-02", "--out", "lists", cwd=folder)[0] == 0
    code, out, _ = process("unpublish", "2026-02", cwd=folder)
    assert code == 0 and out.startswith("unpublished 2026-02")
    assert data_dump(db) == before


# -- "a re-titled copy of an event is added and rated twice; rate of two copies double-counts" --


def test_a_retitled_copy_is_never_rated_twice(folder: Path) -> None:
    db = init(folder)
    games = [(1, 1, 2, "1-0"), (2, 3, 1, "=-="), (3, 2, 3, "0-1")]
    players = [P(1, "A", 1600, 11, 1980), P(2, "B", 1500, 12, 1980), P(3, "C", 1450, 13, 1980)]
    first = event_file(folder, "open", games, players=players, title="Club Open")
    copy = event_file(folder, "open-final", games, players=players, title="Club Open (final)")
    assert process("add", first, cwd=folder)[0] == 0
    state = dump(db)
    code, _, err = process("add", copy, cwd=folder)
    assert "shares 3 of its 3 played games with the stored event open" in one_line_error(code, err)
    assert dump(db) == state
    code, _, err = process("rate", first, copy, "--out", "rated", cwd=folder)
    assert "the same results reported twice?" in one_line_error(code, err)
    assert not (folder / "rated").exists()


# -- "player 123 shows a different person (internal row ids are matched too)" ------------------


def test_player_is_found_by_fide_id_only(folder: Path) -> None:
    init(folder)
    code, _, err = process("player", "1", cwd=folder)  # row 1 is FIDE ID 11
    assert one_line_error(code, err).startswith(
        "Error: no player with FIDE ID 1 in rating_batch.sqlite"
    )
    code, out, _ = process("player", "11", cwd=folder)
    assert code == 0 and "FIDE ID 11" in out


# -- "re-publishing the last period after a later add filled in a birth year changes it" ------


def test_a_published_list_never_changes(folder: Path) -> None:
    db = init(folder)
    unknown = [P(1, "A", 1600, 11, None), P(2, "B", 1500, 12, 1980)]
    jan = event_file(folder, "jan", [(1, 1, 2, "1-0")], players=unknown, day="2026/01/10")
    assert process("add", jan, cwd=folder)[0] == 0
    assert process("publish", "2026-02", "--out", "lists", cwd=folder)[0] == 0
    files = {p: p.read_bytes() for p in (folder / "lists").rglob("*") if p.is_file()}
    # February's file gives 11 the birth year 2012: a junior (K 40) from now on.
    junior = [P(1, "A", 1600, 11, 2012), P(2, "B", 1500, 12, 1980)]
    feb = event_file(folder, "feb", [(1, 2, 1, "1-0")], players=junior, day="2026/02/07")
    assert process("add", feb, cwd=folder)[0] == 0
    with sqlite3.connect(db) as connection:
        assert connection.execute(
            "SELECT birth_year FROM players WHERE fide_id = 11"
        ).fetchone() == (2012,)
    connection.close()
    assert process("publish", "2026-02", "--out", "lists", cwd=folder)[0] == 0
    assert {p: p.read_bytes() for p in (folder / "lists").rglob("*") if p.is_file()} == files


# -- "the output set is not all-or-nothing; a publish failing after its commit: traceback" ----


def test_a_failed_rename_leaves_the_previous_outputs(folder: Path) -> None:
    event = event_file(folder, "jan", [(1, 1, 2, "1-0")], day="2026/01/10")
    assert process("rate", event, "--out", "out", cwd=folder)[0] == 0
    before = {p: p.read_bytes() for p in (folder / "out").rglob("*") if p.is_file()}
    other = event_file(folder, "feb", [(1, 2, 1, "1-0")], day="2026/02/10")
    code, _, err = process("rate", other, "--out", "out", cwd=folder, fault="rename:out/games.csv")
    line = one_line_error(code, err)
    assert (
        "cannot put the outputs in place" in line and "the previous files are as they were" in line
    )
    assert {p: p.read_bytes() for p in (folder / "out").rglob("*") if p.is_file()} == before


def test_a_publish_whose_files_fail_after_the_commit_says_so_and_a_rerun_completes(
    folder: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    reference = tmp_path_factory.mktemp("reference")
    (reference / "list.csv").write_bytes((folder / "list.csv").read_bytes())
    published(reference)
    expected = {
        p.relative_to(reference / "lists"): p.read_bytes()
        for p in (reference / "lists").rglob("*")
        if p.is_file()
    }
    init(folder)
    event_file(folder, "jan", [(1, 1, 2, "1-0")], day="2026/01/10")
    assert process("add", "jan.trf", cwd=folder)[0] == 0
    code, _, err = process(
        "publish", "2026-02", "--out", "lists", cwd=folder, fault="rename:lists/2026-02"
    )
    assert one_line_error(code, err) == (
        "Error: published 2026-02 in rating_batch.sqlite, but its files could not be put in "
        "place: lists/2026-02: cannot put the outputs in place (Permission denied); the "
        "previous files are as they were; 'rating-batch publish 2026-02 --out lists' writes them"
    )
    assert [p for p in (folder / "lists").rglob("*")] == []  # staging removed, nothing half
    assert process("publish", "2026-02", "--out", "lists", cwd=folder)[0] == 0
    written = {
        p.relative_to(folder / "lists"): p.read_bytes()
        for p in (folder / "lists").rglob("*")
        if p.is_file()
    }
    assert written == expected


# -- "disk full, read-only folders, a locked or damaged database, --out under a file, a
#     240-character event file name: all end in tracebacks; a foreign SQLite file is switched
#     to WAL mode, even by player" ------------------------------------------------------------


def test_a_full_disk_while_publishing_changes_nothing(folder: Path) -> None:
    db = init(folder)
    event = event_file(folder, "jan", [(1, 1, 2, "1-0")], day="2026/01/10")
    assert process("add", event, cwd=folder)[0] == 0
    state = dump(db)
    code, _, err = process(
        "publish", "2026-02", "--out", "lists", cwd=folder, fault="enospc:list.xlsx"
    )
    assert "No space left on device" in one_line_error(code, err)
    assert dump(db) == state
    assert not (folder / "lists").exists()


def test_a_read_only_out_folder_is_a_message(folder: Path) -> None:
    event = event_file(folder, "jan", [(1, 1, 2, "1-0")], day="2026/01/10")
    (folder / "shared").mkdir()
    code, _, err = process(
        "rate", event, "--out", "shared/out", cwd=folder, fault="readonly:shared"
    )
    assert "Read-only file system" in one_line_error(code, err)
    assert list((folder / "shared").iterdir()) == []


def test_a_read_only_backups_folder_refuses_a_whole_copy_and_changes_nothing(
    folder: Path,
) -> None:
    db = init(folder)
    event = event_file(folder, "jan", [(1, 1, 2, "1-0")], day="2026/01/10")
    # The undo journal is inside the database: changing it needs no backups folder.
    assert process("add", event, cwd=folder, fault=f"readonly:{db.name}.backups")[0] == 0
    state = dump(db)
    code, _, err = process("backup", cwd=folder, fault=f"readonly:{db.name}.backups")
    line = one_line_error(code, err)
    real = os.path.realpath(db)
    assert f"cannot save a whole copy in {real}.backups (Read-only file system)" in line
    assert dump(db) == state and not Path(f"{db}.backups").exists()


def test_missing_folders_and_a_file_in_the_way_are_messages(folder: Path) -> None:
    code, _, err = process("init", "--list", "list.csv", "--db", "no/such/r.sqlite", cwd=folder)
    assert "the folder no/such does not exist" in one_line_error(code, err)
    (folder / "report").write_text("a file")
    event = event_file(folder, "jan", [(1, 1, 2, "1-0")], day="2026/01/10")
    code, _, err = process("rate", event, "--out", "report/out", cwd=folder)
    assert "a file is in the way" in one_line_error(code, err)
    assert (folder / "report").read_text() == "a file"


def test_a_locked_database_waits_then_names_the_holder(folder: Path) -> None:
    db = init(folder)
    holder = subprocess.Popen(
        [sys.executable, "-c",
         f"import sqlite3, time\nc = sqlite3.connect({str(db)!r}, isolation_level=None)\n"
         "c.execute('BEGIN IMMEDIATE')\nprint('locked', flush=True)\ntime.sleep(30)\n"],
        stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "locked\n"
        event = event_file(folder, "jan", [(1, 1, 2, "1-0")], day="2026/01/10")
        code, _, err = process("--wait", "0.5", "add", event, cwd=folder)
    finally:
        holder.kill()
        holder.wait()
    assert one_line_error(code, err) == (
        "Error: rating_batch.sqlite: the database is busy: another program is writing to it; "
        "waited 0.5 s (--wait SECONDS, or $RATING_BATCH_WAIT, waits longer)"
    )


def test_a_damaged_database_is_a_message_and_a_whole_copy_restores_it(folder: Path) -> None:
    db = published(folder)
    whole = data_dump(db)
    assert process("backup", cwd=folder)[0] == 0
    backups = sorted(Path(f"{db}.backups").glob("*-backup.sqlite"))
    with sqlite3.connect(db) as connection:
        connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    connection.close()
    data = bytearray(db.read_bytes())
    data[4096 : 3 * 4096] = b"\x00\xff" * 4096
    db.write_bytes(bytes(data))
    damaged = bytes(data)
    for command in (["player", "11"], ["publish", "2026-03", "--out", "lists"]):
        code, _, err = process(*command, cwd=folder)
        line = one_line_error(code, err)
        assert "the database is damaged (database disk image is malformed)" in line
        assert "lists the whole copies that 'rating-batch restore' can put back" in line
    code, out, err = process("restore", backups[0].name, cwd=folder)
    assert code == 0, err
    aside = sorted(Path(f"{db}.backups").glob("damaged-*.sqlite"))
    assert len(aside) == 1 and aside[0].read_bytes() == damaged  # copied aside, not lost
    assert out.splitlines()[:2] == [
        f"{db.name} was damaged: its copy is {aside[0]}",
        f"restored {db.name} from the whole copy {backups[0].name}",
    ]
    assert data_dump(db) == whole
    assert process("publish", "2026-02", "--out", "lists", cwd=folder)[0] == 0


def test_a_foreign_sqlite_file_is_refused_and_left_as_it_was(folder: Path) -> None:
    other = folder / "accounts.sqlite"
    connection = sqlite3.connect(other)
    connection.execute("CREATE TABLE members (name TEXT)")
    connection.commit()
    connection.close()
    data = other.read_bytes()
    event = event_file(folder, "jan", [(1, 1, 2, "1-0")], day="2026/01/10")
    for command in (["player", "11"], ["add", event], ["publish", "2026-02"], ["remove", "x"]):
        code, _, err = process(*command, "--db", other, cwd=folder)
        assert "an SQLite database, but not a rating database; nothing was changed" in (
            one_line_error(code, err)
        )
    assert other.read_bytes() == data  # not switched to WAL, not touched at all
    assert sorted(p.name for p in folder.iterdir() if p.name.startswith("accounts")) == [
        "accounts.sqlite"
    ]


def test_a_240_character_event_file_name_is_rated_and_published(folder: Path) -> None:
    init(folder)
    name = "Campeonato " + "muy largo de la federacion " * 8 + "final"
    name = name[:240]
    event = event_file(folder, name, [(1, 1, 2, "1-0")], day="2026/01/10")
    code, out, err = process("add", event, cwd=folder)
    assert code == 0, err
    key = out.split(" (", 1)[0].removeprefix("added ")
    assert len(key) <= 80 and key.startswith("Campeonato muy largo")
    code, _, err = process("publish", "2026-02", "--out", "lists", cwd=folder)
    assert code == 0, err
    assert (folder / "lists" / "2026-02" / "standard" / "events" / f"{key}.html").exists()
