"""rating_batch: FIDE-exact rating calculations for chess federations' rating officers.

Rate event files as one period (no database)::

    from pathlib import Path
    from rating_batch import rate_events

    result = rate_events([Path("sample_data/events")], out=Path("out"))
    print(result.players[["name", "rating", "k", "change", "new_rating"]])

Monthly production with the rating database: ``init_database``, ``add_events``,
``publish_period``, ``unpublish_period``, ``remove_event``, ``player_report``, ``find_players``,
``export_list``; ``list_backups`` and ``restore_backup`` for its backups.
"""

from rating_batch.errors import InputError, Issue, RatingBatchError, RulesError
from rating_batch.pipeline import check_files, compare_rules, rate_events
from rating_batch.production import (
    AddOptions,
    PublishOptions,
    add_events,
    export_list,
    find_players,
    init_database,
    player_report,
    publish_period,
    remove_event,
    unpublish_period,
)
from rating_batch.rules import EDITIONS, Rules, load_rules_file, named_rules
from rating_batch.store import list_backups, restore_backup

__all__ = [
    "EDITIONS",
    "AddOptions",
    "InputError",
    "Issue",
    "PublishOptions",
    "RatingBatchError",
    "Rules",
    "RulesError",
    "add_events",
    "check_files",
    "compare_rules",
    "export_list",
    "find_players",
    "init_database",
    "list_backups",
    "load_rules_file",
    "named_rules",
    "player_report",
    "publish_period",
    "rate_events",
    "remove_event",
    "restore_backup",
    "unpublish_period",
]
