"""The registry of rating systems (systems/__init__.py, systems/registry.py): every system
named in one table, loaded from it, and named in the command line's help from it without
loading numpy or pandas."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from rating_batch.cli import cli
from rating_batch.errors import RulesError
from rating_batch.pipelines import find_system
from rating_batch.pipelines.elo.system import EloSystem
from rating_batch.pipelines.state.system import StatePipeline
from rating_batch.systems import SYSTEM_HOMES, SYSTEMS, state_system


def test_each_name_of_the_table_is_the_system_it_loads() -> None:
    # A new system is its module and one line of the table: none is named here but those
    # built in, which must stay.
    assert list(SYSTEMS) == list(SYSTEM_HOMES)
    assert {"glicko2", "glicko", "trueskill", "harkness", "ingo", "uscf", "dwz", "ecf-grade",
            "ecf"} <= set(SYSTEMS)  # fmt: skip
    for name in SYSTEM_HOMES:
        system = find_system(name)
        assert isinstance(system, StatePipeline) and system.name == name
        assert state_system(name) is not None


@pytest.mark.parametrize("rules", ["fide", "fide-2024", "fide-2022"])
def test_fide_elo_is_a_rating_system_like_the_others(rules: str) -> None:
    system = find_system(rules)
    assert isinstance(system, EloSystem)
    assert (system.name, system.lower_is_better, system.takes_elo_list) == (
        "fide-elo", False, True,
    )  # fmt: skip
    assert state_system(rules) is None


def test_a_rules_file_is_fide_elo_unless_it_names_another_system(tmp_path: Path) -> None:
    # docs/rules.md §9: a federation's rules file may raise the lowest rating of its lists.
    elo = tmp_path / "fed.toml"
    elo.write_text('name = "fed"\nbase = "fide-2024"\n[lists]\nrating_min = 1000\n', "utf-8")
    named = tmp_path / "named.toml"
    named.write_text('system = "fide-elo"\nname = "fed"\nbase = "fide-2024"\n', "utf-8")
    glicko = tmp_path / "glicko.toml"
    glicko.write_text('system = "glicko"\n[glicko]\nc = 30\n', encoding="utf-8")
    assert isinstance(find_system(str(elo)), EloSystem)
    assert find_system(str(elo)).lowest_rating() == 1000
    assert isinstance(find_system(str(named)), EloSystem)
    assert find_system(str(named)).lowest_rating() == 100  # FIDE's, docs/rules.md §9
    assert find_system(str(glicko)).name == "glicko"


def test_an_unknown_name_is_refused_naming_every_choice() -> None:
    with pytest.raises(RulesError, match="glicko2, glicko, trueskill, harkness, ingo"):
        find_system("fide-1066").lowest_rating()


def test_the_help_names_every_system_of_the_table() -> None:
    for command in ("rate", "check", "init"):
        text = " ".join(CliRunner().invoke(cli, [command, "--help"]).output.split())
        assert ", ".join(SYSTEM_HOMES) in text, command


def test_the_help_loads_no_system_nor_numpy() -> None:
    code = (
        "import sys; from rating_batch.cli import cli; "
        "print(sorted(m for m in sys.modules if m in ('numpy', 'pandas') "
        "or m.startswith('rating_batch.systems.') and m != 'rating_batch.systems.homes' "
        "and m != 'rating_batch.systems.elo' and not m.startswith('rating_batch.systems.elo.')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
