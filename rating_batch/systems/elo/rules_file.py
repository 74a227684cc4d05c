"""A federation's rules file (docs/rules.md §8): a base edition and the values it changes,
in TOML; and ``named_rules``, the rule set any ``--rules`` value names (an edition or a file).

The file format is data (``RULES_FILE_KEYS``: each key, its ``Rules`` field and how its value
is read); ``rules FILE`` shows every value with where it comes from.
"""

from __future__ import annotations

import datetime as dt
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import fields, replace
from pathlib import Path

from rating_batch.errors import RulesError
from rating_batch.rules_check import Findings, did_you_mean
from rating_batch.systems.elo.rules import (
    EDITIONS,
    FIDE_BY_DATE,
    HALF_POINT_FIELDS,
    KINDS,
    LATEST,
    OPTIONAL_FIELDS,
    RANGES,
    RatingClass,
    Rules,
    range_text,
    value_problems,
)
from rating_batch.systems.homes import SYSTEM_HOMES


def named_rules(name: str) -> Rules:
    """The edition registered under ``name``, or the rules file at that path."""
    if name in EDITIONS:
        return EDITIONS[name]
    if name.lower().endswith(".toml"):
        return load_rules_file(Path(name))
    known = ", ".join([FIDE_BY_DATE, *sorted(EDITIONS)])
    raise RulesError(
        f"unknown rules {name!r}: choose one of {known}, a .toml rules file, or another "
        f"rating system: {', '.join(SYSTEM_HOMES)}"
    )


Convert = Callable[[object], object]


class _Bad(ValueError):
    """A value of the wrong type or out of range (the loader adds file and key)."""


def _whole(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise _Bad(f"must be a whole number, not {value!r}")
    return value


def _whole_or_off(value: object) -> int | None:
    """A number, or ``false`` for "none / off" (TOML has no null)."""
    return None if value is False else _whole(value)


def _flag(value: object) -> bool:
    if not isinstance(value, bool):
        raise _Bad(f"must be true or false, not {value!r}")
    return value


def _choice(*options: str) -> Convert:
    def convert(value: object) -> str:
        if value not in options:
            raise _Bad(f"must be one of {', '.join(repr(o) for o in options)}, not {value!r}")
        return str(value)

    return convert


def _points(value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise _Bad(f"must be a number, not {value!r}")
    return float(value)


def _half_points(value: object) -> int:
    """A score in points (0, 0.5, 1, …) as half points."""
    points = _points(value)
    if points < 0 or points * 2 != int(points * 2):
        raise _Bad(f"must be a score in half points (0, 0.5, 1 …), not {value!r}")
    return int(points * 2)


def _months(value: object) -> tuple[int, ...]:
    if not isinstance(value, list) or not value:
        raise _Bad(f"must be a list of months, not {value!r}")
    return tuple(_whole(month) for month in value)


def _date(value: object) -> dt.date | None:
    if value is False:
        return None
    if isinstance(value, dt.date) and not isinstance(value, dt.datetime):
        return value
    raise _Bad(f"must be a date such as 2024-12-01, or false, not {value!r}")


def _kinds(value: object) -> tuple[str, ...]:
    if not isinstance(value, list) or any(kind not in KINDS for kind in value):
        raise _Bad(f"must be a list of {', '.join(KINDS)}, not {value!r}")
    return tuple(str(kind) for kind in value)


def _classes(value: object) -> tuple[RatingClass, ...]:
    if not isinstance(value, list):
        raise _Bad(f'must be a list of {{ name = "…", from = rating }} tables, not {value!r}')
    classes, wrong = [], []
    for number, item in enumerate(value, start=1):
        if (
            isinstance(item, dict)
            and set(item) == {"name", "from"}
            and isinstance(item["name"], str)
            and isinstance(item["from"], int)
            and not isinstance(item["from"], bool)
        ):
            classes.append(RatingClass(item["name"], item["from"]))
        else:
            wrong.append(f"class {number} is {item!r}")
    if wrong:
        raise _Bad(f'must give each class as {{ name = "…", from = rating }}: {"; ".join(wrong)}')
    return tuple(classes)


#: TOML key (``section.key``) → (Rules field, converter). The rules file format, as data.
RULES_FILE_KEYS: dict[str, tuple[str, Convert]] = {
    "periods.months": ("period_months", _whole),
    "periods.list_months": ("list_months", _months),
    "periods.closing_offset_days": ("closing_offset_days", _whole),
    "expected.method": ("expected", _choice("table", "logistic")),
    "expected.difference_cap": ("difference_cap", _whole_or_off),
    "expected.cap_exempt_from": ("cap_exempt_from", _whole_or_off),
    "expected.rapid_blitz_cap_exempt_from": ("rapid_blitz_cap_exempt_from", _whole_or_off),
    "expected.cap_scope": ("cap_scope", _choice("every_game", "largest_gap_per_event")),
    "expected.gap_exclusion": ("gap_exclusion", _whole_or_off),
    "expected.gap_exclusion_above": ("gap_exclusion_above", _whole),
    "expected.gap_exclusion_from": ("gap_exclusion_from", _date),
    "k.high": ("k_high", _whole),
    "k.high_threshold": ("high_threshold", _whole),
    "k.junior": ("k_junior", _whole_or_off),
    "k.junior_age": ("junior_age", _whole),
    "k.junior_age_basis": ("junior_age_basis", _choice("calendar_year", "birthday")),
    "k.junior_ceiling": ("junior_ceiling", _whole),
    "k.junior_ceiling_basis": ("junior_ceiling_basis", _choice("ever", "current")),
    "k.junior_year": ("junior_year", _choice("closing_date", "latest_end")),
    "k.new": ("k_new", _whole),
    "k.new_player_games": ("new_player_games", _whole),
    "k.pool_games_count": ("pool_games_count_toward_new", _flag),
    "k.default": ("k_default", _whole),
    "k.games_cap": ("k_games_cap", _whole_or_off),
    "floor": ("floor", _whole),
    "first_rating.min_games": ("first_min_games", _whole),
    "first_rating.formula": ("first_formula", _choice("hypothetical", "half_point_step")),
    "first_rating.hypothetical_opponents": ("hypothetical_opponents", _whole),
    "first_rating.hypothetical_rating": ("hypothetical_rating", _whole),
    "first_rating.hypothetical_score": ("hypothetical_half_points", _half_points),
    "first_rating.step": ("first_step", _points),
    "first_rating.round_average": ("first_round_average", _flag),
    "first_rating.max": ("first_rating_max", _whole_or_off),
    "first_rating.pool_months": ("pool_months", _whole),
    "first_rating.pool_window": ("pool_window", _choice("rolling", "anchored")),
    "first_rating.event_min_games": ("pool_event_min_games", _whole),
    "first_rating.first_event_min_score": ("first_event_min_half_points", _half_points),
    "first_rating.discard_until_scoring": ("discard_until_scoring", _flag),
    "first_rating.keep_pool_below_floor": ("keep_pool_below_floor", _flag),
    "first_rating.first_event_after_floor": ("first_event_after_floor", _flag),
    "first_rating.start_from_standard": ("start_from_standard", _flag),
    "lists.kinds": ("kinds", _kinds),
    "lists.classes": ("classes", _classes),
    "lists.rating_min": ("rating_min", _whole),
    "lists.rating_max": ("rating_max", _whole),
    "adjustment.on": ("adjustment_on", _date),
    "adjustment.pivot": ("adjustment_pivot", _whole),
    "adjustment.factor": ("adjustment_factor", _points),
    "adjustment.kinds": ("adjustment_kinds", _kinds),
}
#: Keys read elsewhere: the rules' names, the base edition, the system, and ``[site]`` (the
#: federation's web site, ``monthly/site_settings.py``).
_TOP_LEVEL = {"name", "title", "rapid_blitz_title", "base", "system", "site"}
#: Each field's key in a rules file.
FILE_KEY = {name: key for key, (name, _) in RULES_FILE_KEYS.items()}


def _flatten(table: Mapping[str, object], prefix: str = "") -> dict[str, object]:
    flat: dict[str, object] = {}
    for key, value in table.items():
        dotted = f"{prefix}{key}"
        if isinstance(value, dict) and not prefix and dotted not in RULES_FILE_KEYS:
            flat.update(_flatten(value, f"{dotted}."))
        else:
            flat[dotted] = value
    return flat


def load_rules_file(path: Path) -> Rules:
    """A federation's rules: a base edition plus overrides, from a TOML file (§8).

    Every error names the file and the key: unknown keys (with the closest known one),
    values of the wrong type and impossible combinations.
    """
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise RulesError(f"{path}: cannot read the rules file: {error.strerror}") from None
    except UnicodeDecodeError as error:
        raise RulesError(f"{path}: not valid TOML: {error}") from None
    return parse_rules_text(text, path)


def parse_rules_text(text: str, path: Path) -> Rules:
    """A rules file's text (as kept in a rating database), ``path`` naming it in messages.

    Every problem is found before any is told, each at its line: unknown keys (with the
    closest known one), values of the wrong type or out of range, impossible combinations.
    """
    try:
        table = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise RulesError(f"{path}: not valid TOML: {error}") from None
    found = Findings(str(path), text)
    base_name = table.get("base", LATEST)
    if not isinstance(base_name, str) or base_name not in EDITIONS:
        found.add(
            f"base {base_name!r} is not an edition: write one of {', '.join(EDITIONS)}", "base"
        )
        base_name = LATEST
    for key in ("name", "title", "rapid_blitz_title"):
        if key in table and not isinstance(table[key], str):
            found.add(f"key {key!r} must be text in quotes, not {table[key]!r}", key)
    changes: dict[str, object] = {}
    refused: set[str] = set()
    for key, value in _flatten({k: v for k, v in table.items() if k not in _TOP_LEVEL}).items():
        if key not in RULES_FILE_KEYS:
            found.add(_unknown(key), key)
            continue
        name, convert = RULES_FILE_KEYS[key]
        try:
            changes[name] = convert(value)
        except _Bad as error:
            found.add(f"key {key!r} {error}", key)
            refused.add(name)
    base = EDITIONS[str(base_name)]
    values = {f.name: getattr(base, f.name) for f in fields(Rules)} | changes
    for involved, message in value_problems(values, lambda name: FILE_KEY[name]):
        if refused.isdisjoint(involved):  # a refused value is judged by nothing else
            keys = [FILE_KEY[name] for name in involved]
            found.add(f"key {keys[0]!r} {message}", *keys)
    found.raise_any()
    return _apply_file(path, table, str(base_name), changes)


def _unknown(key: str) -> str:
    """What to do about a key the rules file format does not have."""
    keys = [k for k in RULES_FILE_KEYS if k.startswith(f"{key}.")]
    if keys:  # a section written as a value: ``k = 20``
        names = ", ".join(k.removeprefix(f"{key}.") for k in keys)
        return f"{key!r} is a section, not a value: write [{key}] and its keys ({names}) below it"
    hint = did_you_mean(key, [*RULES_FILE_KEYS, *_TOP_LEVEL])
    return f"unknown key {key!r}" + (hint or f": 'rating-batch rules {LATEST}' lists every key")


def _apply_file(
    path: Path, table: Mapping[str, object], base_name: str, changes: dict[str, object]
) -> Rules:
    return replace(
        EDITIONS[base_name],
        edition=str(table.get("name", path.stem)),
        title=str(table.get("title", f"{path.stem}: {base_name} with a federation's changes")),
        # The base's own rapid/blitz title describes the base, not this file (§6, §8).
        rapid_blitz_title=str(table["rapid_blitz_title"]) if "rapid_blitz_title" in table else None,
        source=str(path),
        base=str(base_name),
        overridden=frozenset(changes),
        in_force_from=None,
        # Each value was checked against its field's type and range above (rules_check).
        **changes,  # type: ignore[arg-type]  # dict[str, object] into typed fields
    )


def describe(rules: Rules) -> list[tuple[str, str, str, str]]:
    """Every value of a rule set as (rules-file key, value, where it comes from, the values
    it may take: "" for text and choices shown elsewhere)."""
    rows = [("name", rules.edition, rules.source, ""), ("title", rules.title, rules.source, "")]
    if rules.rapid_blitz_title:
        rows.append(("rapid_blitz_title", rules.rapid_blitz_title, rules.source, ""))
    if rules.base:
        rows.append(("base", rules.base, rules.source, ""))
    for key, (name, _) in RULES_FILE_KEYS.items():
        value = getattr(rules, name)
        if name == "classes":
            shown = ", ".join(f"{c.name} from {c.minimum}" for c in value) or "none"
        elif isinstance(value, tuple):
            shown = ", ".join(str(v) for v in value)
        elif isinstance(value, bool):
            shown = "true" if value else "false"
        elif value is None:
            shown = "false" if name in OPTIONAL_FIELDS else "none"
        elif name in HALF_POINT_FIELDS:
            shown = f"{value / 2:g}"
        else:
            shown = str(value)
        origin = rules.source if name in rules.overridden else (rules.base or rules.edition)
        rows.append((key, shown, origin, range_text(name) if name in RANGES else ""))
    return rows


def read_rules_file(name: str) -> str | None:
    """A rules file's text (kept in the database), or None for a named edition."""
    if not name.lower().endswith(".toml"):
        return None
    try:
        return Path(name).read_text(encoding="utf-8")
    except OSError as error:
        raise RulesError(f"{name}: cannot read the rules file: {error.strerror}") from None
