"""``serve``: the officer's desk, a local web application over the rating database
(rating_batch/web/, docs/desk.md)."""

from __future__ import annotations

from pathlib import Path

import click

from rating_batch.cli.common import DB_OPTION, OUT_OPTION, echo, user_errors


@click.command()
@DB_OPTION
@OUT_OPTION
@click.option("--host", default="127.0.0.1", show_default=True, help="The address to listen on.")
@click.option("--port", type=click.IntRange(0, 65535), default=8765, show_default=True)
@click.option(
    "--token",
    envvar="RATING_BATCH_TOKEN",
    help="Needed (or $RATING_BATCH_TOKEN) for a --host other than this machine: every "
    "visitor signs in with it. Never printed.",
)
@click.pass_context
def serve(
    context: click.Context, db: Path, out: Path, host: str, port: int, token: str | None
) -> None:
    """The officer's desk: the database, adding, publishing, players and backups in a web
    browser, until Ctrl-C.

    The pages call what the commands call, with the same locks and messages.

    Example:

    \b
        rating-batch serve --db rating_batch.sqlite --out lists
    """
    from rating_batch.web.serving import serve_desk

    with user_errors(context.obj["debug"]):
        serve_desk(db, out, host=host, port=port, token=token, wait=context.obj["wait"], say=echo)
