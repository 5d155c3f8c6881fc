"""The package of an OpenDocument text draft (.odt): its checks, and the parts beside the body.

The package's ``mimetype`` must be ``application/vnd.oasis.opendocument.text``
(a template, ``.ott``, or a master document is refused, as is a document
with macros, ``Basic/`` or ``Scripts/``); an encrypted package
(``manifest:encryption-data``) is refused before its parts are parsed.  The
page headers and footers (in ``styles.xml``) are furniture.
"""

from __future__ import annotations

from lxml import etree

from lawdiff.errors import InputError
from lawdiff.i18n import N_
from lawdiff.i18n import gettext as _
from lawdiff.sources.base import Furniture, Loc
from lawdiff.sources.draft import asides
from lawdiff.sources.draft.zipsafe import SafeZip

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
    "application/vnd.oasis.opendocument.text-template": N_("a template (.ott)"),
    "application/vnd.oasis.opendocument.text-master": N_("a master document (.odm)"),
    "application/vnd.oasis.opendocument.text-master-template": N_("a master document template (.otm)"),
}


def t(tag: str) -> str:
    return f"{{{TEXT}}}{tag}"


def text_of(el: etree._Element, sep: str = "") -> str:
    return sep.join(str(x) for x in el.itertext())


def is_odt(z: SafeZip) -> bool:
    """Whether the zip is an OpenDocument package (of any kind: the reader refuses the wrong kinds)."""
    return z.has("mimetype") or z.has("META-INF/manifest.xml")


def check_package(z: SafeZip, file: str) -> None:
    mimetype = z.read("mimetype").decode("ascii", "replace").strip() if z.has("mimetype") else ""
    if mimetype in _REFUSED:
        raise InputError(
            _("the file is {kind}, not a text document").format(kind=_(_REFUSED[mimetype])),
            file=file,
            fix=_("save it as an OpenDocument text document (.odt), then read that file"),
        )
    if z.has("META-INF/manifest.xml"):
        manifest = z.xml("META-INF/manifest.xml")
        if manifest.find(f".//{{{MANIFEST}}}encryption-data") is not None:
            raise InputError(
                _("the document is encrypted (saved with a password)"),
                file=file,
                fix=_("save it again without a password, then read that file"),
            )
        if not mimetype:
            for entry in manifest.iterfind(f"{{{MANIFEST}}}file-entry"):
                if entry.get(f"{{{MANIFEST}}}full-path") == "/":
                    mimetype = entry.get(f"{{{MANIFEST}}}media-type", "")
    if mimetype != MIMETYPE:
        raise InputError(
            _("the package is not an OpenDocument text document (mimetype {mimetype!r})").format(mimetype=mimetype),
            file=file,
            fix=_("give a text document (.odt)"),
        )
    if any(n.startswith(("Basic/", "Scripts/")) for n in z.names()):
        raise InputError(
            _("the document holds macros (Basic/ or Scripts/)"),
            file=file,
            fix=_("save it as an .odt without macros, then read that file"),
        )
    if not z.has("content.xml"):
        raise InputError(
            _("the document has no content.xml"), file=file, fix=_("open it in LibreOffice and save it again")
        )


def side_parts(styles: etree._Element | None, file: str) -> list[Furniture]:
    """The page headers and footers of the master pages, as furniture."""
    furniture: list[Furniture] = []
    if styles is None:
        return furniture
    for page in styles.iter(f"{{{STYLE}}}master-page"):
        for part in page:
            name = etree.QName(part).localname
            if name.startswith(("header", "footer")):
                text = " ".join(text_of(p).strip() for p in part.iter(t("p"), t("h"))).strip()
                if text:
                    where = Loc(file, 0, f"styles.xml {page.get(f'{{{STYLE}}}name', '')}")
                    kind = "header" if name.startswith("header") else "footer"
                    furniture.append(Furniture(text, where, asides.page_part(kind)))
    return furniture
