"""The body of an OpenDocument text draft flattened into tokens, in document order.

``office:text`` is walked block by block (``text:p``, ``text:h``; lists,
sections and tables through their content) and each paragraph's inline
content in turn, into one stream of tokens that :mod:`lawdiff.sources.draft.odt`
resolves for the state asked for: a paragraph's start (its :class:`Props`:
place, heading, list item) and end, its text, its notes, comments, fields
and frames, the marks of tracked changes.  What is read here as furniture
(linked sections, indexes, frames between paragraphs) goes to the reader's
list of furniture as it is met.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from lxml import etree

from lawdiff.sources.base import Furniture, Loc
from lawdiff.sources.draft import asides
from lawdiff.sources.draft.numbering import OUTLINE_STYLE, OdfItem
from lawdiff.sources.draft.odt_package import DRAW, OFFICE, TABLE, XLINK, XML, t, text_of
from lawdiff.sources.draft.render import LABEL_BOOKMARK
from lawdiff.sources.draft.zipsafe import SafeZip

# Fields that show a fact of the document, not law text.
_FURNITURE_FIELDS = frozenset(
    t(x)
    for x in (
        "page-number",
        "page-count",
        "page-continuation",
        "date",
        "time",
        "file-name",
        "author-name",
        "author-initials",
        "creator",
        "title",
        "subject",
        "description",
        "keywords",
        "creation-date",
        "creation-time",
        "editing-duration",
        "editing-cycles",
        "modification-date",
        "modification-time",
        "print-date",
        "print-time",
        "printed-by",
        "word-count",
        "paragraph-count",
        "character-count",
        "image-count",
        "table-count",
        "object-count",
        "chapter",
        "template-name",
        "initial-creator",
        "sender-firstname",
        "sender-lastname",
        "sender-initials",
        "sender-company",
        "user-defined",
        "database-display",
        "hidden-text",
        "hidden-paragraph",
    )
)
_INDEXES = frozenset(
    t(x)
    for x in (
        "table-of-content",
        "alphabetical-index",
        "illustration-index",
        "table-index",
        "object-index",
        "user-index",
        "bibliography",
    )
)
_SKIP = frozenset(
    t(x)
    for x in (
        "number",
        "bookmark",
        "bookmark-start",
        "bookmark-end",
        "reference-mark",
        "reference-mark-start",
        "reference-mark-end",
        "soft-page-break",
        "alphabetical-index-mark",
        "alphabetical-index-mark-start",
        "alphabetical-index-mark-end",
        "toc-mark",
        "toc-mark-start",
        "toc-mark-end",
        "user-index-mark",
        "user-index-mark-start",
        "user-index-mark-end",
        "sequence-decls",
        "variable-decls",
        "user-field-decls",
        "dde-connection-decls",
        "tracked-changes",
    )
)


@dataclass(frozen=True, slots=True)
class Props:
    """What a paragraph is, apart from its text."""

    loc: Loc
    heading: bool = False
    item: OdfItem | None = None
    outline: int = 0  # text:h outline level


# Tokens of the flattened body: ("start", Props) ("text", str) ("note", Note) ("end", None)
# ("cstart", id) ("cend", id) ("cpoint", id)
Token = tuple[str, object]


class Flattener:
    """Flattens the body, and deleted content at its point, into tokens; numbers paragraphs and lists."""

    def __init__(self, z: SafeZip, file: str, furniture: list[Furniture]) -> None:
        self.z = z
        self.file = file
        self.furniture = furniture  # the reader's
        self.chains = 0
        self.index = 0
        self.region_paras: dict[str, int] = {}  # tracked deletion -> its paragraphs so far

    def _new_loc(self) -> Loc:
        self.index += 1
        return Loc(self.file, 0, f"paragraph {self.index}")

    def _region_loc(self, region: Loc) -> Loc:
        """A paragraph of a tracked deletion: a place of its own, so that each is read on its own (a heading)."""
        n = self.region_paras[region.path] = self.region_paras.get(region.path, 0) + 1
        return region if n == 1 else Loc(region.file, region.line, f"{region.path}, paragraph {n}")

    def blocks(
        self, parent: etree._Element, item: OdfItem | None, loc: Loc | None = None, inherit: OdfItem | None = None
    ) -> Iterator[Token]:
        """Tokens of the block-level children of ``parent``.

        ``loc``: for deleted content, its place; ``inherit``: the list item at
        the point of a deletion, whose list a deleted list of the same style
        was part of.
        """
        for el in parent:
            tag = el.tag
            if tag in (t("p"), t("h")):
                yield from self._paragraph(el, item, loc)
            elif tag == t("list"):
                yield from self._list(el, item, loc, inherit)
            elif tag in (t("section"), f"{{{TABLE}}}table", f"{{{TABLE}}}table-row", f"{{{TABLE}}}table-cell",
                         f"{{{TABLE}}}table-header-rows", f"{{{TABLE}}}table-rows", f"{{{TABLE}}}table-row-group",
                         f"{{{TABLE}}}table-header-columns", f"{{{TABLE}}}table-columns"):  # fmt: skip
                if tag == t("section") and (src := el.find(t("section-source"))) is not None:
                    href = src.get(f"{{{XLINK}}}href", "")
                    self.furniture.append(Furniture(href, loc or Loc(self.file), asides.LINKED_SECTION))
                yield from self.blocks(el, item, loc)
            elif tag in _INDEXES:
                text = " ".join(text_of(p, " ") for p in el.iter(t("p")))
                self.furniture.append(Furniture(text, loc or Loc(self.file), asides.INDEX))
            elif tag.startswith(f"{{{DRAW}}}"):
                self.frame(el, loc or Loc(self.file))
            elif tag in (t("change-start"), t("change-end"), t("change")):
                yield from self._change(el)

    def _list(
        self, el: etree._Element, outer: OdfItem | None, loc: Loc | None, inherit: OdfItem | None = None
    ) -> Iterator[Token]:
        style = el.get(t("style-name")) or (outer.style if outer else "")
        if outer is None and inherit is not None and inherit.style == style and inherit.chain > 0:
            # A deleted list item: it was an item of the list it was deleted from.
            base = OdfItem(inherit.chain, style, 1, inherit.continues, inherit.continue_list, inherit.list_id)
        elif outer is None:
            self.chains += 1
            base = OdfItem(
                chain=self.chains,
                style=style,
                level=1,
                continues=el.get(t("continue-numbering")) == "true",
                continue_list=el.get(t("continue-list"), ""),
                list_id=el.get(f"{{{XML}}}id", ""),
            )
        else:
            base = OdfItem(outer.chain, style, outer.level + 1, outer.continues, outer.continue_list, outer.list_id)
        for child in el:
            if child.tag not in (t("list-item"), t("list-header")):
                continue
            start = child.get(t("start-value"))
            header = child.tag == t("list-header")
            first = True
            for sub in child:
                if sub.tag in (t("p"), t("h")):
                    item = OdfItem(
                        base.chain,
                        base.style,
                        base.level,
                        base.continues,
                        base.continue_list,
                        base.list_id,
                        _count(start, -1) if first and _count(start, -1) >= 0 else None,
                        header or not first,
                    )
                    first = False
                    yield from self._paragraph(sub, item, loc)
                elif sub.tag == t("list"):
                    first = False
                    yield from self._list(sub, base, loc)
                elif sub.tag in (t("change-start"), t("change-end"), t("change")):
                    yield from self._change(sub)

    def _paragraph(self, el: etree._Element, item: OdfItem | None, loc: Loc | None) -> Iterator[Token]:
        heading = el.tag == t("h")
        outline = _count(el.get(t("outline-level")), 1) if heading else 0
        if heading and item is None and el.get(t("is-list-header")) != "true":
            item = OdfItem(0, OUTLINE_STYLE, outline)
        yield ("start", Props(self._region_loc(loc) if loc else self._new_loc(), heading, item, outline))
        yield from self.inline(el)
        yield ("end", None)

    def inline(self, parent: etree._Element) -> Iterator[Token]:
        if parent.text:
            yield ("text", parent.text)
        for el in parent:
            tag = el.tag
            if not isinstance(tag, str):
                pass
            elif tag == t("s"):
                yield ("text", " " * min(_count(el.get(t("c")), 1), 1000))
            elif tag == t("tab"):
                yield ("text", " ")
            elif tag == t("line-break"):
                yield ("text", "\n")
            elif tag == t("note"):
                yield ("note", el)
            elif tag in (t("bookmark-start"), t("bookmark-end")) and el.get(t("name"), "").startswith(LABEL_BOOKMARK):
                # lawdiff's redline marks a container's label so (see render), and LibreOffice keeps the mark.
                yield ("label_from" if tag == t("bookmark-start") else "label_to", el.get(t("name"), ""))
            elif tag in (t("change-start"), t("change-end"), t("change")):
                yield from self._change(el)
            elif tag == f"{{{OFFICE}}}annotation":
                yield ("comment", el)
            elif tag in _FURNITURE_FIELDS:
                yield ("field", el)
            elif tag.startswith(f"{{{DRAW}}}"):
                yield ("frame", el)
            elif tag in _SKIP or tag == f"{{{OFFICE}}}annotation-end":
                pass
            else:
                # text:span, text:a, text:meta, cross-references and other shown text.
                yield from self.inline(el)
            if el.tail:
                yield ("text", el.tail)

    def _change(self, el: etree._Element) -> Iterator[Token]:
        rid = el.get(t("change-id"), "")
        kind = {t("change-start"): "cstart", t("change-end"): "cend", t("change"): "cpoint"}[el.tag]
        yield (kind, rid)

    def frame(self, el: etree._Element, loc: Loc) -> None:
        boxes = list(el.iter(f"{{{DRAW}}}text-box"))
        if boxes:
            text = " ".join(text_of(p) for b in boxes for p in b.iter(t("p")))
            self.furniture.append(Furniture(text.strip(), loc, asides.TEXT_BOX))
            return
        for img in el.iter(f"{{{DRAW}}}image"):
            href = img.get(f"{{{XLINK}}}href", "")
            linked = href and not self.z.has(href.lstrip("./"))
            self.furniture.append(Furniture(href, loc, asides.LINKED_IMAGE if linked else asides.IMAGE))
            return
        name = el.get(f"{{{DRAW}}}name", "") or etree.QName(el).localname
        self.furniture.append(Furniture(name, loc, asides.DRAWING))


def _count(value: str | None, default: int) -> int:
    """A count attribute; a damaged one is read as the default rather than failing the whole file."""
    # ASCII digits, and few of them: int() refuses "²" and a number of more than 4,300 digits.
    return int(value) if value and value.isascii() and value.isdigit() and len(value) <= 9 else default
