"""What every route of the desk shares: its settings, the pages (the project's templates,
``templates/desk/``), a library call run off the event loop, the ``csrf`` check of a form,
and an error a user can cause turned into a page with the message and a way back."""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse

from rating_batch.errors import RatingBatchError, errors_only
from rating_batch.pipelines.seam import Outcome
from rating_batch.store import DatabaseProblem
from rating_batch.web.forms import Form, FormRefused, Limits, read_form
from rating_batch.web.security import COOKIE, Guard
from rating_batch.web.wording import for_the_desk
from rating_batch.writers.html import render

T = TypeVar("T")


@dataclass(frozen=True)
class Desk:
    """One desk: the database, the folder publish writes to, how long a write waits for
    another one's lock (as ``--wait``), and who may use it."""

    db: Path
    out: Path
    guard: Guard
    wait: float

    @property
    def has_database(self) -> bool:
        """Whether anything is at ``db`` (a file that is no database is refused as the
        commands refuse it, never made anew)."""
        return self.db.exists() or self.db.is_symlink()

    @property
    def inbox(self) -> Path:
        """Where the files sent are kept once added (``uploads``): ``<db>.inbox/``."""
        return self.db.with_name(f"{self.db.name}.inbox")

    def shown(self, text: object) -> str:
        """A message as a desk page shows it (``wording``): each file named as it was sent,
        without a folder of the server, the desk's buttons for the commands' words."""
        return for_the_desk(str(text))


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
    """A published file's place among its list's links (``KIND/NAME``): the list's files
    first, then the others by name, the event pages (a folder of their own) last."""
    kind, _, name = path.partition("/")
    place = FIRST.index(name) if name in FIRST else len(FIRST) + ("/" in name)
    return kind, place, name


def done(
    request: Request,
    title: str,
    outcome: Outcome,
    *,
    files: Sequence[tuple[str, str]] = (),
    site: bool = False,
    undo: bool = True,
    **context: Any,
) -> HTMLResponse:
    """What a command did: its lines and warnings; with ``files``, links to those written
    (address, name), with ``site`` where the web site is; with ``undo`` (every change), the
    **Undo this** button (``POST /restore`` of ``latest``)."""
    desk = desk_of(request)
    lines = [desk.shown(line) for line in outcome.lines if line]
    return page(
        request,
        "done.html",
        undoes=latest_change(desk.db) if undo else None,
        title=title,
        lines=[line for line in lines if line],
        errors=[desk.shown(issue) for issue in errors_only(outcome.warnings)],
        warnings=[desk.shown(i) for i in outcome.warnings if i.severity != "error"],
        files=sorted(files, key=lambda link: file_order(link[1])),
        site=desk.out / "site" if site else None,
        out=desk.out,
        undo=undo,
        **({"next_step": False} | context),
    )


def confirm(
    request: Request, title: str, preview: Outcome, *, action: str, note: str, back: str
) -> HTMLResponse:
    """A change asked first: what it would do (``preview``, its dry run), what it means
    (``note``), the button that posts to ``action`` (named as the page), a way back."""
    return page(
        request,
        "confirm.html",
        title=f"{title}?",
        lines=[desk_of(request).shown(line) for line in preview.lines if line],
        warnings=[],
        action=action,
        button=title,
        note=note,
        back=back,
    )


def latest_change(db: Path) -> str | None:
    """The journal entry of the change just made: **Undo this** names it, so that pressing it
    twice (or again after going back) goes back to the same state, never undoing the undo."""
    from rating_batch import monthly

    commands, _ = monthly.restore_points(db)
    return commands[0].name if commands else None


async def call(function: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """A library function, on a worker thread (it reads files and waits for locks)."""
    return await run_in_threadpool(functools.partial(function, *args, **kwargs))


async def posted(request: Request, *, files: int = 0, file_bytes: int = 0) -> Form:
    """The form of a POST, refused (403, nothing done) without this run's ``csrf`` field,
    which is checked before any file is read; at most ``files`` files of ``file_bytes``
    each, streamed into the database's inbox folder (``Form.close`` removes what is left)."""
    desk = desk_of(request)
    cookie = request.cookies.get(COOKIE)
    limits = Limits(files, file_bytes, desk.inbox if files else None)
    return await read_form(request, limits, lambda given: desk.guard.csrf_ok(given, cookie))


def status_of(error: RatingBatchError) -> int:
    """409 when another writer holds the database, else the error's own status or 400."""
    if isinstance(error, UserError | FormRefused):
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
