"""The command line: a thin click layer over ``rating_batch.pipeline``."""

from __future__ import annotations

import contextlib
import logging
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

import click

from rating_batch import pipeline, production
from rating_batch.errors import RatingBatchError
from rating_batch.rules import EDITIONS, FIDE_BY_DATE, KINDS, LATEST, describe, named_rules

EXISTING = click.Path(exists=True, path_type=Path)
LIST_OPTION = click.option(
    "--list", "list_path", type=EXISTING, help="Previous rating list (CSV: id, rating, …)."
)
OUT_OPTION = click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("out"),
    show_default=True,
    help="The folder to write to.",
)
KIND_OPTION = click.option(
    "--kind",
    type=click.Choice(KINDS),
    help="The list to rate for; default: read from the events' time controls, else standard.",
)


@contextlib.contextmanager
def user_errors(debug: bool) -> Iterator[None]:
    """Turn RatingBatchError into a message and exit status 1 (``--debug`` keeps the traceback)."""
    try:
        yield
    except RatingBatchError as error:
        if debug:
            raise
        raise click.ClickException(str(error)) from None


@click.group()
@click.version_option(package_name="rating_batch")
@click.option("--debug", is_flag=True, help="Show tracebacks for input errors.")
@click.option("--quiet", "-q", is_flag=True, help="Print errors only: no progress, no summary.")
@click.option("--verbose", "-v", is_flag=True, help="Print every warning, not only their count.")
@click.pass_context
def cli(context: click.Context, debug: bool, quiet: bool, verbose: bool) -> None:
    """FIDE-exact rating calculations for rating officers."""
    context.obj = {"debug": debug, "quiet": quiet, "verbose": verbose and not quiet}
    logging.basicConfig(level=logging.WARNING, format="%(message)s")


def progress_bar(context: click.Context) -> Callable[[Sequence[Any], str], Iterable[Any]]:
    """A progress bar on stderr for many items, when stderr is a terminal (quiet otherwise)."""

    def wrap(items: Sequence[Any], label: str) -> Iterator[Any]:
        if context.obj["quiet"] or len(items) < 2 or not sys.stderr.isatty():
            yield from items
            return
        with click.progressbar(items, label=label, file=sys.stderr, show_pos=True) as bar:
            yield from bar

    return wrap


def report(context: click.Context, summary: str, warnings: Sequence[object] = ()) -> None:
    """The one-screen summary on stdout (unless --quiet); every warning with --verbose."""
    if context.obj["verbose"]:
        for warning in warnings:
            click.echo(str(warning), err=True)
    if not context.obj["quiet"]:
        click.echo(summary)


@cli.command()
@click.argument("events", nargs=-1, required=True, type=EXISTING)
@LIST_OPTION
@click.option(
    "--rules",
    "rules_name",
    default=FIDE_BY_DATE,
    show_default=True,
    help=f"'{FIDE_BY_DATE}' (the edition in force at each event's start), one of "
    + ", ".join(sorted(EDITIONS))
    + ", or a federation's .toml rules file.",
)
@KIND_OPTION
@OUT_OPTION
@click.pass_context
def rate(
    context: click.Context,
    events: tuple[Path, ...],
    list_path: Path | None,
    rules_name: str,
    kind: str | None,
    out: Path,
) -> None:
    """Rate EVENTS (files or folders) as one rating period, without a database.

    Writes OUT/players.csv, OUT/games.csv and OUT/report.xlsx.

    Example:

    \b
        rating-batch rate sample_data/events --out out
    """
    with user_errors(context.obj["debug"]):
        result = pipeline.rate_events(
            events,
            rules_name=rules_name,
            list_path=list_path,
            kind=kind,
            out=out,
            progress=progress_bar(context),
        )
    report(context, result.summary(), result.warnings)


@cli.command()
@click.argument("files", nargs=-1, required=True, type=EXISTING)
@click.pass_context
def check(context: click.Context, files: tuple[Path, ...]) -> None:
    """Validate tournament files and rating lists; print every problem as file:line: message.

    Exit status 0 when there is no error (warnings allowed), 1 otherwise. Writes nothing.

    Example:

    \b
        rating-batch check sample_data/events/*.trf
    """
    with user_errors(context.obj["debug"]):
        issues = pipeline.check_files(files)
    for issue in issues:
        click.echo(str(issue))
    errors = sum(issue.severity == "error" for issue in issues)
    click.echo(f"{errors} error(s), {len(issues) - errors} warning(s)", err=True)
    if errors:
        sys.exit(1)


@cli.command("rules")
@click.argument("name", required=False)
@click.pass_context
def rules_command(context: click.Context, name: str | None) -> None:
    """List the rule editions, or print every value of one (an edition or a .toml file).

    Each value is shown with where it comes from: the edition, or the rules file.

    Example:

    \b
        rating-batch rules
        rating-batch rules sample_data/rules/fexerj-2027.toml
    """
    with user_errors(context.obj["debug"]):
        if name is None:
            for edition in EDITIONS.values():
                since = edition.in_force_from.isoformat() if edition.in_force_from else ""
                click.echo(f"{edition.edition:10}  from {since:10}  {edition.title}")
            click.echo(
                f"{FIDE_BY_DATE:10}  {'(default)':15}  the edition in force at each event's start"
            )
            return
        rows = describe(named_rules(LATEST if name == FIDE_BY_DATE else name))
    width = max(len(key) for key, _, _ in rows)
    for key, value, origin in rows:
        click.echo(f"{key:{width}}  {value}  [{origin}]")


@cli.command("compare-rules")
@click.argument("events", nargs=-1, required=True, type=EXISTING)
@click.option(
    "--rules",
    "rules_names",
    multiple=True,
    required=True,
    help="Two rule sets (edition names or .toml files): --rules A --rules B.",
)
@LIST_OPTION
@KIND_OPTION
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    help="Write compare.csv and compare.xlsx to this folder.",
)
@click.pass_context
def compare_rules(
    context: click.Context,
    events: tuple[Path, ...],
    rules_names: tuple[str, ...],
    list_path: Path | None,
    kind: str | None,
    out: Path | None,
) -> None:
    """Rate EVENTS under two rule sets and show, player by player and in total, what changes.

    Example:

    \b
        rating-batch compare-rules sample_data/events --rules fide \
            --rules sample_data/rules/fexerj-2027.toml
    """
    if len(rules_names) != 2:
        raise click.UsageError("give --rules exactly twice: --rules A --rules B")
    with user_errors(context.obj["debug"]):
        compared = pipeline.compare_rules(
            events, (rules_names[0], rules_names[1]), list_path=list_path, kind=kind, out=out
        )
    click.echo(compared.summary())


DB_OPTION = click.option(
    "--db",
    type=click.Path(dir_okay=False, path_type=Path),
    envvar="RATING_BATCH_DB",
    default=Path("rating_batch.sqlite"),
    show_default=True,
    help="The rating database (or $RATING_BATCH_DB).",
)


@cli.command()
@click.option(
    "--list", "list_path", type=EXISTING, required=True, help="FIDE TXT/XML, CSV or XLSX list."
)
@KIND_OPTION
@click.option("--period", help="The month of that list, YYYY-MM (default: from the FIDE header).")
@click.option(
    "--rules",
    "rules_name",
    default=FIDE_BY_DATE,
    show_default=True,
    help="The rules this database follows: 'fide' (by date), an edition, or a .toml file "
    "(its text is kept in the database).",
)
@DB_OPTION
@click.pass_context
def init(
    context: click.Context,
    list_path: Path,
    kind: str | None,
    period: str | None,
    rules_name: str,
    db: Path,
) -> None:
    """Create the rating database from an existing rating list.

    A combined FIDE list fills all three lists; a single-kind list or CSV fills --kind
    (standard by default).

    Example:

    \b
        rating-batch init --list sample_data/list-2026-01.csv --period 2026-01
    """
    with user_errors(context.obj["debug"]):
        result = production.init_database(
            list_path, db=db, kind=kind, period=period, rules_name=rules_name
        )
    click.echo(result.summary())


@cli.command()
@click.argument("events", nargs=-1, required=True, type=EXISTING)
@KIND_OPTION
@DB_OPTION
@click.pass_context
def add(context: click.Context, events: tuple[Path, ...], kind: str | None, db: Path) -> None:
    """Validate and store EVENTS, each in the rating period of its end date.

    The same event twice is refused, never counted twice. Players are found by FIDE ID, else
    by exact name, birth year and federation; a player found nowhere is created.

    Example:

    \b
        rating-batch add sample_data/monthly/2026-02/*.trf
    """
    with user_errors(context.obj["debug"]):
        result = production.add_events(events, db=db, kind=kind, progress=progress_bar(context))
    report(context, result.summary(), result.warnings)


@cli.command()
@click.argument("period")
@DB_OPTION
@OUT_OPTION
@click.pass_context
def publish(context: click.Context, period: str, db: Path, out: Path) -> None:
    """Rate PERIOD (YYYY-MM) for each list and write the new lists and reports.

    Writes OUT/PERIOD/KIND/list.csv, list.xlsx, list.txt, players.csv, games.csv,
    calculations.csv and report.xlsx. Publishing the same period again reproduces the same
    files byte for byte.

    Example:

    \b
        rating-batch publish 2026-02 --out out
    """
    with user_errors(context.obj["debug"]):
        result = production.publish_period(period, db=db, out=out, progress=progress_bar(context))
    report(context, result.summary())


@cli.command()
@click.argument("player_id")
@DB_OPTION
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    help="Also write player-ID.xlsx (history, pending games, charts) to this folder.",
)
@click.pass_context
def player(context: click.Context, player_id: str, db: Path, out: Path | None) -> None:
    """Print a player's rating history and the games pending toward a first rating.

    PLAYER_ID is a FIDE ID, or <event>#<start rank> for a player without one.

    Example:

    \b
        rating-batch player 2289970
    """
    with user_errors(context.obj["debug"]):
        click.echo(production.player_report(player_id, db=db, out=out))


@cli.command("export-list")
@click.argument("period")
@KIND_OPTION
@DB_OPTION
@OUT_OPTION
@click.pass_context
def export_list(context: click.Context, period: str, kind: str | None, db: Path, out: Path) -> None:
    """Write a stored list again (PERIOD YYYY-MM, or 'initial'): list.csv, .xlsx and .txt.

    Example:

    \b
        rating-batch export-list 2026-02 --out out
    """
    with user_errors(context.obj["debug"]):
        paths = production.export_list(period, db=db, out=out, kind=kind)
    for path in paths:
        click.echo(f"wrote {path}")
