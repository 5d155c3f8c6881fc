"""The agenda (what is still open or in query) and each reviewer's page (what they did)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from urllib.parse import quote

from lawdiff import i18n, marks
from lawdiff.i18n import _, ngettext, terms
from lawdiff.model import natural_key
from lawdiff.report.html.markup import Child, Markup, h
from lawdiff.review import Decision, Entry, ReviewView, State, Status
from lawdiff.review.reading import Involvement
from lawdiff.serve.controls import when
from lawdiff.serve.frame import Now, href, label, now_box, own_page
from lawdiff.serve.language import phrase
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


def undecided(snap: Snapshot, view: ReviewView) -> list[Item]:
    """Every change still open or in query, in agenda order: differences, and anything in query
    (a decision a member queried included, until a chair answers)."""
    out: list[Item] = []
    for cid in snap.order:
        found = snap.changes[cid]
        item = Item(found, view.entry(cid))
        if item.queried or (item.status is Status.OPEN and found.change.noteworthy):
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
        now_box(now),
        sections or h("p", None, _("Nothing is open or in query: every change has a decision.")),
        _leftovers(view),
        _people(people),
    )


def _counts(open_n: int, query_n: int) -> str:
    """``3 open, 1 in query``."""
    return _("{open} open, {query} in query").format(open=open_n, query=query_n)


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
