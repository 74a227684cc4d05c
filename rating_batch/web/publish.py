"""Publishing: ``GET /publish/<YYYY-MM>`` (the preview, as ``publish --dry-run``),
``POST /publish/<YYYY-MM>`` (``publish``, then links to the files written) and
``POST /unpublish/<YYYY-MM>`` (``unpublish``)."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import quote

from starlette.requests import Request
from starlette.responses import HTMLResponse
from starlette.routing import Route

from rating_batch import monthly
from rating_batch.periods import canonical_period
from rating_batch.web.pages import call, desk_of, done, page, posted


async def preview(request: Request) -> HTMLResponse:
    desk = desk_of(request)
    period = canonical_period(request.path_params["period"])
    options = monthly.PublishOptions(dry_run=True, wait=desk.wait)
    result = await call(monthly.publish_period, period, db=desk.db, out=desk.out, options=options)
    return page(
        request,
        "preview.html",
        title=f"Publish {period}?",
        period=str(period),
        lines=[desk.shown(line) for line in result.lines],
        warnings=[desk.shown(issue) for issue in result.warnings],
    )


async def publish(request: Request) -> HTMLResponse:
    desk = desk_of(request)
    await (await posted(request)).close()
    period = canonical_period(request.path_params["period"])
    options = monthly.PublishOptions(wait=desk.wait)
    result = await call(monthly.publish_period, period, db=desk.db, out=desk.out, options=options)
    folder = desk.out / str(period)
    links = [_link(str(period), path, folder) for path in result.outputs]
    return done(request, f"Published {period}", result, files=links, undo=str(period))


def _link(period: str, path: Path, folder: Path) -> tuple[str, str]:
    """A written file as (its desk address, its path in the period's folder)."""
    inside = path.relative_to(folder).as_posix()
    return f"/lists/{period}/{quote(inside)}", inside


async def unpublish(request: Request) -> HTMLResponse:
    desk = desk_of(request)
    await (await posted(request)).close()
    period = canonical_period(request.path_params["period"])
    outcome = await call(monthly.unpublish_period, period, db=desk.db, wait=desk.wait)
    return done(request, f"Unpublished {period}", outcome)


ROUTES = [
    Route("/publish/{period}", preview, methods=["GET"]),
    Route("/publish/{period}", publish, methods=["POST"]),
    Route("/unpublish/{period}", unpublish, methods=["POST"]),
]
