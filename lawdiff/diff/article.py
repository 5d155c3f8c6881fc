"""One article across the editions that hold it: the facts its report page shows.

Computed from the study (:class:`~lawdiff.diff.study.Study`), once per run,
before any markup: which pairs of editions compare the article, the changes of
each pair in reading order, how much the article changed (its heat), the
synopsis that lines up its clauses across all editions, and every clause's
history.  Renderers read these and compute nothing.

Two rules, both because a corpus may hold only part of an edition (the seed
corpus holds article 45 of 1963, 2007 and 2017, but articles 53-56 of 1997
only):

* an article is compared in each pair of *consecutive editions that both hold
  it* (1963 -> 2007 for article 45 when 1997 lacks it), never with an edition
  whose corpus does not have it; an edition that holds it only by some of its
  sections' pages (:meth:`Edition.held_in_part`) is passed over too where
  editions holding more of it stand on both sides: compared with both, the
  sections it lacks would be "not compared" twice, and what changed in them
  between its neighbours would be shown nowhere;
* the counts per pair of editions add up the articles that compare that pair,
  so that a partial corpus does not count a missing article as removed.

The heat lives in :mod:`lawdiff.diff.extent` and the synopsis in
:mod:`lawdiff.diff.synopsis`; this module puts them together per article.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from lawdiff.diff.comparison import counts
from lawdiff.diff.extent import HEAT_LARGE, HEAT_NAMES, HEAT_SMALL, HEAT_SYMBOLS, Heat, editorial_by_kind, heat
from lawdiff.diff.history import histories as clause_histories
from lawdiff.diff.study import Study
from lawdiff.diff.synopsis import Node, Part, SynopsisRow, synopsis
from lawdiff.diff.vocabulary import Change, History
from lawdiff.errors import LawdiffBug
from lawdiff.forked import collector_paused
from lawdiff.model import Clause, Edition, Kind, natural_key

# Heat and the synopsis have modules of their own; their names stay importable from here.
__all__ = [
    "HEAT_LARGE",
    "HEAT_NAMES",
    "HEAT_SMALL",
    "HEAT_SYMBOLS",
    "ArticleView",
    "Heat",
    "Node",
    "PairTotal",
    "PairView",
    "Part",
    "SynopsisRow",
    "article_numbers",
    "article_synopsis",
    "article_view",
    "article_views",
    "compared_in",
    "editorial_by_kind",
    "heat",
    "holders",
    "pair_totals",
    "pairs_of",
    "synopsis",
]


@dataclass(frozen=True, slots=True)
class PairView:
    """One article in one pair of editions: the rows of its side-by-side view.

    changes: the changes touching the article, in reading order: the new
        edition's document order, with removed clauses where they stood in the
        old edition.
    moved_targets: for each stale reference (``Change.stale_references``),
        where its old target went in the new edition.
    """

    old: Edition
    new: Edition
    changes: tuple[Change, ...]
    heat: Heat
    moved_targets: dict[str, tuple[str, ...]]


@dataclass(frozen=True, slots=True)
class ArticleView:
    """One article across the editions that hold it: pairs, synopsis and clause histories.

    number: the article number (``45``).
    title: the title in the newest edition that holds it.
    editions: the editions that hold it and compare it, oldest first.
    pairs: consecutive editions among those, oldest pair first.
    synopsis: the lines of the synopsis.
    histories: per clause of every edition (document order, oldest edition
        first), the clause's history across the editions.
    passed_over: the editions that hold the article only in part, between
        editions that hold more of it (see the module docstring).
    """

    number: str
    title: str
    editions: tuple[Edition, ...]
    pairs: tuple[PairView, ...]
    synopsis: tuple[SynopsisRow, ...]
    histories: tuple[tuple[Edition, Clause, History], ...]
    passed_over: tuple[Edition, ...] = ()


@dataclass(frozen=True, slots=True)
class PairTotal:
    """The counts of one pair of editions over the articles that compare it.

    editorial: per kind, how many of its changes are editorial only.
    stale: references kept while their target moved.
    """

    old: Edition
    new: Edition
    articles: tuple[str, ...]
    counts: dict[str, int]
    editorial: dict[str, int]
    stale: int


def article_numbers(editions: Iterable[Edition]) -> list[str]:
    """Every article number the editions hold, in number order."""
    numbers: dict[str, None] = {}
    for e in editions:
        for a in e.articles():
            numbers.setdefault(a.address, None)
    return sorted(numbers, key=natural_key)


def holders(editions: Iterable[Edition], number: str) -> tuple[Edition, ...]:
    """The editions whose corpus holds the article, in the order given."""
    out = []
    for e in editions:
        c = e.find(number)
        if c is not None and c.kind is Kind.ARTICLE:
            out.append(e)
    return tuple(out)


def compared_in(editions: Iterable[Edition], number: str) -> tuple[tuple[Edition, ...], tuple[Edition, ...]]:
    """The editions the article is compared in (consecutive pairs of them), and those that hold it but are
    passed over: held only in part, between the first and the last edition that hold more of it."""
    found = holders(editions, number)
    more = [i for i, e in enumerate(found) if number not in e.held_in_part()]
    if len(more) < 2:
        return found, ()
    kept = [e for i, e in enumerate(found) if i <= more[0] or i >= more[-1] or i in more]
    return tuple(kept), tuple(e for e in found if e not in kept)


def article_view(study: Study, number: str, histories: bool = True, synopses: bool = True) -> ArticleView:
    """The article across the study's editions that hold it; ``histories=False``: without its clause histories
    (see :func:`article_histories`); ``synopses=False``: without its synopsis (:func:`article_synopsis`)."""
    hs, passed_over = compared_in(study.editions, number)
    if not hs:
        raise LawdiffBug(f"article {number} was asked for, but no edition of the study holds it")
    pairs: list[PairView] = []
    for old, new in itertools.pairwise(hs):
        comp = study.compare(old, new)
        changes = _reading_order(old.positions(), study.touching(old, new, number))
        moved = {r.old: comp.alignment.successors(r.old) for ch in changes for r in ch.stale_references}
        pairs.append(PairView(old, new, changes, heat(changes), moved))
    rows = synopsis(number, hs, pairs) if synopses else ()
    hist = _histories(study, number, hs) if histories else ()
    return ArticleView(number, _article(hs[-1], number).title, hs, tuple(pairs), rows, hist, passed_over)


def article_synopsis(view: ArticleView) -> tuple[SynopsisRow, ...]:
    """A view's synopsis (:attr:`ArticleView.synopsis`), made now for a view made without it: a report makes
    each article's synopsis where it makes the article's page, so that no process holds them all (12 MB at
    744 articles, from the plan to the end of the report)."""
    return view.synopsis or synopsis(view.number, view.editions, list(view.pairs))


def article_histories(study: Study, view: ArticleView) -> tuple[tuple[Edition, Clause, History], ...]:
    """A view's clause histories (:attr:`ArticleView.histories`), made now for a view made without them: a
    report makes each article's histories where it makes the article's history page, so that no process holds
    them all (36 MB at 744 articles)."""
    return view.histories or _histories(study, view.number, view.editions)


def _histories(study: Study, number: str, hs: tuple[Edition, ...]) -> tuple[tuple[Edition, Clause, History], ...]:
    out: list[tuple[Edition, Clause, History]] = []
    for e in hs:
        clauses = [c for c in _article(e, number).walk() if c.text or c.title]
        out.extend((e, c, h) for c, h in zip(clauses, clause_histories(study, e, clauses), strict=True))
    return tuple(out)


def pairs_of(editions: tuple[Edition, ...], numbers: Iterable[str]) -> list[tuple[Edition, Edition]]:
    """The pairs the views of these articles compare: consecutive holders of each, each pair once."""
    out: dict[tuple[str, str], tuple[Edition, Edition]] = {}
    for n in numbers:
        for old, new in itertools.pairwise(compared_in(editions, n)[0]):
            out.setdefault((old.name, new.name), (old, new))
    return list(out.values())


def article_views(
    study: Study,
    numbers: Iterable[str] | None = None,
    progress: Callable[[int, int], None] | None = None,
    workers: int = 1,
    keep_walks: bool = True,
    histories: bool = True,
    synopses: bool = True,
) -> tuple[ArticleView, ...]:
    """The views of ``numbers`` (all articles of the study's editions when None); the comparisons
    they need are made first, ``workers`` at a time (:meth:`Study.prepare`).  ``keep_walks=False``: the
    histories are in the views now, and the walks that made them (:attr:`Study.walks`, a memo of 13 MB at
    744 articles) are dropped, for a caller that asks for no more histories (a report's pages, whose
    processes would each carry them).  ``histories=False``: the views without their histories
    (:func:`article_histories` makes them later); ``synopses=False``: without their synopses
    (:func:`article_synopsis`)."""
    wanted = article_numbers(study.editions) if numbers is None else list(numbers)
    study.prepare(pairs_of(study.editions, wanted), workers)
    out: list[ArticleView] = []
    with collector_paused():
        for i, n in enumerate(wanted):
            out.append(article_view(study, n, histories, synopses))
            if progress is not None:
                progress(i + 1, len(wanted))
    if not keep_walks:
        study.walks.clear()
    return tuple(out)


def pair_totals(study: Study, views: Iterable[ArticleView]) -> tuple[PairTotal, ...]:
    """The counts of each pair of editions over the articles that compare it, oldest pair first."""
    seen: dict[tuple[str, str], list[str]] = {}
    for v in views:
        for p in v.pairs:
            seen.setdefault((p.old.name, p.new.name), []).append(v.number)
    order = {e.name: i for i, e in enumerate(study.editions)}
    out: list[PairTotal] = []
    for (o, nw), numbers in sorted(seen.items(), key=lambda kv: (order[kv[0][0]], order[kv[0][1]])):
        old_ed, new_ed = study.editions[order[o]], study.editions[order[nw]]
        changes = _touching(study, old_ed, new_ed, numbers)
        out.append(
            PairTotal(
                old_ed,
                new_ed,
                tuple(numbers),
                counts(changes),
                editorial_by_kind(changes),
                sum(len(ch.stale_references) for ch in changes),
            )
        )
    return tuple(out)


def _touching(study: Study, old: Edition, new: Edition, numbers: list[str]) -> tuple[Change, ...]:
    """The changes of a pair touching any of the articles, each once, in the comparison's order."""
    comp = study.compare(old, new)
    idx = study.index(old, new)
    hits = sorted({i for n in numbers for i in idx.by_article.get(n, ())})
    return tuple(comp.changes[i] for i in hits)


def _article(e: Edition, number: str) -> Clause:
    c = e.find(number)
    if c is None:
        raise LawdiffBug(f"{e.name} was planned to hold article {number} but does not")
    return c


def _reading_order(old_pos: dict[str, int], changes: tuple[Change, ...]) -> tuple[Change, ...]:
    """The changes in the new edition's order, removals where they stood in the old one."""
    placed = [ch for ch in changes if ch.new]
    removed = [ch for ch in changes if not ch.new]
    keys: list[tuple[int, int, int, int]] = [(i, 0, 0, i) for i in range(len(placed))]
    for j, ch in enumerate(removed):
        p = min((old_pos.get(a, 0) for a in ch.old), default=0)
        after = -1
        for i, other in enumerate(placed):
            if other.old and max(old_pos.get(a, 0) for a in other.old) < p:
                after = max(after, i)
        keys.append((after, 1, p, j))
    ordered = sorted(zip(keys, [*placed, *removed], strict=True), key=lambda kc: kc[0])
    return tuple(ch for _, ch in ordered)
