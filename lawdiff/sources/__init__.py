"""Source readers: one module per input format, behind a small registry.

:func:`read_file` reads a file, recognises its format by content (never by
name) and returns its pages.  Every failure is an :class:`InputError` naming
the file, the place and what to do.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from lawdiff.errors import InputError
from lawdiff.i18n import gettext as _
from lawdiff.sources import draft, mediawiki, nuxt, wikitext
from lawdiff.sources.base import Page


@dataclass(frozen=True, slots=True)
class Reader:
    """A registered format: its name, a content sniffer and the reader."""

    name: str
    looks_like: Callable[[str], bool]
    read: Callable[[str, str, str], list[Page]]
    # A reader that streams its file (large dumps) instead of reading its text whole.
    read_path: Callable[[Path, str, str], Iterable[Page]] | None = None


def _read_wiki(text: str, file: str, _hint: str) -> list[Page]:
    return wikitext.read(text, file)


READERS: list[Reader] = [
    Reader(mediawiki.FORMAT, mediawiki.looks_like, mediawiki.read, mediawiki.read_path),
    Reader(nuxt.FORMAT, nuxt.looks_like, nuxt.read),
    Reader(wikitext.FORMAT, wikitext.looks_like, _read_wiki),
    # Drafts last: a package by its parts, typed text only where no other reader claims it.
    Reader("draft", draft.looks_like_package, draft.read_package_text, draft.read_package),
    Reader(draft.FORMAT_TEXT, draft.looks_like_text, draft.read_text),
]


def register(reader: Reader, first: bool = True) -> None:
    """Add a format (tried before the built-in ones when ``first``)."""
    if first:
        READERS.insert(0, reader)
    else:
        READERS.append(reader)


def detect(text: str) -> Reader | None:
    """The reader whose format ``text`` is in, or None."""
    for reader in READERS:
        if reader.looks_like(text):
            return reader
    return None


# How much of a file is read to recognise a streaming format.
SNIFF_BYTES = 4096


def decode_bytes(data: bytes, file: str) -> str:
    """Decode a file's bytes as UTF-8, or say where it is not."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise InputError(
            _("the file is not UTF-8 (byte 0x{data:02x} at offset {start})").format(
                data=data[exc.start], start=exc.start
            ),
            file=file,
            place=_("line {n}").format(n=line),
            fix=_("save the dump as UTF-8"),
        ) from None


def read_text(text: str, file: str, edition_hint: str = "") -> list[Page]:
    """Read already decoded text."""
    if not text.strip():
        raise InputError(
            _("the file is empty"), file=file, fix=_("remove it from the corpus or give the dump's content")
        )
    reader = detect(text)
    if reader is None:
        names = ", ".join(r.name for r in READERS)
        first = text.lstrip("\ufeff").split("\n", 1)[0].strip()
        if first[:1] not in ("[", "{", "<"):
            # Plain text: most likely a rendered wiki page that lost its title.
            raise InputError(
                _(
                    "the first line {first!r} is not a wiki page title, and the file is no other format lawdiff reads"
                ).format(first=first[:60]),
                file=file,
                place="1",
                fix=_("put the page title (e.g. Sjabloon:2007:45) on the first line"),
            )
        raise InputError(
            _(
                "unknown format: neither a wiki page (title line Sjabloon:<edition>:<name>), a MediaWiki XML "
                "export nor a Nuxt payload"
            ),
            file=file,
            place="1",
            fix=_("give a file in one of the formats lawdiff reads ({names})").format(names=names),
        )
    return list(checked_pages(reader.read(text, file, edition_hint)))


def checked_pages(pages: Iterable[Page]) -> Iterator[Page]:
    """Refuse an edition name that would pass for a source or a version lawdiff names itself."""
    for page in pages:
        if "@" in page.edition or "+" in page.edition:
            place = str(page.loc.line) if page.loc.line else page.loc.path
            raise InputError(
                _(
                    "the page {name!r} names the edition {edition!r}: '@' and '+' are kept for the sources and "
                    "versions lawdiff names itself (2017@wiki, 2017+2024-03-01)"
                ).format(name=page.name, edition=page.edition),
                file=page.file,
                place=place,
                fix=_(
                    "title the page with the year alone (Sjabloon:2007:45); a second source of a year is told "
                    "apart by its format"
                ),
            )
        yield page


def read_file(path: Path, display: str | None = None, edition_hint: str = "") -> list[Page]:
    """Read one file of any known format."""
    return list(iter_file(path, display, edition_hint))


def iter_file(path: Path, display: str | None = None, edition_hint: str = "") -> Iterator[Page]:
    """Read one file of any known format, one page at a time where the format streams (a large dump)."""
    name = display or str(path)
    try:
        # One opening of the file: its head tells whether a reader streams it, else the rest follows.
        with open(path, "rb") as stream:
            head = stream.read(SNIFF_BYTES)
            head_text = head.decode("utf-8", "replace")
            streamer = next((r for r in READERS if r.read_path is not None and r.looks_like(head_text)), None)
            data = head + stream.read() if streamer is None else b""
    except OSError as exc:
        raise InputError(
            _("cannot read the file ({strerror})").format(strerror=exc.strerror),
            file=name,
            fix=_("check the path and its permissions"),
        ) from None
    if streamer is not None and streamer.read_path is not None:
        yield from checked_pages(streamer.read_path(path, name, edition_hint))
        return
    yield from read_text(decode_bytes(data, name), name, edition_hint)
