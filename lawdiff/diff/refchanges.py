"""What became of a clause's cross-references across a pair of editions: kept, retargeted to where the old
target went or to another clause of its article, removed, added (``Change.references``)."""

from __future__ import annotations

from collections import deque

from lawdiff.align import Alignment
from lawdiff.diff.vocabulary import RefChange, RefStatus
from lawdiff.model import Clause, Edition, article_of


class Successors:
    """Where the target of a reference went, asked for once per target of a pair (the same targets are
    cited by clause after clause, and again by the clause's new self)."""

    def __init__(self, old: Edition, new: Edition, alignment: Alignment) -> None:
        self.old = old
        self.new = new
        self.alignment = alignment
        self.found: dict[str, tuple[str, ...] | None] = {}
        self._kept: dict[str, RefChange] = {}

    def __call__(self, target: str) -> tuple[str, ...] | None:
        if target in self.found:
            return self.found[target]
        found = self.found[target] = self._successors(target)
        return found

    def kept(self, target: str) -> RefChange:
        """The record of a reference to ``target`` kept as written (whether its target went elsewhere)."""
        made = self._kept.get(target)
        if made is None:
            succ = self(target)
            made = self._kept[target] = RefChange(
                RefStatus.KEPT, target, target, None if succ is None else target in succ
            )
        return made

    def _successors(self, target: str) -> tuple[str, ...] | None:
        """Where the target went, or None when the old edition does not hold it or the new one's corpus
        does not hold its place (an article it lacks, another section's page)."""
        clause = self.old.find(target)
        if clause is None or not self.new.holds(target):
            return None
        succ = self.alignment.successors(target)
        there = self.new.find(target)
        if not succ and not clause.text and there is not None and not (clause.title and there.heading_given):
            # An untitled clause without own text (45C4) is not aligned
            # itself, nor a heading whose place prints none (a 2017 section
            # page): its address surviving is what a reference needs.
            return (target,)
        return succ


def reference_changes(olds: list[Clause], news: list[Clause], successors: Successors) -> tuple[RefChange, ...]:
    old_refs = [r.target for c in olds for r in c.references]
    new_refs = [r.target for c in news for r in c.references]
    if not old_refs and not new_refs:
        return ()
    if old_refs == new_refs:
        # The same targets in the same order (most clauses, changed or not): each one kept, as the walk
        # below finds them, its record made once per target of the pair (so that the records told once
        # are those of the targets told once: no record hashed).
        return tuple([successors.kept(t) for t in dict.fromkeys(old_refs)])
    return references_matched(old_refs, new_refs, successors)


class _Remaining:
    """A clause's new targets not yet matched to an old one, in their order: the first of a target, of several,
    or of an article found by a look-up, not a scan of the list (a clause of thousands of references scanned
    it for each old one).  A target taken is its first occurrence left, as ``list.remove`` takes."""

    __slots__ = ("_by_article", "_by_target", "_left", "_refs")

    def __init__(self, refs: list[str]) -> None:
        self._refs = refs
        self._left = [True] * len(refs)
        # Per target and per article, the places of its occurrences in order (those taken dropped when met).
        self._by_target: dict[str, deque[int]] = {}
        self._by_article: dict[str, deque[int]] = {}
        for k, n in enumerate(refs):
            self._by_target.setdefault(n, deque()).append(k)
            self._by_article.setdefault(article_of(n), deque()).append(k)

    def _first(self, places: deque[int] | None) -> int | None:
        while places and not self._left[places[0]]:
            places.popleft()
        return places[0] if places else None

    def _taken(self, k: int | None) -> str | None:
        if k is None:
            return None
        self._left[k] = False
        return self._refs[k]

    def take(self, target: str) -> bool:
        """Take the first occurrence left of ``target``; False if none is left."""
        return self._taken(self._first(self._by_target.get(target))) is not None

    def take_first_of(self, targets: tuple[str, ...]) -> str | None:
        """Take the first target left that is one of ``targets``; None if none is."""
        places = [k for k in (self._first(self._by_target.get(t)) for t in targets) if k is not None]
        return self._taken(min(places) if places else None)

    def take_first_in_article(self, article: str) -> str | None:
        """Take the first target left in ``article``; None if none is."""
        return self._taken(self._first(self._by_article.get(article)))

    def left(self) -> list[str]:
        return [n for n, left in zip(self._refs, self._left, strict=True) if left]


def references_matched(old_refs: list[str], new_refs: list[str], successors: Successors) -> tuple[RefChange, ...]:
    """What became of each reference: the old targets matched to the new ones (kept, retargeted to where the
    old target went or to another clause of its article, removed), the new ones left over added."""
    out: list[RefChange] = []
    remaining_new = _Remaining(new_refs)
    pending_old: list[str] = []
    for t in old_refs:
        if remaining_new.take(t):
            succ = successors(t)
            out.append(RefChange(RefStatus.KEPT, t, t, None if succ is None else t in succ))
        else:
            pending_old.append(t)
    still_old: list[str] = []
    for t in pending_old:
        succ = successors(t)
        hit = remaining_new.take_first_of(succ) if succ else None
        if hit is not None:
            out.append(RefChange(RefStatus.RETARGETED, t, hit, True))
        else:
            still_old.append(t)
    for t in still_old:
        # Same article, other clause: a renumbered target (16D1 -> 16C1).
        hit = remaining_new.take_first_in_article(article_of(t))
        if hit is not None:
            succ = successors(t)
            out.append(RefChange(RefStatus.RETARGETED, t, hit, None if succ is None else hit in succ))
        else:
            out.append(RefChange(RefStatus.REMOVED, t, "", None))
    for n in remaining_new.left():
        out.append(RefChange(RefStatus.ADDED, "", n, None))
    # A target cited twice ("de artikelen 64A, 64B7 en 64C ... artikel 64B3 en
    # 64C") is one change of the references, told once.
    return tuple(dict.fromkeys(out))
