"""The first page, with no database at ``--db`` yet (spec/desk.md §3): ``GET /`` offers to
make it from a rating list, ``POST /init`` makes it as ``init`` does (fields ``list``,
``period``, ``rules`` or ``rules_file``, ``kind``, ``csrf``). The list and a rules file are
streamed into the database's folder for the ``init`` and removed after it; what ``init``
keeps (the players, the rules file's text) is in the database."""

from __future__ import annotations

import threading
from pathlib import Path

from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route

from rating_batch import monthly
from rating_batch.loaders.ratinglist import MAX_LIST_BYTES
from rating_batch.monthly.init import rule_choices
from rating_batch.pipelines.seam import Outcome
from rating_batch.portable import replace
from rating_batch.systems.elo.rules import FIDE_BY_DATE, KINDS
from rating_batch.web.forms import MAX_FIELD_BYTES, Received
from rating_batch.web.pages import UserError, call, desk_of, done, page, posted
from rating_batch.web.uploads import received

#: One database made at a time in this desk: a second "Make the database" (another tab, a
#: double click) waits for the first, then is told the database exists.
_ONE_INIT = threading.Lock()


def first_page(request: Request, *, status: int = 200, **given: str) -> HTMLResponse:
    """The form that makes the database (``given``: the values sent before a refusal)."""
    return page(
        request,
        "setup.html",
        status=status,
        title="A new rating database",
        choices=rule_choices(),
        default=FIDE_BY_DATE,
        kinds=KINDS,
        given=given,
    )


async def init(request: Request) -> Response:
    desk = desk_of(request)
    if desk.has_database:
        raise UserError(
            f"{desk.db.name} exists already: the desk never makes a database over another",
            409,
        )
    form = await posted(request, files=2, file_bytes=MAX_LIST_BYTES)
    try:
        lists = form.files_of("list")
        if len(lists) != 1:
            raise UserError("choose the rating list the database starts from (one file)")
        period = (form.get("period") or "").strip() or None
        kind = (form.get("kind") or "").strip() or None
        if kind is not None and kind not in KINDS:
            raise UserError(f"no list kind {kind!r}: standard, rapid or blitz")
        rules, text = (form.get("rules") or FIDE_BY_DATE).strip(), None
        rules_files = form.files_of("rules_file")
        if rules_files:
            rules, text = _rules_file(rules_files[0])
        elif rules not in {name for name, _, _ in rule_choices()}:
            # Only the names the page offers: never a path of the server read as rules.
            raise UserError(f"no rules named {rules!r}: choose one of the list, or send a file")
        list_path = _named(lists[0])
        outcome = await call(_made, desk.db, desk.wait, list_path, kind, period, rules, text)
    finally:
        form.close()
    return done(request, "Database made", outcome, undo=False, next_step=True)


def _made(
    db: Path, wait: float, list_path: Path, kind: str | None, period: str | None, rules: str,
    text: str | None,
) -> Outcome:  # fmt: skip
    """``init``, one at a time in this desk, refused when the database was made meanwhile."""
    if not _ONE_INIT.acquire(timeout=wait):
        raise UserError("the database is being made from another page: wait, then reload", 409)
    try:
        if db.exists() or db.is_symlink():
            raise UserError(f"{db.name} exists already: it was made meanwhile", 409)
        return monthly.init_database(
            list_path, db=db, kind=kind, period=period, rules_name=rules, rules_text=text
        )
    finally:
        _ONE_INIT.release()


def _named(sent: Received) -> Path:
    """A file streamed in, under its name as sent (its format is told by its ending), in
    the folder of the form's files."""
    (checked,) = received([sent])
    path = sent.path.parent / checked.name
    replace(sent.path, path)
    return path


def _rules_file(sent: Received) -> tuple[str, str]:
    """A rules file sent: its name (as the database records it) and its text."""
    (checked,) = received([sent])
    if not checked.name.lower().endswith(".toml"):
        raise UserError(f"{checked.name}: a rules file is a .toml file")
    if sent.size > MAX_FIELD_BYTES:
        raise UserError(f"{checked.name}: a rules file is at most {MAX_FIELD_BYTES:,} bytes")
    try:
        return checked.name, sent.path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise UserError(f"{checked.name}: a rules file is UTF-8 text") from None


ROUTES = [Route("/init", init, methods=["POST"])]
