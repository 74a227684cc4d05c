"""``init`` (monthly/init.py): a database from a rating list, refusing any existing path."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import DATA
from db_helpers import (
    LIST_FILES,
    newcomer_database,
    newcomer_plays,
    query,
    rows,
    run,
    write_list,
)

from rating_batch.loaders.ratinglist import read_rating_list


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    return tmp_path


LISTS = sorted(p for p in (DATA / "lists").iterdir() if p.suffix in (".txt", ".xml"))


@pytest.mark.parametrize("path", LISTS, ids=[p.name[:40] for p in LISTS])
def test_init_then_export_loses_no_field(path: Path, folder: Path) -> None:
    original = read_rating_list(path)
    db = folder / "r.sqlite"
    assert run("init", "--list", path, "--db", db)[0] == 0
    code, _out, _ = run(
        "export-list",
        "initial" if original.month is None else f"{original.month[0]}-{original.month[1]:02d}",
        "--db",
        db,
        "--out",
        folder / "out",
    )
    assert code == 0
    for kind in original.kinds:
        expected = original.frame[original.frame[f"{kind}_rating"].notna()].set_index("id")
        for written in ("list.csv", "list.txt"):
            folder_name = (
                "initial"
                if original.month is None
                else f"{original.month[0]}-{original.month[1]:02d}"
            )
            back = read_rating_list(
                folder / "out" / folder_name / kind / written, kind=kind
            ).frame.set_index("id")
            assert sorted(back.index) == sorted(expected.index), (kind, written)
            for column in (
                "name",
                "federation",
                "sex",
                "title",
                "w_title",
                "o_title",
                "foa_title",
                "birth_year",
                "inactive",
            ):
                left = expected[column].reindex(back.index)
                assert (
                    left.astype("string").fillna("").str.strip().tolist()
                    == back[column].astype("string").fillna("").str.strip().tolist()
                ), (kind, written, column)
            for column in ("rating", "k", "games"):
                name = f"{kind}_{column}"
                assert (
                    expected[name].reindex(back.index).fillna(0).tolist()
                    == back[name].fillna(0).tolist()
                ), (kind, written, column)


def test_init_refuses_an_existing_database(folder: Path) -> None:
    db = folder / "r.sqlite"
    listing = write_list(folder, ["id,rating", "11,1600"])
    assert run("init", "--list", listing, "--db", db)[0] == 0
    before = db.read_bytes()
    code, _, err = run("init", "--list", listing, "--db", db)
    assert (code, err) == (
        1,
        f"Error: {db}: already exists; init never replaces a file: give another --db path "
        "(the file was not changed)\n",
    )
    assert db.read_bytes() == before


def test_commands_without_a_database_say_how_to_make_one(folder: Path) -> None:
    code, _, err = run("publish", "2026-02", "--db", folder / "none.sqlite")
    assert code == 1 and "create one there with 'rating-batch init --list FILE'" in err
    assert not (folder / "none.sqlite").exists()


def test_init_from_an_xlsx_list(folder: Path) -> None:
    from openpyxl import Workbook

    book = Workbook()
    sheet = book.active
    for row in (
        ["id", "name", "rating", "k", "birth_year"],
        [11, "A, Ann", 1600, 20, 1980],
        [12, "B, Bob", 1500.0, 40, 2012],
    ):
        sheet.append(row)
    path = folder / "list.xlsx"
    book.save(path)
    db = folder / "r.sqlite"
    code, out, err = run("init", "--list", path, "--period", "2026-01", "--db", db)
    assert code == 0, err
    assert "standard: 2 rated players" in out
    run("export-list", "2026-01", "--db", db, "--out", folder / "out")
    listed = rows(folder / "out" / "2026-01" / "standard" / "list.csv")
    assert [(r["name"], r["rating"], r["k"]) for r in listed.values()] == [
        ("A, Ann", "1600", "20"),
        ("B, Bob", "1500", "40"),
    ]


#: Who the players are, as the database keeps them (a player without a FIDE ID by his id).
IDENTITIES = (
    "SELECT fide_id, name, federation, sex, title, w_title, o_title, foa_title, birth_year, "
    "CASE WHEN fide_id IS NULL THEN created_by END FROM players ORDER BY fide_id, name"
)
#: Each player's standard state as of 2026-02: the latest ratings row of a period up to it.
STATES = (
    "SELECT p.fide_id, p.name, r.rating, r.k, r.games, r.games_total, r.peak, r.last_played, "
    "r.inactive, r.first_event_done, r.pool_start FROM ratings r JOIN players p USING "
    "(player_id) WHERE r.kind = 'standard' AND r.period = (SELECT MAX(period) FROM ratings x "
    "WHERE x.player_id = r.player_id AND x.kind = 'standard' AND x.period <= '2026-02') "
    "ORDER BY p.fide_id, p.name"
)


@pytest.mark.parametrize("written", LIST_FILES)
def test_a_published_list_with_a_player_without_fide_id_reads_back_as_it_was(
    tmp_path: Path, written: str
) -> None:
    # Each was refused: for the id n1#7 ("'n1#7' is not a whole number"), list.xlsx also
    # for its header on row 4, below the title ("missing column 'id'").
    db, lists = newcomer_database(tmp_path)
    published = lists / written
    assert run("check", published) == (0, "", "0 error(s), 0 warning(s)\n")
    back = tmp_path / "back.sqlite"
    code, out, err = run("init", "--list", published, "--period", "2026-02", "--db", back)
    assert (code, err) == (0, ""), out
    assert "8 players" in out
    assert query(back, IDENTITIES) == query(db, IDENTITIES)
    assert (None, "Newbie, Sam", "ITA", "M", None, None, None, None, 2010, "n1#7") in query(
        back, IDENTITIES
    )
    expected = query(db, STATES)
    if written == "list.txt":
        # FIDE's layout has no total of games: Newbie's 6 are unknown, as on a FIDE list.
        expected = [(*row[:5], None, *row[6:]) for row in expected]
    assert query(back, STATES) == expected
    assert query(back, STATES)[0][:5] == (None, "Newbie, Sam", 1749, 40, 6)
    # A later event finds him by name, birth year and federation (no new player): he beats
    # Idle (1749): D 0, PD 0.50, K 40: 1749 + 20 = 1769; Idle, K 20: 1749 - 10 = 1739.
    event = newcomer_plays(tmp_path)
    code, out, err = run("add", event, "--db", back)
    assert (code, err) == (0, "") and "new player" not in out
    code, out, err = run("publish", "2026-03", "--db", back, "--out", tmp_path / "again")
    assert code == 0, out + err
    listed = rows(tmp_path / "again" / "2026-03" / "standard" / "list.csv")
    assert (listed["n1#7"]["rating"], listed["17"]["rating"]) == ("1769", "1739")


def test_players_of_a_fide_list_without_any_id_get_one_that_reads_back(tmp_path: Path) -> None:
    # A FIDE TXT row may have no ID at all: each such player is list#<line> (was "list" for
    # all of them, which no list can hold twice).
    header = "ID Number     Name          Fed Sex Tit WTit OTit FOA FEB26 Gms K B-day Flag"
    people = [("11", "A, Ann", "1800 0 20 1980"), ("", "B, Bea", "1700 0 20 1980"),
              ("", "C, Cy", "1600 0 20 1981")]  # fmt: skip
    listing = write_list(
        tmp_path,
        [header, *(f"{i:<14}{name:<14}ITA M            {tail}" for i, name, tail in people)],
        name="fide.txt",
    )
    db = tmp_path / "r.sqlite"
    code, out, err = run("init", "--list", listing, "--db", db)
    assert (code, err) == (0, ""), out
    assert query(db, "SELECT name, fide_id, created_by FROM players ORDER BY name") == [
        ("A, Ann", 11, "list"), ("B, Bea", None, "list#3"), ("C, Cy", None, "list#4"),
    ]  # fmt: skip
    assert run("export-list", "2026-02", "--db", db, "--out", tmp_path / "out")[0] == 0
    written = tmp_path / "out" / "2026-02" / "standard" / "list.csv"
    assert sorted(rows(written)) == ["11", "list#3", "list#4"]
    assert run("check", written) == (0, "", "0 error(s), 0 warning(s)\n")


def test_a_birth_year_of_0_or_0000_is_unknown_not_an_error(folder: Path) -> None:
    """docs/formats.md §4.1: 0 and 0000 are how lists write an unknown birth year."""

    listing = write_list(
        folder,
        ["id,name,birth_year,rating", '11,"Aa, Bb",0,1600', '12,"Cc, Dd",0000,1500',
         '13,"Ee, Ff",1990,1700'],
    )  # fmt: skip
    code, out, err = run("check", listing)
    assert (code, out, err) == (0, "", "0 error(s), 0 warning(s)\n")
    db = folder / "r.sqlite"
    code, _, err = run("init", "--list", listing, "--period", "2026-01", "--db", db)
    assert code == 0, err
    assert query(db, "SELECT fide_id, birth_year FROM players ORDER BY fide_id") == [
        (11, None),
        (12, None),
        (13, 1990),
    ]


def test_ratings_below_the_floor_are_a_warning_naming_them(folder: Path) -> None:
    # fide-2025's floor is 1400 (docs/rules.md §2.7): seven of the list's ratings are below
    # it. The list is stored as it is; the warning names the first five and counts the rest.
    low = [(21 + i, f"Low, L{i}", 1399 - i) for i in range(7)]
    listing = write_list(
        folder, ["id,name,rating", '11,"High, Hal",1800', *(f'{i},"{n}",{r}' for i, n, r in low)]
    )
    db = folder / "r.sqlite"
    code, out, err = run("init", "--list", listing, "--period", "2026-01", "--db", db)
    assert (code, out.splitlines()[-1]) == (0, "standard: 8 rated players")
    named = ", ".join(f"{n} ({i}, {r}, line {line})" for line, (i, n, r) in enumerate(low[:5], 3))
    assert err == (
        f"{listing}:3: warning: 7 standard rating(s) below the floor 1400 of fide-2025: {named} "
        "and 2 more; the next standard list published makes them unrated (below the floor), "
        "even without a game, unless a game brings them up to it\n"
    )
    stored = query(
        db, "SELECT p.fide_id, r.rating FROM ratings r JOIN players p USING (player_id) ORDER BY 1"
    )
    assert stored == [(11, 1800), *((i, r) for i, _, r in low)]
