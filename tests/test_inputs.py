"""The files a command reads (rating_batch/inputs.py; docs/formats.md §12): ``--out`` is kept
apart from the inputs, a folder of events is read for its events only (the tool's own outputs
left aside with one note, a rating list refused), as real processes show it: exit status,
files written, the database's rows."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from db_helpers import database, dump, event_file, process, query, run, tree, write_list

#: The outputs ``rate`` writes into its folder that a folder of events could be read for.
RATE_OUTPUTS = "calculations.csv, games.csv, players.csv, report.xlsx"
LEFT_ASIDE = (
    f"feb: warning: 4 file(s) rating_batch wrote left aside, never read as events: {RATE_OUTPUTS}"
)


def february(folder: Path) -> Path:
    """``folder/feb``: two events of January 2026, 11 (A, 1600) beating 12 (B, 1500) in
    a.trf and drawing in b.trf."""
    feb = folder / "feb"
    feb.mkdir()
    event_file(feb, "a", [(1, 1, 2, "1-0")], day="2026/01/10")
    event_file(feb, "b", [(1, 1, 2, "=-=")], day="2026/01/17")
    return feb


def with_outputs(folder: Path) -> Path:
    """February with what ``rate feb --out feb`` wrote into it before --out was checked: the
    outputs of a rate of its events, copied in."""
    feb = february(folder)
    code, out, err = run("rate", feb, "--out", folder / "rated")
    assert code == 0, out + err
    shutil.copytree(folder / "rated", feb, dirs_exist_ok=True)
    assert sorted(p.name for p in feb.iterdir()) == [
        "a.trf", "b.trf", "calculations.csv", "events", "games.csv", "index.html",
        "players.csv", "report.xlsx",
    ]  # fmt: skip
    return feb


# -- --out apart from the inputs ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("command", "said"),
    [
        (("rate", "feb", "--out", "feb"), "--out feb is the input folder feb"),
        (("rate", "feb", "--out", "feb/out"), "--out feb/out is inside the input folder feb"),
        (("rate", "feb/a.trf", "--out", "feb"), "--out feb is the folder of the input feb/a.trf"),
        (
            ("compare-rules", "feb", "--rules", "fide", "--rules", "glicko2", "--out", "feb"),
            "--out feb is the input folder feb",
        ),
    ],
    ids=["rate-folder", "rate-inside", "rate-file", "compare-rules"],
)
def test_an_out_among_the_inputs_is_refused_before_anything_is_written(
    tmp_path: Path, command: tuple[str, ...], said: str
) -> None:
    feb = february(tmp_path)
    before = tree(tmp_path)
    code, out, err = process(*command, cwd=tmp_path)
    assert (code, out) == (1, "")
    assert err == (
        f"Error: {said}: the outputs would lie among the inputs; choose another folder "
        "(e.g. --out feb-out)\n"
    )
    assert tree(tmp_path) == before
    assert sorted(p.name for p in feb.iterdir()) == ["a.trf", "b.trf"]


def test_an_out_that_is_the_folder_of_the_list_is_refused(tmp_path: Path) -> None:
    february(tmp_path)
    (tmp_path / "lists").mkdir()
    write_list(tmp_path / "lists", ["id,rating", "11,1700", "12,1500"])
    before = tree(tmp_path)
    code, out, err = process(
        "rate", "feb", "--list", "lists/list.csv", "--out", "lists", cwd=tmp_path
    )
    assert (code, out) == (1, "")
    assert err == (
        "Error: --out lists is the folder of the input lists/list.csv: the outputs would lie "
        "among the inputs; choose another folder (e.g. --out lists-out)\n"
    )
    assert tree(tmp_path) == before


def test_an_out_beside_the_inputs_is_written(tmp_path: Path) -> None:
    february(tmp_path)
    code, out, err = process("rate", "feb", "--out", "feb-out", cwd=tmp_path)
    assert code == 0, out + err
    assert (tmp_path / "feb-out" / "players.csv").is_file()


# -- a folder holding the tool's own outputs ---------------------------------------------------


def test_check_leaves_the_outputs_in_a_folder_aside_with_one_note(tmp_path: Path) -> None:
    with_outputs(tmp_path)
    code, out, err = process("check", "feb", cwd=tmp_path)
    assert (code, out, err) == (0, LEFT_ASIDE + "\n", "0 error(s), 1 warning(s)\n")


def test_rate_of_a_folder_holding_outputs_rates_its_events_only(tmp_path: Path) -> None:
    feb = with_outputs(tmp_path)
    code, out, err = process("rate", feb, "--out", tmp_path / "again")
    assert code == 0, out + err
    assert err == f"{feb}{LEFT_ASIDE.removeprefix('feb')}\n"
    # The same two events, rated as before the outputs were there.
    for name in ("players.csv", "games.csv", "calculations.csv"):
        assert (tmp_path / "again" / name).read_bytes() == (tmp_path / "rated" / name).read_bytes()
    assert (feb / "players.csv").read_bytes() == (tmp_path / "rated" / "players.csv").read_bytes()


def test_add_of_a_folder_holding_outputs_stores_its_events_only(tmp_path: Path) -> None:
    feb = with_outputs(tmp_path)
    db = database(tmp_path)
    code, out, err = process("add", feb, "--db", db)
    assert code == 0, out + err
    assert f"{feb}: warning: 4 file(s) rating_batch wrote left aside" in err
    assert query(db, "SELECT key, source FROM events ORDER BY key") == [
        ("a", str(feb / "a.trf")),
        ("b", str(feb / "b.trf")),
    ]
    # One game in each, stored from both sides.
    assert query(db, "SELECT SUM(rows) FROM event_games") == [(4,)]


# -- a rating list in a folder of events --------------------------------------------------------

LIST_IN_FOLDER = (
    "feb/list.csv: this is a rating list (header id,rating) in a folder of events: move it out "
    "of the folder, and give it with --list, or to init --list"
)


def test_a_list_in_a_folder_of_events_is_refused_by_add_rate_and_check(tmp_path: Path) -> None:
    feb = february(tmp_path)
    write_list(feb, ["id,rating", "11,1700", "12,1500"])
    db = database(tmp_path)
    before = dump(db)
    code, out, err = process("add", "feb", "--db", db, cwd=tmp_path)
    assert (code, out, err) == (1, "", f"Error: {LIST_IN_FOLDER}\n")
    assert dump(db) == before
    code, out, err = process("rate", "feb", "--out", "out", cwd=tmp_path)
    assert (code, out, err) == (1, "", f"Error: {LIST_IN_FOLDER}\n")
    assert not (tmp_path / "out").exists()
    code, out, err = process("check", "feb", cwd=tmp_path)
    assert (code, out, err) == (1, LIST_IN_FOLDER + "\n", "1 error(s), 0 warning(s)\n")


def test_the_list_given_with_list_is_no_event_of_its_folder(tmp_path: Path) -> None:
    feb = february(tmp_path)
    write_list(feb, ["id,rating", "11,1700", "12,1500"])
    code, out, err = process(
        "rate", "feb", "--list", "feb/list.csv", "--rules", "fide-2025", "--out", "out",
        cwd=tmp_path,
    )  # fmt: skip
    assert code == 0, out + err
    assert "rated 2 event(s)" in out
    from conftest import read_csv

    ratings = {row["id"]: row["rating"] for row in read_csv(tmp_path / "out" / "players.csv")}
    assert ratings == {"11": "1700", "12": "1500"}  # the list's 1700, not the files' 1600


def test_hidden_files_in_a_folder_are_never_read(tmp_path: Path) -> None:
    # The "._a.trf" macOS leaves beside a.trf on a shared drive, and any ".name" file, are
    # not events: read, they would be refused and the whole add with them.
    feb = february(tmp_path)
    (feb / "._a.trf").write_bytes(b"\x00\x05\x16\x07\x00\x02\x00\x00Mac OS X")
    (feb / ".draft.trf").write_text("012 A draft without players\n", encoding="utf-8")
    db = database(tmp_path)
    code, out, err = run("add", feb, "--db", db)
    assert code == 0, out + err
    assert query(db, "SELECT key FROM events ORDER BY key") == [("a",), ("b",)]
