"""The agenda (what is still open or in query) and each reviewer's page (what they did).

The agenda lists the undecided changes in the order a chair picks for the meeting
(:class:`lawdiff.review.settings.AgendaOrder`: by article, the default, or most significant first),
and "Next undecided" walks them in that order; a member sees the order and who may change it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from urllib.parse import quote

from lawdiff import i18n, marks
from lawdiff.diff.ranking import ranked
from lawdiff.i18n import N_, ngettext, terms
from lawdiff.i18n import gettext as _
from lawdiff.model import natural_key
from lawdiff.report.html.markup import Child, Markup, h, phrase
from lawdiff.review import Decision, Entry, ReviewView, State, Status
from lawdiff.review.reading import Involvement
from lawdiff.review.settings import AgendaOrder
from lawdiff.serve.auth import TOKEN_FIELD
from lawdiff.serve.controls import when
from lawdiff.serve.frame import Now, href, label, now_box, own_page
from lawdiff.serve.marked import shown, who
from lawdiff.serve.state import Located, Snapshot


@dataclass(frozen=True, slots=True)
class Item:
    found: Located
    entry: Entry

    @property
    def status(self) -> Status:
        """The status of the change as it now reads: an outdated decision leaves it open."""
        return self.entry.status if self.entry.state is State.CURRENT else Status.OPEN

    @property
    def queried(self) -> bool:
        """In query: its status, or a member's open question on its decision."""
        return self.status is Status.QUERY or (self.entry.state is State.CURRENT and bool(self.entry.open_questions))


def in_agenda_order(snap: Snapshot, order: AgendaOrder) -> tuple[str, ...]:
    """The run's change ids in the agenda's ``order``: the snapshot's article order, or most significant
    first (the study's score, :func:`lawdiff.diff.ranking.ranked`) and article order among equals."""
    if order is AgendaOrder.SIGNIFICANCE:
        return tuple(ch.id for ch in ranked(snap.changes[cid].change for cid in snap.order))
    return snap.order


def undecided(snap: Snapshot, view: ReviewView, order: AgendaOrder = AgendaOrder.ARTICLE) -> list[Item]:
    """Every change still open or in query, in the agenda's ``order``: differences, and anything in query
    (a decision a member queried included, until a chair answers)."""
    out: list[Item] = []
    for cid in in_agenda_order(snap, order):
        found = snap.changes[cid]
        item = Item(found, view.entry(cid))
        if item.queried or (item.status is Status.OPEN and found.change.noteworthy):
            out.append(item)
    return out


def next_undecided(
    snap: Snapshot, view: ReviewView, after: str, order: AgendaOrder = AgendaOrder.ARTICLE
) -> Located | None:
    """The first undecided change after ``after`` in the agenda's ``order`` (from the start when unknown)."""
    place = {cid: i for i, cid in enumerate(in_agenda_order(snap, order))}
    start = place.get(after, -1)
    return next((it.found for it in undecided(snap, view, order) if place[it.found.change.id] > start), None)


def agenda_page(
    snap: Snapshot,
    view: ReviewView,
    bar_: Markup,
    now: Now | None,
    people: Iterable[str],
    order: AgendaOrder = AgendaOrder.ARTICLE,
    chair: bool = False,
    token: str = "",
) -> str:
    """The agenda in the meeting's ``order``: by article (then pair), or one list, most significant first;
    ``chair``: the page offers the form that sets the order (``token``: the session's forgery token)."""
    items = undecided(snap, view, order)
    by_article: dict[str, dict[tuple[str, str], list[Item]]] = {}
    for it in items:
        comp = it.found.comparison
        by_article.setdefault(it.found.article, {}).setdefault((comp.old, comp.new), []).append(it)
    query_n = sum(1 for it in items if it.queried)
    open_n = len(items) - query_n
    sections: list[Child] = []
    for article in sorted(by_article, key=natural_key):
        pairs = by_article[article]
        blocks: list[Child] = []
        for (old, new), its in pairs.items():
            q = sum(1 for it in its if it.queried)
            blocks.append(
                h(
                    "section",
                    {"class": "agenda-pair"},
                    h("h3", None, f"{old} → {new}: " + _counts(len(its) - q, q)),
                    h("ol", {"class": "agenda"}, [_item(it, now) for it in its]),
                )
            )
        total = sum(len(v) for v in pairs.values())
        title = _("Article {number}").format(number=article) if article else _("Outside the report's articles")
        sections.append(
            h("section", {"class": "agenda-article", "id": f"a-{article}"}, h("h2", None, f"{title} ({total})"), blocks)
        )
    articles = ngettext("over {n} article.", "over {n} articles.", len(by_article)).format(n=len(by_article))
    if order is AgendaOrder.SIGNIFICANCE and items:
        sections = [h("ol", {"class": "agenda agenda-ranked"}, [_item(it, now) for it in items])]
    return own_page(
        _("Agenda"),
        "agenda",
        bar_,
        h("h1", None, _("Agenda: what is still open or in query")),
        h(
            "p",
            {"class": "lead"},
            f"{_counts(open_n, query_n)}, {articles} ",
            h("a", {"href": "/next"}, _("Walk them one by one from the first")),
            ".",
        ),
        _order_control(order, chair, token),
        now_box(now),
        sections or h("p", None, _("Nothing is open or in query: every change has a decision.")),
        _leftovers(view),
        _people(people),
    )


def _counts(open_n: int, query_n: int) -> str:
    """``3 open, 1 in query``."""
    return _("{open} open, {query} in query").format(open=open_n, query=query_n)


# The agenda's orders as the page names them (translated where shown).
ORDER_NAMES = {AgendaOrder.ARTICLE: N_("by article"), AgendaOrder.SIGNIFICANCE: N_("most significant first")}


def _order_control(order: AgendaOrder, chair: bool, token: str) -> Markup:
    """The agenda's order: a chair's form that sets it for everyone, or what it is."""
    if not chair:
        return h(
            "p",
            {"class": "agenda-order"},
            _("Order: {order} (a chair chooses it).").format(order=_(ORDER_NAMES[order])),
        )
    options = [h("option", {"value": o.value, "selected": o is order}, _(ORDER_NAMES[o])) for o in AgendaOrder]
    return h(
        "form",
        {"class": "agenda-order", "method": "post", "action": "/agenda/order"},
        h("input", {"type": "hidden", "name": TOKEN_FIELD, "value": token}),
        h("label", None, _("Order:"), " ", h("select", {"name": "order"}, options)),
        " ",
        h("button", {"type": "submit"}, _("Set the order for everyone")),
    )


def _item(it: Item, now: Now | None) -> Markup:
    e = it.entry
    notes: list[Child] = [" ", h("span", {"class": f"st st-{it.status.value}"}, terms.status(it.status.value))]
    if e.assignee and e.state is State.CURRENT:
        notes += ["; ", phrase(_("assigned to {name}"), name=who(e.assignee))]
    if it.queried and it.status is not Status.QUERY:
        notes.append("; " + _("queried: a chair is to confirm or change it"))
    if e.comments:
        n = len(e.comments)
        notes.append("; " + ngettext("{n} comment", "{n} comments", n).format(n=n))
    if e.state is State.OUTDATED and e.decision is not None:
        earlier = _("{status} on an earlier text").format(status=terms.status(e.decision.status.value))
        notes += ["; ", h("span", {"class": "outdated"}, earlier)]
    here = now is not None and now.change == it.found.change.id
    return h(
        "li",
        {"class": "discussing" if here else None},
        h("a", {"href": href(it.found)}, label(it.found)),
        _significance(it.found),
        h("br"),
        shown(first_words(it.found), "q", "first", lang="nl"),
        notes,
        h("b", None, " ← " + _("now discussing")) if here else None,
    )


# How much of a change's text the agenda quotes, so that an item says what it is.
FIRST_WORDS = 12


def first_words(found: Located) -> str:
    """The first words of the change's new text (of its old text when it was removed), as the law has them."""
    ch = found.change
    words = " ".join(ch.new_texts or ch.old_texts).split()
    return " ".join(words[:FIRST_WORDS]) + (" …" if len(words) > FIRST_WORDS else "")


def _significance(found: Located) -> Markup:
    """The study's significance score of the change (:attr:`lawdiff.diff.vocabulary.Change.significance`)."""
    weight = i18n.format_number(found.change.significance, 2)
    return h("span", {"class": "significance"}, " · " + _("significance {value}").format(value=weight))


def _decision_line(d: Decision) -> list[Child]:
    where = ", ".join(d.new or d.old)
    return [
        f"{d.old_edition} → {d.new_edition} {terms.kind(d.kind)} {where}: ",
        phrase(
            _("{status} by {name}, {when}"),
            status=h("b", None, terms.status(d.status.value)),
            name=who(d.author),
            when=when(d.updated),
        ),
    ]


def _leftovers(view: ReviewView) -> list[Child]:
    out: list[Child] = []
    if view.outdated:
        out.append(
            h(
                "section",
                {"id": "outdated"},
                h("h2", None, _("Decided on an earlier text ({n})").format(n=len(view.outdated))),
                h(
                    "ul",
                    None,
                    [
                        h(
                            "li",
                            None,
                            _decision_line(o.decision),
                            " — ",
                            phrase(_("the change is now {change}"), change=h("code", None, o.change[:10])),
                        )
                        for o in view.outdated
                    ],
                ),
            )
        )
    for sid, title, decisions in (
        ("orphaned", _("Orphaned: their clauses are gone ({n})"), view.orphaned),
        ("not-compared", _("On pairs this run does not compare ({n})"), view.not_compared),
    ):
        if decisions:
            out.append(
                h(
                    "section",
                    {"id": sid},
                    h("h2", None, title.format(n=len(decisions))),
                    h("ul", None, [h("li", None, _decision_line(d)) for d in decisions]),
                )
            )
    return out


def _people(people: Iterable[str]) -> Markup:
    names = list(people)
    return h(
        "section",
        {"id": "people"},
        h("h2", None, _("Per reviewer")),
        h(
            "ul",
            {"class": "people"},
            [h("li", None, h("a", {"href": f"/people?name={quote(n)}"}, who(n))) for n in names],
        )
        if names
        else h("p", None, _("Nobody has written anything yet.")),
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
                        h("span", {"class": "st"}, terms.status(e.status.value)),
                    )
                )
            elif cid in decisions:
                lines.append(h("li", None, _decision_line(decisions[cid]), " " + _("(no longer in this run)")))
        return h("ul", None, lines) if lines else h("p", {"class": "none"}, _("none"))

    return own_page(
        marks.escape(name),  # a title holds no markup: its hidden characters as escapes
        "person",
        bar_,
        h("h1", None, phrase(_("What {name} did in the review"), name=who(name))),
        h("h2", None, _("Assigned ({n})").format(n=len(did.assigned))),
        items(did.assigned),
        h("h2", None, _("Commented on ({n})").format(n=len(did.commented))),
        items(did.commented),
        h("h2", None, _("Decided ({n})").format(n=len(did.decided))),
        items(did.decided),
    )
