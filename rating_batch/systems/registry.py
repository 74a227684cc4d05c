"""The table of rating systems whose players carry a state (docs/systems.md): ``SYSTEMS``
(each built-in name, its constants' class and how it is made: ``homes.SYSTEM_HOMES``),
``state_system`` (the ``StateSystem`` a ``--rules`` value names: a built-in name with its
defaults, or a rules file whose top level says ``system = "…"`` and whose section of that name
sets the constants; None for FIDE Elo) and ``system_from_table``. How a command finds the
system it runs (``find_system``, never None) is ``rating_batch.pipelines.registry``."""

from __future__ import annotations

import dataclasses
import importlib
import tomllib
from collections.abc import Callable, Iterator, Mapping, MutableMapping
from pathlib import Path
from typing import Any, TypeAlias

from rating_batch.rules_check import Findings, did_you_mean
from rating_batch.systems.base import (
    StateSystem,
    SystemInput,
    SystemOutcome,
    rate_finite,
)
from rating_batch.systems.homes import ELO, SYSTEM_HOMES
from rating_batch.systems.params import from_section

#: A system: its constants' class and how it is made from them (and where the constants not
#: left at their defaults come from).
Made: TypeAlias = tuple[type[Any], Callable[..., StateSystem]]


def _loaded(home: str) -> Made:
    module, constants, system = home.split(":")
    loaded = importlib.import_module(f"rating_batch.systems.{module}")
    return getattr(loaded, constants), getattr(loaded, system)


class _Systems(MutableMapping[str, Made]):
    """Every system of ``SYSTEM_HOMES`` by name, each module imported when its system is first
    asked for: a command loads the one it runs, not twelve (issue 42: ~40 ms a process).
    Names, ``in`` and the order need no import; a line set here (a test's system) is kept."""

    def __init__(self, homes: Mapping[str, str]) -> None:
        self._homes = dict(homes)
        self._made: dict[str, Made] = {}

    def __getitem__(self, name: str) -> Made:
        if name not in self._made:
            self._made[name] = _loaded(self._homes[name])
        return self._made[name]

    def __setitem__(self, name: str, made: Made) -> None:
        self._homes.setdefault(name, "")
        self._made[name] = made

    def __delitem__(self, name: str) -> None:
        del self._homes[name]
        self._made.pop(name, None)

    def __contains__(self, name: object) -> bool:
        return name in self._homes

    def __iter__(self) -> Iterator[str]:
        return iter(self._homes)

    def __len__(self) -> int:
        return len(self._homes)


#: Each system: its name, its constants' class and how it is made from them.
SYSTEMS: MutableMapping[str, Made] = _Systems(SYSTEM_HOMES)


def system_from_table(table: Mapping[str, Any], where: str, text: str = "") -> StateSystem | None:
    """The system a rules file's table names (None: FIDE Elo). Its constants come from the
    section named after it; every other key, and every problem of the section, is told at
    once, at its line of ``text`` (the file's TOML) when given."""
    name = table.get("system", ELO)
    if name == ELO:
        return None
    found = Findings(where, text)
    if not isinstance(name, str) or name not in SYSTEMS:
        known = ", ".join([ELO, *SYSTEMS])
        found.add(f"key 'system' must be one of {known} (got {name!r})", "system")
        found.raise_any()
    kind, make = SYSTEMS[name]
    constants = {f.name for f in dataclasses.fields(kind)}
    top = ["system", "name", "title", "site", name]  # [site]: monthly/site_settings.py
    for key in set(table) - set(top):
        if key in constants:
            found.add(f"key {key!r} is a constant of {name}: write it in the [{name}] section", key)
        else:
            hint = did_you_mean(key, top) or f" (its constants go in the [{name}] section)"
            found.add(f"unknown key {key!r} for system {name!r}{hint}", key)
    section = table.get(name, {})
    if not isinstance(section, Mapping):
        found.add(f"{name!r} must be the section [{name}] of its constants, not a value", name)
        section = {}
    params = from_section(kind, section, found, name)
    found.raise_any()
    return make(params, {key: where for key in section})


def state_system(rules: str) -> StateSystem | None:
    """The ``StateSystem`` ``--rules`` names, or None for FIDE Elo."""
    if rules in SYSTEMS:
        kind, make = SYSTEMS[rules]
        return make(kind())
    if rules.lower().endswith(".toml"):
        path = Path(rules)
        try:
            text = path.read_text(encoding="utf-8")
            table = tomllib.loads(text)
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
            return None  # the Elo rules loader names the problem
        return system_from_table(table, str(path), text)
    return None


__all__ = [
    "ELO",
    "SYSTEMS",
    "StateSystem",
    "SystemInput",
    "SystemOutcome",
    "rate_finite",
    "state_system",
    "system_from_table",
]
