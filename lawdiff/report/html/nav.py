"""The navigation bar of an article's pages, and small shared pieces."""

from __future__ import annotations

from lawdiff.diff.article import ArticleView
from lawdiff.report.html.markup import Child, Markup, h
from lawdiff.report.site import Site, article_file, history_file


def article_nav(site: Site, plan_: ArticleView | None, root: str, history: bool = False) -> Markup:
    index = h("a", {"href": f"{root}index.html"}, "Index")
    if plan_ is None:
        return h("nav", {"class": "crumbs", "aria-label": "Report"}, index)
    numbers = [a.number for a in site.articles]
    i = numbers.index(plan_.number)
    here: list[Child]
    if history:
        here = [h("a", {"href": article_file(plan_.number).split("/")[1]}, f"Article {plan_.number}"), " › History"]
    else:
        here = [f"Article {plan_.number}"]
    target = history_file if history else article_file
    links: list[Child] = []
    if i > 0:
        prev = numbers[i - 1]
        links.append(h("a", {"href": target(prev).split("/")[1], "rel": "prev"}, f"← Article {prev}"))
    if i + 1 < len(numbers):
        nxt = numbers[i + 1]
        links.extend([" ", h("a", {"href": target(nxt).split("/")[1], "rel": "next"}, f"Article {nxt} →")])
    return h(
        "nav", {"class": "crumbs", "aria-label": "Report"}, index, " › ", here, h("span", {"class": "prevnext"}, links)
    )


def title_span(title: str) -> Markup | None:
    return h("span", {"class": "atitle", "lang": "nl"}, title.rstrip(".")) if title else None
