"""Undoing an officer's mistakes: ``unpublish`` the last period, ``remove`` an event of a
period not yet published, ``backups`` and ``restore``, and ``upgrade`` of an older database.

Each is one transaction after a backup of the state before it, and says what it did and where
that backup is (``restore`` of it takes the change back).
"""

from __future__ import annotations

import difflib
from pathlib import Path

from rating_batch.errors import RatingBatchError
from rating_batch.periods import canonical_period
from rating_batch.production.common import Outcome
from rating_batch.store import DEFAULT_WAIT, Store, list_backups, open_store, restore_backup
from rating_batch.store.schema import SCHEMA_VERSION


def _saved(store: Store) -> str:
    return f"the state before it is saved as {store.backup.name}" if store.backup else ""


def unpublish_period(period: str, *, db: Path, wait: float = DEFAULT_WAIT) -> Outcome:
    """Withdraw the last published period: the database as it was before that publish (its
    events stay added, pending again)."""
    period = canonical_period(period)
    with open_store(db, write=True, command=f"unpublish {period}", wait=wait) as store:
        last = store.last_published()
        if last is None:
            raise RatingBatchError(f"{db}: no period is published; nothing to unpublish")
        if period != last:
            raise RatingBatchError(
                f"only the last published period ({last}) can be unpublished, not {period}; "
                f"unpublish {last} first, then the ones before it one by one"
            )
        lists = store.lists()
        kinds = ", ".join(lists[lists["period"] == period]["kind"])
        with store.writing():
            removed = store.unpublish(period)
        events = len(store.events(period))
        saved = _saved(store)
    return Outcome(
        [
            f"unpublished {period} ({kinds}): {removed['ratings']} rating states, "
            f"{removed['pending']} pending first-rating games and {removed['published_files']} "
            "stored files removed",
            f"its {events} event(s) are added and pending again; 'rating-batch publish {period}' "
            "rates them",
            saved,
        ]
    )


def remove_event(key: str, *, db: Path, wait: float = DEFAULT_WAIT) -> Outcome:
    """Remove an event of a period not yet published: its games, its players' entries, the
    players only it created, and the player data it filled in."""
    with open_store(db, write=True, command="remove", wait=wait) as store:
        event = store.event_by_key(key)
        if event is None:
            keys = store.event_keys()
            close = difflib.get_close_matches(key, keys, n=3)
            hint = f" (did you mean {', '.join(close)}?)" if close else ""
            raise RatingBatchError(f"no event {key!r} in {db}{hint}")
        period = str(event["period"])
        lists = store.lists()
        if ((lists["period"] == period) & (lists["origin"] == "publish")).any():
            raise RatingBatchError(
                f"{key} is rated in the published period {period}: 'rating-batch unpublish "
                f"{period}' first (only the last published period can be), then remove it"
            )
        with store.writing():
            removed = store.remove_event(int(event["event_id"]))
        saved = _saved(store)
    return Outcome(
        [
            f"removed {key} ({event['name']}, file {event['source']}, period {period}): "
            f"{removed['games']} game rows, {removed['entries']} player entries, "
            f"{removed['players']} player(s) only it had created",
            saved,
        ]
    )


def backups_report(db: Path) -> Outcome:
    """The backups kept beside the database, oldest first."""
    found = list_backups(db)
    if not found:
        return Outcome([f"no backups of {db} yet (one is saved before every command that writes)"])
    return Outcome(
        [
            f"{len(found)} backup(s) of {db}, oldest first "
            "('rating-batch restore NAME' puts one back):",
            *(f"  {backup.line()}" for backup in found),
        ]
    )


def restore(name: str, *, db: Path, wait: float = DEFAULT_WAIT) -> Outcome:
    """Put a backup back as the database (after backing up the current state)."""
    return Outcome(restore_backup(db, name, wait=wait))


def upgrade(db: Path, *, wait: float = DEFAULT_WAIT) -> Outcome:
    """Bring a database made by an older rating_batch up to date (after a backup)."""
    with open_store(db, write=True, command="upgrade", wait=wait) as store:
        if store.migrated_from is None:
            return Outcome([f"{db} is up to date (schema {SCHEMA_VERSION})"])
        return Outcome(
            [f"upgraded {db} from schema {store.migrated_from} to {SCHEMA_VERSION}", _saved(store)]
        )
