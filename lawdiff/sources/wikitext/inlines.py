"""The inline parts of a line: footnote markers (taken out, waiting for their notes) and links.

A marker is taken out of the text in one pass over the line, and remembered
until the note of its number is read; a link given by another reader
(:class:`LinkSpan`) moves with the text around it.
"""

from __future__ import annotations

import itertools
import re
from collections import Counter, deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from lawdiff.i18n import N_
from lawdiff.i18n.said import Said
from lawdiff.sources.base import Fragment, Inline, InlineKind
from lawdiff.sources.normalize import SUPERSCRIPT_DIGITS, superscript_number, take_out
from lawdiff.sources.wikitext.patterns import NOTE

_SUP_MARK = re.compile(r"[⁰¹²³⁴⁵⁶⁷⁸⁹]+⁾?")
# "boven 1) voor": a number of one or two digits after white space.  The
# look-behind stands after the first digit, so that a search skips to the
# digits of a line in C instead of trying the look-behind at every character.
_ASCII_MARK = re.compile(r"(?P<num>\d(?<=\s\d)\d?)\)(?=[\s.,;:]|$)")
_STAR_MARK = re.compile(r"(?P<stars>\*{1,3})\)")
# "speelruimte1": a number right after a word of letters only.  The word must
# start after a non-word character, so that "45C1" and "16D1" (addresses)
# never qualify; "artikel 12" has a space and is not fused.
_FUSED_MARK = re.compile(r"(?<!\w)(?P<word>[^\W\d_]{2,})(?P<num>\d{1,2})(?=[\s.,;:]|$)")
# A digit right after a letter: no line without one holds a fused marker, and
# this search skips from digit to digit, where _FUSED_MARK tries every word.
_LETTER_DIGIT = re.compile(r"\d(?<=[^\W\d_]\d)")
# The most digits _ASCII_MARK and _FUSED_MARK read in a marker.
_MARK_DIGITS = 2


@dataclass(frozen=True, slots=True)
class LinkSpan:
    """A hyperlink in a line given to :func:`read_lines` (raw wikitext has them).

    start, end: offsets into the (normalized) line.
    target: the clause address the link points at ("45E").
    """

    start: int
    end: int
    target: str


# A block's text with its footnote markers taken out: (text, inlines, notes), a
# plain tuple the reader unpacks (one is made per line, and a named tuple's
# constructor is a call to Python code).
Marked = tuple[str, tuple[Inline, ...], tuple[str, ...]]


class _Waiting:
    """Footnote markers read whose notes have not been read yet.

    A count per number, and the order they came in for the misprinted ``!)``
    note (which takes the oldest).  Taking a marker is O(1): the order keeps
    taken entries until they reach its head.
    """

    def __init__(self) -> None:
        self.order: deque[str] = deque()
        self.count: Counter[str] = Counter()
        self.taken: Counter[str] = Counter()
        self.size = 0

    def __bool__(self) -> bool:
        return self.size > 0

    def __contains__(self, number: str) -> bool:
        return self.count[number] > 0

    def add(self, number: str) -> None:
        self.order.append(number)
        self.count[number] += 1
        self.size += 1

    def take(self, number: str) -> None:
        """Take the oldest waiting marker of this number."""
        if self.count[number] > 0:
            self.count[number] -= 1
            self.taken[number] += 1
            self.size -= 1

    def oldest(self) -> str:
        while self.order:
            head = self.order[0]
            if self.taken[head] > 0:
                self.taken[head] -= 1
                self.order.popleft()
                continue
            return head
        return ""


class Inlines:
    """The markers and links of the lines being read (the part of the reader that takes them out).

    Set up from the whole page: only the numbers that have a note somewhere
    on it are markers in the text.
    """

    def __init__(self, lines: list[str], links: Mapping[int, Sequence[LinkSpan]] | None) -> None:
        self.lines = lines
        self.links = links or {}
        self.current = 0  # the line being read
        self.fragments: list[Fragment] = []
        # Numbers that have a note "N) ..." somewhere on the page: only those
        # "N)" in the text are footnote markers (others are printed text).
        self.note_numbers: set[str] = set()
        self.note_stars: set[str] = set()  # "*", "**" of the notes "*) ..."
        self.has_bang_note = False
        for line in lines[1:]:
            if m := NOTE.match(line):
                if m.group("num"):
                    self.note_numbers.add(m.group("num"))
                elif m.group("sup"):
                    self.note_numbers.add(superscript_number(m.group("sup")))
                elif m.group("star"):
                    self.note_stars.add(m.group("star"))
                else:
                    self.has_bang_note = True
        # The misprinted note "!)" stands for a marker "1)".
        self.ascii_numbers = self.note_numbers | ({"1"} if self.has_bang_note else set())
        self.pending = _Waiting()  # markers seen, notes not yet read
        # What a line must hold for each pattern to find a marker there (the
        # pattern's text as printed, or its number): a line holding none of it
        # is passed over without a scan.  Both patterns read a marker of at most
        # _MARK_DIGITS digits: a note's longer number (a superscript note, ¹²³⁾)
        # is no marker of theirs and is left out of the test (a page of thousands
        # of superscript notes had each of its lines tested for every number).
        self.ascii_printed = tuple(sorted(f"{n})" for n in self.ascii_numbers if len(n) <= _MARK_DIGITS))
        self.fused_numbers = tuple(sorted(n for n in self.note_numbers if len(n) <= _MARK_DIGITS))

    def _links_in(self, text: str) -> list[tuple[int, int, str]]:
        """The links of the current line that fall in ``text`` (a suffix of it), as offsets into ``text``."""
        spans = self.links.get(self.current)
        if not spans:
            return []
        offset = len(self.lines[self.current]) - len(text)
        return [(s.start - offset, s.end - offset, s.target) for s in spans if s.start >= offset]

    def _markers(self, text: str) -> list[tuple[int, int, str, str, str]]:
        """The footnote markers in ``text``: (start, end, number, printed, note), in order."""
        found: list[tuple[int, int, str, str, str]] = []
        # Each pattern only where the characters it needs are (found by ``in``,
        # far faster than a scan): the look-behinds they start with would be
        # tried at every position of every line.
        if not text.isascii() and _holds_any(text, SUPERSCRIPT_DIGITS):  # superscripts are not ASCII
            for m in _SUP_MARK.finditer(text):
                found.append((m.start(), m.end(), superscript_number(m.group(0)), m.group(0), ""))
        if ")" in text and _holds_any(text, self.ascii_printed):
            for m in _ASCII_MARK.finditer(text):
                if m.group("num") in self.ascii_numbers:
                    found.append((m.start(), m.end(), m.group("num"), m.group(0), ""))
        if _holds_any(text, self.fused_numbers) and _LETTER_DIGIT.search(text):
            for m in _FUSED_MARK.finditer(text):
                word, num = m.group("word"), m.group("num")
                if num in self.note_numbers and word[-1].islower():
                    note = Said(
                        N_("footnote marker {number} printed against the word {word!r}, taken out as a marker"),
                        number=num,
                        word=word,
                    )
                    found.append((m.start("num"), m.end(), num, num, note))
        if self.note_stars and "*)" in text:
            for m in _STAR_MARK.finditer(text):
                if m.group("stars") in self.note_stars:
                    found.append((m.start(), m.end(), m.group("stars"), m.group(0), ""))
        if not found:
            return found
        found.sort()
        # The patterns cannot overlap (a digit marker needs white space or a
        # letter before it, a fused one a letter); keep the first if they did.
        apart: list[tuple[int, int, str, str, str]] = []
        for mark in found:
            if not apart or mark[0] >= apart[-1][1]:
                apart.append(mark)
        return apart

    def text_with_markers(self, text: str) -> Marked:
        """Take footnote markers out of ``text`` (one pass); remember them as pending."""
        links = self._links_in(text) if self.links else []
        marks = self._markers(text)
        if not marks:
            if not links:
                return text, (), ()
            inlines = [Inline(InlineKind.LINK, s, e, t, text[s:e]) for s, e, t in links if s < e]
            return text, tuple(inlines), ()
        cut = take_out(text, [(m[0], m[1]) for m in marks])
        fused = [m[0] for m in marks if m[4]]
        if fused:
            self._split_fragment(text, fused)
        out: list[Inline] = []
        for (_, _, number, printed, _), pos in zip(marks, cut.positions, strict=True):
            out.append(Inline(InlineKind.FOOTNOTE_REF, pos, pos, number, printed))
            self.pending.add(number)
        for s, e, t in links:
            start, end = cut.moved(s), cut.moved(e)
            if start < end:
                out.append(Inline(InlineKind.LINK, start, end, t, cut.text[start:end]))
        out.sort(key=lambda x: x.start)
        return cut.text, tuple(out), tuple(m[4] for m in marks if m[4])

    def _split_fragment(self, text: str, cuts: list[int]) -> None:
        """Cut the current line's fragment where a fused marker starts (``boven|1``).

        The lossless check counts words: ``boven1`` is one, but the tree
        holds ``boven`` in the text and ``1`` on the note.  The pieces are
        still exactly the source text; only the boundary the reader found is
        shown.  ``text`` is the end of the fragment last listed.
        """
        frag = self.fragments[-1]
        if not frag.text.endswith(text):
            return
        base = len(frag.text) - len(text)
        bounds = [0, *(base + c for c in cuts), len(frag.text)]
        self.fragments[-1:] = [Fragment(frag.text[a:b], frag.loc) for a, b in itertools.pairwise(bounds) if a < b]


def _holds_any(text: str, parts: Sequence[str]) -> bool:
    """Whether ``text`` holds one of ``parts`` (a few short strings); ``map`` runs the tests without a
    generator's frame."""
    return any(map(text.__contains__, parts))
