"""Reader for Word drafts (.docx, WordprocessingML), with lxml from the zip.

The package (the main part, the parts related to it, the notes' bodies, and
the comments, headers and footers listed as furniture): see
:mod:`lawdiff.sources.draft.docx_package`.

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
* **numbering**: see :mod:`lawdiff.sources.draft.numbering`, and
  :mod:`lawdiff.sources.draft.docx_styles` for what a paragraph's style gives;
* **footnotes and endnotes** are numbered in the order of their references
  (``w:footnotePr`` in the settings gives the start and format); a custom
  mark (``w:customMarkFollows``, e.g. ``1)``) is the mark as printed, and
  its digits the number;
* **fields**: the code (``w:instrText``, ``w:fldSimple``'s ``w:instr``) is
  furniture; the result is text as shown, except for fields that show
  document facts rather than law text (page numbers, dates, file name,
  author, table of contents), whose result is furniture (see
  :mod:`lawdiff.sources.draft.docx_fields`);
* **comments**, **headers and footers**, **images**, **text boxes**,
  **embedded objects** and **equations** are furniture with a reason.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from lxml import etree

from lawdiff.errors import InputError
from lawdiff.i18n import gettext as _
from lawdiff.sources.base import Furniture, Loc
from lawdiff.sources.draft import asides
from lawdiff.sources.draft.docx_fields import FURNITURE_FIELDS, Fields, field_kind
from lawdiff.sources.draft.docx_package import (
    MC,
    WP,
    M,
    R,
    open_package,
    q,
    read_notes,
    read_part,
    side_parts,
    texts,
)
from lawdiff.sources.draft.docx_styles import Styles
from lawdiff.sources.draft.numbering import WordNumbering, format_number
from lawdiff.sources.draft.render import LABEL_BOOKMARK, Note, Para, superscript, typed_label
from lawdiff.sources.draft.zipsafe import SafeZip
from lawdiff.sources.normalize import SUPERSCRIPT_DIGITS, superscript_number

_SUPERSCRIPT_MARK = re.compile(r"^\d{1,3}\)?$")
_DIGITS = re.compile(f"[0-9]+|[{SUPERSCRIPT_DIGITS}]+")


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


class DocxReader:
    """Reads one .docx in one state (see the module docstring)."""

    def __init__(self, z: SafeZip, file: str, accepted: bool) -> None:
        self.z = z
        self.file = file
        self.accepted = accepted
        self.pkg = open_package(z, file)
        self.furniture: list[Furniture] = []
        self.changes = {"insertions": 0, "deletions": 0}
        self.fields = Fields(self.furniture)
        self.custom: Note | None = None  # a footnote whose custom mark is still to come
        self.styles = Styles(read_part(z, self.pkg, "styles"))
        self.numbering = WordNumbering(read_part(z, self.pkg, "numbering"), self.styles.numbered())
        settings = read_part(z, self.pkg, "settings")
        self.footnotes = read_notes(z, self.pkg, "footnotes", "footnote", settings, "decimal")
        self.endnotes = read_notes(z, self.pkg, "endnotes", "endnote", settings, "lowerRoman")
        self.loc = Loc(file, 0, "")

    # -- the document -----------------------------------------------------

    def paragraphs(self) -> list[Para]:
        body = self.pkg.document.find(q("body"))
        if body is None:
            raise InputError(
                _("the document has no body"), file=self.file, fix=_("open it in Word and save it as .docx again")
            )
        raws: list[_Raw] = []
        self._blocks(body, raws)
        self.furniture.extend(side_parts(self.z, self.pkg, self.file))
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
                self.furniture.append(Furniture("", self._at(len(raws)), asides.ALT_CHUNK))
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
        self.fields.paragraph_end()
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
                self._revision(el, raw, loc, shown)
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
                self.furniture.append(Furniture("".join(str(x) for x in el.itertext()), loc, asides.EQUATION))

    def _revision(self, el: etree._Element, raw: _Raw, loc: Loc, shown: bool) -> None:
        """A tracked insertion, deletion or move: read where this state keeps it, else listed as furniture."""
        tag = el.tag
        inserted = tag in (q("ins"), q("moveTo"))
        keep = inserted == self.accepted
        if shown:
            self.changes["insertions" if inserted else "deletions"] += 1
        if keep or not shown:
            self._inline(el, raw, loc, shown)
        else:
            text = "".join(texts(el))
            author = el.get(q("author"), "")
            state = "original" if inserted else "accepted"
            moved = tag in (q("moveFrom"), q("moveTo"))
            reason = asides.tracked("move" if moved else "insertion" if inserted else "deletion", author, state)
            if text.strip():
                self.furniture.append(Furniture(text, loc, reason))
            # A dropped revision still ends the fields it holds.
            self._inline(el, raw, loc, shown=False)

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
            self.furniture.append(Furniture(instr, loc, asides.FIELD_CODE))
        if field_kind(instr) in FURNITURE_FIELDS:
            text = "".join(texts(el))
            if shown and text.strip():
                self.furniture.append(Furniture(text, loc, asides.field_result(field_kind(instr))))
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
            if tag in (q("t"), q("delText")):
                if not marked:
                    self._run_text(el.text or "", sup, raw, loc, shown)
            elif tag in (q("instrText"), q("delInstrText")):
                self.fields.instr(el.text or "")
            elif tag == q("fldChar"):
                self.fields.char(el.get(q("fldCharType"), ""), loc, shown)
            elif tag in (q("tab"), q("ptab")):
                self._text(" ", raw, loc, shown)
            elif tag in (q("br"), q("cr")):
                if el.get(q("type"), "textWrapping") == "textWrapping":
                    self._text("\n", raw, loc, shown)
            elif tag == q("noBreakHyphen"):
                self._text("-", raw, loc, shown)
            elif tag == q("sym"):
                self._symbol(el, raw, loc, shown)
            elif tag in (q("footnoteReference"), q("endnoteReference")):
                if shown and not self.fields.hidden() and self._note_reference(el, raw, loc):
                    marked = True
            elif tag in (q("drawing"), q("pict"), q("object")):
                if shown:
                    self._graphic(el, loc)
            elif tag == f"{{{MC}}}AlternateContent":
                alt = _alternative(el)
                if shown:
                    self._graphic(alt, loc)
            elif tag == q("pgNum") and shown:
                self.furniture.append(Furniture("", loc, asides.PAGE_NUMBER))

    def _run_text(self, text: str, sup: bool, raw: _Raw, loc: Loc, shown: bool) -> None:
        """A ``w:t`` (or ``w:delText``) of a run in superscript or not."""
        if self.custom is not None and shown:
            # The custom mark of the footnote just referenced (a mark this
            # state drops, a deleted "1)" before an inserted "1.", is not it).
            self._custom_mark(self.custom, text, raw)
            self.custom = None
            return
        if sup and _SUPERSCRIPT_MARK.match(text):
            text = superscript(text[:-1] if text.endswith(")") else text) + ("⁾" if text.endswith(")") else "")
        self._text(text, raw, loc, shown)

    def _symbol(self, el: etree._Element, raw: _Raw, loc: Loc, shown: bool) -> None:
        """A ``w:sym``: its character, unless it is one of a symbol font's own (private use)."""
        code = el.get(q("char"), "")
        try:
            ch = chr(int(code, 16))
        except ValueError:
            ch = ""
        if ch and not 0xE000 <= ord(ch) <= 0xF8FF:
            self._text(ch, raw, loc, shown)
        elif shown:
            self.furniture.append(Furniture(code, loc, asides.SYMBOL))

    def _note_reference(self, el: etree._Element, raw: _Raw, loc: Loc) -> bool:
        """A footnote or endnote reference; whether the rest of its run's text was its custom mark."""
        self.custom = self._reference(el, raw, loc)
        after = [x.text or "" for x in el.itersiblings(q("t"), q("delText"))]
        if self.custom is not None and "".join(after):
            # The rest of the reference's run is its mark: one w:t, or one per
            # character (as LibreOffice reads it best); else the next text is
            # (see _run_text).
            self._custom_mark(self.custom, "".join(after), raw)
            self.custom = None
            return True
        return False

    def _text(self, text: str, raw: _Raw, loc: Loc, shown: bool) -> None:
        if shown and not self.fields.keeps(text):
            raw.pieces.append(text)

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
        self.fields = Fields(self.furniture)
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
            text = " ".join(" ".join(texts(p)) for box in boxes for p in box.iter(q("p")))
            self.furniture.append(Furniture(text.strip(), loc, asides.TEXT_BOX))
            return
        names = [d.get("descr") or d.get("name") or "" for d in el.iter(f"{{{WP}}}docPr")]
        if el.tag == q("object"):
            self.furniture.append(Furniture(" ".join(names), loc, asides.EMBEDDED_OBJECT))
            return
        linked = any(b.get(f"{{{R}}}link") for b in el.iter() if isinstance(b.tag, str) and b.tag.endswith("blip"))
        reason = asides.LINKED_IMAGE if linked else asides.IMAGE
        self.furniture.append(Furniture(" ".join(n for n in names if n), loc, reason))

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
            num_id, ilvl, heading, style = self.styles.props(raw.ppr)
            label = ""
            if num_id and num_id != "0":
                if ilvl is None:
                    ilvl = self.numbering.level_of_style(num_id, style) if style else 0
                label = self.numbering.label(num_id, ilvl)
            out.append(
                Para("".join(raw.pieces), self._at(raw.index), label, heading, tuple(raw.notes), raw.marked_label)
            )
        return out


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
