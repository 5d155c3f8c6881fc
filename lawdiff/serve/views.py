"""The pages a member reads: the report's (with the review controls in its rows), the agenda, meeting
mode, a person's involvement, the assets.

Nothing is served from a folder, so no path can reach a file outside the
app: an article page is looked up by its name in the report's plan, an
asset by its name in a fixed list.
"""

from __future__ import annotations

import datetime
from dataclasses import replace
from importlib import resources

from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response

from lawdiff import i18n
from lawdiff.i18n import gettext as _
from lawdiff.i18n import pgettext
from lawdiff.report.html import index_page
from lawdiff.report.html.article import article_page
from lawdiff.report.html.history import history_page
from lawdiff.report.minutes import minutes
from lawdiff.report.site import article_file, history_file
from lawdiff.review import exchange
from lawdiff.review.settings import agenda_order
from lawdiff.serve import pages
from lawdiff.serve.auth import Action, may
from lawdiff.serve.controls import TOKEN_SLOT, RowContext, fill, review_block, slots
from lawdiff.serve.endpoints import DISCUSSING, Endpoints, Refused, here, local, session_token
from lawdiff.serve.state import Snapshot

# The minutes a meeting page offers, by format: their media type.
MINUTES = {
    "md": "text/markdown; charset=utf-8",
    "docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
}

# How often an open page asks for what others wrote (seconds): a decision shows on every
# screen within two polls at most.
POLL_SECONDS = 1.0

_ASSETS = {
    "report.css": ("lawdiff.report", "text/css; charset=utf-8"),
    "report.js": ("lawdiff.report", "text/javascript; charset=utf-8"),
    "serve.css": ("lawdiff.serve", "text/css; charset=utf-8"),
    "serve.js": ("lawdiff.serve", "text/javascript; charset=utf-8"),
}


class Views(Endpoints):
    """The GET endpoints: the report's pages and the server's own."""

    # -- the report's pages -----------------------------------------------

    def root(self, request: Request, name: str) -> Response:
        return RedirectResponse("/index.html", 303)

    def index(self, request: Request, name: str) -> Response:
        snap = self.ws.snapshot()
        version, _view = self.ws.review(snap)
        # Kept per language: the report's pages speak the member's (lawdiff.i18n), as the server's do.
        page = self.ws.page((snap.key, "index", i18n.language()), lambda: index_page(snap.site))
        return HTMLResponse(pages.served(page, self._bar(request, name, snap, version)))

    def article(self, request: Request, name: str) -> Response:
        snap = self.ws.snapshot()
        path = f"articles/{request.path_params['file']}"
        found = _article_pages(snap).get(path)
        if found is None:
            missing = pages.message_page(_("Not found"), self._bar(request, name, snap), _("No such page."))
            return HTMLResponse(missing, 404)
        kind, number = found
        a = snap.site.article(number)
        assert a is not None
        version, view = self.ws.review(snap)
        lang = i18n.language()
        if kind == "history":
            page = self.ws.page((snap.key, path, lang), lambda: history_page(snap.site, a))
        else:
            chair = self.chair(name)
            base = self.ws.page(
                (snap.key, path, "slots", lang), lambda: article_page(replace(snap.site, annotate=slots), a)
            )

            def render() -> str:
                store = self.ws.store()
                mark = store.mark(DISCUSSING)
                ctx = RowContext(
                    view,
                    self.ws.of_version("deciders", version, store.deciders),
                    chair,
                    f"/{path}",
                    mark.value if mark else "",
                    store.open_meeting() is not None,
                    blocks=self.blocks,
                    viewer=name,
                    row_writes=self.ws.of_version("row_writes", version, store.row_writes),
                )
                return fill(base, snap.on_pages, ctx)

            # Per member: their own comments and last writes get their forms.
            page = self.ws.page((snap.key, path, str(version), str(chair), name, lang), render)
        page = page.replace(TOKEN_SLOT, session_token(request))
        return HTMLResponse(pages.served(page, self._bar(request, name, snap, version)))

    # -- the server's own pages -------------------------------------------

    def agenda(self, request: Request, name: str) -> Response:
        snap = self.ws.snapshot()
        version, view = self.ws.review(snap)
        store = self.ws.store()
        now = pages.now_of(store.mark(DISCUSSING), snap)
        chair, token = self.chair(name), session_token(request)
        bar = pages.bar(name, chair, now, token, version, here(request))
        order = agenda_order(store)
        people = sorted(store.people(), key=i18n.sort_key)
        return HTMLResponse(pages.agenda_page(snap, view, bar, now, people, order, may(chair, Action.ORDER), token))

    def person(self, request: Request, name: str) -> Response:
        snap = self.ws.snapshot()
        version, view = self.ws.review(snap)
        store = self.ws.store()
        who = request.query_params.get("name", name)
        decisions = {d.id: d for d in store.decisions()}
        page = pages.person_page(
            snap, view, self._bar(request, name, snap, version), who, store.involvement(who), decisions
        )
        return HTMLResponse(page)

    def meeting(self, request: Request, name: str) -> Response:
        snap = self.ws.snapshot()
        store = self.ws.store()
        version = store.version()
        now = pages.now_of(store.mark(DISCUSSING), snap)
        bar = pages.bar(name, self.chair(name), now, session_token(request), version, here(request))
        today = datetime.date.today().isoformat()
        page = pages.meeting_page(bar, now, store.open_meeting(), self.chair(name), session_token(request), today)
        return HTMLResponse(page)

    def next_(self, request: Request, name: str) -> Response:
        snap = self.ws.snapshot()
        _version, view = self.ws.review(snap)
        order = agenda_order(self.ws.store())
        found = pages.next_undecided(snap, view, request.query_params.get("after", ""), order)
        return RedirectResponse(pages.href(found) if found else "/agenda#top", 303)

    def now(self, request: Request, name: str) -> Response:
        snap = self.ws.snapshot()
        now = pages.now_of(self.ws.store().mark(DISCUSSING), snap)
        if now is None:
            return JSONResponse({"change": ""})
        return JSONResponse({"change": now.change, "label": now.label, "href": now.href, "by": now.by, "at": now.at})

    def updates(self, request: Request, name: str) -> Response:
        """What was written since the version a page was made at (``?since=``): the store's version,
        the change now discussed, and the review blocks of the changes on ``?page=`` written since.
        The page's script asks every :data:`POLL_SECONDS`; without it, a reload shows the same."""
        try:
            since = int(request.query_params.get("since", "-1"))
        except ValueError:
            since = -1
        store = self.ws.store()
        if since >= 0 and store.version() == since:
            # Nothing written since (the mark "now discussing" is a write too): the answer of
            # most polls, one query.
            return JSONResponse({"version": since, "poll": POLL_SECONDS})
        snap = self.ws.snapshot()
        now = pages.now_of(store.mark(DISCUSSING), snap)
        version, changed, others = store.changed_since(max(since, 0))
        out: dict[str, object] = {
            "version": version,
            "poll": POLL_SECONDS,
            "now": {"change": ""}
            if now is None
            else {"change": now.change, "label": now.label, "href": now.href, "by": now.by},
        }
        if since < 0 or version == since:
            return JSONResponse(out)
        page = local(request.query_params.get("page", ""), "")
        blocks: dict[str, dict[str, str]] = {}
        # A hand correction aligns the pair again: the page itself changes, not only its rows.
        reload_ = "corrections" in others
        here = [
            f
            for f in (snap.changes.get(cid) for cid in (changed if not reload_ else ()))
            if f is not None and f.article and pages.href(f).split("#", 1)[0] == page
        ]
        if here:
            # Every open page asks after the same writes: the blocks are made as the article page
            # makes its rows (the review matched once per store version, blocks kept by what they
            # show, the member's token put in last), not once per member.
            at, view = self.ws.review(snap)
            ctx = RowContext(
                view,
                self.ws.of_version("deciders", at, store.deciders),
                self.chair(name),
                page,
                now.change if now else "",
                store.open_meeting() is not None,
                blocks=self.blocks,
                viewer=name,
                row_writes=self.ws.of_version("row_writes", at, store.row_writes),
            )
            token = session_token(request)
            for found in here:
                comp = found.comparison
                block = review_block(found.change, comp.old, comp.new, ctx)
                status = view.entry(found.change.id).status.value
                blocks[found.change.id] = {"html": str(block).replace(TOKEN_SLOT, token), "status": status}
        out.update(blocks=blocks, changed=list(changed), reload=reload_)
        return JSONResponse(out)

    def minutes(self, request: Request, name: str) -> Response:
        """The minutes of a meeting (``?meeting=ID``, else the open or the last one) as ``review export``
        writes them (``?format=md`` or ``docx``), to download."""
        fmt = request.query_params.get("format", "md")
        if fmt not in MINUTES:
            raise Refused(400, _("No minutes as {format!r}: choose Markdown (md) or Word (docx).").format(format=fmt))
        store = self.ws.store()
        meetings = store.meetings()
        wanted = request.query_params.get("meeting", "")
        chosen = next((m for m in meetings if m.id == wanted), None) or store.open_meeting()
        chosen = chosen or (meetings[-1] if meetings else None)
        if chosen is None:
            raise Refused(404, _("No meeting yet: the minutes are of a meeting (“Start the meeting” on this page)."))
        # As `lawdiff review export --format md|docx --meeting ID` writes them, in the member's language.
        data = minutes(exchange.select(store, chosen.id, ""), fmt)
        stem = pgettext("file name", "minutes")
        disposition = f'attachment; filename="{stem}-{chosen.date}.{fmt}"'
        return Response(data, media_type=MINUTES[fmt], headers={"Content-Disposition": disposition})

    async def asset(self, request: Request) -> Response:
        name = request.path_params["name"]
        found = _ASSETS.get(name)
        if found is None:
            return Response("Not found", 404, media_type="text/plain")
        package, media = found
        data = (resources.files(package) / "assets" / name).read_bytes()
        return Response(data, media_type=media)


def _article_pages(snap: Snapshot) -> dict[str, tuple[str, str]]:
    out: dict[str, tuple[str, str]] = {}
    for a in snap.site.articles:
        out[article_file(a.number)] = ("article", a.number)
        out[history_file(a.number)] = ("history", a.number)
    return out
