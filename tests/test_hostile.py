"""Hostile and absurd files: refused with a clear message, never obeyed, never a crash; and
formula-like text neutralised in every file we write."""

from __future__ import annotations

import re
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import read_csv
from db_helpers import database, dump, event_file, process, query, run
from openpyxl import load_workbook
from trf_text import P, trf
from workbooks import header_row, name, raw_workbook

from rating_batch.cli import cli
from rating_batch.errors import InputError
from rating_batch.loaders import read_event, read_rating_list
from rating_batch.loaders.common import MAX_EVENT_BYTES, MAX_LINE_CHARACTERS
from rating_batch.schema import as_written
from rating_batch.writers import neutralise

BILLION_LAUGHS = """<?xml version="1.0"?>
<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
<!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]>
<playerslist><player><fideid>1</fideid><name>&lol3;</name><rating>1500</rating></player></playerslist>
"""
EXTERNAL = """<?xml version="1.0"?>
<!DOCTYPE x [<!ENTITY secret SYSTEM "file:///etc/passwd">]>
<playerslist><player><fideid>1</fideid><name>&secret;</name><rating>1500</rating></player></playerslist>
"""


@pytest.mark.parametrize(
    "text", [BILLION_LAUGHS, EXTERNAL], ids=["entity-expansion", "external-entity"]
)
def test_xml_entities_are_refused(text: str, tmp_path: Path) -> None:
    path = tmp_path / "list.xml"
    path.write_text(text)
    with pytest.raises(InputError, match=rf"{path}: refused: "):
        read_rating_list(path)


def test_zip_bomb_xlsx_is_refused_unopened(tmp_path: Path) -> None:
    path = tmp_path / "bomb.xlsx"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("xl/worksheets/sheet1.xml", b"\0" * 50_000_000)
    assert path.stat().st_size < 200_000
    with pytest.raises(
        InputError, match=r"bomb.xlsx: xl/worksheets/sheet1.xml is compressed [\d,]+ times"
    ):
        read_event(path)
    with pytest.raises(InputError, match="is compressed"):
        read_rating_list(path)


def test_a_file_that_is_not_a_zip_is_not_an_xlsx(tmp_path: Path) -> None:
    path = tmp_path / "fake.xlsx"
    path.write_bytes(b"PK\x03\x04 not really a zip")
    with pytest.raises(
        InputError, match=r"fake.xlsx: not an XLSX file \(it is not a zip archive\)"
    ):
        read_event(path)


def test_absurd_lines_are_errors_not_arrays(tmp_path: Path) -> None:
    path = tmp_path / "long.trf"
    path.write_text("012 Event\n001    1      " + "A" * 1_000_000 + "\n")
    issues = [str(i) for i in read_event(path).issues]
    # "001    1      " is 14 characters, then a million As.
    assert issues[0] == f"{path}:2: line of 1,000,014 characters; at most {MAX_LINE_CHARACTERS:,}"
    csv_path = tmp_path / "long.csv"
    csv_path.write_text("no,name,1\n1,A," + "x" * 20_000 + "\n")
    with pytest.raises(InputError, match=r"long.csv:2: line of 20,004 characters"):
        read_event(csv_path)


def test_huge_files_are_refused_before_reading(tmp_path: Path) -> None:
    path = tmp_path / "huge.trf"
    with path.open("wb") as handle:  # sparse: no disk is used
        handle.truncate(MAX_EVENT_BYTES + 1)
    with pytest.raises(InputError, match=rf"huge.trf: the file is {MAX_EVENT_BYTES + 1:,} bytes"):
        read_event(path)


#: The address space of a command reading a hostile sheet: a reader that pads a sheet to its
#: declared dimension fails within it.
MEMORY = 1_500_000 * 1024


#: What a sheet too large to read is told to do (loaders.common.read_sheet).
BEYOND = (
    "delete what lies beyond the table (cells or their formatting), or copy the table to a new "
    "sheet"
)


@pytest.mark.slow  # four real processes under a memory cap, each reading 500,001 rows
def test_a_sheet_declaring_the_whole_grid_is_refused_by_row_in_every_command(
    tmp_path: Path,
) -> None:
    # 1.5 kB: a header and one number in the sheet's last cell, XFD1048576, under a declared
    # dimension of the whole grid (16,384 columns × 1,048,576 rows).
    raw_workbook(
        tmp_path / "dim_huge.xlsx",
        {"A1": "id", "B1": "rating", "XFD1048576": 1},
        "A1:XFD1048576",
    )
    db = database(tmp_path)
    before = dump(db)
    # As an event: rows 2 to 1,048,575 are empty, so the sheet is 2 columns wide until its
    # last row; 500,001 rows × 2 columns are the first count over 1,000,000 cells.
    event = (
        "dim_huge.xlsx[Sheet1]:500001: the sheet reaches row 500,001 and column B: 1,000,002 "
        f"cells; at most 1,000,000 are read: {BEYOND}"
    )
    # As a list: 1,048,576 × 24 = 25,165,824 cells are read at most; the last row is 16,384
    # columns wide (XFD), and 1,048,576 × 16,384 = 17,179,869,184.
    listing = (
        "dim_huge.xlsx[Sheet1]:1048576: the sheet reaches row 1,048,576 and column XFD: "
        f"17,179,869,184 cells; at most 25,165,824 are read: {BEYOND}"
    )
    commands = [
        (["check", "dim_huge.xlsx"], event + "\n", "1 error(s), 0 warning(s)\n"),
        (["rate", "dim_huge.xlsx", "--out", "out"], "", f"Error: {event}\n"),
        (["add", "dim_huge.xlsx", "--db", db], "", f"Error: {event}\n"),
        (["init", "--list", "dim_huge.xlsx", "--db", "x.sqlite"], "", f"Error: {listing}\n"),
    ]
    for args, out, err in commands:
        assert process(*args, cwd=tmp_path, memory=MEMORY) == (1, out, err), args
    assert not (tmp_path / "out").exists()
    assert dump(db) == before
    assert not (tmp_path / "x.sqlite").exists()


def test_check_reads_a_list_sheet_over_an_events_bound_as_a_list(tmp_path: Path) -> None:
    # A header reaching column NTP (10,000 columns) over 101 rows: 1,010,000 cells, over an
    # event sheet's 1,000,000 but within a list's 25,165,824, so check reads it as the list
    # init would read.
    players = {
        cell: value for n in range(2, 102) for cell, value in ((f"A{n}", n), (f"B{n}", 1500))
    }
    path = raw_workbook(
        tmp_path / "wide.xlsx", {"A1": "id", "B1": "rating", "NTP1": "note", **players}
    )
    result = CliRunner().invoke(cli, ["check", str(path)])
    assert (result.exit_code, result.stdout, result.stderr) == (0, "", "0 error(s), 0 warning(s)\n")


#: File names (stems) an officer may be sent, and the event keys they get: control and bidi
#: characters replaced by "_", NFC, no leading "-" (inputs.safe_key).
HOSTILE_STEMS = {
    "esc\x1b[31mRED\x1b]0;PWNED\x07": "esc_[31mRED_]0;PWNED_",
    "ev\nline": "ev_line",
    "rlo\u202egpj": "rlo_gpj",
    "-rf": "_rf",
    "caf\u00e9": "caf\u00e9",
    "cafe\u0301": "caf\u00e9-2",  # the same name in NFD: the same key, made distinct
}
#: What must never reach a terminal or a file name from a key.
UNSAFE = re.compile(r"[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]")


def test_event_keys_of_hostile_file_names_are_safe_everywhere(tmp_path: Path) -> None:
    db = database(tmp_path)
    files = [
        event_file(tmp_path, stem, [(1, 1, 2, "1-0")], title=f"Event {number}")
        for number, stem in enumerate(HOSTILE_STEMS, start=1)
    ]
    code, out, err = run("add", *files, "--allow-overlap", "--db", db)
    assert code == 0, err
    keys = list(HOSTILE_STEMS.values())
    assert not UNSAFE.search(out.replace("\n", ""))
    assert [line.split(" (")[0] for line in out.splitlines() if line.startswith("added ")] == [
        f"added {key}" for key in keys
    ]
    assert query(db, "SELECT key FROM events ORDER BY event_id") == [(key,) for key in keys]
    # A key never reads as an option of the command that takes it.
    code, out, err = run("remove", "_rf", "--db", db)
    assert (code, out.splitlines()[0]) == (
        0,
        f"removed _rf (Event 4, file {files[3]}, period 2026-02): 2 game rows, 2 player "
        "entries, 0 player(s) only it had created",
    )
    code, out, err = run("-v", "publish", "2026-02", "--db", db, "--out", tmp_path / "out")
    assert code == 0, err
    assert not UNSAFE.search(out.replace("\n", ""))
    published = [key for key in keys if key != "_rf"]
    folder = tmp_path / "out" / "2026-02" / "standard"
    assert sorted(page.name for page in (folder / "events").iterdir()) == sorted(
        f"{key}.html" for key in published
    )
    for output in ("games.csv", "calculations.csv"):
        assert {row["event"] for row in read_csv(folder / output)} == set(published), output


@pytest.mark.parametrize(
    ("text", "written"),
    [
        ("=1+1", "'=1+1"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("'t Hart, Jan", "'t Hart, Jan"),  # an apostrophe of the name's own, before a letter
        ("'=1", "''=1"),  # of its own before a formula sign: one more is written
        ("''+1", "'''+1"),
        ("Plain", "Plain"),
        ("'", "'"),
    ],
)
def test_a_neutralised_text_reads_back_as_it_was(text: str, written: str) -> None:
    assert neutralise(text) == written
    assert as_written(written) == text


HOSTILE = ['=HYPERLINK("http://x","y")', "+cmd|' /C calc'!A0", "@SUM(1+1)", "-2+3"]


def test_every_writer_neutralises_formulas(tmp_path: Path) -> None:
    runner = CliRunner()
    listing = tmp_path / "list.csv"
    listing.write_text("id,rating\n101,1850\n102,1720\n103,1600\n104,1500\n")
    db = tmp_path / "r.sqlite"
    assert (
        runner.invoke(
            cli, ["init", "--list", str(listing), "--period", "2026-01", "--db", str(db)]
        ).exit_code
        == 0
    )
    event = tmp_path / "=evil.trf"
    players = [P(i + 1, name, 1850 - 100 * i, 101 + i, 1980) for i, name in enumerate(HOSTILE)]
    event.write_text(trf(players, [(1, 1, 2, "1-0"), (1, 3, 4, "=-=")]), encoding="utf-8")
    assert runner.invoke(cli, ["add", str(event), "--db", str(db)]).exit_code == 0
    out = tmp_path / "out"
    assert (
        runner.invoke(cli, ["publish", "2026-02", "--db", str(db), "--out", str(out)]).exit_code
        == 0
    )
    folder = out / "2026-02" / "standard"
    quoted = ["'" + name for name in HOSTILE]
    assert sorted(r["name"] for r in read_csv(folder / "list.csv")) == sorted(quoted)
    assert sorted(r["name"] for r in read_csv(folder / "players.csv")) == sorted(quoted)
    assert {r["name"] for r in read_csv(folder / "calculations.csv")} == set(quoted)
    assert {r["event"] for r in read_csv(folder / "games.csv")} == {"'=evil"}
    for workbook, title in (
        ("list.xlsx", "List"),
        ("report.xlsx", "Players"),
        ("report.xlsx", "Calculations"),
    ):
        sheet = load_workbook(folder / workbook)[title]
        row = header_row(sheet)
        column = [name(c.value) for c in sheet[row]].index("name")
        cells = [cells[column] for cells in sheet.iter_rows(min_row=row + 1)]
        risky = [
            c
            for c in cells
            if isinstance(c.value, str) and c.value.startswith(("=", "+", "-", "@"))
        ]
        assert risky and all(c.data_type == "s" and c.quotePrefix for c in risky), (workbook, title)
    page = (folder / "events" / "=evil.html").read_text(encoding="utf-8")
    # Text only: quotes escaped, no link made of a name (the page links only to itself).
    assert "=HYPERLINK(&#34;http://x&#34;,&#34;y&#34;)" in page
    assert "http://x" not in re.findall(r'href="([^"]*)"', page)
    assert all(
        link.startswith(("#p-", "../index.html")) for link in re.findall(r'href="([^"]*)"', page)
    )
    compared = runner.invoke(
        cli,
        [
            "compare-rules",
            str(event),
            "--rules",
            "fide-2025",
            "--rules",
            "fide-2024",
            "--out",
            str(tmp_path / "cmp"),
        ],
    )
    assert compared.exit_code == 0
    assert sorted(r["name"] for r in read_csv(tmp_path / "cmp" / "compare.csv")) == sorted(quoted)
