"""The clause tree: one normalized tree per edition, whatever the source format.

An edition holds chapters / parts / paragraphs (where the source has them),
articles, sections, subsections, items and sub-items, plus footnotes.  Every
clause has an **address**, the contract of every later command:

* the labels from the article down, concatenated: article number, section
  letter, subsection number, item letter in parentheses, and so on:
  ``45``, ``45C``, ``45C4``, ``45C4(b)``, ``45(d)``, ``46(c)1``;
* unlabeled children (paragraphs after a child, list items without a marker)
  are ``.pN``, counted from 1 per parent in document order: ``45E.p2``,
  ``45.p1``; footnotes are ``.fnN`` with their printed number: ``45A.fn1``;
* where two numeric labels would touch, a dot separates them: ``45.1``;
* outside the numbered articles: chapters ``H6``, parts ``H6.1`` (or
  ``H6.juiste-gang-van-zaken`` for a part the printing does not number),
  paragraphs ``H6.3.I``; front matter and other pages by a lowercase slug
  (``voorwoord``, ``definities``, ``appendix-biddingbox``,
  ``wijzigingen-2024``), their children joined with a dot (``definities.p1``,
  ``voorwoord.A``).

A clause is named across the tool as ``EDITION:ADDRESS`` (``2017:45C4(b)``).

This module builds the tree from the blocks of :mod:`lawdiff.sources`: the
nesting rules below are the same for every format.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterator
from dataclasses import dataclass, field, replace

from lawdiff.errors import LawdiffBug
from lawdiff.sources.base import Block, BlockKind, Container, Inline, InlineKind, LabelStyle, Loc, Page
from lawdiff.sources.wikiname import roman_to_int, slug

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


@dataclass(frozen=True, slots=True)
class Reference:
    """A cross-reference found in a clause's text.

    target: the address it points at (``47E1``, ``45(d)``).
    start, end: the span of ``Clause.text`` it was read from.
    printed: that span's text.
    via: "text" (read from the words), "link" (a hyperlink of the source),
        or "link+text" (a link whose words name a more precise target).
    """

    target: str
    start: int
    end: int
    printed: str
    via: str


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


@dataclass(frozen=True, slots=True)
class SourceFile:
    """A file an edition was read from.

    file, format, page: the file, its format and the page it holds.
    printing: the printing its text was taken from, where it says.
    pages: the printed pages the text stands on ("58-65"), where it says.
    """

    file: str
    format: str
    page: str
    printing: str
    pages: str = ""


@dataclass(frozen=True, slots=True)
class Conflict:
    """The same clause read from two files with different wording."""

    address: str
    field: str
    first: Loc
    second: Loc
    first_text: str
    second_text: str


@dataclass(frozen=True, slots=True)
class NavItem:
    """One entry of an edition's table of contents."""

    depth: int
    title: str
    address: str
    path: str


@dataclass(frozen=True, slots=True)
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
    _index: dict[str, Clause] = field(default_factory=dict, init=False, compare=False, repr=False)

    def walk(self) -> Iterator[Clause]:
        for clause in self.clauses:
            yield from clause.walk()

    def find(self, address: str) -> Clause | None:
        if not self._index:
            for clause in self.walk():
                self._index.setdefault(clause.address, clause)
        return self._index.get(normalize_address(address))

    def articles(self) -> list[Clause]:
        return [c for c in self.walk() if c.kind is Kind.ARTICLE]

    @property
    def printings(self) -> tuple[str, ...]:
        seen: dict[str, None] = {}
        for s in self.sources:
            if s.printing:
                seen.setdefault(s.printing, None)
        return tuple(seen)


def printing_number(edition: Edition) -> int:
    """The newest printing an edition was read from ("3e druk" -> 3), 0 if none is stated."""
    numbers = [int(m.group(1)) for p in edition.printings if (m := re.match(r"(\d+)e\b", p))]
    return max(numbers, default=0)


def chronological(edition: Edition) -> tuple[int, str, int, str]:
    """Sort key of editions, oldest first: year, amendment date, then the
    printing (an unnumbered one first, as the older), then the name."""
    return (edition.year, edition.effective, printing_number(edition), edition.name)


# ---------------------------------------------------------------------------
# Addresses

_ADDRESS_PART = re.compile(r"\d+|[A-Z]|\([a-z]+\)|\.p\d+|\.fn\d+|\.\d+|~\d+")
_ARTICLE_ADDRESS = re.compile(r"^\d+")


def article_of(address: str) -> str:
    """``45C4(b)`` -> ``45``; "" for addresses outside articles."""
    m = _ARTICLE_ADDRESS.match(address)
    return m.group(0) if m else ""


def normalize_address(address: str) -> str:
    """Tolerant spelling of an address: spaces out, ``45 (d)`` -> ``45(d)``, ``45c`` -> ``45C``, ``h6`` -> ``H6``."""
    text = address.strip().replace(" ", "")
    m = re.match(r"^(\d+)([a-z])(?=$|\d|\(|\.)", text)
    if m:
        text = m.group(1) + m.group(2).upper() + text[m.end() :]
    elif re.match(r"^h\d", text):
        text = "H" + text[1:]
    return text


def address_parts(address: str) -> list[str]:
    """Split an article address into its labels: ``45C4(b)`` -> ``['45', 'C', '4', '(b)']``."""
    if not _ARTICLE_ADDRESS.match(address):
        return address.split(".")
    return _ADDRESS_PART.findall(address)


def parent_address(address: str) -> str:
    """``45C4(b)`` -> ``45C4``, ``45E.p2`` -> ``45E``, ``H6.3.I`` -> ``H6.3``; "" for a top-level address."""
    parts = address_parts(address)
    if len(parts) <= 1:
        return ""
    if not _ARTICLE_ADDRESS.match(address):
        # Outside the articles every level is joined with a dot.
        return ".".join(parts[:-1])
    last = parts[-1]
    return address[: len(address) - len(last)]


_ROMAN_PART = re.compile(r"^[IVXLC]+$")
_FOOTNOTE_PART = re.compile(r"^fn(\d+)$")
_PARAGRAPH_PART = re.compile(r"^p(\d+)$")
_DIGITS = re.compile(r"(\d+)")


def natural_key(address: str) -> tuple[tuple[int, int, str], ...]:
    """A sort key that puts ``45C10`` after ``45C9``, ``.p`` after labels and ``.fn`` last.

    Outside the articles, numbers inside a part count as numbers (``H9``
    before ``H10``) and paragraph numerals as their value (``H6.3.V`` before
    ``H6.3.IX``).
    """
    article = bool(_ARTICLE_ADDRESS.match(address))
    key: list[tuple[int, int, str]] = []
    for part in address_parts(address):
        p = part.lstrip(".")
        if p.isdigit():
            key.append((0, int(p), ""))
        elif m := _FOOTNOTE_PART.match(p):
            key.append((3, int(m.group(1)), ""))
        elif m := _PARAGRAPH_PART.match(p):
            key.append((2, int(m.group(1)), ""))
        elif not article and _ROMAN_PART.match(p) and roman_to_int(p):
            key.append((0, roman_to_int(p), ""))
        elif not article:
            for i, piece in enumerate(_DIGITS.split(p)):
                if piece:
                    key.append((0, int(piece), "") if i % 2 else (1, 0, piece))
        else:
            key.append((1, 0, p))
    return tuple(key)


def child_address(parent: str, style: LabelStyle, key: str, article_rooted: bool) -> str:
    """The address of a labeled child (see the module docstring)."""
    part = f"({key})" if style in (LabelStyle.PAREN, LabelStyle.LOWER) else key
    if not parent:
        return part
    if not article_rooted:
        return f"{parent}.{part}"
    if part[:1].isdigit() and parent[-1:].isdigit():
        return f"{parent}.{part}"
    return parent + part


# ---------------------------------------------------------------------------
# Cross-references read from text

_ADDR = r"\d{1,3}(?:[A-Z](?:\d{1,2})?)?(?:\s?\([a-z]\))?"
_TRIGGER = re.compile(r"\b(?:[Aa]rtikelen|[Aa]rtikel|[Aa]rt\.|[Zz]ie)\s+(?=\d)")
_LIST_ITEM = re.compile(rf"(?P<addr>{_ADDR})(?![\d\w/])")
_LIST_SEP = re.compile(r"(?:\s*,\s*|\s+en\s+|\s+of\s+|\s+and\s+)(?=\d)")
_SUB_ITEMS = re.compile(
    r"\bsub\.?\s+(?P<items>[a-z]\.?(?:\s*(?:,|en|of)\s*[a-z]\.?)*)\s+van\s+(?:art\.|artikel)\s*(?P<art>\d{1,3})\b"
)
_BARE = re.compile(r"(?<![\w/.-])(?P<addr>\d{1,3}[A-Z]\d{0,2}(?:\s?\([a-z]\))?)(?![\w/])")


def find_references(text: str) -> list[tuple[str, int, int]]:
    """Addresses named in ``text``: ``[(target, start, end), ...]`` in order.

    Reads ``artikel 45E``, ``art. 50``, ``zie 53C``, ``art. 45 (d)``, lists
    such as ``de artikelen 64A, 64B7 en 64C`` and ``artikel 53 of 56``, and
    bare lettered addresses such as ``16D1``, and the 1963 way of naming
    items, ``sub. a. en b. van art. 42`` (``42(a)``, ``42(b)``).  Bare
    numbers without a trigger word are not read (they are counts, not
    references).
    """
    found: dict[int, tuple[str, int, int]] = {}
    named_items: set[int] = set()  # article numbers whose items were named
    for sub in _SUB_ITEMS.finditer(text):
        article = sub.group("art")
        named_items.add(sub.start("art"))
        for item in re.finditer(r"\b([a-z])\b", sub.group("items")):
            start = sub.start("items") + item.start(1)
            found[start] = (f"{article}({item.group(1)})", start, start + 1)
    for trig in _TRIGGER.finditer(text):
        pos = trig.end()
        while True:
            m = _LIST_ITEM.match(text, pos)
            if not m:
                break
            if m.start() not in named_items:
                found[m.start()] = (normalize_address(m.group("addr")), m.start(), m.end())
            sep = _LIST_SEP.match(text, m.end())
            if not sep:
                break
            pos = sep.end()
    for m in _BARE.finditer(text):
        if not any(s <= m.start() < e for _, s, e in found.values()):
            found[m.start()] = (normalize_address(m.group("addr")), m.start(), m.end())
    return [found[k] for k in sorted(found)]


def _refines(address: str, other: str) -> bool:
    """Whether ``address`` is ``other`` or lies inside it, label by label (``16C1`` in ``16C``, not ``45`` in ``4``)."""
    mine, theirs = address_parts(address), address_parts(other)
    return mine[: len(theirs)] == theirs


def references_in(text: str, inlines: tuple[Inline, ...] | list[Inline]) -> tuple[Reference, ...]:
    """Merge the references read from words with the links of the source."""
    refs: list[Reference] = []
    textual = find_references(text)
    used: set[int] = set()
    for link in (x for x in inlines if x.kind is InlineKind.LINK):
        inside = [(i, t) for i, t in enumerate(textual) if link.start <= t[1] and t[2] <= link.end]
        # A link's words may name a more precise target than its href does
        # ("16C1" linking to #artikel-16-c): keep the words' target then.
        # Words naming another clause stay references read from the text.
        precise = [(i, t) for i, t in inside if _refines(t[0], link.value) or _refines(link.value, t[0])]
        for i, (target, s, e) in precise:
            used.add(i)
            chosen = target if len(address_parts(target)) >= len(address_parts(link.value)) else link.value
            refs.append(Reference(chosen, s, e, text[s:e], "link" if chosen == link.value else "link+text"))
        if not precise:
            refs.append(Reference(link.value, link.start, link.end, text[link.start : link.end], "link"))
    for i, (target, s, e) in enumerate(textual):
        if i not in used:
            refs.append(Reference(target, s, e, text[s:e], "text"))
    refs.sort(key=lambda r: (r.start, r.end))
    return tuple(refs)


# ---------------------------------------------------------------------------
# Building the tree from blocks

_TERMINAL = (".", ";", ":", "!", "?")


@dataclass
class Draft:
    """A clause under construction (the builder's only mutable state)."""

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

    @property
    def article_rooted(self) -> bool:
        return bool(article_of(self.address))

    def add_text(self, text: str, inlines: tuple[Inline, ...], sep: str) -> list[Inline]:
        """Append a paragraph to the own text; returns the inlines as placed."""
        if self.text and text:
            self.text += sep
        offset = len(self.text)
        self.text += text
        placed = [Inline(x.kind, x.start + offset, x.end + offset, x.value, x.printed) for x in inlines]
        self.inlines.extend(placed)
        return placed

    def freeze(self) -> Clause:
        return Clause(
            kind=self.kind,
            address=self.address,
            label=self.label,
            title=self.title,
            text=self.text,
            children=tuple(c.freeze() for c in self.children),
            footnotes=tuple(f.freeze() for f in self.footnotes),
            references=references_in(self.text, self.inlines),
            source=self.source,
            marker=self.marker,
            anchor=self.anchor,
            notes=tuple(self.notes),
            extra=self.extra,
        )


_CONTAINER_KIND = {"chapter": Kind.CHAPTER, "part": Kind.PART, "paragraph": Kind.PARAGRAAF}
# Container headings by their first word: chapter, part, paragraph.
_CONTAINER_LEVEL = {"HOOFDSTUK": 0, "DEEL": 1, "PARAGRAAF": 2}
_LEVEL_KIND = {0: Kind.CHAPTER, 1: Kind.PART, 2: Kind.PARAGRAAF}
_LEVEL_OF = {Kind.CHAPTER: 0, Kind.PART: 1, Kind.PARAGRAAF: 2}


@dataclass
class PageTree:
    """The tree built from one page, before it is merged into its edition."""

    page: Page
    roots: list[Draft]
    notes: list[tuple[Loc, str]]


class _Builder:
    """Nests a page's blocks into clauses (see :func:`build_page`)."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.roots: list[Draft] = []
        self.notes: list[tuple[Loc, str]] = []
        self.addresses: dict[str, Draft] = {}
        # footnote number -> clauses whose text carries that marker, oldest first
        self.pending: dict[str, list[tuple[Draft, Inline]]] = {}
        base: Draft | None = None
        # The chapter / part / paragraph drafts open at this point of the
        # page, outermost first, and the ones a heading has already named.
        self.open_containers: list[Draft] = []
        self.named: set[str] = set()
        for cont in page.containers:
            d = self._container(cont, base)
            self.open_containers.append(d)
            base = d
        self.base = base
        # The section a section page (Sjabloon:2017:45C) stands for, until
        # its own heading, if it prints one, fills it in.
        self.scope_section: Draft | None = None
        self.stack: list[Draft] = [base] if base else []
        scope = page.scope
        if scope:
            self._open_scope(scope)

    # -- helpers ----------------------------------------------------------

    def _register(self, draft: Draft) -> Draft:
        if draft.address in self.addresses:
            n = 2
            while f"{draft.address}~{n}" in self.addresses:
                n += 1
            draft.notes.append(f"the label {draft.label or draft.address!r} occurs twice here; this one is ~{n}")
            self.notes.append((draft.source, f"duplicate address {draft.address}, kept as {draft.address}~{n}"))
            draft.address = f"{draft.address}~{n}"
        self.addresses[draft.address] = draft
        return draft

    def _attach(self, parent: Draft | None, child: Draft) -> Draft:
        self._register(child)
        if parent is None:
            self.roots.append(child)
        else:
            parent.children.append(child)
        return child

    def _container(self, cont: Container, parent: Draft | None) -> Draft:
        d = Draft(
            _CONTAINER_KIND.get(cont.kind, Kind.PART), cont.address, self.page.loc, label=cont.label, title=cont.title
        )
        return self._attach(parent, d)

    def _open_scope(self, scope: str) -> None:
        art = article_of(scope)
        if not art:
            page = Draft(Kind.PAGE, scope, self.page.loc, title=self.page.scope_title)
            self._attach(self.base, page)
            self.stack.append(page)
            return
        article = Draft(
            Kind.ARTICLE,
            art,
            self.page.loc,
            label=self.page.scope_label if scope == art else "",
            title=self.page.scope_title if scope == art else "",
        )
        self._attach(self.base, article)
        self.stack.append(article)
        rest = scope[len(art) :]
        if rest:
            # A section page (Sjabloon:2017:45C): its body has no "C." heading.
            section = Draft(
                Kind.SECTION,
                art + rest,
                self.page.loc,
                LabelStyle.UPPER,
                title=self.page.scope_title if scope != art else "",
            )
            self._attach(article, section)
            self.stack.append(section)
            self.scope_section = section

    def _article_index(self) -> int:
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i].kind in (Kind.ARTICLE, Kind.PAGE):
                return i
        return -1

    def _place_text(self, draft: Draft, text: str, inlines: tuple[Inline, ...], sep: str) -> None:
        placed = draft.add_text(text, inlines, sep)
        for x in placed:
            if x.kind is InlineKind.FOOTNOTE_REF:
                self.pending.setdefault(x.value, []).append((draft, x))

    # -- blocks -----------------------------------------------------------

    def run(self) -> PageTree:
        for block in self.page.blocks:
            handler = {
                BlockKind.CONTAINER: self.container,
                BlockKind.ARTICLE: self.article,
                BlockKind.LABELED: self.labeled,
                BlockKind.LIST_ITEM: self.list_item,
                BlockKind.PARAGRAPH: self.paragraph,
                BlockKind.FOOTNOTE: self.footnote,
            }[block.kind]
            handler(block)
        for number, waiting in self.pending.items():
            for draft, _ in waiting:
                self.notes.append((draft.source, f"footnote marker {number} in {draft.address} has no note"))
        return PageTree(self.page, self.roots, self.notes)

    def container(self, block: Block) -> None:
        word = block.label.split()[0].upper() if block.label else ""
        level = _CONTAINER_LEVEL.get(word, 1)
        outer = next((d for d in reversed(self.open_containers) if _LEVEL_OF[d.kind] < level), None)
        if block.label:
            number = block.label.split()[-1].rstrip(".")
            if level == 0:
                addr = f"H{roman_to_int(number) or number}"
            else:
                addr = f"{outer.address}.{number}" if outer else f"P{number}"
        else:
            # An unnumbered heading names a part (1963: "JUISTE GANG VAN
            # ZAKEN. Art. 41 t/m 49", page "HVI JUISTE GANG VAN ZAKEN").
            name = slug(block.title) or str(len(self.roots) + 1)
            addr = f"{outer.address}.{name}" if outer else f"P{name}"
        same = next((d for d in self.open_containers if _LEVEL_OF[d.kind] == level), None)
        if same is not None and same.address not in self.named and (same.address == addr or not block.label):
            # The page's own container (named by its title) meeting its heading.
            target = same
        else:
            # Another container on the same page (a part page holding
            # "PARAGRAAF I" and "PARAGRAAF II"): a clause of its own.
            target = self._attach(outer, Draft(_LEVEL_KIND[level], addr, block.loc))
        self.named.add(target.address)
        self.open_containers = [d for d in self.open_containers if _LEVEL_OF[d.kind] < level] + [target]
        self.base = target
        # The heading printed on the page wins over the page's name
        # ("HOOFDSTUK 6" over the title's "HVI").
        if block.label:
            target.label = block.label
        if block.title:
            target.title = block.title
        target.extra = block.extra
        target.source = block.loc
        self.stack = [target]

    def article(self, block: Block) -> None:
        existing = self.addresses.get(block.key)
        if existing is not None and existing.kind is Kind.ARTICLE and not existing.label:
            # The page is this article's own page: its heading fills it in.
            article = existing
        else:
            article = self._attach(self.base, Draft(Kind.ARTICLE, block.key, block.loc))
        article.label = block.label
        article.title = block.title or article.title
        article.source = block.loc
        self.stack = ([self.base] if self.base else []) + [article]

    def labeled(self, block: Block) -> None:
        lo = self._article_index()
        if lo < 0:
            # Labeled text outside any article (a bare section page without
            # scope, or front matter): hang it on the page base.
            lo = len(self.stack) - 1
        parent: Draft | None = None
        if block.style is LabelStyle.UPPER:
            del self.stack[lo + 1 :]
        else:
            for i in range(len(self.stack) - 1, lo, -1):
                if self.stack[i].style is block.style:
                    del self.stack[i:]
                    break
        parent = self.stack[-1] if self.stack else None
        if parent is not None and parent.kind is Kind.PARAGRAPH:
            self.stack.pop()
            parent = self.stack[-1] if self.stack else None
        kind = _labeled_kind(block.style, parent.kind if parent else None)
        addr = child_address(
            parent.address if parent else "", block.style, block.key, parent.article_rooted if parent else True
        )
        existing = self.addresses.get(addr)
        if existing is not None and existing is self.scope_section and not existing.label:
            # The scope section of a section page meeting its own heading
            # ("Sjabloon:2017:45C" whose text does start with "C. ...").
            draft = existing
            draft.source = block.loc
        else:
            draft = self._attach(parent, Draft(kind, addr, block.loc, block.style))
        draft.label = block.label
        draft.title = block.title or draft.title
        draft.notes.extend(block.notes)
        self._place_text(draft, block.text, block.inlines, "\n")
        self.stack.append(draft)

    def _open_untitled(self, loc: Loc) -> None:
        """Text before any heading on a page that gives no scope (a table of
        contents, a container page): it still belongs somewhere, so it opens
        an untitled page clause."""
        if not self.stack:
            page = self._attach(None, Draft(Kind.PAGE, f"page-{len(self.roots) + 1}", loc))
            self.stack.append(page)

    def list_item(self, block: Block) -> None:
        self._open_untitled(block.loc)
        lo = max(self._article_index(), 0)
        for i in range(len(self.stack) - 1, lo, -1):
            if self.stack[i].style is LabelStyle.DASH:
                del self.stack[i:]
                break
        parent = self.stack[-1] if self.stack else None
        draft = self._unlabeled(parent, block, LabelStyle.DASH, "-")
        self.stack.append(draft)

    def _unlabeled(self, parent: Draft | None, block: Block, style: LabelStyle, label: str) -> Draft:
        if parent is None:
            raise LawdiffBug(f"{block.loc}: an unlabeled block with nowhere to go")
        parent.unlabeled += 1
        addr = f"{parent.address}.p{parent.unlabeled}"
        draft = self._attach(parent, Draft(Kind.PARAGRAPH, addr, block.loc, style, label=label))
        draft.notes.extend(block.notes)
        self._place_text(draft, block.text, block.inlines, "\n")
        return draft

    def paragraph(self, block: Block) -> None:
        self._open_untitled(block.loc)
        if block.title and not block.text:
            # A heading the reader could not label (e.g. an unlabeled <h3>).
            top = self.stack[-1]
            if not top.title and not top.text and not top.children:
                top.title = block.title
                return
            self._unlabeled(
                top, Block(BlockKind.PARAGRAPH, block.loc, text=block.title, notes=block.notes), LabelStyle.NONE, ""
            )
            return
        top = self.stack[-1]
        first = block.text[:1]
        if (
            top.kind not in (Kind.ARTICLE, Kind.PAGE, Kind.SECTION, *CONTAINER_KINDS)
            and top.text
            and not top.children
            and not top.text.endswith(_TERMINAL)
            and first.islower()
        ):
            # 1963: an item's sentence broken by a blank line ("c. ... een
            # nalatigheid" / "om te voldoen aan een straf, ...").
            top.notes.append("text continued after a blank line, joined")
            self._place_text(top, block.text, block.inlines, " ")
            return
        while (
            len(self.stack) > 1
            and top.kind not in (Kind.ARTICLE, Kind.PAGE, *CONTAINER_KINDS)
            and (top.text or top.children)
            and not (top.kind is Kind.SECTION and not top.children)
        ):
            self.stack.pop()
            top = self.stack[-1]
        if not top.children:
            self._place_text(top, block.text, block.inlines, "\n")
        else:
            self._unlabeled(top, block, LabelStyle.NONE, "")

    def footnote(self, block: Block) -> None:
        waiting = self.pending.get(block.key) or []
        notes = list(block.notes)
        if waiting:
            owner, marker = waiting.pop(0)
            if not waiting:
                self.pending.pop(block.key, None)
        else:
            self._open_untitled(block.loc)
            lo = self._article_index()
            owner = self.stack[lo] if lo >= 0 else self.stack[-1]
            marker = None
            notes.append("no marker for this note in the text")
        addr = f"{owner.address}.fn{block.key}"
        draft = Draft(
            Kind.FOOTNOTE,
            addr,
            block.loc,
            label=block.label,
            marker=marker.printed if marker else "",
            anchor=marker.start if marker else -1,
        )
        draft.notes.extend(notes)
        draft.add_text(block.text, block.inlines, "\n")
        self._register(draft)
        owner.footnotes.append(draft)


def _labeled_kind(style: LabelStyle, parent: Kind | None) -> Kind:
    if style is LabelStyle.UPPER:
        return Kind.SECTION
    if style is LabelStyle.NUMBER:
        return Kind.SUBSECTION if parent in (Kind.ARTICLE, Kind.SECTION, Kind.PAGE, None) else Kind.SUBITEM
    if parent in (Kind.ARTICLE, Kind.SECTION, Kind.SUBSECTION, Kind.PAGE, None):
        return Kind.ITEM
    return Kind.SUBITEM


def build_page(page: Page) -> PageTree:
    """Nest one page's blocks into draft clauses."""
    return _Builder(page).run()


def page_strings(tree: PageTree) -> list[str]:
    """Every string the tree holds for its page: what the lossless check counts."""
    out: list[str] = []

    def visit(d: Draft) -> None:
        out.extend([d.label, d.title, d.text, d.extra, d.marker])
        for f in d.footnotes:
            visit(f)
        for c in d.children:
            visit(c)

    for root in tree.roots:
        visit(root)
    return out


# ---------------------------------------------------------------------------
# Amendments


def amend(clauses: tuple[Clause, ...], amendment: tuple[Clause, ...]) -> tuple[Clause, ...]:
    """An edition's clauses with an amendment's clauses in force.

    An amendment article that brings sections replaces the sections at the
    same addresses (and adds new ones in label order), and its title the
    article's; one without sections replaces the whole article.  An article
    the edition does not have is added at the end.  The amendment's own page
    (its introduction) is not law text of the version: it says what the
    version changes, which a comparison shows.  Nothing is edited in place: the result shares the untouched subtrees.
    """
    result = list(clauses)
    for piece in amendment:
        if piece.kind is Kind.ARTICLE:
            result = _replace_article(result, piece)
    return tuple(result)


def _replace_article(roots: list[Clause], article: Clause) -> list[Clause]:
    found = False

    def visit(c: Clause) -> Clause:
        nonlocal found
        if c.address == article.address and c.kind is Kind.ARTICLE:
            found = True
            return _amended_article(c, article)
        if c.kind in CONTAINER_KINDS:
            children = tuple(visit(x) for x in c.children)
            if any(a is not b for a, b in zip(children, c.children, strict=True)):
                return replace(c, children=children)
        return c

    out = [visit(r) for r in roots]
    if not found:
        out.append(article)
    return out


def _amended_article(base: Clause, new: Clause) -> Clause:
    sections = [c for c in new.children if c.kind is Kind.SECTION]
    if sections and not new.text:
        children = list(base.children)
        for section in sections:
            at = next((i for i, c in enumerate(children) if c.address == section.address), None)
            if at is None:
                children.append(section)
                children.sort(key=lambda c: natural_key(c.address))
            else:
                children[at] = section
        return replace(base, title=new.title or base.title, children=tuple(children))
    return replace(new, label=new.label or base.label, title=new.title or base.title)
