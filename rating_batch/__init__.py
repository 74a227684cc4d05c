"""rating_batch: FIDE-exact rating calculations for chess federations' rating officers.

Rate event files as one period (no database)::

    from pathlib import Path
    from rating_batch import rate_events

    result = rate_events([Path("sample_data/events")], out=Path("out"))
    print(result.players[["name", "rating", "k", "change", "new_rating"]])

Monthly production with the rating database: ``init_database``, ``add_events``,
``publish_period``, ``unpublish_period``, ``remove_event``, ``player_report``, ``find_players``,
``export_list``; ``backups_report``, ``restore`` and ``backup`` to undo and to keep whole copies.
FIDE title norms of event files and a title application's arithmetic: ``norms_events``,
``title_check`` (docs/norms.md).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

#: Where each public name lives: imported on first use, so that ``import rating_batch`` (and
#: the command line's help) does not load pandas and openpyxl until a command needs them.
_HOMES = {
    "InputError": "rating_batch.errors",
    "Issue": "rating_batch.errors",
    "RatingBatchError": "rating_batch.errors",
    "RulesError": "rating_batch.errors",
    "check_files": "rating_batch.rate",
    "compare_rules": "rating_batch.compare",
    "rate_events": "rating_batch.rate",
    "norms_events": "rating_batch.norms",
    "title_check": "rating_batch.norms",
    "AddOptions": "rating_batch.monthly",
    "PublishOptions": "rating_batch.monthly",
    "add_events": "rating_batch.monthly",
    "drift_report": "rating_batch.monthly",
    "export_list": "rating_batch.monthly",
    "find_players": "rating_batch.monthly",
    "init_database": "rating_batch.monthly",
    "player_report": "rating_batch.monthly",
    "publish_period": "rating_batch.monthly",
    "remove_event": "rating_batch.monthly",
    "unpublish_period": "rating_batch.monthly",
    "EDITIONS": "rating_batch.systems.elo.rules",
    "Rules": "rating_batch.systems.elo.rules",
    "load_rules_file": "rating_batch.systems.elo.rules_file",
    "named_rules": "rating_batch.systems.elo.rules_file",
    "backup": "rating_batch.monthly",
    "backups_report": "rating_batch.monthly",
    "restore": "rating_batch.monthly",
}

if TYPE_CHECKING:
    from rating_batch.compare import compare_rules
    from rating_batch.errors import InputError, Issue, RatingBatchError, RulesError
    from rating_batch.monthly import (
        AddOptions,
        PublishOptions,
        add_events,
        backup,
        backups_report,
        drift_report,
        export_list,
        find_players,
        init_database,
        player_report,
        publish_period,
        remove_event,
        restore,
        unpublish_period,
    )
    from rating_batch.norms import norms_events, title_check
    from rating_batch.rate import check_files, rate_events
    from rating_batch.systems.elo.rules import EDITIONS, Rules
    from rating_batch.systems.elo.rules_file import load_rules_file, named_rules


def __getattr__(name: str) -> object:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_HOMES])


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
    "backup",
    "backups_report",
    "check_files",
    "compare_rules",
    "drift_report",
    "export_list",
    "find_players",
    "init_database",
    "load_rules_file",
    "named_rules",
    "norms_events",
    "player_report",
    "publish_period",
    "rate_events",
    "remove_event",
    "restore",
    "title_check",
    "unpublish_period",
]
