"""constraints.txt: the versions the suite was run with, so that a fresh clone and CI install
the same ones (``make`` installs with ``pip install -c constraints.txt``; docs/testing.md §4).

``.venv/bin/python tests/constraints.py > constraints.txt`` writes it from the working .venv:
``pip freeze``'s versions of what rating_batch and its ``dev`` extra need, run after run (the
closure of their requirements, by the installed packages' own metadata), and nothing else
the .venv happens to hold. Review the diff, run ``make test``, and commit it."""

from __future__ import annotations

import re
from importlib.metadata import PackageNotFoundError, distribution
from pathlib import Path

from packaging.requirements import Requirement

#: The file this writes (at the top of the repository).
CONSTRAINTS = Path(__file__).parent.parent / "constraints.txt"
HEADER = (
    "# The versions `make test` was run with: rating_batch[dev]'s requirements and theirs.\n"
    "# Made by `.venv/bin/python tests/constraints.py > constraints.txt` (docs/testing.md §4).\n"
)


def canonical(name: str) -> str:
    """A distribution's name as pip compares them (PEP 503)."""
    return re.sub(r"[-_.]+", "-", name).lower()


def needed(root: str = "rating_batch", extras: tuple[str, ...] = ("dev",)) -> dict[str, str]:
    """Every installed distribution ``root[extras]`` needs, by canonical name: its version."""
    found: dict[str, str] = {}
    waiting = [(root, extras)]
    while waiting:
        name, chosen = waiting.pop()
        meta = distribution(name)
        for text in meta.requires or []:
            requirement = Requirement(text)
            marker = requirement.marker
            if marker is not None and not any(
                marker.evaluate({"extra": extra}) for extra in (*chosen, "")
            ):
                continue
            key = canonical(requirement.name)
            if key in found:
                continue
            try:
                found[key] = distribution(requirement.name).version
            except PackageNotFoundError:
                continue  # another platform's (a marker the evaluation above let through)
            waiting.append((requirement.name, tuple(requirement.extras)))
    return found


def constraints_text() -> str:
    pins = needed()
    return HEADER + "".join(f"{name}=={pins[name]}\n" for name in sorted(pins))


if __name__ == "__main__":
    print(constraints_text(), end="")
