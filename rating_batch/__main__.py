"""``python -m rating_batch`` runs the command line."""

from rating_batch.cli import cli

cli()
