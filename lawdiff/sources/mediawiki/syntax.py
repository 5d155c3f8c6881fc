"""The wikitext that transclusion reads: include tags, template calls and their arguments, placed in the file.

Each function is one pass over a page's text (hostile text such as thousands
of ``{{`` costs no more than its length); what the calls expand to is
:mod:`.transclusion`'s business.
"""

from __future__ import annotations

import bisect
import re

from lawdiff.sources.mediawiki import notes as reader_notes
from lawdiff.sources.mediawiki.lines import Frag

# Parser functions and magic words: never expanded (they are site machinery).
MAGIC_WORDS = frozenset(
    (
        *("!", "=", "PAGENAME", "FULLPAGENAME", "BASEPAGENAME", "SUBPAGENAME", "NAMESPACE", "SITENAME"),
        *("CURRENTYEAR", "CURRENTMONTH", "CURRENTDAY", "CURRENTTIME", "CURRENTTIMESTAMP", "REVISIONID"),
        *("REVISIONYEAR", "NUMBEROFARTICLES", "PAGESINCATEGORY", "TOC", "NOTOC"),
    )
)
FUNCTION_PREFIX = re.compile(
    r"^(?:#|(?:DEFAULTSORT|DISPLAYTITLE|lc|uc|lcfirst|ucfirst|urlencode|anchorencode|fullurl|localurl|"
    r"ns|int|formatnum|padleft|padright|plural|grammar|gender|tag|msgnw|raw)\s*:)",
    re.I,
)


# ---------------------------------------------------------------------------
# Text with its place in the file


class Located:
    """A page's wikitext, with the file line of any offset."""

    def __init__(self, text: str, line: int, title: str, entities: tuple[tuple[int, str], ...] = ()) -> None:
        self.text = text
        self.line = line
        self.title = title
        self.entities = entities
        self.entity_offsets = [offset for offset, _ in entities]
        # The line breaks before an offset are counted on from the last
        # offset asked for: offsets come in order (comments, then the text),
        # so a page costs its length, without a list of its line breaks.
        self._at = 0
        self._breaks = 0

    def line_at(self, offset: int) -> int:
        if offset < self._at:
            self._at = self._breaks = 0
        self._breaks += self.text.count("\n", self._at, offset)
        self._at = offset
        return self.line + self._breaks

    def frags(self, start: int, end: int) -> list[Frag]:
        """The text between two offsets, as one fragment (its lines follow on).

        An entity the XML does not declare starts a fragment of its own,
        with a note: the text is read as written, and ``lawdiff check`` says so.
        """
        if start >= end:
            return []
        out: list[Frag] = []
        first = bisect.bisect_left(self.entity_offsets, start)
        last = bisect.bisect_left(self.entity_offsets, end)
        for offset, entity in self.entities[first:last]:
            if offset > start:
                out.append(Frag(self.text[start:offset], self.line_at(start), self.title))
                start = offset
            out.append(Frag("", self.line_at(offset), self.title, reader_notes.undeclared_entity(entity)))
        out.append(Frag(self.text[start:end], self.line_at(start), self.title))
        return out


# Written with the "<" both start with outside the case-blind part, so that
# the engine scans for it (re.I on the whole would try every position).
_INCLUDE_TOKEN = re.compile(r"<(?:!--.*?(?:-->|\Z)|(/?)(?i:(noinclude|includeonly|onlyinclude))\s*(/?)>)", re.S)
_ONLY_INCLUDE = re.compile(r"<(?i:onlyinclude)\s*>")


def kept_ranges(text: str, transcluded: bool) -> tuple[list[tuple[int, int]], list[tuple[int, str]]]:
    """The parts of a page's text that show, where it is read (``transcluded``) or included.

    Returns the kept ``(start, end)`` ranges and the comments that were cut
    (offset, text).  Included: ``<noinclude>`` parts go, and where the page
    has ``<onlyinclude>`` only those parts count.  Read as a page of its
    own: ``<includeonly>`` parts go.  The tags themselves never show.
    """
    has_only = transcluded and _ONLY_INCLUDE.search(text) is not None
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
PARAM = re.compile(r"\{\{\{([^{}|]*)(?:\|([^{}]*))?\}\}\}")
_SPLIT = re.compile(r"\{\{|\}\}|\[\[|\]\]|\|")


def template_calls(text: str, start: int, end: int) -> list[tuple[int, int, bool]]:
    """Template calls ``{{...}}`` and parameters ``{{{...}}}`` between two offsets: (start, end, is_param).

    Only the outermost ones; an unbalanced ``{{`` is text (as on the wiki).
    One pass with a stack, so that hostile text (thousands of ``{{``) costs
    no more than its length.
    """
    if text.find("{{", start, end) < 0:
        return []  # most pages of law call nothing: a scan for the pair of braces settles it
    pairs: list[tuple[int, int, bool]] = []
    stack: list[int] = []
    skip = start
    for t in _BRACE.finditer(text, start, end):
        if t.start() < skip:
            continue
        if t.group() == "{{":
            p = PARAM.match(text, t.start(), end)
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


def split_args(inner: str) -> list[str]:
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
