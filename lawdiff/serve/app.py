"""The web application: one Starlette app over the workspace and the store.

Routes are few and named one by one (:func:`create_app`); their endpoints
are :class:`Server`'s, gathered from :mod:`~lawdiff.serve.signin`,
:mod:`~lawdiff.serve.views` and :mod:`~lawdiff.serve.writes` over the guards
of :mod:`~lawdiff.serve.endpoints`.  Every response carries the protective
headers (:class:`SecurityHeaders`); the session is a signed cookie.
"""

from __future__ import annotations

import secrets

from starlette.applications import Starlette
from starlette.datastructures import MutableHeaders
from starlette.middleware import Middleware
from starlette.middleware.sessions import SessionMiddleware
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
from lawdiff.serve.writes import Writes

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
    routes = [
        Route("/", s.page(s.root)),
        Route("/index.html", s.page(s.index)),
        Route("/articles/{file}", s.page(s.article)),
        Route("/agenda", s.page(s.agenda)),
        Route("/meeting", s.page(s.meeting)),
        Route("/people", s.page(s.person)),
        Route("/next", s.page(s.next_)),
        Route("/api/now", s.page(s.now)),
        Route("/assets/{name}", s.asset),
        # Browsers ask for it on every site; there is none (and no 404 in their console).
        Route("/favicon.ico", lambda _request: Response(status_code=204)),
        Route("/signin", s.signin_form, methods=["GET"]),
        Route("/signin", s.signin, methods=["POST"]),
        Route("/signout", s.post(s.signout), methods=["POST"]),
        Route("/review/status", s.post(w(s.set_status)), methods=["POST"]),
        Route("/review/comment", s.post(w(s.comment), Action.COMMENT), methods=["POST"]),
        Route("/review/assign", s.post(w(s.assign), Action.ASSIGN), methods=["POST"]),
        Route("/review/correct", s.post(w(s.correct), Action.CORRECT), methods=["POST"]),
        Route("/review/unpin", s.post(w(s.unpin), Action.CORRECT), methods=["POST"]),
        Route("/meeting/start", s.post(s.meeting_start, Action.MEETING), methods=["POST"]),
        Route("/meeting/end", s.post(s.meeting_end, Action.MEETING), methods=["POST"]),
        Route("/meeting/discuss", s.post(w(s.discuss), Action.MEETING), methods=["POST"]),
    ]
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
    return app
