"""Players: ``GET /players?name=TEXT`` (as ``player --name``), ``GET /players/<ID>`` (the
player's page, as ``player ID --out`` writes it: made in a temporary folder, which is
removed; the database is only read), and ``GET``/``POST /players/<ID>/edit`` (as
``edit-player ID``: what the database knows of him corrected; its box ``force`` as
``--force``)."""

from __future__ import annotations

import html
import re
import tempfile
from pathlib import Path
from urllib.parse import quote

from markupsafe import Markup
from starlette.requests import Request
from starlette.responses import HTMLResponse
from starlette.routing import Route

from rating_batch import monthly
from rating_batch.errors import RatingBatchError
from rating_batch.terminal import terminal_text
from rating_batch.web.pages import UserError, call, desk_of, done, page, posted

#: A player's id in the text ``player --name`` prints: ``FIDE ID 123`` or ``(n1#7)``.
_IDS = re.compile(r"FIDE ID (\d+)|no FIDE ID \(([^)]+)\)")


def _linked(text: str) -> Markup:
    """The text, escaped, with each player's id a link to his page."""

    def link(match: re.Match[str]) -> str:
        label = match[1] or match[2]  # escaped already, as the whole text
        address = f"/players/{quote(html.unescape(label), safe='')}"
        linked = match[0].replace(label, f'<a href="{address}">{label}</a>')
        return f'{linked} · <a href="{address}/edit">correct</a>'

    return Markup(_IDS.sub(link, html.escape(text)))


async def find(request: Request) -> HTMLResponse:
    desk = desk_of(request)
    name = request.query_params.get("name", "")
    found = None
    if name.strip():
        try:
            # Names as the terminal shows them: a bidi control as its code point.
            found = _linked(terminal_text(await call(monthly.find_players, name, db=desk.db)))
        except RatingBatchError as error:
            if "no player" not in str(error):
                raise
            raise UserError(str(error), 404) from None
    return page(request, "players.html", title="Players", name=name, found=found)


def _player_page(label: str, db: Path) -> str:
    with tempfile.TemporaryDirectory(prefix="rating-batch-desk-") as folder:
        monthly.player_report(label, db=db, out=Path(folder))
        written = next(Path(folder).glob("player-*.html"))
        return written.read_text(encoding="utf-8")


async def player(request: Request) -> HTMLResponse:
    desk = desk_of(request)
    label = request.path_params["player"]
    try:
        text = await call(_player_page, label, desk.db)
    except RatingBatchError as error:
        if not str(error).startswith("no "):
            raise
        raise UserError(str(error), 404) from None
    # The page's links lead to the event pages of the published lists (``/lists/``); a way
    # back to the desk above it (the page is the one ``player --out`` writes, without one).
    text = text.replace("<head>", '<head>\n<base href="/lists/">', 1)
    text = re.sub(r"(<body[^>]*>)", rf"\1\n{_BACK}", text, count=1)
    return HTMLResponse(text)


#: The desk's way back on a player's page (absolute: the page's base is ``/lists/``).
_BACK = (
    '<nav class="screen" aria-label="desk"><a href="/players">← the players</a> · '
    '<a href="/">the database</a></nav>'
)


#: The fields of the correction form: (field, label, what ``PlayerEdit`` takes).
FIELDS = (
    ("name", "Name (Surname, Given)", str),
    ("federation", "Federation (three letters)", str),
    ("sex", "Sex (m or w)", str),
    ("birth_year", "Birth year", int),
    ("fide_id", "FIDE ID (one received later)", int),
    (
        "national_id",
        "National id (the federation's own: ZPS-Mgl or PKZ, US Chess id, ECF code)",
        str,
    ),
)


async def edit_form(request: Request) -> HTMLResponse:
    label = request.path_params["player"]
    return page(request, "edit.html", title=f"Correct player {label}", player=label,
                fields=FIELDS)  # fmt: skip


async def edit(request: Request) -> HTMLResponse:
    desk = desk_of(request)
    label = request.path_params["player"]
    form = await posted(request)
    form.close()
    given: dict[str, object] = {}
    for field, title, kind in FIELDS:
        value = (form.get(field) or "").strip()
        if not value:
            continue
        try:
            given[field] = kind(value)
        except ValueError:
            raise UserError(f"{title}: {value!r} is not a number") from None
    correction = monthly.PlayerEdit(**given)  # type: ignore[arg-type]
    force = bool(form.get("force"))
    outcome = await call(
        monthly.edit_player, label, correction, db=desk.db, wait=desk.wait, force=force
    )
    return done(request, f"Corrected {label}", outcome)


ROUTES = [
    Route("/players", find, methods=["GET"]),
    Route("/players/{player:path}/edit", edit_form, methods=["GET"]),
    Route("/players/{player:path}/edit", edit, methods=["POST"]),
    Route("/players/{player:path}", player, methods=["GET"]),
]
