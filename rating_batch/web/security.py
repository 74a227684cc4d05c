"""Who may use the desk (docs/desk.md §2): the machine itself when it listens on the loopback
interface only, else whoever gives the token (a login form sets a cookie); every POST carries
the ``csrf`` field the page gave; on the loopback interface, only requests naming a loopback
host (a web page elsewhere cannot reach the desk through a name it controls)."""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import secrets
from dataclasses import dataclass, field

from rating_batch.errors import RatingBatchError

#: The cookie the login form sets: a value made from the token, never the token itself.
COOKIE = "rating_batch_desk"
#: The names a loopback desk answers to (with any port).
LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "[::1]", "::1"})


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

    def __post_init__(self) -> None:
        if not is_loopback(self.host) and not self.token:
            raise RatingBatchError(
                f"--host {self.host}: other machines could reach the desk; give --token TEXT "
                "(or $RATING_BATCH_TOKEN), or leave --host at 127.0.0.1"
            )

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
