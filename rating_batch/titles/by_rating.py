"""A player's title status from the database (spec title-norms §A.3): the titles by rating
(B.01 1.3; spec §3: FM 2300, CM 2200, WFM 2100, WCM 2000, reached on a published list, with
at least 30 rated games at that time for a rating reached from 1 Jul 2017 on), read from his
stored standard ratings (the rating and the games counted up to each list); and for each
norm title, his norms and the games they count against an application's 27 (1.5.1). Pure:
frames in, frames out."""

from __future__ import annotations

import datetime as dt

import numpy as np
import pandas as pd

from rating_batch.titles.rules import NormRules

#: The women's titles by rating (sought by women only, 0.3.1; sex as the frames hold it: ``F``).
WOMEN_TITLES = frozenset({"WFM", "WCM"})

#: The columns ``titles_by_rating`` returns.
RATING_TITLE_COLUMNS = ("title", "minimum", "reached", "period", "rating", "games", "note")


def titles_by_rating(
    history: pd.DataFrame, dates: pd.Series, sex: str | None, rules: NormRules
) -> pd.DataFrame:
    """Each title by rating the player could hold (the women's for women only), whether a
    list gave it, and on which.

    Expects columns ``period``, ``rating``, ``games_total`` (the lifetime rated games up to
    that list, NA when unknown), one row per standard list, oldest first; ``dates``: each
    row's list date (None: unknown, as the initial list of unknown month). Returns columns
    ``RATING_TITLE_COLUMNS``: ``reached`` at the first list whose rating is at least the
    minimum with enough games (1.3: ``title_rating_games`` from
    ``rating_titles_games_since``); else, when a list had the rating but not the games, that
    list with a ``note`` saying what was missing; else ``period`` empty."""
    rating = pd.to_numeric(history["rating"]).to_numpy(dtype=np.float64, na_value=np.nan)
    games = pd.to_numeric(history["games_total"]).to_numpy(dtype=np.float64, na_value=np.nan)
    since = rules.rating_titles_games_since
    needs_games = np.array([_needs(day, since) for day in dates], dtype=bool)
    enough = ~needs_games | (games >= rules.title_rating_games)
    rows = []
    for title, minimum in rules.rating_titles.items():
        if title in WOMEN_TITLES and sex != "F":
            continue
        high = rating >= minimum
        hit = np.flatnonzero(high & enough)
        short = np.flatnonzero(high & ~enough)
        at = hit[0] if len(hit) else short[0] if len(short) else -1
        note = ""
        if not len(hit) and len(short):
            counted = (
                "its rated games then not known"
                if np.isnan(games[at])
                else f"{int(games[at])} rated games"
            )
            note = f"{minimum} reached with {counted}: {rules.title_rating_games} needed (1.3)"
        rows.append(
            {
                "title": title,
                "minimum": minimum,
                "reached": bool(len(hit)),
                "period": "" if at < 0 else str(history["period"].iloc[at]),
                "rating": None if at < 0 else int(rating[at]),
                "games": None if at < 0 or np.isnan(games[at]) else int(games[at]),
                "note": note,
            }
        )
    return pd.DataFrame(rows, columns=list(RATING_TITLE_COLUMNS))


def _needs(day: dt.date | None, since: dt.date | None) -> bool:
    """Whether a rating reached on ``day`` needs the games (an unknown day does, once the
    rule exists: the list may be of any date)."""
    return since is not None and (day is None or day >= since)


#: The columns ``norms_gathered`` returns.
GATHERED_COLUMNS = ("title", "norms", "games", "needed")


def norms_gathered(norms: pd.DataFrame, rules: NormRules) -> pd.DataFrame:
    """Per norm title, the norms made and the games they count in an application (each
    norm's ``credit_games``: min(n, 13), 9 for a 1.4.1c norm, one more per full point over
    the score needed, 1.7, 1.4.1d), against the games it needs (1.5.1: 27). A higher
    title's norm is a row of each title it meets (norms.csv checks every title sought).

    Expects ``norm_title`` and ``credit_games`` (the norms made); returns
    ``GATHERED_COLUMNS`` in the order of the norm titles."""
    if norms.empty:
        return pd.DataFrame(columns=list(GATHERED_COLUMNS))
    credit = pd.to_numeric(norms["credit_games"]).fillna(0).astype("int64")
    by_title = credit.groupby(norms["norm_title"].astype(str).to_numpy()).agg(["size", "sum"])
    order = [t.title for t in rules.titles if t.title in by_title.index]
    return pd.DataFrame(
        {
            "title": order,
            "norms": by_title.loc[order, "size"].to_numpy(),
            "games": by_title.loc[order, "sum"].to_numpy(),
            "needed": rules.application_games,
        },
        columns=list(GATHERED_COLUMNS),
    )
