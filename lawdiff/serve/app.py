"""The web application: one Starlette app over the workspace and the store.

Routes are few and named one by one (:func:`create_app`); their endpoints
are :class:`Server`'s, gathered from :mod:`~lawdiff.serve.signin`,
:mod:`~lawdiff.serve.views` and :mod:`~lawdiff.serve.writes` over the guards
of :mod:`~lawdiff.serve.endpoints`, each with the action it asks for.  Every
request's Host is checked first (:class:`AllowedHosts`); every response
carries the protective headers (:class:`SecurityHeaders`); sessions are the
server's (:mod:`~lawdiff.serve.sessions`).
"""

from __future__ import annotations

import socket
from collections.abc import Awaitable, Callable

from starlette.applications import Starlette
from starlette.datastructures import MutableHeaders
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from lawdiff.i18n import gettext as _
from lawdiff.serve import pages
from lawdiff.serve.auth import Action
from lawdiff.serve.config import ServeConfig
from lawdiff.serve.endpoints import BODY_MAX
from lawdiff.serve.language import ROUTE as LANGUAGE_ROUTE
from lawdiff.serve.language import Language
from lawdiff.serve.signin import SignIn
from lawdiff.serve.state import Workspace
from lawdiff.serve.views import Views
from lawdiff.serve.writes import Writes, status_asked


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


class AllowedHosts:
    """Refuse a request whose Host is not one of this server's names, before anything else (400).

    A page on another site can make its own name resolve to 127.0.0.1 (DNS
    rebinding) and then read and write as a browser on this machine would,
    with its Origin matching its Host.  Only the names a member types reach
    the app: the loopback names, ``--host`` (and this machine's name when it
    is every address), and each ``--allowed-host``.
    """

    def __init__(self, app: ASGIApp, allowed: frozenset[str]) -> None:
        self.app = app
        self.allowed = allowed

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            host = ""
            for key, value in scope.get("headers", ()):
                if key == b"host":
                    host = value.decode("latin-1")
                    break
            if host_name(host) not in self.allowed:
                said = "lawdiff serve: " + _(
                    "this server does not answer to the host name {name!r}; its operator may add it with "
                    "--allowed-host NAME"
                ).format(name=host_name(host))
                said += "\n"
                await PlainTextResponse(said, 400)(scope, receive, send)
                return
        await self.app(scope, receive, send)


def host_name(header: str) -> str:
    """The name of a Host header, without its port: ``[::1]:8000`` is ``::1``, ``Laptop.:80`` is ``laptop``."""
    name = header.strip().lower()
    if name.startswith("["):
        name = name[1 : name.find("]")] if "]" in name else ""
    elif name.count(":") == 1:
        name = name.split(":", 1)[0]
    return name.rstrip(".")


def allowed_hosts(config: ServeConfig) -> frozenset[str]:
    names = {"localhost", "127.0.0.1", "::1", config.host, *config.allowed_hosts}
    if config.host in ("0.0.0.0", "::", ""):
        # Every address of this machine: its name is what start-up tells the others to open.
        names |= {socket.gethostname(), socket.getfqdn()}
    return frozenset(host_name(n) for n in names if n)


class Server(SignIn, Views, Writes):
    """The endpoints, over one workspace: signing in, the pages, the writes (each a class over
    :class:`~lawdiff.serve.endpoints.Endpoints`, whose guards and workspace they share)."""


def create_app(config: ServeConfig, workspace: Workspace | None = None) -> Starlette:
    """The application: routes, their permissions, the Host check, the protective headers."""
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
        ("/api/updates", "GET", Action.READ, s.page(s.updates)),
        ("/export", "GET", Action.READ, s.page(s.minutes)),
        ("/assets/{name}", "GET", None, s.asset),
        # Browsers ask for it on every site; there is none (and no 404 in their console).
        ("/favicon.ico", "GET", None, _no_icon),
        ("/signin", "GET", None, s.signin_form),
        ("/signin", "POST", None, s.signin),
        (LANGUAGE_ROUTE, "GET", None, s.language),
        ("/signout", "POST", Action.READ, s.post(s.signout, Action.READ)),
        ("/signout/everyone", "POST", Action.SIGN_OUT_ALL, s.post(s.signout_all, Action.SIGN_OUT_ALL)),
        ("/review/status", "POST", "by status", s.post(w(s.set_status), status_asked)),
        ("/review/comment", "POST", Action.COMMENT, s.post(w(s.comment), Action.COMMENT)),
        ("/review/assign", "POST", Action.ASSIGN, s.post(w(s.assign), Action.ASSIGN)),
        ("/review/undo", "POST", Action.UNDO, s.post(w(s.undo), Action.UNDO)),
        ("/review/comment/edit", "POST", Action.COMMENT, s.post(w(s.comment_edit), Action.COMMENT)),
        ("/review/comment/delete", "POST", Action.COMMENT, s.post(w(s.comment_delete), Action.COMMENT)),
        ("/review/correct", "POST", Action.CORRECT, s.post(w(s.correct), Action.CORRECT)),
        ("/review/unpin", "POST", Action.CORRECT, s.post(w(s.unpin), Action.CORRECT)),
        ("/meeting/start", "POST", Action.MEETING, s.post(s.meeting_start, Action.MEETING)),
        ("/meeting/end", "POST", Action.MEETING, s.post(s.meeting_end, Action.MEETING)),
        ("/meeting/discuss", "POST", Action.MEETING, s.post(w(s.discuss), Action.MEETING)),
        ("/agenda/order", "POST", Action.ORDER, s.post(s.agenda_order, Action.ORDER)),
    ]
    routes = [Route(path, endpoint, methods=[method]) for path, method, _, endpoint in rules]
    middleware = [Middleware(AllowedHosts, allowed=allowed_hosts(config)), Middleware(Language, choose=s.language_of)]
    if config.forwarded_allow_ips:
        # Behind a reverse proxy: its X-Forwarded-For is the member's address (the sign-in
        # throttle's), its X-Forwarded-Proto the scheme (the Origin check's).
        middleware.append(Middleware(ProxyHeadersMiddleware, trusted_hosts=config.forwarded_allow_ips))
    middleware.append(Middleware(SecurityHeaders))
    app = Starlette(routes=routes, middleware=middleware, max_body_size=BODY_MAX)
    app.state.workspace = ws
    app.state.server = s
    app.state.rules = {(path, method): action for path, method, action, _ in rules}
    return app


async def _no_icon(_request: Request) -> Response:
    return Response(status_code=204)
