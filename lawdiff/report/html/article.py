"""An article's page: its pairs side by side, then the synopsis of all editions."""

from __future__ import annotations

from lawdiff.align import Aspect
from lawdiff.diff import SHORT_ID, Change, ranked
from lawdiff.diff.article import ArticleView
from lawdiff.i18n import gettext as _
from lawdiff.i18n import ngettext, terms
from lawdiff.report.html.kind import addresses_arrow, kind_word
from lawdiff.report.html.law import Page
from lawdiff.report.html.markup import (
    Child,
    Markup,
    document,
    h,
    page_footer,
    section_markup,
    span,
)
from lawdiff.report.html.nav import article_name, article_nav, title_span
from lawdiff.report.html.pair import heat_tag, pair_section
from lawdiff.report.html.review import review_counts
from lawdiff.report.html.runs import RENUMBERED, first_words, run_kind, said
from lawdiff.report.html.synopsis import synopsis_section
from lawdiff.report.html.template import Template
from lawdiff.report.site import Site, anchor, article_file, history_file, pair_id
from lawdiff.report.text import number


def article_page(site: Site, a: ArticleView) -> str:
    path = article_file(a.number)
    page = Page(path, lambda e, addr: site.href(e, addr, path))
    page.ids.update({"top", "synopsis", "synopsis-h", "contents"})
    names = [e.name for e in a.editions]
    alone = None
    if not a.pairs:
        alone = h(
            "p",
            {"class": "note"},
            _("Only the {edition} edition in this corpus holds article {number}: there is nothing to compare.").format(
                edition=names[0], number=a.number
            ),
        )
    # The pairs first: the synopsis and the list at the top link to the rows they claimed.
    page.ids.update({"glance", "glance-h"})
    pairs = [pair_section(pv, page, site, a.number) for pv in a.pairs]
    main = h(
        "main",
        {"id": "top", "tabindex": "-1"},
        h("h1", None, article_name(a.number), " — " if a.title else None, title_span(a.title)),
        _facts(site, a),
        review_counts(site, a),
        h("nav", {"class": "contents", "id": "contents", "aria-label": _("On this page")}, _contents(a)),
        alone,
        glance_section(site, a, page) if a.pairs else None,
        pairs,
        synopsis_section(site, a, page),
    )
    title = _("{article} · lawdiff report").format(
        article=article_name(a.number) + (f" {a.title.rstrip('.')}" if a.title else "")
    )
    return document(
        title, "../", "article", article_nav(site, a, "../"), main, page_footer(site.thresholds, site.compared)
    )


def _facts(site: Site, a: ArticleView) -> Markup:
    """Which editions' corpora hold the article, which are passed over, and the link to its histories."""
    names = [e.name for e in a.editions]
    in_part = [e.name for e in a.passed_over]
    missing = [e.name for e in site.compared if e.name not in names and e.name not in in_part]
    said = [_("In the corpus: {editions}").format(editions=", ".join(names))]
    if missing:
        said.append(" " + _("(the {editions} corpus does not hold it)").format(editions=", ".join(missing)))
    if in_part:
        said.append(
            _(
                "; passed over: {editions}, whose corpus holds only some of its sections' pages"
                " (lawdiff compare and history follow it clause by clause)"
            ).format(editions=", ".join(in_part))
        )
    return h(
        "p",
        {"class": "lead"},
        said,
        ". ",
        h("a", {"href": history_file(a.number).split("/")[1]}, _("Clause histories")),
        ".",
    )


def _contents(a: ArticleView) -> Markup:
    """The page's contents: each pair with its heat, then the synopsis."""
    return h(
        "ol",
        {"class": "toc"},
        [
            h(
                "li",
                None,
                h("a", {"href": f"#{pair_id(pv.old.name, pv.new.name)}"}, f"{pv.old.name} → {pv.new.name}"),
                " ",
                heat_tag(pv.heat),
            )
            for pv in a.pairs
        ],
        h("li", None, h("a", {"href": "#synopsis"}, _("Synopsis of all editions"))),
    )


def glance_section(site: Site, a: ArticleView, page: Page) -> Markup:
    """The top of the page: per pair, newest first, one line per change, most significant first
    (:attr:`Change.significance`), each linked to its row.

    A line gives the address (old → new where it changed), the kind of
    change, its flags and the first words of its text, and links to the
    clause's history.  Clauses unchanged in place are counted, not listed;
    clauses renumbered with their words as they were share the last line
    (as they share lines of the table: :mod:`lawdiff.report.html.runs`).
    """
    blocks: list[Child] = []
    for pv in reversed(a.pairs):
        pid = pair_id(pv.old.name, pv.new.name)
        # What only one corpus holds is not compared: counted here, shown in the table with its note.
        # Most significant first (the study's score), document order among equals.
        listed = ranked(ch for ch in pv.changes if ch.noteworthy and ch.counterpart_in_corpus)
        outside = sum(1 for ch in pv.changes if not ch.counterpart_in_corpus)
        same = len(pv.changes) - len(listed) - outside
        renumbered = [ch for ch in listed if run_kind(ch) == RENUMBERED]
        items = [_glance_line(ch, pv.old.name, pv.new.name, pid, site, page) for ch in listed if ch not in renumbered]
        if renumbered:
            items.append(_renumbered_line(renumbered, pv.new.name, pid, page))
        blocks.append(
            h(
                "div",
                {"class": "glance-pair"},
                h(
                    "h3",
                    None,
                    h("a", {"href": f"#{pid}"}, f"{pv.old.name} → {pv.new.name}"),
                    " ",
                    heat_tag(pv.heat),
                ),
                h("ol", {"class": "glance-list"}, items) if items else None,
                _glance_hint(
                    ngettext(
                        "{n} clause unchanged in place, not listed.",
                        "{n} clauses unchanged in place, not listed.",
                        same,
                    ),
                    same,
                ),
                _glance_hint(_("{n} only in one edition's corpus, not compared (see the table)."), outside),
            )
        )
    return section_markup("glance", [_("Changes at a glance")], "glance", blocks)


def _glance_hint(said: str, n: int) -> Markup | None:
    return h("p", {"class": "hint"}, said.format(n=n)) if n else None


_RENUMBERED = Template(
    '<li class="k-unchanged renumbered"><span class="badge b-renumbered">{badge}</span> {said}: {links}</li>',
    block=True,
)
_ARROW = Template('<a href="{href}">{old} → {new}</a>')


def _renumbered_line(changes: list[Change], new: str, pid: str, page: Page) -> Markup:
    """The clauses renumbered with their words as they were, on one line, each linked to its line of the table."""
    links: list[Child] = []
    for i, ch in enumerate(changes):
        heading = ch.aspect is Aspect.TITLE
        ident = f"{pid}-{anchor(new, ch.new[0])}" + ("-title" if heading else "")
        href = f"#{ident}" if ident in page.ids else f"#change-{ch.id[:SHORT_ID]}"
        links.extend([", " if i else None, _ARROW(href=href, old=ch.old[0], new=ch.new[0])])
    words = said(f"{RENUMBERED} after badge", len(changes))
    return _RENUMBERED(badge=terms.note("renumbered"), said=words, links=links)


def _glance_line(ch: Change, old: str, new: str, pid: str, site: Site, page: Page) -> Markup:
    title = ch.aspect is Aspect.TITLE
    side, addresses, texts = (new, ch.new, ch.new_texts) if ch.new else (old, ch.old, ch.old_texts)
    # The row's first block on its side, else the row itself (its id anchor).
    first = f"{pid}-{anchor(side, addresses[0])}" + ("-title" if title else "")
    row = f"change-{ch.id[:SHORT_ID]}"
    href = f"#{first}" if first in page.ids else f"#{row}" if row in page.ids else f"#{pid}"
    shown = (
        addresses_arrow(ch.old, ch.new)
        if (ch.renumbered or ch.moved or len(ch.old) + len(ch.new) > 2)
        else addresses[0]
    )
    if ch.old and not ch.new:
        shown = ", ".join(ch.old)
    gist_text = (ch.new_title or ch.old_title) if title else (texts[0] if texts else "")
    hist = site.history_href(side, addresses[0], page.path)
    badges: list[Child] = [span(f"badge b-{ch.kind.value}", kind_word(ch.kind.value, title))]
    if ch.editorial_only:
        badges += [" ", span("badge b-editorial", terms.note("editorial only"))]
    if ch.stale_references:
        badges += [" ", span("badge b-stale", _("stale reference"))]
    flags = [[" ", span(f"flag f-{s.flag.value}", terms.flag(s.flag.value))] for s in ch.signals]
    if ch.significance:
        flags.append([" ", span("score", _("significance {value}").format(value=number(ch.significance)))])
    classes = [f"k-{ch.kind.value}"]
    if ch.normative:
        classes.append("normative")
    return _GLANCE_LINE(
        cls=" ".join(classes),
        href=href,
        label=f"{side} {shown}",
        shown=shown,
        badges=badges,
        flags=flags,
        gist=first_words(gist_text),
        history=[" ", _history_link(hist, side, addresses[0])] if hist else None,
    )


# A line of the changes at a glance (one per change listed), as h() would write it.
_GLANCE_LINE = Template(
    '<li class="{cls}"><a class="addr" href="{href}" aria-label="{label}">{shown}</a> {badges}{flags}'
    ' <span class="gist" lang="nl">{gist}</span>{history}</li>',
    block=True,
)
_HISTORY_LINK = Template('<a class="hist" href="{href}" aria-label="{label}">{text}</a>')


def _history_link(href: str, edition: str, address: str) -> Markup:
    label = _("history of {edition} {address}").format(edition=edition, address=address)
    return _HISTORY_LINK(href=href, label=label, text=_("history"))
