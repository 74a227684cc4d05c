"""Monthly list production over the rating database, one module per command or concern:
``init``, ``add`` (with ``identify``), ``publish`` (with ``rate_kind``, ``changes`` and
``outputs``), ``undo`` (unpublish, remove, backups, restore, backup, upgrade), ``edit``
(edit-player), ``player`` and ``export``."""

from rating_batch.monthly.add import AddOptions, add_events
from rating_batch.monthly.edit import PlayerEdit, edit_player
from rating_batch.monthly.export import export_list
from rating_batch.monthly.init import init_database
from rating_batch.monthly.player import find_players, player_report
from rating_batch.monthly.publish import PublishOptions, PublishResult, publish_period
from rating_batch.monthly.undo import (
    backup,
    backups_report,
    remove_event,
    restore,
    unpublish_period,
    upgrade,
)

__all__ = [
    "AddOptions",
    "PlayerEdit",
    "PublishOptions",
    "PublishResult",
    "add_events",
    "backup",
    "backups_report",
    "edit_player",
    "export_list",
    "find_players",
    "init_database",
    "player_report",
    "publish_period",
    "remove_event",
    "restore",
    "unpublish_period",
    "upgrade",
]
