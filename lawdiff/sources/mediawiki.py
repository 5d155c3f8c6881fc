"""Reader for MediaWiki XML exports (Special:Export of the wiki).

An export holds the raw wikitext of every page, in any schema version from
0.3 to 0.11: elements are matched by their local name, never by the
namespace URI.  The file is streamed (``lxml.etree.iterparse``, each page
cleared once read), and of each page only the revision that counts is kept:
the latest by ``<timestamp>``, or the last in the document where revisions
carry no timestamp.

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
"""

from __future__ import annotations

import bisect
import html
import io
import re
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import IO, Any

from lxml import etree

from lawdiff.errors import InputError, LawdiffBug
from lawdiff.sources.base import Fragment, Furniture, Loc, Page
from lawdiff.sources.normalize import normalize_inline
from lawdiff.sources.wikiname import PageName, parse_title
from lawdiff.sources.wikitext import LinkSpan, read_lines

FORMAT = "mediawiki-xml"

# How deep transclusions may nest before the dump is taken to be broken
# (MediaWiki's own default limit, $wgMaxTemplateDepth, is 40).
MAX_DEPTH = 40

# How many lines one <ref> note may run over before it is taken to be unclosed.
MAX_REF_LINES = 20

# How many redirects a title may pass through (MediaWiki follows one; dumps
# of moved pages sometimes hold short chains).
MAX_REDIRECTS = 5

TEMPLATE_NS = 10

# Namespace names, Dutch and canonical English, for exports whose siteinfo
# does not list them (schema 0.3 may have no siteinfo at all).
_DEFAULT_NAMESPACES: dict[int, tuple[str, ...]] = {
    -2: ("Media",),
    -1: ("Speciaal", "Special"),
    1: ("Overleg", "Talk"),
    2: ("Gebruiker", "User"),
    3: ("Overleg gebruiker", "User talk"),
    4: ("Project",),
    5: ("Overleg project", "Project talk"),
    6: ("Bestand", "File", "Afbeelding", "Image"),
    7: ("Overleg bestand", "File talk", "Image talk"),
    8: ("MediaWiki",),
    9: ("Overleg MediaWiki", "MediaWiki talk"),
    10: ("Sjabloon", "Template"),
    11: ("Overleg sjabloon", "Template talk"),
    12: ("Help",),
    13: ("Overleg help", "Help talk"),
    14: ("Categorie", "Category"),
    15: ("Overleg categorie", "Category talk"),
}
_NS_NAMES = {10: "Sjabloon", 11: "Overleg sjabloon"}

_LOOKS_LIKE = re.compile(
    r"^\ufeff?\s*(?:<\?xml[^>]*\?>\s*)?(?:<!--.*?-->\s*)*(?:<!DOCTYPE[^>]*>\s*)?<(?:[\w.-]+:)?mediawiki[\s>/]", re.S
)
_REDIRECT_TEXT = re.compile(r"^\s*#\s*(?:REDIRECT|DOORVERWIJZING)\s*:?\s*\[\[([^\]|]+)(?:\|[^\]]*)?\]\]", re.I)
_TOC = re.compile(r"^(?:\d{4}[^:]*:)?\s*inhoudsopgave\b", re.I)

# Parser functions and magic words: never expanded (they are site machinery).
_MAGIC_WORDS = frozenset(
    (
        *("!", "=", "PAGENAME", "FULLPAGENAME", "BASEPAGENAME", "SUBPAGENAME", "NAMESPACE", "SITENAME"),
        *("CURRENTYEAR", "CURRENTMONTH", "CURRENTDAY", "CURRENTTIME", "CURRENTTIMESTAMP", "REVISIONID"),
        *("REVISIONYEAR", "NUMBEROFARTICLES", "PAGESINCATEGORY", "TOC", "NOTOC"),
    )
)
_FUNCTION_PREFIX = re.compile(
    r"^(?:#|(?:DEFAULTSORT|DISPLAYTITLE|lc|uc|lcfirst|ucfirst|urlencode|anchorencode|fullurl|localurl|"
    r"ns|int|formatnum|padleft|padright|plural|grammar|gender|tag|msgnw|raw)\s*:)",
    re.I,
)


def looks_like(text: str) -> bool:
    """Whether text is a MediaWiki export (its root element is ``<mediawiki>``)."""
    return bool(_LOOKS_LIKE.match(text))


def read(text: str, file: str, _edition_hint: str = "") -> list[Page]:
    """Read an export given as text."""
    return read_stream(io.BytesIO(text.encode("utf-8")), file)


def read_path(path: Path, file: str, _edition_hint: str = "") -> list[Page]:
    """Read an export from its file, streaming (the whole file is never in memory)."""
    try:
        with path.open("rb") as stream:
            return read_stream(stream, file)
    except OSError as exc:
        raise InputError(
            f"cannot read the file ({exc.strerror})", file=file, fix="check the path and its permissions"
        ) from None


def read_stream(stream: IO[bytes], file: str) -> list[Page]:
    """Read an export: its pages, then the law pages' text."""
    site, pages = _parse(stream, file)
    return _Assembler(file, site, pages).run()


# ---------------------------------------------------------------------------
# Titles and namespaces


def _clean_title(title: str) -> str:
    return " ".join(title.replace("_", " ").split())


def _first_upper(name: str) -> str:
    return name[:1].upper() + name[1:]


@dataclass
class _Site:
    """The namespaces of the wiki the export comes from."""

    by_name: dict[str, int] = field(default_factory=dict)
    case_sensitive: set[int] = field(default_factory=set)

    def __post_init__(self) -> None:
        for key, names in _DEFAULT_NAMESPACES.items():
            for name in names:
                self.by_name.setdefault(name.casefold(), key)

    def split(self, title: str, default_ns: int = 0) -> tuple[int, str]:
        """``Sjabloon:2017:45`` -> ``(10, "2017:45")``; a name without a known prefix is in ``default_ns``."""
        text = _clean_title(title)
        if text.startswith(":"):
            # [[:Categorie:x]] and {{:Page}}: the main namespace, or the one named after the colon.
            text = text[1:].strip()
            default_ns = 0
        prefix, sep, rest = text.partition(":")
        ns = self.by_name.get(prefix.strip().casefold()) if sep else None
        if ns is None:
            ns, rest = default_ns, text
        rest = rest.strip()
        if ns not in self.case_sensitive:
            rest = _first_upper(rest)
        return ns, rest

    def ns_of(self, title: str, declared: int | None) -> tuple[int, str]:
        """A page's namespace and name, from its ``<ns>`` where the export gives one."""
        ns, name = self.split(title)
        if declared is not None and declared != ns:
            # The export knows better (a namespace this reader has no name for).
            text = _clean_title(title)
            return declared, _first_upper(text.partition(":")[2].strip() if declared else text)
        return ns, name


def _law_name(ns: int, name: str) -> PageName | None:
    """What a template page's name says (``2017:45C``), if it is a law page."""
    if ns != TEMPLATE_NS:
        return None
    return parse_title(f"Sjabloon:{name}")


# ---------------------------------------------------------------------------
# Streaming the XML


@dataclass(slots=True)
class _Revision:
    text: str | None
    timestamp: str
    line: int  # the line of <text>, where the page's first line of wikitext stands
    rev_line: int  # the line of <revision>
    deleted: bool


@dataclass(slots=True, eq=False)
class _WikiPage:
    title: str
    ns: int
    name: str
    line: int  # the line of <title>
    order: int
    revision: _Revision | None = None
    revisions: int = 0
    redirect: str = ""  # the title it redirects to
    law: PageName | None = None


def _newer(rev: _Revision, best: _Revision | None) -> bool:
    """Whether ``rev`` (later in the document) counts instead of ``best``."""
    if best is None or not rev.timestamp or not best.timestamp:
        return True
    return rev.timestamp >= best.timestamp


def _local(tag: object) -> str:
    return tag.rpartition("}")[2] if isinstance(tag, str) else ""


def _parse(stream: IO[bytes], file: str) -> tuple[_Site, list[_WikiPage]]:
    site = _Site()
    pages: dict[tuple[int, str], _WikiPage] = {}
    best: _Revision | None = None
    count = 0
    root_checked = False
    # Only these elements come back from the parser: each revision is
    # weighed and cleared as soon as it ends, each page once it ends.
    events = etree.iterparse(
        stream,
        events=("end",),
        tag=("{*}siteinfo", "{*}revision", "{*}page"),
        huge_tree=True,
        resolve_entities=False,
        no_network=True,
        remove_comments=True,
        remove_pis=True,
    )
    try:
        for _event, elem in events:
            if not root_checked:
                _check_root(elem.getroottree().getroot(), file)
                root_checked = True
            local = _local(elem.tag)
            parent = elem.getparent()
            if local == "revision" and parent is not None and _local(parent.tag) == "page":
                count += 1
                rev = _revision(elem)
                if _newer(rev, best):
                    best = rev
                elem.clear()
            elif local == "page":
                title_el = elem.find("{*}title")
                redirect_el = elem.find("{*}redirect")
                redirect = "" if redirect_el is None else (redirect_el.get("title") or "?")
                _add_page(
                    pages,
                    site,
                    file,
                    (title_el.text or "") if title_el is not None else "",
                    (title_el.sourceline if title_el is not None else elem.sourceline) or 0,
                    _int(elem.findtext("{*}ns")),
                    redirect,
                    best,
                    count,
                )
                best, count = None, 0
                elem.clear()
                _drop_done(elem)
            elif local == "siteinfo":
                for ns in elem.iterfind("{*}namespaces/{*}namespace"):
                    key = _int(ns.get("key"))
                    if key is None:
                        continue
                    if ns.text and ns.text.strip():
                        site.by_name[ns.text.strip().casefold()] = key
                    if ns.get("case") == "case-sensitive":
                        site.case_sensitive.add(key)
                elem.clear()
    except etree.XMLSyntaxError as exc:
        line, column = exc.position if exc.position else (0, 0)
        raise InputError(
            f"malformed XML: {exc.msg}" if hasattr(exc, "msg") else f"malformed XML: {exc}",
            file=file,
            place=f"{line}:{column}" if line else "",
            fix="repair the file there, or export the pages again (Special:Export)",
        ) from None
    if not root_checked and events.root is not None:
        _check_root(events.root, file)
    return site, sorted(pages.values(), key=lambda p: p.order)


def _check_root(root: Any, file: str) -> None:
    local = _local(root.tag)
    if local != "mediawiki":
        raise InputError(
            f"the root element is <{local}>, not <mediawiki>",
            file=file,
            place=str(root.sourceline or 1),
            fix="give a MediaWiki export (Special:Export) or a file of another known format",
        )


def _revision(elem: Any) -> _Revision:
    """A revision's timestamp and text (the main slot's, in multi-content exports)."""
    text_el = elem.find("{*}text")
    if text_el is None:
        for content in elem.iterfind("{*}content"):
            if (content.findtext("{*}role") or "").strip() == "main":
                text_el = content.find("{*}text")
                break
    line = elem.sourceline or 0
    if text_el is None:
        return _Revision(None, (elem.findtext("{*}timestamp") or "").strip(), line, line, False)
    return _Revision(
        text_el.text,
        (elem.findtext("{*}timestamp") or "").strip(),
        text_el.sourceline or line,
        line,
        text_el.get("deleted") is not None,
    )


def _int(text: str | None) -> int | None:
    try:
        return int((text or "").strip())
    except ValueError:
        return None


def _drop_done(elem: Any) -> None:
    """Remove the pages already read from the tree, so memory stays bounded."""
    parent = elem.getparent()
    if parent is None:
        return
    while elem.getprevious() is not None:
        del parent[0]


def _add_page(
    pages: dict[tuple[int, str], _WikiPage],
    site: _Site,
    file: str,
    title: str,
    line: int,
    declared_ns: int | None,
    redirect: str,
    best: _Revision | None,
    count: int,
) -> None:
    if not title.strip():
        raise InputError(
            "a page without a title", file=file, place=str(line), fix="give every <page> its <title>, or remove it"
        )
    ns, name = site.ns_of(title, declared_ns)
    key = (ns, name)
    page = pages.get(key)
    if page is None:
        page = pages[key] = _WikiPage(_clean_title(title), ns, name, line, len(pages))
    elif best is not None and page.revision is not None and not _newer(best, page.revision):
        # The same page twice in one dump: its revisions are pooled, the latest counts.
        best = page.revision
    page.revisions += count
    if best is not None:
        page.revision = best
    text = best.text if best is not None else None
    if not redirect and text:
        m = _REDIRECT_TEXT.match(text)
        if m:
            redirect = m.group(1)
    if redirect == "?" and text:
        m = _REDIRECT_TEXT.match(text)
        redirect = m.group(1) if m else ""
    page.redirect = _clean_title(redirect) if redirect != "?" else ""
    page.law = None if page.redirect else _law_name(ns, name)
    if page.law is not None and page.law.kind == "toc":
        page.law = None
    if page.law is None and page.revision is not None and not page.redirect and ns != TEMPLATE_NS:
        # Only templates are read (law pages, and helpers a law page may
        # transclude); the other pages' text is not kept.
        page.revision = _without_text(page.revision)


def _without_text(rev: _Revision) -> _Revision:
    return _Revision(None, rev.timestamp, rev.line, rev.rev_line, rev.deleted)


# ---------------------------------------------------------------------------
# Text with its place in the file


@dataclass(frozen=True, slots=True)
class _Frag:
    """A run of expanded wikitext: where it starts, and a note to report there."""

    text: str
    line: int
    title: str
    note: str = ""


class _Located:
    """A page's wikitext, with the file line of any offset."""

    def __init__(self, text: str, line: int, title: str) -> None:
        self.text = text
        self.line = line
        self.title = title
        self.newlines = [m.start() for m in re.finditer("\n", text)]

    def line_at(self, offset: int) -> int:
        return self.line + bisect.bisect_left(self.newlines, offset)

    def frags(self, start: int, end: int) -> list[_Frag]:
        """The text between two offsets, as one fragment (its lines follow on)."""
        if start >= end:
            return []
        return [_Frag(self.text[start:end], self.line_at(start), self.title)]


_INCLUDE_TOKEN = re.compile(r"<!--.*?(?:-->|\Z)|<(/?)(noinclude|includeonly|onlyinclude)\s*(/?)>", re.I | re.S)


def _kept_ranges(text: str, transcluded: bool) -> tuple[list[tuple[int, int]], list[tuple[int, str]]]:
    """The parts of a page's text that show, where it is read (``transcluded``) or included.

    Returns the kept ``(start, end)`` ranges and the comments that were cut
    (offset, text).  Included: ``<noinclude>`` parts go, and where the page
    has ``<onlyinclude>`` only those parts count.  Read as a page of its
    own: ``<includeonly>`` parts go.  The tags themselves never show.
    """
    has_only = transcluded and re.search(r"<onlyinclude\s*>", text, re.I) is not None
    ranges: list[tuple[int, int]] = []
    comments: list[tuple[int, str]] = []
    pos = 0
    inside = {"noinclude": False, "includeonly": False, "onlyinclude": False}

    def showing() -> bool:
        if has_only and not inside["onlyinclude"]:
            return False
        if transcluded:
            return not inside["noinclude"]
        return not inside["includeonly"]

    for m in _INCLUDE_TOKEN.finditer(text):
        if showing() and m.start() > pos:
            ranges.append((pos, m.start()))
        pos = m.end()
        if m.group(2) is None:
            if showing():
                comments.append((m.start(), m.group(0)))
            continue
        if m.group(3):
            continue  # <noinclude/>: an empty element
        inside[m.group(2).lower()] = not m.group(1)
    if showing() and pos < len(text):
        ranges.append((pos, len(text)))
    return ranges, comments


_BRACE = re.compile(r"\{\{|\}\}")
_PARAM = re.compile(r"\{\{\{([^{}|]*)(?:\|([^{}]*))?\}\}\}")
_SPLIT = re.compile(r"\{\{|\}\}|\[\[|\]\]|\|")


def _calls(text: str, start: int, end: int) -> list[tuple[int, int, bool]]:
    """Template calls ``{{...}}`` and parameters ``{{{...}}}`` between two offsets: (start, end, is_param).

    Only the outermost ones; an unbalanced ``{{`` is text (as on the wiki).
    One pass with a stack, so that hostile text (thousands of ``{{``) costs
    no more than its length.
    """
    pairs: list[tuple[int, int, bool]] = []
    stack: list[int] = []
    skip = start
    for t in _BRACE.finditer(text, start, end):
        if t.start() < skip:
            continue
        if t.group() == "{{":
            p = _PARAM.match(text, t.start(), end)
            if p:
                pairs.append((t.start(), p.end(), True))
                skip = p.end()
            else:
                stack.append(t.start())
        elif stack:
            pairs.append((stack.pop(), t.end(), False))
    pairs.sort()
    out: list[tuple[int, int, bool]] = []
    for pair in pairs:
        if not out or pair[0] >= out[-1][1]:
            out.append(pair)
    return out


def _split_args(inner: str) -> list[str]:
    """Split a call's inside at the ``|`` that are not within a nested call or link."""
    parts: list[str] = []
    depth = 0
    last = 0
    for m in _SPLIT.finditer(inner):
        tok = m.group()
        if tok in ("{{", "[["):
            depth += 1
        elif tok in ("}}", "]]"):
            depth = max(0, depth - 1)
        elif depth == 0:
            parts.append(inner[last : m.start()])
            last = m.end()
    parts.append(inner[last:])
    return parts


# ---------------------------------------------------------------------------
# From the dump's pages to lawdiff pages


@dataclass
class _Report:
    """What the expansion and conversion of one page noticed."""

    furniture: list[Furniture] = field(default_factory=list)
    lost: list[Fragment] = field(default_factory=list)
    includes: list[_WikiPage] = field(default_factory=list)


class _Assembler:
    def __init__(self, file: str, site: _Site, pages: list[_WikiPage]) -> None:
        self.file = file
        self.site = site
        self.pages = pages
        self.by_key = {(p.ns, p.name): p for p in pages}

    # -- resolving titles ---------------------------------------------------

    def lookup(self, title: str, default_ns: int, line: int) -> tuple[_WikiPage | None, tuple[int, str]]:
        """The page a title names, redirects followed: (the page or None, the key of the last title)."""
        key = self.site.split(title, default_ns)
        seen: list[str] = []
        while True:
            page = self.by_key.get(key)
            if page is None or not page.redirect:
                return page, key
            seen.append(page.title)
            key = self.site.split(page.redirect)
            target = self.by_key.get(key)
            if (target is not None and target.title in seen) or len(seen) > MAX_REDIRECTS:
                raise InputError(
                    f"redirect loop: {' -> '.join([*seen, page.redirect])}",
                    file=self.file,
                    place=str(line),
                    fix="point one of these redirects at the page that holds the text",
                )

    def link_target(self, target: str, line: int) -> str:
        """The clause address a wiki link points at ("45E"), or ""."""
        page, key = self.lookup(target.split("#", 1)[0], 0, line)
        law = page.law if page is not None else _law_name(*key)
        if law is None or law.kind not in ("article", "section", "front"):
            return ""
        return law.scope

    # -- the pages to emit --------------------------------------------------

    def run(self) -> list[Page]:
        law = [p for p in self.pages if p.law is not None]
        for p in law:
            self.check_text(p)
        emitted: dict[tuple[int, str], Page] = {}
        covered: set[tuple[int, str]] = set()

        def emit(p: _WikiPage) -> None:
            page, includes = self.make_page(p)
            emitted[(p.ns, p.name)] = page
            covered.update(key for key in includes if self._same_edition_key(key, p))

        for p in law:
            if p.law is not None and p.law.kind == "container":
                emit(p)
        rest = [p for p in law if (p.ns, p.name) not in covered and p.law is not None and p.law.kind != "container"]
        rest_keys = {(p.ns, p.name) for p in rest}
        included: set[tuple[int, str]] = set()
        for p in rest:
            for key in self.direct_includes(p):
                if key in rest_keys and key != (p.ns, p.name) and self._same_edition_key(key, p):
                    included.add(key)
        # Pages that no other page includes first, then whatever a cycle
        # left over (expanding it reports the cycle).
        for p in [*(p for p in rest if (p.ns, p.name) not in included), *rest]:
            key = (p.ns, p.name)
            if key not in covered and key not in emitted:
                emit(p)
        pages = [emitted[(p.ns, p.name)] for p in law if (p.ns, p.name) in emitted]
        if not pages:
            raise InputError(
                f"the export holds no law page ({len(self.pages)} page(s), none titled Sjabloon:<edition>:<name>)",
                file=self.file,
                fix="export the template pages of the law (Sjabloon:2017:45, ...) with Special:Export",
            )
        # Pages that are not law text stay on record, as furniture of the
        # first page of their edition (or of the dump).
        extra: dict[int, list[Furniture]] = {}
        for edition, furn in self.other_pages():
            index = next((i for i, pg in enumerate(pages) if pg.edition == edition), 0)
            extra.setdefault(index, []).append(furn)
        return [replace(pg, furniture=(*pg.furniture, *extra.get(i, ()))) for i, pg in enumerate(pages)]

    def _same_edition_key(self, key: tuple[int, str], page: _WikiPage) -> bool:
        other = self.by_key.get(key)
        return (
            other is not None
            and other.law is not None
            and page.law is not None
            and other.law.edition == page.law.edition
        )

    def direct_includes(self, page: _WikiPage) -> list[tuple[int, str]]:
        """The pages a page's text calls (redirects followed), without expanding anything."""
        text = page.revision.text if page.revision is not None else None
        if not text:
            return []
        out: list[tuple[int, str]] = []
        for start, end, is_param in _calls(text, 0, len(text)):
            if is_param:
                continue
            name = _split_args(text[start + 2 : end - 2])[0].strip()
            target, _ = self.lookup(name, TEMPLATE_NS, page.line)
            if target is not None:
                out.append((target.ns, target.name))
        return out

    def check_text(self, page: _WikiPage) -> None:
        rev = page.revision
        if rev is None or rev.text is None or rev.deleted or not rev.text.strip():
            why = "no revision" if rev is None else "a revision without text"
            if rev is not None and rev.deleted:
                why = "a revision whose text is deleted"
            raise InputError(
                f"the {'law ' if page.law is not None else ''}page {page.title} has {why}",
                file=self.file,
                place=str(rev.rev_line if rev is not None else page.line),
                fix="export the page again with its current text (Special:Export), or remove it from the dump",
            )

    # -- expansion ----------------------------------------------------------

    def expand(
        self,
        page: _WikiPage,
        args: dict[str, str],
        chain: tuple[_WikiPage, ...],
        report: _Report,
        call_line: int,
    ) -> list[_Frag]:
        if page in chain or len(chain) >= MAX_DEPTH:
            titles = " -> ".join([*(p.title for p in chain), page.title])
            what = "transclusion cycle" if page in chain else f"transclusions nested deeper than {MAX_DEPTH}"
            raise InputError(
                f"{what}: {titles}",
                file=self.file,
                place=str(call_line),
                fix="remove the transclusion from one of these pages (the wiki shows 'Template loop detected' there)",
            )
        self.check_text(page)
        if page.revision is None or page.revision.text is None:
            raise LawdiffBug(f"{page.title}: a law page without text passed the check")
        text = page.revision.text
        located = _Located(text, page.revision.line, page.title)
        ranges, comments = _kept_ranges(text, transcluded=bool(chain))
        for offset, comment in comments:
            report.furniture.append(
                Furniture(comment, Loc(self.file, located.line_at(offset), page.title), "wiki comment (not shown)")
            )
        out: list[_Frag] = []
        inner_chain = (*chain, page)
        for start, end in ranges:
            pos = start
            for c_start, c_end, is_param in _calls(text, start, end):
                out.extend(located.frags(pos, c_start))
                pos = c_end
                line = located.line_at(c_start)
                if is_param:
                    out.append(_Frag(self.param(text[c_start:c_end], args), line, page.title))
                    continue
                out.extend(self.call(text[c_start + 2 : c_end - 2], line, page, inner_chain, report))
            out.extend(located.frags(pos, end))
        return out

    def param(self, call: str, args: dict[str, str]) -> str:
        m = _PARAM.match(call)
        if m is None:
            return call
        name = m.group(1).strip()
        if name in args:
            return args[name]
        return m.group(2) if m.group(2) is not None else call

    def call(
        self, inner: str, line: int, page: _WikiPage, chain: tuple[_WikiPage, ...], report: _Report
    ) -> list[_Frag]:
        parts = _split_args(inner)
        name = re.sub(r"^\s*(?:safesubst|subst)\s*:", "", parts[0]).strip()
        loc = Loc(self.file, line, page.title)
        shown = "{{" + inner + "}}"
        if not name or name.upper() in _MAGIC_WORDS or _FUNCTION_PREFIX.match(name) or name.startswith("__"):
            report.furniture.append(Furniture(shown, loc, "parser function or magic word (not expanded)"))
            return []
        target, key = self.lookup(name, TEMPLATE_NS, line)
        if target is None:
            note = f"transclusion of {_display(key)}: the dump has no such page, its text is missing here"
            report.lost.append(Fragment(shown, loc))
            return [_Frag("", line, page.title, note)]
        if target.law is None and _TOC.match(target.name):
            reason = "table of contents"
            report.furniture.append(Furniture(shown, loc, f"transclusion of {target.title} ({reason}, not expanded)"))
            return [_Frag("", line, page.title, f"{target.title} not expanded here ({reason})")]
        # Any other template is expanded as the wiki shows it, law page or
        # not (a helper template such as Sjabloon:Voetnoot may hold text).
        if target.law is not None and target.law.kind == "container":
            # A part included by its chapter page: a page of its own (its
            # title gives its place), read there and not here.
            report.furniture.append(Furniture(shown, loc, f"transclusion of {target.title}, read as a page of its own"))
            return []
        args: dict[str, str] = {}
        n = 0
        for part in parts[1:]:
            k, eq, v = part.partition("=")
            if eq and "[[" not in k and "{{" not in k:
                args[k.strip()] = v.strip()
            else:
                n += 1
                args[str(n)] = part
        report.includes.append(target)
        frags = self.expand(target, args, chain, report, line)
        first = next((f.text for f in frags if f.text), "")
        if first[:1] in ("*", "#", ":", ";") or first.startswith("{|"):
            # MediaWiki starts an included list or table on a line of its own.
            frags.insert(0, _Frag("\n", line, page.title))
        return frags

    # -- the result ---------------------------------------------------------

    def make_page(self, page: _WikiPage) -> tuple[Page, list[tuple[int, str]]]:
        """Expand one page of the dump, make it rendered lines, and read them.

        Returns the page and the keys of the pages it includes.
        """
        if page.law is None or page.revision is None:
            raise LawdiffBug(f"{page.title}: read as a law page, but it is none")
        report = _Report()
        frags = self.expand(page, {}, (), report, page.line)
        converter = _Converter(self)
        converter.run(frags)
        title_loc = Loc(self.file, page.line, page.title)
        lines = [page.title]
        locs = [title_loc]
        links: dict[int, list[LinkSpan]] = {}
        for segments, loc in converter.out:
            text, spans = _render(segments)
            if spans:
                links[len(lines)] = spans
            lines.append(text)
            locs.append(loc)
        blocks, fragments, furniture = read_lines(lines, self.file, locs, links, converter.notes)
        meta = [("title", page.title), ("kind", page.law.kind), ("revisions", str(page.revisions))]
        if page.revision.timestamp:
            meta.append(("timestamp", page.revision.timestamp))
        included = list(dict.fromkeys(report.includes))
        if included:
            meta.append(("includes", ", ".join(p.title for p in included)))
        lawpage = Page(
            file=self.file,
            format=FORMAT,
            edition=page.law.edition,
            name=page.law.name,
            loc=title_loc,
            containers=page.law.containers,
            scope=page.law.scope,
            blocks=tuple(blocks),
            fragments=(*fragments, *report.lost),
            furniture=(
                Furniture(page.title, title_loc, "page title (kept as the page name)"),
                *furniture,
                *report.furniture,
                *converter.furniture,
            ),
            meta=tuple(meta),
        )
        return lawpage, [(p.ns, p.name) for p in included]

    def other_pages(self) -> list[tuple[str, Furniture]]:
        """The pages that are not law text: (their edition or "", a furniture record saying why)."""
        out: list[tuple[str, Furniture]] = []
        for p in self.pages:
            if p.law is not None:
                continue
            edition_m = re.search(r"\b(\d{4})\b", p.name)
            loc = Loc(self.file, p.line, p.title)
            if p.redirect:
                reason = f"redirect to {p.redirect}"
            elif _TOC.match(p.name):
                reason = "table of contents (not law text)"
            elif p.ns == TEMPLATE_NS + 1:
                reason = "talk page of a template (not law text)"
            elif p.ns % 2 == 1 and p.ns > 0:
                reason = "talk page (not law text)"
            elif p.ns == TEMPLATE_NS:
                reason = "template that is not a law page (no Sjabloon:<edition>:<name> title)"
            else:
                reason = f"page in namespace {p.ns} (not law text)"
            out.append((edition_m.group(1) if edition_m else "", Furniture(p.title, loc, reason)))
        return out


def _display(key: tuple[int, str]) -> str:
    ns, name = key
    prefix = _NS_NAMES.get(ns) or next(iter(_DEFAULT_NAMESPACES.get(ns, ("",))), "")
    return f"{prefix}:{name}" if prefix else name


# ---------------------------------------------------------------------------
# Wikitext to rendered lines

Segment = tuple[str, str]  # (text, link target address or "")

_HEADING = re.compile(r"^(={1,6})(.+?)\1\s*$")
_LIST = re.compile(r"^([*#:;]+)\s*(.*)$")
_RULE = re.compile(r"^-{4,}")
_BR = re.compile(r"<\s*/?\s*br\s*/?\s*>", re.I)
# A note's body holds no other <ref> (the wiki does not nest them), which
# also keeps a line full of unclosed tags linear to read.
_REF = re.compile(r"<ref(?P<attrs>\s[^>]*?)?\s*(?:/>|>(?P<body>(?:(?!<ref\b).)*?)</ref\s*>)", re.I | re.S)
_REF_OPEN = re.compile(r"<ref(?:\s[^>]*?)?>", re.I)
_REF_EMPTY = re.compile(r"<ref(?:\s[^>]*)?/>", re.I)
_REF_CLOSE = re.compile(r"</ref\s*>", re.I)
_REF_NAME = re.compile(r"""name\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s/>]+))""", re.I)
_REFERENCES = re.compile(r"<references\s*/>|<references(?:\s[^>]*)?>.*?</references\s*>", re.I | re.S)
_LINK_OPEN = re.compile(r"\[\[|\]\]")
_LINK_TRAIL = re.compile(r"[a-zäëïöüéèàáóúç]+")
_EXTERNAL = re.compile(r"\[(?:https?:|ftp:|mailto:|//)[^\s\[\]]*(?:\s+([^\[\]]*))?\]")
_TAG = re.compile(
    r"</?(?:b|i|u|s|strike|del|ins|small|big|sup|sub|span|div|font|center|p|nowiki|pre|tt|code|strong|em|"
    r"blockquote|poem|abbr|cite|q|mark|var|kbd|samp|dfn|bdi|bdo|wbr|section)\b[^<>]*>",
    re.I,
)
_BEHAVIOUR = re.compile(r"__[A-Z]+__")
_QUOTES = re.compile(r"'{2,}")
_SUPERSCRIPT = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")


def _quotes(m: re.Match[str]) -> str:
    # '' italic, ''' bold, ''''' both: marks only.  '''' is an apostrophe
    # then bold; a longer run keeps its extra apostrophes (as the wiki does).
    n = len(m.group())
    if n in (2, 3, 5):
        return ""
    return "'" if n == 4 else "'" * (n - 5)


def _clean(text: str) -> str:
    """Inline markup out, entities decoded: the text the wiki shows."""
    text = _TAG.sub("", text)
    text = _BEHAVIOUR.sub("", text)
    text = _QUOTES.sub(_quotes, text)
    return html.unescape(text).replace("\n", " ")


def _render(segments: list[Segment]) -> tuple[str, list[LinkSpan]]:
    """Join segments into one normalized line (:mod:`normalize`), with the links' spans in it."""
    parts: list[str] = []
    spans: list[tuple[int, int, str]] = []
    length = 0
    for text, target in segments:
        piece = normalize_inline(text)
        if parts and parts[-1].endswith(" ") and piece.startswith(" "):
            piece = piece[1:]
        if not piece:
            continue
        if target:
            spans.append((length, length + len(piece), target))
        parts.append(piece)
        length += len(piece)
    joined = "".join(parts)
    lead = len(joined) - len(joined.lstrip())
    line = joined.strip()
    out: list[LinkSpan] = []
    for start, end, target in spans:
        s = min(max(start - lead, 0), len(line))
        e = min(max(end - lead, 0), len(line))
        while s < e and line[s] == " ":
            s += 1
        while e > s and line[e - 1] == " ":
            e -= 1
        if s < e:
            out.append(LinkSpan(s, e, target))
    return line, out


@dataclass
class _Note:
    number: int
    body: str
    loc: Loc


class _Converter:
    """Turns a page's expanded wikitext into the lines the wiki renders."""

    def __init__(self, assembler: _Assembler) -> None:
        self.asm = assembler
        self.file = assembler.file
        self.out: list[tuple[list[Segment], Loc]] = []
        self.notes: dict[int, list[str]] = {}
        self.furniture: list[Furniture] = []
        self.buf: list[Segment] = []
        self.buf_loc: Loc | None = None
        self.counters: list[int] = []
        self.in_table = False
        self.refs: list[_Note] = []
        self.ref_names: dict[str, int] = {}
        self.ref_count = 0

    # -- output -------------------------------------------------------------

    def note(self, text: str) -> None:
        # Line 0 of the page is its title, so the next line out is len(out) + 1.
        self.notes.setdefault(len(self.out) + 1, []).append(text)

    def flush(self) -> None:
        if self.buf and self.buf_loc is not None and any(t.strip() for t, _ in self.buf):
            self.out.append((self.buf, self.buf_loc))
        self.buf = []
        self.buf_loc = None

    def emit(self, segments: list[Segment], loc: Loc) -> None:
        self.flush()
        if any(t.strip() for t, _ in segments):
            self.out.append((segments, loc))

    def blank(self, loc: Loc) -> None:
        self.flush()
        if self.out and self.out[-1][0]:
            self.out.append(([], loc))

    # -- raw lines ----------------------------------------------------------

    def raw_lines(self, frags: list[_Frag]) -> Iterator[tuple[str, Loc, list[str]]]:
        """The expanded text's physical lines, each with the place of its first character."""
        parts: list[str] = []
        notes: list[str] = []
        loc: Loc | None = None
        first: Loc | None = None
        for f in frags:
            if f.note:
                notes.append(f.note)
            pieces = f.text.split("\n")
            for k, piece in enumerate(pieces):
                if k:
                    yield "".join(parts), loc or first or Loc(self.file, f.line + k - 1, f.title), notes
                    parts, notes, loc, first = [], [], None, None
                if first is None:
                    first = Loc(self.file, f.line + k, f.title)
                if piece:
                    parts.append(piece)
                    if loc is None and piece.strip():
                        loc = Loc(self.file, f.line + k, f.title)
        if parts or notes:
            yield "".join(parts), loc or first or Loc(self.file, 0), notes

    def joined_lines(self, frags: list[_Frag]) -> Iterator[tuple[str, Loc, list[str]]]:
        """Raw lines, with a ``<ref>`` that runs over a few lines joined into one."""
        held: list[tuple[str, Loc, list[str]]] = []
        for raw in self.raw_lines(frags):
            if "<ref" not in raw[0].lower() and not held:
                yield raw
                continue
            held.append(raw)
            text = " ".join(h[0] for h in held)
            opened = len(_REF_OPEN.findall(text)) - len(_REF_EMPTY.findall(text))
            if opened <= len(_REF_CLOSE.findall(text)):
                yield text, held[0][1], [n for h in held for n in h[2]]
                held = []
            elif len(held) > MAX_REF_LINES:
                # Never closed: the lines as they are (the wiki shows the tag as text).
                yield from held
                held = []
        yield from held

    # -- block structure ----------------------------------------------------

    def run(self, frags: list[_Frag]) -> None:
        for text, loc, notes in self.joined_lines(frags):
            for n in notes:
                self.note(n)
            self.line(text, loc)
        self.flush()
        self.flush_refs()

    def line(self, text: str, loc: Loc) -> None:
        s = text.strip()
        if self.in_table:
            self.table_line(s, loc)
            return
        if not s:
            self.counters = []
            self.blank(loc)
            return
        refs_here = _REFERENCES.search(s)
        if refs_here:
            s = (s[: refs_here.start()] + s[refs_here.end() :]).strip()
            self.furniture.append(Furniture(refs_here.group(0), loc, "list of notes (the notes are read there)"))
        if s.startswith("{|"):
            self.flush()
            self.in_table = True
            self.furniture.append(Furniture(s, loc, "table markup (the table is read one cell per line)"))
            self.note("a table: read one cell per line")
        elif m := _RULE.match(s):
            self.counters = []
            self.emit([(m.group(), "")], loc)
            rest = s[m.end() :].strip()
            if rest:
                self.paragraph(rest, loc)
        elif m := _HEADING.match(s):
            self.counters = []
            self.emit(self.inline(m.group(2).strip(), loc), loc)
        elif m := _LIST.match(s):
            self.list_item(m.group(1), m.group(2), loc)
        elif text.startswith(" "):
            # A line that starts with a space is preformatted on the wiki: a line of its own.
            self.counters = []
            self.flush()
            for part in _BR.split(s):
                self.emit(self.inline(part, loc), loc)
        elif s:
            self.counters = []
            self.paragraph(s, loc)
        if refs_here:
            self.flush()
            self.flush_refs()

    def paragraph(self, text: str, loc: Loc) -> None:
        parts = _BR.split(text)
        for k, part in enumerate(parts):
            if k:
                self.flush()  # a line break
            segs = self.inline(part, loc)
            if not any(t.strip() for t, _ in segs):
                continue
            if self.buf:
                # A single newline inside a paragraph is a space on the wiki.
                self.buf.append((" ", ""))
            else:
                self.buf_loc = loc
            self.buf.extend(segs)

    def list_item(self, prefix: str, content: str, loc: Loc) -> None:
        self.flush()
        depth = len(prefix)
        del self.counters[depth:]
        while len(self.counters) < depth:
            self.counters.append(0)
        for i, ch in enumerate(prefix):
            if ch != "#":
                self.counters[i] = 0
        bullet = ""
        if prefix[-1] == "#":
            self.counters[depth - 1] += 1
            bullet = f"{self.counters[depth - 1]}. "
        elif prefix[-1] == "*":
            bullet = "- "
        parts = _BR.split(content)
        self.emit([(bullet, ""), *self.inline(parts[0], loc)], loc)
        for part in parts[1:]:
            self.emit(self.inline(part, loc), loc)

    def table_line(self, s: str, loc: Loc) -> None:
        if s.startswith("|}"):
            self.in_table = False
            self.furniture.append(Furniture(s, loc, "table markup"))
            return
        if s.startswith("|-"):
            self.furniture.append(Furniture(s, loc, "table markup (row)"))
            return
        if s.startswith("|+"):
            self.emit(self.inline(s[2:], loc), loc)
            return
        if s[:1] in ("|", "!"):
            for cell in re.split(r"\|\||!!", s[1:]):
                head, bar, body = cell.partition("|")
                if bar and "=" in head and "[[" not in head and "{{" not in head:
                    self.furniture.append(Furniture(head.strip(), loc, "table cell attributes"))
                    cell = body
                self.emit(self.inline(cell.strip(), loc), loc)
            return
        self.emit(self.inline(s, loc), loc)

    # -- notes (<ref>) -------------------------------------------------------

    def ref(self, m: re.Match[str], loc: Loc) -> str:
        attrs = m.group("attrs") or ""
        name_m = _REF_NAME.search(attrs)
        name = next((g for g in name_m.groups() if g is not None), "") if name_m else ""
        body = m.group("body")
        if name and name in self.ref_names:
            number = self.ref_names[name]
        else:
            self.ref_count += 1
            number = self.ref_count
            if name:
                self.ref_names[name] = number
            self.refs.append(_Note(number, body or "", loc))
        # A superscript marker, as a word of its own (the space it stands
        # after is closed when the line reader takes it out of the text); the
        # reader reads the note "¹⁾ ..." as its footnote.
        return " " + str(number).translate(_SUPERSCRIPT) + "⁾"

    def flush_refs(self) -> None:
        for n in self.refs:
            marker = str(n.number).translate(_SUPERSCRIPT) + "⁾"
            self.emit([(marker + " ", ""), *self.inline(n.body, n.loc)], n.loc)
        self.refs = []
        self.ref_names = {}
        self.ref_count = 0

    # -- inline markup ------------------------------------------------------

    def inline(self, text: str, loc: Loc) -> list[Segment]:
        """Links, notes and inline markup of one line: the segments the wiki shows."""
        if "<ref" in text or "<REF" in text:
            text = _REF.sub(lambda m: self.ref(m, loc), text)
        out: list[Segment] = []
        pos = 0
        while True:
            i = text.find("[[", pos)
            if i < 0:
                break
            depth = 0
            close = -1
            for t in _LINK_OPEN.finditer(text, i):
                depth += 1 if t.group() == "[[" else -1
                if depth == 0:
                    close = t.end()
                    break
            if close < 0:
                break
            out.extend(self.plain(text[pos:i], loc))
            trail = _LINK_TRAIL.match(text, close)
            end = trail.end() if trail else close
            out.extend(self.link(text[i + 2 : close - 2], trail.group() if trail else "", loc))
            pos = end
        out.extend(self.plain(text[pos:], loc))
        return out

    def plain(self, text: str, loc: Loc) -> list[Segment]:
        if not text:
            return []
        if "[" in text:
            for m in _EXTERNAL.finditer(text):
                if not m.group(1):
                    self.furniture.append(Furniture(m.group(), loc, "external link without a label"))
            text = _EXTERNAL.sub(lambda m: m.group(1) or "", text)
        for m in _BEHAVIOUR.finditer(text):
            self.furniture.append(Furniture(m.group(), loc, "behaviour switch (not shown)"))
        return [(_clean(text), "")]

    def link(self, inner: str, trail: str, loc: Loc) -> list[Segment]:
        target, bar, label = inner.partition("|")
        ns, _ = self.asm.site.split(target)
        bare = target.strip()
        if ns in (6, -2) and not bare.startswith(":"):
            self.furniture.append(Furniture(f"[[{inner}]]", loc, "image (not law text)"))
            self.note(f"image {bare} not read (not law text)")
            return self.plain(trail, loc)
        if ns == 14 and not bare.startswith(":"):
            self.furniture.append(Furniture(f"[[{inner}]]", loc, "category"))
            return self.plain(trail, loc)
        shown = label if bar and label.strip() else bare.lstrip(":")
        address = self.asm.link_target(bare, loc.line)
        return [(_clean(shown + trail), address)]
