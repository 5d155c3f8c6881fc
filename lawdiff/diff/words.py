"""Word-level differences: the one home of diff-match-patch.

Its tuples become our own :class:`~lawdiff.diff.vocabulary.Piece` records here,
with ``Diff_Timeout = 0`` so that the result never depends on the machine's
speed.

Each distinct token (a word, a run of spaces, a sign) becomes one character, so
that the matching and the cleanup run on strings.  The tokens are matched by
:func:`lawdiff.diff.anchors.matching_blocks`: the common prefix and suffix, then
rapidfuzz's ``Indel`` (the longest common subsequence, bit-parallel, in C) for a
clause of ordinary length, anchors and windows in about linear time for a longer
one (a typed draft's paragraph of megabytes).  diff-match-patch then merges the
runs and makes its semantic cleanup, as it did after its own search, which it no
longer makes: Myers' bisection in Python cost twice the time for the same
difference on 98 % of the generator's changed clauses; the others are another
longest common subsequence of the same length, listed in
``tests/golden/words/ordinary.json``.
"""

from __future__ import annotations

import re

from diff_match_patch import diff_match_patch

from lawdiff.diff.anchors import matching_blocks
from lawdiff.diff.vocabulary import Op, Piece

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
    old_tokens, new_tokens = TOKEN.findall(old), TOKEN.findall(new)
    if len(old_tokens) + len(new_tokens) > SHORT_TOKENS:
        return _long_diff(old_tokens, new_tokens)
    vocab: dict[str, str] = {}

    def encode(tokens: list[str]) -> str:
        out = []
        for tok in tokens:
            ch = vocab.get(tok)
            if ch is None:
                # Each distinct token becomes one character (diff-match-patch's linesToChars trick).
                ch = vocab[tok] = _char(len(vocab))
            out.append(ch)
        return "".join(out)

    return _cleaned(encode(old_tokens), encode(new_tokens), old_tokens, new_tokens, merge=True)


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
    dmp = _dmp()
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
