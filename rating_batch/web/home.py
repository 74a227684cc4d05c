"""``GET /``: the database at a glance (``monthly.database_overview``), or, with no database
yet, the first page that makes one (``setup``); the login form of a desk that needs a token
(``GET``/``POST /login``)."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.routing import Route

from rating_batch import monthly
from rating_batch.monthly.overview import Overview
from rating_batch.web.pages import UserError, call, desk_of, file_order, page, posted
from rating_batch.web.security import COOKIE
from rating_batch.web.setup import first_page


async def home(request: Request) -> HTMLResponse:
    desk = desk_of(request)
    if not desk.has_database:
        return first_page(request)
    overview = await call(monthly.database_overview, desk.db)
    files = sorted((path for path in overview.files if "/events/" not in path), key=file_order)
    return page(
        request,
        "home.html",
        title="Rating database",
        overview=overview,
        warnings=[
            (desk.shown(warning), _acted_on(warning, overview)) for warning in overview.warnings
        ],
        files=files,
        site=desk.out / "site",
    )


def _acted_on(warning: str, overview: Overview) -> str | None:
    """Where the officer acts on a warning of the first page (officer review L-a)."""
    if warning.endswith("preview and publish it") and overview.next_period is not None:
        return f"/publish/{overview.next_period}"
    if warning.startswith("no whole copy"):
        return "/backups"
    return None


async def login_form(request: Request) -> Response:
    if desk_of(request).guard.token is None:
        return RedirectResponse("/", status_code=303)  # this desk needs no token
    return page(request, "login.html", title="Sign in", status=401)


async def login(request: Request) -> Response:
    desk = desk_of(request)
    form = await posted(request)
    signed = await desk.guard.signs_in(form.get("token"))
    if signed is None:
        raise UserError("too many sign-ins at once: wait a minute, then sign in", 429)
    if not signed:
        raise UserError("that is not this desk's token: nothing was done", 403)
    answer = RedirectResponse("/", status_code=303)
    answer.set_cookie(COOKIE, desk.guard.cookie, httponly=True, samesite="strict", path="/")
    return answer


ROUTES = [
    Route("/", home, methods=["GET"]),
    Route("/login", login_form, methods=["GET"]),
    Route("/login", login, methods=["POST"]),
]
