"""A clause's history: the comparisons of consecutive editions chained.

The walk starts at one clause of one edition and follows its text edition by
edition, forwards and backwards, through the study's indexes
(:meth:`lawdiff.diff.study.Study.involved`): each step costs what the clause's
own changes cost, not a scan of the comparison.  An edition whose corpus does
not hold the clause's article is skipped and said so (``in_corpus``).
"""

from __future__ import annotations

from typing import cast

from lawdiff.diff.records import Change, ChangeKind, History, Step
from lawdiff.diff.study import Study
from lawdiff.errors import UsageError
from lawdiff.model import Edition, article_of


def history(study: Study, edition: Edition, address: str) -> History:
    """The history of ``edition:address`` across the study's editions, oldest first."""
    clause = edition.find(address)
    if clause is None:
        raise UsageError(
            f"{edition.name} has no clause {address!r}", fix="see `lawdiff show EDITION` for its addresses"
        )
    if not clause.text and not clause.title:
        # Only a number ("4."): no words to follow, so no comparison links it; its clauses have them.
        within = [c.address for c in clause.walk() if c.text or c.title]
        more = ", ..." if len(within) > 3 else ""
        fix = (
            "follow its clauses: " + ", ".join(f"lawdiff history '{edition.name}:{a}'" for a in within[:3]) + more
            if within
            else "see `lawdiff show EDITION` for the clauses that have words"
        )
        raise UsageError(f"{edition.name}:{clause.address} has no words of its own, only its number", fix=fix)
    eds = study.timeline(edition)
    idx = next(i for i, e in enumerate(eds) if e.name == edition.name)
    start: tuple[str, ...] = (clause.address,)
    walks = _Walks(study, eds)
    # The change into the starting edition belongs to its step; the walk
    # backwards finds it.
    first, older = walks.back(idx - 1, idx, start)
    kinds, changes = first or ((), ())
    here = Step(edition.name, start, _texts(edition, start), kinds, changes, True)
    ordered = (*reversed(older), here, *walks.forth(idx + 1, idx, start))
    return History(f"{edition.name}:{clause.address}", ordered, *_introduced(ordered))


# What a walk backwards gives the step it leaves from: the kinds and records of
# the change into it (None when no comparison was made), and the older steps,
# nearest first.
_Back = tuple[tuple[tuple[ChangeKind, ...], tuple[Change, ...]] | None, tuple[Step, ...]]


class _Walks:
    """A clause followed edition by edition, away from where it started.

    A walk from an edition's addresses onwards does not depend on where the
    history started, and the clauses of a chain each start one (a clause in
    four editions has four histories): each walk is made once per study
    (:attr:`Study.walks`) and its steps shared, so that the histories of
    every clause cost what their distinct walks cost.

    ``j``: the next edition to reach; ``at``: the edition the clause was last
    found in (an edition whose corpus lacks the article is skipped, and the
    next one compared with ``at``); ``cur``: its addresses there.
    """

    def __init__(self, study: Study, eds: list[Edition]) -> None:
        self.study = study
        self.eds = eds
        self.memo = study.walks.setdefault(tuple(e.name for e in eds), {})

    def forth(self, j: int, at: int, cur: tuple[str, ...]) -> tuple[Step, ...]:
        if j >= len(self.eds):
            return ()
        key = ("forth", j, at, cur)
        found = self.memo.get(key)
        if found is None:
            e = self.eds[j]
            involved = self.study.involved(self.eds[at], e, old_side=cur) if cur and _covers(e, cur) else None
            if not cur or involved is None or _lacking(involved):
                # Gone (in_corpus), or in an article or heading this edition's corpus lacks.
                found = (Step(e.name, (), (), (), (), not cur), *self.forth(j + 1, at, cur))
            else:
                there = tuple(dict.fromkeys(a for ch in involved for a in ch.new))
                step = Step(e.name, there, _texts(e, there), _kinds(involved), involved, True)
                found = (step, *self.forth(j + 1, j, there))
            self.memo[key] = found
        return cast(tuple[Step, ...], found)

    def back(self, j: int, at: int, cur: tuple[str, ...]) -> _Back:
        if j < 0:
            return None, ()
        key = ("back", j, at, cur)
        found = self.memo.get(key)
        if found is None:
            e = self.eds[j]
            involved = self.study.involved(e, self.eds[at], new_side=cur) if cur and _covers(e, cur) else None
            if not cur or involved is None or _lacking(involved):
                first, rest = self.back(j - 1, at, cur)
                found = (first, (Step(e.name, (), (), (), (), not cur), *rest))
            else:
                there = tuple(dict.fromkeys(a for ch in involved for a in ch.old))
                before, rest = self.back(j - 1, j, there)
                kinds, changes = before or ((), ())
                step = Step(e.name, there, _texts(e, there), kinds, changes, True)
                found = ((_kinds(involved), involved), (step, *rest))
            self.memo[key] = found
        return cast(_Back, found)


def _covers(e: Edition, addrs: tuple[str, ...]) -> bool:
    """Whether the edition's corpus holds an article of these addresses (or they lie outside articles)."""
    arts = {article_of(a) for a in addrs} - {""}
    return not arts or any(e.find(a) is not None for a in arts)


def _lacking(involved: tuple[Change, ...]) -> bool:
    """Whether the other edition's corpus lacks what these changes are about: a heading page only one
    corpus holds is no addition or removal (as ``compare`` does not count it), but a step to skip."""
    return bool(involved) and not any(ch.counterpart_in_corpus for ch in involved)


def _kinds(changes: tuple[Change, ...]) -> tuple[ChangeKind, ...]:
    kinds = tuple(dict.fromkeys(ch.kind for ch in changes))
    return kinds or (ChangeKind.REMOVED,)


def _texts(e: Edition, addrs: tuple[str, ...]) -> tuple[str, ...]:
    out = []
    for a in addrs:
        c = e.find(a)
        out.append(c.text or c.title if c else "")
    return tuple(out)


def _introduced(steps: tuple[Step, ...]) -> tuple[str, tuple[str, ...]]:
    """The edition that introduced the current wording (the last step that changed it beyond editorial
    changes), and the editions just before it whose corpus does not hold the clause: it may be theirs."""
    present = [i for i, s in enumerate(steps) if s.addresses]
    if not present:
        return "", ()
    at = present[0]
    for i in reversed(present):
        if steps[i].changed or not steps[i].kinds:
            at = i
            break
    before = at
    while before > 0 and not steps[before - 1].in_corpus:
        before -= 1
    return steps[at].edition, tuple(s.edition for s in steps[before:at])
