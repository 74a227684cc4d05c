"""FIDE's 2024 adjustment (docs/rules.md §7): on the lists of 1 March 2024 every rating R
below 2000 became R + round(0.4 × (2000 − R)), in every kind, before the new floor of 1400.
The expected figures are FIDE's published examples (1000 → 1400, 1500 → 1700, 1600 → 1760,
1950 → 1970, 2000 → 2000) and the rounding worked by hand (1001 → 1401: 0.4 × 999 = 399.6 →
400; 1003 → 1402: 0.4 × 997 = 398.8 → 399; 1503 → 1702: 0.4 × 497 = 198.8 → 199)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from conftest import read_csv
from db_helpers import ADULT, event_file, rows, run, write_list
from trf_text import P

from rating_batch.periods import INITIAL, Period
from rating_batch.systems.elo.adjustment import adjusted, adjustment_applies
from rating_batch.systems.elo.rules import EDITIONS

FIDE_2024 = EDITIONS["fide-2024"]
#: (rating on the February 2024 list, on the March 2024 list).
EXAMPLES = [(1000, 1400), (1001, 1401), (1003, 1402), (1500, 1700), (1503, 1702),
            (1600, 1760), (1950, 1970), (1999, 1999), (2000, 2000), (2400, 2400)]  # fmt: skip
IDS = [str(900_000_001 + n) for n in range(len(EXAMPLES))]


def test_each_published_example_and_the_rounding() -> None:
    before = np.array([rating for rating, _ in EXAMPLES])
    assert adjusted(before, FIDE_2024).tolist() == [after for _, after in EXAMPLES]


@pytest.mark.parametrize(
    ("edition", "previous", "period", "applies"),
    [
        ("fide-2024", "2024-02", "2024-03", True),  # the list of 1 March 2024
        ("fide-2025", "2024-01", "2024-04", True),  # a list skipped: the first after it
        ("fide-2024", "2024-03", "2024-04", False),  # once: the March list has it
        ("fide-2024", None, "2024-03", False),  # no earlier list to adjust
        ("fide-2024", "initial", "2024-03", False),  # a list of unknown month: taken as current
        ("fide-2022", "2024-02", "2024-03", False),  # the older editions carry none
    ],
)
def test_which_list_takes_it(
    edition: str, previous: str | None, period: str, applies: bool
) -> None:
    before = (
        None if previous is None else INITIAL if previous == "initial" else Period.parse(previous)
    )
    assert adjustment_applies(EDITIONS[edition], before, Period.parse(period)) is applies


def _february_database(folder: Path) -> Path:
    """A database from a list of February 2024: each example's rating in all three kinds."""
    lines = ["id,rating,k,rapid_rating,rapid_k,blitz_rating,blitz_k"]
    lines += [f"{i},{r},20,{r},20,{r},20" for i, (r, _) in zip(IDS, EXAMPLES, strict=True)]
    db = folder / "r.sqlite"
    listing = write_list(folder, lines)
    code, out, err = run("init", "--list", listing, "--period", "2024-02", "--db", db)
    assert code == 0, out + err
    return db


def test_march_2024_is_adjusted_in_every_kind_and_nobody_leaves(tmp_path: Path) -> None:
    db = _february_database(tmp_path)
    code, out, err = run("publish", "2024-03", "--db", db, "--out", tmp_path / "lists")
    assert code == 0, out + err
    for kind in ("standard", "rapid", "blitz"):
        listed = rows(tmp_path / "lists" / "2024-03" / kind / "list.csv")
        # Under fide-2024 the floor is 1400: 1000 … 1003 would have left the list unadjusted.
        assert {i: int(listed[i]["rating"]) for i in IDS} == dict(
            zip(IDS, [after for _, after in EXAMPLES], strict=True)
        ), kind
        changes = read_csv(tmp_path / "lists" / "2024-03" / kind / "changes.csv")
        said = {row["id"]: (row["change"], row["difference"], row["reason"]) for row in changes}
        assert said[IDS[4]] == ("rating", "199", "adjustment")  # 1503 → 1702
        assert IDS[8] not in said  # 2000 stays 2000
        assert all(row["change"] != "left" for row in changes)
    assert out.count("list adjustment of 2024-03-01 (docs/rules.md §7): 7 rating(s)") == 3
    index = (tmp_path / "lists" / "2024-03" / "standard" / "index.html").read_text("utf-8")
    assert "2024-03-01: 7 rating(s) below 2000 raised" in index
    # The player's explanation says it in a line of its own.
    code, said, err = run("player", IDS[4], "--db", db)
    assert code == 0, err
    assert "FIDE 2024 adjustment: 1503 → 1702 (docs/rules.md §7)" in said


def test_once_only_and_games_rated_with_the_february_list_then_adjusted(tmp_path: Path) -> None:
    db = _february_database(tmp_path)
    # A February event (rated in the period of the March list): 1500 (K 20) beats 1500.
    players = [P(1, "A", 1500, 900_000_004, ADULT), P(2, "B", 1503, 900_000_005, ADULT)]
    feb = event_file(tmp_path, "feb", [(1, 1, 2, "1-0")], players=players, day="2024/02/10")
    assert run("add", feb, "--db", db)[0] == 0
    assert run("publish", "2024-03", "--db", db, "--out", tmp_path / "lists")[0] == 0
    march = rows(tmp_path / "lists" / "2024-03" / "standard" / "list.csv")
    # D = 3, PD 0.50 (FIDE's table, 0–3): A +20 × 0.50 = +10 → 1510, then
    # 1510 + round(0.4 × 490) = 1510 + 196 = 1706; B 1503 − 10 = 1493, then
    # 1493 + round(0.4 × 507) = 1493 + round(202.8) = 1696.
    assert (march[IDS[3]]["rating"], march[IDS[4]]["rating"]) == ("1706", "1696")
    players_csv = rows(tmp_path / "lists" / "2024-03" / "standard" / "players.csv")
    assert (players_csv[IDS[3]]["change"], players_csv[IDS[3]]["adjustment"]) == ("10.00", "196")
    # April: no second adjustment; an idle 1400 stays 1400.
    assert run("publish", "2024-04", "--db", db, "--out", tmp_path / "lists")[0] == 0
    april = rows(tmp_path / "lists" / "2024-04" / "standard" / "list.csv")
    assert (april[IDS[0]]["rating"], april[IDS[3]]["rating"]) == ("1400", "1706")


def test_a_rules_file_turns_it_off_or_declares_its_own(tmp_path: Path) -> None:
    off = tmp_path / "off.toml"
    off.write_text('name = "club"\nbase = "fide-2024"\n[adjustment]\non = false\n')
    own = tmp_path / "own.toml"
    own.write_text(
        'name = "club"\nbase = "fide-2024"\nfloor = 1000\n'
        '[adjustment]\non = 2024-05-01\npivot = 1800\nfactor = 0.5\nkinds = ["standard"]\n'
    )
    for rules, expected in ((off, "1503"), (own, "1652")):  # 1503 + round(0.5 × 297) = 1652
        folder = tmp_path / rules.stem
        folder.mkdir()
        listing = write_list(folder, ["id,rating,k", f"{IDS[4]},1503,20"])
        db = folder / "r.sqlite"
        made = run("init", "--list", listing, "--period", "2024-02", "--rules", rules, "--db", db)
        assert made[0] == 0, made
        for period in ("2024-03", "2024-04", "2024-05"):
            assert run("publish", period, "--db", db, "--out", folder / "lists")[0] == 0
        may = rows(folder / "lists" / "2024-05" / "standard" / "list.csv")
        assert may[IDS[4]]["rating"] == expected, rules


def test_rate_with_a_list_older_than_the_adjustment_is_warned(tmp_path: Path) -> None:
    # The February 2024 list as published (its TXT header says FEB24, the list's month).
    db = _february_database(tmp_path)
    assert run("export-list", "initial", "--db", db, "--out", tmp_path / "lists")[0] == 0
    february = tmp_path / "lists" / "2024-02" / "standard" / "list.txt"
    players = [P(1, "A", 1500, 900_000_004, ADULT), P(2, "B", 1503, 900_000_005, ADULT)]
    april = event_file(tmp_path, "apr", [(1, 1, 2, "1-0")], players=players, day="2024/04/10")
    code, out, err = run("rate", april, "--list", february, "--out", tmp_path / "out")
    assert code == 0, err
    assert (
        "the list is of 2024-02, before the list adjustment of 2024-03-01 (docs/rules.md §7)"
        in out + err
    )
    # A list of March 2024 or later, or events before the adjustment: no warning.
    march = event_file(tmp_path, "feb", [(1, 1, 2, "1-0")], players=players, day="2024/02/10")
    code, out, err = run("rate", march, "--list", february, "--out", tmp_path / "out2")
    assert code == 0 and "list adjustment" not in out + err


NEWCOMER = 900_000_099
#: Five opponents on the February 2024 list at 1500 (K 20).
FIVE = [str(900_000_011 + n) for n in range(5)]


def _newcomer_database(folder: Path) -> Path:
    lines = ["id,rating,k", *(f"{i},1500,20" for i in FIVE)]
    db = folder / "r.sqlite"
    code, out, err = run("init", "--list", write_list(folder, lines), "--period", "2024-02",
                         "--db", db)  # fmt: skip
    assert code == 0, out + err
    return db


def _newcomer_event(folder: Path, name: str, day: str, opponents: list[str]) -> Path:
    """The newcomer (start rank 1, unrated) against ``opponents`` in turn: a win, a loss, a
    draw, a win, a loss (as far as there are opponents)."""
    people = [P(1, "New, Comer", None, NEWCOMER, ADULT)]
    people += [P(n + 2, f"Opp, {n}", 1500, int(i), ADULT) for n, i in enumerate(opponents)]
    results = ["1-0", "0-1", "=-=", "1-0", "0-1"]
    games = [(n + 1, 1, n + 2, results[n]) for n in range(len(opponents))]
    return event_file(folder, name, games, players=people, day=day)


def test_a_first_rating_from_the_list_before_is_adjusted_too(tmp_path: Path) -> None:
    db = _newcomer_database(tmp_path)
    feb = _newcomer_event(tmp_path, "feb", "2024/02/10", FIVE)
    assert run("add", feb, "--db", db)[0] == 0
    code, out, err = run("publish", "2024-03", "--db", db, "--out", tmp_path / "lists")
    assert code == 0, err
    # fide-2024's first rating (§4): five games at 1500 and two hypothetical 1800 draws:
    # Ra = (5 × 1500 + 2 × 1800) / 7 = 1585.71, p = (2.5 + 1) / 7 = 0.50, dp 0: 1586 on the
    # list before; adjusted: 1586 + round(0.4 × 414) = 1586 + 166 = 1752.
    listed = rows(tmp_path / "lists" / "2024-03" / "standard" / "list.csv")
    assert listed[str(NEWCOMER)]["rating"] == "1752"
    assert "1 first rating(s) computed from the list before adjusted" in out
    said = run("player", str(NEWCOMER), "--db", db)[1]
    assert "first rating 1586, adjusted to 1752 (docs/rules.md §7)" in said


def test_a_pool_carried_across_the_adjustment_is_carried_at_the_new_scale(
    tmp_path: Path,
) -> None:
    db = _newcomer_database(tmp_path)
    # February: three games (1.5 points), too few for a first rating (five are needed).
    assert run("add", _newcomer_event(tmp_path, "feb", "2024/02/10", FIVE[:3]), "--db", db)[0] == 0
    assert run("publish", "2024-03", "--db", db, "--out", tmp_path / "lists")[0] == 0
    # March: two more against the two who did not play in February (1500, adjusted: 1700),
    # written in the file as 1500 (the list's 1700 is used): a win and a loss in turn.
    people = [P(1, "New, Comer", None, NEWCOMER, ADULT), P(2, "Opp, 3", 1500, int(FIVE[3]), ADULT),
              P(3, "Opp, 4", 1500, int(FIVE[4]), ADULT)]  # fmt: skip
    march = event_file(tmp_path, "mar", [(1, 1, 2, "1-0"), (2, 1, 3, "0-1")], players=people,
                       day="2024/03/10")  # fmt: skip
    assert run("add", march, "--db", db)[0] == 0
    code, _, err = run("publish", "2024-04", "--db", db, "--out", tmp_path / "lists")
    assert code == 0, err
    # The pool: February's three opponents carried at 1500 + round(0.4 × 500) = 1700, and
    # March's two at 1700: Ra = (5 × 1700 + 2 × 1800) / 7 = 1728.57, p = (2.5 + 1) / 7 = 0.50,
    # dp 0: 1729 (at the old scale for February's it would be 11500 / 7 = 1642.86: 1643).
    listed = rows(tmp_path / "lists" / "2024-04" / "standard" / "list.csv")
    assert listed[str(NEWCOMER)]["rating"] == "1729"
