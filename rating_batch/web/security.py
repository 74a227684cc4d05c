"""Who may use the desk (docs/desk.md §2): the machine itself when it listens on the loopback
interface only, else whoever gives the token (a login form sets a cookie); every POST carries
the ``csrf`` field the page gave; on the loopback interface, only requests naming a loopback
host (a web page elsewhere cannot reach the desk through a name it controls)."""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import ipaddress
import secrets
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from rating_batch.errors import RatingBatchError

#: The cookie the login form sets: a value made from the token, never the token itself.
COOKIE = "rating_batch_desk"
#: The names a loopback desk answers to (with any port).
LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "[::1]", "::1"})
#: The shortest token a desk open to other machines takes (a short one falls to guessing).
MIN_TOKEN = 16
#: Seconds a wrong token is answered after; every sign-in is answered one at a time.
LOGIN_DELAY = 1.0
#: Sign-ins waiting their turn at most; more at once are refused (429) without a look.
MAX_WAITING = 4
#: A token's characters must not be fewer than this many different ones ("aaaa…").
MIN_DISTINCT = 8


class _Turns:
    """Sign-ins one at a time: the lock, and how many wait for it."""

    def __init__(self) -> None:
        self.lock = asyncio.Lock()
        self.waiting = 0


def is_loopback(host: str) -> bool:
    """Whether ``host`` (a name or an address) is this machine only."""
    if host.strip("[]") == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


@dataclass(frozen=True)
class Guard:
    """The desk's secrets for one run: a random key made at start (so the pages of an
    earlier run are refused) and the token, when one is needed."""

    host: str
    token: str | None = None
    key: bytes = field(default_factory=lambda: secrets.token_bytes(32), repr=False)

    turns: _Turns = field(default_factory=_Turns, repr=False, compare=False)
    """Sign-ins, one at a time: a guess sent beside others waits for them."""

    def __post_init__(self) -> None:
        if not is_loopback(self.host) and not self.token:
            raise RatingBatchError(
                f"--host {self.host}: other machines could reach the desk; give a token in "
                "$RATING_BATCH_TOKEN or a file (--token-file FILE), or leave --host at 127.0.0.1"
            )
        if self.token is not None and (
            len(self.token.strip()) < MIN_TOKEN or len(set(self.token)) < MIN_DISTINCT
        ):
            raise RatingBatchError(
                f"the token has {len(self.token.strip())} characters ({len(set(self.token))} "
                f"different); a desk open to other machines needs at least {MIN_TOKEN}, of "
                f"{MIN_DISTINCT} different characters or more (a short or plain one falls to "
                "guessing): e.g. "
                'python -c "import secrets; print(secrets.token_urlsafe(24))"'
            )

    async def signs_in(self, given: object) -> bool | None:
        """Whether ``given`` is the token, told one sign-in at a time, a wrong one after
        ``LOGIN_DELAY``: guessing goes at most one try a second, however many are sent at
        once (None: over ``MAX_WAITING`` wait already, refused unread)."""
        if self.turns.waiting >= MAX_WAITING:
            return None
        self.turns.waiting += 1
        try:
            async with self.turns.lock:
                if self.token_ok(given):
                    return True
                await asyncio.sleep(LOGIN_DELAY)
                return False
        finally:
            self.turns.waiting -= 1

    def _sign(self, purpose: str) -> str:
        return hmac.new(self.key, purpose.encode("utf-8"), hashlib.sha256).hexdigest()

    def csrf(self, cookie: str | None) -> str:
        """The hidden ``csrf`` field of the forms of this run, for a browser with this login
        ``cookie`` (none before signing in, or without a token): another browser's field,
        or one of an earlier run, is refused."""
        return self._sign(f"csrf:{cookie or ''}")

    def csrf_ok(self, given: object, cookie: str | None) -> bool:
        return isinstance(given, str) and hmac.compare_digest(given, self.csrf(cookie))

    def token_ok(self, given: object) -> bool:
        return (
            self.token is not None
            and isinstance(given, str)
            and hmac.compare_digest(given.encode("utf-8"), self.token.encode("utf-8"))
        )

    @property
    def cookie(self) -> str:
        """The login cookie's value (the token cannot be read back from it)."""
        return self._sign(f"login:{self.token}")

    def signed_in(self, cookie: str | None) -> bool:
        """Whether a request may be served: no token needed, or the login cookie."""
        if self.token is None:
            return True
        return cookie is not None and hmac.compare_digest(cookie, self.cookie)

    def host_ok(self, host_header: str | None) -> bool:
        """On the loopback interface without a token, only a loopback name in ``Host``."""
        if self.token is not None:
            return True
        if not host_header:
            return False
        name = host_header.rsplit(":", 1)[0] if not host_header.endswith("]") else host_header
        return name in LOOPBACK_NAMES


#: What ``Sec-Fetch-Site`` says of a form the desk's own page sent (``none``: typed or
#: bookmarked).
OWN_SITE = frozenset({"same-origin", "none"})


def same_site(origin: str | None, fetch_site: str | None, host: str | None) -> bool:
    """Whether a POST may come from the desk's own page: a browser that says where it was sent
    from (``Sec-Fetch-Site``, ``Origin``) must say the desk itself. ``Origin: null`` (sent
    under the desk's ``no-referrer`` policy) says nothing either way."""
    if fetch_site is not None and fetch_site.lower() not in OWN_SITE:
        return False
    if origin is None or origin == "null":
        return True
    return urlsplit(origin).netloc.lower() == (host or "").lower()
