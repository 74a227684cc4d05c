"""Our workbooks as a spreadsheet program sees them: LibreOffice opens report.xlsx, exports
every sheet to CSV, and the numbers must be ours; formula-like names must stay text.

Runs where LibreOffice (``soffice``) is installed; .ci/run installs it, so CI always runs it."""

from __future__ import annotations

import csv
import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import read_csv
from trf_text import P, trf
from workbooks import header_row, name

from rating_batch.rate import rate_events

SOFFICE = shutil.which("soffice")
NUMBERS = [
    "rating",
    "k",
    "games",
    "score",
    "expected",
    "change",
    "new_rating",
    "avg_opponent",
    "performance",
]


@pytest.mark.skipif(SOFFICE is None, reason="LibreOffice is not installed (.ci/run installs it)")
def test_libreoffice_reads_our_numbers_and_no_formulas(tmp_path: Path) -> None:
    players = [
        P(1, "=1+1", 1850, 101, 1990),
        P(2, "Bravo, Bob", 1720, 102, 1985),
        P(3, "@SUM(1;2)", 1600, 103, 2010),
        P(4, "Delta, Dee", None, 104, 1999),
    ]
    games = [
        (1, 1, 2, "1-0"),
        (1, 3, 4, "=-="),
        (2, 2, 3, "=-="),
        (2, 4, 1, "0-1"),
        (3, 1, 3, "=-="),
        (3, 4, 2, "1-0"),
    ]
    event = tmp_path / "event.trf"
    event.write_text(trf(players, games), encoding="utf-8")
    out = tmp_path / "out"
    rate_events([event], rules_name="fide-2025", out=out)
    export = tmp_path / "export"
    subprocess.run(
        [
            str(SOFFICE),
            f"-env:UserInstallation=file://{tmp_path / 'profile'}",
            "--headless",
            "--convert-to",
            "csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,false,false,false,-1",
            "--outdir",
            str(export),
            str(out / "report.xlsx"),
        ],
        check=True,
        capture_output=True,
        timeout=180,
    )
    from openpyxl import load_workbook

    # The export holds the sheet as shown: its heading lines, then the table.
    skip = header_row(load_workbook(out / "report.xlsx")["Players"]) - 1
    lines = (export / "report-Players.csv").read_text(encoding="utf-8").splitlines()[skip:]
    table = list(csv.reader(lines))
    names = [name(label) for label in table[0]]
    seen = {row["id"]: row for row in (dict(zip(names, r, strict=True)) for r in table[1:])}
    ours = {row["id"]: row for row in read_csv(out / "players.csv")}
    assert sorted(seen) == sorted(ours)
    for player, row in ours.items():
        for column in NUMBERS:
            mine, theirs = row[column], seen[player][column]
            assert (float(mine) if mine else None) == (float(theirs) if theirs else None), (
                player,
                column,
            )
    # The names a spreadsheet would evaluate come back as the text we wrote.
    assert seen["101"]["name"] == "=1+1" and seen["103"]["name"] == "@SUM(1;2)"
    assert ours["101"]["name"] == "'=1+1"  # CSV: quoted with an apostrophe


def test_whole_numbers_show_as_whole_numbers_and_fractions_to_their_decimals(
    tmp_path: Path,
) -> None:
    # A rating is a whole number in the Players sheet (no "0.00" format, though other systems'
    # fractional ratings share the column name); a score shows one decimal, a change two.
    from openpyxl import load_workbook

    people = [P(1, "One", 1800, 11, 1980), P(2, "Two", 1700, 12, 1980)]
    event = tmp_path / "e.trf"
    event.write_text(trf(people, [(1, 1, 2, "1-0")]), encoding="utf-8")
    rate_events([event], rules_name="fide-2025", out=tmp_path / "out")
    sheet = load_workbook(tmp_path / "out" / "report.xlsx")["Players"]
    top = header_row(sheet)
    columns = {name(cell.value): cell.column for cell in sheet[top]}
    first = top + 1
    assert sheet.cell(first, columns["rating"]).number_format == "General"
    assert sheet.cell(first, columns["new_rating"]).number_format == "General"
    assert sheet.cell(first, columns["score"]).number_format == "0.0"
    assert sheet.cell(first, columns["change"]).number_format == "0.00"
