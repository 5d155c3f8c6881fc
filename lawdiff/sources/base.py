"""The records that every source reader produces.

A reader turns one file into :class:`Page` values: page metadata plus a flat
stream of :class:`Block` values (headings, labeled blocks, paragraphs,
footnote bodies) in document order.  Nesting, addresses and references are
not the reader's business: ``lawdiff.model`` builds the clause tree from the
blocks, the same way for every format (tokens first, tree second).

Each reader also lists the page's source text as :class:`Fragment` values so
that ``lawdiff check`` can prove, independently of the parser, that the tree
accounts for all of it.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from lawdiff.frozen import slot_init
from lawdiff.model.clause import Loc, SourceFile

__all__ = ["Loc"]


class BlockKind(enum.Enum):
    """What a block is, as far as the reader can tell from the page alone."""

    CONTAINER = "container"  # chapter / part / paragraph heading
    ARTICLE = "article"  # article heading ("ARTIKEL 45 Gespeelde kaart")
    LABELED = "labeled"  # a block with its own label: "A.", "1.", "(a)", "a."
    LIST_ITEM = "list_item"  # a "- " list item without a label of its own
    PARAGRAPH = "paragraph"  # unlabeled prose
    FOOTNOTE = "footnote"  # a footnote body ("1) ...")


class LabelStyle(enum.Enum):
    """The family of a printed label; nesting is decided by family."""

    NONE = "none"
    UPPER = "upper"  # "A." sections
    NUMBER = "number"  # "1." subsections
    PAREN = "paren"  # "(a)" items
    LOWER = "lower"  # "a." items (1963)
    DASH = "dash"  # "- " list items


class InlineKind(enum.Enum):
    LINK = "link"  # a hyperlink whose target is a clause address
    FOOTNOTE_REF = "footnote_ref"  # a footnote marker, removed from the text


@slot_init
@dataclass(frozen=True, slots=True)
class Inline:
    """A marked span of a block's text.

    kind: link or footnote marker.
    start, end: offsets into ``Block.text``; a footnote marker is removed from
        the text, so its span is empty and marks where it stood.
    value: for a link the target address the reader derived from the href
        (``45E``); for a footnote marker the footnote's number (``1``).
    printed: the text as printed (link text, or the marker such as ``¹⁾``).
    """

    kind: InlineKind
    start: int
    end: int
    value: str
    printed: str


@slot_init
@dataclass(frozen=True, slots=True)
class Block:
    """One block of a page, in document order.

    kind: see :class:`BlockKind`.
    style: the label family (decides nesting).
    label: the label as printed ("A.", "1.", "(a)", "ARTIKEL 45", "1)", "!)").
    key: the label's normalized value ("A", "1", "a", "45", footnote "1").
    title: the block's title, if its label line carries one.
    text: the block's own text, normalized, footnote markers removed.
    inlines: links and footnote markers within ``text``.
    loc: where the block starts.
    extra: heading furniture kept verbatim (e.g. "Art. 41 t/m 49").
    notes: what the reader noticed (misprints read one way or another).
    """

    kind: BlockKind
    loc: Loc
    style: LabelStyle = LabelStyle.NONE
    label: str = ""
    key: str = ""
    title: str = ""
    text: str = ""
    inlines: tuple[Inline, ...] = ()
    extra: str = ""
    notes: tuple[str, ...] = ()


@slot_init
@dataclass(frozen=True, slots=True)
class Fragment:
    """A piece of source text that the tree must account for."""

    text: str
    loc: Loc


@slot_init
@dataclass(frozen=True, slots=True)
class Furniture:
    """Source text that is deliberately not law text, and why."""

    text: str
    loc: Loc
    reason: str


@dataclass(frozen=True, slots=True)
class NavEntry:
    """One entry of an edition's table of contents (the Nuxt navigation tree).

    depth: 0 for chapters and top pages, 1 for parts or articles below them...
    title: as printed ("6 — Het spelen", "Artikel 45").
    path: the site path ("/spelen/juiste-gang-van-zaken/artikel-45").
    address: the clause address it stands for ("H6", "H6.1", "45", "voorwoord").
    """

    depth: int
    title: str
    path: str
    address: str


@dataclass(frozen=True, slots=True)
class Container:
    """A chapter, part or paragraph that a page belongs to.

    kind: "chapter", "part" or "paragraph".
    address: "H6", "H6.1", "H6.3.I" or "H6.juiste-gang-van-zaken".
    label: as printed ("HVI", "PARAGRAAF I"), may be "".
    title: as printed, may be "".
    """

    kind: str
    address: str
    label: str = ""
    title: str = ""


@dataclass(frozen=True, slots=True)
class Page:
    """One page of an edition, as one file (or one page of a dump) holds it.

    file: the source file.
    format: the reader that read it ("wiki-text", "nuxt-payload", ...).
    edition: the edition's name, normally its year ("2017").
    name: the page's own name ("45", "HVI3I", "/spelen/.../artikel-45").
    printing: which printing the text was taken from, if the page says.
    containers: the chapter / part / paragraph the page's text sits in,
        outermost first.
    scope: the address the page's text starts at: "" for a page that carries
        its own article headings, "45" for an article page without a heading,
        "45C" for a section page (its body has no "C." heading), or a
        front-matter address ("voorwoord").
    lacking: the addresses of the law pages it includes that its dump does not
        hold (a MediaWiki export made without the templates): their text is
        missing, so the corpus does not hold their place.
    scope_title: the title of the scope clause when the page metadata gives it.
    scope_label: its label as the page prints it ("Artikel 45"), if any.
    blocks: the page's content.
    fragments: the page's source text, for the lossless check.
    furniture: source text that is not law text (and why).
    notes: what the reader noticed about the page as a whole, with the place, for ``check`` to list:
        text the file holds that it did not read (a second ``<text>`` in an export's revision, whose
        fragments the tree cannot place), each piece of a draft set aside (a tracked deletion).
    navigation: the edition's table of contents, if the page carries it.
    meta: other page metadata, as (key, value) pairs in source order.
    effective: for an amendment page, the date (ISO, ``2024-03-01``) from
        which its texts are in force; "" for a page of the edition itself.
    amends: for an amendment page, the articles it changes (``73``, ``89``).
    """

    file: str
    format: str
    edition: str
    name: str
    loc: Loc
    printing: str = ""
    containers: tuple[Container, ...] = ()
    scope: str = ""
    lacking: tuple[str, ...] = ()
    scope_title: str = ""
    scope_label: str = ""
    blocks: tuple[Block, ...] = ()
    fragments: tuple[Fragment, ...] = ()
    furniture: tuple[Furniture, ...] = ()
    notes: tuple[tuple[Loc, str], ...] = ()
    navigation: tuple[NavEntry, ...] = ()
    meta: tuple[tuple[str, str], ...] = ()
    effective: str = ""
    amends: tuple[str, ...] = ()

    def source_file(self) -> SourceFile:
        """What an edition keeps of the page: where it came from and the address it starts at."""
        return SourceFile(
            self.file, self.format, self.name, self.printing, dict(self.meta).get("pages", ""), self.scope, self.lacking
        )
