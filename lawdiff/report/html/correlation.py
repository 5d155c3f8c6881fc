"""A pair's correlation (destination) table: ``correlation-OLD-NEW.html``.

The rows are those of ``lawdiff correlate`` (:mod:`lawdiff.diff.correlate`,
laid out for text by :mod:`lawdiff.report.correlate`): one per clause,
old number -> new number, over the articles the report compares in this
pair.  The page holds the table twice, ordered by the old number and by the
new one, each in a section of its own that the other links to, so that both
orders work without JavaScript and both print.
"""

from __future__ import annotations

from lawdiff.diff import SHORT_ID, Change
from lawdiff.diff import correlate as table
from lawdiff.diff.article import PairTotal, PairView
from lawdiff.errors import LawdiffBug
from lawdiff.report import article_ranges
from lawdiff.report.html.markup import Child, Markup, _Block, _footer, _section, document, h
from lawdiff.report.site import Site, article_file, correlation_file

_RELATION_WORDS = {
    "unchanged": "same number",
    "renumbered": "renumbered",
    "moved": "moved to another article",
    "split": "split (1:n)",
    "merged": "merged (n:1)",
    "removed": "removed (1:0)",
    "added": "added (0:1)",
}


_NONE = h("span", {"class": "none"}, "—")
# Where each order's rows go (see ``body`` in :func:`correlation_page`); law text is escaped, so that no
# "<!--" of a source can be taken for one.
_PLACEHOLDERS = (_Block("<!--rows by old-->"), _Block("<!--rows by new-->"))


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
    old, new = total.old.name, total.new.name
    path = correlation_file(old, new)
    changes, pages = pair_changes(site, old, new)
    rows = table.rows(None, changes)
    by_new = sorted(rows, key=table.by_new)
    counts: dict[str, int] = {}
    for r in rows:
        counts[r.relation.value] = counts.get(r.relation.value, 0) + 1

    def side(edition: str, addresses: tuple[str, ...]) -> list[Child]:
        if not addresses:
            return [_NONE]
        out: list[Child] = []
        for i, a in enumerate(addresses):
            # Named by the address alone: the column's head names the edition.
            href = site.href(edition, a, path)
            out.extend([", " if i else None, h("a", {"href": href}, a) if href else a])
        return out

    # Each row is made once and stands in both orders.
    made: dict[int, Markup] = {}

    def tr(r: table.Row) -> Markup:
        page = pages.get(r.change)
        relation: Child = _RELATION_WORDS[r.relation.value] + (" (heading)" if r.heading else "")
        if page:
            relation = h("a", {"href": f"{page}#change-{r.change[:SHORT_ID]}"}, relation)
        return h(
            "tr",
            {"class": f"rel-{r.relation.value}"},
            h("td", None, side(old, r.old)),
            h("td", None, side(new, r.new)),
            h("td", None, relation),
            h("td", {"class": "num"}, r.ratio),
            h("td", None, r.reworded or ("same" if r.old and r.new else "—")),
        )

    # Each order's rows stand in the page as a placeholder row, replaced by the rows themselves when the
    # page is joined: the table is some 5 MB at 744 articles, and building it inside the elements around
    # it copied it once per element (45 MB at a time, the report's peak memory).
    bodies: dict[str, list[Markup]] = {}

    def body(ordered: list[table.Row]) -> Markup:
        out: list[Markup] = []
        for r in ordered:
            row = made.get(id(r))
            if row is None:
                row = made[id(r)] = tr(r)
            out.append(row)
        if not out:
            return h("tbody", None)
        mark = _PLACEHOLDERS[len(bodies)]
        bodies[mark] = out
        return h("tbody", None, mark)

    def section(sid: str, title: str, other: str, other_title: str, ordered: list[table.Row]) -> Markup:
        head = h(
            "tr",
            None,
            [
                h("th", {"scope": "col"}, text)
                for text in (f"{old} number", f"{new} number", "Relation (to the change)", "Ratio", "Words")
            ],
        )
        t = h(
            "table",
            {"class": "corr"},
            h("caption", None, f"{old} → {new}: {title.lower()}"),
            h("thead", None, head),
            body(ordered),
        )
        return _section(
            sid,
            [title],
            "corr-order",
            h("p", {"class": "hint"}, "The same table ", h("a", {"href": f"#{other}"}, other_title.lower()), "."),
            t,
        )

    summary = ", ".join(f"{n} {_RELATION_WORDS[k]}" for k, n in counts.items())
    main = h(
        "main",
        {"id": "top", "tabindex": "-1"},
        h("h1", None, f"Correlation table {old} → {new}"),
        h(
            "p",
            {"class": "lead"},
            f"Where each clause of {old} went in {new}, and where each clause of {new} came from, as EU recasts and "
            f"consolidations print it: one row per clause, over the articles both corpora hold ",
            f"({article_ranges(list(total.articles), '–')}). ",
            summary + "." if summary else "No clause to list.",
        ),
        h(
            "nav",
            {"class": "contents", "aria-label": "Orders"},
            h(
                "ul",
                {"class": "toc"},
                h("li", None, h("a", {"href": "#by-old"}, f"Ordered by the {old} number")),
                h("li", None, h("a", {"href": "#by-new"}, f"Ordered by the {new} number")),
            ),
        ),
        section("by-old", f"Ordered by the {old} number", "by-new", f"ordered by the {new} number", list(rows)),
        section("by-new", f"Ordered by the {new} number", "by-old", f"ordered by the {old} number", by_new),
    )
    page = document(
        f"Correlation table {old} → {new} · lawdiff report",
        "",
        "correlation",
        h(
            "nav",
            {"class": "crumbs", "aria-label": "Report"},
            h("a", {"href": "index.html"}, "Index"),
            f" › Correlation table {old} → {new}",
        ),
        main,
        _footer(site.thresholds),
    )
    return _filled(page, bodies)


def _filled(page: str, bodies: dict[str, list[Markup]]) -> str:
    """The page with each placeholder row replaced by its rows, a line break after each as the builder puts
    it (the placeholder is followed by one already)."""
    pieces: list[str] = []
    rest = page
    for mark, rows in bodies.items():
        before, found, rest = rest.partition(mark)
        if not found:
            raise LawdiffBug(f"the correlation table's placeholder {mark!r} is not in the page")
        pieces.append(before)
        for i, row in enumerate(rows):
            pieces.extend(("\n", row) if i else (row,))
    pieces.append(rest)
    return "".join(pieces)
