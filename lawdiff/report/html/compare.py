"""One pair on one page: ``lawdiff compare OLD NEW --format html``."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import replace

from lawdiff.align import Aspect
from lawdiff.diff import SHORT_ID, Change, Comparison
from lawdiff.diff.article import editorial_by_kind
from lawdiff.i18n import gettext as _
from lawdiff.model import Edition, natural_key, parent_address
from lawdiff.report.html.context import PairContext, block_id
from lawdiff.report.html.counts import counts_list, pattern_list, significance_counts
from lawdiff.report.html.law import Page
from lawdiff.report.html.markup import Child, Markup, Splices, document, h, made_by, marks_legend, page_footer
from lawdiff.report.html.nav import article_name, title_span
from lawdiff.report.html.pair import left_right, pair_table, sources_line
from lawdiff.report.site import pair_id

# ---------------------------------------------------------------------------
# One pair on one page: `lawdiff compare OLD NEW --format html`


def comparison(comp: Comparison, changes: Iterable[Change], old: Edition, new: Edition) -> str:
    """The side-by-side view of one pair of editions as one self-contained file."""
    return "".join(comparison_pieces(comp, changes, old, new))


def comparison_pieces(comp: Comparison, changes: Iterable[Change], old: Edition, new: Edition) -> tuple[str, ...]:
    """The page of :func:`comparison` in pieces to be written one after the other: a clause of megabytes
    apart from the page around it, which holds an arrow and a dash (joined, the whole would be a string of
    two bytes a character, twice the page's size, before it was encoded)."""
    changes = list(changes)
    moved = {r.old: comp.alignment.successors(r.old) for ch in changes for r in ch.stale_references}
    ctx = PairContext(old, new, pair_id(old.name, new.name), moved)
    by_article: dict[str, list[Change]] = {}
    for ch in changes:
        by_article.setdefault(ch.article, []).append(ch)
    order = sorted(by_article, key=natural_key)
    # A clause of megabytes is held out of the page until the end (law_text), copied once, into the file.
    held = Splices()
    page = Page("compare.html", _resolver(_shown_blocks(ctx, changes)), held=held)
    page.ids.add("top")
    sections = [_article_section(ctx, page, n, by_article[n]) for n in order]
    significance = significance_counts(changes, comp)
    main = h(
        "main",
        {"id": "top", "tabindex": "-1"},
        h("h1", None, f"{old.name} → {new.name}"),
        h(
            "p",
            {"class": "lead"},
            _("Every clause of {old} beside its counterpart in {new}.").format(old=old.name, new=new.name) + " ",
            marks_legend(),
        ),
        counts_list(
            replace(comp, changes=tuple(changes)).counts(),
            editorial_by_kind(changes),
            sum(len(ch.stale_references) for ch in changes),
            significance,
        ),
        pattern_list(significance.patterns, lambda cid, _address: f"#change-{cid[:SHORT_ID]}"),
        _contents(order, old, new) if len(order) > 1 else None,
        h("p", {"class": "note"}, _("No change to show.")) if not order else None,
        sections,
    )
    footer = page_footer(comp.thresholds, (old, new))
    made = document(f"{old.name} → {new.name} · lawdiff", "", "compare", main, footer, inline=True)
    return tuple(held.pieces(made))


def _shown_blocks(ctx: PairContext, changes: list[Change]) -> dict[tuple[str, str], str]:
    """(edition, address) -> the id of the clause's first block in this file, its own row rather than its
    heading's where it has both."""
    old, new = ctx.old.name, ctx.new.name
    shown: dict[tuple[str, str], str] = {}
    for ch in sorted(changes, key=lambda ch: ch.aspect is Aspect.TITLE):
        for a in ch.old:
            shown.setdefault((old, a), block_id(ctx, old, a, ch.aspect is Aspect.TITLE))
        for a in ch.new:
            shown.setdefault((new, a), block_id(ctx, new, a, ch.aspect is Aspect.TITLE))
    return shown


def _resolver(shown: dict[tuple[str, str], str]) -> Callable[[str, str], str | None]:
    """How the file links to a clause.

    Links lead to clauses shown in this file (their first block), walking
    up to a parent shown here; a clause not in the file is not linked.
    """

    def resolve(edition: str, address: str) -> str | None:
        addr = address
        while addr:
            ident = shown.get((edition, addr))
            if ident:
                return f"#{ident}"
            addr = parent_address(addr)
        return None

    return resolve


def _contents(order: list[str], old: Edition, new: Edition) -> Markup:
    """The list of the articles shown, each linked to its section; one held by one edition only says so."""
    items: list[Child] = []
    for n in order:
        held = [e.name for e in (old, new) if e.find(n) is not None]
        note = " " + _("(only in {edition})").format(edition=held[0]) if len(held) == 1 else ""
        items.append(
            h(
                "li",
                None,
                h("a", {"href": f"#article-{_safe(n)}"}, article_name(n)),
                " ",
                title_span(_title_of(n, old, new)),
                note,
            )
        )
    return h("nav", {"class": "contents", "aria-label": _("Articles")}, h("ol", {"class": "toc"}, items))


def _article_section(ctx: PairContext, page: Page, n: str, changes: list[Change]) -> Markup:
    """Article ``n``'s changes side by side, under its number and title."""
    old, new = ctx.old, ctx.new
    sid = page.claim(f"article-{_safe(n)}") or f"article-{_safe(n)}-2"
    title = _title_of(n, old, new)
    return h(
        "section",
        {"class": "pair", "id": sid},
        h("h2", None, article_name(n), " — " if title else None, title_span(title)),
        pair_table(
            ctx,
            changes,
            page,
            _chip,
            left_right(article_name(n), old.name, new.name),
            running=(
                f"{article_name(n)} · {old.name} → {new.name} · {sources_line(old, n)}; {sources_line(new, n)}",
                made_by(old, new),
            ),
        ),
    )


def _chip(_edition: str, _address: str, ident: str) -> str | None:
    """A clause block's chip links to the block itself: the file is the whole view, with no page to go to."""
    return f"#{ident}" if ident else None


def _title_of(address: str, old: Edition, new: Edition) -> str:
    clause = new.find(address) or old.find(address)
    return clause.title if clause is not None else ""


def _safe(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]", "_", text)
