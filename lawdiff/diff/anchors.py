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
previous version) are not made into tokens at all: :func:`gaps` walks the two texts themselves,
comparing them in C in growing steps, and where they differ looks for where they agree again (a key
of :data:`KEY` characters at the start of a word on one side, found on the other with ``str.find``).
What that costs is about the size of the differences, not of the texts; only the gaps are made into
tokens, by :mod:`lawdiff.diff.words`.
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


# ---------------------------------------------------------------------------
# Long texts that differ in a few places: walked

# Where a walk finds the texts agreeing again: a key of this many characters, at the start of a word of
# one side, found on the other side; the keys of the first words of each side after a difference are tried,
# and of what they find the cheapest gap (fewest characters on both sides) is taken.
KEY = 24
KEYS = 8
# Within REACH, the first keys of this many words of each side are tried: where the changes are dense
# (a word in two or three), a stretch of KEY characters without one can lie some words away.
NEAR_KEYS = 128
# How far (characters) past a difference its keys are looked for at first; sixteen times as far after
# each miss, up to the texts' ends.
REACH = 4096
# Gaps of a walk past which it may give up (see gaps()).
FEW_GAPS = 16
# The first step of comparing two equal runs (characters); it doubles while they agree.
STEP = 256

# old[i0:i1] and new[j0:j1] differ; between two gaps (and before the first, after the last) the texts are
# equal.  Each end of a gap is a token boundary in both texts.
Gap = tuple[int, int, int, int]

_SPACES = re.compile(r"\s+")


def joins(left: str, right: str) -> bool:
    """Whether two neighbouring characters are of one token of :data:`lawdiff.diff.words.TOKEN` (both of a
    word, or both white space); a sign is a token of its own, and "" (a text's end) joins nothing."""
    return ((left.isalnum() or left == "_") and (right.isalnum() or right == "_")) or (
        left.isspace() and right.isspace()
    )


def common_from(a: str, i: int, b: str, j: int) -> int:
    """How many characters ``a[i:]`` and ``b[j:]`` share at their start: compared in C, in steps that
    double from :data:`STEP` while they agree; in the first step that differs, the first difference is
    read from the two steps' code units, as numbers, by their exclusive or."""
    limit = min(len(a) - i, len(b) - j)
    n = 0
    step = STEP
    while n < limit:
        m = min(step, limit - n)
        if b.startswith(a[i + n : i + n + m], j + n):
            n += m
            step *= 2
            continue
        # A byte a character (ASCII) or four, big-endian: the highest bit set in the exclusive or lies
        # in the first character that differs.
        width, code = (8, "ascii") if a.isascii() and b.isascii() else (32, "utf-32-be")
        x = int.from_bytes(a[i + n : i + n + m].encode(code), "big")
        y = int.from_bytes(b[j + n : j + n + m].encode(code), "big")
        return n + m - 1 - ((x ^ y).bit_length() - 1) // width
    return n


def back_to_boundary(a: str, i: int, b: str, j: int, start: int) -> int:
    """How many characters before ``a[i]`` and ``b[j]`` (the text before them the same on both sides, from
    ``start`` on) the last place lies that is a token boundary in both texts; at most ``i - start``."""
    right_a, right_b = a[i : i + 1], b[j : j + 1]
    k = 0
    while i - k > start:
        left = a[i - k - 1]
        if not (joins(left, right_a) or joins(left, right_b)):
            break
        k += 1
        right_a = right_b = left
    return k


def gaps(a: str, b: str, share: float = 1.0) -> list[Gap] | None:
    """Where two texts differ, walked: their common start compared in C, then at each difference the
    place where they agree again (:func:`_resync`), and so on to their ends.

    For long texts that differ in a few places: the cost is about that of the differences and their
    number.  Where no agreement is found (the texts differ from some place on), the rest is one gap.
    None as soon as more than :data:`FEW_GAPS` gaps hold, on both sides, more than ``share`` of the
    characters walked: texts that differ in that many places are better matched another way (a long
    insertion or deletion alone is not that).
    """
    out: list[Gap] = []
    i = j = 0
    spent = 0  # characters in gaps that hold some of both sides
    while True:
        start = i
        n = common_from(a, i, b, j)
        i, j = i + n, j + n
        if i == len(a) and j == len(b):
            return out
        # Mostly a word that differs after a space: a boundary of both already.
        plain = i > start and a[i - 1] == " " and not a[i : i + 1].isspace() and not b[j : j + 1].isspace()
        k = 0 if plain else back_to_boundary(a, i, b, j, start)
        x, y = i - k, j - k
        if x == start and out:
            # The equal run lay inside one token: one gap with the one before.
            x, x1, y, y1 = out.pop()
            spent -= 2 * min(x1 - x, y1 - y)
        found = _resync(a, b, x, y, i, j)
        s, t = found if found is not None else (len(a), len(b))
        out.append((x, s, y, t))
        # What a gap holds on both sides (one word for another; not a long insertion alone).
        spent += 2 * min(s - x, t - y)
        if spent > share * (s + t) and len(out) > FEW_GAPS:
            return None
        if found is None:
            return out
        i, j = s, t


def _next_word(text: str, at: int) -> int | None:
    """The start of the first word after ``at`` (after a run of white space), None at the text's end."""
    m = _SPACES.search(text, at)
    return m.end() if m is not None and m.end() < len(text) else None


def _resync(a: str, b: str, x: int, y: int, i: int, j: int) -> tuple[int, int] | None:
    """Where two texts agree again after they differ at ``a[i]`` / ``b[j]`` (the gap starting at ``a[x]`` /
    ``b[y]``, a boundary of both): the places ``(s, t)``, each the start of a token, from which they agree
    for :data:`KEY` characters (or to both ends), with the fewest characters between ``(x, y)`` and them.

    First the three shapes of one word changed (deleted, inserted, replaced: the text after it agrees).
    Else the keys are the texts at the starts of the next words of each side (up to :data:`NEAR_KEYS`),
    each looked for in the other side within :data:`REACH` characters of the gap; a key that holds a
    further difference is found nowhere near, so the next words' keys are tried too, until the next key's
    own place would cost more than the best found (a word starts two characters after another at the
    nearest: a character and a space).  Where none is found, the first :data:`KEYS` keys are looked for
    sixteen times as far, and so on.
    """
    s1, t1 = _next_word(a, i), _next_word(b, j)
    if s1 is not None and t1 is not None and s1 + KEY <= len(a) and t1 + KEY <= len(b):
        # One word deleted, inserted or replaced (the most changes there are): the text after it agrees.
        # A deletion or an insertion no dearer than the nearest key's own place is the cheapest there is.
        if s1 - x <= t1 - y and y + KEY <= len(b) and b.startswith(a[s1 : s1 + KEY], y):
            return s1, y
        if t1 - y <= s1 - x and x + KEY <= len(a) and a.startswith(b[t1 : t1 + KEY], x):
            return x, t1
        if b.startswith(a[s1 : s1 + KEY], t1):
            return s1, t1
    reach, keys = REACH, NEAR_KEYS
    while True:
        best: tuple[int, int] | None = None
        cost = len(a) + len(b)
        s: int | None = i
        t: int | None = j
        for _ in range(keys):
            s = _next_word(a, s) if s is not None else None
            t = _next_word(b, t) if t is not None else None
            if s is None and t is None:
                break
            if s is not None:
                u = _found(b, a[s : s + KEY], y, y + reach)
                if u is not None and (s - x) + (u - y) < cost:
                    best, cost = (s, u), (s - x) + (u - y)
            if t is not None:
                u = _found(a, b[t : t + KEY], x, x + reach)
                if u is not None and (u - x) + (t - y) < cost:
                    best, cost = (u, t), (u - x) + (t - y)
            if min(cost if s is None else s - x, cost if t is None else t - y) + 2 >= cost:
                break  # every further key costs at least as much as the best found
        if best is not None:
            return best
        if reach >= max(len(a) - x, len(b) - y):
            return None
        # Farther: an insertion or a deletion longer than the reach; its first keys are enough.
        reach, keys = reach * 16, KEYS


def _found(text: str, key: str, lo: int, hi: int) -> int | None:
    """The first place from ``lo`` on, starting before ``hi``, where ``key`` stands in ``text`` at the start
    of a token; a key cut short by its text's end only at the other text's end."""
    if len(key) < KEY:
        u = len(text) - len(key)
        ok = u >= lo and text.endswith(key) and (u == 0 or not joins(text[u - 1], text[u : u + 1]))
        return u if ok else None
    u = text.find(key, lo, hi + len(key))
    while u >= 0:
        if u == 0 or not joins(text[u - 1], text[u]):
            return u
        u = text.find(key, u + 1, hi + len(key))
    return None
