"""The alignment's sums on numpy arrays, for the large searches and batches of pairs where they pay for
importing numpy (0.08 s of CPU time): the one home of numpy in lawdiff.

Each function gives, bit for bit, what the Python it stands in for gives: the same products, added in
the same order from zero (``np.bincount`` adds its weights in the order given), and IEEE's
correctly rounded multiplication, division and square root on both sides.

* :func:`best_numpy`: the candidate search's best clauses (:func:`lawdiff.align.search.best_python`);
* :func:`cosines`: the weighted cosines of many pairs (:meth:`lawdiff.align.space.Space.cosine`).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from itertools import chain

import numpy as np

from lawdiff.align.search import Postings, Query


def best_numpy(queries: Sequence[tuple[int, Query]], index: Postings, top: int) -> dict[int, list[int]]:
    """:func:`lawdiff.align.search.best`, on numpy arrays: the products of every (open clause, telling word,
    clause that holds it) at once, summed per pair by ``np.bincount`` in the order the Python meets them."""
    words = list(index)
    ids = {w: i for i, w in enumerate(words)}
    lengths = np.fromiter((len(index[w][0]) for w in words), dtype=np.int64, count=len(words))
    total = int(lengths.sum())
    post_ks = np.fromiter(chain.from_iterable(index[w][0] for w in words), dtype=np.int64, count=total)
    post_weights = np.fromiter(chain.from_iterable(index[w][1] for w in words), dtype=np.float64, count=total)
    starts = np.concatenate(([0], np.cumsum(lengths)))
    # One entry per (open clause, telling word held by some clause), in the order they are searched.
    entries = [
        (r, ids[w], v, n) for r, (_, telling) in enumerate(queries) for n, (v, w) in enumerate(telling) if w in ids
    ]
    q_row, q_word, q_rank = (np.array([e[i] for e in entries], dtype=np.int64) for i in (0, 1, 3))
    q_weight = np.array([e[2] for e in entries], dtype=np.float64)
    seg_start, seg_len = starts[q_word], lengths[q_word]
    entry = np.repeat(np.arange(len(entries), dtype=np.int64), seg_len)
    at = seg_start[entry] + np.arange(len(entry), dtype=np.int64) - np.repeat(np.cumsum(seg_len) - seg_len, seg_len)
    n_their = int(post_ks.max(initial=0)) + 1
    # Each (open clause, clause) once, its products summed in the order met (bincount adds in input order).
    key = q_row[entry] * n_their + post_ks[at]
    pairs, first, inverse = np.unique(key, return_index=True, return_inverse=True)
    sums = np.bincount(inverse.ravel(), weights=q_weight[entry] * post_weights[at], minlength=len(pairs))
    rows, ks, met = pairs // n_their, pairs % n_their, q_rank[entry[first]]
    # Per open clause: the largest sum first, then the clause met first (its first telling word, then its place).
    ranked = np.lexsort((ks, met, -sums, rows))
    in_row = np.arange(len(ranked)) - np.searchsorted(rows[ranked], rows[ranked], side="left")
    chosen = ranked[in_row < top]
    out: dict[int, list[int]] = {x: [] for x, _ in queries}
    for r, k in zip(rows[chosen].tolist(), ks[chosen].tolist(), strict=True):
        out[queries[r][0]].append(k)
    return out


def _rows(tfs: Sequence[Counter[str]], ids: dict[str, int], idf: np.ndarray) -> tuple[np.ndarray, ...]:
    """The vectors of ``tfs`` as arrays: each row's start, its words' ids and weights, in its own order."""
    lengths = np.fromiter(map(len, tfs), dtype=np.int64, count=len(tfs))
    total = int(lengths.sum())
    words = np.fromiter(map(ids.__getitem__, chain.from_iterable(tfs)), dtype=np.int64, count=total)
    counts = np.fromiter(chain.from_iterable(tf.values() for tf in tfs), dtype=np.int64, count=total)
    # 1 + log(count) as Python computes it, for each count met; a word said once weighs its IDF itself.
    table = np.array([1.0, 1.0, *(1.0 + math.log(c) for c in range(2, int(counts.max(initial=1)) + 1))])
    weights = idf[words] * table[counts]
    starts = np.concatenate(([0], np.cumsum(lengths)))
    return starts, lengths, words, weights


def _norms(starts: np.ndarray, lengths: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """Each row's Euclidean norm, its squares added in the row's order; 1 for a row without words."""
    row = np.repeat(np.arange(len(lengths), dtype=np.int64), lengths)
    norms = np.sqrt(np.bincount(row, weights=weights * weights, minlength=len(lengths)))
    norms[norms == 0] = 1.0
    return norms


def cosines(
    old_tf: Sequence[Counter[str]],
    new_tf: Sequence[Counter[str]],
    idf: dict[str, float],
    pairs: Sequence[tuple[int, int]],
) -> list[float]:
    """The cosine of each pair (old index, new index), as :meth:`~lawdiff.align.space.Space.cosine` makes it:
    the products of the shorter vector's words (the old one's of two alike) with the other's weights,
    added in the shorter one's order, over the product of the norms."""
    olds = list(dict.fromkeys(i for i, _ in pairs))
    news = list(dict.fromkeys(j for _, j in pairs))
    at_old = {i: r for r, i in enumerate(olds)}
    at_new = {j: r for r, j in enumerate(news)}
    a_tf, b_tf = [old_tf[i] for i in olds], [new_tf[j] for j in news]
    vocabulary = list(dict.fromkeys(chain(chain.from_iterable(a_tf), chain.from_iterable(b_tf))))
    ids = dict(zip(vocabulary, range(len(vocabulary)), strict=True))
    idf_of = np.fromiter(map(idf.__getitem__, vocabulary), dtype=np.float64, count=len(vocabulary))
    sides = (_rows(a_tf, ids, idf_of), _rows(b_tf, ids, idf_of))
    norms = [_norms(start, length, weight) for start, length, _, weight in sides]
    rows = np.array([(at_old[i], at_new[j]) for i, j in pairs], dtype=np.int64).reshape(-1, 2)
    # Which side of each pair is walked: the vector with fewer words, the old one when both have as many.
    walk_new = sides[0][1][rows[:, 0]] > sides[1][1][rows[:, 1]]
    dots = np.zeros(len(pairs))
    for side in (0, 1):
        chosen = np.flatnonzero(walk_new == bool(side))
        if len(chosen):
            dots[chosen] = _dots(sides[side], sides[1 - side], rows[chosen, side], rows[chosen, 1 - side])
    out = dots / (norms[0][rows[:, 0]] * norms[1][rows[:, 1]])
    return [float(x) for x in out]


def _dots(walked: tuple[np.ndarray, ...], other: tuple[np.ndarray, ...], rw: np.ndarray, ro: np.ndarray) -> np.ndarray:
    """The dot product of each pair of rows (``rw`` of ``walked``, ``ro`` of ``other``), adding the products
    of the walked row's words found in the other row, in the walked row's order."""
    w_start, w_len, w_words, w_weights = walked
    _, o_len, o_words, o_weights = other
    n = len(rw)
    pair = np.repeat(np.arange(n, dtype=np.int64), w_len[rw])
    at = (
        w_start[rw][pair]
        + np.arange(len(pair), dtype=np.int64)
        - np.repeat(np.cumsum(w_len[rw]) - w_len[rw], w_len[rw])
    )
    # The other side's entries keyed by (row, word), sorted, to find each walked word in the paired row.
    span = int(max(w_words.max(initial=0), o_words.max(initial=0))) + 1
    o_row = np.repeat(np.arange(len(o_len), dtype=np.int64), o_len)
    o_key = o_row * span + o_words
    order = np.argsort(o_key, kind="stable")
    sorted_keys = o_key[order]
    wanted = ro[pair] * span + w_words[at]
    found = np.searchsorted(sorted_keys, wanted)
    found[found >= len(sorted_keys)] = 0
    hit = sorted_keys[found] == wanted if len(sorted_keys) else np.zeros(len(wanted), dtype=bool)
    products = w_weights[at][hit] * o_weights[order[found[hit]]]
    return np.bincount(pair[hit], weights=products, minlength=n)
