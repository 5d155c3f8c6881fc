"""The units of the text alignment and their IDF-weighted word vectors."""

from __future__ import annotations

import math
import re
from collections import Counter

from lawdiff.align.records import Unit
from lawdiff.model import Clause, Edition, article_of, parent_address

_WORD = re.compile(r"\w+")


def units(edition: Edition) -> list[Unit]:
    """The clauses with own text, in document order."""
    out: list[Unit] = []
    for clause in edition.walk():
        if clause.text:
            out.append(_unit(clause, len(out)))
    return out


def titled(edition: Edition) -> list[Clause]:
    return [c for c in edition.walk() if c.title]


def _unit(clause: Clause, position: int) -> Unit:
    refs = tuple(dict.fromkeys(r.target for r in clause.references))
    return Unit(
        clause.address,
        article_of(clause.address),
        position,
        clause.text,
        clause.title,
        clause.kind,
        refs,
        parent_address(clause.address),
    )


def words(text: str) -> list[str]:
    return _WORD.findall(text.lower())


class _Space:
    """IDF-weighted word vectors over the units of both editions."""

    def __init__(self, old: list[Unit], new: list[Unit]) -> None:
        df: Counter[str] = Counter()
        self.old_tf = [Counter(words(u.text)) for u in old]
        self.new_tf = [Counter(words(u.text)) for u in new]
        for tf in self.old_tf + self.new_tf:
            df.update(tf.keys())
        n = len(self.old_tf) + len(self.new_tf)
        self.idf = {w: math.log((n + 1) / (c + 0.5)) for w, c in df.items()}
        self.df = df
        self.n = n
        self.old_vec = [self._vec(tf) for tf in self.old_tf]
        self.new_vec = [self._vec(tf) for tf in self.new_tf]
        self.old_norm = [math.sqrt(sum(v * v for v in vec.values())) or 1.0 for vec in self.old_vec]
        self.new_norm = [math.sqrt(sum(v * v for v in vec.values())) or 1.0 for vec in self.new_vec]
        self.old_mass = [sum(vec.values()) or 1.0 for vec in self.old_vec]
        self.new_mass = [sum(vec.values()) or 1.0 for vec in self.new_vec]
        self.old_words = [sum(tf.values()) for tf in self.old_tf]
        self.new_words = [sum(tf.values()) for tf in self.new_tf]
        self.old_raw = [sum(self.idf[w] * c for w, c in tf.items()) or 1.0 for tf in self.old_tf]
        self.new_raw = [sum(self.idf[w] * c for w, c in tf.items()) or 1.0 for tf in self.new_tf]
        # Coverage of one unit by one other, asked for again and again by the phases.
        self._single: dict[tuple[int, int, int], float] = {}

    def _vec(self, tf: Counter[str]) -> dict[str, float]:
        # Sub-linear term frequency: a word said twice is not twice the evidence.
        return {w: (1.0 + math.log(c)) * self.idf[w] for w, c in tf.items()}

    def cosine(self, i: int, j: int) -> float:
        a, b = self.old_vec[i], self.new_vec[j]
        if len(a) > len(b):
            a, b = b, a
        dot = sum(v * b[w] for w, v in a.items() if w in b)
        return dot / (self.old_norm[i] * self.new_norm[j])

    def old_in_new(self, i: int, js: list[int]) -> float:
        """Share of old unit i's words (weighted, each occurrence counted) found in the new units js together."""
        if len(js) == 1:
            key = (0, i, js[0])
            share = self._single.get(key)
            if share is None:
                share = self._single[key] = _covered(self.old_tf[i], [self.new_tf[js[0]]], self.idf) / self.old_raw[i]
            return share
        return _covered(self.old_tf[i], [self.new_tf[j] for j in js], self.idf) / self.old_raw[i]

    def new_in_old(self, j: int, is_: list[int]) -> float:
        """Share of new unit j's words found in the old units is_ together."""
        if len(is_) == 1:
            key = (1, is_[0], j)
            share = self._single.get(key)
            if share is None:
                share = self._single[key] = _covered(self.new_tf[j], [self.old_tf[is_[0]]], self.idf) / self.new_raw[j]
            return share
        return _covered(self.new_tf[j], [self.old_tf[i] for i in is_], self.idf) / self.new_raw[j]


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
