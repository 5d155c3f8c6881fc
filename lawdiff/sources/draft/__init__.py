"""Readers for the committee's draft of a next edition: .docx, .odt, typed .txt.

A draft is an edition like any other: these readers turn a draft file into
the same :class:`~lawdiff.sources.base.Page` values the wiki and site readers
produce, and :mod:`lawdiff.sources.build` nests them the same way.  The
printed book's habits are the rules, exactly as for rendered wiki pages: each
paragraph becomes the line a reader sees on the page (its automatic number
before it) and is read by :func:`lawdiff.sources.wikitext.read_lines`
(see :mod:`lawdiff.sources.draft.render` for what heading styles add).

Formats are recognised by content: a zip whose parts are WordprocessingML
(``[Content_Types].xml``, ``word/``) or OpenDocument (``mimetype``), never by
the file's name; an OLE compound file (an encrypted .docx, an old .doc) is
recognised to say so.  A typed draft is plain text with a draft title line
(see :mod:`lawdiff.sources.draft.text`), read only where no other reader
claims the text.

The edition a draft belongs to is not in the file: in a corpus, the folder
it is in (``2027/``) gives it (``edition_hint``); standalone, the caller
names it (:func:`read_draft`, behind ``--draft FILE --as NAME``).

Tracked changes are read in one of two states (:class:`State`): ``accepted``
(the draft as it reads with all changes accepted, the default and what a
corpus reads) or ``original`` (as it was before them).

Modules: ``zipsafe`` (the zip and XML, safely), ``numbering`` (automatic
numbering), ``docx``, ``odt``, ``text`` (the formats; ``docx_package``,
``docx_styles`` and ``docx_fields`` hold the package, the paragraph styles
and the fields of a .docx, ``odt_package`` and ``odt_tokens`` the package of
an .odt and its body flattened into tokens), ``render`` (paragraphs to lines
to blocks).
"""

from __future__ import annotations

import enum
import json
import re
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from lawdiff.errors import InputError
from lawdiff.i18n import gettext as _
from lawdiff.sources.base import Furniture, Loc, Page
from lawdiff.sources.draft import text as typed
from lawdiff.sources.draft.asides import ADDRESS_HEADING, address_headings, aside

if TYPE_CHECKING:
    from lawdiff.sources.draft.render import Para

# The first bytes of a zip (.docx, .odt) and of an OLE compound file (an
# encrypted document). The package readers (lxml among them) are imported
# when a package is read: a run of wiki pages never loads them.
OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
ZIP_MAGICS = (b"PK\x03\x04", b"PK\x05\x06")

FORMAT_DOCX = "draft-docx"
FORMAT_ODT = "draft-odt"
FORMAT_TEXT = "draft-text"
FORMATS = (FORMAT_DOCX, FORMAT_ODT, FORMAT_TEXT)

__all__ = [
    "FORMATS",
    "FORMAT_DOCX",
    "FORMAT_ODT",
    "FORMAT_TEXT",
    "State",
    "edition_from_name",
    "looks_like_package",
    "looks_like_text",
    "read_draft",
    "read_package",
    "read_text",
]


class State(enum.Enum):
    """Which text of a draft with tracked changes is read."""

    ACCEPTED = "accepted"  # all changes accepted (the default)
    ORIGINAL = "original"  # as it was before the changes


# How the first bytes of a zip or an OLE file read once decoded as UTF-8 with
# replacement (what lawdiff.sources.read_file gives a sniffer).
_SNIFFS = (*(m.decode("utf-8", "replace") for m in ZIP_MAGICS), OLE_MAGIC.decode("utf-8", "replace"))
_YEAR = re.compile(r"(?<!\d)(19\d\d|20\d\d|21\d\d)(?!\d)")


def looks_like_package(head: str) -> bool:
    """Whether a file's first bytes (decoded with replacement) are those of a zip or an OLE compound file."""
    return head.startswith(_SNIFFS)


def looks_like_text(text: str) -> bool:
    """Whether text is a typed draft (a draft title line, then an article or chapter heading)."""
    return typed.looks_like(text)


def _state(state: State | str) -> State:
    try:
        return state if isinstance(state, State) else State(state)
    except ValueError:
        raise InputError(
            _("unknown draft state {state!r}").format(state=state), fix=_("give 'accepted' or 'original'")
        ) from None


def _no_edition(file: str) -> InputError:
    return InputError(
        _("cannot tell which edition this draft is (a draft does not name its edition)"),
        file=file,
        fix=_("put it in a corpus folder named after the edition (e.g. 2027/), or read it with --draft FILE --as NAME"),
    )


def read_package(path: Path, file: str, edition_hint: str = "", state: State | str = State.ACCEPTED) -> list[Page]:
    """Read a .docx or .odt draft (recognised by its parts) as one page of edition ``edition_hint``."""
    from lawdiff.sources.draft.docx import read_docx
    from lawdiff.sources.draft.docx_package import is_docx
    from lawdiff.sources.draft.odt import read_odt
    from lawdiff.sources.draft.odt_package import is_odt
    from lawdiff.sources.draft.zipsafe import SafeZip

    accepted = _state(state) is State.ACCEPTED
    try:
        with SafeZip(path, file) as z:
            if is_docx(z):
                fmt = FORMAT_DOCX
                paras, furniture, changes = read_docx(z, file, accepted)
            elif is_odt(z):
                fmt = FORMAT_ODT
                paras, furniture, changes = read_odt(z, file, accepted)
            else:
                raise InputError(
                    _("the file is a zip, but neither a Word (.docx) nor an OpenDocument text (.odt) document"),
                    file=file,
                    fix=_("give the draft as a .docx or .odt document"),
                )
    except OSError as exc:
        raise InputError(
            _("cannot read the file ({strerror})").format(strerror=exc.strerror),
            file=file,
            fix=_("check the path and its permissions"),
        ) from None
    if not edition_hint:
        raise _no_edition(file)
    return _pages(paras, furniture, changes, file, fmt, edition_hint, _state(state))


def _pages(
    paras: list[Para],
    furniture: list[Furniture],
    changes: dict[str, int],
    file: str,
    fmt: str,
    edition: str,
    state: State,
) -> list[Page]:
    """The draft's pages: one, or one per container the document opens (see :func:`read_sections`)."""
    from lawdiff.sources.draft.render import read_sections

    sections = read_sections(paras, file, Path(file).name)
    if not any(s.rendered.has_text for s in sections):
        raise InputError(
            _("the document holds no text in its {state} state").format(state=state.value)
            if any(changes.values())
            else _("the document holds no text"),
            file=file,
            fix=_(
                "give the draft with its text (an empty document, or one whose text is only in images or text "
                "boxes, cannot be read)"
            ),
        )
    meta = [("state", state.value)]
    if any(changes.values()):
        meta.append(("tracked changes", f"{changes['insertions']} insertions, {changes['deletions']} deletions"))
    return [
        Page(
            file=file,
            format=fmt,
            edition=edition,
            # A container's page: the document's name and the container's address.
            name=f"{Path(file).stem}:{s.containers[-1].address}" if s.containers else Path(file).stem,
            loc=Loc(file),
            containers=s.containers,
            blocks=tuple(s.rendered.blocks),
            fragments=tuple(s.rendered.fragments),
            # What the document holds outside its paragraphs is listed once, on the first page.
            furniture=(*s.rendered.furniture, *(furniture if k == 0 else ())),
            notes=set_aside(s.rendered.furniture, furniture if k == 0 else ()),
            meta=tuple(meta),
        )
        for k, s in enumerate(sections)
    ]


def set_aside(*furniture: Iterable[Furniture]) -> tuple[tuple[Loc, str], ...]:
    """A page note for each piece of a draft that is not read as law text, with its place and reason.

    ``check`` lists them (text and JSON): what a state of the tracked changes leaves out (a deletion in
    the accepted text), comments, headers and footers, fields, text boxes.  The text is quoted as JSON,
    so that a piece of several lines is one note.  The clause address headings a redline writes before
    each clause (derived, not written by anyone) are one note for all, at the first.
    """
    notes: list[tuple[Loc, str]] = []
    addresses: list[Furniture] = []
    for f in (f for fs in furniture for f in fs):
        if f.reason == ADDRESS_HEADING:
            addresses.append(f)
        else:
            notes.append((f.loc, aside(f.reason, json.dumps(f.text, ensure_ascii=False))))
    if addresses:
        notes.append((addresses[0].loc, address_headings(len(addresses))))
    return tuple(notes)


def read_text(text: str, file: str, edition_hint: str = "", declared: bool = False) -> list[Page]:
    """Read a typed draft (see :mod:`lawdiff.sources.draft.text`).

    ``declared``: the caller says the file is a draft (``--draft FILE``), so
    it needs no draft title line.
    """
    if not declared and typed.title_line(text) is None:
        raise InputError(
            _(
                "the text is no typed draft: its first line does not say it is a draft (concept, ontwerp, "
                "draft), or no ARTIKEL or HOOFDSTUK heading follows"
            ),
            file=file,
            place="1",
            fix=_("start the draft with a title line such as 'Concept spelregels 2027', then its articles"),
        )
    edition = edition_hint or typed.year_in_title(text)
    if not edition:
        raise _no_edition(file)
    blocks, fragments, furniture, title = typed.read_typed(text, file)
    if not blocks:
        raise InputError(
            _("the draft holds no text after its title line"), file=file, fix=_("give the draft's articles")
        )
    return [
        Page(
            file=file,
            format=FORMAT_TEXT,
            edition=edition,
            name=Path(file).stem,
            loc=Loc(file, 1),
            blocks=tuple(blocks),
            fragments=tuple(fragments),
            furniture=tuple(furniture),
            notes=set_aside(furniture),
            meta=(("title", title),),
        )
    ]


def read_package_text(_text: str, file: str, _edition_hint: str = "") -> list[Page]:
    """A zip given as decoded text cannot be read: the registry reads packages by path (see read_package)."""
    raise InputError(
        _("a .docx or .odt draft must be read from its file, not as text"),
        file=file,
        fix=_("give the path of the document"),
    )


def edition_from_name(path: Path) -> str:
    """A year in the draft's folder or file name (``2027/concept.docx``, ``concept-2027.docx``), or ""."""
    for part in (path.parent.name, path.stem):
        m = _YEAR.search(part)
        if m:
            return m.group(1)
    return ""


def read_draft(path: Path, name: str = "", state: State | str = State.ACCEPTED, display: str = "") -> list[Page]:
    """Read one draft file of any draft format as edition ``name``.

    ``name`` is the edition's name (``--as NAME``); when "" it is a year in the
    folder or file name (:func:`edition_from_name`).  ``state`` is
    ``accepted`` (default) or ``original`` for a document with tracked
    changes.  Every failure is an :class:`InputError` naming the file.
    """
    file = display or str(path)
    edition = name or edition_from_name(path)
    try:
        with path.open("rb") as stream:
            head = stream.read(8)
    except OSError as exc:
        raise InputError(
            _("cannot read the file ({strerror})").format(strerror=exc.strerror),
            file=file,
            fix=_("check the path and its permissions"),
        ) from None
    if head.startswith((*ZIP_MAGICS, OLE_MAGIC)):
        return read_package(path, file, edition, state)
    data = path.read_bytes()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(
            _("the file is neither a .docx, an .odt nor UTF-8 text (byte 0x{data:02x} at offset {start})").format(
                data=data[exc.start], start=exc.start
            ),
            file=file,
            fix=_("give the draft as .docx, .odt or UTF-8 text"),
        ) from None
    if not text.strip():
        raise InputError(_("the file is empty"), file=file, fix=_("give the draft's text"))
    return read_text(text, file, edition, declared=True)
