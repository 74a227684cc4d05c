"""The command line: a thin click layer over the library (``rate``, ``monthly``), one module
per kind of command (``files``: no database; ``database``: the rating database; ``desk``: the
web desk over it), the options and printing they share in ``common``."""

from __future__ import annotations

import logging
import math

import click

from rating_batch.cli import database, desk, files, norms, reading
from rating_batch.cli.common import SHOWN_WARNINGS, check_settings
from rating_batch.store import DEFAULT_WAIT

_HELP_ONLY = "rating_batch.help_only"


def _seconds(context: click.Context, parameter: click.Parameter, value: float) -> float:
    # A NaN passes every comparison of a range, and a wait for it never ends.
    if math.isnan(value):
        raise click.BadParameter("nan is no number of seconds (0 or more; inf waits for ever)")
    return value


class _Commands(click.Group):
    """The commands, knowing before the group's callback runs whether a command was only
    asked for its --help (click hands the group callback no arguments)."""

    def invoke(self, ctx: click.Context) -> object:
        ctx.meta[_HELP_ONLY] = "--help" in ctx.args
        return super().invoke(ctx)


@click.group(cls=_Commands)
@click.version_option(package_name="rating_batch")
@click.option("--debug", is_flag=True, help="Show tracebacks for input errors.")
@click.option("--quiet", "-q", is_flag=True, help="Print errors only: no progress, no summary.")
@click.option(
    "--verbose",
    "-v",
    is_flag=True,
    help=f"Print every warning (by default the first {SHOWN_WARNINGS}).",
)
@click.option(
    "--wait",
    type=click.FloatRange(min=0),
    callback=_seconds,
    envvar="RATING_BATCH_WAIT",
    default=DEFAULT_WAIT,
    show_default=True,
    help="Seconds to wait for another command writing to the database (or $RATING_BATCH_WAIT).",
)
@click.pass_context
def cli(context: click.Context, debug: bool, quiet: bool, verbose: bool, wait: float) -> None:
    """FIDE-exact rating calculations for rating officers."""
    context.obj = {"debug": debug, "quiet": quiet, "verbose": verbose and not quiet, "wait": wait}
    logging.basicConfig(level=logging.ERROR if quiet else logging.WARNING, format="%(message)s")
    # A command's --help changes nothing, and is how the officer learns what to set.
    if not context.meta.get(_HELP_ONLY):
        check_settings(debug)


# Each command in the order --help lists them (click sorts them by name).
for _command in (
    files.rate,
    files.check,
    files.rules_command,
    files.compare_rules,
    norms.norms,
    norms.title_check,
    database.init,
    database.add,
    database.publish,
    database.month,
    database.site,
    database.unpublish,
    database.remove,
    database.edit_player,
    database.backups,
    database.restore,
    database.backup,
    database.upgrade,
    reading.player,
    reading.export_list,
    reading.drift,
    desk.serve,
):
    cli.add_command(_command)

__all__ = ["cli"]
