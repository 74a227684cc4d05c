"""Our outputs printed, as an officer prints them: the workbooks through LibreOffice and the
HTML pages through Chromium, to PDF, read back page by page with pdftotext; and the pages
laid out on a phone's screen. Every printed page of a table repeats its header row and says
which page of how many it is; the pages are few enough and the type large enough to read; a
137-player crosstable fits on 6 A4 pages with every name on one line.

Runs where ``soffice``, ``chromium`` and ``pdftotext`` are installed; .ci/run installs them."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner
from html_text import read_page

from rating_batch.cli import cli

#: Left out of ``make test-fast`` (prints through LibreOffice and Chromium).
pytestmark = pytest.mark.slow

ROOT = Path(__file__).parent.parent
SAMPLE_EVENT = ROOT / "sample_data" / "events" / "esp_torneo-san-viator-2018-B_swiss-137p.trf"
SOFFICE = shutil.which("soffice")
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
PDFTOTEXT = shutil.which("pdftotext")
TITLE = "XXX Torneo San Viator - Memorial Pepe Domaica (B) (fide-2014)"

needs_office = pytest.mark.skipif(
    SOFFICE is None or PDFTOTEXT is None,
    reason="LibreOffice and poppler-utils are not installed (.ci/run installs them)",
)
needs_chromium = pytest.mark.skipif(
    CHROMIUM is None or PDFTOTEXT is None,
    reason="Chromium and poppler-utils are not installed (.ci/run installs them)",
)


def pages_of(pdf: Path) -> list[list[str]]:
    """The PDF's pages, each as its non-blank lines (layout kept)."""
    text = subprocess.run(
        [str(PDFTOTEXT), "-layout", str(pdf), "-"], capture_output=True, text=True, check=True
    ).stdout
    pages = [[line for line in page.splitlines() if line.strip()] for page in text.split("\f")]
    return [page for page in pages if page]


def office_pdf(workbook: Path, folder: Path) -> Path:
    subprocess.run(
        [
            str(SOFFICE), f"-env:UserInstallation=file://{folder / 'profile'}", "--headless",
            "--convert-to", "pdf", "--outdir", str(folder), str(workbook),
        ],
        check=True, capture_output=True, timeout=300,
    )  # fmt: skip
    return folder / (workbook.stem + ".pdf")


@pytest.fixture(scope="module")
def rated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("rated")
    result = CliRunner().invoke(cli, ["-q", "rate", str(SAMPLE_EVENT), "--out", str(out)])
    assert result.exit_code == 0, result.output
    return out


def sheet_pages(pages: list[list[str]], heading: str) -> list[list[str]]:
    """The printed pages of one sheet: those whose page header is the sheet's heading."""
    return [page for page in pages if page[0].strip() == heading]


@needs_office
def test_printed_workbook_pages_repeat_the_header_and_are_numbered(
    rated: Path, tmp_path: Path
) -> None:
    pages = pages_of(office_pdf(rated / "report.xlsx", tmp_path))
    total = len(pages)
    # Every page: "Page k of N" at the bottom, in order.
    assert [page[-1].strip() for page in pages] == [
        f"Page {n} of {total}" for n in range(1, total + 1)
    ]
    players = sheet_pages(pages, f"Players — {TITLE}")
    # 137 players, 24 columns: two pages wide, a few pages tall; not dozens of pages.
    assert 2 <= len(players) <= 10
    for page in players:
        # Under the page header, the table's header row (its headings wrap over two lines:
        # "rating" over "(Ro)"), never a player's row; on every page, the left half of the
        # columns or the right half, the id and the name first (repeated on each page).
        assert page[2].split()[:2] == ["id", "name"], page[1:3]
    # A player's change and new rating are printed beside the name, on the same page.
    with_change = [page for page in players if "change" in page[1].split()]
    assert with_change and all(
        "Sarabia Utrilla, Joaquin" in " ".join(page) for page in with_change[:1]
    )
    games = sheet_pages(pages, f"Games — {TITLE}")
    assert all(page[2].split()[:3] == ["event", "round", "id"] for page in games)


@pytest.fixture(scope="module")
def monthly(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The monthly sample published for 2026-02 and 2026-03 (``make run``'s steps), and
    ``player 900000285 --out``: the folder holding the lists and the player's files."""
    folder = tmp_path_factory.mktemp("monthly")
    db, out = folder / "r.sqlite", folder / "lists"
    data = ROOT / "sample_data" / "monthly"
    for step in (
        ["init", "--list", str(data / "list-2026-01.csv"), "--period", "2026-01"],
        ["add", str(data / "2026-01")],
        ["publish", "2026-02", "--out", str(out)],
        ["add", str(data / "2026-02")],
        ["publish", "2026-03", "--out", str(out)],
        ["player", "900000285", "--out", str(out)],
    ):
        result = CliRunner().invoke(cli, ["-q", *step, "--db", str(db)])
        assert result.exit_code == 0, result.output
    return out


@needs_office
def test_a_printed_list_has_its_title_rank_and_header_on_every_page(
    monthly: Path, tmp_path: Path
) -> None:
    # The monthly sample's February list: 279 players, one page wide.
    pages = pages_of(office_pdf(monthly / "2026-02" / "standard" / "list.xlsx", tmp_path))
    listed = sheet_pages(pages, "Rating list: standard, 2026-02")
    assert 3 <= len(listed) <= 8
    assert listed[0][1].strip() == "Rating list: standard, 2026-02"
    for page in listed[1:]:
        assert page[1].split()[:3] == ["rank", "id", "name"], page[1]
    first_row = listed[0][4].split()
    assert first_row[0] == "1"  # the rank column, best first


@needs_chromium
def test_a_137_player_crosstable_prints_on_six_pages_names_on_one_line(
    rated: Path, tmp_path: Path
) -> None:
    page = rated / "events" / f"{SAMPLE_EVENT.stem}.html"
    pdf = tmp_path / "event.pdf"
    subprocess.run(
        [
            str(CHROMIUM), "--headless", "--no-sandbox", "--disable-gpu",
            f"--user-data-dir={tmp_path / 'chromium'}", "--no-pdf-header-footer",
            f"--print-to-pdf={pdf}", page.as_uri(),
        ],
        check=True, capture_output=True, timeout=300,
    )  # fmt: skip
    pages = pages_of(pdf)
    calculations = next(
        number for number, lines in enumerate(pages) if "Calculations" in map(str.strip, lines)
    )
    assert calculations <= 6  # the crosstable's pages come before the calculations'
    printed = "\n".join(line for p in pages[:calculations] for line in p)
    names = [row[2] for row in read_page(page.read_text(encoding="utf-8")).rows[1:138]]
    assert len(names) == 137
    missing = [name for name in names if not re.search(re.escape(name), printed)]
    assert not missing, f"names broken over lines: {missing[:5]}"


#: Lays a page out in a frame 390 px wide (a phone; a headless window is at least 500 px
#: wide), scrolls each table to its right end and reports where the name column and the
#: last column are, the page's own width and the crosstable headings shown.
PHONE = """<!DOCTYPE html><html><body style="margin:0">
<iframe id="f" style="width:390px;height:844px;border:0" srcdoc="{page}"></iframe>
<script>
const frame = document.getElementById("f");
frame.addEventListener("load", () => {{
  const doc = frame.contentDocument;
  const tables = [...doc.querySelectorAll("table.crosstable, table.games")].map(t => {{
    t.scrollLeft = t.scrollWidth;
    const name = t.querySelector("td.name").getBoundingClientRect();
    const last = t.querySelector("tbody tr td:last-child").getBoundingClientRect();
    return [name.left, name.right, last.right];
  }});
  const shown = [...doc.querySelectorAll("table.crosstable th")]
    .filter(th => th.offsetWidth > 0).map(th => th.textContent);
  document.body.dataset.layout = JSON.stringify(
    {{page: doc.documentElement.scrollWidth, tables: tables, shown: shown}});
}});
</script></body></html>"""


def phone_layout(page: Path, folder: Path) -> dict:
    import html
    import json

    wrapper = folder / "phone.html"
    text = html.escape(page.read_text(encoding="utf-8"), quote=True)
    wrapper.write_text(PHONE.format(page=text), encoding="utf-8")
    dom = subprocess.run(
        [
            str(CHROMIUM), "--headless", "--no-sandbox", "--disable-gpu",
            f"--user-data-dir={folder / 'chromium'}", "--window-size=800,900",
            "--virtual-time-budget=5000", "--dump-dom", wrapper.as_uri(),
        ],
        check=True, capture_output=True, text=True, timeout=300,
    ).stdout  # fmt: skip
    found = re.search(r'data-layout="([^"]*)"', dom)
    assert found, "the page was not laid out"
    return json.loads(html.unescape(found.group(1)))


@needs_chromium
def test_on_a_phone_every_table_scrolls_under_its_name_column(rated: Path, tmp_path: Path) -> None:
    """At 390 px the page itself is no wider than the screen; each table scrolls on its own
    to its last column with the names still in view; a column no player fills (no titles
    in the sample) is left out, and so is the FIDE ID (each player's heading gives it)."""
    page = rated / "events" / f"{SAMPLE_EVENT.stem}.html"
    layout = phone_layout(page, tmp_path)
    assert layout["page"] <= 390
    # The crosstable, and the games of each player whose rating changed.
    assert len(layout["tables"]) == 1 + page.read_text("utf-8").count('<table class="games">')
    for left, right, last in layout["tables"]:
        assert 0 <= left < right <= 390 and last <= 390
    assert layout["shown"] == [
        "Rk", "No.", "Name", "Fed", "Rtg", *map(str, range(1, 8)), "Pts", "n", "Chg", "New", "Rp",
    ]  # fmt: skip


@needs_office
def test_a_printed_first_rating_formula_is_whole(tmp_path: Path) -> None:
    """A derivation printed is checkable: its formula wraps within its cell, never cut
    mid-number by the next cell. Newbie's first rating (fide-2025): Ra = (10050 + 2 × 1800)
    / 8 = 1706.25; p = 4.5 / 8 = 0.5625 → 0.56, dp +43; Ru = 1749.25 → 1749."""
    from db_helpers import newcomer_database

    _, folder = newcomer_database(tmp_path)
    pdf = office_pdf(folder / "report.xlsx", tmp_path)
    raw = subprocess.run(
        [str(PDFTOTEXT), str(pdf), "-"], capture_output=True, text=True, check=True
    ).stdout  # a cell's lines together, in reading order
    assert (
        "Ra = (10050 + 2 × 1800) / 8 = 1706.25; p = 4.5 / 8 = 0.56, dp +43; Ru = Ra + dp = "
        "1749.25 → 1749" in " ".join(raw.split())
    )


@needs_office
def test_a_printed_players_workbook_has_each_game_on_one_line(
    monthly: Path, tmp_path: Path
) -> None:
    """Orfe, Nomi played 29 games over two lists: each printed on one line, the opponent
    beside the game's PD, ΔR, K and K·ΔR (calculations.csv's numbers), not on another
    sheet of paper; the calculations one page wide."""
    from conftest import read_csv

    pdf = office_pdf(monthly / "player-900000285.xlsx", tmp_path)
    calculations = [page for page in pages_of(pdf) if "individual calculations" in page[0]]
    lines = [" ".join(line.split()) for page in calculations for line in page]
    games = [
        row
        for period in ("2026-02", "2026-03")
        for row in read_csv(monthly / period / "standard" / "calculations.csv")
        if row["id"] == "900000285"
    ]
    assert len(games) == 29
    for game in games:
        shown = (
            f"{game['opponent_name']} {game['expected']} {game['delta']} {game['k']} "
            f"{game['k_delta']}"
        )
        pattern = (
            re.escape(game["opponent_name"])
            + r" .*"
            + " ".join(
                re.escape(value)
                for value in (game["expected"], game["delta"], game["k"], game["k_delta"])
            )
        )
        assert any(re.search(pattern, line) for line in lines), shown
    # Every page of the sheet starts with its header (over two lines: "Ra" over "(rated)").
    header = "kind period event Rd opponent"
    assert all(
        any(" ".join(line.split()[:5]) == header for line in page[1:4]) for page in calculations
    )


@needs_chromium
def test_a_printed_turnierauswertung_starts_under_its_title(tmp_path: Path) -> None:
    """The DSB's table of a 137-player event is longer than a page: printed, it starts on the
    first page under its heading, not on the second after an empty one."""
    out = tmp_path / "dwz"
    result = CliRunner().invoke(
        cli, ["rate", str(SAMPLE_EVENT), "--rules", "dwz", "--out", str(out)]
    )
    assert result.exit_code == 0, result.output
    pdf = tmp_path / "dwz.pdf"
    subprocess.run(
        [
            str(CHROMIUM), "--headless", "--no-sandbox", "--disable-gpu",
            f"--user-data-dir={tmp_path / 'chromium'}", "--no-pdf-header-footer",
            f"--print-to-pdf={pdf}", (out / "index.html").as_uri(),
        ],
        check=True, capture_output=True, timeout=300,
    )  # fmt: skip
    first = [line.strip() for line in pages_of(pdf)[0]]
    assert any(line.startswith("Turnierauswertung") for line in first)
    assert any(line.startswith("1 ") or line == "1" for line in first), first[:12]
