"""``edit-player`` (monthly/edit.py): the officer accepts a corrected name, federation, sex
or birth year, or a FIDE ID received later; each is a player edit shown in the next list's
changes.csv and undone by ``restore latest``."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import read_csv
from db_helpers import (
    NEWBIE_FIDE_ID,
    data_dump,
    dump,
    newcomer_database,
    newcomer_with_fide_id,
    query,
    rows,
    run,
)


def corrections(folder: Path) -> list[tuple[str, str, str, str]]:
    return [
        (c["id"], c["field"], c["before"], c["after"])
        for c in read_csv(folder / "changes.csv")
        if c["change"] == "correction"
    ]


def test_a_marriage_and_a_transfer_show_in_the_next_lists_changes(tmp_path: Path) -> None:
    # The February list has 11 (Player, P01) and 12 (Player, P02), both ITA and M.
    db, _ = newcomer_database(tmp_path)
    code, out, err = run("edit-player", "11", "--federation", "esp", "--db", db)
    assert (code, err) == (0, "")
    assert out.splitlines()[:2] == ["edited 'Player, P01' (11):", "  federation 'ITA' → 'ESP'"]
    before = data_dump(db)
    code, out, _ = run("edit-player", "12", "--name", "Rossi, Paola", "--sex", "w", "--db", db)
    assert code == 0
    assert out.splitlines()[:3] == [
        "edited 'Player, P02' (12):",
        "  name 'Player, P02' → 'Rossi, Paola'",
        "  sex 'M' → 'F'",
    ]
    # Undone as every command is, and done again.
    assert run("restore", "latest", "--db", db)[0] == 0
    assert data_dump(db) == before
    assert run("edit-player", "12", "--name", "Rossi, Paola", "--sex", "w", "--db", db)[0] == 0
    assert run("publish", "2026-03", "--db", db, "--out", tmp_path / "lists")[0] == 0
    march = tmp_path / "lists" / "2026-03" / "standard"
    assert corrections(march) == [
        ("11", "federation", "ITA", "ESP"),
        ("12", "name", "Player, P02", "Rossi, Paola"),
        ("12", "sex", "M", "F"),
    ]
    listed = rows(march / "list.csv")
    assert (listed["11"]["federation"], listed["12"]["name"], listed["12"]["sex"]) == (
        "ESP",
        "Rossi, Paola",
        "F",
    )


def test_a_fide_id_received_later_makes_the_two_players_one(tmp_path: Path) -> None:
    # Newbie, Sam (n1#7, first rated 1749 on the February list) plays in February as
    # "NEWBIE, Sam" with FIDE ID 955555555: not written exactly alike, so add keeps two
    # players and says so; the officer makes them one. The new one is on no list yet, so he
    # goes into n1#7, who keeps his history and takes the FIDE ID.
    db, _ = newcomer_database(tmp_path)
    event = newcomer_with_fide_id(tmp_path, "NEWBIE, Sam")
    code, _, err = run("add", event, "--db", db)
    assert code == 0
    assert f"rating-batch edit-player n1#7 --fide-id {NEWBIE_FIDE_ID})" in err
    before = data_dump(db)
    code, out, err = run("edit-player", "n1#7", "--fide-id", NEWBIE_FIDE_ID, "--db", db)
    assert (code, err) == (0, "")
    assert out.splitlines()[:3] == [
        "edited 'Newbie, Sam' (n1#7):",
        f"  merged 'NEWBIE, Sam' ({NEWBIE_FIDE_ID}) into 'Newbie, Sam' (n1#7): one player from "
        "now on",
        f"  fide_id none → {NEWBIE_FIDE_ID}",
    ]
    assert query(db, "SELECT fide_id, name, created_by FROM players WHERE name LIKE '%, Sam'") == [
        (NEWBIE_FIDE_ID, "Newbie, Sam", "n1#7")
    ]
    assert query(
        db,
        "SELECT COUNT(DISTINCT ep.event_id) FROM event_players ep JOIN players p "
        f"USING (player_id) WHERE p.fide_id = {NEWBIE_FIDE_ID}",
    ) == [(2,)]
    assert run("restore", "latest", "--db", db)[0] == 0
    assert data_dump(db) == before
    assert run("edit-player", "n1#7", "--fide-id", NEWBIE_FIDE_ID, "--db", db)[0] == 0
    assert run("publish", "2026-03", "--db", db, "--out", tmp_path / "lists")[0] == 0
    march = tmp_path / "lists" / "2026-03" / "standard"
    # Sam 1749 (K 40) beats Ian 1749: D 0, PD 0.50, +20 → 1769; 6 + 1 games.
    sam = rows(march / "list.csv")[str(NEWBIE_FIDE_ID)]
    assert (sam["name"], sam["rating"], sam["games_total"]) == ("Newbie, Sam", "1769", "7")
    assert corrections(march) == [(str(NEWBIE_FIDE_ID), "fide_id", "", str(NEWBIE_FIDE_ID))]


def test_two_players_on_published_lists_are_not_made_one(tmp_path: Path) -> None:
    # Published before the officer made them one: the FIDE ID's player has pending games
    # from the March list, and Sam is on the February list. A published list never changes.
    db, _ = newcomer_database(tmp_path)
    run("add", newcomer_with_fide_id(tmp_path, "NEWBIE, Sam"), "--db", db)
    assert run("publish", "2026-03", "--db", db, "--out", tmp_path / "lists")[0] == 0
    before = dump(db)
    code, out, err = run("edit-player", "n1#7", "--fide-id", NEWBIE_FIDE_ID, "--db", db)
    assert (code, out) == (1, "")
    assert err == (
        f"Error: FIDE ID {NEWBIE_FIDE_ID} is 'NEWBIE, Sam' ({NEWBIE_FIDE_ID}); both are on lists "
        "or in published periods (2026-02, 2026-03): making them one player would change a "
        "published list\n"
    )
    assert dump(db) == before


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["99", "--name", "X"],
            "no player '99' (a FIDE ID, or the id the lists give a player without one, e.g. "
            "e1#7; 'rating-batch player --name TEXT' finds it)",
        ),
        (["11", "--federation", "Italy"], "--federation 'Italy': a federation is three "
         "letters, e.g. ESP"),
        (["11", "--sex", "x"], "--sex 'x': m, or w (f)"),
        (["11", "--name", "  "], "--name '  ': a name cannot be empty"),
        (["11", "--birth-year", "1850"], "--birth-year 1850: a year from 1900 to this year"),
        (["11", "--fide-id", "12345678901"], "--fide-id 12345678901: a FIDE ID is 1 to 10 digits"),
        (["11"], "give what to correct: --name, --federation, --sex, --birth-year, --fide-id or "
                  "--national-id"),
        (["11", "--fide-id", "12"], "'Player, P01' (11) has a FIDE ID already; a FIDE ID is "
         "given to a player without one"),
    ],
    ids=["unknown", "federation", "sex", "name", "birth-year", "fide-id", "nothing", "has-one"],
)  # fmt: skip
def test_an_impossible_edit_is_refused_and_changes_nothing(
    tmp_path: Path, args: list[str], message: str
) -> None:
    db, _ = newcomer_database(tmp_path)
    before = dump(db)
    code, out, err = run("edit-player", *args, "--db", db)
    assert (code, out) == (1, "")
    where = f"{db}: " if args[0] == "99" else ""
    assert err == f"Error: {where}{message}\n"
    assert dump(db) == before
