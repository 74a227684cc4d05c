"""``init``: a new rating database from a rating list, under the system the rules name
(``RatingSystem.database.init``: FIDE Elo from a FIDE list, another system from its own
state list or seeded from an Elo list with ``--from-elo``).

The database is made in a temporary file and put in place only when complete; a path where
anything already exists is refused and left as it was (``store.create_store``).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from rating_batch.periods import canonical_period
from rating_batch.store import ensure_new
from rating_batch.systems.elo.rules import EDITIONS, FIDE_BY_DATE

if TYPE_CHECKING:
    from rating_batch.pipelines.seam import Outcome

#: What ``fide`` (the default) means, as ``rules`` and the desk's first page say it.
BY_DATE_TITLE = "the edition in force at each event's start"


def rule_choices() -> list[tuple[str, str, str]]:
    """Every rules name ``init`` takes, as (name, since when or what it is, title): FIDE's
    editions, ``fide`` (by date), then every other rating system."""
    from rating_batch.systems import SYSTEMS

    editions = [
        (rules.edition, f"from {rules.in_force_from.isoformat() if rules.in_force_from else ''}",
         rules.title)
        for rules in EDITIONS.values()
    ]  # fmt: skip
    systems = [(name, "(system)", make(params()).title) for name, (params, make) in SYSTEMS.items()]
    return [*editions, (FIDE_BY_DATE, "(default)", BY_DATE_TITLE), *systems]


def init_database(
    list_path: Path,
    *,
    db: Path,
    kind: str | None = None,
    period: str | None = None,
    rules_name: str = FIDE_BY_DATE,
    from_elo: bool = False,
    encoding: str | None = None,
    rules_text: str | None = None,
) -> Outcome:
    """Create the database from a rating list (a combined FIDE list fills all three kinds;
    ``encoding``: the list's, when it is not UTF-8; ``rules_text``: the text of the rules
    file ``rules_name`` names, when it was sent rather than read from there)."""
    label = canonical_period(period) if period is not None else None
    ensure_new(db)  # before the list is even read: nothing at ``db`` is ever touched
    # Loaded once nothing refuses the command: a refused init loads no pandas (issue 42).
    from rating_batch.monthly.site_settings import site_settings
    from rating_batch.pipelines.registry import stored_system
    from rating_batch.pipelines.seam import InitRequest
    from rating_batch.systems.elo.rules_file import read_rules_file

    text = read_rules_file(rules_name) if rules_text is None else rules_text
    site_settings(text, rules_name)  # a wrong [site] is told now, not at the first publish
    system = stored_system(rules_name, text)
    book = system.rule_book(rules_name, text)
    request = InitRequest(list_path, db, kind, label, rules_name, text, book, from_elo, encoding)
    return system.database.init(request)
