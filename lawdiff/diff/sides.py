"""The words on each side of a word difference, and which of them the difference touched.

What the flags (:mod:`lawdiff.diff.significance`) read: a side's text rebuilt from the pieces, the
spans its deletions (old side) or insertions (new side) cover, and its words in columns (where each
starts and ends, its case-folded form, whether a touched span overlaps it).  A side of ordinary
length is read whole in a few passes in C; a long one (a typed draft's paragraph of megabytes) only
around what changed.
"""

from __future__ import annotations

import bisect
import itertools
import re
from collections.abc import Sequence
from typing import NamedTuple

from lawdiff.diff.vocabulary import Op, Piece

# A word: letters and digits, a compound joined by hyphens ("niet-aangeduide") one word of its own.
WORD = re.compile(r"\w+(?:-\w+)*")


class Words(NamedTuple):
    """The words of one side, in columns (one entry per word): where each starts and ends, its case-folded
    form, and whether the difference touched it (deleted on the old side, inserted on the new)."""

    starts: list[int]
    ends: list[int]
    words: list[str]
    changed: list[bool]


def side(pieces: Sequence[Piece], keep: Op) -> tuple[str, list[tuple[int, int]]]:
    """One side's text and the spans of it that the difference touched (deleted or inserted), in order."""
    text: list[str] = []
    touched: list[tuple[int, int]] = []
    at = 0
    for p in pieces:
        if p.op is Op.EQUAL or p.op is keep:
            text.append(p.text)
            if p.op is keep:
                touched.append((at, at + len(p.text)))
            at += len(p.text)
    return "".join(text), touched


# A side longer than this is read only around what changed (CONTEXT characters on each side of each
# touched span, more than the longest phrase of the lists): a paragraph of megabytes with a few
# words changed costs the words around them, not all of its words.
LONG_SIDE = 20_000
CONTEXT = 48
# Between two stretches read apart: a word no phrase holds, so that no phrase spans the gap.
_GAP = "\x00"
# A side's text cut at its words: gaps and words in turn, the words at the odd places.
_AT_WORDS = re.compile(f"({WORD.pattern})")


def _stretches(text: str, touched: list[tuple[int, int]], skip: int) -> list[tuple[int, int]]:
    """The parts of a side to read: all of it from ``skip``, or for a long side the context of each change."""
    if len(text) <= LONG_SIDE:
        return [(skip, len(text))]
    out: list[tuple[int, int]] = []
    for s, e in touched:
        lo, hi = max(skip, s - CONTEXT), min(len(text), e + CONTEXT)
        if out and lo <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], hi))
        elif lo < hi:
            out.append((lo, hi))
    return out


def words_of(text: str, touched: list[tuple[int, int]], skip: int) -> Words:
    """The words of a side from ``skip`` on, each marked changed when the difference touched any of its
    characters; for a long side only those near a change (:func:`_stretches`)."""
    if len(text) <= LONG_SIDE:
        return _whole(text, touched, skip)
    starts = [s for s, _ in touched]
    out = Words([], [], [], [])
    for lo, hi in _stretches(text, touched, skip):
        if out.words:
            out.starts.append(0)
            out.ends.append(0)
            out.words.append(_GAP)
            out.changed.append(False)
        for m in WORD.finditer(text, lo, hi):
            start, end = m.span()
            if (start == lo and WORD.match(text, lo - 1) and lo > skip) or (end == hi and WORD.match(text, hi)):
                continue  # a word cut by the stretch's edge
            k = bisect.bisect_left(starts, end) - 1  # the last touched span starting before the word's end
            out.starts.append(start)
            out.ends.append(end)
            out.words.append(m.group().lower())
            out.changed.append(k >= 0 and touched[k][1] > start)
    return out


def _whole(text: str, touched: list[tuple[int, int]], skip: int) -> Words:
    """:func:`words_of` a side read whole: its words and their places in a few passes in C (the text cut
    at its words, the lengths added up), then each touched span marks the words it overlaps."""
    parts = _AT_WORDS.split(text[skip:])
    places = list(itertools.accumulate(map(len, parts), initial=skip))
    starts, ends, words = places[1:-1:2], places[2::2], parts[1::2]
    changed = [False] * len(words)
    for s, e in touched:
        # The words ending after s and starting before e.
        for k in range(bisect.bisect_right(ends, s), bisect.bisect_left(starts, e)):
            changed[k] = True
    return Words(starts, ends, list(map(str.lower, words)), changed)
