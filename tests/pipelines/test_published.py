"""The files of a published period (pipelines/published.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from db_helpers import add_one_game, database, run, three_lists_database
from workbooks import header_row, name


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    return tmp_path


def test_calculations_sheet_groups_players_and_events(folder: Path) -> None:
    from openpyxl import load_workbook

    db = database(folder)
    add_one_game(folder, db)
    run("publish", "2026-02", "--db", db, "--out", folder / "out")
    sheet = load_workbook(folder / "out" / "2026-02" / "standard" / "report.xlsx")["Calculations"]
    top = header_row(sheet)
    assert sheet.cell(1, 1).value == "Individual calculations — standard list 2026-02"
    values = [[name(cell.value) for cell in sheet[top]]]
    values += [[cell.value for cell in row] for row in sheet.iter_rows(min_row=top + 1)]
    levels = [sheet.row_dimensions[i].outline_level for i in range(top + 1, top + len(values))]
    assert values[0][:4] == ["id", "name", "event", "round"]
    # Player 11: heading with totals (level 0), event subtotal (1), the game (2); then 12.
    assert levels == [0, 1, 2, 0, 1, 2]
    assert values[1][:2] == ["11", "A"] and values[2][2] == "e"
    assert sheet.cell(top + 1, 2).font.bold  # the player's heading row
    game = dict(zip(values[0], values[3], strict=True))
    # 1600 beats 1500: D 100 → 0.64; ΔR 0.36. The list gives no K and no game count, so
    # 30+ games are assumed (§3): K 20, K × ΔR 7.2.
    assert (game["diff"], game["expected"], game["delta"], game["k"], game["k_delta"]) == (
        100,
        0.64,
        0.36,
        20,
        7.2,
    )


def test_two_cores_write_and_store_what_one_core_does(
    folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Small periods are written by the command alone; from PARALLEL_ROWS games, children
    write and keep files, and work out the disagreements (publish) and who is who and the
    repeats (add); from PARALLEL_PAGES events, a child writes and keeps half the pages.
    Forced here for a small month: every file, every stored row, every kept file the same."""
    import shutil

    from db_helpers import ADULT, data_dump, event_file
    from trf_text import P

    import rating_batch.pipelines.outputs
    from rating_batch import parallel

    games = [(1, 1, 2, "1-0"), (2, 3, 1, "=-="), (3, 2, 3, "0-1")]
    people = [P(1, "A", 1600, 11, ADULT), P(2, "B", 1500, 12, ADULT), P(3, "C", None, 13, ADULT)]
    made = {}
    for label, rows, pages in (("one", 10**9, 10**9), ("two", 0, 2)):
        monkeypatch.setattr(parallel, "PARALLEL_ROWS", rows)
        monkeypatch.setattr(rating_batch.pipelines.outputs, "PARALLEL_PAGES", pages)
        place = folder / "month"  # the same paths both times (files name their source)
        shutil.rmtree(place, ignore_errors=True)
        place.mkdir()
        db = database(place, "11,1600", "12,1500", "13,1400")
        events = place / "events"
        events.mkdir()
        for number in range(3):  # a week apart: not the same games reported twice
            day = f"2026/01/{10 + 7 * number}"
            shutil.copy(event_file(place, f"e{number}", games, players=people, day=day), events)
        assert run("add", events, "--db", db)[0] == 0
        assert run("publish", "2026-02", "--db", db, "--out", place / "out")[0] == 0
        out = place / "out" / "2026-02"
        kept = place / "r.sqlite.files"
        made[label] = (
            {p.relative_to(out).as_posix(): p.read_bytes() for p in out.rglob("*") if p.is_file()},
            data_dump(db),
            sorted(p.relative_to(kept).as_posix() for p in kept.rglob("*") if p.is_file()),
        )
    assert made["two"][0] == made["one"][0]
    assert len([name for name in made["one"][0] if name.startswith("standard/events/")]) == 3
    assert made["two"][1] == made["one"][1]
    assert made["two"][2] == made["one"][2]


def test_rapid_and_blitz_files_name_the_edition_without_the_2650_exemption(
    folder: Path,
) -> None:
    # docs/rules.md §6: rapid and blitz have no 2650 exemption; fide-2025's title names it.
    from html_text import read_page
    from openpyxl import load_workbook

    three_lists_database(folder)
    edition = "fide-2025: FIDE Rating Regulations effective 1 October 2025"
    labels = {"standard": f"{edition} (2650 exemption)", "rapid": edition, "blitz": edition}
    for kind, label in labels.items():
        published = folder / "out" / "2026-02" / kind
        listing = load_workbook(published / "list.xlsx")["List"]
        assert listing.cell(2, 1).value == f"rules {label}", kind
        summary = load_workbook(published / "report.xlsx")["Summary"]
        assert [row[1] for row in summary.iter_rows(values_only=True) if row[0] == "Rules"] == [
            label
        ]
        page = read_page((published / "events" / f"{kind}.html").read_text(encoding="utf-8"))
        assert any(f"rules: {label} · " in p for p in page.paragraphs), kind
