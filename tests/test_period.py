"""One period assembled from events (period.py): who is who across the files of ``rate``."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import read_csv
from db_helpers import run
from openpyxl import load_workbook
from trf_text import P, trf
from workbooks import summary


@pytest.mark.parametrize("rules", ["fide-2025", "glicko2"])
def test_one_fide_id_as_two_people_in_two_files_is_a_warning(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, rules: str
) -> None:
    # FIDE ID 11 is Player, One (ITA, 1800) in x and Someone, Else (USA, 2400) in y: one
    # player, as the ID says, named as in y (the latest-starting event), and a warning on x's
    # line naming both files, on stderr and in the Summary sheet.
    one = P(1, "Player, One", 1800, 11, 1980, federation="ITA")
    other = P(1, "Someone, Else", 2400, 11, 1980, federation="USA")
    monkeypatch.chdir(tmp_path)  # short names: the Summary sheet wraps long lines
    x, y = Path("x.trf"), Path("y.trf")
    x.write_text(trf([one, P(2, "B", 1500, 12, 1980)], [(1, 1, 2, "1-0")], start="2026/01/05",
                     end="2026/01/05"))  # fmt: skip
    y.write_text(trf([other, P(2, "B", 1500, 12, 1980)], [(1, 2, 1, "1-0")], start="2026/01/12",
                     end="2026/01/12"))  # fmt: skip
    out = Path("out")
    code, stdout, err = run("rate", y, x, "--rules", rules, "--out", out)
    assert code == 0, err
    warning = (
        f"{x}:4: warning: FIDE ID 11 is 'Player, One' in this file but 'Someone, Else' in {y} "
        "(line 4; the latest-starting event's name is used): is the FIDE ID right?"
    )
    assert err == warning + "\n"
    assert "warnings: 1 (printed below and in the Summary sheet)" in stdout
    rows = [row[:2] for row in summary(load_workbook(out / "report.xlsx")["Summary"])]
    assert rows[rows.index(("Warnings", None)) + 1 :] == [(None, warning)]
    players = [row for row in read_csv(out / "players.csv") if row["id"] == "11"]
    assert [(row["name"], row["federation"]) for row in players] == [("Someone, Else", "USA")]


def test_one_name_spelt_two_ways_is_no_warning(tmp_path: Path) -> None:
    # Accents, case and word order aside, Blübaum is Bluebaum (names.name_key).
    x, y = tmp_path / "x.trf", tmp_path / "y.trf"
    x.write_text(trf([P(1, "Blübaum, Matthias", 1800, 11, 1996), P(2, "B", 1500, 12, 1980)],
                     [(1, 1, 2, "1-0")], start="2026/01/05", end="2026/01/05"))  # fmt: skip
    y.write_text(trf([P(1, "MATTHIAS BLUEBAUM", 1800, 11, 1996), P(2, "B", 1500, 12, 1980)],
                     [(1, 2, 1, "1-0")], start="2026/01/12", end="2026/01/12"))  # fmt: skip
    code, _, err = run("rate", x, y, "--out", tmp_path / "out")
    assert (code, err) == (0, "")
