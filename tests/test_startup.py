"""A command loads the libraries its work needs and no others (issue 42: about half a second
of every process was imports, paid by every officer at every command and by the ~250
processes of the test suite): a refusal that needs no data loads no pandas, a command that
writes no workbook loads no openpyxl, and only the rating system a command runs is loaded.

Each command runs as a real process (``python -c``: the command line, then the modules it
loaded printed on the last line), as ``tests/test_cli.py``'s help test does.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from db_helpers import event_file

from rating_batch.systems.homes import SYSTEM_HOMES

#: A command run, then its exit code and the modules it loaded as the last line of output.
DRIVER = """
import json, sys
from rating_batch.cli import cli
code = 0
try:
    cli.main(sys.argv[1:], prog_name="rating-batch")
except SystemExit as exit:
    code = exit.code
print(json.dumps([code, sorted(sys.modules)]))
"""

#: The libraries a command loads only when its work needs them.
HEAVY = ("pandas", "numpy", "openpyxl", "jinja2")
#: The modules of the rating systems other than FIDE Elo (``rating_batch.systems.glicko2``).
OTHER_SYSTEMS = {f"rating_batch.systems.{home.split(':')[0]}" for home in SYSTEM_HOMES.values()}


def loaded_by(*args: str, cwd: Path, code: int = 0) -> tuple[set[str], str]:
    """The command's loaded modules and its stderr; it must exit with ``code``."""
    done = subprocess.run(
        [sys.executable, "-c", DRIVER, *args], capture_output=True, text=True, cwd=cwd
    )
    exit_code, modules = json.loads(done.stdout.strip().splitlines()[-1])
    assert exit_code == code, done.stderr
    return set(modules), done.stderr


def heavy(modules: set[str]) -> list[str]:
    return sorted(name for name in HEAVY if name in modules)


def systems(modules: set[str]) -> list[str]:
    """The other systems' modules loaded (a package's submodules count as their system)."""
    return sorted(name for name in OTHER_SYSTEMS if any(m.split(".")[:3] == name.split(".")
                                                        for m in modules))  # fmt: skip


@pytest.fixture(scope="module")
def database(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, set[str]]]:
    """A folder with a 3-player database (``init``) holding one January event (``add``),
    and the modules those two commands loaded."""
    folder = tmp_path_factory.mktemp("startup")
    (folder / "list.csv").write_text("id,rating\n11,1600\n12,1500\n13,1450\n")
    event_file(folder, "jan", [(1, 1, 2, "1-0")], day="2026/01/10")
    made = {
        "init": loaded_by("init", "--list", "list.csv", "--period", "2026-01", cwd=folder)[0],
        "add": loaded_by("add", "jan.trf", cwd=folder)[0],
    }
    return folder, made


def test_a_refused_init_loads_no_pandas(database: tuple[Path, dict[str, set[str]]]) -> None:
    """An init over an existing database is refused before the list or the rules are read:
    it needs neither pandas nor numpy nor openpyxl (0.55 s of processor time before)."""
    folder, _ = database
    modules, err = loaded_by(
        "init", "--list", "list.csv", "--period", "2026-01", cwd=folder, code=1
    )
    assert err == (
        "Error: rating_batch.sqlite: already exists; init never replaces a file: give another "
        "--db path (the file was not changed)\n"
    )
    assert heavy(modules) == []


def test_a_mistyped_period_loads_no_pandas(database: tuple[Path, dict[str, set[str]]]) -> None:
    """``publish 2026-13`` is told as before (the message, exit 1), before publish's
    libraries are loaded."""
    folder, _ = database
    modules, err = loaded_by("publish", "2026-13", "--out", "lists", cwd=folder, code=1)
    assert err == "Error: period '2026-13': there is no month 13\n"
    assert heavy(modules) == []
    assert not (folder / "lists").exists()


@pytest.mark.parametrize("command", ["init", "add", "check", "player"])
def test_a_command_that_writes_no_workbook_loads_no_openpyxl(
    command: str, database: tuple[Path, dict[str, set[str]]]
) -> None:
    """init, add, check and player read and write no XLSX: openpyxl (~55 ms of a process)
    stays unloaded; they need pandas and numpy, and jinja2 only where a page is made (none
    here)."""
    folder, made = database
    args = {"check": ["check", "jan.trf"], "player": ["player", "11"]}
    modules = made[command] if command in made else loaded_by(*args[command], cwd=folder)[0]
    assert heavy(modules) == ["numpy", "pandas"]


def test_a_command_loads_only_the_system_it_runs(
    database: tuple[Path, dict[str, set[str]]],
) -> None:
    """A FIDE Elo database's commands load none of the twelve other systems (~40 ms when
    the table of systems imported every one); a glicko2 database loads glicko2 alone."""
    folder, made = database
    assert systems(made["init"]) == [] and systems(made["add"]) == []
    modules, _ = loaded_by(
        "init", "--list", "list.csv", "--period", "2026-01", "--rules", "glicko2", "--from-elo",
        "--db", "glicko2.sqlite", cwd=folder,
    )  # fmt: skip
    assert systems(modules) == ["rating_batch.systems.glicko2"]


def test_the_table_of_systems_names_them_all_before_loading_one() -> None:
    """``SYSTEMS`` lists every name of ``SYSTEM_HOMES`` in order and answers ``in`` without
    importing a system; a system is imported when it is asked for."""
    code = (
        "import sys\n"
        "from rating_batch.systems.registry import SYSTEMS\n"
        "before = [m for m in sys.modules if m.startswith('rating_batch.systems.glicko')]\n"
        "names = list(SYSTEMS); has = 'glicko2' in SYSTEMS and 'elo' not in SYSTEMS\n"
        "constants, make = SYSTEMS['glicko2']\n"
        "print(before, names, has, constants.__name__, 'rating_batch.systems.glicko2' in "
        "sys.modules, 'rating_batch.systems.glicko' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == f"[] {list(SYSTEM_HOMES)} True Glicko2 True False"


def test_the_writers_copies_of_openpyxl_constants_are_openpyxls() -> None:
    """The sheet XML is made without openpyxl loaded, with its control-character pattern and
    error codes copied into ``writers/common``: still openpyxl's own."""
    from openpyxl.cell import cell

    from rating_batch.writers import common

    assert common.ILLEGAL_CHARACTERS_RE.pattern == cell.ILLEGAL_CHARACTERS_RE.pattern
    assert common.ERROR_CODES == cell.ERROR_CODES
    assert common.ILLEGAL_CHARACTERS_RE.sub("?", "a\x00b\tc\x1fd\ne") == "a?b\tc?d\ne"
    assert re.fullmatch(common.ILLEGAL_CHARACTERS_RE, "\x0b") is not None
