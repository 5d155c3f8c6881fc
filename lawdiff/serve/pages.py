"""The served pages: the report's own pages with the server's bar, and the server's pages.

The report's pages (:mod:`lawdiff.report.html`) are served as the report
writes them, with three changes made here: the Content-Security-Policy of
the server (the report's plus ``form-action 'self'`` and ``connect-src
'self'``) in place of the report's, the server's stylesheet and script, and
the bar at the top (who is signed in, the agenda, what the meeting is
discussing).  The server's own pages (sign-in, agenda, meeting, people,
confirmations, refusals) are built with the same builder and document.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from urllib.parse import quote

from lawdiff.errors import LawdiffBug
from lawdiff.model import natural_key
from lawdiff.report.html.markup import Child, Markup, document, h
from lawdiff.report.site import article_file
from lawdiff.review import Decision, Entry, Meeting, ReviewView, State, Status
from lawdiff.review.reading import Involvement, Mark
from lawdiff.serve.auth import TOKEN_FIELD
from lawdiff.serve.rows import row_anchor, when
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
_BODY = re.compile(r"<body(?: [^>]*)?>")


def served(page: str, bar: Markup) -> str:
    """A page of the report as the server sends it: its policy, its assets and its bar."""
    meta = h("meta", {"http-equiv": "Content-Security-Policy", "content": POLICY})
    page, n = _META.subn(lambda _m: meta, page, count=2)
    if n != 1 or page.count(_HEAD_END) != 1:
        raise LawdiffBug("a report page without exactly one policy and one head: the server cannot serve it")
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
        return Now(
            mark.value, f"a change no longer in the draft ({mark.value[:10]})", "/agenda", mark.author, mark.updated
        )
    return Now(mark.value, label(found), href(found), mark.author, mark.updated)


def label(found: Located) -> str:
    """``2007 → 2017 modified 45C4(b)``: a change in a few words."""
    ch, comp = found.change, found.comparison
    where = ", ".join(ch.new or ch.old)
    if ch.old and ch.new and ch.old != ch.new:
        where = f"{', '.join(ch.old)} → {', '.join(ch.new)}"
    heading = " (heading)" if ch.aspect.value == "title" else ""
    return f"{comp.old} → {comp.new} {ch.kind.value} {where}{heading}"


def href(found: Located) -> str:
    """The change's row on its article page."""
    comp = found.comparison
    anchor = row_anchor(found.change, comp.old, comp.new)
    return f"/{article_file(found.article)}#{anchor}" if found.article else "/agenda"


def bar(name: str, chair: bool, now: Now | None, token: str) -> Markup:
    """The server's bar at the top of every page: who, where to go, what the meeting discusses."""
    discussing: Child = h("span", {"class": "none"}, "nothing marked")
    if now is not None:
        discussing = [h("a", {"href": now.href}, now.label), h("span", {"class": "by"}, f" (set by {now.by})")]
    return h(
        "div",
        {"class": "serve-bar", "role": "banner"},
        h(
            "nav",
            {"aria-label": "Review"},
            h("a", {"href": "/index.html"}, "Report"),
            " ",
            h("a", {"href": "/agenda"}, "Agenda"),
            " ",
            h("a", {"href": "/meeting"}, "Meeting"),
            " ",
            h("a", {"href": f"/people?name={quote(name)}"}, "Mine"),
        ),
        h(
            "p",
            {"class": "now", "id": "serve-now", "data-change": now.change if now else ""},
            "Now discussing: ",
            discussing,
        ),
        h(
            "form",
            {"class": "signout", "method": "post", "action": "/signout"},
            h("span", {"class": "me"}, "Signed in as ", h("b", None, name), " (chair)" if chair else None),
            " ",
            h("input", {"type": "hidden", "name": TOKEN_FIELD, "value": token}),
            h("button", {"type": "submit"}, "Sign out"),
        ),
    )


def signin_page(next_: str, token: str, need_password: bool, error: str = "", name: str = "") -> str:
    fields: list[Child] = [
        h("input", {"type": "hidden", "name": TOKEN_FIELD, "value": token}),
        h("input", {"type": "hidden", "name": "next", "value": next_}),
        h(
            "p",
            None,
            h(
                "label",
                None,
                "Your name ",
                h(
                    "input",
                    {
                        "type": "text",
                        "name": "name",
                        "value": name,
                        "required": True,
                        "maxlength": "60",
                        "autocomplete": "username",
                        "autofocus": True,
                    },
                ),
            ),
        ),
    ]
    if need_password:
        fields.append(
            h(
                "p",
                None,
                h(
                    "label",
                    None,
                    "The committee's password ",
                    h(
                        "input",
                        {"type": "password", "name": "password", "required": True, "autocomplete": "current-password"},
                    ),
                ),
            )
        )
    fields.append(h("p", None, h("button", {"type": "submit"}, "Sign in")))
    main: list[Child] = [
        h("h1", None, "Sign in to the committee's review"),
        h("p", {"class": "error", "role": "alert"}, error) if error else None,
        h("form", {"class": "signin", "method": "post", "action": "/signin"}, fields),
        h(
            "p",
            {"class": "hint"},
            "Your name is recorded with every decision and comment you make."
            + ("" if need_password else " This server runs on this computer only and asks for no password."),
        ),
    ]
    doc = document("Sign in · lawdiff serve", "/", "signin", h("main", {"id": "top"}, main))
    return served(doc, h("div", {"class": "serve-bar", "role": "banner"}, "lawdiff serve"))


def message_page(title: str, bar_: Markup, message: str, *more: Child, back: str = "") -> str:
    return own_page(
        title,
        "message",
        bar_,
        h("h1", None, title),
        h("p", {"class": "error", "role": "alert"}, message),
        *more,
        h("p", None, h("a", {"href": back or "/agenda"}, "Back")),
    )


# ---------------------------------------------------------------------------
# The agenda


@dataclass(frozen=True, slots=True)
class Item:
    found: Located
    entry: Entry

    @property
    def status(self) -> Status:
        """The status of the change as it now reads: an outdated decision leaves it open."""
        return self.entry.status if self.entry.state is State.CURRENT else Status.OPEN


def undecided(snap: Snapshot, view: ReviewView) -> list[Item]:
    """Every change still open or in query, in agenda order: differences, and anything in query."""
    out: list[Item] = []
    for cid in snap.order:
        found = snap.changes[cid]
        item = Item(found, view.entry(cid))
        if item.status is Status.QUERY or (item.status is Status.OPEN and found.change.noteworthy):
            out.append(item)
    return out


def next_undecided(snap: Snapshot, view: ReviewView, after: str) -> Located | None:
    """The first undecided change after ``after`` in agenda order (from the start when unknown)."""
    items = undecided(snap, view)
    order = {cid: i for i, cid in enumerate(snap.order)}
    start = order.get(after, -1)
    return next((it.found for it in items if order[it.found.change.id] > start), None)


def agenda_page(
    snap: Snapshot,
    view: ReviewView,
    bar_: Markup,
    now: Now | None,
    people: Iterable[str],
) -> str:
    items = undecided(snap, view)
    by_article: dict[str, dict[tuple[str, str], list[Item]]] = {}
    for it in items:
        comp = it.found.comparison
        by_article.setdefault(it.found.article, {}).setdefault((comp.old, comp.new), []).append(it)
    open_n = sum(1 for it in items if it.status is Status.OPEN)
    query_n = len(items) - open_n
    sections: list[Child] = []
    for article in sorted(by_article, key=natural_key):
        pairs = by_article[article]
        blocks: list[Child] = []
        for (old, new), its in pairs.items():
            q = sum(1 for it in its if it.status is Status.QUERY)
            blocks.append(
                h(
                    "section",
                    {"class": "agenda-pair"},
                    h("h3", None, f"{old} → {new}: {len(its) - q} open, {q} in query"),
                    h("ol", {"class": "agenda"}, [_item(it, now) for it in its]),
                )
            )
        total = sum(len(v) for v in pairs.values())
        title = f"Article {article}" if article else "Outside the report's articles"
        sections.append(
            h("section", {"class": "agenda-article", "id": f"a-{article}"}, h("h2", None, f"{title} ({total})"), blocks)
        )
    return own_page(
        "Agenda",
        "agenda",
        bar_,
        h("h1", None, "Agenda: what is still open or in query"),
        h(
            "p",
            {"class": "lead"},
            f"{open_n} open, {query_n} in query, over {len(by_article)} article(s). ",
            h("a", {"href": "/next"}, "Walk them one by one from the first"),
            ".",
        ),
        _now_box(now),
        sections or h("p", None, "Nothing is open or in query: every change has a decision."),
        _leftovers(view),
        _people(people),
    )


def _now_box(now: Now | None) -> Markup:
    if now is None:
        return h("p", {"class": "now-box none"}, "The chair has marked no change as now discussed.")
    return h(
        "p",
        {"class": "now-box"},
        "Now discussing: ",
        h("a", {"href": now.href}, now.label),
        " (marked by ",
        h("span", {"class": "who"}, now.by),
        f", {when(now.at)})",
    )


def _item(it: Item, now: Now | None) -> Markup:
    e = it.entry
    notes: list[Child] = [" ", h("span", {"class": f"st st-{it.status.value}"}, it.status.value)]
    if e.assignee and e.state is State.CURRENT:
        notes += ["; assigned to ", h("span", {"class": "who"}, e.assignee)]
    if e.comments:
        notes.append(f"; {len(e.comments)} comment(s)")
    if e.state is State.OUTDATED and e.decision is not None:
        notes += ["; ", h("span", {"class": "outdated"}, f"{e.decision.status.value} on an earlier text")]
    here = now is not None and now.change == it.found.change.id
    return h(
        "li",
        {"class": "discussing" if here else None},
        h("a", {"href": href(it.found)}, label(it.found)),
        notes,
        h("b", None, " ← now discussing") if here else None,
    )


def _decision_line(d: Decision) -> list[Child]:
    where = ", ".join(d.new or d.old)
    return [
        f"{d.old_edition} → {d.new_edition} {d.kind} {where}: ",
        h("b", None, d.status.value),
        " by ",
        h("span", {"class": "who"}, d.author),
        f", {when(d.updated)}",
    ]


def _leftovers(view: ReviewView) -> list[Child]:
    out: list[Child] = []
    if view.outdated:
        out.append(
            h(
                "section",
                {"id": "outdated"},
                h("h2", None, f"Decided on an earlier text ({len(view.outdated)})"),
                h(
                    "ul",
                    None,
                    [
                        h(
                            "li",
                            None,
                            _decision_line(o.decision),
                            " — the change is now ",
                            h("code", None, o.change[:10]),
                        )
                        for o in view.outdated
                    ],
                ),
            )
        )
    for sid, title, decisions in (
        ("orphaned", "Orphaned: their clauses are gone", view.orphaned),
        ("not-compared", "On pairs this run does not compare", view.not_compared),
    ):
        if decisions:
            out.append(
                h(
                    "section",
                    {"id": sid},
                    h("h2", None, f"{title} ({len(decisions)})"),
                    h("ul", None, [h("li", None, _decision_line(d)) for d in decisions]),
                )
            )
    return out


def _people(people: Iterable[str]) -> Markup:
    names = list(people)
    return h(
        "section",
        {"id": "people"},
        h("h2", None, "Per reviewer"),
        h("ul", {"class": "people"}, [h("li", None, h("a", {"href": f"/people?name={quote(n)}"}, n)) for n in names])
        if names
        else h("p", None, "Nobody has written anything yet."),
    )


def person_page(
    snap: Snapshot, view: ReviewView, bar_: Markup, name: str, did: Involvement, decisions: Mapping[str, Decision]
) -> str:
    place = {cid: i for i, cid in enumerate(snap.order)}

    def items(ids: tuple[str, ...]) -> Markup:
        lines: list[Child] = []
        # In agenda order; changes on no article page, then decisions no longer in the run, after.
        for cid in sorted(ids, key=lambda c: (place.get(c, len(place) + (c not in snap.changes)), c)):
            found = snap.changes.get(cid)
            e = view.entry(cid)
            if found is not None:
                lines.append(
                    h(
                        "li",
                        None,
                        h("a", {"href": href(found)}, label(found)),
                        " ",
                        h("span", {"class": "st"}, e.status.value),
                    )
                )
            elif cid in decisions:
                lines.append(h("li", None, _decision_line(decisions[cid]), " (no longer in this run)"))
        return h("ul", None, lines) if lines else h("p", {"class": "none"}, "none")

    return own_page(
        name,
        "person",
        bar_,
        h("h1", None, "What ", h("span", {"class": "who"}, name), " did in the review"),
        h("h2", None, f"Assigned ({len(did.assigned)})"),
        items(did.assigned),
        h("h2", None, f"Commented on ({len(did.commented)})"),
        items(did.commented),
        h("h2", None, f"Decided ({len(did.decided)})"),
        items(did.decided),
    )


# ---------------------------------------------------------------------------
# Meetings and confirmations


def meeting_page(bar_: Markup, now: Now | None, meeting: Meeting | None, chair: bool, token: str, today: str) -> str:
    hidden = h("input", {"type": "hidden", "name": TOKEN_FIELD, "value": token})
    parts: list[Child] = [h("h1", None, "Meeting")]
    if meeting is None:
        parts.append(h("p", None, "No meeting is open."))
        if chair:
            parts.append(
                h(
                    "form",
                    {"class": "meeting", "method": "post", "action": "/meeting/start"},
                    hidden,
                    h("label", None, "Date ", h("input", {"type": "date", "name": "date", "value": today})),
                    " ",
                    h("label", None, "Attendees ", h("input", {"type": "text", "name": "attendees", "size": "30"})),
                    " ",
                    h("button", {"type": "submit"}, "Start the meeting"),
                )
            )
    else:
        parts.append(
            h(
                "p",
                None,
                f"The meeting of {meeting.date} is open (started {when(meeting.started)} by ",
                h("span", {"class": "who"}, meeting.author),
                ")",
                f"; attending: {', '.join(meeting.attendees)}" if meeting.attendees else None,
                ". Decisions and comments made now carry it.",
            )
        )
        if chair:
            parts.append(
                h(
                    "form",
                    {"class": "meeting", "method": "post", "action": "/meeting/end"},
                    hidden,
                    h("button", {"type": "submit"}, "End the meeting"),
                )
            )
    parts += [
        _now_box(now),
        h(
            "p",
            None,
            h("a", {"href": f"/next?after={now.change}" if now else "/next"}, "Next undecided change →"),
            " (each browser walks the agenda on its own; ",
            h("kbd", None, "a"),
            " accepts and ",
            h("kbd", None, "q"),
            " queries the current change on an article page)",
        ),
        h(
            "p",
            {"class": "follow"},
            h(
                "label",
                None,
                h("input", {"type": "checkbox", "id": "follow"}),
                " Follow the chair: go to each change as it is marked",
            ),
        ),
    ]
    return own_page("Meeting", "meeting", bar_, *parts)


def confirm_page(bar_: Markup, what: str, fields: Mapping[str, str], token: str, back: str) -> str:
    inputs = [h("input", {"type": "hidden", "name": k, "value": v}) for k, v in fields.items()]
    return own_page(
        "Confirm the correction",
        "confirm",
        bar_,
        h("h1", None, "Confirm the hand correction"),
        h("p", None, what),
        h(
            "p",
            {"class": "hint"},
            "The alignment of the pair is computed again with it; the page then shows the result, "
            "and the correction stays listed with your name until a chair removes it.",
        ),
        h(
            "form",
            {"method": "post", "action": "/review/correct"},
            inputs,
            h("input", {"type": "hidden", "name": TOKEN_FIELD, "value": token}),
            h("input", {"type": "hidden", "name": "confirm", "value": "yes"}),
            h("button", {"type": "submit"}, "Yes, set it"),
            " ",
            h("a", {"href": back}, "Cancel"),
        ),
    )
