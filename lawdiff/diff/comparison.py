"""A comparison of two editions, and its changes as it holds them.

Most changes of two editions are clauses that kept their text: a comparison holds each such change as a
small entry (:data:`Kept`), its record (:class:`~lawdiff.diff.vocabulary.Change`) made when it is first
read (:class:`Changes`); what the text output asks of every change is read off the entries
(:func:`counts`, :func:`differs`, :func:`listed`).  The records themselves are
:mod:`lawdiff.diff.vocabulary`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, overload

from lawdiff.align import Alignment, Link, Thresholds
from lawdiff.diff.vocabulary import (
    NORMATIVE,
    Change,
    ChangeKind,
    Flag,
    Op,
    Pattern,
    Piece,
    RefChange,
    Scope,
    change_id,
)

# A clause linked to one clause whose text it kept (or a heading to one whose title it kept), as a comparison
# holds it until its record is asked for (:class:`Changes`): its link; its text (a heading's: its title); its
# title where the link folds the title in or is a heading's (the same on both sides), else ""; the article its
# change is listed under; whether it moved to another article; what became of its references (a heading's:
# none); whether its link is uncertain.  A tuple: most clauses of two editions are such, and the identical
# pair's 3,069 kept clauses cost 0.2 ms as tuples against 16 ms as records with their ids (timeit, best of 7).
Kept = tuple[Link, str, str, str, bool, tuple[RefChange, ...], bool]


def kept_change(old: str, new: str, kept: Kept) -> Change:
    """The record of a clause that kept its text, or of a heading that kept its title (``old``, ``new``: the
    editions' names, of its id): what describing its link gives (:mod:`lawdiff.diff.changes`)."""
    link, text, title, article, moved, references, uncertain = kept
    texts = (text,)
    return Change(
        ChangeKind.UNCHANGED,
        link.aspect,
        link.old,
        link.new,
        article,
        link.old != link.new,
        moved,
        False,
        title,
        title,
        1.0,
        False,
        (Piece(Op.EQUAL, text),) if text else (),
        references,
        link.score,
        uncertain,
        link.methods,
        link.reasons,
        texts,
        texts,
        True,
        change_id(old, new, link.aspect, link.old, link.new, texts, texts),
        link.pinned_by,
        (),
        0.0,
        link.certainty,
        Scope.COMPARED,
    )


def _kept_difference(kept: Kept) -> bool:
    """:attr:`Change.is_difference` of a kept clause: renumbered or moved."""
    return kept[4] or kept[0].old != kept[0].new


def _kept_noteworthy(kept: Kept) -> bool:
    """:attr:`Change.noteworthy` of a kept clause: renumbered, moved, or citing a target that moved."""
    return _kept_difference(kept) or any(r.stale for r in kept[5])


class Changes(Sequence[Change]):
    """A comparison's changes, in document order: a sequence of :class:`Change` records, equal to the tuple
    of them (and pickled, compared and printed as it).

    Most changes of two editions are clauses that kept their text.  Such a change is held as its
    :data:`Kept` entry, and its record (its id a SHA-256 of its texts) made when it is first read, then
    the same record at every read: an unchanged clause costs a comparison its link and a tuple.  What
    the text output asks of every change, its counts and the changes it lists (:func:`counts`,
    :func:`listed`, :func:`differs`, :meth:`Comparison.normative_count`), is read off the entries without
    making the records of the clauses it does not list.
    """

    __slots__ = ("_entries", "_made", "new", "old")

    def __init__(self, old: str, new: str, entries: Iterable[Change | Kept]) -> None:
        self.old = old
        self.new = new
        self._entries: tuple[Change | Kept, ...] = tuple(entries)
        # The records made of kept entries, by position (made once: a record read twice is the same object).
        self._made: dict[int, Change] = {}

    def __len__(self) -> int:
        return len(self._entries)

    @overload
    def __getitem__(self, at: int) -> Change: ...

    @overload
    def __getitem__(self, at: slice) -> tuple[Change, ...]: ...

    def __getitem__(self, at: int | slice) -> Change | tuple[Change, ...]:
        if isinstance(at, slice):
            return tuple([self[i] for i in range(*at.indices(len(self._entries)))])
        entry = self._entries[at]
        if isinstance(entry, tuple):
            return self._record(at % len(self._entries), entry)
        return entry

    def __iter__(self) -> Iterator[Change]:
        made = self._made
        for i, entry in enumerate(self._entries):
            if isinstance(entry, tuple):
                yield made.get(i) or self._record(i, entry)
            else:
                yield entry

    def _record(self, i: int, entry: Kept) -> Change:
        found = self._made.get(i)
        if found is None:
            # (setdefault: two threads reading the same entry at once keep the first record made.)
            found = self._made.setdefault(i, kept_change(self.old, self.new, entry))
        return found

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Changes | tuple):
            return tuple(self) == tuple(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return repr(tuple(self))

    def __reduce__(self) -> tuple[type, tuple[Any, ...]]:
        # The kept entries as they are: the cache and a forked describer's pipe carry no record of them.
        return (Changes, (self.old, self.new, self._entries))

    def described(self) -> list[Change]:
        """The changes whose records were made with the comparison: all but the clauses that kept their text."""
        return [e for e in self._entries if not isinstance(e, tuple)]

    def kept(self) -> list[Kept]:
        """The entries of the clauses that kept their text (:data:`Kept`), their records made or not."""
        return [e for e in self._entries if isinstance(e, tuple)]

    def listed(self, every: bool, also: Callable[[Change], bool] | None) -> Iterator[tuple[str, Change | None]]:
        """Each change compared, in order, with its article: its record where :attr:`Change.noteworthy`
        (``every``: all; ``also``: or where it says so, asked of every record), else None."""
        made = self._made
        for i, entry in enumerate(self._entries):
            if isinstance(entry, tuple):
                if every or also is not None or _kept_noteworthy(entry):
                    ch = made.get(i) or self._record(i, entry)
                    yield entry[3], (ch if every or ch.noteworthy or (also is not None and also(ch)) else None)
                else:
                    yield entry[3], None
            elif entry.counterpart_in_corpus:
                shown = every or entry.noteworthy or (also is not None and also(entry))
                yield entry.article, (entry if shown else None)


@dataclass(frozen=True, slots=True)
class Comparison:
    """All changes from one edition to another, in document order (:class:`Changes`, or any sequence of
    records).

    patterns: the drafting patterns among the changes (:class:`Pattern`), in document order.
    """

    old: str
    new: str
    thresholds: Thresholds
    changes: Sequence[Change]
    alignment: Alignment
    patterns: tuple[Pattern, ...] = ()

    def counts(self, changes: Sequence[Change] | None = None) -> dict[str, int]:
        """Counts by kind and flag, of all changes or of a selection of them (see :func:`counts`)."""
        return counts(self.changes if changes is None else changes)

    @property
    def has_differences(self) -> bool:
        changes = self.changes
        if isinstance(changes, Changes):
            return any(ch.is_difference for ch in changes.described()) or any(map(_kept_difference, changes.kept()))
        return any(ch.is_difference for ch in changes)

    def patterns_of(self, changes: Iterable[Change]) -> tuple[Pattern, ...]:
        """The patterns with a change among ``changes``."""
        # (A clause that kept its text has no flag, so no pattern: its record need not be made.)
        ids = {ch.id for ch in (changes.described() if isinstance(changes, Changes) else changes)}
        return tuple(p for p in self.patterns if ids.intersection(p.changes))

    def normative_count(self, changes: Iterable[Change]) -> int:
        """How many of the changes (those compared) are normative, a drafting pattern counted once.

        A change counts on its own when it has a normative flag that none of its patterns covers;
        a pattern counts one when some change of it counts not on its own (the pattern is all that
        makes that change normative).
        """
        among = changes.described() if isinstance(changes, Changes) else changes  # (kept clauses: no flag)
        chosen = [ch for ch in among if ch.counterpart_in_corpus and ch.normative]
        patterns = self.patterns_of(chosen)
        covered: dict[str, set[Flag]] = {}
        for p in patterns:
            for cid in p.changes:
                covered.setdefault(cid, set()).add(p.flag)
        alone = {
            ch.id
            for ch in chosen
            if any(s.flag in NORMATIVE and s.flag not in covered.get(ch.id, ()) for s in ch.signals)
        }
        ids = {ch.id for ch in chosen}
        counted = sum(1 for p in patterns if any(c in ids and c not in alone for c in p.changes))
        return len(alone) + counted


def counts(changes: Sequence[Change]) -> dict[str, int]:
    """Counts by kind and flag.

    Changes in articles that the other edition's corpus does not hold at all
    are counted apart (``outside_corpus``): their addition or removal may only
    mean that the corpus is partial.
    """
    kept: list[Kept] = []
    if isinstance(changes, Changes):
        kept = changes.kept()
        changes = changes.described()
    chosen = [ch for ch in changes if ch.counterpart_in_corpus]
    c: Counter[str] = Counter(ch.kind.value for ch in chosen)
    out = {k.value: c.get(k.value, 0) for k in ChangeKind}
    out["editorial_only"] = sum(1 for ch in chosen if ch.editorial_only)
    out["renumbered"] = sum(1 for ch in chosen if ch.renumbered)
    out["moved"] = sum(1 for ch in chosen if ch.moved)
    out["title_changed"] = sum(1 for ch in chosen if ch.title_changed)
    out["outside_corpus"] = len(changes) - len(chosen)
    if kept:
        # A kept clause: unchanged, compared, neither editorial nor retitled.
        out[ChangeKind.UNCHANGED.value] += len(kept)
        out["renumbered"] += sum(1 for k in kept if k[0].old != k[0].new)
        out["moved"] += sum(1 for k in kept if k[4])
    return out


def differs(changes: Sequence[Change]) -> bool:
    """Whether any of the changes compared is a difference (:attr:`Change.is_difference`)."""
    if isinstance(changes, Changes):
        return any(ch.is_difference and ch.counterpart_in_corpus for ch in changes.described()) or any(
            map(_kept_difference, changes.kept())
        )
    return any(ch.is_difference and ch.counterpart_in_corpus for ch in changes)


def listed(
    changes: Sequence[Change], every: bool, also: Callable[[Change], bool] | None = None
) -> tuple[list[tuple[str, list[Change]]], int]:
    """The changes compared that a listing shows, by article (the articles in the order of their first
    change compared, those with none shown left out), and how many it does not show: the noteworthy ones
    (:attr:`Change.noteworthy`; ``every``: all; ``also``: and those it says, asked of every change).  Of
    :class:`Changes`, the records of clauses that kept their text and are not shown are never made."""
    entries: Iterable[tuple[str, Change | None]]
    if isinstance(changes, Changes):
        entries = changes.listed(every, also)
    else:
        entries = (
            (ch.article, ch if every or ch.noteworthy or (also is not None and also(ch)) else None)
            for ch in changes
            if ch.counterpart_in_corpus
        )
    groups: dict[str, list[Change]] = {}
    hidden = 0
    for article, ch in entries:
        group = groups.setdefault(article, [])
        if ch is None:
            hidden += 1
        else:
            group.append(ch)
    return [(article, group) for article, group in groups.items() if group], hidden
