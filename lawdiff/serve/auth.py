"""Signing in, the session, the forgery token, and who may do what: in one place.

A member signs in with a name and the committee's shared password (on the
loopback address without a password: a name only).  The session is a signed
cookie (Starlette's ``SessionMiddleware``: HttpOnly, SameSite=Strict, Secure
under HTTPS) holding the name and a token that every form carries and every
POST must give back; a POST whose Origin (or ``Sec-Fetch-Site``) is another
site is refused as well.  Failed sign-ins are counted per client and refused
for a while past a limit.  Permissions are decided here (:func:`may`), not
in each view.
"""

from __future__ import annotations

import enum
import hmac
import secrets
import threading
import time
import unicodedata
from collections import deque
from collections.abc import Callable, Mapping

from lawdiff.review import Status
from lawdiff.serve.config import NAME_MAX

SESSION_NAME = "name"
SESSION_TOKEN = "csrf"
TOKEN_FIELD = "csrf"
TOKEN_HEADER = "x-csrf-token"


class Action(enum.Enum):
    """What a member may ask for."""

    COMMENT = "comment"
    ASSIGN = "assign"
    QUERY = "query"  # set the status to query (or back to open)
    DECIDE = "decide"  # accept, reject, translation-fix
    CORRECT = "correct"  # pin, forbid, unpin
    MEETING = "meeting"  # start or end a meeting, set "now discussing"


# What everyone may do; the rest is the chairs'.
MEMBER_ACTIONS = frozenset({Action.COMMENT, Action.ASSIGN, Action.QUERY})
# Statuses a member who is not a chair may set.
MEMBER_STATUSES = frozenset({Status.OPEN, Status.QUERY})


def may(chair: bool, action: Action) -> bool:
    return chair or action in MEMBER_ACTIONS


def status_action(status: Status) -> Action:
    return Action.QUERY if status in MEMBER_STATUSES else Action.DECIDE


def password_ok(given: str, expected: str | None) -> bool:
    """Constant-time comparison; without a password any (empty) password passes."""
    if expected is None:
        return True
    return hmac.compare_digest(given.encode("utf-8"), expected.encode("utf-8"))


def clean_name(raw: str) -> str | None:
    """A member's name as the store records it, or None when it is not a usable name.

    White space is collapsed; control and format characters (a terminal
    escape, a right-to-left override) are refused rather than stored.
    """
    name = " ".join(unicodedata.normalize("NFC", raw).split())
    if not name or len(name) > NAME_MAX:
        return None
    if any(unicodedata.category(c) in ("Cc", "Cf", "Cs", "Co", "Cn") for c in name):
        return None
    return name


def new_token() -> str:
    return secrets.token_urlsafe(32)


def token_ok(session_token: str | None, given: str | None) -> bool:
    if not session_token or not given:
        return False
    return hmac.compare_digest(session_token.encode("ascii", "replace"), given.encode("ascii", "replace"))


def same_origin(headers: Mapping[str, str], scheme: str) -> bool:
    """Whether a POST comes from the app's own pages, by its Origin and Sec-Fetch-Site headers.

    A browser sends Origin with every POST; a request without one (a script,
    an old browser) is judged by its forgery token alone.
    """
    site = headers.get("sec-fetch-site")
    if site is not None and site not in ("same-origin", "none"):
        return False
    origin = headers.get("origin")
    if origin is None:
        return True
    host = headers.get("host", "")
    return origin in (f"{scheme}://{host}",)


class Throttle:
    """Failed sign-ins per client: at most ``limit`` within ``window`` seconds."""

    def __init__(self, limit: int, window: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.limit = limit
        self.window = window
        self.clock = clock
        self._failures: dict[str, deque[float]] = {}
        self._lock = threading.Lock()

    def _recent(self, client: str) -> deque[float]:
        now = self.clock()
        q = self._failures.setdefault(client, deque())
        while q and now - q[0] > self.window:
            q.popleft()
        return q

    def wait(self, client: str) -> float:
        """Seconds the client must wait before trying again (0: it may try now)."""
        with self._lock:
            q = self._recent(client)
            if len(q) < self.limit:
                return 0.0
            return max(1.0, self.window - (self.clock() - q[0]))

    def failed(self, client: str) -> None:
        with self._lock:
            self._recent(client).append(self.clock())
            # A flood of clients must not grow the table without end.
            if len(self._failures) > 10_000:
                for key in [k for k, v in self._failures.items() if not v][:5_000]:
                    del self._failures[key]

    def succeeded(self, client: str) -> None:
        with self._lock:
            self._failures.pop(client, None)
