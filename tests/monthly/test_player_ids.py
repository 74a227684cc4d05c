"""``player`` for a player who received a FIDE ID after playing without one: the lists
published before name him by the id he had (``n1#7``), and his report explains them; the id
he had still finds him."""

from __future__ import annotations

from pathlib import Path

import pytest
from db_helpers import (
    ADULT,
    NEWBIE_FIDE_ID,
    dump,
    event_file,
    newcomer_database,
    newcomer_with_fide_id,
    process,
    rows,
    run,
)
from trf_text import P


def _received(tmp_path: Path, how: str) -> Path:
    """The newcomer database (db_helpers.newcomer_database: Newbie, Sam, n1#7, first rated
    1749 on the 2026-02 list) after Sam receives FIDE ID 955555555 in February: given by
    ``add`` (the file writes his name, birth year and federation exactly) or by the
    officer (the file writes his name otherwise, so add keeps two players)."""
    db, _ = newcomer_database(tmp_path)
    if how == "add":
        code, out, _ = run("add", newcomer_with_fide_id(tmp_path), "--db", db)
        assert code == 0 and f"FIDE ID {NEWBIE_FIDE_ID} given to Newbie, Sam (n1#7" in out
    else:
        assert run("add", newcomer_with_fide_id(tmp_path, "NEWBIE, Sam"), "--db", db)[0] == 0
        code, _, err = run("edit-player", "n1#7", "--fide-id", NEWBIE_FIDE_ID, "--db", db)
        assert (code, err) == (0, "")
    return db


@pytest.mark.parametrize("how", ["add", "edit-player"])
def test_the_lists_before_a_fide_id_are_explained_as_he_played_them(
    tmp_path: Path, how: str
) -> None:
    db = _received(tmp_path, how)
    before = dump(db)
    # A real process, as an officer runs it.
    code, out, err = process("player", NEWBIE_FIDE_ID, "--db", db)
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0] == f"Newbie, Sam (FIDE ID {NEWBIE_FIDE_ID}, ITA, born 2010)"
    assert "holds no files" not in out
    # The 2026-02 list names him n1#7: his first rating, derived as db_helpers works it out
    # by hand (Ra 1706.25, p 0.56, dp +43: Ru 1749.25 → 1749).
    start = lines.index("standard list 2026-02 (rules fide-2025: FIDE Rating Regulations "
                        "effective 1 October 2025 (2650")  # fmt: skip
    part = lines[start : lines.index("  first rating 1749: on the list from 2026-02") + 1]
    assert f"  played as n1#7 (his id before he received FIDE ID {NEWBIE_FIDE_ID})" in part
    assert any(line.endswith("Ru = Ra + dp = 1749.25 → 1749") for line in part)
    assert dump(db) == before  # read-only


@pytest.mark.parametrize("how", ["add", "edit-player"])
def test_the_id_he_had_finds_him_under_his_fide_id(tmp_path: Path, how: str) -> None:
    db = _received(tmp_path, how)
    out_folder = tmp_path / "reports"
    code, out, err = process("player", "n1#7", "--db", db, "--out", out_folder)
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[:2] == [
        f"n1#7 received FIDE ID {NEWBIE_FIDE_ID}: shown under it",
        f"Newbie, Sam (FIDE ID {NEWBIE_FIDE_ID}, ITA, born 2010)",
    ]
    assert "  first rating 1749: on the list from 2026-02" in lines
    # His report's files are named by the id he has now.
    assert sorted(p.name for p in out_folder.iterdir()) == [
        f"player-{NEWBIE_FIDE_ID}.html", f"player-{NEWBIE_FIDE_ID}.xlsx",
    ]  # fmt: skip
    page = (out_folder / f"player-{NEWBIE_FIDE_ID}.html").read_text(encoding="utf-8")
    assert "played as n1#7" in page and "first rating 1749" in page
    # edit-player finds him by it too, and says whom it edits.
    code, out, _ = run("edit-player", "n1#7", "--federation", "ESP", "--db", db)
    assert code == 0
    assert out.splitlines()[0] == f"edited 'Newbie, Sam' ({NEWBIE_FIDE_ID}):"


def test_a_list_after_the_fide_id_names_him_by_it_and_both_are_explained(tmp_path: Path) -> None:
    db = _received(tmp_path, "add")
    assert run("publish", "2026-03", "--db", db, "--out", tmp_path / "lists")[0] == 0
    march = rows(tmp_path / "lists" / "2026-03" / "standard" / "list.csv")
    assert march[str(NEWBIE_FIDE_ID)]["rating"] == "1769"
    code, out, err = run("player", NEWBIE_FIDE_ID, "--db", db)
    assert (code, err) == (0, "")
    lines = out.splitlines()
    # 2026-03: Sam 1749 (K 40, a junior) beats Ian 1749: D 0, PD 0.50, +0.50 × 40 = +20.
    assert "  Rn = Ro 1749 + change +20.00 = 1769.00 → 1769" in lines
    assert "  first rating 1749: on the list from 2026-02" in lines
    # Only the list that named him otherwise says so.
    assert sum("played as n1#7" in line for line in lines) == 1


def test_under_another_system_the_lists_before_are_shown_too(tmp_path: Path) -> None:
    # Glicko-2 from the Elo list: 11 (1600), 12 (1500); Newbie, Sam (no FIDE ID, n1#3)
    # plays both in January and is on the 2026-02 list; in February a file gives him FIDE
    # ID 955555555 (his exact name, birth year and federation: add gives it to him).
    listing = tmp_path / "list.csv"
    listing.write_text('id,name,federation,birth_year,rating\n11,"A, Al",ITA,1980,1600\n'
                       '12,"B, Bo",ITA,1980,1500\n')  # fmt: skip
    db = tmp_path / "r.sqlite"
    init = ["init", "--list", listing, "--period", "2026-01", "--rules", "glicko2", "--from-elo"]
    assert run(*init, "--db", db)[0] == 0
    sam = P(3, "Newbie, Sam", None, None, 2010, federation="ITA")
    players = [P(1, "A, Al", 1600, 11, ADULT, federation="ITA"),
               P(2, "B, Bo", 1500, 12, ADULT, federation="ITA"), sam]  # fmt: skip
    january = event_file(tmp_path, "n1", [(1, 1, 3, "1-0"), (2, 3, 2, "1-0")], players=players)
    assert run("add", january, "--db", db)[0] == 0
    assert run("publish", "2026-02", "--db", db, "--out", tmp_path / "lists")[0] == 0
    listed = rows(tmp_path / "lists" / "2026-02" / "standard" / "list.csv")["n1#3"]
    sam = P(2, "Newbie, Sam", None, NEWBIE_FIDE_ID, 2010, federation="ITA")
    february = event_file(tmp_path, "g", [(1, 1, 2, "1-0")], day="2026/02/10",
                          players=[players[0], sam])  # fmt: skip
    assert run("add", february, "--db", db)[0] == 0
    code, out, err = run("player", NEWBIE_FIDE_ID, "--db", db)
    assert (code, err) == (0, "")
    assert "no published list has rated this player yet" not in out
    # January: he lost to 11 and beat 12; the list's rating is the one explained.
    assert "2026-02 standard (first rating): 2 games, 1 point" in out.splitlines()
    assert f"r′ {listed['rating']}." in out
