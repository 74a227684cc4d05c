"""A rating database under US Chess (docs/systems.md §7, §9): init from a uscf list, add
sections, publish with the list rounded as US Chess publishes it and the state kept
unrounded, a publish equal to ``rate --list`` of the exported state, player, export-list,
a dual-rated event in both lists and a first rating from a FIDE rating in the file."""

from __future__ import annotations

import csv
import math
from pathlib import Path

import pytest
from db_helpers import query, run
from trf_text import P, trf

from rating_batch.writers.common import WRITTEN_RELATIVE

#: N*(1500) = 50/√(0.662 + 0.00000739 · 1069²) = 16.5685 (§9 Step 2); K = 800/(N' + 1).
K_1500 = 800 / (50 / math.sqrt(0.662 + 0.00000739 * 1069**2) + 1)
STAR_2300 = 50 / math.sqrt(0.662 + 0.00000739 * 269**2)

LIST = [
    "id,name,federation,birth_year,rating,games_total,record,peak,floor,abs_floor",
    '11,"One, Ann",USA,1980,1500,30,,1500.4,,',
    '12,"Two, Bea",USA,1981,1500,30,,,,',
    '13,"Three, Cy",USA,1982,1500,30,mixed,,,',
    '14,"Four, Di",USA,1970,2210.6,400,,2300,2200,120',
]


def write(path: Path, lines: list[str]) -> Path:
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def by_id(path: Path) -> dict[str, dict[str, str]]:
    with path.open(encoding="utf-8-sig", newline="") as handle:
        return {row["id"]: row for row in csv.DictReader(handle)}


def we(own: float, other: float) -> float:
    return 1.0 / (1.0 + 10.0 ** (-(own - other) / 400.0))


def sections(folder: Path) -> list[Path]:
    """-5: One draws Two; -6 (started earlier, same end): One beats Three."""
    one, two = P(1, "One, Ann", None, 11, 1980), P(2, "Two, Bea", None, 12, 1981)
    three = P(2, "Three, Cy", None, 13, 1982)
    five = folder / "202607200253-5.trf"
    five.write_text(trf([one, two], [(1, 1, 2, "=-=")], start="2026/07/20", end="2026/07/20"))
    six = folder / "202607200253-6.trf"
    six.write_text(trf([one, three], [(1, 1, 2, "1-0")], start="2026/07/17", end="2026/07/20"))
    return [six, five]


def uscf_db(folder: Path) -> Path:
    db = folder / "u.sqlite"
    listed = write(folder / "state.csv", LIST)
    code, out, err = run("init", "--list", listed, "--period", "2026-07", "--db", db,
                         "--rules", "uscf")  # fmt: skip
    assert code == 0, out + err
    assert "4 players with a state under uscf, read from the list" in out
    code, out, err = run("add", *sections(folder), "--db", db)
    assert code == 0, out + err
    return db


def test_a_uscf_database_publishes_rounded_and_keeps_the_state_unrounded(tmp_path: Path) -> None:
    db = uscf_db(tmp_path)
    out = tmp_path / "out"
    code, printed, err = run("publish", "2026-08", "--db", db, "--out", out)
    assert code == 0, printed + err
    folder = out / "2026-08" / "standard"
    players = by_id(folder / "players.csv")
    # As by rate (tests/test_uscf_cli.py): -5 first (a draw at equal ratings moves nothing),
    # then -6: 1500 + 45.5357 · (1 − We(1500, 1477.232)) = 1500 + 45.5357 · 0.46729 = 1521.28.
    one = 1500 + K_1500 * (1 - we(1500, 1500 - K_1500 / 2))
    assert float(players["11"]["new_rating"]) == pytest.approx(one, rel=WRITTEN_RELATIVE)
    listing = by_id(folder / "list.csv")
    # list.csv: rating and peak half away from zero; One's peak follows him (N 32 > 25).
    assert [listing["11"][c] for c in ("rating", "games_total", "record", "peak")] == [
        "1521", "32", "mixed", "1521",
    ]  # fmt: skip
    # provisional: a rating on 25 games or fewer (One has 32).
    assert listing["11"]["provisional"] == "false"
    # Four played no game: rated, his state as listed, rounded (2210.6 → 2211).
    assert players["14"]["status"] == "rated"
    assert [listing["14"][c] for c in ("rating", "peak", "floor", "abs_floor")] == [
        "2211", "2300", "2200", "120",
    ]  # fmt: skip
    kept = query(db, "SELECT value FROM system_states s JOIN players p USING (player_id) "
                 "WHERE p.fide_id = 11 AND s.period = '2026-08' AND s.name = 'rating'")  # fmt: skip
    # Kept unrounded (players.csv shows it to 10 significant digits).
    assert kept == [(pytest.approx(one, abs=1e-9),)] and kept != [
        (float(players["11"]["new_rating"]),)
    ]
    # The same from rate with the exported initial list: one code path.
    assert run("export-list", "initial", "--db", db, "--out", tmp_path / "x")[0] == 0
    state = tmp_path / "x" / "2026-07" / "standard" / "state.csv"
    code, printed, err = run("rate", *sections(tmp_path), "--rules", "uscf", "--list", state,
                             "--out", tmp_path / "rated")  # fmt: skip
    assert code == 0, printed + err
    rated = by_id(tmp_path / "rated" / "players.csv")
    assert {k: v["new_rating"] for k, v in rated.items()} == {
        k: v["new_rating"] for k, v in players.items() if k in rated
    }
    # export-list of the published list: the state unrounded, the record and empty floors.
    assert run("export-list", "2026-08", "--db", db, "--out", tmp_path / "y")[0] == 0
    after = by_id(tmp_path / "y" / "2026-08" / "standard" / "state.csv")
    assert float(after["11"]["rating"]) == pytest.approx(one, abs=1e-9)
    assert (after["11"]["record"], after["11"]["floor"], after["14"]["floor"]) == (
        "mixed", "", "2200.0",
    )  # fmt: skip
    code, printed, _ = run("player", "11", "--db", db)
    assert code == 0 and "rated under uscf" in printed
    # Per section, its values once, then the games: N' = N*(1500) = 16.5685, K = 800/17.5685
    # = 45.5361 (shown 45.54), Step 4 1500 + K/2 = 1522.77, E = We(1500, 1477.23) = 0.5327,
    # B 10; the ratings whole (docs/systems.md §9.15).
    section = printed[printed.index("  202607200253-6\n") :]
    assert section.startswith(
        "  202607200253-6\n"
        "    formula standard · rating 1500 · N 31 · N* 16.57 · N' 16.57 · m 1 · S 1.0 · Step 4"
        " 1522.77 · E\n"
        "    0.5327 · K 45.54 · B 10 · bonus 0.00 · before floors 1521.28 · floor 1300 · floor "
        "kind peak ·\n"
        "    post-event 1521\n"
    )
    assert "\n    Rd  opponent   result  Ri (Step 4)  Ri (Step 5)  We/PWe\n" in section


def test_a_dual_rated_event_is_published_in_both_lists(tmp_path: Path) -> None:
    # G/45;d5 (t = 50): filed under standard, rated in standard (K × 0.75 at 2300) and in
    # rapid, each from its own ratings (nobody has a Quick rating: 11 and 12 start from their
    # file's FIDE ratings, 2300 → 1.02 · 2300 + 20 = 2366 on N = 10: the standard formula).
    listed = write(tmp_path / "state.csv", ["id,rating,games_total", "11,2300,100",
                                            "12,2300,100"])  # fmt: skip
    db = tmp_path / "d.sqlite"
    assert run("init", "--list", listed, "--period", "2026-07", "--db", db, "--rules",
               "uscf")[0] == 0  # fmt: skip
    event = tmp_path / "202607200400-1.trf"
    people = [P(1, "One, Ann", 2300, 11, 1980), P(2, "Two, Bea", 2300, 12, 1981)]
    event.write_text(trf(people, [(1, 1, 2, "1-0")], start="2026/07/20", end="2026/07/20",
                         extra=("122 G/45;d5",)))  # fmt: skip
    code, printed, err = run("add", event, "--db", db)
    assert code == 0 and ": standard, period 2026-08" in printed, printed + err
    out = tmp_path / "out"
    code, printed, err = run("publish", "2026-08", "--db", db, "--out", out)
    assert code == 0, printed + err
    # In the Quick list both are new on N = 10 + 1 games: provisional.
    assert by_id(out / "2026-08" / "rapid" / "list.csv")["11"]["provisional"] == "true"
    regular = by_id(out / "2026-08" / "standard" / "calculations.csv")
    quick = by_id(out / "2026-08" / "rapid" / "calculations.csv")
    k = 800 / (STAR_2300 + 1) * 0.75
    assert float(regular["11"]["k"]) == pytest.approx(k, rel=WRITTEN_RELATIVE)
    assert (float(quick["11"]["rating"]), quick["11"]["n"], quick["11"]["formula"]) == (
        pytest.approx(2366.0, abs=1e-9), "10.0", "standard",
    )  # fmt: skip


def test_a_uscf_database_seeded_from_a_fide_list(tmp_path: Path) -> None:
    # docs/systems.md §9.4 (the 2024 conversion): 1.5667 · 1500 − 1073 = 1277.05 on N = 5;
    # 1.02 · 2200 + 20 = 2264 on N = 10 (above 2150); record mixed; an unrated player stays so.
    listed = write(tmp_path / "elo.csv", ["id,name,rating", "11,One,1500", "12,Two,2200",
                                          "13,Three,"])  # fmt: skip
    db = tmp_path / "e.sqlite"
    code, printed, err = run("init", "--list", listed, "--period", "2026-07", "--db", db,
                             "--rules", "uscf", "--from-elo")  # fmt: skip
    assert code == 0, printed + err
    assert run("export-list", "initial", "--db", db, "--out", tmp_path / "x")[0] == 0
    state = by_id(tmp_path / "x" / "2026-07" / "standard" / "state.csv")
    assert float(state["11"]["rating"]) == pytest.approx(1277.05, abs=1e-9)
    assert [state["11"]["games_total"], state["12"]["games_total"]] == ["5.0", "10.0"]
    assert float(state["12"]["rating"]) == pytest.approx(2264.0, abs=1e-9)
    assert (state["11"]["record"], "13" in state) == ("mixed", False)


def test_an_event_too_fast_for_any_list_is_not_added(tmp_path: Path) -> None:
    # docs/systems.md §9.1: t < 5 is not rated (G/3: t = 3).
    listed = write(tmp_path / "state.csv", ["id,rating", "11,1500", "12,1500"])
    db = tmp_path / "f.sqlite"
    assert run("init", "--list", listed, "--period", "2026-07", "--db", db, "--rules",
               "uscf")[0] == 0  # fmt: skip
    event = tmp_path / "fast.trf"
    people = [P(1, "One, Ann", None, 11), P(2, "Two, Bea", None, 12)]
    event.write_text(trf(people, [(1, 1, 2, "1-0")], start="2026/07/20", end="2026/07/20",
                         extra=("122 G/3",)))  # fmt: skip
    code, _, err = run("add", event, "--db", db)
    assert code == 1
    assert f"{event}: time control 'G/3': too fast for any list under uscf" in err
    assert query(db, "SELECT COUNT(*) FROM events") == [(0,)]
