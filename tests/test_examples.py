"""Every example runs as written: each command's ``--help`` example, run in a folder holding
``sample_data`` and a database in the state the example needs (a new one, events added, lists
published), and the README's console blocks, line by line, in a fresh folder."""

from __future__ import annotations

import datetime as dt
import importlib
import os
import re
import shlex
import shutil
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace

import pytest
from click.testing import CliRunner

from rating_batch.cli import cli

ROOT = Path(__file__).parent.parent
MONTHLY = "sample_data/monthly"

#: The database each state starts from: the state it grows from and the commands that make
#: it from there, in order (each state is made once, from a copy of the one before).
STATES: dict[str, tuple[str | None, list[str]]] = {
    "none": (None, []),
    "initialised": ("none", [f"init --list {MONTHLY}/list-2026-01.csv --period 2026-01"]),
    "january added": ("initialised", [f"add {MONTHLY}/2026-01"]),
    "february added": ("january added", ["publish 2026-02 --out lists", f"add {MONTHLY}/2026-02"]),
    "march published": ("february added", ["publish 2026-03 --out lists"]),
}

#: The day ``publish --due`` judges by in its example: the lists of February and March are
#: due then (two lists, one after the other), whatever the day the suite runs.
DUE_TODAY = dt.date(2026, 3, 2)

#: The state each command's examples run in. A new command must say which.
STATE_OF = {
    "rate": "none",
    "check": "none",
    "rules": "none",
    "compare-rules": "none",
    "norms": "none",
    "title-check": "none",
    "init": "none",
    "add": "initialised",
    "publish": "january added",
    "month": "initialised",
    "remove": "february added",
    "unpublish": "march published",
    "export-list": "march published",
    "drift": "march published",
    "player": "march published",
    "edit-player": "march published",
    "backups": "march published",
    "restore": "march published",
    "backup": "march published",
    "upgrade": "march published",
    "serve": "march published",
    "site": "march published",
}


def help_examples() -> Iterator[tuple[str, str]]:
    """(command, example line) for every example in every command's help."""
    for name, command in sorted(cli.commands.items()):  # type: ignore[attr-defined]  # click's command is a Group at run time
        text = command.help or ""
        block = text.split("Example:", 1)[1] if "Example:" in text else ""
        # An example may continue over lines (a long command is wrapped by the help).
        joined = re.sub(r"\s*\n\s+(?=--)", " ", block)
        for line in joined.splitlines():
            line = line.strip().lstrip("\b").strip()
            if line.startswith("rating-batch "):
                yield name, line


EXAMPLES = list(help_examples())


def invoke(line: str) -> tuple[int, str]:
    """A ``rating-batch …`` line (a shell glob expanded as a shell would) in this process."""
    words = []
    for word in shlex.split(line.split("  #")[0]):
        matches = sorted(Path().glob(word)) if any(c in word for c in "*?[") else []
        words.extend(str(m) for m in matches) if matches else words.append(word)
    assert words[0] == "rating-batch"
    result = CliRunner().invoke(cli, words[1:])
    return result.exit_code, result.output


@pytest.fixture
def sandbox(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty working folder with sample_data in it (and no $RATING_BATCH_DB)."""
    (tmp_path / "sample_data").symlink_to(ROOT / "sample_data")
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("RATING_BATCH_DB", raising=False)
    return tmp_path


#: What a state's copy leaves out: the sandbox links sample_data already.
_SAMPLE_DATA = shutil.ignore_patterns("sample_data")


@pytest.fixture(scope="session")
def made_states(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Path]]:
    """Each state of ``STATES``, made once: a copy of the state it grows from, then its
    commands (the examples then run in a copy of it): the folders by state."""
    made: dict[str, Path] = {}
    with pytest.MonkeyPatch.context() as patch:
        patch.delenv("RATING_BATCH_DB", raising=False)
        for state, (grows_from, steps) in STATES.items():
            folder = tmp_path_factory.mktemp(state.replace(" ", "-"))
            (folder / "sample_data").symlink_to(ROOT / "sample_data")
            if grows_from is not None:
                shutil.copytree(
                    made[grows_from], folder, ignore=_SAMPLE_DATA, symlinks=True, dirs_exist_ok=True
                )
            patch.chdir(folder)
            for step in steps:
                code, output = invoke(f"rating-batch {step}")
                assert code == 0, (state, step, output)
            made[state] = folder
    yield made


def test_every_command_has_a_state_for_its_examples() -> None:
    assert {name for name, _ in EXAMPLES} == set(cli.commands)  # type: ignore[attr-defined]  # click's command is a Group at run time
    assert set(STATE_OF) == set(cli.commands)  # type: ignore[attr-defined]  # click's command is a Group at run time


@pytest.mark.parametrize(("command", "line"), EXAMPLES, ids=[line for _, line in EXAMPLES])
def test_the_help_example_runs_as_written(
    command: str,
    line: str,
    sandbox: Path,
    made_states: dict[str, Path],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    if command == "serve":  # on a free port, and Ctrl-C at once (tests/web/ test the desk)
        from rating_batch.web import serving

        listen = serving.listen
        monkeypatch.setattr(serving, "listen", lambda host, port: listen(host, 0))
        monkeypatch.setattr(serving.uvicorn.Server, "run", lambda self, sockets: None)
    if "--due" in line:  # the clock at DUE_TODAY: the same lists due whenever the suite runs
        publish = importlib.import_module("rating_batch.monthly.publish")
        monkeypatch.setattr(publish, "dt", _clock_at(DUE_TODAY))
    # The state's folder as its commands left it, the database and its folders beside it.
    made = made_states[STATE_OF[command]]
    shutil.copytree(made, sandbox, ignore=_SAMPLE_DATA, symlinks=True, dirs_exist_ok=True)
    code, output = invoke(line)
    assert code == 0, output
    if "--due" in line:
        assert "2026-02" in output and "2026-03" in output and "2026-04" not in output, output


def _clock_at(day: dt.date) -> SimpleNamespace:
    """A stand-in for a module's ``datetime`` whose ``date.today()`` is ``day``."""

    class Date(dt.date):
        @classmethod
        def today(cls) -> Date:
            return cls(day.year, day.month, day.day)

    return SimpleNamespace(**{**vars(dt), "date": Date})


def console_blocks() -> list[list[str]]:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```console\n(.*?)```", readme, flags=re.S)
    return [
        [line for line in block.splitlines() if line.startswith("rating-batch ")]
        for block in blocks
    ]


BLOCKS = [block for block in console_blocks() if block]


def test_the_readme_shows_console_examples() -> None:
    assert len(BLOCKS) >= 2


@pytest.mark.parametrize("block", BLOCKS, ids=[block[0] for block in BLOCKS])
def test_the_readme_console_block_runs_line_by_line(block: list[str], sandbox: Path) -> None:
    for line in block:
        code, output = invoke(line)
        assert code == 0, (line, output)
    assert os.listdir(sandbox)  # something was written where the officer ran it
