"""The events: ``GET /events`` (stored events by period), ``POST /events`` (``check`` or
``add`` the files sent), ``POST /events/<key>/remove`` (``remove KEY``)."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import HTMLResponse
from starlette.routing import Route

from rating_batch import monthly
from rating_batch.errors import InputError, RatingBatchError, ordered_issues
from rating_batch.monthly.common import Outcome
from rating_batch.web.pages import (
    UserError,
    call,
    desk_of,
    done,
    page,
    posted,
)
from rating_batch.web.uploads import MAX_FILES, Sent, placed, received


async def list_events(request: Request) -> HTMLResponse:
    desk = desk_of(request)
    events = await call(monthly.stored_events, desk.db)
    overview = await call(monthly.database_overview, desk.db)
    return page(
        request,
        "events.html",
        title="Events",
        events=events.fillna("").to_dict("records"),
        periods=list(dict.fromkeys(events["period"])),
        published=str(overview.last or ""),
    )


async def send_events(request: Request) -> HTMLResponse:
    """Every file's errors and warnings as ``file:line: message``, then what was stored."""
    desk = desk_of(request)
    form = await posted(request, max_files=MAX_FILES)
    try:
        check = form.get("check") == "1"
        options = monthly.AddOptions(
            dry_run=check,
            wait=desk.wait,
            accept_dates=form.get("accept_dates") == "1",
            allow_overlap=form.get("allow_overlap") == "1",
        )
        try:
            files = await received(form.getlist("files"))
        except InputError as error:
            return _answer(request, check, None, error)
    finally:
        await form.close()
    return await call(_added, request, files, options)


def _added(request: Request, files: list[Sent], options: monthly.AddOptions) -> HTMLResponse:
    desk = desk_of(request)
    with placed(desk.inbox, files, desk.wait) as inbox:
        try:
            outcome = monthly.add_events(inbox.paths, db=desk.db, options=options)
        except InputError as error:
            return _answer(request, options.dry_run, None, error)
        if not options.dry_run:
            inbox.keep()
        return _answer(request, options.dry_run, outcome, None)


def _answer(
    request: Request,
    check: bool,
    outcome: Outcome | None,
    error: InputError | None,
) -> HTMLResponse:
    shown = desk_of(request).shown
    if error is not None:
        issues = ordered_issues(error.issues)
    else:
        issues = [] if outcome is None else outcome.warnings
    errors = [issue for issue in issues if issue.severity == "error"]
    warnings = [issue for issue in issues if issue.severity != "error"]
    lines = [] if outcome is None else outcome.lines
    return page(
        request,
        "sent.html",
        status=400 if error is not None else 200,
        title="Files checked" if check else ("Files refused" if error else "Files added"),
        check=check,
        errors=[shown(issue) for issue in errors],
        warnings=[shown(issue) for issue in warnings],
        lines=[shown(line) for line in lines],
    )


async def remove(request: Request) -> HTMLResponse:
    desk = desk_of(request)
    form = await posted(request)
    await form.close()
    key = request.path_params["key"]
    try:
        outcome = await call(monthly.remove_event, key, db=desk.db, wait=desk.wait)
    except RatingBatchError as error:
        if not str(error).startswith("no event "):
            raise
        raise UserError(str(error), 404) from None
    return done(request, f"Removed {key}", outcome)


ROUTES = [
    Route("/events", list_events, methods=["GET"]),
    Route("/events", send_events, methods=["POST"]),
    Route("/events/{key:path}/remove", remove, methods=["POST"]),
]
