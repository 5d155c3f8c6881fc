"""Reader for MediaWiki XML exports (Special:Export of the wiki).

An export holds the raw wikitext of every page, in any schema version from
0.3 to 0.11: elements are matched by their local name, never by the
namespace URI.  The file is streamed (``lxml.etree.iterparse``, each page
cleared once read), and of each page only the revision that counts is kept:
the latest by ``<timestamp>``, or the last in the document where revisions
carry no timestamp.  Of that revision the first ``<text>`` child is read (the
main slot's in multi-content exports); any other ``<text>`` of the page (a
second one, another slot's, one inside ``<contributor>`` or outside the
revisions) is not read, and not dropped either: its words are source text the
tree does not place, and a page note names it with its line
(:func:`~lawdiff.sources.mediawiki.dump.unread_texts`).

**Which pages are law.**  The law lives in the template namespace (number 10,
``Sjabloon:``; calls and links also write ``Template:`` or ``template:``),
titled ``Sjabloon:<edition>:<name>`` (see :mod:`lawdiff.sources.wikiname`;
first-letter case and ``_``/space are alike).  Talk pages (``Overleg
sjabloon:``), tables of contents (``Inhoudsopgave ...``), redirects, other
templates and other namespaces are not law text: each becomes a
:class:`Furniture` record with its reason, so that nothing is dropped
silently.

**One page of the dump, one article counted once.**  The wiki builds its law
by transclusion: a chapter, part or paragraph page (a *container*) includes
its article pages, and from 1987 on an article page includes one page per
section (a 2017 section page holds only the body; the article page supplies
the ``A. ...`` heading as the text of a link before the transclusion).  The
rendered container page therefore shows the same text as the pages it
includes.  This reader emits one :class:`Page` per page of the dump that a
reader of the wiki would open, with transclusions expanded, and no page for
what is only read as part of another:

* every container page is a page of its own; the article and section pages
  it includes are expanded into it, and are not emitted again;
* a container included by another container is *not* expanded there (it is
  emitted as a page of its own, where its title gives its place);
* an article or section page that no container of its edition includes is a
  page of its own, unless another such page includes it (a section page
  included by its article page is read as part of that article).

So every article is counted once, whether the wiki reaches it through a
chapter page or directly, and the emitted pages merge cleanly by address
(:mod:`lawdiff.corpus`).  A page included from another edition is expanded
where it is included and still counted in its own edition; a page that two
containers of one edition include is read in both (the same clauses, merged
by address, but its words are counted twice by ``lawdiff check``).

**Raw wikitext becomes rendered text.**  Each emitted page's wikitext, after
expansion, is turned into the lines the rendered page shows (the seed
format), and read by the line reader of :mod:`lawdiff.sources.wikitext`:
``'''bold'''`` and ``''italic''`` marks go, ``<br>`` / ``</br>`` break the
line, a single newline joins (as on the wiki) and a blank line ends a
paragraph, ``=`` headings, ``:``/``*``/``#`` list items (``*`` shows as
``- ``, ``#`` as ``1.``), ``----`` is the footnote rule, ``<ref>`` notes
become numbered notes, ``[[template:2017:45E|artikel 45E]]`` shows its label
and is a link to ``45E``.  Simple tables are read one cell per line, and
images, categories, comments and parser functions are reported (furniture,
and a note on the nearest clause).

**Bad input.**  Malformed XML, a law page whose revision has no text, a
transclusion cycle (or a nesting deeper than :data:`MAX_DEPTH`) are an
:class:`InputError` with the file and line.  A transclusion of a page the
dump does not hold is reported, not dropped: a note on the nearest clause,
and the call as a source fragment that the tree cannot place, so that
``lawdiff check`` shows it as lost text.

Modules: ``dump`` (the XML, namespaces, revisions), ``transclusion`` (which
pages stand alone, expanded), ``syntax`` (include tags, template calls and
their arguments), ``lines`` (wikitext to rendered lines).
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO, TYPE_CHECKING

from lawdiff.errors import InputError
from lawdiff.i18n import gettext as _
from lawdiff.sources.base import Page
from lawdiff.sources.mediawiki.sniff import looks_like_export

if TYPE_CHECKING:
    from lawdiff.sources.mediawiki.transclusion import Expanded

# The reader's modules (lxml among them) are imported when an export is read.
FORMAT = "mediawiki-xml"

__all__ = ["FORMAT", "looks_like", "read", "read_jobs", "read_path", "read_stream"]


def looks_like(text: str) -> bool:
    """Whether text is a MediaWiki export (its root element is ``<mediawiki>``)."""
    return looks_like_export(text)


def read(text: str, file: str, _edition_hint: str = "") -> list[Page]:
    """Read an export given as text."""
    return read_stream(io.BytesIO(text.encode("utf-8")), file)


def read_path(path: Path, file: str, _edition_hint: str = "") -> Iterator[Page]:
    """Read an export from its file, streaming: the whole file is never in memory, and its pages are
    made one at a time as they are asked for."""
    from lawdiff.sources.mediawiki.dump import parse_export
    from lawdiff.sources.mediawiki.transclusion import Assembler

    try:
        with path.open("rb") as stream:
            site, pages = parse_export(stream, file)
    except OSError as exc:
        raise InputError(
            _("cannot read the file ({strerror})").format(strerror=exc.strerror),
            file=file,
            fix=_("check the path and its permissions"),
        ) from None
    return Assembler(file, site, pages).pages()


def read_jobs(path: Path, file: str) -> tuple[Callable[[Expanded], Page], Iterator[Expanded]]:
    """Read an export to make its pages elsewhere (in other processes).

    Returns what makes a page of an expanded one, which holds the dump's
    titles but not its text (small to send to another process, and it can
    be pickled), and the pages expanded one at a time: rendering each gives
    the pages :func:`read_path` gives, in the same order.
    """
    from lawdiff.sources.mediawiki.dump import parse_export
    from lawdiff.sources.mediawiki.transclusion import Assembler

    try:
        with path.open("rb") as stream:
            site, pages = parse_export(stream, file)
    except OSError as exc:
        raise InputError(
            _("cannot read the file ({strerror})").format(strerror=exc.strerror),
            file=file,
            fix=_("check the path and its permissions"),
        ) from None
    assembler = Assembler(file, site, pages)
    return assembler.titles_only().render, assembler.jobs()


def read_stream(stream: IO[bytes], file: str) -> list[Page]:
    """Read an export: its pages, then the law pages' text."""
    from lawdiff.sources.mediawiki.dump import parse_export
    from lawdiff.sources.mediawiki.transclusion import Assembler

    site, pages = parse_export(stream, file)
    return Assembler(file, site, pages).run()
