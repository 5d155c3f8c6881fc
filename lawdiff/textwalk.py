"""Two long texts that differ in a few places, walked: where they differ, compared in C, in about the time
their differences take.

A typed draft's paragraph of megabytes against its previous version is not made into tokens: :func:`gaps`
walks the two texts themselves, comparing them in C in growing steps, and where they differ looks for
where they agree again (a key of :data:`KEY` characters at the start of a word on one side, found on the
other with ``str.find``).  What that costs is about the size of the differences, not of the texts.

Shared by the aligner, which weighs two long texts at one address by the share of them the walk finds
equal (:func:`kept`) instead of counting their every word, and the word difference
(:mod:`lawdiff.diff.words`), which makes only the gaps into tokens: the last walk is kept
(:func:`walk`), so that the difference of the pair the aligner weighed walks it once.
"""

from __future__ import annotations

import re

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
    limit = len(a) - i
    if len(b) - j < limit:
        limit = len(b) - j
    n = 0
    step = STEP
    while n < limit:
        m = step if step < limit - n else limit - n  # (no call of min: this runs for every gap)
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
    la, lb = len(a), len(b)
    while True:
        start = i
        n = common_from(a, i, b, j)
        i, j = i + n, j + n
        if i == la and j == lb:
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
        s, t = found if found is not None else (la, lb)
        out.append((x, s, y, t))
        # What a gap holds on both sides (one word for another; not a long insertion alone).
        spent += 2 * (s - x if s - x < t - y else t - y)
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
    la, lb = len(a), len(b)
    m = _SPACES.search(a, i)
    s1 = m.end() if m is not None else la
    m = _SPACES.search(b, j)
    t1 = m.end() if m is not None else lb
    if s1 + KEY <= la and t1 + KEY <= lb:
        # One word deleted, inserted or replaced (the most changes there are): the text after it agrees.
        # A deletion or an insertion no dearer than the nearest key's own place is the cheapest there is.
        key = a[s1 : s1 + KEY]
        if s1 - x <= t1 - y and y + KEY <= lb and b.startswith(key, y):
            return s1, y
        if t1 - y <= s1 - x and x + KEY <= la and a.startswith(b[t1 : t1 + KEY], x):
            return x, t1
        if b.startswith(key, t1):
            return s1, t1
        # A word put in that is longer than the next word of the old text (or one taken away, longer than
        # the next of the new): it is the cheapest unless a key of the other side's next words is found
        # nearer, which the search below would find first; only those places are looked at.
        if (
            s1 - x < t1 - y
            and x + KEY <= la
            and a.startswith(b[t1 : t1 + KEY], x)
            and not _nearer(a, b, x, y, s1, t1 - y, True)
        ):
            return x, t1
        if t1 - y < s1 - x and y + KEY <= lb and b.startswith(key, y) and not _nearer(b, a, y, x, t1, s1 - x, False):
            return s1, y
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
            # A key's place found costs its own place and the other side's; only a place cheaper than the
            # best found is looked for (a key whose own place costs as much is not looked for at all).
            if s is not None and s - x < cost:
                u = _found(b, a[s : s + KEY], y, min(y + reach, y + cost - (s - x) - 1))
                if u is not None and (s - x) + (u - y) < cost:
                    best, cost = (s, u), (s - x) + (u - y)
            if t is not None and t - y < cost:
                u = _found(a, b[t : t + KEY], x, min(x + reach, x + cost - (t - y) - 1))
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


def _nearer(keys: str, other: str, at: int, other_at: int, first: int, cost: int, ties: bool) -> bool:
    """Whether the search of :func:`_resync` finds a place cheaper than ``cost`` (or as cheap, for the first
    key, where ``ties``: it is looked for before the key of that cost) from a key of ``keys`` (the gap
    starting at ``keys[at]``, ``other[other_at]``) at ``first`` or at the next words' starts, before it
    stops: where a key's own place costs within two characters of ``cost``.  The keys of the other side
    cost ``cost`` at least (the first is the one that costs it)."""
    s: int | None = first
    for n in range(NEAR_KEYS):
        if s is None:
            return False
        limit = cost - (s - at) - (0 if ties and n == 0 else 1)  # the dearest the other side's place may be
        if limit >= 0:
            u = _found(other, keys[s : s + KEY], other_at, min(other_at + REACH, other_at + limit))
            if u is not None and u - other_at <= limit:
                return True
        if (s - at) + 2 >= cost:
            return False
        s = _next_word(keys, s)
    return False


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


# Past this share of the characters walked in gaps that hold both sides (see gaps()), two long texts are
# not walked on (the word difference matches them by anchors; the aligner counts their words).
WALKED_SHARE = 0.1


# The last walk (:func:`walk`): its two texts and its gaps, in one tuple (replaced whole).
_LAST: list[tuple[str, str, list[Gap] | None]] = [("", "", [])]


def walk(a: str, b: str) -> list[Gap] | None:
    """``gaps(a, b, WALKED_SHARE)`` (not to be changed); the last pair's answer kept: the aligner walks a
    long pair to weigh it, and its word difference walks the same two texts next (compared in C)."""
    old, new, found = _LAST[0]
    if not (a is old and b is new) and not (len(a) == len(old) and len(b) == len(new) and a == old and b == new):
        found = gaps(a, b, WALKED_SHARE)
        _LAST[0] = (a, b, found)
    return found


def kept(a: str, b: str) -> float | None:
    """The share of two texts' characters (both sides together) that their walk (:func:`walk`) finds
    equal; None where they differ in too many places to be walked."""
    found = walk(a, b)
    if found is None:
        return None
    changed = sum(i1 - i0 + j1 - j0 for i0, i1, j0, j1 in found)
    return 1.0 - changed / max(len(a) + len(b), 1)
