"""A clause's history: the comparisons of consecutive editions chained.

The walk starts at one clause of one edition and follows its text edition by
edition, forwards and backwards, through the study's indexes
(:meth:`lawdiff.diff.study.Study.involved`): each step costs what the clause's
own changes cost, not a scan of the comparison.  An edition whose corpus does
not hold the clause's article is skipped and said so (``in_corpus``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import cast

from lawdiff.align import Aspect
from lawdiff.diff.study import Study
from lawdiff.diff.vocabulary import Change, ChangeKind, History, Step
from lawdiff.errors import UsageError
from lawdiff.i18n import gettext as _
from lawdiff.model import Clause, Edition, article_of


def history(study: Study, edition: Edition, address: str) -> History:
    """The history of ``edition:address`` across the study's editions, oldest first."""
    clause = edition.find(address)
    if clause is None:
        raise UsageError(
            _("{name} has no clause {address!r}").format(name=edition.name, address=address),
            fix=_("see `lawdiff show EDITION` for its addresses"),
        )
    if not clause.text and not clause.title:
        # Only a number ("4."): no words to follow, so no comparison links it; its clauses have them.
        within = [c.address for c in clause.walk() if c.text or c.title]
        more = ", ..." if len(within) > 3 else ""
        fix = (
            _("follow its clauses: {commands}").format(
                commands=", ".join(f"lawdiff history '{edition.name}:{a}'" for a in within[:3]) + more
            )
            if within
            else _("see `lawdiff show EDITION` for the clauses that have words")
        )
        raise UsageError(
            _("{name}:{address} has no words of its own, only its number").format(
                name=edition.name, address=clause.address
            ),
            fix=fix,
        )
    return _Followed(study, edition).history(clause)


def histories(study: Study, edition: Edition, clauses: Iterable[Clause]) -> list[History]:
    """The histories of ``clauses`` of ``edition`` (each with a title or a text of its own), as
    :func:`history` gives them one by one: the edition's place among the study's editions is found once
    for them all (a report asks for the history of every clause of every edition)."""
    followed = _Followed(study, edition)
    return [followed.history(c) for c in clauses]


class _Followed:
    """The clauses of one edition followed through the study's editions."""

    __slots__ = ("edition", "eds", "idx", "study", "text_walks", "title_walks")

    def __init__(self, study: Study, edition: Edition) -> None:
        self.study = study
        self.edition = edition
        self.eds = study.timeline(edition)
        self.idx = next(i for i, e in enumerate(self.eds) if e.name == edition.name)
        # The walks of each aspect (a clause followed by its text, a heading alone by its title), made when
        # first asked for: two attributes, not a dictionary keyed by the aspect (an enum member's hash is a
        # method written in Python, paid for every clause).
        self.text_walks: _Walks | None = None
        self.title_walks: _Walks | None = None

    def history(self, clause: Clause) -> History:
        edition, idx = self.edition, self.idx
        start: tuple[str, ...] = (clause.address,)
        # A clause with words of its own is followed by them; a heading alone (2017 45D, whose text went to
        # 45D1) by its heading: a heading is never paired with a body.
        if clause.text:
            aspect, words = Aspect.TEXT, clause.text
            walks = self.text_walks
            if walks is None:
                walks = self.text_walks = _Walks(self.study, self.eds, aspect)
        else:
            aspect, words = Aspect.TITLE, clause.title
            walks = self.title_walks
            if walks is None:
                walks = self.title_walks = _Walks(self.study, self.eds, aspect)
        walks.origin = start
        # The change into the starting edition belongs to its step; the walk
        # backwards finds it.
        first, older = walks.back(idx - 1, idx, start)
        kinds, changes = first or ((), ())
        here = Step(edition.name, start, (words,), kinds, changes, True)
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

    def __init__(self, study: Study, eds: list[Edition], aspect: Aspect) -> None:
        self.study = study
        self.eds = eds
        self.aspect = aspect
        self.value = aspect.value  # for the memo's keys: an enum member's hash and its value are Python methods
        # Where the clause being followed started: whether an edition it is absent from holds its article
        # at all (set for each clause followed).
        self.origin: tuple[str, ...] = ()
        self.memo = study.walks.setdefault(tuple(e.name for e in eds), {})

    def absent(self, e: Edition, cur: tuple[str, ...]) -> Step:
        """The step of an edition where the clause is not: gone (its corpus holds the article), or not in
        its corpus (the article is not there to tell)."""
        return Step(e.name, (), (), (), (), bool(cur) is False and _covers(e, self.origin))

    def involved(self, old: Edition, new: Edition, cur: tuple[str, ...], side: str) -> tuple[Change, ...]:
        """The changes of a pair that carry the clause's words from ``cur`` on ``side``: of its text, or of
        its heading, where a heading with a text of its own comes with that text's change (its title
        carried there, as ``compare`` shows it) and one without with a heading change of its own."""
        where = {"old_side": cur} if side == "old" else {"new_side": cur}
        found = self.study.involved(old, new, aspect=self.aspect, **where)
        if found or self.aspect is Aspect.TEXT:
            return found
        # A titled clause added or removed with its text is told by its text change alone.
        texts = self.study.involved(old, new, aspect=Aspect.TEXT, **where)
        return tuple(ch for ch in texts if ch.old_title or ch.new_title or not (ch.old and ch.new))

    def key(self, way: str, j: int, at: int, cur: tuple[str, ...]) -> tuple[object, ...]:
        # The aspect by its value: an enum member is hashed by a method written in Python.
        return (way, j, at, cur, self.value, () if cur else self.origin)

    def forth(self, j: int, at: int, cur: tuple[str, ...]) -> tuple[Step, ...]:
        if j >= len(self.eds):
            return ()
        key = self.key("forth", j, at, cur)
        found = self.memo.get(key)
        if found is None:
            e = self.eds[j]
            involved = self.involved(self.eds[at], e, cur, "old") if cur and _covers(e, cur) else None
            if not cur or involved is None or _lacking(involved):
                # Gone (in_corpus), or in an article or heading this edition's corpus lacks.
                found = (self.absent(e, cur), *self.forth(j + 1, at, cur))
            else:
                there = tuple(dict.fromkeys(a for ch in involved for a in ch.new))
                step = Step(e.name, there, _texts(e, there, self.aspect), _kinds(involved), involved, True)
                found = (step, *self.forth(j + 1, j, there))
            self.memo[key] = found
        return cast(tuple[Step, ...], found)

    def back(self, j: int, at: int, cur: tuple[str, ...]) -> _Back:
        if j < 0:
            return None, ()
        key = self.key("back", j, at, cur)
        found = self.memo.get(key)
        if found is None:
            e = self.eds[j]
            involved = self.involved(e, self.eds[at], cur, "new") if cur and _covers(e, cur) else None
            if not cur or involved is None or _lacking(involved):
                first, rest = self.back(j - 1, at, cur)
                found = (first, (self.absent(e, cur), *rest))
            else:
                there = tuple(dict.fromkeys(a for ch in involved for a in ch.old))
                before, rest = self.back(j - 1, j, there)
                kinds, changes = before or ((), ())
                step = Step(e.name, there, _texts(e, there, self.aspect), kinds, changes, True)
                found = ((_kinds(involved), involved), (step, *rest))
            self.memo[key] = found
        return cast(_Back, found)


def _covers(e: Edition, addrs: tuple[str, ...]) -> bool:
    """Whether the edition's corpus holds an article of these addresses (or they lie outside articles)."""
    if len(addrs) == 1:  # the most part
        art = article_of(addrs[0])
        return not art or e.find(art) is not None
    arts = {article_of(a) for a in addrs} - {""}
    return not arts or any(e.find(a) is not None for a in arts)


def _lacking(involved: tuple[Change, ...]) -> bool:
    """Whether the other edition's corpus lacks what these changes are about: a heading page only one
    corpus holds is no addition or removal (as ``compare`` does not count it), but a step to skip."""
    return bool(involved) and not any(ch.counterpart_in_corpus for ch in involved)


def _kinds(changes: tuple[Change, ...]) -> tuple[ChangeKind, ...]:
    if len(changes) == 1:  # the most part
        return (changes[0].kind,)
    kinds = tuple(dict.fromkeys(ch.kind for ch in changes))
    return kinds or (ChangeKind.REMOVED,)


def _texts(e: Edition, addrs: tuple[str, ...], aspect: Aspect) -> tuple[str, ...]:
    """The words a history follows at these addresses: the clauses' texts, or their headings' titles."""
    out = []
    for a in addrs:
        c = e.find(a)
        out.append((c.text if aspect is Aspect.TEXT else c.title) if c else "")
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
