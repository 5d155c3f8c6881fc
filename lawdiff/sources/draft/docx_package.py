"""The package of a Word draft (.docx): its main part, the parts related to it, the notes' bodies.

``_rels/.rels`` names the main part (normally ``word/document.xml``), whose
content type must be that of a document (a macro document, ``.docm``, or a
template, ``.dotx``/``.dotm``, is refused); the main part's relationships
name the footnotes, endnotes, comments, numbering, styles, settings, headers
and footers.  Nothing is ever fetched: external relationships (linked
images, a remote template) are listed as furniture, with the comments and
the headers and footers (:func:`side_parts`).
"""

from __future__ import annotations

import posixpath
from dataclasses import dataclass

from lxml import etree

from lawdiff.errors import InputError
from lawdiff.i18n import N_
from lawdiff.i18n import gettext as _
from lawdiff.sources.base import Furniture, Loc
from lawdiff.sources.draft import asides
from lawdiff.sources.draft.zipsafe import SafeZip

W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
R = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
PR = "http://schemas.openxmlformats.org/package/2006/relationships"
CT = "http://schemas.openxmlformats.org/package/2006/content-types"
MC = "http://schemas.openxmlformats.org/markup-compatibility/2006"
WP = "http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing"
M = "http://schemas.openxmlformats.org/officeDocument/2006/math"
V = "urn:schemas-microsoft-com:vml"
_W = f"{{{W}}}"

MAIN_TYPES = {
    "application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml": "",
    "application/vnd.ms-word.document.macroEnabled.main+xml": N_("a macro-enabled document (.docm)"),
    "application/vnd.openxmlformats-officedocument.wordprocessingml.template.main+xml": N_("a template (.dotx)"),
    "application/vnd.ms-word.template.macroEnabledTemplate.main+xml": N_("a macro-enabled template (.dotm)"),
}
_OFFICE_DOCUMENT = "/officeDocument"


def q(tag: str) -> str:
    return f"{_W}{tag}"


def int_value(value: str | None, default: int = 0) -> int:
    try:
        return int(value or default)
    except ValueError:
        return default


def texts(el: etree._Element) -> list[str]:
    """The text of every w:t and w:delText under ``el``."""
    return [t.text or "" for t in el.iter(q("t"), q("delText"))]


@dataclass
class Package:
    """The parts of a .docx that the reader needs (see :func:`open_package`)."""

    main: str
    document: etree._Element
    parts: dict[str, str]  # relationship type tail -> part name
    headers: list[tuple[str, str]]  # (part, "header" / "footer")
    external: list[tuple[str, str, str]]  # (rels part, type tail, target)


def _rels(z: SafeZip, rels: str) -> list[tuple[str, str, str]]:
    """(type, target, mode) of a relationships part, or [] when there is none."""
    if not z.has(rels):
        return []
    root = z.xml(rels)
    return [
        (r.get("Type", ""), r.get("Target", ""), r.get("TargetMode", "Internal"))
        for r in root.iterfind(f"{{{PR}}}Relationship")
    ]


def _content_type(z: SafeZip, part: str) -> str:
    if not z.has("[Content_Types].xml"):
        return ""
    root = z.xml("[Content_Types].xml")
    for o in root.iterfind(f"{{{CT}}}Override"):
        if o.get("PartName", "").lstrip("/") == part:
            return o.get("ContentType", "")
    ext = part.rsplit(".", 1)[-1].lower()
    for d in root.iterfind(f"{{{CT}}}Default"):
        if d.get("Extension", "").lower() == ext:
            return d.get("ContentType", "")
    return ""


def is_docx(z: SafeZip) -> bool:
    """Whether the zip is a WordprocessingML package (of any kind: the reader refuses the wrong kinds)."""
    return z.has("[Content_Types].xml") and any(n.startswith("word/") for n in z.names())


def open_package(z: SafeZip, file: str) -> Package:
    """Find the main part and its related parts, refusing macros and templates."""
    main = ""
    for typ, target, mode in _rels(z, "_rels/.rels"):
        if typ.endswith(_OFFICE_DOCUMENT) and mode != "External":
            main = target.lstrip("/")
            break
    if not main:
        main = "word/document.xml"
    if not z.has(main):
        raise InputError(
            _("the package has no main document part"), file=file, fix=_("open it in Word and save it as .docx again")
        )
    ctype = _content_type(z, main)
    kind = MAIN_TYPES.get(ctype)
    if kind is None:
        raise InputError(
            _("the main part is not a Word document (content type {ctype!r})").format(ctype=ctype),
            file=file,
            fix=_("give a .docx document"),
        )
    if kind or any(n.lower().endswith("vbaproject.bin") for n in z.names()):
        raise InputError(
            _("the file is {kind}, not a plain .docx document").format(
                kind=_(kind) if kind else _("a document with macros (vbaProject.bin)")
            ),
            file=file,
            fix=_("save it as a Word document (.docx) without macros, then read that file"),
        )
    base = posixpath.dirname(main)
    rels_name = posixpath.join(base, "_rels", posixpath.basename(main) + ".rels")
    parts: dict[str, str] = {}
    headers: list[tuple[str, str]] = []
    external: list[tuple[str, str, str]] = []
    for typ, target, mode in _rels(z, rels_name):
        tail = typ.rsplit("/", 1)[-1]
        if mode == "External":
            continue
        name = posixpath.normpath(posixpath.join(base, target)) if not target.startswith("/") else target[1:]
        if tail in ("header", "footer"):
            headers.append((name, tail))
        else:
            parts.setdefault(tail, name)
    for rels in z.names():
        if rels.endswith(".rels"):
            for typ, target, mode in _rels(z, rels):
                if mode == "External":
                    external.append((rels, typ.rsplit("/", 1)[-1], target))
    return Package(main, z.xml(main), parts, headers, external)


def read_part(z: SafeZip, pkg: Package, tail: str) -> etree._Element | None:
    """The part of relationship type ``tail`` (``styles``, ``numbering``...), or None where there is none."""
    name = pkg.parts.get(tail)
    if name is None or not z.has(name):
        return None
    return z.xml(name)


@dataclass
class Notes:
    """The footnotes or endnotes of the document and how they are numbered."""

    kind: str  # "footnote" or "endnote"
    bodies: dict[str, etree._Element]
    fmt: str = "decimal"
    start: int = 1
    count: int = 0


def read_notes(z: SafeZip, pkg: Package, tail: str, kind: str, settings: etree._Element | None, fmt: str) -> Notes:
    """The bodies of the footnotes or endnotes, and their number format and start (``w:footnotePr``)."""
    bodies: dict[str, etree._Element] = {}
    root = read_part(z, pkg, tail)
    if root is not None:
        for n in root.iterfind(q(kind)):
            if n.get(q("type"), "normal") == "normal":
                bodies[n.get(q("id"), "")] = n
    notes = Notes(kind, bodies, fmt)
    pr = settings.find(q(f"{kind}Pr")) if settings is not None else None
    if pr is not None:
        if (f := pr.find(q("numFmt"))) is not None:
            notes.fmt = f.get(q("val"), fmt)
        if (s := pr.find(q("numStart"))) is not None:
            notes.start = int_value(s.get(q("val")), 1)
    return notes


def side_parts(z: SafeZip, pkg: Package, file: str) -> list[Furniture]:
    """The comments, the page headers and footers, and the external relationships, as furniture."""
    furniture: list[Furniture] = []
    comments = read_part(z, pkg, "comments")
    if comments is not None:
        for c in comments.iterfind(q("comment")):
            author = c.get(q("author"), "")
            text = " ".join(t for p in c.iter(q("p")) if (t := "".join(texts(p)).strip()))
            loc = Loc(file, 0, f"comment {c.get(q('id'), '')}")
            furniture.append(Furniture(text, loc, asides.comment(author)))
    for part, kind in pkg.headers:
        if not z.has(part):
            continue
        root = z.xml(part)
        text = " ".join(t for p in root.iter(q("p")) if (t := "".join(texts(p)).strip()))
        if text:
            furniture.append(Furniture(text, Loc(file, 0, part), asides.page_part(kind)))
    for rels, tail, target in pkg.external:
        furniture.append(Furniture(target, Loc(file, 0, rels), asides.external(tail)))
    return furniture
