"""The redline written in document order: pairs kept in place, paragraphs only on one side.

Between two pairs kept in place (see :mod:`lawdiff.report.redline.pairs`)
the paragraphs only in the old edition stand deleted, then those only in the
new one inserted; a pair that could not keep its place is deleted there and
inserted here, with a remark naming the other place.  Each paragraph brings
its footnotes: a footnote kept from a clause to the clause it is paired with
is one note carrying their difference.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from lawdiff.diff import Change, Op, Piece
from lawdiff.i18n import gettext as _
from lawdiff.model import CONTAINER_KINDS, Clause
from lawdiff.report.redline.layout import Marks, lay_out
from lawdiff.report.redline.pairs import Slot, Stream, Unit
from lawdiff.report.redline.paragraphs import Bit, Note, Para, Remark, Role


@dataclass(slots=True)
class Doc:
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


@dataclass(slots=True)
class Notes:
    """The footnotes of both sides and how they pair."""

    changes: Sequence[Change]
    olds: Stream
    news: Stream
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


def merge(doc: Doc, olds: Stream, news: Stream, notes: Notes, old_name: str, new_name: str) -> None:
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
    doc: Doc,
    olds: Stream,
    news: Stream,
    notes: Notes,
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
    stream: Stream, clauses: Sequence[Clause], op: Op, notes: Notes, doc: Doc, shared: dict[str, int]
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
                (built,) = lay_out(
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


def _shared_notes(unit: Unit, notes: Notes, doc: Doc) -> dict[str, int]:
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
        (built,) = lay_out(ch.diff, Role.TEXT, [fn], [new_fn], {}, {})
        shared[fn.address] = shared[new_address] = doc.note(_suffix(new_address), built.bits, ch)
    return shared


def _emit_unit(
    doc: Doc,
    unit: Unit,
    olds: Stream,
    news: Stream,
    notes: Notes,
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
    built = lay_out(unit.pieces, unit.role, o_clauses, n_clauses, old_marks, new_marks)
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
        return [Bit(Op.EQUAL, new, hidden=unprinted(new))]
    return [Bit(Op.DELETE, old, hidden=unprinted(old)), Bit(Op.INSERT, new, hidden=unprinted(new))]


# An address part the book never prints: an unnumbered paragraph (``45E.p1``), a repeated label (``~2``).
_UNPRINTED = re.compile(r"\.p\d+|~\d+")


def unprinted(address: str) -> bool:
    """Whether ``address`` is lawdiff's own (``45E.p1``), not one the book prints: its heading is hidden."""
    return bool(_UNPRINTED.search(address))


def _emit_alone(
    doc: Doc,
    slot: Slot,
    op: Op,
    stream: Stream,
    notes: Notes,
    old_name: str,
    new_name: str,
) -> None:
    """A paragraph only on one side: deleted or inserted whole, its mark with it."""
    clause = slot.clause
    unit = slot.unit
    change = slot.change
    if slot.role is Role.HEADING:
        doc.add(Para(Role.HEADING, slot.level, (Bit(op, clause.address, hidden=unprinted(clause.address)),), op))
        return
    words = clause.title if slot.role is Role.TITLE else clause.text
    pieces = (Piece(op, words),) if words else ()
    marks: Marks = {}
    if slot.role is Role.TEXT:
        marks = _footnote_marks(stream, [clause], op, notes, doc, {})
    if op is Op.DELETE:
        (only,) = lay_out(pieces, slot.role, [clause], [], marks, {})
    else:
        (only,) = lay_out(pieces, slot.role, [], [clause], {}, marks)
    at = doc.add(Para(slot.role, slot.level, tuple(only.bits), op, clause.kind in CONTAINER_KINDS), change)
    # A pair that could not keep its place: say where the other side stands.
    first = unit is not None and slot is (unit.old[0] if op is Op.DELETE else unit.new[0])
    if first and unit is not None and unit.role is Role.TEXT and unit.change is not None:
        was = f"{old_name} {', '.join(unit.change.old)}"
        now = f"{new_name} {', '.join(unit.change.new)}"
        if op is Op.DELETE:
            text = _("{was} went to {now} (inserted there)").format(was=was, now=now)
        else:
            text = _("{now} came from {was} (deleted there)").format(was=was, now=now)
        doc.remarks.append(Remark(at, at, text))
