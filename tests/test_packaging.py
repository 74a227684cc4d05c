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


def test_the_constraints_pin_every_requirement_as_installed() -> None:
    # make installs with -c constraints.txt (docs/testing.md §4): each distribution that
    # rating_batch[dev] needs here is pinned, at the version this .venv holds. A requirement
    # added to pyproject.toml without refreshing the file fails here.
    from constraints import CONSTRAINTS, canonical, needed

    pinned = dict(
        line.split("==", 1)
        for line in CONSTRAINTS.read_text(encoding="utf-8").splitlines()
        if line and not line.startswith("#")
    )
    assert {canonical(name) for name in pinned} == set(pinned)  # one spelling, pip's
    installed = needed()
    assert "numpy" in installed and "pytest" in installed  # the walk follows both kinds
    assert {name: pinned.get(name) for name in installed} == installed
