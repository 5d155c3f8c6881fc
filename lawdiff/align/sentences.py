"""Sentence-level evidence: splits and merges whose parts were each reworded.

When the sentences of one old clause go to several new clauses and each is reworded (half of its
words kept, others inserted), no part's words lie mostly inside the old clause: the inserted words
dilute them, and each part holds only one sentence of the whole.  Compared with the one sentence it
came from, a part still shares most of what it kept.  So a clause left alone by the other phases is
compared with each sentence of the candidate wholes (IDF-weighted Dice: twice the weight of the
words they share over the weight of both), and joins the whole whose sentence it matches best, when
that reaches ``sentence_min`` (:class:`~lawdiff.align.Thresholds`).
"""

from __future__ import annotations

import re
from collections import Counter

from lawdiff.align.space import words

# A sentence ends at a full stop, a question or exclamation mark, or a semicolon, before a space.
_SENTENCE_END = re.compile(r"(?<=[.!?;])\s+")


def sentences(text: str) -> list[str]:
    """The sentences of a text, in order (a text of one sentence gives itself)."""
    return [s for s in _SENTENCE_END.split(text) if s.strip()]


class Sentences:
    """The word counts of each unit's sentences, made when first asked for."""

    def __init__(self, texts: list[str]) -> None:
        self.texts = texts
        self._made: dict[int, list[Counter[str]]] = {}

    def of(self, k: int) -> list[Counter[str]]:
        found = self._made.get(k)
        if found is None:
            found = self._made[k] = [Counter(words(s)) for s in sentences(self.texts[k])]
        return found


def dice(a: Counter[str], b: Counter[str], idf: dict[str, float]) -> float:
    """IDF-weighted Dice of two word counts (each occurrence counted once)."""
    shared = sum(idf.get(w, 0.0) * min(c, b[w]) for w, c in a.items() if w in b)
    total = sum(idf.get(w, 0.0) * c for w, c in a.items()) + sum(idf.get(w, 0.0) * c for w, c in b.items())
    return 2 * shared / total if total else 0.0


def best_sentence(whole: list[Counter[str]], part: Counter[str], idf: dict[str, float]) -> float:
    """How well ``part`` matches the best of the whole's sentences (0 for a whole of one sentence)."""
    if len(whole) < 2:
        return 0.0
    return max(dice(s, part, idf) for s in whole)
