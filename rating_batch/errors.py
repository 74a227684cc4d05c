"""The one small exception hierarchy, and the Issue record every user-facing message uses."""

from __future__ import annotations

import errno
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from rating_batch.terminal import one_line

Severity = Literal["error", "warning"]

#: How many issues ``str(InputError)`` shows before "… and N more".
SHOWN_ISSUES = 20


@dataclass(frozen=True, slots=True)
class Issue:
    """One problem found in an input, pointing at the file and line a user can open."""

    source: str
    """File as the user named it, or ``"book.xlsx[Sheet1]"`` for a sheet."""
    line: int | None
    """1-based line (text files) or row (sheets); ``None`` when the problem is file-wide."""
    message: str
    """Lower case, no trailing period, offending value quoted with ``!r``."""
    severity: Severity = "error"

    def __str__(self) -> str:
        source = one_line(self.source)
        where = source if self.line is None else f"{source}:{self.line}"
        prefix = "warning: " if self.severity == "warning" else ""
        return f"{where}: {prefix}{self.message}"


def ordered_issues(issues: Iterable[Issue]) -> list[Issue]:
    """Errors first, then warnings; within each, file by file (in the order they came) and
    line by line (file-wide issues first)."""
    collected = list(issues)
    files = {source: n for n, source in enumerate(dict.fromkeys(i.source for i in collected))}
    return sorted(collected, key=lambda i: (i.severity != "error", files[i.source], i.line or 0))


def errors_only(issues: Iterable[Issue]) -> list[Issue]:
    """The issues that stop processing (severity ``"error"``)."""
    return [issue for issue in issues if issue.severity == "error"]


class RatingBatchError(Exception):
    """Base class; the CLI prints these without a traceback and exits 1."""


class InputError(RatingBatchError):
    """One or more problems in the input files; ``.issues`` lists them all (errors and
    warnings); the message shows the errors first."""

    def __init__(self, issues: Iterable[Issue]) -> None:
        self.issues: list[Issue] = list(issues)
        super().__init__(self._render())

    def _render(self) -> str:
        shown = [str(issue) for issue in ordered_issues(self.issues)[:SHOWN_ISSUES]]
        hidden = len(self.issues) - len(shown)
        if hidden > 0:
            shown.append(f"… and {hidden} more")
        return "\n".join(shown)

    def __str__(self) -> str:
        return self._render()

    def __reduce__(self) -> tuple[type[InputError], tuple[list[Issue]]]:
        # Made again from its issues (not its message) where it is unpickled: an error
        # found in a forked child travels to the command (parallel.py).
        return (InputError, (self.issues,))


class RulesError(RatingBatchError):
    """Unknown edition, a rules file that cannot be read, or values that are inconsistent.

    ``problems`` lists (field, what is wrong) for impossible values, so that a rules file's
    loader can name its own keys.
    """

    def __init__(self, message: str, problems: Iterable[tuple[str, str]] = ()) -> None:
        super().__init__(message)
        self.problems = list(problems)

    def __reduce__(self) -> tuple[type[RulesError], tuple[str, list[tuple[str, str]]]]:
        return (RulesError, (str(self.args[0]), self.problems))


def raise_if_errors(issues: Iterable[Issue]) -> None:
    """Raise one InputError carrying every issue when any of them is an error."""
    collected = list(issues)
    if errors_only(collected):
        raise InputError(collected)


def describe_os_error(error: OSError) -> str:
    """What the machine refused, as a user reads it (the commands' and the desk's message):
    ``path: what the system said`` (no space left, permission denied, …)."""
    where = error.filename or ""
    reason = error.strerror or str(error)
    if error.errno == errno.ENOSPC:
        reason += " (disk full: nothing was changed)"
    return f"{where}: {reason}" if where else reason
