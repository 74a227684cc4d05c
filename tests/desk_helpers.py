"""Helpers of the desk's tests (rating_batch/web/): a desk over a small database, its pages'
forms and messages."""

from __future__ import annotations

import contextlib
import html
import re
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

from db_helpers import database, event_file
from starlette.testclient import TestClient

from rating_batch.web.app import create_app
from rating_batch.web.security import Guard

#: add's line for jan.trf, which has no time control (TRF tag 122): standard, by default;
#: worded for the desk (the list chosen on the form, not the command's --kind).
ADDED = (
    "jan (jan, 2026-01-10…2026-01-10): standard (no readable time control: choose the list "
    "rapid or blitz for another list), period 2026-02, 2 players"
)
#: What the loaders say of the result 'Q' of round 1 on jan.trf's line 4 (player 1).
BAD_RESULT = (
    "jan.trf:4: round 1: unknown result code 'Q' (TRF codes: 1 = 0 + - W D L H F U Z, or blank)"
)


def broken(event: Path) -> Path:
    """``event`` with player 1's result of round 1 written 'Q' (line 4: after 012, 042, 052)."""
    lines = event.read_text(encoding="utf-8").splitlines()
    assert lines[3].startswith("001    1") and " w 1" in lines[3]
    lines[3] = lines[3].replace(" w 1", " w Q")
    event.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return event


#: Where the tests' desk is, as 'serve' would print it.
BASE = "http://127.0.0.1:8765"


def desk(db: Path, out: Path, *, token: str | None = None, wait: float = 0.2) -> TestClient:
    """A client of a desk over ``db`` publishing to ``out``, on the loopback interface."""
    host = "127.0.0.1" if token is None else "0.0.0.0"
    return TestClient(create_app(db, out, Guard(host, token), wait=wait), base_url=BASE)


def january(folder: Path) -> tuple[Path, Path]:
    """A database of the list 2026-01 (11 at 1600, 12 at 1500) and the event file jan.trf
    of 10 January 2026, not added: 11 beats 12, one game between two players."""
    inbox = folder / "files"
    inbox.mkdir()
    return database(folder), event_file(inbox, "jan", [(1, 1, 2, "1-0")], day="2026/01/10")


def csrf(client: TestClient, path: str = "/events") -> str:
    """The csrf field of the page at ``path``."""
    found = re.search(r'name="csrf" value="([^"]+)"', client.get(path).text)
    assert found is not None, f"no csrf field on {path}"
    return found[1]


def said(page: str) -> str:
    """A page's text without its markup (its entities read)."""
    body = page.split("<body", 1)[-1]
    return html.unescape(re.sub(r"<[^>]+>", "", body))


def send(client: TestClient, *files: Path, check: bool = False, token: str | None = None):
    """POST /events with ``files`` (as a browser sends them) and the page's csrf field."""
    data = {"csrf": token if token is not None else csrf(client, "/events")}
    if check:
        data["check"] = "1"
    sent = [("files", (path.name, path.read_bytes(), "application/octet-stream")) for path in files]
    return client.post("/events", data=data, files=sent)


@contextlib.contextmanager
def serving(db: Path, out: Path, *, wait: float = 5, token: str | None = None) -> Iterator[str]:
    """A desk over ``db`` served by uvicorn on a free port, in a thread, as ``serve`` serves
    it (real sockets, the body in the chunks the network gives): its address."""
    import uvicorn

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = int(probe.getsockname()[1])
    app = create_app(db, out, Guard("127.0.0.1", token), wait=wait)
    server = uvicorn.Server(
        uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", access_log=False)
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert time.monotonic() < deadline, "the desk did not start"
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=30)
