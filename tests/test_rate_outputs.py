"""``rate``'s lighter defaults at month size (issue 42): event pages on request above
``PAGES_BY_DEFAULT`` events or ``PAGE_GAMES`` player-games (the per-event use keeps its
page), and report.xlsx without its per-game sheets above ``DETAIL_SHEET_GAMES``."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import DATA, read_csv
from html_text import read_page
from openpyxl import load_workbook
from workbooks import summary, table

from rating_batch.cli import cli
from rating_batch.pipelines import outputs
from rating_batch.pipelines.outputs import pages_by_default

SAMPLE = Path(__file__).parents[1] / "sample_data" / "events"
U19 = DATA / "trf" / "irl_u19-championship-2010_round-robin-4p_utf8.trf"


def run(*args: str | Path) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, [str(a) for a in args])
    return result.exit_code, result.stdout, result.stderr


def five_events(folder: Path) -> Path:
    """docs/rules.md §9's five events (39 games of one subject, one opponent a round)."""
    from systems.elo.test_engine import SEVEN_HUNDRED_CAP_EVENTS, _cap_event

    folder.mkdir()
    for index, games in enumerate(SEVEN_HUNDRED_CAP_EVENTS, start=1):
        (folder / f"e{index}.trf").write_text(_cap_event(index, games, 1980), encoding="utf-8")
    return folder


def pages_of(out: Path) -> dict[str, bytes]:
    return {page.name: page.read_bytes() for page in sorted((out / "events").glob("*.html"))}


def test_pages_by_default_for_one_event_or_a_small_run() -> None:
    # One event always (the per-event use); otherwise at most 20 events and 20,000
    # player-games, each bound taken inclusive.
    assert pages_by_default(1, 10**6)
    assert pages_by_default(20, 20_000)
    assert not pages_by_default(21, 21 * 30)
    assert not pages_by_default(2, 20_001)


def test_a_small_run_keeps_its_page_and_no_pages_leaves_it_out(tmp_path: Path) -> None:
    code, printed, _ = run("rate", SAMPLE, "--rules", "fide-2025", "--out", tmp_path / "a")
    assert code == 0
    key = "esp_torneo-san-viator-2018-B_swiss-137p"
    assert list(pages_of(tmp_path / "a")) == [f"{key}.html"]
    index = read_page((tmp_path / "a" / "index.html").read_text(encoding="utf-8"))
    assert f"events/{key}.html" in index.links
    assert "on request" not in printed

    code, printed, _ = run(
        "rate", SAMPLE, "--rules", "fide-2025", "--out", tmp_path / "b", "--no-pages"
    )
    assert code == 0
    assert pages_of(tmp_path / "b") == {}
    index = read_page((tmp_path / "b" / "index.html").read_text(encoding="utf-8"))
    assert not [link for link in index.links if link.startswith("events/")]
    # 137 players, 7 rounds: the file's 137 × 7 player-game rows (byes included).
    games = len(read_csv(tmp_path / "b" / "games.csv"))
    assert games == 137 * 7
    note = f"1 event, {games:,} player-games: event pages left out (--no-pages)"
    assert note in index.paragraphs
    assert note in printed.splitlines()


def test_a_run_without_pages_leaves_no_events_folder_and_takes_the_old_pages_away(
    tmp_path: Path,
) -> None:
    # The folder's pages are the run's: rated again with --no-pages into the same --out, the
    # pages of the first run go with their folder, rather than an empty folder staying.
    out = tmp_path / "out"
    assert run("rate", SAMPLE, "--rules", "fide-2025", "--out", out)[0] == 0
    assert len(pages_of(out)) == 1
    assert run("rate", SAMPLE, "--rules", "fide-2025", "--out", out, "--no-pages")[0] == 0
    assert not (out / "events").exists()
    assert (
        run("rate", SAMPLE, "--rules", "fide-2025", "--out", tmp_path / "b", "--no-pages")[0] == 0
    )
    assert not (tmp_path / "b" / "events").exists()
    assert (tmp_path / "b" / "index.html").is_file()


def test_above_the_bound_pages_are_on_request_and_the_same_when_asked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    events = five_events(tmp_path / "events")
    # The reference: the five events under the default bound (20 events) get their pages.
    code, _, _ = run("rate", events, "--rules", "fide-2025", "--out", tmp_path / "before")
    assert code == 0
    before = pages_of(tmp_path / "before")
    assert sorted(before) == [f"e{n}.html" for n in range(1, 6)]

    monkeypatch.setattr(outputs, "PAGES_BY_DEFAULT", 4)
    code, printed, _ = run("rate", events, "--rules", "fide-2025", "--out", tmp_path / "light")
    assert code == 0
    assert pages_of(tmp_path / "light") == {}
    # Rounds 8, 8, 6, 8, 9: each event's subject and one opponent a round, every player a
    # row a round: 9·8 + 9·8 + 7·6 + 9·8 + 10·9 = 348 player-game rows.
    assert len(read_csv(tmp_path / "light" / "games.csv")) == 348
    note = (
        "5 events, 348 player-games: event pages are written on request above 4 events or "
        "20,000 player-games (rate the same files again with --pages)"
    )
    assert printed.splitlines().count(note) == 1
    light = read_page((tmp_path / "light" / "index.html").read_text(encoding="utf-8"))
    assert note in light.paragraphs
    assert not [link for link in light.links if link.startswith("events/")]

    code, printed, _ = run(
        "rate", events, "--rules", "fide-2025", "--out", tmp_path / "asked", "--pages"
    )
    assert code == 0 and "on request" not in printed
    assert pages_of(tmp_path / "asked") == before
    index = (tmp_path / "asked" / "index.html").read_bytes()
    assert index == (tmp_path / "before" / "index.html").read_bytes()
    # The index without pages lists the same events and players, only not linked.
    linked = read_page(index.decode("utf-8"))
    assert light.rows == linked.rows
    assert len([row for row in light.rows if row[0].startswith("Event")]) == 5


def test_the_per_game_sheets_are_left_out_above_the_bound(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The U19 round robin: 4 players, 3 rounds: 12 player-game rows.
    monkeypatch.setattr(outputs, "DETAIL_SHEET_GAMES", 12)
    assert run("rate", U19, "--rules", "fide-2025", "--out", tmp_path / "at")[0] == 0
    book = load_workbook(tmp_path / "at" / "report.xlsx", read_only=False)
    assert len(table(book["Games"])) == 12
    assert {row["id"] for row in table(book["Calculations"]) if row["id"] is not None}
    assert not any("left out" in str(row) for row in summary(book["Summary"]))

    monkeypatch.setattr(outputs, "DETAIL_SHEET_GAMES", 11)
    code, printed, _ = run("rate", U19, "--rules", "fide-2025", "--out", tmp_path / "above")
    assert code == 0
    above = load_workbook(tmp_path / "above" / "report.xlsx", read_only=False)
    assert above.sheetnames == book.sheetnames  # the same tabs, where a reader looks

    def cells(sheet: str) -> list[object]:
        return [c for row in above[sheet].iter_rows(values_only=True) for c in row if c]

    assert cells("Games") == [
        "The games (12 rows) are in games.csv: this sheet holds them up to 11 player-games."
    ]
    calculations = cells("Calculations")
    assert len(calculations) == 1 and "calculations.csv" in str(calculations[0])
    note = (
        "12 player-games: the Games and Calculations sheets are left out above 11: "
        "games.csv and calculations.csv hold every row"
    )
    assert (None, note) in [tuple(row[:2]) for row in summary(above["Summary"])]
    assert note in printed.splitlines()
    # The CSVs hold the rows the sheets no longer do.
    assert len(read_csv(tmp_path / "above" / "games.csv")) == 12


def test_rate_help_loads_no_heavy_library() -> None:
    """``rate --help`` (where the officer learns of --pages) answers without pandas, numpy,
    openpyxl or jinja2."""
    code = (
        "import sys; sys.argv = ['rating-batch', 'rate', '--help']\n"
        "from rating_batch.cli import cli\n"
        "try:\n    cli()\nexcept SystemExit:\n    pass\n"
        "heavy = ('pandas', 'numpy', 'openpyxl', 'jinja2')\n"
        "print(sorted(m for m in heavy if m in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert "--pages / --no-pages" in done.stdout
    assert done.stdout.strip().splitlines()[-1] == "[]"


def test_past_max_event_pages_none_even_asked_and_the_index_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # As publish: no event pages past MAX_EVENT_PAGES events (1,000; here 4 for 5 events),
    # and the note does not point to a --pages that would write none.
    events = five_events(tmp_path / "events")
    monkeypatch.setattr(outputs, "MAX_EVENT_PAGES", 4)
    code, printed, _ = run(
        "rate", events, "--rules", "fide-2025", "--out", tmp_path / "out", "--pages"
    )
    assert code == 0
    assert pages_of(tmp_path / "out") == {}
    note = "5 events, 348 player-games: no event pages above 4 events (rate an event alone)"
    assert note in printed.splitlines()
    index = read_page((tmp_path / "out" / "index.html").read_text(encoding="utf-8"))
    assert note in index.paragraphs
    assert len([row for row in index.rows if row[0].startswith("Event")]) == 5


def test_a_page_the_officer_wrote_in_events_is_refused_not_deleted(tmp_path: Path) -> None:
    # Attack review of issue 42 (D2): any *.html in OUT/events was taken as ours and deleted
    # (the whole folder with --no-pages). A page without rating_batch's generator line is
    # the officer's: refused, as his notes.txt is, and nothing is written.
    out = tmp_path / "out"
    assert run("rate", SAMPLE, "--rules", "fide-2025", "--out", out)[0] == 0
    notes = out / "events" / "club-notes.html"
    notes.write_text("<p>our club notes, typed by hand</p>", encoding="utf-8")
    before = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    for extra in ((), ("--no-pages",)):
        code, _, err = run("rate", SAMPLE, "--rules", "fide-2025", "--out", out, *extra)
        assert code == 1 and "club-notes.html" in err and "does not write" in err
        assert {p: p.read_bytes() for p in out.rglob("*") if p.is_file()} == before
    notes.unlink()  # his page moved away: rated again, the pages are replaced as before
    assert run("rate", SAMPLE, "--rules", "fide-2025", "--out", out, "--no-pages")[0] == 0
    assert not (out / "events").exists()
