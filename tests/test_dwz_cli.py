"""The DWZ through the command line (docs/systems.md §10): ``rate --rules dwz --list`` over
TRF files in the DSB's order, a first DWZ and its opponents, Restpartien carried by the
list, rules files, and lists the DWZ cannot hold."""

from __future__ import annotations

from pathlib import Path

import openpyxl
from conftest import read_csv as rows
from db_helpers import run_combined as run
from html_text import read_page
from trf_text import P, trf

ADULT = 1980


def players(out: Path) -> dict[str, dict[str, str]]:
    return {row["id"]: row for row in rows(out / "players.csv")}


def first_dwz_event(folder: Path, name: str = "B431-636-C4F.trf") -> Path:
    """Player 11 (no DWZ) against 12-16 (1200 … 2000 on the list): 1, 1, 1, ½, 0."""
    people = [P(1, "New Player", None, 11, ADULT)] + [
        P(r, f"Player {r}", None, 10 + r, ADULT) for r in range(2, 7)
    ]
    results = ["1-0", "1-0", "1-0", "=-=", "0-1"]
    games = [(r, 1, r + 1, results[r - 1]) for r in range(1, 6)]
    event = folder / name
    event.write_text(trf(people, games, start="2025/03/01", end="2025/03/09"), encoding="utf-8")
    return event


def pair(path: Path, second: int, result: str, start: str, end: str) -> Path:
    """An event of one game: player 11 against ``second``."""
    people = [P(1, "One", None, 11, ADULT), P(2, f"Player {second}", None, second, ADULT)]
    path.write_text(trf(people, [(1, 1, 2, result)], start=start, end=end), encoding="utf-8")
    return path


def dwz_list(folder: Path, extra: tuple[str, ...] = ()) -> Path:
    path = folder / "list.csv"
    lines = ["id,rating,index,uplifted,restpartien"]
    lines += [f"{10 + r},{1000 + 200 * (r - 1)},20,false," for r in range(2, 7)]
    path.write_text("\n".join([*lines, *extra]) + "\n", encoding="utf-8")
    return path


def test_a_first_dwz_and_its_opponents_through_the_cli(tmp_path: Path) -> None:
    # docs/systems.md §10.6: Rc 1600, start 1748, five integer steps to 1822 (worked out in
    # tests/systems/test_dwz.py). Each opponent then counts his game against 1822:
    #   1200, lost: We = P(−622) = 0.013935; E0 = 1.2⁴ + 15 = 17.07, SBr = e^(100/150) − 1 =
    #         0.947734 (W < We), E = 18.02 → 18; Rn = 1200 − 800 · 0.013935/19 = 1199.41 → 1199
    #   1800, ½: We = P(−22) = 0.469001; E = 25.50 → 25; 1800 + 800 · 0.030999/26 = 1800.95 → 1801
    #   2000, won: We = 0.735432; E 31 → 30; 2000 + 800 · 0.264568/31 = 2006.83 → 2007
    out = tmp_path / "out"
    code, output = run("rate", first_dwz_event(tmp_path), "--rules", "dwz",
                       "--list", dwz_list(tmp_path), "--out", out)  # fmt: skip
    assert code == 0, output
    got = players(out)
    assert (got["11"]["new_rating"], got["11"]["new_index"], got["11"]["status"]) == (
        "1822", "1", "new",
    )  # fmt: skip
    assert got["11"]["stage"] == "1" and float(got["11"]["performance"]) == 1822.0
    new = {key: (got[key]["new_rating"], got[key]["new_index"]) for key in ("12", "15", "16")}
    assert new == {"12": ("1199", "21"), "15": ("1801", "21"), "16": ("2007", "21")}
    assert got["12"]["e"] == "18" and got["12"]["status"] == "rated"
    calculations = [row for row in rows(out / "calculations.csv") if row["id"] == "12"]
    assert len(calculations) == 1
    row = calculations[0]
    assert (row["opponent_rating"], row["d"], row["r0"], row["r0_source"]) == (
        "1822.0", "-622.0", "1200", "DWZ",
    )  # fmt: skip
    assert abs(float(row["sbr"]) - 0.947734) < 1e-6
    # A first DWZ's values are not an established player's.
    assert (row["stage"], row["steps"], row["restpartien_used"], row["rp"]) == ("", "", "", "")
    # The first DWZ's own rows: no R0; Rp, Ri and the steps of the iteration.
    mine = [row for row in rows(out / "calculations.csv") if row["id"] == "11"]
    assert {(r["r0"], r["r0_source"], r["ri"], r["steps"], r["floored"]) for r in mine} == {
        ("", "", "1822", "5", "false"),
    }  # fmt: skip


def test_events_of_one_end_date_are_rated_by_key_not_start(tmp_path: Path) -> None:
    # "B" starts first, "A" later; both end 2025-03-09: A is rated first (§8). Player 11
    # (1500) beats 12 (1500) in A: 1500 + 800 · 0.5/21 = 1519.05 → 1519 (E 20); in B he meets
    # 13 (1519) at R0 1519.
    a = pair(tmp_path / "A.trf", 12, "1-0", "2025/03/05", "2025/03/09")
    b = pair(tmp_path / "B.trf", 13, "=-=", "2025/03/01", "2025/03/09")
    listed = tmp_path / "list.csv"
    listed.write_text("id,rating,index\n11,1500,10\n12,1500,10\n13,1519,10\n")
    out = tmp_path / "out"
    code, output = run("rate", b, a, "--rules", "dwz", "--list", listed, "--out", out)
    assert code == 0, output
    mine = {row["event"]: row["r0"] for row in rows(out / "calculations.csv") if row["id"] == "11"}
    assert mine == {"A": "1500", "B": "1519"}
    assert players(out)["11"]["new_index"] == "12"


def test_restpartien_from_the_list_and_stored_back(tmp_path: Path) -> None:
    # Player 11 has no DWZ and two stored results; here 1 of 2 against 1200 and 1400 (two
    # rounds): 4 results, still too few: all four are stored, the new ones dated 2025-03-09.
    people = [P(1, "New", None, 11, ADULT), P(2, "A", None, 12, ADULT), P(3, "B", None, 13, ADULT)]
    event = tmp_path / "e.trf"
    event.write_text(trf(people, [(1, 1, 2, "1-0"), (2, 3, 1, "1-0")], start="2025/03/01",
                         end="2025/03/09"))  # fmt: skip
    listed = tmp_path / "list.csv"
    listed.write_text("id,rating,index,uplifted,restpartien\n11,,,,2024-05-01/1500/1;"
                      "2024-06-01/1600/½\n12,1200,20,false,\n13,1400,20,false,\n")  # fmt: skip
    out = tmp_path / "out"
    code, output = run("rate", event, "--rules", "dwz", "--list", listed, "--out", out)
    assert code == 0, output
    got = players(out)["11"]
    assert got["status"] == "unrated" and got["new_rating"] == ""
    assert got["new_restpartien"] == (
        "2024-05-01/1500/1;2024-06-01/1600/½;2025-03-09/1200/1;2025-03-09/1400/0"
    )
    # Their opponents' games did not count: unchanged.
    assert players(out)["12"]["new_rating"] == "1200"


def test_a_rules_file_fixes_an_edition(tmp_path: Path) -> None:
    rules = tmp_path / "dsb.toml"
    rules.write_text('system = "dwz"\n[dwz]\nedition = "dwz-2002"\n')
    out = tmp_path / "out"
    code, output = run("rate", first_dwz_event(tmp_path), "--rules", rules,
                       "--list", dwz_list(tmp_path), "--out", out)  # fmt: skip
    assert code == 0, output
    assert {row["edition"] for row in rows(out / "calculations.csv")} == {"dwz-2002"}
    bad = tmp_path / "bad.toml"
    bad.write_text('system = "dwz"\n[dwz]\nedition = "dwz-1999"\n')
    code, output = run("rate", first_dwz_event(tmp_path), "--rules", bad, "--out", out)
    assert code == 1
    assert "edition" in output and "must be one of by-end-date, dwz-2002" in output


def test_a_list_the_dwz_cannot_hold_names_each_line_and_writes_nothing(tmp_path: Path) -> None:
    listed = dwz_list(tmp_path, ("17,0,3,false,", "18,1500,2,perhaps,",
                                 "19,,,,2024-05-01/1500/2", "20,1500,,false,",
                                 "21,1500.5,3,false,"))  # fmt: skip
    out = tmp_path / "out"
    code, output = run("rate", first_dwz_event(tmp_path), "--rules", "dwz",
                       "--list", listed, "--out", out)  # fmt: skip
    assert code == 1
    for message in (
        f"{listed}:7: rating 0 is out of range for dwz (1 to 3999)",
        f"{listed}:8: uplifted 'perhaps' is not true or false",
        f"{listed}:9: restpartien: '2' in '2024-05-01/1500/2' is not a score 1, ½ or 0",
        f"{listed}:10: rating, index: give all of them or none",
        f"{listed}:11: rating '1500.5' is not a whole number",
    ):
        assert message in output, output
    assert "Traceback" not in output and not out.exists()


def test_the_birth_year_of_the_list_gives_the_age(tmp_path: Path) -> None:
    # The file gives 1980 for everyone; the list says player 16 (2000) was born in 2008:
    # age 17 in 2025, J = 5, E0 = 2⁴ + 5 = 21, fB = 2000/2000 = 1 (W ≥ We), E 21;
    # Rn = 2000 + 800 · 0.264568/22 = 2009.62 → 2010 (as an adult: 2007, above).
    listed = tmp_path / "list.csv"
    listed.write_text("id,rating,index,birth_year\n" + "".join(
        f"{10 + r},{1000 + 200 * (r - 1)},20,{2008 if r == 6 else ''}\n" for r in range(2, 7)
    ))  # fmt: skip
    out = tmp_path / "out"
    code, output = run("rate", first_dwz_event(tmp_path), "--rules", "dwz",
                       "--list", listed, "--out", out)  # fmt: skip
    assert code == 0, output
    assert (players(out)["16"]["e"], players(out)["16"]["new_rating"]) == ("21", "2010")


def test_a_run_crossing_the_uplift_date_lists_every_player_of_the_list(tmp_path: Path) -> None:
    # docs/systems.md §10.8: player 99 is on the list only; the event ends 2026-06-10, so his
    # 1500 (index 10) becomes 0.64 · 1500 + 760 = 1720, index 11.
    event = pair(tmp_path / "e.trf", 12, "=-=", "2026/06/09", "2026/06/10")
    listed = tmp_path / "list.csv"
    listed.write_text("id,name,rating,index\n11,One,1500,10\n12,Two,1500,10\n99,Idle,1500,10\n")
    out = tmp_path / "out"
    code, output = run("rate", event, "--rules", "dwz", "--list", listed, "--out", out)
    assert code == 0, output
    idle = players(out)["99"]
    assert (idle["name"], idle["new_rating"], idle["new_index"], idle["new_uplifted"]) == (
        "Idle", "1720", "11", "true",
    )  # fmt: skip
    assert idle["status"] == "rated" and idle["games"] == "0"
    assert players(out)["11"]["new_rating"] == "1720"  # a draw at 1720 after the uplift


def evaluation(page: Path) -> tuple[list[list[str]], list[str]]:
    """The Turnierauswertung's rows (heading first) and the page's paragraphs."""
    reader = read_page(page.read_text(encoding="utf-8"))
    start = reader.rows.index(["Nr.", "Name", "DWZ alt", "Punkte", "Partien", "We", "E",
                               "Leistung", "DWZ neu"])  # fmt: skip
    table = [reader.rows[start]]
    for row in reader.rows[start + 1 :]:
        if len(row) != 9 or not row[0].isdigit():
            break
        table.append(row)
    return table, reader.paragraphs


def test_the_rate_page_is_the_dsb_turnierauswertung_with_worked_lines(tmp_path: Path) -> None:
    # The event of test_a_first_dwz_and_its_opponents_through_the_cli (numbers there), as
    # the DSB prints it: best score first, DWZ as rating-index, We to 3 decimals with a
    # decimal comma, E and the Leistung whole. 2000 wins against 1822: E0 = 2⁴ + 15 = 31
    # → E 30 (the most without a brake); Rn = 2000 + 800 × (1 − 0.735432)/(30 + 1) =
    # 2006.83 → 2007. 1200 loses: E0 = 1.2⁴ + 15 = 17.0736, SBr = e^(100/150) − 1 = 0.9477,
    # E = 18.0213 → 18 (E0 and its sums to 4 decimals, §10.9);
    # Rn = 1200 − 800 × 0.013935/19 = 1199.41 → 1199.
    out = tmp_path / "out"
    code, output = run("rate", first_dwz_event(tmp_path), "--rules", "dwz",
                       "--list", dwz_list(tmp_path), "--out", out)  # fmt: skip
    assert code == 0, output
    table, paragraphs = evaluation(out / "index.html")
    assert table[1:3] == [
        ["1", "New Player", "", "3½", "5", "", "", "1822", "1822-1"],
        ["2", "Player 6", "2000-20", "1", "1", "0,735", "30", "", "2007-21"],
    ]
    assert table[6] == ["6", "Player 2", "1200-20", "0", "1", "0,014", "18", "", "1199-21"]
    for line in (
        "E0 = (2000/1000)^4 + 15 = 31,0000 → E = 30 (höchstens 30)",
        "Rn = 2000 + 800 × (1 − 0,735) / (30 + 1) = 2007",
        "E0 = (1200/1000)^4 + 15 = 17,0736; + SBr 0,9477 = 18,0213 → E = 18",
        "Rn = 1200 + 800 × (0 − 0,014) / (18 + 1) = 1199",
        "Erst-DWZ 1822-1",
    ):
        assert line in paragraphs, line
    # The DSB's symbols head every table, never calculations.csv's keys.
    text = (out / "index.html").read_text(encoding="utf-8")
    for key in ("r0_source", "new_uplifted", "new_restpartien", "floored", "performance"):
        assert f">{key}<" not in text, key
    # The Leistung is whole on the page, as the DSB publishes it (players.csv keeps Rh).
    players_table = read_page(text).rows
    head = next(row for row in players_table if "Leistung" in row and "DWZ neu" in row
                and "Nr." not in row)  # fmt: skip
    new_player = next(row for row in players_table if len(row) == len(head)
                      and "New Player" in row)  # fmt: skip
    assert new_player[head.index("Leistung")] == "1822"


def test_the_report_workbook_holds_the_turnierauswertung(tmp_path: Path) -> None:
    out = tmp_path / "out"
    code, output = run("rate", first_dwz_event(tmp_path), "--rules", "dwz",
                       "--list", dwz_list(tmp_path), "--out", out)  # fmt: skip
    assert code == 0, output
    book = openpyxl.load_workbook(out / "report.xlsx", read_only=True)
    assert book.sheetnames[:2] == ["Summary", "Turnierauswertung"]
    rows = [[c for c in row if c is not None] for row in book["Turnierauswertung"].values]
    # Numbers as numbers (a spreadsheet calculates with them and shows them in its own
    # locale: 0,735 in German); DWZ-Index as the DSB writes it.
    assert [2, "Player 6", "2000-20", 1, 1, 0.735, 30, "2007-21"] in rows
    assert ["Player 6", "Rn = 2000 + 800 × (1 − 0,735) / (30 + 1) = 2007"] in rows
    # The Players sheet is headed in the DSB's symbols.
    heads = next(r for r in book["Players"].values if r and "DWZ neu" in r)
    assert "new_rating" not in heads and "Leistung" in heads


def test_the_2026_uplift_is_its_own_line_where_it_acts(tmp_path: Path) -> None:
    # docs/systems.md §10.8: the first event ending on or after 2026-06-08 maps the list:
    # 0.64 × 1912 + 760 = 1983.68 → 1984, index 87 + 1 = 88; 0.64 × 1500 + 760 = 1720.
    # Müller (born 1971, 55 at the end: J 15) then plays at 1984-88:
    # E0 = 1.984⁴ + 15 = 15.4941 + 15 = 30.4941 → E 30 (rounded; the most is 30 too).
    people = [P(1, "Müller, Jürgen", None, 11, 1971), P(2, "Groß, Dörte", None, 12, 1971)]
    event = tmp_path / "koeln-juni.trf"
    event.write_text(trf(people, [(1, 1, 2, "=-=")], start="2026/06/18", end="2026/06/20"),
                     encoding="utf-8")  # fmt: skip
    listed = tmp_path / "list.csv"
    listed.write_text("id,rating,index,uplifted\n11,1912,87,false\n12,1500,20,false\n")
    out = tmp_path / "out"
    code, output = run("rate", event, "--rules", "dwz", "--list", listed, "--out", out)
    assert code == 0, output
    table, paragraphs = evaluation(out / "index.html")
    assert [row[1:3] for row in table[1:]] == [["Müller, Jürgen", "1984-88"],
                                               ["Groß, Dörte", "1720-21"]]  # fmt: skip
    assert "DWZ 1912-87 → 1984-88 durch die Umstufung 2026 (0,64 × 1912 + 760)" in paragraphs
    assert "DWZ 1500-20 → 1720-21 durch die Umstufung 2026 (0,64 × 1500 + 760)" in paragraphs
    assert "E0 = (1984/1000)^4 + 15 = 30,4941 → E = 30" in paragraphs


def test_the_uplift_note_counts_the_dwzs_it_mapped(tmp_path: Path) -> None:
    # docs/systems.md §10.8: of the event's players, 12, 13 and 14 have a DWZ not yet
    # uplifted (mapped: 3), 15 is on the list as uplifted already (not mapped again), 11 has
    # none (his first DWZ is made on the new scale: nothing mapped). 3 mapped, not 5.
    people = [P(1, "New", None, 11, ADULT)] + [
        P(r, f"Player {r}", None, 10 + r, ADULT) for r in range(2, 6)
    ]
    games = [(r, 1, r + 1, "1-0") for r in range(1, 5)] + [(5, 2, 3, "=-=")]
    event = tmp_path / "sommer.trf"
    event.write_text(trf(people, games, start="2026/06/10", end="2026/06/20"), "utf-8")
    listed = tmp_path / "list.csv"
    listed.write_text("id,rating,index,uplifted\n12,1011,3,false\n13,1912,87,false\n"
                      "14,1400,20,false\n15,1800,20,true\n")  # fmt: skip
    out = tmp_path / "out"
    code, output = run("rate", event, "--rules", "dwz", "--list", listed, "--out", out)
    assert code == 0, output
    page = read_page((out / "index.html").read_text("utf-8"))
    notes = [text for text in page.paragraphs if "uplift (§10.8)" in text]
    assert any("mapped the DWZ of 3 player(s) before the first event" in t for t in notes), notes
    assert not any("mapped the DWZ of 5" in t or "mapped 5" in t for t in notes)


def test_a_dsb_evaluation_row_and_its_worked_line_as_checked_by_hand(tmp_path: Path) -> None:
    # An officer's check (docs/systems.md §10.5): Müller, 1912-87, aged 55 (J 15), 3 points
    # from 5 games against 1545, 1780, 1790, 1805 and 1810 (Rc 1746).
    #   We = Σ Φ((1912 − Ri)/(200·√2)) = 0.9028 + 0.6796 + 0.6669 + 0.6474 + 0.6408 = 3.5375
    #   E0 = (1912/1000)⁴ + 15 = 13.3645 + 15 = 28.3645 → E 28 (index 87: at most 30)
    #   Rn = 1912 + 800 × (3 − 3.5375)/(28 + 5) = 1898.97 → 1899, index 88
    #   Rh: the root of Σ P(Rh − Ri) = 3 is 1824.9; the DSB's integer steps may end one off.
    others = (1545, 1780, 1790, 1805, 1810)
    people = [P(1, "Müller, Jürgen", None, 11, 1971)] + [
        P(r, f"Gegner {r}", None, 10 + r, ADULT) for r in range(2, 7)
    ]
    results = ["1-0", "1-0", "1-0", "0-1", "0-1"]
    event = tmp_path / "koeln.trf"
    event.write_text(trf(people, [(r, 1, r + 1, results[r - 1]) for r in range(1, 6)],
                         start="2026/03/13", end="2026/03/15"), encoding="utf-8")  # fmt: skip
    listed = tmp_path / "list.csv"
    rows_ = [f"{10 + r},{rating},20" for r, rating in zip(range(2, 7), others, strict=True)]
    listed.write_text("\n".join(["id,rating,index", "11,1912,87", *rows_]) + "\n")
    out = tmp_path / "out"
    code, output = run("rate", event, "--rules", "dwz", "--list", listed, "--out", out)
    assert code == 0, output
    table, paragraphs = evaluation(out / "index.html")
    muller = table[1]
    assert muller[:7] + muller[8:] == ["1", "Müller, Jürgen", "1912-87", "3", "5", "3,538", "28",
                                       "1899-88"]  # fmt: skip
    assert abs(int(muller[7]) - 1825) <= 1
    assert "E0 = (1912/1000)^4 + 15 = 28,3645 → E = 28" in paragraphs
    assert "Rn = 1912 + 800 × (3 − 3,538) / (28 + 5) = 1899" in paragraphs


def test_the_dsb_form_reaches_player_and_the_site(tmp_path: Path) -> None:
    # The event of test_the_2026_uplift_is_its_own_line_where_it_acts through a database:
    # Müller 1912-87 is mapped to 1984-88 (0.64 × 1912 + 760 = 1983.68 → 1984) and draws
    # Groß (1500-20 → 1720-21): We = P(264) = Φ(264/(200·√2)) = 0.8247 → 0,825; E0 =
    # 1.984⁴ + 15 = 30.4941 → E 30; Rn = 1984 + 800 × (0.5 − 0.8247)/(30 + 1) = 1975.62 → 1976.
    from db_helpers import run as run_apart

    people = [P(1, "Müller, Jürgen", None, 11, 1971), P(2, "Groß, Dörte", None, 12, 1971)]
    event = tmp_path / "koeln-juni.trf"
    event.write_text(trf(people, [(1, 1, 2, "=-=")], start="2026/06/18", end="2026/06/20"),
                     encoding="utf-8")  # fmt: skip
    listed = tmp_path / "list.csv"
    listed.write_text("id,name,rating,index,uplifted\n11,\"Müller, Jürgen\",1912,87,false\n"
                      "12,\"Groß, Dörte\",1500,20,false\n")  # fmt: skip
    rules = tmp_path / "dsb.toml"
    rules.write_text('system = "dwz"\n\n[site]\nlanguage = "de"\n')
    db, out = tmp_path / "d.sqlite", tmp_path / "out"
    for args in (("init", "--list", listed, "--period", "2026-05", "--db", db, "--rules", rules),
                 ("add", event, "--db", db),
                 ("publish", "2026-07", "--skip-to", "--db", db, "--out", out)):  # fmt: skip
        code, printed, err = run_apart(*args)
        assert code == 0, printed + err
    lines = ["DWZ 1912-87 → 1984-88 durch die Umstufung 2026 (0,64 × 1912 + 760)",
             "E0 = (1984/1000)^4 + 15 = 30,4941 → E = 30",
             "Rn = 1984 + 800 × (0,5 − 0,825) / (30 + 1) = 1976"]  # fmt: skip
    code, printed, err = run_apart("player", "11", "--db", db, "--out", tmp_path / "p")
    assert code == 0, printed + err
    assert "\n".join(f"    {line}" for line in lines) in printed
    page = read_page(next((tmp_path / "p").rglob("player-11.html")).read_text("utf-8"))
    assert all(line in page.paragraphs for line in lines)
    # The site's player page: the same lines under his calculation.
    text = (out / "site" / "players" / "11.html").read_text("utf-8")
    assert all(line in text for line in lines)
    # The event page: before, the R0 the event used (1984-88), not the list's 1912.
    key = "koeln-juni"
    shown = read_page((out / "site" / "2026-07" / "standard" / "event" / f"{key}.html")
                      .read_text("utf-8")).rows  # fmt: skip
    assert [row[0::4] for row in shown[1:]] == [["Groß, Dörte", "1720-21"],
                                                ["Müller, Jürgen", "1984-88"]]  # fmt: skip
