"""The desk served by uvicorn until Ctrl-C (a request in progress finishes first: a write
commits or rolls back as a command's does)."""

from __future__ import annotations

import contextlib
import socket
from collections.abc import Callable
from pathlib import Path

import uvicorn

from rating_batch import monthly
from rating_batch.web.app import create_app
from rating_batch.web.security import Guard

#: Seconds a request in progress has to finish after Ctrl-C.
GRACE = 60


def serve_desk(
    db: Path,
    out: Path,
    *,
    host: str,
    port: int,
    token: str | None,
    wait: float,
    say: Callable[[str], None],
) -> None:
    """Check the database (a missing or foreign one is refused here), then serve; ``say``
    prints the address to open."""
    guard = Guard(host, token)
    monthly.database_overview(db)
    listening = listen(host, port)
    bound = listening.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    config = uvicorn.Config(
        create_app(db, out, guard, wait=wait),
        log_level="warning",
        access_log=False,
        timeout_graceful_shutdown=GRACE,
    )
    say(f"the desk of {db} is at http://{shown}:{bound}/ (Ctrl-C ends it)")
    # uvicorn raises Ctrl-C again once every request in progress has finished.
    with contextlib.suppress(KeyboardInterrupt):
        uvicorn.Server(config).run(sockets=[listening])
    say("the desk is closed")


def listen(host: str, port: int) -> socket.socket:
    """The desk's socket (port 0: a free one), bound before the address is printed."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    return socket.create_server((host, port), family=family)
