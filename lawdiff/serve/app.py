"""The web application: one Starlette app over the workspace and the store.

Routes are few and named one by one (:func:`create_app`); their endpoints
are :class:`Server`'s, gathered from :mod:`~lawdiff.serve.signin`,
:mod:`~lawdiff.serve.views` and :mod:`~lawdiff.serve.writes` over the guards
of :mod:`~lawdiff.serve.endpoints`.  Every response carries the protective
headers (:class:`SecurityHeaders`); the session is a signed cookie.
"""

from __future__ import annotations

import secrets
from collections.abc import Awaitable, Callable

from starlette.applications import Starlette
from starlette.datastructures import MutableHeaders
from starlette.middleware import Middleware
from starlette.middleware.sessions import SessionMiddleware
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from lawdiff.serve import pages
from lawdiff.serve.auth import Action
from lawdiff.serve.config import ServeConfig
from lawdiff.serve.endpoints import BODY_MAX
from lawdiff.serve.signin import SignIn
from lawdiff.serve.state import Workspace
from lawdiff.serve.views import Views
from lawdiff.serve.writes import Writes, status_asked

COOKIE = "lawdiff_session"
SESSION_HOURS = 12


class SecurityHeaders:
    """The policy and the other protective headers, on every response."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                headers["Content-Security-Policy"] = pages.HEADER_POLICY
                headers["X-Content-Type-Options"] = "nosniff"
                headers["X-Frame-Options"] = "DENY"
                headers["Referrer-Policy"] = "same-origin"
                headers["Cross-Origin-Opener-Policy"] = "same-origin"
                # An unpublished draft: nothing is kept by the browser or a proxy.
                headers["Cache-Control"] = "no-store"
            await send(message)

        await self.app(scope, receive, send_with_headers)


class Server(SignIn, Views, Writes):
    """The endpoints, over one workspace: signing in, the pages, the writes (each a class over
    :class:`~lawdiff.serve.endpoints.Endpoints`, whose guards and workspace they share)."""


def create_app(config: ServeConfig, workspace: Workspace | None = None, secret: str | None = None) -> Starlette:
    """The application: routes, the session cookie, the protective headers."""
    ws = workspace or Workspace(config)
    s = Server(config, ws)
    w = s.write
    # Every route with what it asks for: the one place where the server's permissions
    # (lawdiff.serve.auth.RULES) are attached; None is open before signing in.
    # A GET page is Action.READ (s.page checks it); a POST names its action to s.post.
    rules: list[tuple[str, str, Action | str | None, Callable[[Request], Awaitable[Response]]]] = [
        ("/", "GET", Action.READ, s.page(s.root)),
        ("/index.html", "GET", Action.READ, s.page(s.index)),
        ("/articles/{file}", "GET", Action.READ, s.page(s.article)),
        ("/agenda", "GET", Action.READ, s.page(s.agenda)),
        ("/meeting", "GET", Action.READ, s.page(s.meeting)),
        ("/people", "GET", Action.READ, s.page(s.person)),
        ("/next", "GET", Action.READ, s.page(s.next_)),
        ("/api/now", "GET", Action.READ, s.page(s.now)),
        ("/assets/{name}", "GET", None, s.asset),
        # Browsers ask for it on every site; there is none (and no 404 in their console).
        ("/favicon.ico", "GET", None, _no_icon),
        ("/signin", "GET", None, s.signin_form),
        ("/signin", "POST", None, s.signin),
        ("/signout", "POST", Action.READ, s.post(s.signout, Action.READ)),
        ("/review/status", "POST", "by status", s.post(w(s.set_status), status_asked)),
        ("/review/comment", "POST", Action.COMMENT, s.post(w(s.comment), Action.COMMENT)),
        ("/review/assign", "POST", Action.ASSIGN, s.post(w(s.assign), Action.ASSIGN)),
        ("/review/correct", "POST", Action.CORRECT, s.post(w(s.correct), Action.CORRECT)),
        ("/review/unpin", "POST", Action.CORRECT, s.post(w(s.unpin), Action.CORRECT)),
        ("/meeting/start", "POST", Action.MEETING, s.post(s.meeting_start, Action.MEETING)),
        ("/meeting/end", "POST", Action.MEETING, s.post(s.meeting_end, Action.MEETING)),
        ("/meeting/discuss", "POST", Action.MEETING, s.post(w(s.discuss), Action.MEETING)),
    ]
    routes = [Route(path, endpoint, methods=[method]) for path, method, _, endpoint in rules]
    middleware = [
        Middleware(SecurityHeaders),
        Middleware(
            SessionMiddleware,
            secret_key=secret or secrets.token_hex(32),
            session_cookie=COOKIE,
            max_age=SESSION_HOURS * 3600,
            same_site="strict",
            https_only=config.https,
        ),
    ]
    app = Starlette(routes=routes, middleware=middleware, max_body_size=BODY_MAX)
    app.state.workspace = ws
    app.state.server = s
    app.state.rules = {(path, method): action for path, method, action, _ in rules}
    return app


async def _no_icon(_request: Request) -> Response:
    return Response(status_code=204)
