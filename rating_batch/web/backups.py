"""``GET /backups`` (as ``backups``) and ``POST /restore`` with the field ``backup`` (as
``restore``: ``latest``, a command's number, or a whole copy's name)."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import HTMLResponse
from starlette.routing import Route

from rating_batch import monthly
from rating_batch.web.pages import UserError, call, desk_of, done, page, posted


async def backups(request: Request) -> HTMLResponse:
    desk = desk_of(request)
    report = await call(monthly.backups_report, desk.db)
    commands, copies = await call(monthly.restore_points, desk.db)
    return page(
        request,
        "backups.html",
        title="Backups",
        lines=report.lines,
        commands=commands,
        copies=copies,
    )


async def restore(request: Request) -> HTMLResponse:
    desk = desk_of(request)
    form = await posted(request)
    await form.close()
    point = form.get("backup")
    if not isinstance(point, str) or not point.strip():
        raise UserError("choose what to go back to: 'latest', a command's number or a copy")
    outcome = await call(monthly.restore, point.strip(), db=desk.db, wait=desk.wait)
    return done(request, f"Restored {point.strip()}", outcome)


ROUTES = [
    Route("/backups", backups, methods=["GET"]),
    Route("/restore", restore, methods=["POST"]),
]
