"""The tree a page is built into: clauses under construction, and what the lossless check counts.

:mod:`lawdiff.sources.build` fills a :class:`PageTree` of :class:`Draft`
values from a page's blocks; the corpus merges the trees of an edition and
freezes the drafts into :class:`~lawdiff.model.Clause` values.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from lawdiff.model.address import article_of
from lawdiff.model.clause import Clause, Kind, Loc
from lawdiff.model.references import Reference, references_in
from lawdiff.sources.base import Inline, InlineKind, LabelStyle, Page

# The clause texts frozen in a run, each to itself and its references (see :meth:`Draft.freeze`).
ReadTexts = dict[str, tuple[str, tuple[Reference, ...]]]


def link_spans(inlines: list[Inline] | tuple[Inline, ...]) -> list[tuple[int, int, str]]:
    """The hyperlinks among a block's inlines as (start, end, target): footnote markers are not links."""
    return [(x.start, x.end, x.value) for x in inlines if x.kind is InlineKind.LINK]


@dataclass(slots=True)
class Draft:
    """A clause under construction (the builder's only mutable state).

    Slotted: a page of thousands of clauses makes as many drafts, each made
    and filled in faster and smaller without an attribute dict.
    """

    kind: Kind
    address: str
    source: Loc
    style: LabelStyle = LabelStyle.NONE
    label: str = ""
    title: str = ""
    text: str = ""
    inlines: list[Inline] = field(default_factory=list)
    children: list[Draft] = field(default_factory=list)
    footnotes: list[Draft] = field(default_factory=list)
    marker: str = ""
    anchor: int = -1
    notes: list[str] = field(default_factory=list)
    extra: str = ""
    unlabeled: int = 0  # pN counter
    # Text appended since ``text`` was last joined (see ``add_text``).
    more: list[str] = field(default_factory=list, init=False, repr=False, compare=False)
    length: int = field(default=0, init=False, repr=False, compare=False)

    @property
    def article_rooted(self) -> bool:
        return bool(article_of(self.address))

    @property
    def has_text(self) -> bool:
        return bool(self.text or self.more)

    def text_ends_with(self, ends: tuple[str, ...]) -> bool:
        return (self.more[-1] if self.more else self.text).endswith(ends)

    def add_text(self, text: str, inlines: tuple[Inline, ...], sep: str) -> list[Inline]:
        """Append a paragraph to the own text; returns the inlines as placed.

        The pieces are kept apart until :meth:`join_text`: adding to a
        string one paragraph at a time copies it each time, quadratic for
        a clause of thousands of lines.
        """
        if not self.more and not self.length:
            self.length = len(self.text)
        if self.length and text:
            self.more.append(sep)
            self.length += len(sep)
        offset = self.length
        if text:
            self.more.append(text)
            self.length += len(text)
        if not offset:
            placed = list(inlines)
        else:
            placed = [Inline(x.kind, x.start + offset, x.end + offset, x.value, x.printed) for x in inlines]
        self.inlines.extend(placed)
        return placed

    def join_text(self) -> None:
        """Make ``text`` whole again (the builder does this when the page is built)."""
        if self.more:
            self.text = self.text + "".join(self.more)
            self.more.clear()
        self.length = 0

    def freeze(self, read: ReadTexts | None = None) -> Clause:
        """The clause, its children's and footnotes' with it.

        ``read``: the texts already frozen in this run, each with its references (filled in as texts are
        met): a text another clause has (most of an edition's are the one before it's) is then the same
        string, and its references the same records, read once.
        """
        self.join_text()
        text = self.text
        if self.inlines and (links := link_spans(self.inlines)):
            references = references_in(text, links)
        elif read is None:
            references = references_in(text, ())
        else:
            known = read.get(text)
            if known is None:
                known = read[text] = (text, references_in(text, ()))
            text, references = known
        return Clause(
            self.kind,
            self.address,
            self.label,
            self.title,
            text,
            tuple([c.freeze(read) for c in self.children]) if self.children else (),
            tuple([f.freeze(read) for f in self.footnotes]) if self.footnotes else (),
            references,
            self.source,
            self.marker,
            self.anchor,
            tuple(self.notes),
            self.extra,
        )


@dataclass
class PageTree:
    """The tree built from one page, before it is merged into its edition."""

    page: Page
    roots: list[Draft]
    notes: list[tuple[Loc, str]]


def page_strings(tree: PageTree) -> list[str]:
    """Every string the tree holds for its page: what the lossless check counts.

    In document order: a clause's strings, its footnotes', then its
    children's.  Walked with a list, not a recursive inner function: that one
    is a reference cycle, which keeps every string of the page alive while
    the collector is paused (as it is while a corpus is read).
    """
    out: list[str] = []
    stack = list(reversed(tree.roots))
    while stack:
        d = stack.pop()
        out += (d.label, d.title, d.text, d.extra, d.marker)
        stack += reversed(d.children)
        stack += reversed(d.footnotes)
    return out
