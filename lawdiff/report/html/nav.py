"""The navigation bar of an article's pages, and small shared pieces."""

from __future__ import annotations

from lawdiff.diff.article import ArticleView
from lawdiff.i18n import gettext as _
from lawdiff.report.html.markup import Child, Markup, h
from lawdiff.report.site import Site, article_file, history_file


def article_name(number: str) -> str:
    """``Article 45`` ("Artikel 45"): an article by its number; a heading outside the articles as it is."""
    return _("Article {number}").format(number=number) if number[:1].isdigit() else number


def crumbs(*here: Child) -> Markup:
    """The navigation bar of a page of the whole report: the index, and ``here`` after it (none: the index)."""
    label = _("Report")
    if not here:
        return h("nav", {"class": "crumbs", "aria-label": label}, _("Index"))
    return h("nav", {"class": "crumbs", "aria-label": label}, h("a", {"href": "index.html"}, _("Index")), " › ", *here)


def article_nav(site: Site, plan_: ArticleView | None, root: str, history: bool = False) -> Markup:
    index = h("a", {"href": f"{root}index.html"}, _("Index"))
    label = _("Report")
    if plan_ is None:
        return h("nav", {"class": "crumbs", "aria-label": label}, index)
    numbers = [a.number for a in site.articles]
    i = numbers.index(plan_.number)
    here: list[Child]
    if history:
        link = h("a", {"href": article_file(plan_.number).split("/")[1]}, article_name(plan_.number))
        here = [link, " › " + _("History")]
    else:
        here = [article_name(plan_.number)]
    target = history_file if history else article_file
    links: list[Child] = []
    if i > 0:
        prev = numbers[i - 1]
        links.append(h("a", {"href": target(prev).split("/")[1], "rel": "prev"}, "← " + article_name(prev)))
    if i + 1 < len(numbers):
        nxt = numbers[i + 1]
        links.extend([" ", h("a", {"href": target(nxt).split("/")[1], "rel": "next"}, article_name(nxt) + " →")])
    prevnext = h("span", {"class": "prevnext"}, links)
    return h("nav", {"class": "crumbs", "aria-label": label}, index, " › ", here, prevnext)


def title_span(title: str) -> Markup | None:
    return h("span", {"class": "atitle", "lang": "nl"}, title.rstrip(".")) if title else None
