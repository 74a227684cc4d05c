"""A new rating system is its module and one line of the table (systems/homes.py): a toy
system, "coin", written here as a module's text and loaded as ``rating_batch.systems.coin``,
its line put in ``SYSTEM_HOMES`` and loaded into ``SYSTEMS`` as ``registry`` loads every line;
with nothing else changed, every command of the command line runs under it and gives the toy
rule's numbers, worked out by hand below."""

from __future__ import annotations

import csv
import importlib.util
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from db_helpers import run
from html_text import read_page
from trf_text import P, trf

from rating_batch.systems import homes, registry

#: The toy rule: a player's rating goes up ``per_point`` per point scored and down
#: ``per_game`` per game played (so +5 a win, 0 a draw, −5 a loss by default); a player
#: without a rating starts at ``start``; from an Elo rating, the rating is the Elo rating.
COIN = '''
"""Coin: +per_point per point scored, −per_game per game played."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np
import pandas as pd

from rating_batch.systems.base import (
    SystemBase,
    SystemInput,
    SystemOutcome,
    game_rows,
    outcome_players,
    seeded,
)
from rating_batch.systems.params import field, number


@dataclass(frozen=True)
class Coin:
    start: float = field(1000.0, number(0, 5000), "rating of an unrated player")
    per_point: float = field(10.0, number(0, 100), "points won per point scored")
    per_game: float = field(5.0, number(0, 100), "points paid per game played")


class CoinSystem(SystemBase[Coin]):
    constants = Coin
    name: ClassVar[str] = "coin"
    title: ClassVar[str] = "Coin (a toy): points per point scored, less a fee per game"
    state: ClassVar[dict[str, str]] = {"rating": "Float64"}
    explained: ClassVar[str] = "Per game: the rating before, the score and the change."
    published: ClassVar[str] = "new_rating"
    list_digits: ClassVar[dict[str, int]] = {"rating": 0}
    limits: ClassVar[dict[str, tuple[float, float, str]]] = {"rating": (0.0, 5000.0, "")}
    from_elo_note = "rating = Elo"

    def from_elo(self, elo: pd.Series) -> pd.DataFrame:
        return seeded(elo, self.state, rating=elo)

    def rate(self, period: SystemInput) -> SystemOutcome:
        p = self.params
        before = period.initial("rating", p.start)
        games = period.games
        change = p.per_point * games.score - p.per_game
        after = before + np.bincount(games.pidx, weights=change, minlength=len(before))
        players = outcome_players(period, {"rating": after})
        calculations = game_rows(period).assign(
            rating=before[games.pidx], change=change, new_rating=after[games.pidx]
        )
        notes = [f"coin: +{p.per_point:g} a point, -{p.per_game:g} a game, start {p.start:g}"]
        return SystemOutcome(players, calculations, notes)
'''

#: The one line of homes.SYSTEM_HOMES that makes it a system.
HOME = "coin:Coin:CoinSystem"
ADULT = 1980


@pytest.fixture(autouse=True)
def coin(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> Iterator[None]:
    """``rating_batch.systems.coin`` importable, and its line in the table as homes.py would
    have it (``SYSTEMS`` loads it as it loads every line at import)."""
    path = tmp_path_factory.mktemp("systems") / "coin.py"
    path.write_text(COIN, encoding="utf-8")
    spec = importlib.util.spec_from_file_location("rating_batch.systems.coin", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "rating_batch.systems.coin", module)
    spec.loader.exec_module(module)
    monkeypatch.setitem(homes.SYSTEM_HOMES, "coin", HOME)
    monkeypatch.setitem(registry.SYSTEMS, "coin", registry._loaded(HOME))
    yield


def test_the_table_line_is_the_system() -> None:
    system = registry.state_system("coin")
    assert system is not None and type(system).__module__ == "rating_batch.systems.coin"
    assert (system.name, system.published) == ("coin", "new_rating")


def rows(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8-sig", newline="") as handle:
        return list(csv.DictReader(handle))


def by_id(path: Path) -> dict[str, dict[str, str]]:
    return {row["id"]: row for row in rows(path)}


def event(folder: Path) -> Path:
    """Four players, three rounds, January 2026 (the file's Elo ratings unused by coin):
    round 1: One beats Two, Three draws Four; round 2: One draws Three, Four beats Two;
    round 3: Four beats One, Two beats Three. Scores: One 1½, Two 1, Three 1, Four 2½, each
    in 3 games."""
    people = [
        P(1, "One, Ann", 1500, 11, ADULT),
        P(2, "Two, Bea", 1400, 12, ADULT),
        P(3, "Three, Cy", None, 13, ADULT),
        P(4, "Four, Di", 1700, 14, ADULT),
    ]
    games = [
        (1, 1, 2, "1-0"), (1, 3, 4, "=-="),
        (2, 1, 3, "=-="), (2, 4, 2, "1-0"),
        (3, 4, 1, "1-0"), (3, 2, 3, "1-0"),
    ]  # fmt: skip
    path = folder / "jan.trf"
    path.write_text(trf(people, games), encoding="utf-8")
    return path


def test_rules_shows_the_new_system_and_its_constants() -> None:
    code, printed, err = run("rules", "coin")
    assert code == 0, printed + err
    assert "coin" in printed and "Coin (a toy)" in printed
    for key, value in (("start", "1000"), ("per_point", "10"), ("per_game", "5")):
        assert any(key in line and value in line for line in printed.splitlines()), key
    # The list of rule sets names it too (monthly/init.rule_choices reads SYSTEMS).
    code, printed, _ = run("rules")
    assert code == 0 and "coin" in printed


def test_check_and_rate_give_the_toy_rules_numbers(tmp_path: Path) -> None:
    code, printed, err = run("check", event(tmp_path), "--rules", "coin")
    assert (code, err) == (0, "0 error(s), 0 warning(s)\n"), printed + err
    out = tmp_path / "out"
    code, printed, err = run("rate", event(tmp_path), "--rules", "coin", "--out", out)
    assert code == 0, printed + err
    players = by_id(out / "players.csv")
    # Without a list everyone starts unrated at 1000 (seeds_from_file is False):
    # One 1000 + 10 × 1.5 − 5 × 3 = 1000; Two and Three 1000 + 10 − 15 = 995;
    # Four 1000 + 25 − 15 = 1010.
    assert {k: float(v["new_rating"]) for k, v in players.items()} == {
        "11": 1000.0, "12": 995.0, "13": 995.0, "14": 1010.0,
    }  # fmt: skip
    assert {v["status"] for v in players.values()} == {"new"}
    assert {v["games"] for v in players.values()} == {"3"}
    # calculations.csv: One's three games, +5 (win), 0 (draw), −5 (loss).
    one = [row for row in rows(out / "calculations.csv") if row["id"] == "11"]
    assert [float(row["change"]) for row in one] == [5.0, 0.0, -5.0]


def test_rate_from_a_list_and_a_rules_file_setting_a_constant(tmp_path: Path) -> None:
    listed = tmp_path / "list.csv"
    listed.write_text("id,name,rating\n11,One,1500\n12,Two,1400\n13,Three,1550\n",
                      encoding="utf-8")  # fmt: skip
    rules = tmp_path / "league.toml"
    rules.write_text('name = "league"\nsystem = "coin"\n[coin]\nper_point = 20\n', "utf-8")
    code, printed, err = run("rules", rules)
    assert code == 0 and "per_point" in printed and "20" in printed, printed + err
    out = tmp_path / "out"
    code, printed, err = run("rate", event(tmp_path), "--rules", rules, "--list", listed,
                             "--out", out)  # fmt: skip
    assert code == 0, printed + err
    players = by_id(out / "players.csv")
    # 20 a point, 5 a game: One 1500 + 30 − 15 = 1515; Two 1400 + 20 − 15 = 1405;
    # Three 1550 + 20 − 15 = 1555; Four, not on the list, 1000 + 50 − 15 = 1035.
    assert {k: float(v["new_rating"]) for k, v in players.items()} == {
        "11": 1515.0, "12": 1405.0, "13": 1555.0, "14": 1035.0,
    }  # fmt: skip
    assert [players[k]["status"] for k in ("11", "14")] == ["rated", "new"]
    # A constant the toy does not have is refused at its line.
    wrong = tmp_path / "wrong.toml"
    wrong.write_text('system = "coin"\n[coin]\nper_win = 20\n', "utf-8")
    code, printed, err = run("rate", event(tmp_path), "--rules", wrong, "--out", tmp_path / "w")
    assert code != 0 and "per_win" in printed + err


def test_compare_rules_sets_the_toy_against_its_rules_file(tmp_path: Path) -> None:
    rules = tmp_path / "league.toml"
    rules.write_text('system = "coin"\n[coin]\nper_point = 20\n', "utf-8")
    out = tmp_path / "cmp"
    code, printed, err = run("compare-rules", event(tmp_path), "--rules", "coin", "--rules",
                             rules, "--out", out)  # fmt: skip
    assert code == 0, printed + err
    compared = by_id(out / "compare.csv")
    # A: 10 a point (as in the test above); B: 20 a point, so One 1000 + 30 − 15 = 1015,
    # Two and Three 1000 + 20 − 15 = 1005, Four 1000 + 50 − 15 = 1035. Ranks unchanged.
    assert {k: (v["A: coin"], v["B: coin"], v["rank change"]) for k, v in compared.items()} == {
        "11": ("1000", "1015", "0"), "12": ("995", "1005", "0"),
        "13": ("995", "1005", "0"), "14": ("1010", "1035", "0"),
    }  # fmt: skip


def test_a_database_under_the_new_system(tmp_path: Path) -> None:
    # init from an Elo list: each state is the Elo rating; Five is on the list, plays no game.
    elo = tmp_path / "elo.csv"
    elo.write_text('id,name,rating\n11,"One, Ann",1500\n12,"Two, Bea",1400\n'
                   '13,"Three, Cy",1550\n14,"Four, Di",1700\n15,"Five, Ed",1600\n',
                   encoding="utf-8")  # fmt: skip
    db = tmp_path / "c.sqlite"
    code, printed, err = run("init", "--list", elo, "--period", "2026-01", "--db", db,
                             "--rules", "coin", "--from-elo")  # fmt: skip
    assert code == 0, printed + err
    assert "5 players with a state under coin, from the Elo ratings (rating = Elo)" in printed
    code, printed, err = run("add", event(tmp_path), "--db", db)
    assert (code, err) == (0, ""), printed + err
    assert "period 2026-02, 4 players" in printed
    out = tmp_path / "out"
    code, printed, err = run("publish", "2026-02", "--db", db, "--out", out)
    assert code == 0, printed + err
    assert "under coin; list of 5 players (5 rated before, 0 new)" in printed
    folder = out / "2026-02" / "standard"
    players = by_id(folder / "players.csv")
    # One 1500 + 15 − 15 = 1500; Two 1400 + 10 − 15 = 1395; Three 1550 + 10 − 15 = 1545;
    # Four 1700 + 25 − 15 = 1710; Five, idle, keeps 1600.
    assert {k: float(v["new_rating"]) for k, v in players.items()} == {
        "11": 1500.0, "12": 1395.0, "13": 1545.0, "14": 1710.0, "15": 1600.0,
    }  # fmt: skip
    listing = rows(folder / "list.csv")
    # Best first: 1710, 1600, 1545, 1500, 1395.
    assert [(row["id"], row["rating"], row["games"]) for row in listing] == [
        ("14", "1710", "3"), ("15", "1600", "0"), ("13", "1545", "3"), ("11", "1500", "3"),
        ("12", "1395", "3"),
    ]  # fmt: skip
    # player: the report under coin, Four's state before and after (2 decimals: the default
    # notation) and each game's change: ½ +0, 1 +5, 1 +5.
    code, printed, err = run("player", "14", "--db", db, "--out", tmp_path / "p")
    assert code == 0, printed + err
    assert printed.startswith("Four, Di (FIDE ID 14, -, born 1980)\nrated under coin: Coin")
    assert "\n2026-02 standard (rated): 3 games, 2½ points\n" in printed
    assert "  rating 1700.00 → new_rating 1710.00\n" in printed
    changes = [line.split()[-2] for line in printed.splitlines() if line.endswith("1710.00")]
    assert changes[-3:] == ["0.00", "5.00", "5.00"], printed
    assert (tmp_path / "p" / "player-14.html").is_file()
    assert (tmp_path / "p" / "player-14.xlsx").is_file()
    # export-list: the state carried, unrounded (here whole anyway).
    code, printed, err = run("export-list", "2026-02", "--db", db, "--out", tmp_path / "x")
    assert code == 0, printed + err
    state = by_id(tmp_path / "x" / "2026-02" / "standard" / "state.csv")
    assert {k: float(v["rating"]) for k, v in state.items()} == {
        "11": 1500.0, "12": 1395.0, "13": 1545.0, "14": 1710.0, "15": 1600.0,
    }  # fmt: skip
    # site: written again from the database; the player's page shows the new rating.
    site = tmp_path / "site"
    code, printed, err = run("site", "--db", db, "--out", site)
    assert code == 0, printed + err
    page = read_page((site / "site" / "players" / "14.html").read_text("utf-8"))
    cells = {cell for row in page.rows for cell in row}
    assert "1710" in cells, page.rows
    listed = read_page((site / "site" / "2026-02" / "standard" / "list.html").read_text("utf-8"))
    shown = [cell for row in listed.rows for cell in row]
    assert all(rating in shown for rating in ("1710", "1600", "1545", "1500", "1395")), shown
