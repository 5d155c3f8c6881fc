"""A clause's history: the alignments of consecutive editions chained."""

from __future__ import annotations

from dataclasses import replace

from lawdiff.align import DEFAULT_THRESHOLDS, Thresholds
from lawdiff.diff.changes import compare
from lawdiff.diff.records import Change, Comparison, History, Step
from lawdiff.errors import UsageError
from lawdiff.model import Edition, article_of, chronological


class Comparer:
    """Caches comparisons of edition pairs within one run."""

    def __init__(self, editions: tuple[Edition, ...], thresholds: Thresholds = DEFAULT_THRESHOLDS) -> None:
        self.editions = editions
        self.thresholds = thresholds
        self._cache: dict[tuple[str, str], Comparison] = {}

    def compare(self, old: Edition, new: Edition) -> Comparison:
        key = (old.name, new.name)
        if key not in self._cache:
            self._cache[key] = compare(old, new, self.thresholds)
        return self._cache[key]


def history(comparer: Comparer, edition: Edition, address: str) -> History:
    """The history of ``edition:address`` across all editions, oldest first."""
    clause = edition.find(address)
    if clause is None:
        raise UsageError(
            f"{edition.name} has no clause {address!r}", fix="see `lawdiff show EDITION` for its addresses"
        )
    eds = _timeline_with(comparer.editions, edition)
    idx = next(i for i, e in enumerate(eds) if e.name == edition.name)
    start: tuple[str, ...] = (clause.address,)
    steps: dict[str, Step] = {edition.name: Step(edition.name, start, _texts(edition, start), "", (), True)}

    def covers(e: Edition, addrs: tuple[str, ...]) -> bool:
        arts = {article_of(a) for a in addrs} - {""}
        return not arts or any(e.find(a) is not None for a in arts)

    def walk(editions: list[Edition], older: bool) -> None:
        """Follow the clause edition by edition, away from where it started."""
        cur, cur_ed = start, edition
        for e in editions:
            if not cur or not covers(e, cur):
                # Gone (in_corpus) or in an article this edition's corpus lacks.
                steps[e.name] = Step(e.name, (), (), "", (), not cur)
                continue
            comp = comparer.compare(e, cur_ed) if older else comparer.compare(cur_ed, e)
            involved = _involved(comp, new_side=cur) if older else _involved(comp, old_side=cur)
            there = tuple(dict.fromkeys(a for ch in involved for a in (ch.old if older else ch.new)))
            if older:
                # The change belongs to the later edition's step.
                steps[cur_ed.name] = replace(steps[cur_ed.name], change=_step_kind(involved), changes=involved)
                steps[e.name] = Step(e.name, there, _texts(e, there), "", (), True)
            else:
                steps[e.name] = Step(e.name, there, _texts(e, there), _step_kind(involved), involved, True)
            cur, cur_ed = there, e

    walk(list(reversed(eds[:idx])), older=True)
    walk(eds[idx + 1 :], older=False)
    ordered = tuple(steps[e.name] for e in eds if e.name in steps)
    return History(f"{edition.name}:{clause.address}", ordered, _introduced(ordered))


def _timeline_with(editions: tuple[Edition, ...], edition: Edition) -> list[Edition]:
    """The editions in order, with ``edition`` standing in for its year's edition
    when it is one of two sources of that year (``2017@wiki``)."""
    eds = list(editions)
    if all(e.name != edition.name for e in eds):
        same = [k for k, e in enumerate(eds) if e.year == edition.year and e.effective == edition.effective]
        if same:
            eds[same[0]] = edition
        else:
            eds.append(edition)
    return sorted(eds, key=chronological)


def _involved(comp: Comparison, old_side: tuple[str, ...] = (), new_side: tuple[str, ...] = ()) -> tuple[Change, ...]:
    out: list[Change] = []
    for ch in comp.changes:
        if ch.aspect != "text" and any(c.aspect == "text" for c in out):
            continue
        if (old_side and set(ch.old) & set(old_side)) or (new_side and set(ch.new) & set(new_side)):
            out.append(ch)
    text_first = [c for c in out if c.aspect == "text"] or out
    return tuple(text_first)


def _step_kind(changes: tuple[Change, ...]) -> str:
    kinds = list(dict.fromkeys(ch.kind.value for ch in changes))
    return "+".join(kinds) if kinds else "removed"


def _texts(e: Edition, addrs: tuple[str, ...]) -> tuple[str, ...]:
    out = []
    for a in addrs:
        c = e.find(a)
        out.append(c.text or c.title if c else "")
    return tuple(out)


def _introduced(steps: tuple[Step, ...]) -> str:
    present = [s for s in steps if s.addresses]
    if not present:
        return ""
    introduced = present[-1].edition
    for s in reversed(present):
        introduced = s.edition
        if s.change and s.change != "unchanged" and not all(ch.editorial_only for ch in s.changes):
            return s.edition
        if not s.change:
            return s.edition
    return introduced
