"""A birth year corrected with ``edit-player`` and the K of the period rated next
(docs/rules.md §3): K comes from the previous list when it gives one; a K that rating_batch
derived itself, for a list it published, from the birth year now corrected is derived again
from the corrected one. A K an imported list gave stays. Published lists never change."""

from __future__ import annotations

from pathlib import Path

from db_helpers import ADULT, event_file, process, query, rows, run, tree, write_list
from openpyxl import load_workbook
from trf_text import P

#: 11 and 12, both 1600 on the list of 2026-01, born 1980 as far as the list knows.
PLAYERS = [P(1, "Alpha, Ann", 1600, 11, ADULT, federation="ITA"),
           P(2, "Beta, Bea", 1600, 12, ADULT, federation="ITA")]  # fmt: skip


def _initial(folder: Path, k: str) -> Path:
    """A database of the list of 2026-01 (``k``: its K column, "" for none)."""
    listing = write_list(
        folder,
        [f"id,name,federation,birth_year,rating{',k' if k else ''}",
         f'11,"Alpha, Ann",ITA,1980,1600{"," + k if k else ""}',
         f'12,"Beta, Bea",ITA,1980,1600{"," + k if k else ""}'],
    )  # fmt: skip
    db = folder / "r.sqlite"
    assert run("init", "--list", listing, "--period", "2026-01", "--db", db)[0] == 0
    return db


def _database(folder: Path, k: str) -> Path:
    """The list of 2026-01 (``k``: its K column) and a January event in which 11 and 12
    draw: D 0, PD 0.50, no change; 2026-02 published."""
    db = _initial(folder, k)
    january = event_file(folder, "jan", [(1, 1, 2, "=-=")], players=PLAYERS, day="2026/01/10")
    assert run("add", january, "--db", db)[0] == 0
    assert run("publish", "2026-02", "--db", db, "--out", folder / "lists")[0] == 0
    return db


def _february(folder: Path, db: Path) -> None:
    """February (period 2026-03): 11 loses to 12, D 0, PD 0.50: ΔR −0.50 for 11, +0.50 for 12."""
    event = event_file(folder, "feb", [(1, 1, 2, "0-1")], players=PLAYERS, day="2026/02/10")
    assert run("add", event, "--db", db)[0] == 0


def test_a_k_derived_from_a_birth_year_since_corrected_is_derived_again(tmp_path: Path) -> None:
    db = _database(tmp_path, k="")
    lists = tmp_path / "lists"
    february_list = rows(lists / "2026-02" / "standard" / "list.csv")
    # The 2026-02 list's K, rating_batch's own: adults, 30 games or more assumed: 20.
    assert (february_list["11"]["k"], february_list["11"]["rating"]) == ("20", "1600")
    published = tree(lists / "2026-02")
    stored = query(db, "SELECT * FROM published_files WHERE period = '2026-02' ORDER BY path")
    _february(tmp_path, db)
    # 11 was born in 2012: 14 in 2026, a junior below 2300.
    code, _, err = process("edit-player", "11", "--birth-year", "2012", "--db", db)
    assert (code, err) == (0, "")
    code, _, err = process("publish", "2026-03", "--db", db, "--out", lists)
    assert code == 0, err
    march = lists / "2026-03" / "standard"
    rated = rows(march / "players.csv")
    # K 40 (junior): −0.50 × 40 = −20.00 → 1580; 12 keeps the list's K 20: +10.00 → 1610.
    assert (rated["11"]["k"], rated["11"]["k_source"], rated["11"]["change"]) == (
        "40", "junior", "-20.00",
    )  # fmt: skip
    assert (rated["11"]["new_rating"], rated["12"]["k"], rated["12"]["new_rating"]) == (
        "1580", "20", "1610",
    )  # fmt: skip
    listed = rows(march / "list.csv")
    assert (listed["11"]["rating"], listed["11"]["k"], listed["11"]["birth_year"]) == (
        "1580", "40", "2012",
    )  # fmt: skip
    # The report's notes say so (wrapped over rows).
    summary = load_workbook(march / "report.xlsx")["Summary"]
    notes = " ".join(" ".join(str(cell) for row in summary.iter_rows(values_only=True)
                              for cell in row if isinstance(cell, str)).split())  # fmt: skip
    assert (
        "K derived again for 1 player(s) whose birth year was corrected after the 2026-02 "
        "list: its K was rating_batch's own, derived from the birth year before "
        "(docs/rules.md §3)"
    ) in notes
    # The 2026-02 list, its files and what the database keeps of them, never change.
    assert tree(lists / "2026-02") == published
    assert query(db, "SELECT * FROM published_files WHERE period = '2026-02' ORDER BY path") == (
        stored
    )
    assert query(db, "SELECT k FROM ratings r JOIN players p USING (player_id) "
                 "WHERE p.fide_id = 11 AND r.period = '2026-02'") == [(20,)]  # fmt: skip


def test_a_k_an_imported_list_gave_stays_for_the_period(tmp_path: Path) -> None:
    # The initial list gives K 20 (FIDE's word); 11's birth year is corrected before the
    # January games are rated: K from the list when it gives one (docs/rules.md §3).
    db = _initial(tmp_path, k="20")
    january = event_file(tmp_path, "jan", [(1, 1, 2, "0-1")], players=PLAYERS, day="2026/01/10")
    assert run("add", january, "--db", db)[0] == 0
    assert run("edit-player", "11", "--birth-year", "2012", "--db", db)[0] == 0
    assert run("publish", "2026-02", "--db", db, "--out", tmp_path / "lists")[0] == 0
    february = tmp_path / "lists" / "2026-02" / "standard"
    rated = rows(february / "players.csv")
    # K 20 from the list: −0.50 × 20 = −10.00 → 1590; the new list's K is 40 (a junior).
    assert (rated["11"]["k"], rated["11"]["k_source"], rated["11"]["change"]) == (
        "20", "list", "-10.00",
    )  # fmt: skip
    assert (rows(february / "list.csv")["11"]["rating"], rows(february / "list.csv")["11"]["k"]
            ) == ("1590", "40")  # fmt: skip


def test_a_k_derived_from_the_right_birth_year_is_the_lists(tmp_path: Path) -> None:
    # No correction: the 2026-02 list's K 20 is taken as it is, its source the list.
    db = _database(tmp_path, k="")
    _february(tmp_path, db)
    assert run("edit-player", "11", "--federation", "ESP", "--db", db)[0] == 0
    assert run("publish", "2026-03", "--db", db, "--out", tmp_path / "lists")[0] == 0
    rated = rows(tmp_path / "lists" / "2026-03" / "standard" / "players.csv")
    assert (rated["11"]["k"], rated["11"]["k_source"], rated["11"]["change"]) == (
        "20", "list", "-10.00",
    )  # fmt: skip


def test_a_birth_year_a_file_fills_in_after_the_list_counts_as_a_correction(
    tmp_path: Path,
) -> None:
    # The list and January's file give no birth years: the 2026-02 list's K is 20 (adults
    # as far as anyone knows). February's file gives 11's, 2012: filled in (the database
    # lacked it), and K derived from it for 2026-03: 40, −0.50 × 40 = −20.00 → 1580.
    listing = write_list(
        tmp_path, ["id,name,rating", '11,"Alpha, Ann",1600', '12,"Beta, Bea",1600']
    )
    db = tmp_path / "r.sqlite"
    assert run("init", "--list", listing, "--period", "2026-01", "--db", db)[0] == 0
    unborn = [P(1, "Alpha, Ann", 1600, 11), P(2, "Beta, Bea", 1600, 12)]
    january = event_file(tmp_path, "jan", [(1, 1, 2, "=-=")], players=unborn, day="2026/01/10")
    assert run("add", january, "--db", db)[0] == 0
    assert run("publish", "2026-02", "--db", db, "--out", tmp_path / "lists")[0] == 0
    assert rows(tmp_path / "lists" / "2026-02" / "standard" / "list.csv")["11"]["k"] == "20"
    born = [P(1, "Alpha, Ann", 1600, 11, 2012), P(2, "Beta, Bea", 1600, 12)]
    february = event_file(tmp_path, "feb", [(1, 1, 2, "0-1")], players=born, day="2026/02/10")
    assert run("add", february, "--db", db)[0] == 0
    assert run("publish", "2026-03", "--db", db, "--out", tmp_path / "lists")[0] == 0
    rated = rows(tmp_path / "lists" / "2026-03" / "standard" / "players.csv")
    assert (rated["11"]["k"], rated["11"]["k_source"], rated["11"]["new_rating"]) == (
        "40", "junior", "1580",
    )  # fmt: skip
