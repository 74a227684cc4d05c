"""The ``[site]`` section of a rules file (docs/rules.md §8, docs/site.md §3): the web site's
title, logo, language and top lists. Every problem is told at once, at the line of its key."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path

from rating_batch.errors import RulesError
from rating_batch.rules_check import Findings, did_you_mean
from rating_batch.writers.site_labels import LANGUAGES


@dataclass(frozen=True)
class SiteSettings:
    """What a federation chooses for its site."""

    title: str = "Rating lists"
    """The federation's name, on every page."""
    logo: Path | None = None
    """An image shown beside the title (copied into the site)."""
    language: str = "en"
    """The labels' language (``LANGUAGES``)."""
    top: int = 100
    """How many players each top list shows."""
    junior_age: int = 20
    """Juniors are under this age in the list's year (year − birth year)."""
    senior_age: int = 65
    """Seniors are this age or older in the list's year."""
    with_publish: bool = True
    """Whether every publish writes the site again (false: only ``rating-batch site`` does,
    for a federation whose site is large enough to be written apart, e.g. after ``month``)."""


#: Each key of ``[site]``: its type and, for numbers, the values allowed.
_KEYS: dict[str, tuple[type, tuple[int, int] | None]] = {
    "title": (str, None),
    "logo": (str, None),
    "language": (str, None),
    "top": (int, (1, 10_000)),
    "junior_age": (int, (1, 120)),
    "senior_age": (int, (1, 120)),
    "with_publish": (bool, None),
}


def site_settings(text: str | None, source: str) -> SiteSettings:
    """The ``[site]`` section of a rules file's ``text`` (defaults without one); a relative
    logo path is read from the current folder."""
    if text is None:
        return SiteSettings()
    try:
        table = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return SiteSettings()  # the rules loader names the problem
    section = table.get("site")
    if section is None:
        return SiteSettings()
    found = Findings(source, text)
    if not isinstance(section, dict):
        found.add("'site' is a section, not a value: write [site] and its keys below it", "site")
        found.raise_any()
        raise RulesError("unreachable")  # pragma: no cover
    values: dict[str, object] = {}
    for key, value in section.items():
        dotted = f"site.{key}"
        if key not in _KEYS:
            hint = did_you_mean(key, list(_KEYS)) or f": write one of {', '.join(_KEYS)}"
            found.add(f"unknown key {dotted!r}{hint}", dotted)
            continue
        kind, allowed = _KEYS[key]
        if kind is int and (not isinstance(value, int) or isinstance(value, bool)):
            found.add(f"key {dotted!r} must be a whole number, not {value!r}", dotted)
        elif kind is str and not isinstance(value, str):
            found.add(f"key {dotted!r} must be text in quotes, not {value!r}", dotted)
        elif kind is bool and not isinstance(value, bool):
            found.add(f"key {dotted!r} must be true or false, not {value!r}", dotted)
        elif allowed is not None and not allowed[0] <= int(str(value)) <= allowed[1]:
            found.add(
                f"key {dotted!r} must be from {allowed[0]} to {allowed[1]}, not {value}", dotted
            )
        else:
            values[key] = value
    language = values.get("language")
    if language is not None and language not in LANGUAGES:
        found.add(
            f"key 'site.language' must be one of {', '.join(LANGUAGES)}, not {language!r}",
            "site.language",
        )
        del values["language"]
    logo = values.pop("logo", None)
    if logo is not None and not Path(str(logo)).is_file():
        found.add(
            f"key 'site.logo': no image file {logo!r} (a path from where you run)", "site.logo"
        )
    junior, senior = values.get("junior_age", 20), values.get("senior_age", 65)
    if int(str(junior)) > int(str(senior)):
        found.add(
            f"key 'site.junior_age' ({junior}) must not be above 'site.senior_age' ({senior})",
            "site.junior_age",
            "site.senior_age",
        )
    found.raise_any()
    return SiteSettings(
        logo=None if logo is None else Path(str(logo)),
        **values,  # type: ignore[arg-type]  # each value checked against its key's type above
    )
