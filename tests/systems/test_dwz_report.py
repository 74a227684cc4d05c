"""The DWZ's worked lines in the DSB's form (docs/systems.md §10.9), from calculations.csv's
values; expected values by hand."""

from __future__ import annotations

from rating_batch.systems.dwz.constants import Dwz
from rating_batch.systems.dwz.report import worked_lines


def test_e0_is_shown_so_that_its_rounding_to_e_holds() -> None:
    # R0 1800, J 15 (an adult): E0 = 1.8⁴ + 15 = 10.4976 + 15 = 25.4976 → E 25. To 2
    # decimals it would read "25,50 → E = 25", a rounding that looks wrong; to 4 it holds.
    # Rn = 1800 + 800 × (1 − 0.5)/(25 + 1) = 1815.38 → 1815.
    values = {"r0": "1800", "r0_source": "DWZ", "j": "15", "e0": "25.4976", "fb": "1.0",
              "sbr": "0.0", "e": "25", "n": "1", "w": "1.0", "we": "0.5",
              "new_rating": "1815", "new_index": "11"}  # fmt: skip
    assert worked_lines(values, Dwz()) == [
        "E0 = (1800/1000)^4 + 15 = 25,4976 → E = 25",
        "Rn = 1800 + 800 × (1 − 0,500) / (25 + 1) = 1815",
    ]
