"""The individual calculations (calculations.py) as calculations.csv shows them: the
first-rating formula prints each value as the rules round it (docs/rules.md §4.3: half up),
never a half-hundredth rounded down."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from conftest import read_csv
from trf_text import P, trf

from rating_batch.systems.elo.calculations import first_rating_formula
from rating_batch.systems.elo.first import first_rating_parts
from rating_batch.systems.elo.rules import EDITIONS

ADULT = 1980

# An unrated player (start rank 1) against six rated opponents: ΣRi = 1500 + 1550 + 1575 +
# 1600 + 1580 + 1600 = 9405; won against the first three, lost to the others: W 3 of n 6.
HALF_UP = [
    P(1, "Unrated, Una", None, 10, ADULT),
    P(2, "Opp, A", 1500, 11, ADULT),
    P(3, "Opp, B", 1550, 12, ADULT),
    P(4, "Opp, C", 1575, 13, ADULT),
    P(5, "Opp, D", 1600, 14, ADULT),
    P(6, "Opp, E", 1580, 15, ADULT),
    P(7, "Opp, F", 1600, 16, ADULT),
]
HALF_UP_GAMES = [
    (1, 1, 2, "1-0"),
    (2, 3, 1, "0-1"),
    (3, 1, 4, "1-0"),
    (4, 5, 1, "1-0"),
    (5, 1, 6, "0-1"),
    (6, 7, 1, "1-0"),
]
# §4.3 (fide-2025): Ra = (9405 + 2 × 1800) / 8 = 13005 / 8 = 1625.625 → 1625.63 (half up;
# binary rounding prints 1625.62); p = (3 + 1) / 8 = 0.50 → dp 0; Ru = 1625.625 → 1626.
HALF_UP_FORMULA = (
    "Ra = (9405 + 2 × 1800) / 8 = 1625.63; p = 4 / 8 = 0.50, dp 0; Ru = Ra + dp = 1625.63 → 1626"
)


def test_a_half_hundredth_is_printed_rounded_half_up_in_calculations_csv(tmp_path: Path) -> None:
    from db_helpers import process

    event = tmp_path / "open.trf"
    event.write_text(trf(HALF_UP, HALF_UP_GAMES), encoding="utf-8")
    status, _, stderr = process(
        "-q", "rate", event, "--rules", "fide-2025", "--out", tmp_path / "out"
    )
    assert status == 0, stderr
    rows = read_csv(tmp_path / "out" / "calculations.csv")
    (result,) = [row for row in rows if row["calculation"] == "first_rating_result"]
    assert result["formula"] == HALF_UP_FORMULA
    # Ra of the rated opponents 9405 / 6 = 1567.50; with the hypothetical ones 1625.625.
    assert (result["ra_rated"], result["ra"], result["first_rating"]) == (
        "1567.5",
        "1625.63",
        "1626",
    )
    (player,) = [row for row in read_csv(tmp_path / "out" / "players.csv") if row["id"] == "10"]
    assert (player["status"], player["new_rating"]) == ("new", "1626")


def test_the_step_formulas_values_are_rounded_half_up() -> None:
    # fide-2022 (§4.4): Ra the rated opponents' average; above 50 % Ru = Ra + 20 × (2W − n).
    # ΣRi 12805 over 8 games: Ra = 1600.625 → 1600.63; W 6 of 8: 2W − n = 4;
    # Ru = 1600.625 + 80 = 1680.625 → 1680.63 as printed, 1681 as rated (half up).
    rules = EDITIONS["fide-2022"]
    n, half, total = np.array([8]), np.array([12]), np.array([12805])
    parts = first_rating_parts(n, half, total, rules)
    (formula,) = first_rating_formula(n, half, total, parts, rules)
    assert formula == (
        "Ra = 12805 / 8 = 1600.63; W = 6 of 8, 4 half point(s) above 50%; "
        "Ru = Ra + 20 × 4 = 1680.63 → 1681"
    )
