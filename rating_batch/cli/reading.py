"""The commands that read the rating database and write what it holds: player, export-list
and drift."""

from __future__ import annotations

from pathlib import Path

import click

from rating_batch.cli.common import DB_OPTION, OUT_OPTION, echo, user_errors
from rating_batch.systems.elo.rules import KINDS


@click.command()
@click.argument("fide_id", metavar="[ID]", required=False)
@click.option("--name", help="Find players by name (any part, accents and case aside).")
@DB_OPTION
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    help="Also write player-ID.xlsx (history, calculations, pending games, charts) and "
    "player-ID.html (one printable page) to this folder.",
)
@click.pass_context
def player(
    context: click.Context, fide_id: str | None, name: str | None, db: Path, out: Path | None
) -> None:
    """Explain a player's ratings: the history of every list, and for each published list
    the player played in, the calculation of the new rating (FIDE's individual
    calculation, or the first-rating derivation with the games pending toward it).

    ID is a FIDE ID or, for a player without one, the id the lists print
    (<event>#<start rank>, e.g. n1#7); --name finds both.

    Example:

    \b
        rating-batch player 900000001
        rating-batch player --name "rako"
    """
    from rating_batch import monthly

    if (fide_id is None) == (name is None):
        raise click.UsageError("give an ID (a FIDE ID, or n1#7 for one without), or --name TEXT")
    with user_errors(context.obj["debug"]):
        if name is not None:
            echo(monthly.find_players(name, db=db, out=out))
        else:
            echo(monthly.player_report(str(fide_id), db=db, out=out))


@click.command("export-list")
@click.argument("period")
@click.option("--kind", type=click.Choice(KINDS), help="Only this list kind (default: all).")
@DB_OPTION
@OUT_OPTION
@click.pass_context
def export_list(context: click.Context, period: str, kind: str | None, db: Path, out: Path) -> None:
    """Write a stored list again (PERIOD YYYY-MM, or 'initial'): list.csv, .xlsx and .txt.

    A published list is written exactly as it was published.

    Example:

    \b
        rating-batch export-list 2026-02 --out out
    """
    from rating_batch import monthly

    with user_errors(context.obj["debug"]):
        paths = monthly.export_list(period, db=db, out=out, kind=kind)
    if not context.obj["quiet"]:
        for path in paths:
            echo(f"wrote {path}")


@click.command("drift")
@click.option("--kind", type=click.Choice(KINDS), default="standard", show_default=True,
              help="The lists to read.")  # fmt: skip
@DB_OPTION
@OUT_OPTION
@click.pass_context
def drift(context: click.Context, kind: str, db: Path, out: Path) -> None:
    """The pool over time, from every list in the database: drift-KIND.html and .csv.

    The list's mean and median; their change split into rating changes and players joining
    or leaving; a ledger of where the points come from and go; the new players' score
    against their expected score; ratings at a fixed age (docs/drift.md).

    Example:

    \b
        rating-batch drift --out out
    """
    from rating_batch import monthly

    with user_errors(context.obj["debug"]):
        report = monthly.drift_report(db=db, out=out, kind=kind)
    if not context.obj["quiet"]:
        echo(report.summary())
