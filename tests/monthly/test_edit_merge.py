"""``edit-player ID --fide-id N`` when another player holds N: the two become one only when
their name (spelling aside), federation and birth year agree, as ``add`` compares them;
otherwise the officer is told how they differ and merges them with ``--force``."""

from __future__ import annotations

from pathlib import Path

import pytest
from db_helpers import (
    ADULT,
    companions,
    data_dump,
    dump,
    event_file,
    newcomer_database,
    process,
    query,
    run,
    write_list,
)
from trf_text import P

#: The FIDE ID typed for Newbie, Sam (n1#7, ITA, born 2010), held by the player of a
#: February file.
TYPED = 912345678


def _holder(folder: Path, name: str, federation: str, born: int | None) -> Path:
    """The newcomer database (db_helpers.newcomer_database: n1#7 is on the 2026-02 list)
    after a February file whose player with FIDE ID 912345678 beats Idle, Ian (17)."""
    db, _ = newcomer_database(folder)
    players = [P(1, name, None, TYPED, born, sex="m", federation=federation),
               P(2, "Idle, Ian", 1749, 17, ADULT, sex="m", federation="ITA")]  # fmt: skip
    event = event_file(folder, "feb", [(1, 1, 2, "1-0")], players=players, day="2026/02/10")
    assert run("add", event, "--db", db)[0] == 0
    return db


@pytest.mark.parametrize(
    ("name", "federation", "born", "differ"),
    [
        ("Alpha, New", "ESP", 2000, "name, federation or birth year"),
        ("Newbie, Samuel", "ITA", 2010, "name"),
        ("Newbie, Sam", "ESP", 2010, "federation"),
        ("Sam Newbie", "ITA", 2011, "birth year"),
    ],
    ids=["all-three", "name", "federation", "birth-year"],
)
def test_two_different_people_are_not_merged_without_force(
    tmp_path: Path, name: str, federation: str, born: int, differ: str
) -> None:
    db = _holder(tmp_path, name, federation, born)
    before, files = dump(db), companions(db)
    code, out, err = process("edit-player", "n1#7", "--fide-id", TYPED, "--db", db)
    assert (code, out) == (1, "")
    assert err == (
        f"Error: {TYPED} is {name!r}, {federation}, born {born} — not the same {differ} as "
        "'Newbie, Sam' (n1#7), ITA, born 2010; pass --force to merge them\n"
    )
    assert "Traceback" not in err
    assert (dump(db), companions(db)) == (before, files)


def test_force_merges_them_and_restore_latest_takes_it_back(tmp_path: Path) -> None:
    db = _holder(tmp_path, "Alpha, New", "ESP", 2000)
    before = data_dump(db)
    command = ("edit-player", "n1#7", "--fide-id", TYPED, "--force", "--db", db)
    code, out, err = process(*command)
    assert (code, err) == (0, "")
    assert out.splitlines()[:3] == [
        "edited 'Newbie, Sam' (n1#7):",
        f"  merged 'Alpha, New' ({TYPED}) into 'Newbie, Sam' (n1#7): one player from now on",
        f"  fide_id none → {TYPED}",
    ]
    # One player: n1#7's identity, the FIDE ID, the events of both.
    assert query(db, f"SELECT name, federation, birth_year FROM players WHERE fide_id = {TYPED}"
                 ) == [("Newbie, Sam", "ITA", 2010)]  # fmt: skip
    assert query(db, "SELECT COUNT(*) FROM players WHERE name = 'Alpha, New'") == [(0,)]
    assert run("restore", "latest", "--db", db)[0] == 0
    assert data_dump(db) == before


@pytest.mark.parametrize(
    ("name", "federation", "born"),
    [("NEWBIE, Sam", "ITA", 2010), ("Newbie, Sam", "", None)],
    ids=["spelling-aside", "unknown-federation-and-birth-year"],
)
def test_the_same_person_is_merged_without_force(
    tmp_path: Path, name: str, federation: str, born: int | None
) -> None:
    # What the February file does not say differs from nothing (add compares so too).
    db = _holder(tmp_path, name, federation, born)
    code, out, err = run("edit-player", "n1#7", "--fide-id", TYPED, "--db", db)
    assert (code, err) == (0, "")
    assert f"  merged {name!r} ({TYPED}) into 'Newbie, Sam' (n1#7): one player from now on" in out
    assert query(db, f"SELECT created_by FROM players WHERE fide_id = {TYPED}") == [("n1#7",)]


def test_the_id_of_the_one_merged_away_still_finds_him(tmp_path: Path) -> None:
    # Newbie (n1#7) played only in n1, not yet published; he is Idle, Ian (17, on the
    # initial list) after all, under another name: the merge keeps 17 and removes n1#7's
    # row, but n1's report printed "n1#7": the officer who types it must find 17.
    listing = write_list(tmp_path, ["id,name,federation,sex,birth_year,rating,k",
                                    '17,"Idle, Ian",ITA,M,1980,1749,20',
                                    '11,"Player, P01",ITA,M,1980,1800,20'])  # fmt: skip
    db = tmp_path / "r.sqlite"
    assert run("init", "--list", listing, "--period", "2026-01", "--db", db)[0] == 0
    players = [P(1, "Player, P01", 1800, 11, ADULT, sex="m", federation="ITA"),
               P(7, "Newbie, Sam", None, None, 2010, sex="m", federation="ITA")]  # fmt: skip
    n1 = event_file(tmp_path, "n1", [(1, 1, 7, "1-0")], players=players, day="2026/01/20")
    assert run("add", n1, "--db", db)[0] == 0
    code, out, err = run("edit-player", "n1#7", "--fide-id", 17, "--force", "--db", db)
    assert (code, err) == (0, "")
    assert "  merged 'Newbie, Sam' (n1#7) into 'Idle, Ian' (17): one player from now on" in out
    code, out, err = run("player", "n1#7", "--db", db)
    assert (code, err) == (0, "")
    assert out.splitlines()[0] == (
        "n1#7 (start rank 7 of n1) was merged into FIDE ID 17: shown under it"
    )
    assert "Idle, Ian" in out
