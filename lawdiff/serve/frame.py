"""What every served page shares: the server's policy and assets, its bar, and the change now discussed.

The report's pages (:mod:`lawdiff.report.html`) are served as the report
writes them, with three changes made here: the Content-Security-Policy of
the server (the report's plus ``form-action 'self'`` and ``connect-src
'self'``) in place of the report's, the server's stylesheet and script, and
the bar at the top (who is signed in, the agenda, what the meeting is
discussing).  The server's own pages are put in the same frame.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from urllib.parse import quote

from lawdiff import i18n
from lawdiff.errors import LawdiffBug
from lawdiff.i18n import gettext as _
from lawdiff.i18n import terms
from lawdiff.report.html.markup import Child, Markup, document, h, phrase
from lawdiff.report.site import article_file
from lawdiff.review import Status
from lawdiff.review.reading import Mark
from lawdiff.serve.auth import TOKEN_FIELD
from lawdiff.serve.controls import row_anchor, when
from lawdiff.serve.language import switch
from lawdiff.serve.marked import who
from lawdiff.serve.state import Located, Snapshot

# The policy sent with every response, as a header (frame-ancestors only
# works there), and written into the page in place of the report's.
POLICY = (
    "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self' data:; base-uri 'none'; "
    "form-action 'self'; connect-src 'self'"
)
HEADER_POLICY = POLICY + "; frame-ancestors 'none'"
SERVE_ASSETS = ("serve.css", "serve.js")

_META = re.compile(r'<meta http-equiv="Content-Security-Policy" content="[^"]*">')
_HEAD_END = "</head>"
# The page's start: its body, and the report's link past the navigation (the first thing a keyboard reaches,
# which the bar follows: a skip link is one only when it comes first).
_BODY = re.compile(r'<body(?: [^>]*)?>(?:\s*<a class="skip" href="#top">[^<]*</a>)?')
_HTML = re.compile(r'<html lang="[^"]*">')


def served(page: str, bar: Markup) -> str:
    """A page of the report as the server sends it: its policy, its assets and its bar, its language the
    member's (the law text in it says its own, ``lang="nl"``)."""
    meta = h("meta", {"http-equiv": "Content-Security-Policy", "content": POLICY})
    page, n = _META.subn(lambda _m: meta, page, count=2)
    if n != 1 or page.count(_HEAD_END) != 1:
        raise LawdiffBug("a report page without exactly one policy and one head: the server cannot serve it")
    # The language is one of i18n.LANGUAGES: a code of letters, nothing to escape.
    page, n = _HTML.subn(f'<html lang="{i18n.language()}">', page, count=1)
    if n != 1:
        raise LawdiffBug("a report page without its <html lang>: the server cannot serve it")
    assets = h("link", {"rel": "stylesheet", "href": "/assets/serve.css"}) + h(
        "script", {"src": "/assets/serve.js", "defer": True}
    )
    page = page.replace(_HEAD_END, assets + _HEAD_END, 1)
    body = _BODY.search(page)
    if body is None:
        raise LawdiffBug("a report page without a body")
    return page[: body.end()] + "\n" + bar + page[body.end() :]


def own_page(title: str, body_class: str, bar: Markup, *main: Child) -> str:
    """A page of the server's own, in the report's look."""
    return served(document(f"{title} · lawdiff serve", "/", body_class, h("main", {"id": "top"}, *main)), bar)


@dataclass(frozen=True, slots=True)
class Now:
    """The change the meeting discusses now, as the bar and the agenda show it."""

    change: str
    label: str
    href: str
    by: str
    at: str


def now_of(mark: Mark | None, snap: Snapshot) -> Now | None:
    if mark is None:
        return None
    found = snap.changes.get(mark.value)
    if found is None:
        gone = _("a change no longer in the draft ({change})").format(change=mark.value[:10])
        return Now(mark.value, gone, "/agenda", mark.author, mark.updated)
    return Now(mark.value, label(found), href(found), mark.author, mark.updated)


def label(found: Located) -> str:
    """``2007 → 2017 modified 45C4(b)``: a change in a few words (its kind in the member's language)."""
    ch, comp = found.change, found.comparison
    where = ", ".join(ch.new or ch.old)
    if ch.old and ch.new and ch.old != ch.new:
        where = f"{', '.join(ch.old)} → {', '.join(ch.new)}"
    heading = f" ({terms.note('heading')})" if ch.aspect.value == "title" else ""
    return f"{comp.old} → {comp.new} {terms.kind(ch.kind.value)} {where}{heading}"


def href(found: Located) -> str:
    """The change's row on its article page."""
    comp = found.comparison
    anchor = row_anchor(found.change, comp.old, comp.new)
    return f"/{article_file(found.article)}#{anchor}" if found.article else "/agenda"


def script_texts() -> str:
    """What the page's script says (serve.js), in the member's language: JSON in the bar's ``data-text``."""
    texts = {
        "saving": _("Saving…"),
        "saved": _("Saved."),
        "notSaved": _("Not saved."),
        "unreachable": _("Not saved: the server could not be reached. Try again."),
        "onlyChairs": _("Only the chairs may accept."),
        "mayNot": _("You may not set this status."),
        "already": _("Already {status}."),
        "keys": _("accept / query the current change"),
        "now": _("Now discussing:"),
        "setBy": _("(set by {name})"),
        "nothing": _("nothing marked"),
        "status": {s.value: terms.status(s.value) for s in Status},
    }
    return json.dumps(texts, ensure_ascii=False, sort_keys=True)


def _discussing(now: Now | None) -> list[Child]:
    """The bar's "Now discussing: ..." (the script writes the same when the chair marks another)."""
    if now is None:
        return [_("Now discussing:"), " ", h("span", {"class": "none"}, _("nothing marked"))]
    return [
        _("Now discussing:"),
        " ",
        h("a", {"href": now.href}, now.label),
        h("span", {"class": "by"}, " " + _("(set by {name})").format(name=now.by)),
    ]


def bar(name: str, chair: bool, now: Now | None, token: str, version: int | None = None, here: str = "/") -> Markup:
    """The server's bar at the top of every page: who, where to go, what the meeting discusses, the
    languages; ``version``: the store's version the page shows (its script asks for what was written
    since); ``here``: the page, where the language link comes back to."""
    me: list[Child] = [_("Signed in as"), " ", h("b", None, name)]
    if chair:
        me.append(" " + _("(chair)"))
    return h(
        "div",
        {
            "class": "serve-bar",
            "role": "banner",
            "data-version": None if version is None else str(version),
            "data-text": script_texts(),
        },
        h(
            "nav",
            {"aria-label": _("Review")},
            h("a", {"href": "/index.html"}, _("Report")),
            " ",
            h("a", {"href": "/agenda"}, _("Agenda")),
            " ",
            h("a", {"href": "/meeting"}, _("Meeting")),
            " ",
            h("a", {"href": f"/people?name={quote(name)}"}, _("Mine")),
        ),
        h("p", {"class": "now", "id": "serve-now", "data-change": now.change if now else ""}, _discussing(now)),
        switch(here),
        h(
            "form",
            {"class": "signout", "method": "post", "action": "/signout"},
            h("span", {"class": "me"}, me),
            " ",
            h("input", {"type": "hidden", "name": TOKEN_FIELD, "value": token}),
            h("button", {"type": "submit"}, _("Sign out")),
        ),
    )


def anonymous_bar(here: str) -> Markup:
    """The bar of a page before signing in: the server's name and the languages."""
    return h("div", {"class": "serve-bar", "role": "banner"}, h("span", None, "lawdiff serve"), switch(here))


def now_box(now: Now | None) -> Markup:
    """The change now discussed, as the agenda and the meeting page show it."""
    if now is None:
        return h("p", {"class": "now-box none"}, _("The chair has marked no change as now discussed."))
    return h(
        "p",
        {"class": "now-box"},
        _("Now discussing:"),
        " ",
        h("a", {"href": now.href}, now.label),
        " ",
        phrase(_("(marked by {name}, {when})"), name=who(now.by), when=when(now.at)),
    )
