"""Other rating systems through the command line (docs/systems.md): each published example as
a TRF file and a previous list, rated by ``rate --rules SYSTEM``; rules files naming a system;
lists that are not the system's. The database under a system: tests/monthly/test_system_db.py.
"""

from __future__ import annotations

import csv
from pathlib import Path

import numpy as np
import pytest
from conftest import glicko2_giving
from db_helpers import run as run_split
from db_helpers import run_combined as run
from trf_text import P, trf

from rating_batch.systems.registry import SYSTEMS

ADULT = 1980


def players(out: Path) -> dict[str, dict[str, str]]:
    with (out / "players.csv").open(encoding="utf-8-sig", newline="") as handle:
        return {row["id"]: row for row in csv.DictReader(handle)}


def write_list(path: Path, header: str, rows: list[str]) -> Path:
    path.write_text("\n".join([header, *rows]) + "\n", encoding="utf-8")
    return path


def files(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` and its bytes (a refused command changes none of them)."""
    return {str(f.relative_to(folder)): f.read_bytes() for f in folder.rglob("*") if f.is_file()}


def earlier_outputs(tmp_path: Path) -> Path:
    """``tmp_path/o`` holding the outputs of an earlier, good run."""
    out = tmp_path / "o"
    assert run("rate", paper_event(tmp_path), "--rules", "glicko2", "--out", out)[0] == 0
    return out


def paper_event(tmp_path: Path) -> Path:
    # Player 1 beats 2, loses to 3 and 4 (one game a round; the others have no other game).
    people = [P(r, f"Player {r}", 1500, 10 + r, ADULT) for r in range(1, 5)]
    games = [(1, 1, 2, "1-0"), (2, 1, 3, "0-1"), (3, 1, 4, "0-1")]
    event = tmp_path / "paper.trf"
    event.write_text(trf(people, games), encoding="utf-8")
    return event


def test_glicko2_papers_example_through_the_cli(tmp_path: Path) -> None:
    listed = write_list(
        tmp_path / "list.csv", "id,name,rating,rd,volatility",
        ["11,One,1500,200,0.06", "12,Two,1400,30,0.06", "13,Three,1550,100,0.06",
         "14,Four,1700,300,0.06"],
    )  # fmt: skip
    out = tmp_path / "out"
    code, output = run("rate", paper_event(tmp_path), "--rules", "glicko2", "--list", listed,
                       "--out", out)  # fmt: skip
    assert code == 0, output
    one = players(out)["11"]
    # outputs.md: the state before under its own name, after it as new_…, unrounded: to 10
    # significant digits (docs/formats.md, "Numbers").
    assert (one["rating"], one["rd"], one["volatility"]) == ("1500.0", "200.0", "0.06")
    assert abs(float(one["new_rating"]) - 1464.05) <= 0.011
    assert abs(float(one["new_rd"]) - 151.52) <= 0.005
    assert abs(float(one["new_volatility"]) - 0.059996) <= 1e-6
    assert one["status"] == "rated"
    # 10 significant digits: 1464.xxxxxx, at least 4 decimals (outputs.md).
    assert len(one["new_rating"]) == 11 and one["new_rating"].startswith("1464.")


def test_glicko_example_with_last_period(tmp_path: Path) -> None:
    # The event ends in January 2026: its games go into the February list; the list's
    # last_period 2026-02 for player 1 means t = 0 (no growth), as in the published example.
    listed = write_list(
        tmp_path / "list.csv", "id,rating,rd,last_period",
        ["11,1500,200,2026-02", "12,1400,30,2026-02", "13,1550,100,2026-02",
         "14,1700,300,2026-02"],
    )  # fmt: skip
    out = tmp_path / "out"
    code, output = run("rate", paper_event(tmp_path), "--rules", "glicko", "--list", listed,
                       "--out", out)  # fmt: skip
    assert code == 0, output
    one = players(out)["11"]
    assert abs(float(one["new_rating"]) - 1464.11) <= 0.5
    assert abs(float(one["new_rd"]) - 151.40) <= 0.05
    assert one["last_period"] == one["new_last_period"] == "2026-02"


def test_trueskill_examples_through_the_cli(tmp_path: Path) -> None:
    people = [P(1, "One", None, 11, ADULT), P(2, "Two", None, 12, ADULT)]
    for result, first, second in (("1-0", 29.396, 20.604), ("=-=", 25.0, 25.0)):
        event = tmp_path / f"game{result}.trf"
        event.write_text(trf(people, [(1, 1, 2, result)]), encoding="utf-8")
        out = tmp_path / f"out{result}"
        code, output = run("rate", event, "--rules", "trueskill", "--out", out)
        assert code == 0, output
        rows = players(out)
        assert float(rows["11"]["new_mu"]) == pytest.approx(first, abs=0.001)
        assert float(rows["12"]["new_mu"]) == pytest.approx(second, abs=0.001)
        # conservative = new_mu − 3·new_sigma (display scale 1, offset 0 by default).
        one = rows["11"]
        conservative = float(one["new_mu"]) - 3 * float(one["new_sigma"])
        assert float(one["conservative"]) == pytest.approx(conservative)


def test_harkness_example_through_the_cli(tmp_path: Path) -> None:
    # Player 1 (1600) scores 2½/11 against eleven opponents rated 1850.
    people = [P(1, "Player One", 1600, 11, ADULT)] + [
        P(r, f"Player {r}", 1850, 10 + r, ADULT) for r in range(2, 13)
    ]
    results = ["1-0", "1-0", "=-="] + ["0-1"] * 8
    games = [(rnd, 1, rnd + 1, results[rnd - 1]) for rnd in range(1, 12)]
    event = tmp_path / "harkness.trf"
    event.write_text(trf(people, games), encoding="utf-8")
    out = tmp_path / "out"
    # Without a list the ratings written in the file are the Harkness ratings before it.
    code, output = run("rate", event, "--rules", "harkness", "--out", out)
    assert code == 0, output
    one = players(out)["11"]
    assert one["new_rating"] == "1577.0"
    assert float(one["performance"]) == pytest.approx(1577.27, abs=0.01)


def test_ingo_example_through_a_list(tmp_path: Path) -> None:
    people = [P(1, "Player One", None, 11, ADULT)] + [
        P(r, f"Player {r}", None, 10 + r, ADULT) for r in range(2, 13)
    ]
    games = [(rnd, 1, rnd + 1, "1-0" if rnd <= 7 else "0-1") for rnd in range(1, 12)]
    event = tmp_path / "ingo.trf"
    event.write_text(trf(people, games), encoding="utf-8")
    # The Ingo number is the list's ``rating`` column (outputs.md).
    listed = write_list(tmp_path / "list.csv", "id,rating",
                        ["11,110", *(f"{10 + r},120" for r in range(2, 13))])  # fmt: skip
    out = tmp_path / "out"
    code, output = run("rate", event, "--rules", "ingo", "--list", listed, "--out", out)
    assert code == 0, output
    one = players(out)["11"]
    assert (one["new_rating"], one["elo_equivalent"]) == ("109.0", "1968.0")
    assert float(one["performance"]) == pytest.approx(106.36, abs=0.01)


def test_a_rules_file_names_the_system_and_sets_its_constants(tmp_path: Path) -> None:
    rules = tmp_path / "league.toml"
    rules.write_text('system = "glicko2"\n[glicko2]\ntau = 0.3\nrd_max = 300\n', encoding="utf-8")
    out = tmp_path / "out"
    code, output = run("rate", paper_event(tmp_path), "--rules", rules, "--out", out)
    assert code == 0, output
    assert all(float(row["new_rd"]) <= 300.0 for row in players(out).values())
    code, output = run("rules", rules)
    assert code == 0
    # Each constant with where it comes from: the file, or the system's default.
    assert f"tau                 0.3  [{rules}]" in output
    assert "epsilon             1e-06  [glicko2 default]" in output


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('system = "glicko2"\n[glicko2]\ntua = 0.5\n', "unknown key 'tua' (did you mean 'tau'?)"),
        (
            'system = "glicko2"\n[glicko2]\ntau = -1\n',
            "key 'tau' must be at least 0.01 and at most 10 (got -1)",
        ),
        ('system = "glicko3"\n', "key 'system' must be one of"),
        ('system = "ingo"\n[ingo]\nrule = "half"\n', "key 'rule' must be one of quarter"),
        (
            'system = "trueskill"\nbeta = 4\n',
            "bad.toml:2: key 'beta' is a constant of trueskill: write it in the [trueskill] "
            "section",
        ),
    ],
)
def test_a_wrong_rules_file_names_the_file_and_the_key(
    tmp_path: Path, text: str, message: str
) -> None:
    rules = tmp_path / "bad.toml"
    rules.write_text(text, encoding="utf-8")
    code, output = run("rate", paper_event(tmp_path), "--rules", rules, "--out", tmp_path / "o")
    assert code == 1
    assert str(rules) in output and message in output
    assert not (tmp_path / "o").exists()


# Without upper bounds, each gave an OverflowError traceback or NaN/inf ratings with exit 0.
@pytest.mark.parametrize(
    ("system", "key", "value", "allowed"),
    [
        ("glicko2", "tau", "1e308", "at least 0.01 and at most 10"),
        ("glicko2", "initial_rd", "1e308", "at least 1 and at most 10000"),
        ("glicko2", "initial_volatility", "1e308", "at least 0.0001 and at most 1"),
        ("glicko", "c", "1e308", "at least 0 and at most 10000"),
        ("glicko", "rd_max", "1e308", "at least 1 and at most 10000"),
        ("trueskill", "sigma", "1e300", "at least 0.001 and at most 1000"),
        ("trueskill", "beta", "1e-300", "at least 0.001 and at most 1000"),
        ("trueskill", "tau", "1e300", "at least 0 and at most 1000"),
        ("trueskill", "display_scale", "1e308", "more than 0 and at most 1000"),
        ("trueskill", "mu", "1e308", "at least -10000 and at most 10000"),
        ("harkness", "points_per_percent", "1e308", "more than 0 and at most 100"),
        ("ingo", "gap_cap", "1e308", "more than 0 and at most 500"),
    ],
)
def test_a_constant_beyond_its_range_is_refused_with_the_range(
    tmp_path: Path, system: str, key: str, value: str, allowed: str
) -> None:
    rules = tmp_path / "x.toml"
    rules.write_text(f'name = "x"\nsystem = "{system}"\n[{system}]\n{key} = {value}\n')
    out = earlier_outputs(tmp_path)
    before = files(tmp_path)
    code, output = run("rate", paper_event(tmp_path), "--rules", rules, "--out", out)
    shown = f"{float(value):g}" if "e" in value else value
    assert (code, output) == (
        1, f"Error: {rules}:4: key {key!r} must be {allowed} (got {shown})\n"
    )  # fmt: skip
    assert files(tmp_path) == before  # the earlier outputs as they were


def test_a_period_whose_results_are_not_finite_is_refused_and_writes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Within the constants' ranges no such period is known; the check stands behind them: a
    # calculation giving an infinite RD (as tau 1e308 or initial_rd 1e308 did) is refused.
    out = earlier_outputs(tmp_path)
    rules = tmp_path / "x.toml"
    rules.write_text('name = "x"\nsystem = "glicko2"\n[glicko2]\ntau = 0.3\n')
    before = files(tmp_path)
    glicko2_giving(monkeypatch, rd=lambda rd: np.full(len(rd), np.inf))
    code, output = run("rate", paper_event(tmp_path), "--rules", rules, "--out", out)
    assert (code, output) == (
        1,
        "Error: glicko2: new_rd came out inf for 11, 12, 13 and 1 more: the constants set (tau "
        "0.3) or the states in the list are beyond what glicko2 can compute; nothing was "
        "written\n",
    )
    assert files(tmp_path) == before


def test_a_list_with_a_wrong_state_names_the_line(tmp_path: Path) -> None:
    listed = write_list(tmp_path / "list.csv", "id,rating,rd,volatility",
                        ["11,1500,200,0.06", "12,fast,30,0.06"])  # fmt: skip
    out = earlier_outputs(tmp_path)
    before = files(tmp_path)
    code, output = run("rate", paper_event(tmp_path), "--rules", "glicko2", "--list", listed,
                       "--out", out)  # fmt: skip
    assert code == 1 and f"{listed}:3: rating 'fast' is not a number" in output
    assert files(tmp_path) == before  # the list and the earlier outputs as they were


def test_compare_rules_across_systems(tmp_path: Path) -> None:
    code, output = run("compare-rules", paper_event(tmp_path), "--rules", "fide-2025",
                       "--rules", "glicko2", "--out", tmp_path / "cmp")  # fmt: skip
    assert code == 0, output
    assert "A: fide-2025 lists" in output and "rank correlation (Spearman)" in output
    with (tmp_path / "cmp" / "compare.csv").open(encoding="utf-8-sig") as handle:
        header = handle.readline().strip().split(",")
    assert header == ["id", "name", "fide-2025", "rank fide-2025", "glicko2", "rank glicko2",
                      "rank change"]  # fmt: skip


def test_the_page_shows_constants_players_and_each_calculation(tmp_path: Path) -> None:
    people = [P(1, "Smith & Sons, A", 1500, 11, ADULT), P(2, "<b>Two</b>", 1500, 12, ADULT)]
    event = tmp_path / "two.trf"
    event.write_text(trf(people, [(1, 1, 2, "1-0")]), encoding="utf-8")
    out = tmp_path / "out"
    code, output = run("rate", event, "--rules", "glicko2", "--out", out)
    assert code == 0, output
    page = (out / "index.html").read_text(encoding="utf-8")
    assert '<td class="text">tau</td><td>0.5</td>' in page
    assert 'id="p-11"' in page and 'href="#p-11"' in page
    assert "Smith &amp; Sons, A" in page and "&lt;b&gt;Two&lt;/b&gt;" in page
    assert "<b>Two</b>" not in page
    # The winner's calculation: both unrated (1500/350): φ = 350/173.7178 = 2.01477,
    # g = 1/√(1 + 3φ²/π²) = 1/√2.23387 = 0.66907 → 0.6691 (the 4 decimals of g's notation).
    assert "<td>0.6691</td>" in page


def test_compare_rules_gives_the_elo_list_to_elo_only(tmp_path: Path) -> None:
    listed = write_list(tmp_path / "list.csv", "id,rating",
                        ["11,1500", "12,1400", "13,1550", "14,1700"])  # fmt: skip
    code, output = run("compare-rules", paper_event(tmp_path), "--rules", "fide-2025",
                       "--rules", "glicko2", "--list", listed)  # fmt: skip
    assert code == 0, output
    assert "glicko2 does not use --list (FIDE Elo's previous list)" in output


def test_one_list_kind_at_a_time_as_under_elo(tmp_path: Path) -> None:
    people = [P(1, "One", 1500, 11, ADULT), P(2, "Two", 1500, 12, ADULT)]
    standard, rapid = tmp_path / "standard.trf", tmp_path / "rapid.trf"
    standard.write_text(trf(people, [(1, 1, 2, "1-0")], extra=("122 90 minutes + 30 seconds",)),
                        encoding="utf-8")  # fmt: skip
    rapid.write_text(trf(people, [(1, 2, 1, "1-0")], name="Rapid",
                         extra=("122 15 minutes + 10 seconds",)), encoding="utf-8")  # fmt: skip
    out = earlier_outputs(tmp_path)
    before = files(tmp_path)
    code, output = run("rate", standard, rapid, "--rules", "glicko2", "--out", out)
    assert code == 1 and "the events are of different kinds" in output
    assert files(tmp_path) == before
    code, output = run("rate", standard, rapid, "--rules", "glicko2", "--kind", "rapid",
                       "--allow-overlap", "--out", tmp_path / "o")  # fmt: skip
    assert code == 0, output


def test_a_malformed_last_period_names_the_line(tmp_path: Path) -> None:
    listed = write_list(tmp_path / "list.csv", "id,rating,rd,last_period",
                        ["11,1500,200,2026-02", "12,1400,30,2026-13"])  # fmt: skip
    out = earlier_outputs(tmp_path)
    before = files(tmp_path)
    code, output = run("rate", paper_event(tmp_path), "--rules", "glicko", "--list", listed,
                       "--out", out)  # fmt: skip
    assert (
        code == 1 and f"{listed}:3: last_period: period '2026-13': there is no month 13" in output
    )
    assert files(tmp_path) == before


def test_a_state_given_in_part_is_an_error(tmp_path: Path) -> None:
    listed = write_list(tmp_path / "list.csv", "id,rating,rd,volatility",
                        ["11,1500,200,0.06", "12,1400,,0.06", "13,,,"])  # fmt: skip
    out = earlier_outputs(tmp_path)
    before = files(tmp_path)
    code, output = run("rate", paper_event(tmp_path), "--rules", "glicko2", "--list", listed,
                       "--out", out)  # fmt: skip
    assert code == 1 and files(tmp_path) == before
    assert f"{listed}:3: rating, rd, volatility: give all of them or none" in output
    assert f"{listed}:4:" not in output  # none given: an unrated player


SAMPLE_RULES = sorted((Path(__file__).parent.parent / "sample_data" / "rules").glob("*.toml"))


@pytest.mark.parametrize("rules", SAMPLE_RULES, ids=[p.stem for p in SAMPLE_RULES])
def test_every_sample_rules_file_loads_and_rates(rules: Path, tmp_path: Path) -> None:
    code, output = run("rules", rules)
    assert code == 0, output
    code, output = run("rate", paper_event(tmp_path), "--rules", rules, "--out", tmp_path / "o")
    assert code == 0, output


def test_players_csv_new_states_make_the_next_periods_list(tmp_path: Path) -> None:
    # Period 1: the paper's games from the paper's states; period 2: the same event again, its
    # list made of period 1's new_… columns: read back to the last digit.
    listed = write_list(
        tmp_path / "list.csv", "id,rating,rd,volatility",
        ["11,1500,200,0.06", "12,1400,30,0.06", "13,1550,100,0.06", "14,1700,300,0.06"],
    )  # fmt: skip
    first, second = tmp_path / "first", tmp_path / "second"
    event = paper_event(tmp_path)
    assert run("rate", event, "--rules", "glicko2", "--list", listed, "--out", first)[0] == 0
    rows = players(first)
    following = write_list(
        tmp_path / "next.csv", "id,rating,rd,volatility",
        [f"{i},{r['new_rating']},{r['new_rd']},{r['new_volatility']}" for i, r in rows.items()],
    )  # fmt: skip
    code, output = run("rate", event, "--rules", "glicko2", "--list", following, "--out", second)
    assert code == 0, output
    again = players(second)["11"]
    assert (again["rating"], again["rd"], again["volatility"]) == (
        rows["11"]["new_rating"], rows["11"]["new_rd"], rows["11"]["new_volatility"],
    )  # fmt: skip


def test_a_list_row_of_another_length_than_the_header_names_its_line(tmp_path: Path) -> None:
    listed = write_list(tmp_path / "list.csv", "id,rating,rd,volatility",
                        ["11,1500,200,0.06", "12,1400,30,0.06,extra"])  # fmt: skip
    out = earlier_outputs(tmp_path)
    before = files(tmp_path)
    code, output = run("rate", paper_event(tmp_path), "--rules", "glicko2", "--list", listed,
                       "--out", out)  # fmt: skip
    assert code == 1 and f"{listed}:3: 5 fields where the header has 4" in output
    assert files(tmp_path) == before


def test_check_reads_a_state_list_as_the_systems_list(tmp_path: Path) -> None:
    good = write_list(tmp_path / "good.csv", "id,mu,sigma", ["11,25,8.3", "12,27.5,4"])
    bad = write_list(tmp_path / "bad.csv", "id,mu,sigma", ["11,25,8.3", "12,strong,4"])
    code, output = run("check", good, "--rules", "trueskill")
    assert code == 0, output
    event = paper_event(tmp_path)
    before = files(tmp_path)
    code, output = run("check", bad, event, "--rules", "trueskill")
    assert code == 1 and f"{bad}:3: mu 'strong' is not a number" in output
    assert files(tmp_path) == before  # check writes nothing


def test_an_elo_rating_given_as_trueskills_mu_is_refused_on_its_own_scale(
    tmp_path: Path,
) -> None:
    # TrueSkill's own scale (μ0 25, σ0 25/3): a list's μ lies within 120 σ0 = 1000 of μ0
    # (docs/formats.md §11), σ up to 1000; 1500 is an Elo rating.
    listed = write_list(tmp_path / "list.csv", "id,mu,sigma", ["11,1024,999", "12,1500,4"])
    before = files(tmp_path)
    code, output = run("rate", paper_event(tmp_path), "--rules", "trueskill", "--list", listed,
                       "--out", tmp_path / "out")  # fmt: skip
    assert (code, output) == (
        1,
        f"Error: {listed}:3: mu 1500 is out of range for trueskill (-975 to 1025); μ is near "
        "25 on these rules' scale (an Elo rating? init --from-elo converts one)\n",
    )
    assert files(tmp_path) == before | {"paper.trf": (tmp_path / "paper.trf").read_bytes()}


def test_an_elo_list_given_as_an_ingo_list_is_refused_naming_the_line(tmp_path: Path) -> None:
    # Ingo's list has id and rating, as an Elo list has: 1900 would be a dreadful Ingo.
    listed = write_list(tmp_path / "list.csv", "id,rating", ["11,110", "12,1900"])
    before = files(tmp_path)
    code, output = run("rate", paper_event(tmp_path), "--rules", "ingo", "--list", listed,
                       "--out", tmp_path / "out")  # fmt: skip
    assert code == 1
    assert f"{listed}:3: rating 1900 is out of range for ingo (-100 to 400); an Elo rating?" in (
        output
    )
    assert files(tmp_path) == before | {"paper.trf": (tmp_path / "paper.trf").read_bytes()}


def test_compare_rules_compares_harkness_new_ratings_not_the_old_ones(tmp_path: Path) -> None:
    people = [P(1, "One", 1500, 11, ADULT), P(2, "Two", 1500, 12, ADULT)]
    event = tmp_path / "two.trf"
    event.write_text(trf(people, [(1, 1, 2, "1-0")]), encoding="utf-8")
    code, output = run("compare-rules", event, "--rules", "fide-2025", "--rules", "harkness",
                       "--out", tmp_path / "cmp")  # fmt: skip
    assert code == 0, output
    with (tmp_path / "cmp" / "compare.csv").open(encoding="utf-8-sig", newline="") as handle:
        rows = {row["id"]: row for row in csv.DictReader(handle)}
    # docs/systems.md §5: 1500 + 10 × (100 − 50) = 2000 for the winner, 1000 for the loser.
    assert float(rows["11"]["harkness"]) == 2000 and float(rows["12"]["harkness"]) == 1000


#: Each system's list giving Three a state (docs/formats.md §11), and the column that holds
#: the rating (TrueSkill: μ).
BYE_LISTS = {
    "glicko2": ("id,rating,rd,volatility", "13,1700,100,0.06", "rating"),
    "glicko": ("id,rating,rd,last_period", "13,1700,100,2026-02", "rating"),
    "trueskill": ("id,mu,sigma", "13,30,5", "mu"),
    "harkness": ("id,rating", "13,1700", "rating"),
    "ingo": ("id,rating", "13,142.5", "rating"),
    "ccla": ("id,rating", "13,1700", "rating"),
    "fide-2025": ("id,rating", "13,1700", "rating"),
}


@pytest.mark.parametrize("system", sorted(BYE_LISTS))
def test_a_participant_with_only_byes_is_in_players_csv_unchanged(
    system: str, tmp_path: Path
) -> None:
    # Three (on the list) and Four (unrated) have only byes (H, F; U, Z): no game counts for
    # them (docs/systems.md §1), yet both took part: players.csv lists them, Three's rating
    # as it was, Four still unrated.
    people = [P(1, "One", None, 11, ADULT), P(2, "Two", None, 12, ADULT),
              P(3, "Three", None, 13, ADULT), P(4, "Four", None, 14, ADULT)]  # fmt: skip
    games = [(1, 1, 2, "1-0"), (1, 3, None, "H"), (1, 4, None, "U"),
             (2, 2, 1, "=-="), (2, 3, None, "F"), (2, 4, None, "Z")]  # fmt: skip
    event = tmp_path / "byes.trf"
    event.write_text(trf(people, games), encoding="utf-8")
    header, row, rating = BYE_LISTS[system]
    listed = write_list(tmp_path / "list.csv", header, [row])
    out = tmp_path / "out"
    code, output = run("rate", event, "--rules", system, "--list", listed, "--out", out)
    assert code == 0, output
    rows = players(out)
    assert set(rows) == {"11", "12", "13", "14"}
    three, four = rows["13"], rows["14"]
    assert (three["status"], three["games"]) == ("rated", "0")
    assert float(three[f"new_{rating}"]) == float(three[rating]) == float(row.split(",")[1])
    assert (four["status"], four["games"], four[f"new_{rating}"]) == ("unrated", "0", "")


@pytest.mark.parametrize("system", sorted(SYSTEMS))
def test_the_advice_for_an_elo_list_is_one_init_follows(system: str, tmp_path: Path) -> None:
    """An Elo list checked as another system's list is pointed to ``init --rules SYSTEM
    --list`` only where init then makes the states from it; the DWZ makes none from an Elo
    rating (docs/systems.md §10.4), and is not sent there."""
    listing = tmp_path / "elo.csv"
    listing.write_text(
        'id,name,federation,birth_year,rating\n900000001,"A, B",ITA,1980,1800\n',
        encoding="utf-8",
    )
    code, said, _ = run_split("check", "--rules", system, listing)
    if code == 0:
        # A list of the system too: a rating alone is a whole state (Harkness), or the
        # other columns may be left out (US Chess's peak, docs/systems.md §9.3; the ECF's):
        # init makes the database from it as it is.
        made = run_split(
            "init", "--list", listing, "--period", "2026-01", "--rules", system,
            "--db", tmp_path / "own.sqlite",
        )  # fmt: skip
        assert made[0] == 0, made
        return
    advice = f"if this is an Elo list, init --rules {system} --list makes each state from it"
    db = tmp_path / "db.sqlite"
    made = run_split(
        "init", "--list", listing, "--period", "2026-01", "--rules", system, "--db", db
    )
    assert made[0] == (0 if advice in said else 1), (said, made)
    if system == "dwz":
        assert "an Elo list will not do: no DWZ is made from an Elo rating" in said
        assert not db.exists()
