"""``init``: a new rating database from a rating list, under the system the rules name
(``RatingSystem.database.init``: FIDE Elo from a FIDE list, another system from its own
state list or seeded from an Elo list with ``--from-elo``).

The database is made in a temporary file and put in place only when complete; a path where
anything already exists is refused and left as it was (``store.create_store``).
"""

from __future__ import annotations

from pathlib import Path

from rating_batch.monthly.common import Outcome, read_rules_file
from rating_batch.monthly.part import InitRequest
from rating_batch.monthly.site_settings import site_settings
from rating_batch.periods import canonical_period
from rating_batch.store import ensure_new
from rating_batch.systems.elo.rules import FIDE_BY_DATE
from rating_batch.systems.registry import stored_system


def init_database(
    list_path: Path,
    *,
    db: Path,
    kind: str | None = None,
    period: str | None = None,
    rules_name: str = FIDE_BY_DATE,
    from_elo: bool = False,
    encoding: str | None = None,
) -> Outcome:
    """Create the database from a rating list (a combined FIDE list fills all three kinds;
    ``encoding``: the list's, when it is not UTF-8)."""
    label = canonical_period(period) if period is not None else None
    ensure_new(db)  # before the list is even read: nothing at ``db`` is ever touched
    text = read_rules_file(rules_name)
    site_settings(text, rules_name)  # a wrong [site] is told now, not at the first publish
    system = stored_system(rules_name, text)
    book = system.rule_book(rules_name, text)
    request = InitRequest(list_path, db, kind, label, rules_name, text, book, from_elo, encoding)
    return system.database.init(request)
