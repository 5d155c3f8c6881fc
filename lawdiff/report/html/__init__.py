"""HTML renderings: the committee report (a static site) and the one-page comparison.

Markup is built by :func:`~lawdiff.report.html.markup.h`, which escapes
every string it is given (only the builder's own :class:`Markup` passes
through), so law text holding ``<script>``, ``&`` or quotes is always text.
Every page is complete on its own terms: no CDN, no web fonts, no script
needed (``assets/report.js`` only adds a "show only changes" switch, ``n`` /
``p`` keys and a filter for the index), and a Content-Security-Policy that
allows nothing but the report's own stylesheet and script, so that even a
mistake here could not run foreign code.

Changes are marked by ``<ins>`` / ``<del>`` and by words (``modified``,
``renumbered``), never by colour alone; the index's heat map prints a symbol
and a percentage in every cell.

Output is deterministic: the same corpus gives the same bytes (document
order everywhere, no dates).
"""

from __future__ import annotations

import dataclasses
import functools
import importlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from lawdiff.diff.article import article_numbers, pairs_of
from lawdiff.report.files import MANIFEST, Item, check_target, jobs, write_site
from lawdiff.report.html.compare import comparison, comparison_pieces
from lawdiff.report.html.law import Link, law_text, split_side
from lawdiff.report.html.markup import ASSETS, Markup, asset, escape, h, sha256_hex
from lawdiff.report.html.template import compile_all
from lawdiff.report.site import REVIEW_FILE, Site, article_file, correlation_file, history_file, plan

if TYPE_CHECKING:
    from lawdiff.cache import Cache
    from lawdiff.corpus import Corpus
    from lawdiff.diff.study import Study
    from lawdiff.report.html.article import article_page
    from lawdiff.report.html.correlation import correlation_page, correlation_pieces
    from lawdiff.report.html.counts import KIND_COUNTS, percent
    from lawdiff.report.html.history import history_page
    from lawdiff.report.html.index import index_page, index_pieces
    from lawdiff.report.html.pagecache import PageKeys, kept
    from lawdiff.report.html.review import review_page
    from lawdiff.report.reviewed import PendingReview

# The names of the report's pages, imported when first asked for (a module's ``__getattr__``): ``compare
# --format html`` makes one page of one pair, and importing the modules of the report's other pages cost it
# some 8 ms.
_LATER = {
    "article_page": "article",
    "correlation_page": "correlation",
    "correlation_pieces": "correlation",
    "KIND_COUNTS": "counts",
    "percent": "counts",
    "history_page": "history",
    "index_page": "index",
    "index_pieces": "index",
    "PageKeys": "pagecache",
    "kept": "pagecache",
    "review_page": "review",
}


def __getattr__(name: str) -> object:
    module = _LATER.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


def _pages_imported() -> None:
    """The names of the report's pages made globals of this module (where a test has not put its own)."""
    for name in _LATER:
        if name not in globals():
            __getattr__(name)


Progress = Callable[[int, int], None]

__all__ = [
    "ASSETS",
    "KIND_COUNTS",
    "MANIFEST",
    "Link",
    "Markup",
    "article_page",
    "asset",
    "comparison",
    "comparison_pieces",
    "correlation_page",
    "escape",
    "h",
    "history_page",
    "index_page",
    "law_text",
    "percent",
    "render",
    "sha256_hex",
    "split_side",
    "write_report",
    "write_site",
]

# ---------------------------------------------------------------------------
# The site: planned, rendered, written atomically


def pages(site: Site, cache: Cache | None = None) -> list[Item]:
    """Every file of the report: (path relative to the report, its content or the function that makes it).

    With a ``cache`` in use, the article and history pages and the correlation tables are read from it where
    it holds them, and kept in it (:mod:`lawdiff.report.html.pagecache`).
    """
    _pages_imported()
    out: list[Item] = [(f"assets/{name}", asset(name)) for name in ASSETS]
    keys = None
    if cache is not None and cache.folder is not None:
        keys = PageKeys(site)

    def page(rel: str, make: Callable[[], str | list[str]], key_of: Callable[[PageKeys], str]) -> Item:
        if keys is None or cache is None:
            return rel, make
        return rel, functools.partial(kept, cache, keys, functools.partial(key_of, keys), make)

    # The pages over the whole report first: the largest, and the ones read back least often; made first,
    # they share the processes with the articles' pages rather than keep one busy at the end.
    out.append(("index.html", functools.partial(index_pieces, site)))
    if site.review is not None:
        out.append((REVIEW_FILE, functools.partial(review_page, site)))
    for t in site.totals:
        out.append(page(correlation_file(t.old.name, t.new.name), functools.partial(correlation_pieces, site, t),
                        functools.partial(PageKeys.correlation, total=t)))  # fmt: skip
    for a in site.articles:
        out.append(page(article_file(a.number), functools.partial(article_page, site, a),
                        functools.partial(PageKeys.key, page="article", view=a)))  # fmt: skip
        out.append(page(history_file(a.number), functools.partial(history_page, site, a),
                        functools.partial(PageKeys.key, page="history", view=a)))  # fmt: skip
    return out


def render(site: Site) -> Iterator[tuple[str, str]]:
    """Every file of the report made in this process, sorted by path: (path, content)."""
    for path, content in sorted(pages(site), key=lambda item: item[0]):
        made = content() if callable(content) else content
        if isinstance(made, bytes):
            yield path, made.decode("utf-8")
        else:
            yield path, made if isinstance(made, str) else "".join(made)


def write_report(
    corpus: Corpus,
    study: Study,
    target: Path,
    progress: Progress | None = None,
    review: PendingReview | None = None,
) -> Site:
    """Plan, render and write the report of the study's editions to ``target``.

    ``progress(done, total)`` is called as the work goes on.  ``review``: the
    committee's review to show, as :func:`lawdiff.report.reviewed.start` makes it (beside the plan, or
    made already: :meth:`lawdiff.forked.Pending.made`), or None for a report without it, byte for byte
    the report of a corpus that has no review store.  Nothing here compares: the review was matched to
    the study's comparisons where it was made.
    """
    check_target(target)
    numbers = article_numbers(study.editions)
    # Each article planned, its two pages, each pair's correlation table, the review page, the index.
    total = 3 * len(numbers) + len(pairs_of(study.editions, numbers)) + (review is not None) + 1
    done = 0

    def step(_i: int = 0, _n: int = 0) -> None:
        nonlocal done
        done += 1
        if progress is not None:
            progress(done, total)

    site = plan(corpus, study, progress=step)
    # Every page's footer names the editions by their digests: made once here, not in each page-making process.
    for e in study.editions:
        e.digest()
    if review is not None:
        review_shown = review.result()
        notes = review_shown.notes
        site = dataclasses.replace(site, annotate=lambda ch, _o, _n: notes.get(ch.id), review=review_shown)
    made = pages(site, study.cache)
    # Each template is compiled at its first fill: here all at once, before the pages' processes fork.
    compile_all()
    write_site(made, target, jobs(), step)
    return site
