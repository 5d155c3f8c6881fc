"""Starting and stopping the server: the port bound first, then uvicorn.

Everything that can stop the server is checked before it serves: the
settings (:func:`lawdiff.serve.config.check`), the store (opened, created or
migrated, and written to in a transaction rolled back), the corpus (read, aligned and planned once), and the port (bound
here, so that a port in use is one clear message, not a traceback from
inside uvicorn).  Ctrl-C (SIGINT) or SIGTERM stops uvicorn gracefully: it
stops accepting, lets the requests under way finish, and closes; a write is
one store transaction, so none is left half done.
"""

from __future__ import annotations

import errno
import signal
import socket
import threading
from dataclasses import dataclass
from types import FrameType

import uvicorn

from lawdiff.errors import UsageError
from lawdiff.i18n import gettext as _
from lawdiff.serve.app import create_app
from lawdiff.serve.config import ServeConfig, check, is_loopback
from lawdiff.serve.state import Workspace

# Requests under way get this long to finish after Ctrl-C.
GRACE_SECONDS = 10


@dataclass(frozen=True, slots=True)
class Started:
    """A server ready to run: its bound socket, its URL and what to say at start."""

    config: ServeConfig
    workspace: Workspace
    sock: socket.socket
    url: str
    warnings: tuple[str, ...]


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on ``host:port`` (0: any free port); a port in use is a :class:`UsageError`."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as exc:
        raise UsageError(
            f"--host {host}: {exc.strerror}", fix=_("give an address of this machine, e.g. 127.0.0.1")
        ) from None
    family, kind, proto, _name, address = infos[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(128)
    except OSError as exc:
        sock.close()
        if exc.errno == errno.EADDRINUSE:
            raise UsageError(
                _("port {port} on {host} is in use by another program").format(port=port, host=host),
                fix=_("give another --port, or --port 0 for any free one"),
            ) from None
        if exc.errno in (errno.EACCES, errno.EPERM):
            raise UsageError(
                _("may not listen on port {port} of {host}").format(port=port, host=host),
                fix=_("give a port above 1023"),
            ) from None
        if exc.errno == errno.EADDRNOTAVAIL:
            raise UsageError(
                _("{host} is not an address of this machine").format(host=host), fix=_("give one, e.g. 127.0.0.1")
            ) from None
        raise UsageError(
            _("cannot listen on {host}:{port}: {reason}").format(host=host, port=port, reason=exc.strerror),
            fix=_("give another --host or --port"),
        ) from None
    sock.set_inheritable(True)
    return sock


def prepare(config: ServeConfig) -> Started:
    """Check everything and bind the port; nothing is served yet."""
    warnings = check(config)
    ws = Workspace(config)
    try:
        ws.store().check_writable()  # an unreadable, newer or read-only store stops here
        ws.snapshot()  # so does a corpus that cannot be read
        sock = bind(config.host, config.port)
    except BaseException:
        ws.close()
        raise
    host, port = sock.getsockname()[:2]
    shown = config.host if not is_loopback(config.host) or config.host == "localhost" else host
    if shown in ("0.0.0.0", "::", ""):
        # Every address of this machine: its name is what the others type.
        shown = socket.gethostname()
    if ":" in shown:
        shown = f"[{shown}]"
    scheme = "https" if config.https else "http"
    return Started(config, ws, sock, f"{scheme}://{shown}:{port}/", tuple(warnings))


def make_server(started: Started, log_level: str = "warning") -> uvicorn.Server:
    """The uvicorn server of a prepared start (run it with :func:`serve`, or in a thread in the tests)."""
    config = started.config
    app = create_app(config, started.workspace)
    uv = uvicorn.Config(
        app,
        log_level=log_level,
        access_log=False,
        ssl_certfile=str(config.certfile) if config.certfile else None,
        ssl_keyfile=str(config.keyfile) if config.keyfile else None,
        timeout_graceful_shutdown=GRACE_SECONDS,
        server_header=False,
        proxy_headers=False,
        lifespan="off",
    )
    return uvicorn.Server(uv)


def serve(started: Started, server: uvicorn.Server | None = None) -> None:
    """Run until Ctrl-C (or SIGTERM, or ``server.should_exit``); the port and the store are closed on the way out."""
    server = server or make_server(started)
    main = threading.current_thread() is threading.main_thread()
    if main:
        # uvicorn stops gracefully on either signal, then raises it again once
        # done; SIGTERM's default would then end the process before the store
        # is closed and the stop is said.
        previous = signal.signal(signal.SIGTERM, _interrupt)
    try:
        server.run(sockets=[started.sock])
    except KeyboardInterrupt:
        pass  # raised again by uvicorn after its graceful shutdown: a normal stop
    finally:
        if main:
            signal.signal(signal.SIGTERM, previous)
        started.sock.close()
        started.workspace.close()


def _interrupt(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt
