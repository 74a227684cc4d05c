"""The files a command reads (rating_batch/inputs.py; docs/formats.md §12): ``--out`` is kept
apart from the inputs, as real processes show it: exit status, files written."""

from __future__ import annotations

from pathlib import Path

import pytest
from db_helpers import event_file, process, tree, write_list


def february(folder: Path) -> Path:
    """``folder/feb``: two events of January 2026, 11 (A, 1600) beating 12 (B, 1500) in
    a.trf and drawing in b.trf."""
    feb = folder / "feb"
    feb.mkdir()
    event_file(feb, "a", [(1, 1, 2, "1-0")], day="2026/01/10")
    event_file(feb, "b", [(1, 1, 2, "=-=")], day="2026/01/17")
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
