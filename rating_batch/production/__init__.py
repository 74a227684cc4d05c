"""Monthly list production over the rating database, one module per command or concern:
``init``, ``add`` (with ``identify``), ``publish`` (with ``rate_list``, ``changes`` and
``outputs``), ``undo`` (unpublish, remove, backups, restore, backup, upgrade), ``edit``
(edit-player), ``player`` and ``export``."""

from rating_batch.production.add import AddOptions, add_events
from rating_batch.production.edit import PlayerEdit, edit_player
from rating_batch.production.export import export_list
from rating_batch.production.init import init_database
from rating_batch.production.player import find_players, player_report
from rating_batch.production.publish import PublishOptions, PublishResult, publish_period
from rating_batch.production.undo import (
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
