"""Monthly list production over the rating database, one module per command or concern:
``init``, ``add`` (with ``identify``), ``publish``, ``undo`` (unpublish, remove, backups,
restore, backup, upgrade), ``edit`` (edit-player), ``player``, ``export``, ``month`` (with
``inbox``), ``site`` (the web site) and ``overview`` (the desk's first page). What a rating
system does in them is its part of the seam (``pipelines/seam.DatabasePart``).

The names below are imported on first use: a command (the desk's page, ``--help``) loads only
the module it runs."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rating_batch.monthly.add import AddOptions, add_events
    from rating_batch.monthly.drift import drift_report
    from rating_batch.monthly.edit import PlayerEdit, edit_player
    from rating_batch.monthly.export import export_list
    from rating_batch.monthly.init import init_database
    from rating_batch.monthly.month import MonthOptions, run_month
    from rating_batch.monthly.overview import (
        database_overview,
        published_file,
        restore_points,
        stored_events,
    )
    from rating_batch.monthly.player import find_players, player_report, players_named
    from rating_batch.monthly.publish import PublishOptions, publish_due, publish_period
    from rating_batch.monthly.site import site_from_database
    from rating_batch.monthly.undo import (
        backup,
        backups_report,
        lost_from_both,
        remove_event,
        restore,
        unpublish_period,
        upgrade,
    )
    from rating_batch.pipelines.seam import PublishResult

#: Each public name and the module it is in.
_HOMES = {
    "AddOptions": "add",
    "add_events": "add",
    "drift_report": "drift",
    "PlayerEdit": "edit",
    "edit_player": "edit",
    "export_list": "export",
    "init_database": "init",
    "PublishResult": "part",
    "MonthOptions": "month",
    "run_month": "month",
    "database_overview": "overview",
    "stored_events": "overview",
    "restore_points": "overview",
    "published_file": "overview",
    "find_players": "player",
    "player_report": "player",
    "players_named": "player",
    "PublishOptions": "publish",
    "publish_period": "publish",
    "publish_due": "publish",
    "site_from_database": "site",
    "backup": "undo",
    "backups_report": "undo",
    "lost_from_both": "undo",
    "remove_event": "undo",
    "restore": "undo",
    "unpublish_period": "undo",
    "upgrade": "undo",
}


def __getattr__(name: str) -> object:
    if name not in _HOMES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"rating_batch.monthly.{_HOMES[name]}"), name)
    globals()[name] = value
    return value


__all__ = [
    "AddOptions",
    "MonthOptions",
    "PlayerEdit",
    "PublishOptions",
    "PublishResult",
    "add_events",
    "backup",
    "backups_report",
    "database_overview",
    "drift_report",
    "edit_player",
    "export_list",
    "find_players",
    "init_database",
    "lost_from_both",
    "player_report",
    "players_named",
    "publish_due",
    "publish_period",
    "published_file",
    "remove_event",
    "restore",
    "restore_points",
    "run_month",
    "site_from_database",
    "stored_events",
    "unpublish_period",
    "upgrade",
]
