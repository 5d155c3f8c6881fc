"""Which paragraphs of two editions a redline pairs, and which pairs keep their place.

Each edition's clauses in scope become a stream of paragraphs (heading,
title, text; see :mod:`lawdiff.report.redline`).  A change pairs the
paragraphs that show it on both sides (a split or merge: one chain of text
paragraphs through one word difference); a clause no change names pairs by
its address.  The pairs kept in place are the largest set that runs in the
same order in both editions (a longest increasing subsequence, weighted by
paragraphs), less every chain that another kept pair falls inside.
"""

from __future__ import annotations

import bisect
import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from lawdiff.align import Aspect
from lawdiff.diff import Change, Piece, word_diff
from lawdiff.model import Clause, Edition, Kind, article_of
from lawdiff.report.redline.paragraphs import Role

# ---------------------------------------------------------------------------
# The paragraphs of one edition


@dataclass(slots=True)
class Slot:
    """A paragraph of one edition, before the two are merged."""

    clause: Clause
    role: Role
    level: int
    index: int = 0
    unit: Unit | None = None  # the pair it belongs to, if any
    change: Change | None = None  # the change it shows, if any


@dataclass(slots=True)
class Stream:
    """One edition's paragraphs in document order, and the clauses' slots."""

    slots: list[Slot]
    heading: dict[str, Slot]
    title: dict[str, Slot]
    text: dict[str, Slot]
    footnotes: dict[str, list[Clause]]  # by the parent's address, in document order

    def lead(self, address: str) -> Slot | None:
        """The clause's first paragraph after its heading: the title, else the text."""
        return self.title.get(address) or self.text.get(address)


def ancestors(edition: Edition, addresses: Iterable[str]) -> set[str]:
    """The ancestors of the addresses named within their own article (the headings around them).

    A chapter's or part's heading (``H6``, ``H6.1``) is never an ancestor here: it is shown only where
    a change shows it, so that a redline of ``--article 45`` holds article 45 and nothing around it.
    """
    parents: dict[str, str] = {}

    def visit(clause: Clause, parent: str) -> None:
        parents[clause.address] = parent
        for fn in clause.footnotes:
            parents[fn.address] = clause.address
        for child in clause.children:
            visit(child, clause.address)

    for top in edition.clauses:
        visit(top, "")
    out: set[str] = set()
    for address in addresses:
        art = article_of(address)
        up = parents.get(address, "")
        while up and art and article_of(up) == art and up not in out:
            out.add(up)
            up = parents.get(up, "")
    return out


@dataclass(frozen=True, slots=True)
class Shown:
    """What a redline shows of one edition.

    named: the clauses the changes shown name on this side.
    context: ancestors of named clauses within their article that no change on this side names: shown
        for the structure around the changes (``45C4``, whose label ``4.`` alone is no clause text).
    withheld: the clauses that changes the study does not compare name (one corpus lacks their place):
        shown as context, their heading paragraph stands alone, never their title or text.
    """

    named: frozenset[str]
    context: frozenset[str]
    withheld: frozenset[str]


def scopes_of(
    old: Edition, new: Edition, old_named: set[str], new_named: set[str], withheld: set[str]
) -> tuple[Shown, Shown]:
    """The scope of each side (see :class:`Shown`)."""
    held = frozenset(withheld)
    return (
        Shown(frozenset(old_named), frozenset(ancestors(old, old_named) - old_named), held),
        Shown(frozenset(new_named), frozenset(ancestors(new, new_named) - new_named), held),
    )


def paragraphs_of(edition: Edition, scope: Shown, needs_text: set[str]) -> Stream:
    stream = Stream([], {}, {}, {}, {})
    shown = scope.named | scope.context

    def visit(clause: Clause, level: int) -> None:
        if clause.address in shown and clause.kind is not Kind.FOOTNOTE:
            add = stream.slots.append
            heading = Slot(clause, Role.HEADING, level)
            add(heading)
            stream.heading[clause.address] = heading
            bare = clause.address in scope.context and clause.address in scope.withheld
            if clause.title and not bare:
                stream.title[clause.address] = Slot(clause, Role.TITLE, level)
                add(stream.title[clause.address])
            notes = [fn for fn in clause.footnotes if fn.address in scope.named]
            wanted = clause.text or not clause.title or clause.address in needs_text or notes
            if wanted and not bare:
                stream.text[clause.address] = Slot(clause, Role.TEXT, level)
                add(stream.text[clause.address])
            if notes:
                stream.footnotes[clause.address] = notes
        for child in clause.children:
            visit(child, level + 1)

    for top in edition.clauses:
        visit(top, 1)
    for i, slot in enumerate(stream.slots):
        slot.index = i
    return stream


# ---------------------------------------------------------------------------
# Pairs


@dataclass(slots=True)
class Unit:
    """Paragraphs of the old edition paired with paragraphs of the new one.

    A chain (a split or merge) pairs several text paragraphs through one
    word difference; anything else pairs one paragraph with one.
    """

    role: Role
    old: list[Slot]
    new: list[Slot]
    pieces: tuple[Piece, ...]
    change: Change | None
    anchored: bool = False

    @property
    def weight(self) -> int:
        return len(self.old) + len(self.new)

    @property
    def chain(self) -> bool:
        return len(self.old) > 1 or len(self.new) > 1


def _pair(role: Role, old: list[Slot], new: list[Slot], pieces: tuple[Piece, ...], change: Change | None) -> Unit:
    unit = Unit(role, old, new, pieces, change)
    for slot in old + new:
        slot.unit = unit
    return unit


def pair_units(changes: Sequence[Change], olds: Stream, news: Stream) -> list[Unit]:
    units: list[Unit] = []
    named = {a for ch in changes for a in ch.old + ch.new}
    for ch in changes:
        for stream, addresses in ((olds, ch.old), (news, ch.new)):
            for a in addresses:
                table = stream.text if ch.aspect is Aspect.TEXT else stream.title
                for slot in (table.get(a), stream.title.get(a) if ch.old_title or ch.new_title else None):
                    if slot is not None and slot.change is None:
                        slot.change = ch
        if not (ch.old and ch.new):
            continue
        if ch.aspect is Aspect.TEXT:
            old = [olds.text.get(a) for a in ch.old]
            new = [news.text.get(a) for a in ch.new]
            if all(old) and all(new):
                o = [s for s in old if s is not None]
                n = [s for s in new if s is not None]
                ordered = all(a.index < b.index for a, b in itertools.pairwise(o)) and all(
                    a.index < b.index for a, b in itertools.pairwise(n)
                )
                if ordered and not any(s.unit for s in o + n):
                    units.append(_pair(Role.TEXT, o, n, ch.diff, ch))
            if (ch.old_title or ch.new_title) and len(ch.old) == 1 and len(ch.new) == 1:
                t_old, t_new = olds.title.get(ch.old[0]), news.title.get(ch.new[0])
                if t_old and t_new and not (t_old.unit or t_new.unit):
                    units.append(_pair(Role.TITLE, [t_old], [t_new], _title_diff(ch), ch))
        elif len(ch.old) == 1 and len(ch.new) == 1:
            t_old, t_new = olds.title.get(ch.old[0]), news.title.get(ch.new[0])
            if t_old and t_new and not (t_old.unit or t_new.unit):
                units.append(_pair(Role.TITLE, [t_old], [t_new], ch.diff, ch))
    # Clauses that no change names (a clause without title or text, such as
    # 45C4, is not aligned; an ancestor shown only around the changes) keep
    # their place where both editions have the same address.
    for address in news.heading:
        if address not in olds.heading or address in named:
            continue
        for table_old, table_new, role in ((olds.title, news.title, Role.TITLE), (olds.text, news.text, Role.TEXT)):
            s_old, s_new = table_old.get(address), table_new.get(address)
            if s_old and s_new and not (s_old.unit or s_new.unit):
                old_words = s_old.clause.title if role is Role.TITLE else s_old.clause.text
                new_words = s_new.clause.title if role is Role.TITLE else s_new.clause.text
                units.append(_pair(role, [s_old], [s_new], word_diff(old_words, new_words), None))
    # A clause shown for context alone may show its heading only (its words differ): it keeps its place.
    for address, h_new in news.heading.items():
        h_old = olds.heading.get(address)
        bare = news.lead(address) is None and olds.lead(address) is None
        if h_old is not None and address not in named and bare and not (h_old.unit or h_new.unit):
            units.append(_pair(Role.HEADING, [h_old], [h_new], (), None))
    # A clause's heading goes with its first paragraph.
    for unit in list(units):
        first_old, first_new = unit.old[0].clause, unit.new[0].clause
        if olds.lead(first_old.address) is unit.old[0] and news.lead(first_new.address) is unit.new[0]:
            h_old, h_new = olds.heading[first_old.address], news.heading[first_new.address]
            if not (h_old.unit or h_new.unit):
                units.append(_pair(Role.HEADING, [h_old], [h_new], (), None))
    return units


def anchor_units(units: list[Unit], moved: set[str]) -> None:
    """Mark the largest weighted set of pairs that runs in the same order in both editions.

    A change that moves a clause to another article is never anchored: it
    stands deleted there and inserted here.
    """
    candidates = [u for u in units if not (u.change is not None and u.change.id in moved)]
    candidates.sort(key=lambda u: u.new[0].index)
    # Weighted longest increasing subsequence on the old positions, with a
    # Fenwick tree of running maxima over them.
    size = max((u.old[0].index for u in candidates), default=0) + 2
    tree: list[tuple[int, int]] = [(0, -1)] * (size + 1)

    def best_before(pos: int) -> tuple[int, int]:
        out = (0, -1)
        while pos > 0:
            out = max(out, tree[pos])
            pos -= pos & -pos
        return out

    def record(pos: int, value: tuple[int, int]) -> None:
        while pos <= size:
            tree[pos] = max(tree[pos], value)
            pos += pos & -pos

    back: list[int] = []
    total: list[int] = []
    for k, u in enumerate(candidates):
        # Old index p sits at position p + 1 of the tree: positions 1..p are
        # the old indices before it.
        weight, prev = best_before(u.old[0].index)
        back.append(prev)
        total.append(weight + u.weight)
        record(u.old[0].index + 1, (weight + u.weight, k))
    k = max(range(len(candidates)), key=lambda i: (total[i], -i), default=-1)
    while k >= 0:
        candidates[k].anchored = True
        k = back[k]
    _drop_crossed_chains(units)


def _drop_crossed_chains(units: list[Unit]) -> None:
    """Unanchor every chain that another anchored pair falls inside.

    The paragraphs between the pieces of a chain are joined to them by the
    tracked paragraph marks, so they must all be only on one side.
    """
    changed = True
    while changed:
        changed = False
        anchored = [u for u in units if u.anchored]
        old_pos = sorted(s.index for u in anchored for s in u.old)
        new_pos = sorted(s.index for u in anchored for s in u.new)
        for u in anchored:
            if not u.chain:
                continue
            own_old = len(u.old)
            own_new = len(u.new)
            inside_old = bisect.bisect_right(old_pos, u.old[-1].index) - bisect.bisect_left(old_pos, u.old[0].index)
            inside_new = bisect.bisect_right(new_pos, u.new[-1].index) - bisect.bisect_left(new_pos, u.new[0].index)
            if inside_old > own_old or inside_new > own_new:
                u.anchored = False
                changed = True
                break


def _title_diff(ch: Change) -> tuple[Piece, ...]:
    """A text change's heading difference: the study's, where the heading changed (a kept heading's, all equal)."""
    return ch.title_diff or word_diff(ch.old_title, ch.new_title)
