"""Lichess and the Chess.com approximation through the command line (docs/systems.md §14,
§15): Lichess's own published calculator tests reproduced by ``rate --rules`` with one-game
events (each vector a two-player event, both states in the list), hand-checked cases (the
±700 clamp, the rating floor, RD growth over days, new players, the truncated display), the
Chess.com arithmetic by hand, and a rating database under each.

Where the numbers come from:

- **SC-T**: scalachess, ``test-kit/src/test/scala/rating/glicko/
  GlickoCalculatorWithColorAdvantageTest.scala`` (lichess-org/scalachess, the version stored
  in the project's code index). Players (1500/350/0.06 each; 1400/79/0.06 v 1550/110/0.065;
  1200/60/0.053 v 1850/200/0.062), each game white win, black win and draw, one game as one
  period with no elapsed period (``skipDeviationIncrease = true``). That version was written
  when scalachess's ``ColorAdvantage.standard`` was 7.786 and ``crazyhouse`` 15.171 (the
  ``model.scala`` of the same time); since 2025-09-24 they are 11.782457 and 20.30966 (the
  preset's default, docs/systems.md §14.1). The tests with an advantage give RD and σ, and
  only inequalities for the ratings, so those are what is checked.
- **LT**: scalachess ``test-kit/src/test/scala/rating/glicko/impl/RatingCalculatorTest.scala``
  (lila's old ``RatingCalculatorTest``): Lichess's new-player state 1500/500/0.09 and others,
  τ 0.75, no advantage, to ±1 rating point.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import read_csv
from db_helpers import run
from trf_text import P, trf

ADULT = 1980
RESULTS = {"white": "1-0", "black": "0-1", "draw": "=-="}
MIXED = ((1400.0, 79.0, 0.06), (1550.0, 110.0, 0.065))
MORE_MIXED = ((1200.0, 60.0, 0.053), (1850.0, 200.0, 0.062))
EQUAL = ((1500.0, 350.0, 0.06), (1500.0, 350.0, 0.06))
#: SC-T with no advantage: (white, black) states, outcome → white's and black's r, RD, σ
#: (tolerances 0.005, 0.00005, as in the file; σ 1e-7 for the equal players, 1e-5 or
#: 1e-6 for the others).
SC_T = [
    (EQUAL, "white", (1662.21, 290.2305, 0.0599993), (1337.79, 290.2305, 0.0599993)),
    (EQUAL, "black", (1337.79, 290.2305, 0.0599993), (1662.21, 290.2305, 0.0599993)),
    (EQUAL, "draw", (1500.0, 290.2305, 0.0599977), (1500.0, 290.2305, 0.0599977)),
    (MIXED, "white", (1422.63, 77.4956, 0.06), (1506.32, 105.8706, 0.065)),
    (MIXED, "black", (1389.99, 77.4956, 0.06), (1568.90, 105.8706, 0.065)),
    (MIXED, "draw", (1406.31, 77.4956, 0.06), (1537.61, 105.8706, 0.065)),
    (MORE_MIXED, "white", (1216.73, 59.9006, 0.053013), (1635.99, 196.9873, 0.062028)),
    (MORE_MIXED, "black", (1199.29, 59.9006, 0.052999), (1855.42, 196.9873, 0.061999)),
    (MORE_MIXED, "draw", (1208.01, 59.90056, 0.053002), (1745.71, 196.98729, 0.062006)),
]
#: SC-T with the advantage (7.786, then 15.171): per pair of states, white's and black's RD
#: and σ, the same for every outcome (σ but the equal players' as without the advantage).
SC_T_RD = {
    7.786: {EQUAL: (290.2407, 290.2407), MIXED: (77.4721, 105.8046),
            MORE_MIXED: (59.8971, 196.8617)},
    15.171: {EQUAL: (290.2692, 290.2692), MIXED: (77.4505, 105.7440),
             MORE_MIXED: (59.8936, 196.7381)},
}  # fmt: skip
#: LT: (white, black) states, outcome → white's and black's r (±1) and RD (±1; 105.87 ±0.01).
NEW = ((1500.0, 500.0, 0.09), (1500.0, 500.0, 0.09))
LOW = ((1500.0, 80.0, 0.06), (1500.0, 80.0, 0.06))
LT = [
    (NEW, "white", (1741, 396), (1258, 396)), (NEW, "black", (1258, 396), (1741, 396)),
    (NEW, "draw", (1500, 396), (1500, 396)), (LOW, "white", (1517, 78), (1482, 78)),
    (LOW, "black", (1482, 78), (1517, 78)), (LOW, "draw", (1500, 78), (1500, 78)),
    (MIXED, "white", (1422, 77), (1506, 105)), (MIXED, "black", (1389, 78), (1568, 105)),
    (MIXED, "draw", (1406, 78), (1537, 105.87)),
]  # fmt: skip


def write(path: Path, lines: list[str]) -> Path:
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def one_game_events(
    folder: Path, games: list[tuple[tuple[tuple[float, float, float], ...], str]],
    *, last_game: str = "",
) -> tuple[list[Path], Path]:  # fmt: skip
    """One event per game (White id 1000 + 2k, Black 1001 + 2k) and the list of their
    states."""
    files, rows = [], ["id,rating,rd,volatility,games_total,last_game"]
    for k, (states, outcome) in enumerate(games):
        white, black = 1000 + 2 * k, 1001 + 2 * k
        people = [P(1, f"White{k}, A", None, white, ADULT), P(2, f"Black{k}, B", None, black,
                  ADULT)]  # fmt: skip
        path = folder / f"g{k:02d}.trf"
        path.write_text(trf(people, [(1, 1, 2, RESULTS[outcome])], name=f"Game {k}",
                            start="2026/01/10", end="2026/01/10"), encoding="utf-8")  # fmt: skip
        files.append(path)
        for who, (r, rd, sigma) in zip((white, black), states, strict=True):
            rows.append(f"{who},{r},{rd},{sigma},10,{last_game}")
    return files, write(folder / "list.csv", rows)


def rules(folder: Path, advantage: float, *more: str) -> Path:
    return write(folder / "lichess.toml", ['system = "lichess"', "[lichess]",
                                           f"color_advantage = {advantage}", *more])  # fmt: skip


def rated(folder: Path, files: list[Path], *args: object) -> dict[str, dict[str, str]]:
    out = folder / "out"
    code, printed, err = run("rate", *files, *args, "--out", out)
    assert code == 0, printed + err
    return {row["id"]: row for row in read_csv(out / "players.csv")}


def test_scalachess_calculator_tests_without_advantage(tmp_path: Path) -> None:
    files, listed = one_game_events(tmp_path, [(states, outcome) for states, outcome, *_ in SC_T])
    players = rated(tmp_path, files, "--rules", rules(tmp_path, 0), "--list", listed)
    for k, (_, _, *expected) in enumerate(SC_T):
        for who, (r, rd, sigma) in zip((1000 + 2 * k, 1001 + 2 * k), expected, strict=True):
            row = players[str(who)]
            assert float(row["new_rating"]) == pytest.approx(r, abs=0.005), (k, who)
            assert float(row["new_rd"]) == pytest.approx(rd, abs=0.00005), (k, who)
            tolerance = 1e-7 if k < 3 else 1e-5 if k < 6 else 1e-6
            assert float(row["new_volatility"]) == pytest.approx(sigma, abs=tolerance), (k, who)
            assert row["new_games_total"] == "11.0"


@pytest.mark.parametrize("advantage", [7.786, 15.171], ids=["standard", "crazyhouse"])
def test_scalachess_calculator_tests_with_first_move_advantage(
    tmp_path: Path, advantage: float
) -> None:
    games = [(states, outcome) for states, outcome, *_ in SC_T]
    files, listed = one_game_events(tmp_path, games)
    players = rated(tmp_path, files, "--rules", rules(tmp_path, advantage), "--list", listed)
    plain = {k: (r1, r2) for k, (_, _, (r1, *_), (r2, *_)) in enumerate(SC_T)}
    for k, (states, _) in enumerate(games):
        white, black = players[str(1000 + 2 * k)], players[str(1001 + 2 * k)]
        rd_white, rd_black = SC_T_RD[advantage][states]
        assert float(white["new_rd"]) == pytest.approx(rd_white, abs=0.00005), k
        assert float(black["new_rd"]) == pytest.approx(rd_black, abs=0.00005), k
        # White was expected to score more: whatever the result, White gains less (or
        # loses more) and Black the opposite, than without the advantage.
        assert float(white["new_rating"]) < plain[k][0] and float(black["new_rating"]) > plain[k][1]
        sigma = SC_T[k][2][2], SC_T[k][3][2]
        assert float(white["new_volatility"]) == pytest.approx(sigma[0], abs=1e-5)
        assert float(black["new_volatility"]) == pytest.approx(sigma[1], abs=1e-5)


def test_lila_rating_calculator_tests(tmp_path: Path) -> None:
    files, listed = one_game_events(tmp_path, [(states, outcome) for states, outcome, *_ in LT])
    players = rated(tmp_path, files, "--rules", rules(tmp_path, 0), "--list", listed)
    for k, (_, _, *expected) in enumerate(LT):
        for who, (r, rd) in zip((1000 + 2 * k, 1001 + 2 * k), expected, strict=True):
            row = players[str(who)]
            assert float(row["new_rating"]) == pytest.approx(r, abs=1), (k, who)
            assert float(row["new_rd"]) == pytest.approx(rd, abs=0.01 if rd == 105.87 else 1)
    # LT's σ after two new players' decisive game: 0.0899983 (to 1e-8).
    assert float(players["1000"]["new_volatility"]) == pytest.approx(0.0899983, abs=1e-8)


def test_two_new_players_the_specs_figures_and_the_truncated_display(tmp_path: Path) -> None:
    # docs/systems.md §14.3: without a list both start at 1500/500/0.09; White wins with
    # A = 0 → 1741.48 / 1258.52, RD 396.69 each, σ 0.0899983. The list shows ⌊r⌋: 1258,
    # where half away from zero would show 1259.
    files, _ = one_game_events(tmp_path, [(NEW, "white")])
    players = rated(tmp_path, files, "--rules", rules(tmp_path, 0))
    white, black = players["1000"], players["1001"]
    assert white["status"] == black["status"] == "new"
    assert float(white["new_rating"]) == pytest.approx(1741.48, abs=0.005)
    assert float(black["new_rating"]) == pytest.approx(1258.52, abs=0.005)
    assert float(white["new_rd"]) == pytest.approx(396.69, abs=0.005)
    assert float(white["new_volatility"]) == pytest.approx(0.0899983, abs=1e-7)
    assert (white["shown"], black["shown"]) == ("1741.0", "1258.0")
    assert white["new_last_game"] == "2026-01-10" and white["new_games_total"] == "1.0"


def test_the_700_clamp_and_the_rating_floor(tmp_path: Path) -> None:
    # A new player (1500/500/0.09) beats 3000/45/0.06, A = 0. By hand: φ = 500/173.7178 =
    # 2.8782, g(45/173.7178) = 0.9900, E = 1/(1 + e^(0.9900 × 8.6347)) = 0.000193, v = 1/(g²
    # E(1 − E)) = 5263, φ'² = 1/(1/φ² + 1/v) = 8.2712, Δr = 173.7178 × φ'² × g × (1 − E)
    # = 1422: held to +700, 2200 exactly.
    # Then 450/300/0.09 loses to 450/300/0.09: g(1.7270) = 0.7242, E = ½, v = 7.626,
    # φ'² = 1/(1/2.9823 + 1/7.626) = 2.1439, Δr = −173.7178 × 2.1439 × 0.7242 × ½ = −134.9:
    # 315.1, raised to the floor 400; the winner gains as much, 584.9.
    files, listed = one_game_events(
        tmp_path, [(((1500.0, 500.0, 0.09), (3000.0, 45.0, 0.06)), "white"),
                   (((450.0, 300.0, 0.09), (450.0, 300.0, 0.09)), "black")],
    )  # fmt: skip
    players = rated(tmp_path, files, "--rules", rules(tmp_path, 0), "--list", listed)
    assert float(players["1000"]["new_rating"]) == 2200.0
    assert float(players["1002"]["new_rating"]) == 400.0
    assert float(players["1003"]["new_rating"]) == pytest.approx(584.9, abs=0.05)
    # Without the clamp (max_change_per_game 2000) the first game gives its 1422.
    again = tmp_path / "again"
    again.mkdir()
    files, listed = one_game_events(again, [(((1500.0, 500.0, 0.09), (3000.0, 45.0, 0.06)),
                                             "white")])  # fmt: skip
    players = rated(again, files, "--rules", rules(again, 0, "max_change_per_game = 2000"),
                    "--list", listed)  # fmt: skip
    assert float(players["1000"]["new_rating"]) == pytest.approx(1500 + 1422, abs=1)


def test_rd_grows_with_the_days_since_the_last_game(tmp_path: Path) -> None:
    # docs/systems.md §14.3: a year (365 days × 0.21436 = 78.24 periods) takes RD 60 with
    # σ 0.06 to 173.7178 × √((60/173.7178)² + 78.24 × 0.06²) = 110.0 before the game.
    files, listed = one_game_events(tmp_path, [(((1500.0, 60.0, 0.06), (1500.0, 60.0, 0.06)),
                                                "draw")], last_game="2025-01-10")  # fmt: skip
    rated(tmp_path, files, "--rules", rules(tmp_path, 0), "--list", listed)
    rows = read_csv(tmp_path / "out" / "calculations.csv")
    assert [(row["days"], round(float(row["rd_live"]), 2)) for row in rows] == [
        ("365.0", 110.0),
        ("365.0", 110.0),
    ]


def test_round_dates_of_the_file_date_the_games(tmp_path: Path) -> None:
    # Record 132 dates round 2 five days after round 1: player 1's second game grows his RD
    # for 5 days (1.0718 periods); the event's days (10–20 January) spread over its two
    # rounds would have given 10.
    people = [P(1, "A, A", None, 11, ADULT), P(2, "B, B", None, 12, ADULT),
              P(3, "C, C", None, 13, ADULT)]  # fmt: skip
    dates = " " * 87 + "26/01/10  26/01/15"
    path = tmp_path / "ev.trf"
    path.write_text(trf(people, [(1, 1, 2, "1-0"), (2, 3, 1, "=-=")], end="2026/01/20",
                        extra=(f"132 {dates}",)), encoding="utf-8")  # fmt: skip
    out = tmp_path / "out"
    assert run("rate", path, "--rules", "lichess", "--out", out)[0] == 0
    mine = [row for row in read_csv(out / "calculations.csv") if row["id"] == "11"]
    assert [row["days"] for row in mine] == ["", "5.0"]
    players = {row["id"]: row for row in read_csv(out / "players.csv")}
    assert players["11"]["new_last_game"] == "2026-01-15"
    assert players["12"]["new_last_game"] == "2026-01-10"


def test_a_bad_last_game_in_a_list_is_refused_at_its_line(tmp_path: Path) -> None:
    files, listed = one_game_events(tmp_path, [(EQUAL, "draw")], last_game="10/01/2025")
    code, _, err = run("rate", *files, "--rules", "lichess", "--list", listed,
                       "--out", tmp_path / "out")  # fmt: skip
    assert code == 1 and not (tmp_path / "out").exists()
    assert f"{listed}:2:" in err
    assert "last_game '10/01/2025' is not a date written YYYY-MM-DD" in err


def test_chesscom_one_game_by_glicko_arithmetic(tmp_path: Path) -> None:
    # docs/systems.md §15.1 with §3's formulas, one game, t = 0: 1500/200 beats 1400/30.
    # q = ln 10/400 = 0.0057565; g(30) = 0.99550, E = 1/(1 + 10^(−0.99550 × 100/400)) =
    # 0.63947, d² = 1/(q² g² E(1 − E)) = 132082, r' = 1500 + q/(1/200² + 1/d²) × g × (1 − E)
    # = 1563.43, RD' = √(1/(1/200² + 1/d²)) = 175.22. The loser: g(200) = 0.84428, E =
    # 0.38083 → 1398.34, RD 29.93.
    # A third player last played 10 days before (RD 50): √(50² + 34.6² × 10) = 120.30.
    people = [P(1, "A, A", 1500, 11, ADULT), P(2, "B, B", 1400, 12, ADULT),
              P(3, "C, C", 1600, 13, ADULT), P(4, "D, D", 1600, 14, ADULT)]  # fmt: skip
    path = tmp_path / "ev.trf"
    path.write_text(trf(people, [(1, 1, 2, "1-0"), (1, 3, 4, "=-=")], start="2026/01/10",
                        end="2026/01/10"), encoding="utf-8")  # fmt: skip
    listed = write(tmp_path / "list.csv", ["id,rating,rd,last_game", "11,1500,200,",
                                           "12,1400,30,2026-01-10", "13,1600,50,2025-12-31",
                                           "14,1600,50,2026-01-10"])  # fmt: skip
    players = rated(tmp_path, [path], "--rules", "chesscom", "--list", listed)
    assert float(players["11"]["new_rating"]) == pytest.approx(1563.43, abs=0.005)
    assert float(players["11"]["new_rd"]) == pytest.approx(175.22, abs=0.005)
    assert float(players["12"]["new_rating"]) == pytest.approx(1398.34, abs=0.005)
    assert float(players["12"]["new_rd"]) == pytest.approx(29.93, abs=0.005)
    calculations = {row["id"]: row for row in read_csv(tmp_path / "out" / "calculations.csv")}
    assert float(calculations["13"]["rd_grown"]) == pytest.approx(120.30, abs=0.005)
    assert float(calculations["14"]["rd_grown"]) == 50.0


def test_chesscom_starts_from_the_rating_in_the_file(tmp_path: Path) -> None:
    # §15.1 step 3: the start rating is the one given (here the event file's), RD 350; a
    # player with none starts at initial_rating 1200.
    people = [P(1, "A, A", 1800, 11, ADULT), P(2, "B, B", None, 12, ADULT)]
    path = tmp_path / "ev.trf"
    path.write_text(trf(people, [(1, 1, 2, "=-=")]), encoding="utf-8")
    players = rated(tmp_path, [path], "--rules", "chesscom")
    calculations = {row["id"]: row for row in read_csv(tmp_path / "out" / "calculations.csv")}
    assert [(calculations[k]["rating_before"], calculations[k]["rd_before"]) for k in
            ("11", "12")] == [("1800.0", "350.0"), ("1200.0", "350.0")]  # fmt: skip
    # A draw against a player 600 below: the higher loses, the lower gains.
    assert float(players["11"]["new_rating"]) < 1800.0
    assert float(players["12"]["new_rating"]) > 1200.0 and players["12"]["status"] == "new"


@pytest.mark.parametrize("system", ["lichess", "chesscom"])
def test_a_database_under_the_preset(tmp_path: Path, system: str) -> None:
    elo = write(tmp_path / "elo.csv", ["id,name,rating", '11,"A, A",1500', '12,"B, B",1400'])
    db = tmp_path / "d.sqlite"
    code, printed, err = run("init", "--list", elo, "--period", "2026-01", "--db", db,
                             "--rules", system, "--from-elo")  # fmt: skip
    assert code == 0, printed + err
    assert f"2 players with a state under {system}, from the Elo ratings" in printed
    people = [P(1, "A, A", 1500, 11, ADULT), P(2, "B, B", 1400, 12, ADULT)]
    path = tmp_path / "ev.trf"
    path.write_text(trf(people, [(1, 1, 2, "0-1")], start="2026/01/20", end="2026/01/20"),
                    encoding="utf-8")  # fmt: skip
    code, printed, err = run("add", path, "--db", db)
    assert code == 0 and "period 2026-02" in printed, printed + err
    out = tmp_path / "out"
    code, printed, err = run("publish", "2026-02", "--db", db, "--out", out)
    assert code == 0, printed + err
    listing = read_csv(out / "2026-02" / "standard" / "list.csv")
    # RD 50 each (from_elo_rd for Lichess, 350 for Chess.com): B's win moves them apart
    # by less than 100 points, or (RD 350) past each other.
    ranked = [row["id"] for row in listing]
    assert ranked == (["11", "12"] if system == "lichess" else ["12", "11"])
    assert int(listing[ranked.index("12")]["rating"]) > 1400
    assert all(row["last_game"] == "2026-01-20" for row in listing)
    if system == "lichess":
        assert all(row["games_total"] == "1" and row["provisional"] for row in listing)
    code, printed, _ = run("player", "12", "--db", db, "--out", tmp_path / "p")
    assert code == 0 and f"rated under {system}" in printed, printed
    # The exported state list reads back as the system's own list.
    assert run("export-list", "2026-02", "--db", db, "--out", tmp_path / "x")[0] == 0
    state = tmp_path / "x" / "2026-02" / "standard" / "state.csv"
    code, printed, err = run("init", "--list", state, "--period", "2026-02", "--db",
                             tmp_path / "own.sqlite", "--rules", system)  # fmt: skip
    assert code == 0, printed + err


def test_the_regulator_multiplies_gains_only(tmp_path: Path) -> None:
    # docs/systems.md §14.3 step 4 with regulator_standard 1.5 (the event's time control is
    # unreadable: a standard event): two new players, A = 0, White's gain 241.476 (1741.476,
    # the example above) becomes 1.5 × 241.476 = 362.214; Black's loss stays 1258.524.
    files, _ = one_game_events(tmp_path, [(NEW, "white")])
    players = rated(tmp_path, files, "--rules", rules(tmp_path, 0, "regulator_standard = 1.5"))
    assert float(players["1000"]["new_rating"]) == pytest.approx(1862.21, abs=0.005)
    assert float(players["1001"]["new_rating"]) == pytest.approx(1258.52, abs=0.005)
    said = (tmp_path / "out" / "index.html").read_text(encoding="utf-8")
    assert "gains × 1.5 (regulator)" in said


def test_a_last_game_after_every_game_rated_is_refused(tmp_path: Path) -> None:
    # The list says both last played on 2026-02-01, after this game of 2026-01-10: a typo
    # (2027 for 2025 would be carried to every later list and take away every later game's
    # RD growth; the red team saw a list keep 2030): refused, naming them, nothing written.
    files, listed = one_game_events(tmp_path, [(MIXED, "draw")], last_game="2026-02-01")
    out = tmp_path / "out"
    code, _, err = run("rate", *files, "--rules", "lichess", "--list", listed, "--out", out)
    assert code == 1 and not out.exists()
    assert err == (
        "Error: last_game after every game rated (2026-01-10): 1000 (2026-02-01), "
        "1001 (2026-02-01): a typo in the list's dates?\n"
    )


def test_publish_dates_the_games_by_the_files_round_dates_as_rate_does(tmp_path: Path) -> None:
    """The round dates are kept with the event (schema 10): publish rates as rate does (it
    spread the event's 10–20 January over its rounds, and player 1's second game had 10
    days of RD growth where the file says 1)."""
    people = [P(1, "A, A", 1500, 11, ADULT), P(2, "B, B", 1500, 12, ADULT),
              P(3, "C, C", 1500, 13, ADULT)]  # fmt: skip
    dates = " " * 87 + "26/01/10  26/01/11"
    path = tmp_path / "ev.trf"
    path.write_text(trf(people, [(1, 1, 2, "1-0"), (2, 3, 1, "=-=")], start="2026/01/10",
                        end="2026/01/20", extra=(f"132 {dates}",)), encoding="utf-8")  # fmt: skip
    elo = write(tmp_path / "elo.csv", ["id,name,rating", '11,"A, A",1500', '12,"B, B",1500',
                                       '13,"C, C",1500'])  # fmt: skip
    db = tmp_path / "d.sqlite"
    made = run("init", "--list", elo, "--period", "2026-01", "--db", db, "--rules", "lichess",
               "--from-elo")  # fmt: skip
    assert made[0] == 0, made
    assert run("add", path, "--db", db)[0] == 0
    assert run("publish", "2026-02", "--db", db, "--out", tmp_path / "lists")[0] == 0
    published = read_csv(tmp_path / "lists" / "2026-02" / "standard" / "calculations.csv")
    assert [row["days"] for row in published if row["id"] == "11"] == ["", "1.0"]
    # The same file rated with the same start (the database's initial list as exported).
    assert run("export-list", "initial", "--db", db, "--out", tmp_path / "x")[0] == 0
    state = tmp_path / "x" / "2026-01" / "standard" / "state.csv"
    assert run("rate", path, "--rules", "lichess", "--list", state, "--out", tmp_path / "r")[0] == 0
    rated_rows = read_csv(tmp_path / "r" / "calculations.csv")
    assert [(r["id"], r["days"], r["rd_live"]) for r in rated_rows] == [
        (r["id"], r["days"], r["rd_live"]) for r in published
    ]


def test_a_list_value_lichess_never_makes_is_refused_at_its_line(tmp_path: Path) -> None:
    # σ 5 (above volatility_max 0.1) gave RD 500 after nine days, and a rating of 300 (below
    # rating_min 400) was raised to 400 at the first game, each without a word (red team).
    listed = write(tmp_path / "l.csv", [
        "id,name,rating,rd,volatility,games_total,last_game",
        '900000001,"Alpha, One",1500,50,5,10,2026-01-01',
        '900000002,"Beta, Two",300,50,0.06,10,2026-01-01',
    ])  # fmt: skip
    people = [P(1, "Alpha, One", 1500, 900000001, ADULT), P(2, "Beta, Two", 1500, 900000002, ADULT)]
    event = tmp_path / "e.trf"
    event.write_text(trf(people, [(1, 1, 2, "1-0")]), encoding="utf-8")
    code, _, err = run(
        "rate", event, "--rules", "lichess", "--list", listed, "--out", tmp_path / "o"
    )
    assert code == 1 and not (tmp_path / "o").exists()
    assert err == (
        f"Error: {listed}:2: volatility 5 is out of range for lichess (1e-09 to 0.1); σ at most "
        f"volatility_max 0.1\n{listed}:3: rating 300 is out of range for lichess (400 to 10000); "
        "Lichess's lowest rating is 400\n"
    )
