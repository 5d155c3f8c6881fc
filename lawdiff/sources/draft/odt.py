"""Reader for OpenDocument text drafts (.odt, as LibreOffice writes them).

The package's ``mimetype`` must be ``application/vnd.oasis.opendocument.text``
(a template, ``.ott``, or a master document is refused, as is a document
with macros, ``Basic/`` or ``Scripts/``); an encrypted package
(``manifest:encryption-data``) is refused before its parts are parsed.

``content.xml``'s ``office:text`` is read paragraph by paragraph
(``text:p``, ``text:h``; in lists, sections and tables through their
content).  Numbering: see :mod:`lawdiff.sources.draft.numbering` (list
styles from ``content.xml`` and ``styles.xml``; headings numbered by the
outline style).

**Tracked changes** (``text:tracked-changes``): an insertion is marked in the
text by ``text:change-start`` ... ``text:change-end`` (it may span
paragraphs); a deletion is a ``text:change`` point whose deleted content
(paragraphs, lists) is kept in its ``text:changed-region``.  Accepted (the
default), insertions stay and deletions are left out; original, the other
way round: inserted text and paragraph breaks go (paragraphs joined), the
deleted content comes back at its point (its first paragraph joined to the
text before the point, its last to the text after it).  A joined paragraph
keeps the properties of the paragraph whose text it starts with.

Footnotes and endnotes (``text:note``) are notes, numbered by their
citation; comments (``office:annotation``), headers and footers, fields that
show document facts (page number, date, author...), frames (images, text
boxes) and tables of contents are furniture.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from lxml import etree

from lawdiff.errors import InputError
from lawdiff.sources.base import Furniture, Loc
from lawdiff.sources.draft.numbering import OdfCounter, OdfItem, OdfLevel, odf_format
from lawdiff.sources.draft.render import LABEL_BOOKMARK, Note, Para, superscript, typed_label
from lawdiff.sources.draft.zipsafe import SafeZip
from lawdiff.sources.normalize import SUPERSCRIPT_DIGITS, superscript_number

OFFICE = "urn:oasis:names:tc:opendocument:xmlns:office:1.0"
TEXT = "urn:oasis:names:tc:opendocument:xmlns:text:1.0"
STYLE = "urn:oasis:names:tc:opendocument:xmlns:style:1.0"
TABLE = "urn:oasis:names:tc:opendocument:xmlns:table:1.0"
DRAW = "urn:oasis:names:tc:opendocument:xmlns:drawing:1.0"
DC = "http://purl.org/dc/elements/1.1/"
XLINK = "http://www.w3.org/1999/xlink"
XML = "http://www.w3.org/XML/1998/namespace"
MANIFEST = "urn:oasis:names:tc:opendocument:xmlns:manifest:1.0"

MIMETYPE = "application/vnd.oasis.opendocument.text"
_REFUSED = {
    "application/vnd.oasis.opendocument.text-template": "a template (.ott)",
    "application/vnd.oasis.opendocument.text-master": "a master document (.odm)",
    "application/vnd.oasis.opendocument.text-master-template": "a master document template (.otm)",
}


def t(tag: str) -> str:
    return f"{{{TEXT}}}{tag}"


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
_DIGITS = re.compile(f"[0-9]+|[{SUPERSCRIPT_DIGITS}]+")  # a custom label's digits, "¹⁾" too


@dataclass(frozen=True, slots=True)
class _Props:
    """What a paragraph is, apart from its text."""

    loc: Loc
    heading: bool = False
    item: OdfItem | None = None
    outline: int = 0  # text:h outline level


@dataclass
class _Open:
    props: _Props
    pieces: list[str] = field(default_factory=list)
    notes: list[Note] = field(default_factory=list)
    label_from: dict[str, int] = field(default_factory=dict)
    marked_label: str = ""


# Tokens of the flattened body: ("start", _Props) ("text", str) ("note", Note) ("end", None)
# ("cstart", id) ("cend", id) ("cpoint", id)
Token = tuple[str, object]


@dataclass
class _Region:
    kind: str  # insertion, deletion, format-change
    author: str
    content: etree._Element | None


class OdtReader:
    """Reads one .odt in one state (see the module docstring)."""

    def __init__(self, z: SafeZip, file: str, accepted: bool) -> None:
        self.z = z
        self.file = file
        self.accepted = accepted
        self.furniture: list[Furniture] = []
        self.changes = {"insertions": 0, "deletions": 0}
        _check_package(z, file)
        self.content = z.xml("content.xml")
        self.styles_root = z.xml("styles.xml") if z.has("styles.xml") else None
        self.list_styles: dict[str, dict[int, OdfLevel]] = {}
        for root in (self.styles_root, self.content):
            if root is not None:
                for ls in root.iter(t("list-style")):
                    self.list_styles[ls.get(f"{{{STYLE}}}name", "")] = _levels(ls)
                for os_ in root.iter(t("outline-style")):
                    self.list_styles["\0outline"] = _levels(os_)
        self.counter = OdfCounter(self.list_styles)
        self.regions: dict[str, _Region] = {}
        self.chains = 0
        self.index = 0
        self.region_paras: dict[str, int] = {}  # tracked deletion -> its paragraphs so far
        self.note_count = {"footnote": 0, "endnote": 0}

    def paragraphs(self) -> list[Para]:
        body = self.content.find(f"{{{OFFICE}}}body/{{{OFFICE}}}text")
        if body is None:
            raise InputError(
                "the document has no text body (office:text)",
                file=self.file,
                fix="give a text document (.odt) saved by LibreOffice or another word processor",
            )
        for tc in body.iterfind(t("tracked-changes")):
            for region in tc.iterfind(t("changed-region")):
                self._region(region)
        tokens = list(self._blocks(body, None))
        self._side_parts()
        return self._number(self._resolve(tokens))

    # -- flattening ---------------------------------------------------------

    def _region(self, region: etree._Element) -> None:
        rid = region.get(t("id")) or region.get(f"{{{XML}}}id") or ""
        for kind in ("insertion", "deletion", "format-change"):
            el = region.find(t(kind))
            if el is not None:
                info = el.find(f"{{{OFFICE}}}change-info")
                creator = info.find(f"{{{DC}}}creator") if info is not None else None
                author = (creator.text or "") if creator is not None else ""
                self.regions[rid] = _Region(kind, author, el if kind == "deletion" else None)

    def _new_loc(self) -> Loc:
        self.index += 1
        return Loc(self.file, 0, f"paragraph {self.index}")

    def _region_loc(self, region: Loc) -> Loc:
        """A paragraph of a tracked deletion: a place of its own, so that each is read on its own (a heading)."""
        n = self.region_paras[region.path] = self.region_paras.get(region.path, 0) + 1
        return region if n == 1 else Loc(region.file, region.line, f"{region.path}, paragraph {n}")

    def _blocks(
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
                    self.furniture.append(Furniture(href, loc or Loc(self.file), "linked section (never fetched)"))
                yield from self._blocks(el, item, loc)
            elif tag in _INDEXES:
                text = " ".join(_text_of(p, " ") for p in el.iter(t("p")))
                self.furniture.append(Furniture(text, loc or Loc(self.file), "table of contents or index"))
            elif tag.startswith(f"{{{DRAW}}}"):
                self._frame(el, loc or Loc(self.file))
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
                        int(start) if start and start.isdigit() and first else None,
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
            item = OdfItem(0, "\0outline", outline)
        yield ("start", _Props(self._region_loc(loc) if loc else self._new_loc(), heading, item, outline))
        yield from self._inline(el)
        yield ("end", None)

    def _inline(self, parent: etree._Element) -> Iterator[Token]:
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
                yield from self._inline(el)
            if el.tail:
                yield ("text", el.tail)

    def _change(self, el: etree._Element) -> Iterator[Token]:
        rid = el.get(t("change-id"), "")
        kind = {t("change-start"): "cstart", t("change-end"): "cend", t("change"): "cpoint"}[el.tag]
        yield (kind, rid)

    # -- resolving the state ------------------------------------------------

    def _resolve(self, tokens: list[Token]) -> list[_Open]:
        out: list[_Open] = []
        cur: _Open | None = None
        dropping: list[str] = []  # insertions being dropped (original state)
        dropped_text: list[str] = []
        dropped_props: _Props | None = None
        for kind, value in self._expand(tokens):
            if kind == "cstart":
                region = self.regions.get(str(value))
                if region is not None and region.kind == "insertion":
                    self.changes["insertions"] += 1
                    if not self.accepted:
                        dropping.append(str(value))
                continue
            if kind == "cend":
                if str(value) in dropping:
                    dropping.remove(str(value))
                    if not dropping:
                        self._dropped(dropped_text, cur, "insertion", str(value))
                        dropped_text = []
                        if cur is not None and dropped_props is not None and not "".join(cur.pieces).strip():
                            cur.props = dropped_props
                        dropped_props = None
                continue
            if dropping:
                if kind == "text":
                    dropped_text.append(str(value))
                elif kind == "start" and isinstance(value, _Props):
                    dropped_props = value
                continue
            if kind == "start" and isinstance(value, _Props):
                cur = _Open(value)
            elif kind == "end":
                if cur is not None:
                    out.append(cur)
                cur = None
            elif kind == "props_if_empty" and cur is not None and isinstance(value, _Props):
                if not "".join(cur.pieces).strip():
                    cur.props = value
            elif kind == "props" and cur is not None and isinstance(value, _Props):
                cur.props = value
            elif cur is not None:
                self._content(kind, value, cur)
        if cur is not None:
            out.append(cur)
        return out

    def _expand(self, tokens: list[Token]) -> Iterator[Token]:
        """Splice deleted content in at its point (original state), or list it as furniture."""
        current: _Props | None = None
        for kind, value in tokens:
            if kind == "start" and isinstance(value, _Props):
                current = value
            if kind != "cpoint":
                yield (kind, value)
                continue
            region = self.regions.get(str(value))
            if region is None or region.kind != "deletion" or region.content is None:
                continue
            self.changes["deletions"] += 1
            loc = Loc(self.file, 0, f"change {value}")
            if self.accepted:
                text = " ".join(_text_of(p, " ") for p in region.content.iter(t("p"), t("h"))).strip()
                if text:
                    by = f" by {region.author}" if region.author else ""
                    self.furniture.append(Furniture(text, loc, f"tracked deletion{by} (not in the accepted text)"))
                continue
            inner = list(self._blocks(region.content, None, loc, current.item if current else None))
            starts = [i for i, (k, _) in enumerate(inner) if k == "start"]
            for n, (k, v) in enumerate(inner):
                if k == "start":
                    if n == starts[0]:
                        # The first deleted paragraph goes on from the text before the point.
                        yield ("props_if_empty", v)
                        continue
                    yield ("end", None)
                    yield ("start", v)
                elif k == "end":
                    continue
                else:
                    yield (k, v)
            if len(starts) > 1 and current is not None:
                # The text after the point goes on in the last deleted paragraph, as the current one.
                yield ("props", current)

    def _dropped(self, text: list[str], cur: _Open | None, what: str, rid: str) -> None:
        joined = "".join(text).strip()
        if joined:
            region = self.regions.get(rid)
            by = f" by {region.author}" if region and region.author else ""
            loc = cur.props.loc if cur is not None else Loc(self.file, 0, f"change {rid}")
            self.furniture.append(Furniture(joined, loc, f"tracked {what}{by} (not in the original text)"))

    def _content(self, kind: str, value: object, cur: _Open) -> None:
        loc = cur.props.loc
        if kind == "text":
            cur.pieces.append(str(value))
        elif kind == "label_from":
            cur.label_from[str(value)] = len("".join(cur.pieces))
        elif kind == "label_to" and (start := cur.label_from.pop(str(value), None)) is not None:
            cur.marked_label = "".join(cur.pieces)[start:]
        elif kind == "note" and isinstance(value, etree._Element):
            note = self._note(value)
            cur.pieces.append(superscript(note.number))
            cur.notes.append(note)
        elif kind == "comment" and isinstance(value, etree._Element):
            creator = value.find(f"{{{DC}}}creator")
            by = f" by {creator.text}" if creator is not None and creator.text else ""
            text = " ".join(_text_of(p).strip() for p in value.iter(t("p")))
            self.furniture.append(Furniture(text.strip(), loc, f"comment{by} (not law text)"))
        elif kind == "field" and isinstance(value, etree._Element):
            name = etree.QName(value).localname
            self.furniture.append(Furniture(_text_of(value), loc, f"field {name} (not law text)"))
        elif kind == "frame" and isinstance(value, etree._Element):
            self._frame(value, loc)

    def _note(self, el: etree._Element) -> Note:
        cls = el.get(t("note-class"), "footnote")
        self.note_count[cls] = self.note_count.get(cls, 0) + 1
        count = self.note_count[cls]
        citation = el.find(t("note-citation"))
        shown = (citation.text or "").strip() if citation is not None else ""
        custom = citation.get(t("label"), "") if citation is not None else ""
        digits = _DIGITS.search(custom or shown)
        number = (superscript_number(digits.group(0)) or digits.group(0)) if digits else str(count)
        loc = Loc(self.file, 0, f"{cls} {count}")
        body = el.find(t("note-body"))
        pieces: list[str] = []
        if body is not None:
            for p in body.iter(t("p"), t("h")):
                text = "".join(str(v) for k, v in self._inline(p) if k == "text").replace("\n", " ").strip()
                if text:
                    pieces.append(text)
        return typed_label(Note(number, " ".join(pieces), loc, custom if custom and custom != number else ""))

    def _frame(self, el: etree._Element, loc: Loc) -> None:
        boxes = list(el.iter(f"{{{DRAW}}}text-box"))
        if boxes:
            text = " ".join(_text_of(p) for b in boxes for p in b.iter(t("p")))
            self.furniture.append(Furniture(text.strip(), loc, "text box (not read as law text)"))
            return
        for img in el.iter(f"{{{DRAW}}}image"):
            href = img.get(f"{{{XLINK}}}href", "")
            linked = href and not self.z.has(href.lstrip("./"))
            self.furniture.append(Furniture(href, loc, "linked image (never fetched)" if linked else "image"))
            return
        name = el.get(f"{{{DRAW}}}name", "") or etree.QName(el).localname
        self.furniture.append(Furniture(name, loc, "drawing (not read)"))

    def _side_parts(self) -> None:
        if self.styles_root is None:
            return
        for page in self.styles_root.iter(f"{{{STYLE}}}master-page"):
            for part in page:
                name = etree.QName(part).localname
                if name.startswith(("header", "footer")):
                    text = " ".join(_text_of(p).strip() for p in part.iter(t("p"), t("h"))).strip()
                    if text:
                        where = Loc(self.file, 0, f"styles.xml {page.get(f'{{{STYLE}}}name', '')}")
                        kind = "header" if name.startswith("header") else "footer"
                        self.furniture.append(Furniture(text, where, f"page {kind} (not law text)"))

    # -- numbering ----------------------------------------------------------

    def _number(self, opens: list[_Open]) -> list[Para]:
        out: list[Para] = []
        for o in opens:
            item = o.props.item
            label = self.counter.label(item) if item is not None else ""
            out.append(Para("".join(o.pieces), o.props.loc, label, o.props.heading, tuple(o.notes), o.marked_label))
        return out


def _count(value: str | None, default: int) -> int:
    """A count attribute; a damaged one is read as the default rather than failing the whole file."""
    return int(value) if value and value.isdigit() else default


def _text_of(el: etree._Element, sep: str = "") -> str:
    return sep.join(str(x) for x in el.itertext())


def _levels(style: etree._Element) -> dict[int, OdfLevel]:
    out: dict[int, OdfLevel] = {}
    for lvl in style:
        if not isinstance(lvl.tag, str):
            continue
        name = etree.QName(lvl).localname
        try:
            level = int(lvl.get(t("level"), "1"))
        except ValueError:
            continue
        if name in ("list-level-style-bullet", "list-level-style-image"):
            out[level] = OdfLevel(bullet=True)
        elif name in ("list-level-style-number", "outline-level-style"):
            fmt = lvl.get(f"{{{STYLE}}}num-format", "")
            try:
                display = int(lvl.get(t("display-levels"), "1"))
                start = int(lvl.get(t("start-value"), "1"))
            except ValueError:
                display, start = 1, 1
            out[level] = OdfLevel(
                False,
                odf_format(fmt),
                lvl.get(f"{{{STYLE}}}num-prefix", ""),
                lvl.get(f"{{{STYLE}}}num-suffix", ""),
                display,
                start,
            )
    return out


def is_odt(z: SafeZip) -> bool:
    """Whether the zip is an OpenDocument package (of any kind: the reader refuses the wrong kinds)."""
    return z.has("mimetype") or z.has("META-INF/manifest.xml")


def _check_package(z: SafeZip, file: str) -> None:
    mimetype = z.read("mimetype").decode("ascii", "replace").strip() if z.has("mimetype") else ""
    if mimetype in _REFUSED:
        raise InputError(
            f"the file is {_REFUSED[mimetype]}, not a text document",
            file=file,
            fix="save it as an OpenDocument text document (.odt), then read that file",
        )
    if z.has("META-INF/manifest.xml"):
        manifest = z.xml("META-INF/manifest.xml")
        if manifest.find(f".//{{{MANIFEST}}}encryption-data") is not None:
            raise InputError(
                "the document is encrypted (saved with a password)",
                file=file,
                fix="save it again without a password, then read that file",
            )
        if not mimetype:
            for entry in manifest.iterfind(f"{{{MANIFEST}}}file-entry"):
                if entry.get(f"{{{MANIFEST}}}full-path") == "/":
                    mimetype = entry.get(f"{{{MANIFEST}}}media-type", "")
    if mimetype != MIMETYPE:
        raise InputError(
            f"the package is not an OpenDocument text document (mimetype {mimetype!r})",
            file=file,
            fix="give a text document (.odt)",
        )
    if any(n.startswith(("Basic/", "Scripts/")) for n in z.names()):
        raise InputError(
            "the document holds macros (Basic/ or Scripts/)",
            file=file,
            fix="save it as an .odt without macros, then read that file",
        )
    if not z.has("content.xml"):
        raise InputError("the document has no content.xml", file=file, fix="open it in LibreOffice and save it again")


def read_odt(z: SafeZip, file: str, accepted: bool) -> tuple[list[Para], list[Furniture], dict[str, int]]:
    """The paragraphs of an .odt in one state, the furniture, and the count of tracked changes."""
    reader = OdtReader(z, file, accepted)
    paras = reader.paragraphs()
    return paras, reader.furniture, reader.changes
