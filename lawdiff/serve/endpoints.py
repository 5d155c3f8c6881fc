"""The guards every endpoint passes, and what the endpoints share.

Every page but the sign-in page needs a signed-in member
(:meth:`Endpoints.page`); every POST needs the session's forgery token and an
Origin of the app's own, and what a member may do is decided by
:func:`lawdiff.serve.auth.may` (:meth:`Endpoints.post`).  The work of a
request (reading the corpus state, the store, rendering) runs in
Starlette's thread pool; each thread has its own store connection.  A
request refused gets, when the page's script sent it (header
``X-Lawdiff-Fetch: 1``), JSON saying why; without the script, a page.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from typing import Any
from urllib.parse import quote

from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData
from starlette.requests import HTTPConnection, Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response

from lawdiff import i18n
from lawdiff.errors import LawdiffError, UsageError
from lawdiff.i18n import N_
from lawdiff.i18n import gettext as _
from lawdiff.report.html.markup import Markup
from lawdiff.review import Entry, ReviewView, State, Status
from lawdiff.serve import pages
from lawdiff.serve.auth import (
    TOKEN_FIELD,
    TOKEN_HEADER,
    Action,
    Throttle,
    may,
    same_origin,
    token_ok,
)
from lawdiff.serve.config import ServeConfig
from lawdiff.serve.controls import BlockCache, RowContext, review_block
from lawdiff.serve.language import accepted
from lawdiff.serve.sessions import COOKIE, LANGUAGE_COOKIE, Session, Sessions
from lawdiff.serve.state import Located, Snapshot, Workspace

DISCUSSING = "discussing"
BODY_MAX = 256 * 1024
FETCH_HEADER = "x-lawdiff-fetch"
_LOCAL = re.compile(r"^/(?!/)[A-Za-z0-9._~/?=&%#:+-]*$")


def local(url: str, default: str = "/agenda") -> str:
    """``url`` when it is a path of this app (never another site: ``//host``, ``\\``, a scheme), else ``default``."""
    return url if url and _LOCAL.match(url) and "\\" not in url else default


class Refused(Exception):
    """A request refused with a status code and a message to the member."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


class Endpoints:
    """What the endpoints share: the workspace, the guards, the sign-in throttle, the rendered review blocks."""

    def __init__(self, config: ServeConfig, workspace: Workspace) -> None:
        self.config = config
        self.ws = workspace
        self.throttle = Throttle(config.login_attempts, config.login_wait_max)
        self.sessions = Sessions(config.session_idle)
        self.blocks = BlockCache()
        # The server's own language (``lawdiff --lang nl serve``): a member's whose browser names none of lawdiff's.
        self.lang = i18n.checked(config.lang, "language") if config.lang else i18n.language()

    def current(self, request: Request) -> Session | None:
        """The request's live session (kept on ``request.state.session``), or None."""
        session = self.sessions.find(request.cookies.get(COOKIE))
        request.state.session = session
        return session

    def language_of(self, conn: HTTPConnection) -> str:
        """The language a request is answered in: its session's choice, the browser's choice before signing
        in, its Accept-Language, the server's (see :mod:`lawdiff.serve.language`)."""
        chosen = self.sessions.language(conn.cookies.get(COOKIE)) or i18n.normalize(
            conn.cookies.get(LANGUAGE_COOKIE, "")
        )
        return chosen or accepted(conn.headers.get("accept-language"), self.lang)

    # -- the guards -------------------------------------------------------

    def page(self, render: Callable[[Request, str], Response]) -> Callable[[Request], Awaitable[Response]]:
        """A GET endpoint for signed-in members; others are sent to the sign-in page."""

        async def endpoint(request: Request) -> Response:
            session = self.current(request)
            if session is None:
                wanted = request.url.path + (f"?{request.url.query}" if request.url.query else "")
                return RedirectResponse(f"/signin?next={quote(wanted, safe='/')}", 303)
            name = session.name
            if not may(self.chair(name), Action.READ):
                return self._refuse(request, 403, refusal(Action.READ))
            return await run_in_threadpool(self._guarded, request, lambda: render(request, name))

        return endpoint

    def post(
        self, handle: Callable[[Request, str, FormData], Response], need: Action | Callable[[FormData], Action]
    ) -> Callable[[Request], Awaitable[Response]]:
        """A POST endpoint: same origin, the session's token, a signed-in member allowed ``need`` (an
        action, or what the form asks for: the status form's action depends on the status sent)."""

        async def endpoint(request: Request) -> Response:
            if not same_origin(request.headers, request.url.scheme):
                return self._refuse(request, 403, _("This form was sent from another site: refused."))
            form = await request.form(max_files=0, max_fields=40, max_part_size=BODY_MAX)
            session = self.current(request)
            if session is None:
                return self._refuse(
                    request, 403, _("You are signed out (signed out, idle too long, or by a chair): sign in again.")
                )
            given = form.get(TOKEN_FIELD) or request.headers.get(TOKEN_HEADER)
            if not token_ok(session.csrf, given if isinstance(given, str) else None):
                return self._refuse(
                    request,
                    403,
                    _("The form's security token is missing or out of date: reload the page and try again."),
                )
            name = session.name
            action = need if isinstance(need, Action) else need(form)
            if not may(self.chair(name), action):
                return self._refuse(request, 403, refusal(action))
            return await run_in_threadpool(self._guarded, request, lambda: handle(request, name, form))

        return endpoint

    def _guarded(self, request: Request, work: Callable[[], Response]) -> Response:
        try:
            return work()
        except Refused as exc:
            return self._refuse(request, exc.status, exc.message)
        except UsageError as exc:
            # A request the review cannot take: what happened, without the command line's
            # "fix" (it names commands; the page's buttons are the member's way).
            return self._refuse(request, 400, exc.what[:1].upper() + exc.what[1:] + ".")
        except LawdiffError as exc:
            # The corpus or the store cannot be read now (a file half saved,
            # the store locked): say so, and try again on the next request.
            return self._refuse(request, 503, exc.message())

    def _refuse(self, request: Request, status: int, message: str) -> Response:
        if request.headers.get(FETCH_HEADER) == "1":
            return JSONResponse({"ok": False, "message": message}, status)
        session: Session | None = getattr(request.state, "session", None)
        back = local(str(request.headers.get("referer", "")).split(request.url.netloc, 1)[-1], "/agenda")
        if session is None:
            refused = pages.message_page(_("Refused"), pages.anonymous_bar(back), message, back="/signin")
            return HTMLResponse(refused, status)
        bar = self._bar(request, session.name, None)
        return HTMLResponse(pages.message_page(_("Not done"), bar, message, back=back), status)

    def fresh_block(
        self, request: Request, name: str, snap: Snapshot, found: Located, page: str
    ) -> tuple[Markup, Status]:
        """The review block of one change as the store holds it now, and its status: the answer to
        the member's own write (the other pages get it from ``/api/updates``)."""
        store = self.ws.store()
        comp, ch = found.comparison, found.change
        decided = store.decision(ch.id)
        if decided is not None:
            # The row alone: its own decision and thread, read alone (matching every
            # decision of the run to its change after each write would make writers queue).
            entry = Entry(ch.id, (comp.old, comp.new), State.CURRENT, decided, tuple(store.thread(ch.id)))
            corrections = tuple(c for c in store.corrections() if c.pair == (comp.old, comp.new))
            view = ReviewView({ch.id: entry}, (), (), (), {}, corrections, ())
        else:
            _version, view = self.ws.review(snap)
        deciders = store.deciders(ch.id)
        mark = store.mark(DISCUSSING)
        ctx = RowContext(
            view,
            deciders,
            self.chair(name),
            page,
            mark.value if mark else "",
            store.open_meeting() is not None,
            session_token(request),
            viewer=name,
            row_writes=store.row_writes(ch.id),
        )
        return review_block(ch, comp.old, comp.new, ctx), view.entry(ch.id).status

    def chair(self, name: str) -> bool:
        return self.config.is_chair(name)

    def _bar(self, request: Request, name: str, snap: Snapshot | None, version: int | None = None) -> Any:
        now = None
        if snap is not None:
            now = pages.now_of(self.ws.store().mark(DISCUSSING), snap)
        return pages.bar(name, self.chair(name), now, session_token(request), version, here(request))


# What a member who is not a chair is told when the server refuses an action (the buttons for it are not shown).
_REFUSALS = {
    Action.DECIDE: N_("Only the chairs may accept, reject or mark a translation fix; you may query it."),
    Action.REOPEN: N_("Only the chairs may reopen a change; you may query it."),
    Action.CORRECT: N_("Only the chairs may pin, forbid or remove a hand correction."),
    Action.MEETING: N_("Only the chairs may start or end the meeting and mark what it discusses."),
    Action.ORDER: N_("Only the chairs may choose the agenda's order."),
    Action.UNDO_ANY: N_("Only the chairs may undo what someone else wrote."),
    Action.SIGN_OUT_ALL: N_("Only the chairs may sign everyone out."),
}


def refusal(action: Action) -> str:
    found = _REFUSALS.get(action)
    return _(found) if found else _("You may not do that ({action}).").format(action=action.value)


def here(request: Request) -> str:
    """The page a request shows, for its language link to come back to: a GET's own path, else the page
    the form was sent from (a refusal, a confirmation), else the agenda."""
    if request.method == "GET" and not request.url.path.startswith("/api/"):
        return local(request.url.path + (f"?{request.url.query}" if request.url.query else ""), "/agenda")
    return local(str(request.headers.get("referer", "")).split(request.url.netloc, 1)[-1], "/agenda")


def session_token(request: Request) -> str:
    """The forgery token of the request's session (the guards found it)."""
    session: Session = request.state.session
    return session.csrf


def set_cookie(response: Response, config: ServeConfig, name: str, value: str, max_age: int | None) -> None:
    """A cookie of the app's: HttpOnly, SameSite=Strict, Secure under HTTPS."""
    response.set_cookie(name, value, max_age=max_age, path="/", secure=config.https, httponly=True, samesite="strict")
