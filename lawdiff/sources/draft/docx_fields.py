"""The fields of a Word draft: their code is furniture, their result law text or furniture.

A complex field runs from ``w:fldChar w:fldCharType="begin"`` through its
code (``w:instrText``) to ``separate``, then its result to ``end``; fields
nest.  The code is furniture; the result is text as shown, except for fields
that show facts of the document rather than law text (page numbers, dates,
file name, author, table of contents), whose result is furniture too.
(``w:fldSimple``, a field in one element, is read by the body's walk with
:data:`FURNITURE_FIELDS` and :func:`field_kind`.)
"""

from __future__ import annotations

from dataclasses import dataclass, field

from lawdiff.sources.base import Furniture, Loc
from lawdiff.sources.draft import asides

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


@dataclass
class Field:
    instr: list[str] = field(default_factory=list)
    result: bool = False
    furniture: bool = False
    shown: list[str] = field(default_factory=list)


def field_kind(instr: str) -> str:
    words = instr.split()
    return words[0].upper().lstrip("\\") if words else ""


class Fields:
    """The complex fields open at a point of the body, innermost last."""

    def __init__(self, furniture: list[Furniture]) -> None:
        self.open: list[Field] = []
        self.furniture = furniture  # the reader's: what the fields leave out is listed there

    def char(self, kind: str, loc: Loc, shown: bool) -> None:
        """A ``w:fldChar``: a field begins, its result begins (``separate``), or it ends."""
        if kind == "begin":
            self.open.append(Field())
        elif kind == "separate" and self.open:
            f = self.open[-1]
            f.result = True
            f.furniture = field_kind("".join(f.instr)) in FURNITURE_FIELDS
        elif kind == "end" and self.open:
            f = self.open.pop()
            instr = "".join(f.instr).strip()
            if shown and instr:
                self.furniture.append(Furniture(instr, loc, asides.FIELD_CODE))
            text = "".join(f.shown)
            if shown and text.strip():
                self.furniture.append(Furniture(text, loc, asides.field_result(field_kind(instr))))

    def instr(self, text: str) -> None:
        """A piece of the innermost field's code (``w:instrText``), before its result."""
        if self.open and not self.open[-1].result:
            self.open[-1].instr.append(text)

    def hidden(self) -> bool:
        """Whether the body is inside a field's code or a result that is furniture."""
        return any(f.furniture or not f.result for f in self.open)

    def keeps(self, text: str) -> bool:
        """Whether ``text`` belongs to the open fields rather than to the law text."""
        for f in reversed(self.open):
            if not f.result:
                return True  # text in a field's code (rare): the code is furniture
            if f.furniture:
                f.shown.append(text)
                return True
        return False

    def paragraph_end(self) -> None:
        for f in self.open:
            if f.furniture:
                f.shown.append(" ")  # a field result over several paragraphs (a table of contents)
