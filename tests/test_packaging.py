"""pyproject.toml: what the build reads without deprecation warnings."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

PYPROJECT = tomllib.loads((Path(__file__).parent.parent / "pyproject.toml").read_text())


def test_license_is_an_spdx_expression_read_by_the_required_setuptools() -> None:
    # setuptools 77 reads `project.license` as an SPDX expression and warns (three times per
    # install) about the older `{ text = … }` table; earlier versions refuse a string.
    assert PYPROJECT["project"]["license"] == "MIT"
    (requirement,) = [r for r in PYPROJECT["build-system"]["requires"] if "setuptools" in r]
    minimum = re.fullmatch(r"setuptools>=(\d+)(?:\.\d+)*", requirement)
    assert minimum is not None and int(minimum.group(1)) >= 77
