"""The registry of rating systems (systems/__init__.py, systems/registry.py): every system
named in one table, loaded from it, and named in the command line's help from it without
loading numpy or pandas."""

from __future__ import annotations

import subprocess
import sys

from click.testing import CliRunner

from rating_batch.cli import cli
from rating_batch.systems import SYSTEM_HOMES, SYSTEMS, find_system


def test_each_name_of_the_table_is_the_system_it_loads() -> None:
    assert list(SYSTEMS) == list(SYSTEM_HOMES) == [
        "glicko2", "glicko", "trueskill", "harkness", "ingo", "ecf-grade", "ecf",
    ]  # fmt: skip
    for name in SYSTEM_HOMES:
        system = find_system(name)
        assert system is not None and system.name == name


def test_the_help_names_every_system_of_the_table() -> None:
    for command in ("rate", "check", "init"):
        text = " ".join(CliRunner().invoke(cli, [command, "--help"]).output.split())
        assert "glicko2, glicko, trueskill, harkness, ingo, ecf-grade, ecf" in text, command


def test_the_help_loads_no_system_nor_numpy() -> None:
    code = (
        "import sys; from rating_batch.cli import cli; "
        "print(sorted(m for m in sys.modules if m in ('numpy', 'pandas') "
        "or m.startswith('rating_batch.systems.') and m != 'rating_batch.systems.homes' "
        "and m != 'rating_batch.systems.elo' and not m.startswith('rating_batch.systems.elo.')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
