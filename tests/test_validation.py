"""validation.py: the plausibility checks ``check``, ``rate`` and ``add`` share."""

from __future__ import annotations

from pathlib import Path

from db_helpers import ADULT, database, dump, run
from trf_text import P, trf

# Two rated players and one whose rating column holds 10: below the lowest rating any list
# may hold (Rules.rating_min, 100 in FIDE's editions: docs/rules.md §9).
PLAYERS = [P(1, "Alpha, Ann", 1800, 11, ADULT), P(2, "Beta, Bob", 1700, 12, ADULT),
           P(3, "Gamma, Gus", 10, 13, ADULT)]  # fmt: skip
GAMES = [(1, 1, 3, "1-0"), (2, 2, 3, "1-0"), (3, 1, 2, "=-=")]


def test_an_event_rating_below_the_rules_minimum_is_an_error_naming_its_line(
    tmp_path: Path,
) -> None:
    event = tmp_path / "low.trf"
    event.write_text(trf(PLAYERS, GAMES), encoding="utf-8")
    message = (
        f"{event}:6: rating 10 is below the lowest a rating list may hold (100, the rules' "
        "rating_min): a typo? (an unrated player's rating is left blank)"
    )
    code, out, err = run("check", event)
    assert (code, out, err) == (1, message + "\n", "1 error(s), 0 warning(s)\n")
    out_folder = tmp_path / "out"
    code, _, err = run("rate", event, "--rules", "fide-2025", "--out", out_folder)
    assert (code, err) == (1, f"Error: {message}\n")
    assert not out_folder.exists()
    db = database(tmp_path, "11,1800", "12,1700", "13,1500")
    before = dump(db)
    code, _, err = run("add", event, "--db", db)
    assert (code, err) == (1, f"Error: {message}\n")
    assert dump(db) == before


def test_a_rules_file_lowering_rating_min_lets_the_rating_be_used(tmp_path: Path) -> None:
    """The bound is the rules' ``[lists] rating_min``: a federation whose lists go lower."""
    from conftest import read_csv

    event = tmp_path / "low.trf"
    event.write_text(trf(PLAYERS, GAMES), encoding="utf-8")
    rules = tmp_path / "low.toml"
    rules.write_text('name = "low"\nbase = "fide-2025"\n\n[lists]\nrating_min = 5\n')
    code, _, err = run("rate", event, "--rules", rules, "--out", tmp_path / "out")
    assert code == 0, err
    rows = {row["id"]: row for row in read_csv(tmp_path / "out" / "players.csv")}
    assert rows["13"]["rating"] == "10"
