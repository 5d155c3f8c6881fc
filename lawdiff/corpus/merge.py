"""Merging the page trees of one edition into one clause tree.

The same clause from two files is one clause; where their wording differs a
:class:`~lawdiff.model.Conflict` is recorded for ``lawdiff check``.
"""

from __future__ import annotations

import re

from lawdiff.model import Conflict, Edition, NavItem, SourceFile, natural_key
from lawdiff.sources.build import Draft, PageTree
from lawdiff.sources.tree import ReadTexts

# The year that orders a draft named without one after every edition.
DRAFT_YEAR = 9999


class EditionBuilder:
    def __init__(self, name: str) -> None:
        self.name = name
        self.roots: list[Draft] = []
        self.index: dict[str, Draft] = {}
        self.conflicts: list[Conflict] = []
        self.sources: list[SourceFile] = []
        self.navigation: tuple[NavItem, ...] = ()
        self.contributed: dict[int, set[str]] = {}

    def add(self, tree: PageTree) -> None:
        page = tree.page
        self.sources.append(page.source_file())
        if page.navigation and not self.navigation:
            self.navigation = tuple(NavItem(n.depth, n.title, n.address, n.path) for n in page.navigation)
        for root in tree.roots:
            self._merge(None, root, page.file)

    def _merge(self, parent: Draft | None, d: Draft, file: str) -> None:
        # The page's drafts become the edition's (no copies: a page tree is
        # merged once, after the cache has kept its own copy).
        footnotes, children = d.footnotes, d.children
        existing = self.index.get(d.address)
        if existing is None:
            existing = d
            existing.children, existing.footnotes = [], []
            self.index[d.address] = existing
            siblings = (
                self.roots if parent is None else parent.footnotes if d.kind.value == "footnote" else parent.children
            )
            siblings.append(existing)
            if parent is not None:
                self.contributed.setdefault(id(parent), set()).add(file)
        else:
            self._fields(existing, d)
            if parent is not None:
                files = self.contributed.setdefault(id(parent), set())
                files.add(file)
        for f in footnotes:
            self._merge(existing, f, file)
        for c in children:
            self._merge(existing, c, file)

    def _fields(self, into: Draft, other: Draft) -> None:
        for name in ("title", "text"):
            a, b = getattr(into, name), getattr(other, name)
            if a and b and a != b:
                self.conflicts.append(Conflict(into.address, name, into.source, other.source, a, b))
            elif b and not a:
                setattr(into, name, b)
                if name == "text":
                    into.inlines = list(other.inlines)
        if not into.label and other.label:
            into.label = other.label
        into.extra = into.extra or other.extra

    def build(self, read: ReadTexts | None = None) -> Edition:
        """The edition; ``read``: as :meth:`Draft.freeze` takes it (shared by the editions of a corpus)."""
        self._order(self.roots)
        if len({s.file for s in self.sources}) > 1:
            # Top-level clauses from several files (2017: chapter 6 from
            # artikel-45, chapter 3 from artikel-6): the edition's own order,
            # as its table of contents gives it, else by address.
            position: dict[str, int] = {}
            for i, n in enumerate(self.navigation):
                position.setdefault(n.address, i)
            self.roots.sort(key=lambda d: (position.get(d.address, len(position)), natural_key(d.address)))
        self._titles()
        clauses = tuple([d.freeze(read) for d in self.roots])
        year_m = re.match(r"\d{4}", self.name)
        # A draft named without a year (--as concept) is the newest edition.
        drafts = all(s.format.startswith("draft-") for s in self.sources)
        return Edition(
            name=self.name,
            year=int(year_m.group(0)) if year_m else DRAFT_YEAR if drafts else 0,
            clauses=clauses,
            sources=tuple(self.sources),
            navigation=self.navigation,
            conflicts=tuple(self.conflicts),
        )

    def _order(self, drafts: list[Draft]) -> None:
        for d in drafts:
            if len(self.contributed.get(id(d), ())) > 1:
                # Children from several files (a section page beside its
                # article page): put them back in label order.
                d.children.sort(key=lambda c: natural_key(c.address))
            self._order(d.children)

    def _titles(self) -> None:
        by_address = {n.address: n for n in self.navigation}
        for d in self.index.values():
            nav = by_address.get(d.address)
            if nav and not d.title and d.kind.value in ("chapter", "part", "paragraaf", "page"):
                d.title = re.sub(r"^\d+\s*[—–-]\s*", "", nav.title)
