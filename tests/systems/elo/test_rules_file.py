"""rules_file.py: a federation's rules file (docs/rules.md §8). Every problem of a file is
told at once, each at its line with what to fix; nothing is rated, written or stored."""

from __future__ import annotations

from pathlib import Path

import pytest
from db_helpers import ADULT, run
from trf_text import P, trf

from rating_batch.errors import RulesError
from rating_batch.systems.elo.rules_file import load_rules_file

# Eight problems, one of each kind a file can have (the lines are numbered by hand).
SEVERAL = """\
name = "league"
base = "fide-2025"
flor = 1200
title = 3

[periods]
months = 5

[k]
high = 0
junior = "forty"

[first_rating]
hypothetical_score = 4

[lists]
classes = [
  { name = "novice", from = 0 },
  { name = "class D" },
]
rating_min = 3000
rating_max = 2000
"""


def write(folder: Path, text: str, name: str = "rules.toml") -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def test_every_problem_of_a_rules_file_is_told_at_once_at_its_line(tmp_path: Path) -> None:
    path = write(tmp_path, SEVERAL)
    with pytest.raises(RulesError) as raised:
        load_rules_file(path)
    # Ranges (docs/rules.md §8, `rating-batch rules`): K 1–100; the hypothetical score in
    # points 0–1; a period of months dividing the year; a list's lowest rating below its
    # highest (both in range on their own: 0–4000 and 1–4000).
    assert str(raised.value).splitlines() == [
        f"{path}:3: unknown key 'flor' (did you mean 'floor'?)",
        f"{path}:4: key 'title' must be text in quotes, not 3",
        f"{path}:7: key 'periods.months' must divide 12 (1, 2, 3, 4, 6 or 12), not 5",
        f"{path}:10: key 'k.high' must be 1–100, not 0",
        f"{path}:11: key 'k.junior' must be a whole number, not 'forty'",
        f"{path}:14: key 'first_rating.hypothetical_score' must be 0–1, not 4",
        f"{path}:17: key 'lists.classes' must give each class as "
        "{ name = \"…\", from = rating }: class 2 is {'name': 'class D'}",
        f"{path}:21: key 'lists.rating_min' 3000 is not below lists.rating_max 2000: the lowest "
        "rating a list may hold must be below the highest",
    ]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("[k]\nhigh = 0\n", ":2: key 'k.high' must be 1–100, not 0"),
        ('[k]\njunior = "forty"\n', ":2: key 'k.junior' must be a whole number, not 'forty'"),
        (
            "floor = 2300\n",
            ":1: key 'floor' 2300 is above the first-rating cap 2200 (first_rating.max): lower "
            "the floor or raise the cap",
        ),
        (
            'base = "fide-1999"\n',
            ":1: base 'fide-1999' is not an edition: write one of fide-2011, fide-2014, "
            "fide-2022, fide-2024, fide-2025",
        ),
        (
            '[expected]\nmethod = "elo"\n',
            ":2: key 'expected.method' must be one of 'table', 'logistic', not 'elo'",
        ),
        (
            "[first_rating]\nhypothetical_score = 0.3\n",
            ":2: key 'first_rating.hypothetical_score' must be a score in half points (0, 0.5, "
            "1 …), not 0.3",
        ),
        # fide-2025's floor 1400 against a cap the file lowers: told at the cap's line.
        (
            'base = "fide-2025"\n[first_rating]\nmax = 1300\n',
            ":3: key 'floor' 1400 is above the first-rating cap 1300 (first_rating.max): lower "
            "the floor or raise the cap",
        ),
        # A refused value is judged by nothing else: no clash with a floor it did not set.
        (
            'floor = "high"\n[first_rating]\nmax = 1300\n',
            ":1: key 'floor' must be a whole number, not 'high'",
        ),
        # A period of 13 months is out of range; "must divide 12" would only repeat it.
        ("[periods]\nmonths = 13\n", ":2: key 'periods.months' must be 1–12, not 13"),
        (
            "k = 20\n",
            ":1: 'k' is a section, not a value: write [k] and its keys (high, high_threshold, "
            "junior, junior_age, junior_age_basis, junior_ceiling, junior_ceiling_basis, "
            "junior_year, new, new_player_games, pool_games_count, default, games_cap) below it",
        ),
        ("k = { high = 0 }\n", ":1: key 'k.high' must be 1–100, not 0"),
        (
            "[lists]\nbogus = 1\n",
            ":2: unknown key 'lists.bogus': 'rating-batch rules fide-2025' lists every key",
        ),
        (
            "base = [1]\n",
            ":1: base [1] is not an edition: write one of fide-2011, fide-2014, fide-2022, "
            "fide-2024, fide-2025",
        ),
    ],
    ids=[
        "out-of-range",
        "not-a-number",
        "floor-above-the-cap",
        "no-such-base",
        "not-a-choice",
        "not-half-points",
        "clash-at-the-key-written",
        "refused-not-judged-again",
        "out-of-range-once",
        "section-as-value",
        "inline-table",
        "unknown-no-hint",
        "base-not-text",
    ],
)
def test_each_problem_says_what_to_fix(text: str, expected: str, tmp_path: Path) -> None:
    path = write(tmp_path, text)
    with pytest.raises(RulesError) as raised:
        load_rules_file(path)
    assert str(raised.value) == f"{path}{expected}"


def test_a_file_that_is_no_toml_is_told_where_toml_says(tmp_path: Path) -> None:
    path = write(tmp_path, "floor = \n")
    with pytest.raises(RulesError) as raised:
        load_rules_file(path)
    assert str(raised.value).startswith(f"{path}: not valid TOML: ")
    assert "(at line 1, column 9)" in str(raised.value)


# -- through the command line ----------------------------------------------------------------------

TWO = 'base = "fide-2025"\nflor = 1200\n\n[periods]\nmonths = 5\n'


def two_problems(path: Path) -> str:
    return (
        f"Error: {path}:2: unknown key 'flor' (did you mean 'floor'?)\n"
        f"{path}:5: key 'periods.months' must divide 12 (1, 2, 3, 4, 6 or 12), not 5\n"
    )


def event(folder: Path) -> Path:
    path = folder / "open.trf"
    path.write_text(
        trf([P(1, "A", 1600, 11, ADULT), P(2, "B", 1500, 12, ADULT)], [(1, 1, 2, "1-0")])
    )
    return path


def test_rate_tells_both_problems_and_writes_nothing(tmp_path: Path) -> None:
    rules = write(tmp_path, TWO)
    out = tmp_path / "out"
    assert run("rate", event(tmp_path), "--rules", rules, "--out", out) == (
        1,
        "",
        two_problems(rules),
    )
    assert not out.exists()


def test_check_tells_both_problems_of_an_elo_rules_file(tmp_path: Path) -> None:
    rules = write(tmp_path, TWO)
    assert run("check", event(tmp_path), "--rules", rules) == (1, "", two_problems(rules))


def test_check_judges_ratings_by_the_rules_files_rating_min(tmp_path: Path) -> None:
    # A rating of 10: below FIDE's lowest (100), not below a federation's 5 (docs/rules.md §9).
    players = [P(1, "A", 1600, 11, ADULT), P(2, "B", 10, 12, ADULT)]
    low = tmp_path / "low.trf"
    low.write_text(trf(players, [(1, 1, 2, "1-0")]))
    rules = write(tmp_path, "[lists]\nrating_min = 5\n")
    assert run("check", low, "--rules", rules) == (0, "", "0 error(s), 0 warning(s)\n")
    assert run("check", low)[0] == 1


def test_init_with_a_wrong_rules_file_makes_no_database(tmp_path: Path) -> None:
    rules = write(tmp_path, TWO)
    listing = tmp_path / "list.csv"
    listing.write_text("id,name,rating\n11,A,1600\n")
    db = tmp_path / "r.sqlite"
    code, _, err = run("init", "--list", listing, "--rules", rules, "--db", db)
    assert (code, err) == (1, two_problems(rules))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["list.csv", "rules.toml"]


SYSTEM = """\
system = "glicko"
beta = 4
[glicko]
initial_rd = 400
rd_max = 300
from_elo_rd = "x"
tua = 1
c = -5
"""


def test_a_systems_rules_file_tells_every_problem_at_once(tmp_path: Path) -> None:
    rules = write(tmp_path, SYSTEM)
    out = tmp_path / "out"
    # docs/systems.md §3: RD at most rd_max; c from 0 to 10000.
    expected = (
        f"Error: {rules}:2: unknown key 'beta' for system 'glicko' (its constants go in the "
        "[glicko] section)\n"
        f"{rules}:4: key 'initial_rd' 400 is more than rd_max 300: lower it or raise rd_max\n"
        f"{rules}:6: key 'from_elo_rd' must be a number (got 'x')\n"
        f"{rules}:7: unknown key 'tua': 'rating-batch rules glicko' lists them all\n"
        f"{rules}:8: key 'c' must be at least 0 and at most 10000 (got -5)\n"
    )
    assert run("rate", event(tmp_path), "--rules", rules, "--out", out) == (1, "", expected)
    assert not out.exists()
    assert run("check", event(tmp_path), "--rules", rules) == (1, "", expected)


# -- the title of the rapid and blitz lists (docs/rules.md §6, §8) -------------------------------


def test_a_file_titles_its_rapid_and_blitz_lists_apart_or_not_at_all(tmp_path: Path) -> None:
    apart = load_rules_file(
        write(tmp_path, 'title = "League (2650 exemption)"\nrapid_blitz_title = "League"\n')
    )
    assert [apart.for_kind(kind).label() for kind in ("standard", "rapid", "blitz")] == [
        "rules: League (2650 exemption)", "rules: League", "rules: League",
    ]  # fmt: skip
    # Without its own, a file based on fide-2025 keeps none of fide-2025's titles.
    plain = load_rules_file(write(tmp_path, "floor = 1300\n", "plain.toml"))
    assert plain.for_kind("rapid").label() == "plain: plain: fide-2025 with a federation's changes"
    with pytest.raises(RulesError) as raised:
        load_rules_file(write(tmp_path, "rapid_blitz_title = 5\n", "five.toml"))
    assert str(raised.value) == (
        f"{tmp_path / 'five.toml'}:1: key 'rapid_blitz_title' must be text in quotes, not 5"
    )
