"""``rating-batch check`` on the malformed corpus prints exactly the expected messages."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from click.testing import CliRunner

from rating_batch.cli import cli

FOLDER = Path(__file__).parent / "malformed"
CASES = sorted(p for p in FOLDER.iterdir() if p.suffix in (".trf", ".csv"))


def test_every_case_has_its_expected_messages() -> None:
    assert len(CASES) == 22
    assert all(Path(f"{case}.expected").exists() for case in CASES)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_malformed_case(case: Path) -> None:
    expected = (
        Path(f"{case}.expected")
        .read_text(encoding="utf-8")
        .replace("{path}", str(case))
        .replace("{year}", str(dt.date.today().year))
    )
    result = CliRunner().invoke(cli, ["check", str(case)])
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert result.stdout == expected
    errors = sum(": warning: " not in line for line in expected.splitlines())
    assert result.exit_code == (1 if errors else 0)
