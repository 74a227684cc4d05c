"""Four rules that `rate` and the monthly cycle (`init`, `add`, `publish`) must apply alike,
written from docs/rules.md and checked through TRF text and the command line (issue 13):

1. §3.3 lifetime games survive a fall below the floor: a player listed unrated with 60 games
   gets K 20, not 40, after a new first rating;
2. §8 (FEXERJ) every scoreless event is disregarded until the first scoring one, across
   periods;
3. §6 a player unrated in rapid but rated in standard starts from the standard rating with K
   as for a new player: the borrowed rating is no "ever 2400" history;
4. §3.2 juniors are judged by the year in which the event ends: a December event rated on
   the January list is still a junior's.

Expected numbers are worked by hand from the PD table (fide_pd_table.csv rows quoted).
"""

from __future__ import annotations

from pathlib import Path

from conftest import read_csv
from db_helpers import run, write_list
from trf_text import P, trf

FEXERJ = Path(__file__).parents[3] / "sample_data" / "rules" / "fexerj-2027.toml"


def by_id(path: Path) -> dict[str, dict[str, str]]:
    return {row["id"]: row for row in read_csv(path)}


def event(
    folder: Path, name: str, players: list[P], games: list, day: str, **extra: object
) -> Path:
    path = folder / f"{name}.trf"
    path.write_text(trf(players, games, name=name, start=day, end=day, **extra))  # type: ignore[arg-type]  # the keywords trf() takes
    return path


def test_lifetime_games_survive_a_fall_below_the_floor(tmp_path: Path) -> None:
    # 21 left the list at the floor with 60 games. In January he scores 3/5 against five
    # 1600s: Ra = (8000 + 3600)/7 = 1657.14, p = 4/7 → 0.57 → dp 50 → 1707 (§4), published.
    # He has 60 + 5 games: K 20 on the new list (§3.3), not 40 as for a new player.
    listing = write_list(
        tmp_path,
        ["id,rating,games_total", "21,,60", *(f"{500 + i},1600,100" for i in range(5))],
    )
    db = tmp_path / "r.sqlite"
    assert run("init", "--list", listing, "--period", "2026-01", "--db", db)[0] == 0
    players = [P(1, "Returning, Ray", None, 21, 1980)] + [
        P(i + 2, f"Rated {i}", 1600, 500 + i, 1980) for i in range(5)
    ]
    results = ["1-0", "1-0", "1-0", "0-1", "0-1"]
    games = [(i + 1, 1, i + 2, results[i]) for i in range(5)]
    path = event(tmp_path, "jan", players, games, "2026/01/10")
    assert run("add", path, "--db", db)[0] == 0
    assert run("publish", "2026-02", "--db", db, "--out", tmp_path / "out")[0] == 0
    listed = by_id(tmp_path / "out" / "2026-02" / "standard" / "list.csv")["21"]
    assert (listed["rating"], listed["k"], listed["games_total"]) == ("1707", "20", "65")


def test_every_scoreless_event_is_disregarded_across_periods(tmp_path: Path) -> None:
    # FEXERJ (two-month periods, lists in odd months, no closing offset): Nina scores 0/5
    # against 1600s in January (rated on the March list) and 0/5 again in March (May list):
    # both events are disregarded (§8), so after May her pool is empty; in May she scores 3/5
    # and only that event counts: (8000 + 3200)/7 = 1600, p = 4/7 → 0.57 → +50 → 1650.
    listing = write_list(tmp_path, ["id,rating", *(f"{500 + i},1600" for i in range(5))])
    db = tmp_path / "r.sqlite"
    code, _, err = run(
        "init", "--list", listing, "--period", "2026-01", "--rules", FEXERJ, "--db", db
    )
    assert code == 0, err
    opponents = [P(i + 2, f"Rated {i}", 1600, 500 + i, 1980) for i in range(5)]
    nina = P(1, "Newcomer, Nina", None, 900, 1990)
    zero = [(i + 1, 1, i + 2, "0-1") for i in range(5)]
    three = [(i + 1, 1, i + 2, r) for i, r in enumerate(["1-0", "1-0", "1-0", "0-1", "0-1"])]
    out = tmp_path / "out"
    for name, day, games, period in (
        ("jan", "2026/01/10", zero, "2026-03"),
        ("mar", "2026/03/10", zero, "2026-05"),
        ("may", "2026/05/10", three, "2026-07"),
    ):
        assert run("add", event(tmp_path, name, [nina, *opponents], games, day), "--db", db)[0] == 0
        code, _, err = run("publish", period, "--db", db, "--out", out)
        assert code == 0, err
    reasons = {
        row["reason"]
        for row in read_csv(out / "2026-05" / "standard" / "games.csv")
        if row["id"] == "900"
    }
    assert reasons == {"first_event_disregarded"}
    assert by_id(out / "2026-05" / "standard" / "players.csv")["900"]["pool_games"] == "0"
    july = by_id(out / "2026-07" / "standard" / "players.csv")["900"]
    assert (july["status"], july["pool_games"], july["new_rating"]) == ("new", "5", "1650")


def test_a_borrowed_standard_rating_is_no_history(tmp_path: Path) -> None:
    # 31 has no rapid rating and a standard 2450; in a rapid event he beats 32 (rapid 2300).
    # He starts from 2450 with K as for a new player (§6, rule 3.3): 40. D = 150 → 146-153
    # → PD 0.70; won: +0.30 × 40 = +12 → 2462 (with K 10 it would be 2453). 32: D -150 →
    # 0.30, lost: -0.30 × K 20 = -6 → 2294.
    players = [P(1, "Borrower, Bea", None, 31, 1990), P(2, "Rapid, Ron", 2300, 32, 1990)]
    rapid = event(tmp_path, "rapid", players, [(1, 1, 2, "1-0")], "2026/01/10",
                  extra=("122 15 min + 10 sec",))  # fmt: skip
    listing = write_list(
        tmp_path,
        ["id,standard_rating,rapid_rating,rapid_k", "31,2450,,", "32,2350,2300,20"],
    )
    code, _, err = run("rate", rapid, "--list", listing, "--out", tmp_path / "rated")
    assert code == 0, err
    rated = by_id(tmp_path / "rated" / "players.csv")
    assert (rated["31"]["k"], rated["31"]["new_rating"], rated["32"]["new_rating"]) == (
        "40",
        "2462",
        "2294",
    )
    db = tmp_path / "r.sqlite"
    assert run("init", "--list", listing, "--period", "2026-01", "--db", db)[0] == 0
    assert run("add", rapid, "--db", db)[0] == 0
    code, _, err = run("publish", "2026-02", "--db", db, "--out", tmp_path / "out")
    assert code == 0, err
    published = by_id(tmp_path / "out" / "2026-02" / "rapid" / "players.csv")
    assert (published["31"]["k"], published["31"]["new_rating"]) == ("40", "2462")


def test_a_december_event_is_a_juniors_on_the_january_list(tmp_path: Path) -> None:
    # 41, born 2007, rated 1800, beats 42 (1700) in an event ending 10 December 2025, rated on
    # the January 2026 list: 2025 − 2007 = 18 ≤ 18, a junior (§3.2): K 40. D = 100 → 99-106
    # → PD 0.64: +0.36 × 40 = +14.4 → 1814 (K 20 would give 1807).
    players = [P(1, "Young, Yan", 1800, 41, 2007), P(2, "Adult, Ada", 1700, 42, 1980)]
    december = event(tmp_path, "december", players, [(1, 1, 2, "1-0")], "2025/12/10")
    listing = write_list(tmp_path, ["id,rating,birth_year", "41,1800,2007", "42,1700,1980"])
    code, _, err = run("rate", december, "--list", listing, "--out", tmp_path / "rated")
    assert code == 0, err
    rated = by_id(tmp_path / "rated" / "players.csv")["41"]
    assert (rated["k"], rated["new_rating"]) == ("40", "1814")
    db = tmp_path / "r.sqlite"
    assert run("init", "--list", listing, "--period", "2025-12", "--db", db)[0] == 0
    assert run("add", december, "--db", db)[0] == 0
    code, _, err = run("publish", "2026-01", "--db", db, "--out", tmp_path / "out")
    assert code == 0, err
    published = by_id(tmp_path / "out" / "2026-01" / "standard" / "players.csv")["41"]
    assert (published["k"], published["new_rating"]) == ("40", "1814")
    # On the January list itself, K for February's events: 2026 − 2007 = 19, no longer junior.
    listed = by_id(tmp_path / "out" / "2026-01" / "standard" / "list.csv")["41"]
    assert listed["k"] == "20"
