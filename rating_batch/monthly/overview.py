"""The database at a glance, for the officer's desk (``serve``, docs/desk.md): its rules,
each list kind's last published period, the next list, the events waiting for it, the last
commands and whole copies, and what needs the officer's attention. Read-only."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from rating_batch.monthly.publish import _next_period
from rating_batch.periods import INITIAL, Period, list_date
from rating_batch.pipelines.registry import rule_book
from rating_batch.store import Copy, Point, list_copies, open_store
from rating_batch.store.journal import points

#: The last commands and whole copies the overview shows (``backups`` lists them all).
SHOWN_BACKUPS = 3


@dataclass(frozen=True)
class Waiting:
    """The events added for one period not published yet."""

    period: Period
    events: int
    players: int
    games: int


@dataclass
class Overview:
    db: Path
    rules: str
    initial: Period | None
    last: Period | None
    """The last published period (None: none yet)."""
    published: list[tuple[str, Period]]
    """Each list kind and its last published period."""
    next_period: Period | None
    next_date: dt.date | None
    waiting: list[Waiting]
    commands: list[Point]
    """The last commands the journal can undo, newest first."""
    copies: list[Copy]
    """The last whole copies, newest first."""
    files: list[str] = field(default_factory=list)
    """The files the last publish wrote, by path in its period's folder (``KIND/NAME``)."""
    warnings: list[str] = field(default_factory=list)


def stored_events(db: Path) -> pd.DataFrame:
    """Every stored event by period then key, with its players and games
    (``Store.event_sizes``)."""
    with open_store(db) as store:
        return store.event_sizes()


def database_overview(db: Path, *, today: dt.date | None = None) -> Overview:
    """What ``db`` holds, and the warnings an officer acts on: a list whose date has come
    (``publish`` it), events waiting for a list already passed, no whole copy yet."""
    today = today or dt.date.today()
    with open_store(db) as store:
        book = rule_book(store)
        initial = store.initial_period()
        last = store.last_published()
        published = [
            (str(kind), Period.parse(str(period)))
            for kind, period in store.last_published_by_kind().itertuples(index=False)
        ]
        following = _next_period(store, book.for_period)
        files = [] if last is None else store.published_paths(last)
        sizes = store.event_sizes()
        commands = points(store.connection)[-SHOWN_BACKUPS:][::-1]
        copies = list_copies(store.places)[-SHOWN_BACKUPS:][::-1]
    floor = last or initial
    pending = sizes if floor is None else sizes[sizes["period"] > str(floor)]
    waiting = [
        Waiting(Period.parse(str(period)), len(group), int(group["players"].sum()),
                int(group["games"].sum()))
        for period, group in pending.groupby("period", sort=True)
    ]  # fmt: skip
    due = None if following is None else list_date(following)
    overview = Overview(
        db, book.name, None if initial == INITIAL else initial, last, sorted(published),
        following, due, waiting, commands, copies, files,
    )  # fmt: skip
    if following is not None and due is not None and due <= today and waiting:
        overview.warnings.append(
            f"the list of {following} is dated {due}, which has come: preview and publish it"
        )
    if not copies:
        overview.warnings.append(
            "no whole copy of the database yet: 'rating-batch backup' takes one (the journal "
            "inside the database cannot protect against a damaged or lost file)"
        )
    return overview


def restore_points(db: Path) -> tuple[list[Point], list[Copy]]:
    """Every command the journal can undo and every whole copy, newest first: what
    ``restore`` can go back to."""
    with open_store(db) as store:
        return points(store.connection)[::-1], list_copies(store.places)[::-1]


def published_file(db: Path, period: Period, path: str) -> bytes | None:
    """A file the publish of ``period`` wrote (``KIND/NAME``), as the database keeps it;
    None when the database names no such file."""
    with open_store(db) as store:
        return store.published_file(period, path)
