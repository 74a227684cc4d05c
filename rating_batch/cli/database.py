"""The commands that change the rating database: init, add, publish, month, site, unpublish,
remove, edit-player, backups, restore, backup and upgrade (those that only read it:
``reading``)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import click

from rating_batch.cli.common import (
    ALLOW_OVERLAP,
    DB_OPTION,
    DRY_RUN,
    ENCODING_OPTION,
    EXISTING,
    KIND_OPTION,
    OUT_OPTION,
    echo,
    progress_bar,
    report,
    user_errors,
)
from rating_batch.errors import errors_only
from rating_batch.periods import canonical_period
from rating_batch.systems import SYSTEM_HOMES
from rating_batch.systems.elo.rules import FIDE_BY_DATE, KINDS


@click.command()
@click.option(
    "--list", "list_path", type=EXISTING, required=True, help="FIDE TXT/XML, CSV or XLSX list."
)
@click.option(
    "--kind",
    type=click.Choice(KINDS),
    help="The list kind of a single-kind list or CSV (default standard; a combined FIDE list "
    "fills all three).",
)
@click.option("--period", help="The month of that list, YYYY-MM (default: from the FIDE header).")
@click.option(
    "--rules",
    "rules_name",
    default=FIDE_BY_DATE,
    show_default=True,
    help="The rules this database follows: 'fide' (by date), an edition, a .toml file "
    "(its text is kept in the database), or another rating system: "
    + ", ".join(SYSTEM_HOMES)
    + " (docs/systems.md §7).",
)
@click.option(
    "--from-elo",
    is_flag=True,
    help="Under another system: read --list as a FIDE Elo list and make each state from the "
    "Elo rating (a CSV with the system's state columns is otherwise the system's own list).",
)
@ENCODING_OPTION
@DB_OPTION
@click.pass_context
def init(
    context: click.Context,
    list_path: Path,
    kind: str | None,
    period: str | None,
    rules_name: str,
    from_elo: bool,
    encoding: str | None,
    db: Path,
) -> None:
    """Create the rating database from an existing rating list.

    A database or any other file already at --db is refused and left as it is.

    Example:

    \b
        rating-batch init --list sample_data/monthly/list-2026-01.csv --period 2026-01
        rating-batch init --list sample_data/monthly/list-2026-01.csv --period 2026-01
            --rules glicko2 --from-elo --db glicko2.sqlite
    """
    from rating_batch import monthly

    with user_errors(context.obj["debug"]):
        result = monthly.init_database(
            list_path,
            db=db,
            kind=kind,
            period=period,
            rules_name=rules_name,
            from_elo=from_elo,
            encoding=encoding,
        )
    report(context, result.summary(), result.warnings)


@click.command()
@click.argument("events", nargs=-1, required=True, type=EXISTING)
@KIND_OPTION
@click.option(
    "--accept-dates",
    is_flag=True,
    help="Add events whose dates look wrong (before the initial list, over 12 months from the "
    "last list, in the future, over 60 days long).",
)
@ALLOW_OVERLAP
@click.option(
    "--keep-apart",
    type=int,
    multiple=True,
    metavar="FIDE_ID",
    help="A new FIDE ID that stays a new player, although a known player without one has "
    "exactly its name, birth year and federation (repeatable).",
)
@click.option(
    "--new-only",
    is_flag=True,
    help="Skip, with a line each, the files whose content is stored already (an inbox read "
    "again); the rest is added. Nothing new is no error.",
)
@DRY_RUN
@ENCODING_OPTION
@DB_OPTION
@click.pass_context
def add(
    context: click.Context,
    events: tuple[Path, ...],
    kind: str | None,
    accept_dates: bool,
    allow_overlap: bool,
    keep_apart: tuple[int, ...],
    new_only: bool,
    dry_run: bool,
    encoding: str | None,
    db: Path,
) -> None:
    """Validate and store EVENTS, each in the rating period of its end date.

    The same event twice is refused, never counted twice, and so is an event sharing half
    of its games with another. Players are found by FIDE ID, else by exact name, birth year
    and federation; a new FIDE ID with exactly the identity of a known player without one is
    his; a player found nowhere is created. 'restore latest' takes it back.

    Example:

    \b
        rating-batch add sample_data/monthly/2026-02
        rating-batch add --new-only sample_data/monthly/2026-01 sample_data/monthly/2026-02
    """
    from rating_batch import monthly

    options = monthly.AddOptions(
        kind=kind,
        accept_dates=accept_dates,
        allow_overlap=allow_overlap,
        dry_run=dry_run,
        wait=context.obj["wait"],
        encoding=encoding,
        keep_apart=frozenset(keep_apart),
        new_only=new_only,
    )
    with user_errors(context.obj["debug"]):
        result = monthly.add_events(events, db=db, options=options, progress=progress_bar(context))
    report(context, result.summary(), result.warnings)


@click.command()
@click.argument("inbox", nargs=-1, required=True, type=EXISTING)
@click.option(
    "--today",
    type=click.DateTime(["%Y-%m-%d"]),
    help="The day the lists' dates are judged by (YYYY-MM-DD; default: today).",
)
@click.option(
    "--publish-despite-refusals",
    is_flag=True,
    help="Publish the lists due even while a refused file of the inbox may be of their period.",
)
@click.option(
    "--notify",
    metavar="COMMAND",
    help="A shell command given the refusals and the summary on its standard input when "
    "something was refused or failed (e.g. \"mail -s 'ratings' officer@example.org\").",
)
@ENCODING_OPTION
@DB_OPTION
@OUT_OPTION
@click.pass_context
def month(
    context: click.Context,
    inbox: tuple[Path, ...],
    today: dt.datetime | None,
    publish_despite_refusals: bool,
    notify: str | None,
    encoding: str | None,
    db: Path,
    out: Path,
) -> None:
    """The month on a schedule: add what is new in INBOX, then publish every list due.

    As 'add --new-only INBOX' then 'publish --due', under one lock: no other writer (a
    command, the desk, another run) gets in between them. INBOX's subfolders are read too
    (not hidden ones, nor the database's own); OUT must lie outside INBOX.

    A refused file is named first, on every run until it is fixed or taken out of INBOX;
    the other files are added. A due list is not published while a refused file may be of
    its period (its own, or any when the file cannot be read), unless
    --publish-despite-refusals. The run then exits 1 and runs --notify's command.

    A summary line ends the output. With -q a run prints nothing unless something was
    refused or failed, so that a crontab's MAILTO mails exactly on trouble. Writes a dated
    log, OUT/log/month-DATE-TIME.log (docs/schedule.md).

    Example:

    \b
        rating-batch month sample_data/monthly/2026-01 --today 2026-02-02 --out lists
    """
    from rating_batch import monthly

    options = monthly.MonthOptions(
        today=today.date() if today is not None else None,
        wait=context.obj["wait"],
        encoding=encoding,
        publish_despite_refusals=publish_despite_refusals,
        notify=notify,
    )
    with user_errors(context.obj["debug"]):
        result = monthly.run_month(list(inbox), db=db, out=out, options=options)
    if not context.obj["quiet"]:
        report(context, "\n".join(result.details()), result.warnings)
        echo(result.tally())
    elif result.troubled:
        for line in result.report():
            echo(line)
    if result.troubled:
        context.exit(1)


@click.command()
@click.argument("period", required=False)
@click.option(
    "--due",
    is_flag=True,
    help="Instead of PERIOD: every list whose date has come, in order (for a scheduler); "
    "nothing due is no error.",
)
@click.option(
    "--today",
    type=click.DateTime(["%Y-%m-%d"]),
    help="With --due: the day to judge by (YYYY-MM-DD; default: today).",
)
@click.option(
    "--skip-to",
    is_flag=True,
    help="Publish PERIOD although earlier list periods are not published (they stay so).",
)
@click.option(
    "--accept-dates",
    is_flag=True,
    help="Publish PERIOD although its closing date is after today (events may still end in it).",
)
@DRY_RUN
@DB_OPTION
@OUT_OPTION
@click.pass_context
def publish(
    context: click.Context,
    period: str | None,
    due: bool,
    today: dt.datetime | None,
    skip_to: bool,
    accept_dates: bool,
    dry_run: bool,
    db: Path,
    out: Path,
) -> None:
    """Rate PERIOD (YYYY-MM) for each list and write the new lists and reports.

    Only the next list period is accepted (or the last published one again, which writes
    its files as they were published). Writes OUT/PERIOD/KIND/list.csv, list.xlsx, list.txt,
    players.csv, games.csv, calculations.csv, changes.csv, report.xlsx, index.html, a page
    per event, events/KEY.html, and under FIDE Elo the standard list's title norms, norms.csv,
    with a certificate per norm, norms/KEY/ID-TITLE.html (docs/norms.md §8).

    With --due instead of PERIOD, every list whose date has come is published in turn (the
    month on a schedule); nothing due prints one line and exits 0.

    Example:

    \b
        rating-batch publish 2026-02 --out out
        rating-batch publish --due --out out
    """
    from rating_batch import monthly

    if (period is None) == (not due):
        raise click.UsageError("give PERIOD or --due (not both)")
    if today is not None and not due:
        raise click.UsageError("--today goes with --due")
    with user_errors(context.obj["debug"]):
        # A mistyped period is told before the libraries publish needs are loaded (issue 42).
        period = None if period is None else canonical_period(period)
    options = monthly.PublishOptions(
        skip_to=skip_to, dry_run=dry_run, wait=context.obj["wait"], accept_dates=accept_dates,
        today=today.date() if today is not None else None,
    )  # fmt: skip
    with user_errors(context.obj["debug"]):
        if period is None:
            result = monthly.publish_due(
                db=db, out=out, options=options, progress=progress_bar(context)
            )
        else:
            result = monthly.publish_period(
                period, db=db, out=out, options=options, progress=progress_bar(context)
            )
    report(context, result.summary(), result.warnings)


@click.command()
@click.argument("period")
@DB_OPTION
@click.pass_context
def unpublish(context: click.Context, period: str, db: Path) -> None:
    """Withdraw PERIOD, the last published period: the database returns to its state before
    that publish (its events stay added, pending again). 'restore latest' takes it back.

    Example:

    \b
        rating-batch unpublish 2026-03
    """
    from rating_batch import monthly

    with user_errors(context.obj["debug"]):
        result = monthly.unpublish_period(period, db=db, wait=context.obj["wait"])
    report(context, result.summary())


@click.command()
@OUT_OPTION
@DB_OPTION
@click.pass_context
def site(context: click.Context, out: Path, db: Path) -> None:
    """Write the federation's web site again from the database, every published list, under
    OUT/site/ (publish writes it too; after unpublish, this brings it up to date).

    Example:

    \b
        rating-batch site --out out/lists
    """
    from rating_batch import monthly

    with user_errors(context.obj["debug"]):
        result = monthly.site_from_database(db, out, context.obj["wait"])
    report(context, result)


@click.command()
@click.argument("event_key")
@DB_OPTION
@click.pass_context
def remove(context: click.Context, event_key: str, db: Path) -> None:
    """Remove the event EVENT_KEY of a period not yet published: its games, and the players
    only it created. 'restore latest' takes it back.

    Example:

    \b
        rating-batch remove synthetic-2026-02-00003
    """
    from rating_batch import monthly

    with user_errors(context.obj["debug"]):
        result = monthly.remove_event(event_key, db=db, wait=context.obj["wait"])
    report(context, result.summary())


@click.command("edit-player")
@click.argument("player_id")
@click.option("--name", help="The name as it is now (a marriage, a misspelt list).")
@click.option("--federation", help="The federation as it is now (a transfer): three letters.")
@click.option("--sex", help="m, or w.")
@click.option("--birth-year", type=int, help="The year of birth.")
@click.option(
    "--fide-id",
    type=int,
    help="A FIDE ID received by a player without one; a player of the database who holds it "
    "becomes one with him, when either is on no list yet.",
)
@click.option(
    "--national-id",
    help="The id in the federation's own scheme (ZPS-Mgl or PKZ, US Chess id, ECF code).",
)
@click.option(
    "--force",
    is_flag=True,
    help="With --fide-id: make them one even though their name, federation or birth year differ.",
)
@DB_OPTION
@click.pass_context
def edit_player(
    context: click.Context,
    player_id: str,
    name: str | None,
    federation: str | None,
    sex: str | None,
    birth_year: int | None,
    fide_id: int | None,
    national_id: str | None,
    force: bool,
    db: Path,
) -> None:
    """Correct what the database knows of PLAYER_ID (a FIDE ID, or the id a list gives a
    player without one, such as e1#7), which event files never overwrite.

    Each change shows as a correction in the next list's changes.csv. 'restore latest'
    takes it back.

    Example:

    \b
        rating-batch edit-player 900000020 --name "Ororel-Silva, Suri" --federation ESP
    """
    from rating_batch import monthly

    edit = monthly.PlayerEdit(name, federation, sex, birth_year, fide_id, national_id)
    with user_errors(context.obj["debug"]):
        result = monthly.edit_player(player_id, edit, db=db, wait=context.obj["wait"], force=force)
    report(context, result.summary())


@click.command()
@DB_OPTION
@click.pass_context
def backups(context: click.Context, db: Path) -> None:
    """List the commands that can be undone and the whole copies kept.

    Every command that changes the database records what it changed (the undo journal,
    inside the database); whole copies are taken by 'backup', before an upgrade and before a
    restore of a whole copy.

    Example:

    \b
        rating-batch backups
    """
    from rating_batch import monthly

    with user_errors(context.obj["debug"]):
        result = monthly.backups_report(db)
    report(context, result.summary())


@click.command()
@click.argument("point")
@DB_OPTION
@click.pass_context
def restore(context: click.Context, point: str, db: Path) -> None:
    """Go back to POINT: 'latest' undoes the last command that changed the database; a
    number that 'backups' lists goes back to the state before that command (undoing every
    later one); a whole copy's name puts that copy back.

    A restore is itself a command: 'restore latest' right after it takes it back. It never
    moves or deletes the database: it changes it in one transaction, or not at all. A whole
    copy is named as 'backups' lists it (20261201T204259.742113Z-backup.sqlite).

    Example:

    \b
        rating-batch restore latest
        rating-batch restore 2
    """
    from rating_batch import monthly

    with user_errors(context.obj["debug"]):
        result = monthly.restore(point, db=db, wait=context.obj["wait"])
    report(context, result.summary())


@click.command()
@click.option(
    "--after",
    "after",
    multiple=True,
    type=click.Choice(["add", "publish", "unpublish", "remove", "restore", "every", "none"]),
    help="From now on, also take a whole copy after every such command (repeatable; "
    "'none' stops it).",
)
@DB_OPTION
@click.pass_context
def backup(context: click.Context, after: tuple[str, ...], db: Path) -> None:
    """Save a whole copy of the database in its backups folder, and check both copies of
    every published file (a damaged or missing one is written again from the other; a file
    neither copy holds any more is an error, exit status 1).

    The undo journal inside the database undoes commands; a whole copy also survives a
    damaged or lost database file. The newest 5 are kept ($RATING_BATCH_BACKUPS, 1 to
    10000), together at most 3 times the database ($RATING_BATCH_BACKUP_SPACE: 1M to 1000T,
    e.g. 20G, or 1x to 1000x), and always the newest taken before an upgrade.

    Example:

    \b
        rating-batch backup
        rating-batch backup --after publish
    """
    from rating_batch import monthly

    with user_errors(context.obj["debug"]):
        result = monthly.backup(db, after=after, wait=context.obj["wait"])
    report(context, result.summary(), result.warnings)
    lost = monthly.lost_from_both(db, result.warnings)
    if lost:
        # Loud even with --quiet: a published list that neither copy holds is gone for good
        # unless the officer's own copies of the folders hold it.
        if context.obj["quiet"]:
            for issue in errors_only(result.warnings):
                echo(str(issue), err=True)
        raise click.ClickException(lost)


@click.command()
@DB_OPTION
@click.pass_context
def upgrade(context: click.Context, db: Path) -> None:
    """Bring a database made by an older rating_batch up to date (after a whole copy).

    Commands that write do this by themselves; read-only ones ask for it.

    Example:

    \b
        rating-batch upgrade --db rating_batch.sqlite
    """
    from rating_batch import monthly

    with user_errors(context.obj["debug"]):
        result = monthly.upgrade(db, wait=context.obj["wait"])
    report(context, result.summary())
