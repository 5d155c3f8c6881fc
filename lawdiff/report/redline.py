"""The redline of a pair of editions: one sequence of paragraphs with tracked changes.

This module decides what the Word document of a pair (:mod:`lawdiff.report.docx`)
says, without any XML: which paragraphs, in which order, which of their words
and paragraph marks are deleted or inserted.  Accepting every change of the
result gives the new edition's clauses and rejecting every change the old
one's, by construction:

* each clause is a heading paragraph holding its address, then its title
  paragraph (label, a space, title) if it has a title, then its text
  paragraph (label, a space, text; the label only where there is no title);
* the paragraphs of a clause pair kept in its place carry the change's word
  difference; a split or merge keeps one chain of paragraphs whose inner
  paragraph marks are inserted (a split: rejecting joins them back) or
  deleted (a merge), with the headings of the other pieces inserted or
  deleted between them;
* what is only in the old edition stands deleted where it stood among its
  neighbours, what is only in the new one inserted; a pair that cannot keep
  its place in both orders (a clause moved) is deleted there and inserted
  here, each with a remark naming the other place.

The pairs kept in place are the largest set that runs in the same order in
both editions (a longest increasing subsequence, weighted by paragraphs).
"""

from __future__ import annotations

import bisect
import enum
import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from lawdiff.align import Aspect
from lawdiff.diff import Change, Op, Piece, word_diff
from lawdiff.errors import LawdiffBug
from lawdiff.model import CONTAINER_KINDS, Clause, Edition, Kind

# ---------------------------------------------------------------------------
# Records


class Role(enum.Enum):
    """What a paragraph of the redline holds."""

    HEADING = "heading"  # a clause's address
    TITLE = "title"  # label and title
    TEXT = "text"  # label (where there is no title) and text


@dataclass(frozen=True, slots=True)
class Bit:
    """A run of a paragraph: text, a clause's label, or a footnote's reference.

    op: kept (EQUAL), deleted or inserted.
    text: the words; a line break inside a clause's text is "\\n".  For a
        footnote reference, the footnote's mark as printed in its clause's
        text ("1)", "¹⁾"; its number where the text prints none).
    label: the text is the clause's label as printed ("(b)", "ARTIKEL 45").
    note: for a footnote reference, the footnote's number in
        :attr:`Redline.notes` (from 1); else 0.
    """

    op: Op
    text: str = ""
    label: bool = False
    note: int = 0


@dataclass(frozen=True, slots=True)
class Para:
    """A paragraph of the redline.

    role: heading, title or text.
    level: the clause's depth in its edition (1 = top level; the new
        edition's where the paragraph is on both sides): the heading's level.
    bits: its runs in order.
    mark: its paragraph mark: kept, inserted (rejecting joins the paragraph
        to the next) or deleted (accepting joins it to the next).
    container: the paragraph is a chapter's, part's or paragraph's title or
        text paragraph (its label comes from page names or site records,
        not from a printed line: the document marks it for a reader).
    """

    role: Role
    level: int
    bits: tuple[Bit, ...]
    mark: Op
    container: bool = False


@dataclass(frozen=True, slots=True)
class Note:
    """A footnote.

    number: the last part of its address (``fn1`` of ``45A.fn1``): its
        clause's address, a dot and this are its address.
    bits: its label as printed, a space and its text (a footnote kept in
        both editions carries their difference).
    """

    number: str
    bits: tuple[Bit, ...]


@dataclass(frozen=True, slots=True)
class Remark:
    """A remark of lawdiff on paragraphs ``first`` to ``last`` (a clause moved)."""

    first: int
    last: int
    text: str


@dataclass(frozen=True, slots=True)
class Redline:
    """A pair of editions as one sequence of paragraphs with tracked changes.

    old, new: the editions' names.
    paras: the paragraphs in order.
    notes: the footnotes, numbered from 1 in order of their references.
    ranges: for each change id, the first and last paragraph that show it.
    remarks: lawdiff's own remarks (where a moved clause went).
    """

    old: str
    new: str
    paras: tuple[Para, ...]
    notes: tuple[Note, ...]
    ranges: dict[str, tuple[int, int]]
    remarks: tuple[Remark, ...]


# ---------------------------------------------------------------------------
# The paragraphs of one edition


@dataclass(slots=True)
class _Slot:
    """A paragraph of one edition, before the two are merged."""

    clause: Clause
    role: Role
    level: int
    index: int = 0
    unit: _Unit | None = None  # the pair it belongs to, if any
    change: Change | None = None  # the change it shows, if any


@dataclass(slots=True)
class _Stream:
    """One edition's paragraphs in document order, and the clauses' slots."""

    slots: list[_Slot]
    heading: dict[str, _Slot]
    title: dict[str, _Slot]
    text: dict[str, _Slot]
    footnotes: dict[str, list[Clause]]  # by the parent's address, in document order

    def lead(self, address: str) -> _Slot | None:
        """The clause's first paragraph after its heading: the title, else the text."""
        return self.title.get(address) or self.text.get(address)


def _scope(edition: Edition, addresses: Iterable[str]) -> set[str]:
    """The addresses named, with their ancestors (for the headings around them)."""
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
        while address and address not in out and address in parents:
            out.add(address)
            address = parents[address]
    return out


def _stream(edition: Edition, scope: set[str], needs_text: set[str]) -> _Stream:
    stream = _Stream([], {}, {}, {}, {})

    def visit(clause: Clause, level: int) -> None:
        if clause.address in scope and clause.kind is not Kind.FOOTNOTE:
            add = stream.slots.append
            heading = _Slot(clause, Role.HEADING, level)
            add(heading)
            stream.heading[clause.address] = heading
            if clause.title:
                stream.title[clause.address] = _Slot(clause, Role.TITLE, level)
                add(stream.title[clause.address])
            notes = [fn for fn in clause.footnotes if fn.address in scope]
            if clause.text or not clause.title or clause.address in needs_text or notes:
                stream.text[clause.address] = _Slot(clause, Role.TEXT, level)
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
class _Unit:
    """Paragraphs of the old edition paired with paragraphs of the new one.

    A chain (a split or merge) pairs several text paragraphs through one
    word difference; anything else pairs one paragraph with one.
    """

    role: Role
    old: list[_Slot]
    new: list[_Slot]
    pieces: tuple[Piece, ...]
    change: Change | None
    anchored: bool = False

    @property
    def weight(self) -> int:
        return len(self.old) + len(self.new)

    @property
    def chain(self) -> bool:
        return len(self.old) > 1 or len(self.new) > 1


def _pair(role: Role, old: list[_Slot], new: list[_Slot], pieces: tuple[Piece, ...], change: Change | None) -> _Unit:
    unit = _Unit(role, old, new, pieces, change)
    for slot in old + new:
        slot.unit = unit
    return unit


def _units(changes: Sequence[Change], olds: _Stream, news: _Stream) -> list[_Unit]:
    units: list[_Unit] = []
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
                    units.append(_pair(Role.TITLE, [t_old], [t_new], word_diff(ch.old_title, ch.new_title), ch))
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
    # A clause's heading goes with its first paragraph.
    for unit in list(units):
        first_old, first_new = unit.old[0].clause, unit.new[0].clause
        if olds.lead(first_old.address) is unit.old[0] and news.lead(first_new.address) is unit.new[0]:
            h_old, h_new = olds.heading[first_old.address], news.heading[first_new.address]
            if not (h_old.unit or h_new.unit):
                units.append(_pair(Role.HEADING, [h_old], [h_new], (), None))
    return units


def _anchor(units: list[_Unit], moved: set[str]) -> None:
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


def _drop_crossed_chains(units: list[_Unit]) -> None:
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


# ---------------------------------------------------------------------------
# Building paragraphs


@dataclass(slots=True)
class _Built:
    bits: list[Bit]
    mark: Op = Op.EQUAL
    starts_old: int = -1  # the old clause whose text begins here, or -1
    starts_new: int = -1
    new_at: int = 0  # the new clause the paragraph's text belongs to


def _label_bits(old: Clause | None, new: Clause | None, role: Role) -> list[Bit]:
    """The label and the space after it, as a difference where the two differ."""

    def label(c: Clause | None) -> str:
        if c is None or (role is Role.TEXT and c.title):
            return ""  # a titled clause's label stands in its title paragraph
        return c.label

    a, b = label(old), label(new)
    if a == b:
        return [Bit(Op.EQUAL, a, label=True), Bit(Op.EQUAL, " ")] if a else []
    out: list[Bit] = []
    if a:
        out.append(Bit(Op.DELETE, a, label=True))
    if b:
        out.append(Bit(Op.INSERT, b, label=True))
    if a and b:
        out.append(Bit(Op.EQUAL, " "))
    elif a:
        out.append(Bit(Op.DELETE, " "))
    else:
        out.append(Bit(Op.INSERT, " "))
    return out


Marks = dict[int, list[tuple[int, tuple[Bit, ...]]]]  # clause index -> [(offset in its text, reference and mark)]


@dataclass(slots=True)
class _Side:
    """Where one side of a difference stands while its pieces are laid out."""

    texts: list[str]
    marks: Marks
    clause: int = 0
    pos: int = 0
    emitted: set[tuple[int, int]] = field(default_factory=set)

    def at_join(self) -> bool:
        return self.clause < len(self.texts) and self.pos == len(self.texts[self.clause])

    def pending(self) -> list[Bit]:
        out: list[Bit] = []
        for k, (offset, bits) in enumerate(self.marks.get(self.clause, [])):
            if offset == self.pos and (self.clause, k) not in self.emitted:
                self.emitted.add((self.clause, k))
                out.extend(bits)
        return out

    def room(self) -> int:
        """Characters before the next join or footnote reference."""
        end = len(self.texts[self.clause]) if self.clause < len(self.texts) else 1 << 30
        later = [o for o, _ in self.marks.get(self.clause, []) if o > self.pos]
        return min([end, *later]) - self.pos


def _lay_out(
    pieces: Sequence[Piece],
    role: Role,
    olds: Sequence[Clause],
    news: Sequence[Clause],
    old_marks: Marks,
    new_marks: Marks,
) -> list[_Built]:
    """Cut a difference over the texts of several clauses into paragraphs.

    The texts of several clauses are joined by one line break in the
    difference (see :class:`lawdiff.diff.Change`); that line break becomes a
    paragraph mark, deleted where only the old side breaks there, inserted
    where only the new one does.  A line break inside a clause's own text
    stays a line break.
    """

    def words(c: Clause) -> str:
        return c.title if role is Role.TITLE else c.text

    old = _Side([words(c) for c in olds], old_marks)
    new = _Side([words(c) for c in news], new_marks)
    rebuilt_old = "".join(p.text for p in pieces if p.op is not Op.INSERT)
    rebuilt_new = "".join(p.text for p in pieces if p.op is not Op.DELETE)
    if rebuilt_old != "\n".join(old.texts) or rebuilt_new != "\n".join(new.texts):
        raise LawdiffBug("a difference does not rebuild the texts of its clauses")
    first = _Built(_label_bits(olds[0] if olds else None, news[0] if news else None, role))
    first.starts_old = 0 if olds else -1
    first.starts_new = 0 if news else -1
    out = [first]

    def marks() -> None:
        out[-1].bits.extend(old.pending())
        out[-1].bits.extend(new.pending())

    def start_next(mark: Op, starts_old: bool, starts_new: bool) -> None:
        out[-1].mark = mark
        o = olds[old.clause] if starts_old else None
        n = news[new.clause] if starts_new else None
        built = _Built(_label_bits(o, n, role))
        built.starts_old = old.clause if starts_old else -1
        built.starts_new = new.clause if starts_new else -1
        built.new_at = new.clause
        out.append(built)

    for piece in pieces:
        text = piece.text
        on_old = piece.op is not Op.INSERT
        on_new = piece.op is not Op.DELETE
        while text:
            marks()
            old_join = on_old and old.at_join()
            new_join = on_new and new.at_join()
            if old_join or new_join:
                if text[0] != "\n":
                    raise LawdiffBug("the texts of a split or merge are not joined by a line break")
                if old_join and not new_join and on_new:
                    # One side's own line break is the other side's join.
                    out[-1].bits.append(Bit(Op.INSERT, "\n"))
                    new.pos += 1
                elif new_join and not old_join and on_old:
                    out[-1].bits.append(Bit(Op.DELETE, "\n"))
                    old.pos += 1
                if old_join:
                    old.clause, old.pos = old.clause + 1, 0
                if new_join:
                    new.clause, new.pos = new.clause + 1, 0
                mark = Op.EQUAL if old_join and new_join else Op.DELETE if old_join else Op.INSERT
                start_next(mark, old_join, new_join)
                text = text[1:]
                continue
            take = min(len(text), old.room() if on_old else len(text), new.room() if on_new else len(text))
            out[-1].bits.append(Bit(piece.op, text[:take]))
            if on_old:
                old.pos += take
            if on_new:
                new.pos += take
            text = text[take:]
    marks()
    return out


# ---------------------------------------------------------------------------
# Merging the two editions


@dataclass(slots=True)
class _Doc:
    """The redline while it is being written."""

    paras: list[Para] = field(default_factory=list)
    notes: list[Note] = field(default_factory=list)
    # change id -> [(paragraph, whether it shows the new side)]
    shown: dict[str, list[tuple[int, bool]]] = field(default_factory=dict)
    remarks: list[Remark] = field(default_factory=list)
    note_changes: dict[int, Change] = field(default_factory=dict)

    def add(self, para: Para, change: Change | None = None) -> int:
        """Append a paragraph; it shows ``change`` and the changes of the footnotes it references."""
        at = len(self.paras)
        self.paras.append(para)
        new_side = para.mark is not Op.DELETE
        shows = [change] if change is not None else []
        shows += [self.note_changes[b.note] for b in para.bits if b.note in self.note_changes]
        for ch in shows:
            if ch.id:
                self.shown.setdefault(ch.id, []).append((at, new_side))
        return at

    def note(self, number: str, bits: Iterable[Bit], change: Change | None) -> int:
        self.notes.append(Note(number, tuple(bits)))
        if change is not None:
            self.note_changes[len(self.notes)] = change
        return len(self.notes)

    def ranges(self) -> dict[str, tuple[int, int]]:
        """Per change, the paragraphs that show its new side (or, for a removal, its old side)."""
        out: dict[str, tuple[int, int]] = {}
        for cid, shown in self.shown.items():
            chosen = [at for at, new_side in shown if new_side] or [at for at, _ in shown]
            out[cid] = (min(chosen), max(chosen))
        return out


def redline(changes: Sequence[Change], old: Edition, new: Edition) -> Redline:
    """The redline of ``changes`` between two editions (see the module docstring).

    The clauses shown are those the changes name, with their ancestors and
    footnotes, on each side.
    """
    old_footnotes = {a for ch in changes for a in ch.old if (c := old.find(a)) is not None and c.kind is Kind.FOOTNOTE}
    new_footnotes = {a for ch in changes for a in ch.new if (c := new.find(a)) is not None and c.kind is Kind.FOOTNOTE}
    text_old = {a for ch in changes if ch.aspect is Aspect.TEXT for a in ch.old} - old_footnotes
    text_new = {a for ch in changes if ch.aspect is Aspect.TEXT for a in ch.new} - new_footnotes
    olds = _stream(old, _scope(old, [a for ch in changes for a in ch.old]), text_old)
    news = _stream(new, _scope(new, [a for ch in changes for a in ch.new]), text_new)
    units = _units(
        [ch for ch in changes if not set(ch.old) & old_footnotes and not set(ch.new) & new_footnotes], olds, news
    )
    moved = {ch.id for ch in changes if ch.moved}
    _anchor(units, moved)
    doc = _Doc()
    notes = _Notes(changes, olds, news, old_footnotes, new_footnotes)
    _merge(doc, olds, news, notes, old.name, new.name)
    return Redline(
        old.name,
        new.name,
        tuple(doc.paras),
        tuple(doc.notes),
        doc.ranges(),
        tuple(doc.remarks),
    )


@dataclass(slots=True)
class _Notes:
    """The footnotes of both sides and how they pair."""

    changes: Sequence[Change]
    olds: _Stream
    news: _Stream
    old_footnotes: set[str]
    new_footnotes: set[str]
    pairs: dict[str, tuple[str, Change]] = field(default_factory=dict)  # old address -> (new address, change)
    by_new: dict[str, Change] = field(default_factory=dict)
    by_old: dict[str, Change] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for ch in self.changes:
            if len(ch.old) == 1 and len(ch.new) == 1 and ch.old[0] in self.old_footnotes:
                self.pairs[ch.old[0]] = (ch.new[0], ch)
            for a in ch.new:
                if a in self.new_footnotes:
                    self.by_new[a] = ch
            for a in ch.old:
                if a in self.old_footnotes:
                    self.by_old[a] = ch


def _merge(doc: _Doc, olds: _Stream, news: _Stream, notes: _Notes, old_name: str, new_name: str) -> None:
    anchored = sorted(
        {id(u): u for s in olds.slots if (u := s.unit) and u.anchored}.values(), key=lambda u: u.old[0].index
    )
    i = j = 0
    for unit in anchored:
        _gap(doc, olds, news, notes, i, unit.old[0].index, j, unit.new[0].index, old_name, new_name)
        _emit_unit(doc, unit, olds, news, notes, old_name, new_name)
        i, j = unit.old[-1].index + 1, unit.new[-1].index + 1
    _gap(doc, olds, news, notes, i, len(olds.slots), j, len(news.slots), old_name, new_name)


def _gap(
    doc: _Doc,
    olds: _Stream,
    news: _Stream,
    notes: _Notes,
    i0: int,
    i1: int,
    j0: int,
    j1: int,
    old_name: str,
    new_name: str,
) -> None:
    """Paragraphs only on one side between two pairs kept in place: deleted ones first."""
    for slot in olds.slots[i0:i1]:
        _emit_alone(doc, slot, Op.DELETE, olds, notes, old_name, new_name)
    for slot in news.slots[j0:j1]:
        _emit_alone(doc, slot, Op.INSERT, news, notes, old_name, new_name)


def _footnote_marks(
    stream: _Stream, clauses: Sequence[Clause], op: Op, notes: _Notes, doc: _Doc, shared: dict[str, int]
) -> Marks:
    """The footnote references in the texts of ``clauses`` (one side), each with its mark, as bits to place."""
    marks: Marks = {}
    for k, clause in enumerate(clauses):
        for fn in stream.footnotes.get(clause.address, []):
            offset = min(max(fn.anchor, 0), len(clause.text))
            bits: tuple[Bit, ...]
            if fn.address in shared:
                bits = (Bit(Op.EQUAL, mark_text(fn), note=shared[fn.address]),)
            else:
                ch = notes.by_old.get(fn.address) if op is Op.DELETE else notes.by_new.get(fn.address)
                (built,) = _lay_out(
                    (Piece(op, fn.text),) if fn.text else (),
                    Role.TEXT,
                    [fn] if op is Op.DELETE else [],
                    [fn] if op is Op.INSERT else [],
                    {},
                    {},
                )
                bits = (Bit(op, mark_text(fn), note=doc.note(_suffix(fn.address), built.bits, ch)),)
            marks.setdefault(k, []).append((offset, bits))
    for placed in marks.values():
        placed.sort(key=lambda ob: ob[0])
    return marks


def mark_text(footnote: Clause) -> str:
    """A footnote's mark as printed in its clause's text; its number where the text has none."""
    return footnote.marker or _suffix(footnote.address).removeprefix("fn")


def _suffix(address: str) -> str:
    """``fn1`` of ``45A.fn1``."""
    return address.rsplit(".", 1)[-1]


def _shared_notes(unit: _Unit, notes: _Notes, doc: _Doc) -> dict[str, int]:
    """Footnotes kept from a clause to the clause it is paired with one to one: one note with their difference."""
    shared: dict[str, int] = {}
    if unit.role is not Role.TEXT or unit.chain:
        return shared
    o, n = unit.old[0].clause, unit.new[0].clause
    for fn in notes.olds.footnotes.get(o.address, []):
        pair = notes.pairs.get(fn.address)
        if pair is None or pair[0] not in {f.address for f in notes.news.footnotes.get(n.address, [])}:
            continue
        if _suffix(pair[0]) != _suffix(fn.address):
            continue  # renumbered: the old note and the new one stand apart
        new_address, ch = pair
        new_fn = next(f for f in notes.news.footnotes[n.address] if f.address == new_address)
        if mark_text(new_fn) != mark_text(fn):
            # The mark is part of Word's reference (w:customMarkFollows, in
            # its run), which one change cannot alter: the old note and the
            # new one stand apart.
            continue
        (built,) = _lay_out(ch.diff, Role.TEXT, [fn], [new_fn], {}, {})
        shared[fn.address] = shared[new_address] = doc.note(_suffix(new_address), built.bits, ch)
    return shared


def _emit_unit(
    doc: _Doc,
    unit: _Unit,
    olds: _Stream,
    news: _Stream,
    notes: _Notes,
    old_name: str,
    new_name: str,
) -> None:
    if unit.role is Role.HEADING:
        o, n = unit.old[0], unit.new[0]
        doc.add(Para(Role.HEADING, n.level, tuple(_address_bits(o.clause.address, n.clause.address)), Op.EQUAL))
        return
    o_clauses = [s.clause for s in unit.old]
    n_clauses = [s.clause for s in unit.new]
    old_marks: Marks = {}
    new_marks: Marks = {}
    if unit.role is Role.TEXT:
        shared = _shared_notes(unit, notes, doc)
        old_marks = _footnote_marks(olds, o_clauses, Op.DELETE, notes, doc, shared)
        new_marks = _footnote_marks(news, n_clauses, Op.INSERT, notes, doc, shared)
        # A kept footnote is referenced once: at its place in the new text.
        for placed in old_marks.values():
            placed[:] = [(o, bits) for o, bits in placed if bits[0].op is not Op.EQUAL]
    built = _lay_out(unit.pieces, unit.role, o_clauses, n_clauses, old_marks, new_marks)
    for k, b in enumerate(built):
        if k:
            # The paragraphs of the other pieces' clauses, between the pieces.
            if b.starts_old > 0:
                lo, hi = unit.old[b.starts_old - 1].index + 1, unit.old[b.starts_old].index
                for slot in olds.slots[lo:hi]:
                    _emit_alone(doc, slot, Op.DELETE, olds, notes, old_name, new_name)
            if b.starts_new > 0:
                lo, hi = unit.new[b.starts_new - 1].index + 1, unit.new[b.starts_new].index
                for slot in news.slots[lo:hi]:
                    _emit_alone(doc, slot, Op.INSERT, news, notes, old_name, new_name)
        level = unit.new[min(b.new_at, len(unit.new) - 1)].level
        container = (unit.new or unit.old)[0].clause.kind in CONTAINER_KINDS
        doc.add(Para(unit.role, level, tuple(b.bits), b.mark, container), unit.change)


def _address_bits(old: str, new: str) -> list[Bit]:
    if old == new:
        return [Bit(Op.EQUAL, new)]
    return [Bit(Op.DELETE, old), Bit(Op.INSERT, new)]


def _emit_alone(
    doc: _Doc,
    slot: _Slot,
    op: Op,
    stream: _Stream,
    notes: _Notes,
    old_name: str,
    new_name: str,
) -> None:
    """A paragraph only on one side: deleted or inserted whole, its mark with it."""
    clause = slot.clause
    unit = slot.unit
    change = slot.change
    if slot.role is Role.HEADING:
        doc.add(Para(Role.HEADING, slot.level, (Bit(op, clause.address),), op))
        return
    words = clause.title if slot.role is Role.TITLE else clause.text
    pieces = (Piece(op, words),) if words else ()
    marks: Marks = {}
    if slot.role is Role.TEXT:
        marks = _footnote_marks(stream, [clause], op, notes, doc, {})
    if op is Op.DELETE:
        (only,) = _lay_out(pieces, slot.role, [clause], [], marks, {})
    else:
        (only,) = _lay_out(pieces, slot.role, [], [clause], {}, marks)
    at = doc.add(Para(slot.role, slot.level, tuple(only.bits), op, clause.kind in CONTAINER_KINDS), change)
    # A pair that could not keep its place: say where the other side stands.
    first = unit is not None and slot is (unit.old[0] if op is Op.DELETE else unit.new[0])
    if first and unit is not None and unit.role is Role.TEXT and unit.change is not None:
        was = f"{old_name} {', '.join(unit.change.old)}"
        now = f"{new_name} {', '.join(unit.change.new)}"
        text = f"{was} went to {now} (inserted there)" if op is Op.DELETE else f"{now} came from {was} (deleted there)"
        doc.remarks.append(Remark(at, at, text))
