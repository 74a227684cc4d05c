"""The systems' constants (systems/params.py): each has a range; docs/systems.md states each
default and range as the rules check them."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path
from typing import Any

import pytest

from rating_batch.errors import RulesError
from rating_batch.rules_check import Findings
from rating_batch.systems import SYSTEMS
from rating_batch.systems.params import from_section, number

DOCS = Path(__file__).parents[2] / "docs" / "systems.md"
SECTIONS = {"Glicko-2": "glicko2", "Glicko": "glicko", "TrueSkill": "trueskill",
            "Harkness": "harkness", "Ingo": "ingo", "US Chess": "uscf",
             "DWZ": "dwz", "ECF grade": "ecf-grade", "ECF rating": "ecf",
             "CCLA chart": "ccla"}  # fmt: skip
#: Constants that are not single numbers: texts, flags, lists of numbers (the DWZ's J).
NOT_NUMBERS = ("str", "bool", "str | None", "bool | None", "tuple[float, ...]")
#: "`key` default (low to high)", "(above low to high)", "(low to below high)"; a default
#: such as σ0/2 is a formula, "optional `rd_min`" has none.
STATED = re.compile(
    r"`(\w+)`(?:\s+([^\s(`,]+))?\s+\((above\s+)?([−\-]?[\d.e\-]+)\s+to\s+(below\s+)?"
    r"([−\-]?[\d.e\-]+)"
)


def _value(text: str) -> float:
    return float(text.replace("−", "-"))


def _stated() -> list[tuple[str, str, str | None, bool, float, bool, float]]:
    """(system, key, default, above, low, below, high) for each constant docs/systems.md
    gives a range."""
    found = []
    for heading, body in re.findall(r"^## §\d+ ([^\n]+)\n(.*?)(?=^## |\Z)", DOCS.read_text(),
                                    re.M | re.S):  # fmt: skip
        if heading in SECTIONS:
            for key, default, above, low, below, high in STATED.findall(body):
                found.append((SECTIONS[heading], key, default or None, bool(above),
                              _value(low), bool(below), _value(high)))  # fmt: skip
    return found


def _field(system: str, key: str) -> dataclasses.Field[Any]:
    kind, _ = SYSTEMS[system]
    return next(f for f in dataclasses.fields(kind) if f.name == key)


def _refused(system: str, key: str, value: float) -> bool:
    found = Findings("x.toml", "")
    from_section(SYSTEMS[system][0], {key: value}, found, system)
    return bool(found.issues)


def test_every_number_constant_has_a_range_holding_its_default() -> None:
    for system, (kind, _) in SYSTEMS.items():
        for constant in dataclasses.fields(kind):
            check = constant.metadata["check"]
            if constant.type in ("str", "bool"):
                continue
            assert check(constant.default) == "", (system, constant.name)
            assert check(1e308) != "" and check(-1e308) != "", (system, constant.name)


def test_the_docs_state_each_default_and_range_as_the_rules_check_them() -> None:
    stated = _stated()
    # A history (US Chess's bonus_history) is a list of dated values, not a number.
    numbers = {(system, f.name) for system, (kind, _) in SYSTEMS.items()
               for f in dataclasses.fields(kind)
               if f.type not in NOT_NUMBERS and "tuple" not in str(f.type)}  # fmt: skip
    # rd_max of Glicko-2 shares rd_min's range ("optional `rd_max`, `rd_min` (1 to 10000)").
    assert {(s, k) for s, k, *_ in stated} == numbers - {("glicko2", "rd_max")}
    for system, key, default, above, low, below, high in stated:
        check = _field(system, key).metadata["check"]
        step = max(abs(low), abs(high), 1.0) * 1e-9
        if default is not None and re.fullmatch(r"[\d.e\-]+(/\d+)?", default):
            parts = [float(p) for p in default.split("/")]
            value = parts[0] / parts[1] if len(parts) == 2 else parts[0]
            assert value == _field(system, key).default, (system, key)
            assert check(value) == "", (system, key)
        assert (check(low) != "") == above, (system, key, low)
        assert check(low - step) != "", (system, key, low)
        assert check(high) == "", (system, key, high)
        if below:  # the range's end refused as inconsistent (draw_probability 1: never a win)
            assert _refused(system, key, high), (system, key, high)
        assert check(high + step) != "", (system, key, high)


@pytest.mark.parametrize(
    ("check", "value", "message"),
    [
        (number(0.01, 10), 20, "must be at least 0.01 and at most 10"),
        (number(0.01, 10), 0.001, "must be at least 0.01 and at most 10"),
        (number(0, 100, above=True), 0, "must be more than 0 and at most 100"),
        (number(1), 0, "must be at least 1"),
        (number(0, 1), float("nan"), "must be a finite number"),
        (number(0, 1), "1", "must be a number"),
        (number(0.01, 10), 10, ""),
    ],
)
def test_a_number_outside_its_range_is_told_the_whole_range(
    check: Any, value: object, message: str
) -> None:
    assert check(value) == message


@pytest.mark.parametrize("key", ["initial_rd", "from_elo_rd"])
def test_a_glicko_starting_rd_above_rd_max_is_refused(key: str) -> None:
    # docs/systems.md §3: RD is at most rd_max; a state could not start above it.
    section = {"initial_rd": 100, "from_elo_rd": 50, "rd_max": 200, key: 300}
    text = "[glicko]\n" + "".join(f"{name} = {value}\n" for name, value in section.items())
    found = Findings("x.toml", text)
    from_section(SYSTEMS["glicko"][0], section, found, "glicko")
    with pytest.raises(RulesError) as raised:
        found.raise_any()
    line = 1 + list(section).index(key) + 1  # the key's line, under [glicko]
    assert str(raised.value) == (
        f"x.toml:{line}: key {key!r} 300 is more than rd_max 200: lower it or raise rd_max"
    )
