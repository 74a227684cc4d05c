"""``month``: the month on a schedule (docs/schedule.md §3). ``add --new-only`` over the inbox,
then ``publish --due``, under the database's one writers' lock for the whole run; what was
added, skipped, refused and published is printed and kept in a dated log under ``--out``, and
a refused file makes the run exit 1 (a scheduler mails the officer), on every run until it is
fixed or taken out of the inbox."""

from __future__ import annotations

import contextlib
import datetime as dt
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from rating_batch.errors import RatingBatchError
from rating_batch.inputs import expand_inputs
from rating_batch.monthly.add import AddOptions, add_events
from rating_batch.monthly.common import Outcome
from rating_batch.monthly.publish import PublishOptions, publish_due
from rating_batch.staging import staged_outputs
from rating_batch.store import DEFAULT_WAIT, Busy, one_writer, places_of


@dataclass(frozen=True)
class MonthOptions:
    today: dt.date | None = None
    """The day the lists' dates are judged by (``--today``; default: today)."""
    wait: float = DEFAULT_WAIT
    encoding: str | None = None


@dataclass
class MonthResult(Outcome):
    refused: list[str] = field(default_factory=list)
    """Each refusal: a file (or the publish) and why."""
    log: Path | None = None


def run_month(
    inbox: Sequence[Path], *, db: Path, out: Path, options: MonthOptions = MonthOptions()
) -> MonthResult:
    """Add what is new in ``inbox``, then publish every list whose date has come."""
    today = options.today or dt.date.today()
    lines: list[str] = []
    result = MonthResult()
    with _one_month_run(db, options.wait):
        adding = AddOptions(new_only=True, wait=options.wait, encoding=options.encoding)
        try:
            added = add_events(inbox, db=db, options=adding)
            lines += added.lines
            result.warnings += added.warnings
        except RatingBatchError:
            # One file refused refuses the whole add: each file is added on its own, so that
            # the others go in and the refused ones are named.
            for path in expand_inputs(inbox).files:
                try:
                    added = add_events([path], db=db, options=adding)
                    lines += added.lines
                    result.warnings += added.warnings
                except RatingBatchError as error:
                    result.refused.append(f"refused {path}: {error}")
        try:
            published = publish_due(
                db=db, out=out, options=PublishOptions(today=today, wait=options.wait)
            )
            lines += published.lines
            result.warnings += published.warnings
            result.outputs += published.outputs
        except RatingBatchError as error:
            result.refused.append(f"publish refused: {error}")
    result.lines = [*lines, *result.refused]
    result.log = _write_log(out, today, result)
    return result


@contextlib.contextmanager
def _one_month_run(db: Path, wait: float) -> Iterator[None]:
    """The whole run holds the database's writers' lock (``store/writer.py``): its add and
    its publish take it again at no cost, and any other writer (a command, the desk,
    another month run) waits for it or is refused, as two commands are."""
    if not db.exists():
        raise RatingBatchError(
            f"no rating database at {db}: create one with 'rating-batch init --list FILE'"
        )
    places = places_of(db)
    try:
        with one_writer(places.real, places.owner, "month", wait):
            yield
    except Busy as busy:
        raise RatingBatchError(
            f"{db}: the database is busy: {busy.holder} is writing to it; waited {wait:g} s "
            "(--wait SECONDS, or $RATING_BATCH_WAIT, waits longer); nothing was done"
        ) from None


def _write_log(out: Path, today: dt.date, result: MonthResult) -> Path:
    """``OUT/log/month-YYYY-MM-DD-HHMMSS.log`` (``-2``, ``-3`` … after it for a second run in
    the same second: a log is never written over): the run's lines and warnings, whole."""
    now = dt.datetime.now()
    stem = f"month-{today.isoformat()}-{now:%H%M%S}"
    path = out / "log" / f"{stem}.log"
    number = 1
    while path.exists():
        number += 1
        path = out / "log" / f"{stem}-{number}.log"
    text = "\n".join(
        [
            f"rating-batch month, run at {now:%Y-%m-%d %H:%M:%S} for {today.isoformat()}",
            *result.lines,
            *(f"warning: {issue}" for issue in result.warnings),
        ]
    )
    with staged_outputs(out) as outputs:
        outputs.path(path).write_text(text + "\n", encoding="utf-8")
    return path
