"""Undoing an officer's mistakes: ``unpublish`` the last period, ``remove`` an event of a
period not yet published, ``backups`` and ``restore``, ``backup`` (a whole copy), and
``upgrade`` of an older database.

Each change is one transaction recorded in the undo journal, and says what it did and how to
take it back (``restore latest``).
"""

from __future__ import annotations

import datetime as dt
import difflib
from pathlib import Path

from rating_batch.errors import Issue, RatingBatchError, errors_only
from rating_batch.monthly.common import placed_period, placement_floor
from rating_batch.periods import INITIAL, canonical_period
from rating_batch.pipelines.registry import rule_book
from rating_batch.pipelines.seam import Outcome
from rating_batch.settings import backup_space, copies_kept, undo_kept
from rating_batch.store import (
    DEFAULT_WAIT,
    Copy,
    Damaged,
    Point,
    Store,
    list_copies,
    open_store,
    places_of,
    take_copy,
)
from rating_batch.store.copies import prune_copies, shown_label
from rating_batch.store.files import LOST, Checked
from rating_batch.store.journal import points
from rating_batch.store.opening import COPIES_AFTER, needed_copies
from rating_batch.store.restore import LATEST, restore_into, restore_missing, restore_over_damaged
from rating_batch.store.schema import SCHEMA_VERSION


def _saved(store: Store) -> str:
    """How the officer takes the command back, and what the database did besides."""
    undo = (
        f"'rating-batch restore latest' takes it back (journal entry {store.undo_point})"
        if store.undo_point is not None
        else ""
    )
    return "\n".join(line for line in (undo, *store.notes) if line)


def unpublish_period(
    period: str, *, db: Path, wait: float = DEFAULT_WAIT, dry_run: bool = False
) -> Outcome:
    """Withdraw the last published period: the database as it was before that publish (its
    events stay added, pending again). ``dry_run``: what it would withdraw, nothing changed."""
    period = canonical_period(period)
    command = f"unpublish {period}"
    with open_store(db, write=True, command=command, wait=wait, dry_run=dry_run) as store:
        last = store.last_published()
        if last is None:
            raise RatingBatchError(f"{db}: no period is published; nothing to unpublish")
        lists = store.lists()
        published = set(lists[lists["origin"] == "publish"]["period"])
        if period not in published:
            # Later than the last list (run twice, say) or skipped: unpublishing another
            # period would withdraw a list the officer did not name.
            raise RatingBatchError(
                f"{period} is not published (the last published list is {last}); nothing "
                "to unpublish, nothing was changed"
            )
        if period != last:
            raise RatingBatchError(
                f"only the last published period ({last}) can be unpublished, not {period}; "
                f"unpublish {last} first, then the ones before it one by one"
            )
        kinds = ", ".join(lists[lists["period"] == period]["kind"])
        with store.writing(dry_run=dry_run):
            removed = store.unpublish(period)
            moved = _back_in_their_periods(store)
            events = len(store.events(period))
        saved = "" if dry_run else _saved(store)
    return Outcome(
        [
            f"{'would unpublish' if dry_run else 'unpublished'} {period} ({kinds}): "
            f"{removed['ratings']} rating states, "
            f"{removed['pending']} pending first-rating games and {removed['published_files']} "
            "stored files removed",
            *moved,
            f"its {events} event(s) are added and pending again; 'rating-batch publish {period}' "
            "rates them",
            saved,
        ]
    )


def _back_in_their_periods(store: Store) -> list[str]:
    """The events added late, after a list now withdrawn, moved back from the later list
    they waited in to the period they are rated in now (``add`` would place them so); what
    was moved, a line each."""
    book = rule_book(store)
    floor = placement_floor(store)
    moves, lines = [], []
    for event in store.events_after(floor or INITIAL).to_dict("records"):
        end = dt.date.fromisoformat(str(event["end"] or event["start"]))
        _, placed = placed_period(book, end, floor)
        if placed < event["period"]:
            moves.append((int(event["event_id"]), placed))
            lines.append(
                f"{event['key']} (ended {end}) moves back from {event['period']} to {placed}, "
                "the list it goes to when added now"
            )
    store.move_events(moves)
    return lines


def remove_event(
    key: str, *, db: Path, wait: float = DEFAULT_WAIT, dry_run: bool = False
) -> Outcome:
    """Remove an event of a period not yet published: its games, its players' entries, the
    players only it created, and the player data it filled in. ``dry_run``: what it would
    remove, nothing changed."""
    with open_store(db, write=True, command="remove", wait=wait, dry_run=dry_run) as store:
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
        with store.writing(dry_run=dry_run):
            removed = store.remove_event(int(event["event_id"]))
        saved = "" if dry_run else _saved(store)
    return Outcome(
        [
            f"{'would remove' if dry_run else 'removed'} {key} ({event['name']}, file "
            f"{event['source']}, period {period}): "
            f"{removed['games']} game rows, {removed['entries']} player entries, "
            f"{removed['players']} player(s) only it had created",
            saved,
        ]
    )


def _size(size: int) -> str:
    return f"{size / 1_000_000:.1f} MB" if size >= 100_000 else f"{size / 1000:.0f} kB"


def backups_report(db: Path) -> Outcome:
    """The commands the journal can undo and the whole copies kept, oldest first."""
    with open_store(db) as store:
        journal = points(store.connection)
        places = store.places
        after = store.meta(COPIES_AFTER)
    lines = (
        [
            f"{_count(len(journal), 'command')} of {db} can be undone, oldest first ('rating-batch "
            "restore N' goes back to the state before command N, 'restore latest' undoes the "
            f"last; the newest {undo_kept()} are kept):",
            *(_point_line(point) for point in journal),
        ]
        if journal
        else [f"no command of {db} to undo yet (each command that changes it is recorded)"]
    )
    copies = list_copies(places)
    try:
        bound = backup_space(places.real.stat().st_size)
    except OSError:
        bound = 0
    if copies:
        lines += [
            f"{_count(len(copies), 'whole copy', 'whole copies')} in {places.backups} "
            f"('rating-batch restore NAME' puts one back; the newest {copies_kept()}, together "
            f"at most {_size(bound)}, are kept):",
            *_copy_lines(copies),
        ]
    else:
        lines.append(
            f"no whole copy of {db} yet: 'rating-batch backup' takes one (it protects against "
            "a damaged or lost database file, which the journal inside it cannot)"
        )
    if after:
        lines.append(f"a whole copy is taken after every {after.replace(',', ', ')}")
    return Outcome(lines)


def _count(number: int, one: str, many: str | None = None) -> str:
    return f"{number} {one if number == 1 else many or one + 's'}"


def _point_line(point: Point) -> str:
    undone = " (undone by a whole copy)" if point.copy else ""
    return f"  {point.name:>6}  {point.taken:%Y-%m-%d %H:%M:%S} UTC  {point.label}{undone}"


def _copy_lines(copies: list[Copy]) -> list[str]:
    """A line a whole copy, in columns as wide as their longest entry (names grow with the
    command they were taken after)."""
    name = max(len(copy.name) for copy in copies)
    label = max(len(shown_label(copy.label)) for copy in copies)
    return [
        f"  {copy.name:<{name}}  {copy.taken:%Y-%m-%d %H:%M:%S} UTC  "
        f"{shown_label(copy.label):<{label}}  {_size(copy.size):>9}  last list "
        f"{copy.last_list}, {copy.events} event(s)"
        for copy in copies
    ]


def restore(name: str, *, db: Path, wait: float = DEFAULT_WAIT) -> Outcome:
    """Go back: undo the last command (``latest``), go back to the state before a command of
    the journal (its number), or put a whole copy back (its name)."""
    places = places_of(db)
    if not db.exists() and not db.is_symlink():
        return Outcome(restore_missing(places, name))
    try:
        with open_store(db, write=True, command=f"restore {name}", wait=wait) as store:
            return Outcome(restore_into(store, name) + store.notes)
    except Damaged:
        if name == LATEST or name.isdigit():
            raise
        return Outcome(restore_over_damaged(places, name))


def backup(db: Path, *, after: tuple[str, ...] = (), wait: float = DEFAULT_WAIT) -> Outcome:
    """A whole copy of the database now, with a second copy of every published file checked;
    with ``after``, the commands after which one is taken from now on (``none``: none)."""
    lines = []
    if after:
        wanted = "" if "none" in after else ",".join(sorted(set(after)))
        with (
            open_store(db, write=True, command="backup --after", wait=wait) as store,
            store.writing(),
        ):
            store.set_meta(COPIES_AFTER, wanted)
        lines.append(
            f"a whole copy will be taken after every {wanted.replace(',', ', ')}"
            if wanted
            else "no whole copy will be taken after any command (only by 'rating-batch backup')"
        )
        lines += store.notes
    with open_store(db) as store:
        places = store.places
        # The whole copy first: whatever the published files' copies hold, it is saved.
        copy = take_copy(places, "backup")
        checked = store.files.check_both(store.kept_files())
        named = store.published_names() if checked.lost else {}
        removed = prune_copies(places, needed_copies(store.connection))
    lines.append(f"saved a whole copy of {db} as {copy} ({_size(copy.stat().st_size)})")
    if checked.files:
        again = (
            f": {checked.written} written again from their other copy" if checked.written else ""
        )
        lines.append(f"checked both copies of {_count(checked.files, 'published file')}{again}")
    if removed:
        lines.append(
            f"removed the oldest {_count(len(removed), 'whole copy', 'whole copies')}: "
            f"{', '.join(p.name for p in removed)}"
        )
    return Outcome(lines, _copies_said(checked, named))


def lost_from_both(db: Path, said: list[Issue]) -> str | None:
    """What ``backup`` ends with when published files are lost from both their copies, or
    a copy could not be made whole (the errors among what it said): None when all is well."""
    errors = errors_only(said)
    lost = sum(issue.message.startswith(LOST) for issue in errors)
    unmade = len(errors) - lost
    ends = []
    if lost:
        one = lost == 1
        ends.append(
            f"{lost} published file{'' if one else 's'} of {db} {'is' if one else 'are'} lost "
            f"from both of {'its' if one else 'their'} copies (above): the whole copy just "
            f"saved cannot bring {'it' if one else 'them'} back"
        )
    if unmade:
        ends.append(
            f"{_count(unmade, 'second copy', 'second copies')} of published files of {db} "
            "could not be made (above): the whole copy is saved; mend what each says"
        )
    return "; ".join(ends) or None


def _copies_said(checked: Checked, named: dict[str, str]) -> list[Issue]:
    """What ``backup`` found of the published files' copies: each copy written again (a
    folder missing whole once), and (errors) each copy it could not make whole and each
    file neither copy holds any more, named as published (``period/path``)."""
    said = [Issue(str(place), None, what, "warning") for place, what in checked.mended]
    said += [Issue(str(place), None, what) for place, what in checked.failed]
    said += [
        Issue(named.get(digest, str(place)), None, what) for digest, place, what in checked.lost
    ]
    return said


def upgrade(db: Path, *, wait: float = DEFAULT_WAIT) -> Outcome:
    """Bring a database made by an older rating_batch up to date (after a whole copy)."""
    with open_store(db, write=True, command="upgrade", wait=wait) as store:
        if store.migrated_from is None:
            return Outcome([f"{db} is up to date (schema {SCHEMA_VERSION})"])
        return Outcome(
            [f"upgraded {db} from schema {store.migrated_from} to {SCHEMA_VERSION}", *store.notes]
        )
