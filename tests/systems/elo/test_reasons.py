"""Where Ro and K come from, said where a reader would not guess it (reasons.py): a rapid
rating borrowed from the standard list (docs/rules.md §6) and a K reduced by the 700 cap (§3),
in ``player`` (text, workbook, page), the event pages and the report's Calculations sheet."""

from __future__ import annotations

from pathlib import Path

import pytest
from db_helpers import ADULT, RAPID, event_file, run, write_list
from html_text import read_page
from trf_text import P
from workbooks import table

# A database whose initial list (2026-01) has A (11) with a standard rating only, 1600, and B
# (12) rated 1600 in rapid with K 40. One rapid event of 21 rounds between them: A wins round
# 1, the other 20 games are drawn. Worked by hand:
# * A has no rapid rating: Ro = his standard rating 1600, K 40 as a new player (§6);
# * both: K × n = 40 × 21 = 840 > 700 → K 33 (33 × 21 = 693 ≤ 700; 34 × 21 = 714) (§3);
# * D 0 → PD 0.50. A: ΣΔR = +0.5 (the win; the draws ±0); 33 × 0.5 = 16.5 → +17 → 1617.
#   B: −16.5 → −17 → 1583.
A_NOTE = "Ro = standard rating 1600 (no rapid rating), K 40 as a new player; " + (
    "K 40 → 33 (700 cap: 21 games)"
)
B_NOTE = "K 40 → 33 (700 cap: 21 games)"


@pytest.fixture(scope="module")
def published(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The folder holding the database ``r.sqlite`` and the published lists ``lists/``."""
    folder = tmp_path_factory.mktemp("reasons")
    listing = write_list(
        folder,
        ["id,name,federation,sex,birth_year,rating,k,rapid_rating,rapid_k",
         '11,"Alpha, A",ITA,M,1980,1600,20,,', '12,"Beta, B",ITA,M,1980,1700,20,1600,40'],
    )  # fmt: skip
    db = folder / "r.sqlite"
    assert run("init", "--list", listing, "--period", "2026-01", "--db", db)[0] == 0
    games = [(1, 1, 2, "1-0")] + [(r, 1 + r % 2, 2 - r % 2, "=-=") for r in range(2, 22)]
    players = [P(1, "Alpha, A", None, 11, ADULT), P(2, "Beta, B", 1600, 12, ADULT)]
    event = event_file(folder, "quick", games, players=players, title="Rapid Cup",
                       day="2026/01/17", end="2026/01/18", extra=(RAPID,))  # fmt: skip
    assert run("add", event, "--db", db)[0] == 0
    code, _, err = run("publish", "2026-02", "--db", db, "--out", folder / "lists")
    assert code == 0, err
    return folder


def test_player_says_ro_was_borrowed_and_k_capped(published: Path, tmp_path: Path) -> None:
    from openpyxl import load_workbook

    out = tmp_path / "players"
    code, text, err = run("player", "11", "--db", published / "r.sqlite", "--out", out)
    assert code == 0, err
    lines = text.splitlines()
    rapid = next(n for n, line in enumerate(lines) if line.startswith("rapid list 2026-02"))
    # The header names the edition on one line (no 2650 exemption in rapid: docs/rules.md §6).
    assert lines[rapid : rapid + 3] == [
        "rapid list 2026-02 (rules fide-2025: FIDE Rating Regulations effective 1 October 2025)",
        "  rated: Ro 1600, K 33",
        f"  {A_NOTE}",
    ]
    assert "  Rn = Ro 1600 + change +16.50 = 1616.50 → 1617" in lines
    page = read_page((out / "player-11.html").read_text(encoding="utf-8"))
    assert A_NOTE in page.paragraphs
    book = load_workbook(out / "player-11.xlsx")
    # The note on a row of its own, in the opponent column (wrapped when long).
    lines = [row["opponent"] for row in table(book["Calculations"]) if row["Rd"] is None]
    assert " ".join(line.strip() for line in lines if line).count(A_NOTE) == 1, lines


def test_the_event_page_says_it_for_each_player(published: Path) -> None:
    folder = published / "lists" / "2026-02" / "rapid"
    (page,) = (folder / "events").glob("*.html")
    paragraphs = read_page(page.read_text(encoding="utf-8")).paragraphs
    assert [p for p in paragraphs if p in (A_NOTE, B_NOTE)] == [A_NOTE, B_NOTE]


def test_the_reports_calculations_say_it_on_each_players_heading_row(published: Path) -> None:
    from openpyxl import load_workbook

    book = load_workbook(published / "lists" / "2026-02" / "rapid" / "report.xlsx")
    heads = {
        row["id"]: (row["k"], row["new_rating"], row["outcome"])
        for row in table(book["Calculations"])
        if row["calculation"] == "rating_change" and row["event"] is None
    }
    assert heads == {"11": (33, 1617, A_NOTE), "12": (33, 1583, B_NOTE)}
