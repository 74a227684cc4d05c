"""The command line: a thin click layer over ``rating_batch.pipeline``."""

from __future__ import annotations

import contextlib
import logging
import sys
from collections.abc import Iterator
from pathlib import Path

import click

from rating_batch import pipeline
from rating_batch.errors import RatingBatchError
from rating_batch.rules import EDITIONS, FIDE_BY_DATE

EXISTING = click.Path(exists=True, path_type=Path)


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
@click.pass_context
def cli(context: click.Context, debug: bool) -> None:
    """FIDE-exact rating calculations for rating officers."""
    context.obj = {"debug": debug}
    logging.basicConfig(level=logging.WARNING, format="%(message)s")


@cli.command()
@click.argument("events", nargs=-1, required=True, type=EXISTING)
@click.option(
    "--list", "list_path", type=EXISTING, help="Previous rating list (CSV: id, rating, …)."
)
@click.option(
    "--rules",
    "rules_name",
    default=FIDE_BY_DATE,
    show_default=True,
    help=f"'{FIDE_BY_DATE}' (the edition in force at each event's start) or one of: "
    + ", ".join(sorted(EDITIONS)),
)
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("out"),
    show_default=True,
)
@click.pass_context
def rate(
    context: click.Context,
    events: tuple[Path, ...],
    list_path: Path | None,
    rules_name: str,
    out: Path,
) -> None:
    """Rate EVENTS (files or folders) as one rating period, without a database.

    Writes OUT/players.csv, OUT/games.csv and OUT/report.xlsx.

    Example:

    \b
        rating-batch rate sample_data/events --list sample_data/list.csv --out out
    """
    with user_errors(context.obj["debug"]):
        result = pipeline.rate_events(events, rules_name=rules_name, list_path=list_path, out=out)
    click.echo(result.summary())


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
