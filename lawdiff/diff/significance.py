"""What matters in a change: flags read from its word difference.

A flag says what kind of words a change touched (a modal, a negation, an
actor, a number, a cross-reference, a condition) and carries the words that
raised it, as hints for the committee, which decides.  The word lists live in
``lexicon.toml`` beside this module (:func:`lawdiff.diff.editorial.lexicon`).

How a flag is raised, for every kind but ``reference``: the words of that
kind are found on each side of the difference (single words and phrases, on
word boundaries, case folded); only those that the difference touched (a word
of them deleted or inserted) are kept, each read through the terminology
table (``partner`` is ``maat``).  The flag is raised when what the old side
lost and the new side gained differ: ``moet`` -> ``dient`` raises ``modal``,
``maat`` -> ``partner`` raises nothing, nor does a ``moet`` that only moved
within the sentence.  Digits count as numbers except inside the clause's
cross-references (their spans in ``Clause.references``).  ``reference`` comes
from the change's :class:`~lawdiff.diff.vocabulary.RefChange` records.

An item that drops words repeated from its lead-in (2007 45C2(b) "als ze zo
wordt gehouden" under "... gespeeld te hebben als ze", 2017 "zo wordt
gehouden") loses no condition: a deletion at the very start of a clause whose
words end the lead-in (its parent's own text in the new edition) is left out,
and so is an insertion at the start that repeats the old lead-in.
"""

from __future__ import annotations

import functools
import itertools
import operator
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, NamedTuple

from lawdiff.align import Aspect
from lawdiff.diff.editorial import canonical, lexicon
from lawdiff.diff.sides import CONTEXT, LONG_SIDE, Words, side, words_of
from lawdiff.diff.sides import WORD as _WORD
from lawdiff.diff.vocabulary import (
    NORMATIVE,
    Change,
    Flag,
    Op,
    Piece,
    RefStatus,
    Signal,
    normative,
)

# The records live with the other change records; they are named here too.
__all__ = [
    "NORMATIVE",
    "WORD_LISTS",
    "Flag",
    "Signal",
    "flags",
    "normative",
    "reference_signals",
    "significance",
]
from lawdiff.model import Clause, Edition, Spans, find_references, parent_address

# ---------------------------------------------------------------------------
# Records


# ---------------------------------------------------------------------------
# The word lists

_DIGIT = re.compile(r"\d")


def _phrases(words: Iterable[str]) -> tuple[tuple[str, ...], ...]:
    # Longest first, so that "wordt geacht" wins over a shorter entry.
    found = {tuple(w.lower() for w in _WORD.findall(entry)) for entry in words}
    return tuple(sorted((p for p in found if p), key=lambda p: (-len(p), p)))


def _load() -> dict[Flag, tuple[tuple[str, ...], ...]]:
    data = lexicon()
    return {
        flag: _phrases(data[flag.value]["words"])
        for flag in (Flag.MODAL, Flag.NEGATION, Flag.ACTOR, Flag.NUMBER, Flag.CONDITION)
    }


def _by_first_word(phrases: tuple[tuple[str, ...], ...]) -> dict[str, tuple[tuple[str, ...], ...]]:
    """The phrases by their first word, each list in the order given: a token looks only at its own."""
    index: dict[str, list[tuple[str, ...]]] = {}
    for phrase in phrases:
        index.setdefault(phrase[0], []).append(phrase)
    return {w: tuple(ps) for w, ps in index.items()}


def _by_word(word_lists: dict[Flag, tuple[tuple[str, ...], ...]]) -> dict[str, tuple[_Starting, ...]]:
    """Each word, the lists with phrases that start with it, and those phrases in their list's order:
    the tokens of a change are read once for all lists."""
    index: dict[str, list[_Starting]] = {}
    for flag, phrases in word_lists.items():
        for word, starting in _by_first_word(phrases).items():
            index.setdefault(word, []).append((flag, starting))
    return {w: tuple(entries) for w, entries in index.items()}


# A list's phrases that start with one word.
_Starting = tuple[Flag, tuple[tuple[str, ...], ...]]


class _Lists(NamedTuple):
    """The word lists and what is read off them, made when a change's words are first weighed (comparing
    two editions that kept every text reads no lexicon)."""

    word_lists: dict[Flag, tuple[tuple[str, ...], ...]]
    # The phrases of several words, of all lists, longest first, by their first word.
    long_index: dict[str, tuple[tuple[str, ...], ...]]
    by_word: dict[str, tuple[_Starting, ...]]
    # The deeming phrases of the modal list (lexicon.toml's ``statements``): in a pattern's key they
    # count as no modal at all, so that "moet" -> "wordt geacht" and "moet" -> "is" are one shift.
    statements: frozenset[str]
    # Each phrase's canonical form (:func:`canonical`), as a flag records it.
    canonical: dict[tuple[str, ...], str]
    # Every word of the lists: a change that touches none of them (nor a digit) raises no flag of the lists.
    listed: frozenset[str]


@functools.cache
def _lists() -> _Lists:
    word_lists = _load()
    long = tuple(sorted({p for ps in word_lists.values() for p in ps if len(p) > 1}, key=lambda p: (-len(p), p)))
    statements = frozenset(canonical(w) for w in lexicon()["modal"]["statements"])
    by_word = _by_word(word_lists)
    canonicals = {p: canonical(" ".join(p)) for phrases in word_lists.values() for p in phrases}
    listed = frozenset(by_word) | frozenset(w for phrases in word_lists.values() for p in phrases for w in p)
    return _Lists(word_lists, _by_first_word(long), by_word, statements, canonicals, listed)


if TYPE_CHECKING:
    WORD_LISTS: dict[Flag, tuple[tuple[str, ...], ...]]
    STATEMENTS: frozenset[str]


def __getattr__(name: str) -> object:
    """``WORD_LISTS`` and ``STATEMENTS``, read from the lexicon when first asked for."""
    if name == "WORD_LISTS":
        return _lists().word_lists
    if name == "STATEMENTS":
        return _lists().statements
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _telling(
    text: str, touched: list[tuple[int, int]], skip: int
) -> tuple[list[tuple[int, int]], list[tuple[int, int, str]]]:
    """Of a long side's touched spans, those that may raise a flag: those that touch a word of the lists (to
    be read with the words around them, a phrase's other words), and the touched words with a digit of the
    others (``number``, read alone: no phrase of the lists holds them; start, end, word folded).

    The others raise nothing and are not read at all, nor the words around them: a paragraph of
    megabytes whose changes touch only ordinary words costs the changes' own words.  A span whose edge
    may cut a word (a compound, "niet-aangeduide") goes to the first list, its word not being read here.
    """
    listed_words = _lists().listed
    listed: list[tuple[int, int]] = []
    numerals: list[tuple[int, int, str]] = []
    # What the words of a span's text hold (a word of the lists: None; else its words with a digit, where
    # they stand in it), by the text: the same few words are deleted and put in again and again (a
    # paragraph of one sentence repeated), or each span is one new word.
    kinds: dict[str, tuple[tuple[int, int, str], ...] | None] = {}
    cut = _CUT.match
    for s, e in touched:
        # (Most spans start after a space and end before one: no word is cut there.)
        if (s and text[s - 1] != " " and cut(text, s - 1, s + 1)) or (
            text[e : e + 1] != " " and cut(text, e - 1, e + 1)
        ):
            listed.append((s, e))
            continue
        span = text[s:e]
        digits = kinds.get(span, _UNREAD)
        if digits is _UNREAD:
            if (word := span[:-1] if span[-1:] == " " else span).isalnum():
                # One word, or a word and its space (most spans): read without a pattern.
                low = word.lower()
                digits = (
                    None
                    if low in listed_words
                    else ((0, len(word), low),)
                    if not word.isalpha() and _DIGIT.search(low)
                    else ()
                )
            else:
                digits = _kind(span, listed_words)
            kinds[span] = digits
        if digits is None:
            listed.append((s, e))
        elif digits:
            if s >= skip and len(digits) == 1:
                x, y, w = digits[0]
                numerals.append((s + x, s + y, w))
            elif s >= skip:
                numerals.extend([(s + x, s + y, w) for x, y, w in digits])
            else:  # (the lead-in's words skipped: the span read from there)
                numerals.extend(
                    (m.start(), m.end(), m.group().lower())
                    for m in _WORD.finditer(text, skip, e)
                    if _DIGIT.search(m.group())
                )
    return listed, numerals


# What _telling's table of spans gives for a text not read yet.
_UNREAD: tuple[tuple[int, int, str], ...] = ((-1, -1, ""),)
# Two characters either side of a place where a word (:data:`_WORD`: compounds joined by hyphens) may run on
# across it: a word's character or a hyphen on both sides.
_CUT = re.compile(r"[\w-]{2}")


def _kind(span: str, listed_words: frozenset[str]) -> tuple[tuple[int, int, str], ...] | None:
    """None where a span's words hold a word of the lists; else its words with a digit (start and end in
    the span, the word folded)."""
    digits: list[tuple[int, int, str]] = []
    for m in _WORD.finditer(span):
        low = m.group().lower()
        if low in listed_words:
            return None
        if _DIGIT.search(low):
            digits.append((m.start(), m.end(), low))
    return tuple(digits)


def _claimed(tokens: Words) -> set[int]:
    """Tokens inside a phrase of several words of any list.

    Such a token is not read again as a single word of another list: the
    "als" of "wordt beschouwd als" is no condition.
    """
    claimed: set[int] = set()
    words = tokens.words
    long_index = _lists().long_index
    # Only the words that start a phrase of several words are looked at (picked out in C).
    for i in itertools.compress(range(len(words)), map(long_index.__contains__, words)):
        word = words[i]
        for phrase in long_index[word]:
            n = len(phrase)
            if tuple(words[i : i + n]) == phrase:
                claimed.update(range(i, i + n))
                break
    return claimed


def _matches(tokens: Words, text: str, claimed: set[int]) -> dict[Flag, list[tuple[str, str]]]:
    """Per list, the phrases found among the tokens that the difference touched: (canonical, printed).

    Each list reads the tokens from left to right, a phrase found taking its
    words from the list's further phrases (longest first); all lists in one pass.
    """
    lists = _lists()
    out: dict[Flag, list[tuple[str, str]]] = {flag: [] for flag in lists.word_lists}
    free = dict.fromkeys(lists.word_lists, 0)  # per list, the first token not taken by a phrase it found
    by_word = lists.by_word
    words, changed = tokens.words, tokens.changed
    # Only the words that start a phrase of some list are looked at (picked out in C).
    for i in itertools.compress(range(len(words)), map(by_word.__contains__, words)):
        word = words[i]
        for flag, phrases in by_word[word]:
            if i < free[flag]:
                continue
            for phrase in phrases:
                n = len(phrase)
                if n == 1 and i in claimed:
                    continue
                if tuple(words[i : i + n]) == phrase:
                    if any(changed[i : i + n]):
                        printed = text[tokens.starts[i] : tokens.ends[i + n - 1]]
                        out[flag].append((lists.canonical[phrase], printed))
                    free[flag] = i + n
                    break
    return out


def _numbers(digits: list[tuple[int, int, str]], text: str, spans: list[tuple[int, int]]) -> list[tuple[str, str]]:
    """The touched words with a digit (start, end, word folded; in the order of the text) outside the
    cross-references' spans, as a flag records them (folded, printed)."""
    if not spans:
        return [(word, text[start:end]) for start, end, word in digits]
    covered = Spans(spans)
    return [(word, text[start:end]) for start, end, word in digits if not covered.overlaps(start, end)]


# What a side's reading gives the flags: per list, the phrases the difference touched (canonical, printed),
# and the touched words with a digit (start, end, word folded), in the order of the text.
Found = tuple[dict[Flag, list[tuple[str, str]]], list[tuple[int, int, str]]]


def found_in(tokens: Words, text: str) -> Found:
    """What the flags read off a side's words (:func:`~lawdiff.diff.sides.words_of`)."""
    digits = [
        (tokens.starts[k], tokens.ends[k], tokens.words[k])
        for k in itertools.compress(range(len(tokens.words)), tokens.changed)
        if _DIGIT.search(tokens.words[k])
    ]
    return _matches(tokens, text, _claimed(tokens)), digits


def _read(text: str, touched: list[tuple[int, int]], skip: int) -> Found:
    """What the flags read off one side, from ``skip`` on (:func:`found_in`): its words, or for a long side
    (see :func:`_telling`) the words around the touched spans of listed words, and the touched words with a
    digit of the others read alone."""
    if len(text) <= LONG_SIDE:
        return found_in(words_of(text, touched, skip), text)
    listed, numerals = _telling(text, touched, skip)
    found, digits = _around(text, listed, skip)
    return found, sorted(digits + numerals) if numerals else digits


def _around(text: str, listed: list[tuple[int, int]], skip: int) -> Found:
    """:func:`found_in` the words of a long side around its touched spans ``listed``
    (:func:`~lawdiff.diff.sides.words_of`), read once per distinct neighbourhood.

    The spans are taken in clusters, those less than two contexts apart (``CONTEXT``, the words
    read on each side of a span) in one: a cluster's words are read apart from the others' (no phrase spans
    two), and what they give depends only on the text from a character before the first span's context to
    a character after the last's, and where the spans lie in it.  A paragraph of one sentence repeated
    deletes the same word in the same words again and again: the first such cluster is read, the others
    take what it gave (its digits moved to their place).
    """
    found: dict[Flag, list[tuple[str, str]]] = {flag: [] for flag in _lists().word_lists}
    digits: list[tuple[int, int, str]] = []
    seen: dict[tuple[str, tuple[tuple[int, int], ...]], Found] = {}
    n = 0
    while n < len(listed):
        m = n + 1
        while m < len(listed) and listed[m][0] - listed[m - 1][1] <= 2 * CONTEXT + 2:
            m += 1
        cluster = listed[n:m]
        n = m
        lo, hi = cluster[0][0] - CONTEXT - 1, cluster[-1][1] + CONTEXT + 1
        if lo < skip or hi > len(text):  # (at the side's ends, or the lead-in's: read as it stands)
            one = found_in(words_of(text, cluster, skip), text)
            at = 0
        else:
            key = (text[lo:hi], tuple((s - lo, e - lo) for s, e in cluster))
            one = seen.get(key) or _relative(found_in(words_of(text, cluster, skip), text), lo)
            seen[key] = one
            at = lo
        for flag, items in one[0].items():
            if items:
                found[flag].extend(items)
        digits.extend([(s + at, e + at, w) for s, e, w in one[1]] if at else one[1])
    return found, digits


def _relative(found: Found, lo: int) -> Found:
    """``found`` with its digits' places counted from ``lo``."""
    return found[0], [(s - lo, e - lo, w) for s, e, w in found[1]]


_CANONICAL, _PRINTED = operator.itemgetter(0), operator.itemgetter(1)


def _difference(old: list[tuple[str, str]], new: list[tuple[str, str]]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """What one side has that the other lacks, compared by canonical form, kept as printed."""
    if not old or not new:  # most lists find nothing on a side: nothing there to weigh against
        return tuple(map(_PRINTED, old)), tuple(map(_PRINTED, new))
    common = Counter(map(_CANONICAL, old)) & Counter(map(_CANONICAL, new))
    if not common:  # (a long side's thousands of numbers, as a rule: read in C)
        return tuple(map(_PRINTED, old)), tuple(map(_PRINTED, new))

    def keep(found: list[tuple[str, str]]) -> tuple[str, ...]:
        spare = Counter(common)
        out: list[str] = []
        for c, printed in found:
            if spare[c]:
                spare[c] -= 1
            else:
                out.append(printed)
        return tuple(out)

    return keep(old), keep(new)


# ---------------------------------------------------------------------------
# Reference spans and lead-ins


def _spans(texts: Sequence[str], clauses: Sequence[Clause] | None) -> list[tuple[int, int]]:
    """The cross-references' spans in the texts joined by line breaks (as the difference joins them).

    From the clauses' own references where they are given and their texts
    are those of the change; else read from the words.
    """
    out: list[tuple[int, int]] = []
    offset = 0
    for i, text in enumerate(texts):
        clause = clauses[i] if clauses is not None and i < len(clauses) else None
        if clause is not None and clause.text == text:
            out.extend((offset + r.start, offset + r.end) for r in clause.references)
        else:
            out.extend((offset + s, offset + e) for _, s, e in find_references(text))
        offset += len(text) + 1
    return out


def _lead_in_skip(pieces: Sequence[Piece], op: Op, lead_in: str) -> int:
    """How many leading characters of one side repeat the end of the lead-in (0 if none).

    Only a first piece deleted (or inserted) whole at the start of the clause
    counts, and only when its words are the last words of the lead-in.
    """
    if not pieces or pieces[0].op is not op or not lead_in:
        return 0
    words = [w.lower() for w in _WORD.findall(pieces[0].text)]
    lead = [w.lower() for w in _WORD.findall(lead_in)]
    if words and lead[-len(words) :] == words:
        return len(pieces[0].text)
    return 0


def _lead_in(edition: Edition | None, addresses: Sequence[str]) -> str:
    if edition is None or len(addresses) != 1:
        return ""
    parent = edition.find(parent_address(addresses[0]))
    return parent.text if parent is not None else ""


def _clauses(edition: Edition | None, addresses: Sequence[str]) -> list[Clause] | None:
    if edition is None:
        return None
    found = [edition.find(a) for a in addresses]
    return [c for c in found if c is not None] if all(c is not None for c in found) else None


# ---------------------------------------------------------------------------
# Significance


def significance(change: Change, old: Edition | None = None, new: Edition | None = None) -> tuple[Signal, ...]:
    """The flags of a change, in the order of :class:`Flag`, each with its words.

    ``old`` and ``new``, the change's two editions, are optional: with them
    the spans of the clauses' own references (links included) keep their
    digits out of ``number``, and an item's lead-in is known (see the module
    docstring); without them references are read from the words and no
    lead-in is known.
    """
    pieces = change.diff
    old_text, old_touched = side(pieces, Op.DELETE)
    new_text, new_touched = side(pieces, Op.INSERT)
    title = change.aspect is Aspect.TITLE
    old_skip = 0 if title else _lead_in_skip(pieces, Op.DELETE, _lead_in(new, change.new))
    new_skip = 0 if title else _lead_in_skip(pieces, Op.INSERT, _lead_in(old, change.old))
    old_found, old_digits = _read(old_text, old_touched, old_skip)
    new_found, new_digits = _read(new_text, new_touched, new_skip)
    old_spans = _spans(change.old_texts, None if title else _clauses(old, change.old))
    new_spans = _spans(change.new_texts, None if title else _clauses(new, change.new))
    out: list[Signal] = []
    for flag in Flag:
        if flag is Flag.REFERENCE:
            out.extend(reference_signals(change))
            continue
        lost, gained = old_found[flag], new_found[flag]
        if flag is Flag.NUMBER:
            lost += _numbers(old_digits, old_text, old_spans)
            gained += _numbers(new_digits, new_text, new_spans)
        removed, added = _difference(lost, gained)
        if removed or added:
            out.append(Signal(flag, removed, added))
    return tuple(out)


def reference_signals(change: Change) -> tuple[Signal, ...]:
    """The ``reference`` flag of a change, from its :class:`~lawdiff.diff.vocabulary.RefChange` records
    (none when every reference was kept)."""
    removed = tuple(r.old for r in change.references if r.status in (RefStatus.REMOVED, RefStatus.RETARGETED))
    added = tuple(r.new for r in change.references if r.status in (RefStatus.ADDED, RefStatus.RETARGETED))
    return (Signal(Flag.REFERENCE, removed, added),) if removed or added else ()


def flags(change: Change, old: Edition | None = None, new: Edition | None = None) -> tuple[Flag, ...]:
    """Only the flags of :func:`significance`, without their words."""
    return tuple(s.flag for s in significance(change, old, new))
