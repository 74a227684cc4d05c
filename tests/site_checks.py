"""Checks of a written web site: every link resolves, every page parses as HTML5, and the
site's own pages pass basic accessibility checks (docs/site.md §5)."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import html5lib


class _Page(HTMLParser):
    """What the checks read from a page: its links, its ids, and the elements they judge."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.links: list[str] = []
        self.ids: set[str] = set()
        self.lang: str | None = None
        self.headers_without_scope = 0
        self.controls: list[str] = []
        self.labelled: set[str] = set()
        self.images_without_alt = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if values.get("id"):
            self.ids.add(values["id"])
        for name in ("href", "src"):
            if values.get(name):
                self.links.append(str(values[name]))
        if tag == "html":
            self.lang = values.get("lang")
        if tag == "th" and not values.get("scope"):
            self.headers_without_scope += 1
        if tag in ("input", "select", "textarea"):
            self.controls.append(str(values.get("id")))
        if tag == "label" and values.get("for"):
            self.labelled.add(str(values["for"]))
        if tag == "img" and "alt" not in values:
            self.images_without_alt += 1


def read_page(path: Path) -> _Page:
    page = _Page()
    page.feed(path.read_text(encoding="utf-8"))
    return page


def broken_links(site: Path) -> list[str]:
    """Every link of every page of ``site`` that leads nowhere: a missing file, a missing
    ``#id`` in the page it names, or a link leaving the site (``page: link``)."""
    pages = {path: read_page(path) for path in site.rglob("*.html")}
    broken = []
    for path, page in pages.items():
        for link in page.links:
            parts = urlsplit(link)
            if parts.scheme or parts.netloc:
                broken.append(f"{path.relative_to(site)}: {link} (outside the site)")
                continue
            target = (path.parent / unquote(parts.path)).resolve() if parts.path else path
            if site.resolve() not in [target, *target.parents] or not target.is_file():
                broken.append(f"{path.relative_to(site)}: {link}")
            elif parts.fragment:
                ids = pages[target].ids if target in pages else read_page(target).ids
                if unquote(parts.fragment) not in ids:
                    broken.append(f"{path.relative_to(site)}: {link} (no such id)")
    return broken


def html5_errors(path: Path) -> list[str]:
    """What a strict HTML5 parser (html5lib, WHATWG's algorithm) finds wrong in a page."""
    parser = html5lib.HTMLParser(strict=False)
    parser.parse(path.read_bytes())
    return [f"{path.name}: {error} {data}" for _, error, data in parser.errors]


def accessibility_problems(path: Path) -> list[str]:
    """The page's language, a scope on every table header, a label on every form control,
    an alt on every image."""
    page = read_page(path)
    problems = []
    if not page.lang:
        problems.append("no lang on <html>")
    if page.headers_without_scope:
        problems.append(f"{page.headers_without_scope} <th> without scope")
    unlabelled = [c for c in page.controls if c not in page.labelled]
    if unlabelled:
        problems.append(f"controls without a label: {unlabelled}")
    if page.images_without_alt:
        problems.append(f"{page.images_without_alt} <img> without alt")
    return [f"{path.name}: {problem}" for problem in problems]


def relative_luminance(colour: str) -> float:
    """WCAG 2's relative luminance of ``#rrggbb``."""
    channels = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(first: str, second: str) -> float:
    """WCAG 2's contrast ratio (L1 + 0.05) / (L2 + 0.05), the lighter over the darker."""
    high, low = sorted([relative_luminance(first), relative_luminance(second)], reverse=True)
    return (high + 0.05) / (low + 0.05)


def stylesheet_colours(css: str) -> tuple[set[str], set[str]]:
    """The text colours (``color``, ``fill`` of text) and background colours a stylesheet
    sets, as ``#rrggbb``."""
    text = set(re.findall(r"(?<![-\w])color:\s*(#[0-9a-fA-F]{6})", css))
    text |= set(
        re.findall(r"svg\.chart[^{]*(?:text|tspan)[^{]*\{[^}]*fill:\s*(#[0-9a-fA-F]{6})", css)
    )
    backgrounds = set(re.findall(r"background:\s*(#[0-9a-fA-F]{6})", css))
    return {c.lower() for c in text}, {c.lower() for c in backgrounds}
