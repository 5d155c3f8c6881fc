"""The index's articles-by-editions matrix: how much each article changed in each edition, with its legend."""

from __future__ import annotations

from lawdiff.diff.article import HEAT_LARGE, HEAT_SMALL, HEAT_SYMBOLS, ArticleView, PairView
from lawdiff.i18n import gettext as _
from lawdiff.i18n import terms
from lawdiff.report.html.counts import (
    counts_phrase,
    heat_name,
    normative_count,
    percent,
    percent_of,
    significance_counts,
)
from lawdiff.report.html.markup import Child, Markup, Splices, h, scroll_box, section_markup
from lawdiff.report.html.nav import article_name, title_span
from lawdiff.report.html.review import matrix_cell
from lawdiff.report.site import Site, article_file, pair_id
from lawdiff.report.text import number


def matrix_section(site: Site, matrix: Splices) -> Markup:
    """The articles-by-editions matrix: how much each article changed in each edition, with its legend."""
    table = h(
        "table",
        {"class": "matrix", "id": "matrix"},
        h("caption", None, _("Where each article changed, and how much")),
        h(
            "thead",
            None,
            h(
                "tr",
                None,
                h("th", {"scope": "col"}, _("Article")),
                [h("th", {"scope": "col"}, e.name) for e in site.compared],
                h("th", {"scope": "col"}, _("Review")) if site.review is not None else None,
            ),
        ),
        h("tbody", None, matrix.hold(rows) if (rows := [_matrix_row(site, a) for a in site.articles]) else None),
    )
    return section_markup(
        "articles",
        [_("Articles × editions")],
        None,
        h(
            "p",
            {"class": "hint"},
            _(
                "Each cell says how much the article changed from the previous edition that holds it: a symbol, "
                "and the share of its words inserted or deleted, and how many of its changes are normative. "
                "Follow a cell to its side-by-side view."
            ),
        ),
        scroll_box(_("Articles by editions"), table),
        _legend(any(pv.heat.stale for a in site.articles for pv in a.pairs)),
    )


def _matrix_row(site: Site, a: ArticleView) -> Markup:
    """An article's row: its number and title, a cell per edition compared, its review when shown."""
    held = {e.name for e in a.editions}
    by_new = {pv.new.name: pv for pv in a.pairs}
    cells: list[Child] = []
    for e in site.compared:
        pv = by_new.get(e.name)
        if e.name not in held:
            cells.append(_absent_cell(e.name))
        elif pv is None:
            cells.append(_first_cell(a.number, e.name))
        else:
            cells.append(_heat_cell(a.number, pv, site))
    number = h(
        "th",
        {"scope": "row"},
        h("a", {"href": article_file(a.number)}, h("span", {"class": "num"}, a.number), " ", title_span(a.title)),
    )
    return h("tr", None, number, cells, _review_cell(site, a))


def _absent_cell(edition: str) -> Markup:
    return h("td", {"class": "cell none", "title": _("not in the {edition} corpus").format(edition=edition)}, "–")


def _first_cell(number: str, edition: str) -> Markup:
    """The cell of the earliest edition that holds the article: nothing to compare it with."""
    return h(
        "td",
        {
            "class": "cell first",
            "title": _("{edition}: earliest edition of article {number} in the corpus").format(
                edition=edition, number=number
            ),
        },
        h(
            "a",
            {"href": f"{article_file(number)}#synopsis"},
            h("span", {"aria-hidden": "true"}, "●"),
            h(
                "span",
                {"class": "vh"},
                _("{article} in {edition}: the earliest in the corpus").format(
                    article=article_name(number), edition=edition
                ),
            ),
        ),
    )


def _heat_cell(number: str, pv: PairView, site: Site) -> Markup:
    """How much the article changed from the previous edition that holds it, linked to its side-by-side view."""
    old, new = pv.old.name, pv.new.name
    heat = pv.heat
    counts = counts_phrase(heat.counts, heat.editorial, heat.stale)
    normative = significance_counts(pv.changes, site.comparisons.get((old, new))).normative
    level = heat_name(heat.level)
    return h(
        "td",
        {
            "class": f"cell h{heat.level}",
            "title": f"{old} → {new}: {level}; {counts}",
        },
        h(
            "a",
            {"href": f"{article_file(number)}#{pair_id(old, new)}"},
            h("span", {"class": "vh"}, f"{article_name(number)}, {old} → {new}: {level}, "),
            h("span", {"class": "sym", "aria-hidden": "true"}, HEAT_SYMBOLS[heat.level]),
            " ",
            h("span", {"class": "pct"}, percent(heat.share)),
            h("span", {"class": "stale"}, " !", h("span", {"class": "vh"}, " " + _("stale reference")))
            if heat.stale
            else None,
            [" ", h("span", {"class": "nrm"}, normative_count(normative))] if normative else None,
        ),
    )


def _review_cell(site: Site, a: ArticleView) -> Markup | None:
    """The article's review counts, when the report shows the review; a dash where there is nothing to review."""
    if site.review is None:
        return None
    return matrix_cell(site.review, a) if a.pairs else h("td", {"class": "rcount"}, "—")


def _legend(stale: bool) -> Markup:
    small, large = percent_of(round(HEAT_SMALL * 100)), percent_of(round(HEAT_LARGE * 100))
    meaning = (
        _("no difference"),
        _("only editorial changes or new numbers"),
        _("less than {share} of the words changed").format(share=small),
        _("{low}–{high} of the words changed").format(low=number(round(HEAT_SMALL * 100)), high=large),
        _("{share} of the words or more changed").format(share=large),
    )
    items: list[Child] = [
        [h("dt", {"class": f"cell h{level}"}, sym), h("dd", None, f"{heat_name(level)}: {meaning[level]}")]
        for level, sym in enumerate(HEAT_SYMBOLS)
    ]
    flags = ", ".join(terms.flag(f) for f in ("modal", "negation", "actor", "number", "condition"))
    items += [
        h("dt", {"class": "cell first"}, "●"),
        h("dd", None, _("the earliest edition in the corpus that holds the article")),
        h("dt", {"class": "cell none"}, "–"),
        h("dd", None, _("not in this edition's corpus")),
        h("dt", {"class": "cell"}, h("span", {"class": "nrm"}, normative_count(3))),
        h(
            "dd",
            None,
            _("how many of the changes are normative: a flag other than {reference} ({flags})").format(
                reference=terms.flag("reference"), flags=flags
            ),
        ),
    ]
    if stale:
        items += [
            h("dt", {"class": "cell"}, h("span", {"class": "stale"}, "!")),
            h("dd", None, _("a reference kept as written although its target moved (stale): see the article page")),
        ]
    return h("div", {"class": "legend-box"}, h("h3", None, _("Legend")), h("dl", {"class": "legend"}, items))
