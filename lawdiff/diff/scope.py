"""What a comparison compares: the scope of each change, decided once for every output.

A change is **compared** when both editions' corpora hold the place where it lies.  Where one corpus
lacks that place it is **not compared**: the other corpus cannot tell whether the clause was added or
removed.  Either the article is missing from that corpus altogether (:attr:`Scope.NOT_HELD`), or the
corpus holds the article by some of its sections' pages only and not the part, or the heading, where
the clause lies (:attr:`Scope.HELD_IN_PART`).  Text, JSON, HTML, the Word redline, the correlation
table, the history and the minutes all read the scope from here: none of them decides it again.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from lawdiff.diff.vocabulary import Change, Comparison
from lawdiff.model import article_of


class Scope(enum.Enum):
    """Whether a change is compared, and why not where it is not."""

    COMPARED = "compared"
    NOT_HELD = "not held"  # the other corpus lacks the article (or the heading outside articles)
    HELD_IN_PART = "held in part"  # the other corpus holds the article by other sections' pages only

    @property
    def compared(self) -> bool:
        return self is Scope.COMPARED


def scope_of(change: Change, held: tuple[Iterable[str], Iterable[str]]) -> Scope:
    """The scope of ``change``, given the articles each corpus holds (``old_articles``, ``new_articles``)."""
    if change.counterpart_in_corpus:
        return Scope.COMPARED
    # The side whose corpus lacks the place is the other side of the clause the change names.
    other = set(held[1]) if change.old and not change.new else set(held[0])
    arts = [article_of(a) for a in change.old + change.new]
    if any(art and art in other for art in arts):
        return Scope.HELD_IN_PART
    return Scope.NOT_HELD


def compared(changes: Iterable[Change]) -> list[Change]:
    """Those of ``changes`` that are compared, in their order: the only ones any output may show as a change."""
    return [ch for ch in changes if ch.counterpart_in_corpus]


@dataclass(frozen=True, slots=True)
class NotCompared:
    """What only one corpus holds, said once: not changes, since the other corpus cannot tell.

    changes: the changes whose counterpart's place the other corpus does not hold.
    held: the articles each corpus holds (:attr:`Alignment.old_articles`, ``new_articles``): of an article
        the other corpus holds in part (some of its sections' pages), the clauses and headings it lacks are
        named, not the article.
    """

    changes: Sequence[Change]
    held: tuple[Iterable[str], Iterable[str]] = ((), ())

    @classmethod
    def of(cls, comp: Comparison, changes: Iterable[Change]) -> NotCompared:
        """Those of ``changes`` (of ``comp``) that are not compared."""
        outside = [ch for ch in changes if not ch.counterpart_in_corpus]
        return cls(outside, (comp.alignment.old_articles, comp.alignment.new_articles))

    def scope(self, change: Change) -> Scope:
        """The scope of one change of this comparison (:func:`scope_of`)."""
        return scope_of(change, self.held)
