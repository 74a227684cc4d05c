"""The undo journal (store/journal.py): what each command changed, recorded in its own
transaction and undone exactly, at the cost of what it changed."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
from db_helpers import copy_of, data_dump, database, event_file, query, run
from trf_text import P

from rating_batch.store import open_store

SCHEMA_7 = Path(__file__).parent.parent / "data" / "db" / "schema-7.sqlite"


def entries(db: Path) -> list[tuple[object, ...]]:
    return query(db, "SELECT command_id, label FROM undo_commands ORDER BY command_id")


def test_every_kind_of_change_is_undone_exactly(tmp_path: Path) -> None:
    # Rows created, changed and removed, in tables with an integer key (players), a hidden
    # rowid (meta, pending) and none (ratings), one of them replaced by a REPLACE.
    db = database(tmp_path, "11,1600", "12,1500", "13,1450")
    before = data_dump(db)
    with open_store(db, write=True, command="test") as store, store.writing():
        store.execute("UPDATE players SET name = 'Renamed' WHERE fide_id = 11")
        store.execute(
            "DELETE FROM ratings WHERE player_id = "
            "(SELECT player_id FROM players WHERE fide_id = 12)"
        )
        store.execute("INSERT INTO meta (key, value) VALUES ('note', 'one')")
        store.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('rules', 'changed')")
        store.execute(
            "INSERT INTO players (player_id, name, created_by) VALUES (99, 'New', 'test')"
        )
        store.execute(
            "INSERT INTO pending (period, kind, player_id, event_id, round, opponent_rating, "
            "half, game_period) VALUES ('2026-02', 'standard', 99, 1, 1, 1500, 1, '2026-02')"
        )
        store.execute("UPDATE players SET player_id = 98 WHERE player_id = 99")  # a key moved
    assert data_dump(db) != before
    assert entries(db) == [(1, "test")]
    code, out, err = run("restore", "latest", "--db", db)
    assert code == 0, err
    assert out.startswith("undid test (journal entry 1, ")
    assert data_dump(db) == before  # every row, and every hidden rowid, as it was


def test_a_command_that_changes_nothing_leaves_no_entry(tmp_path: Path) -> None:
    db = database(tmp_path)
    assert run("add", event_file(tmp_path, "jan", [(1, 1, 2, "1-0")]), "--db", db)[0] == 0
    refused = event_file(tmp_path, "typo", [(1, 1, 2, "1-0")], day="2062/01/10")
    for _ in range(3):
        assert run("add", refused, "--db", db)[0] == 1
    assert (
        run(
            "add",
            "--dry-run",
            event_file(tmp_path, "b", [(1, 2, 1, "1-0")], day="2026/01/20"),
            "--db",
            db,
        )[0]
        == 0
    )
    with open_store(db, write=True, command="nothing") as store, store.writing():
        pass
    assert entries(db) == [(1, "add")]


def test_only_the_newest_commands_are_kept(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RATING_BATCH_UNDO", "2")
    db = database(tmp_path)
    for day in ("05", "12", "19", "26"):
        event = event_file(tmp_path, f"e{day}", [(1, 1, 2, "1-0")], day=f"2026/01/{day}")
        assert run("add", event, "--db", db)[0] == 0
    assert entries(db) == [(3, "add"), (4, "add")]
    # The journal rows of the commands forgotten are gone with them.
    assert query(db, "SELECT DISTINCT undo_command FROM undo_events ORDER BY 1") == [(3,), (4,)]
    code, _, err = run("restore", "1", "--db", db)
    assert code == 1 and "the journal holds no command 1 (it holds 3 to 4)" in err


def test_an_added_events_games_go_with_it_and_are_not_recorded_one_by_one(tmp_path: Path) -> None:
    db = database(tmp_path, "11,1600", "12,1500", "13,1450")
    before = data_dump(db)
    players = [P(1, "A", 1600, 11, 1980), P(2, "B", 1500, 12, 1980), P(3, "C", 1450, 13, 1980)]
    games = [(1, 1, 2, "1-0"), (2, 3, 1, "=-="), (3, 2, 3, "0-1")]
    event = event_file(tmp_path, "open", games, players=players)
    assert run("add", event, "--db", db)[0] == 0
    # 3 players × 3 rounds, in the event's one row of games.
    assert query(db, "SELECT COUNT(*), SUM(rows) FROM event_games") == [(1, 9)]
    # The event's row is recorded; its games and entries are parts of it.
    assert query(db, "SELECT undo_op, COUNT(*) FROM undo_events GROUP BY 1") == [("i", 1)]
    assert query(db, "SELECT COUNT(*) FROM undo_event_games") == [(0,)]
    assert query(db, "SELECT COUNT(*) FROM undo_event_players") == [(0,)]
    assert run("restore", "latest", "--db", db)[0] == 0
    assert data_dump(db) == before


def test_games_of_an_event_the_command_did_not_create_are_still_recorded(
    tmp_path: Path,
) -> None:
    # The games of events a command creates go in without a trigger per row (their event
    # takes them when undone); games added to an event that was there before change its row
    # of games, which is recorded (its image before), in the same command too, and undone
    # exactly.
    db = database(tmp_path, "11,1600", "12,1500")
    players = [P(1, "A", 1600, 11, 1980), P(2, "B", 1500, 12, 1980)]
    event = event_file(tmp_path, "open", [(1, 1, 2, "1-0")], players=players)
    assert run("add", event, "--db", db)[0] == 0
    before = data_dump(db)
    [(old,)] = query(db, "SELECT event_id FROM events")
    row = {"round": 2, "opponent_rank": 2, "colour": "w", "result": "1", "score": 1.0,
           "rated": 1, "reason": None, "line": 9}  # fmt: skip
    with open_store(db, write=True, command="mixed") as store, store.writing():
        store.execute(
            "INSERT INTO events (event_id, key, name, source, content_hash, kind, period) "
            "VALUES (77, 'made', 'Made', 'made.trf', 'x', 'standard', '2026-01')"
        )
        # One insert holding both: the event made before keeps its trigger.
        store.insert_games(
            pd.DataFrame([{"event_id": old, "start_rank": 1, **row},
                          {"event_id": 77, "start_rank": 1, **row}])
        )  # fmt: skip
        # Only the new event's: no row recorded.
        # (Rank 2 against rank 1: the store refuses to read a player paired against himself.)
        store.insert_games(
            pd.DataFrame([{**row, "event_id": 77, "start_rank": 2, "opponent_rank": 1}])
        )
        # The trigger is back for the next insert into the event made before.
        store.insert_games(
            pd.DataFrame([{**row, "event_id": old, "start_rank": 2, "opponent_rank": 1}])
        )
    # The old event's row of 2 games (one game, both sides) recorded before each change.
    recorded = "SELECT undo_op, event_id, rows FROM undo_event_games ORDER BY undo_seq"
    assert query(db, recorded) == [("d", old, 2), ("d", old, 3)]
    with open_store(db) as store:
        games = store.games_of([old, 77])
    assert games[["event_id", "round", "start_rank"]].values.tolist() == [
        [old, 1, 1], [old, 1, 2], [old, 2, 1], [old, 2, 2], [77, 2, 1], [77, 2, 2]
    ]  # fmt: skip
    assert run("restore", "latest", "--db", db)[0] == 0
    assert data_dump(db) == before


def test_a_removed_event_comes_back_and_goes_again(tmp_path: Path) -> None:
    db = database(tmp_path)
    event = event_file(tmp_path, "jan", [(1, 1, 2, "1-0"), (2, 2, 1, "=-=")])
    assert run("add", event, "--db", db)[0] == 0
    added = data_dump(db)
    assert run("remove", "jan", "--db", db)[0] == 0
    removed = data_dump(db)
    # The remove recorded the rows it took away: the event's row of 4 game rows, 2 entries,
    # the event.
    assert query(
        db,
        "SELECT COUNT(*), SUM(rows) FROM undo_event_games WHERE undo_command = 2 AND undo_op = 'd'",
    ) == [(1, 4)]
    assert query(
        db, "SELECT COUNT(*) FROM undo_event_players WHERE undo_command = 2 AND undo_op = 'd'"
    ) == [(2,)]
    assert run("restore", "latest", "--db", db)[0] == 0
    assert data_dump(db) == added
    assert run("restore", "latest", "--db", db)[0] == 0  # the restore taken back
    assert data_dump(db) == removed
    code, out, _ = run("restore", "1", "--db", db)  # before the add: all four undone
    assert code == 0 and out.startswith("went back to the state before add (journal entry 1, ")
    assert out.splitlines()[0].endswith(
        "undid 4 commands, newest first: 4 restore to before entry 3, 3 restore to before "
        "entry 2, 2 remove, 1 add"
    )
    assert query(db, "SELECT COUNT(*) FROM events") == [(0,)]


def test_an_upgrade_starts_the_journal_anew(tmp_path: Path) -> None:
    db = copy_of(SCHEMA_7, tmp_path / "old.sqlite")
    assert run("upgrade", "--db", db)[0] == 0
    assert entries(db) == []
    code, _, err = run("restore", "latest", "--db", db)
    assert code == 1 and "no command to undo" in err
    event = event_file(tmp_path, "mar", [(1, 1, 2, "1-0")], day="2026/02/21")
    before = data_dump(db)
    assert run("add", event, "--db", db)[0] == 0
    assert entries(db) == [(1, "add")]
    assert run("restore", "latest", "--db", db)[0] == 0
    assert data_dump(db) == before
