"""Who is who (monthly/identify.py): identity is never guessed silently."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from conftest import read_csv
from db_helpers import (
    ADULT,
    NEWBIE_FIDE_ID,
    data_dump,
    database,
    dump,
    event_file,
    newcomer_database,
    newcomer_with_fide_id,
    query,
    rows,
    run,
    write_list,
)
from trf_text import P, trf


def players_named(db: Path, name: str) -> list[tuple[object, ...]]:
    with sqlite3.connect(db) as connection:
        rows = connection.execute(
            "SELECT player_id, fide_id, birth_year FROM players WHERE name = ? ORDER BY player_id",
            (name,),
        ).fetchall()
    connection.close()
    return rows


def test_a_fide_id_under_another_name_is_a_printed_warning(tmp_path: Path) -> None:
    names = ["id,rating,name", '11,1600,"Blübaum, Matthias"', '12,1500,"Smith, John"']
    db = tmp_path / "r.sqlite"
    listing = write_list(tmp_path, names)
    assert run("init", "--list", listing, "--period", "2026-01", "--db", db)[0] == 0
    players = [P(1, "Bluebaum, Matthias", 1600, 11, 1996), P(2, "Jones, Mary", 1500, 12, 1980)]
    event = event_file(tmp_path, "open", [(1, 1, 2, "1-0")], players=players)
    code, _, err = run("add", event, "--db", db)
    assert code == 0
    # Blübaum/Bluebaum is one spelling of one name: no warning. Jones is not Smith.
    assert err == (
        f"{event}:5: warning: FIDE ID 12 is 'Jones, Mary' in this file but 'Smith, John' in "
        "the database (the database's name is kept): is the FIDE ID right? If the name "
        "changed: rating-batch edit-player 12 --name 'Jones, Mary'\n"
    )
    assert players_named(db, "Smith, John") != []


@pytest.mark.parametrize("order", [("a", "b"), ("b", "a")])
def test_one_new_fide_id_as_two_people_in_one_add_is_a_printed_warning(
    tmp_path: Path, order: tuple[str, str]
) -> None:
    # FIDE ID 77 is new: Alpha (ESP, M) in a, Omega (USA, F) in b, added by one command. As
    # when they are added one after the other, the second file's line is compared with the
    # first's name, which is the one stored. ALPHA, New in c is Alpha's spelling.
    db = database(tmp_path)
    alpha = P(1, "Alpha, New", None, 77, 2000, federation="ESP", sex="m")
    omega = P(1, "Omega, Other", None, 77, 2000, federation="USA", sex="w")
    spelt = P(1, "ALPHA, New", None, 77, 2000, federation="ESP", sex="m")
    files = {
        name: event_file(tmp_path, name, [(1, 1, 2, "1-0")], players=[who, P(2, "B", 1500, 12)],
                         day=f"2026/01/0{day}")
        for name, who, day in (("a", alpha, 5), ("b", omega, 6), ("c", spelt, 7))
    }  # fmt: skip
    first, second = (files[name] for name in order)
    code, out, err = run("add", first, second, files["c"], "--db", db)
    assert code == 0, err
    kept = "Alpha, New" if order == ("a", "b") else "Omega, Other"
    # Each later line is compared with the first file's name: c is Alpha written otherwise.
    differ = [second] if order == ("a", "b") else [second, files["c"]]
    names = {files["a"]: "Alpha, New", files["b"]: "Omega, Other", files["c"]: "ALPHA, New"}
    assert err == "".join(
        f"{path}:4: warning: FIDE ID 77 is {names[path]!r} in this file but {kept!r} in "
        f"{first} (line 4; the first file's name is stored): is the FIDE ID right?\n"
        for path in differ
    )
    assert out.count("new player:") == 1
    # One player, as the FIDE ID says, under the first file's name, in all three events.
    assert query(db, "SELECT fide_id, name FROM players WHERE fide_id = 77") == [(77, kept)]
    assert query(
        db,
        "SELECT COUNT(DISTINCT ep.event_id) FROM event_players ep JOIN players p "
        "USING (player_id) WHERE p.fide_id = 77",
    ) == [(3,)]


def test_a_known_fide_id_without_a_name_is_compared_across_the_files(tmp_path: Path) -> None:
    # The list gives 11 no name: the first file of the add names it, the second another name.
    db = database(tmp_path)
    one = event_file(tmp_path, "one", [(1, 1, 2, "1-0")], day="2026/01/05")
    other = [P(1, "Zed, Zoe", 1600, 11, ADULT), P(2, "B", 1500, 12, ADULT)]
    two = event_file(tmp_path, "two", [(1, 1, 2, "1-0")], players=other, day="2026/01/06")
    code, _, err = run("add", one, two, "--db", db)
    assert code == 0
    assert err == (
        f"{two}:4: warning: FIDE ID 11 is 'Zed, Zoe' in this file but 'A' in {one} (line 4; "
        "the first file's name is stored): is the FIDE ID right?\n"
    )
    assert query(db, "SELECT name FROM players WHERE fide_id = 11") == [("A",)]


def test_a_new_fide_id_matching_a_known_player_is_a_possible_duplicate(tmp_path: Path) -> None:
    db = database(tmp_path)
    first = [P(1, "Kim, New", None, None, 2001, federation="IRL"), P(2, "B", 1500, 12, 1980)]
    run(
        "add",
        event_file(tmp_path, "a", [(1, 1, 2, "1-0")], players=first, day="2026/01/05"),
        "--db",
        db,
    )
    second = [P(1, "KIM, New", None, 77, 2001, federation="IRL"), P(2, "B", 1500, 12, 1980)]
    event = event_file(tmp_path, "b", [(1, 1, 2, "0-1")], players=second, day="2026/01/12")
    code, _, err = run("add", event, "--db", db)
    assert code == 0
    assert err == (
        f"{event}:4: warning: new FIDE ID 77 'KIM, New': possible duplicate of 'Kim, New' "
        "(no FIDE ID, a#1, born 2001, IRL); both are kept (if they are one person: "
        "rating-batch edit-player a#1 --fide-id 77)\n"
    )


def test_two_lines_with_one_name_and_no_fide_id_stay_two_players(tmp_path: Path) -> None:
    # Two brothers of the same name, year and club: never merged into one player (who would
    # then play himself).
    db = database(tmp_path)
    twins = [
        P(1, "Doe, Jan", None, None, 2010, federation="NED"),
        P(2, "Doe, Jan", None, None, 2010, federation="NED"),
        P(3, "B", 1500, 12, 1980),
    ]
    event = event_file(tmp_path, "open", [(1, 1, 2, "1-0"), (2, 3, 1, "=-=")], players=twins)
    code, out, err = run("add", event, "--db", db)
    assert code == 0
    assert len(players_named(db, "Doe, Jan")) == 2
    assert out.count("new player: Doe, Jan") == 2
    assert (
        f"{event}:4: warning: lines 4, 5: 2 players named 'Doe, Jan' (born 2010, NED) without "
        "a FIDE ID: kept as different players; give their FIDE IDs to match them to the database"
    ) in err
    # A later file naming one Jan Doe cannot say which: an error naming both.
    later = [P(1, "Doe, Jan", None, None, 2010, federation="NED"), P(2, "B", 1500, 12, 1980)]
    again = event_file(tmp_path, "later", [(1, 1, 2, "1-0")], players=later, day="2026/01/20")
    code, _, err = run("add", again, "--db", db)
    assert code == 1 and "'Doe, Jan' matches several players" in err


def test_fields_filled_from_a_file_are_logged_and_removed_with_it(tmp_path: Path) -> None:
    db = database(tmp_path)
    event = event_file(tmp_path, "open", [(1, 1, 2, "1-0")])
    run("add", event, "--db", db)
    edits = query(
        db,
        "SELECT p.fide_id, e.field, e.old_value, e.new_value FROM player_edits e "
        "JOIN players p USING (player_id) ORDER BY p.fide_id, e.field",
    )
    assert edits == [
        (11, "birth_year", None, 1980), (11, "name", "", "A"),
        (12, "birth_year", None, 1980), (12, "name", "", "B"),
    ]  # fmt: skip
    assert run("remove", "open", "--db", db)[0] == 0
    with sqlite3.connect(db) as connection:
        assert connection.execute(
            "SELECT name, birth_year FROM players ORDER BY fide_id"
        ).fetchall() == [
            ("", None),
            ("", None),
        ]
    connection.close()


def test_players_are_found_by_name_birth_year_and_federation(folder: Path) -> None:
    db = database(folder, "11,1600")
    first = folder / "first.trf"
    first.write_text(
        trf(
            [
                P(1, "Known, Kim", 1600, 11, ADULT),
                P(2, "New, Ned", None, None, 1999, federation="IRL"),
            ],
            [(1, 1, 2, "1-0")],
            name="First",
            start="2026/01/05",
            end="2026/01/05",
        )
    )
    code, out, _ = run("add", first, "--db", db)
    assert code == 0 and "new player: New, Ned (no FIDE ID, first#2)" in out
    second = folder / "second.trf"
    second.write_text(
        trf(
            [
                P(1, "New, Ned", None, None, 1999, federation="IRL"),
                P(2, "Known, Kim", 1600, 11, ADULT),
            ],
            [(1, 1, 2, "0-1")],
            name="Second",
            start="2026/01/12",
            end="2026/01/12",
        )
    )
    code, out, _ = run("add", second, "--db", db)
    assert code == 0 and "new player" not in out


@pytest.mark.parametrize("rows", [10**9, 0], ids=["one core", "two cores"])
def test_an_ambiguous_match_names_the_candidates(
    folder: Path, monkeypatch: pytest.MonkeyPatch, rows: int
) -> None:
    # Two cores: identities are worked out while the games are inserted; the refusal rolls
    # those back too.
    from rating_batch import parallel

    monkeypatch.setattr(parallel, "PARALLEL_ROWS", rows)
    db = database(folder, "11,1600")
    for number in (1, 2):  # two different people of the same name, both created by events
        event = folder / f"e{number}.trf"
        event.write_text(
            trf(
                [P(1, "Same, Sam", None, None, 1999), P(2, "Known", 1600, 11, ADULT)],
                [(1, 1, 2, "0-1")],
                name=f"E{number}",
                start=f"2026/01/0{number}",
                end=f"2026/01/0{number}",
            )
        )
    run("add", folder / "e1.trf", "--db", db)
    with sqlite3.connect(db) as connection:  # a second Sam with the same identity already known
        connection.execute(
            "INSERT INTO players (player_id, name, birth_year, created_by) "
            "VALUES (99, 'Same, Sam', 1999, 'x#1')"
        )
    before = dump(db)
    code, _, err = run("add", folder / "e2.trf", "--db", db)
    assert code == 1
    assert (
        "'Same, Sam' matches several players: #2 'Same, Sam' (FIDE ID none), "
        "#99 'Same, Sam' (FIDE ID none)" in err
    )
    assert dump(db) == before


@pytest.mark.parametrize("order", [("a", "b"), ("b", "a")])
def test_identity_does_not_depend_on_the_order_of_the_files(
    folder: Path, order: tuple[str, str]
) -> None:
    # Kim is not on the list. File a names her without a FIDE ID, file b with FIDE ID 77 and
    # the same name, birth year and federation: one player, whichever file comes first.
    db = database(folder)
    kim = {"name": "Kim, New", "birth": 2001, "federation": "IRL"}
    texts = {
        "a": trf([P(1, rating=None, fide_id=None, **kim), P(2, "B", 1500, 12, ADULT)],
                 [(1, 1, 2, "1-0")], name="A", start="2026/01/05", end="2026/01/05"),
        "b": trf([P(1, rating=None, fide_id=77, **kim), P(2, "A", 1600, 11, ADULT)],
                 [(1, 1, 2, "0-1")], name="B", start="2026/01/06", end="2026/01/06"),
    }  # fmt: skip
    files = []
    for name in order:
        path = folder / f"{order.index(name)}-{name}.trf"
        path.write_text(texts[name])
        files.append(path)
    code, out, err = run("add", *files, "--db", db)
    assert code == 0, err
    assert out.count("new player: Kim, New") == 1
    with sqlite3.connect(db) as connection:
        kims = connection.execute(
            "SELECT player_id, fide_id FROM players WHERE name = 'Kim, New'"
        ).fetchall()
        entries = connection.execute(
            "SELECT DISTINCT ep.player_id FROM event_players ep JOIN players p USING (player_id) "
            "WHERE p.name = 'Kim, New'"
        ).fetchall()
    assert len(kims) == 1 and kims[0][1] == 77
    assert entries == [(kims[0][0],)]


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    return tmp_path


def test_a_removed_events_fields_are_filled_again_from_another_stored_event(
    tmp_path: Path,
) -> None:
    # Both events give 11's name and birth year; the first filled them. Removing it fills
    # them again from the second, as its add would have done (and logs that as the second's).
    db = database(tmp_path)
    first = event_file(tmp_path, "first", [(1, 1, 2, "1-0")], day="2026/01/05")
    second = event_file(tmp_path, "second", [(1, 2, 1, "1-0")], day="2026/01/12")
    assert run("add", first, "--db", db)[0] == 0
    assert run("add", second, "--db", db)[0] == 0
    assert run("remove", "first", "--db", db)[0] == 0
    assert query(db, "SELECT fide_id, name, birth_year FROM players ORDER BY fide_id") == [
        (11, "A", 1980), (12, "B", 1980),
    ]  # fmt: skip
    assert query(
        db,
        "SELECT p.fide_id, e.field, e.new_value, ev.key FROM player_edits e "
        "JOIN players p USING (player_id) JOIN events ev USING (event_id) ORDER BY 1, 2",
    ) == [
        (11, "birth_year", 1980, "second"), (11, "name", "A", "second"),
        (12, "birth_year", 1980, "second"), (12, "name", "B", "second"),
    ]  # fmt: skip


def test_a_known_fide_id_under_another_federation_or_sex_is_a_printed_warning(
    tmp_path: Path,
) -> None:
    # The list has 11 and 12 as ITA, M; the file says 11 plays for ESP (a transfer?) and 12
    # is a woman. The database's are kept, as for a name, and the warning says how to accept
    # the file's.
    db, _ = newcomer_database(tmp_path)
    players = [P(1, "Player, P01", 1800, 11, ADULT, sex="m", federation="ESP"),
               P(2, "Player, P02", 1750, 12, ADULT, sex="w", federation="ITA")]  # fmt: skip
    event = event_file(tmp_path, "f1", [(1, 1, 2, "1-0")], players=players, day="2026/02/10")
    code, _, err = run("add", event, "--db", db)
    assert code == 0
    assert err == (
        f"{event}:4: warning: FIDE ID 11 is federation 'ESP' in this file but 'ITA' in the "
        "database (the database's is kept): to accept the new one, rating-batch edit-player 11 "
        "--federation ESP\n"
        f"{event}:5: warning: FIDE ID 12 is sex 'F' in this file but 'M' in the database (the "
        "database's is kept): to accept the new one, rating-batch edit-player 12 --sex F\n"
    )
    assert query(
        db, "SELECT fide_id, federation, sex FROM players WHERE fide_id IN (11, 12) ORDER BY 1"
    ) == [(11, "ITA", "M"), (12, "ITA", "M")]


def test_a_new_fide_id_with_the_identity_of_a_player_without_one_is_his(tmp_path: Path) -> None:
    # Newbie, Sam (n1#7, ITA, born 2010) was first rated 1749 on the February list without
    # a FIDE ID (db_helpers.newcomer_database). In February's file he has FIDE ID 955555555
    # and exactly that name, birth year and federation, as a line without a FIDE ID would
    # be matched: the same player, who received it.
    db, _ = newcomer_database(tmp_path)
    event = newcomer_with_fide_id(tmp_path)
    before = data_dump(db)
    code, out, err = run("add", event, "--db", db)
    assert (code, err) == (0, "")
    assert out.splitlines()[1] == (
        f"  FIDE ID {NEWBIE_FIDE_ID} given to Newbie, Sam (n1#7, born 2010, ITA): his exact "
        f"name, birth year and federation (two people? restore latest, then add with "
        f"--keep-apart {NEWBIE_FIDE_ID})"
    )
    assert query(db, "SELECT fide_id, created_by FROM players WHERE name = 'Newbie, Sam'") == [
        (NEWBIE_FIDE_ID, "n1#7")
    ]
    # Undone as every add is, and by removing the event that gave it; then again, and
    # published.
    assert run("restore", "latest", "--db", db)[0] == 0
    assert data_dump(db) == before
    assert run("add", event, "--db", db)[0] == 0
    assert run("remove", "g", "--db", db)[0] == 0
    assert query(db, "SELECT fide_id FROM players WHERE name = 'Newbie, Sam'") == [(None,)]
    assert run("add", event, "--db", db)[0] == 0
    assert run("publish", "2026-03", "--db", db, "--out", tmp_path / "lists")[0] == 0
    march = tmp_path / "lists" / "2026-03" / "standard"
    # Sam 1749 (K 40, a junior; 6 games) beats Ian 1749 (K 20): D 0, PD 0.50, +0.50 × 40 =
    # +20 → 1769, 7 games; Ian -0.50 × 20 = -10 → 1739: the game counts for both.
    listed = rows(march / "list.csv")
    assert "n1#7" not in listed
    sam = listed[str(NEWBIE_FIDE_ID)]
    assert (sam["name"], sam["rating"], sam["k"], sam["games_total"]) == (
        "Newbie, Sam",
        "1769",
        "40",
        "7",
    )
    assert listed["17"]["rating"] == "1739"
    corrections = [
        (c["id"], c["field"], c["before"], c["after"])
        for c in read_csv(march / "changes.csv")
        if c["change"] == "correction"
    ]
    assert corrections == [(str(NEWBIE_FIDE_ID), "fide_id", "", str(NEWBIE_FIDE_ID))]


def test_keep_apart_leaves_a_new_fide_id_a_new_player(tmp_path: Path) -> None:
    db, _ = newcomer_database(tmp_path)
    event = newcomer_with_fide_id(tmp_path)
    code, out, err = run("add", event, "--keep-apart", NEWBIE_FIDE_ID, "--db", db)
    assert code == 0
    assert "  new player: Newbie, Sam (FIDE ID 955555555)" in out.splitlines()
    assert err == (
        f"{event}:4: warning: new FIDE ID {NEWBIE_FIDE_ID} 'Newbie, Sam': possible duplicate of "
        "'Newbie, Sam' (no FIDE ID, n1#7, born 2010, ITA); both are kept (if they are one "
        f"person: rating-batch edit-player n1#7 --fide-id {NEWBIE_FIDE_ID})\n"
    )
    assert query(db, "SELECT fide_id FROM players WHERE name = 'Newbie, Sam' ORDER BY 1") == [
        (None,),
        (NEWBIE_FIDE_ID,),
    ]


def test_a_new_fide_id_matching_two_players_without_one_is_nobodys(tmp_path: Path) -> None:
    # Two players without a FIDE ID share the name, birth year and federation (twins of one
    # file): which one received FIDE ID 77 cannot be told, so it is a new player, and both
    # are named as possible duplicates.
    db = database(tmp_path)
    twins = [
        P(1, "Doe, Jan", None, None, 2010, federation="NED"),
        P(2, "Doe, Jan", None, None, 2010, federation="NED"),
        P(3, "B", 1500, 12, ADULT),
    ]
    first = event_file(tmp_path, "t", [(1, 1, 3, "1-0"), (2, 2, 3, "0-1")], players=twins)
    assert run("add", first, "--db", db)[0] == 0
    later = [P(1, "Doe, Jan", None, 77, 2010, federation="NED"), P(2, "B", 1500, 12, ADULT)]
    event = event_file(tmp_path, "u", [(1, 1, 2, "1-0")], players=later, day="2026/01/17")
    code, out, err = run("add", event, "--db", db)
    assert code == 0
    assert "  new player: Doe, Jan (FIDE ID 77)" in out.splitlines()
    assert err.count("possible duplicate of 'Doe, Jan'") == 2
    assert query(db, "SELECT COUNT(*) FROM players WHERE name = 'Doe, Jan'") == [(3,)]


def test_new_players_are_named_as_the_lists_will_name_them(folder: Path) -> None:
    # Runevi's file gives her FIDE ID: that is her id on every list, not the file's line.
    db = database(folder)
    players = [P(1, "Known, Kim", 1600, 11, ADULT), P(2, "Runevi, Isis", None, 900000128, 1990),
               P(3, "New, Ned", None, None, 1999, federation="IRL")]  # fmt: skip
    event = event_file(folder, "jan", [(1, 1, 2, "1-0"), (2, 3, 1, "0-1")], players=players)
    code, out, err = run("add", event, "--db", db)
    assert (code, err) == (0, "")
    assert out.splitlines()[1:3] == [
        "  new player: Runevi, Isis (FIDE ID 900000128)",
        "  new player: New, Ned (no FIDE ID, jan#3)",
    ]
    assert query(db, "SELECT fide_id, created_by FROM players WHERE player_id > 2") == [
        (900000128, "jan#2"), (None, "jan#3"),
    ]  # fmt: skip
