"""The events: ``GET /events`` (stored events by period), ``POST /events`` (``check`` or
``add`` the files sent, or with ``checked=<digest>`` the files a check kept: **Add these
files**), ``GET /events/<key>/remove`` (what removing would take away, and a button) and
``POST /events/<key>/remove`` (``remove KEY``)."""

from __future__ import annotations

from collections.abc import Sequence
from urllib.parse import quote

from starlette.requests import Request
from starlette.responses import HTMLResponse
from starlette.routing import Route

from rating_batch import monthly
from rating_batch.errors import InputError, RatingBatchError, ordered_issues
from rating_batch.loaders.common import MAX_EVENT_BYTES
from rating_batch.pipelines.seam import Outcome
from rating_batch.systems.elo.rules import KINDS
from rating_batch.web.forms import MAX_FILES
from rating_batch.web.pages import (
    Desk,
    UserError,
    call,
    confirm,
    desk_of,
    done,
    latest_change,
    page,
    posted,
)
from rating_batch.web.uploads import Placed, Sent, checked_files, kept_until, placed, received


async def list_events(request: Request) -> HTMLResponse:
    desk = desk_of(request)
    events = await call(monthly.stored_events, desk.db)
    overview = await call(monthly.database_overview, desk.db)
    events["file"] = [
        str(source).replace("\\", "/").rsplit("/", 1)[-1] for source in events["source"]
    ]
    return page(
        request,
        "events.html",
        title="Events",
        events=events.fillna("").to_dict("records"),
        periods=list(dict.fromkeys(events["period"])),
        published=str(overview.last or ""),
        kinds=KINDS,
    )


async def send_events(request: Request) -> HTMLResponse:
    """Every file's errors and warnings as ``file:line: message``, then what was stored."""
    desk = desk_of(request)
    form = await posted(request, files=MAX_FILES, file_bytes=MAX_EVENT_BYTES)
    try:
        check = form.get("check") == "1"
        kind = form.get("kind") or None
        if kind is not None and kind not in KINDS:
            raise UserError(f"no list kind {kind!r}: standard, rapid or blitz")
        options = monthly.AddOptions(
            kind=kind,
            dry_run=check,
            wait=desk.wait,
            accept_dates=form.get("accept_dates") == "1",
            allow_overlap=form.get("allow_overlap") == "1",
        )
        try:
            sent = form.files_of("files")
            kept = checked_files(desk.inbox, form.getlist("checked"))
            files = kept + (received(sent) if sent or not kept else [])
        except InputError as error:
            return _answer(request, options, None, error, None)
        return await call(_added, request, files, options)
    finally:
        form.close()


def _added(request: Request, files: list[Sent], options: monthly.AddOptions) -> HTMLResponse:
    desk = desk_of(request)
    with placed(desk.inbox, files, desk.wait) as inbox:
        try:
            outcome = monthly.add_events(inbox.paths, db=desk.db, options=options)
        except InputError as error:
            # The files without an error are kept as checked: only the others are sent again.
            named = {issue.source for issue in error.issues if issue.severity == "error"}
            good = [s for s, p in zip(inbox.sent, inbox.paths, strict=True) if str(p) not in named]
            if good and len(good) < len(inbox.sent):
                inbox.keep_checked(good)
            return _answer(request, options, None, error, inbox if good else None, good)
        if options.dry_run:
            inbox.keep_checked()
        else:
            inbox.keep()
        return _answer(request, options, outcome, None, inbox)


def _answer(
    request: Request,
    options: monthly.AddOptions,
    outcome: Outcome | None,
    error: InputError | None,
    inbox: Placed | None,
    good: Sequence[Sent] = (),
) -> HTMLResponse:
    """The files' problems, then what adding did or would do; a good check offers **Add
    these files** (the same options, the files kept), an add **Undo this**; a refusal of
    some files keeps the ``good`` others, to be sent with the corrected ones only."""
    shown = desk_of(request).shown
    if error is not None:
        issues = ordered_issues(error.issues)
    else:
        issues = [] if outcome is None else outcome.warnings
    errors = [issue for issue in issues if issue.severity == "error"]
    warnings = [issue for issue in issues if issue.severity != "error"]
    lines = [] if outcome is None else [shown(line) for line in outcome.lines]
    check = options.dry_run
    digests = [] if inbox is None else list(dict.fromkeys(s.digest for s in good or inbox.sent))
    until = kept_until(desk_of(request).inbox, digests[0]) if check and digests else None
    return page(
        request,
        "sent.html",
        status=400 if error is not None else 200,
        title="Files checked" if check else ("Files refused" if error else "Files added"),
        check=check,
        errors=[shown(issue) for issue in errors],
        warnings=[shown(issue) for issue in warnings],
        lines=[line for line in lines if line],
        digests=digests,
        names=[] if inbox is None else [sent.name for sent in good or inbox.sent],
        good=[sent.name for sent in good],
        until=until,
        options=options,
        kinds=KINDS,
        undo=(added := not check and error is None and outcome is not None),
        undoes=latest_change(desk_of(request).db) if added else None,
    )


async def confirm_remove(request: Request) -> HTMLResponse:
    """What removing the event would take away (a dry run), and the button that does it."""
    desk = desk_of(request)
    key = request.path_params["key"]
    preview = await call(_removal, key, desk)
    return confirm(
        request,
        f"Remove {key}",
        preview,
        action=f"/events/{quote(key, safe='')}/remove",
        note="The event's games and the players only it brought are taken out of the "
        "database; its file stays where it is. Undo this, on the next page, puts it back.",
        back="/events",
    )


def _removal(key: str, desk: Desk, *, dry_run: bool = True) -> Outcome:
    try:
        return monthly.remove_event(key, db=desk.db, wait=desk.wait, dry_run=dry_run)
    except RatingBatchError as error:
        if not str(error).startswith("no event "):
            raise
        raise UserError(str(error), 404) from None


async def remove(request: Request) -> HTMLResponse:
    desk = desk_of(request)
    posted_form = await posted(request)
    posted_form.close()
    key = request.path_params["key"]
    outcome = await call(_removal, key, desk, dry_run=False)
    return done(request, f"Removed {key}", outcome)


ROUTES = [
    Route("/events", list_events, methods=["GET"]),
    Route("/events", send_events, methods=["POST"]),
    Route("/events/{key:path}/remove", confirm_remove, methods=["GET"]),
    Route("/events/{key:path}/remove", remove, methods=["POST"]),
]
