"""The one normalization lawdiff applies to law text, at the entry.

What it does, and nothing more:

1. Line endings: CRLF and CR become LF.
2. Unicode: NFC composition (so that "é" is one character whatever the dump).
3. Spaces: every white space character other than LF becomes a plain
   space: tabs, non-breaking spaces (U+00A0, U+202F, U+2007) and the other
   Unicode spaces (U+1680, U+2000-U+200A, U+205F, U+3000), and the
   characters Unicode also counts as white space (U+001C-U+001F, U+0085,
   U+2028, U+2029: no dump uses them to break a line, and a line is counted
   by its LF so that a source place means what an editor shows); runs of
   spaces become one; spaces at the start and end of a line are dropped.
4. Footnote markers: superscript markers (``¹⁾``, ``²``) are recognised with
   the same number as ``1)``, and so is a number fused to the word before it
   (``speelruimte1``, where the page has the note); 1936's ``*)`` and ``**)``
   are markers too.  The marker is taken out of the text (kept on the
   footnote as printed), and the space it leaves is closed (:func:`take_out`).

Law text is never rewritten beyond that: no spelling, case or punctuation is
changed.  Misprints are read, not corrected, and the reading is noted.
"""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass

# Every character that ``\s`` (and ``str.isspace``) takes for white space,
# except LF.  Leaving any of them in the text would let a run of them
# survive normalization, and every ``\s*`` of the line readers would then
# rescan the run from each of its characters (quadratic time).
_HSPACE = re.compile(r"[^\S\n]+")
# White space other than a plain space or LF: where there is none, and no
# two spaces meet, rule 3 changes nothing.  Every such character, listed
# (tests/test_habits.py checks the list against ``str.isspace``): the engine
# scans for a set of characters three times faster than for ``[^\S \n]``.
OTHER_SPACES = (
    "\t\x0b\x0c\r\x1c\x1d\x1e\x1f\x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008"
    "\u2009\u200a\u2028\u2029\u202f\u205f\u3000"
)
_OTHER_SPACE = re.compile(f"[{re.escape(OTHER_SPACES)}]")
# Those of them in Latin-1, the characters of most pages: looked for in the
# page's bytes, by a C loop five times faster than the engine's scan.
_LATIN1_OTHER_SPACES = bytes(ord(c) for c in OTHER_SPACES if ord(c) < 256)

SUPERSCRIPT_DIGITS = "⁰¹²³⁴⁵⁶⁷⁸⁹"
_SUPER_TO_DIGIT = {ch: str(i) for i, ch in enumerate(SUPERSCRIPT_DIGITS)}


def normalize_lines(raw: str) -> list[str]:
    """Split text into normalized lines (rules 1-3)."""
    text = unicodedata.normalize("NFC", raw.replace("\r\n", "\n").replace("\r", "\n"))
    if "  " not in text and _no_other_space(text):
        # Plain spaces only, never two together (most pages): a line needs at
        # most its ends stripped, which costs a tenth of the substitution.
        return [line.strip() for line in text.split("\n")]
    return [_HSPACE.sub(" ", line).strip() for line in text.split("\n")]


def _no_other_space(text: str) -> bool:
    """Whether ``text`` holds no white space but spaces and LFs."""
    try:
        data = text.encode("latin-1")
    except UnicodeEncodeError:
        return _OTHER_SPACE.search(text) is None
    return len(data.translate(None, _LATIN1_OTHER_SPACES)) == len(data)


def normalize_inline(raw: str) -> str:
    """Normalize a run of inline text (rules 1-3), keeping edge spaces as one space.

    Used for the text nodes of structured formats, whose edges meet other
    nodes (``"naar boven"`` + marker + ``" voor zich"``).
    """
    if "\r" not in raw and "  " not in raw and not _OTHER_SPACE.search(raw) and unicodedata.is_normalized("NFC", raw):
        return raw  # already normal, as most lines of law are: four scans instead of three copies
    text = unicodedata.normalize("NFC", raw.replace("\r\n", "\n").replace("\r", "\n"))
    return _HSPACE.sub(" ", text)


def superscript_number(marker: str) -> str:
    """The number of a superscript marker such as ``¹⁾`` or ``¹²``, or ""."""
    digits = "".join(_SUPER_TO_DIGIT.get(ch, "") for ch in marker)
    return digits


@dataclass(frozen=True, slots=True)
class Cut:
    """A text with its footnote markers taken out (see :func:`take_out`).

    text: the text without the markers.
    positions: for each marker, where it stood in ``text``.
    starts, ends: the spans of the original text that were taken out (the
        markers and the spaces closed beside them), in order.
    before: for each span, how many characters the spans before it took out.
    """

    text: str
    positions: tuple[int, ...]
    starts: tuple[int, ...]
    ends: tuple[int, ...]
    before: tuple[int, ...]

    def moved(self, offset: int) -> int:
        """Where an offset into the original text stands in ``text``."""
        i = bisect_left(self.starts, offset)
        if i == 0:
            return offset
        start, end = self.starts[i - 1], self.ends[i - 1]
        return offset - self.before[i - 1] - (min(end, offset) - start)


# After a marker, these leave no room for the space before it:
# "boven 1) voor" -> "boven voor", "te voorkomen; ¹⁾" -> "te voorkomen;".
_GAP_CLOSERS = ("", " ", ".", ",", ";", ":", ")")


def take_out(text: str, spans: Sequence[tuple[int, int]]) -> Cut:
    """Take the markers at ``spans`` (sorted, apart) out of ``text`` (rule 4).

    Each marker leaves no doubled space: the space before it goes when a
    space, a sign or the end follows it; at the start of the text the space
    after it goes.  One pass, whatever the number of markers (a line of
    thousands of markers is read in linear time).
    """
    kept: list[tuple[int, int]] = []  # the ranges of ``text`` kept so far, none empty
    gone: list[tuple[int, int]] = []
    positions: list[int] = []
    length = 0  # the length of the text kept so far
    rest = 0  # where the text not yet decided on starts
    for start, end in spans:
        if start > rest:
            kept.append((rest, start))
            length += start - rest
        gone.append((start, end))
        rest = end
        after = text[end : end + 1]
        if kept and text[kept[-1][1] - 1] == " " and after in _GAP_CLOSERS:
            first, last = kept.pop()
            if last - 1 > first:
                kept.append((first, last - 1))
            gone.append((last - 1, last))
            length -= 1
        elif length == 0 and after == " ":
            gone.append((end, end + 1))
            rest = end + 1
        positions.append(length)
    kept.append((rest, len(text)))
    gone.sort()
    before: list[int] = []
    total = 0
    for start, end in gone:
        before.append(total)
        total += end - start
    return Cut(
        "".join(text[a:b] for a, b in kept),
        tuple(positions),
        tuple(s for s, _ in gone),
        tuple(e for _, e in gone),
        tuple(before),
    )
