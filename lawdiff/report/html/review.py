"""The committee's review in the static report, as it stood when the report was made.

Read-only: each change's row shows its status, assignee and comment thread
(through :attr:`Site.annotate`, the hook ``lawdiff serve`` uses for its
form); a decision made on an earlier text of the change is shown as
outdated, beside the text it was made on; the index and the article pages
count the open, queried and decided changes of each article; ``review.html``
lists the decisions that sit on no change of the report (outdated ones
too, for a check at one glance), and the hand corrections naming clauses
that are gone.  All of it is read from the :class:`ReviewView` that
:func:`lawdiff.review.attach` made: nothing is worked out here but counts.

Comments and names are people's text: escaped like everything else by the
builder, and their control characters (a terminal escape, a bidirectional
override) shown as escapes, as ``review list`` shows them.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING

from lawdiff import i18n
from lawdiff.diff import SHORT_ID, Change, Op
from lawdiff.diff.article import ArticleView
from lawdiff.i18n import gettext as _
from lawdiff.i18n import terms
from lawdiff.report.html.law import law_text
from lawdiff.report.html.markup import Child, Markup, document, h, page_footer, section_markup, span
from lawdiff.report.html.nav import crumbs
from lawdiff.report.site import REVIEW_FILE, Annotation, Annotator, Site, article_file

if TYPE_CHECKING:
    from lawdiff.report.reviewed import ReviewShown
    from lawdiff.review import Comment, Decision, Entry, ReviewView, StaleCorrection

# The statuses that close a change (the others are open or queried).
DECIDED = ("accepted", "translation-fix", "rejected")


@functools.cache
def _cleaner() -> Callable[[str], str]:
    # Imported when a review is shown (a report without one never loads the review package); once, as a
    # report with a comment on every change calls it some hundred thousand times.
    from lawdiff.review.render import clean

    return clean


def _clean(text: str) -> str:
    return _cleaner()(text)


def _when(at: str) -> str:
    """``2024-05-14T10:02:03.123456Z`` -> ``2024-05-14 10:02 UTC`` (``14 mei 2024 10:02 UTC``)."""
    return f"{i18n.format_stamp(at)} UTC" if len(at) >= 16 else at


def reviewed(ch: Change, decided: bool) -> bool:
    """Whether a change is one the committee reviews: a difference (or a stale reference), or one decided on."""
    return ch.noteworthy or decided


def annotator(view: ReviewView) -> Annotator:
    """The hook that adds each change's review to its row (see :attr:`Site.annotate`)."""

    def annotate(ch: Change, _old: str, _new: str) -> Annotation | None:
        entry = view.entries.get(ch.id)
        if not reviewed(ch, entry is not None and entry.decision is not None):
            return None
        status = entry.status.value if entry is not None else "open"
        classes = ("reviewed", f"r-{status}")
        if entry is None or entry.decision is None:
            return Annotation(classes, h("div", {"class": "review"}, _status_line(status, "", None)))
        outdated = entry.state.value == "outdated"
        return Annotation(
            (*classes, "r-outdated") if outdated else classes,
            h(
                "div",
                {"class": "review"},
                _status_line(status, entry.assignee, entry.decision),
                _outdated(entry) if outdated else None,
                _thread(entry.comments),
                _earlier(entry.earlier),
            ),
        )

    return annotate


def _status_line(status: str, assignee: str, d: Decision | None) -> Markup:
    return h(
        "p",
        {"class": "rstatus"},
        span("vh", _("Review:") + " "),
        span(f"rbadge s-{status}", terms.status(status)),  # the same few badges on every row: made once
        " · " + _("assigned to {name}").format(name=_clean(assignee)) if assignee else None,
        h("span", {"class": "by"}, f" · {_clean(d.author)}, {_when(d.updated)}") if d is not None else None,
    )


def _outdated(entry: Entry) -> Markup:
    """A decision made on an earlier text: that text, and what changed in it since (``<del>``/``<ins>``)."""
    texts: list[Child] = []
    said = (
        _("the old text it was decided on, with the changes since"),
        _("the new text it was decided on, with the changes since"),
    )
    for summary, pieces in zip(said, entry.since, strict=True):
        if not pieces:
            continue
        texts.append(
            h(
                "details",
                {"class": "since"},
                h("summary", None, summary),
                law_text("tx inline", [(p.op, p.text) for p in pieces]),
            )
        )
    d = entry.decision
    assert d is not None
    earlier = _("decided on an earlier text ({id}, {when}).").format(id=d.id[:SHORT_ID], when=_when(d.updated))
    return h("div", {"class": "outdated"}, h("p", None, h("b", None, _("Outdated:")), " " + earlier), texts)


def _thread(comments: Iterable[Comment]) -> Markup | None:
    items = [
        h(
            "li",
            None,
            h("span", {"class": "who"}, _clean(c.author)),
            f", {_when(c.created)}"
            + (", " + _("edited {when}").format(when=_when(c.edited)) if c.edited else "")
            + ": ",
            h("span", {"class": "ctext"}, _clean(c.text)),
        )
        for c in comments
    ]
    return h("ol", {"class": "thread", "aria-label": _("Comments")}, items) if items else None


def _earlier(decisions: Sequence[Decision]) -> Markup | None:
    if not decisions:
        return None
    said = _("{status} on {id} ({when}, {author})")
    return h(
        "p",
        {"class": "earlier"},
        _("Earlier:") + " ",
        "; ".join(
            said.format(
                status=terms.status(d.status.value), id=d.id[:SHORT_ID], when=_when(d.updated), author=_clean(d.author)
            )
            for d in decisions
        ),
    )


# ---------------------------------------------------------------------------
# Counts


def article_tally(review: ReviewShown, a: ArticleView) -> dict[str, int]:
    """Open, query and decided changes of an article (each change once), and how many are outdated."""
    out = {"open": 0, "query": 0, "decided": 0, "outdated": 0}
    seen: set[str] = set()
    marks = review.marks
    for pv in a.pairs:
        for ch in pv.changes:
            mark = marks.get(ch.id)
            if ch.id in seen or not reviewed(ch, mark is not None):
                continue
            seen.add(ch.id)
            status, outdated = mark if mark is not None else ("open", False)
            out["decided" if status in DECIDED else status] += 1
            out["outdated"] += outdated
    return out


def tally_text(t: dict[str, int]) -> str:
    """``3 open, 1 query, 5 decided (1 outdated)``."""
    text = _("{open} open, {query} query, {decided} decided").format(**t)
    return text + (" " + _("({outdated} outdated)").format(**t) if t["outdated"] else "")


def review_counts(site: Site, a: ArticleView) -> Markup | None:
    """The article page's line of review counts (nothing without a review)."""
    if site.review is None or not a.pairs:
        return None
    return h(
        "p",
        {"class": "review-counts"},
        _("Committee review, as of this report: {counts}.").format(counts=tally_text(article_tally(site.review, a))),
        " ",
        h("a", {"href": f"../{REVIEW_FILE}"}, _("Decisions that sit on no change")),
        ".",
    )


# ---------------------------------------------------------------------------
# The page of decisions that sit on no change


def review_page(site: Site) -> str:
    """``review.html``: outdated, orphaned and not-compared decisions, and stale corrections."""
    assert site.review is not None
    view = site.review.view
    rows = _changes_by_id(site)
    where: Callable[[str], tuple[str, str] | None] = rows.get
    total = _total(site, site.review)
    outdated = [
        _decision_item(o.decision, view, _link(where(o.change), _("now on change {id}").format(id=o.change[:SHORT_ID])))
        for o in view.outdated
    ]
    orphaned = [_decision_item(d, view, None) for d in view.orphaned]
    not_compared = [_decision_item(d, view, None) for d in view.not_compared]
    stale = [_stale_item(s) for s in view.stale_corrections]
    main = h(
        "main",
        {"id": "top", "tabindex": "-1"},
        h("h1", None, _("Committee review: decisions that sit on no change")),
        h(
            "p",
            {"class": "lead"},
            _(
                "The review store as it stood when this report was made: {counts} over the report's changes. Each "
                "change's own decision is shown in its row; these are the ones that are not, or not as made."
            ).format(counts=tally_text(total)),
        ),
        _part(
            "outdated",
            _("Outdated"),
            _(
                "Decided on an earlier text of a change: shown in the change's row beside the current text, never "
                "applied to it."
            ),
            outdated,
        ),
        _part("orphaned", _("Orphaned"), _("Their clauses are no longer in the editions compared."), orphaned),
        _part(
            "not-compared",
            _("Not compared"),
            _("On a pair of editions this report does not compare."),
            not_compared,
        ),
        _part(
            "stale-corrections",
            _("Hand corrections naming clauses that are gone"),
            _("Corrections of the alignment that name a clause no edition of the corpus holds any more."),
            stale,
        ),
    )
    return document(
        _("Committee review · lawdiff report"),
        "",
        "review",
        crumbs(_("Review")),
        main,
        page_footer(site.thresholds, site.compared),
    )


def _part(sid: str, title: str, hint: str, items: list[Markup]) -> Markup:
    """One section of the page: its title with the count, a hint of what it lists, the list (or "None.")."""
    body: Child = h("ol", {"class": "decisions"}, items) if items else h("p", {"class": "note"}, _("None."))
    return section_markup(sid, [f"{title} ({len(items)})"], None, h("p", {"class": "hint"}, hint), body)


def _stale_item(s: StaleCorrection) -> Markup:
    """A hand correction and the clauses it names that the corpus no longer holds."""
    c = s.correction
    return h(
        "li",
        None,
        h("code", None, c.id[:SHORT_ID]),
        f" {terms.correction(c.kind.value)} ",
        ", ".join(f"{c.old_edition}:{a}" for a in c.old),
        " = " if c.kind.value == "pin" else " ≠ ",
        ", ".join(f"{c.new_edition}:{a}" for a in c.new),
        " "
        + _("(by {author}, {when}): no longer in the corpus: {clauses}").format(
            author=_clean(c.author), when=_when(c.created), clauses=", ".join(s.missing)
        ),
    )


def _total(site: Site, review: ReviewShown) -> dict[str, int]:
    out = {"open": 0, "query": 0, "decided": 0, "outdated": 0}
    for a in site.articles:
        for k, v in article_tally(review, a).items():
            out[k] += v
    return out


def _changes_by_id(site: Site) -> dict[str, tuple[str, str]]:
    """Change id -> (page, row anchor) for every change the report shows."""
    out: dict[str, tuple[str, str]] = {}
    for a in site.articles:
        for pv in a.pairs:
            for ch in pv.changes:
                out.setdefault(ch.id, (article_file(a.number), f"change-{ch.id[:SHORT_ID]}"))
    return out


def _link(where: tuple[str, str] | None, text: str) -> Markup:
    if where is None:
        return h("span", None, text)
    return h("a", {"href": f"{where[0]}#{where[1]}"}, text)


def _decision_item(d: Decision, view: ReviewView, now: Markup | None) -> Markup:
    made: list[Child] = []
    for edition, addresses, texts in ((d.old_edition, d.old, d.old_texts), (d.new_edition, d.new, d.new_texts)):
        for address, text in zip(addresses, texts, strict=False):
            made.append(
                h(
                    "div",
                    {"class": "made"},
                    h("span", {"class": "addr"}, f"{edition} {address}"),
                    " ",
                    law_text("tx inline", [(Op.EQUAL, text)]),
                )
            )
    where = ", ".join(d.old or d.new)
    return h(
        "li",
        {"class": f"decision r-{d.status.value}"},
        h(
            "p",
            None,
            h("code", None, d.id[:SHORT_ID]),
            " ",
            h("span", {"class": f"rbadge s-{d.status.value}"}, terms.status(d.status.value)),
            f" · {d.old_edition} → {d.new_edition} {terms.kind(d.kind)} ",
            where,
            f" · {_clean(d.author)}, {_when(d.updated)}",
            " · " + _("assigned to {name}").format(name=_clean(d.assignee)) if d.assignee else None,
            [" · ", now] if now is not None else None,
        ),
        h("p", {"class": "sl"}, _("Made on:")),
        made,
        _thread(view.comments.get(d.id, ())),
    )


def matrix_cell(review: ReviewShown, a: ArticleView) -> Markup:
    """The index's review column: the article's open, query and decided changes."""
    t = article_tally(review, a)
    return h(
        "td",
        {"class": "rcount" + ("" if t["open"] + t["query"] else " done")},
        _("{open} open · {query} query · {decided} decided").format(**t),
    )
