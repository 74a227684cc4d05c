"""The numeric settings read from the environment, each read and checked here and nowhere
else: how many commands the undo journal keeps ($RATING_BATCH_UNDO), how many whole copies
are kept and in how much space ($RATING_BATCH_BACKUPS, $RATING_BATCH_BACKUP_SPACE), and
whether work stays in the command's own process ($RATING_BATCH_SERIAL).

A value that makes no sense (``0`` commands kept, ``-1``, ``abc``, ``2.5``, a space of
``1k``) is refused with a message naming the variable, its value and what is accepted,
never read as something else: the journal and the whole copies are what lets an officer go
back, and a typo in a crontab must not quietly throw them away. The command line checks
every setting at its start (``check``), before any command reads or writes anything; each
reader checks its own again, for the library used without the command line. An empty
variable is the default, as an unset one is (docs/undo.md §1, §2).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass

from rating_batch.errors import RatingBatchError


class SettingError(RatingBatchError):
    """A setting of the environment that is not one of the values accepted."""


def _refused(name: str, text: str, accepted: str) -> SettingError:
    return SettingError(
        f"${name} is {text!r}, not {accepted}; set it to such a value, or unset it for the "
        "default (nothing was changed)"
    )


@dataclass(frozen=True)
class WholeNumber:
    """A setting that is a whole number from ``low`` to ``high``."""

    name: str
    default: int
    low: int
    high: int
    means: str
    """What the number counts, for the message."""

    def value(self) -> int:
        text = os.environ.get(self.name, "").strip()
        if not text:
            return self.default
        digits = re.fullmatch(r"\+?([0-9]{1,18})", text)
        if digits is None or not self.low <= int(digits[1]) <= self.high:
            raise _refused(
                self.name,
                text,
                f"a whole number from {self.low} to {self.high:,} ({self.means}; default "
                f"{self.default})",
            )
        return int(digits[1])

    def source(self, value: int) -> str:
        """Where ``value`` came from, for a message."""
        if os.environ.get(self.name, "").strip():
            return f"${self.name}={value}"
        return f"by default; ${self.name} changes it"


#: How many of the newest commands the undo journal keeps: at least the last one (the
#: journal is how a command is taken back), at most 100,000 (each command's rows stay in the
#: database: a year of daily commands is 365).
UNDO = WholeNumber("RATING_BATCH_UNDO", 100, 1, 100_000, "how many commands can be undone")

#: How many whole copies are kept: at least the newest, at most 10,000 (each is a database).
BACKUPS = WholeNumber("RATING_BATCH_BACKUPS", 5, 1, 10_000, "how many whole copies are kept")

#: The space the whole copies may take together: by default 3 times the database.
SPACE = "RATING_BATCH_BACKUP_SPACE"
SPACE_TIMES = 3.0
#: Times the database: from 1 (room for one copy) to 1000.
TIMES_RANGE = (1.0, 1000.0)
#: Bytes: from 1 MB (less holds no copy of a database worth keeping) to 1000 TB.
BYTES_RANGE = (10**6, 10**15)
_UNITS = {"": 1, "k": 10**3, "m": 10**6, "g": 10**9, "t": 10**12}
_SPACE_ACCEPTED = (
    "a size from 1M to 1000T (a number with k, M, G or T: 20G) or a number of times the "
    "database from 1x to 1000x (5x; default 3x)"
)

#: Work kept in the command's own process (``parallel.py``): 1, or 0 (the default: a
#: second core is used where there is one).
SERIAL = "RATING_BATCH_SERIAL"


def undo_kept() -> int:
    """How many of the newest commands the undo journal keeps ($RATING_BATCH_UNDO)."""
    return UNDO.value()


def copies_kept() -> int:
    """How many whole copies are kept ($RATING_BATCH_BACKUPS)."""
    return BACKUPS.value()


def backup_space(database: int) -> int:
    """The most bytes the whole copies may take together, for a database of ``database``
    bytes ($RATING_BATCH_BACKUP_SPACE: a size, or a number of times the database)."""
    raw = os.environ.get(SPACE, "").strip()
    if not raw:
        return int(SPACE_TIMES * database)
    text = raw.lower().removesuffix("b").strip()  # "20GB" is 20G; "b" alone is no size
    times = re.fullmatch(r"([0-9]{1,6}(?:\.[0-9]{1,6})?)\s*x", text)
    if times is not None and TIMES_RANGE[0] <= float(times[1]) <= TIMES_RANGE[1]:
        return int(float(times[1]) * database)
    size = re.fullmatch(r"([0-9]{1,18}(?:\.[0-9]{1,6})?)\s*([kmgt]?)", text)
    if size is not None:
        number = int(float(size[1]) * _UNITS[size[2]])
        if BYTES_RANGE[0] <= number <= BYTES_RANGE[1]:
            return number
    raise _refused(SPACE, raw, _SPACE_ACCEPTED)


def serial() -> bool:
    """Whether work stays in the command's own process ($RATING_BATCH_SERIAL=1)."""
    text = os.environ.get(SERIAL, "").strip()
    if text not in ("", "0", "1"):
        raise _refused(SERIAL, text, "1 (work in one process) or 0 (the default)")
    return text == "1"


def check() -> None:
    """Every setting read once: the first that is not accepted is refused (SettingError)."""
    undo_kept()
    copies_kept()
    backup_space(1)
    serial()
