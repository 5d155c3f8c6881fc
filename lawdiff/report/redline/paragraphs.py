"""The records of a redline: its paragraphs, their runs, its footnotes and lawdiff's remarks.

:func:`lawdiff.report.redline.redline` makes them (see that module for what
they say); :mod:`lawdiff.report.wordml` writes them as WordprocessingML.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from lawdiff.diff import Op


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
    hidden: the text is an address the book never prints (``45E.p1``, an
        unnumbered paragraph): kept for a reader of the document's shape,
        never shown (Word's hidden text).
    """

    op: Op
    text: str = ""
    label: bool = False
    note: int = 0
    hidden: bool = False


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
