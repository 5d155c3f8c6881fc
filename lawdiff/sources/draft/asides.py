"""Why a draft reader set a piece of a document aside, in words for ``check``.

What a .docx, .odt or typed draft holds besides its law text (a tracked deletion in the accepted text,
a comment, a header, a field, an image) is furniture with a reason, and each becomes a page note
(:func:`lawdiff.sources.draft.set_aside`) that ``check`` lists.  The reasons are
:class:`~lawdiff.i18n.said.Said`: English as before, said in the reader's language where shown.
"""

from __future__ import annotations

from lawdiff.i18n import N_
from lawdiff.i18n.said import Said

ALT_CHUNK = Said(N_("embedded document part (altChunk, not read)"))
EQUATION = Said(N_("equation (not read)"))
FIELD_CODE = Said(N_("field code"))
PAGE_NUMBER = Said(N_("page number"))
SYMBOL = Said(N_("symbol in a symbol font (not read)"))
TEXT_BOX = Said(N_("text box (not read as law text)"))
EMBEDDED_OBJECT = Said(N_("embedded object (not read)"))
# Translators: a picture in a draft, set aside (not law text).
IMAGE = Said(N_("image"))
LINKED_IMAGE = Said(N_("linked image (never fetched)"))
LINKED_SECTION = Said(N_("linked section (never fetched)"))
INDEX = Said(N_("table of contents or index"))
DRAWING = Said(N_("drawing (not read)"))
DRAFT_TITLE = Said(N_("draft title"))
# The clause address headings lawdiff's redline writes before each clause (``45C4(b)``).
ADDRESS_HEADING = Said(N_("clause address heading (derived, not law text)"))

# Translators: in "tracked insertion by {author} (not in the accepted text)": the text a draft is read as.
_TEXTS = {"accepted": Said(N_("the accepted text")), "original": Said(N_("the original text"))}
_CHANGES = {"insertion": Said(N_("tracked insertion")), "deletion": Said(N_("tracked deletion"))}
_PAGE_PARTS = {"header": Said(N_("page header (not law text)")), "footer": Said(N_("page footer (not law text)"))}


def tracked(change: str, author: str, state: str) -> Said:
    """A tracked change (``change``: "insertion", "deletion" or "move") that ``author`` (or nobody named) made, and
    that the text the draft is read as (``state``: "accepted" or "original") does not hold."""
    text: str = _TEXTS.get(state, state)
    if change == "move":
        if author:
            # Translators: {text}: "the accepted text" or "the original text".
            return Said(
                N_("tracked move by {author} (the moved text stands at its other place in {text})"),
                author=author,
                text=text,
            )
        return Said(N_("tracked move (the moved text stands at its other place in {text})"), text=text)
    what: str = _CHANGES.get(change, change)
    if author:
        # Translators: {change}: "tracked insertion" or "tracked deletion"; {text}: "the accepted text" or "the
        # original text".
        return Said(N_("{change} by {author} (not in {text})"), change=what, author=author, text=text)
    return Said(N_("{change} (not in {text})"), change=what, text=text)


def comment(author: str) -> Said:
    """A comment, by ``author`` (or nobody named)."""
    if author:
        return Said(N_("comment by {author} (not law text)"), author=author)
    return Said(N_("comment (not law text)"))


def field_result(kind: str) -> Said:
    """What a field of ``kind`` (Word's field code: PAGE, DATE) shows."""
    return Said(N_("field result ({kind}, not law text)"), kind=kind)


def odf_field(name: str) -> Said:
    """An ODF field (its element's name: page-number, date)."""
    return Said(N_("field {name} (not law text)"), name=name)


def page_part(kind: str) -> Said:
    """A page header or footer (``kind``: "header" or "footer")."""
    return _PAGE_PARTS.get(kind) or Said(N_("page {kind} (not law text)"), kind=kind)


def external(kind: str) -> Said:
    """A document's relationship to something outside it (``kind``: its type, as the package names it: image,
    hyperlink), never fetched."""
    return Said(N_("external {kind} (never fetched)"), kind=kind)


def aside(reason: str, text: str) -> Said:
    """The page note of one piece set aside: its reason and its text (quoted as JSON)."""
    return Said(N_("set aside, {reason}: {text}"), reason=reason, text=text)


def address_headings(n: int) -> Said:
    """The page note of the ``n`` clause address headings of a redline, given at the first."""
    return Said(N_("set aside, {n} clause address heading (derived, not law text), the first here"), n=n)
