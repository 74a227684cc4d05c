"""``serve``: the officer's desk, a local web application over the rating database
(rating_batch/web/, docs/desk.md)."""

from __future__ import annotations

from pathlib import Path

import click

from rating_batch.cli.common import DB_OPTION, OUT_OPTION, echo, user_errors
from rating_batch.errors import RatingBatchError


@click.command()
@DB_OPTION
@OUT_OPTION
@click.option("--host", default="127.0.0.1", show_default=True, help="The address to listen on.")
@click.option("--port", type=click.IntRange(0, 65535), default=8765, show_default=True)
@click.option(
    "--token-file",
    type=click.Path(path_type=Path, dir_okay=False),
    help="A file holding the token (of at least 16 characters) that a desk open to other "
    "machines (--host other than 127.0.0.1) asks every visitor for; or $RATING_BATCH_TOKEN. "
    "Never printed.",
)
@click.option("--token", hidden=True, help="Refused: it would show in the process list.")
@click.option("--open", "open_browser", is_flag=True, help="Open the desk in the web browser.")
@click.pass_context
def serve(
    context: click.Context,
    db: Path,
    out: Path,
    host: str,
    port: int,
    token_file: Path | None,
    token: str | None,
    open_browser: bool,
) -> None:
    """The officer's desk: the database, adding, publishing, players and backups in a web
    browser, until Ctrl-C. With no database at --db yet, its first page makes one from a
    rating list.

    The pages call what the commands call, with the same locks and messages.

    Example:

    \b
        rating-batch serve --db rating_batch.sqlite --out lists --open
    """
    import os

    from rating_batch.store import keep_out_of_database
    from rating_batch.web.serving import serve_desk

    with user_errors(context.obj["debug"]):
        if token is not None:
            raise RatingBatchError(
                "--token would show the token to every user of this machine (the process "
                "list): put it in a file and give --token-file FILE, or set $RATING_BATCH_TOKEN"
            )
        secret = os.environ.get("RATING_BATCH_TOKEN") or None
        if token_file is not None:
            try:
                secret = token_file.read_text(encoding="utf-8").strip()
                if os.name == "posix" and token_file.stat().st_mode & 0o077:
                    echo(
                        f"warning: --token-file {token_file} can be read by other users of "
                        f"this machine: chmod 600 {token_file}",
                        err=True,
                    )
            except (OSError, UnicodeDecodeError) as error:
                raise RatingBatchError(
                    f"--token-file {token_file}: cannot read it ({error})"
                ) from None
        # The desk's publish and site check it again; said here, before the officer works.
        keep_out_of_database(db, out)
        serve_desk(
            db,
            out,
            host=host,
            port=port,
            token=secret,
            wait=context.obj["wait"],
            say=echo,
            open_browser=open_browser,
        )
