"""``publish``: rate a period for every list kind, keep the new lists, write them out.

Periods are published in order: only the next list period after the last published one (or
after the initial list) is accepted, or the last published one again; ``--skip-to`` publishes
a later one on purpose, leaving those between unpublished (refused while they hold events).
The initial list's own period is never published.

A new publish computes every output into a staging folder, stores the new states and the
files themselves in one transaction, commits, and only then switches the files into place. If
that switch fails, the period is published and a plain re-run writes its files: re-publishing
the last period writes, byte for byte, the files stored when it was first published, whatever
was added since (a published list never changes).

Whether the list is new is decided again holding the write lock: a publish that waited for it
while another command published the same period writes that period's stored files, as a
re-publish does, instead of refusing the period as out of order.
"""

from __future__ import annotations

import datetime as dt
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from rating_batch.errors import Issue, RatingBatchError
from rating_batch.loaders import Progress, no_progress
from rating_batch.monthly.common import MAX_MONTHS_AWAY, placed_period
from rating_batch.monthly.site import SiteNotWritten, check_site, write_site
from rating_batch.periods import (
    INITIAL,
    Period,
    canonical_period,
    closing_date,
    is_list_period,
    list_date,
    months_between,
    next_list_period,
    shown,
)
from rating_batch.pipelines.published import PERIOD_FILES, Keeping
from rating_batch.pipelines.registry import database_system, rule_book
from rating_batch.pipelines.seam import Outcome, Publisher, PublishResult, RuleBook
from rating_batch.staging import OutputProblem, OutputSet, check_outputs, staged_outputs
from rating_batch.store import DEFAULT_WAIT, Store, open_store
from rating_batch.store.places import keep_out_of_stores
from rating_batch.systems.elo.rules import KINDS, Rules


@dataclass(frozen=True)
class PublishOptions:
    skip_to: bool = False
    """Publish a period later than the next one on purpose (none between may hold events)."""
    dry_run: bool = False
    wait: float = DEFAULT_WAIT
    accept_dates: bool = False
    """Publish a list whose period is still open (its closing date is after today)."""
    today: dt.date | None = None
    site_warns: bool = False
    """A web site that cannot be written is a warning of the publish, not its error (the
    desk: the list is published, and the page says so with the problem beside it)."""


def publish_period(
    period: str,
    *,
    db: Path,
    out: Path,
    options: PublishOptions = PublishOptions(),
    progress: Progress = no_progress,
) -> PublishResult:
    """Rate ``period`` for every list kind, store the new lists and write them with reports;
    or, for the last published period, write its stored files again."""
    period = canonical_period(period)
    command = f"publish {period}"
    with open_store(
        db, write=True, command=command, wait=options.wait, dry_run=options.dry_run
    ) as store:
        keep_out_of_stores(store.places, out)
        book = rule_book(store)
        check_site(store)  # a logo that is no longer an image: refused, nothing changed
        if store.last_published() == period:
            return _republish(store, period, out, options)
        _check_order(store, book, period, options)  # before the write lock is taken
        publisher = database_system(store).database.publisher(book)
        try:
            if options.dry_run:
                check_outputs(out, out / period, PERIOD_FILES, pages=True)
                with store.writing(dry_run=True):
                    _rate_under_lock(store, book, publisher, period, options)
                dry = publisher.result(period, [], dry_run=True)
                return _noting(dry, _waiting(store, book, period))
            paths, waiting, site = _publish_new(
                store, book, publisher, period, out, options, progress
            )
        except _PublishedMeanwhile:
            return _published_meanwhile(store, period, out, options)
    result = _noting(publisher.result(period, paths, dry_run=False), waiting)
    result.lines.extend(site.lines)
    result.warnings[:0] = site.warnings
    result.lines.extend(store.notes)
    return result


class _PublishedMeanwhile(Exception):
    """Another command published the period while this one waited for the write lock."""


def _rate_under_lock(
    store: Store, book: RuleBook, publisher: Publisher[Any], period: Period, options: PublishOptions
) -> None:
    """Every kind of ``period`` rated, its order checked again first holding the write lock
    (two publishes at once cannot both pass); the period published meanwhile by another
    command is ``_PublishedMeanwhile``, raised before anything is written (the transaction
    is rolled back), not an order refused."""
    if store.last_published() == period:
        raise _PublishedMeanwhile(period)
    _check_order(store, book, period, options)
    for kind in _kinds(store, book, period):
        publisher.rate(store, period, kind)


def _publish_new(
    store: Store,
    book: RuleBook,
    publisher: Publisher[Any],
    period: Period,
    out: Path,
    options: PublishOptions,
    progress: Progress,
) -> tuple[list[Path], Outcome, Outcome]:
    """``period`` rated, its lists and files stored in one transaction, the files switched
    into place and the site written: the files written, the events waiting, the site."""
    with staged_outputs(out) as outputs:
        with store.writing():
            _rate_under_lock(store, book, publisher, period, options)
            waiting = _waiting(store, book, period)

            def keep() -> None:
                publisher.keep(store, period)

            # Every staged file kept as written (re-publishing writes them again): by the
            # process that wrote it, as soon as it is written, the rest at the end.
            keeping = Keeping(store.keep_file, meanwhile=keep, folder=out / period)
            paths = publisher.write(period, out, outputs, progress, keeping)
            done = {path for path, *_ in keeping.kept}
            written = [(keeping.name(final), staged) for final, staged in outputs.staged()]
            store.store_files(
                period,
                [(path, staged) for path, staged in written if path not in done],
                meanwhile=keeping.run_meanwhile,
                kept=keeping.kept,
            )
        _switch(outputs, period, store.path, out)
        site = _site_written(store, out, options)  # every list's pages (docs/site.md)
    return paths, waiting, site


def _published_meanwhile(
    store: Store, period: Period, out: Path, options: PublishOptions
) -> PublishResult:
    """A period another command published while this one waited for the lock: its stored
    files written, as a re-publish writes them (its list is the one the other made; this
    one's advice to publish the next period first, or to skip to it, would be wrong)."""
    result = _republish(store, period, out, options)
    written = "would be written" if options.dry_run else "are written"
    result.lines.insert(
        0,
        f"{period} was published meanwhile by another command: its files as stored then "
        f"{written}, nothing is rated again",
    )
    return result


def _site_written(store: Store, out: Path, options: PublishOptions) -> Outcome:
    """The web site written after a publish, said with its folder (the one to copy to the
    web host); with ``site_warns``, its failure as a warning."""
    try:
        site = write_site(store, out, publishing=True)
    except SiteNotWritten as problem:
        if not options.site_warns:
            raise
        return Outcome(warnings=[Issue("web site", None, str(problem), "warning")])
    if site is None:
        return Outcome()  # [site] with_publish = false: 'site' writes it
    return Outcome(
        [f"web site: {site.folder}{os.sep} (every published list; copy it to the web host)"]
    )


def publish_due(
    *,
    db: Path,
    out: Path,
    options: PublishOptions = PublishOptions(),
    progress: Progress = no_progress,
    held: Callable[[Period], bool] | None = None,
) -> PublishResult:
    """``publish --due``: the next list period, when its list date has come (``options.today``,
    else today), and every further one due, in order, each in its own transaction as
    ``publish PERIOD`` publishes it (docs/schedule.md §2). Nothing due is no error: one line.
    ``held``: asked of each due period before it is published; when it says so, that period
    and the ones after it are not (``month``'s refused files, docs/schedule.md §5)."""
    today = options.today or dt.date.today()
    done: list[PublishResult] = []
    while True:
        with open_store(db, command="publish --due", wait=options.wait) as store:
            due = _next_period(store, rule_book(store).for_period)
        if due is None or list_date(due) > today:
            break
        if held is not None and held(due):
            return _joined(done)
        done.append(
            publish_period(due, db=db, out=out, options=replace(options, today=today),
                           progress=progress)
        )  # fmt: skip
        if options.dry_run:
            break  # a dry run changes nothing: the next period would be this one again
    if not done:
        when = "no list period follows" if due is None else (
            f"the next list, {shown(due)}, is dated {list_date(due)}"
        )  # fmt: skip
        return PublishResult([f"nothing due on {today}: {when}"])
    return _joined(done)


def _joined(done: Sequence[PublishResult]) -> PublishResult:
    """One result of the publishes of ``publish --due`` (none: nothing to say)."""
    return PublishResult(
        [line for result in done for line in result.lines],
        [issue for result in done for issue in result.warnings],
        [path for result in done for path in result.outputs],
        period=done[-1].period if done else INITIAL,
        outcomes=[outcome for result in done for outcome in result.outcomes],
    )


def _next_period(store: Store, rules_of: Callable[[Period], Rules]) -> Period | None:
    """The list period a publish would make next: the one after the last published list, or
    after the initial list (by the rules ``rules_of`` gives for it); with an initial list of
    unknown month and nothing published, the first period holding events (None: none)."""
    start = store.last_published() or store.initial_period()
    if start is None or start == INITIAL:
        return store.earliest_event_period()
    return next_list_period(rules_of(start), start)


def _waiting(store: Store, book: RuleBook, period: Period) -> Outcome:
    """The events added for lists after ``period``: where they wait (an officer who
    publishes the month before the one the events were added for sees where they went), and
    a warning for any that ended in ``period`` or before (left in a later list)."""
    later = store.events_after(period)
    if later.empty:
        return Outcome()
    where = ", ".join(f"{n} in {p}" for p, n in later.groupby("period").size().items())
    if len(store.events(period)):
        line = f"{len(later)} event(s) added wait for later lists ({where})"
    else:
        line = (
            f"no event was added for {period}: the {len(later)} added wait for later lists "
            f"({where}): an event is rated in the first list closing on or after its end "
            "date (docs/rules.md §1)"
        )
    warnings = []
    for event in later.to_dict("records"):
        end = dt.date.fromisoformat(str(event["end"] or event["start"]))
        own, _ = placed_period(book, end, None)
        if own <= period:
            warnings.append(
                Issue(
                    str(event["source"]),
                    None,
                    f"ended {end} (period {own}) but waits for {event['period']}: 'rating-batch "
                    f"remove {event['key']}' and add it again to rate it in {period}",
                    "warning",
                )
            )
    return Outcome([line], warnings)


def _noting(result: PublishResult, note: Outcome) -> PublishResult:
    """``result`` with ``note``'s lines after the lists' (before a dry run's last line) and
    its warnings first."""
    at = len(result.lines) - (result.lines[-1].startswith("dry run") if result.lines else 0)
    result.lines[at:at] = note.lines
    result.warnings[:0] = note.warnings
    return result


def _switch(outputs: OutputSet, period: Period, db: Path, out: Path) -> None:
    """The staged files into place, after the commit (a failure leaves the period
    published: a plain re-run writes its files)."""
    try:
        outputs.switch()
    except OutputProblem as problem:
        raise RatingBatchError(
            f"published {period} in {db}, but its files could not be put in place: "
            f"{problem}; 'rating-batch publish {period} --out {out}' writes them"
        ) from None


def _check_order(store: Store, book: RuleBook, period: Period, options: PublishOptions) -> None:
    """Only the next list period, unless ``--skip-to`` (never over periods with events), and
    only once it is closed, unless ``--accept-dates``."""
    _check_sequence(store, book.for_period(period), period, options)
    _check_closed(book.for_period(period), period, options)


def _check_near_today(period: Period) -> None:
    """A database whose initial list has no month and holds no event: nothing dates its
    lists, so a period far from today is taken for a typo (published, it would make every
    event of today's months a year away from the database's last list)."""
    today = dt.date.today()
    away = abs(months_between(Period.of(today.year, today.month), period))
    if away > MAX_MONTHS_AWAY:
        raise RatingBatchError(
            f"{period} is {away} months from today ({today}), and nothing dates this database "
            "(its initial list's month is unknown and it holds no event): a typo in the year? "
            "For a list of that time, make the database again with init --period YYYY-MM"
        )


def _check_sequence(store: Store, rules: Rules, period: Period, options: PublishOptions) -> None:
    if not is_list_period(rules, period):
        months = ", ".join(str(m) for m in rules.list_months)
        raise RatingBatchError(
            f"{period} is not a list month under {rules.edition} (lists in months {months})"
        )
    initial = store.initial_period()
    last = store.last_published()
    if period == initial:
        raise RatingBatchError(
            f"{period} is the initial list's own period: it is never published (the next "
            f"list is {next_list_period(rules, period)})"
        )
    if last is not None and period < last:
        raise RatingBatchError(
            f"{period} is earlier than the last published period {last}; periods are "
            f"published in order ('rating-batch unpublish {last}' withdraws the last one)"
        )
    base = last or initial
    if initial is not None and last is None and period < initial:
        raise RatingBatchError(f"{period} is earlier than the initial list ({initial})")
    expected = _next_period(store, lambda _: rules)
    if (base is None or base == INITIAL) and (expected is None or period <= expected):
        if expected is None:
            _check_near_today(period)
        return
    if period == expected:
        return
    if not options.skip_to:
        raise RatingBatchError(
            f"the next list is {expected}, not {period}: publish {expected} first (a typo in "
            f"the month?), or pass --skip-to to publish {period} and leave the lists between "
            "unpublished"
        )
    waiting = store.event_periods(base or INITIAL, period)
    if waiting:
        raise RatingBatchError(
            f"--skip-to {period} would leave events unrated: publish {', '.join(waiting)} "
            "first, or remove those events"
        )


def _check_closed(rules: Rules, period: Period, options: PublishOptions) -> None:
    """A list is published once its period is closed: before its closing date, events that
    belong to it may still be played (§1), and a list dated years ahead is a typo."""
    today = options.today or dt.date.today()
    closing = closing_date(rules, period)
    if today < closing and not options.accept_dates:
        raise RatingBatchError(
            f"{period} is still open: events ending up to {closing} belong to it (today is "
            f"{today}); publish it from {closing} on (a typo in the month?), or pass "
            "--accept-dates to publish it now"
        )


def _kinds(store: Store, book: RuleBook, period: Period) -> list[str]:
    """The list kinds published: those with a list already or with events this period."""
    rules = book.for_period(period)
    events = store.events(period)
    known = set(store.lists()["kind"]) | set(events["kind"])
    # and those the system also rates them for (US Chess's dual rating, docs/systems.md §9.1)
    known |= database_system(store).database.also_rated(events)
    return [kind for kind in KINDS if kind in known and kind in rules.kinds]


def _republish(store: Store, period: Period, out: Path, options: PublishOptions) -> PublishResult:
    """The last published period's files again, as stored when it was published."""
    if not store.has_published_files(period):
        raise RatingBatchError(
            f"{period} was published by an older rating_batch, which did not keep its files: "
            f"'rating-batch unpublish {period}' and publish it again"
        )
    if options.dry_run:
        check_outputs(out, out / period, PERIOD_FILES, pages=True)
        return PublishResult(
            [f"{period} is published: publishing it again would write its stored files",
             "dry run: nothing was changed or written"],
            period=period,
        )  # fmt: skip
    written = []
    with staged_outputs(out) as outputs:
        outputs.own(out / period, PERIOD_FILES, pages=True)
        for path, data in store.published_files(period):
            final = out / period / path
            outputs.write_bytes(final, data)
            written.append(final)
    write_site(store, out, publishing=True)  # as the first publish wrote it (docs/site.md)
    return PublishResult(
        [f"re-published {period}: its files as stored when it was published"],
        outputs=written,
        period=period,
    )
