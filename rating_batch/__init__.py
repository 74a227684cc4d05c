"""rating_batch: FIDE-exact rating calculations for chess federations' rating officers.

Rate event files as one period (no database)::

    from pathlib import Path
    from rating_batch import rate_events

    result = rate_events([Path("sample_data/events")], out=Path("out"))
    print(result.players[["name", "rating", "k", "change", "new_rating"]])

Monthly production with the rating database: ``init_database``, ``add_events``,
``publish_period``, ``player_report``, ``export_list``.
"""

from rating_batch.errors import InputError, Issue, RatingBatchError, RulesError
from rating_batch.pipeline import check_files, compare_rules, rate_events
from rating_batch.production import (
    add_events,
    export_list,
    init_database,
    player_report,
    publish_period,
)
from rating_batch.rules import EDITIONS, Rules, load_rules_file, named_rules

__all__ = [
    "EDITIONS",
    "InputError",
    "Issue",
    "RatingBatchError",
    "Rules",
    "RulesError",
    "add_events",
    "check_files",
    "compare_rules",
    "export_list",
    "init_database",
    "load_rules_file",
    "named_rules",
    "player_report",
    "publish_period",
    "rate_events",
]
