"""What a rating list may hold but should not (``list_issues``): each value checked against
the rules' ranges and FIDE's, an error naming its row (docs/formats.md §10)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

import numpy as np
import pandas as pd

from rating_batch.errors import Issue
from rating_batch.loaders.common import MAX_ID_DIGITS
from rating_batch.systems.elo.rules import FIDE_LIST_K, KINDS, Rules

FIRST_BIRTH_YEAR = 1900


def list_issues(
    frame: pd.DataFrame, source: str, kinds: Sequence[str], rules: Rules | None = None
) -> list[Issue]:
    """Values a list may hold but should not: ratings outside the rules' range, K outside
    the rules' values (any FIDE edition's without rules), birth years before 1900 or after
    this year, FIDE IDs of more than 10 digits, the same FIDE ID on two rows. Each an error
    naming the row."""
    if frame.empty:
        return []
    low, high = (rules.rating_min, rules.rating_max) if rules else (100, 3000)
    k_values = rules.k_values() if rules else FIDE_LIST_K
    lines = frame["line"].to_numpy()
    found: list[tuple[int, str]] = []

    def bad(mask: pd.Series, values: pd.Series, message: str) -> None:
        """``message`` with ``{}`` for the value, for every row of ``mask``."""
        for position in np.flatnonzero(mask.fillna(False).to_numpy(bool)).tolist():
            found.append((position, message.format(values.iat[position])))

    allowed = ", ".join(str(v) for v in sorted(k_values))
    for kind in KINDS:
        rating, k = frame[f"{kind}_rating"], frame[f"{kind}_k"]
        prefix = "" if len(kinds) <= 1 else f"{kind} "
        bad(
            (rating < low) | (rating > high),
            rating,
            prefix + f"rating {{}} is not a rating ({low}–{high})",
        )
        bad(
            k.notna() & ~k.isin(list(k_values)),
            k,
            prefix + f"K {{}} is not a K of the rules ({allowed})",
        )
    year = frame["birth_year"]
    this_year = dt.date.today().year
    bad(
        (year < FIRST_BIRTH_YEAR) | (year > this_year),
        year,
        f"birth year {{}} is not a year of birth ({FIRST_BIRTH_YEAR}–{this_year})",
    )
    ids = frame["id"]
    bad(ids >= 10**MAX_ID_DIGITS, ids, f"FIDE ID {{}} has more than {MAX_ID_DIGITS} digits")
    own = frame["own_id"]
    national = frame["national_id"]  # one person's (docs/formats.md §11.1)
    for key, shown in (
        (ids, "FIDE ID " + ids.astype("string")),
        (own, "id '" + own + "'"),
        (national, "national id " + national),
    ):
        first = pd.Series(lines, index=frame.index).groupby(key.to_numpy()).transform("first")
        bad(
            key.duplicated(keep="first") & key.notna(),
            shown + " is also on line " + first.astype("Int64").astype("string"),
            "{}: one player, one row",
        )
    found.sort(key=lambda item: item[0])
    return [Issue(source, int(lines[position]), message) for position, message in found]
