"""Reading the zip of a .docx or .odt without trusting it.

A word-processor file is a zip of XML parts.  A hostile or broken one must
end in one :class:`~lawdiff.errors.InputError` naming the file, never in a
traceback, a full disk or a fetch from the network:

* a file that is no zip (an encrypted Office document is an OLE compound
  file, so is an old ``.doc``) or a damaged zip says so;
* a zip bomb is stopped while it is being read, by absolute sizes first: a
  member is decompressed in chunks and the reading stops as soon as it passes
  :data:`MAX_MEMBER_BYTES` or the whole file passes :data:`MAX_TOTAL_BYTES`.
  The compression ratio alone refuses nothing: a typed paragraph of 5 MB of
  repeated words compresses 400 times, as a bomb does.  Only a member that
  grows past :data:`RATIO_FLOOR` bytes (a draft of many hundred pages) at
  more than :data:`MAX_RATIO` times its compressed size (real document XML
  compresses 5 to 20 times) is stopped there, before the absolute limit.
  The sizes a zip's directory declares are checked first, but never trusted
  alone;
* an encrypted member, or more than :data:`MAX_MEMBERS` members, is refused;
* XML is parsed with entity resolution, DTD loading and the network off and
  lxml's size limits on (``huge_tree=False``); a part that declares a DTD at
  all is refused, as no word processor writes one.
"""

from __future__ import annotations

import zipfile
import zlib
from pathlib import Path
from typing import IO

from lxml import etree

from lawdiff.errors import InputError
from lawdiff.i18n import gettext as _
from lawdiff.sources.draft import OLE_MAGIC, ZIP_MAGICS
from lawdiff.sources.xmlerrors import one_line

# Limits: a 333-page draft is 1.6 MB of XML as benchmarks/bench_draft.py writes it (a few times that as
# Word saves it); these leave tens of times that room, and stop a bomb before its parsed tree (several
# times the part's size) takes a GB.
MAX_MEMBERS = 10_000
MAX_MEMBER_BYTES = 64 * 1024 * 1024
MAX_TOTAL_BYTES = 128 * 1024 * 1024
MAX_RATIO = 200
RATIO_FLOOR = 8 * 1024 * 1024
_CHUNK = 64 * 1024


def _parser() -> etree.XMLParser:
    return etree.XMLParser(
        resolve_entities=False,
        no_network=True,
        huge_tree=False,
        load_dtd=False,
        dtd_validation=False,
        remove_comments=True,
        remove_pis=True,
    )


class SafeZip:
    """The members of one zip, read with the limits above.

    ``file`` names the file in every error.
    """

    def __init__(self, path: Path, file: str) -> None:
        self.file = file
        self.total = 0
        with path.open("rb") as stream:
            head = stream.read(8)
        if head.startswith(OLE_MAGIC):
            raise InputError(
                _(
                    "the file is an OLE compound file, not a zip: an encrypted (password-protected) Word "
                    "document or an old binary .doc"
                ),
                file=file,
                fix=_("remove the password or save it as .docx (Word 2007 or later) or .odt, then read it again"),
            )
        if not head.startswith(ZIP_MAGICS):
            raise InputError(
                _("the file is not a zip, so neither a .docx nor an .odt"),
                file=file,
                fix=_("give the document as saved by the word processor (.docx or .odt)"),
            )
        try:
            self.zip = zipfile.ZipFile(path)
        except (zipfile.BadZipFile, OSError, ValueError) as exc:
            raise InputError(
                _("the zip is damaged ({exc})").format(exc=exc),
                file=file,
                fix=_("open the document in the word processor and save it again"),
            ) from None
        infos = self.zip.infolist()
        if len(infos) > MAX_MEMBERS:
            raise InputError(
                _("the zip holds {n} members (more than {MAX_MEMBERS})").format(n=len(infos), MAX_MEMBERS=MAX_MEMBERS),
                file=file,
                fix=_("this is no word-processor document: give the .docx or .odt itself"),
            )
        declared = sum(i.file_size for i in infos)
        if declared > MAX_TOTAL_BYTES:
            raise InputError(
                _(
                    "the zip would expand to {declared} bytes (more than {MAX_TOTAL_BYTES}): a zip bomb or no document"
                ).format(declared=declared, MAX_TOTAL_BYTES=MAX_TOTAL_BYTES),
                file=file,
                fix=_("give the document as saved by the word processor"),
            )
        self.infos = {i.filename: i for i in infos}

    def close(self) -> None:
        self.zip.close()

    def __enter__(self) -> SafeZip:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def names(self) -> list[str]:
        return list(self.infos)

    def has(self, name: str) -> bool:
        return name in self.infos

    def read(self, name: str) -> bytes:
        """A member's bytes, decompressed in chunks under the limits."""
        info = self.infos.get(name)
        if info is None:
            raise InputError(
                _("the document has no part {name!r}").format(name=name),
                file=self.file,
                fix=_("open the document in the word processor and save it again"),
            )
        if info.flag_bits & 0x1:
            raise InputError(
                _("the part {name!r} is encrypted").format(name=name),
                file=self.file,
                fix=_("remove the password in the word processor and save the document again"),
            )
        if info.file_size > MAX_MEMBER_BYTES:
            self._bomb(name, info.file_size)
        out = bytearray()
        try:
            with self.zip.open(info) as stream:
                self._copy(stream, out, name, info.compress_size)
        except (zipfile.BadZipFile, zlib.error, EOFError, NotImplementedError, OSError, ValueError) as exc:
            raise InputError(
                _("the part {name!r} cannot be decompressed ({exc})").format(name=name, exc=exc),
                file=self.file,
                fix=_("open the document in the word processor and save it again"),
            ) from None
        return bytes(out)

    def _copy(self, stream: IO[bytes], out: bytearray, name: str, compressed: int) -> None:
        # The declared sizes may lie: count what actually comes out.
        while chunk := stream.read(_CHUNK):
            out.extend(chunk)
            self.total += len(chunk)
            if len(out) > MAX_MEMBER_BYTES or self.total > MAX_TOTAL_BYTES:
                self._bomb(name, len(out))
            if len(out) > RATIO_FLOOR and len(out) > MAX_RATIO * max(compressed, 1):
                raise InputError(
                    _(
                        "the part {name!r} expands more than {MAX_RATIO} times its compressed size: a zip bomb "
                        "(past {RATIO_FLOOR} bytes)"
                    ).format(name=name, MAX_RATIO=MAX_RATIO, RATIO_FLOOR=RATIO_FLOOR),
                    file=self.file,
                    fix=_("do not read this file; give the document as saved by the word processor"),
                )

    def _bomb(self, name: str, size: int) -> None:
        raise InputError(
            _(
                "the part {name!r} expands past {size} bytes (the limit is {MAX_MEMBER_BYTES} per part and "
                "{MAX_TOTAL_BYTES} in all): a zip bomb or no document"
            ).format(name=name, size=size, MAX_MEMBER_BYTES=MAX_MEMBER_BYTES, MAX_TOTAL_BYTES=MAX_TOTAL_BYTES),
            file=self.file,
            fix=_("do not read this file; give the document as saved by the word processor"),
        )

    def xml(self, name: str) -> etree._Element:
        """A member parsed as XML, safely (see the module docstring)."""
        return parse_xml(self.read(name), self.file, name)


def parse_xml(data: bytes, file: str, part: str) -> etree._Element:
    """Parse one XML part with entities, DTDs and the network off."""
    try:
        root = etree.fromstring(data, _parser())
    except etree.XMLSyntaxError as exc:
        line = exc.lineno or 0
        raise InputError(
            _("the part {part!r} is not well-formed XML ({value})").format(part=part, value=one_line(exc.msg)),
            file=file,
            place=f"{part} line {line}" if line else part,
            fix=_("open the document in the word processor and save it again"),
        ) from None
    if root is None:
        raise InputError(_("the part {part!r} is empty").format(part=part), file=file, fix=_("save the document again"))
    doctype = root.getroottree().docinfo
    if doctype.internalDTD is not None or doctype.externalDTD is not None or doctype.doctype:
        raise InputError(
            _("the part {part!r} declares a DTD, which no word processor writes (entities are never expanded)").format(
                part=part
            ),
            file=file,
            place=part,
            fix=_("give the document as saved by the word processor"),
        )
    return root
