"""A one-time adjustment of a rating list (docs/rules.md §7): FIDE's lists of 1 March 2024
raised every rating R below 2000 to R + round(0.4 × (2000 − R)), in every kind, before the new
floor of 1400. The rules carry it as data (``Rules.adjustment_on``, ``_pivot``, ``_factor``,
``_kinds``); this module says when a period's list takes it and what it makes of a rating."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pandas as pd

from rating_batch.periods import INITIAL, Period, list_date
from rating_batch.systems.elo.rules import Rules


def adjustment_applies(rules: Rules, previous: Period | None, period: Period) -> bool:
    """Whether the list of ``period`` takes the rules' adjustment: it is dated on or after
    the adjustment's date and the list it follows (``previous``) before it. A list of an
    unknown month (an initial list without one) is taken as current: not adjusted."""
    on = rules.adjustment_on
    if on is None or rules.kind not in rules.adjustment_kinds:
        return False
    if previous is None or previous == INITIAL or period == INITIAL:
        return False
    return list_date(previous) < on <= list_date(period)


def adjusted(ratings: np.ndarray, rules: Rules) -> np.ndarray:
    """Each whole rating below the pivot raised by round(factor × (pivot − R)), half up, in
    exact integers (0.4 is 2/5: no binary fraction decides a rounding); the others as they
    are."""
    factor = Fraction(str(rules.adjustment_factor))
    gap = rules.adjustment_pivot - ratings.astype(np.int64)
    raised = (2 * gap * factor.numerator + factor.denominator) // (2 * factor.denominator)
    return np.where(gap > 0, ratings + raised, ratings)


def adjustment_line(rules: Rules, before: int, after: int) -> str:
    """How a player's explanation says the adjustment: ``FIDE 2024 adjustment: 1503 → 1702``
    (a rules file's own: ``list adjustment of 2019-07-01: …``)."""
    on = rules.adjustment_on
    named = (
        f"FIDE {on:%Y} adjustment"
        if rules.source == "built-in edition" and on is not None
        else f"list adjustment of {on}"
    )
    return f"{named}: {before} → {after} (docs/rules.md §7)"


def adjustment_rule(rules: Rules) -> str:
    """The rules' adjustment in a formula: ``round(0.4 × (2000 − R))``."""
    return f"round({rules.adjustment_factor:g} × ({rules.adjustment_pivot} − R))"


def adjustment_summary(rules: Rules, players: pd.DataFrame) -> str:
    """What a list's adjustment did, as publish and the list's index page say it: the ratings
    it raised, the first ratings among them, and those still below the floor (``players``:
    the period's, with ``status`` and ``adjustment``)."""
    status = players["status"].astype(str)[players["adjustment"].fillna(0).gt(0)]
    said = (
        f"{int(status.isin(['rated', 'below_floor']).sum())} rating(s) below "
        f"{rules.adjustment_pivot} raised by {adjustment_rule(rules)} before the floor of "
        f"{rules.floor}"
    )
    counts = [
        (int((status == "new").sum()), "first rating(s) computed from the list before adjusted"),
        (int((status == "below_floor").sum()), "still below the floor left the list"),
    ]
    return said + "".join(f"; {count} {what}" for count, what in counts if count)


def adjustment_note(rules: Rules, previous: Period | None, players: pd.DataFrame) -> str:
    """The period's note on the adjustment its list took: the rule, whom it raised, and one
    example (``players``: the period's, with ``rating``, ``adjustment`` and ``new_rating``)."""
    raised = players[players["adjustment"].fillna(0).gt(0)]
    rule = f"R + {adjustment_rule(rules)} for every rating R below {rules.adjustment_pivot}"
    example = ""
    if len(raised):
        first = raised.iloc[0]
        before = int(first["new_rating"]) - int(first["adjustment"])
        example = f", e.g. {first['id']} {before} → {int(first['new_rating'])}"
    return (
        f"list adjustment of {rules.adjustment_on:%d %B %Y} (docs/rules.md §7): the ratings "
        f"carried from the {previous} list and this period's games became {rule}, before "
        f"the floor of {rules.floor}: {len(raised)} player(s) raised{example}"
    )


def with_adjustment(players: pd.DataFrame, added: pd.api.extensions.ExtensionArray) -> None:
    """players.csv's ``adjustment`` column (the points each rating computed was raised by;
    NA for a player without one), before ``new_rating``, which holds the adjusted rating."""
    where = list(players.columns).index("new_rating")
    players.insert(where, "adjustment", pd.Series(added, index=players.index))
