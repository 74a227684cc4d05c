"""Every K decision of FIDE Elo (docs/rules.md §3), in one place: K for the period
(``k_factors``: from the list, else the first rule that applies; ``k_in_force``: a list's K
derived from a birth year since corrected is derived again), the 700 cap (``cap_k``),
K on the next list (``list_k``), the history flags a list carries for it
(``history_flags``), the year juniors are judged by (``junior_year``) and how the reports
say the rule (``k_note``). The values are data, in
the rules (``rules.py``)."""

from __future__ import annotations

import datetime as dt

import numpy as np
import pandas as pd

from rating_batch.periods import INITIAL, closing_date, previous_list_period
from rating_batch.schema import integers
from rating_batch.systems.elo.rules import Rules


def k_factors(players: pd.DataFrame, rules: Rules, period_year: int | None) -> pd.DataFrame:
    """K before the 700 cap, and where it came from.

    Expects columns ``rating``, ``k``, ``birth_year``, ``games_total``, ``ever_high``,
    ``ever_junior_ceiling``. Returns columns ``k`` and ``k_source``. K from the list wins;
    otherwise the first matching rule of §3 applies. Unknown history falls back to the
    current rating (ever ≥ threshold) and to "30 games or more" (the no-list rule of §3).
    """
    rating = integers(players["rating"])
    # A known history flag decides; without one, the current rating is the best evidence.
    ever_high = _flags(players["ever_high"], rating >= rules.high_threshold)
    if rules.junior_ceiling_basis == "ever":
        ceiling_reached = _flags(players["ever_junior_ceiling"], rating >= rules.junior_ceiling)
    else:
        ceiling_reached = rating >= rules.junior_ceiling
    birth = players["birth_year"].to_numpy(dtype=np.int64, na_value=-10_000)
    age = (period_year or 0) - birth
    young = (
        age < rules.junior_age if rules.junior_age_basis == "birthday" else age <= rules.junior_age
    )
    junior = (
        np.zeros(len(players), dtype=bool)
        if period_year is None or rules.k_junior is None
        else (birth > 0) & young & ~ceiling_reached
    )
    games_total = players["games_total"].fillna(10**9).to_numpy(np.int64)
    new = games_total < rules.new_player_games
    listed = players["k"].notna().to_numpy()
    computed = np.select(
        [ever_high, junior, new],
        [rules.k_high, rules.k_junior or 0, rules.k_new],
        default=rules.k_default,
    )
    sources = ["list", f"rated {rules.high_threshold}+", "junior", "new player", "default"]
    source = pd.Categorical.from_codes(
        np.select([listed, ever_high, junior, new], [0, 1, 2, 3], default=4),
        dtype=pd.CategoricalDtype(sources),
    )
    k = np.where(listed, players["k"].fillna(0).to_numpy(np.int64), computed)
    return pd.DataFrame({"k": k, "k_source": source}, index=players.index)


def k_note(rules: Rules) -> str:
    """The K rule of ``rules`` as a report's note says it, for players whose previous list
    gave no K (docs/rules.md §3): its values, never another edition's."""
    new = f"players with fewer than {rules.new_player_games} rated games when the list says so"
    if rules.k_junior is None:
        young = [f"{rules.k_new} for {new}"]
    elif rules.k_junior == rules.k_new:
        young = [f"{rules.k_new} for juniors below {rules.junior_ceiling} and {new}"]
    else:
        young = [
            f"{rules.k_junior} for juniors below {rules.junior_ceiling}",
            f"{rules.k_new} for {new}",
        ]
    rule = ", ".join([f"{rules.k_high} once rated {rules.high_threshold}+", *young])
    cap = f"; then the {rules.k_games_cap} cap over the period" if rules.k_games_cap else ""
    return (
        f"K without a value in the previous list: {rule}, otherwise {rules.k_default} "
        f"(docs/rules.md §3){cap}"
    )


def k_in_force(k: pd.Series, corrected: pd.Series, *, derived: bool) -> pd.Series:
    """The previous list's K as the period being rated takes it (§3: from the list when it
    gives one). An imported list's K is its federation's word and stays. A list rating_batch
    published (``derived``) gives the K it derived itself (``list_k``); where it derived it
    from a birth year corrected since (``corrected``), that K rests on a mistake and is left
    out, so that ``k_factors`` derives it again from the corrected data for this period.
    The published list keeps the K it printed."""
    if not derived:
        return k
    return k.mask(corrected.to_numpy(bool))


def _flags(column: pd.Series, otherwise: np.ndarray) -> np.ndarray:
    """A nullable boolean column, with ``otherwise`` where it is NA."""
    known = column.notna().to_numpy()
    values = column.to_numpy(dtype=bool, na_value=False)
    return np.where(known, values, otherwise)


def cap_k(k: np.ndarray, games: np.ndarray, rules: Rules) -> np.ndarray:
    """The 700 rule (§3): K × n may not exceed the cap over the period."""
    if rules.k_games_cap is None:
        return k
    limit = rules.k_games_cap // np.maximum(games, 1)
    return np.where(k * games > rules.k_games_cap, np.minimum(k, limit), k)


def list_k(
    rating: pd.Series,
    birth_year: pd.Series,
    games_total: pd.Series,
    peak: pd.Series,
    rules: Rules,
    year: int | None,
) -> pd.Series:
    """K that a list gives for the next period (§3), from the rating and history."""
    index = rating.index
    frame = pd.DataFrame(
        {
            "rating": rating,
            "k": pd.Series(pd.NA, index=index, dtype="Int64"),
            "birth_year": pd.Series(birth_year.to_numpy(), index=index, dtype="Int64"),
            "games_total": pd.Series(games_total.to_numpy(), index=index, dtype="Int64"),
            "ever_high": (peak >= rules.high_threshold).astype("boolean"),
            "ever_junior_ceiling": (peak >= rules.junior_ceiling).astype("boolean"),
        }
    )
    return pd.Series(k_factors(frame, rules, year)["k"].to_numpy(), index=index, dtype="Int64")


def games_from_list_k(
    listed: pd.DataFrame, peak: pd.Series, rules: Rules, year: int | None
) -> tuple[pd.Series, pd.Series]:
    """Lifetime games an initial list implies by its K (``init``), and who they were
    inferred for: K ``k_new`` (40) on a FIDE list for a player who is neither a junior nor
    2400+ means fewer than 30 games, so they are counted from 0 and K drops once 30 games are
    played here (§3). ``listed``: the list's ``rating``, ``k``, ``birth_year`` and
    ``games_total`` (kept where given); ``year``: the next period's, for juniors."""
    games_total = listed["games_total"].copy()
    unknown = pd.Series(pd.NA, index=listed.index, dtype="Int64")
    experienced = list_k(listed["rating"], listed["birth_year"], unknown, peak, rules, year)
    new = (
        games_total.isna()
        & (listed["k"] == rules.k_new).fillna(False)
        & (experienced != rules.k_new)
    )
    return games_total.mask(new, 0), new


def as_new_players(people: pd.DataFrame, who: pd.Series) -> None:
    """K as for a new player for ``who`` (``rate --list``: unrated in rapid or blitz, rated
    in standard, §6): no games counted, no K from the list, and no history (the borrowed
    rating says nothing of 2400 or the junior ceiling reached)."""
    people.loc[who, "games_total"] = 0
    people.loc[who, "k"] = pd.NA
    people.loc[who, "ever_high"] = False
    people.loc[who, "ever_junior_ceiling"] = False


def history_flags(rules: Rules) -> dict[str, int]:
    """The ``ever_<rating>`` columns a list carries: the permanent high K's threshold, and
    the junior ceiling when it is judged on the highest rating ever published."""
    flags = {f"ever_{rules.high_threshold}": rules.high_threshold}
    if rules.junior_ceiling_basis == "ever":
        flags[f"ever_{rules.junior_ceiling}"] = rules.junior_ceiling
    return flags


def junior_year(rules: Rules, period: str | None, latest_end: dt.date | None) -> int | None:
    """The year against which a period's juniors are judged for K (docs/rules.md §3).

    ``junior_year = "closing_date"``: the year of the period's closing date (FIDE's monthly
    lists). ``"latest_end"``: the year of the latest end date among the period's events; for a
    list's K, given before its period's events are known (``latest_end`` None), the year that
    holds most of the period's days. None when there is no period and no date."""
    if period is None or period == INITIAL:
        return None if latest_end is None else latest_end.year
    if rules.junior_year == "latest_end":
        if latest_end is not None:
            return latest_end.year
        first = closing_date(rules, previous_list_period(rules, period)) + dt.timedelta(days=1)
        last = closing_date(rules, period)
        return (first + (last - first) / 2).year
    return closing_date(rules, period).year
