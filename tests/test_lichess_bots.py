"""Lichess's bot halving and the list's own checks (docs/systems.md §14.3 step 5, §14.2):
``bot_ids`` in a rules file, a human's game against a bot moving him half way, a bot new to
the list starting at 2000/500/0.09; a fractional ``games_total`` and a ``last_game`` after the
list's own month refused at their line.

The numbers are Glickman's Glicko-2 (steps 3–8, one game, φ* = φ) worked by hand below, with
lila's ``RatingRegulator.halvedAgainstBot`` (``glicko.average(before)``: the mean of the old
and new rating, RD and volatility, each) and ``Glicko.defaultBot`` (2000, 500, 0.09)."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import read_csv
from db_helpers import run
from trf_text import P, trf

ADULT = 1980


def write(path: Path, lines: list[str]) -> Path:
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def one_game(folder: Path, result: str = "1-0") -> Path:
    """Human 11 (White) against 12 (Black), one game on 10 January 2026."""
    people = [P(1, "Human, A", None, 11, ADULT), P(2, "Bot, B", None, 12, ADULT)]
    path = folder / "ev.trf"
    path.write_text(trf(people, [(1, 1, 2, result)], start="2026/01/10", end="2026/01/10"),
                    encoding="utf-8")  # fmt: skip
    return path


def rules(folder: Path, *lines: str) -> Path:
    return write(folder / "lichess.toml", ['system = "lichess"', "[lichess]",
                                           "color_advantage = 0", *lines])  # fmt: skip


def rated(folder: Path, *args: object) -> tuple[dict[str, dict[str, str]], list[dict[str, str]]]:
    out = folder / "out"
    code, printed, err = run("rate", *args, "--out", out)
    assert code == 0, printed + err
    players = {row["id"]: row for row in read_csv(out / "players.csv")}
    return players, read_csv(out / "calculations.csv")


def test_a_human_beating_a_new_bot_moves_half_way_the_bot_as_usual(tmp_path: Path) -> None:
    # The human is new (1500/500/0.09); the bot, new to the list, starts at lila's defaultBot
    # 2000/500/0.09. A = 0, the human wins. By hand, for the human: μ = 0, μ_j = 500/173.7178
    # = 2.87823, φ = φ_j = 2.87823 (φ² = 8.28422); g(φ_j) = 1/√(1 + 3φ_j²/π²) = 0.53315;
    # E = 1/(1 + e^(−g(μ − μ_j))) = 0.17733; v = 1/(g² E(1 − E)) = 24.1153; Δ = v g (1 − E)
    # = 10.5770; σ' by step 5 (τ 0.75, ε 1e-6) = 0.0900078; φ'² = 1/(1/φ² + 1/v) = 6.16603;
    # r' = 1500 + 173.7178 × 6.16603 × 0.53315 × 0.82267 = 1969.81; RD' = 173.7178 × √6.16603
    # = 431.37. Halved (the mean of old and new): r (1500 + 1969.81)/2 = 1734.90, RD (500 +
    # 431.37)/2 = 465.68, σ (0.09 + 0.0900078)/2 = 0.0900039.
    # The bot is rated as usual (LR halves only the human): by symmetry of the one game
    # 2000 − 469.81 = 1530.19, RD 431.37, σ 0.0900078.
    event = one_game(tmp_path)
    players, calculations = rated(tmp_path, event, "--rules", rules(tmp_path, "bot_ids = [12]"))
    human, bot = players["11"], players["12"]
    assert float(human["new_rating"]) == pytest.approx(1734.90, abs=0.005)
    assert float(human["new_rd"]) == pytest.approx(465.68, abs=0.005)
    assert float(human["new_volatility"]) == pytest.approx(0.0900039, abs=1e-7)
    assert float(bot["new_rating"]) == pytest.approx(1530.19, abs=0.005)
    assert float(bot["new_rd"]) == pytest.approx(431.37, abs=0.005)
    assert float(bot["new_volatility"]) == pytest.approx(0.0900078, abs=1e-7)
    # calculations.csv: the bot's start, the human's r′ after the halving, which row it was.
    rows = {row["id"]: row for row in calculations}
    assert float(rows["12"]["rating_before"]) == 2000.0
    assert float(rows["11"]["new_rating"]) == pytest.approx(1734.90, abs=0.005)
    assert (rows["11"]["halved"], rows["12"]["halved"]) == ("true", "false")
    said = (tmp_path / "out" / "index.html").read_text(encoding="utf-8")
    assert "1 bot(s) of bot_ids here" in said


def test_a_bot_on_the_list_keeps_its_state_and_two_bots_are_not_halved(tmp_path: Path) -> None:
    # Both named bots: "exactly one player is a bot" fails, neither is halved. Both are on the
    # list at 1500/500/0.09 (a listed bot keeps its list state, not 2000): the game is then
    # the spec's two new players, 1741.48 / 1258.52 (docs/systems.md §14.3, LT's test).
    event = one_game(tmp_path)
    head = "id,rating,rd,volatility,games_total,last_game"
    listed = write(tmp_path / "list.csv", [head, "11,1500,500,0.09,0,", "12,1500,500,0.09,0,"])
    players, _ = rated(tmp_path, event, "--list", listed,
                       "--rules", rules(tmp_path, 'bot_ids = [11, "12"]'))  # fmt: skip
    assert float(players["11"]["new_rating"]) == pytest.approx(1741.48, abs=0.005)
    assert float(players["12"]["new_rating"]) == pytest.approx(1258.52, abs=0.005)


def test_bot_ids_that_are_not_a_list_of_ids_are_refused(tmp_path: Path) -> None:
    event = one_game(tmp_path)
    code, _, err = run("rate", event, "--rules", rules(tmp_path, "bot_ids = 12"),
                       "--out", tmp_path / "out")  # fmt: skip
    assert code == 1 and not (tmp_path / "out").exists()
    assert "bot_ids" in err and "must be a list of players' ids" in err


def test_a_fractional_games_total_is_refused_at_its_line(tmp_path: Path) -> None:
    event = one_game(tmp_path)
    head = "id,rating,rd,volatility,games_total,last_game"
    listed = write(tmp_path / "list.csv", [head, "11,1500,80,0.06,10,", "12,1500,80,0.06,10.5,"])
    code, _, err = run("rate", event, "--rules", "lichess", "--list", listed,
                       "--out", tmp_path / "out")  # fmt: skip
    assert code == 1 and not (tmp_path / "out").exists()
    assert err == (
        f"Error: {listed}:3: games_total 10.5 is not a whole number: a count of rated games\n"
    )


@pytest.mark.parametrize("system", ["lichess", "chesscom"])
def test_a_last_game_after_the_lists_own_month_is_refused_at_init(
    tmp_path: Path, system: str
) -> None:
    # The list is January 2026's; 2026-02-15 is after it (and before a March game, so the
    # check against the games rated would not see it): refused at its line, no database.
    columns = ("id,name,rating,rd,volatility,games_total,last_game" if system == "lichess"
               else "id,name,rating,rd,last_game")  # fmt: skip
    state = "1500,80,0.06,10" if system == "lichess" else "1500,80"
    listed = write(tmp_path / "list.csv", [columns, f'11,"A, A",{state},2026-01-31',
                                           f'12,"B, B",{state},2026-02-15'])  # fmt: skip
    db = tmp_path / "d.sqlite"
    code, _, err = run("init", "--list", listed, "--period", "2026-01", "--db", db,
                       "--rules", system)  # fmt: skip
    assert code == 1 and not db.exists()
    assert err == (
        f"Error: {listed}:3: last_game 2026-02-15 is after the list's month 2026-01: a "
        "list cannot know a later game (a typo in the date, or the wrong --period?)\n"
    )
    # The last day of the month itself is fine.
    write(listed, [columns, f'11,"A, A",{state},2026-01-31'])
    code, printed, err = run("init", "--list", listed, "--period", "2026-01", "--db", db,
                             "--rules", system)  # fmt: skip
    assert code == 0, printed + err
