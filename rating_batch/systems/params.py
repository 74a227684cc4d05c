"""A rating system's constants: a frozen dataclass per system whose fields are the rules-file
keys of its section (docs/systems.md), read and checked like every other rules field; a
system with constants that must agree says which disagree in ``inconsistent()`` (a list of
``Clash``)."""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from rating_batch.rules_check import Findings, did_you_mean

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

P = TypeVar("P", bound="DataclassInstance")

#: A field's check: returns what is wrong with a value, or "" when it is fine.
Check = Callable[[Any], str]
#: An impossible combination of constants (a system's ``inconsistent()``): the keys it
#: involves (the one it is about first) and what is wrong.
Clash = tuple[tuple[str, ...], str]

#: Where a Glicko or Glicko-2 rating and rating deviation can lie: in a state list (the
#: systems' ``limits``) and as a rules constant (an RD below 1 point is no deviation an unrated
#: player or a cap can have; a list's RD may shrink below it after many games).
GLICKO_RATINGS = (-5000.0, 10000.0)
GLICKO_DEVIATIONS = (1.0, 10000.0)
#: The RD a Glicko or Glicko-2 state made from an Elo rating starts with (``init
#: --from-elo``): Glickman's typical established player, whose RD 50 grows back to an unrated
#: player's 350 in 100 idle periods (docs/systems.md §3, the default of ``c``).
FROM_ELO_RD = 50.0


def number(low: float | None = None, high: float | None = None, *, above: bool = False) -> Check:
    """A finite number, at least ``low`` (more than it when ``above``), at most ``high``; a
    value outside is refused with the whole range."""
    bounds = [f"{'more than' if above else 'at least'} {low:g}"] if low is not None else []
    bounds += [f"at most {high:g}"] if high is not None else []
    allowed = " and ".join(bounds)

    def check(value: Any) -> str:
        if isinstance(value, bool) or not isinstance(value, int | float):
            return "must be a number"
        if not math.isfinite(value):
            return "must be a finite number"
        too_low = low is not None and (value <= low if above else value < low)
        if too_low or (high is not None and value > high):
            return f"must be {allowed}"
        return ""

    return check


def whole(low: float, high: float) -> Check:
    """A whole number from ``low`` to ``high`` (a count, a number of decimals)."""
    within = number(low, high)

    def check(value: Any) -> str:
        wrong = within(value)
        if wrong or float(value).is_integer():
            return wrong
        return f"must be a whole number from {low:g} to {high:g}"

    return check


def optional(check: Check) -> Check:
    """``check``, or absent (the key left out of the file: no such limit)."""
    return lambda value: "" if value is None else check(value)


def one_of(*choices: str) -> Check:
    return lambda value: "" if value in choices else f"must be one of {', '.join(choices)}"


def flag(value: Any) -> str:
    return "" if isinstance(value, bool) else "must be true or false"


def from_section(kind: type[P], section: Mapping[str, Any], found: Findings, name: str) -> P:
    """``kind``'s defaults with the rules file's section ``name``: every unknown key,
    impossible value and impossible combination of values is told in ``found`` (at its
    line), a refused value left at its default."""
    fields = {f.name: f for f in dataclasses.fields(kind)}
    values: dict[str, Any] = {}
    refused: set[str] = set()
    for key, value in section.items():
        if key not in fields:
            hint = did_you_mean(key, fields) or f": 'rating-batch rules {name}' lists them all"
            found.add(f"unknown key {key!r}{hint}", f"{name}.{key}")
            continue
        check: Check = fields[key].metadata.get("check", lambda _: "")
        wrong = check(value)
        if wrong:
            found.add(f"key {key!r} {wrong} (got {value!r})", f"{name}.{key}")
            refused.add(key)
            continue
        values[key] = float(value) if isinstance(value, int) and _is_float(kind, key) else value
    made = kind(**values)
    clashes: list[Clash] = getattr(made, "inconsistent", list)()
    for keys, message in clashes:
        if refused.isdisjoint(keys):  # a refused value is judged by nothing else
            found.add(f"key {keys[0]!r} {message}", *(f"{name}.{key}" for key in keys))
    return made


def _is_float(kind: type[Any], key: str) -> bool:
    field = next(f for f in dataclasses.fields(kind) if f.name == key)
    return "float" in str(field.type)


def field(default: Any, check: Check, doc: str) -> Any:
    """A constant with its default, its check and what it means (shown by ``rules NAME``)."""
    return dataclasses.field(default=default, metadata={"check": check, "doc": doc})


def described(params: object) -> list[tuple[str, str, str]]:
    """(key, value, what it means) for each constant of a system (``rules NAME`` adds where
    each comes from: ``StateSystem.sources``, else the system's default)."""
    rows = []
    assert dataclasses.is_dataclass(params) and not isinstance(params, type)
    for f in dataclasses.fields(params):
        value = getattr(params, f.name)
        shown = (
            "none" if value is None else f"{value:g}" if isinstance(value, float) else str(value)
        )
        rows.append((f.name, shown, str(f.metadata.get("doc", ""))))
    return rows
