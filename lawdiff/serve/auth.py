"""Signing in, the session, the forgery token, and who may do what: in one place.

A member signs in with a name and the committee's shared password (on the
loopback address without a password: a name only).  The session is kept by
the server (:mod:`lawdiff.serve.sessions`); it holds the name and a token that every form carries and every
POST must give back; a POST whose Origin (or ``Sec-Fetch-Site``) is another
site is refused as well.  Failed sign-ins slow the next try from the same
address and name (:class:`Throttle`), never refuse it.  Permissions are decided here (:data:`RULES`,
:func:`may`), not in each view: every route of the app names its
:class:`Action`, and the endpoint guards ask :func:`may`.
"""

from __future__ import annotations

import enum
import hmac
import threading
import time
import unicodedata
from collections.abc import Callable, Mapping

from lawdiff.review import Status
from lawdiff.serve.config import NAME_MAX

TOKEN_FIELD = "csrf"
TOKEN_HEADER = "x-csrf-token"


class Role(enum.Enum):
    """Who a signed-in member is to the server: a chair (``--chairs``, or everyone without it) or a member."""

    MEMBER = "member"
    CHAIR = "chair"


class Action(enum.Enum):
    """What a request asks to do; every route names one (see :data:`RULES` and ``app.ROUTES``)."""

    READ = "read"  # the pages, the live updates, the minutes
    COMMENT = "comment"  # comment; edit and delete one's own comment
    ASSIGN = "assign"
    QUERY = "query"  # set an undecided change to query; ask a question on a decided one
    DECIDE = "decide"  # accept, reject, translation-fix (and so answer a question)
    REOPEN = "reopen"  # set a change back to open
    CORRECT = "correct"  # pin, forbid, unpin
    MEETING = "meeting"  # start or end a meeting, set "now discussing"
    ORDER = "order"  # choose the agenda's order (by article, or most significant first)
    UNDO = "undo"  # take back one's own last write on a row
    UNDO_ANY = "undo-any"  # take back anyone's last write on a row
    SIGN_OUT_ALL = "sign-out-all"  # end every session but one's own


_BOTH = frozenset({Role.MEMBER, Role.CHAIR})
_CHAIRS = frozenset({Role.CHAIR})

# Who may do what: the one table the server consults (the README's "Who may do what" is this).
RULES: dict[Action, frozenset[Role]] = {
    Action.READ: _BOTH,
    Action.COMMENT: _BOTH,
    Action.ASSIGN: _BOTH,
    Action.QUERY: _BOTH,
    Action.UNDO: _BOTH,
    Action.DECIDE: _CHAIRS,
    Action.REOPEN: _CHAIRS,
    Action.CORRECT: _CHAIRS,
    Action.MEETING: _CHAIRS,
    Action.ORDER: _CHAIRS,
    Action.UNDO_ANY: _CHAIRS,
    Action.SIGN_OUT_ALL: _CHAIRS,
}


def role(chair: bool) -> Role:
    return Role.CHAIR if chair else Role.MEMBER


def may(chair: bool, action: Action) -> bool:
    return role(chair) in RULES[action]


def status_action(status: Status) -> Action:
    """What setting ``status`` asks for: query is everyone's, open is reopening, the rest deciding."""
    if status is Status.QUERY:
        return Action.QUERY
    return Action.REOPEN if status is Status.OPEN else Action.DECIDE


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
    """Failed sign-ins, counted per address and per address and name, each failure past the free ones
    making the next try wait twice as long (up to ``longest`` seconds); a success clears them.

    Nothing is ever refused: the right password signs in after the wait, so a
    shared room laptop or a NAT whose neighbour mistyped (or guessed) is slowed,
    never locked out.  Per address and name, one member's typing does not slow
    the others; per address (with more free tries), a guesser who changes the
    name each time is slowed all the same.  Failures are forgotten an hour
    after the last.
    """

    FORGET = 3600.0

    def __init__(
        self, free: int, longest: float, free_per_name: int = 3, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.free = free
        self.free_per_name = free_per_name
        self.longest = longest
        self.clock = clock
        # key -> (failures, time of the last)
        self._failures: dict[tuple[str, str], tuple[int, float]] = {}
        self._lock = threading.Lock()

    def _keys(self, client: str, name: str) -> tuple[tuple[tuple[str, str], int], ...]:
        return (((client, ""), self.free), ((client, name.casefold()), self.free_per_name))

    def _delay(self, failures: int, free: int) -> float:
        over = failures - free
        return 0.0 if over <= 0 else min(self.longest, 2.0 ** (over - 1))

    def wait(self, client: str, name: str) -> float:
        """Seconds this try waits before its password is checked (0: none)."""
        now = self.clock()
        with self._lock:
            waits = [0.0]
            for key, free in self._keys(client, name):
                n, last = self._failures.get(key, (0, now))
                if now - last > self.FORGET:
                    continue
                waits.append(last + self._delay(n, free) - now)
        return max(0.0, max(waits))

    def failed(self, client: str, name: str) -> float:
        """Count a failure; the wait of the next try from this address and name."""
        now = self.clock()
        with self._lock:
            for key, _ in self._keys(client, name):
                n, last = self._failures.get(key, (0, now))
                self._failures[key] = (1 if now - last > self.FORGET else n + 1, now)
            # A flood of names must not grow the table without end.
            if len(self._failures) > 10_000:
                for k in [k for k, (_, last) in self._failures.items() if now - last > 60][:5_000]:
                    del self._failures[k]
        return self.wait(client, name)

    def succeeded(self, client: str, name: str) -> None:
        with self._lock:
            for key, _ in self._keys(client, name):
                self._failures.pop(key, None)
