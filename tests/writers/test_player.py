"""A player's report under another system (writers/player.py): text, workbook and page
show the same values under the system's own symbols (docs/systems.md), as tables. The rows
are the published examples of docs/systems.md §4 and §5, as players.csv and calculations.csv
hold them."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
from db_helpers import run
from html_text import read_page
from monthly.test_dwz_db import dwz_database, events
from openpyxl import load_workbook
from workbooks import header_row, table

from rating_batch.systems import state_system
from rating_batch.systems.explain import SystemListPart, SystemPlayerReport
from rating_batch.writers.player import player_text, write_player_html, write_player_workbook


def harkness_report() -> SystemPlayerReport:
    # §5: a 1600 player scores 2½/11 against opponents averaging 1850: percentage 22.73,
    # performance 1850 + 10 × (22.73 − 50) = 1577.27, the new rating 1577.
    player = {"id": "11", "name": "One", "federation": "ESP", "games": 11, "score": 2.5,
              "rating": 1600.0, "new_rating": 1577.0, "performance": 1577.2727272727273,
              "status": "rated"}  # fmt: skip
    rows = pd.DataFrame(
        {"id": ["11"], "name": ["One"], "event": ["open-2026"], "games": [11],
         "rating": [1600.0], "average": [1850.0], "percentage": [22.727272727272727],
         "performance": [1577.2727272727273], "new_rating": [1577.0]}
    )  # fmt: skip
    part = SystemListPart("standard", "2026-02", "2026-01", player, rows)
    system = state_system("harkness")
    assert system is not None
    return SystemPlayerReport("11", "One", "ESP", "1980", system, [part])


def trueskill_report() -> SystemPlayerReport:
    # §4: equal players (25, 25/3), player 1 wins: 29.396/7.171; shown μ − 3σ = 7.883.
    player = {"id": "11", "name": "One", "federation": "ESP", "games": 1, "score": 1.0,
              "mu": 25.0, "sigma": 8.333333, "new_mu": 29.396, "new_sigma": 7.171,
              "conservative": 7.883, "status": "rated"}  # fmt: skip
    rows = pd.DataFrame(
        {"id": ["11"], "name": ["One"], "event": ["duel"], "round": [1], "opponent_id": ["12"],
         "opponent_name": ["Two"], "score": [1.0], "mu_before": [25.0],
         "sigma_before": [8.333333], "mu_after": [29.396], "sigma_after": [7.171]}
    )  # fmt: skip
    part = SystemListPart("standard", "2026-02", "2026-01", player, rows)
    system = state_system("trueskill")
    assert system is not None
    return SystemPlayerReport("11", "One", "ESP", "1980", system, [part])


def test_a_per_event_system_shows_each_event_as_a_row(tmp_path: Path) -> None:
    report = harkness_report()
    text = player_text(report)
    assert text.splitlines()[4:7] == [
        "  period   status  games  points  rating  performance",
        "  2026-01                           1600",
        "  2026-02  rated      11      2½    1577      1577.27",
    ]
    assert "  rating 1600 → new rating 1577 · performance 1577.27" in text
    assert text.splitlines()[-3:] == [
        "  open-2026",
        "     n  rating  average      %  performance  new rating",
        "    11    1600  1850.00  22.73      1577.27        1577",
    ]
    write_player_html(report, tmp_path / "p.html")
    page = read_page((tmp_path / "p.html").read_text(encoding="utf-8"))
    assert ["n", "rating", "average", "%", "performance", "new rating"] in page.rows
    assert ["11", "1600", "1850.00", "22.73", "1577.27", "1577"] in page.rows
    write_player_workbook(report, tmp_path / "p.xlsx")
    book = load_workbook(tmp_path / "p.xlsx")
    player, event = table(book["Calculations"])
    assert (player["rating"], player["new rating"], player["performance"]) == (
        1600, 1577, pytest.approx(1577.2727, abs=1e-4),
    )  # fmt: skip
    assert (event["event"], event["n"], event["average"], event["%"]) == (
        "open-2026", 11, 1850, pytest.approx(22.7273, abs=1e-4),
    )  # fmt: skip
    sheet = book["Calculations"]
    head = header_row(sheet)
    formats = {sheet.cell(head, c).value: sheet.cell(head + 2, c).number_format
               for c in range(1, sheet.max_column + 1)}  # fmt: skip
    assert (formats["average"], formats["%"], formats["new rating"]) == ("0.00", "0.00", "0")


def test_a_per_game_system_shows_mu_and_sigma_around_each_game(tmp_path: Path) -> None:
    report = trueskill_report()
    text = player_text(report)
    assert "  μ 25.000 · σ 8.333 → μ′ 29.396 · σ′ 7.171 · rating 7.88" in text
    assert text.splitlines()[-2:] == [
        "    Rd  opponent  result  μ before  σ before  μ after  σ after",
        "     1  Two            1    25.000     8.333   29.396    7.171",
    ]
    write_player_html(report, tmp_path / "p.html")
    page = read_page((tmp_path / "p.html").read_text(encoding="utf-8"))
    assert ["μ", "σ", "μ′", "σ′", "rating"] in page.rows
    assert ["25.000", "8.333", "29.396", "7.171", "7.88"] in page.rows
    assert ["1", "Two", "1", "25.000", "8.333", "29.396", "7.171"] in page.rows
    write_player_workbook(report, tmp_path / "p.xlsx")
    book = load_workbook(tmp_path / "p.xlsx")
    assert book.sheetnames == ["Summary", "History", "Chart standard", "Calculations"]
    # The list's rating (μ − 3σ) after each list; none before the first (not published).
    assert [(row["period"], row["standard rating"]) for row in table(book["Chart standard"])] == [
        ("2026-02", 7.883)
    ]


def test_values_that_differ_between_events_stay_with_the_games() -> None:
    # A system's player_values are shown once per list when they are the same on all his
    # rows; the DWZ's differ between two events of one list (R0 1500, then 1519) and stay
    # on each event's rows, while one value the same in both (edition) is shown once.
    system = state_system("dwz")
    assert system is not None
    player = {"id": "11", "name": "One", "federation": "GER", "games": 2, "score": 1.5,
              "rating": 1500.0, "index": 10.0, "new_rating": 1519.0, "new_index": 12.0,
              "status": "rated"}  # fmt: skip
    rows = pd.DataFrame(
        {"id": ["11", "11"], "name": ["One", "One"], "event": ["A", "B"], "round": [1, 1],
         "opponent_id": ["12", "13"], "opponent_name": ["Two", "Three"], "score": [1.0, 0.5],
         "edition": ["dwz-2016", "dwz-2016"], "r0": [1500, 1519]}
    )  # fmt: skip
    part = SystemListPart("standard", "2026-02", "2026-01", player, rows)
    report = SystemPlayerReport("11", "One", "GER", "1980", system, [part])
    assert "edition" in report.before_values(part) and "r0" not in report.before_values(part)
    assert list(report.game_rows(part)["r0"]) == [1500, 1519]
    assert "edition" not in report.game_rows(part)


def test_a_dwz_players_report_names_the_id_words_flags_and_works_lines(tmp_path: Path) -> None:
    # A DWZ list keys players by the DSB's number, not a FIDE ID; "uplifted" is a flag, not 0.
    db = dwz_database(tmp_path, events(tmp_path))
    code, out, err = run("player", "14", "--db", db, "--out", tmp_path / "p")
    assert code == 0, out + err
    assert out.startswith("Four, D (ID 14, GER, born 2009)\n"), out
    assert "FIDE ID" not in out and "umgestuft 2026 – ·" in " ".join(out.split())
    page = read_page(next((tmp_path / "p").rglob("player-14.html")).read_text("utf-8"))
    assert page.headings[0] == "Four, D (ID 14, GER, born 2009)"
    # His worked lines under the event, as the rate page's Turnierauswertung prints them:
    # a junior (J 5), E0 = 1.6⁴ + 5 = 11.5536 → 12 (4 decimals, §10.9); We = P(−222) = 0.216259;
    # Rn = 1600 + 800 × (0 − 0.216259)/(12 + 1) = 1586.69 → 1587 (tests/monthly/test_dwz_db.py).
    lines = ["E0 = (1600/1000)^4 + 5 = 11,5536 → E = 12",
             "Rn = 1600 + 800 × (0 − 0,216) / (12 + 1) = 1587"]  # fmt: skip
    assert "\n".join(f"    {line}" for line in lines) in out
    assert all(line in page.paragraphs for line in lines)
    book = load_workbook(next((tmp_path / "p").rglob("player-14.xlsx")), read_only=True)
    summary = [[c for c in row if c is not None] for row in book["Summary"].values]
    assert ["B431-636-C4F", lines[0]] in summary and [lines[1]] in summary
    assert ["ID", "14"] in summary
