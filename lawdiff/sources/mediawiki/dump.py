"""The export itself: streamed XML, namespaces, pages and the revision that counts."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import IO, Any

from lxml import etree

from lawdiff.errors import InputError
from lawdiff.i18n import gettext as _
from lawdiff.sources.mediawiki import notes as reader_notes
from lawdiff.sources.mediawiki.sniff import has_internal_subset, looks_like_export
from lawdiff.sources.wikiname import PageName, parse_title
from lawdiff.sources.xmlerrors import one_line

__all__ = ["has_internal_subset", "looks_like_export"]

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

# How much of a stream is read first to find its DOCTYPE.
SNIFF_HEAD = 1 << 16

# Namespace names, Dutch and canonical English, for exports whose siteinfo
# does not list them (schema 0.3 may have no siteinfo at all).
DEFAULT_NAMESPACES: dict[int, tuple[str, ...]] = {
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
NS_NAMES = {10: "Sjabloon", 11: "Overleg sjabloon"}
_REDIRECT_TEXT = re.compile(r"^\s*#\s*(?:REDIRECT|DOORVERWIJZING)\s*:?\s*\[\[([^\]|]+)(?:\|[^\]]*)?\]\]", re.I)

# ---------------------------------------------------------------------------
# Titles and namespaces


def _clean_title(title: str) -> str:
    return " ".join(title.replace("_", " ").split())


def _first_upper(name: str) -> str:
    return name[:1].upper() + name[1:]


@dataclass
class Site:
    """The namespaces of the wiki the export comes from."""

    by_name: dict[str, int] = field(default_factory=dict)
    case_sensitive: set[int] = field(default_factory=set)

    def __post_init__(self) -> None:
        for key, names in DEFAULT_NAMESPACES.items():
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


def law_name(ns: int, name: str) -> PageName | None:
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
    # Entity references the XML does not declare, kept as written: (offset in text, "&nbsp;").
    entities: tuple[tuple[int, str], ...] = ()
    # The revision's other <text> elements, not read: (line, text, why) (see _unread_texts).
    unread: tuple[tuple[int, str, str], ...] = ()


@dataclass(slots=True, eq=False)
class WikiPage:
    title: str
    ns: int
    name: str
    line: int  # the line of <title>
    order: int
    revision: _Revision | None = None
    revisions: int = 0
    redirect: str = ""  # the title it redirects to
    law: PageName | None = None
    # <text> elements of the page outside any revision, not read: (line, text, why).
    stray: tuple[tuple[int, str, str], ...] = ()


def _newer(rev: _Revision, best: _Revision | None) -> bool:
    """Whether ``rev`` (later in the document) counts instead of ``best``."""
    if best is None or not rev.timestamp or not best.timestamp:
        return True
    return rev.timestamp >= best.timestamp


def _local(tag: object) -> str:
    return tag.rpartition("}")[2] if isinstance(tag, str) else ""


def parse_export(stream: IO[bytes], file: str) -> tuple[Site, list[WikiPage]]:
    # lxml keeps one error log per thread: an earlier file's errors must not
    # be reported as this one's.
    etree.clear_error_log()
    _refuse_internal_subset(stream, file)
    site = Site()
    pages: dict[tuple[int, str], WikiPage] = {}
    best: _Revision | None = None
    count = 0
    root_checked = False
    events = _iterparse(stream)
    try:
        for _event, elem in events:
            if not root_checked:
                _check_root(elem.getroottree(), file)
                root_checked = True
            local = _local(elem.tag)
            parent = elem.getparent()
            if local == "revision" and parent is not None and _local(parent.tag) == "page":
                count += 1
                rev = _revision(elem, file)
                if _newer(rev, best):
                    best = rev
                elem.clear()
            elif local == "page":
                # The revisions are cleared as they end: a <text> left is outside them.
                stray = unread_texts(elem, None, file, stray=True)
                title_el = elem.find("{*}title")
                redirect_el = elem.find("{*}redirect")
                redirect = "" if redirect_el is None else (redirect_el.get("title") or "?")
                _add_page(
                    pages,
                    site,
                    file,
                    (_full_text(title_el, file)[0] or "") if title_el is not None else "",
                    (title_el.sourceline if title_el is not None else elem.sourceline) or 0,
                    _int(elem.findtext("{*}ns")),
                    redirect,
                    best,
                    count,
                    stray,
                )
                best, count = None, 0
                elem.clear()
                _drop_done(elem)
            elif local == "siteinfo":
                _read_namespaces(elem, site)
                elem.clear()
    except etree.XMLSyntaxError as exc:
        raise _syntax_error(exc, file) from None
    if not root_checked and events.root is not None:
        _check_root(events.root.getroottree(), file)
    return site, sorted(pages.values(), key=lambda p: p.order)


def _refuse_internal_subset(stream: IO[bytes], file: str) -> None:
    """Refuse a DOCTYPE with an internal subset, where the stream can be read twice."""
    if stream.seekable():
        # Refused before the parser reads the declarations (and before an
        # entity they declare could make the text fail to parse).
        head = stream.read(SNIFF_HEAD).decode("utf-8", "replace")
        stream.seek(0)
        if has_internal_subset(head):
            raise _subset_error(file)


def _iterparse(stream: IO[bytes]) -> etree.iterparse:
    """The parser's events: no entities, network, comments or processing instructions."""
    # Only these elements come back from the parser: each revision is
    # weighed and cleared as soon as it ends, each page once it ends.
    return etree.iterparse(
        stream,
        events=("end",),
        tag=("{*}siteinfo", "{*}revision", "{*}page"),
        huge_tree=True,
        resolve_entities=False,
        no_network=True,
        remove_comments=True,
        remove_pis=True,
    )


def _read_namespaces(siteinfo: etree._Element, site: Site) -> None:
    """The site's namespace names and which of them are case-sensitive, from ``<siteinfo>``."""
    for ns in siteinfo.iterfind("{*}namespaces/{*}namespace"):
        key = _int(ns.get("key"))
        if key is None:
            continue
        if ns.text and ns.text.strip():
            site.by_name[ns.text.strip().casefold()] = key
        if ns.get("case") == "case-sensitive":
            site.case_sensitive.add(key)


def _syntax_error(exc: etree.XMLSyntaxError, file: str) -> InputError:
    """The parser's first fatal error, with its place (iterparse may report a later, vaguer one)."""
    line, column = exc.position if exc.position else (0, 0)
    msg = getattr(exc, "msg", "") or str(exc)
    log: Any = exc.error_log  # iterable at run time; the stubs do not say so
    first = next(iter(log.filter_from_fatals()), None)
    if first is not None and (not line or msg == "no element found"):
        line, column, msg = first.line, first.column, first.message
    msg = one_line(msg)  # the place is given once, and the message is one line
    if "not defined" in msg and "Entity" in msg:
        fix = _(
            "write the character itself or a character reference (&#160; for &nbsp;), or export the pages again"
            " (Special:Export escapes the wiki's entities as &amp;nbsp;)"
        )
    else:
        fix = _("repair the file there, or export the pages again (Special:Export)")
    return InputError(
        _("malformed XML: {msg}").format(msg=msg), file=file, place=f"{line}:{column}" if line else "", fix=fix
    )


def _subset_error(file: str) -> InputError:
    # Entity declarations would change the text; expanding them is how XXE
    # and "billion laughs" attacks work.  An export never has any.
    return InputError(
        _(
            "the XML has a DOCTYPE with an internal subset (entity or element declarations), which lawdiff does "
            "not read"
        ),
        file=file,
        place="1",
        fix=_("remove the [...] part of the <!DOCTYPE ...> line; a MediaWiki export has none"),
    )


def _check_root(tree: Any, file: str) -> None:
    dtd = tree.docinfo.internalDTD  # also set (empty) for a DOCTYPE that only names an external DTD
    if dtd is not None and (any(True for _ in dtd.iterentities()) or any(True for _ in dtd.iterelements())):
        raise _subset_error(file)
    root = tree.getroot()
    local = _local(root.tag)
    if local != "mediawiki":
        raise InputError(
            _("the root element is <{local}>, not <mediawiki>").format(local=local),
            file=file,
            place=str(root.sourceline or 1),
            fix=_("give a MediaWiki export (Special:Export) or a file of another known format"),
        )


def _revision(elem: Any, file: str) -> _Revision:
    """A revision's timestamp and text (the main slot's, in multi-content exports)."""
    text_el = elem.find("{*}text")
    if text_el is None:
        for content in elem.iterfind("{*}content"):
            if (content.findtext("{*}role") or "").strip() == "main":
                text_el = content.find("{*}text")
                break
    line = elem.sourceline or 0
    unread = unread_texts(elem, text_el, file)
    if text_el is None:
        return _Revision(None, (elem.findtext("{*}timestamp") or "").strip(), line, line, False, unread=unread)
    text, entities = _full_text(text_el, file)
    return _Revision(
        text,
        (elem.findtext("{*}timestamp") or "").strip(),
        text_el.sourceline or line,
        line,
        text_el.get("deleted") is not None,
        entities,
        unread,
    )


def unread_texts(elem: Any, read: Any, file: str, stray: bool = False) -> tuple[tuple[int, str, str], ...]:
    """The ``<text>`` elements under ``elem`` other than ``read``, with text: (line, text, why).

    The schema gives a revision one ``<text>`` (from 0.11, one per slot, the main slot's is the
    page): the one read is the first that is a child of ``<revision>``, else the main slot's.  A
    second one, a non-main slot's, or one where the schema has none (inside ``<contributor>``) is
    not read, and not dropped either: the reader names it and counts its words as not placed.
    ``stray``: ``elem`` is a page whose revisions were read and cleared, so any ``<text>`` left in it
    stood outside them.
    """
    out: list[tuple[int, str, str]] = []
    for el in elem.iter("{*}text"):
        if el is read:
            continue
        text = _full_text(el, file)[0]
        if not text or text.isspace():
            continue
        parent = el.getparent()
        where = _local(parent.tag) if parent is not None else ""
        if stray:
            why = reader_notes.text_outside_revisions(where)
        elif where == "revision":
            why = reader_notes.SECOND_TEXT
        elif where == "content":
            role = (parent.findtext("{*}role") or "").strip() or "unnamed"
            why = reader_notes.slot_text(role)
        else:
            why = reader_notes.text_where_none(where)
        out.append((el.sourceline or elem.sourceline or 0, text, why))
    return tuple(out)


def _full_text(el: Any, file: str) -> tuple[str | None, tuple[tuple[int, str], ...]]:
    """An element's whole text, and the undeclared entities in it: ((offset, "&nbsp;"), ...).

    Under a DOCTYPE that names an external DTD, the parser cannot know
    whether ``&nbsp;`` is declared, so it keeps the reference as a node of
    its own (it never loads the DTD nor expands anything): ``el.text`` is
    then only the text before it.  The reference is kept as written, where
    the wiki would read it as the HTML entity it is.
    """
    if not len(el):
        return el.text, ()
    parts = [el.text or ""]
    length = len(parts[0])
    entities: list[tuple[int, str]] = []
    for child in el:
        if isinstance(child, etree._Entity):
            entities.append((length, child.text))
            parts.append(child.text)
            length += len(child.text)
        else:
            raise InputError(
                _(
                    "the <{value}> element holds an XML element <{value2}>: its markup is not escaped, so the "
                    "text cannot be read as written"
                ).format(value=_local(el.tag), value2=_local(child.tag)),
                file=file,
                place=str(child.sourceline or el.sourceline or 0),
                fix=_("escape < as &lt; and & as &amp; inside the text, or export the pages again (Special:Export)"),
            )
        tail = child.tail or ""
        parts.append(tail)
        length += len(tail)
    return "".join(parts), tuple(entities)


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
    pages: dict[tuple[int, str], WikiPage],
    site: Site,
    file: str,
    title: str,
    line: int,
    declared_ns: int | None,
    redirect: str,
    best: _Revision | None,
    count: int,
    stray: tuple[tuple[int, str, str], ...] = (),
) -> None:
    if not title.strip():
        raise InputError(
            _("a page without a title"),
            file=file,
            place=str(line),
            fix=_("give every <page> its <title>, or remove it"),
        )
    ns, name = site.ns_of(title, declared_ns)
    key = (ns, name)
    page = pages.get(key)
    if page is None:
        page = pages[key] = WikiPage(_clean_title(title), ns, name, line, len(pages))
    elif best is not None and page.revision is not None and not _newer(best, page.revision):
        # The same page twice in one dump: its revisions are pooled, the latest counts.
        best = page.revision
    page.revisions += count
    page.stray += stray
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
    page.law = None if page.redirect else law_name(ns, name)
    if page.law is not None and page.law.kind == "toc":
        page.law = None
    if page.law is None and page.revision is not None and not page.redirect and ns != TEMPLATE_NS:
        # Only templates are read (law pages, and helpers a law page may
        # transclude); the other pages' text is not kept.
        page.revision = without_text(page.revision)


def without_text(rev: _Revision) -> _Revision:
    return _Revision(None, rev.timestamp, rev.line, rev.rev_line, rev.deleted, unread=rev.unread)
