"""``month``: the month on a schedule (docs/schedule.md §3, §5, §6). ``add --new-only`` over the
inbox (its subfolders too), then ``publish --due``, under the database's one writers' lock for
the whole run. A due list is held while a refused file of the inbox may belong to its period
(``--publish-despite-refusals`` publishes it anyway). What was added, skipped, refused, held
and published is kept in a dated log under ``--out``; a refusal or a failure makes the run
exit 1, on every run until the file is fixed or taken out of the inbox, and runs
``--notify``'s command."""

from __future__ import annotations

import contextlib
import datetime as dt
import subprocess
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from rating_batch.errors import RatingBatchError, describe_os_error
from rating_batch.monthly.add import AddOptions
from rating_batch.monthly.inbox import InboxAdd, Refusal, add_inbox, inbox_inputs
from rating_batch.monthly.publish import PublishOptions, publish_due
from rating_batch.periods import Period
from rating_batch.pipelines.seam import Outcome
from rating_batch.staging import staged_outputs
from rating_batch.store import DEFAULT_WAIT, Busy, keep_out_of_database, one_writer, places_of
from rating_batch.terminal import terminal_text

#: Seconds ``--notify``'s command may take before it is stopped (a mail command that hangs
#: must not keep the next scheduled run waiting).
NOTIFY_TIMEOUT = 300


@dataclass(frozen=True)
class MonthOptions:
    today: dt.date | None = None
    """The day the lists' dates are judged by (``--today``; default: today)."""
    wait: float = DEFAULT_WAIT
    encoding: str | None = None
    publish_despite_refusals: bool = False
    """Publish the lists due even while a refused file may be of their period."""
    notify: str | None = None
    """A shell command given the report on its standard input when something was refused
    or failed (``--notify``)."""


@dataclass
class MonthResult(Outcome):
    """What a run did: ``lines`` the add's and the publish's, and the counts, refusals,
    holds and failures the report puts first and last."""

    added: int = 0
    skipped: int = 0
    refused: list[Refusal] = field(default_factory=list)
    holds: list[str] = field(default_factory=list)
    """A line per list held, or published despite a refusal."""
    held: Period | None = None
    published: list[Period] = field(default_factory=list)
    failures: list[tuple[str, str]] = field(default_factory=list)
    """What failed as a whole (``add``, ``publish``, ``notify``) and why."""
    log: Path | None = None

    @property
    def troubled(self) -> bool:
        """Something was refused or failed: the run exits 1."""
        return bool(self.refused or self.failures)

    def trouble(self) -> list[str]:
        """The refusals, holds and failures, one line each (what ``-q`` prints)."""
        failed = [f"{what} failed: {why.splitlines()[0]}" for what, why in self.failures]
        return [*(refusal.line() for refusal in self.refused), *self.holds, *failed]

    def tally(self) -> str:
        """The last line: ``added 6, skipped 7, refused 1; 2026-03 held``."""
        outcome = [f"published {', '.join(self.published)}"] if self.published else []
        outcome += [f"{self.held} held"] if self.held else []
        outcome += [f"{what} failed" for what, _ in self.failures]
        return (
            f"added {self.added}, skipped {self.skipped}, refused {len(self.refused)}; "
            + "; ".join(outcome or ["nothing due"])
        )

    def report(self) -> list[str]:
        """The refusals and failures, the log's name and the tally: what ``-q`` prints and
        ``--notify``'s command reads when something was refused or failed."""
        return [*self.trouble(), f"log: {self.log}", self.tally()]

    def details(self) -> list[str]:
        """Everything printed without ``-q`` before the warnings and the tally."""
        wrote = [f"wrote {path}" for path in self.outputs]
        return [*self.trouble(), *self.lines, *wrote, f"log: {self.log}"]


def run_month(
    inbox: Sequence[Path], *, db: Path, out: Path, options: MonthOptions = MonthOptions()
) -> MonthResult:
    """Add what is new in ``inbox``, then publish every list whose date has come and that
    no refused file of the inbox may belong to."""
    today = options.today or dt.date.today()
    # Before the inbox is added: the publish would refuse it only after (and the log).
    keep_out_of_database(db, out)
    try:
        with _one_month_run(db, options.wait):
            result = _month(inbox, db=db, out=out, today=today, options=options)
    except (RatingBatchError, OSError) as error:  # stopped: no log, the officer is told
        why = describe_os_error(error) if isinstance(error, OSError) else str(error)
        failure = _notify(options.notify, [f"month failed: {why}"]) if options.notify else None
        if failure is None:
            raise
        raise RatingBatchError(f"{why}\nnotify failed: {failure}") from None
    except Exception as error:  # a bug: the scheduled run's officer is told all the same
        if options.notify:
            _notify(
                options.notify,
                [f"month failed: an error rating_batch does not know (a bug): {error!r}"],
            )
        raise
    result.log = _write_log(out, today, result)
    if options.notify and result.troubled:
        failure = _notify(options.notify, result.report())
        if failure is not None:
            result.failures.append(("notify", failure))
            with result.log.open("a", encoding="utf-8") as log:
                log.write(terminal_text(f"notify failed: {failure}") + "\n")
    return result


def _month(
    inbox: Sequence[Path], *, db: Path, out: Path, today: dt.date, options: MonthOptions
) -> MonthResult:
    inputs = inbox_inputs(inbox, db=db, out=out)
    adding = AddOptions(new_only=True, wait=options.wait, encoding=options.encoding)
    inboxed = add_inbox(inputs, db=db, options=adding)
    result = MonthResult(
        inboxed.added.lines,
        list(inboxed.added.warnings),
        added=inboxed.added.added,
        skipped=inboxed.added.skipped,
        refused=inboxed.refused,
        failures=[] if inboxed.failure is None else [("add", inboxed.failure)],
    )
    holding = _Holding(inboxed, despite=options.publish_despite_refusals)
    try:
        published = publish_due(
            db=db, out=out, options=PublishOptions(today=today, wait=options.wait), held=holding
        )
        result.lines += published.lines
        result.warnings += published.warnings
        result.outputs += published.outputs
        result.published = holding.passed
    except RatingBatchError as error:
        result.published = holding.passed[:-1]  # each period is published in its own go
        result.failures.append(("publish", str(error)))
    result.holds, result.held = holding.lines, holding.held
    return result


class _Holding:
    """Whether a due list is held: while a refused file may be of its period (its own, as
    ``add`` places it, or unknown), or the add failed as a whole; with
    ``--publish-despite-refusals`` it is published, and said to be."""

    def __init__(self, inboxed: InboxAdd, *, despite: bool) -> None:
        self.inboxed, self.despite = inboxed, despite
        self.lines: list[str] = []
        self.passed: list[Period] = []
        self.held: Period | None = None

    def __call__(self, period: Period) -> bool:
        reasons = self._reasons(period)
        if reasons and not self.despite:
            self.lines.append(f"{period} not published: {reasons}")
            self.held = period
            return True
        if reasons:
            self.lines.append(f"{period} published despite {reasons}")
        self.passed.append(period)
        return False

    def _reasons(self, period: Period) -> str:
        refused = self.inboxed.refused
        own = [refusal.path for refusal in refused if refusal.period == period]
        unknown = [refusal.path for refusal in refused if refusal.period is None]
        reasons = ["the add failed"] if self.inboxed.failure is not None else []
        if own:
            reasons.append(f"{_files(own)} of its period refused: {', '.join(own)}")
        if unknown:
            reasons.append(
                f"{_files(unknown)} refused whose period cannot be told (it may be of any "
                f"list): {', '.join(unknown)}"
            )
        return "; ".join(reasons)


def _files(names: Sequence[str]) -> str:
    return "1 file" if len(names) == 1 else f"{len(names)} files"


def _notify(command: str, lines: Sequence[str]) -> str | None:
    """Run ``command`` through the shell (``sh`` or ``cmd``) with ``lines`` on its standard
    input, in UTF-8 and escaped as the terminal shows them: None, or why it failed."""
    text = "".join(terminal_text(line) + "\n" for line in lines)
    try:
        done = subprocess.run(
            command, shell=True, input=text.encode("utf-8"), timeout=NOTIFY_TIMEOUT, check=False
        )
    except subprocess.TimeoutExpired:
        return f"{command!r} did not end within {NOTIFY_TIMEOUT} s"
    except OSError as error:
        return f"{command!r} could not be started: {describe_os_error(error)}"
    if done.returncode != 0:
        return f"{command!r} exited with status {done.returncode}"
    return None


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
    the same second: a log is never written over): every refusal whole, the run's lines and
    warnings, and the tally, each file named as the terminal shows it (``terminal_text``)."""
    now = dt.datetime.now()
    stem = f"month-{today.isoformat()}-{now:%H%M%S}"
    path = out / "log" / f"{stem}.log"
    number = 1
    while path.exists():
        number += 1
        path = out / "log" / f"{stem}-{number}.log"
    failed = [f"{what} failed: {why}" for what, why in result.failures]
    text = "\n".join(
        [
            f"rating-batch month, run at {now:%Y-%m-%d %H:%M:%S} for {today.isoformat()}",
            *(refusal.text() for refusal in result.refused),
            *result.holds,
            *failed,
            *result.lines,
            *map(str, result.warnings),  # an Issue says "warning: " itself
            result.tally(),
        ]
    )
    with staged_outputs(out) as outputs:
        outputs.path(path).write_text(terminal_text(text) + "\n", encoding="utf-8")
    return path
