"""Sessions kept by the server: signing out ends one everywhere, idle ones expire, a chair ends them all.

The browser holds a random token in an HttpOnly, SameSite=Strict cookie; the
server keeps only the token's SHA-256, with the member's name, the session's
forgery token and when it started and was last used.  A copied cookie stops
working the moment its session is signed out, has been idle for
``--session-idle`` (2 hours by default), or is 12 hours old, whichever comes
first.  Sessions live in the server's memory: never in the review store,
never exported, imported or written to its log; a restart signs everyone
out (as the store's decisions, they are not).
"""

from __future__ import annotations

import hashlib
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, replace

COOKIE = "lawdiff_session"
# Before signing in: the sign-in form's forgery token, a cookie of its own.
SIGNIN_COOKIE = "lawdiff_signin"
# The language a browser chose before signing in (the sign-in page's own link); signing in takes it
# into the session.
LANGUAGE_COOKIE = "lawdiff_lang"
# The longest a session lasts, however busy.
LONGEST = 12 * 3600.0
# A session unused for this long ends (``--session-idle``).
IDLE = 2 * 3600.0
# Sessions kept at most: a flood of sign-ins must not grow the table without end.
KEPT = 10_000


@dataclass(frozen=True, slots=True)
class Session:
    """A signed-in member: their name, the forgery token every form carries, when it started and was last
    used, and the interface language they chose ("": none chosen, the browser's Accept-Language decides)."""

    name: str
    csrf: str
    started: float
    seen: float
    lang: str = ""


def digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


class Sessions:
    """The server's sessions by the hash of their token."""

    def __init__(self, idle: float = IDLE, longest: float = LONGEST, clock: Callable[[], float] = time.monotonic):
        self.idle = idle
        self.longest = longest
        self.clock = clock
        self._by_hash: dict[str, Session] = {}
        self._lock = threading.Lock()

    def start(self, name: str, lang: str = "") -> tuple[str, Session]:
        """A new session for ``name`` (in ``lang``, if chosen): the token for the cookie (not kept) and the session."""
        token = secrets.token_urlsafe(32)
        now = self.clock()
        session = Session(name, secrets.token_urlsafe(32), now, now, lang)
        with self._lock:
            self._forget_expired(now)
            if len(self._by_hash) >= KEPT:
                oldest = min(self._by_hash, key=lambda k: self._by_hash[k].seen)
                del self._by_hash[oldest]
            self._by_hash[digest(token)] = session
        return token, session

    def find(self, token: str | None) -> Session | None:
        """The live session of a cookie's token (its use noted), or None: unknown, signed out or expired."""
        if not token:
            return None
        key = digest(token)
        now = self.clock()
        with self._lock:
            session = self._by_hash.get(key)
            if session is None:
                return None
            if self._expired(session, now):
                del self._by_hash[key]
                return None
            session = self._by_hash[key] = replace(session, seen=now)
        return session

    def language(self, token: str | None) -> str:
        """The language the session of a cookie's token chose ("": none, or no live session); its use not noted."""
        if not token:
            return ""
        with self._lock:
            session = self._by_hash.get(digest(token))
        return session.lang if session is not None and not self._expired(session, self.clock()) else ""

    def choose_language(self, token: str | None, lang: str) -> None:
        """The session of a cookie's token speaks ``lang`` from now on (nothing when it has none)."""
        if not token:
            return
        key = digest(token)
        with self._lock:
            session = self._by_hash.get(key)
            if session is not None:
                self._by_hash[key] = replace(session, lang=lang)

    def end(self, token: str | None) -> None:
        if token:
            with self._lock:
                self._by_hash.pop(digest(token), None)

    def end_all(self, keep: str | None = None) -> int:
        """End every session but ``keep``'s (a token); how many were ended."""
        kept = digest(keep) if keep else None
        with self._lock:
            ended = [k for k in self._by_hash if k != kept]
            for k in ended:
                del self._by_hash[k]
        return len(ended)

    def count(self) -> int:
        with self._lock:
            self._forget_expired(self.clock())
            return len(self._by_hash)

    def stored(self) -> tuple[str, ...]:
        """What is kept of the tokens (their hashes), for the tests."""
        with self._lock:
            return tuple(self._by_hash)

    def _expired(self, session: Session, now: float) -> bool:
        return now - session.seen > self.idle or now - session.started > self.longest

    def _forget_expired(self, now: float) -> None:
        for k in [k for k, s in self._by_hash.items() if self._expired(s, now)]:
            del self._by_hash[k]
