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
    drop = Op.INSERT if keep is Op.DELETE else Op.DELETE
    mine = [p for p in pieces if p.op is not drop]
    texts = [p.text for p in mine]
    ends = list(itertools.accumulate(map(len, texts)))
    touched = [(end - len(t), end) for p, t, end in zip(mine, texts, ends, strict=True) if p.op is keep]
    return "".join(texts), touched


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
    characters; for a long side only those near a change (:func:`_stretches`), each stretch read as
    :func:`_whole` reads a side."""
    if len(text) <= LONG_SIDE:
        return _whole(text, touched, skip)
    span_starts = [s for s, _ in touched]
    span_ends = [e for _, e in touched]
    out = Words([], [], [], [])
    for lo, hi in _stretches(text, touched, skip):
        if out.words:
            out.starts.append(0)
            out.ends.append(0)
            out.words.append(_GAP)
            out.changed.append(False)
        parts = _AT_WORDS.split(text[lo:hi])
        places = list(itertools.accumulate(map(len, parts), initial=lo))
        starts, ends, words = places[1:-1:2], places[2::2], parts[1::2]
        # The words cut by the stretch's edges are left out.
        first, last = 0, len(words)
        if last and starts[0] == lo and lo > skip and WORD.match(text, lo - 1):
            first = 1
        if last > first and ends[-1] == hi and WORD.match(text, hi):
            last -= 1
        if first or last < len(words):
            starts, ends, words = starts[first:last], ends[first:last], words[first:last]
        changed = [False] * len(words)
        # The touched spans that overlap the stretch mark the words they overlap.
        for n in range(bisect.bisect_right(span_ends, lo), bisect.bisect_left(span_starts, hi)):
            s, e = touched[n]
            for k in range(bisect.bisect_right(ends, s), bisect.bisect_left(starts, e)):
                changed[k] = True
        out.starts.extend(starts)
        out.ends.extend(ends)
        out.words.extend(map(str.lower, words))
        out.changed.extend(changed)
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
