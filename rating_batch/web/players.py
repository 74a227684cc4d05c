"""Players: ``GET /players?name=TEXT`` (as ``player --name``), ``GET /players/<ID>`` (the
player's page, as ``player ID --out`` writes it: made in a temporary folder, which is
removed; the database is only read), and ``GET``/``POST /players/<ID>/edit`` (as
``edit-player ID``: what the database knows of him corrected; its box ``force`` as
``--force``)."""

from __future__ import annotations

import re
import tempfile
from pathlib import Path
from urllib.parse import quote

from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse
from starlette.routing import Route

from rating_batch import monthly
from rating_batch.errors import RatingBatchError
from rating_batch.monthly.player import MAX_FOUND
from rating_batch.terminal import terminal_text
from rating_batch.web.pages import UserError, call, desk_of, done, page, posted


async def find(request: Request) -> HTMLResponse | RedirectResponse:
    desk = desk_of(request)
    name = request.query_params.get("name", "")
    found, more = None, 0
    if name.strip():
        try:
            players = await call(monthly.players_named, name, db=desk.db)
        except RatingBatchError as error:
            if "no player" not in str(error):
                raise
            raise UserError(str(error), 404) from None
        if len(players) == 1:  # as `player --name`: the one found is shown at once
            return RedirectResponse(f"/players/{quote(players[0].label, safe='')}", 303)
        # Names as the terminal shows them (a bidi control as its code point); each id a
        # link to the player's page, escaped for its address.
        found = [
            (each, terminal_text(each.name), f"/players/{quote(each.label, safe='')}")
            for each in players[:MAX_FOUND]
        ]
        more = len(players) - len(found)
    return page(request, "players.html", title="Players", name=name, found=found, more=more)


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
    back = _BACK.format(edit=f"/players/{quote(label, safe='')}/edit")
    text = re.sub(r"(<body[^>]*>)", lambda found: f"{found[1]}\n{back}", text, count=1)
    return HTMLResponse(text)


#: The desk's way back on a player's page, and to his correction form (absolute: the page's
#: base is ``/lists/``).
_BACK = (
    '<nav class="screen" aria-label="desk"><a href="/players">← the players</a> · '
    '<a href="{edit}">correct</a> · <a href="/">the database</a></nav>'
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
