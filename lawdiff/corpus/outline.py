"""What ``lawdiff check`` keeps of a page: an outline of its clause tree, and their merge per edition.

What check reports needs few of the clause trees' words: per page the
lossless accounting (:mod:`lawdiff.corpus.account`); per edition of the
timeline the clauses two pages give with different wording, and the
references whose target the edition does not hold.  So each page's tree is
kept only as an :class:`Outline`: its addresses and nesting, where each
clause starts, its title, a digest of its text, and its references.

The outlines of an edition are merged exactly as
:class:`lawdiff.corpus.merge.EditionBuilder` merges the trees (same order,
same first clause of an address, same children sorted where several files
gave them), and walked in the order of :meth:`lawdiff.model.Edition.walk`,
so that the report is the one the full corpus gives, byte for byte.  Where
that needs the words themselves (two wordings of a clause), the merge
raises :class:`NeedsWords`.
"""

from __future__ import annotations

import hashlib
import re
import sys
from array import array
from dataclasses import dataclass, field, replace

from lawdiff.corpus import timeline
from lawdiff.corpus.account import PageCheck
from lawdiff.corpus.dangling import Dangling
from lawdiff.corpus.merge import DRAFT_YEAR
from lawdiff.model import (
    Edition,
    Kind,
    Loc,
    NavItem,
    SourceFile,
    articles_in_part,
    natural_key,
    normalize_address,
    place_held,
)
from lawdiff.model.references import find_references, references_in
from lawdiff.sources.base import Inline, Page
from lawdiff.sources.build import Draft, PageTree, link_spans

__all__ = ["EditionOutline", "NeedsWords", "Outline", "ReadReferences", "Record", "interned", "outline", "record"]

# What a clause of an outline is: a footnote (merged among its parent's
# footnotes, not its children), and whether it has text.
_FOOTNOTE = 1
_TEXT = 2

# The digest of a clause's text: two texts are told apart by it (128 bits:
# two different texts have the same digest with a chance of 2**-128).
_DIGEST_SIZE = 16
_NO_TEXT = bytes(_DIGEST_SIZE)


@dataclass(frozen=True, slots=True)
class Outline:
    """What ``lawdiff check`` keeps of one page's clause tree.

    The clauses are listed in the order the merge meets them: a clause, its
    footnotes, then its children, each with what follows it.

    addresses: each clause's address.
    parents: the index of each clause's parent in this outline, -1 for a root.
    flags: per clause, ``_FOOTNOTE`` and ``_TEXT``.
    titles: each clause's title ("" for none).
    digests: the text digests, :data:`_DIGEST_SIZE` bytes a clause (zeros for no text).
    lines, places: where each clause starts: its line, and the (file, path)
        of its :class:`~lawdiff.model.Loc`, an index into ``places``.
    where: per clause, the index of its place in ``places``.
    refs: for the clauses with references, the target and the printed text
        of each, one after the other: (target, printed, target, printed...).
    """

    addresses: tuple[str, ...]
    parents: array[int]
    flags: bytes
    titles: tuple[str, ...]
    digests: bytes
    lines: array[int]
    where: array[int]
    places: tuple[tuple[str, str], ...]
    refs: dict[int, tuple[str, ...]] = field(default_factory=dict)

    def source(self, i: int) -> Loc:
        file, path = self.places[self.where[i]]
        return Loc(file, self.lines[i], path)

    def digest(self, i: int) -> bytes:
        return self.digests[i * _DIGEST_SIZE : (i + 1) * _DIGEST_SIZE]


# The references read from a clause text, by the text's digest: a run's pages
# share most of their texts (an edition with the one before it), and a text's
# references are read once.
ReadReferences = dict[bytes, tuple[str, ...]]


def outline(tree: PageTree, read: ReadReferences | None = None) -> Outline:
    """The outline of a page's tree, as :func:`lawdiff.sources.build.build_page` leaves it (texts joined).

    ``read``: the references of the texts already read (by their digests), filled in as texts are read.
    """
    if read is None:
        read = {}
    addresses: list[str] = []
    parents = array("i")
    flags = bytearray()
    titles: list[str] = []
    digests = bytearray()
    lines = array("i")
    where = array("i")
    places: dict[tuple[str, str], int] = {}
    refs: dict[int, tuple[str, ...]] = {}
    blake2b = hashlib.blake2b
    intern = sys.intern
    footnote = Kind.FOOTNOTE
    # Depth first, in the merge's order: a clause, its footnotes, its children.
    stack: list[tuple[Draft, int]] = [(d, -1) for d in reversed(tree.roots)]
    while stack:
        d, parent = stack.pop()
        i = len(addresses)
        # Addresses repeat from edition to edition (45C4 in each): one string for all.
        addresses.append(intern(d.address))
        parents.append(parent)
        text = d.text
        titles.append(d.title)
        if text:
            flags.append(_TEXT | _FOOTNOTE if d.kind is footnote else _TEXT)
            digest = blake2b(text.encode("utf-8", "surrogatepass"), digest_size=_DIGEST_SIZE).digest()
            digests += digest
        else:
            flags.append(_FOOTNOTE if d.kind is footnote else 0)
            digest = _NO_TEXT
            digests += _NO_TEXT
        if d.inlines or not text:
            named = _references(text, d.inlines)  # (links are read with their text: not kept)
        elif (known := read.get(digest)) is not None:
            named = known
        else:
            named = read[digest] = _references(text, d.inlines)
        if named:
            refs[i] = named
        loc = d.source
        lines.append(loc.line)
        place = (loc.file, loc.path)
        at = places.get(place)
        if at is None:
            at = places[place] = len(places)
        where.append(at)
        # (No generator expressions here: one costs more than the rest of a clause.)
        for c in reversed(d.children):
            stack.append((c, i))
        for f in reversed(d.footnotes):
            stack.append((f, i))
    return Outline(
        tuple(addresses), parents, bytes(flags), tuple(titles), bytes(digests), lines, where, tuple(places), refs
    )


def _references(text: str, inlines: list[Inline]) -> tuple[str, ...]:
    """The target and the printed text of each reference of a clause, one after the other."""
    links = link_spans(inlines) if inlines else None
    if links:
        found = [(r.target, r.printed) for r in references_in(text, links)]
    elif text:
        # references_in without links: the references read from the words, in order.
        found = [(target, text[start:end]) for target, start, end in find_references(text)]
    else:
        return ()
    # References repeat ("artikel 45", page after page): one string for each.
    return tuple(sys.intern(s) for pair in found for s in pair) if found else ()


# One page as check keeps it: the page without its blocks, fragments and
# furniture (as :func:`lawdiff.corpus.timeline.read_page` slims it), its
# accounting, and its outline.
Record = tuple[Page, PageCheck, Outline]


def record(page: Page, read: ReadReferences | None = None) -> Record:
    """A page as check keeps it; ``read``: as :func:`outline` takes it."""
    # timeline.read_page, looked up when called: the same tree and
    # accounting as the full corpus gets (and the tests' stand-ins for it).
    tree, page_check = timeline.read_page(page)
    return tree.page, page_check, outline(tree, read)


def interned(o: Outline) -> Outline:
    """An outline from a worker, its strings made one with the same strings of other pages (as :func:`outline` does)."""
    intern = sys.intern
    refs = {i: tuple(intern(s) for s in r) for i, r in o.refs.items()}
    return replace(o, addresses=tuple(intern(a) for a in o.addresses), refs=refs)


class NeedsWords(Exception):
    """The report needs the clause trees' words (a conflict, an amendment): read the corpus whole."""


class EditionOutline:
    """The outlines of one edition's pages, merged as :class:`lawdiff.corpus.merge.EditionBuilder` merges trees.

    Pages are added in the merge order; the merge itself runs when the
    edition's dangling references are asked for, and is dropped after.
    """

    def __init__(self, name: str) -> None:
        self.name = name
        self.pages: list[tuple[str, Outline]] = []
        self.sources: list[SourceFile] = []
        self.navigation: tuple[NavItem, ...] = ()
        self._hollow: Edition | None = None

    def add(self, page: Page, page_outline: Outline) -> None:
        self.sources.append(page.source_file())
        if page.navigation and not self.navigation:
            self.navigation = tuple(NavItem(n.depth, n.title, n.address, n.path) for n in page.navigation)
        self.pages.append((page.file, page_outline))

    def edition(self) -> Edition:
        """The edition as :meth:`EditionBuilder.build` names it, without clauses."""
        if self._hollow is None:
            year_m = re.match(r"\d{4}", self.name)
            drafts = all(s.format.startswith("draft-") for s in self.sources)
            self._hollow = Edition(
                name=self.name,
                year=int(year_m.group(0)) if year_m else DRAFT_YEAR if drafts else 0,
                clauses=(),
                sources=tuple(self.sources),
                navigation=self.navigation,
            )
        return self._hollow

    def dangling(self, name: str) -> list[Dangling]:
        """The references of the merged edition whose target it does not hold, in its walk order."""
        merged = _Merged()
        for file, page_outline in self.pages:
            merged.add(page_outline, file)
        order = merged.walk(len({s.file for s in self.sources}) > 1, self.navigation)
        held = {merged.address[m] for m in order}

        def holds(address: str) -> bool:
            # Edition.find: the address as given, else normalized.
            return address in held or normalize_address(address) in held

        # Edition.holds: an article given only by some of its sections' pages holds those alone.
        in_part = articles_in_part(self.sources, merged.gives)
        lacking = frozenset(a for s in self.sources for a in s.lacking)
        out: list[Dangling] = []
        for m in order:
            refs = merged.text_outline[m].refs.get(merged.text_index[m])
            if not refs:
                continue  # (most clauses name no other)
            for target, printed in zip(refs[::2], refs[1::2], strict=True):
                if holds(target):
                    continue
                absent = not place_held(target, holds, in_part, lacking)
                source = merged.src_outline[m].source(merged.src_index[m])
                out.append(Dangling(name, merged.address[m], target, printed, source, absent))
        return out


class _Merged:
    """One edition's clauses merged from outlines: the clause first met at an address is the clause.

    Clause ``m`` keeps where it was first met (its source), the title and
    the text it holds now: its own, or the first that another page gave it
    while it had none.  Its references go with its text (they are read from
    the text and its links).
    """

    def __init__(self) -> None:
        self.index: dict[str, int] = {}
        self.address: list[str] = []
        self.src_outline: list[Outline] = []
        self.src_index = array("i")
        self.title: list[str] = []
        self.text_outline: list[Outline] = []
        self.text_index = array("i")
        self.roots: list[int] = []
        self.children: dict[int, list[int]] = {}
        self.footnotes: dict[int, list[int]] = {}
        self.contributed: dict[int, set[str]] = {}

    def add(self, o: Outline, file: str) -> None:
        merged = array("i", bytes(4 * len(o.addresses)))
        for i, address in enumerate(o.addresses):
            p = o.parents[i]
            parent = merged[p] if p >= 0 else -1
            m = self.index.get(address)
            if m is None:
                m = len(self.address)
                self.index[address] = m
                self.address.append(address)
                self.src_outline.append(o)
                self.src_index.append(i)
                self.title.append(o.titles[i])
                self.text_outline.append(o)
                self.text_index.append(i)
                if parent < 0:
                    self.roots.append(m)
                else:
                    siblings = self.footnotes if o.flags[i] & _FOOTNOTE else self.children
                    siblings.setdefault(parent, []).append(m)
            else:
                self._fields(m, o, i)
            if parent >= 0:
                self.contributed.setdefault(parent, set()).add(file)
            merged[i] = m

    def gives(self, address: str) -> bool:
        """Edition._gives: whether the article's heading or text is given (or it is not here at all)."""
        m = self.index.get(address)
        if m is None:
            m = self.index.get(normalize_address(address))
        return m is None or bool(self.title[m]) or bool(self.text_outline[m].flags[self.text_index[m]] & _TEXT)

    def _fields(self, m: int, o: Outline, i: int) -> None:
        """EditionBuilder._fields: two wordings of a title or text are a conflict; a missing one is filled in."""
        a, b = self.title[m], o.titles[i]
        if a and b and a != b:
            raise NeedsWords(f"{self.address[m]}: two titles")
        if b and not a:
            self.title[m] = b
        if o.flags[i] & _TEXT:
            held, at = self.text_outline[m], self.text_index[m]
            if not held.flags[at] & _TEXT:
                self.text_outline[m] = o
                self.text_index[m] = i
            elif held.digest(at) != o.digest(i):
                raise NeedsWords(f"{self.address[m]}: two texts")

    def walk(self, several_files: bool, navigation: tuple[NavItem, ...]) -> list[int]:
        """The clauses in :meth:`Edition.walk` order, after :meth:`EditionBuilder.build`'s sorting."""
        # EditionBuilder._order: children given by several files, in label order.
        stack = list(self.roots)
        while stack:
            m = stack.pop()
            kids = self.children.get(m)
            if kids:
                if len(self.contributed.get(m, ())) > 1:
                    kids.sort(key=lambda c: natural_key(self.address[c]))
                stack.extend(kids)
        roots = self.roots
        if several_files:
            position: dict[str, int] = {}
            for i, n in enumerate(navigation):
                position.setdefault(n.address, i)
            end = len(position)
            roots = sorted(roots, key=lambda c: (position.get(self.address[c], end), natural_key(self.address[c])))
        # Clause.walk: a clause, its footnotes (themselves only), then its children's walks.
        out: list[int] = []
        todo = list(reversed(roots))
        while todo:
            m = todo.pop()
            out.append(m)
            out.extend(self.footnotes.get(m, ()))
            todo.extend(reversed(self.children.get(m, ())))
        return out
