"""The units of the text alignment and their IDF-weighted word vectors."""

from __future__ import annotations

import math
import re
import sys
from collections import Counter
from itertools import chain

from lawdiff.align.links import Unit
from lawdiff.model import Clause, Edition, article_and_parent, walked_runs

_WORD = re.compile(r"\w+")


def units(
    edition: Edition, places: dict[str, tuple[str, str]] | None = None, other: list[Unit] | None = None
) -> list[Unit]:
    """The clauses with own text, in document order (from the edition's walk, made once: :func:`walked`).

    ``places``: each address's article and parent as found so far, shared by the two editions of a pair
    (they share most of their addresses).  ``other``: the other edition's units; a clause that stands where
    one of them stands (the same place in the order, address, text, title, kind and references) is that
    unit, not a copy of it (the units are values: two editions' clauses that kept all of these are equal)."""
    places = {} if places is None else places
    others = other or []
    out: list[Unit] = []
    append, place, unit = out.append, places.get, Unit  # (names looked up once: a unit per clause)
    for clause in walked_runs(edition)[0]:
        text = clause.text
        if text:
            address, refs = clause.address, clause.references
            targets = tuple(dict.fromkeys([r.target for r in refs])) if refs else ()
            at = len(out)
            if at < len(others):
                same = others[at]
                if (
                    same.address == address
                    and same.text == text
                    and same.title == clause.title
                    and same.kind is clause.kind
                    and same.refs == targets
                ):
                    append(same)
                    continue
            found = place(address)
            if found is None:
                found = places[address] = article_and_parent(address)
            append(unit(address, found[0], at, text, clause.title, clause.kind, targets, found[1]))
    return out


def walked(edition: Edition) -> tuple[Clause, ...]:
    """The edition's clauses in document order, as :meth:`Edition.walk` gives them, walked once per edition
    (:func:`lawdiff.model.walked_runs`)."""
    return walked_runs(edition)[0]


def titled(edition: Edition) -> list[Clause]:
    return [c for c in walked(edition) if c.title]


def weight(count: int, idf: float) -> float:
    """A word's weight in a clause's vector: its IDF, times 1 + log(count) when it is said more than once
    (a word said twice is not twice the evidence)."""
    return idf if count == 1 else (1.0 + math.log(count)) * idf


def words(text: str) -> list[str]:
    return _WORD.findall(text.lower())


class Vectors:
    """The IDF-weighted vectors of one side's units, made when first asked for.

    Most units are matched by identity and never scored; their vectors are
    never made.
    """

    def __init__(self, tfs: list[Counter[str]], idf: dict[str, float]) -> None:
        self.tfs = tfs
        self.idf = idf
        self._vecs: list[dict[str, float] | None] = [None] * len(tfs)
        self._norms: list[float] = [0.0] * len(tfs)
        self._raws: list[float] = [0.0] * len(tfs)

    def __len__(self) -> int:
        return len(self.tfs)

    def __getitem__(self, k: int) -> dict[str, float]:
        vec = self._vecs[k]
        if vec is None:
            idf = self.idf
            # weight(), written inline: a call per word would cost a tenth more.
            vec = {w: idf[w] if c == 1 else (1.0 + math.log(c)) * idf[w] for w, c in self.tfs[k].items()}
            self._vecs[k] = vec
        return vec

    def norm(self, k: int) -> float:
        n = self._norms[k]
        if not n:
            # Added in order, one by one: Python 3.12's sum() of floats compensates, and would round otherwise.
            total = 0.0
            for v in self[k].values():
                total += v * v
            n = self._norms[k] = math.sqrt(total) or 1.0
        return n

    def raw(self, k: int) -> float:
        """The weight of all the unit's words, each occurrence counted."""
        r = self._raws[k]
        if not r:
            idf = self.idf
            r = self._raws[k] = sum(idf[w] * c for w, c in self.tfs[k].items()) or 1.0
        return r


class Space:
    """IDF-weighted word vectors over the units of both editions."""

    def __init__(self, old: list[Unit], new: list[Unit]) -> None:
        df: Counter[str] = Counter()
        # Each distinct text is read once: a clause that kept its text shares its counts with its old self
        # (the counts are never changed), so that what did not change costs a dictionary look-up.
        # The word counts of each distinct text (read, never changed, by the certainty's features too).
        self.counts: dict[str, Counter[str]] = {}
        self.old_tf = [_counts(u.text, self.counts) for u in old]
        self.new_tf = [_counts(u.text, self.counts) for u in new]
        # Each unit's distinct words counted once, all in one pass in C.
        df.update(chain.from_iterable(chain(self.old_tf, self.new_tf)))
        n = len(self.old_tf) + len(self.new_tf)
        self.idf = {w: math.log((n + 1) / (c + 0.5)) for w, c in df.items()}
        self.df = df
        self.n = n
        self.old_vec = Vectors(self.old_tf, self.idf)
        self.new_vec = Vectors(self.new_tf, self.idf)
        self.old_words = [tf.total() for tf in self.old_tf]
        self.new_words = [tf.total() for tf in self.new_tf]
        # Coverage of one unit by one other, asked for again and again by the phases.
        self._single: dict[tuple[int, int, int], float] = {}

    def cosine(self, i: int, j: int) -> float:
        """The weighted cosine of old unit i and new unit j (the products of the shorter vector's words,
        the old one's of two alike, added in its order)."""
        a, b = self.old_vec[i], self.new_vec[j]
        if len(a) > len(b):
            a, b = b, a
        dot = 0.0
        for w, v in a.items():
            if w in b:
                dot += v * b[w]
        return dot / (self.old_vec.norm(i) * self.new_vec.norm(j))

    def old_in_new(self, i: int, js: list[int]) -> float:
        """Share of old unit i's words (weighted, each occurrence counted) found in the new units js together."""
        if len(js) == 1:
            key = (0, i, js[0])
            share = self._single.get(key)
            if share is None:
                covered = _covered(self.old_tf[i], [self.new_tf[js[0]]], self.idf)
                share = self._single[key] = covered / self.old_vec.raw(i)
            return share
        return _covered(self.old_tf[i], [self.new_tf[j] for j in js], self.idf) / self.old_vec.raw(i)

    def new_in_old(self, j: int, is_: list[int]) -> float:
        """Share of new unit j's words found in the old units is_ together."""
        if len(is_) == 1:
            key = (1, is_[0], j)
            share = self._single.get(key)
            if share is None:
                covered = _covered(self.new_tf[j], [self.old_tf[is_[0]]], self.idf)
                share = self._single[key] = covered / self.new_vec.raw(j)
            return share
        return _covered(self.new_tf[j], [self.old_tf[i] for i in is_], self.idf) / self.new_vec.raw(j)


def _counts(text: str, made: dict[str, Counter[str]]) -> Counter[str]:
    """The word counts of a text, made once per distinct text."""
    found = made.get(text)
    if found is None:
        found = made[text] = _word_counts(text)
    return found


def _word_counts(text: str) -> Counter[str]:
    """``Counter(words(text))``: the words found and counted in C (``findall``, then the counter's own loop),
    each distinct word interned, so that the counters share one string per word (findall makes a new one
    for each occurrence: at 8x the editions' size the copies held by the counters were a fifth of the
    aligner's memory).  No Python code runs per word: a text of megabytes costs its scan and its count.
    """
    return Counter(map(sys.intern, _WORD.findall(text.lower())))


def _covered(whole: Counter[str], parts: list[Counter[str]], idf: dict[str, float]) -> float:
    # Each occurrence counts once: a word said twice in the whole needs two
    # in the parts, so that a whole is not "explained" by a part that only
    # shares its vocabulary.
    if len(parts) == 1:
        have = parts[0]
    else:
        have = Counter()
        for p in parts:
            have.update(p)
    # Only the words both hold count: walk the smaller of the two (in its
    # own order, so that the sum is the same on every run).
    if len(have) < len(whole):
        return sum(idf[w] * min(c, whole[w]) for w, c in have.items() if w in whole)
    return sum(idf[w] * min(c, have[w]) for w, c in whole.items() if w in have)
