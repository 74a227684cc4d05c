"""``month``: the month on a schedule (docs/schedule.md §3). ``add --new-only`` over the inbox,
then ``publish --due``, with one month run at a time on a database; what was added, skipped,
refused and published is printed and kept in a dated log under ``--out``, and a refused file
makes the run exit 1 (a scheduler mails the officer), on every run until it is fixed or taken
out of the inbox."""

from __future__ import annotations

import contextlib
import datetime as dt
import fcntl
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from rating_batch.errors import RatingBatchError
from rating_batch.inputs import expand_inputs
from rating_batch.monthly.add import AddOptions, add_events
from rating_batch.monthly.common import Outcome
from rating_batch.monthly.publish import PublishOptions, publish_due
from rating_batch.staging import staged_outputs
from rating_batch.store import DEFAULT_WAIT


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
    with _one_month_run(db):
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
def _one_month_run(db: Path) -> Iterator[None]:
    """One month run at a time on ``db``: an advisory lock on the database file itself
    (SQLite's own locks are of another kind, so the commands are not held up by it)."""
    if not db.exists():
        raise RatingBatchError(
            f"no rating database at {db}: create one with 'rating-batch init --list FILE'"
        )
    with db.open("rb") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise RatingBatchError(
                f"{db}: another month run is working on this database; nothing was done"
            ) from None
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


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
