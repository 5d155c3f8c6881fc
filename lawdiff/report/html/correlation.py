"""A pair's correlation (destination) table: ``correlation-OLD-NEW.html``.

The rows are those of ``lawdiff correlate`` (:mod:`lawdiff.diff.correlate`,
laid out for text by :mod:`lawdiff.report.correlate`): one per clause,
old number -> new number, over the articles the report compares in this
pair.  The page holds the table twice, ordered by the old number and by the
new one, each in a section of its own that the other links to, so that both
orders work without JavaScript and both print.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

from lawdiff.diff import SHORT_ID, Change
from lawdiff.diff import correlate as table
from lawdiff.diff.article import PairTotal, PairView
from lawdiff.i18n import gettext as _
from lawdiff.i18n import ngettext
from lawdiff.report import article_ranges
from lawdiff.report.html.markup import Child, Markup, Splices, document, h, page_footer, phrase, section_markup
from lawdiff.report.html.nav import crumbs
from lawdiff.report.html.template import Template
from lawdiff.report.site import Site, article_file, correlation_file

_NONE = h("span", {"class": "none"}, "—")


def pair_changes(site: Site, old: str, new: str) -> tuple[list[Change], dict[str, str]]:
    """The pair's changes over the articles the report compares it on, each once; and the page of each."""
    changes: list[Change] = []
    pages: dict[str, str] = {}
    for a in site.articles:
        pv: PairView | None = next((p for p in a.pairs if (p.old.name, p.new.name) == (old, new)), None)
        if pv is None:
            continue
        for ch in pv.changes:
            if ch.id not in pages:
                pages[ch.id] = article_file(a.number)
                changes.append(ch)
    return changes, pages


def correlation_page(site: Site, total: PairTotal) -> str:
    return "".join(correlation_pieces(site, total))


def correlation_pieces(site: Site, total: PairTotal) -> list[str]:
    """The page of :func:`correlation_page` as pieces to write one after the other (:class:`Splices`)."""
    old, new = total.old.name, total.new.name
    path = correlation_file(old, new)
    changes, pages = pair_changes(site, old, new)
    rows = table.rows(None, changes)
    # The rows by the old number link each number to its clause and each relation to its change; the same
    # rows by the new number stand without their links, which would double the page for nothing.
    made = [_row(site, path, pages, old, new, group) for group in runs(rows)]
    by_new = [_plain_row(group) for group in runs(sorted(rows, key=table.by_new))]
    # Each order's rows stand in the page as a placeholder row, replaced by the rows themselves as the page
    # is written: the table is some 5 MB at 744 articles, and building it inside the elements around it
    # copied it once per element (45 MB at a time, the report's peak memory).
    bodies = Splices()
    name = _("Correlation table {old} → {new}").format(old=old, new=new)
    main = h(
        "main",
        {"id": "top", "tabindex": "-1"},
        h("h1", None, name),
        h(
            "p",
            {"class": "lead"},
            _(
                "Where each clause of {old} went in {new}, and where each clause of {new} came from, as EU recasts "
                "and consolidations print it: one row per clause, over the articles both corpora hold ({articles})."
            ).format(old=old, new=new, articles=article_ranges(list(total.articles), "–")),
            " ",
            _summary(rows),
        ),
        h(
            "nav",
            {"class": "contents", "aria-label": _("Orders")},
            h(
                "ul",
                {"class": "toc"},
                h("li", None, h("a", {"href": "#by-old"}, _ordered(old))),
                h("li", None, h("a", {"href": "#by-new"}, _ordered(new))),
            ),
        ),
        _order_section(old, new, "old", _body(made, bodies)),
        _order_section(old, new, "new", _body(by_new, bodies)),
    )
    page = document(
        _("{page} · lawdiff report").format(page=name),
        "",
        "correlation",
        crumbs(name),
        main,
        page_footer(site.thresholds, site.compared),
    )
    return bodies.pieces(page)


def _summary(rows: Iterable[table.Row]) -> str:
    """How many rows of each relation, in words: ``12 same number, 3 renumbered.``"""
    said = table.summary(rows)
    return said + "." if said else _("No clause to list.")


def _side(site: Site, path: str, edition: str, addresses: tuple[str, ...]) -> list[Child]:
    """One side's numbers, each linked to its clause where the report has a page for it."""
    if not addresses:
        return [_NONE]
    out: list[Child] = []
    for i, a in enumerate(addresses):
        # Named by the address alone: the column's head names the edition.
        href = site.href(edition, a, path)
        out.extend([", " if i else None, _LINK(href=href, text=a) if href else a])
    return out


_LINK = Template('<a href="{href}">{text}</a>')
_ROW = Template(
    '<tr class="rel-{relation}"><td>{old}</td><td>{new}</td><td>{label}</td><td class="num">{ratio}</td>'
    "<td>{words}</td></tr>",
    block=True,
)


def runs(rows: Iterable[table.Row]) -> list[list[table.Row]]:
    """The rows in groups of one, but for consecutive clauses (and headings) that kept their number and their
    words, which share one row: ``45A, 45B, 45C | 45A, 45B, 45C | same number (3 clauses)``."""
    out: list[list[table.Row]] = []
    last_alike = False  # whether the last row taken is alike
    for r in rows:
        alike = _alike(r)
        if alike and out and last_alike:
            out[-1].append(r)
        else:
            out.append([r])
        last_alike = alike
    return out


def _alike(r: table.Row) -> bool:
    """Whether a row kept its number and its words: read from the study's own values, not from the words
    shown (those are in the interface's language)."""
    return (
        r.relation is table.Relation.UNCHANGED
        and r.reworded not in ("reworded", "editorial")
        and len(r.old) == len(r.new) == 1
    )


def _numbers(group: list[table.Row], side: str) -> tuple[str, ...]:
    """A side's numbers of a row's clauses, each once (a clause's heading and text share its number)."""
    return tuple(dict.fromkeys(a for g in group for a in (g.old if side == "old" else g.new)))


def _label(group: list[table.Row]) -> str:
    """The relation of a row, and how many clauses share it: ``same number (3 clauses)``."""
    if len(group) == 1:
        return group[0].label
    n = len(_numbers(group, "old"))
    return group[0].relation.label + " " + ngettext("({n} clause)", "({n} clauses)", n).format(n=n)


def _row(site: Site, path: str, pages: dict[str, str], old: str, new: str, group: list[table.Row]) -> Markup:
    """A row: the numbers on each side, the relation (linked to its first change), the ratio, the words."""
    r = group[0]
    page = pages.get(r.change)
    relation: Child = _label(group)
    if page:
        relation = _LINK(href=f"{page}#change-{r.change[:SHORT_ID]}", text=relation)
    return _ROW(
        relation=r.relation.value,
        old=_side(site, path, old, _numbers(group, "old")),
        new=_side(site, path, new, _numbers(group, "new")),
        label=relation,
        ratio=r.ratio,
        words=r.words or "—",
    )


def _plain_row(group: list[table.Row]) -> Markup:
    """A row as :func:`_row` makes it, without links."""
    r = group[0]
    return _ROW(
        relation=r.relation.value,
        old=", ".join(_numbers(group, "old")) or _NONE,
        new=", ".join(_numbers(group, "new")) or _NONE,
        label=_label(group),
        ratio=r.ratio,
        words=r.words or "—",
    )


def _body(rows: list[Markup], bodies: Splices) -> Markup:
    """An order's ``<tbody>``: a placeholder row, its rows held in ``bodies``."""
    return h("tbody", None, bodies.hold(rows) if rows else None)


def _order_section(old: str, new: str, by: Literal["old", "new"], body: Markup) -> Markup:
    """The table ordered by one side's numbers (``by``: "old" or "new"), in a section of its own that links to
    the other order's."""
    other = "new" if by == "old" else "old"
    names = {"old": old, "new": new}
    title = _ordered(names[by])
    heads = (
        _("{edition} number").format(edition=old),
        _("{edition} number").format(edition=new),
        _("Relation (to the change)"),
        _("Ratio"),
        _("Words"),
    )
    head = h("tr", None, [h("th", {"scope": "col"}, text) for text in heads])
    t = h(
        "table",
        {"class": "corr"},
        h("caption", None, f"{old} → {new}: {_ordered(names[by], lower=True)}"),
        h("thead", None, head),
        body,
    )
    hint = (
        _("The same table {ordered}.")
        if by == "old"
        else _("The same table {ordered}, where each number links to its clause and each relation to its change.")
    )
    link = h("a", {"href": f"#by-{other}"}, _ordered(names[other], lower=True))
    return section_markup(f"by-{by}", [title], "corr-order", h("p", {"class": "hint"}, phrase(hint, ordered=link)), t)


def _ordered(edition: str, lower: bool = False) -> str:
    """``Ordered by the 2007 number`` (``lower``: as it runs on in a sentence)."""
    said = _("Ordered by the {edition} number").format(edition=edition)
    return said[:1].lower() + said[1:] if lower else said
