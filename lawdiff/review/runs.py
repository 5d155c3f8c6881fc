"""The comparisons a review command shows: which pairs, computed once.

The study (:class:`lawdiff.diff.study.Study`) computes each comparison once,
with the store's hand corrections; this module says which.  The pairs are those of the report: for every article, the
consecutive editions that hold it (1963 -> 2007 for article 45, as the 1997
corpus lacks it), each pair compared once over the whole editions.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import TYPE_CHECKING

from lawdiff.errors import UsageError
from lawdiff.i18n import gettext as _
from lawdiff.model import Edition, chronological

if TYPE_CHECKING:
    from lawdiff.corpus import Corpus
    from lawdiff.diff.comparison import Comparison
    from lawdiff.diff.study import Study


def timeline(corpus: Corpus) -> tuple[Edition, ...]:
    """The editions a run compares, oldest first (as the report orders them)."""
    return tuple(sorted(corpus.editions, key=chronological))


def default_pairs(editions: Sequence[Edition]) -> list[tuple[Edition, Edition]]:
    """Consecutive editions per article, every pair once, oldest first."""
    order = {e.name: i for i, e in enumerate(editions)}
    found: dict[tuple[str, str], tuple[Edition, Edition]] = {}
    numbers = dict.fromkeys(a.address for e in editions for a in e.articles())
    for n in numbers:
        holders = [e for e in editions if e.find(n) is not None]
        for old, new in itertools.pairwise(holders):
            found.setdefault((old.name, new.name), (old, new))
    if not found:
        # No article in two editions (front matter only, say): the timeline's neighbours.
        found = {(a.name, b.name): (a, b) for a, b in itertools.pairwise(editions)}
    return sorted(found.values(), key=lambda p: (order[p[0].name], order[p[1].name]))


def select_pairs(corpus: Corpus, pair: tuple[str, str] | None) -> list[tuple[Edition, Edition]]:
    if pair is None:
        return default_pairs(timeline(corpus))
    old, new = corpus.edition(pair[0]), corpus.edition(pair[1])
    if old.name == new.name:
        raise UsageError(
            _("--pair {pair} {pair2} names one edition twice").format(pair=pair[0], pair2=pair[1]),
            fix=_("name two editions"),
        )
    return [(old, new)]


def comparisons(study: Study, corpus: Corpus, pair: tuple[str, str] | None) -> list[Comparison]:
    """The run's comparisons: all default pairs, or the one pair asked for, each computed once by the study."""
    return [study.compare(old, new) for old, new in select_pairs(corpus, pair)]
