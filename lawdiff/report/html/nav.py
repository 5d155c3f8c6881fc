"""The navigation bar of an article's pages, and small shared pieces."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from lxml import etree

from lawdiff.diff.article import ArticleView
from lawdiff.report.html.markup import add, el
from lawdiff.report.site import Site, article_file, history_file

Element = etree._Element
Child = Element | str | None | Iterable["Child"]
Progress = Callable[[int, int], None]

# ---------------------------------------------------------------------------
# Pages of the site


def _nav(site: Site, plan_: ArticleView | None, root: str, history: bool = False) -> Element:
    nav = el("nav", {"class": "crumbs", "aria-label": "Report"}, el("a", {"href": f"{root}index.html"}, "Index"))
    if plan_ is None:
        return nav
    numbers = [a.number for a in site.articles]
    i = numbers.index(plan_.number)
    add(nav, " › ")
    if history:
        add(nav, el("a", {"href": article_file(plan_.number).split("/")[1]}, f"Article {plan_.number}"), " › History")
    else:
        add(nav, f"Article {plan_.number}")
    links = el("span", {"class": "prevnext"})
    target = history_file if history else article_file
    if i > 0:
        prev = numbers[i - 1]
        add(links, el("a", {"href": target(prev).split("/")[1], "rel": "prev"}, f"← Article {prev}"))
    if i + 1 < len(numbers):
        nxt = numbers[i + 1]
        add(links, " ", el("a", {"href": target(nxt).split("/")[1], "rel": "next"}, f"Article {nxt} →"))
    add(nav, links)
    return nav


def _title_span(title: str) -> Element | None:
    return el("span", {"class": "atitle", "lang": "nl"}, title.rstrip(".")) if title else None
