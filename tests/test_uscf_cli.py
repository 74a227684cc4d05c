"""US Chess through the command line (docs/systems.md §9): sections in the federation's
order, first ratings from the event files, the list kind by time control and the dual-rated
K, a list the system cannot hold. Expected values by hand; the database: test_uscf_db.py."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from conftest import read_csv as rows
from db_helpers import run_combined as run
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
