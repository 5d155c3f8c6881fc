"""Building the clause tree from the blocks a reader produced.

The nesting rules are the same for every format (tokens first, tree second):
a reader turns a file into :class:`~lawdiff.sources.base.Page` values of flat
blocks; :func:`build_page` nests them into draft clauses with addresses
(:mod:`lawdiff.sources.tree`); the corpus merges the pages of an edition and
freezes the drafts into :class:`~lawdiff.model.Clause` values.
"""

from __future__ import annotations

from collections import deque

from lawdiff.errors import LawdiffBug
from lawdiff.i18n import N_
from lawdiff.i18n.said import Said
from lawdiff.model.address import article_of, roman_to_int
from lawdiff.model.clause import CONTAINER_KINDS, Kind, Loc
from lawdiff.sources.base import Block, BlockKind, Container, Inline, InlineKind, LabelStyle, Page
from lawdiff.sources.tree import Draft, PageTree, link_spans, page_strings
from lawdiff.sources.wikiname import slug

# The tree's values are imported from here too (their home was this module).
__all__ = ["Draft", "PageTree", "build_page", "child_address", "link_spans", "page_strings"]

# What the builder notes on a clause, said in the reader's language where shown (``show``, ``check``).
# Translators: a reader's note: a clause's sentence broken by a blank line in the source was read as one.
_JOINED = Said(N_("text continued after a blank line, joined"))
# Translators: a reader's note on a footnote whose marker the clause's text does not hold.
_NO_MARKER = Said(N_("no marker for this note in the text"))


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
# Building the tree from blocks

_TERMINAL = (".", ";", ":", "!", "?")
_CONTAINER_KIND = {"chapter": Kind.CHAPTER, "part": Kind.PART, "paragraph": Kind.PARAGRAAF}
# Container headings by their first word: chapter, part, paragraph.
_CONTAINER_LEVEL = {"HOOFDSTUK": 0, "DEEL": 1, "PARAGRAAF": 2}
_LEVEL_KIND = {0: Kind.CHAPTER, 1: Kind.PART, 2: Kind.PARAGRAAF}
_LEVEL_OF = {Kind.CHAPTER: 0, Kind.PART: 1, Kind.PARAGRAAF: 2}


class _Builder:
    """Nests a page's blocks into clauses (see :func:`build_page`)."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.roots: list[Draft] = []
        self.notes: list[tuple[Loc, str]] = list(page.notes)
        self.addresses: dict[str, Draft] = {}
        # address -> the next ~N to try for a duplicate of it (so that the
        # Nth duplicate of a label does not retry ~2 ... ~N-1: linear time)
        self.next_duplicate: dict[str, int] = {}
        # footnote number -> clauses whose text carries that marker, oldest first
        self.pending: dict[str, deque[tuple[Draft, Inline]]] = {}
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
            n = self.next_duplicate.get(draft.address, 2)
            while f"{draft.address}~{n}" in self.addresses:
                n += 1
            self.next_duplicate[draft.address] = n + 1
            label = draft.label or draft.address
            draft.notes.append(Said(N_("the label {label!r} occurs twice here; this one is ~{n}"), label=label, n=n))
            duplicate = Said(N_("duplicate address {address}, kept as {address}~{n}"), address=draft.address, n=n)
            self.notes.append((draft.source, duplicate))
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
        if rest.startswith(".") and rest[1:].isdigit():
            # A 1936 paragraph page (Sjabloon:1936:28-3, scope 28.3): its body
            # starts with "3. ..." (after its title), which fills this in.
            paragraph = Draft(Kind.SUBSECTION, scope, self.page.loc, LabelStyle.NUMBER, title=self.page.scope_title)
            self._attach(article, paragraph)
            self.stack.append(paragraph)
            self.scope_section = paragraph
        elif rest:
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
        stack = self.stack
        for i in range(len(stack) - 1, -1, -1):
            kind = stack[i].kind
            if kind is _ARTICLE or kind is _PAGE:
                return i
        return -1

    def _place_text(self, draft: Draft, text: str, inlines: tuple[Inline, ...], sep: str) -> None:
        placed = draft.add_text(text, inlines, sep)
        for x in placed:
            if x.kind is InlineKind.FOOTNOTE_REF:
                self.pending.setdefault(x.value, deque()).append((draft, x))

    # -- blocks -----------------------------------------------------------

    def run(self) -> PageTree:
        handlers = {
            BlockKind.CONTAINER: self.container,
            BlockKind.ARTICLE: self.article,
            BlockKind.LABELED: self.labeled,
            BlockKind.LIST_ITEM: self.list_item,
            BlockKind.PARAGRAPH: self.paragraph,
            BlockKind.FOOTNOTE: self.footnote,
        }
        for block in self.page.blocks:
            handlers[block.kind](block)
        for number, waiting in self.pending.items():
            for draft, _ in waiting:
                address = draft.address
                lone = Said(N_("footnote marker {number} in {address} has no note"), number=number, address=address)
                self.notes.append((draft.source, lone))
        for draft in self.addresses.values():
            draft.join_text()
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

    def _base_index(self) -> int:
        """The innermost clause on the stack that no label opened (an article, a page, a container), or -1."""
        stack = self.stack
        for i in range(len(stack) - 1, -1, -1):
            if stack[i].kind in _UNLABELED_KINDS:
                return i
        return -1

    def labeled(self, block: Block) -> None:
        lo = self._article_index()
        if lo < 0:
            # Labeled text outside any article (a bare section page without
            # scope, or front matter): hang it on the page base, the
            # container or page it stands in, never on a labeled clause
            # before it: a heading repeated on a chapter page ("A." 600
            # times) is a row of siblings (A, A~2, ...) as under an article,
            # not a chain each inside the last.
            lo = self._base_index()
        parent: Draft | None = None
        if block.style is LabelStyle.UPPER:
            del self.stack[lo + 1 :]
        else:
            for i in range(len(self.stack) - 1, lo, -1):
                if self.stack[i].style is block.style:
                    del self.stack[i:]
                    break
        if block.style is LabelStyle.NUMBER and block.title:
            # A numbered clause with a title of its own (1936 "Inzien van
            # een losgelaten slag." / "3. Indien ...") is a division of the
            # article or section, never a sub-item of the items before it.
            while len(self.stack) > lo + 1 and self.stack[-1].kind in (Kind.ITEM, Kind.SUBITEM, Kind.PARAGRAPH):
                self.stack.pop()
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
            if not top.title and not top.has_text and not top.children:
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
            and top.has_text
            and not top.children
            and not top.text_ends_with(_TERMINAL)
            and first.islower()
        ):
            # 1963: an item's sentence broken by a blank line ("c. ... een
            # nalatigheid" / "om te voldoen aan een straf, ...").
            top.notes.append(_JOINED)
            top.notes.extend(block.notes)
            self._place_text(top, block.text, block.inlines, " ")
            return
        # A paragraph goes to the innermost clause that is still open to
        # text: an article, a section without children yet, or a clause
        # under a title of its own without children yet (1987 "1.
        # Informatie verstrekken" and its text on the lines after it); a
        # clause whose text came with its label is closed by the paragraph.
        while (
            len(self.stack) > 1
            and top.kind not in (Kind.ARTICLE, Kind.PAGE, *CONTAINER_KINDS)
            and (top.has_text or top.children)
            and not ((top.kind is Kind.SECTION or top.title) and not top.children)
        ):
            self.stack.pop()
            top = self.stack[-1]
        if not top.children:
            top.notes.extend(block.notes)  # what the reader noticed about the text goes with it
            self._place_text(top, block.text, block.inlines, "\n")
        else:
            self._unlabeled(top, block, LabelStyle.NONE, "")

    def footnote(self, block: Block) -> None:
        waiting = self.pending.get(block.key)
        notes = list(block.notes)
        owner: Draft
        marker: Inline | None
        if waiting:
            owner, marker = waiting.popleft()
            if not waiting:
                self.pending.pop(block.key, None)
        else:
            self._open_untitled(block.loc)
            lo = self._article_index()
            owner = self.stack[lo] if lo >= 0 else self.stack[-1]
            marker = None
            notes.append(_NO_MARKER)
        number = block.key
        if number.startswith("*"):
            number = self._star_number(owner, block)
            printed = N_("note marker printed as {label!r}, read as footnote {number}")
            notes.append(Said(printed, label=block.label, number=number))
        addr = f"{owner.address}.fn{number}"
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

    def _star_number(self, owner: Draft, block: Block) -> str:
        """The number of a 1936 note marked ``*)`` or ``**)``: its stars, or the next free one.

        Counting the stars keeps the number the same on every page that
        holds the clause; a clause with two notes both printed ``*)`` (the
        stars restart on each printed page) gets the next number not taken.
        """
        n = len(block.key)
        while f"{owner.address}.fn{n}" in self.addresses:
            n += 1
        return str(n)


# The parents under which a numbered block is a subsection, and any other an item.
_SUBSECTION_PARENTS = (Kind.ARTICLE, Kind.SECTION, Kind.PAGE, None)
_ITEM_PARENTS = (Kind.ARTICLE, Kind.SECTION, Kind.SUBSECTION, Kind.PAGE, None)
_ARTICLE, _PAGE = Kind.ARTICLE, Kind.PAGE
_UNLABELED_KINDS = frozenset((Kind.ARTICLE, Kind.PAGE, *CONTAINER_KINDS))


def _labeled_kind(style: LabelStyle, parent: Kind | None) -> Kind:
    if style is LabelStyle.UPPER:
        return Kind.SECTION
    if style is LabelStyle.NUMBER:
        return Kind.SUBSECTION if parent in _SUBSECTION_PARENTS else Kind.SUBITEM
    if parent in _ITEM_PARENTS:
        return Kind.ITEM
    return Kind.SUBITEM


def build_page(page: Page) -> PageTree:
    """Nest one page's blocks into draft clauses."""
    return _Builder(page).run()
