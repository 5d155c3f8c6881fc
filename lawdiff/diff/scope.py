"""What a comparison compares: the scope of each change, decided once for every output.

A change is **compared** when both editions' corpora hold the place where it lies.  Where one corpus
lacks that place it is **not compared**: the other corpus cannot tell whether the clause was added or
removed.  Either the article is missing from that corpus altogether (:attr:`Scope.NOT_HELD`), or the
corpus holds the article by some of its sections' pages only and not the part, or the heading, where
the clause lies (:attr:`Scope.HELD_IN_PART`).  Text, JSON, HTML, the Word redline, the correlation
table, the history and the minutes all read the scope from here: none of them decides it again.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from lawdiff.diff.vocabulary import Change, Comparison, Scope


def scope_of(change: Change) -> Scope:
    """The scope of ``change``, as the study decided it when it described the change (:attr:`Change.scope`)."""
    return change.scope


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
        """The scope of one change of this comparison (:attr:`Change.scope`)."""
        return change.scope
