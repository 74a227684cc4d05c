"""Why a player's Ro and K are what they are, in words, where a reader would not guess it: a
rapid or blitz rating borrowed from the standard list (docs/rules.md §6), and a K reduced by
the 700 cap (§3). The same words in ``player``, the workbooks and the pages.

Pure and vectorised: players.csv's columns in, one note per player out ("" when Ro and K
need no word)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from rating_batch.systems.elo.k import k_note
from rating_batch.systems.elo.rules import Rules

#: How each ``k_source`` reads after "K 40 " (docs/rules.md §3).
K_SOURCES = {
    "list": "from the list",
    "junior": "as a junior",
    "new player": "as a new player",
    "default": "by default",
}


def ro_k_notes(players: pd.DataFrame, kind: str, caps: pd.Series | int | None) -> pd.Series:
    """Each player's note on Ro and K, e.g. ``Ro = standard rating 1936 (no rapid rating), K 40
    as a new player`` and ``K 40 → 33 (700 cap: 21 games)``, joined by "; ".

    Expects players.csv columns ``rating``, ``rating_source``, ``k``, ``k_before_cap``,
    ``k_source`` and ``games`` (any may be missing: files published before they existed);
    ``caps``: the rules' ``k_games_cap`` (per row, or one for all). Returns a string Series
    on ``players``' index."""
    index = players.index

    def column(name: str) -> pd.Series:
        values = players[name] if name in players else pd.Series(pd.NA, index=index)
        return values.astype("string").str.replace(r"\.0$", "", regex=True)

    rating, k, before, games = (column(c) for c in ("rating", "k", "k_before_cap", "games"))
    source = column("k_source")
    reads = source.map(K_SOURCES).fillna("as " + source).astype("string")
    k_then = before.fillna(k)
    borrowed = (
        "Ro = standard rating " + rating + f" (no {kind} rating), K " + k_then + " " + reads
    ).where(column("rating_source").eq("standard").fillna(False), "")
    cap = caps if isinstance(caps, pd.Series) else pd.Series(caps, index=index, dtype="Int64")
    capped = (
        "K " + before + " → " + k + " (" + cap.astype("string") + " cap: " + games + " games)"
    ).where((before.notna() & k.notna() & before.ne(k)).fillna(False), "")
    notes = np.where(
        (borrowed != "") & (capped != ""), borrowed.fillna("") + "; " + capped.fillna(""),
        borrowed.fillna("") + capped.fillna(""),
    )  # fmt: skip
    return pd.Series(notes, index=index, dtype="string")


def period_notes(rules: Rules, players: pd.DataFrame) -> list[str]:
    """The notes of a rated period on the rules it used: which rules, K where the list gave
    none (docs/rules.md §3), and the first-rating rule that disregards events (§4)."""
    notes = [f"rules: {rules.edition} ({rules.list_title()}); source: {rules.source}"]
    if players["k"].isna().any():
        notes.append(k_note(rules))
    if players["games_total"].isna().any():
        notes.append(
            "players whose total of rated games is unknown are taken to have 30 or more "
            "(no-list rule, docs/rules.md §3)"
        )
    if rules.discard_until_scoring:
        notes.append(
            "first ratings: every event scoreless against rated opponents is disregarded until "
            "the first scoring one"
        )
    elif rules.first_event_min_half_points > 0:
        notes.append(
            "first ratings: an unrated player's first event with games against rated opponents "
            f"is disregarded when it scored less than {rules.first_event_min_half_points / 2:g} "
            "against them (docs/rules.md §4)"
        )
    return notes
