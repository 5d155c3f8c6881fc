"""What one corpus holds and the other lacks: said once, under a comparison or its correlation table.

Not changes: the other corpus cannot tell whether such a clause was added or removed (an article it
lacks, the sections its section pages do not give).  Used by :mod:`lawdiff.report.text` and
:mod:`lawdiff.report.correlate`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from lawdiff.align import Aspect
from lawdiff.diff import Change, Comparison
from lawdiff.model import article_of, natural_key
from lawdiff.report import article_ranges, clean


@dataclass(frozen=True, slots=True)
class NotCompared:
    """What only one corpus holds, said once (:func:`outside_line`): not changes, since the other corpus cannot
    tell.

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


def outside_line(old: str, new: str, outside: NotCompared) -> str:
    """What one corpus holds and the other lacks (see :class:`NotCompared`), in one line."""
    parts: list[str] = []
    held = outside.held
    for name, other, side, other_held in ((new, old, "new", set(held[0])), (old, new, "old", set(held[1]))):
        arts: set[str] = set()
        clauses: dict[str, None] = {}
        headings: dict[str, None] = {}
        others: set[str] = set()
        for ch in outside.changes:
            for a in ch.new if side == "new" else ch.old:
                art = article_of(a)
                if not art:
                    others.add(a)
                elif art not in other_held:
                    arts.add(art)
                else:
                    (headings if ch.aspect is Aspect.TITLE else clauses)[a] = None
        pieces = [
            f"article(s) {article_ranges(sorted(arts, key=natural_key))}" if arts else "",
            ", ".join(clauses),
            f"the heading(s) of {', '.join(headings)}" if headings else "",
            f"heading(s) {', '.join(sorted(others))}" if others else "",
        ]
        what = "; ".join(x for x in pieces if x)
        if what:
            parts.append(f"{what} only in the {name} corpus (the {other} corpus does not hold them)")
    return clean("not compared: " + "; ".join(parts))
