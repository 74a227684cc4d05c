"""The ``[site]`` section of a rules file (docs/rules.md §8, docs/site.md §3): the web site's
title, logo, language and top lists. Every problem is told at once, at the line of its key."""

from __future__ import annotations

import codecs
import os
import re
import stat
import struct
import tomllib
from dataclasses import dataclass
from pathlib import Path

from rating_batch.errors import RulesError
from rating_batch.rules_check import Findings, did_you_mean
from rating_batch.writers.site_labels import LANGUAGES

#: The largest logo the site carries: a crest beside a page's heading is a few kB, and a
#: larger file named there is more likely the wrong file than a logo (docs/site.md §3).
MAX_LOGO_BYTES = 1 << 20

#: The image types a logo may be, by the bytes a file of the type starts with: the extension
#: it has on the site. (PNG: its signature, then the IHDR chunk every PNG starts with.)
_IMAGES = (
    (b"\x89PNG\r\n\x1a\n\x00\x00\x00\x0dIHDR", "png"),
    (b"\xff\xd8\xff", "jpg"),
    (b"GIF87a", "gif"),
    (b"GIF89a", "gif"),
)

#: The most pixels a logo has across or down (a crest is a few hundred).
MAX_LOGO_SIDE = 10_000
#: Markup a page may hold and an image never does: a file that starts as an image and holds
#: it is a document dressed as one (a browser that guesses a file's type may run it).
_MARKUP = (b"<script", b"<svg", b"<html", b"<!doctype", b"<iframe", b"<?xml", b"javascript:")


def _unsound(data: bytes, extension: str) -> str:
    """What makes bytes that start as an image no whole image of that type: its size
    unreadable or absurd, its end missing, markup inside; "" when it is one."""
    if extension == "png":
        width, height = struct.unpack(">II", data[16:24]) if len(data) >= 24 else (0, 0)
        ended = data.endswith(b"IEND\xaeB`\x82")
    elif extension == "gif":
        width, height = struct.unpack("<HH", data[6:10]) if len(data) >= 10 else (0, 0)
        ended = data.endswith(b";")
    else:
        frame = re.search(rb"\xff[\xc0-\xc3\xc5-\xc7\xc9-\xcb\xcd-\xcf]..\x08(..)(..)", data, re.S)
        height, width = struct.unpack(">HH", frame[1] + frame[2]) if frame else (0, 0)
        ended = data.rstrip(b"\x00").endswith(b"\xff\xd9")
    if not (0 < width <= MAX_LOGO_SIDE and 0 < height <= MAX_LOGO_SIDE):
        return f"its size is not one of 1 to {MAX_LOGO_SIDE:,} pixels a side"
    if not ended:
        return "it does not end as one: cut, or something after it"
    lowered = data.lower()
    if any(mark in lowered for mark in _MARKUP):
        return "it holds the markup of a web page"
    return ""


#: How a file starts that is an SVG image (after any blanks): refused, since an SVG is a
#: document that may run scripts and load other files, which the site must not carry.
_SVG_STARTS = (b"<?xml", b"<svg", b"<!DOCTYPE svg", b"<!--")


@dataclass(frozen=True)
class Logo:
    """The logo's file as it was read: its path, its bytes and the extension of its type."""

    path: Path
    data: bytes
    extension: str
    """``png``, ``jpg`` or ``gif``: what the bytes are, whatever the file is named."""


@dataclass(frozen=True)
class SiteSettings:
    """What a federation chooses for its site."""

    title: str = "Rating lists"
    """The federation's name, on every page."""
    logo: Logo | None = None
    """An image shown beside the title (copied into the site), read when the settings are."""
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


def site_settings(text: str | None, source: str, *, logo: bool = True) -> SiteSettings:
    """The ``[site]`` section of a rules file's ``text`` (defaults without one); its logo
    read and checked (``read_logo``; a relative path from the current folder), unless not
    ``logo``: then no logo is read."""
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
    logo_path = values.pop("logo", None)
    image = None
    if logo_path is not None and logo:
        read = read_logo(Path(str(logo_path)))
        if isinstance(read, str):
            found.add(f"key 'site.logo': {logo_path!r} {read}", "site.logo")
        else:
            image = read
    junior, senior = values.get("junior_age", 20), values.get("senior_age", 65)
    if int(str(junior)) > int(str(senior)):
        found.add(
            f"key 'site.junior_age' ({junior}) must not be above 'site.senior_age' ({senior})",
            "site.junior_age",
            "site.senior_age",
        )
    found.raise_any()
    return SiteSettings(
        logo=image,
        **values,  # type: ignore[arg-type]  # each value checked against its key's type above
    )


def read_logo(path: Path) -> Logo | str:
    """The logo at ``path``, or why it is none: only a file of its own (a symbolic link
    could name any file of the machine), of at most ``MAX_LOGO_BYTES``, whose bytes are a
    PNG, JPEG or GIF image. Read once, by one handle that follows no link and does not wait
    on a pipe, so that the bytes checked are the bytes the site carries."""
    try:
        status = path.lstat()
    except FileNotFoundError:
        return "does not exist (a path from where you run)"
    except OSError as error:
        return f"cannot be read ({error.strerror})"
    if stat.S_ISLNK(status.st_mode):
        return "is a symbolic link: give the image file itself"
    if not stat.S_ISREG(status.st_mode):
        return "is not a file"
    flags = os.O_RDONLY | getattr(os, "O_BINARY", 0)  # Windows: no newline translation
    flags |= getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)  # Unix
    try:
        with open(os.open(path, flags), "rb") as handle:
            if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
                return "is not a file"  # replaced since it was looked at
            data = handle.read(MAX_LOGO_BYTES + 1)
    except OSError as error:  # ELOOP: a link put there since it was looked at
        return f"cannot be read ({error.strerror})"
    if len(data) > MAX_LOGO_BYTES:
        size = max(len(data), status.st_size)
        return f"is {size:,} bytes: a logo is at most {MAX_LOGO_BYTES:,} (1 MiB)"
    for start, extension in _IMAGES:
        if data.startswith(start):
            unsound = _unsound(data, extension)
            if unsound:
                return f"is not a whole {extension.upper()} image ({unsound})"
            return Logo(path, data, extension)
    if data.removeprefix(codecs.BOM_UTF8).lstrip().startswith(_SVG_STARTS) and b"<svg" in data:
        return (
            "is an SVG image, which may hold scripts and load other files: give the logo as "
            "a PNG, JPEG or GIF file"
        )
    return "is not an image: give a PNG, JPEG or GIF file"
