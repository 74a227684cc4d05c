"""``GET /lists/<YYYY-MM>/<kind>/<file>``: a published file, byte for byte as published.

Only a file the database says the publish of that period wrote is served, and it is served
from the copy the database keeps of it (``Store.published_file``): nothing of the request
reaches the file system; the period must be a month and the kind a list kind, else 404."""

from __future__ import annotations

import re

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from rating_batch import monthly
from rating_batch.periods import PeriodError, canonical_period
from rating_batch.systems.elo.rules import KINDS
from rating_batch.web.pages import UserError, call, desk_of

#: Media types by suffix; anything else is sent as bytes to save.
MEDIA = {
    ".csv": "text/csv; charset=utf-8",
    ".txt": "text/plain; charset=utf-8",
    ".html": "text/html; charset=utf-8",
    ".xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
}
#: A path in a period's kind folder: names joined by ``/``, none empty, hidden or ``..``.
_PATH = re.compile(r"(?:[^/\\\x00-\x1f.][^/\\\x00-\x1f]*/)*[^/\\\x00-\x1f.][^/\\\x00-\x1f]*")


async def published_file(request: Request) -> Response:
    desk = desk_of(request)
    period, kind, name = (request.path_params[p] for p in ("period", "kind", "file"))
    try:
        month = canonical_period(period)
    except PeriodError:
        raise UserError(f"{period!r} is not a period (YYYY-MM)", 404) from None
    if kind not in KINDS:
        raise UserError(f"{kind!r} is not a list kind ({', '.join(KINDS)})", 404)
    if not _PATH.fullmatch(name):
        raise UserError(f"no published file {name!r}", 404)
    data = await call(monthly.published_file, desk.db, month, f"{kind}/{name}")
    if data is None:
        raise UserError(f"no file {kind}/{name} was published for {month} in {desk.db.name}", 404)
    suffix = name[name.rfind(".") :].lower() if "." in name else ""
    media = MEDIA.get(suffix, "application/octet-stream")
    headers = {}
    if suffix != ".html":
        shown = name.rsplit("/", 1)[-1].encode("ascii", "replace").decode().replace('"', "")
        headers["Content-Disposition"] = f'attachment; filename="{month}-{kind}-{shown}"'
    return Response(data, media_type=media, headers=headers)


ROUTES = [Route("/lists/{period}/{kind}/{file:path}", published_file, methods=["GET"])]
