"""What the database's commands share: where an added event is placed (the last list no event
can go into any more, the period an event is rated in) and a date as ISO text."""

from __future__ import annotations

import datetime as dt

from rating_batch.periods import INITIAL, Period, next_list_period, period_of
from rating_batch.pipelines.seam import RuleBook
from rating_batch.store import Store

#: An event whose period is further than this from the database's last list, or a list
#: published so far from today when nothing else dates the database (months): a typo?
MAX_MONTHS_AWAY = 12


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


def iso(date: dt.date | None) -> str | None:
    return None if date is None else date.isoformat()
