"""What the production commands share: the database's rules, rating states, the list's
columns, and the result every command prints (what it did, then its warnings)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from rating_batch.errors import InputError, Issue, RulesError
from rating_batch.periods import INITIAL, Period, list_date, next_list_period, period_of
from rating_batch.store import Store
from rating_batch.systems.elo.rules import Rules, edition_in_force
from rating_batch.systems.elo.state import EMPTY_STATE
from rating_batch.values import as_int, missing


@dataclass(frozen=True)
class RuleBook:
    """The rules of a database: FIDE's editions by date, or one fixed rule set; under
    another rating system, the latest edition's (its periods are FIDE's current monthly
    lists)."""

    name: str
    fixed: Rules | None

    def for_date(self, on: dt.date | None) -> Rules:
        return self.fixed or edition_in_force(on)

    def for_period(self, period: Period) -> Rules:
        """The rules deciding K, floor and first ratings: in force at the period's list."""
        return self.fixed or edition_in_force(None if period == INITIAL else list_date(period))


def read_rules_file(name: str) -> str | None:
    """A rules file's text (kept in the database), or None for a named edition."""
    if not name.lower().endswith(".toml"):
        return None
    try:
        return Path(name).read_text(encoding="utf-8")
    except OSError as error:
        raise RulesError(f"{name}: cannot read the rules file: {error.strerror}") from None


def placement_floor(store: Store) -> Period | None:
    """The last list no added event can go into any more: the last published one, else the
    initial list's (when its month is known)."""
    initial = store.initial_period()
    return store.last_published() or (initial if initial != INITIAL else None)


def placed_period(book: RuleBook, end: dt.date, floor: Period | None) -> tuple[Period, Period]:
    """An event ending on ``end``: its own period (that of its end date, §1) and the one it
    is rated in: its own, or the list after ``floor`` when its own is not after it."""
    rules = book.for_date(end)
    own = period_of(rules, end)
    if floor is not None and own <= floor:
        return own, next_list_period(rules, floor)
    return own, own


def read_state(store: Store, kind: str, period: Period | None) -> pd.DataFrame:
    """Every player's state in ``kind`` as of the list of ``period`` (none: empty)."""
    if period is None:
        return EMPTY_STATE.copy()
    state = store.state(kind, period)
    return state.astype({"rating": "Int64", "k": "Int64", "games_total": "Int64", "peak": "Int64"})


def differs(now: pd.Series, before: pd.Series) -> np.ndarray:
    """Row by row, whether a value changed (missing before and after is no change)."""
    same = (now == before) | (now.isna() & before.isna())
    changed: np.ndarray = ~same.fillna(False).to_numpy(bool)
    return changed


def player_ids(people: pd.DataFrame) -> pd.Series:
    """Each player's public id: the FIDE ID, else ``<event>#<start rank>``."""
    return people["fide_id"].astype("Int64").astype("string").fillna(people["created_by"])


def refuse_repeated_ids(frame: pd.DataFrame, source: str) -> None:
    """A rating list (``id``, ``line``) where a FIDE ID appears twice is an error naming
    each line: which of the two rows is the player cannot be guessed."""
    twice = frame[frame["id"].duplicated(keep=False) & frame["id"].notna()]
    if len(twice):
        raise InputError(
            Issue(source, int(line), f"FIDE ID {fide_id} appears more than once")
            for fide_id, line in zip(twice["id"], twice["line"], strict=True)
        )


def iso(date: dt.date | None) -> str | None:
    return None if date is None else date.isoformat()


def text_of(value: object) -> str:
    """A stored value as text: "" when missing, a whole float without its ".0"."""
    if value is None or value is pd.NA or (isinstance(value, float) and np.isnan(value)):
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def number(value: object) -> str:
    """A whole number for a report, or "" when missing."""
    return "" if missing(value) else str(as_int(value))


@dataclass
class Outcome:
    """What a command did (lines for the terminal) and the warnings it found. The CLI prints
    the lines, then the warnings (all of them with -v, the first ``SHOWN_WARNINGS`` by
    default, none with --quiet)."""

    lines: list[str] = field(default_factory=list)
    warnings: list[Issue] = field(default_factory=list)
    outputs: list[Path] = field(default_factory=list)

    def summary(self) -> str:
        lines = [line for line in self.lines if line]
        return "\n".join([*lines, *(f"wrote {path}" for path in self.outputs)])
