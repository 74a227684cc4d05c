"""The title commands (docs/norms.md): ``norms`` (the norms of event files) and
``title-check`` (a title application's arithmetic), thin over ``rating_batch.norms``."""

from __future__ import annotations

from pathlib import Path

import click

from rating_batch.cli.common import (
    ENCODING_OPTION,
    EXISTING,
    LIST_OPTION,
    OUT_OPTION,
    echo,
    progress_bar,
    report,
    user_errors,
)
from rating_batch.titles.rules import EDITIONS, EXEMPTIONS


@click.command("norms")
@click.argument("events", nargs=-1, required=True, type=EXISTING)
@LIST_OPTION
@click.option(
    "--player",
    "players",
    multiple=True,
    help="Only this player: a FIDE ID or the start rank in the file (repeatable).",
)
@click.option(
    "--edition",
    type=click.Choice(sorted(EDITIONS)),
    help="The B.01 edition to apply; default: the one in force at each event's start.",
)
@click.option(
    "--exemption",
    type=click.Choice(EXEMPTIONS),
    help="The event is exempt from the foreigner rule (1.4.3a-c; d is computed).",
)
@click.option(
    "--application",
    is_flag=True,
    help="Print each norm found as an APPLICATION.toml [[norms]] table for title-check "
    "(writes no files).",
)
@OUT_OPTION
@ENCODING_OPTION
@click.pass_context
def norms(
    context: click.Context,
    events: tuple[Path, ...],
    list_path: Path | None,
    players: tuple[str, ...],
    edition: str | None,
    exemption: str | None,
    application: bool,
    out: Path,
    encoding: str | None,
) -> None:
    """Check every player's FIDE title norms (GM, IM; WGM, WIM for women) in EVENTS.

    Writes OUT/norms.csv, OUT/norms.html and a certificate per norm,
    OUT/norms/ID-TITLE.html (several events: each into OUT/KEY/). Rates nothing.

    Example:

    \b
        rating-batch norms sample_data/norms/roundrobin.trf --out out/norms
    """
    from rating_batch.norms import application_tables, norms_events

    with user_errors(context.obj["debug"]):
        run = norms_events(
            events,
            list_path=list_path,
            players=players,
            edition=edition,
            exemption=exemption,
            out=None if application else out,
            progress=progress_bar(context),
            encoding=encoding,
        )
    if application:
        echo(application_tables(run))
        return
    report(context, run.summary(), run.warnings)


@click.command("title-check")
@click.argument("application", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    help="Also write application.csv and application.html to this folder.",
)
@click.pass_context
def title_check(context: click.Context, application: Path, out: Path | None) -> None:
    """Check a title APPLICATION (an IT2 as TOML): its norms' games and every requirement.

    Exit status 0 whether or not the player is eligible; 1 for a malformed file.

    Example:

    \b
        rating-batch title-check sample_data/norms/application.toml --out out/application
    """
    from rating_batch.norms import application_summary
    from rating_batch.norms import title_check as check

    with user_errors(context.obj["debug"]):
        verdict = check(application, out=out)
    echo(application_summary(verdict))
