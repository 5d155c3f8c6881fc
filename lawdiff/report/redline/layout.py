"""Cutting a word difference over the texts of clauses into the runs of paragraphs.

A paragraph's runs are its label and the space after it (a difference where
the two editions' labels differ), then its words, with the references of its
footnotes at their offsets in its text.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from lawdiff.diff import Op, Piece
from lawdiff.errors import LawdiffBug
from lawdiff.model import Clause
from lawdiff.report.redline.paragraphs import Bit, Role


@dataclass(slots=True)
class Built:
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
    if old is not None and new is not None and old.address == new.address:
        # The same address printed otherwise ("ARTIKEL 45", "Artikel 45"): the study finds no change
        # there, so the redline tracks none; the new edition's print stands.
        a = b
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


def lay_out(
    pieces: Sequence[Piece],
    role: Role,
    olds: Sequence[Clause],
    news: Sequence[Clause],
    old_marks: Marks,
    new_marks: Marks,
) -> list[Built]:
    """Cut a difference over the texts of several clauses into paragraphs.

    The texts of several clauses are joined by one line break in the
    difference (see :class:`lawdiff.diff.Change`); that line break becomes a
    paragraph mark, deleted where only the old side breaks there, inserted
    where only the new one does.  A line break inside a clause's own text
    stays a line break.
    """
    layout = _Layout(role, olds, news, old_marks, new_marks)
    layout.check(pieces)
    for piece in pieces:
        layout.piece(piece)
    layout.marks()
    return layout.out


class _Layout:
    """The paragraphs of a difference as it is cut, and where each side stands."""

    def __init__(
        self, role: Role, olds: Sequence[Clause], news: Sequence[Clause], old_marks: Marks, new_marks: Marks
    ) -> None:
        self.role = role
        self.olds = olds
        self.news = news
        self.old = _Side([self.words(c) for c in olds], old_marks)
        self.new = _Side([self.words(c) for c in news], new_marks)
        first = Built(_label_bits(olds[0] if olds else None, news[0] if news else None, role))
        first.starts_old = 0 if olds else -1
        first.starts_new = 0 if news else -1
        self.out = [first]

    def words(self, c: Clause) -> str:
        return c.title if self.role is Role.TITLE else c.text

    def check(self, pieces: Sequence[Piece]) -> None:
        rebuilt_old = "".join(p.text for p in pieces if p.op is not Op.INSERT)
        rebuilt_new = "".join(p.text for p in pieces if p.op is not Op.DELETE)
        if rebuilt_old != "\n".join(self.old.texts) or rebuilt_new != "\n".join(self.new.texts):
            raise LawdiffBug("a difference does not rebuild the texts of its clauses")

    def marks(self) -> None:
        self.out[-1].bits.extend(self.old.pending())
        self.out[-1].bits.extend(self.new.pending())

    def piece(self, piece: Piece) -> None:
        """A piece's text, cut at each join of clauses and each footnote reference."""
        old, new = self.old, self.new
        text = piece.text
        on_old = piece.op is not Op.INSERT
        on_new = piece.op is not Op.DELETE
        while text:
            self.marks()
            old_join = on_old and old.at_join()
            new_join = on_new and new.at_join()
            if old_join or new_join:
                if text[0] != "\n":
                    raise LawdiffBug("the texts of a split or merge are not joined by a line break")
                self.join(on_old, on_new, old_join, new_join)
                text = text[1:]
                continue
            take = min(len(text), old.room() if on_old else len(text), new.room() if on_new else len(text))
            self.out[-1].bits.append(Bit(piece.op, text[:take]))
            if on_old:
                old.pos += take
            if on_new:
                new.pos += take
            text = text[take:]

    def join(self, on_old: bool, on_new: bool, old_join: bool, new_join: bool) -> None:
        """The line break where a clause's text ends on one side or both: a paragraph mark."""
        old, new, out = self.old, self.new, self.out
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
        self.start_next(mark, old_join, new_join)

    def start_next(self, mark: Op, starts_old: bool, starts_new: bool) -> None:
        self.out[-1].mark = mark
        o = self.olds[self.old.clause] if starts_old else None
        n = self.news[self.new.clause] if starts_new else None
        built = Built(_label_bits(o, n, self.role))
        built.starts_old = self.old.clause if starts_old else -1
        built.starts_new = self.new.clause if starts_new else -1
        built.new_at = self.new.clause
        self.out.append(built)
