"""K of the period from the previous list (systems/elo/k.py, docs/rules.md §3): a K this
tool derived for its own list from a birth year corrected since is derived again."""

from __future__ import annotations

import pandas as pd
import pytest

from rating_batch.systems.elo.k import k_factors, k_in_force
from rating_batch.systems.elo.rules import EDITIONS

RULES = EDITIONS["fide-2025"]


def _players() -> pd.DataFrame:
    """Two players at 1600 with K 20 on the previous list, both born 2012 as corrected: 14
    in 2026, juniors below 2300 (§3: K 40); the first one's birth year was corrected."""
    return pd.DataFrame(
        {
            "rating": pd.array([1600, 1600], dtype="Int64"),
            "k": pd.array([20, 20], dtype="Int64"),
            "birth_year": pd.array([2012, 2012], dtype="Int64"),
            "games_total": pd.array([None, None], dtype="Int64"),
            "ever_high": pd.array([False, False], dtype="boolean"),
            "ever_junior_ceiling": pd.array([False, False], dtype="boolean"),
        }
    )


@pytest.mark.parametrize(
    ("derived", "expected"),
    [(True, ([40, 20], ["junior", "list"])), (False, ([20, 20], ["list", "list"]))],
    ids=["our-list", "imported-list"],
)
def test_a_k_derived_from_a_corrected_birth_year_is_derived_again(
    derived: bool, expected: tuple[list[int], list[str]]
) -> None:
    players = _players()
    corrected = pd.Series([True, False])
    chosen = players.assign(k=k_in_force(players["k"], corrected, derived=derived))
    result = k_factors(chosen, RULES, 2026)
    assert (result["k"].tolist(), result["k_source"].astype(str).tolist()) == expected
    assert players["k"].tolist() == [20, 20]  # the argument is not changed


def test_the_k_note_says_the_editions_own_values() -> None:
    """docs/rules.md §3: under the March 2011 list K was 25 for a player's first 30 games,
    else 15 (10 from 2400), with no junior rule; the 2014 regulations and later give 40 to
    juniors below 2300 and to new players, else 20. The report's note says the K of the
    edition that rated the period, never another's."""
    from rating_batch.systems.elo.reasons import period_notes

    unknown = pd.DataFrame({"k": pd.array([None], dtype="Int64"),
                            "games_total": pd.array([40], dtype="Int64")})  # fmt: skip
    assert (
        "K without a value in the previous list: 10 once rated 2400+, 25 for players with "
        "fewer than 30 rated games when the list says so, otherwise 15 (docs/rules.md §3)"
    ) in " ".join(period_notes(EDITIONS["fide-2011"], unknown))
    assert (
        "K without a value in the previous list: 10 once rated 2400+, 40 for juniors below "
        "2300 and players with fewer than 30 rated games when the list says so, otherwise 20 "
        "(docs/rules.md §3); then the 700 cap over the period"
    ) in period_notes(EDITIONS["fide-2025"], unknown)
