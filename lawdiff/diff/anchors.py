"""Matching two token sequences, long ones in about linear time: anchors first, fine differences between them.

diff-match-patch's bisection (Myers' O(ND) search, in Python) cost minutes for a clause of a
megabyte (a typed draft's paragraph, a wiki page's line), and twice rapidfuzz's time for a clause of
ordinary length.  The matching is made here instead, in steps that each cost about the size of what
they look at (a clause of ordinary length is one region small enough for step 2):

1. the common prefix and suffix are matched;
2. a region small enough (:data:`LEAF_CELLS`) is matched by rapidfuzz's ``Indel`` opcodes (the
   longest common subsequence, bit-parallel, in C);
3. a larger region is cut at *anchors*: shingles of ``k`` tokens (k = 1, 4, 16) found exactly once
   on each side (patience diff's idea, on shingles so that a text of a few hundred words repeated
   in any order still has some), of which the longest run in the same order on both sides is kept;
   only the shingles that start with one of the rarest tokens are looked at (the same ones on
   both sides, chosen by the content), so the tables stay small; the regions between the anchors
   are matched in turn;
4. a large region without any anchor (the same few words repeated) is matched window by window
   along its diagonal: :data:`WINDOW` tokens of the old side against as many of the new plus some
   slack, of which the matches in the window's first half are kept.

The sequences are strings of one character per distinct token (as diff-match-patch's own
linesToChars trick), so that slicing, comparing and rapidfuzz all run in C.  The result is a list
of matching blocks; :mod:`lawdiff.diff.words` turns them into a difference and
runs diff-match-patch's semantic cleanup on it.

Two long texts that differ in a few places (a typed draft's paragraph of megabytes against its
previous version) are not made into tokens at all: :func:`lawdiff.textwalk.gaps` walks the two texts
themselves (in a module of its own, which the aligner reads too); only the gaps are made into tokens,
by :mod:`lawdiff.diff.words`.
"""

from __future__ import annotations

import bisect
import re
from collections import Counter

from rapidfuzz.distance import Indel

# A region of at most this many cells (old tokens x new tokens) is matched whole by rapidfuzz.
LEAF_CELLS = 4_000_000
# The anchorless walk: old tokens per window.
WINDOW = 2048
# About how many positions of each side one region's anchor search looks at.
SAMPLE_TARGET = 16384
SHINGLES = (1, 4, 16)

# (i, j, n): a[i:i+n] == b[j:j+n]
Block = tuple[int, int, int]
Region = tuple[int, int, int, int]


def matching_blocks(a: str, b: str) -> list[Block]:
    """The matching blocks of two token strings (a character per token), in order, not overlapping."""
    out: list[Block] = []
    todo: list[Region] = [(0, len(a), 0, len(b))]
    while todo:
        a0, a1, b0, b1 = _trim(a, b, todo.pop(), out)
        if a0 == a1 or b0 == b1:
            continue
        if (a1 - a0) * (b1 - b0) <= LEAF_CELLS:
            out.extend(_indel(a, b, a0, a1, b0, b1))
            continue
        anchors = _anchors(a, b, a0, a1, b0, b1)
        if not anchors:
            out.extend(_windows(a, b, a0, a1, b0, b1))
            continue
        i, j = a0, b0
        for x, y, n in anchors:
            todo.append((i, x, j, y))
            out.append((x, y, n))
            i, j = x + n, y + n
        todo.append((i, a1, j, b1))
    out.sort()
    return out


def common_prefix(a: str, b: str) -> int:
    """How many leading characters two strings share (a binary search on slices, compared in C)."""
    lo, hi = 0, min(len(a), len(b))
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if a[lo:mid] == b[lo:mid]:
            lo = mid
        else:
            hi = mid - 1
    return lo


def _trim(a: str, b: str, region: Region, out: list[Block]) -> Region:
    """The region without its common prefix and suffix, which go to ``out``."""
    a0, a1, b0, b1 = region
    n = common_prefix(a[a0:a1], b[b0:b1])
    if n:
        out.append((a0, b0, n))
        a0, b0 = a0 + n, b0 + n
    n = common_prefix(a[a0:a1][::-1], b[b0:b1][::-1])
    if n:
        out.append((a1 - n, b1 - n, n))
        a1, b1 = a1 - n, b1 - n
    return a0, a1, b0, b1


def _indel(a: str, b: str, a0: int, a1: int, b0: int, b1: int) -> list[Block]:
    """rapidfuzz's longest common subsequence of a region, as blocks."""
    ops = Indel.opcodes(a[a0:a1], b[b0:b1])
    return [(a0 + o.src_start, b0 + o.dest_start, o.src_end - o.src_start) for o in ops if o.tag == "equal"]


def _sampled(a: str, b: str) -> re.Pattern[str] | None:
    """The tokens whose shingles are looked at: the rarest tokens of both sides, taken in the order
    (count, character) until they stand at :data:`SAMPLE_TARGET` positions; decided by the content
    alone, so the same on both sides and on every run."""
    # Counted on every n-th token of a long region: the counts only choose among the rare tokens.
    stride = max(1, (len(a) + len(b)) // (8 * SAMPLE_TARGET))
    ca, cb = Counter(a[::stride]), Counter(b[::stride])
    # Only a token of both sides can anchor.
    counts = {ch: n + cb[ch] for ch, n in ca.items() if ch in cb}
    chosen: list[str] = []
    total = 0
    for ch, n in sorted(counts.items(), key=lambda kv: (kv[1], kv[0])):
        if total >= 2 * SAMPLE_TARGET:
            break
        chosen.append(ch)
        total += n * stride
    if not chosen:
        return None
    return re.compile("[" + "".join(re.escape(c) for c in chosen) + "]")


def _anchors(a: str, b: str, a0: int, a1: int, b0: int, b1: int) -> list[Block]:
    """The longest run, in the same order on both sides, of sampled shingles found once on each side;
    for the shortest shingle length that has any."""
    ra, rb = a[a0:a1], b[b0:b1]
    sampled = _sampled(ra, rb)
    if sampled is None:
        return []
    pa = [m.start() for m in sampled.finditer(ra)]
    pb = [m.start() for m in sampled.finditer(rb)]
    for k in SHINGLES:
        ka = [ra[i : i + k] for i in pa if i + k <= len(ra)]
        kb = [rb[j : j + k] for j in pb if j + k <= len(rb)]
        once = {s for s, n in Counter(ka).items() if n == 1}
        once &= {s for s, n in Counter(kb).items() if n == 1}
        if not once:
            continue
        where_b = {rb[j : j + k]: j for j in pb if rb[j : j + k] in once}
        pairs = [(i, where_b[ra[i : i + k]]) for i in pa if ra[i : i + k] in once]
        out: list[Block] = []
        end_a = end_b = 0
        for i, j in _longest_increasing(pairs):
            if i >= end_a and j >= end_b:
                out.append((a0 + i, b0 + j, k))
                end_a, end_b = i + k, j + k
        if out:
            return out
    return []


def _longest_increasing(pairs: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The longest chain of pairs increasing in both (pairs come increasing in the first)."""
    tails: list[int] = []  # per chain length, the smallest last second value
    ends: list[int] = []  # per chain length, the index of that pair
    back = [-1] * len(pairs)
    for n, (_, j) in enumerate(pairs):
        k = bisect.bisect_left(tails, j)
        if k == len(tails):
            tails.append(j)
            ends.append(n)
        else:
            tails[k] = j
            ends[k] = n
        back[n] = ends[k - 1] if k else -1
    chain: list[tuple[int, int]] = []
    n = ends[-1] if ends else -1
    while n >= 0:
        chain.append(pairs[n])
        n = back[n]
    return chain[::-1]


def _windows(a: str, b: str, a0: int, a1: int, b0: int, b1: int) -> list[Block]:
    """A region without anchors, matched window by window along its diagonal.

    Each window is :data:`WINDOW` old tokens against as many new ones, give or take the region's
    drift (its sides' difference in length, in proportion), and no more: in a text of repeated
    words, spare new tokens at the window's end could as well be matched at its start, which would
    shift the rest; with windows of the same length a shift costs edits at both ends and is not
    taken.  The matches that start in the window's first half on the old side are kept and the
    next window starts where the last of them ends.  A window whose first half matches nothing
    gives its halves as deleted and inserted.
    """
    out: list[Block] = []
    i, j = a0, b0
    while i < a1 and j < b1:
        ra, rb = a1 - i, b1 - j
        if ra * rb <= LEAF_CELLS:
            out.extend(_indel(a, b, i, a1, j, b1))
            break
        wa = min(WINDOW, ra)
        wb = max(1, min(rb, wa + (rb - ra) * wa // ra))
        cut = i + wa // 2
        kept = [blk for blk in _indel(a, b, i, i + wa, j, j + wb) if blk[0] < cut]
        if kept:
            out.extend(kept)
            x, y, n = kept[-1]
            i, j = x + n, y + n
        else:
            i, j = cut, j + wb // 2
    return out
