"""``GET /backups`` (as ``backups``), ``POST /restore`` with the field ``backup`` (as
``restore``: ``latest``, a command's number, or a whole copy's name; the web site written
again after it) and ``POST /backup`` (as ``backup``; ``after_publish=1``: ``backup --after
publish``)."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import HTMLResponse
from starlette.routing import Route

from rating_batch import monthly
from rating_batch.pipelines.seam import Outcome
from rating_batch.web.pages import Desk, UserError, call, desk_of, done, page, posted
from rating_batch.web.publish import site_again


async def backups(request: Request) -> HTMLResponse:
    desk = desk_of(request)
    report = await call(monthly.backups_report, desk.db)
    commands, copies = await call(monthly.restore_points, desk.db)
    return page(
        request,
        "backups.html",
        title="Backups",
        lines=[desk.shown(line) for line in report.lines],
        commands=commands,
        copies=copies,
    )


async def restore(request: Request) -> HTMLResponse:
    desk = desk_of(request)
    form = await posted(request)
    form.close()
    point = (form.get("backup") or "").strip()
    if not point:
        raise UserError("choose what to go back to: 'latest', a command's number or a copy")
    undoes = (form.get("undoes") or "").strip()
    if point == "latest" and undoes.isdigit():
        # Undo this names its change: the state before it, however often it is pressed.
        point = undoes
    outcome = await call(_restored, desk, point)
    undone = point == "latest" or undoes == point
    return done(request, "Undone" if undone else f"Restored {point}", outcome, site=True)


def _restored(desk: Desk, point: str) -> Outcome:
    """``restore``, then the web site written again (a publish or an unpublish undone)."""
    outcome = monthly.restore(point, db=desk.db, wait=desk.wait)
    if (desk.out / "site").exists():
        return site_again(desk, outcome, "it shows the lists as they were before the restore")
    return outcome


async def take_backup(request: Request) -> HTMLResponse:
    desk = desk_of(request)
    form = await posted(request)
    form.close()
    after = ("publish",) if form.get("after_publish") == "1" else ()
    outcome = await call(monthly.backup, desk.db, after=after, wait=desk.wait)
    lost = monthly.lost_from_both(desk.db, outcome.warnings)
    if lost:
        outcome.lines.insert(0, lost)
    return done(
        request, "Backed up, but files are lost" if lost else "Backed up", outcome, undo=False
    )


ROUTES = [
    Route("/backups", backups, methods=["GET"]),
    Route("/restore", restore, methods=["POST"]),
    Route("/backup", take_backup, methods=["POST"]),
]
