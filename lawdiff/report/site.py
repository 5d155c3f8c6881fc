"""What the committee report shows, before any markup: pages, anchors and links.

The facts come from the study (:mod:`lawdiff.diff.study`,
:mod:`lawdiff.diff.article`): which pairs compare each article, the changes in
reading order, the heat, the synopsis, the histories.  :func:`plan` adds what
only a report has: which editions of the corpus it lists and compares, the
anchors each page carries, and the links between pages.
:mod:`lawdiff.report.html` turns the plan into pages.

The index lists every edition of the corpus, compared or not (each source
of a year held from two, ``2017@wiki`` beside ``2017@nuxt``; see
:func:`listing`), so that no source is left out silently.

Anchors (:func:`anchor`) are the report's citation contract.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from lawdiff.align import Thresholds
from lawdiff.corpus import Corpus
from lawdiff.diff.article import (
    ArticleView,
    PairTotal,
    SynopsisRow,
    article_histories,
    article_synopsis,
    article_views,
    pair_totals,
)
from lawdiff.diff.comparison import Comparison
from lawdiff.diff.study import Study
from lawdiff.diff.vocabulary import Change, History
from lawdiff.model import Clause, Edition, article_of, parent_address
from lawdiff.report.files import jobs

if TYPE_CHECKING:
    # Annotations only: the markup builder's package imports this module.
    from lawdiff.report.html.markup import Markup
    from lawdiff.report.reviewed import ReviewShown

# ---------------------------------------------------------------------------
# Anchors

_UNSAFE = re.compile(r"[^A-Za-z0-9._-]")


@functools.lru_cache(maxsize=1 << 12)  # the anchors of a page or two: each is asked for several times
def anchor(edition: str, address: str) -> str:
    """The stable HTML id of a clause: ``2017``, ``45C4(b)`` -> ``2017-45C4b``.

    The edition name, a hyphen, then the address with its parentheses
    dropped; ``~`` (a duplicate label) becomes ``_`` and any other character
    outside ``A-Z a-z 0-9 . _ -`` becomes ``_``.  Dropping the parentheses
    loses nothing: lower-case letters occur in article addresses only inside
    parentheses or after a dot (``.p1``, ``.fn1``), so ``45C4b``, ``45(p)1``
    -> ``45p1`` and ``45.p1`` stay apart.  Examples: ``2017-45C4b``,
    ``2007-45E.p1``, ``1963-45d``, ``2007-45A.fn1``, ``1963-48.fn1``.
    """
    return (
        f"{_UNSAFE.sub('_', edition)}-{_UNSAFE.sub('_', address.replace('(', '').replace(')', '').replace('~', '_'))}"
    )


def pair_id(old: str, new: str) -> str:
    """The id of a pair's side-by-side view on a page: ``diff-2007-2017``."""
    return f"diff-{_UNSAFE.sub('_', old)}-{_UNSAFE.sub('_', new)}"


def article_file(number: str) -> str:
    """The page of an article, relative to the report: ``articles/45.html``."""
    return f"articles/{_UNSAFE.sub('_', number)}.html"


def history_file(number: str) -> str:
    """The clause histories of an article: ``articles/45-history.html``."""
    return f"articles/{_UNSAFE.sub('_', number)}-history.html"


def correlation_file(old: str, new: str) -> str:
    """The correlation table of a pair, relative to the report: ``correlation-2007-2017.html``."""
    return f"correlation-{_UNSAFE.sub('_', old)}-{_UNSAFE.sub('_', new)}.html"


REVIEW_FILE = "review.html"  # the decisions that sit on no change of the report

# The links :meth:`Site.href` keeps worked out: those of a page or two, each asked for again and again
# while the page is made.  A correlation table asks once for every clause of its pair: 56,000 kept
# links held 20 MB at 744 articles from the first table to the end of the report.
_TARGETS_KEPT = 1 << 12


@dataclass(frozen=True, slots=True)
class Listed:
    """An edition of the corpus as the index lists it, compared or not.

    edition: the edition as read (one entry of :meth:`Corpus.listing`: each
        source of a year on its own, ``2017@wiki`` and ``2017@nuxt``).
    compared_as: its name in this report's comparisons (``2017`` for
        ``2017@nuxt`` when the bare year means that source), or "" when the
        report does not compare it.
    means: the bare year that stands for this source (``2017``), or "".
    paired: whether the report compares it in any pair (:attr:`Site.totals`): an edition of the run
        whose corpus shares no article with another's, or holds its articles only in part between
        fuller editions, is in no pair (passed over), and not "compared".
    """

    edition: Edition
    compared_as: str
    means: str
    paired: bool = True


@dataclass(frozen=True, slots=True)
class Annotation:
    """What a reader of the report adds to one change's row (see :attr:`Site.annotate`).

    classes: extra classes of the row's ``tbody`` (for filters and styles).
    markup: shown at the foot of the row's middle column: the review
        status of the static report, the review form of ``lawdiff serve``.
    """

    classes: tuple[str, ...] = ()
    markup: Markup | None = None


# Per clause of every edition of an article: the edition, the clause, its history (ArticleView.histories).
Histories = tuple[tuple[Edition, Clause, History], ...]

# Called with a change and the names of its pair's old and new editions.
Annotator = Callable[[Change, str, str], Annotation | None]


@dataclass(frozen=True, slots=True)
class Site:
    """The whole report (each article's anchors, :meth:`anchors`, worked out as pages link into it).

    editions: every edition of the corpus, as the index lists it: the ones
        compared and the ones that are not (another source of a year, an
        edition not named), so that no source is left out silently.
    compared: the editions compared, oldest first: the columns of the matrix.
    annotate: what each change's row shows besides the comparison (its review,
        a form), or None; set with :func:`dataclasses.replace`.
    review: the committee's review as of this report (the rows' notes, counts
        per article, ``review.html``), or None: no store, or ``--no-review``.
    comparisons: the study's comparison of each pair the report compares.
    """

    corpus: Corpus
    editions: tuple[Listed, ...]
    compared: tuple[Edition, ...]
    thresholds: Thresholds
    articles: tuple[ArticleView, ...]
    totals: tuple[PairTotal, ...]
    # The study's comparison of each pair compared, by the names of its editions: what the pages read of
    # a pair as a whole (its drafting patterns, its normative count).
    comparisons: dict[tuple[str, str], Comparison] = field(default_factory=dict, compare=False, repr=False)
    # The clause histories of an article's view, made when its history page is (the views are planned without
    # them: :func:`lawdiff.diff.article.article_histories`); None: the views hold them.
    make_histories: Callable[[ArticleView], Histories] | None = field(default=None, compare=False, repr=False)
    annotate: Annotator | None = field(default=None, compare=False, repr=False)
    review: ReviewShown | None = field(default=None, compare=False, repr=False)
    _index: dict[str, ArticleView] = field(default_factory=dict, compare=False, repr=False)
    _anchors: dict[str, frozenset[str]] = field(default_factory=dict, compare=False, repr=False)
    _targets: dict[tuple[str, str], tuple[str, str] | None] = field(default_factory=dict, compare=False, repr=False)
    _synopses: dict[str, tuple[ArticleView, tuple[SynopsisRow, ...]]] = field(
        default_factory=dict, compare=False, repr=False
    )
    # What a link into an article needs, by its number: its page, the names of its editions, its anchors.
    _linked: dict[str, tuple[str, frozenset[str], frozenset[str]] | None] = field(
        default_factory=dict, compare=False, repr=False
    )

    def article(self, number: str) -> ArticleView | None:
        return self._by_number().get(number)

    def anchors(self, number: str) -> frozenset[str]:
        """The canonical anchors an article's page carries: those of the clauses of its synopsis, which are
        its clauses with a title or a text in each edition that the article is compared in.

        Worked out when a page first links into the article, and kept for a few hundred articles at a time:
        held for every article from the plan on, they were 6 MB at 744 articles in every process.
        """
        known = self._anchors.get(number)
        if known is None:
            view = self.article(number)
            known = frozenset(
                anchor(e.name, c.address)
                for e in (view.editions if view is not None else ())
                for c in _clauses(e, number)
                if (c.text or c.title) and article_of(c.address) == number
            )
            if len(self._anchors) >= 256:
                self._anchors.clear()
            self._anchors[number] = known
        return known

    def synopsis(self, view: ArticleView) -> tuple[SynopsisRow, ...]:
        """The synopsis of an article (:attr:`ArticleView.synopsis`), made now where the plan left it out; the
        last few made are kept (a page and its key in the cache both read it)."""
        if view.synopsis:
            return view.synopsis
        known = self._synopses.get(view.number)
        if known is None or known[0] is not view:
            if len(self._synopses) >= 4:
                self._synopses.clear()
            known = self._synopses[view.number] = (view, article_synopsis(view))
        return known[1]

    def histories(self, view: ArticleView) -> Histories:
        """The clause histories of an article (:attr:`ArticleView.histories`), made now where the plan left
        them out."""
        if view.histories or self.make_histories is None:
            return view.histories
        return self.make_histories(view)

    def _by_number(self) -> dict[str, ArticleView]:
        # Made once: href() asks for an article at every link of every page.
        if not self._index:
            self._index.update((a.number, a) for a in self.articles)
        return self._index

    def href(self, edition: str, address: str, page: str) -> str | None:
        """A link from ``page`` to a clause's canonical anchor, or None when the report has no page for it.

        A clause without an anchor of its own (a bare label such as 45C4)
        leads to its nearest ancestor that has one, then to its article.
        """
        key = (edition, address)
        if key in self._targets:
            found = self._targets[key]
        else:
            found = self._target(edition, address)
            if len(self._targets) >= _TARGETS_KEPT:
                self._targets.clear()
            self._targets[key] = found
        if found is None:
            return None
        target, fragment = found
        prefix = "" if target == page else _relative(page, target)
        return f"{prefix}#{fragment}" if fragment else prefix or "#top"

    def _target(self, edition: str, address: str) -> tuple[str, str] | None:
        """Where :meth:`href` leads, whatever the page: the article's page and the anchor ("" for its top)."""
        number = article_of(address)
        if not number:
            return None
        if number in self._linked:
            linked = self._linked[number]
        else:
            plan = self.article(number)
            linked = None
            if plan is not None:
                linked = (article_file(number), frozenset(e.name for e in plan.editions), self.anchors(number))
            if len(self._linked) >= 256:
                self._linked.clear()
            self._linked[number] = linked
        if linked is None:
            return None
        file, editions, anchors = linked
        if edition not in editions:
            return None
        addr = address
        while addr:
            a = anchor(edition, addr)
            if a in anchors:
                return file, a
            addr = parent_address(addr)
        return file, ""

    def history_href(self, edition: str, address: str, page: str) -> str | None:
        """A link from ``page`` to a clause's history (``45-history.html#2017-45C4b``), or None.

        Every clause of an article with a title or text has one, under its
        canonical anchor, on its article's history page.
        """
        number = article_of(address)
        plan = self.article(number) if number else None
        ed = next((e for e in plan.editions if e.name == edition), None) if plan is not None else None
        clause = ed.find(address) if ed is not None else None
        if clause is None or not (clause.text or clause.title):
            return None
        return f"{_relative(page, history_file(number))}#{anchor(edition, address)}"


def _clauses(edition: Edition, number: str) -> Iterable[Clause]:
    """The clauses of an edition's article, in document order (none where the edition lacks it)."""
    art = edition.find(number)
    return art.walk() if art is not None else ()


def _relative(page: str, target: str) -> str:
    # Every page sits at the root or in articles/: one level at most.
    if "/" in page and target.startswith("articles/"):
        return target.split("/", 1)[1]
    if "/" in page:
        return "../" + target
    return target


def listing(corpus: Corpus, compared: tuple[Edition, ...], paired: Iterable[str] | None = None) -> tuple[Listed, ...]:
    """Every edition of the corpus (:meth:`Corpus.listing`), and what the report does with each;
    ``paired``: the names of the editions in some pair the report compares (all of ``compared`` when None)."""
    means = {source: year for year, source in corpus.aliases().items()}
    names = {e.name for e in compared}
    in_pairs = names if paired is None else set(paired)
    out: list[Listed] = []
    for e in corpus.listing():
        year = means.get(e.name, "")
        as_ = e.name if e.name in names else year if year in names else ""
        out.append(Listed(e, as_, year, as_ in in_pairs))
    listed = {x.edition.name for x in out} | set(means.values())
    # An edition compared but not listed cannot come from this corpus's
    # listing; it is listed all the same rather than left out.
    out.extend(Listed(e, e.name, "", e.name in in_pairs) for e in compared if e.name not in listed)
    return tuple(out)


def touches(ch: Change, articles: frozenset[str] | set[str]) -> bool:
    """Whether a change concerns one of ``articles`` (on either side)."""
    return ch.article in articles or any(article_of(a) in articles for a in ch.old + ch.new)


def plan(
    corpus: Corpus,
    study: Study | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Site:
    """Plan the report of the study's editions (a study of all the corpus's editions when None).

    ``progress(done, total)`` is called once per article planned.
    """
    study = study or Study(corpus.select())
    # Without the histories and the synopses: each page makes its article's, in the process that makes the
    # page, so that no process holds them all (36 MB and 12 MB at 744 articles, before the pages' processes
    # are forked).
    views = article_views(study, progress=progress, workers=jobs("compare"), histories=False, synopses=False)
    totals = pair_totals(study, views)
    paired = {e.name for t in totals for e in (t.old, t.new)}
    return Site(
        corpus,
        listing(corpus, study.editions, paired),
        study.editions,
        study.thresholds,
        views,
        totals,
        {(t.old.name, t.new.name): study.compare(t.old, t.new) for t in totals},
        functools.partial(_histories, study),
    )


def _histories(study: Study, view: ArticleView) -> Histories:
    """An article's histories, made for its history page; the walks that made them are let go at once (each
    article's history page is made once, and a report of 744 articles gathered 13 MB of them)."""
    try:
        return article_histories(study, view)
    finally:
        study.walks.clear()
