"""The clause tree's values: clauses, editions and where they came from.

See :mod:`lawdiff.model` for the addresses every clause carries.
"""

from __future__ import annotations

import enum
import hashlib
import json
import re
import weakref
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from lawdiff import jsontext
from lawdiff.frozen import slot_init
from lawdiff.model.address import article_of, normalize_address, parent_address
from lawdiff.model.references import Reference


@slot_init
@dataclass(frozen=True, slots=True)
class Loc:
    """Where a piece of a page came from.

    file: the path of the source file, as the corpus names it.
    line: 1-based line number in the file (text formats), or 0.
    path: a JSON path such as ``$[533][2]`` (payloads) or an XML place, or "".
    """

    file: str
    line: int = 0
    path: str = ""

    def __str__(self) -> str:
        if self.line:
            return f"{self.file}:{self.line}"
        if self.path:
            return f"{self.file}:{self.path}"
        return self.file


# ---------------------------------------------------------------------------
# Values


class Kind(enum.Enum):
    """What a clause is."""

    CHAPTER = "chapter"
    PART = "part"
    PARAGRAAF = "paragraaf"  # a division of a part ("PARAGRAAF I ...")
    PAGE = "page"  # front matter, appendices, amendment pages
    ARTICLE = "article"
    SECTION = "section"  # "A."
    SUBSECTION = "subsection"  # "1."
    ITEM = "item"  # "(a)" or "a."
    SUBITEM = "subitem"  # anything deeper
    PARAGRAPH = "paragraph"  # an unlabeled child: pN
    FOOTNOTE = "footnote"  # fnN


CONTAINER_KINDS = frozenset({Kind.CHAPTER, Kind.PART, Kind.PARAGRAAF})


@slot_init
@dataclass(frozen=True, slots=True)
class Clause:
    """One clause of an edition.

    kind: see :class:`Kind`.
    address: see the module docstring.
    label: the label as printed ("C.", "4.", "(b)", "a.", "ARTIKEL 45", "1)").
    title: the title as printed, or "".
    text: its own text: the unlabeled prose before its first child,
        normalized, footnote markers taken out.
    children: sub-clauses in document order (footnotes not included).
    footnotes: the notes whose markers stand in ``text`` (``.fnN``).
    references: cross-references in ``text``.
    source: where the clause starts in its source file.
    marker: for a footnote, its marker as printed in the text ("¹⁾", "1)").
    anchor: for a footnote, where its marker stood in the parent's text.
    notes: what the parser noticed (misprints and how they were read).
    extra: heading furniture kept verbatim, such as the article range
        "Art. 41 t/m 49" of a container heading, so that the tree still holds
        every word of the source.
    """

    kind: Kind
    address: str
    label: str
    title: str
    text: str
    children: tuple[Clause, ...]
    footnotes: tuple[Clause, ...]
    references: tuple[Reference, ...]
    source: Loc
    marker: str = ""
    anchor: int = -1
    notes: tuple[str, ...] = ()
    extra: str = ""

    def walk(self) -> Iterator[Clause]:
        """This clause, its footnotes, then its children's walks: document order."""
        yield self
        yield from self.footnotes
        for child in self.children:
            yield from child.walk()

    @property
    def article(self) -> str:
        """The article number this clause belongs to, or "" outside articles."""
        return article_of(self.address)

    @property
    def heading_given(self) -> bool:
        """Whether the source gives this clause's heading.

        False for an article or section that a page opens without printing
        its heading (a 2017 wiki section page holds only the section's body;
        an article given only by its sections' pages): its title is unknown,
        not removed.
        """
        return bool(self.label or self.title) or self.kind not in (Kind.ARTICLE, Kind.SECTION)


@dataclass(frozen=True, slots=True)
class SourceFile:
    """A file an edition was read from.

    file, format, page: the file, its format and the page it holds.
    printing: the printing its text was taken from, where it says.
    pages: the printed pages the text stands on ("58-65"), where it says.
    scope: the address the page's text starts at: "45" for an article's own page,
        "45C" for a section page, "47.2" for a 1936 paragraph page, "" for a page
        above the articles (see :attr:`lawdiff.sources.base.Page.scope`).
    lacking: the addresses of the pages it includes that its dump does not hold.
    """

    file: str
    format: str
    page: str
    printing: str
    pages: str = ""
    scope: str = ""
    lacking: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Conflict:
    """The same clause read from two files with different wording."""

    address: str
    field: str
    first: Loc
    second: Loc
    first_text: str
    second_text: str


def _lineage(address: str, article: str) -> Iterator[str]:
    """``address`` and the addresses above it, up to (not including) its article."""
    while address and address != article:
        yield address
        address = parent_address(address)


def articles_in_part(sources: Iterable[SourceFile], given: Callable[[str], bool]) -> dict[str, frozenset[str]]:
    """The articles that only some of their sections' pages give (the wiki has a page per section from
    1987 on; a 1936 paragraph page is one too), each with the addresses those pages start at (their
    :attr:`SourceFile.scope`): no page of the article's own, and ``given(article)`` False: no page above
    it (a chapter's, a part's) gave its heading or its text."""
    sections: dict[str, set[str]] = {}
    whole: set[str] = set()
    for source in sources:
        art = article_of(source.scope)
        if source.scope == art:
            whole.add(art)
        elif art:
            sections.setdefault(art, set()).add(source.scope)
    return {art: frozenset(s) for art, s in sections.items() if art not in whole and not given(art)}


def _in_lacking(address: str, lacking: frozenset[str], present: Callable[[str], bool]) -> bool:
    """Whether ``address`` lies in one of the ``lacking`` pages (:attr:`SourceFile.lacking`: included by a
    page of the corpus, missing from its dump) that no other page gave (``present``)."""
    if not lacking:
        return False
    address = normalize_address(address)
    return any(a in lacking and not present(a) for a in (address, *_lineage(address, article_of(address))))


def _in_part_held(address: str, sections: frozenset[str]) -> bool:
    """Whether ``address`` lies in what a corpus holds of an article it holds in part: in one of the
    ``sections`` (:func:`articles_in_part`), or it is the article where an amendment gave its heading."""
    address = normalize_address(address)
    art = article_of(address)
    return art in sections if address == art else any(a in sections for a in _lineage(address, art))


def place_held(
    address: str, present: Callable[[str], bool], in_part: Mapping[str, frozenset[str]], lacking: frozenset[str]
) -> bool:
    """Whether a corpus holds the place where ``address`` lies (True outside articles): the article is
    there (``present``), the address is in none of the ``lacking`` pages (:attr:`SourceFile.lacking`) that
    no other page gave, and where the article is held only in part (``in_part``, :func:`articles_in_part`)
    it lies in one of the sections given.  :meth:`Edition.holds` over an edition's clauses; ``check``'s
    page-by-page survey over its outlines."""
    art = article_of(address)
    if not art:
        return True
    if not present(art) or _in_lacking(address, lacking, present):
        return False
    sections = in_part.get(art)
    return sections is None or _in_part_held(address, sections)


@dataclass(frozen=True, slots=True)
class NavItem:
    """One entry of an edition's table of contents."""

    depth: int
    title: str
    address: str
    path: str


@dataclass(frozen=True, slots=True, weakref_slot=True)
class Edition:
    """One edition: its clause tree and where it came from.

    name: how the tool names it ("2017").
    year: the year it belongs to (orders editions).
    clauses: top-level clauses (containers, articles, pages) in order.
    sources: the files it was read from.
    navigation: its table of contents, where a source gives one (it may list
        articles whose pages are not in the corpus).
    conflicts: clauses that two files give with different wording.
    variant: which source family it was read from ("wiki", "nuxt") when the
        corpus holds the edition from more than one ("2017@wiki").
    effective: for an amended version ("2017+2024-03-01"), the date from
        which it is in force; "" for an edition as printed.
    base: for an amended version, the edition it amends.
    parts_held: for an amended version, what :meth:`held_in_part` gives: the
        edition's own, with what its amendments give (an amendment prints the
        article's heading, which would make the article look whole); None for
        an edition, whose sources say it.
    """

    name: str
    year: int
    clauses: tuple[Clause, ...]
    sources: tuple[SourceFile, ...] = ()
    navigation: tuple[NavItem, ...] = ()
    conflicts: tuple[Conflict, ...] = ()
    variant: str = ""
    effective: str = ""
    base: str = ""
    parts_held: tuple[tuple[str, tuple[str, ...]], ...] | None = None

    def digest(self) -> str:
        """A hash of everything the edition holds (not of what was computed from it): a cache key."""
        memo = _memo(self)
        if memo.digest is None:
            memo.digest, memo.parts = self._digests()
        return memo.digest

    def part_digests(self) -> dict[str, str]:
        """Per article number ("" for the clauses outside articles), a hash of its clauses as :meth:`digest`
        encodes them: what a page that shows one article is kept by."""
        memo = _memo(self)
        if memo.parts is None:
            memo.digest, memo.parts = self._digests()
        return memo.parts

    def head(self) -> list[Any]:
        """What the edition is besides its clauses, as :meth:`digest` encodes it: its name, year, variant,
        effective date and base, and each source file (name, format, page, printing, printed pages, the address
        it starts at, the pages it includes that its dump lacks)."""
        sources = [[s.file, s.format, s.page, s.printing, s.pages, s.scope, list(s.lacking)] for s in self.sources]
        return [self.name, self.year, self.variant, self.effective, self.base, sources]

    def _digests(self) -> tuple[str, dict[str, str]]:
        # A canonical encoding (pickle is not one: it shares repeated objects
        # as it meets them), clause by clause in document order.
        digest = hashlib.sha256()
        digest.update(json.dumps(self.head(), ensure_ascii=False).encode("utf-8", "surrogatepass"))
        parts: dict[str, Any] = {}
        for c in self.walk():
            row = [
                c.kind.value,
                c.address,
                c.label,
                c.title,
                c.text,
                c.marker,
                c.anchor,
                c.extra,
                list(c.notes),
                [c.source.file, c.source.line, c.source.path],
                len(c.children),
                len(c.footnotes),
                [[r.target, r.start, r.end, r.printed, r.via] for r in c.references],
            ]
            part = parts.get(c.article)
            if part is None:
                part = parts[c.article] = hashlib.sha256()
            if len(c.text) < jsontext.LONG_STRING:
                line = b"\n" + json.dumps(row, ensure_ascii=False).encode("utf-8", "surrogatepass")
                digest.update(line)
                part.update(line)
                continue
            # A long text (a paragraph of megabytes) quoted as it stands where it holds nothing to escape
            # (:func:`lawdiff.jsontext.string`), between the JSON of the items before and after it: hashed
            # piece by piece, the line made whole being the text copied three times over.
            head = json.dumps(row[:4], ensure_ascii=False)[:-1]
            tail = json.dumps(row[5:], ensure_ascii=False)[1:]
            pieces = [
                f"\n{head}, ".encode("utf-8", "surrogatepass"),
                *jsontext.string_utf8(c.text, "surrogatepass"),
                f", {tail}".encode("utf-8", "surrogatepass"),
            ]
            for piece in pieces:
                digest.update(piece)
                part.update(piece)
        return digest.hexdigest(), {number: part.hexdigest() for number, part in parts.items()}

    def walk(self) -> Iterator[Clause]:
        """Every clause in document order (each top clause's :meth:`Clause.walk`), read off the edition's
        walk made once (:func:`walked_runs`)."""
        return iter(walked_runs(self)[0])

    def find(self, address: str) -> Clause | None:
        index: Mapping[str, Clause] | None = _memo(self).index
        if index is None:
            index = self.by_address()
        found = index.get(address)
        return found if found is not None else index.get(normalize_address(address))

    def by_address(self) -> Mapping[str, Clause]:
        """Each clause by its address as written (the first clause of an address wins), made once: where
        :meth:`find` looks an address up before it tries the address's tolerant spelling (a caller that looks
        up every clause of a pair reads it here, and asks :meth:`find` only for what is not found)."""
        memo = _memo(self)
        index = memo.index
        if index is None:
            index = memo.index = {}
            setdefault = index.setdefault
            for clause in walked_runs(self)[0]:
                setdefault(clause.address, clause)
        return index

    def positions(self) -> dict[str, int]:
        """Each clause's place in document order (the first clause of an address wins)."""
        memo = _memo(self)
        if memo.positions is None:
            memo.positions = {}
            setdefault = memo.positions.setdefault
            for i, clause in enumerate(walked_runs(self)[0]):
                setdefault(clause.address, i)
        return memo.positions

    def articles(self) -> list[Clause]:
        return [c for c in self.walk() if c.kind is Kind.ARTICLE]

    def holds(self, address: str, heading: bool = False) -> bool:
        """Whether the corpus holds the place where ``address`` lies, so that a clause missing there is news
        (True outside articles); ``heading``: the place of the clause's heading.

        An article is held whole when a page gives it: its own page, a page above it (a chapter's, a
        part's, a paragraph's), its heading or its text.  An article that only its sections' pages give
        (:meth:`held_in_part`) holds those sections alone: a clause of another section is not in this
        corpus, rather than removed.  A 2017 section page holds the section's body without its "C. ..."
        heading: the heading of a clause whose heading is not given (:attr:`Clause.heading_given`) is not
        held either.
        """
        if heading and article_of(address):
            clause = self.find(address)
            if clause is not None and not clause.heading_given:
                return False
        memo = _memo(self)
        if memo.lacking is None:
            memo.lacking = frozenset(a for s in self.sources for a in s.lacking)
        return place_held(address, lambda a: self.find(a) is not None, self.held_in_part(), memo.lacking)

    def held_in_part(self) -> dict[str, frozenset[str]]:
        """The articles the corpus holds only by some of their sections' pages (:func:`articles_in_part`),
        each with the addresses those pages start at; an amended version's are its own (``parts_held``)."""
        memo = _memo(self)
        if memo.in_part is None:
            if self.parts_held is not None:
                memo.in_part = {art: frozenset(given) for art, given in self.parts_held}
            else:
                memo.in_part = articles_in_part(self.sources, self._gives)
        return memo.in_part

    def _gives(self, art: str) -> bool:
        """Whether the article's heading or text is given (by a page above it, when no page of its own)."""
        article = self.find(art)
        return article is None or article.heading_given or bool(article.text)

    @property
    def printings(self) -> tuple[str, ...]:
        seen: dict[str, None] = {}
        for s in self.sources:
            if s.printing:
                seen.setdefault(s.printing, None)
        return tuple(seen)


@dataclass(slots=True)
class _Memo:
    """What an :class:`Edition` works out from itself once, kept beside it (the edition stays immutable):
    its clauses by address and their places, its digests, and what its corpus holds."""

    index: dict[str, Clause] | None = None
    positions: dict[str, int] | None = None
    digest: str | None = None
    parts: dict[str, str] | None = None
    in_part: dict[str, frozenset[str]] | None = None
    lacking: frozenset[str] | None = None
    runs: tuple[tuple[Clause, ...], tuple[int, ...]] | None = None


# Keyed by the edition's identity, not its value: hashing an edition would hash
# its whole clause tree.  An entry goes with its edition (weakref.finalize).
_MEMOS: dict[int, _Memo] = {}


def _memo(edition: Edition) -> _Memo:
    memo = _MEMOS.get(id(edition))
    if memo is None:
        memo = _MEMOS[id(edition)] = _Memo()
        weakref.finalize(edition, _MEMOS.pop, id(edition), None)
    return memo


def walked_runs(edition: Edition) -> tuple[tuple[Clause, ...], tuple[int, ...]]:
    """The edition's clauses in document order (:meth:`Edition.walk`), walked once per edition into a tuple
    without a generator per level (a walk's every clause passes up through the generators of all above it),
    and for each clause where the run of its own walk (:meth:`Clause.walk`) ends among them:
    ``clauses[i:ends[i]]`` is the walk of ``clauses[i]``; -1 for a footnote, whose walk (what is under it)
    the edition's walk passes over.  Kept beside the edition while it lives: a tuple of references to
    clauses the edition holds anyway."""
    memo = _memo(edition)
    runs = memo.runs
    if runs is None:
        clauses: list[Clause] = []
        ends: list[int] = []

        def visit(c: Clause) -> None:
            at = len(clauses)
            clauses.append(c)
            ends.append(0)
            if c.footnotes:
                clauses.extend(c.footnotes)
                ends.extend([-1] * len(c.footnotes))
            for child in c.children:
                visit(child)
            ends[at] = len(clauses)

        for top in edition.clauses:
            visit(top)
        runs = memo.runs = (tuple(clauses), tuple(ends))
    return runs


def printing_number(edition: Edition) -> int:
    """The newest printing an edition was read from ("3e druk" -> 3), 0 if none is stated."""
    numbers = [int(m.group(1)) for p in edition.printings if (m := re.match(r"(\d+)e\b", p))]
    return max(numbers, default=0)


def chronological(edition: Edition) -> tuple[int, str, int, str]:
    """Sort key of editions, oldest first: year, amendment date, then the
    printing (an unnumbered one first, as the older), then the name."""
    return (edition.year, edition.effective, printing_number(edition), edition.name)
