"""The desk's web application (``rating-batch serve``, docs/desk.md): the routes of each
module, who may use them (``security.Guard``), and every error a user can cause answered
with a page (the message and a way back), never a traceback."""

from __future__ import annotations

import logging
from pathlib import Path

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from rating_batch.errors import RatingBatchError, describe_os_error
from rating_batch.web import backups, events, home, lists, players, publish, setup
from rating_batch.web.forms import body_limit
from rating_batch.web.pages import Desk, error_page, status_of
from rating_batch.web.security import COOKIE, Guard, same_site

LOGGER = logging.getLogger(__name__)

#: Sent with every answer: no page of the desk in another site's frame, no script at all,
#: forms only to the desk itself, nothing kept in the browser's cache.
HEADERS = {
    "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' "
    "data:; form-action 'self'; frame-ancestors 'none'; base-uri 'self'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}


def create_app(db: Path, out: Path, guard: Guard, *, wait: float) -> Starlette:
    """The desk over the database ``db``, publishing to ``out``."""
    app = Starlette(
        routes=[
            *home.ROUTES,
            *setup.ROUTES,
            *events.ROUTES,
            *publish.ROUTES,
            *lists.ROUTES,
            *players.ROUTES,
            *backups.ROUTES,
        ],
        middleware=[Middleware(_Guarded)],
        exception_handlers={
            RatingBatchError: _user_error,
            OSError: _refused,
            HTTPException: _http_error,
            Exception: _bug,
        },
    )
    app.state.desk = Desk(db, out, guard, wait)
    return app


async def _user_error(request: Request, error: Exception) -> Response:
    assert isinstance(error, RatingBatchError)
    return error_page(request, str(error), status_of(error))


async def _refused(request: Request, error: Exception) -> Response:
    """What the machine refused (a full disk, a folder without access): said as the commands
    say it (without the server's folders); the change was rolled back."""
    assert isinstance(error, OSError)
    return error_page(request, describe_os_error(error), 500)


async def _http_error(request: Request, error: Exception) -> Response:
    assert isinstance(error, HTTPException)
    messages = {404: f"no page {request.url.path!r} on this desk", 405: "not a way to ask for it"}
    return error_page(request, messages.get(error.status_code, error.detail), error.status_code)


async def _bug(request: Request, error: Exception) -> Response:
    """A bug: its traceback goes to the log of ``serve``, the page says so."""
    LOGGER.error("the desk failed on %s %s", request.method, request.url.path, exc_info=error)
    return error_page(
        request,
        "the desk met an error it does not know (a bug: its details are printed in the window "
        "where the desk was started); a change in progress was rolled back",
        500,
    )


#: The pages that need no database: the first page (which makes it) and the login.
WITHOUT_DATABASE = frozenset({"/", "/init", "/login"})


class _Guarded:
    """Every request checked before its route, and before a byte of its body is read: the
    Host it names, then the login, then (a POST) that another site's page did not send it
    and that its declared size is within the route's limit; a page that needs the database
    while there is none leads to the first page, which makes it."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        request = Request(scope, receive)
        guard: Guard = request.app.state.desk.guard
        answer: Response | None = None
        if not guard.host_ok(request.headers.get("host")):
            answer = error_page(
                request,
                "this desk answers only to 127.0.0.1 or localhost: open it at the address "
                "it printed when it started",
                400,
            )
        elif not guard.signed_in(request.cookies.get(COOKIE)) and request.url.path != "/login":
            if request.method == "GET":
                answer = RedirectResponse("/login", status_code=303)
            else:
                answer = error_page(request, "sign in first: nothing was done", 403)
        elif request.method == "POST":
            answer = _post_refused(request)
        if answer is None and not _may_go(request):
            answer = (
                RedirectResponse("/", status_code=303)
                if request.method == "GET"
                else error_page(
                    request, "there is no rating database yet: make it on the first page", 409
                )
            )
        if answer is not None:
            _secured(answer)
            await answer(scope, receive, send)
            return

        async def sending(message: Message) -> None:
            if message["type"] == "http.response.start":
                present = {name.lower() for name, _ in message.get("headers", [])}
                message["headers"] = [
                    *message.get("headers", []),
                    *(
                        (name.lower().encode(), value.encode())
                        for name, value in HEADERS.items()
                        if name.lower().encode() not in present
                    ),
                ]
            await send(message)

        await self.app(scope, receive, sending)


def _may_go(request: Request) -> bool:
    """Whether the page asked for is there: any page once the database is, else only the
    pages that need none."""
    return bool(request.app.state.desk.has_database) or request.url.path in WITHOUT_DATABASE


def _post_refused(request: Request) -> Response | None:
    """A POST another site's page sent (its ``Origin`` or ``Sec-Fetch-Site``), or one
    declaring more bytes than its route takes: refused before its body is read."""
    if not same_site(request.headers.get("origin"), request.headers.get("sec-fetch-site"),
                     request.headers.get("host")):  # fmt: skip
        return error_page(
            request, "the form was sent by another web site's page: nothing was done", 403
        )
    limit = body_limit(request.url.path)
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        return error_page(
            request,
            f"the form is {int(declared):,} bytes, over the {limit:,} this page takes: nothing "
            "was read or done",
            413,
        )
    return None


def _secured(answer: Response) -> None:
    for name, value in HEADERS.items():
        answer.headers.setdefault(name, value)
