"""``player`` (monthly/player.py): FIDE IDs only, --name to search; read-only."""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import DATA
from db_helpers import (
    ADULT,
    NEWBIE,
    add_one_game,
    database,
    event_file,
    newcomer_database,
    rows,
    run,
    three_lists_database,
)
from openpyxl import load_workbook
from trf_text import P, trf
from workbooks import table


def test_a_number_that_is_no_fide_id_shows_nobody(tmp_path: Path) -> None:
    db = database(tmp_path)
    code, _, err = run("player", "1", "--db", db)  # the database's first row is FIDE ID 11
    assert (code, err) == (
        1,
        f"Error: no player with FIDE ID 1 in {db} ('rating-batch player --name TEXT' searches "
        "by name)\n",
    )
    code, _, err = run("player", "jan#3", "--db", db)
    assert (code, err) == (
        1,
        f"Error: no player without a FIDE ID whose id is jan#3 in {db} ('rating-batch player "
        "--name TEXT' searches by name)\n",
    )
    code, _, err = run("player", "--db", db)
    assert code == 2 and "give an ID (a FIDE ID, or n1#7 for one without), or --name TEXT" in err


@pytest.mark.parametrize(
    "typed",
    ["99999999999999999999999", "9223372036854775808", "12345678901", "¹²", "٩٠٠٠٠٠٠٠١"],
    ids=["23-digits", "2-to-the-63", "11-digits", "superscripts", "arabic-indic-900000001"],
)
def test_an_over_long_or_non_ascii_number_is_no_fide_id(typed: str, tmp_path: Path) -> None:
    db = database(tmp_path, "11,1600", "900000001,1500")
    assert run("player", typed, "--db", db) == (
        1,
        "",
        f"Error: {typed!r} is not a FIDE ID (digits only) nor the id of a player without one "
        "(<event>#<start rank>, as the lists print it) nor a player's national id in the "
        "database; 'rating-batch player --name TEXT' "
        "finds players by name, with or without a FIDE ID\n",
    )


def test_a_fide_id_has_up_to_ten_digits(tmp_path: Path) -> None:
    db = database(tmp_path, "11,1600", "900000001,1500")
    assert run("player", "9999999999", "--db", db) == (
        1,
        "",
        f"Error: no player with FIDE ID 9999999999 in {db} ('rating-batch player --name TEXT' "
        "searches by name)\n",
    )
    code, out, _ = run("player", "0900000001", "--db", db)  # ten digits, a leading zero
    assert code == 0 and "(FIDE ID 900000001, " in out.splitlines()[0]


def test_players_are_found_by_name_accents_and_order_aside(tmp_path: Path) -> None:
    db = database(tmp_path)
    players = [
        P(1, "Żółć, Łukasz", None, None, 2001, federation="POL"),
        P(2, "Zolc, Anna", None, None, 2003, federation="POL"),
        P(3, "B", 1500, 12, 1980),
    ]
    event = event_file(tmp_path, "open", [(1, 1, 3, "1-0"), (2, 2, 3, "0-1")], players=players)
    assert run("add", event, "--db", db)[0] == 0
    code, out, _ = run("player", "--name", "zolc", "--db", db)
    assert code == 0
    assert out.splitlines() == [
        "2 players named like 'zolc':",
        "  Żółć, Łukasz, POL, born 2001: no FIDE ID (open#1)",
        "  Zolc, Anna, POL, born 2003: no FIDE ID (open#2)",
        "'rating-batch player ID' shows one: the FIDE ID, or the id in brackets",
    ]
    code, out, _ = run("player", "--name", "lukasz zolc", "--db", db)
    assert code == 0 and out.startswith("Żółć, Łukasz (no FIDE ID, open#1, POL, born 2001)")


def test_player_history_lists_every_kind(folder: Path) -> None:
    db = folder / "r.sqlite"
    path = DATA / "lists" / "fide_players_list_foa_txt_2026-10-excerpt.txt"
    run("init", "--list", path, "--period", "2026-10", "--db", db)
    code, out, _ = run("player", "1503014", "--db", db)
    assert code == 0
    assert out.splitlines()[0] == "GM Carlsen, Magnus (FIDE ID 1503014, NOR, born 1990)"
    assert [line for line in out.splitlines() if line.endswith("(rating after each list)")] == [
        "standard list history (rating after each list)",
        "rapid list history (rating after each list)",
        "blitz list history (rating after each list)",
    ]
    assert "  2026-10     2801  10    12" in out
    assert run("player", "999", "--db", db)[0] == 1


def test_player_workbook_with_a_rating_history_chart(folder: Path) -> None:
    from openpyxl import load_workbook

    db = database(folder)
    add_one_game(folder, db)
    run("publish", "2026-02", "--db", db, "--out", folder / "out")
    code, _, _ = run("player", "11", "--db", db, "--out", folder / "reports")
    assert code == 0
    book = load_workbook(folder / "reports" / "player-11.xlsx")
    # No game pending toward a first rating: no Pending sheet (no empty page in print).
    assert book.sheetnames == ["Summary", "History", "Calculations", "Chart standard"]
    # The player's name and ID head every sheet (and every printed page).
    assert all(
        str(book[name].cell(1, 1).value).startswith("A (FIDE ID 11, -, born 1980)")
        for name in book.sheetnames
    )
    chart = book["Chart standard"]
    assert [(row["period"], row["standard rating"]) for row in table(chart)] == [
        ("2026-01", 1600),
        ("2026-02", 1607),
    ]
    assert len(chart._charts) == 1
    line = chart._charts[0].series[0]
    assert line.smooth is False and line.marker.symbol == "circle"  # no curve between lists
    # The axis spans the ratings, 1600 and 1607, a hundred below and above: not from 0.
    axis = chart._charts[0].y_axis.scaling
    assert (axis.min, axis.max) == (1500, 1700)


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    return tmp_path


# -- the individual calculation, by hand ------------------------------------------------------
#
# List 2026-01: A 11 (1600), B 12 (1500), C 13 (1410), D 14 (1700), E 15 (1650), all adults
# without K or games on the list: K 20 (30+ games assumed). N (FIDE ID 20) is unrated.
# January (period 2026-02): A beats B and N; C loses to N, B and E; D draws E and N.
# February (period 2026-03): N beats B (1500) and draws E (1655 after January).
JANUARY = [
    (1, 1, 2, "1-0"), (1, 3, 4, "0-1"), (1, 5, 6, "=-="),
    (2, 4, 1, "0-1"), (2, 2, 3, "1-0"),
    (3, 4, 5, "=-="), (3, 3, 6, "0-1"),
]  # fmt: skip


@pytest.fixture
def history(tmp_path: Path, made_once: Callable[..., Path]) -> Path:
    """``made_history``'s database (made once, copied: the player commands only read it)."""
    return made_once(made_history, tmp_path) / "r.sqlite"


def made_history(tmp_path: Path) -> Path:
    db = database(tmp_path, "11,1600", "12,1500", "13,1410", "14,1700", "15,1650")
    players = [
        P(1, "A", 1600, 11, ADULT), P(2, "B", 1500, 12, ADULT), P(3, "C", 1410, 13, ADULT),
        P(4, "N", None, 20, ADULT), P(5, "D", 1700, 14, ADULT), P(6, "E", 1650, 15, ADULT),
    ]  # fmt: skip
    (tmp_path / "jan.trf").write_text(
        trf(players, JANUARY, name="January Open", start="2026/01/10", end="2026/01/12")
    )
    february = [P(1, "N", None, 20, ADULT), P(2, "B", 1500, 12, ADULT), P(3, "E", 1655, 15, ADULT)]
    (tmp_path / "feb.trf").write_text(
        trf(february, [(1, 1, 2, "1-0"), (2, 3, 1, "=-=")], name="February Cup",
            start="2026/02/10", end="2026/02/11")
    )  # fmt: skip
    assert run("add", tmp_path / "jan.trf", "--db", db)[0] == 0
    assert run("publish", "2026-02", "--db", db, "--out", tmp_path / "out")[0] == 0
    assert run("add", tmp_path / "feb.trf", "--db", db)[0] == 0
    assert run("publish", "2026-03", "--db", db, "--out", tmp_path / "out")[0] == 0
    return db


def test_a_rating_change_is_explained_event_by_event(history: Path) -> None:
    code, out, _ = run("player", "11", "--db", history)
    assert code == 0
    lines = out.splitlines()
    start = lines.index("  event January Open (jan), 2026-01-10 – 2026-01-12")
    # A beat B: D = 1600 − 1500 = 100 → PD 0.64, ΔR +0.36, K·ΔR +7.20; N (unrated) does
    # not count. Rc 1500, W 1 of n 1, We 0.64.
    assert lines[start + 1] == (
        "    Ro 1600 · Rc 1500 · W 1 of n 1 · We 0.64 · K 20 · ΣΔR +0.36 · K·ΣΔR +7.20"
    )
    # Rd, opponent, (no title, no federation), Ri, result, D, D*, PD, ΔR, K·ΔR.
    assert lines[start + 3].split() == [
        "1", "B", "1500", "1", "100", "100", "0.64", "+0.36", "+7.20"
    ]  # fmt: skip
    assert "  Rn = Ro 1600 + change +7.20 = 1607.20 → 1607" in lines
    assert max(len(line) for line in lines) <= 100


def test_a_player_below_the_floor_sees_the_computed_rating(history: Path) -> None:
    # C (1410) lost to B (D −90 → PD 0.38) and to E (D −240 → PD 0.20): ΣΔR −0.58,
    # K·ΣΔR −11.60: 1398.40 → 1398, below the floor 1400 (fide-2025).
    code, out, _ = run("player", "13", "--db", history)
    assert code == 0
    assert (
        "    Ro 1410 · Rc 1575 · W 0 of n 2 · We 0.58 · K 20 · ΣΔR -0.58 · K·ΣΔR -11.60"
        in out.splitlines()
    )
    assert (
        "computed rating 1398 = Ro 1410 + change -11.60 is below the floor 1400: off the "
        "list, unrated again" in " ".join(out.split())  # wrapped at 100 columns
    )


def test_a_first_rating_is_derived_step_by_step(history: Path) -> None:
    code, out, _ = run("player", "20", "--db", history)
    assert code == 0
    lines = out.splitlines()
    # After January (2026-02): 3 games, 1410 won, 1600 lost, 1700 drawn: with the two
    # hypothetical 1800 draws Ra = (4710 + 3600) / 5 = 1662.00, p = 2.5 / 5 = 0.50, dp 0.
    assert (
        "  Ra = (4710 + 2 × 1800) / 5 = 1662.00; p = 2.5 / 5 = 0.50, dp 0; Ru = Ra + dp = "
        "1662.00 → 1662" in lines
    )
    assert "  still unrated: pending: 3 of the 5 games against rated opponents needed" in lines
    # After February (2026-03): the 3 pooled games of 2026-02 and 1500 won, 1655 drawn:
    # 7865 + 3600 = 11465 over 7 games, Ra 1637.86; W 3 + 1 = 4 of 7, p 0.57, dp +50;
    # Ru = 1687.86 → 1688, over the floor with 5 games: published.
    # Each pooled game: the period, the event's title, the opponent's rating, the result.
    pool = [line[4:45].split() + line.split()[-2:] for line in lines if line.startswith("    20")]
    assert pool[-5:] == [
        ["2026-02", "January", "Open", "1410", "1"],
        ["2026-02", "January", "Open", "1600", "0"],
        ["2026-02", "January", "Open", "1700", "0.5"],
        ["2026-03", "February", "Cup", "1500", "1"],
        ["2026-03", "February", "Cup", "1655", "0.5"],
    ]
    assert (
        "  Ra = (7865 + 2 × 1800) / 7 = 1637.86; p = 4 / 7 = 0.57, dp +50; Ru = Ra + dp = "
        "1687.86 → 1688" in lines
    )
    assert "  first rating 1688: on the list from 2026-03" in lines


def test_the_explanation_is_written_as_a_workbook_and_a_page(history: Path) -> None:
    from html_text import read_page
    from openpyxl import load_workbook

    out = history.parent / "reports"
    assert run("player", "20", "--db", history, "--out", out)[0] == 0
    page = read_page((out / "player-20.html").read_text(encoding="utf-8"))
    assert "first rating 1688: on the list from 2026-03" in page.paragraphs
    assert [row[-2:] for row in page.rows if row[:2] == ["2026-03", "February Cup"]] == [
        ["1500", "1"], ["1655", "½"],
    ]  # fmt: skip
    book = load_workbook(out / "player-20.xlsx")
    rows = table(book["Calculations"])
    derivation = next(r for r in rows if r["event"] == "first rating" and r["period"] == "2026-03")
    assert (derivation["n"], derivation["W"], derivation["Ra"], derivation["Ru"]) == (
        5, 3, 1637.86, 1688,
    )  # fmt: skip


# -- event keys holding a line break, as versions that kept a file name's newline stored them --


def test_a_key_with_a_newline_loses_none_of_the_players_games(tmp_path: Path) -> None:
    db = database(tmp_path)  # 11 at 1600, 12 at 1500; K 20 (adults, 30+ games assumed)
    two = event_file(tmp_path, "e2", [(1, 1, 2, "=-=")], day="2026/01/17", title="Event Two")
    one = event_file(tmp_path, "ev_line", [(1, 1, 2, "1-0"), (2, 2, 1, "=-=")], title="Event One")
    assert run("add", two, one, "--db", db)[0] == 0
    connection = sqlite3.connect(db)
    with connection:
        connection.execute(
            "UPDATE events SET key = 'ev' || char(10) || 'line' WHERE key = 'ev_line'"
        )
    connection.close()
    assert run("publish", "2026-02", "--db", db, "--out", tmp_path / "out")[0] == 0
    code, out, err = run("player", "11", "--db", db)
    assert code == 0, err
    lines = out.splitlines()
    # D = 1600 - 1500 = 100 in every game: PD 0.64. Event Two: a draw, ΔR -0.14, K·ΔR -2.80.
    # Event One: a win (+0.36, +7.20) and a draw: ΣΔR +0.22, K·ΣΔR +4.40.
    assert (
        "    Ro 1600 · Rc 1500 · W 0.5 of n 1 · We 0.64 · K 20 · ΣΔR -0.14 · K·ΣΔR -2.80" in lines
    )
    assert (
        "    Ro 1600 · Rc 1500 · W 1.5 of n 2 · We 1.28 · K 20 · ΣΔR +0.22 · K·ΣΔR +4.40" in lines
    )
    games = sorted(line.split() for line in lines if line.split()[1:2] == ["B"])
    assert games == [
        ["1", "B", "1500", "0.5", "100", "100", "0.64", "-0.14", "-2.80"],
        ["1", "B", "1500", "1", "100", "100", "0.64", "+0.36", "+7.20"],
        ["2", "B", "1500", "0.5", "100", "100", "0.64", "-0.14", "-2.80"],
    ]
    assert "  Rn = Ro 1600 + change +1.60 = 1601.60 → 1602" in lines


def test_player_names_events_by_title_and_dates_and_links_their_pages(tmp_path: Path) -> None:
    """Written into the folder publish wrote, the player's page links each event to the
    player's section of its page; the text and the workbook name the event by its title."""
    from html_text import read_page
    from openpyxl import load_workbook

    db = database(tmp_path)
    first = event_file(tmp_path, "e1", [(1, 1, 2, "1-0")], title="First Open")
    second = event_file(tmp_path, "e2", [(1, 2, 1, "=-=")], title="Second Open",
                        day="2026/01/17", end="2026/01/18")  # fmt: skip
    assert run("add", first, second, "--db", db)[0] == 0
    out = tmp_path / "site"
    assert run("publish", "2026-02", "--db", db, "--out", out)[0] == 0
    code, text, err = run("player", "11", "--db", db, "--out", out)
    assert code == 0, err
    assert "  event First Open (e1), 2026-01-10 – 2026-01-10" in text.splitlines()
    assert "  event Second Open (e2), 2026-01-17 – 2026-01-18" in text.splitlines()
    page = read_page((out / "player-11.html").read_text(encoding="utf-8"))
    assert page.links == [
        "2026-02/standard/events/e1.html#p-11",
        "2026-02/standard/events/e2.html#p-11",
    ]
    for link in page.links:
        path, anchor = link.split("#")
        assert f'id="{anchor}"' in (out / path).read_text(encoding="utf-8")
    assert [h for h in page.headings if h.endswith("Open")] == ["First Open", "Second Open"]
    rows = table(load_workbook(out / "player-11.xlsx")["Calculations"])
    assert {row["event"] for row in rows if row["event"]} == {"First Open", "Second Open"}


def test_a_player_without_a_fide_id_is_shown_by_the_id_the_lists_print(tmp_path: Path) -> None:
    # Two players named "Newbie, Sam" (ITA): n1#7 without a FIDE ID, born 2010, first rated
    # 1749 in 2026-02 (db_helpers.newcomer_database works it out), and a later one born 2011
    # with FIDE ID 955555555. --name lists both; the id in its listing shows the first.
    db, listed = newcomer_database(tmp_path)
    players = [P(1, NEWBIE["name"], None, 955555555, 2011, sex="m", federation="ITA"),
               P(2, "Idle, Ian", 1749, 17, ADULT, sex="m", federation="ITA")]  # fmt: skip
    february = event_file(tmp_path, "sam", [(1, 1, 2, "1-0")], players=players,
                          day="2026/02/10")  # fmt: skip
    assert run("add", february, "--db", db)[0] == 0
    code, out, _ = run("player", "--name", "newbie", "--db", db)
    assert code == 0 and "  Newbie, Sam, ITA, born 2010: no FIDE ID (n1#7)" in out.splitlines()
    code, out, err = run("player", "n1#7", "--db", db, "--out", tmp_path / "pl")
    assert (code, err) == (0, "")
    assert out.splitlines()[0] == "Newbie, Sam (no FIDE ID, n1#7, ITA, born 2010)"
    assert "first rating 1749: on the list from 2026-02" in out
    assert sorted(p.name for p in (tmp_path / "pl").iterdir()) == [
        "player-n1-7.html", "player-n1-7.xlsx",
    ]  # fmt: skip
    assert rows(listed / "list.csv")["n1#7"]["rating"] == "1749"


def test_the_report_shows_texts_as_the_files_gave_them_not_as_neutralised_for_spreadsheets(
    tmp_path: Path,
) -> None:
    # Our CSVs write "=1+2" as "'=1+2" so that no spreadsheet evaluates it; the report read
    # from them shows the event key, federations and ids as the files gave them, everywhere.
    db = database(tmp_path)
    players = [P(1, "A", 1600, 11, ADULT, federation="+CD"),
               P(2, "B", 1500, 12, ADULT, federation="@AB"),
               P(3, "-New, Sam", None, None, 2010, federation="-EF")]  # fmt: skip
    games = [(1, 1, 2, "1-0"), (2, 3, 1, "=-="), (3, 2, 3, "0-1")]
    event = event_file(tmp_path, "=1+2", games, players=players)
    assert run("add", event, "--db", db)[0] == 0
    assert run("publish", "2026-02", "--db", db, "--out", tmp_path / "lists")[0] == 0
    shown = {
        "11": "  event =1+2 (=1+2), 2026-01-10 – 2026-01-10",
        "=1+2#3": "  2026-02 =1+2 round 2: opponent 1600, scored 0.5",
    }
    for label, stem in (("11", "player-11"), ("=1+2#3", "player-=1+2-3")):
        code, out, err = run("player", label, "--db", db, "--out", tmp_path / "pl")
        assert (code, err) == (0, "")
        assert shown[label] in out.splitlines()
        assert re.search(r"'[=+\-@]", out) is None
        page = (tmp_path / "pl" / f"{stem}.html").read_text(encoding="utf-8")
        assert "&#39;" not in page and "=1+2" in page
        texts = {str(cell) for sheet in load_workbook(tmp_path / "pl" / f"{stem}.xlsx")
                 for row in sheet.iter_rows(values_only=True) for cell in row if cell}  # fmt: skip
        assert {"=1+2", "@AB" if label == "11" else "-EF"} <= texts
        assert [text for text in texts if text.startswith("'")] == []


@pytest.mark.parametrize("rules", ["fide", "glicko2"])
def test_player_out_says_which_files_it_wrote(tmp_path: Path, rules: str) -> None:
    listing = tmp_path / "list.csv"
    listing.write_text("id,rating\n11,1600\n12,1500\n")
    db = tmp_path / "r.sqlite"
    init = ["init", "--list", listing, "--period", "2026-01", "--rules", rules, "--db", db]
    assert run(*init, *(["--from-elo"] if rules != "fide" else []))[0] == 0
    add_one_game(tmp_path, db)
    assert run("publish", "2026-02", "--db", db, "--out", tmp_path / "lists")[0] == 0
    out = tmp_path / "reports"
    code, printed, err = run("player", "11", "--db", db, "--out", out)
    assert (code, err) == (0, "")
    assert printed.splitlines()[-2:] == [
        f"wrote {out / 'player-11.xlsx'}", f"wrote {out / 'player-11.html'}",
    ]  # fmt: skip
    assert sorted(p.name for p in out.iterdir()) == ["player-11.html", "player-11.xlsx"]
    code, printed, _ = run("player", "11", "--db", db)
    assert code == 0 and "wrote" not in printed


# -- one order of the lists: standard, rapid, blitz (db_helpers.three_lists_database) -------


@pytest.fixture
def three_lists(tmp_path: Path, made_once: Callable[..., Path]) -> Path:
    """``three_lists_database``'s database (made once, copied)."""
    return made_once(three_lists_database, tmp_path) / "r.sqlite"


def test_the_lists_come_in_one_order_in_the_text(three_lists: Path) -> None:
    code, out, err = run("player", "11", "--db", three_lists)
    assert code == 0, err
    lines = out.splitlines()
    heads = [line for line in lines if re.match(r"\w+ list (history|2026-02)", line)]
    assert [head.split(" (")[0] for head in heads] == [
        "standard list history", "rapid list history", "blitz list history",
        "standard list 2026-02", "rapid list 2026-02", "blitz list 2026-02",
    ]  # fmt: skip
    # Each calculation under its own list's header: Ro of that list, Rn 1607.
    rated = [line for line in lines if line.startswith(("  rated: Ro", "  Rn = "))]
    assert rated == [
        "  rated: Ro 1600, K 20", "  Rn = Ro 1600 + change +7.20 = 1607.20 → 1607",
        "  rated: Ro 1610, K 20", "  Rn = Ro 1610 + change -2.80 = 1607.20 → 1607",
        "  rated: Ro 1620, K 20", "  Rn = Ro 1620 + change -12.80 = 1607.20 → 1607",
    ]  # fmt: skip


def test_the_lists_come_in_one_order_in_the_workbook_and_the_page(three_lists: Path) -> None:
    from html_text import read_page
    from openpyxl import load_workbook

    out = three_lists.parent / "reports"
    assert run("player", "11", "--db", three_lists, "--out", out)[0] == 0
    order = ["standard", "rapid", "blitz"]
    book = load_workbook(out / "player-11.xlsx")
    assert book.sheetnames[-3:] == [f"Chart {kind}" for kind in order]
    history = [(row["kind"], row["period"], row["rating"]) for row in table(book["History"])]
    assert history == [
        ("standard", "2026-01", 1600), ("standard", "2026-02", 1607),
        ("rapid", "2026-01", 1610), ("rapid", "2026-02", 1607),
        ("blitz", "2026-01", 1620), ("blitz", "2026-02", 1607),
    ]  # fmt: skip
    calculations = [(row["kind"], row["Ro"]) for row in table(book["Calculations"])
                    if row["event"] is None and row["Ro"] is not None]  # fmt: skip
    assert calculations == [("standard", 1600), ("rapid", 1610), ("blitz", 1620)]
    lists = [row[0] for row in book["Summary"].iter_rows(values_only=True)
             if str(row[0]).endswith(" 2026-02")]  # fmt: skip
    assert lists == [f"{kind} 2026-02" for kind in order]
    page = read_page((out / "player-11.html").read_text(encoding="utf-8"))
    assert [h for h in page.headings if "list 2026-02" in h] == [
        f"{kind} list 2026-02" for kind in order
    ]
    kinds = [row[0] for row in page.rows if row[1:2] in (["2026-01"], ["2026-02"])]
    assert kinds == ["standard", "standard", "rapid", "rapid", "blitz", "blitz"]


def test_a_rapid_or_blitz_calculation_claims_no_2650_exemption(three_lists: Path) -> None:
    # docs/rules.md §6: rapid and blitz have no 2650 exemption; fide-2025's title names it.
    from html_text import read_page

    out = three_lists.parent / "reports"
    code, printed, err = run("player", "11", "--db", three_lists, "--out", out)
    assert code == 0, err
    edition = "fide-2025: FIDE Rating Regulations effective 1 October 2025"
    lines = printed.splitlines()
    standard = lines.index(f"standard list 2026-02 (rules {edition} (2650")
    assert lines[standard + 1] == "  exemption))"
    assert f"rapid list 2026-02 (rules {edition})" in lines
    assert f"blitz list 2026-02 (rules {edition})" in lines
    assert printed.count("2650") == 1
    page = read_page((out / "player-11.html").read_text(encoding="utf-8"))
    assert [p.split(" · ")[0] for p in page.paragraphs if p.startswith("rules ")] == [
        f"rules {edition} (2650 exemption)", f"rules {edition}", f"rules {edition}",
    ]  # fmt: skip
