"""Undo that can never lose data, through the command line as real processes: one test per
way the undo machinery itself once lost data or misled, each judging the bytes (the
database's dump, every file beside it), not only the message.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from budget import kill_fractions
from db_helpers import (
    COMMAND,
    SCHEMA_5,
    companions,
    copy_of,
    data_dump,
    dump,
    event_file,
    process,
    query,
)
from db_helpers import run as run_here

from rating_batch.store.schema import SCHEMA_VERSION

FAULTS = Path(__file__).parent / "faults"
SCHEMA_7 = Path(__file__).parent / "data" / "db" / "schema-7.sqlite"

#: Left out of ``make test-fast`` (real processes, locks held for seconds, a mounted disk).
pytestmark = pytest.mark.slow


def build_month(folder: Path, command: Callable[..., tuple[int, str, str]] = process) -> Path:
    """A database of three players: January's event added and published on the February
    list, February's event added (journal entries 1 to 3); by ``command``: real processes,
    or ``in_process`` where the database is only a test's setting."""
    (folder / "list.csv").write_text("id,rating\n11,1600\n12,1500\n13,1450\n")
    db = folder / "db.sqlite"
    code, _, err = command(
        "init", "--list", "list.csv", "--period", "2026-01", "--db", db, cwd=folder
    )
    assert code == 0, err
    event_file(folder, "jan", [(1, 1, 2, "1-0")], day="2026/01/10")
    event_file(folder, "feb", [(1, 2, 1, "1-0")], day="2026/02/07")
    for args in (["add", "jan.trf"], ["publish", "2026-02", "--out", "lists"], ["add", "feb.trf"]):
        code, _, err = command(*args, "--db", db, cwd=folder)
        assert code == 0, err
    return db


def in_process(*args: object, cwd: Path) -> tuple[int, str, str]:
    """The command line in this process, run in ``cwd`` (db_helpers.run)."""
    with contextlib.chdir(cwd):
        return run_here(*args)


_MONTH: list[Path] = []


def month(folder: Path) -> Path:
    """``build_month``'s database (made once, copied with its folders into ``folder``: the
    same database, the same id)."""
    if not _MONTH:
        _MONTH.append(build_month(Path(tempfile.mkdtemp(prefix="undo-month-"))))
    shutil.copytree(_MONTH[0].parent, folder, dirs_exist_ok=True)
    return folder / _MONTH[0].name


def state(db: Path) -> tuple[bytes, dict[str, str]]:
    """The database file's bytes and every file beside it."""
    return db.read_bytes(), companions(db)


def journal(db: Path) -> list[tuple[object, ...]]:
    return query(db, "SELECT command_id, label FROM undo_commands ORDER BY command_id")


# -- restore on a full disk moved the healthy database aside and left none ----------


def test_restore_on_a_full_disk_refuses_and_leaves_the_database_where_it_is(
    tmp_path: Path,
) -> None:
    db = month(tmp_path)
    with_feb = data_dump(db)
    code, _, err = process("restore", "latest", "--db", db)  # undo the February add
    assert code == 0, err
    after_undo = data_dump(db)
    assert process("restore", "latest", "--db", db)[0] == 0  # and take that back
    assert data_dump(db) == with_feb
    with sqlite3.connect(db) as connection:  # one file, as an officer would copy it
        connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    connection.close()
    disk = tmp_path / "disk"
    disk.mkdir()
    report = tmp_path / "report"
    # In a mount namespace of its own: a 1 MB disk holding the database, filled up.
    script = f"""
set -u
mount -t tmpfs -o size=1m tmpfs {disk} || exit 90
cp {db} {disk}/db.sqlite
md5sum {disk}/db.sqlite > {report}.md5-before
dd if=/dev/zero of={disk}/filler bs=4k 2>/dev/null
{" ".join(COMMAND)} restore latest --db {disk}/db.sqlite > {report}.out 2> {report}.err
echo $? > {report}.rc
md5sum {disk}/db.sqlite > {report}.md5-after
ls -a {disk} > {report}.ls
rm {disk}/filler
{" ".join(COMMAND)} restore latest --db {disk}/db.sqlite > {report}.out2 2> {report}.err2
echo $? > {report}.rc2
cp {disk}/db.sqlite {tmp_path}/after.sqlite
"""
    done = subprocess.run(
        ["unshare", "--mount", "sh", "-c", script], capture_output=True, text=True
    )
    assert done.returncode == 0, f"could not mount a small disk here: {done.stderr}"

    def read(suffix: str) -> str:
        return Path(f"{report}{suffix}").read_text()

    assert read(".rc").strip() == "1"
    error = read(".err")
    assert error.startswith(f"Error: {disk}/db.sqlite: ") and "Traceback" not in error
    assert "damaged" not in error and "nothing was changed" in error
    # The database is where it was, byte for byte; nothing was moved into a backups folder.
    assert read(".md5-before").split()[0] == read(".md5-after").split()[0]
    assert "db.sqlite.backups" not in read(".ls").split()
    # With room again, the same restore works: the February add is undone.
    assert read(".rc2").strip() == "0", read(".err2")
    assert data_dump(tmp_path / "after.sqlite") == after_undo


# -- a database busy for more than 5 s was moved aside as "could not be read" -------


def test_restore_of_a_busy_database_waits_then_refuses_and_moves_nothing(tmp_path: Path) -> None:
    db = month(tmp_path)
    # A database in rollback-journal mode held by another program (a copy put in place by hand).
    with sqlite3.connect(db) as connection:
        connection.execute("PRAGMA journal_mode = DELETE")
    connection.close()
    # It holds the lock until the restore has ended, however slowly a busy machine starts
    # the restore (a fixed 6 s hold ran out under load before the restore began).
    holder = subprocess.Popen(
        [
            sys.executable, "-c",
            "import sqlite3, sys\n"
            f"c = sqlite3.connect({str(db)!r}, isolation_level=None)\n"
            "c.execute('BEGIN EXCLUSIVE'); c.execute('UPDATE meta SET value = value')\n"
            "print('held', flush=True); sys.stdin.readline(); c.execute('COMMIT')",
        ],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        inode = db.stat().st_ino
        start = time.monotonic()
        code, _, err = process("--wait", "2", "restore", "latest", "--db", db)
        waited = time.monotonic() - start
        assert holder.poll() is None  # still holding it as the restore ended
    finally:
        holder.communicate("commit\n", timeout=60)
    assert holder.returncode == 0
    assert code == 1 and "Traceback" not in err
    assert "is busy" in err and "damaged" not in err and waited >= 2
    assert db.stat().st_ino == inode  # the same file, never renamed
    assert not Path(f"{db}.backups").exists() or not list(Path(f"{db}.backups").glob("*damaged*"))
    # The other program's commit went into the database itself, which is whole.
    assert query(db, "PRAGMA integrity_check") == [("ok",)]
    assert [label for _, label in journal(db)] == ["add", "publish 2026-02", "add"]


# -- "latest" was chosen before the lock: two commands undone without a word --------


def test_restore_latest_undoes_the_command_that_finished_while_it_waited(tmp_path: Path) -> None:
    db = month(tmp_path)
    before_remove = data_dump(db)
    # 'remove feb' holds the write lock for two seconds before it commits.
    remover = subprocess.Popen(
        [
            sys.executable, "-c",
            "import sys, time\n"
            "from pathlib import Path\n"
            "from rating_batch.store import open_store\n"
            f"with open_store(Path({str(db)!r}), write=True, command='remove') as store:\n"
            "    with store.writing():\n"
            "        event = store.event_by_key('feb')\n"
            "        store.remove_event(int(event['event_id']))\n"
            "        print('removing', flush=True)\n"
            "        time.sleep(2)\n",
        ],
        stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert remover.stdout is not None and remover.stdout.readline().strip() == "removing"
    code, out, err = process("restore", "latest", "--db", db)
    assert remover.wait() == 0
    assert code == 0, err
    assert "undid remove" in out
    # Only the remove was undone: February's event is back, the publish of 2026-02 stays.
    assert data_dump(db) == before_remove
    assert query(db, "SELECT period, origin FROM lists ORDER BY period") == [
        ("2026-01", "init"),
        ("2026-02", "publish"),
    ]


# -- one database through two paths had two backups folders and two file stores -----


def test_a_database_reached_through_a_link_has_one_place_for_everything(tmp_path: Path) -> None:
    db = month(tmp_path)
    link = tmp_path / "link.sqlite"
    link.symlink_to(db.name)
    before_publish = data_dump(db)
    code, _, err = process("publish", "2026-03", "--db", link, "--out", tmp_path / "o")
    assert code == 0, err
    assert process("backup", "--db", link)[0] == 0
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(("db.", "link."))) == [
        "db.sqlite", "db.sqlite.backups", "db.sqlite.files", "link.sqlite",
    ]  # fmt: skip
    # Re-published through the other name, from the one store.
    code, _, err = process("publish", "2026-03", "--db", db, "--out", tmp_path / "o2")
    assert code == 0, err
    assert (tmp_path / "o2/2026-03/standard/list.csv").read_bytes() == (
        tmp_path / "o/2026-03/standard/list.csv"
    ).read_bytes()
    # restore latest through the link undoes exactly the last command, the publish.
    code, out, err = process("restore", "latest", "--db", link)
    assert code == 0, err
    assert out.startswith("undid publish 2026-03 (journal entry 4, ")
    assert data_dump(db) == before_publish and link.is_symlink()


# -- a dry run upgraded an older database, took a backup and made a files folder ----


@pytest.mark.parametrize(
    "args",
    [["add", "--dry-run", "feb.trf"], ["publish", "2026-03", "--dry-run", "--out", "o"]],
    ids=["add", "publish"],
)
def test_a_dry_run_of_an_older_database_writes_nothing(tmp_path: Path, args: list[str]) -> None:
    db = copy_of(SCHEMA_5, tmp_path / "db.sqlite")
    shutil.copytree(f"{SCHEMA_5}.files", f"{db}.files")
    event_file(tmp_path, "feb", [(1, 2, 1, "1-0")], day="2026/02/07")
    before = state(db)
    code, _, err = process(*args, "--db", db, cwd=tmp_path)
    assert code == 1 and "Traceback" not in err
    assert "made by an older rating_batch (schema 5); 'rating-batch upgrade" in err
    assert "a dry run changes nothing" in err
    assert state(db) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["db.sqlite", "db.sqlite.files", "feb.trf"]


# -- the second copies were the same files as the first ---


def test_an_upgrade_makes_the_second_copies_real_files(tmp_path: Path) -> None:
    db = copy_of(SCHEMA_7, tmp_path / "db.sqlite")
    shutil.copytree(f"{SCHEMA_7}.files", f"{db}.files")
    spare = Path(f"{db}.backups") / "files"
    for kept in Path(f"{db}.files").rglob("*"):
        if kept.is_file():  # as version 7 left them: a second name of each file
            (spare / kept.parent.name).mkdir(parents=True, exist_ok=True)
            os.link(kept, spare / kept.parent.name / kept.name)
    code, out, err = process("upgrade", "--db", db)
    assert code == 0, err
    assert out.startswith(f"upgraded {db} from schema 7 to {SCHEMA_VERSION}")
    pairs = [
        (kept, spare / kept.parent.name / kept.name)
        for kept in Path(f"{db}.files").rglob("*")
        if kept.is_file()
    ]
    assert len(pairs) == 10
    for kept, twin in pairs:
        assert kept.read_bytes() == twin.read_bytes()
        assert kept.stat().st_ino != twin.stat().st_ino and kept.stat().st_nlink == 1
    # A change in place now hits one copy only, and the published list is still exported.
    listed = query(db, "SELECT digest FROM published_files WHERE path = 'standard/list.csv'")[0][0]
    damaged = Path(f"{db}.files") / str(listed)[:2] / f"{listed}.z"
    with damaged.open("r+b") as handle:
        handle.seek(10)
        handle.write(b"X")
    code, _, err = process("export-list", "2026-02", "--db", db, "--out", tmp_path / "ex")
    assert code == 0, err
    # The upgrade's whole copy is the version-7 database, as it was.
    copies = list(Path(f"{db}.backups").glob("*-before-upgrade.sqlite"))
    assert len(copies) == 1 and dump(copies[0]) == dump(SCHEMA_7)


# -- any file was restored as a backup; the database itself deadlocked --------


def test_restore_puts_back_only_this_databases_own_copies(tmp_path: Path) -> None:
    db = month(tmp_path)
    other_folder = tmp_path / "other"
    other_folder.mkdir()
    # Made anew, in this process (only the restores below are what is tested): another
    # database, with an id of its own.
    other = build_month(other_folder, in_process)
    assert in_process("backup", "--db", other, cwd=other_folder)[0] == 0
    foreign = next(Path(f"{other}.backups").glob("*-backup.sqlite"))
    Path(f"{db}.backups").mkdir(exist_ok=True)
    shutil.copy(foreign, Path(f"{db}.backups") / foreign.name)  # named like one of ours
    before = state(db)
    code, _, err = process("restore", foreign.name, "--db", db)
    assert code == 1 and "a copy of another database, not of this one; not restored" in err
    code, _, err = process("restore", other, "--db", db)
    assert code == 1 and "is not one of the backups of" in err
    start = time.monotonic()
    code, _, err = process("restore", db, "--db", db)
    assert code == 1 and "is the database itself" in err
    assert time.monotonic() - start < 10  # at once, not after waiting for itself
    assert state(db) == before


# -- killed commands left hidden temporary files that nothing removed ---------------


def test_the_next_command_removes_what_killed_commands_left(tmp_path: Path) -> None:
    db = month(tmp_path)
    gone = subprocess.Popen(["true"])
    gone.wait()
    dead, alive = gone.pid, os.getpid()
    partial = Path(f"{db}.files") / ".partial"
    partial.mkdir(exist_ok=True)
    left = [
        tmp_path / f".new.sqlite.init-{dead}.tmp",
        tmp_path / f".new.sqlite.init-{dead}.tmp-wal",
        partial / f"{dead}-0123456789ab.tmp",
        Path(f"{db}.backups") / f".20261201T000000.000000Z-backup.sqlite.{dead}.tmp",
    ]
    # A publish killed before its commit had kept a file that no stored row names.
    orphan = Path(f"{db}.files") / "ab" / ("ab" + "0" * 62 + ".z")
    listing = partial / f"{dead}.new"
    running = [tmp_path / f".new.sqlite.init-{alive}.tmp", partial / f"{alive}-0123456789ab.tmp"]
    for path in [*left, orphan, *running]:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(b"partial")
    listing.write_text(f"f {orphan.relative_to(Path(f'{db}.files')).as_posix()}\n")
    kept = {path: path.read_bytes() for path in Path(f"{db}.files").rglob("*") if path.is_file()}
    assert (
        process(
            "add", "--db", db, event_file(tmp_path, "mar", [(1, 1, 2, "=-=")], day="2026/02/21")
        )[0]
        == 0
    )
    assert process("init", "--list", tmp_path / "list.csv", "--db", tmp_path / "b.sqlite")[0] == 0
    assert process("backup", "--db", db)[0] == 0
    for path in [*left, orphan, listing]:
        assert not path.exists(), path
    for path in running:  # a command still running keeps its own
        assert path.exists(), path
    for path, data in kept.items():
        if path not in (orphan, listing, *left, *running):
            assert path.read_bytes() == data  # the published files are untouched


# -- a refused publish left the files it had kept, and an empty folder --------------


def test_a_publish_refused_for_a_full_disk_leaves_no_kept_file(tmp_path: Path) -> None:
    db = month(tmp_path)
    assert process("unpublish", "2026-02", "--db", db)[0] == 0
    shutil.rmtree(Path(f"{db}.files"))
    shutil.rmtree(Path(f"{db}.backups"))
    before = state(db)
    environment = {
        "PYTHONPATH": os.pathsep.join([str(FAULTS), *filter(None, [os.environ.get("PYTHONPATH")])]),
        "RATING_BATCH_FAULT": "enospc:.backups/files/.partial",
    }
    code, _, err = process(
        "publish", "2026-02", "--db", db, "--out", tmp_path / "out", env=environment
    )
    assert code == 1 and "No space left on device" in err and "nothing was changed" in err
    assert state(db) == before
    assert not Path(f"{db}.files").exists() and not Path(f"{db}.backups").exists()
    assert not (tmp_path / "out").exists()


# -- read-only commands left db-wal and db-shm beside the database ------------------


def test_read_only_commands_leave_nothing_beside_the_database(tmp_path: Path) -> None:
    db = month(tmp_path)
    for args in (
        ["player", "11"],
        ["export-list", "2026-02", "--out", tmp_path / "ex"],
        ["backups"],
        ["add", "--dry-run", "feb.trf"],
        ["publish", "2026-03", "--dry-run"],
    ):
        before = dump(db)
        code, _, err = process(*args, "--db", db, cwd=tmp_path)
        assert code in (0, 1), err
        assert not Path(f"{db}-wal").exists() and not Path(f"{db}-shm").exists(), args
        assert dump(db) == before


# -- kills: undo, restore and backup are all or nothing -----------------------------------

#: When each run of a kill loop kills its command (``budget.py``: 12 runs under ``make soak``).
KILLS = kill_fractions(12, 4)


def _killed(args: list[object], after: float) -> None:
    child = subprocess.Popen(
        [*COMMAND, *map(str, args)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    time.sleep(after)
    child.send_signal(signal.SIGKILL)
    child.wait()


def _timed(args: list[object]) -> float:
    start = time.perf_counter()
    code, _, err = process(*args)
    assert code == 0, err
    return time.perf_counter() - start


@pytest.fixture(scope="module")
def bigger(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    """A month of about 5,000 player-games added and published, then the next added: the
    states before and after each of the last two commands."""
    sys.path.insert(0, str(Path(__file__).parent.parent / "benchmarks"))
    import numpy as np
    from generate import generate_month, make_federation, write_list_csv

    root = tmp_path_factory.mktemp("bigger")
    rng = np.random.default_rng(23)
    federation = make_federation(600, rng)
    write_list_csv(federation, root / "list.csv")
    generate_month(federation, "2026-01", 5000, root, rng, sizes=(10, 40))
    generate_month(federation, "2026-02", 5000, root, rng, sizes=(10, 40))
    db = root / "base.sqlite"
    steps = [
        ["init", "--list", root / "list.csv", "--period", "2026-01"],
        ["add", root / "2026-01"],
        ["publish", "2026-02", "--out", root / "out"],
    ]
    for args in steps:
        code, _, err = process(*args, "--db", db)
        assert code == 0, err
    before_add = data_dump(db)
    assert process("add", root / "2026-02", "--db", db)[0] == 0
    return {"root": root, "db": db, "before_add": before_add, "after_add": data_dump(db)}


def _copy(source: Path, target: Path) -> Path:
    for suffix in ("", ".files"):
        if Path(f"{target}{suffix}").exists():
            shutil.rmtree(Path(f"{target}{suffix}")) if suffix else target.unlink()
    reader = sqlite3.connect(source)
    writer = sqlite3.connect(target)
    reader.backup(writer)
    writer.close()
    reader.close()
    shutil.copytree(f"{source}.files", f"{target}.files")
    return target


def test_killing_an_undo_leaves_before_or_after_and_a_rerun_finishes_it(
    bigger: dict[str, object], tmp_path: Path
) -> None:
    source = Path(str(bigger["db"]))
    probe = _copy(source, tmp_path / "probe.sqlite")
    elapsed = _timed(["restore", "latest", "--db", probe])
    assert data_dump(probe) == bigger["before_add"]
    seen = set()
    for run, fraction in enumerate(KILLS):
        db = _copy(source, tmp_path / "kill.sqlite")
        _killed(["restore", "latest", "--db", db], elapsed * fraction)
        assert query(db, "PRAGMA integrity_check") == [("ok",)]
        now = data_dump(db)
        assert now in (bigger["before_add"], bigger["after_add"]), f"run {run}: partial"
        seen.add("undone" if now == bigger["before_add"] else "not yet")
        if now == bigger["after_add"]:  # the rerun does it, exactly
            assert process("restore", "latest", "--db", db)[0] == 0
            assert data_dump(db) == bigger["before_add"]
        assert [p for p in tmp_path.glob(".*.tmp*")] == []
    assert "not yet" in seen


def test_killing_a_backup_leaves_no_partial_copy(bigger: dict[str, object], tmp_path: Path) -> None:
    source = Path(str(bigger["db"]))
    db = _copy(source, tmp_path / "db.sqlite")
    elapsed = _timed(["backup", "--db", db])
    whole = sorted(Path(f"{db}.backups").glob("*.sqlite"))
    assert len(whole) == 1 and data_dump(whole[0]) == bigger["after_add"]
    whole[0].unlink()
    for fraction in KILLS:
        _killed(["backup", "--db", db], elapsed * fraction)
        assert data_dump(db) == bigger["after_add"]
        for copy in Path(f"{db}.backups").glob("*.sqlite"):
            assert data_dump(copy) == bigger["after_add"]  # a copy is whole, or not there
    assert process("backup", "--db", db)[0] == 0
    assert [p.name for p in Path(f"{db}.backups").iterdir() if p.name.endswith(".tmp")] == []


def test_killing_the_restore_of_a_whole_copy_leaves_before_or_after(
    bigger: dict[str, object], tmp_path: Path
) -> None:
    source = Path(str(bigger["db"]))
    db = _copy(source, tmp_path / "db.sqlite")
    assert process("restore", "latest", "--db", db)[0] == 0  # the February add undone
    assert process("backup", "--db", db)[0] == 0
    copy = next(Path(f"{db}.backups").glob("*-backup.sqlite")).name
    assert process("restore", "latest", "--db", db)[0] == 0  # the add again
    assert data_dump(db) == bigger["after_add"]
    reference = tmp_path / "reference.sqlite"
    shutil.copytree(f"{db}.backups", f"{reference}.backups")
    probe = _copy(db, tmp_path / "probe.sqlite")
    shutil.copytree(f"{db}.backups", f"{probe}.backups")
    elapsed = _timed(["restore", copy, "--db", probe])
    assert data_dump(probe) == bigger["before_add"]
    seen = set()
    for run, fraction in enumerate(KILLS):
        target = _copy(db, tmp_path / "kill.sqlite")
        shutil.rmtree(f"{target}.backups", ignore_errors=True)
        shutil.copytree(f"{db}.backups", f"{target}.backups")
        _killed(["restore", copy, "--db", target], elapsed * fraction)
        now = data_dump(target)
        assert now in (bigger["before_add"], bigger["after_add"]), f"run {run}: partial"
        seen.add(now == bigger["before_add"])
    assert False in seen
