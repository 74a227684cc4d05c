"""Every file of ``tests/data/real-world`` (25 real files from public repositories, see its
SOURCES.md) and every chess-results crosstable of ``tests/data/crosstables`` through
``check``, ``rate`` and ``add``: each either loads or is refused with
located errors, never a traceback, and the commands agree: what ``check`` passes, ``rate`` and
``add`` take; what ``rate`` refuses, ``check`` refuses for the same first reason."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from rating_batch.cli import cli

DATA = Path(__file__).parent / "data"
#: The real-world files, and the chess-results crosstables (XLSX) that add must read as rate does.
FILES = sorted(p for p in (DATA / "real-world").iterdir() if p.name != "SOURCES.md") + sorted(
    (DATA / "crosstables").glob("*.xlsx")
)


def run(*args: object) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, [str(a) for a in args])
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError(f"{args}: {result.exception!r}") from result.exception
    return result.exit_code, result.stdout, result.stderr


def located(line: str, path: Path) -> bool:
    """An error line that names the file (and, where it has one, the line)."""
    return line.removeprefix("Error: ").startswith(str(path))


@pytest.mark.parametrize("path", FILES, ids=[p.name[:45] for p in FILES])
def test_check_rate_and_add_agree_and_never_crash(path: Path, tmp_path: Path) -> None:
    checked, check_out, _ = run("check", path)
    rated, _, rate_err = run("rate", path, "--out", tmp_path / "rated")
    db = tmp_path / "r.sqlite"
    (tmp_path / "list.csv").write_text("id,rating\n1,1500\n")
    assert run("init", "--list", tmp_path / "list.csv", "--period", "2000-01", "--db", db)[0] == 0
    added, _, add_err = run("add", path, "--accept-dates", "--db", db)
    for code, err in ((rated, rate_err), (added, add_err)):
        assert code in (0, 1)
        if code == 1:
            errors = [
                line
                for line in err.splitlines()
                if ": warning: " not in line and not line.startswith("… and ")
            ]
            assert errors and all(located(line, path) for line in errors), err
    check_errors = [line for line in check_out.splitlines() if ": warning: " not in line]
    if checked == 0:
        assert (rated, added) == (0, 0)
    if rated == 1:
        assert checked == 1
        first = rate_err.splitlines()[0].removeprefix("Error: ")
        assert first in check_errors
    if added == 1:
        assert checked == 1  # what add refuses (no dates among them), check refuses too
