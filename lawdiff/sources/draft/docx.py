"""Reader for Word drafts (.docx, WordprocessingML), with lxml from the zip.

The package: ``_rels/.rels`` names the main part (normally
``word/document.xml``), whose content type must be that of a document
(a macro document, ``.docm``, or a template, ``.dotx``/``.dotm``, is
refused); the main part's relationships name the footnotes, endnotes,
comments, numbering, styles, settings, headers and footers.  Nothing is ever
fetched: external relationships (linked images, a remote template) are
listed as furniture.

The body is read paragraph by paragraph (in tables cell by cell, in content
controls and custom XML through their content):

* **tracked changes** are resolved for the state asked for: ``accepted``
  (the default: ``w:ins`` and ``w:moveTo`` kept, ``w:del`` and
  ``w:moveFrom`` dropped) or ``original`` (the other way round, ``w:delText``
  read as text, and the old paragraph properties of ``w:pPrChange``).  A
  paragraph mark that is deleted (``w:pPr/w:rPr/w:del``; ``w:ins`` in the
  original) joins the paragraph to the next one, which keeps its own
  properties, as Word does when it accepts the change.  What a state leaves
  out is listed as furniture, with its author;
* **numbering**: see :mod:`lawdiff.sources.draft.numbering`;
* **footnotes and endnotes** are numbered in the order of their references
  (``w:footnotePr`` in the settings gives the start and format); a custom
  mark (``w:customMarkFollows``, e.g. ``1)``) is the mark as printed, and
  its digits the number;
* **fields**: the code (``w:instrText``, ``w:fldSimple``'s ``w:instr``) is
  furniture; the result is text as shown, except for fields that show
  document facts rather than law text (page numbers, dates, file name,
  author, table of contents), whose result is furniture;
* **comments**, **headers and footers**, **images**, **text boxes**,
  **embedded objects** and **equations** are furniture with a reason.
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass, field

from lxml import etree

from lawdiff.errors import InputError
from lawdiff.sources.base import Furniture, Loc
from lawdiff.sources.draft.numbering import WordNumbering, format_number
from lawdiff.sources.draft.render import LABEL_BOOKMARK, Note, Para, superscript, typed_label
from lawdiff.sources.draft.zipsafe import SafeZip
from lawdiff.sources.normalize import SUPERSCRIPT_DIGITS, superscript_number

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
    "application/vnd.ms-word.document.macroEnabled.main+xml": "a macro-enabled document (.docm)",
    "application/vnd.openxmlformats-officedocument.wordprocessingml.template.main+xml": "a template (.dotx)",
    "application/vnd.ms-word.template.macroEnabledTemplate.main+xml": "a macro-enabled template (.dotm)",
}
_OFFICE_DOCUMENT = "/officeDocument"

# Fields whose result shows a fact of the document, not law text.
FURNITURE_FIELDS = frozenset(
    (
        "PAGE",
        "NUMPAGES",
        "SECTIONPAGES",
        "SECTION",
        "DATE",
        "TIME",
        "CREATEDATE",
        "SAVEDATE",
        "PRINTDATE",
        "EDITTIME",
        "FILENAME",
        "FILESIZE",
        "AUTHOR",
        "LASTSAVEDBY",
        "USERNAME",
        "USERINITIALS",
        "USERADDRESS",
        "TOC",
        "TOA",
        "INDEX",
        "PAGEREF",
        "XE",
        "TC",
        "RD",
        "TA",
        "DOCPROPERTY",
        "DOCVARIABLE",
        "NUMWORDS",
        "NUMCHARS",
        "REVNUM",
        "TEMPLATE",
        "INFO",
        "COMMENTS",
        "KEYWORDS",
        "SUBJECT",
        "TITLE",
    )
)
_HEADING_STYLE = re.compile(r"^(?:heading|kop|titel|title|berschrift|überschrift)\s*\d*$", re.IGNORECASE)
_SUPERSCRIPT_MARK = re.compile(r"^\d{1,3}\)?$")
_DIGITS = re.compile(f"[0-9]+|[{SUPERSCRIPT_DIGITS}]+")


def q(tag: str) -> str:
    return f"{_W}{tag}"


@dataclass
class _Style:
    name: str = ""
    based_on: str = ""
    num_id: str | None = None
    ilvl: int | None = None
    outline: int | None = None


@dataclass
class _Raw:
    """A body paragraph as read, before paragraph marks join and numbering."""

    index: int
    pieces: list[str] = field(default_factory=list)
    notes: list[Note] = field(default_factory=list)
    ppr: etree._Element | None = None
    joins_next: bool = False
    marked_label: str = ""  # the text inside a LABEL_BOOKMARK bookmark
    label_from: dict[str, int] = field(default_factory=dict)  # open label bookmarks: id -> offset

    @property
    def loc_path(self) -> str:
        return f"paragraph {self.index}"


@dataclass
class _Field:
    instr: list[str] = field(default_factory=list)
    result: bool = False
    furniture: bool = False
    shown: list[str] = field(default_factory=list)


@dataclass
class _Notes:
    """The footnotes or endnotes of the document and how they are numbered."""

    kind: str  # "footnote" or "endnote"
    bodies: dict[str, etree._Element]
    fmt: str = "decimal"
    start: int = 1
    count: int = 0


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
            "the package has no main document part", file=file, fix="open it in Word and save it as .docx again"
        )
    ctype = _content_type(z, main)
    kind = MAIN_TYPES.get(ctype)
    if kind is None:
        raise InputError(
            f"the main part is not a Word document (content type {ctype!r})",
            file=file,
            fix="give a .docx document",
        )
    if kind or any(n.lower().endswith("vbaproject.bin") for n in z.names()):
        raise InputError(
            f"the file is {kind or 'a document with macros (vbaProject.bin)'}, not a plain .docx document",
            file=file,
            fix="save it as a Word document (.docx) without macros, then read that file",
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


class DocxReader:
    """Reads one .docx in one state (see the module docstring)."""

    def __init__(self, z: SafeZip, file: str, accepted: bool) -> None:
        self.z = z
        self.file = file
        self.accepted = accepted
        self.pkg = open_package(z, file)
        self.furniture: list[Furniture] = []
        self.changes = {"insertions": 0, "deletions": 0}
        self.fields: list[_Field] = []
        self.custom: Note | None = None  # a footnote whose custom mark is still to come
        self.styles: dict[str, _Style] = {}
        style_num: dict[str, str] = {}
        if (styles := self._part("styles")) is not None:
            self._read_styles(styles)
            style_num = {sid: s.num_id for sid, s in self.styles.items() if s.num_id}
        self.numbering = WordNumbering(self._part("numbering"), style_num)
        settings = self._part("settings")
        self.footnotes = self._notes("footnotes", "footnote", settings, "decimal")
        self.endnotes = self._notes("endnotes", "endnote", settings, "lowerRoman")
        self.loc = Loc(file, 0, "")
        self._style_cache: dict[str, tuple[str | None, int | None, bool]] = {}

    # -- parts ------------------------------------------------------------

    def _part(self, tail: str) -> etree._Element | None:
        name = self.pkg.parts.get(tail)
        if name is None or not self.z.has(name):
            return None
        return self.z.xml(name)

    def _read_styles(self, root: etree._Element) -> None:
        for st in root.iterfind(q("style")):
            if st.get(q("type"), "paragraph") != "paragraph":
                continue
            sid = st.get(q("styleId"), "")
            s = _Style()
            if (n := st.find(q("name"))) is not None:
                s.name = n.get(q("val"), "")
            if (b := st.find(q("basedOn"))) is not None:
                s.based_on = b.get(q("val"), "")
            ppr = st.find(q("pPr"))
            if ppr is not None:
                if (num := ppr.find(q("numPr"))) is not None:
                    nid = num.find(q("numId"))
                    lvl = num.find(q("ilvl"))
                    s.num_id = nid.get(q("val"), "") if nid is not None else None
                    s.ilvl = _int(lvl.get(q("val"))) if lvl is not None else None
                if (ol := ppr.find(q("outlineLvl"))) is not None:
                    s.outline = _int(ol.get(q("val")))
            self.styles[sid] = s

    def _style_props(self, sid: str) -> tuple[str | None, int | None, bool]:
        """(numId, ilvl, heading) a paragraph style gives, through its basedOn chain."""
        if sid in self._style_cache:
            return self._style_cache[sid]
        num_id: str | None = None
        ilvl: int | None = None
        heading = False
        outline: int | None = None
        seen: set[str] = set()
        cur = sid
        while cur and cur not in seen and cur in self.styles:
            seen.add(cur)
            s = self.styles[cur]
            if num_id is None and s.num_id is not None:
                num_id, ilvl = s.num_id, s.ilvl
            if outline is None and s.outline is not None:
                outline = s.outline
            heading = heading or bool(_HEADING_STYLE.match(s.name.strip()))
            cur = s.based_on
        heading = heading or (outline is not None and outline < 9)
        self._style_cache[sid] = (num_id, ilvl, heading)
        return num_id, ilvl, heading

    def _notes(self, tail: str, kind: str, settings: etree._Element | None, fmt: str) -> _Notes:
        bodies: dict[str, etree._Element] = {}
        root = self._part(tail)
        if root is not None:
            for n in root.iterfind(q(kind)):
                if n.get(q("type"), "normal") == "normal":
                    bodies[n.get(q("id"), "")] = n
        notes = _Notes(kind, bodies, fmt)
        pr = settings.find(q(f"{kind}Pr")) if settings is not None else None
        if pr is not None:
            if (f := pr.find(q("numFmt"))) is not None:
                notes.fmt = f.get(q("val"), fmt)
            if (s := pr.find(q("numStart"))) is not None:
                notes.start = _int(s.get(q("val")), 1)
        return notes

    # -- the document -----------------------------------------------------

    def paragraphs(self) -> list[Para]:
        body = self.pkg.document.find(q("body"))
        if body is None:
            raise InputError(
                "the document has no body", file=self.file, fix="open it in Word and save it as .docx again"
            )
        raws: list[_Raw] = []
        self._blocks(body, raws)
        self._side_parts()
        return self._number(self._join(raws))

    def _blocks(self, parent: etree._Element, raws: list[_Raw]) -> None:
        for el in parent:
            tag = el.tag
            if tag == q("p"):
                raw = _Raw(len(raws) + 1)
                raws.append(raw)
                self._paragraph(el, raw)
            elif tag in (q("tbl"), q("tr"), q("tc"), q("customXml"), q("sdtContent")):
                self._blocks(el, raws)
            elif tag == q("sdt"):
                content = el.find(q("sdtContent"))
                if content is not None:
                    self._blocks(content, raws)
            elif tag in (q("ins"), q("moveTo"), q("del"), q("moveFrom")):
                # Block-level revision wrappers (rare): their paragraphs carry their own marks.
                self._blocks(el, raws)
            elif tag == q("altChunk"):
                self.furniture.append(Furniture("", self._at(len(raws)), "embedded document part (altChunk, not read)"))
            elif tag == f"{{{MC}}}AlternateContent":
                self._blocks(_alternative(el), raws)

    def _at(self, index: int) -> Loc:
        return Loc(self.file, 0, f"paragraph {index}")

    def _paragraph(self, p: etree._Element, raw: _Raw) -> None:
        ppr = p.find(q("pPr"))
        effective = ppr
        if ppr is not None:
            mark = ppr.find(q("rPr"))
            if mark is not None:
                if mark.find(q("del")) is not None or mark.find(q("moveFrom")) is not None:
                    raw.joins_next = self.accepted
                if mark.find(q("ins")) is not None or mark.find(q("moveTo")) is not None:
                    raw.joins_next = not self.accepted
            change = ppr.find(q("pPrChange"))
            if change is not None and not self.accepted:
                effective = change.find(q("pPr"))
        raw.ppr = effective
        self._inline(p, raw, self._at(raw.index), shown=True)
        for f in self.fields:
            if f.furniture:
                f.shown.append(" ")  # a field result over several paragraphs (a table of contents)
        if self.custom is not None:
            # A custom mark that never came: the note keeps its number.
            raw.pieces.append(superscript(self.custom.number))
            self.custom = None

    def _inline(self, parent: etree._Element, raw: _Raw, loc: Loc, shown: bool) -> None:
        """Read the runs under ``parent`` into ``raw``; ``shown`` is False inside a revision this state drops."""
        for el in parent:
            tag = el.tag
            if tag == q("r"):
                self._run(el, raw, loc, shown)
            elif tag in (q("ins"), q("moveTo"), q("del"), q("moveFrom")):
                inserted = tag in (q("ins"), q("moveTo"))
                keep = inserted == self.accepted
                if shown:
                    self.changes["insertions" if inserted else "deletions"] += 1
                if keep or not shown:
                    self._inline(el, raw, loc, shown)
                else:
                    text = "".join(_texts(el))
                    author = el.get(q("author"), "")
                    state = "original" if inserted else "accepted"
                    by = f" by {author}" if author else ""
                    if tag in (q("moveFrom"), q("moveTo")):
                        reason = f"tracked move{by} (the moved text stands at its other place in the {state} text)"
                    else:
                        reason = f"tracked {'insertion' if inserted else 'deletion'}{by} (not in the {state} text)"
                    if text.strip():
                        self.furniture.append(Furniture(text, loc, reason))
                    # A dropped revision still ends the fields it holds.
                    self._inline(el, raw, loc, shown=False)
            elif tag in (q("hyperlink"), q("smartTag"), q("customXml"), q("dir"), q("bdo"), q("sdtContent")):
                self._inline(el, raw, loc, shown)
            elif tag == q("sdt"):
                content = el.find(q("sdtContent"))
                if content is not None:
                    self._inline(content, raw, loc, shown)
            elif tag == q("fldSimple"):
                self._simple_field(el, raw, loc, shown)
            elif tag in (q("bookmarkStart"), q("bookmarkEnd")) and shown:
                self._label_bookmark(el, raw)
            elif tag == f"{{{MC}}}AlternateContent":
                self._inline(_alternative(el), raw, loc, shown)
            elif tag in (f"{{{M}}}oMath", f"{{{M}}}oMathPara") and shown:
                self.furniture.append(Furniture("".join(str(x) for x in el.itertext()), loc, "equation (not read)"))

    def _label_bookmark(self, el: etree._Element, raw: _Raw) -> None:
        """Where lawdiff's redline marks a container's label (see :mod:`lawdiff.sources.draft.render`)."""
        bid = el.get(q("id"), "")
        if el.tag == q("bookmarkStart"):
            if el.get(q("name"), "").startswith(LABEL_BOOKMARK):
                raw.label_from[bid] = len("".join(raw.pieces))
        elif (start := raw.label_from.pop(bid, None)) is not None:
            raw.marked_label = "".join(raw.pieces)[start:]

    def _simple_field(self, el: etree._Element, raw: _Raw, loc: Loc, shown: bool) -> None:
        instr = el.get(q("instr"), "").strip()
        if shown and instr:
            self.furniture.append(Furniture(instr, loc, "field code"))
        if _field_kind(instr) in FURNITURE_FIELDS:
            text = "".join(_texts(el))
            if shown and text.strip():
                self.furniture.append(Furniture(text, loc, f"field result ({_field_kind(instr)}, not law text)"))
            self._inline(el, raw, loc, shown=False)
        else:
            self._inline(el, raw, loc, shown)

    def _run(self, r: etree._Element, raw: _Raw, loc: Loc, shown: bool) -> None:
        rpr = r.find(q("rPr"))
        sup = False
        if rpr is not None:
            va = rpr.find(q("vertAlign"))
            sup = va is not None and va.get(q("val")) == "superscript"
        marked = False  # the rest of the run's text was a custom mark
        for el in r:
            tag = el.tag
            if marked and tag in (q("t"), q("delText")):
                continue
            if tag in (q("t"), q("delText")):
                text = el.text or ""
                if self.custom is not None and shown:
                    # The custom mark of the footnote just referenced (a
                    # mark this state drops, a deleted "1)" before an
                    # inserted "1.", is not it).
                    self._custom_mark(self.custom, text, raw)
                    self.custom = None
                    continue
                if sup and _SUPERSCRIPT_MARK.match(text):
                    text = superscript(text[:-1] if text.endswith(")") else text) + ("⁾" if text.endswith(")") else "")
                self._text(text, raw, loc, shown)
            elif tag in (q("instrText"), q("delInstrText")):
                if self.fields and not self.fields[-1].result:
                    self.fields[-1].instr.append(el.text or "")
            elif tag == q("fldChar"):
                self._field_char(el.get(q("fldCharType"), ""), loc, shown)
            elif tag in (q("tab"), q("ptab")):
                self._text(" ", raw, loc, shown)
            elif tag in (q("br"), q("cr")):
                if el.get(q("type"), "textWrapping") == "textWrapping":
                    self._text("\n", raw, loc, shown)
            elif tag == q("noBreakHyphen"):
                self._text("-", raw, loc, shown)
            elif tag == q("sym"):
                code = el.get(q("char"), "")
                try:
                    ch = chr(int(code, 16))
                except ValueError:
                    ch = ""
                if ch and not 0xE000 <= ord(ch) <= 0xF8FF:
                    self._text(ch, raw, loc, shown)
                elif shown:
                    self.furniture.append(Furniture(code, loc, "symbol in a symbol font (not read)"))
            elif tag in (q("footnoteReference"), q("endnoteReference")):
                if shown and not self._hidden():
                    self.custom = self._reference(el, raw, loc)
                    after = [x.text or "" for x in el.itersiblings(q("t"), q("delText"))]
                    if self.custom is not None and "".join(after):
                        # The rest of the reference's run is its mark: one
                        # w:t, or one per character (as LibreOffice reads it
                        # best); else the next text is (see above).
                        self._custom_mark(self.custom, "".join(after), raw)
                        self.custom = None
                        marked = True
            elif tag in (q("drawing"), q("pict"), q("object")):
                if shown:
                    self._graphic(el, loc)
            elif tag == f"{{{MC}}}AlternateContent":
                alt = _alternative(el)
                if shown:
                    self._graphic(alt, loc)
            elif tag == q("pgNum") and shown:
                self.furniture.append(Furniture("", loc, "page number"))

    def _hidden(self) -> bool:
        return any(f.furniture or not f.result for f in self.fields)

    def _text(self, text: str, raw: _Raw, loc: Loc, shown: bool) -> None:
        if not shown:
            return
        for f in reversed(self.fields):
            if not f.result:
                return  # text in a field's code (rare): the code is furniture
            if f.furniture:
                f.shown.append(text)
                return
        raw.pieces.append(text)

    def _field_char(self, kind: str, loc: Loc, shown: bool) -> None:
        if kind == "begin":
            self.fields.append(_Field())
        elif kind == "separate" and self.fields:
            f = self.fields[-1]
            f.result = True
            f.furniture = _field_kind("".join(f.instr)) in FURNITURE_FIELDS
        elif kind == "end" and self.fields:
            f = self.fields.pop()
            instr = "".join(f.instr).strip()
            if shown and instr:
                self.furniture.append(Furniture(instr, loc, "field code"))
            text = "".join(f.shown)
            if shown and text.strip():
                self.furniture.append(Furniture(text, loc, f"field result ({_field_kind(instr)}, not law text)"))

    def _reference(self, el: etree._Element, raw: _Raw, loc: Loc) -> Note | None:
        notes = self.footnotes if el.tag == q("footnoteReference") else self.endnotes
        notes.count += 1
        custom = el.get(q("customMarkFollows"), "0") in ("1", "true", "on")
        number = format_number(notes.start + notes.count - 1, notes.fmt)
        body = notes.bodies.get(el.get(q("id"), ""))
        note_loc = Loc(self.file, 0, f"{notes.kind} {notes.count}")
        text = self._note_text(body, note_loc) if body is not None else ""
        note = Note(number, text, note_loc)
        if custom:
            # The mark is the text of the run that follows: see _custom_mark.
            raw.notes.append(note)
            return note
        raw.pieces.append(superscript(number))
        raw.notes.append(typed_label(note))
        return None

    def _custom_mark(self, note: Note, mark: str, raw: _Raw) -> None:
        # The digits of a custom mark are the note's number, in superscript
        # too ("¹⁾"): Word's automatic count runs through the document, the
        # printed marks start again in each article.
        digits = _DIGITS.search(mark)
        number = (superscript_number(digits.group(0)) or digits.group(0)) if digits else note.number
        index = raw.notes.index(note)
        raw.notes[index] = typed_label(Note(number, note.text, note.loc, mark.strip()))
        raw.pieces.append(superscript(number))

    def _note_text(self, body: etree._Element, loc: Loc) -> str:
        saved = self.fields
        self.fields = []
        pieces: list[str] = []
        for p in body.iter(q("p")):
            raw = _Raw(0)
            self._inline(p, raw, loc, shown=True)
            text = "".join(raw.pieces).replace("\n", " ").strip()
            if text:
                pieces.append(text)
        self.fields = saved
        return " ".join(pieces)

    def _graphic(self, el: etree._Element, loc: Loc) -> None:
        boxes = list(el.iter(q("txbxContent")))
        if boxes:
            text = " ".join(" ".join(_texts(p)) for box in boxes for p in box.iter(q("p")))
            self.furniture.append(Furniture(text.strip(), loc, "text box (not read as law text)"))
            return
        names = [d.get("descr") or d.get("name") or "" for d in el.iter(f"{{{WP}}}docPr")]
        if el.tag == q("object"):
            self.furniture.append(Furniture(" ".join(names), loc, "embedded object (not read)"))
            return
        linked = any(b.get(f"{{{R}}}link") for b in el.iter() if isinstance(b.tag, str) and b.tag.endswith("blip"))
        reason = "linked image (never fetched)" if linked else "image"
        self.furniture.append(Furniture(" ".join(n for n in names if n), loc, reason))

    def _side_parts(self) -> None:
        comments = self._part("comments")
        if comments is not None:
            for c in comments.iterfind(q("comment")):
                author = c.get(q("author"), "")
                text = " ".join(t for p in c.iter(q("p")) if (t := "".join(_texts(p)).strip()))
                loc = Loc(self.file, 0, f"comment {c.get(q('id'), '')}")
                by = f" by {author}" if author else ""
                self.furniture.append(Furniture(text, loc, f"comment{by} (not law text)"))
        for part, kind in self.pkg.headers:
            if not self.z.has(part):
                continue
            root = self.z.xml(part)
            text = " ".join(t for p in root.iter(q("p")) if (t := "".join(_texts(p)).strip()))
            if text:
                self.furniture.append(Furniture(text, Loc(self.file, 0, part), f"page {kind} (not law text)"))
        for rels, tail, target in self.pkg.external:
            self.furniture.append(Furniture(target, Loc(self.file, 0, rels), f"external {tail} (never fetched)"))

    # -- joins and numbering ------------------------------------------------

    def _join(self, raws: list[_Raw]) -> list[_Raw]:
        """Join each paragraph whose mark this state drops to the next one (which keeps its properties)."""
        out: list[_Raw] = []
        carry: _Raw | None = None
        for raw in raws:
            if carry is not None:
                first = carry if "".join(carry.pieces).strip() else raw
                joined = _Raw(first.index, [*carry.pieces, *raw.pieces], [*carry.notes, *raw.notes], raw.ppr)
                joined.marked_label = raw.marked_label or carry.marked_label
                # A chain: the next paragraph's own mark may drop too (a
                # split over three paragraphs, or a deleted heading between).
                joined.joins_next = raw.joins_next
                raw = joined
                carry = None
            if raw.joins_next:
                carry = raw
                continue
            out.append(raw)
        if carry is not None:
            out.append(carry)
        return out

    def _number(self, raws: list[_Raw]) -> list[Para]:
        out: list[Para] = []
        for raw in raws:
            num_id, ilvl, heading, style = self._props(raw.ppr)
            label = ""
            if num_id and num_id != "0":
                if ilvl is None:
                    ilvl = self.numbering.level_of_style(num_id, style) if style else 0
                label = self.numbering.label(num_id, ilvl)
            out.append(
                Para("".join(raw.pieces), self._at(raw.index), label, heading, tuple(raw.notes), raw.marked_label)
            )
        return out

    def _props(self, ppr: etree._Element | None) -> tuple[str | None, int | None, bool, str]:
        style = ""
        num_id: str | None = None
        ilvl: int | None = None
        outline: int | None = None
        if ppr is not None:
            if (ps := ppr.find(q("pStyle"))) is not None:
                style = ps.get(q("val"), "")
            if (num := ppr.find(q("numPr"))) is not None:
                nid = num.find(q("numId"))
                lvl = num.find(q("ilvl"))
                num_id = nid.get(q("val")) if nid is not None else None
                ilvl = _int(lvl.get(q("val"))) if lvl is not None else None
            if (ol := ppr.find(q("outlineLvl"))) is not None:
                outline = _int(ol.get(q("val")))
        s_num, s_ilvl, heading = self._style_props(style) if style else (None, None, False)
        if num_id is None:
            num_id = s_num
            if ilvl is None:
                ilvl = s_ilvl
        if outline is not None:
            heading = outline < 9
        return num_id, ilvl, heading, style


def _int(value: str | None, default: int = 0) -> int:
    try:
        return int(value or default)
    except ValueError:
        return default


def _field_kind(instr: str) -> str:
    words = instr.split()
    return words[0].upper().lstrip("\\") if words else ""


def _texts(el: etree._Element) -> list[str]:
    """The text of every w:t and w:delText under ``el``."""
    return [t.text or "" for t in el.iter(q("t"), q("delText"))]


def _alternative(el: etree._Element) -> etree._Element:
    """The one branch of an mc:AlternateContent that is read: the fallback, else the first choice."""
    fallback = el.find(f"{{{MC}}}Fallback")
    if fallback is not None:
        return fallback
    choice = el.find(f"{{{MC}}}Choice")
    return choice if choice is not None else el


def read_docx(z: SafeZip, file: str, accepted: bool) -> tuple[list[Para], list[Furniture], dict[str, int]]:
    """The paragraphs of a .docx in one state, the furniture, and the count of tracked changes."""
    reader = DocxReader(z, file, accepted)
    paras = reader.paragraphs()
    return paras, reader.furniture, reader.changes
