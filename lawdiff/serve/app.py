"""The web application: one Starlette app over the workspace and the store.

Routes are few and named one by one; nothing is served from a folder, so
no path can reach a file outside the app (an article page is looked up by
its name in the report's plan, an asset by its name in a fixed list).  Every
page but the sign-in page needs a signed-in member; every POST needs the
session's forgery token and an Origin of the app's own; what a member may do
is decided by :func:`lawdiff.serve.auth.may` in :meth:`Server.post`.

The work of a request (reading the corpus state, the store, rendering) runs
in Starlette's thread pool; each thread has its own store connection.  A
form posted by the page's script (header ``X-Lawdiff-Fetch: 1``) gets JSON
with the row's new review block; without the script, a redirect back to the
row (303), or a page saying why nothing was saved.
"""

from __future__ import annotations

import datetime
import re
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import replace
from importlib import resources
from typing import Any
from urllib.parse import quote, urlsplit

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData, MutableHeaders
from starlette.middleware import Middleware
from starlette.middleware.sessions import SessionMiddleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from lawdiff.errors import LawdiffError, UsageError
from lawdiff.report.html import index_page
from lawdiff.report.html.article import article_page
from lawdiff.report.html.history import history_page
from lawdiff.report.html.markup import Markup, h
from lawdiff.report.site import article_file, history_file
from lawdiff.review import CorrectionKind, Entry, ReviewView, State, Status, Store, target
from lawdiff.review import pins as review_pins
from lawdiff.review.targets import Expect, StaleWrite
from lawdiff.serve import pages
from lawdiff.serve.auth import (
    SESSION_NAME,
    SESSION_TOKEN,
    TOKEN_FIELD,
    TOKEN_HEADER,
    Action,
    Throttle,
    clean_name,
    may,
    new_token,
    password_ok,
    same_origin,
    status_action,
    token_ok,
)
from lawdiff.serve.config import ServeConfig
from lawdiff.serve.rows import TOKEN_SLOT, BlockCache, RowContext, fill, review_block, row_anchor, slots
from lawdiff.serve.state import Located, Snapshot, Workspace

DISCUSSING = "discussing"
COOKIE = "lawdiff_session"
SESSION_HOURS = 12
COMMENT_MAX = 20_000
BODY_MAX = 256 * 1024
FETCH_HEADER = "x-lawdiff-fetch"
_LOCAL = re.compile(r"^/(?!/)[A-Za-z0-9._~/?=&%#:+-]*$")
_ASSETS = {
    "report.css": ("lawdiff.report", "text/css; charset=utf-8"),
    "report.js": ("lawdiff.report", "text/javascript; charset=utf-8"),
    "serve.css": ("lawdiff.serve", "text/css; charset=utf-8"),
    "serve.js": ("lawdiff.serve", "text/javascript; charset=utf-8"),
}


def local(url: str, default: str = "/agenda") -> str:
    """``url`` when it is a path of this app (never another site: ``//host``, ``\\``, a scheme), else ``default``."""
    return url if url and _LOCAL.match(url) and "\\" not in url else default


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


class Refused(Exception):
    """A request refused with a status code and a message to the member."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


class Server:
    """The endpoints, over one workspace."""

    def __init__(self, config: ServeConfig, workspace: Workspace) -> None:
        self.config = config
        self.ws = workspace
        self.throttle = Throttle(config.login_attempts, config.login_window)
        self.blocks = BlockCache()

    # -- the guards -------------------------------------------------------

    def page(self, render: Callable[[Request, str], Response]) -> Callable[[Request], Awaitable[Response]]:
        """A GET endpoint for signed-in members; others are sent to the sign-in page."""

        async def endpoint(request: Request) -> Response:
            name = request.session.get(SESSION_NAME)
            if not name:
                wanted = request.url.path + (f"?{request.url.query}" if request.url.query else "")
                return RedirectResponse(f"/signin?next={quote(wanted, safe='/')}", 303)
            _token(request)
            return await run_in_threadpool(self._guarded, request, lambda: render(request, name))

        return endpoint

    def post(
        self, handle: Callable[[Request, str, FormData], Response], need: Action | None = None
    ) -> Callable[[Request], Awaitable[Response]]:
        """A POST endpoint: same origin, the session's token, a signed-in member allowed ``need``."""

        async def endpoint(request: Request) -> Response:
            if not same_origin(request.headers, request.url.scheme):
                return self._refuse(request, 403, "This form was sent from another site: refused.")
            form = await request.form(max_files=0, max_fields=40, max_part_size=BODY_MAX)
            given = form.get(TOKEN_FIELD) or request.headers.get(TOKEN_HEADER)
            if not token_ok(request.session.get(SESSION_TOKEN), given if isinstance(given, str) else None):
                return self._refuse(
                    request, 403, "The form's security token is missing or out of date: reload the page and try again."
                )
            name = request.session.get(SESSION_NAME)
            if not name:
                return self._refuse(request, 403, "Sign in first.")
            if need is not None and not may(self.chair(name), need):
                return self._refuse(request, 403, f"Only the chairs may do that ({need.value}).")
            return await run_in_threadpool(self._guarded, request, lambda: handle(request, name, form))

        return endpoint

    def _guarded(self, request: Request, work: Callable[[], Response]) -> Response:
        try:
            return work()
        except Refused as exc:
            return self._refuse(request, exc.status, exc.message)
        except LawdiffError as exc:
            # The corpus or the store cannot be read now (a file half saved,
            # the store locked): say so, and try again on the next request.
            return self._refuse(request, 503 if not isinstance(exc, UsageError) else 400, exc.message())

    def _refuse(self, request: Request, status: int, message: str) -> Response:
        if request.headers.get(FETCH_HEADER) == "1":
            return JSONResponse({"ok": False, "message": message}, status)
        name = request.session.get(SESSION_NAME)
        if not name:
            return HTMLResponse(pages.message_page("Refused", _anonymous_bar(), message, back="/signin"), status)
        bar = self._bar(request, name, None)
        back = local(str(request.headers.get("referer", "")).split(request.url.netloc, 1)[-1], "/agenda")
        return HTMLResponse(pages.message_page("Not done", bar, message, back=back), status)

    def chair(self, name: str) -> bool:
        return self.config.is_chair(name)

    def _bar(self, request: Request, name: str, snap: Snapshot | None) -> Any:
        now = None
        if snap is not None:
            now = pages.now_of(self.ws.store().mark(DISCUSSING), snap)
        return pages.bar(name, self.chair(name), now, _token(request))

    # -- signing in -------------------------------------------------------

    async def signin_form(self, request: Request) -> Response:
        next_ = local(request.query_params.get("next", ""), "/index.html")
        if request.session.get(SESSION_NAME):
            return RedirectResponse(next_, 303)
        page = pages.signin_page(next_, _token(request), self.config.password is not None)
        return HTMLResponse(page)

    async def signin(self, request: Request) -> Response:
        client = request.client.host if request.client else "?"
        form = await request.form(max_files=0, max_fields=10, max_part_size=4096)
        next_ = local(str(form.get("next", "")), "/index.html")
        need = self.config.password is not None

        def again(status: int, error: str, name: str = "") -> Response:
            return HTMLResponse(pages.signin_page(next_, _token(request), need, error, name), status)

        if not same_origin(request.headers, request.url.scheme) or not token_ok(
            request.session.get(SESSION_TOKEN), str(form.get(TOKEN_FIELD, ""))
        ):
            return again(403, "The sign-in form is out of date or came from another site: try again.")
        wait = self.throttle.wait(client)
        if wait:
            response = again(429, f"Too many failed sign-ins from your address: wait {wait:.0f} s and try again.")
            response.headers["Retry-After"] = str(int(wait))
            return response
        raw = str(form.get("name", ""))
        name = clean_name(raw)
        if name is None:
            return again(400, "Give your name (up to 60 letters, no control characters).")
        if not password_ok(str(form.get("password", "")), self.config.password):
            self.throttle.failed(client)
            return again(401, "Wrong password.", name)
        self.throttle.succeeded(client)
        request.session.clear()
        request.session[SESSION_NAME] = name
        request.session[SESSION_TOKEN] = new_token()
        return RedirectResponse(next_, 303)

    def signout(self, request: Request, _name: str, _form: FormData) -> Response:
        request.session.clear()
        return RedirectResponse("/signin", 303)

    # -- the report's pages -----------------------------------------------

    def root(self, request: Request, name: str) -> Response:
        return RedirectResponse("/index.html", 303)

    def index(self, request: Request, name: str) -> Response:
        snap = self.ws.snapshot()
        page = self.ws.page((snap.key, "index"), lambda: index_page(snap.site))
        return HTMLResponse(pages.served(page, self._bar(request, name, snap)))

    def article(self, request: Request, name: str) -> Response:
        snap = self.ws.snapshot()
        path = f"articles/{request.path_params['file']}"
        found = _article_pages(snap).get(path)
        if found is None:
            return HTMLResponse(pages.message_page("Not found", self._bar(request, name, snap), "No such page."), 404)
        kind, number = found
        a = snap.site.article(number)
        assert a is not None
        if kind == "history":
            page = self.ws.page((snap.key, path), lambda: history_page(snap.site, a))
        else:
            version, view = self.ws.review(snap)
            chair = self.chair(name)
            base = self.ws.page((snap.key, path, "slots"), lambda: article_page(replace(snap.site, annotate=slots), a))

            def render() -> str:
                store = self.ws.store()
                mark = store.mark(DISCUSSING)
                ctx = RowContext(
                    view,
                    store.last_writes(),
                    chair,
                    f"/{path}",
                    mark.value if mark else "",
                    store.open_meeting() is not None,
                    blocks=self.blocks,
                )
                return fill(base, snap.on_pages, ctx)

            page = self.ws.page((snap.key, path, str(version), str(chair)), render)
        page = page.replace(TOKEN_SLOT, _token(request))
        return HTMLResponse(pages.served(page, self._bar(request, name, snap)))

    # -- the server's own pages -------------------------------------------

    def agenda(self, request: Request, name: str) -> Response:
        snap = self.ws.snapshot()
        _, view = self.ws.review(snap)
        store = self.ws.store()
        now = pages.now_of(store.mark(DISCUSSING), snap)
        bar = pages.bar(name, self.chair(name), now, _token(request))
        return HTMLResponse(pages.agenda_page(snap, view, bar, now, store.people()))

    def person(self, request: Request, name: str) -> Response:
        snap = self.ws.snapshot()
        _, view = self.ws.review(snap)
        store = self.ws.store()
        who = request.query_params.get("name", name)
        decisions = {d.id: d for d in store.decisions()}
        page = pages.person_page(snap, view, self._bar(request, name, snap), who, store.involvement(who), decisions)
        return HTMLResponse(page)

    def meeting(self, request: Request, name: str) -> Response:
        snap = self.ws.snapshot()
        store = self.ws.store()
        now = pages.now_of(store.mark(DISCUSSING), snap)
        bar = pages.bar(name, self.chair(name), now, _token(request))
        today = datetime.date.today().isoformat()
        page = pages.meeting_page(bar, now, store.open_meeting(), self.chair(name), _token(request), today)
        return HTMLResponse(page)

    def next_(self, request: Request, name: str) -> Response:
        snap = self.ws.snapshot()
        _, view = self.ws.review(snap)
        found = pages.next_undecided(snap, view, request.query_params.get("after", ""))
        return RedirectResponse(pages.href(found) if found else "/agenda#top", 303)

    def now(self, request: Request, name: str) -> Response:
        snap = self.ws.snapshot()
        now = pages.now_of(self.ws.store().mark(DISCUSSING), snap)
        if now is None:
            return JSONResponse({"change": ""})
        return JSONResponse({"change": now.change, "label": now.label, "href": now.href, "by": now.by, "at": now.at})

    async def asset(self, request: Request) -> Response:
        name = request.path_params["name"]
        found = _ASSETS.get(name)
        if found is None:
            return Response("Not found", 404, media_type="text/plain")
        package, media = found
        data = (resources.files(package) / "assets" / name).read_bytes()
        return Response(data, media_type=media)

    # -- writes -----------------------------------------------------------

    def _change(self, form: FormData) -> tuple[Snapshot, Located]:
        """The change a form names, as the corpus is now; a form on a text since changed is refused."""
        snap = self.ws.snapshot()
        found = snap.changes.get(str(form.get("change", "")))
        if found is None:
            now = _at_row(snap, str(form.get("pair", "")), str(form.get("row", "")))
            raise Stale(
                "The text of this change was changed since you loaded the page (the draft was corrected): "
                "nothing was saved. Here it is as it is now.",
                snap,
                now,
            )
        return snap, found

    def _expect(self, form: FormData, status: bool = False, assignee: bool = False) -> Expect:
        expected = str(form.get("expect", ""))
        return Expect(
            status=Status(expected) if status and expected in {s.value for s in Status} else None,
            assignee=str(form.get("expect_assignee", "")) if assignee else None,
            old_hash=str(form.get("old_hash", "")),
            new_hash=str(form.get("new_hash", "")),
        )

    def _done(self, request: Request, name: str, form: FormData, snap: Snapshot, found: Located, said: str) -> Response:
        back = local(str(form.get("back", "")), pages.href(found))
        if request.headers.get(FETCH_HEADER) == "1":
            return self._block_json(request, name, snap, found, back, said, 200)
        return RedirectResponse(back, 303)

    def _block_json(
        self, request: Request, name: str, snap: Snapshot, found: Located, back: str, said: str, status: int
    ) -> Response:
        store = self.ws.store()
        comp, ch = found.comparison, found.change
        decided = store.decision(ch.id)
        if decided is not None:
            # The row just written: its own decision and thread, read alone (matching every
            # decision of the run to its change after each write would make writers queue).
            entry = Entry(ch.id, (comp.old, comp.new), State.CURRENT, decided, tuple(store.thread(ch.id)))
            corrections = tuple(c for c in store.corrections() if c.pair == (comp.old, comp.new))
            view = ReviewView({ch.id: entry}, (), (), (), {}, corrections, ())
            writers = store.last_writes(ch.id)
        else:
            _, view = self.ws.review(snap)
            writers = store.last_writes()
        mark = store.mark(DISCUSSING)
        ctx = RowContext(
            view,
            writers,
            self.chair(name),
            urlsplit(back).path,
            mark.value if mark else "",
            store.open_meeting() is not None,
            _token(request),
        )
        block = review_block(ch, comp.old, comp.new, ctx)
        entry = view.entry(ch.id)
        return JSONResponse({"ok": status < 400, "message": said, "html": block, "status": entry.status.value}, status)

    def _stale(self, request: Request, name: str, form: FormData, exc: Stale) -> Response:
        back = local(str(form.get("back", "")))
        if request.headers.get(FETCH_HEADER) == "1" and exc.found is not None:
            return self._block_json(request, name, exc.snap, exc.found, back, exc.message, 409)
        more: list[Any] = []
        if exc.found is not None:
            _, view = self.ws.review(exc.snap)
            store = self.ws.store()
            ctx = RowContext(view, store.last_writes(), self.chair(name), urlsplit(back).path, token=_token(request))
            comp = exc.found.comparison
            more = [
                h("h2", None, pages.label(exc.found)),
                review_block(exc.found.change, comp.old, comp.new, ctx),
            ]
        bar = self._bar(request, name, exc.snap)
        return HTMLResponse(pages.message_page("Not saved", bar, exc.message, *more, back=back), 409)

    def write(self, work: Callable[[Request, str, FormData], Response]) -> Callable[[Request, str, FormData], Response]:
        def handle(request: Request, name: str, form: FormData) -> Response:
            try:
                return work(request, name, form)
            except Stale as exc:
                return self._stale(request, name, form, exc)

        return handle

    def set_status(self, request: Request, name: str, form: FormData) -> Response:
        value = str(form.get("status", ""))
        if value not in {s.value for s in Status}:
            raise Refused(400, f"Unknown status {value!r}.")
        status = Status(value)
        if not may(self.chair(name), status_action(status)):
            raise Refused(403, f"Only the chairs may set a change to {status.value}; you may set it to query.")
        snap, found = self._change(form)
        try:
            tgt, expect = target(found.comparison, found.change), self._expect(form, status=True)
            self.ws.write(lambda store: store.set_status(tgt, status, name, expect=expect))
        except StaleWrite as exc:
            raise Stale(exc.what + ". Here it is as it is now.", snap, found) from None
        return self._done(request, name, form, snap, found, f"Saved: {status.value}.")

    def comment(self, request: Request, name: str, form: FormData) -> Response:
        text = str(form.get("text", "")).replace("\r\n", "\n")
        if not text.strip():
            raise Refused(400, "The comment is empty.")
        if len(text) > COMMENT_MAX:
            raise Refused(400, f"The comment is longer than {COMMENT_MAX} characters.")
        snap, found = self._change(form)
        try:
            tgt, expect = target(found.comparison, found.change), self._expect(form)
            self.ws.write(lambda store: store.add_comment(tgt, text, name, expect=expect))
        except StaleWrite as exc:
            raise Stale(exc.what + ". Here it is as it is now.", snap, found) from None
        return self._done(request, name, form, snap, found, "Comment added.")

    def assign(self, request: Request, name: str, form: FormData) -> Response:
        raw = str(form.get("assignee", ""))
        who = clean_name(raw) if raw.strip() else ""
        if who is None:
            raise Refused(400, "Give a name (up to 60 letters, no control characters), or nothing for nobody.")
        snap, found = self._change(form)
        try:
            tgt, expect = target(found.comparison, found.change), self._expect(form, assignee=True)
            self.ws.write(lambda store: store.assign(tgt, who, name, expect=expect))
        except StaleWrite as exc:
            raise Stale(exc.what + ". Here it is as it is now.", snap, found) from None
        return self._done(request, name, form, snap, found, f"Assigned to {who or 'nobody'}.")

    def correct(self, request: Request, name: str, form: FormData) -> Response:
        snap, found = self._change(form)
        comp, ch = found.comparison, found.change
        corpus = snap.corpus
        forbid = str(form.get("forbid", ""))
        if forbid:
            o, _, n = forbid.partition(" ")
            pair, old, new = review_pins.forbid_sides(corpus, f"{comp.old}:{o}", f"{comp.new}:{n}")
            kind = CorrectionKind.FORBID
        else:
            given = str(form.get("pin", "")).split()
            if not given:
                raise Refused(400, "Name the clause to pin this row's clause to, as EDITION:ADDRESS (e.g. 2007:45D).")
            editions = {g.partition(":")[0] for g in given}
            mine = ch.new if comp.new not in editions else ch.old
            side = comp.new if comp.new not in editions else comp.old
            specs = [*given, *(f"{side}:{a}" for a in mine)]
            pair, old, new = review_pins.sides(corpus, specs)
            if pair != (comp.old, comp.new):
                raise Refused(
                    400,
                    f"A correction from this row pins {comp.old} to {comp.new}; "
                    f"you named {' '.join(given)}. Name a clause of {comp.old if side == comp.new else comp.new}.",
                )
            kind = CorrectionKind.PIN
        sign = "is the same clause as" if kind is CorrectionKind.PIN else "is never paired with"
        what = f"{' '.join(f'{pair[0]}:{a}' for a in old)} {sign} {' '.join(f'{pair[1]}:{a}' for a in new)}."
        back = local(str(form.get("back", "")), pages.href(found))
        if form.get("confirm") != "yes":
            fields = {k: str(form.get(k, "")) for k in ("change", "pair", "row", "back", "forbid", "pin")}
            bar = self._bar(request, name, snap)
            return HTMLResponse(pages.confirm_page(bar, what, fields, _token(request), back))
        self.ws.write(lambda store: store.add_correction(kind, pair, old, new, name))
        # The alignment is made again with the correction; lead to where the clause now stands.
        snap = self.ws.snapshot()
        result = _by_address(snap, pair, new[0], old[0])
        return RedirectResponse(pages.href(result) if result else back, 303)

    def unpin(self, request: Request, name: str, form: FormData) -> Response:
        cid = str(form.get("correction", ""))
        if not re.fullmatch(r"[0-9a-f]{32}", cid):
            raise Refused(400, "No such correction.")
        self.ws.write(lambda store: store.remove_corrections([cid], name))
        back = local(str(form.get("back", "")))
        snap = self.ws.snapshot()
        found = snap.changes.get(str(form.get("change", "")))
        return RedirectResponse(pages.href(found) if found else back, 303)

    def meeting_start(self, request: Request, name: str, form: FormData) -> Response:
        raw = str(form.get("date", "")) or datetime.date.today().isoformat()
        try:
            day = datetime.date.fromisoformat(raw).isoformat()
        except ValueError:
            raise Refused(400, f"{raw!r} is not a date (YYYY-MM-DD).") from None
        people = []
        for a in str(form.get("attendees", "")).split(","):
            if a.strip():
                person = clean_name(a)
                if person is None:
                    raise Refused(400, f"{a.strip()!r} is not a name.")
                people.append(person)
        self.ws.write(lambda store: store.start_meeting(day, tuple(people), name))
        return RedirectResponse("/meeting", 303)

    def meeting_end(self, request: Request, name: str, form: FormData) -> Response:
        def end(store: Store) -> None:
            store.end_meeting(name)
            if store.mark(DISCUSSING) is not None:
                store.set_mark(DISCUSSING, "", name)

        self.ws.write(end)
        return RedirectResponse("/meeting", 303)

    def discuss(self, request: Request, name: str, form: FormData) -> Response:
        store = self.ws.store()
        if store.open_meeting() is None:
            raise Refused(409, "No meeting is open: start one on the meeting page first.")
        _, found = self._change(form)
        self.ws.write(lambda store: store.set_mark(DISCUSSING, found.change.id, name))
        back = local(str(form.get("back", "")), pages.href(found))
        if request.headers.get(FETCH_HEADER) == "1":
            return JSONResponse({"ok": True, "message": "Marked as now discussed."})
        return RedirectResponse(back, 303)


class Stale(Exception):
    """A write refused because what the member saw has changed; ``found`` is the change as it is now."""

    def __init__(self, message: str, snap: Snapshot, found: Located | None) -> None:
        super().__init__(message)
        self.message = message
        self.snap = snap
        self.found = found


def _token(request: Request) -> str:
    """The session's forgery token, made on first use."""
    token = request.session.get(SESSION_TOKEN)
    if not token:
        token = new_token()
        request.session[SESSION_TOKEN] = token
    return str(token)


def _anonymous_bar() -> Markup:
    return h("div", {"class": "serve-bar", "role": "banner"}, "lawdiff serve")


def _article_pages(snap: Snapshot) -> dict[str, tuple[str, str]]:
    out: dict[str, tuple[str, str]] = {}
    for a in snap.site.articles:
        out[article_file(a.number)] = ("article", a.number)
        out[history_file(a.number)] = ("history", a.number)
    return out


def _at_row(snap: Snapshot, pair: str, row: str) -> Located | None:
    """The change that now stands at a row's anchor (a corrected draft gives it a new id)."""
    old, _, new = pair.partition(" ")
    for found in snap.changes.values():
        comp = found.comparison
        if (comp.old, comp.new) == (old, new) and found.article and row_anchor(found.change, old, new) == row:
            return found
    return None


def _by_address(snap: Snapshot, pair: tuple[str, str], new: str, old: str) -> Located | None:
    for side, address in (("new", new), ("old", old)):
        for found in snap.changes.values():
            comp = found.comparison
            if (comp.old, comp.new) == pair and found.article and address in getattr(found.change, side):
                return found
    return None


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
