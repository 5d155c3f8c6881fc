"""The differential check of the wikitext reader: lawdiff's reading of a page against MediaWiki's rendering.

For every page lawdiff reads from a MediaWiki export (an article or chapter
page), the wiki renders the same page (``action=parse``, without edit links
and table of contents). Both are reduced to their words, in order:

* lawdiff's side: the page's source lines as the reader rendered them (the
  fragments ``lawdiff check`` accounts for), with a container the reader
  reads as a page of its own put back where the page transcludes it;
* the wiki's side: the HTML's text, without Cite's note markers (``[1]``)
  and their back links (``↑``), with numbered list items numbered as a
  browser shows them (``1.``), and notes as numbered notes.

Words are runs of letters and digits after Unicode compatibility folding (so
the reader's ``¹⁾`` is the wiki's note ``1``). The words only the wiki shows
are accepted where each is a word of what the reader set aside as page
chrome (an image's caption, a link to a missing file); every other word only
one side holds is a difference, listed per page.
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from lxml import etree, html

from lawdiff.fetch.wikiapi import Api
from lawdiff.i18n import gettext as _
from lawdiff.sources import mediawiki
from lawdiff.sources.base import Page
from lawdiff.sources.mediawiki.dump import MAX_DEPTH

__all__ = ["PageCheck", "check_pages", "page_words", "rendered_words", "words"]

_WORD = re.compile(r"\w+")
# A note marker as the reader prints it (``¹⁾``), which the wiki shows as Cite's ``[1]``, stripped on both sides.
_MARKER = re.compile(r"[⁰¹²³⁴⁵⁶⁷⁸⁹]+⁾")
_TITLE_REASON = "page title (kept as the page name)"
_OWN_PAGE = re.compile(r"^transclusion of (?P<title>.+), read as a page of its own$")
# How many words either side of a difference a report shows.
CONTEXT_WORDS = 4


def words(text: str) -> list[str]:
    """The words of a text, compatibility-folded (``¹⁾`` -> ``1``, ``ﬁ`` -> ``fi``)."""
    return _WORD.findall(unicodedata.normalize("NFKC", text))


@dataclass(frozen=True, slots=True)
class PageCheck:
    """One page compared: its wiki title, both word counts, and where they differ.

    differences: per place, (what lawdiff reads there, what the wiki shows there), each with a few
        words of context; empty when the page agrees.
    """

    file: str
    title: str
    lawdiff_words: int
    wiki_words: int
    differences: tuple[tuple[str, str], ...]


def _title(page: Page) -> str:
    return next((f.text for f in page.furniture if f.reason == _TITLE_REASON), page.name)


def _own_pages(page: Page, by_title: dict[str, Page]) -> list[tuple[int, Page]]:
    """The containers a page transcludes that the reader reads as pages of their own: (line, page)."""
    out: list[tuple[int, Page]] = []
    for f in page.furniture:
        m = _OWN_PAGE.match(f.reason)
        if m and m.group("title") in by_title:
            out.append((f.loc.line, by_title[m.group("title")]))
    return out


def page_words(page: Page, by_title: dict[str, Page], depth: int = 0) -> list[str]:
    """lawdiff's words of a page, with the containers it reads as pages of their own put back in place.

    Fragments keep the reader's order; a container goes before the first fragment that comes after its
    transclusion in the dump, or last (a container page holds little but its transclusions).
    """
    items: list[tuple[int, Page | str]] = [(f.loc.line, f.text) for f in page.fragments]
    if depth < MAX_DEPTH:
        for line, own in _own_pages(page, by_title):
            at = next((i for i, (later, _x) in enumerate(items) if later > line), len(items))
            items.insert(at, (line, own))
    out: list[str] = []
    for _line, item in items:
        out.extend(words(_MARKER.sub(" ", item)) if isinstance(item, str) else page_words(item, by_title, depth + 1))
    return out


def chrome_words(page: Page, by_title: dict[str, Page], depth: int = 0) -> set[str]:
    """The words of what the reader set aside on a page (and on the containers put back into it)."""
    out = {w for f in page.furniture for w in words(f.text)}
    if depth < MAX_DEPTH:
        for _line, own in _own_pages(page, by_title):
            out |= chrome_words(own, by_title, depth + 1)
    return out


def rendered_words(rendered: str) -> list[str]:
    """The words of MediaWiki's rendering of a page, as a reader of the page sees them."""
    if not rendered.strip():
        return []
    tree = html.fragment_fromstring(rendered, create_parent="div")
    for el in list(tree.iter(etree.Comment)):
        _drop(el)
    for el in tree.xpath(
        "//sup[contains(concat(' ', @class, ' '), ' reference ')]"
        "|//span[contains(concat(' ', @class, ' '), ' mw-cite-backlink ')]"
        "|//*[contains(concat(' ', @class, ' '), ' mw-editsection ')]"
        "|//style|//script"
    ):
        _drop(el)
    for ol in tree.iter("ol"):
        if "references" in (ol.get("class") or "").split():
            continue  # Cite's list of notes: numbered by the markers stripped above
        start = int(ol.get("start", "1")) if ol.get("start", "1").isdigit() else 1
        for n, li in enumerate((c for c in ol if c.tag == "li"), start):
            li.text = f"{n}. {li.text or ''}"
    return words(" ".join(tree.itertext()))


def _drop(el: etree._Element) -> None:
    """Remove an element, keeping the text after it."""
    parent = el.getparent()
    if parent is None:
        return
    tail = el.tail or ""
    prev = el.getprevious()
    if prev is not None:
        prev.tail = (prev.tail or "") + tail
    else:
        parent.text = (parent.text or "") + tail
    parent.remove(el)


def compare_words(ours: list[str], theirs: list[str], chrome: set[str]) -> tuple[tuple[str, str], ...]:
    """Where two word lists differ, leaving out what the wiki shows of the page chrome."""
    matcher = difflib.SequenceMatcher(None, ours, theirs, autojunk=False)
    out: list[tuple[str, str]] = []
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "equal":
            continue
        if i1 == i2 and all(w in chrome for w in theirs[j1:j2]):
            continue
        before = " ".join(ours[max(0, i1 - CONTEXT_WORDS) : i1])
        after = " ".join(ours[i2 : i2 + CONTEXT_WORDS])
        out.append(
            (
                f"{before} [{' '.join(ours[i1:i2])}] {after}".strip(),
                f"{before} [{' '.join(theirs[j1:j2])}] {after}".strip(),
            )
        )
    return tuple(out)


def export_pages(files: Iterable[tuple[Path, str]]) -> list[tuple[str, Page, dict[str, Page]]]:
    """The pages lawdiff reads from MediaWiki exports: (file, page, the file's pages by wiki title)."""
    out: list[tuple[str, Page, dict[str, Page]]] = []
    for path, display in files:
        pages = list(mediawiki.read_path(path, display))
        by_title = {_title(p): p for p in pages}
        out.extend((display, p, by_title) for p in pages)
    return out


def check_pages(
    api: Api, files: Iterable[tuple[Path, str]], progress: Callable[[str], None] | None = None
) -> list[PageCheck]:
    """Compare every page of the exports with the wiki's rendering of it, in the exports' order."""
    checks: list[PageCheck] = []
    for display, page, by_title in export_pages(files):
        title = _title(page)
        if progress is not None:
            progress(_("rendering {title}").format(title=title))
        ours = page_words(page, by_title)
        theirs = rendered_words(api.parse(title))
        diffs = compare_words(ours, theirs, chrome_words(page, by_title))
        checks.append(PageCheck(display, title, len(ours), len(theirs), diffs))
    return checks
