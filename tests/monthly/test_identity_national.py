"""One identity path (docs/formats.md §11.1): the same DWZ list and the same event file give
a player without a FIDE ID the same list row through ``rate --list`` and through a database
(``init`` + ``add`` + ``publish``): by the federation's own id (``national_id``), by the id
our lists give (``<event>#<start rank>``), else by exact name, birth year and federation; a
near match (federation blank on one side) is told both ways and matches neither way.

The event is the situation of the German round robin the officers tried (a 2025 date, before
the uplift of docs/systems.md §10): Groß, Dörte (no FIDE ID, GER, born 1990, FIDE 1638 in
the file) draws with Five, E (FIDE ID 15, DWZ 1800-20).

Her DWZ from the list row 1580-23 (docs/systems.md §10): adult, J = 15;
E0 = (1580/1000)⁴ + 15 = 6.2323 + 15 = 21.23 → E = 21; We = P(1580 − 1800) = Φ(−220/(200·√2))
= Φ(−0.7778) = 0.2183; Rn = 1580 + 800 · (0.5 − 0.2183)/(21 + 1) = 1580 + 10.24 → 1590, and
her index 23 + 1 = 24: 1590-24. Rated as new from the file instead, she would not be 1590-24.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import read_csv as rows
from db_helpers import query
from db_helpers import run_combined as run
from trf_text import P, trf

GROSS = "Groß, Dörte"
EXPECTED = ("1590", "24")


def event_trf(folder: Path) -> Path:
    path = folder / "koeln.trf"
    people = [
        P(1, "Five, E", 1800, 15, 1980, federation="GER"),
        P(2, GROSS, 1638, None, 1990, sex="w", federation="GER"),
    ]
    text = trf(people, [(1, 1, 2, "=-=")], name="Köln 2025", start="2025/03/05", end="2025/03/05")
    path.write_bytes(text.encode("cp1252"))
    return path


def event_csv(folder: Path) -> Path:
    """The same event as a crosstable whose export carries the DSB's ZPS-Mgl."""
    path = folder / "koeln.csv"
    path.write_text(
        "event,Köln 2025\nstart,2025-03-05\nend,2025-03-05\n\n"
        "no,name,fide_id,national_id,rating,federation,birth_year,1\n"
        '1,"Five, E",15,,1800,GER,1980,2w½\n'
        f'2,"{GROSS}",,C0327-123,1638,GER,1990,1b½\n',
        encoding="utf-8",
    )
    return path


def dwz_list(folder: Path, *lines: str) -> Path:
    path = folder / "dwz.csv"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


#: A list knowing Groß by her ZPS-Mgl only (no FIDE ID, no federation).
ZPS_LIST = (
    "id,national_id,name,birth_year,rating,index",
    '15,,"Five, E",1980,1800,20',
    f'L1,C0327-123,"{GROSS}",1990,1580,23',
)

#: What rate --list and check say of Groß against ``near_list`` (her row is line 3).
NEAR = f"{GROSS} (born 1990) matches list row 3 except its federation (blank vs GER)"


def near_list(folder: Path) -> Path:
    """A list without a federation column: Groß's name and birth year, federation blank."""
    return dwz_list(folder, "id,name,birth_year,rating,index", '15,"Five, E",1980,1800,20',
                    f'L1,"{GROSS}",1990,1580,23')  # fmt: skip


def by_rate(
    folder: Path, event: Path, listed: Path, federation: str = "GER"
) -> tuple[tuple[str, str], str]:
    out = folder / "rate-out"
    code, output = run("rate", event, "--rules", "dwz", "--list", listed, "--out", out)
    assert code == 0, output
    found = [row for row in rows(out / "players.csv") if row["name"] == GROSS]
    found = [row for row in found if row["federation"] == federation]  # not a near match's
    assert len(found) == 1, found  # one woman, one row
    return (found[0]["new_rating"], found[0]["new_index"]), output


def dwz_database(folder: Path, listed: Path) -> Path:
    """A database made from the DWZ list ``listed`` of February 2025."""
    db = folder / "d.sqlite"
    code, output = run("init", "--list", listed, "--period", "2025-02", "--db", db,
                       "--rules", "dwz")  # fmt: skip
    assert code == 0, output
    return db


def by_database(
    folder: Path, event: Path, listed: Path, federation: str = "GER"
) -> tuple[tuple[str, str], str]:
    db = dwz_database(folder, listed)
    code, added = run("add", event, "--db", db)
    assert code == 0, added
    for period in ("2025-03", "2025-04"):  # an event ending in March goes into April's list
        code, published = run("publish", period, "--db", db, "--out", folder / "db-out")
        assert code == 0, published
    listing = rows(folder / "db-out" / "2025-04" / "standard" / "list.csv")
    found = [row for row in listing if row["name"] == GROSS and row["federation"] == federation]
    assert len(found) == 1, found
    assert len([row for row in listing if row["id"] == found[0]["id"]]) == 1
    rating, _, index = found[0]["dwz"].partition("-")
    return (rating, index), added


def both_ways(folder: Path, event: Path, listed: Path) -> tuple[tuple[str, str], str, str]:
    (folder / "a").mkdir()
    (folder / "b").mkdir()
    rated, said = by_rate(folder / "a", event, listed)
    stored, added = by_database(folder / "b", event, listed)
    assert rated == stored, (rated, stored)
    return rated, said, added


@pytest.mark.parametrize(
    ("header", "five", "gross", "event"),
    [
        # No FIDE ID and no federation in the list: only the ZPS-Mgl says who she is.
        (*ZPS_LIST, event_csv),
        # The public id a players.csv gives her (<event>#<start rank>).
        ("id,name,birth_year,rating,index", '15,"Five, E",1980,1800,20',
         f'koeln#2,"{GROSS}",1990,1580,23', event_trf),
        # Exact name, birth year and federation.
        ("id,name,birth_year,rating,index,federation", '15,"Five, E",1980,1800,20,GER',
         f'L1,"{GROSS}",1990,1580,23,GER', event_trf),
    ],
    ids=["national-id", "public-id", "identity"],
)  # fmt: skip
def test_a_list_row_is_found_alike_both_ways(
    tmp_path: Path, header: str, five: str, gross: str, event: Callable[[Path], Path]
) -> None:
    listed = dwz_list(tmp_path, header, five, gross)
    got, _, _ = both_ways(tmp_path, event(tmp_path), listed)
    assert got == EXPECTED


def test_a_near_match_is_told_both_ways_and_matches_neither(tmp_path: Path) -> None:
    # The list has no federation: the same name and birth year, federation blank vs GER.
    listed = near_list(tmp_path)
    got, said, added = both_ways(tmp_path, event_trf(tmp_path), listed)
    assert got != EXPECTED  # rated as new both ways, not guessed
    near = NEAR
    assert near in said
    assert f"{GROSS} (born 1990) matches player L1 except its federation (blank vs GER)" in added


def test_an_elo_list_gives_the_national_id_too(tmp_path: Path) -> None:
    # docs/formats.md §11.1: a FIDE Elo list row without a FIDE ID, known by its ZPS-Mgl
    # (lower case in the list: compared in capitals). Rated with the list, she has the
    # list's 1580, not the file's 1638; the database made from it finds her by it too.
    listed = tmp_path / "elo.csv"
    listed.write_text(
        f'id,zps,name,birth_year,rating\n15,,"Five, E",1980,1800\n,c0327-123,"{GROSS}",1990,1580\n',
        encoding="utf-8",
    )
    event = event_csv(tmp_path)
    code, output = run("rate", event, "--list", listed, "--out", tmp_path / "out")
    assert code == 0, output
    (her,) = [row for row in rows(tmp_path / "out" / "players.csv") if row["name"] == GROSS]
    assert her["rating"] == "1580"
    db = tmp_path / "e.sqlite"
    code, output = run("init", "--list", listed, "--period", "2025-02", "--db", db)
    assert code == 0, output
    code, added = run("add", event, "--db", db)
    assert code == 0 and "new player" not in added, added
    assert query(db, "SELECT created_by, national_id FROM players WHERE name = ?", GROSS) == [
        ("C0327-123", "C0327-123")
    ]


def test_a_public_id_held_twice_is_refused_with_the_way_out(tmp_path: Path) -> None:
    # The list names Groß koeln#2; the file has two lines alike at 2 and 3 (twins: two
    # people, docs/formats.md §11.1), so add makes koeln#2 a second time. publish refuses,
    # naming the commands that make them one or keep them apart.
    listed = dwz_list(
        tmp_path,
        "id,name,birth_year,rating,index",
        '15,"Five, E",1980,1800,20',
        f'koeln#2,"{GROSS}",1990,1580,23',
    )
    event = tmp_path / "koeln.trf"
    people = [
        P(1, "Five, E", 1800, 15, 1980, federation="GER"),
        P(2, GROSS, None, None, 1990, federation="GER"),
        P(3, GROSS, None, None, 1990, federation="GER"),
    ]
    games = [(1, 1, 2, "=-="), (2, 3, 1, "0-1"), (3, 2, 3, "1-0")]
    event.write_text(trf(people, games, start="2025/03/05", end="2025/03/07"), encoding="utf-8")
    db = dwz_database(tmp_path, listed)
    code, added = run("add", event, "--db", db)
    assert code == 0 and "kept as different players" in added, added
    assert run("publish", "2025-03", "--db", db, "--out", tmp_path / "out")[0] == 0
    code, said = run("publish", "2025-04", "--db", db, "--out", tmp_path / "out")
    assert code == 1
    assert "players koeln#2 share a public id" in said
    assert "rating-batch remove the event that made the second" in said
    assert "edit-player" in said and "--national-id" in said


def test_check_finds_the_near_match_as_rate_does(tmp_path: Path) -> None:
    # check with the list and the file says what rate --list says of them (one rule).
    listed = near_list(tmp_path)
    event = event_trf(tmp_path)
    code, said = run("check", event, listed, "--rules", "dwz")
    assert code == 0, said
    near = NEAR
    assert f"{event}:5: warning: {near}" in said  # her 001 line


def test_a_fide_id_received_is_given_by_the_national_id_both_ways(tmp_path: Path) -> None:
    # The list knows her by her ZPS-Mgl only; the file gives the FIDE ID she has since
    # received, the same ZPS-Mgl and no federation (so name, birth year and federation
    # could not say it is she). Both ways she is the list's row: 1590-24.
    listed = dwz_list(tmp_path, *ZPS_LIST)
    event = tmp_path / "koeln.csv"
    event.write_text(
        "event,Köln 2025\nstart,2025-03-05\nend,2025-03-05\n\n"
        "no,name,fide_id,zps,rating,federation,birth_year,1\n"
        '1,"Five, E",15,,1800,GER,1980,2w½\n'
        f'2,"{GROSS}",24681357,C0327-123,1638,,1990,1b½\n',
        encoding="utf-8",
    )
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    rated, _ = by_rate(tmp_path / "a", event, listed, federation="")
    stored, added = by_database(tmp_path / "b", event, listed, federation="")
    assert rated == stored == EXPECTED
    assert f"FIDE ID 24681357 given to {GROSS} (L1): his national id C0327-123" in added


def test_the_way_out_add_gives_for_a_near_match_works(tmp_path: Path) -> None:
    # add tells the commands; followed, they give her the list's DWZ: 1590-24.
    db = tmp_path / "d.sqlite"
    code, output = run("init", "--list", near_list(tmp_path), "--period", "2025-02", "--db", db,
                       "--rules", "dwz")  # fmt: skip
    assert code == 0, output
    event = event_trf(tmp_path)
    code, added = run("add", event, "--db", db)
    way_out = "rating-batch restore latest, then edit-player L1 --federation GER"
    assert code == 0 and way_out in added, added
    for command in (("restore", "latest"), ("edit-player", "L1", "--federation", "GER"),
                    ("add", event)):  # fmt: skip
        code, output = run(*command, "--db", db)
        assert code == 0, output
    assert "new player" not in output
    for period in ("2025-03", "2025-04"):
        assert run("publish", period, "--db", db, "--out", tmp_path / "out")[0] == 0
    listing = rows(tmp_path / "out" / "2025-04" / "standard" / "list.csv")
    assert [row["dwz"] for row in listing if row["name"] == GROSS] == ["-".join(EXPECTED)]


def test_a_files_national_id_not_of_the_systems_form_is_said_each_way(tmp_path: Path) -> None:
    # "C0327 123" (a space for the dash) is not a ZPS-Mgl: it finds nobody, and each
    # command that reads the file under the DWZ says so at her line (7 of the CSV).
    listed = dwz_list(tmp_path, *ZPS_LIST)
    event = event_csv(tmp_path)
    event.write_text(event.read_text(encoding="utf-8").replace("C0327-123", "C0327 123"),
                     encoding="utf-8")  # fmt: skip
    said = (
        f"{event}:7: warning: national_id 'C0327 123': not the form of the ZPS-Mgl or PKZ "
        "(C0327-123 or 10234567); it finds only a player given it written so"
    )
    code, output = run("check", event, "--rules", "dwz")
    assert code == 0 and said in output, output
    code, output = run("rate", event, "--rules", "dwz", "--list", listed, "--out", tmp_path / "o")
    assert code == 0 and said in output, output
    db = tmp_path / "d.sqlite"
    assert (
        run("init", "--list", listed, "--period", "2025-02", "--db", db, "--rules", "dwz")[0] == 0
    )
    code, output = run("add", event, "--db", db)
    assert code == 0 and said in output, output


#: Five's FIDE ID with Groß's ZPS-Mgl (the attack review's conflict.csv): two list rows, two
#: players match the one line.
SPLIT_EVENT = (
    "event,Köln 2025\nstart,2025-03-01\nend,2025-03-05\n\n"
    "no,name,fide_id,national_id,rating,federation,birth_year,1\n"
    '1,"Five, E",15,C0327-123,1800,GER,1980,2w½\n'
    f'2,"{GROSS}",,,1638,GER,1990,1b½\n'
)
SPLIT_LIST = (
    "id,national_id,name,birth_year,federation,rating,index",
    '15,,"Five, E",1980,GER,1800,20',
    f',C0327-123,"{GROSS}",1990,GER,1580,23',
)


def test_a_fide_id_and_a_national_id_of_two_rows_are_refused_every_way(tmp_path: Path) -> None:
    """docs/formats.md §11.1: a line two list rows (two players) match is an error naming
    both by their own names, in check, rate --list and add; add stores nothing (no player
    is given a national id another holds)."""
    event = tmp_path / "conflict.csv"
    event.write_text(SPLIT_EVENT, encoding="utf-8")
    listed = dwz_list(tmp_path, *SPLIT_LIST)
    named = ("'Five, E' 15 (list row 2)", f"'{GROSS}' C0327-123 (list row 3)")
    code, said = run("check", event, listed, "--rules", "dwz")
    assert code == 1 and "conflict.csv:6: 'Five, E' matches 2 players of the list" in said
    assert all(name in said for name in named), said
    code, said = run("rate", event, "--rules", "dwz", "--list", listed, "--out", tmp_path / "o")
    assert code == 1 and all(name in said for name in named), said
    assert not (tmp_path / "o").exists()
    db = dwz_database(tmp_path, listed)
    code, said = run("add", event, "--db", db)
    assert code == 1, said
    assert "conflict.csv:6: 'Five, E' matches 2 players: #1 'Five, E' (FIDE ID 15)" in said
    assert f"#2 '{GROSS}'" in said and "national id C0327-123" in said
    assert query(db, "SELECT fide_id, national_id FROM players ORDER BY player_id") == [
        (15, None), (None, "C0327-123"),
    ]  # fmt: skip


@pytest.mark.parametrize(
    "header",
    ["id,national_id,name,birth_year,federation,rating,index", "id,name,birth_year,federation,"
     "rating,index"],
    ids=["national-id-column", "id-only"],
)  # fmt: skip
def test_a_list_row_without_any_id_is_an_error_at_its_line(tmp_path: Path, header: str) -> None:
    """A row with neither id nor national id was dropped (init: "0 players" of it; rate
    --list rated her as new): now an error at its line, in init, check and rate --list."""
    blank = ",," if "national_id" in header else ","
    listed = dwz_list(tmp_path, header, f'15{blank}"Five, E",1980,GER,1800,20',
                      f'{blank}"{GROSS}",1990,GER,1580,23')  # fmt: skip
    said = "dwz.csv:3: no id: give the player's id"
    db = tmp_path / "d.sqlite"
    code, output = run("init", "--list", listed, "--period", "2025-02", "--db", db,
                       "--rules", "dwz")  # fmt: skip
    assert code == 1 and said in output, output
    assert not db.exists()
    code, output = run("check", listed, "--rules", "dwz")
    assert code == 1 and said in output, output
    code, output = run("rate", event_trf(tmp_path), "--rules", "dwz", "--list", listed,
                       "--out", tmp_path / "o")  # fmt: skip
    assert code == 1 and said in output, output
    assert not (tmp_path / "o").exists()


#: The attack review's koeln.csv and bonn.csv (issue 38): Groß known by her ZPS-Mgl only.
KOELN = (
    "event,Köln 2025\nstart,2025-03-01\nend,2025-03-05\n\n"
    "no,name,fide_id,national_id,rating,federation,birth_year,1,2,3\n"
    '1,"Five, E",15,,1800,GER,1980,2w½,4b1,3w½\n'
    f'2,"{GROSS}",, c0327-123 ,1638,GER,1990,1b½,3w1,4w1\n'
    '3,"Six, F",16,,1700,GER,1985,4w1,2b0,1b½\n'
    '4,"Seven, G",,C0327-124,,GER,1970,3b0,1w0,2b0\n'
)
BONN = (
    "event,Bonn 2025\nstart,2025-04-10\nend,2025-04-12\n\n"
    "no,name,fide_id,national_id,rating,federation,birth_year,1\n"
    f'1,"{GROSS}",,C0327-123,1638,GER,1990,2w1\n'
    '2,"Six, F",16,,1700,GER,1985,1b0\n'
)
TWO_MONTHS_LIST = (
    "id,national_id,name,birth_year,federation,rating,index",
    '15,,"Five, E",1980,GER,1800,20',
    '16,,"Six, F",1985,GER,1700,30',
    f',C0327-123,"{GROSS}",1990,GER,1580,23',
    ',C0327-124,"Seven, G",1970,GER,1400,10',
)


def next_list(players_csv: Path, target: Path) -> Path:
    """docs/formats.md §11's recipe: players.csv's identity columns and its new_… columns,
    renamed, are the next period's list."""
    found = rows(players_csv)
    identity = ["id", "national_id", "name", "federation", "birth_year"]
    state = ["rating", "index", "uplifted", "restpartien"]
    lines = [",".join(identity + state)]
    lines += [",".join(f'"{row[c]}"' for c in identity) + ","
              + ",".join(row[f"new_{c}"] for c in state) for row in found]  # fmt: skip
    target.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return target


def test_players_csv_as_the_next_list_gives_the_databases_numbers(tmp_path: Path) -> None:
    """Two months rated by rate --list (players.csv renamed into the next list) and by a
    database give the same numbers: players.csv keeps Groß's national id and birth year, so
    the next month finds her on the list instead of rating her as new (1714-6).

    March (Köln): Groß 1580-23 → 1620-24 and Six 1700-30 → 1688-31 (the database's list of
    April says so too). April (Bonn), Groß (born 1990, J = 15) beats Six (born 1985, J = 15):
    Groß: E0 = 1.620⁴ + 15 = 6.888 + 15 = 21.89 → E = 22; We = Φ((1620 − 1688)/(200·√2)) =
    Φ(−0.2404) = 0.4050; Rn = 1620 + 800·(1 − 0.4050)/(22 + 1) = 1620 + 20.70 → 1641-25.
    Six: E0 = 1.688⁴ + 15 = 8.119 + 15 = 23.12 → 23; Rn = 1688 + 800·(0 − 0.5950)/(23 + 1)
    = 1688 − 19.83 → 1668-32."""
    (tmp_path / "koeln.csv").write_text(KOELN, encoding="utf-8")
    (tmp_path / "bonn.csv").write_text(BONN, encoding="utf-8")
    listed = first = dwz_list(tmp_path, *TWO_MONTHS_LIST)
    # By rate --list, month after month.
    months = {}
    for month, event in (("march", "koeln.csv"), ("april", "bonn.csv")):
        out = tmp_path / month
        code, said = run("rate", tmp_path / event, "--rules", "dwz", "--list", listed,
                         "--out", out)  # fmt: skip
        assert code == 0, said
        months[month] = {row["name"]: row for row in rows(out / "players.csv")}
        listed = next_list(out / "players.csv", tmp_path / f"after-{month}.csv")
    march, april = months["march"], months["april"]
    assert (march[GROSS]["national_id"], march[GROSS]["birth_year"]) == ("C0327-123", "1990")
    assert (march["Five, E"]["national_id"], march["Five, E"]["birth_year"]) == ("", "1980")
    assert (april[GROSS]["rating"], april[GROSS]["index"]) == ("1620", "24")  # from the list
    rated = {name: (april[name]["new_rating"], april[name]["new_index"])
             for name in (GROSS, "Six, F")}  # fmt: skip
    assert rated == {GROSS: ("1641", "25"), "Six, F": ("1668", "32")}
    # By the database.
    db = dwz_database(tmp_path, first)
    for event in ("koeln.csv", "bonn.csv"):
        code, said = run("add", tmp_path / event, "--db", db)
        assert code == 0, said
    for period in ("2025-03", "2025-04", "2025-05"):
        code, said = run("publish", period, "--db", db, "--out", tmp_path / "pub")
        assert code == 0, said
    stored = {row["name"]: tuple(row["dwz"].split("-"))
              for row in rows(tmp_path / "pub" / "2025-05" / "standard" / "list.csv")}  # fmt: skip
    assert {name: stored[name] for name in rated} == rated


def test_player_and_edit_player_find_a_player_by_his_national_id(tmp_path: Path) -> None:
    """``player C0327-123`` (the id a DSB list prints for her) was refused while
    ``edit-player C0327-123`` was accepted: one lookup (``find_player``) for both now finds
    a player by his national id too, also one an event made (public id ``koeln#2``)."""
    listed = dwz_list(tmp_path, "id,name,birth_year,rating,index", '15,"Five, E",1980,1800,20')
    db = dwz_database(tmp_path, listed)
    code, said = run("add", event_csv(tmp_path), "--db", db)  # Groß: new, C0327-123 stored
    assert code == 0, said
    code, said = run("player", "c0327-123 ", "--db", db)
    assert code == 0 and GROSS in said, said
    code, said = run("edit-player", "C0327-123", "--birth-year", "1991", "--db", db)
    assert code == 0 and "birth_year" in said, said
    born = query(db, "SELECT birth_year FROM players WHERE national_id = 'C0327-123'")
    assert born == [(1991,)]
    code, said = run("player", "C0327-999", "--db", db)
    assert code == 1 and "nor a player's national id in the database" in said, said


def test_edit_player_national_id_is_checked_and_can_be_cleared(tmp_path: Path) -> None:
    """--national-id: an id another player holds is refused naming the holder, a value not
    of the system's form (XYZ under DWZ) is refused, and "" clears the id (docs/formats.md
    §11.1); nothing changes on a refusal."""
    listed = dwz_list(tmp_path, *SPLIT_LIST, ',C0327-124,"Seven, G",1970,GER,1400,10')
    db = dwz_database(tmp_path, listed)
    ids = "SELECT fide_id, national_id FROM players ORDER BY player_id"
    before = query(db, ids)
    assert before == [(15, None), (None, "C0327-123"), (None, "C0327-124")]
    code, said = run("edit-player", "15", "--national-id", "c0327-123", "--db", db)
    assert code == 1 and f"'{GROSS}' (C0327-123) holds it" in said, said
    code, said = run("edit-player", "15", "--national-id", "XYZ", "--db", db)
    assert code == 1 and "'XYZ': not the form of the ZPS-Mgl or PKZ" in said, said
    assert query(db, ids) == before
    code, said = run("edit-player", "C0327-124", "--national-id", "", "--db", db)
    assert code == 0 and "national_id 'C0327-124' → ''" in said, said
    code, said = run("edit-player", "15", "--national-id", "C0327-124", "--db", db)
    assert code == 0, said  # free now
    assert query(db, ids) == [(15, "C0327-124"), (None, "C0327-123"), (None, None)]


def test_a_public_id_under_another_persons_name_is_told_both_ways(tmp_path: Path) -> None:
    """A list row keyed koeln#2 whose name, birth year and federation are another person's
    (the attack review's pid.csv) was silently Groß's: now the warning a national id under
    another name gives, in rate --list, check and add alike (she still takes that row:
    rule 2 of docs/formats.md §11.1 decides; the warning says how to correct it)."""
    header = "id,name,birth_year,federation,rating,index"
    other = 'koeln#2,"Otto, Other",1950,AUT,2100,50'
    listed = dwz_list(tmp_path, header, '15,"Five, E",1980,GER,1800,20', other)
    told = f"{GROSS} has the public id koeln#2 of 'Otto, Other'"
    (tmp_path / "a").mkdir()
    event = event_trf(tmp_path / "a")
    code, said = run("rate", event, "--rules", "dwz", "--list", listed, "--out", tmp_path / "o")
    assert code == 0 and told in said, said
    code, said = run("check", event, listed, "--rules", "dwz")
    assert told in said, said
    code, said = run("add", event, "--db", dwz_database(tmp_path, listed))
    assert code == 0 and told in said, said


@pytest.mark.parametrize(
    ("rules", "lines", "said"),
    [
        # The DSB's export: ZPS and PKZ; a malformed PKZ was never read.
        ("dwz", ["id,zps,pkz,name,rating,index", ',C0327-123,12,"A, B",1580,23'],
         "pkz '12': not the form of the ZPS-Mgl or PKZ"),
        # Two ZPS for one row.
        ("dwz", ["id,zps,zps-mgl,name,rating,index", ',C0327-123,C0327-124,"A, B",1580,23'],
         "zps C0327-123 and zps-mgl C0327-124 disagree"),
        # national_id beside uscf_id: the second column checked too, and compared.
        ("uscf", ["id,national_id,uscf_id,name,rating", ',12345678,1234567,"A, B",1500'],
         "uscf_id '1234567': not the form of the US Chess id"),
        ("uscf", ["id,national_id,uscf_id,name,rating", ',12345678,12345679,"A, B",1500'],
         "national_id 12345678 and uscf_id 12345679 disagree"),
    ],
    ids=["pkz-form", "two-zps", "uscf-form", "uscf-disagree"],
)  # fmt: skip
def test_every_id_column_of_a_list_is_read_and_checked(
    tmp_path: Path, rules: str, lines: list[str], said: str
) -> None:
    """docs/formats.md §11.1: every id column is checked (only the first was), and two of
    one form on one row disagree: an error at line 2, in check and init alike."""
    listed = dwz_list(tmp_path, *lines)
    code, output = run("check", listed, "--rules", rules)
    assert code == 1 and f"dwz.csv:2: {said}" in output, output
    code, output = run("init", "--list", listed, "--db", tmp_path / "d.sqlite", "--rules", rules)
    assert code == 1 and f"dwz.csv:2: {said}" in output, output


def test_a_player_known_by_her_pkz_alone_is_found_both_ways(tmp_path: Path) -> None:
    """A DSB list (zps, pkz) and a file (zps, pkz) giving Groß only her PKZ: the PKZ column
    was ignored beside zps, and she was rated as new. Found now, the same both ways:
    1590-24 (the module's docstring)."""
    gross = f',,10234567,"{GROSS}",1990,1580,23'
    listed = dwz_list(tmp_path, "id,zps,pkz,name,birth_year,rating,index",
                      '15,,,"Five, E",1980,1800,20', gross)  # fmt: skip
    event = tmp_path / "koeln.csv"
    event.write_text(
        "event,Köln 2025\nstart,2025-03-05\nend,2025-03-05\n\n"
        "no,name,fide_id,zps,pkz,rating,federation,birth_year,1\n"
        '1,"Five, E",15,,,1800,GER,1980,2w½\n'
        f'2,"{GROSS}",,,10234567,1638,GER,1990,1b½\n',
        encoding="utf-8",
    )
    rated, _, _ = both_ways(tmp_path, event, listed)
    assert rated == EXPECTED
