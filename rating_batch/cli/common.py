"""What the commands share: their common options, how they print (a summary on stdout,
warnings on stderr), and how an error becomes a one-line message."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

import click

from rating_batch.errors import RatingBatchError, describe_os_error
from rating_batch.systems.elo.rules import KINDS
from rating_batch.terminal import terminal_text

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
ALLOW_OVERLAP = click.option(
    "--allow-overlap",
    is_flag=True,
    help="Accept events that share half or more of their played games (rated twice).",
)
DRY_RUN = click.option(
    "--dry-run", is_flag=True, help="Check and report everything; change and write nothing."
)


def _codec(context: click.Context, parameter: click.Parameter, name: str | None) -> str | None:
    """An ``--encoding`` Python knows, else a usage error naming a few that it does."""
    if name is None:
        return None
    import codecs

    try:
        codecs.lookup(name)
    except LookupError:
        raise click.BadParameter(
            f"unknown encoding {name!r} (e.g. windows-1250, windows-1251, cp932, latin-1)"
        ) from None
    return name


ENCODING_OPTION = click.option(
    "--encoding",
    callback=_codec,
    help="The encoding of the files that are not UTF-8 (windows-1250, windows-1251, koi8-r, "
    "cp932 …); default: found from each file's names and federations, with a warning when "
    "unsure.",
)
KIND_OPTION = click.option(
    "--kind",
    type=click.Choice(KINDS),
    help="The list to rate for; default: read from the events' time controls, else standard.",
)


def echo(text: object, *, err: bool = False) -> None:
    """Print a line, as every command prints: through ``terminal_text``."""
    click.echo(terminal_text(str(text)), err=err)


@contextlib.contextmanager
def user_errors(debug: bool) -> Iterator[None]:
    """Turn RatingBatchError, and what the machine refuses (no space, no access, a file in the
    way), into a one-line message and exit status 1 (``--debug`` keeps the traceback)."""
    try:
        yield
    except RatingBatchError as error:
        if debug:
            raise
        raise click.ClickException(terminal_text(str(error))) from None
    except OSError as error:
        if debug:
            raise
        raise click.ClickException(terminal_text(describe_os_error(error))) from None


def check_settings(debug: bool) -> None:
    """The settings of the environment ($RATING_BATCH_UNDO …), checked before any command
    runs (the desk's too): one that makes no sense is refused, naming it, before anything
    is read or written."""
    from rating_batch import settings

    with user_errors(debug):
        settings.check()


#: Warnings printed by default (``-v`` prints them all, ``--quiet`` none).
SHOWN_WARNINGS = 20


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
    """The summary on stdout, then the warnings on stderr: the first ``SHOWN_WARNINGS`` by
    default, all with --verbose; --quiet prints neither."""
    if context.obj["quiet"]:
        return
    echo(summary)
    shown = warnings if context.obj["verbose"] else warnings[:SHOWN_WARNINGS]
    for warning in shown:
        echo(str(warning), err=True)
    if len(shown) < len(warnings):
        echo(f"… and {len(warnings) - len(shown)} more warning(s) (-v prints them all)", err=True)


DB_OPTION = click.option(
    "--db",
    type=click.Path(dir_okay=False, path_type=Path),
    envvar="RATING_BATCH_DB",
    default=Path("rating_batch.sqlite"),
    show_default=True,
    help="The rating database (or $RATING_BATCH_DB).",
)
