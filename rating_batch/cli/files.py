"""The commands that need no database: rate, check, rules and compare-rules."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from rating_batch.cli.common import (
    ALLOW_OVERLAP,
    ENCODING_OPTION,
    EXISTING,
    KIND_OPTION,
    LIST_OPTION,
    OUT_OPTION,
    echo,
    progress_bar,
    report,
    user_errors,
)
from rating_batch.systems import SYSTEM_HOMES
from rating_batch.systems.elo.rules import EDITIONS, FIDE_BY_DATE, LATEST


@click.command()
@click.argument("events", nargs=-1, required=True, type=EXISTING)
@LIST_OPTION
@click.option(
    "--rules",
    "rules_name",
    default=FIDE_BY_DATE,
    show_default=True,
    help=f"'{FIDE_BY_DATE}' (the edition in force at each event's start), one of "
    + ", ".join(sorted(EDITIONS))
    + ", a federation's .toml rules file, or another rating system: "
    + ", ".join(SYSTEM_HOMES)
    + " (docs/systems.md).",
)
@KIND_OPTION
@OUT_OPTION
@click.option(
    "--pages/--no-pages",
    default=None,
    help="Write a page per event, OUT/events/KEY.html, or not (by default: for a run of at "
    "most 20 events and 20,000 player-games, or one event).",
)
@ALLOW_OVERLAP
@ENCODING_OPTION
@click.pass_context
def rate(
    context: click.Context,
    events: tuple[Path, ...],
    list_path: Path | None,
    rules_name: str,
    kind: str | None,
    out: Path,
    pages: bool | None,
    allow_overlap: bool,
    encoding: str | None,
) -> None:
    """Rate EVENTS (files or folders) as one rating period, without a database.

    Writes OUT/players.csv, OUT/games.csv, OUT/calculations.csv, OUT/report.xlsx,
    OUT/index.html and, for a small run or with --pages, a page per event,
    OUT/events/KEY.html (under another rating system: the CSVs, report.xlsx and index.html).

    Example:

    \b
        rating-batch rate sample_data/events --out out
    """
    from rating_batch.rate import rate_events

    with user_errors(context.obj["debug"]):
        result = rate_events(
            events,
            rules_name=rules_name,
            list_path=list_path,
            kind=kind,
            out=out,
            progress=progress_bar(context),
            allow_overlap=allow_overlap,
            encoding=encoding,
            pages=pages,
        )
    report(context, result.summary(), result.warnings)


@click.command()
@click.argument("files", nargs=-1, required=True, type=EXISTING)
@click.option(
    "--rules",
    "rules_name",
    help=f"Another rating system ({', '.join(SYSTEM_HOMES)}, or its rules file): CSV lists "
    "are checked as its state lists (docs/formats.md §11).",
)
@ENCODING_OPTION
@click.pass_context
def check(
    context: click.Context, files: tuple[Path, ...], rules_name: str | None, encoding: str | None
) -> None:
    """Validate tournament files and rating lists; print every problem as file:line: message.

    Exit status 0 when there is no error (warnings allowed), 1 otherwise. Writes nothing.

    Example:

    \b
        rating-batch check sample_data/events/*.trf
    """
    from rating_batch.rate import check_files

    with user_errors(context.obj["debug"]):
        issues = check_files(files, rules_name, encoding)
    for issue in issues:
        echo(str(issue))
    errors = sum(issue.severity == "error" for issue in issues)
    echo(f"{errors} error(s), {len(issues) - errors} warning(s)", err=True)
    if errors:
        sys.exit(1)


@click.command("rules")
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
    from rating_batch.monthly.init import rule_choices
    from rating_batch.pipelines import find_system

    with user_errors(context.obj["debug"]):
        if name is None:
            for choice, since, title in rule_choices():
                echo(f"{choice:10}  {since:15}  {title}")
            return
        for line in find_system(LATEST if name == FIDE_BY_DATE else name).describe():
            echo(line)


@click.command("compare-rules")
@click.argument("events", nargs=-1, required=True, type=EXISTING)
@click.option(
    "--rules",
    "rules_names",
    multiple=True,
    required=True,
    help="Two rule sets (edition names, rating systems or .toml files): --rules A --rules B.",
)
@LIST_OPTION
@KIND_OPTION
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    help="Write compare.csv and compare.xlsx to this folder.",
)
@ALLOW_OVERLAP
@ENCODING_OPTION
@click.pass_context
def compare_rules(
    context: click.Context,
    events: tuple[Path, ...],
    rules_names: tuple[str, ...],
    list_path: Path | None,
    kind: str | None,
    out: Path | None,
    allow_overlap: bool,
    encoding: str | None,
) -> None:
    """Rate EVENTS under two rule sets and show, player by player and in total, what changes.

    Example:

    \b
        rating-batch compare-rules sample_data/events --rules fide \
            --rules sample_data/rules/fexerj-2027.toml
    """
    from rating_batch import compare

    if len(rules_names) != 2:
        raise click.UsageError("give --rules exactly twice: --rules A --rules B")
    with user_errors(context.obj["debug"]):
        compared = compare.compare_rules(
            events,
            (rules_names[0], rules_names[1]),
            list_path=list_path,
            kind=kind,
            out=out,
            allow_overlap=allow_overlap,
            encoding=encoding,
        )
    report(context, compared.summary(), compared.warnings)
