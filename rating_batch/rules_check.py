"""Checking a rules file (docs/rules.md §8, docs/systems.md): where in its TOML each key is
written, the known key closest to a misspelt one, and every problem of the file gathered
into one ``RulesError``, each as ``file:line: what to fix`` (the file-wide ones first)."""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Iterator

from rating_batch.errors import Issue, RulesError, ordered_issues

_QUOTES = "\"'"
_MULTI_LINE = ('"""', "'''")


def _outside_strings(text: str) -> Iterator[tuple[int, str]]:
    """Each character of one line of TOML outside its one-line strings, with its index."""
    quote = ""
    escaped = False
    for index, char in enumerate(text):
        if quote:
            if escaped:
                escaped = False
            elif char == "\\" and quote == '"':
                escaped = True
            elif char == quote:
                quote = ""
        elif char in _QUOTES:
            quote = char
        else:
            yield index, char


def _split(text: str, separator: str) -> list[str]:
    """``text`` split at ``separator`` where it stands outside strings."""
    cuts = [i for i, char in _outside_strings(text) if char == separator]
    bounds = zip([-1, *cuts], [*cuts, len(text)], strict=True)
    return [text[start + 1 : end] for start, end in bounds]


def _dotted(key: str) -> list[str]:
    """A TOML key's parts: ``k . "high"`` → ``["k", "high"]``."""
    return [part.strip().strip(_QUOTES) for part in _split(key, ".")]


def _value_state(value: str, depth: int, open_string: str) -> tuple[int, str]:
    """After a stretch of a value: how deep inside arrays and inline tables it is, and the
    delimiter of the multi-line string it leaves open (``""`` when none)."""
    index = 0
    while index < len(value):
        if open_string:
            end = value.find(open_string, index)
            if end < 0:
                return depth, open_string
            index, open_string = end + 3, ""
            continue
        opener = next((m for m in _MULTI_LINE if value.startswith(m, index)), "")
        if opener:
            index, open_string = index + 3, opener
            continue
        char = value[index]
        if char in _QUOTES:
            index += 1
            while index < len(value) and value[index] != char:
                index += 2 if char == '"' and value[index] == "\\" else 1
            index += 1
            continue
        if char == "#":
            break
        depth += (char in "[{") - (char in "]}")
        index += 1
    return depth, open_string


def key_lines(text: str) -> dict[str, int]:
    """The 1-based line of each key of a valid TOML text by its dotted name (``k.high``),
    and of each table header (``k``). A key inside an inline table or an array is found at
    the line of the key holding it (``line_of``)."""
    lines: dict[str, int] = {}
    table: list[str] = []
    depth, open_string = 0, ""
    for number, line in enumerate(text.splitlines(), start=1):
        value = line
        if depth == 0 and not open_string:
            stripped = line.strip()
            if not stripped or stripped.startswith("#"):
                continue
            if stripped.startswith("["):
                inner = _split(stripped.strip("[]"), "]")[0]  # [k], [[k]], [k] # comment
                table = _dotted(inner)
                lines.setdefault(".".join(table), number)
                continue
            key, *rest = _split(line, "=")
            lines.setdefault(".".join([*table, *_dotted(key)]), number)
            value = "=".join(rest)
        depth, open_string = _value_state(value, depth, open_string)
    return lines


def did_you_mean(key: str, known: Iterable[str]) -> str:
    """`` (did you mean 'floor'?)`` for the known key closest to a misspelt one: the same
    key written in another section, else the closest in its own section (or, the section
    misspelt, the closest whole key), else the closest in any; ``""`` when none is close."""
    known = list(known)
    section, _, leaf = key.rpartition(".")
    leaves = {k.rpartition(".")[2]: k for k in known}
    ours = {k.rpartition(".")[2]: k for k in known if k.rpartition(".")[0] == section}
    close = [k for k in known if k.rpartition(".")[2] == leaf and k != key]
    if not close and ours:
        close = [ours[k] for k in difflib.get_close_matches(leaf, list(ours), n=1)]
    elif not close:
        close = difflib.get_close_matches(key, known, n=1)
    if not close:
        close = [leaves[k] for k in difflib.get_close_matches(leaf, list(leaves), n=1)]
    return f" (did you mean {close[0]!r}?)" if close else ""


class Findings:
    """Every problem found in one rules file, each at the line of a key it names."""

    def __init__(self, source: str, text: str) -> None:
        self.source = source
        self.lines = key_lines(text)
        self.issues: list[Issue] = []

    def line_of(self, *keys: str) -> int | None:
        """The line of the first of ``keys`` the file writes; else of the first one's table
        (or inline table) that it writes; None when the file writes none of them."""
        for key in keys:
            if key in self.lines:
                return self.lines[key]
        for key in keys:
            parts = key.split(".")[:-1]
            while parts:
                if ".".join(parts) in self.lines:
                    return self.lines[".".join(parts)]
                parts.pop()
        return None

    def add(self, message: str, *keys: str) -> None:
        """A problem, at the line of the first of ``keys`` the file writes."""
        self.issues.append(Issue(self.source, self.line_of(*keys), message))

    def raise_any(self) -> None:
        """Raise one RulesError with every problem found, in the file's order."""
        if self.issues:
            raise RulesError("\n".join(str(issue) for issue in ordered_issues(self.issues)))
