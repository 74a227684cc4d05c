"""Publishing: ``GET /publish/<YYYY-MM>`` (the preview, as ``publish --dry-run``, naming the
new players and the largest changes as ``changes.csv`` will), ``POST /publish/<YYYY-MM>``
(``publish``, then the files written and where the web site is), ``GET /unpublish/<YYYY-MM>``
(what would be withdrawn, and a button), ``POST /unpublish/<YYYY-MM>`` (``unpublish``, then
the web site written again without the list) and ``POST /site`` (``site``)."""

from __future__ import annotations

from collections.abc import Hashable
from pathlib import Path
from urllib.parse import quote

import pandas as pd
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.routing import Route

from rating_batch import monthly
from rating_batch.errors import Issue, RatingBatchError
from rating_batch.periods import canonical_period
from rating_batch.pipelines.seam import Outcome
from rating_batch.web.pages import Desk, call, confirm, desk_of, done, page, posted

#: Rows of each part of the preview's changes (the whole list is changes.csv's).
SHOWN_CHANGES = 15


async def preview(request: Request) -> Response:
    desk = desk_of(request)
    period = canonical_period(request.path_params["period"])
    overview = await call(monthly.database_overview, desk.db)
    if overview.last is not None and str(overview.last) == period:
        # Published already: its files are on the first page; nothing to preview.
        return RedirectResponse("/", status_code=303)
    options = monthly.PublishOptions(dry_run=True, wait=desk.wait)
    result = await call(monthly.publish_period, period, db=desk.db, out=desk.out, options=options)
    return page(
        request,
        "preview.html",
        title=f"Publish {period}?",
        period=str(period),
        lines=[desk.shown(line) for line in result.lines],
        warnings=[desk.shown(issue) for issue in result.warnings],
        changes={kind: _named(frame) for kind, frame in result.changes.items()},
        shown=SHOWN_CHANGES,
    )


def _named(changes: pd.DataFrame) -> dict[str, list[dict[Hashable, object]]]:
    """The changes the preview names, by part: new players, players leaving the list, the
    rating changes (largest first, as ``changes.csv`` orders them)."""
    shown = changes.astype(object).where(changes.notna(), "")
    return {
        change: shown[shown["change"] == change].to_dict("records")
        for change in ("new", "left", "rating")
    }


async def publish(request: Request) -> HTMLResponse:
    desk = desk_of(request)
    (await posted(request)).close()
    period = canonical_period(request.path_params["period"])
    options = monthly.PublishOptions(wait=desk.wait, site_warns=True)
    result = await call(monthly.publish_period, period, db=desk.db, out=desk.out, options=options)
    folder = desk.out / str(period)
    links = [_link(str(period), path, folder) for path in result.outputs]
    return done(request, f"Published {period}", result, files=links, site=True)


def _link(period: str, path: Path, folder: Path) -> tuple[str, str]:
    """A written file as (its desk address, its path in the period's folder)."""
    inside = path.relative_to(folder).as_posix()
    return f"/lists/{period}/{quote(inside)}", inside


async def confirm_unpublish(request: Request) -> HTMLResponse:
    """What unpublishing would withdraw (a dry run), and the button that does it."""
    desk = desk_of(request)
    period = canonical_period(request.path_params["period"])
    preview = await call(monthly.unpublish_period, period, db=desk.db, wait=desk.wait, dry_run=True)
    return confirm(
        request,
        f"Unpublish {period}",
        preview,
        action=f"/unpublish/{period}",
        note=f"The published list of {period} is withdrawn: the database goes back to how it "
        f"was before that publish, and the web site in {desk.out / 'site'} is written again "
        "without it. Its events stay added, waiting to be published again. Undo this, on the "
        "next page, publishes it back as it was.",
        back="/",
    )


async def unpublish(request: Request) -> HTMLResponse:
    desk = desk_of(request)
    (await posted(request)).close()
    period = canonical_period(request.path_params["period"])
    outcome = await call(_withdrawn, desk, period)
    return done(request, f"Unpublished {period}", outcome, site=True)


def _withdrawn(desk: Desk, period: str) -> Outcome:
    """``unpublish``, then the web site written again without the withdrawn list."""
    outcome = monthly.unpublish_period(period, db=desk.db, wait=desk.wait)
    return site_again(desk, outcome, f"it still shows the withdrawn list of {period}")


def site_again(desk: Desk, outcome: Outcome, stale: str) -> Outcome:
    """``outcome`` with the web site written again from the database (``site``) after it; a
    site that cannot be written is a warning saying what it still shows (``stale``): the
    change before it stands."""
    try:
        outcome.lines.append(monthly.site_from_database(desk.db, desk.out, desk.wait))
    except RatingBatchError as error:
        outcome.warnings.insert(
            0, Issue("web site", None, f"not written again, so {stale}: {error}", "warning")
        )
    return outcome


async def write_site(request: Request) -> HTMLResponse:
    desk = desk_of(request)
    (await posted(request)).close()
    outcome = await call(site_again, desk, Outcome(), "it is as it was")
    return done(request, "Web site", outcome, site=True, undo=False)


ROUTES = [
    Route("/publish/{period}", preview, methods=["GET"]),
    Route("/publish/{period}", publish, methods=["POST"]),
    Route("/unpublish/{period}", confirm_unpublish, methods=["GET"]),
    Route("/unpublish/{period}", unpublish, methods=["POST"]),
    Route("/site", write_site, methods=["POST"]),
]
