"""A clause's history: the comparisons of consecutive editions chained.

The walk starts at one clause of one edition and follows its text edition by
edition, forwards and backwards, through the study's indexes
(:meth:`lawdiff.diff.study.Study.involved`): each step costs what the clause's
own changes cost, not a scan of the comparison.  An edition whose corpus does
not hold the clause's article is skipped and said so (``in_corpus``).
"""

from __future__ import annotations

from dataclasses import replace

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
    eds = study.timeline(edition)
    idx = next(i for i, e in enumerate(eds) if e.name == edition.name)
    start: tuple[str, ...] = (clause.address,)
    steps: dict[str, Step] = {edition.name: Step(edition.name, start, _texts(edition, start), (), (), True)}

    def walk(editions: list[Edition], older: bool) -> None:
        """Follow the clause edition by edition, away from where it started."""
        cur, cur_ed = start, edition
        for e in editions:
            if not cur or not _covers(e, cur):
                # Gone (in_corpus) or in an article this edition's corpus lacks.
                steps[e.name] = Step(e.name, (), (), (), (), not cur)
                continue
            involved = study.involved(e, cur_ed, new_side=cur) if older else study.involved(cur_ed, e, old_side=cur)
            there = tuple(dict.fromkeys(a for ch in involved for a in (ch.old if older else ch.new)))
            if older:
                # The change belongs to the later edition's step.
                steps[cur_ed.name] = replace(steps[cur_ed.name], kinds=_kinds(involved), changes=involved)
                steps[e.name] = Step(e.name, there, _texts(e, there), (), (), True)
            else:
                steps[e.name] = Step(e.name, there, _texts(e, there), _kinds(involved), involved, True)
            cur, cur_ed = there, e

    walk(list(reversed(eds[:idx])), older=True)
    walk(eds[idx + 1 :], older=False)
    ordered = tuple(steps[e.name] for e in eds if e.name in steps)
    return History(f"{edition.name}:{clause.address}", ordered, _introduced(ordered))


def _covers(e: Edition, addrs: tuple[str, ...]) -> bool:
    """Whether the edition's corpus holds an article of these addresses (or they lie outside articles)."""
    arts = {article_of(a) for a in addrs} - {""}
    return not arts or any(e.find(a) is not None for a in arts)


def _kinds(changes: tuple[Change, ...]) -> tuple[ChangeKind, ...]:
    kinds = tuple(dict.fromkeys(ch.kind for ch in changes))
    return kinds or (ChangeKind.REMOVED,)


def _texts(e: Edition, addrs: tuple[str, ...]) -> tuple[str, ...]:
    out = []
    for a in addrs:
        c = e.find(a)
        out.append(c.text or c.title if c else "")
    return tuple(out)


def _introduced(steps: tuple[Step, ...]) -> str:
    """The edition that introduced the current wording: the last step that changed it beyond editorial changes."""
    present = [s for s in steps if s.addresses]
    if not present:
        return ""
    introduced = present[-1].edition
    for s in reversed(present):
        introduced = s.edition
        if s.changed or not s.kinds:
            return s.edition
    return introduced
