"""The candidate search: for each clause left open, the clauses of the other edition that share most
of its telling words, by the weighted dot product of their IDF vectors over those words.

Its cost follows what is open: postings are made only of the words the open clauses search by
(:func:`postings`; each clause's words meet that set in C), so that an edition whose clauses mostly
kept their texts costs a set intersection per clause, not a pass over every word of the law (which
the search made before, for every word found in few clauses).  The postings are the same for the
words searched by, so the candidates are too.
"""

from __future__ import annotations

import heapq
from collections import Counter, defaultdict
from collections.abc import Sequence

from lawdiff.align.space import weight

# (weight, word) of an open clause's telling words, in the order they are searched.
Query = list[tuple[float, str]]
# Per word: the clauses that hold it, in document order, and the word's weight in each.
Postings = dict[str, tuple[list[int], list[float]]]


def postings(queries: Sequence[tuple[int, Query]], theirs: Sequence[Counter[str]], idf: dict[str, float]) -> Postings:
    """The postings of the words the queries search by, among the other side's clauses (``theirs``)."""
    wanted = {w for _, telling in queries for _, w in telling}
    index: Postings = {}
    for k, tf in enumerate(theirs):
        # Each word met goes to a list of its own: the order in which one clause's words are met is no matter.
        for w in tf.keys() & wanted:
            ks, weights = index.setdefault(w, ([], []))
            ks.append(k)
            weights.append(weight(tf[w], idf[w]))
    return index


def best(queries: Sequence[tuple[int, Query]], index: Postings, top: int) -> dict[int, list[int]]:
    """For each open clause (its index and telling words), the ``top`` clauses of the other side with the
    largest sums of products, ties to the one met first."""
    out: dict[int, list[int]] = {}
    empty: tuple[list[int], list[float]] = ([], [])
    for x, telling in queries:
        acc: dict[int, float] = defaultdict(float)
        for v, w in telling:
            ks, weights = index.get(w, empty)
            for k, wk in zip(ks, weights, strict=True):
                acc[k] += v * wk
        # Ties go to the clause met first (postings are in document order).
        out[x] = heapq.nlargest(top, acc, key=acc.__getitem__)
    return out
