"""The desk served by uvicorn until Ctrl-C (a request in progress finishes first: a write
commits or rolls back as a command's does)."""

from __future__ import annotations

import contextlib
import socket
import webbrowser
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
    open_browser: bool = False,
) -> None:
    """Check the database (a foreign one is refused here; none yet: the first page makes
    it), then serve; ``say`` prints the address to open, ``open_browser`` opens it."""
    guard = Guard(host, token)
    if db.exists() or db.is_symlink():
        monthly.database_overview(db)
    else:
        say(f"no rating database at {db} yet: the desk's first page makes it from a rating list")
    listening = listen(host, port)
    bound = listening.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    config = uvicorn.Config(
        create_app(db, out, guard, wait=wait),
        log_level="warning",
        access_log=False,
        timeout_graceful_shutdown=GRACE,
    )

    def ready() -> None:
        say(f"the desk of {db} is at http://{shown}:{bound}/ (Ctrl-C ends it)")
        if open_browser:  # a desk on every address is opened on this machine's own
            local = "127.0.0.1" if host in ("0.0.0.0", "::") else shown
            webbrowser.open(f"http://{local}:{bound}/")

    # uvicorn raises Ctrl-C again once every request in progress has finished.
    with contextlib.suppress(KeyboardInterrupt):
        _Desk(config, ready).run(sockets=[listening])
    say("the desk is closed")


class _Desk(uvicorn.Server):
    """uvicorn's server that says where it is once it serves: its Ctrl-C handler is in place
    by then (a Ctrl-C in the moment between an address printed earlier and that handler was
    taken by asyncio's, which cancels the start, and the desk went on serving)."""

    def __init__(self, config: uvicorn.Config, ready: Callable[[], None]) -> None:
        super().__init__(config)
        self._ready = ready

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets=sockets)
        if self.started and not self.should_exit:
            self._ready()


def listen(host: str, port: int) -> socket.socket:
    """The desk's socket (port 0: a free one), bound before the address is printed."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    return socket.create_server((host, port), family=family)
