"""The games store of schema 11 (one row of packed games per event, store/packed.py) against
the table of rows of schema 10: a schema-10 database opens migrated with every game as it was
(tests/data/db/schema-10.sqlite, made by the code before schema 11 from the sample
federation: tests/data/db/SOURCES.md), publishes as a database made anew does, and a failed
migration leaves it as it was; add, remove, undo and the restore of a whole copy bring back
exactly the games the table of rows held."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from db_helpers import copy_of, data_dump, dump, query, run

from rating_batch.store import open_store
from rating_batch.store.schema import SCHEMA_VERSION

SCHEMA_10 = Path(__file__).parents[1] / "data" / "db" / "schema-10.sqlite"
SAMPLE = Path(__file__).parents[2] / "sample_data" / "monthly"

#: Schema 10's games, as its table held them.
ROWS = (
    "SELECT event_id, round, start_rank, opponent_rank, colour, result, score, rated, reason, "
    "line FROM games"
)

#: Schema 10's ``pending_games`` (the first-rating pool with each game's opponent), as the
#: code before schema 11 asked it of the table of rows.
POOL_V10 = """
    SELECT p.player_id, e.key AS event, p.round, p.opponent_rating, p.half,
           p.game_period, them.player_id AS opponent_player
    FROM pending p
    JOIN events e ON e.event_id = p.event_id
    LEFT JOIN event_players me ON me.event_id = p.event_id AND me.player_id = p.player_id
    LEFT JOIN games g
      ON g.event_id = p.event_id AND g.round = p.round AND g.start_rank = me.start_rank
    LEFT JOIN event_players them
      ON them.event_id = p.event_id AND them.start_rank = g.opponent_rank
    WHERE p.kind = 'standard' AND p.period = '2026-02'
    ORDER BY p.player_id, p.game_period, p.event_id, p.round
"""


def stored_games(db: Path, event_ids: list[int] | None = None) -> list[tuple[object, ...]]:
    """The stored games (of these events, or all) as schema 10's rows, read through the store."""
    with open_store(db) as store:
        wanted = store.events()["event_id"].tolist() if event_ids is None else event_ids
        games = store.games_of(wanted)
    return sorted(
        tuple(None if value is None or value != value else value for value in row)
        for row in games.astype(object).itertuples(index=False)
    )


def test_a_schema_10_database_opens_migrated_with_every_game_as_before(tmp_path: Path) -> None:
    db = copy_of(SCHEMA_10, tmp_path / "old.sqlite")
    rows = sorted(query(db, ROWS))
    assert len(rows) == 3184  # 14 events of the sample federation (SOURCES.md)
    # Rows of every kind: 190 byes (no opponent, no colour), 22 forfeits, 2,972 rated.
    reasons = [row[8] for row in rows]
    assert (reasons.count("bye"), reasons.count("forfeit"), reasons.count(None)) == (190, 22, 2972)
    assert {row[3] for row in rows if row[8] == "bye"} == {None}
    sizes = query(
        db,
        "SELECT e.key, (SELECT COUNT(*) FROM games g WHERE g.event_id = e.event_id "
        "AND g.opponent_rank IS NOT NULL) / 2 FROM events e ORDER BY e.period, e.key",
    )
    pool = query(db, POOL_V10)
    code, out, _ = run("upgrade", "--db", db)
    assert code == 0 and out.startswith(f"upgraded {db} from schema 10 to {SCHEMA_VERSION}")
    assert SCHEMA_VERSION == 11
    tables = {name for (name,) in query(db, "SELECT name FROM sqlite_master WHERE type='table'")}
    assert "games" not in tables and "undo_event_games" in tables
    assert query(db, "SELECT COUNT(*), SUM(rows) FROM event_games") == [(14, 3184)]
    assert stored_games(db) == rows
    with open_store(db) as store:
        counted = store.event_sizes()
        pending = store.pending_games("standard", "2026-02")  # type: ignore[arg-type]
    assert list(zip(counted["key"], counted["games"], strict=True)) == sizes
    assert (
        pool
        and [
            tuple(None if v != v else v for v in row)
            for row in pending.astype(object).itertuples(index=False)
        ]
        == pool
    )


def _list_files(out: Path) -> dict[str, bytes]:
    """list.csv and games.csv of the 2026-03 list; games.csv's ``file`` column names each
    event's file by where it was added from (the fixture's checkout, not this one), so the
    folder is taken off it."""
    folder = out / "2026-03" / "standard"
    games = re.sub(rb"[^,\n]*/(synthetic-[^/,]+\.trf)", rb"\1", (folder / "games.csv").read_bytes())
    return {"list.csv": (folder / "list.csv").read_bytes(), "games.csv": games}


def test_a_migrated_database_publishes_as_one_made_anew(tmp_path: Path) -> None:
    # The fixture stopped after adding February's events: its 2026-03 list, published after
    # the migration, is the one a database made by this version from the same files gives.
    old = copy_of(SCHEMA_10, tmp_path / "old.sqlite")
    shutil.copytree(f"{SCHEMA_10}.files", f"{old}.files")  # the list 2026-03 changes from
    code, _, err = run("publish", "2026-03", "--db", old, "--out", tmp_path / "old")
    assert code == 0, err
    new = tmp_path / "new.sqlite"
    rules = tmp_path / "rules.toml"  # the fixture's rules, as its meta keeps them
    rules.write_text(str(query(old, "SELECT value FROM meta WHERE key = 'rules_text'")[0][0]))
    steps = [
        ("init", "--list", SAMPLE / "list-2026-01.csv", "--period", "2026-01", "--rules", rules),
        ("add", SAMPLE / "2026-01"),
        ("publish", "2026-02", "--out", tmp_path / "new"),
        ("add", SAMPLE / "2026-02"),
        ("publish", "2026-03", "--out", tmp_path / "new"),
    ]
    for step in steps:
        code, _, err = run(*step, "--db", new)
        assert code == 0, err
    assert _list_files(tmp_path / "old") == _list_files(tmp_path / "new")
    assert stored_games(old) == stored_games(new)
    assert run("player", "900000020", "--db", old)[1] == run("player", "900000020", "--db", new)[1]


def test_a_failed_migration_leaves_the_schema_10_file_usable(tmp_path: Path) -> None:
    db = copy_of(SCHEMA_10, tmp_path / "old.sqlite")
    # A score the games store cannot keep (the table of rows took any number).
    query_rows = "UPDATE games SET score = 0.25 WHERE event_id = 3 AND round = 2 AND start_rank = 5"
    _write(db, query_rows)
    before = dump(db)
    code, out, err = run("upgrade", "--db", db)
    assert (code, out) == (1, "")
    assert f"{db}: cannot be upgraded from schema 10 (an older rating_batch's) to 11" in err
    assert "not a whole number of half-points" in err
    assert dump(db) == before
    assert not list(Path(f"{db}.backups").glob("*-before-upgrade.sqlite"))
    # Put right, the same file upgrades.
    _write(db, query_rows.replace("0.25", "0.5"))
    assert run("upgrade", "--db", db)[0] == 0
    assert len(stored_games(db)) == 3184


def _write(db: Path, sql: str) -> None:
    import sqlite3

    connection = sqlite3.connect(db)
    with connection:
        assert connection.execute(sql).rowcount == 1
    connection.close()


def test_add_remove_undo_and_a_whole_copy_bring_back_exactly_the_games(tmp_path: Path) -> None:
    db = tmp_path / "r.sqlite"
    assert (
        run("init", "--list", SAMPLE / "list-2026-01.csv", "--period", "2026-01", "--db", db)[0]
        == 0
    )
    empty = data_dump(db)
    assert run("add", SAMPLE / "2026-01", "--db", db)[0] == 0
    # The games of January's seven events, as the table of rows of schema 10 held them
    # (the fixture added the same files first: the same event ids).
    january = sorted(row for row in query(SCHEMA_10, ROWS) if int(str(row[0])) <= 7)
    assert len(january) == 1569
    assert stored_games(db) == january
    added = data_dump(db)
    assert run("backup", "--db", db)[0] == 0
    (copy,) = Path(f"{db}.backups").glob("*-backup.sqlite")
    # remove: the event's games go with it; restore latest brings them back exactly.
    (key,) = query(db, "SELECT key FROM events WHERE event_id = 3")[0]
    assert run("remove", key, "--db", db)[0] == 0
    assert stored_games(db, [3]) == []
    assert stored_games(db) == [row for row in january if row[0] != 3]
    assert run("restore", "latest", "--db", db)[0] == 0
    assert stored_games(db) == january and data_dump(db) == added
    # The restore of a whole copy, after two events went.
    for event_id in (1, 5):
        (key,) = query(db, "SELECT key FROM events WHERE event_id = ?", event_id)[0]
        assert run("remove", key, "--db", db)[0] == 0
    assert query(db, "SELECT COUNT(*) FROM event_games") == [(5,)]
    assert run("restore", copy.name, "--db", db)[0] == 0
    assert stored_games(db) == january and data_dump(db) == added
    # Undoing the add takes every game with its events.
    assert run("restore", "1", "--db", db)[0] == 0
    assert query(db, "SELECT COUNT(*) FROM event_games") == [(0,)]
    assert data_dump(db) == empty


def test_a_row_of_games_cut_short_is_refused_and_found(tmp_path: Path) -> None:
    import sqlite3

    db = copy_of(SCHEMA_10, tmp_path / "old.sqlite")
    assert run("upgrade", "--db", db)[0] == 0
    connection = sqlite3.connect(db)
    try:
        # Event 1's 261 rows need 20 × 261 + 22 bytes at least (three empty-table heads, 18,
        # and the checksum, 4).
        assert connection.execute("SELECT rows FROM event_games WHERE event_id = 1").fetchone() == (
            261,
        )
        cut = "UPDATE event_games SET data = substr(data, 1, 5241) WHERE event_id = 1"
        with pytest.raises(sqlite3.IntegrityError, match="CHECK constraint failed"):
            connection.execute(cut)
        connection.execute("UPDATE event_games SET data = substr(data, 1, 5242) WHERE event_id = 1")
        connection.rollback()
        connection.execute("PRAGMA ignore_check_constraints = ON")
        with connection:
            connection.execute(cut)
        connection.execute("PRAGMA ignore_check_constraints = OFF")
        found = connection.execute("PRAGMA integrity_check").fetchall()
    finally:
        connection.close()
    assert found == [("CHECK constraint failed in event_games",)]


def test_an_event_whose_games_are_gone_is_refused_by_name_not_rated_without_them(
    tmp_path: Path,
) -> None:
    # The attack review's reproduction: a row of games deleted by hand. Every stored event
    # has one (add refuses an event without a game), so publish must say which is missing
    # rather than rate the period without it, or fail with a traceback.
    import sqlite3

    db = copy_of(SCHEMA_10, tmp_path / "old.sqlite")
    shutil.copytree(f"{SCHEMA_10}.files", f"{db}.files")
    assert run("upgrade", "--db", db)[0] == 0
    connection = sqlite3.connect(db)
    with connection:
        (event_id, key) = connection.execute(
            "SELECT event_id, key FROM events WHERE period = '2026-03' ORDER BY event_id LIMIT 1"
        ).fetchone()
        connection.execute("DELETE FROM event_games WHERE event_id = ?", (event_id,))
    connection.close()
    code, out, err = run("publish", "2026-03", "--db", db, "--out", tmp_path / "out")
    assert (code, out) == (1, "")
    assert f"the stored games of event {key} are damaged (its games are not in the database)" in err
    assert "Traceback" not in err and not (tmp_path / "out" / "2026-03").exists()
