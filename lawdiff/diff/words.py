"""Word-level differences: the one home of diff-match-patch.

Its tuples become our own :class:`~lawdiff.diff.records.Piece` records here,
with ``Diff_Timeout = 0`` so that the result never depends on the machine's
speed.
"""

from __future__ import annotations

import re

from diff_match_patch import diff_match_patch

from lawdiff.diff.records import Op, Piece

# ---------------------------------------------------------------------------
# Word-level difference

_TOKEN = re.compile(r"\w+|\s+|[^\w\s]")


def word_diff(old: str, new: str) -> tuple[Piece, ...]:
    """Difference of two texts on whole words, with semantic cleanup."""
    if old == new:
        return (Piece(Op.EQUAL, old),) if old else ()
    vocab: dict[str, str] = {}
    tokens: list[str] = []

    def encode(text: str) -> str:
        out = []
        for tok in _TOKEN.findall(text):
            ch = vocab.get(tok)
            if ch is None:
                # Each distinct word becomes one character, so that
                # diff-match-patch works on words (its linesToChars trick).
                ch = chr(0xE000 + len(tokens)) if len(tokens) < 6400 else chr(0xF0000 + len(tokens) - 6400)
                vocab[tok] = ch
                tokens.append(tok)
            out.append(ch)
        return "".join(out)

    a, b = encode(old), encode(new)
    dmp = diff_match_patch()
    dmp.Diff_Timeout = 0
    diffs = dmp.diff_main(a, b, False)
    dmp.diff_cleanupSemantic(diffs)
    decode = {ch: tok for tok, ch in vocab.items()}
    ops = {0: Op.EQUAL, 1: Op.INSERT, -1: Op.DELETE}
    pieces: list[Piece] = []
    for op, chars in diffs:
        text = "".join(decode[c] for c in chars)
        if not text:
            continue
        if pieces and pieces[-1].op is ops[op]:
            pieces[-1] = Piece(ops[op], pieces[-1].text + text)
        else:
            pieces.append(Piece(ops[op], text))
    return tuple(pieces)


def rebuild(pieces: tuple[Piece, ...]) -> tuple[str, str]:
    """The old and the new text of a difference."""
    old = "".join(p.text for p in pieces if p.op is not Op.INSERT)
    new = "".join(p.text for p in pieces if p.op is not Op.DELETE)
    return old, new
