"""A player's id in the federation's own scheme in the database (docs/formats.md §11.1):
an older database upgrades to hold it (a whole copy kept before), and ``edit-player
--national-id`` sets it, after which ``add`` finds the player by it."""

from __future__ import annotations

import shutil
from pathlib import Path

from conftest import read_csv as rows
from db_helpers import copy_of, data_dump, query, run

from rating_batch.store.schema import SCHEMA_VERSION

#: tests/data/db/SOURCES.md: a Glicko-2 database of schema 7, 2026-02 published.
SCHEMA_7 = Path(__file__).parent.parent / "data" / "db" / "schema-7.sqlite"


def test_an_older_database_upgrades_to_keep_national_ids(tmp_path: Path) -> None:
    db = copy_of(SCHEMA_7, tmp_path / "old.sqlite")
    shutil.copytree(f"{SCHEMA_7}.files", f"{db}.files")
    old = data_dump(db)
    before = query(db, "SELECT player_id, fide_id, name, created_by FROM players")
    code, out, err = run("upgrade", "--db", db)
    assert code == 0 and out.startswith(f"upgraded {db} from schema 7 to {SCHEMA_VERSION}"), err
    # Every player kept as he was, none with a national id yet.
    assert query(db, "SELECT player_id, fide_id, name, created_by FROM players") == before
    assert query(db, "SELECT DISTINCT national_id FROM players") == [(None,)]
    (copy,) = Path(f"{db}.backups").glob("*-before-upgrade.sqlite")
    assert data_dump(copy) == old  # the whole copy holds the database before the upgrade


def test_edit_player_sets_the_national_id_add_then_finds(tmp_path: Path) -> None:
    listed = tmp_path / "dwz.csv"
    listed.write_text(
        'id,name,birth_year,rating,index\n15,"Five, E",1980,1800,20\n'
        'L1,"Groß, Dörte",1990,1580,23\n',
        encoding="utf-8",
    )
    db = tmp_path / "d.sqlite"
    code, _, err = run("init", "--list", listed, "--period", "2025-02", "--db", db,
                       "--rules", "dwz")  # fmt: skip
    assert code == 0, err
    code, out, err = run("edit-player", "L1", "--national-id", "c0327-123", "--db", db)
    assert code == 0, err
    assert "national_id '' → 'C0327-123'" in out  # written as the DSB writes it
    assert query(db, "SELECT national_id FROM players WHERE created_by = 'L1'") == [("C0327-123",)]
    code, _, err = run("edit-player", "L1", "--national-id", "C0327 123", "--db", db)
    assert code == 1 and "--national-id 'C0327 123'" in err
    event = tmp_path / "koeln.csv"
    event.write_text(
        "event,Köln 2025\nstart,2025-03-05\nend,2025-03-05\n\n"
        "no,name,fide_id,zps,rating,federation,birth_year,1\n"
        '1,"Five, E",15,,1800,GER,1980,2w½\n'
        '2,"Schmidt, Dörte",,C0327-123,1638,GER,1990,1b½\n',
        encoding="utf-8",
    )
    code, out, err = run("add", event, "--db", db)
    assert code == 0, err
    # Found by the ZPS-Mgl although the file gives another name (a marriage): no new
    # player, and the other name said.
    assert query(db, "SELECT COUNT(*) FROM players") == [(2,)]
    assert "new player" not in out
    assert "Schmidt, Dörte has the national id C0327-123 of 'Groß, Dörte' (player L1)" in out + err


def test_a_national_id_other_than_the_databases_is_a_warning_naming_the_edit(
    tmp_path: Path,
) -> None:
    listed = tmp_path / "dwz.csv"
    listed.write_text(
        'id,national_id,name,birth_year,rating,index\n15,C0327-001,"Five, E",1980,1800,20\n'
        '16,,"Six, F",1980,1700,20\n',
        encoding="utf-8",
    )
    db = tmp_path / "d.sqlite"
    code, _, err = run("init", "--list", listed, "--period", "2025-02", "--db", db,
                       "--rules", "dwz")  # fmt: skip
    assert code == 0, err
    event = tmp_path / "e.csv"
    event.write_text(
        "event,E\nstart,2025-03-05\nend,2025-03-05\n\n"
        "no,name,fide_id,zps,rating,federation,birth_year,1\n"
        '1,"Five, E",15,C0327-002,1800,GER,1980,2w½\n'
        '2,"Six, F",16,C0327-016,1700,GER,1980,1b½\n',
        encoding="utf-8",
    )
    code, out, err = run("add", event, "--db", db)
    assert code == 0, err
    # Five's is kept, with the command that accepts the file's; Six's, unknown, is filled in.
    assert (
        f"{event}:6: warning: FIDE ID 15 is national_id 'C0327-002' in this file but "
        "'C0327-001' in the database (the database's is kept): to accept the new one, "
        "rating-batch edit-player 15 --national-id C0327-002"
    ) in out + err
    assert query(db, "SELECT fide_id, national_id FROM players ORDER BY fide_id") == [
        (15, "C0327-001"),
        (16, "C0327-016"),
    ]
    # The id filled in came with the event: remove takes it back.
    code, _, err = run("remove", "e", "--db", db)
    assert code == 0, err
    assert query(db, "SELECT national_id FROM players WHERE fide_id = 16") == [(None,)]


def test_export_list_writes_the_national_ids_rate_then_finds_players_by(tmp_path: Path) -> None:
    listed = tmp_path / "dwz.csv"
    listed.write_text(
        'id,zps,name,birth_year,rating,index\n15,,"Five, E",1980,1800,20\n'
        ',C0327-123,"Groß, Dörte",1990,1580,23\n',
        encoding="utf-8",
    )
    db = tmp_path / "d.sqlite"
    code, _, err = run("init", "--list", listed, "--period", "2025-02", "--db", db,
                       "--rules", "dwz")  # fmt: skip
    assert code == 0, err
    code, _, err = run("export-list", "2025-02", "--db", db, "--out", tmp_path / "x")
    assert code == 0, err
    state = tmp_path / "x" / "2025-02" / "standard" / "state.csv"
    lines = state.read_text(encoding="utf-8-sig").splitlines()
    assert lines[0].startswith("id,national_id,name,")
    assert lines[2].startswith('C0327-123,C0327-123,"Groß, Dörte",')
    # Read back by rate --list, the list finds her by it: she is not rated as new.
    event = tmp_path / "e.csv"
    event.write_text(
        "event,E\nstart,2025-03-05\nend,2025-03-05\n\n"
        "no,name,fide_id,zps,rating,federation,birth_year,1\n"
        '1,"Five, E",15,,1800,GER,1980,2w½\n'
        '2,"Groß, Dörte",,C0327-123,1638,GER,1990,1b½\n',
        encoding="utf-8",
    )
    out = tmp_path / "r"
    code, _, err = run("rate", event, "--rules", "dwz", "--list", state, "--out", out)
    assert code == 0, err
    (her,) = [row for row in rows(out / "players.csv") if row["name"] == "Groß, Dörte"]
    assert (her["new_rating"], her["new_index"]) == ("1590", "24")  # as in test_identity_national
