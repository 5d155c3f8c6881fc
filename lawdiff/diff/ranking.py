"""Drafting patterns and the score: how much a change may change the rules.

A change's score (:func:`rank`, kept as :attr:`Change.significance`) weighs the flags
:mod:`lawdiff.diff.significance` raised on it (:data:`FLAG_WEIGHTS`) and adds the share of its words that
changed; a heading's change weighs half.  The same substitution made in several clauses of a pair (2007 ->
2017 45C1-45C4(a): "moet ... worden" -> "wordt geacht" / "is") is one drafting pattern (:func:`patterns`),
which weighs as one change however many clauses it touches.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence

from lawdiff.align import Aspect
from lawdiff.diff import significance
from lawdiff.diff.editorial import canonical
from lawdiff.diff.sides import LONG_SIDE
from lawdiff.diff.sides import WORD as _WORD
from lawdiff.diff.vocabulary import Change, ChangeKind, Flag, Op, Pattern, Piece, Signal

__all__ = ["FLAG_WEIGHTS", "HEADING_WEIGHT", "patterns", "rank", "ranked"]

# What a flag weighs in a change's score: how much a change of such words may change the rule.
FLAG_WEIGHTS = {
    Flag.MODAL: 1.0,
    Flag.NEGATION: 1.0,
    Flag.CONDITION: 0.8,
    Flag.NUMBER: 0.8,
    Flag.ACTOR: 0.5,
    Flag.REFERENCE: 0.1,
}
# A heading's change weighs this share of a clause's: a heading names the rule, it does not make it.
HEADING_WEIGHT = 0.5


def _pattern_key(s: Signal) -> tuple[Flag, tuple[str, ...], tuple[str, ...]] | None:
    """What makes two changes' flags the same substitution, or None for a flag no pattern holds.

    A substitution loses words: for ``modal`` the words lost and the modal words gained other than
    the deeming phrases (``moet`` -> ``wordt geacht`` is ``moet`` -> ``is``, both say what is so
    instead of what must be done); for the other kinds the words lost and the words gained, both
    present (a word only dropped or only added is no substitution).  References never: a
    renumbering elsewhere retargets them.
    """
    if s.flag is Flag.REFERENCE or not s.removed:
        return None
    removed = tuple(sorted(canonical(w) for w in s.removed))
    added = tuple(sorted(canonical(w) for w in s.added))
    if s.flag is Flag.MODAL:
        return (s.flag, removed, tuple(w for w in added if w not in significance.STATEMENTS))
    return (s.flag, removed, added) if added else None


def _replacement(pieces: Sequence[Piece], words: tuple[str, ...]) -> str:
    """What the difference put in the place of the first deleted run that holds one of ``words``: the
    inserted run beside it ("wordt geacht", "is"), "" if none."""
    wanted = set(words)
    for i, p in enumerate(pieces):
        if p.op is Op.DELETE and wanted.intersection(canonical(p.text).split()):
            for j in (i + 1, i - 1):
                if 0 <= j < len(pieces) and pieces[j].op is Op.INSERT:
                    return pieces[j].text.strip()
            return ""
    return ""


def patterns(changes: Sequence[Change]) -> tuple[Pattern, ...]:
    """The drafting patterns among a pair's changes: a flag with the same key (:func:`_pattern_key`)
    in two changes or more that were compared and are not editorial; in the order of their first change."""
    groups: dict[tuple[Flag, tuple[str, ...], tuple[str, ...]], list[tuple[Change, Signal]]] = {}
    for ch in changes:
        if not ch.counterpart_in_corpus or ch.editorial_only:
            continue
        for s in ch.signals:
            key = _pattern_key(s)
            if key is not None:
                groups.setdefault(key, []).append((ch, s))
    out: list[Pattern] = []
    for (flag, removed, _), members in groups.items():
        if len({ch.id for ch, _ in members}) < 2:
            continue
        added: dict[str, None] = {}
        for ch, s in members:
            for w in s.added or (_replacement(ch.diff, removed),):
                if w:
                    added.setdefault(w, None)
        out.append(
            Pattern(
                flag,
                removed,
                tuple(added),
                tuple(ch.id for ch, _ in members),
                tuple((ch.new or ch.old)[0] for ch, _ in members),
            )
        )
    return tuple(out)


def _share_changed(pieces: Sequence[Piece]) -> float:
    """The share of a difference's words (both sides together) that were deleted or inserted, each piece's
    words counted in it alone."""
    if len(pieces) > 2:
        equal = [p.text for p in pieces if p.op is Op.EQUAL]
        edits = [p.text for p in pieces if p.op is not Op.EQUAL]
        if sum(map(len, equal)) + sum(map(len, edits)) > 2 * LONG_SIDE:
            # The equal pieces are on both sides: read once, counted twice.
            changed = _words_in(edits)
            total = 2 * _words_in(equal) + changed
            return changed / total if total else 0.0
    changed = total = 0
    for p in pieces:
        n = len(_WORD.findall(p.text))
        total += n if p.op is not Op.EQUAL else 2 * n
        changed += n if p.op is not Op.EQUAL else 0
    return changed / total if total else 0.0


# Each Latin-1 character's class for :func:`_words_in`: w (a word's), h (a hyphen) or o (any other).
_CLASSES = bytes(
    ord("w") if (chr(c).isalnum() or c == ord("_")) else ord("h") if c == ord("-") else ord("o") for c in range(256)
)
_W, _H = ord("w"), ord("h")
# Texts read together by :func:`_words_in`.
_TEXTS_JOINED = 2048


def _words_in(texts: list[str]) -> int:
    """How many words (:data:`_WORD`) the texts hold, each counted in itself: ``sum(len(_WORD.findall(t)))``.

    A side of megabytes in a few passes in C: its texts joined, their characters turned into classes
    (``bytes.translate``), the words' starts counted as class patterns (a word character after any other
    but a hyphen that follows a word character), then told apart where two texts meet.  Outside
    Latin-1, text by text.  Many texts (the 11,000 equal pieces of a paragraph of megabytes) are read some
    thousand at a time, each counted in itself all the same: joined whole, the side was copied three times
    (joined, encoded, classed), each copy in memory just taken from the system.
    """
    if len(texts) > _TEXTS_JOINED:
        return sum(_words_in(texts[i : i + _TEXTS_JOINED]) for i in range(0, len(texts), _TEXTS_JOINED))
    text = "".join(texts)
    try:
        c = text.encode("latin-1").translate(_CLASSES)
    except UnicodeEncodeError:
        return sum(len(_WORD.findall(t)) for t in texts)
    # The words' starts in the joined text (after a hyphen only where there is one).
    n = c.count(b"ow") + c.startswith(b"w")
    hyphens = b"h" in c
    if hyphens:
        n += c.count(b"ohw") + c.count(b"hhw") + c.startswith(b"hw")
    # Where a text starts (at s), a word of its own starts at s if c[s] is a word's, and at s + 1 if c[s + 1]
    # is and c[s] is not; in the joined text, those depend on what goes before s.
    starts = [s for s, t in zip(itertools.accumulate(map(len, texts), initial=0), texts, strict=False) if s and t]
    if not hyphens:
        return n + sum([c[s] == _W and c[s - 1] == _W for s in starts])
    ends = set(itertools.accumulate(map(len, texts)))
    for s in starts:
        alone = c[s] == _W
        joined = alone and (c[s - 1] != _W and (c[s - 1] != _H or (s < 2 or c[s - 2] != _W)))
        n += alone - joined
        if s + 1 not in ends and s + 1 < len(c) and c[s + 1] == _W and c[s] == _H and c[s - 1] == _W:
            n += 1  # alone a start, joined a compound's part
    return n


def rank(change: Change, found: Sequence[Pattern] = ()) -> float:
    """How much a change may change the rules (:attr:`Change.significance`), rounded to 3 places.

    0 for a change not compared (one corpus lacks its place), a clause unchanged but for its number
    or place, and an editorial change.  An added or removed clause: 1, every word changed.  Any
    other: the weights of its flags (:data:`FLAG_WEIGHTS`; a flag of a drafting pattern of n
    changes weighs 1/n of its weight, so that the pattern weighs as one change), plus the share of
    its words that changed.  A heading's change weighs :data:`HEADING_WEIGHT` of that.
    """
    if not change.counterpart_in_corpus or change.editorial_only:
        return 0.0
    if change.kind is ChangeKind.UNCHANGED and not change.title_changed:
        return 0.0
    if not (change.old and change.new):
        score = 1.0
    else:
        shares = {p.flag: 1 / len(p.changes) for p in found if change.id in p.changes}
        score = sum(FLAG_WEIGHTS[s.flag] * shares.get(s.flag, 1.0) for s in change.signals)
        score += _share_changed(change.diff)
    if change.aspect is Aspect.TITLE:
        score *= HEADING_WEIGHT
    return round(score, 3)


def ranked(changes: Iterable[Change]) -> list[Change]:
    """The changes, most significant first; of equal significance, in the order given."""
    return sorted(changes, key=lambda ch: -ch.significance)
