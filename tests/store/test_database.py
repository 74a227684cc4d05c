"""Opening the rating database (store/database.py): nothing that is not ours is touched, read-
only commands change nothing, older databases are upgraded, a busy one names its holder."""

from __future__ import annotations

import os
import re
import shutil
import sqlite3
import subprocess
import sys
import time
import zlib
from pathlib import Path

import pytest
from db_helpers import (
    SCHEMA_1,
    SCHEMA_2,
    SCHEMA_3,
    SCHEMA_5,
    copy_of,
    data_dump,
    database,
    dump,
    event_file,
    process,
    query,
    run,
)
from trf_text import P

from rating_batch.store import DatabaseProblem, create_store, open_store
from rating_batch.store.schema import APPLICATION_ID, SCHEMA_VERSION


def stored_games(db: Path) -> list[tuple[object, ...]]:
    """Every stored game as the rows of schema 10's games table, read through the store."""
    with open_store(db) as store:
        games = store.games_of(store.events()["event_id"].tolist())
    return sorted(
        tuple(None if value is None or value != value else value for value in row)
        for row in games.astype(object).itertuples(index=False)
    )


def header(path: Path) -> bytes:
    return path.read_bytes()[:100]


def test_a_new_database_carries_our_mark_and_wal_mode(tmp_path: Path) -> None:
    db = database(tmp_path)
    data = header(db)
    assert data[18:20] == b"\x02\x02"  # WAL
    assert int.from_bytes(data[68:72], "big") == APPLICATION_ID
    assert not list(tmp_path.glob(".r.sqlite.init-*"))  # the temporary file is gone


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"", "is an empty file, not a rating database"),
        (b"id,rating\n11,1600\n", "is not a rating database \\(not an SQLite file\\)"),
    ],
)
def test_a_file_that_is_not_a_database_is_refused_unchanged(
    tmp_path: Path, content: bytes, message: str
) -> None:
    path = tmp_path / "list.csv"
    path.write_bytes(content)
    for write in (False, True):
        with pytest.raises(DatabaseProblem, match=message), open_store(path, write=write):
            pass
    assert path.read_bytes() == content


def foreign(path: Path) -> Path:
    connection = sqlite3.connect(path)
    connection.execute("CREATE TABLE notes (text TEXT)")
    connection.execute("INSERT INTO notes VALUES ('mine')")
    connection.commit()
    connection.close()
    return path


def test_a_foreign_sqlite_file_is_refused_unchanged_in_any_mode(tmp_path: Path) -> None:
    path = foreign(tmp_path / "other.sqlite")
    before = path.read_bytes()
    for write in (False, True):
        with (
            pytest.raises(DatabaseProblem, match="not a rating database"),
            open_store(path, write=write),
        ):
            pass
    assert path.read_bytes() == before  # still rollback-journal mode, not switched to WAL
    assert sorted(p.name for p in tmp_path.iterdir()) == ["other.sqlite"]


def test_another_programs_application_id_is_refused_before_sqlite_opens_it(
    tmp_path: Path,
) -> None:
    path = foreign(tmp_path / "other.sqlite")
    connection = sqlite3.connect(path)
    connection.execute("PRAGMA application_id = 1234")
    connection.close()
    with (
        pytest.raises(DatabaseProblem, match="an SQLite database of another program"),
        open_store(path),
    ):
        pass


def test_creating_over_any_existing_file_is_refused_untouched(tmp_path: Path) -> None:
    path = tmp_path / "list.csv"
    path.write_text("id,rating\n")
    with (
        pytest.raises(DatabaseProblem, match="already exists; init never replaces a file"),
        create_store(path),
    ):
        pass
    assert path.read_text() == "id,rating\n"


def test_a_failed_creation_leaves_nothing(tmp_path: Path) -> None:
    path = tmp_path / "new.sqlite"
    with pytest.raises(RuntimeError), create_store(path):
        raise RuntimeError("the list was bad")
    assert list(tmp_path.iterdir()) == []


def test_read_only_opening_changes_nothing(tmp_path: Path) -> None:
    db = database(tmp_path)
    before = db.read_bytes()
    with open_store(db) as store:
        assert len(store.players()) == 2
        with pytest.raises(sqlite3.OperationalError, match="readonly"):
            store.execute("DELETE FROM players")
    assert db.read_bytes() == before


def test_a_newer_schema_is_refused(tmp_path: Path) -> None:
    db = database(tmp_path)
    with sqlite3.connect(db) as connection:
        connection.execute("UPDATE meta SET value = '99' WHERE key = 'schema_version'")
    connection.close()
    with (
        pytest.raises(DatabaseProblem, match=r"made by a newer rating_batch \(schema 99"),
        open_store(db),
    ):
        pass


def test_a_version_1_database_is_upgraded_with_canonical_periods(tmp_path: Path) -> None:
    # schema-1.sqlite holds the period "2026-3" that version 1 accepted (tests/data/db).
    db = copy_of(SCHEMA_1, tmp_path / "old.sqlite")
    code, _, err = run("player", "11", "--db", db)
    assert code == 1
    assert "made by an older rating_batch (schema 1); 'rating-batch upgrade" in err
    assert db.read_bytes() == SCHEMA_1.read_bytes()  # a read-only command changed nothing
    code, out, _ = run("upgrade", "--db", db)
    assert code == 0 and out.startswith(f"upgraded {db} from schema 1 to {SCHEMA_VERSION}")
    copies = sorted(Path(f"{db}.backups").glob("*-before-upgrade.sqlite"))
    assert len(copies) == 1 and f"before the upgrade is saved whole as {copies[0].name}" in out
    assert copies[0].read_bytes()[18:20] == b"\x01\x01"  # one self-contained file
    with sqlite3.connect(copies[0]) as connection:  # the database as it was, whole
        assert connection.execute("SELECT period FROM lists ORDER BY period").fetchall() == [
            ("2026-01",),
            ("2026-02",),
            ("2026-3",),
        ]
    connection.close()
    with sqlite3.connect(db) as connection:
        lists = connection.execute("SELECT period, origin FROM lists ORDER BY period").fetchall()
        events = connection.execute("SELECT key, period FROM events ORDER BY key").fetchall()
        created = connection.execute(
            "SELECT created_by, created_event FROM players WHERE created_by <> 'list'"
        ).fetchall()
        application = connection.execute("PRAGMA application_id").fetchone()[0]
        with pytest.raises(sqlite3.IntegrityError, match="CHECK constraint failed"):
            connection.execute(
                "INSERT INTO lists (period, kind, origin, rules) VALUES ('2026-4', 'rapid', "
                "'publish', 'fide')"
            )
    connection.close()
    assert lists == [("2026-01", "init"), ("2026-02", "publish"), ("2026-03", "publish")]
    assert events == [("feb", "2026-04"), ("jan", "2026-02")]
    assert created == [("jan#3", 1)]
    assert application == APPLICATION_ID
    # The upgraded database works on: the February event is rated on the April list.
    code, out, err = run("publish", "2026-04", "--db", db, "--out", tmp_path / "out")
    assert code == 0, err
    assert "standard: 1 event(s)" in out
    code, _, _ = run("upgrade", "--db", db)
    assert code == 0


def test_two_periods_that_become_one_stop_the_upgrade(tmp_path: Path) -> None:
    db = copy_of(SCHEMA_1, tmp_path / "old.sqlite")
    with sqlite3.connect(db) as connection:
        connection.execute(
            "INSERT INTO lists (period, kind, origin, rules) VALUES "
            "('2026-03', 'standard', 'publish', 'fide')"
        )
    connection.close()
    before = dump(db)
    code, _, err = run("upgrade", "--db", db)
    assert code == 1 and "UNIQUE constraint failed" in err
    assert dump(db) == before


def test_a_busy_database_names_the_command_holding_it(tmp_path: Path) -> None:
    db = database(tmp_path)
    event = event_file(tmp_path, "open", [(1, 1, 2, "1-0")])
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sqlite3, sys, time\n"
            f"c = sqlite3.connect({str(db)!r}, isolation_level=None)\n"
            "c.execute('BEGIN IMMEDIATE')\n"
            f"open({str(db) + '.writer'!r}, 'w').write(\"'rating-batch publish 2026-02' "
            '(pid 4242 on officer-pc, since 2026-12-01 06:00:00 UTC)")\n'
            "print('locked', flush=True)\n"
            "time.sleep(30)\n",
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "locked\n"
        started = time.perf_counter()
        code, _, err = run("--wait", "1", "add", event, "--db", db)
        waited = time.perf_counter() - started
    finally:
        holder.kill()
        holder.wait()
    assert code == 1
    assert err == (
        f"Error: {db}: the database is busy: 'rating-batch publish 2026-02' (pid 4242 on "
        "officer-pc, since 2026-12-01 06:00:00 UTC) is writing to it; waited 1 s (--wait "
        "SECONDS, or $RATING_BATCH_WAIT, waits longer)\n"
    )
    assert 1 <= waited < 10


def test_a_damaged_database_is_a_message_naming_the_way_back(tmp_path: Path) -> None:
    db = database(tmp_path)
    with sqlite3.connect(db) as connection:
        connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    connection.close()
    data = bytearray(db.read_bytes())
    page = 4096
    data[page : 3 * page] = b"\xde\xad" * page  # two pages of junk
    db.write_bytes(bytes(data))
    code, _, err = run("player", "11", "--db", db)
    assert code == 1 and "Traceback" not in err
    assert f"{db}: the database is damaged (database disk image is malformed)" in err
    assert (
        "'rating-batch backups' lists the whole copies that 'rating-batch restore' can put back"
        in err
    )


def files_in_the_database(db: Path) -> dict[str, bytes]:
    """The published files an older database holds in itself (before schema 5)."""
    return {
        str(path): zlib.decompress(data) if compressed else bytes(data)
        for path, data, compressed in query(
            db, "SELECT path, data, compressed FROM published_files"
        )
    }


def written(folder: Path) -> dict[str, bytes]:
    return {
        f.relative_to(folder).as_posix(): f.read_bytes() for f in folder.rglob("*") if f.is_file()
    }


def test_a_version_2_database_is_upgraded_and_its_published_files_kept(tmp_path: Path) -> None:
    # schema-2.sqlite: January Open added and 2026-02 published (tests/data/db/SOURCES.md).
    db = copy_of(SCHEMA_2, tmp_path / "old.sqlite")
    stored = files_in_the_database(db)
    assert len(stored) == 9
    code, out, _ = run("upgrade", "--db", db)
    assert code == 0 and out.startswith(f"upgraded {db} from schema 2 to {SCHEMA_VERSION}")
    with sqlite3.connect(db) as connection:
        ranks = connection.execute("SELECT final_rank FROM event_players").fetchall()
    connection.close()
    assert ranks == [(None,)] * 4  # version 2 kept no final ranking
    # The published period's files are written again as they were (nothing re-rated), from
    # the files folder the upgrade moved them to.
    assert run("publish", "2026-02", "--db", db, "--out", tmp_path / "out")[0] == 0
    assert written(tmp_path / "out" / "2026-02") == stored
    # An event added now keeps its file's final ranking.
    players = [P(1, "Alpha, Ann", 1613, 11, 1980, final=2), P(2, "Bravo, Bob", 1500, 12, 1985)]
    event = event_file(tmp_path, "march", [(1, 2, 1, "1-0")], players=players, day="2026/02/10")
    assert run("add", event, "--db", db)[0] == 0
    ranks = query(
        db,
        "SELECT start_rank, final_rank FROM event_players ep JOIN events e USING (event_id) "
        "WHERE e.key = 'march' ORDER BY start_rank",
    )
    assert ranks == [(1, 2), (2, 2)]


def test_a_version_3_database_is_upgraded_with_an_empty_table_of_system_states(
    tmp_path: Path,
) -> None:
    # schema-3.sqlite: January Open added and 2026-02 published (tests/data/db/SOURCES.md).
    db = copy_of(SCHEMA_3, tmp_path / "old.sqlite")
    before = {t: sorted(query(db, f"SELECT * FROM {t}")) for t in ("players", "ratings")}
    stored = files_in_the_database(db)
    code, out, _ = run("upgrade", "--db", db)
    assert code == 0 and out.startswith(f"upgraded {db} from schema 3 to {SCHEMA_VERSION}")
    assert query(db, "SELECT COUNT(*) FROM system_states") == [(0,)]
    # Schema 9 adds each player's national id (none known), after the columns kept.
    after = {t: sorted(query(db, f"SELECT * FROM {t}")) for t in before}
    after["players"] = [row[:-1] for row in after["players"]]
    assert after == before
    # Schema 6: the largest tables in their key's order, their indexes as before (schema 11:
    # the games packed by event, the row table gone).
    tables = dict(query(db, "SELECT name, sql FROM sqlite_master WHERE type = 'table'"))
    for table in ("event_players", "ratings", "system_states"):
        assert str(tables[table]).endswith("WITHOUT ROWID"), table
    assert "games" not in tables
    assert query(db, "SELECT SUM(rows) FROM event_games") == query(
        SCHEMA_3, "SELECT COUNT(*) FROM games"
    )
    indexes = {name for (name,) in query(db, "SELECT name FROM sqlite_master WHERE type = 'index'")}
    assert {"ratings_period", "system_states_period"} <= indexes
    assert "event_players_player" not in indexes  # schema 7
    # Its rules are FIDE's: the published period is written again as it was.
    assert run("publish", "2026-02", "--db", db, "--out", tmp_path / "out")[0] == 0
    assert written(tmp_path / "out" / "2026-02") == stored


def test_a_version_5_database_is_upgraded_with_its_largest_tables_in_key_order(
    tmp_path: Path,
) -> None:
    # schema-5.sqlite: a Glicko-2 database, 2026-02 published (tests/data/db/SOURCES.md).
    db = copy_of(SCHEMA_5, tmp_path / "old.sqlite")
    shutil.copytree(f"{SCHEMA_5}.files", f"{db}.files")
    tables = ("games", "event_players", "ratings", "system_states", "players", "events")
    before = {t: sorted(query(db, f"SELECT * FROM {t}")) for t in tables}
    kept = Path(f"{db}.files")
    stored = {
        str(path): (zlib.decompress if compressed else bytes)(
            (kept / str(digest)[:2] / f"{digest}{'.z' if compressed else ''}").read_bytes()
        )
        for path, digest, compressed in query(
            db, "SELECT path, digest, compressed FROM published_files"
        )
    }
    code, out, _ = run("upgrade", "--db", db)
    assert code == 0 and out.startswith(f"upgraded {db} from schema 5 to {SCHEMA_VERSION}")
    after = {t: sorted(query(db, f"SELECT * FROM {t}")) for t in tables[1:]}
    after["games"] = stored_games(db)  # schema 11: packed by event
    after["players"] = [row[:-1] for row in after["players"]]  # schema 9: national_id, none
    # Schema 10: round_dates, federation, city, none known.
    after["events"] = [row[:-3] for row in after["events"]]
    assert {row[-3:] for row in query(db, "SELECT * FROM events")} == {(None, None, None)}
    assert after == before
    assert len(before["system_states"]) == 24  # four players, three state columns, two lists
    sql = dict(query(db, "SELECT name, sql FROM sqlite_master WHERE type = 'table'"))
    assert all(str(sql[t]).endswith("WITHOUT ROWID") for t in tables[1:4])
    indexes = {name for (name,) in query(db, "SELECT name FROM sqlite_master WHERE type = 'index'")}
    assert {"ratings_period", "system_states_period"} <= indexes
    assert "event_players_player" not in indexes  # schema 7
    # The published period is written again as it was.
    assert run("publish", "2026-02", "--db", db, "--out", tmp_path / "out")[0] == 0
    assert written(tmp_path / "out" / "2026-02") == stored and len(stored) == 7
    assert run("player", "11", "--db", db)[0] == 0


@pytest.mark.parametrize(
    "command",
    [("add", "e.trf"), ("publish", "2026-02"), ("player", "11"), ("backups",)],
    ids=["add", "publish", "player", "backups"],
)
def test_a_command_run_away_from_its_database_says_where_it_looked_and_how_to_name_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: tuple[str, ...]
) -> None:
    # The officer forgot --db in another folder: nothing may appear there (no database, no
    # companion folders), and the message names the path looked at, --db and the variable.
    monkeypatch.delenv("RATING_BATCH_DB", raising=False)
    event_file(tmp_path, "e", [(1, 1, 2, "1-0")])
    before = sorted(p.name for p in tmp_path.iterdir())
    code, out, err = process(*command, cwd=tmp_path)
    assert code == 1
    assert out == ""
    assert err == (
        f"Error: rating_batch.sqlite: no rating database at {tmp_path / 'rating_batch.sqlite'}; "
        "give its path with --db PATH (or set $RATING_BATCH_DB), or create one there with "
        "'rating-batch init --list FILE'\n"
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == before


@pytest.mark.slow  # a mount namespace with a read-only mount
def test_a_database_on_read_only_media_is_said_to_be_read_only(tmp_path: Path) -> None:
    import subprocess

    from db_helpers import COMMAND

    media = tmp_path / "media"
    media.mkdir()
    db = database(media)
    with sqlite3.connect(db) as connection:  # one file, as copied onto a stick or share
        connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    connection.close()
    before = db.read_bytes()
    event = event_file(tmp_path, "e", [(1, 1, 2, "1-0")])
    report = tmp_path / "report"
    script = f"""
set -u
mount --bind {media} {media} && mount -o remount,bind,ro {media} || exit 90
{" ".join(COMMAND)} add {event} --db {db} > {report}.out 2> {report}.err; echo $? > {report}.rc
{" ".join(COMMAND)} player 11 --db {db} > {report}.player 2>&1; echo $? >> {report}.rc
ls -a {media} > {report}.ls
"""
    done = subprocess.run(["unshare", "--mount", "sh", "-c", script], capture_output=True)
    assert done.returncode == 0, f"could not mount read-only here: {done.stderr!r}"

    def read(suffix: str) -> str:
        return Path(f"{report}{suffix}").read_text()

    assert read(".rc").split() == ["1", "0"]  # add refused; player reads it
    assert read(".out") == ""
    # Without statvfs (Windows; make test-portable) the disk is not asked: the file says it.
    why = "on a read-only disk or share"
    if not hasattr(os, "statvfs"):
        why = "read-only (no permission to write)"
    assert read(".err") == (
        f"Error: {db}: cannot write: it is {why}; commands that only "
        "read it (player, export-list, backups) work there; nothing was changed\n"
    )
    assert db.read_bytes() == before
    assert read(".ls").split() == [".", "..", "list.csv", "r.sqlite"]


@pytest.mark.slow  # a real process with an injected fault
def test_a_failed_upgrade_inside_add_is_said_to_be_the_upgrade(tmp_path: Path) -> None:
    # schema-2.sqlite keeps its published files inside (tests/data/db/SOURCES.md): add
    # upgrades it first, which moves them into the files folder; a full disk there stops it.
    db = copy_of(SCHEMA_2, tmp_path / "old.sqlite")
    before = dump(db)
    event = event_file(tmp_path, "march", [(1, 2, 1, "1-0")], day="2026/02/10")
    faults = Path(__file__).parents[1] / "faults"
    full = {"PYTHONPATH": str(faults), "RATING_BATCH_FAULT": "enospc:.sqlite.files/"}
    code, out, err = process("add", event, "--db", db, env=full)
    assert (code, out) == (1, "")
    assert re.fullmatch(
        rf"Error: {re.escape(str(db))}: cannot be upgraded from schema 2 \(an older "
        rf"rating_batch's\) to {SCHEMA_VERSION}, which 'add' does first: "
        rf"{re.escape(str(db))}\.files/[0-9a-f]{{2}}: cannot keep the published file "
        r"standard/\S+ \(No space left on device\); nothing was changed\n",
        err,
    ), err
    assert dump(db) == before
    code, out, err = process("add", event, "--db", db)
    assert code == 0 and out.startswith("added march"), err


SCHEMA_7 = SCHEMA_5.with_name("schema-7.sqlite")


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (
            ["edit-player", "123456", "--name", "X, Y"],
            "'edit-player' failed, changing nothing itself: no player '123456' (a FIDE ID, or "
            "the id the lists give a player without one, e.g. e1#7; 'rating-batch player "
            "--name TEXT' finds it)",
        ),
        (
            ["unpublish", "2030-05"],
            "'unpublish' failed, changing nothing itself: 2030-05 is not published (the last "
            "published list is 2026-02); nothing to unpublish",
        ),
    ],
)
def test_an_upgrade_that_stands_before_the_command_fails_is_said(
    tmp_path: Path, args: list[str], said: str
) -> None:
    db = copy_of(SCHEMA_7, tmp_path / "old.sqlite")
    shutil.copytree(f"{SCHEMA_7}.files", f"{db}.files")
    old = data_dump(db)
    code, out, err = run(*args, "--db", db)
    assert (code, out) == (1, "")
    (copy,) = Path(f"{db}.backups").glob("*-before-upgrade.sqlite")
    assert err == (
        f"Error: {db}: was upgraded from schema 7 to {SCHEMA_VERSION} first (the database "
        f"before the upgrade is saved whole as {copy.name}: 'rating-batch restore "
        f"{copy.name}' puts it back); then {said}\n"
    )
    # The upgrade stands (said so, not "nothing was changed"), and the copy holds the state
    # before it.
    assert query(db, "SELECT value FROM meta WHERE key = 'schema_version'") == [
        (str(SCHEMA_VERSION),)
    ]
    assert data_dump(copy) == old


def test_a_full_disk_after_the_upgrade_is_not_said_to_have_changed_nothing(
    tmp_path: Path,
) -> None:
    db = copy_of(SCHEMA_7, tmp_path / "old.sqlite")
    shutil.copytree(f"{SCHEMA_7}.files", f"{db}.files")
    with (
        pytest.raises(DatabaseProblem) as refused,
        open_store(db, write=True, command="add") as store,
        store.writing(),
    ):
        # What SQLite says when the disk fills up under the command's own writes.
        raise sqlite3.OperationalError("database or disk is full")
    (copy,) = Path(f"{db}.backups").glob("*-before-upgrade.sqlite")
    assert str(refused.value) == (
        f"{db}: was upgraded from schema 7 to {SCHEMA_VERSION} first (the database before the "
        f"upgrade is saved whole as {copy.name}: 'rating-batch restore {copy.name}' puts it "
        "back); then 'add' failed, changing nothing itself: cannot write: database or disk is "
        "full"
    )
