"""US Chess through the command line (docs/systems.md §9): sections in the federation's
order, first ratings from the event files, the list kind by time control and the dual-rated
K, a list the system cannot hold. Expected values by hand; the database: test_uscf_db.py."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from conftest import read_csv as rows
from db_helpers import run_combined as run
from html_text import read_page
from trf_text import P, trf

from rating_batch.writers.common import WRITTEN_RELATIVE

#: N*(1500) = 50/√(0.662 + 0.00000739 · 1069²) = 50/√9.107004 = 16.5685 (docs/systems.md §9,
#: Step 2); N*(2300) = 50/√(0.662 + 0.00000739 · 269²) = 50/√1.196748 = 45.7055.
STAR_1500 = 50 / math.sqrt(0.662 + 0.00000739 * 1069**2)
STAR_2300 = 50 / math.sqrt(0.662 + 0.00000739 * 269**2)


def by_id(out: Path) -> dict[str, dict[str, str]]:
    return {row["id"]: row for row in rows(out / "players.csv")}


def we(own: float, other: float) -> float:
    return 1.0 / (1.0 + 10.0 ** (-(own - other) / 400.0))


def section(folder: Path, key: str, games: list[tuple[int, int, int, str]],
            people: list[P], start: str = "2026/08/01", control: str = "") -> Path:  # fmt: skip
    path = folder / f"{key}.trf"
    extra = (f"122 {control}",) if control else ()
    path.write_text(trf(people, games, start=start, end="2026/08/01", extra=extra), "utf-8")
    return path


def listed(folder: Path, text: str) -> Path:
    path = folder / "list.csv"
    path.write_text(text, encoding="utf-8")
    return path


def test_sections_go_by_end_date_then_key_each_from_the_last(tmp_path: Path) -> None:
    # -5 (11 draws 12) before -6 (11 beats 13), though -6 started three days earlier. In -5
    # nothing moves (equal ratings, a draw); in -6 N' = min(31, N*(1500)) = 16.5685, K =
    # 800/17.5685, intermediate 1500 ± K/2, Step 5 against them.
    people = [P(1, "Aa, One", None, 11), P(2, "Bb, Two", None, 12), P(3, "Cc, Three", None, 13)]
    five = section(tmp_path, "202608010253-5", [(1, 1, 2, "=-=")], people[:2])
    six = section(tmp_path, "202608010253-6", [(1, 1, 2, "1-0")], [people[0], P(2, "Cc, Three",
                  None, 13)], start="2026/07/29")  # fmt: skip
    state = listed(tmp_path, "id,rating,games_total\n11,1500,30\n12,1500,30\n13,1500,30\n")
    out = tmp_path / "out"
    code, output = run("rate", six, five, "--rules", "uscf", "--list", state, "--out", out)
    assert code == 0, output
    k = 800 / (STAR_1500 + 1)
    found = by_id(out)
    assert float(found["11"]["new_rating"]) == pytest.approx(
        1500 + k * (1 - we(1500, 1500 - k / 2)), rel=WRITTEN_RELATIVE
    )
    assert float(found["13"]["new_rating"]) == pytest.approx(
        1500 - k * we(1500, 1500 + k / 2), rel=WRITTEN_RELATIVE
    )
    assert float(found["12"]["new_rating"]) == 1500.0
    # A player listed on 0 games is new when he plays, rated while he does not.
    assert found["11"]["status"] == "rated"
    assert [found["11"][c] for c in ("new_games_total", "new_record", "status")] == [
        "32.0", "mixed", "rated",
    ]  # fmt: skip
    # calculations.csv: a row per player and game of each section, in rating order.
    calc = rows(out / "calculations.csv")
    assert [(r["event"], r["id"]) for r in calc] == [
        ("202608010253-5", "11"), ("202608010253-5", "12"),
        ("202608010253-6", "11"), ("202608010253-6", "13"),
    ]  # fmt: skip
    eleven = calc[2]
    assert float(eleven["n_eff"]) == pytest.approx(STAR_1500, rel=WRITTEN_RELATIVE)
    assert (eleven["formula"], eleven["m"], eleven["b"]) == ("standard", "1", "10.0")
    assert float(eleven["intermediate"]) == pytest.approx(1500 + k / 2, rel=WRITTEN_RELATIVE)


def test_first_ratings_from_the_event_file(tmp_path: Path) -> None:
    # 21 (FIDE 1800, no list): 1.5667 · 1800 − 1073 = 1747.06 on N = 5, mixed (ends after
    # 2024-03-01). 22 (born 2014): 50 · 12 = 600 on N = 0; 21 beats 22.
    # Step 3 for 22: PWe(R, 600) + PWe(R, 1747.06) = 0 + 0.5 → R = 600 (below 1347.06).
    # 21 (special, N' = 5): 5 PWe(R, 1747.06) + PWe(R, 600) = 1 + 2.5 → R = 1747.06.
    # 22 (N' = 0): PWe(R, 1747.06) = 0 for R ≤ 1347.06 → the point nearest R0: 600.
    people = [P(1, "Dd, Four", 1800, 21, 1990), P(2, "Ee, Five", None, None, 2014)]
    event = section(tmp_path, "202608010300-1", [(1, 1, 2, "1-0")], people)
    out = tmp_path / "out"
    assert run("rate", event, "--rules", "uscf", "--out", out)[0] == 0
    found = by_id(out)
    child = found["202608010300-1#2"]
    assert float(found["21"]["new_rating"]) == pytest.approx(1747.06, abs=1e-9)
    assert float(child["new_rating"]) == pytest.approx(600.0, abs=1e-9)
    assert [found["21"]["new_games_total"], child["new_games_total"]] == ["6.0", "1.0"]
    assert [found["21"]["new_record"], child["new_record"]] == ["mixed", "all_losses"]
    assert [found["21"]["status"], child["status"]] == ["new", "new"]
    assert float(child["step3"]) == pytest.approx(600.0, abs=1e-9)
    assert [found["21"]["method"], child["method"]] == ["special", "special"]


@pytest.mark.parametrize(
    ("kind", "factor"), [(None, 0.75), ("rapid", 1.0)], ids=["regular-side", "quick-side"]
)
def test_a_dual_rated_event_reduces_k_on_its_regular_side(
    tmp_path: Path, kind: str | None, factor: float
) -> None:
    # G/45;d5: t = 45 + 5 = 50, dual-rated; rated for Regular without --kind. At 2300:
    # K = 800/(45.7055 + 1) = 17.1286, × (6.5 − 0.0025 · 2300) = × 0.75 on the Regular side.
    people = [P(1, "Aa, One", None, 11), P(2, "Bb, Two", None, 12)]
    event = section(tmp_path, "202608010400-1", [(1, 1, 2, "=-=")], people, control="G/45;d5")
    state = listed(tmp_path, "id,rating,games_total\n11,2300,100\n12,2300,100\n")
    out = tmp_path / "out"
    chosen = ["--kind", kind] if kind else []
    code, output = run("rate", event, "--rules", "uscf", "--list", state, *chosen, "--out", out)
    assert code == 0, output
    k = float(rows(out / "calculations.csv")[0]["k"])
    assert k == pytest.approx(800 / (STAR_2300 + 1) * factor, rel=WRITTEN_RELATIVE)


def test_a_time_control_outside_the_kind_or_too_fast_is_refused(tmp_path: Path) -> None:
    people = [P(1, "Aa, One", None, 11), P(2, "Bb, Two", None, 12)]
    dual = section(tmp_path, "202608010400-1", [(1, 1, 2, "=-=")], people, control="G/45;d5")
    code, output = run("rate", dual, "--rules", "uscf", "--kind", "blitz", "--out", tmp_path / "o")
    assert code == 1
    assert output == (
        "Error: under uscf, the time control of 202608010400-1 (standard, rapid) does not "
        "belong to the blitz list: rate it for its own list\n"
    )
    fast = section(tmp_path, "202608010400-2", [(1, 1, 2, "=-=")], people, control="G/3")
    code, output = run("rate", fast, "--rules", "uscf", "--out", tmp_path / "o")
    assert code == 1
    assert output == (
        "Error: under uscf, 202608010400-2 is not rated: its time control is too fast for "
        "any list\n"
    )
    assert not (tmp_path / "o").exists()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("id,rating,record\n11,1500,mixed\n12,1500,won\n",
         "list.csv:3: record 'won' is not one of all_wins, all_losses, mixed (or empty)"),
        ("id,rating,abs_floor\n11,1500,160\n",
         "list.csv:2: abs_floor 160 is out of range for uscf (100 to 150); a personal absolute "
         "floor"),
        ("id,rating\n11,50\n",
         "list.csv:2: rating 50 is out of range for uscf (100 to 3500); a US Chess rating is "
         "100 or more"),
        ("id,rating,peak\n11,,1800\n",
         "list.csv:2: games_total, peak, floor, abs_floor given without rating: give rating "
         "too, or leave them empty"),
    ],
    ids=["record", "abs-floor", "rating", "peak-alone"],
)  # fmt: skip
def test_a_list_the_system_cannot_hold_is_refused(tmp_path: Path, text: str, message: str) -> None:
    people = [P(1, "Aa, One", None, 11), P(2, "Bb, Two", None, 12)]
    event = section(tmp_path, "202608010500-1", [(1, 1, 2, "=-=")], people)
    state = listed(tmp_path, text)
    out = tmp_path / "out"
    code, output = run("rate", event, "--rules", "uscf", "--list", state, "--out", out)
    assert code == 1
    assert output == f"Error: {tmp_path / message}\n"
    assert not out.exists()


def test_a_player_on_zero_games_is_new_when_he_plays(tmp_path: Path) -> None:
    # outputs.md: status new for a player listed with games_total 0 who plays. 11 (1500 on 0
    # games) beats 12 (1500, N unknown). Step 3 for 11: PWe(R, 1500) + PWe(R, 1500) = 1 + 0.5,
    # 1 + (R − 1500)/400 = 1.5 → R = 1700. Step 4, N' = 0: PWe(R, 1500) = 1 → R ≥ 1900, the
    # point nearest R0 1500: 1900.
    people = [P(1, "Aa, One", None, 11), P(2, "Bb, Two", None, 12)]
    event = section(tmp_path, "202608010600-1", [(1, 1, 2, "1-0")], people)
    state = listed(tmp_path, "id,rating,games_total\n11,1500,0\n12,1500,\n")
    out = tmp_path / "out"
    assert run("rate", event, "--rules", "uscf", "--list", state, "--out", out)[0] == 0
    found = by_id(out)
    assert [found[i]["status"] for i in ("11", "12")] == ["new", "rated"]
    assert float(found["11"]["step3"]) == pytest.approx(1700.0, abs=1e-9)
    assert float(found["11"]["intermediate"]) == pytest.approx(1900.0, abs=1e-9)


def msa_rows(out: Path) -> list[list[str]]:
    """msa.html's table rows as their cells' text, headers left out."""
    page = read_page((out / "msa.html").read_text("utf-8"))
    return [row for row in page.rows if not row[0].startswith("Pair")]


def two_sections(folder: Path) -> tuple[Path, Path, Path]:
    """-5: 13 (start number 1, no list, no rating) has a full-point bye, then loses by
    forfeit to 11; 11 (1500.5 on 30 games) draws 12 (1500.5 on 3), who then takes a half-point
    bye. -6 (same end, later key): 21 (FIDE 1800) beats 22 (born 2014, no ID); 12 has a
    zero-point bye."""
    first = section(
        folder,
        "202608010253-5",
        [
            (1, 2, 3, "=-="),
            (1, 1, None, "U"),
            (2, 2, 1, "+--"),
            (2, 3, None, "H"),
        ],
        [P(1, "Cc, Three", None, 13), P(2, "Aa, One", None, 11), P(3, "Bb, Two", None, 12)],
    )
    second = section(folder, "202608010253-6", [(1, 1, 2, "1-0"), (1, 3, None, "Z")], [
        P(1, "Dd, Four", 1800, 21, 1990), P(2, "Ee, Five", None, None, 2014),
        P(3, "Bb, Two", None, 12),
    ])  # fmt: skip
    state = listed(folder, "id,rating,games_total\n11,1500.5,30\n12,1500.5,3\n")
    return first, second, state


def test_each_section_has_the_msa_crosstable(tmp_path: Path) -> None:
    # -5: the draw at equal ratings moves nobody: 11 (standard) K·(0.5 − 0.5) = 0, no bonus
    # (m = 1 < 3); 12 (special, N' = 3): 3·PWe(R, 1500.5) + PWe(R, 1500.5) = 0.5 + 3/2 holds
    # at R = 1500.5. Both stay 1500.5, shown 1501 (half away from zero, §9.11; not 1500 as
    # half to even would give); 12 is then on 3 + 1 = 4 games: P4, and carries P4 into -6,
    # where a bye does not count. The forfeit and the byes are not rated (§9.2).
    # -6: 21 starts from 1.5667 · 1800 − 1073 = 1747.06 on N = 5 (§9.4 a), marked as a FIDE
    # conversion, and stays 1747.06 (test_first_ratings_from_the_event_file): 1747P5* →
    # 1747P6; 22 is unrated before (§9.4 b: N = 0) and 600 on 1 game after.
    # MSA order: points, then post-event rating; the opponents by that number.
    first, second, state = two_sections(tmp_path)
    out = tmp_path / "out"
    code, output = run("rate", second, first, "--rules", "uscf", "--list", state, "--out", out)
    assert code == 0, output
    assert "wrote " + str(out / "msa.html") in output
    page = read_page((out / "msa.html").read_text("utf-8"))
    # Bb plays in both sections: 5 players; -6 has one round.
    assert "sections: 2 · players: 5" in page.paragraphs
    assert "Section 202608010253-6 · 3 players · 1 round" in page.paragraphs
    index = read_page((out / "index.html").read_text("utf-8"))
    assert any(text.startswith("msa.html (beside this page)") for text in index.paragraphs)
    assert msa_rows(out) == [
        ["1", "Aa, One", "1.5", "D 2", "X 3"],
        ["", "11 / R: 1501 → 1501", "", "W", ""],
        ["2", "Bb, Two", "1.0", "D 1", "H"],
        ["", "12 / R: 1501P3 → 1501P4", "", "B", ""],
        ["3", "Cc, Three", "1.0", "B", "F 1"],
        ["", "13 / R: Unrated → Unrated", "", "", ""],
        ["1", "Dd, Four", "1.0", "W 3"],
        ["", "21 / R: 1747P5* → 1747P6", "", "W"],
        ["2", "Bb, Two", "0.0", "U"],
        ["", "12 / R: 1501P4 → 1501P4", "", ""],
        ["3", "Ee, Five", "0.0", "L 1"],
        ["", "no ID / R: Unrated → 600P1", "", "B"],
    ]


def test_the_crosstable_sheet_has_whole_ratings(tmp_path: Path) -> None:
    # The same two sections (test_each_section_has_the_msa_crosstable): report.xlsx's
    # Crosstable sheet, ratings as whole numbers (1500.5 → 1501), the rounds as the MSA
    # writes them, a round a section does not have left empty.
    import openpyxl
    from workbooks import table

    first, second, state = two_sections(tmp_path)
    out = tmp_path / "out"
    assert run("rate", first, second, "--rules", "uscf", "--list", state, "--out", out)[0] == 0
    sheet = openpyxl.load_workbook(out / "report.xlsx")["Crosstable"]
    found = [
        (r["event"][-1], r["pair"], r["name"], r["id"], r["total"], r["Rd 1"], r["Rd 2"],
         r["pre"], r["post"], r["rating"])
        for r in table(sheet)
    ]  # fmt: skip
    assert found == [
        ("5", 1, "Aa, One", "11", 1.5, "D 2", "X 3", 1501, 1501, "1501 → 1501"),
        ("5", 2, "Bb, Two", "12", 1, "D 1", "H", 1501, 1501, "1501P3 → 1501P4"),
        ("5", 3, "Cc, Three", "13", 1, "B", "F 1", None, None, "Unrated → Unrated"),
        ("6", 1, "Dd, Four", "21", 1, "W 3", None, 1747, 1747, "1747P5* → 1747P6"),
        ("6", 2, "Bb, Two", "12", 0, "U", None, 1501, 1501, "1501P4 → 1501P4"),
        ("6", 3, "Ee, Five", None, 0, "L 1", None, None, 600, "Unrated → 600P1"),
    ]
    assert all(type(row[7]) is int for row in found if row[7] is not None)


def test_publish_writes_the_crosstable_and_player_shows_whole_ratings(tmp_path: Path) -> None:
    # A database (docs/systems.md §9.14): -5, One (11) draws Two (12), all 1500 on 30 games:
    # nobody moves. -6 (same end, later key): One beats Three (13). N' = N*(1500) = 16.5685,
    # K = 800/17.5685 = 45.536; Step 4 1500 ± K/2; One 1500 + K·(1 − We(1500, 1477.23)) =
    # 1500 + 45.536 · 0.46728 = 1521.28 → 1521; Three 1500 − K·We(1500, 1522.77) =
    # 1500 − 45.536 · 0.46728 = 1478.72 → 1479 (half away from zero, §9.11).
    from db_helpers import run as run_apart

    k = 800 / (STAR_1500 + 1)
    one = 1500 + k * (1 - we(1500, 1500 - k / 2))
    three = 1500 - k * we(1500, 1500 + k / 2)
    whole = [math.floor(one + 0.5), math.floor(three + 0.5)]
    assert whole == [1521, 1479]
    listed(tmp_path, "id,name,rating,games_total\n11,\"One, Ann\",1500,30\n"
           "12,\"Two, Bea\",1500,30\n13,\"Three, Cy\",1500,30\n")  # fmt: skip
    db = tmp_path / "u.sqlite"
    code, out, err = run_apart("init", "--list", tmp_path / "list.csv", "--period", "2026-07",
                               "--db", db, "--rules", "uscf")  # fmt: skip
    assert code == 0, out + err
    people = [P(1, "One, Ann", None, 11), P(2, "Two, Bea", None, 12), P(2, "Three, Cy", None, 13)]
    five = section(tmp_path, "202607200253-5", [(1, 1, 2, "=-=")], people[:2])
    six = section(tmp_path, "202607200253-6", [(1, 1, 2, "1-0")], [people[0], people[2]])
    for path, name in ((five, "Open"), (six, "Under 1800")):
        text = path.read_text("utf-8").replace("2026/08/01", "2026/07/20")
        path.write_text(text.replace("012 Test Open", f"012 {name}"), "utf-8")
    code, out, err = run_apart("add", five, six, "--db", db)
    assert code == 0, out + err
    code, out, err = run_apart("publish", "2026-08", "--db", db, "--out", tmp_path / "out")
    assert code == 0, out + err
    assert msa_rows(tmp_path / "out" / "2026-08" / "standard") == [
        ["1", "One, Ann", "0.5", "D 2"],
        ["", "11 / R: 1500 → 1500", "", "W"],
        ["2", "Two, Bea", "0.5", "D 1"],
        ["", "12 / R: 1500 → 1500", "", "B"],
        ["1", "One, Ann", "1.0", "W 2"],
        ["", "11 / R: 1500 → 1521", "", "W"],
        ["2", "Three, Cy", "0.0", "L 1"],
        ["", "13 / R: 1500 → 1479", "", "B"],
    ]
    # Unpublished, the period is published again into the same folder: msa.html is ours.
    assert run_apart("unpublish", "2026-08", "--db", db)[0] == 0
    code, out, err = run_apart("publish", "2026-08", "--db", db, "--out", tmp_path / "out")
    assert code == 0, out + err
    # The public site carries it beside the period's page, which names it.
    carried = tmp_path / "out" / "site" / "2026-08" / "standard" / "files"
    assert (carried / "msa.html").read_bytes() == (
        tmp_path / "out" / "2026-08" / "standard" / "msa.html"
    ).read_bytes()
    assert "msa.html" in (carried / "index.html").read_text("utf-8")
    # player: the ratings whole, K to two decimals as §9.13's examples (45.54), not 45.5361.
    code, printed, err = run_apart("player", "11", "--db", db)
    assert code == 0, printed + err
    values = printed[printed.index("  202607200253-6\n") :].split("\n    Rd")[0]
    assert " · rating 1500 · N 31 · " in values
    assert " · K 45.54 · " in values
    assert values.rstrip().endswith("post-event 1521")


def test_each_column_has_a_heading_of_its_own(tmp_path: Path) -> None:
    # The reports head a column by the system's notation: two columns of players.csv or of
    # calculations.csv under one heading ("record" before and after, "floor" set and in
    # force) cannot be told apart; and N' is the effective games (§9.5), not a total.
    from rating_batch.systems.uscf import UscfSystem

    first, second, state = two_sections(tmp_path)
    out = tmp_path / "out"
    assert run("rate", first, second, "--rules", "uscf", "--list", state, "--out", out)[0] == 0
    notation = UscfSystem.notation
    for name in ("players.csv", "calculations.csv"):
        columns = list(rows(out / name)[0])
        headings = [notation.get(c, (c, 0))[0] for c in columns]
        assert len(set(headings)) == len(headings), (name, sorted(headings))
    assert notation["n_eff"][0] == "N'"
    assert all("N′" not in heading for heading, _ in notation.values())


def test_player_rounds_a_rating_as_the_list_does(tmp_path: Path) -> None:
    # One and Two, 1500.5 on 30 games each, draw: nobody moves (K·(0.5 − 0.5) = 0, no bonus
    # with m = 1). list.csv and msa.html show 1501 (half away from zero, §9.11); `player`
    # showed 1500 (Python's format rounds a tie to even): the same rating, told two ways.
    from db_helpers import run as run_apart

    listed(tmp_path, 'id,name,rating,games_total\n11,"One, Ann",1500.5,30\n'
           '12,"Two, Bea",1500.5,30\n')  # fmt: skip
    event = tmp_path / "202607200253-5.trf"
    event.write_text(trf([P(1, "One, Ann", None, 11), P(2, "Two, Bea", None, 12)],
                         [(1, 1, 2, "=-=")], start="2026/07/20", end="2026/07/20"))  # fmt: skip
    db = tmp_path / "t.sqlite"
    for args in (
        ("init", "--list", tmp_path / "list.csv", "--period", "2026-07", "--rules", "uscf"),
        ("add", event),
        ("publish", "2026-08", "--out", tmp_path / "out"),
    ):
        code, out, err = run_apart(*args, "--db", db)
        assert code == 0, out + err
    listing = {r["id"]: r for r in rows(tmp_path / "out" / "2026-08" / "standard" / "list.csv")}
    assert listing["11"]["rating"] == "1501"
    code, printed, err = run_apart("player", "11", "--db", db)
    assert code == 0, printed + err
    assert "  rating 1501 · N 30 → post-event 1501 · " in printed
    # The period's page and the site's player page, alike.
    for page in (
        tmp_path / "out" / "2026-08" / "standard" / "index.html",
        tmp_path / "out" / "site" / "players" / "11.html",
    ):
        cells = {cell for row in read_page(page.read_text("utf-8")).rows for cell in row}
        assert "1501" in cells and "1500" not in cells, page


def test_the_readme_sample_shows_each_pre_rating_where_the_msa_does(tmp_path: Path) -> None:
    # The README's `rate sample_data/events --rules uscf`: nobody has a US Chess rating, so
    # players.csv's pre-rating column is empty ("0 rated, 136 new"). San Felipe (FIDE 1731, a
    # section ending 2018-06-10, before 2024-03-01): 0.94 · 1731 + 180 = 1807.14 on N = 5
    # (1731 ≤ 2150), §9.4; he plays 7 games: P5 + 7 = P12 after. The crosstable shows
    # 1807P5*, the * saying it is a FIDE rating converted.
    sample = Path(__file__).parent.parent / "sample_data" / "events"
    out = tmp_path / "out"
    code, output = run("rate", sample, "--rules", "uscf", "--out", out)
    assert code == 0, output
    found = [row for row in msa_rows(out) if row[1].startswith("2289970 / ")]
    assert len(found) == 1
    line = found[0][1]
    assert line.startswith("2289970 / R: 1807P5* → ") and line.endswith("P12"), line
    page = read_page((out / "msa.html").read_text("utf-8"))
    assert any(text.startswith("* no US Chess rating: the pre-event rating is the player's "
                               "FIDE rating converted") for text in page.paragraphs)  # fmt: skip


def test_a_games_count_with_a_fraction_is_refused_at_its_line(tmp_path: Path) -> None:
    # §9.3: N counts rated games; 10.5 entered K as given (Alpha 1558, not 1561) and the
    # crosstable rounded it to P10 where the players table said 11.
    listed(tmp_path, 'id,name,rating,games_total\n101,"Alpha, A",1500.5,10.5\n'
           '102,"Beta, B",1600,30\n')  # fmt: skip
    code, out = run("check", tmp_path / "list.csv", "--rules", "uscf")
    assert code == 1
    assert (
        f"{tmp_path / 'list.csv'}:2: games_total 10.5 is not a whole number: the number of "
        "rated games (N)"
    ) in out


def test_the_site_event_page_shows_what_the_calculation_used(tmp_path: Path) -> None:
    # docs/site.md (event page): the rating before is the one the calculation used, rounded
    # as list.csv rounds (half away from zero, §9.11): 1500.5 → 1501; Delta, without a US
    # Chess rating, starts from his FIDE 1600 converted (§9.4, Step 1: 1433.72 → 1434, the
    # MSA's "1434P5*"). Games as list.csv counts them (played, no forfeit); the score as the
    # MSA totals it, byes and forfeits in: Beta lost to Alpha (0), won by forfeit (1) and had
    # a U bye (1): 1 game, 2 points; Eps a half-point bye, a forfeit lost, a win: 1 game, 1½.
    listed(tmp_path, "id,name,rating,games_total\n101,\"Alpha, A\",1500.5,10\n"
           "102,\"Beta, B\",1700.5,30\n103,\"Gamma, C\",1200.5,30\n"
           "105,\"Eps, E\",1399.5,3\n")  # fmt: skip
    people = [P(1, "Alpha, A", None, 101, 1980), P(2, "Beta, B", None, 102, 1980),
              P(3, "Gamma, C", None, 103, 1980),
              P(4, "Delta, D", 1600, None, 1990, federation="USA"),
              P(5, "Eps, E", None, 105, 1980)]  # fmt: skip
    games = [(1, 1, 2, "1-0"), (1, 3, 4, "=-="), (1, 5, None, "H"), (2, 4, 1, "0-1"),
             (2, 2, 5, "+--"), (2, 3, None, "F"), (3, 1, 3, "=-="), (3, 5, 4, "1-0"),
             (3, 2, None, "U")]  # fmt: skip
    key = "202603010001-1"
    path = tmp_path / f"{key}.trf"
    path.write_text(trf(people, games, start="2026/02/01", end="2026/02/03"), "utf-8")
    from db_helpers import run as run_apart

    db = tmp_path / "u.sqlite"
    for args in (("init", "--list", tmp_path / "list.csv", "--period", "2026-02", "--db", db,
                  "--rules", "uscf"), ("add", path, "--db", db),
                 ("publish", "2026-03", "--db", db, "--out", tmp_path / "out")):  # fmt: skip
        code, out, err = run_apart(*args)
        assert code == 0, out + err
    standard = tmp_path / "out" / "site" / "2026-03" / "standard"
    page = read_page((standard / "event" / f"{key}.html").read_text("utf-8"))
    listing = by_id(tmp_path / "out" / "2026-03" / "standard")
    assert [row[2:5] for row in page.rows[1:]] == [
        ["3", "2½", "1501"],  # Alpha
        ["1", "2", "1701"],  # Beta
        ["2", "2", "1201"],  # Gamma: F is a full-point bye
        ["1", "1½", "1400"],  # Eps
        ["3", "½", "1434"],  # Delta
    ]
    assert [listing[i]["games"] for i in ("101", "102", "103", "105")] == ["3", "1", "2", "1"]
    # The crosstable it links: its section of msa.html, which the site carries.
    assert f"../files/msa.html#s-{key}" in page.links
    assert f'id="s-{key}"' in (standard / "files" / "msa.html").read_text("utf-8")
