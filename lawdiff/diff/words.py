"""Word-level differences: the one home of diff-match-patch.

Its tuples become our own :class:`~lawdiff.diff.vocabulary.Piece` records here,
with ``Diff_Timeout = 0`` so that the result never depends on the machine's
speed.

Each distinct token (a word, a run of spaces, a sign) becomes one character, so
that the matching and the cleanup run on strings.  The tokens of a clause of
ordinary length are matched by :func:`lawdiff.diff.anchors.matching_blocks`: the
common prefix and suffix, then rapidfuzz's ``Indel`` (the longest common
subsequence, bit-parallel, in C).  diff-match-patch then merges the runs and
makes its semantic cleanup, as it did after its own search, which it no longer
makes: Myers' bisection in Python cost twice the time for the same difference on
98 % of the generator's changed clauses; the others are another longest common
subsequence of the same length, listed in ``tests/golden/words/ordinary.json``.

A longer clause (a typed draft's paragraph of megabytes) is not made into tokens
at all where its two texts differ in a few places: they are walked
(:func:`lawdiff.textwalk.gaps`), compared in C, and only the gaps between
their equal runs are made into tokens and diffed, each as the cleanup would have
left it in the whole text (:func:`_walked`).  Two long texts that differ in many
places are matched by anchors and windows in about linear time, as tokens
(:func:`_long_diff`).
"""

from __future__ import annotations

import re

from diff_match_patch import diff_match_patch

from lawdiff.diff.anchors import matching_blocks
from lawdiff.diff.vocabulary import Op, Piece
from lawdiff.textwalk import Gap, back_to_boundary, common_from, walk

# ---------------------------------------------------------------------------
# Word-level difference

TOKEN = re.compile(r"\w+|\s+|[^\w\s]")
# Tokens (words, runs of spaces, signs) of both sides together up to which each distinct token is a
# character of its own (some thirty times the longest clause of the bundled corpus); past it, the
# tokens of one side only share one character per side (see _long_diff).
SHORT_TOKENS = 6000
_OPS = {0: Op.EQUAL, 1: Op.INSERT, -1: Op.DELETE}


def word_diff(old: str, new: str) -> tuple[Piece, ...]:
    """Difference of two texts on whole words, with semantic cleanup."""
    if old == new:
        return (Piece(Op.EQUAL, old),) if old else ()
    if _many_tokens(old, new):
        return _walked(old, new)
    return _short(TOKEN.findall(old), TOKEN.findall(new))


def _many_tokens(old: str, new: str) -> bool:
    """Whether two texts hold more than :data:`SHORT_TOKENS` tokens together, without making them where
    that is plain: never for texts of fewer characters; always for texts of more words (the first
    words, split in C, are enough to tell)."""
    if len(old) + len(new) <= SHORT_TOKENS:
        return False
    words = len(old.split(None, SHORT_TOKENS)) + len(new.split(None, SHORT_TOKENS))
    if words > SHORT_TOKENS:
        return True  # each word holds a token at least
    return len(TOKEN.findall(old)) + len(TOKEN.findall(new)) > SHORT_TOKENS


def _short(old_tokens: list[str], new_tokens: list[str]) -> tuple[Piece, ...]:
    """The difference of two token lists of ordinary length: each distinct token a character, matched,
    merged and cleaned up as diff-match-patch's own search's result was."""
    a, b = _encoded(old_tokens, new_tokens)
    return _cleaned(a, b, old_tokens, new_tokens, merge=True)


def _encoded(old_tokens: list[str], new_tokens: list[str]) -> tuple[str, str]:
    """Each distinct token of both lists one character (diff-match-patch's linesToChars trick), numbered in
    the order first found, old side first: the lists as two strings (made in C, a call per distinct token)."""
    vocab = dict.fromkeys(old_tokens)
    vocab.update(dict.fromkeys(new_tokens))
    n = len(vocab)
    first = _CHAR_RANGES[0]
    chars = map(chr, range(first[0], first[0] + n)) if n <= first[1] - first[0] else map(_char, range(n))
    code = dict(zip(vocab, chars, strict=True)).__getitem__
    return "".join(map(code, old_tokens)), "".join(map(code, new_tokens))


# The private use areas first (as diff-match-patch's own trick), then planes no script uses yet.
_CHAR_RANGES = ((0xE000, 0xF900), (0xF0000, 0x110000), (0x40000, 0xE0000), (0x10000, 0x40000), (0x100, 0xD800))
CHAR_CAPACITY = sum(hi - lo for lo, hi in _CHAR_RANGES)
# The character of every token found on one side only (see _long_diff).
_OLD_ONLY, _NEW_ONLY = "\ufffe", "\uffff"


def _char(n: int) -> str:
    """The n-th character standing for a distinct token."""
    for lo, hi in _CHAR_RANGES:
        if n < hi - lo:
            return chr(lo + n)
        n -= hi - lo
    raise ValueError("more distinct tokens than characters")  # the callers keep below CHAR_CAPACITY


def _dmp() -> diff_match_patch:
    dmp = diff_match_patch()
    dmp.Diff_Timeout = 0
    return dmp


# The one diff-match-patch (its settings are all it holds: each cleanup works on the list it is given).
_DMP = _dmp()


def _long_diff(old_tokens: list[str], new_tokens: list[str]) -> tuple[Piece, ...]:
    """The difference of two long token lists: matched in about linear time, then cleaned up as a short one.

    Each token found on both sides is one character (in sorted order, so that the same texts give
    the same characters on every run) and every token found on one side only is one character for
    that side: such a token can match nothing, and an equal run can only hold tokens of both sides,
    so neither the matching nor the cleanup ever makes two different tokens equal; the pieces are
    read back by position.  Past :data:`CHAR_CAPACITY` tokens of both sides, the further ones are
    read as found on one side only (marked changed, never wrong).
    """
    old_set, new_set = set(old_tokens), set(new_tokens)
    common = sorted(old_set & new_set)[:CHAR_CAPACITY]
    table = dict(zip(common, map(_char, range(len(common))), strict=True))
    old_chars = {t: table.get(t, _OLD_ONLY) for t in old_set}
    new_chars = {t: table.get(t, _NEW_ONLY) for t in new_set}
    a = "".join(map(old_chars.__getitem__, old_tokens))
    b = "".join(map(new_chars.__getitem__, new_tokens))
    return _cleaned(a, b, old_tokens, new_tokens, merge=False)


def _cleaned(a: str, b: str, old_tokens: list[str], new_tokens: list[str], merge: bool) -> tuple[Piece, ...]:
    """The difference of two token strings: their matching blocks as diff-match-patch's runs, semantically
    cleaned up by it, read back as pieces of tokens.

    ``merge``: the runs are first merged as diff-match-patch's own search left them (a clause of ordinary
    length, whose difference stays what that search gave); not for a long clause, whose tokens of one
    side only share a character (merging shifts edits along repeated text and the cleanup then joins
    them: twice the words marked changed in a text of repeated words)."""
    diffs: list[tuple[int, str]] = []
    i = j = 0
    for x, y, n in [*matching_blocks(a, b), (len(a), len(b), 0)]:
        if x > i:
            diffs.append((-1, a[i:x]))
        if y > j:
            diffs.append((1, b[j:y]))
        if n:
            diffs.append((0, a[x : x + n]))
        i, j = x + n, y + n
    dmp = _DMP
    if merge:
        dmp.diff_cleanupMerge(diffs)
    dmp.diff_cleanupSemantic(diffs)
    return _pieces(diffs, old_tokens, new_tokens)


def _pieces(diffs: list[tuple[int, str]], old_tokens: list[str], new_tokens: list[str]) -> tuple[Piece, ...]:
    """diff-match-patch's runs read back as pieces of tokens, by position (a character per token)."""
    pieces: list[Piece] = []
    pa = pb = 0
    for op, chars in diffs:
        n = len(chars)
        if not n:
            continue
        if op == 1:
            text = "".join(new_tokens[pb : pb + n])
            pb += n
        else:
            text = "".join(old_tokens[pa : pa + n])
            pa += n
            pb += n if op == 0 else 0
        kind = _OPS[op]
        if pieces and pieces[-1].op is kind:
            pieces[-1] = Piece(kind, pieces[-1].text + text)
        else:
            pieces.append(Piece(kind, text))
    return tuple(pieces)


def rebuild(pieces: tuple[Piece, ...]) -> tuple[str, str]:
    """The old and the new text of a difference."""
    old = "".join(p.text for p in pieces if p.op is not Op.INSERT)
    new = "".join(p.text for p in pieces if p.op is not Op.DELETE)
    return old, new


# ---------------------------------------------------------------------------
# Long texts: walked, each gap made into tokens on its own

# Gaps (see :func:`lawdiff.textwalk.gaps`) that an equal run of at most as many tokens as the changes on
# each side of it separates are diffed together, so that diff-match-patch's cleanup joins them as it would
# have in the whole text; a run longer than this many characters is never taken to be that short.
JOIN_CHARS = 1024
# An edit diffed with the text after it, of about this many characters, so that it may move into it as
# the cleanup moves edits (to the right, where they start and end a word).
AFTER = 64


def _walked(old: str, new: str) -> tuple[Piece, ...]:
    """The difference of two long texts: walked to their gaps (:func:`lawdiff.textwalk.walk`), whose
    tokens alone are made; the text between the gaps is kept whole, never made into tokens.

    A gap is joined to the one before where the equal run between them holds no more tokens than the
    changes on each side of it (diff-match-patch's cleanup would make them one change).

    The pieces are made in one loop over the gaps, the shapes most gaps have (one word for another, a
    word taken away or put in) written out in it: every equal piece is a stretch of the old text (the
    texts agree there), so that it is one slice from where the last edit ended, made when the next edit
    comes; an edit beside one of its kind is joined to it.
    """
    found = walk(old, new)  # (the aligner may have walked the pair: its gaps are kept)
    if found is None:
        # Texts that differ in many places (or little text in many repeats, where a walk may lose its way):
        # made into tokens and matched by anchors, as a whole.
        return _long_diff(TOKEN.findall(old), TOKEN.findall(new))
    spans = _joined(old, new, found)
    pieces: list[Piece] = []
    add = pieces.append
    equal, delete, insert = Op.EQUAL, Op.DELETE, Op.INSERT
    eq = 0  # where the equal text not yet made a piece starts, in the old text
    ends = [i0 for i0, _, _, _ in spans[1:]]
    ends.append(len(old))
    for (i0, i1, j0, j1), end in zip(spans, ends, strict=True):
        # An edit may move into the equal text after it (to ``end``, the next gap), never through it.
        ga, gb = old[i0:i1], new[j0:j1]
        if ga[-1:] == " " == gb[-1:] and ga != gb and ga[:-1].isalnum() and gb[:-1].isalnum():
            # Mostly one word and its space for another.
            if eq < i0:
                add(Piece(equal, old[eq:i0]))
            elif pieces and pieces[-1].op is delete:
                pieces[-1] = Piece(delete, pieces[-1].text + ga[:-1])
                add(Piece(insert, gb[:-1]))
                eq = i1 - 1
                continue
            add(Piece(delete, ga[:-1]))
            add(Piece(insert, gb[:-1]))
            eq = i1 - 1
            continue
        if not gb and old[i0 : i0 + 1] != old[i1 : i1 + 1]:
            # Taken away whole, where the text after it does not repeat its start (it cannot move).
            edits: list[tuple[Op, int, str]] = [(delete, i0, ga)]
        elif not ga and new[j0 : j0 + 1] != new[j1 : j1 + 1]:
            edits = [(insert, i0, gb)]  # put in whole, the same
        else:
            edits = _gap(old, new, (i0, i1, j0, j1), end - i1)
        for op, at, text in edits:
            if eq < at:
                add(Piece(equal, old[eq:at]))
            elif pieces and pieces[-1].op is op:
                pieces[-1] = Piece(op, pieces[-1].text + text)
                eq = at + len(text) if op is delete else at
                continue
            add(Piece(op, text))
            eq = at + len(text) if op is delete else at
    if eq < len(old):
        add(Piece(equal, old[eq:]))
    return tuple(pieces)


def _joined(old: str, new: str, found: list[Gap]) -> list[Gap]:
    """The gaps, each joined to the one before where the equal run between them holds no more tokens than
    the changes on each side of it (most gaps are a word or two apart from the next by many)."""
    out: list[Gap] = []
    sizes: list[int] = []  # per gap kept, the tokens of its larger side
    for gap in found:
        i0, i1, j0, j1 = gap
        ga, gb = old[i0:i1], new[j0:j1]
        # The tokens of the gap's larger side (a word and its space: two, without making them).
        size = max(
            2 if ga[-1:] == " " and ga[:-1].isalnum() else len(TOKEN.findall(ga)) if ga else 0,
            2 if gb[-1:] == " " and gb[:-1].isalnum() else len(TOKEN.findall(gb)) if gb else 0,
        )
        if out:
            p0, p1, q0, _ = out[-1]
            most = min(sizes[-1], size)
            between = old[p1:i0] if i0 - p1 <= JOIN_CHARS else ""
            if between and len(between.split(None, most)) <= most and len(TOKEN.findall(between)) <= most:
                out[-1] = (p0, i1, q0, j1)
                sizes[-1] = _tokens(old[p0:i1], new[q0:j1])
                continue
        sizes.append(size)
        out.append(gap)
    return out


def _tokens(a: str, b: str) -> int:
    """The tokens of the larger side of a gap (a word and its space: two, without making them)."""
    return max(
        2 if len(side) > 1 and side[-1] == " " and side[:-1].isalnum() else len(TOKEN.findall(side)) for side in (a, b)
    )


def _gap(old: str, new: str, gap: Gap, reach: int) -> list[tuple[Op, int, str]]:
    """The edits of one gap, in order, each with the place in the old text where it stands (a deletion's
    start; where an insertion goes in): the text between them, and after the last up to where the old text
    goes on equal to the new, is equal (past the gap where an edit moved into the equal text after it, by
    fewer than ``reach`` characters).

    Without their common first and last tokens, two sides that share no token are deleted and inserted
    whole, as the cleanup leaves them; an insertion or a deletion alone moves to the right as far as the
    text after it repeats it (the cleanup's move); sides that share a token are diffed as a short text,
    with some of the text after them.
    """
    i0, i1, j0, j1 = gap
    ga, gb = old[i0:i1], new[j0:j1]
    # Mostly one word and its space for another, or taken away, or put in.
    if ga[-1:] == " " == gb[-1:] and ga != gb and ga[:-1].isalnum() and gb[:-1].isalnum():
        return [(Op.DELETE, i0, ga[:-1]), (Op.INSERT, i1 - 1, gb[:-1])]
    # Taken away or put in whole (a side empty): no token of it is shared, none is made.
    if not gb:
        m = _slide(old, i0, i1, i1 + reach)
        return [(Op.DELETE, i0 + m, old[i0 + m : i1 + m])]
    if not ga:
        m = _slide(new, j0, j1, j1 + reach)
        return [(Op.INSERT, i0 + m, new[j0 + m : j1 + m])]
    a, b = TOKEN.findall(ga), TOKEN.findall(gb)
    na, nb = len(a), len(b)
    p = 0
    while p < na and p < nb and a[p] == b[p]:
        p += 1
    q = 0
    while q < na - p and q < nb - p and a[na - 1 - q] == b[nb - 1 - q]:
        q += 1
    da, db = a[p : na - q], b[p : nb - q]
    if da and db and not set(da).isdisjoint(db):
        # Context after the gap, to a boundary, that an edit may move into.
        after = max(0, min(AFTER, reach - 1))
        after -= back_to_boundary(old, i1 + after, old, i1 + after, i1)
        edits: list[tuple[Op, int, str]] = []
        at = i0
        for piece in _fine(old[i0 : i1 + after], new[j0 : j1 + after]):
            if piece.op is not Op.INSERT:
                if piece.op is Op.DELETE:
                    edits.append((Op.DELETE, at, piece.text))
                at += len(piece.text)
            else:
                edits.append((Op.INSERT, at, piece.text))
        # (The equal text at the end, to i1 + after, is the equal run the next gap's text starts with.)
        return edits
    head = len("".join(a[:p]))
    x, y = i0 + head, j0 + head
    deleted, inserted = "".join(da), "".join(db)
    if deleted and inserted:
        return [(Op.DELETE, x, deleted), (Op.INSERT, x + len(deleted), inserted)]
    if deleted:
        m = _slide(old, x, x + len(deleted), i1 + reach)
        return [(Op.DELETE, x + m, old[x + m : x + m + len(deleted)])]
    m = _slide(new, y, y + len(inserted), j1 + reach)
    return [(Op.INSERT, x + m, new[y + m : y + m + len(inserted)])]


def _slide(text: str, x: int, y: int, end: int) -> int:
    """How far an edit ``text[x:y]`` (a deletion from the old text, an insertion into the new) moves to the
    right: as far as the text after it repeats it, to a token boundary, leaving a token before ``end``
    (where the equal text after it ends): diff-match-patch's cleanup moves such an edit there."""
    if text[x : x + 1] != text[y : y + 1]:
        return 0
    m = min(common_from(text, x, text, y), end - y - 1)
    if m <= 0:
        return 0
    return m - back_to_boundary(text, x + m, text, y + m, x)


def _fine(old: str, new: str) -> tuple[Piece, ...]:
    """The difference of the two sides of a gap, made into tokens: as a short text without the merge
    that a long one goes without (see :func:`_cleaned`); as a long one by anchors where it is long."""
    old_tokens, new_tokens = TOKEN.findall(old), TOKEN.findall(new)
    if len(old_tokens) + len(new_tokens) > SHORT_TOKENS:
        return _long_diff(old_tokens, new_tokens)
    a, b = _encoded(old_tokens, new_tokens)
    return _cleaned(a, b, old_tokens, new_tokens, merge=False)
