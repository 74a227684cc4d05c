"""Crosstables (docs/formats.md §8): chess-results exports, our CSV template, round robins.

One tournament given as TRF, CSV and XLSX must give identical frames; every corpus crosstable
must load and rate; a crosstable and its independently made TRF twin must agree."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pandas as pd
import pytest
from conftest import DATA
from openpyxl import Workbook, load_workbook
from trf_text import P, trf

from rating_batch.loaders import read_event
from rating_batch.loaders.tabular import RawTable, _berger_round, _swiss_cell, parse_crosstable
from rating_batch.rate import rate_events

CROSSTABLES = sorted((DATA / "crosstables").glob("*.xlsx"))
TWIN = (
    DATA / "crosstables-as-trf" / "keshmat-circuit_2025-05-31_rapid_chess-results-final-ranking.trf"
)
COMPARED_PLAYERS = [
    "player",
    "fide_id",
    "name",
    "federation",
    "sex",
    "title",
    "birth_year",
    "rating",
]
COMPARED_GAMES = ["round", "player", "opponent", "colour", "result", "score", "rated", "reason"]

# One small Swiss: a win, a draw, a forfeit, a pairing-allocated bye, a half-point bye.
PLAYERS = [
    P(1, "Alpha, Ann", 1850, 2201001, 1990, "w", "WFM", "IRL"),
    P(2, "Bravo, Bob", 1720, 2201002, 1985, "m", "", "IRL"),
    P(3, "Charlie, Cy", None, None, 2010, "m", "", "ENG"),
]
GAMES = [
    (1, 1, 2, "1-0"),
    (1, 3, None, "U"),
    (2, 2, 3, "=-="),
    (2, 1, None, "H"),
    (3, 3, 1, "+--"),
    (3, 2, None, "U"),
]
CSV_TEXT = """event,Tiny Swiss
start,2026-01-10
end,2026-01-12

no,name,fide_id,rating,federation,birth_year,sex,title,1,2,3
1,"Alpha, Ann",2201001,1850,IRL,1990,F,WFM,2w1,-½,3b-
2,"Bravo, Bob",2201002,1720,IRL,1985,M,,1b0,3w½,-1
3,"Charlie, Cy",,,ENG,2010,M,,-1,2b½,1w+
"""


def event_as(form: str, folder: Path) -> Path:
    if form == "trf":
        path = folder / "tiny.trf"
        path.write_text(trf(PLAYERS, GAMES, name="Tiny Swiss"), encoding="utf-8")
    elif form == "csv":
        path = folder / "tiny.csv"
        path.write_text(CSV_TEXT, encoding="utf-8")
    else:
        import csv

        book = Workbook()
        sheet = book.active
        for row in csv.reader(io.StringIO(CSV_TEXT)):
            sheet.append([int(c) if c.isdigit() else c for c in row])
        path = folder / "tiny.xlsx"
        book.save(path)
    return path


@pytest.fixture(params=["trf", "csv", "xlsx"])
def tiny(request: pytest.FixtureRequest, tmp_path: Path) -> Path:
    return event_as(request.param, tmp_path)


def test_every_format_gives_the_same_frames(tiny: Path, tmp_path: Path) -> None:
    folder = tmp_path / "reference"
    folder.mkdir()
    reference = read_event(event_as("trf", folder))
    event = read_event(tiny)
    assert event.issues == [] or all(i.severity == "warning" for i in event.issues)
    assert (event.info.name, str(event.info.start), str(event.info.end)) == (
        "Tiny Swiss",
        "2026-01-10",
        "2026-01-12",
    )
    pd.testing.assert_frame_equal(
        event.players[COMPARED_PLAYERS].reset_index(drop=True),
        reference.players[COMPARED_PLAYERS].reset_index(drop=True),
    )
    result = event.games[COMPARED_GAMES].sort_values(["player", "round"]).reset_index(drop=True)
    expected = (
        reference.games[COMPARED_GAMES].sort_values(["player", "round"]).reset_index(drop=True)
    )
    pd.testing.assert_frame_equal(result, expected)


def test_every_format_gives_the_same_ratings(tiny: Path) -> None:
    result = rate_events([tiny], rules_name="fide-2025").players
    # Alpha 1850 beats Bravo 1720: D 130 → 130-137 → 0.68, +0.32 × 20 = +6.4 → 1856.
    alpha = result[result["name"] == "Alpha, Ann"].iloc[0]
    assert (alpha["games"], alpha["change"], alpha["new_rating"]) == (1, 6.4, 1856)


def sheet_rows(path: Path) -> int:
    """Player rows of a chess-results sheet, counted without rating_batch: the non-empty
    Name cells between the header row and the first row without a name."""
    rows = list(load_workbook(path, read_only=True).worksheets[0].iter_rows(values_only=True))
    top = next(i for i, r in enumerate(rows) if r[2] == "Name")
    count = 0
    for r in rows[top + 1 :]:
        if not r[2]:
            break
        count += 1
    return count


@pytest.mark.parametrize("path", CROSSTABLES, ids=[p.stem[16:26] for p in CROSSTABLES])
def test_every_corpus_crosstable_loads_and_rates(path: Path) -> None:
    event = read_event(path)
    assert [i for i in event.issues if i.severity == "error"] == []
    assert len(event.players) == sheet_rows(path)
    assert event.info.rounds == 7 and event.info.kind == "rapid"  # "Time control (Rapid)"
    assert event.info.format == "chess-results final ranking"
    date = re.search(r"(\d{4}-\d\d-\d\d)", path.name).group(1)  # type: ignore[union-attr]  # every corpus name holds a date
    assert str(event.info.start) == date == str(event.info.end)
    rated = rate_events([path], rules_name="fide")
    assert rated.rules.kind == "rapid" and len(rated.players) == len(event.players)


def test_crosstable_and_its_trf_twin_agree() -> None:
    sheet = DATA / "crosstables" / TWIN.with_suffix(".xlsx").name
    from_sheet, from_trf = read_event(sheet), read_event(TWIN)
    players = COMPARED_PLAYERS
    pd.testing.assert_frame_equal(
        from_sheet.players[players].reset_index(drop=True),
        from_trf.players[players].reset_index(drop=True),
    )
    games = ["round", "player", "opponent", "colour", "result", "score", "rated"]
    left = from_sheet.games[games].sort_values(["player", "round"]).reset_index(drop=True)
    right = from_trf.games[games].sort_values(["player", "round"]).reset_index(drop=True)
    pd.testing.assert_frame_equal(left, right)
    a = rate_events([sheet], rules_name="fide").players.drop(columns=["id"])
    b = rate_events([TWIN], rules_name="fide").players.drop(columns=["id"])
    pd.testing.assert_frame_equal(a.reset_index(drop=True), b.reset_index(drop=True))


@pytest.mark.parametrize(
    ("cell", "parsed"),
    [
        (" 41b1", (41, "b", "1", "")),
        ("12w½", (12, "w", "=", "")),
        ("7b0", (7, "b", "0", "")),
        ("12w+", (12, "w", "+", "forfeit")),
        ("19b-", (19, "b", "-", "forfeit")),
        ("3s1", (3, "b", "1", "")),  # German: s = schwarz
        ("5w0,5", (5, "w", "=", "")),
        ("13b", (13, "b", "", "unplayed")),  # paired, no result yet
        ("-1", (None, None, "U", "bye")),
        ("bye", (None, None, "U", "bye")),
        ("-½", (None, None, "H", "bye")),
        ("0", (None, None, "Z", "bye")),
        ("", (None, None, "Z", "bye")),
        ("12x", None),
    ],
)
def test_swiss_cells(cell: str, parsed: tuple[object, ...] | None) -> None:
    assert _swiss_cell(cell) == parsed


def test_berger_rounds_pair_everyone_once_per_round() -> None:
    for count in (4, 5, 6, 10):
        n = count + count % 2
        for rnd in range(1, n):
            met = [
                (a, b)
                for a in range(1, n + 1)
                for b in range(a + 1, n + 1)
                if _berger_round(a, b, count) == rnd
            ]
            assert sorted(p for pair in met for p in pair) == list(range(1, n + 1))


def test_round_robin_table(tmp_path: Path) -> None:
    # A 4-player round robin as chess-results prints it: columns are opponents, '*' the diagonal.
    raw = RawTable(
        rows=[
            ["Round robin 2026", "", "", "", "", "", "", "", ""],
            ["Date : 2026/02/01", "", "", "", "", "", "", "", ""],
            ["No.", "", "Name", "Rtg", "FED", "1", "2", "3", "4", "Pts. "],
            ["1", "", "One", "1800", "IRL", "*", "1", "½", "1", "2.5"],
            ["2", "", "Two", "1700", "IRL", "0", "*", "1", "+", "2"],
            ["3", "", "Three", "1600", "IRL", "½", "0", "*", "1", "1.5"],
            ["4", "", "Four", "1500", "IRL", "0", "-", "0", "*", "0"],
        ],
        numbers=list(range(1, 8)),
        source="rr.xlsx[Sheet1]",
    )
    event = parse_crosstable(raw, key="rr")
    assert event.issues == []
    assert event.info.format == "round robin" and event.info.rounds == 3
    games = event.games
    assert len(games) == 12  # 4 players × 3 opponents, the diagonal left out
    one_two = games[(games["player"] == 1) & (games["opponent"] == 2)].iloc[0]
    two_one = games[(games["player"] == 2) & (games["opponent"] == 1)].iloc[0]
    assert one_two["round"] == two_one["round"] == _berger_round(1, 2, 4)
    forfeit = games[(games["player"] == 2) & (games["opponent"] == 4)].iloc[0]
    assert (forfeit["result"], forfeit["rated"], forfeit["reason"]) == ("+", False, "forfeit")


def test_errors_name_sheet_row_and_column(tmp_path: Path) -> None:
    path = tmp_path / "bad.csv"
    path.write_text(
        CSV_TEXT.replace('1,"Alpha, Ann",2201001,1850', '1,"Alpha, Ann",2201001,18x0').replace(
            "2w1", "2q1"
        )
    )
    messages = [str(i) for i in read_event(path).issues]
    assert f"{path}:6: rating '18x0' is not a number" in messages
    assert f"{path}:6: round 1 (column I): unreadable cell '2q1'" in messages


def test_a_sheet_without_a_header_says_so(tmp_path: Path) -> None:
    path = tmp_path / "notes.csv"
    path.write_text("just,some\nnotes,here\n")
    assert [str(i) for i in read_event(path).issues] == [
        f"{path}: no header row with a 'Name' column and a number or round columns"
    ]


def test_decimal_commas_and_halves_in_points() -> None:
    raw = RawTable(
        rows=[
            ["No.", "Name", "Rtg", "1.Rd", "Pts."],
            ["1", "A", "1500", "2w½", "0,5"],
            ["2", "B", "1500", "1b½", "½"],
        ],
        numbers=[1, 2, 3],
        source="x.csv",
    )
    assert parse_crosstable(raw, key="x").players["points"].tolist() == [0.5, 0.5]


def test_a_title_that_is_no_fide_title_is_left_out_with_its_row_and_column(
    tmp_path: Path,
) -> None:
    path = tmp_path / "titles.csv"
    path.write_text(CSV_TEXT.replace("IRL,1990,F,WFM", "IRL,1990,F,=1+"), encoding="utf-8")
    event = read_event(path)
    assert event.players["title"].tolist() == [pd.NA, pd.NA, pd.NA]
    letters = "GM, IM, FM, CM, WGM, WIM, WFM, WCM, or the letters g, m, f, c, wg, wm, wf, wc"
    assert [str(issue) for issue in event.issues] == [
        f"{path}:6: warning: title '=1+' is not a FIDE title ({letters}): left out (column H)"
    ]


def test_a_birth_year_of_0_or_0000_is_unknown_not_an_error(tmp_path: Path) -> None:
    """docs/formats.md §4.1: 0 and 0000 are how federations' data write an unknown year."""
    from conftest import read_csv
    from db_helpers import run

    path = tmp_path / "zeros.csv"
    text = CSV_TEXT.replace("IRL,1990,F", "IRL,0,F").replace("IRL,1985,M", "IRL,0000,M")
    path.write_text(text, encoding="utf-8")
    event = read_event(path)
    assert (event.issues, event.players["birth_year"].tolist()) == ([], [pd.NA, pd.NA, 2010])
    code, _, err = run("rate", path, "--rules", "fide-2025", "--out", tmp_path / "out")
    assert code == 0, err
    years = {row["name"]: row["birth_year"] for row in read_csv(tmp_path / "out/players.csv")}
    assert years == {"Alpha, Ann": "", "Bravo, Bob": "", "Charlie, Cy": "2010"}
