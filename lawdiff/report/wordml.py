"""WordprocessingML: a redline written as the parts of a .docx package, with lxml.

Every text goes into an element's text through lxml, so it is escaped by
construction; characters that XML 1.0 refuses (control characters other than
tab and line break) are replaced by U+FFFD.  A tab becomes ``w:tab`` and a
line break ``w:br``.  The package is the minimal one Word and LibreOffice
open: ``[Content_Types].xml``, ``_rels/.rels``, ``word/document.xml`` with its
relationships, ``styles.xml``, ``settings.xml`` (``w:trackRevisions``, so that
edits made on it are tracked too), ``footnotes.xml``, ``comments.xml`` and
``header1.xml`` (the document's title, out of the law text).
Zip entries have a fixed time and order: the same redline gives the same
bytes.
"""

from __future__ import annotations

import io
import re
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass

from lxml import etree

from lawdiff.diff import Op
from lawdiff.report.redline import Bit, Para, Redline, Role
from lawdiff.sources.draft.render import LABEL_BOOKMARK

Element = etree._Element

W_NS = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
R_NS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
PKG_REL_NS = "http://schemas.openxmlformats.org/package/2006/relationships"
CT_NS = "http://schemas.openxmlformats.org/package/2006/content-types"
XML_NS = "http://www.w3.org/XML/1998/namespace"
NSMAP = {"w": W_NS, "r": R_NS}

REL_DOC = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument"
REL_STYLES = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles"
REL_SETTINGS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/settings"
REL_FOOTNOTES = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/footnotes"
REL_COMMENTS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/comments"
REL_HEADER = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/header"
# The main part's relationships, in order (rId1, rId2, ...).
DOCUMENT_RELS = (
    (REL_STYLES, "styles.xml"),
    (REL_SETTINGS, "settings.xml"),
    (REL_FOOTNOTES, "footnotes.xml"),
    (REL_COMMENTS, "comments.xml"),
    (REL_HEADER, "header1.xml"),
)
HEADER_RID = f"rId{[kind for kind, _ in DOCUMENT_RELS].index(REL_HEADER) + 1}"
CT_BASE = "application/vnd.openxmlformats-officedocument.wordprocessingml"

# The paragraph styles of the redline; a reader goes by these ids.
STYLE_HEADING = "Heading{level}"  # a clause's address; level 1..9 by depth
STYLE_TITLE = "LawTitle"  # label, space, title
STYLE_TEXT = "LawText"  # label, space, text (label only where there is no title)
STYLE_LABEL = "LawLabel"  # character style of a label's runs
STYLE_DOC_TITLE = "Title"  # the document's own title, in the page header

# The language of the law text (a run's w:lang): Dutch, whatever the interface's language.
LAW_LANG = "nl-NL"
# Word's tag of each interface language (its proofing tools go by the region).
WORD_LANGS = {"en": "en-GB", "nl": "nl-NL"}

# Zip entries carry this time whatever the clock says (the zip format's
# earliest), so that the bytes depend only on the input.
ZIP_TIME = (1980, 1, 1, 0, 0, 0)

_XML_REFUSED = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def w(tag: str) -> str:
    return f"{{{W_NS}}}{tag}"


def xml_safe(text: str) -> str:
    """Text that XML 1.0 accepts: refused characters become U+FFFD."""
    return _XML_REFUSED.sub("\ufffd", text.replace("\r", "\n"))


@dataclass(frozen=True, slots=True)
class Comment:
    """A Word comment on paragraphs ``first`` to ``last`` of the redline.

    author, date: who wrote it and when (``2024-03-01T12:00:00Z``).
    text: what it says; line breaks make paragraphs.
    """

    first: int
    last: int
    author: str
    date: str
    text: str


def child(parent: Element, tag: str, **attrs: str) -> Element:
    """A new ``w:tag`` element at the end of ``parent``, with these ``w:`` attributes."""
    el = etree.SubElement(parent, w(tag))
    for k, v in attrs.items():
        el.set(w(k), v)
    return el


class _Writer:
    """Builds the parts; hands out the ids that revisions and comments share."""

    def __init__(self, author: str, date: str) -> None:
        self.author = author
        self.date = date
        self.next_id = 1

    def revision(self, parent: Element, tag: str) -> Element:
        el = child(parent, tag, id=str(self.next_id), author=self.author, date=self.date)
        self.next_id += 1
        return el

    # -- runs ---------------------------------------------------------------

    def runs(self, parent: Element, bits: Sequence[Bit], footnote_base: int) -> None:
        """Runs of ``bits`` in ``parent``; deleted and inserted ones wrapped in ``w:del`` / ``w:ins``."""
        group: list[Bit] = []
        for bit in bits:
            if group and (bit.op is not group[-1].op):
                self._group(parent, group, footnote_base)
                group = []
            group.append(bit)
        if group:
            self._group(parent, group, footnote_base)

    def _group(self, parent: Element, bits: list[Bit], footnote_base: int) -> None:
        op = bits[0].op
        holder = parent
        if op is Op.INSERT:
            holder = self.revision(parent, "ins")
        elif op is Op.DELETE:
            holder = self.revision(parent, "del")
        for bit in bits:
            if not bit.text and not bit.note:
                continue
            r = child(holder, "r")
            if bit.label or bit.note or bit.hidden:
                rpr = child(r, "rPr")
                if bit.label or bit.note:
                    child(rpr, "rStyle", val=STYLE_LABEL if bit.label else "FootnoteReference")
                if bit.hidden:
                    child(rpr, "vanish")
            if bit.note:
                # The mark as the book prints it, in the reference's own run
                # (where Word and LibreOffice take a custom mark from): Word's
                # own numbers run through the document, the book's start
                # again in each article.  One w:t per character: LibreOffice
                # (7.4) takes a longer w:t as the mark and shows it as text
                # too.
                child(r, "footnoteReference", customMarkFollows="1", id=str(footnote_base + bit.note))
                for ch in bit.text:
                    text_runs(r, ch, deleted=op is Op.DELETE)
            else:
                text_runs(r, bit.text, deleted=op is Op.DELETE)

    # -- paragraphs ---------------------------------------------------------

    def paragraph(self, body: Element, para: Para, footnote_base: int) -> Element:
        p = child(body, "p")
        ppr = child(p, "pPr")
        child(ppr, "pStyle", val=_style(para.role, para.level))
        if para.role is Role.TITLE:
            # A title is a heading (its clause's level), so that a reader
            # takes it for a title whatever its length or last sign.
            child(ppr, "outlineLvl", val=str(min(max(para.level, 1), 9) - 1))
        if para.mark is not Op.EQUAL:
            rpr = child(ppr, "rPr")
            self.revision(rpr, "ins" if para.mark is Op.INSERT else "del")
        if para.container:
            self._marked_label(p, para.bits, footnote_base)
        else:
            self.runs(p, para.bits, footnote_base)
        return p

    def _marked_label(self, p: Element, bits: Sequence[Bit], footnote_base: int) -> None:
        """A container's runs, its label inside a hidden bookmark a reader takes it from."""
        n = next((k for k, b in enumerate(bits) if not b.label), len(bits))
        if n == 0:
            self.runs(p, bits, footnote_base)
            return
        mark = str(self.next_id)
        self.next_id += 1
        child(p, "bookmarkStart", id=mark, name=f"{LABEL_BOOKMARK}{mark}")
        self.runs(p, bits[:n], footnote_base)
        child(p, "bookmarkEnd", id=mark)
        self.runs(p, bits[n:], footnote_base)


def _style(role: Role, level: int) -> str:
    if role is Role.HEADING:
        return STYLE_HEADING.format(level=min(max(level, 1), 9))
    return STYLE_TITLE if role is Role.TITLE else STYLE_TEXT


def text_runs(r: Element, text: str, deleted: bool = False) -> None:
    """The text of one run: ``w:t`` (``w:delText`` when deleted), ``w:tab`` and ``w:br``."""
    for part in re.split(r"(\t|\n)", xml_safe(text)):
        if part == "\t":
            child(r, "tab")
        elif part == "\n":
            child(r, "br")
        elif part:
            t = child(r, "delText" if deleted else "t")
            t.text = part
            if part != part.strip():
                t.set(f"{{{XML_NS}}}space", "preserve")


# ---------------------------------------------------------------------------
# The parts


def document_xml(
    redline: Redline, writer: _Writer, comments: Sequence[Comment]
) -> tuple[Element, list[tuple[int, Comment]]]:
    """``word/document.xml``, and the comments with the ids it gave them."""
    doc = etree.Element(w("document"), nsmap=NSMAP)
    body = child(doc, "body")
    # Footnote ids 0 and 1 are the separators.
    footnote_base = 1
    numbered: list[tuple[int, Comment]] = []
    starts: dict[int, list[int]] = {}
    ends: dict[int, list[int]] = {}
    for c in comments:
        cid = writer.next_id
        writer.next_id += 1
        numbered.append((cid, c))
        starts.setdefault(c.first, []).append(cid)
        ends.setdefault(c.last, []).append(cid)
    for k, para in enumerate(redline.paras):
        p = writer.paragraph(body, para, footnote_base)
        for cid in starts.get(k, []):
            p.insert(1, _comment_mark("commentRangeStart", cid))
        for cid in ends.get(k, []):
            p.append(_comment_mark("commentRangeEnd", cid))
            r = child(p, "r")
            child(child(r, "rPr"), "rStyle", val="CommentReference")
            child(r, "commentReference", id=str(cid))
    if redline.paras and redline.paras[-1].mark is not Op.EQUAL:
        # The last paragraph mark of a document cannot be inserted or
        # deleted: a plain empty paragraph ends it.
        child(child(child(body, "p"), "pPr"), "pStyle", val=STYLE_TEXT)
    sect = child(body, "sectPr")
    # The document's title stands in the page header: the body holds law text only.
    header = child(sect, "headerReference", type="default")
    header.set(f"{{{R_NS}}}id", HEADER_RID)
    child(sect, "pgSz", w="11906", h="16838")  # A4
    child(sect, "pgMar", top="1418", right="1418", bottom="1418", left="1418", header="709", footer="709", gutter="0")
    return doc, numbered


def _comment_mark(tag: str, cid: int) -> Element:
    el = etree.Element(w(tag))
    el.set(w("id"), str(cid))
    return el


def footnotes_xml(redline: Redline, writer: _Writer) -> Element:
    root = etree.Element(w("footnotes"), nsmap=NSMAP)
    for fid, kind, mark in (("0", "separator", "separator"), ("1", "continuationSeparator", "continuationSeparator")):
        fn = child(root, "footnote", type=kind, id=fid)
        p = child(fn, "p")
        child(child(p, "pPr"), "spacing", after="0", line="240", lineRule="auto")
        child(child(p, "r"), mark)
    for number, note in enumerate(redline.notes, start=1):
        fn = child(root, "footnote", id=str(1 + number))
        p = child(fn, "p")
        child(child(p, "pPr"), "pStyle", val="FootnoteText")
        # A footnote with a custom mark has no w:footnoteRef (Word's number):
        # its label as the book prints it, a space and its text.
        writer.runs(p, note.bits, 1)
    return root


def header_xml(title: str, subtitle: str, lang: str = LAW_LANG) -> Element:
    """``word/header1.xml``: the document's title and subtitle, on every page, in ``lang`` (the interface's;
    the body, law text, is Dutch)."""
    root = etree.Element(w("hdr"), nsmap=NSMAP)
    for line, style in ((title, STYLE_DOC_TITLE), (subtitle, "Subtitle")):
        p = child(root, "p")
        child(child(p, "pPr"), "pStyle", val=style)
        if line:
            r = child(p, "r")
            child(child(r, "rPr"), "lang", val=lang)
            text_runs(r, line)
    return root


def comments_xml(numbered: Sequence[tuple[int, Comment]]) -> Element:
    root = etree.Element(w("comments"), nsmap=NSMAP)
    for cid, c in numbered:
        initials = "".join(part[0] for part in c.author.split() if part)[:8] or "?"
        el = child(root, "comment", id=str(cid), author=xml_safe(c.author), date=c.date, initials=xml_safe(initials))
        for k, line in enumerate(c.text.split("\n") or [""]):
            p = child(el, "p")
            child(child(p, "pPr"), "pStyle", val="CommentText")
            if k == 0:
                r = child(p, "r")
                child(child(r, "rPr"), "rStyle", val="CommentReference")
                child(r, "annotationRef")
            text_runs(child(p, "r"), line)
    return root


def settings_xml() -> Element:
    root = etree.Element(w("settings"), nsmap=NSMAP)
    child(root, "trackRevisions")
    child(root, "defaultTabStop", val="567")
    pr = child(root, "footnotePr")
    child(pr, "footnote", id="0")
    child(pr, "footnote", id="1")
    child(root, "compat")
    return root


def _style_el(root: Element, kind: str, style_id: str, name: str, based_on: str = "") -> Element:
    st = child(root, "style", type=kind, styleId=style_id)
    child(st, "name", val=name)
    if based_on:
        child(st, "basedOn", val=based_on)
    if kind == "paragraph":
        child(st, "qFormat")
    return st


def word_lang(code: str) -> str:
    """Word's tag of an interface language (``nl`` -> ``nl-NL``)."""
    return WORD_LANGS.get(code, code)


def styles_xml(lang: str = LAW_LANG) -> Element:
    """``word/styles.xml``; ``lang``: the language of the document's text where a run does not say
    (the redline's body is law text: Dutch)."""
    root = etree.Element(w("styles"), nsmap=NSMAP)
    defaults = child(root, "docDefaults")
    rpr = child(child(defaults, "rPrDefault"), "rPr")
    child(rpr, "rFonts", ascii="Liberation Serif", hAnsi="Liberation Serif", cs="Liberation Serif")
    child(rpr, "sz", val="22")
    child(rpr, "lang", val=lang)
    child(child(child(defaults, "pPrDefault"), "pPr"), "spacing", after="120")
    normal = _style_el(root, "paragraph", "Normal", "Normal")
    normal.set(w("default"), "1")
    for level in range(1, 10):
        st = _style_el(root, "paragraph", f"Heading{level}", f"heading {level}", "Normal")
        child(st, "next", val=STYLE_TEXT)
        ppr = child(st, "pPr")
        child(ppr, "keepNext")
        child(ppr, "spacing", before="240" if level <= 2 else "160", after="40")
        child(ppr, "outlineLvl", val=str(level - 1))
        srpr = child(st, "rPr")
        child(srpr, "rFonts", ascii="Liberation Sans", hAnsi="Liberation Sans", cs="Liberation Sans")
        child(srpr, "b")
        child(srpr, "color", val="2F5496")
        child(srpr, "sz", val=str(max(18, 28 - 2 * level)))
    st = _style_el(root, "paragraph", STYLE_TITLE, "Law Title", "Normal")
    child(child(st, "pPr"), "keepNext")
    child(child(st, "rPr"), "b")
    _style_el(root, "paragraph", STYLE_TEXT, "Law Text", "Normal")
    st = _style_el(root, "paragraph", STYLE_DOC_TITLE, "Title", "Normal")
    child(child(st, "rPr"), "sz", val="36")
    st = _style_el(root, "paragraph", "Subtitle", "Subtitle", "Normal")
    child(child(st, "rPr"), "i")
    st = _style_el(root, "paragraph", "FootnoteText", "footnote text", "Normal")
    child(child(st, "rPr"), "sz", val="18")
    st = _style_el(root, "paragraph", "CommentText", "annotation text", "Normal")
    child(child(st, "rPr"), "sz", val="20")
    st = _style_el(root, "character", STYLE_LABEL, "Law Label")
    child(child(st, "rPr"), "b")
    st = _style_el(root, "character", "FootnoteReference", "footnote reference")
    child(child(st, "rPr"), "vertAlign", val="superscript")
    st = _style_el(root, "character", "CommentReference", "annotation reference")
    child(child(st, "rPr"), "sz", val="16")
    return root


def content_types_xml() -> Element:
    root = etree.Element(f"{{{CT_NS}}}Types", nsmap={None: CT_NS})  # type: ignore[dict-item]
    for ext, ct in (("rels", "application/vnd.openxmlformats-package.relationships+xml"), ("xml", "application/xml")):
        etree.SubElement(root, f"{{{CT_NS}}}Default", Extension=ext, ContentType=ct)
    for part, ct in (
        ("/word/document.xml", f"{CT_BASE}.document.main+xml"),
        ("/word/styles.xml", f"{CT_BASE}.styles+xml"),
        ("/word/settings.xml", f"{CT_BASE}.settings+xml"),
        ("/word/footnotes.xml", f"{CT_BASE}.footnotes+xml"),
        ("/word/comments.xml", f"{CT_BASE}.comments+xml"),
        ("/word/header1.xml", f"{CT_BASE}.header+xml"),
    ):
        etree.SubElement(root, f"{{{CT_NS}}}Override", PartName=part, ContentType=ct)
    return root


def relationships(targets: Sequence[tuple[str, str]]) -> Element:
    """A ``.rels`` part: ``rId1``, ``rId2``, ... in the order of ``targets`` (kind, target)."""
    root = etree.Element(f"{{{PKG_REL_NS}}}Relationships", nsmap={None: PKG_REL_NS})  # type: ignore[dict-item]
    for k, (kind, target) in enumerate(targets, start=1):
        etree.SubElement(root, f"{{{PKG_REL_NS}}}Relationship", Id=f"rId{k}", Type=kind, Target=target)
    return root


def xml_bytes(root: Element) -> bytes:
    """A part's bytes: UTF-8 with its declaration."""
    return etree.tostring(root, xml_declaration=True, encoding="UTF-8", standalone=True)


def package(
    redline: Redline,
    author: str,
    date: str,
    title: str,
    subtitle: str,
    comments: Sequence[Comment],
    lang: str = LAW_LANG,
) -> bytes:
    """The .docx of a redline: its tracked changes by ``author`` at ``date``, and ``comments``; ``lang``:
    the language of the title and subtitle (the interface's)."""
    writer = _Writer(author, date)
    document, numbered = document_xml(redline, writer, comments)
    footnotes = footnotes_xml(redline, writer)
    parts = [
        ("[Content_Types].xml", xml_bytes(content_types_xml())),
        ("_rels/.rels", xml_bytes(relationships([(REL_DOC, "word/document.xml")]))),
        ("word/document.xml", xml_bytes(document)),
        (
            "word/_rels/document.xml.rels",
            xml_bytes(relationships(DOCUMENT_RELS)),
        ),
        ("word/styles.xml", xml_bytes(styles_xml())),
        ("word/settings.xml", xml_bytes(settings_xml())),
        ("word/footnotes.xml", xml_bytes(footnotes)),
        ("word/comments.xml", xml_bytes(comments_xml(numbered))),
        ("word/header1.xml", xml_bytes(header_xml(title, subtitle, lang))),
    ]
    return zipped(parts)


def zipped(parts: Sequence[tuple[str, bytes]]) -> bytes:
    """A package of ``(name, bytes)`` parts, in their order, each at :data:`ZIP_TIME`: the same parts
    give the same bytes."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        for name, data in parts:
            info = zipfile.ZipInfo(name, date_time=ZIP_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            info.create_system = 3
            z.writestr(info, data)
    return buf.getvalue()
