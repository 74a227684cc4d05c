"""What every route of the desk shares: its settings, the pages (the project's templates,
``templates/desk/``), a library call run off the event loop, the ``csrf`` check of a form,
and an error a user can cause turned into a page with the message and a way back."""

from __future__ import annotations

import functools
import os
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData
from starlette.requests import Request
from starlette.responses import HTMLResponse

from rating_batch.errors import RatingBatchError
from rating_batch.monthly.common import Outcome
from rating_batch.store import DatabaseProblem
from rating_batch.web.security import COOKIE, Guard
from rating_batch.writers.html import render

T = TypeVar("T")

#: Form fields a desk form has at most (the upload form's files are counted apart).
MAX_FIELDS = 20


@dataclass(frozen=True)
class Desk:
    """One desk: the database, the folder publish writes to, how long a write waits for
    another one's lock (as ``--wait``), and who may use it."""

    db: Path
    out: Path
    guard: Guard
    wait: float

    @property
    def inbox(self) -> Path:
        """Where the files sent are kept once added (``uploads``): ``<db>.inbox/``."""
        return self.db.with_name(f"{self.db.name}.inbox")

    def shown(self, text: object) -> str:
        """A message with each file sent named as it was sent: without its folder in the
        inbox (``<db>.inbox/<SHA-256>/``)."""
        inbox = re.escape(f"{self.inbox}{os.sep}")
        return re.sub(rf"{inbox}[0-9a-f]{{64}}{re.escape(os.sep)}", "", str(text))


class UserError(RatingBatchError):
    """A request the desk refuses, with its HTTP status (400, 403, 404, 409)."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


def desk_of(request: Request) -> Desk:
    desk: Desk = request.app.state.desk
    return desk


def page(request: Request, template: str, *, status: int = 200, **context: Any) -> HTMLResponse:
    """A page of ``templates/desk/`` with what every page needs (the form's ``csrf``, the
    database's name, the menu)."""
    desk = desk_of(request)
    text = render(
        f"desk/{template}",
        csrf=desk.guard.csrf(request.cookies.get(COOKIE)),
        database=desk.db.name,
        here=request.url.path,
        body_class="desk",
        **context,
    )
    return HTMLResponse(text, status_code=status)


#: The files of a list linked first, in this order; the others follow by name.
FIRST = ("list.csv", "list.xlsx", "list.txt", "report.xlsx", "changes.csv", "index.html")


def file_order(path: str) -> tuple[str, int, str]:
    """A published file's place among its list's links (``KIND/NAME``)."""
    kind, _, name = path.partition("/")
    return kind, FIRST.index(name) if name in FIRST else len(FIRST), name


def done(
    request: Request,
    title: str,
    outcome: Outcome,
    *,
    files: Sequence[tuple[str, str]] = (),
    undo: str | None = None,
) -> HTMLResponse:
    """What a command did: its lines and warnings as the command prints them; with
    ``files``, links to those written (address, name); with ``undo``, the period a button
    unpublishes."""
    return page(
        request,
        "done.html",
        title=title,
        lines=[desk_of(request).shown(line) for line in outcome.lines if line],
        warnings=[desk_of(request).shown(issue) for issue in outcome.warnings],
        files=sorted(files, key=lambda link: file_order(link[1])),
        undo=undo,
    )


async def call(function: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """A library function, on a worker thread (it reads files and waits for locks)."""
    return await run_in_threadpool(functools.partial(function, *args, **kwargs))


async def posted(request: Request, *, max_files: int = 0) -> FormData:
    """The form of a POST, refused (403, nothing done) without this run's ``csrf`` field."""
    try:
        form = await request.form(max_files=max_files, max_fields=MAX_FIELDS)
    except Exception as error:  # the multipart parser's own refusals (too many parts, …)
        raise UserError(f"the form could not be read: {error}") from None
    if not desk_of(request).guard.csrf_ok(form.get("csrf"), request.cookies.get(COOKIE)):
        await form.close()
        raise UserError(
            "the form is not one this desk gave (its csrf field is missing or from an earlier "
            "run): nothing was changed; open the page again and repeat",
            403,
        )
    return form


def status_of(error: RatingBatchError) -> int:
    """409 when another writer holds the database, else the error's own status or 400."""
    if isinstance(error, UserError):
        return error.status
    text = str(error)
    if isinstance(error, DatabaseProblem) and "is busy" in text:
        return 409
    return 400


#: Where the way back from an error leads, by the first part of the path.
BACK = {"events": "/events", "players": "/players", "backups": "/backups", "restore": "/backups"}


def error_page(request: Request, message: str, status: int) -> HTMLResponse:
    """The message (a line each), the status, and a way back."""
    first = request.url.path.strip("/").split("/")[0]
    return page(
        request,
        "error.html",
        status=status,
        title={403: "Refused", 404: "Not found", 409: "Busy"}.get(status, "Cannot do that"),
        lines=desk_of(request).shown(message).splitlines(),
        back=BACK.get(first, "/"),
    )
