"""The command-line contract of spec/outputs.md: exit codes, messages, files and columns."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from budget import runs
from click.testing import CliRunner
from conftest import DATA, TRF_CORPUS, read_csv
from html_text import read_page
from openpyxl import load_workbook
from workbooks import header_row, table
from workbooks import name as column_name

from rating_batch.cli import cli
from rating_batch.errors import RatingBatchError

U19 = DATA / "trf" / "irl_u19-championship-2010_round-robin-4p_utf8.trf"

PLAYERS_COLUMNS = [
    "id",
    "name",
    "federation",
    "title",
    "sex",
    "birth_year",
    "status",
    "rating",
    "k",
    "games",
    "score",
    "expected",
    "change",
    "new_rating",
    "provisional",
    "avg_opponent",
    "performance",
    "events",
]
GAMES_COLUMNS = [
    "event",
    "round",
    "id",
    "opponent_id",
    "colour",
    "result",
    "score",
    "counted",
    "reason",
    "rating",
    "opponent_rating",
    "diff",
    "expected",
    "delta",
]


def run(*args: str | Path) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, [str(a) for a in args])
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.parametrize("path", TRF_CORPUS, ids=[p.name[:40] for p in TRF_CORPUS])
def test_rate_succeeds_on_every_corpus_file(path: Path, tmp_path: Path) -> None:
    code, out, err = run("rate", path, "--rules", "fide-2025", "--out", tmp_path)
    assert code == 0
    # Warnings are printed (plausible-but-wrong input is never only a note in a report).
    assert all(": warning: " in line or line.startswith("… and ") for line in err.splitlines())
    players = read_csv(tmp_path / "players.csv")
    games = read_csv(tmp_path / "games.csv")
    assert list(players[0])[: len(PLAYERS_COLUMNS)] == PLAYERS_COLUMNS
    assert list(games[0])[: len(GAMES_COLUMNS)] == GAMES_COLUMNS
    assert (tmp_path / "report.xlsx").stat().st_size > 0
    assert (tmp_path / "players.csv").read_bytes().startswith(b"\xef\xbb\xbf")
    assert "wrote" in out


def test_u19_players_agree_with_hand_calculation(tmp_path: Path) -> None:
    # Worked by hand in the commit that added this test (fide-2025 rules, period year 2010):
    # Griffiths 2225 junior K 40: 2 counted wins capped at D 400 (PD .92) → +6.4 → 2231;
    # Flynn 1633 K 20: +.28 -.08 → +4.0 → 1637; Hülleman 1466: -.28 -.08 → -7.2 → 1459;
    # Dunne unrated: zero in his first event → disregarded, no provisional rating.
    code, _, _ = run("rate", U19, "--rules", "fide-2025", "--out", tmp_path)
    assert code == 0
    rows = {row["id"]: row for row in read_csv(tmp_path / "players.csv")}
    fields = (
        "status",
        "rating",
        "k",
        "games",
        "score",
        "expected",
        "change",
        "new_rating",
        "avg_opponent",
        "performance",
    )
    assert [rows["6897"][f] for f in fields] == [
        "rated",
        "2225",
        "40",
        "2",
        "2",
        "1.84",
        "6.40",
        "2231",
        "1550",
        "2350",
    ]
    assert [rows["5226"][f] for f in fields] == [
        "rated",
        "1633",
        "20",
        "2",
        "1",
        "0.80",
        "4.00",
        "1637",
        "1846",
        "1846",
    ]
    assert [rows["6409"][f] for f in fields] == [
        "rated",
        "1466",
        "20",
        "2",
        "0",
        "0.36",
        "-7.20",
        "1459",
        "1929",
        "1129",
    ]
    assert [rows["10914"][f] for f in ("status", "games", "provisional", "performance")] == [
        "unrated",
        "0",
        "",
        "",
    ]
    games = read_csv(tmp_path / "games.csv")
    dunne = [g["reason"] for g in games if g["id"] == "10914"]
    assert dunne == ["first_event_disregarded"] * 3


def test_report_workbook_has_typed_cells_and_a_usable_header(tmp_path: Path) -> None:
    run("rate", U19, "--rules", "fide-2025", "--out", tmp_path)
    book = load_workbook(tmp_path / "report.xlsx")
    assert book.sheetnames == [
        "Summary", "Players", "Games", "Calculations", "Player events", "Charts", "Changes chart"
    ]  # fmt: skip
    charts = book["Charts"]
    assert len(charts._charts) == 1  # a native bar chart of the distribution below
    # New ratings 2231, 1637, 1459 (Dunne stays unrated): one in each band.
    bands = [(row["band"], row["players"]) for row in table(charts)]
    assert [b for b in bands if b[1]] == [("1400-1499", 1), ("1600-1699", 1), ("2200-2299", 1)]
    sheet = book["Players"]
    row = header_row(sheet)
    # What the sheet is, on top (and at the top of every printed page).
    assert sheet.cell(1, 1).value == "Players — U-19 All Ireland (fide-2025)"
    header = [column_name(cell.value) for cell in sheet[row]]
    assert header[: len(PLAYERS_COLUMNS)] == PLAYERS_COLUMNS
    # FIDE's notation beside the names.
    assert sheet.cell(row, header.index("rating") + 1).value == "rating (Ro)"
    assert sheet.cell(row, header.index("new_rating") + 1).value == "new_rating (Rn)"
    assert all(cell.font.bold for cell in sheet[row])
    assert sheet.freeze_panes == f"C{row + 1}"  # the header, and id and name, stay in view
    last = sheet.cell(row, len(header)).column_letter
    assert sheet.auto_filter.ref == f"A{row}:{last}{row + 4}"
    griffiths = table(sheet)[0]
    assert (griffiths["rating"], griffiths["change"], griffiths["new_rating"]) == (2225, 6.4, 2231)
    assert sheet.cell(row + 1, header.index("change") + 1).number_format == "0.00"
    summary = [row[0].value for row in book["Summary"].iter_rows() if row[0].value]
    assert "Rules" in summary and "Notes" in summary and "Events" in summary


def test_formula_like_names_are_neutralised(tmp_path: Path) -> None:
    from trf_text import P, trf

    names = ['=HYPERLINK("http://x")', "+cmd|' /C calc'!A0", "@SUM(1+1)", "-2+3"]
    players = [P(i + 1, name, 1500 + i, 100 + i, 1980) for i, name in enumerate(names)]
    event = tmp_path / "hostile.trf"
    event.write_text(trf(players, [(1, 1, 2, "1-0"), (1, 3, 4, "=-=")]), encoding="utf-8")
    code, _, _ = run("rate", event, "--rules", "fide-2025", "--out", tmp_path / "out")
    assert code == 0
    written = [row["name"] for row in read_csv(tmp_path / "out" / "players.csv")]
    assert written == ["'" + name for name in names]
    sheet = load_workbook(tmp_path / "out" / "report.xlsx")["Players"]
    first = header_row(sheet) + 1
    cells = [sheet.cell(row, 2) for row in range(first, first + 4)]
    assert [cell.value for cell in cells] == names
    assert all(cell.data_type == "s" and cell.quotePrefix for cell in cells)


def test_check_prints_every_problem_with_file_and_line(tmp_path: Path) -> None:
    lines = U19.read_text(encoding="utf-8").splitlines()
    lines[3] = lines[3].replace("     2 w 1", "     2 b =")
    lines[5] = lines[5].replace("     4 b 1", "     9 b 1")
    broken = tmp_path / "broken.trf"
    broken.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, out, err = run("check", broken, U19)
    assert code == 1
    assert out.splitlines() == [  # errors first, in line order; then warnings
        f"{broken}:4: round 2: result '=' against 2, whose line 5 has '0'",
        f"{broken}:4: round 2: colour 'b' against 2, whose line 5 has it too",
        f"{broken}:6: round 2: opponent 9 is not a player of this file",
        f"{broken}:7: round 2: opponent 3 does not have this game",
        f"{broken}:4: warning: declared points 3 but the rounds give 2.5",
    ]
    assert err == "4 error(s), 1 warning(s)\n"
    assert "Traceback" not in out + err


def test_check_keeps_files_of_the_same_name_apart(tmp_path: Path) -> None:
    # Files are checked together: two broken files both called e.trf (in two folders), with a
    # rating list between them, each get their own problems, in the order given.
    lines = U19.read_text(encoding="utf-8").splitlines()
    first, second = tmp_path / "a" / "e.trf", tmp_path / "b" / "e.trf"
    for path, line in ((first, 5), (second, 6)):
        path.parent.mkdir()
        broken = list(lines)
        broken[line] = broken[line][:91] + "   9 b 1" + broken[line][99:]
        path.write_text("\n".join(broken) + "\n", encoding="utf-8")
    listing = tmp_path / "list.csv"
    listing.write_text("id,rating\n6897,x\n", encoding="utf-8")
    code, out, _ = run("check", first, listing, second)
    assert code == 1
    problems = [line for line in out.splitlines() if "opponent 9" in line or "list.csv" in line]
    assert problems[0] == f"{first}:6: round 1: opponent 9 is not a player of this file"
    assert problems[1].startswith(f"{listing}:2:")
    assert problems[2] == f"{second}:7: round 1: opponent 9 is not a player of this file"


def test_check_clean_file_exits_0(tmp_path: Path) -> None:
    assert run("check", U19) == (0, "", "0 error(s), 0 warning(s)\n")


def test_check_accepts_a_rating_list(tmp_path: Path) -> None:
    good = tmp_path / "list.csv"
    good.write_text("id,rating,k\n6897,2225,40\n")
    bad = tmp_path / "bad.csv"
    bad.write_text("id,rating\n6897,22x5\n,1500\n")
    assert run("check", good)[0] == 0
    code, out, _ = run("check", bad)
    assert code == 1
    assert out.splitlines() == [
        f"{bad}:2: column 'rating': '22x5' is not a whole number",
        f"{bad}:3: column 'id': missing FIDE ID",
    ]


def test_rate_refuses_a_broken_file_and_writes_nothing(tmp_path: Path) -> None:
    broken = tmp_path / "broken.trf"
    broken.write_text(
        U19.read_text(encoding="utf-8").replace("     2 w 1", "     2 b ="), encoding="utf-8"
    )
    code, _out, err = run("rate", broken, "--out", tmp_path / "out")
    assert code == 1
    assert err.startswith("Error: ") and f"{broken}:4: round 2: result '='" in err
    assert "Traceback" not in err
    assert not (tmp_path / "out").exists()


def test_unknown_rules_is_an_input_error(tmp_path: Path) -> None:
    code, _, err = run("rate", U19, "--rules", "fide-1999", "--out", tmp_path)
    assert code == 1
    assert err == (
        "Error: unknown rules 'fide-1999': choose one of fide, fide-2011, fide-2014, fide-2022, "
        "fide-2024, fide-2025, a .toml rules file, or another rating system: glicko2, glicko, "
        "trueskill, harkness, ingo, uscf, dwz, "
        "ecf-grade, ecf, ccla\n"
    )


def test_usage_errors_exit_2(tmp_path: Path) -> None:
    assert run("rate")[0] == 2
    assert run("rate", tmp_path / "missing.trf")[0] == 2
    assert run("frobnicate")[0] == 2


def test_a_folder_expands_to_its_event_files(tmp_path: Path) -> None:
    events = tmp_path / "events"
    events.mkdir()
    (events / "a.trf").write_bytes(U19.read_bytes())
    (events / "notes.md").write_text("not an event")
    code, out, _ = run("rate", events, "--rules", "fide-2025", "--out", tmp_path / "out")
    assert code == 0
    assert out.startswith("rated 1 event(s) as one period under fide-2025")


def test_files_of_the_same_name_get_distinct_event_keys(tmp_path: Path) -> None:
    # open.trf twice (two folders) beside a file already called open-2.trf: the second
    # open.trf cannot be "open-2" too; it becomes "open-3" (each event stays apart).
    for folder, name in (("a", "open-2.trf"), ("a", "open.trf"), ("b", "open.trf")):
        (tmp_path / folder).mkdir(exist_ok=True)
        (tmp_path / folder / name).write_bytes(U19.read_bytes())
    code, _, err = run(
        "rate", tmp_path / "a" / "open-2.trf", tmp_path / "a" / "open.trf",
        tmp_path / "b" / "open.trf", "--rules", "fide-2025", "--out", tmp_path / "out",
        "--allow-overlap",  # three copies of one file: rated three times, on purpose here
    )  # fmt: skip
    assert code == 0 and err.count("the same results reported twice?") == 3
    events = {row["event"] for row in read_csv(tmp_path / "out" / "games.csv")}
    assert events == {"open-2", "open", "open-3"}


def test_outputs_get_the_usual_file_mode(tmp_path: Path) -> None:
    # Written to private temporary files and renamed: the outputs must not stay private
    # (an officer publishes them from a shared folder). With umask 022: rw-r--r--.
    import os

    previous = os.umask(0o022)
    try:
        code, _, _ = run("rate", U19, "--rules", "fide-2025", "--out", tmp_path / "out")
    finally:
        os.umask(previous)
    assert code == 0
    modes = {p.name: p.stat().st_mode & 0o777 for p in (tmp_path / "out").iterdir() if p.is_file()}
    assert modes == dict.fromkeys(
        ["players.csv", "games.csv", "calculations.csv", "report.xlsx", "index.html"], 0o644
    )


def test_failed_write_leaves_no_output_behind(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from rating_batch.pipelines import outputs
    from rating_batch.rate import rate_events

    def explode(*args: object, **kwargs: object) -> None:
        raise OSError("disk full")

    out = tmp_path / "out"
    out.mkdir()
    (out / "players.csv").write_text("previous run\n")
    monkeypatch.setattr(outputs, "write_workbook", explode)
    with pytest.raises(RatingBatchError, match="cannot write the outputs \\(disk full\\)"):
        rate_events([U19], rules_name="fide-2025", out=out)
    assert sorted(p.name for p in out.iterdir()) == ["players.csv"]
    assert (out / "players.csv").read_text() == "previous run\n"


def test_every_command_documents_an_example() -> None:
    for name, command in cli.commands.items():  # type: ignore[attr-defined]  # click's command is a Group at run time
        assert re.search(r"Example:\n\n\s+\x08?\s*rating-batch ", command.help or ""), name


def test_cli_reproduces_the_700_cap_example(tmp_path: Path) -> None:
    # docs/rules.md §9: five events, 39 games, K 20 → 17, Ro 2054 → +92 → 2146 (FIDE).
    from systems.elo.test_engine import SEVEN_HUNDRED_CAP_EVENTS, _cap_event

    events = tmp_path / "events"
    events.mkdir()
    for index, games in enumerate(SEVEN_HUNDRED_CAP_EVENTS, start=1):
        (events / f"e{index}.trf").write_text(_cap_event(index, games, 1980), encoding="utf-8")
    code, out, _ = run("rate", events, "--rules", "fide-2025", "--out", tmp_path / "out")
    assert code == 0 and out.startswith("rated 5 event(s)")
    subject = next(r for r in read_csv(tmp_path / "out" / "players.csv") if r["id"] == "500")
    assert [subject[f] for f in ("rating", "k", "games", "new_rating", "events")] == [
        "2054",
        "17",
        "39",
        "2146",
        "5",
    ]


def test_cli_reproduces_the_first_rating_example(tmp_path: Path) -> None:
    # docs/rules.md §4: 5 games, 3 points, opponents summing to 9507 → 1922.
    from systems.elo.test_engine import _first_rating_event

    event = tmp_path / "first.trf"
    event.write_text(_first_rating_event([1901, 1901, 1901, 1902, 1902], [1, 1, 1, 0, 0]))
    assert run("rate", event, "--rules", "fide-2025", "--out", tmp_path / "out")[0] == 0
    newcomer = next(r for r in read_csv(tmp_path / "out" / "players.csv") if r["id"] == "900")
    assert [newcomer[f] for f in ("status", "games", "score", "new_rating")] == [
        "new",
        "5",
        "3",
        "1922",
    ]


def _mutations(lines: list[str]) -> list[list[str]]:
    """Deterministic malformed variants of a file: cut, shifted, swapped, junk, empty."""
    players = [i for i, line in enumerate(lines) if line.startswith("001")]
    variants: list[list[str]] = [[], lines[:1], lines[: len(lines) // 2]]
    for index in players[:2] + players[-1:]:
        line = lines[index]
        for changed in (
            line[:60],
            line[:93],
            " " + line,
            line[1:],
            line.replace(" w ", " b ", 1),
            line.replace(" 1 ", " 0 ", 1),
            line[:4] + "abcd" + line[8:],
            line[:48] + "99999" + line[53:],
            line + "  9999 w 1",
            line.replace(" ", "\t", 3),
            line[:20] + "\x00\x07ÿ" + line[23:],
        ):
            variants.append([*lines[:index], changed, *lines[index + 1 :]])
    variants.append([*lines, lines[players[0]]])  # a duplicated player line
    return variants


@pytest.mark.slow  # a fuzz test: many mutated files per corpus file
@pytest.mark.parametrize("path", TRF_CORPUS, ids=[p.name[:40] for p in TRF_CORPUS])
def test_no_traceback_on_malformed_variants(path: Path, tmp_path: Path) -> None:
    lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
    runner = CliRunner()
    # Every variant under ``make soak``; under ``make test`` (``budget.py``) the three of the
    # whole file (empty, its first line, its first half) and every third of the others.
    variants = _mutations(lines)
    for number, variant in enumerate(variants[:3] + variants[3 :: runs(1, 3)]):
        broken = tmp_path / f"variant{number}.trf"
        broken.write_text("\n".join(variant) + "\n", encoding="utf-8")
        for args in (["check", str(broken)], ["rate", str(broken), "--out", str(tmp_path / "o")]):
            result = runner.invoke(cli, args)
            assert result.exit_code in (0, 1), (number, args[0], result.output)
            assert result.exception is None or isinstance(result.exception, SystemExit), (
                number,
                args[0],
                result.exception,
            )
            if result.exit_code == 1:
                assert re.search(r"variant\d+\.trf(:\d+)?: ", result.output), result.output


def test_event_html_report(tmp_path: Path) -> None:
    # One page per event: the crosstable in final-ranking order (a game that does not count
    # greyed, with a footnote mark explained below it), and each player's calculation: per
    # game D, D after the 400-point rule (*), PD, ΔR, K·ΔR; per event Ro, Rc, W, n, We, K.
    code, out, _ = run("rate", U19, "--rules", "fide-2025", "--out", tmp_path)
    text = (tmp_path / "events" / f"{U19.stem}.html").read_text(encoding="utf-8")
    assert code == 0 and f"wrote {tmp_path / 'events' / U19.stem}.html" in out
    assert "<script" not in text and "http" not in text.replace('lang="en"', "")
    page = read_page(text)
    rows = {row[2]: row for row in page.rows[1:] if len(row) == 15}  # crosstable, by name
    # Rk, No., Name, Ti, Fed, FIDE ID, Rtg, rounds 1-3, Pts, n, Chg, New, Rp. Griffiths beat
    # Dunne (unrated: r), Flynn and Hülleman: 2 counted games, +3.20 each (K 40 × 0.08),
    # Rn 2225 + 6.40 = 2231; Rp = Ra 1550 ((1633 + 1466) / 2, half up) + dp(1.00) 800.
    assert rows["Griffiths,Ryan-Rhys"] == [
        "1", "1", "Griffiths,Ryan-Rhys", "", "", "6897", "2225",
        "4w1r", "2w1", "3b1", "3", "2", "+6.40", "2231", "2350",
    ]  # fmt: skip
    # Dunne's first event scores 0: disregarded (d), no rating, no Rp.
    assert rows["dunne,thomas"][7:15] == ["1b0d", "3w0d", "2b0d", "0", "0", "", "", ""]
    assert [r[0] for r in rows.values()] == ["1", "2", "3", "4"]  # the file's final ranking
    # The marks are explained under the crosstable, in print too (not on hover).
    legend = page.paragraphs[page.paragraphs.index("r") :][:4]
    assert legend == [
        "r", "the opponent is unrated (counts only toward a first rating)",
        "d", "a first event with a score too low to count",
    ]  # fmt: skip
    # Griffiths v Flynn: D 592, capped to 400 (*), PD 0.92, ΔR +0.08, K 40, K·ΔR +3.20.
    assert [
        "2", "Flynn,Jamie", "", "", "1633", "1", "592", "400*", "0.92", "+0.08", "40", "+3.20"
    ] in page.rows  # fmt: skip
    assert (
        "Ro 2225 · Rc 1550 · W 2 of n 2 · We 1.84 · K 40 · change K·ΣΔR +6.40 · after the "
        "period (all its events): Rn 2231"
    ) in page.paragraphs
    assert "4. dunne,thomas (FIDE ID 10914) — unrated" in page.headings


def test_event_html_escapes_names(tmp_path: Path) -> None:
    from trf_text import P, trf

    event = tmp_path / "x.trf"
    event.write_text(
        trf(
            [P(1, "<script>alert(1)</script>", 1500, 1, 1980), P(2, "B & C", 1500, 2, 1980)],
            [(1, 1, 2, "1-0")],
        )
    )
    run("rate", event, "--rules", "fide-2025", "--out", tmp_path / "out")
    page = (tmp_path / "out" / "events" / "x.html").read_text(encoding="utf-8")
    assert "<script>" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "B &amp; C" in page


def test_help_and_version_load_no_heavy_library() -> None:
    """The command line's help and --version answer without pandas, numpy, openpyxl, jinja2
    or the desk's web framework (they load in the commands that use them)."""
    code = (
        "import sys; sys.argv = ['rating-batch', '--help']\n"
        "from rating_batch.cli import cli\n"
        "try:\n    cli()\nexcept SystemExit:\n    pass\n"
        "heavy = ('pandas', 'numpy', 'openpyxl', 'jinja2', 'starlette', 'uvicorn', 'multipart')\n"
        "print(sorted(m for m in heavy if m in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip().splitlines()[-1] == "[]"


@pytest.mark.parametrize("rows", [0, 10**9], ids=["list-read-by-a-child", "list-read-here"])
def test_the_list_is_read_beside_the_overlap_check_and_errs_after_it(
    rows: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from rating_batch import parallel

    monkeypatch.setattr(parallel, "PARALLEL_ROWS", rows)
    listing = tmp_path / "list.csv"
    listing.write_text("id,rating\n6897,2200\n5226,1650\n6409,1500\n")
    code, _, err = run("rate", U19, "--list", listing, "--rules", "fide-2025", "--out",
                       tmp_path / "out")  # fmt: skip
    assert code == 0, err
    ratings = {row["id"]: row["rating"] for row in read_csv(tmp_path / "out" / "players.csv")}
    assert ratings["6897"] == "2200" and ratings["5226"] == "1650" and ratings["6409"] == "1500"
    # The same file twice and a list that cannot be read: the overlap is the error reported,
    # as when the list was read only after the files were compared.
    copy = tmp_path / "copy.trf"
    copy.write_bytes(U19.read_bytes())
    broken = tmp_path / "broken.csv"
    broken.write_text("rating\n2200\n")  # no id column
    code, _, err = run("rate", U19, copy, "--list", broken, "--out", tmp_path / "again")
    assert code == 1
    assert "the same results reported twice?" in err and "broken.csv" not in err
    code, _, err = run("rate", U19, "--list", broken, "--out", tmp_path / "again")
    assert code == 1 and "broken.csv" in err
    assert not (tmp_path / "again").exists()


def _help(*command: str) -> str:
    """A command's --help as one line of words (click rewraps the text to the terminal)."""
    code, out, _ = run(*command, "--help")
    assert code == 0
    return " ".join(out.split())


def _written(folder: Path, key: str) -> list[str]:
    """The files under ``folder``, the event key (or player id) spelt as the help spells it."""
    return sorted(
        path.relative_to(folder).as_posix().replace(key, "KEY" if "events" in str(path) else "ID")
        for path in folder.rglob("*")
        if path.is_file()
    )


def test_rate_help_names_every_file_rate_writes(tmp_path: Path) -> None:
    code, _, _ = run("rate", U19, "--rules", "fide-2025", "--out", tmp_path / "out")
    assert code == 0
    written = _written(tmp_path / "out", U19.stem)
    assert written == [
        "calculations.csv", "events/KEY.html", "games.csv", "index.html", "players.csv",
        "report.xlsx",
    ]  # fmt: skip
    shown = _help("rate")
    assert [name for name in written if f"OUT/{name}" not in shown] == []


def test_publish_and_player_help_name_every_file_they_write(tmp_path: Path) -> None:
    from db_helpers import newcomer_database

    db, listed = newcomer_database(tmp_path)
    written = _written(listed, "n1")
    shown = _help("publish")
    assert [name for name in written if name not in shown] == []
    assert "list.csv" in written and "events/KEY.html" in written
    code, _, _ = run("player", "11", "--db", db, "--out", tmp_path / "player")
    assert code == 0
    written = _written(tmp_path / "player", "11")
    assert written == ["player-ID.html", "player-ID.xlsx"]
    shown = _help("player")
    assert [name for name in written if name not in shown] == []
