"""Reader for OpenDocument text drafts (.odt, as LibreOffice writes them).

The package's checks and the page headers and footers: see
:mod:`lawdiff.sources.draft.odt_package`.  ``content.xml``'s ``office:text``
is flattened into tokens paragraph by paragraph (``text:p``, ``text:h``; in
lists, sections and tables through their content): see
:mod:`lawdiff.sources.draft.odt_tokens`; this module resolves them for the
state asked for.  Numbering: see :mod:`lawdiff.sources.draft.numbering` (list
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
from lawdiff.i18n import gettext as _
from lawdiff.sources.base import Furniture, Loc
from lawdiff.sources.draft import asides
from lawdiff.sources.draft.numbering import OdfCounter, odf_list_styles
from lawdiff.sources.draft.odt_package import DC, OFFICE, XML, check_package, side_parts, t, text_of
from lawdiff.sources.draft.odt_tokens import Flattener, Props, Token
from lawdiff.sources.draft.render import Note, Para, superscript, typed_label
from lawdiff.sources.draft.zipsafe import SafeZip
from lawdiff.sources.normalize import SUPERSCRIPT_DIGITS, superscript_number

_DIGITS = re.compile(f"[0-9]+|[{SUPERSCRIPT_DIGITS}]+")  # a custom label's digits, "¹⁾" too


@dataclass
class _Open:
    props: Props
    pieces: list[str] = field(default_factory=list)
    notes: list[Note] = field(default_factory=list)
    label_from: dict[str, int] = field(default_factory=dict)
    marked_label: str = ""


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
        check_package(z, file)
        self.content = z.xml("content.xml")
        self.styles_root = z.xml("styles.xml") if z.has("styles.xml") else None
        self.list_styles = odf_list_styles(self.styles_root, self.content)
        self.counter = OdfCounter(self.list_styles)
        self.regions: dict[str, _Region] = {}
        self.tokens = Flattener(z, file, self.furniture)
        self.note_count = {"footnote": 0, "endnote": 0}

    def paragraphs(self) -> list[Para]:
        body = self.content.find(f"{{{OFFICE}}}body/{{{OFFICE}}}text")
        if body is None:
            raise InputError(
                _("the document has no text body (office:text)"),
                file=self.file,
                fix=_("give a text document (.odt) saved by LibreOffice or another word processor"),
            )
        for tc in body.iterfind(t("tracked-changes")):
            for region in tc.iterfind(t("changed-region")):
                self._region(region)
        tokens = list(self.tokens.blocks(body, None))
        self.furniture.extend(side_parts(self.styles_root, self.file))
        return self._number(self._resolve(tokens))

    def _region(self, region: etree._Element) -> None:
        rid = region.get(t("id")) or region.get(f"{{{XML}}}id") or ""
        for kind in ("insertion", "deletion", "format-change"):
            el = region.find(t(kind))
            if el is not None:
                info = el.find(f"{{{OFFICE}}}change-info")
                creator = info.find(f"{{{DC}}}creator") if info is not None else None
                author = (creator.text or "") if creator is not None else ""
                self.regions[rid] = _Region(kind, author, el if kind == "deletion" else None)
                return
        # ODF knows these three kinds only; a region of another kind (or none)
        # cannot be accepted or undone, and ignoring it would keep or drop its
        # words without a word in the original state.
        found = next((etree.QName(c).localname for c in region if isinstance(c.tag, str)), "nothing")
        raise self._unresolvable(
            rid,
            _(
                "a tracked change of a kind lawdiff does not know ({found}; ODF has insertion, deletion, format-change)"
            ).format(found=found),
        )

    def _known(self, rid: str) -> _Region:
        """The region a change mark names: a mark whose region is missing cannot be accepted or undone."""
        region = self.regions.get(rid)
        if region is None:
            raise self._unresolvable(
                rid,
                _(
                    "a tracked change mark names the change {rid!r}, which the document's tracked changes do not hold"
                ).format(rid=rid),
            )
        return region

    def _unresolvable(self, rid: str, what: str) -> InputError:
        """A tracked change that cannot be accepted or undone: resolved in the word processor, it can."""
        return InputError(
            what,
            file=self.file,
            place=_("content.xml, tracked change {rid!r}").format(rid=rid),
            fix=_("accept or reject the tracked changes in LibreOffice (Edit > Track Changes) and save again"),
        )

    # -- resolving the state ------------------------------------------------

    def _resolve(self, tokens: list[Token]) -> list[_Open]:
        out: list[_Open] = []
        cur: _Open | None = None
        dropping: list[str] = []  # insertions being dropped (original state)
        dropped_text: list[str] = []
        dropped_props: Props | None = None
        for kind, value in self._expand(tokens):
            if kind == "cstart":
                region = self._known(str(value))
                if region.kind == "insertion":
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
                elif kind == "start" and isinstance(value, Props):
                    dropped_props = value
                continue
            if kind == "start" and isinstance(value, Props):
                cur = _Open(value)
            elif kind == "end":
                if cur is not None:
                    out.append(cur)
                cur = None
            elif kind == "props_if_empty" and cur is not None and isinstance(value, Props):
                if not "".join(cur.pieces).strip():
                    cur.props = value
            elif kind == "props" and cur is not None and isinstance(value, Props):
                cur.props = value
            elif cur is not None:
                self._content(kind, value, cur)
        if cur is not None:
            out.append(cur)
        return out

    def _expand(self, tokens: list[Token]) -> Iterator[Token]:
        """Splice deleted content in at its point (original state), or list it as furniture."""
        current: Props | None = None
        for kind, value in tokens:
            if kind == "start" and isinstance(value, Props):
                current = value
            if kind != "cpoint":
                yield (kind, value)
                continue
            region = self._known(str(value))
            if region.kind != "deletion" or region.content is None:
                continue
            self.changes["deletions"] += 1
            loc = Loc(self.file, 0, f"change {value}")
            if self.accepted:
                text = " ".join(text_of(p, " ") for p in region.content.iter(t("p"), t("h"))).strip()
                if text:
                    self.furniture.append(Furniture(text, loc, asides.tracked("deletion", region.author, "accepted")))
                continue
            inner = list(self.tokens.blocks(region.content, None, loc, current.item if current else None))
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
            author = region.author if region else ""
            loc = cur.props.loc if cur is not None else Loc(self.file, 0, f"change {rid}")
            self.furniture.append(Furniture(joined, loc, asides.tracked(what, author, "original")))

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
            author = creator.text if creator is not None and creator.text else ""
            text = " ".join(text_of(p).strip() for p in value.iter(t("p")))
            self.furniture.append(Furniture(text.strip(), loc, asides.comment(author)))
        elif kind == "field" and isinstance(value, etree._Element):
            name = etree.QName(value).localname
            self.furniture.append(Furniture(text_of(value), loc, asides.odf_field(name)))
        elif kind == "frame" and isinstance(value, etree._Element):
            self.tokens.frame(value, loc)

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
                text = "".join(str(v) for k, v in self.tokens.inline(p) if k == "text").replace("\n", " ").strip()
                if text:
                    pieces.append(text)
        return typed_label(Note(number, " ".join(pieces), loc, custom if custom and custom != number else ""))

    # -- numbering ----------------------------------------------------------

    def _number(self, opens: list[_Open]) -> list[Para]:
        out: list[Para] = []
        for o in opens:
            item = o.props.item
            label = self.counter.label(item) if item is not None else ""
            out.append(Para("".join(o.pieces), o.props.loc, label, o.props.heading, tuple(o.notes), o.marked_label))
        return out


def read_odt(z: SafeZip, file: str, accepted: bool) -> tuple[list[Para], list[Furniture], dict[str, int]]:
    """The paragraphs of an .odt in one state, the furniture, and the count of tracked changes."""
    reader = OdtReader(z, file, accepted)
    paras = reader.paragraphs()
    return paras, reader.furniture, reader.changes
