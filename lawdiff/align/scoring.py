"""What the text phases weigh: candidate pairs and their scores (see :mod:`lawdiff.align`).

The assignment passes (:mod:`lawdiff.align.aligner`) decide which pairs to
link; this module only says which pairs are worth looking at and how well two
units agree, and keeps the scores so that each pair is weighed once.
"""

from __future__ import annotations

import heapq
import re
from collections import defaultdict

from lawdiff.align.links import Method, Unit
from lawdiff.align.search import Query, best, postings
from lawdiff.align.space import Space, Vectors
from lawdiff.align.thresholds import (
    CANDIDATES_PER_UNIT,
    FEW_TELLING_WORDS,
    TELLING_UNITS_MAX,
    TELLING_WORD_SHARE,
    TELLING_WORDS,
    VERBATIM_COSINE_FLOOR,
    VERBATIM_WORDS,
    WIDER_SEARCH,
    Thresholds,
)
from lawdiff.i18n import N_
from lawdiff.i18n.said import Said, joined
from lawdiff.textwalk import kept

# The reasons every edition's links repeat, made once.
SAME_ADDRESS = Said(N_("same address"))
SAME_ARTICLE = Said(N_("same article"))

# Texts of at least this many characters each are weighed by a walk where it finds them near the same (see
# Scorer._long); the longest clause of the bundled corpus has 688.
WALKED_CHARS = 100_000

# A text with a word has a vector; one without (a lone sign) has none, and no cosine with anything.
_HAS_WORD = re.compile(r"\w")


class Scorer:
    """Candidate pairs and scores of two editions' units, computed once per pair."""

    def __init__(self, old: list[Unit], new: list[Unit], t: Thresholds) -> None:
        self.old = old
        self.new = new
        self.t = t
        self._space: Space | None = None
        self.scores: dict[tuple[int, int], float] = {}
        self.texts: dict[tuple[int, int], float] = {}
        self.inside: set[tuple[int, int]] = set()  # pairs matched by containment
        # The reasons of a pair that kept its text, in one Said, by what they depend on (see :meth:`said`).
        self._kept: dict[tuple[bool, bool, float], Said] = {}
        # The same, with the pair's score as a link rounds it (see :meth:`kept_link`).
        self._kept_links: dict[tuple[bool, bool, float], tuple[Said, float]] = {}
        # A text kept whole scores 1 (its cosine with itself) unless the containment pass may raise it:
        # then a kept pair's score is no longer a function of its place and references alone.
        self._kept_scores_alike = not VERBATIM_COSINE_FLOOR <= 1.0 < t.verbatim_min

    @property
    def made_space(self) -> Space | None:
        """The word vectors if a pair was weighed by its words, else None (without making them)."""
        return self._space

    @property
    def space(self) -> Space:
        """The word vectors of both sides, made when a pair is first weighed by its words: two editions
        whose every clause found its text on the other side need none."""
        if self._space is None:
            self._space = Space(self.old, self.new)
        return self._space

    def candidates(self, o2n: dict[int, list[int]], n2o: dict[int, list[int]]) -> list[tuple[int, int]]:
        """Pairs worth scoring for the units identity left open (those not in
        ``o2n`` and ``n2o``): those sharing a telling word, and those in the
        same article."""
        if len(o2n) == len(self.old) and len(n2o) == len(self.new):
            return []
        space = self.space
        limit = max(5, min(int(space.n * TELLING_WORD_SHARE), TELLING_UNITS_MAX))
        pairs: set[tuple[int, int]] = set()
        self._search(space.old_vec, space.new_vec, o2n, self.old, self.new, limit, pairs, flip=False)
        self._search(space.new_vec, space.old_vec, n2o, self.new, self.old, limit, pairs, flip=True)
        return sorted(pairs)

    def _search(
        self,
        mine: Vectors,
        theirs: Vectors,
        matched: dict[int, list[int]],
        my_units: list[Unit],
        their_units: list[Unit],
        limit: int,
        pairs: set[tuple[int, int]],
        flip: bool,
    ) -> None:
        df = self.space.df
        wide = limit * WIDER_SEARCH
        queries: list[tuple[int, Query]] = []
        for x in range(len(mine)):
            if x in matched:
                continue
            vec = mine[x]
            telling = heapq.nlargest(TELLING_WORDS, ((v, w) for w, v in vec.items() if df[w] <= limit))
            if len(telling) < FEW_TELLING_WORDS:
                # A short clause of common words: search by its rarest words
                # among the commoner ones too, so that a moved one is found.
                telling = heapq.nlargest(FEW_TELLING_WORDS * 2, ((v, w) for w, v in vec.items() if df[w] <= wide))
            queries.append((x, telling))
        if not queries:
            return
        found = best(queries, postings(queries, theirs.tfs, self.space.idf), CANDIDATES_PER_UNIT)
        by_article: dict[str, list[int]] = defaultdict(list)
        for k, u in enumerate(their_units):
            if u.article:
                by_article[u.article].append(k)
        for x, _ in queries:
            near = found[x] + by_article.get(my_units[x].article, [])
            pairs.update((k, x) if flip else (x, k) for k in near)

    def score(self, i: int, j: int) -> float:
        key = (i, j)
        if key not in self.scores:
            a, b = self.old[i], self.new[j]
            # The same text (with words) is the cosine of a vector with itself: 1 without making the vectors.
            text = 1.0 if a.text == b.text and _HAS_WORD.search(a.text) else self._long(a, b)
            if text < 0:
                text = self.space.cosine(i, j)
            if VERBATIM_COSINE_FLOOR <= text < self.t.verbatim_min:
                # A clause that went whole into a longer one matches it,
                # however much the other brings besides.
                inside = max(
                    self.space.old_in_new(i, [j]) if self.space.old_words[i] >= VERBATIM_WORDS else 0.0,
                    self.space.new_in_old(j, [i]) if self.space.new_words[j] >= VERBATIM_WORDS else 0.0,
                )
                if inside >= self.t.verbatim_min:
                    self.inside.add(key)
                    text = max(text, inside)
            s = text
            if a.address == b.address:
                s += self.t.address_bonus
            if a.article and a.article == b.article:
                s += self.t.article_bonus
            if a.refs and b.refs:
                s += self.t.reference_bonus * _overlap(a.refs, b.refs)
            self.texts[key] = text
            self.scores[key] = s
        return self.scores[key]

    def _long(self, a: Unit, b: Unit) -> float:
        """Two long texts (:data:`WALKED_CHARS` each) at one address agree by the share of their characters
        that a walk finds equal (:func:`lawdiff.textwalk.kept`, about the cost of their differences) where
        that reaches ``identity_min``: counting every word of a paragraph of megabytes (for the cosine) cost
        more than all the rest of the alignment.  -1 for any other pair (weighed by its cosine); pairs at
        two addresses are not walked (two unrelated long texts cost a walk some searches of their whole
        length before it gives up)."""
        if len(a.text) < WALKED_CHARS or len(b.text) < WALKED_CHARS or a.address != b.address:
            return -1.0
        share = kept(a.text, b.text)
        return share if share is not None and share >= self.t.identity_min else -1.0

    def text(self, i: int, j: int) -> float:
        """The words' part of the score of a pair, without the structural bonuses."""
        self.score(i, j)
        return self.texts[(i, j)]

    def reasons(self, i: int, j: int, method: Method | None) -> tuple[Said, ...]:
        """Why a pair linked by ``method`` goes together, in words (said in the reader's language where shown)."""
        a, b = self.old[i], self.new[j]
        self.score(i, j)
        words = self.texts[(i, j)]
        # Translators: why the aligner matched two clauses; {score}: how much their words agree, 0 to 1.
        out = [Said(N_("shared words {score}"), score=words)]
        if a.text == b.text:
            out[0] = Said(N_("same text"))
        elif method is Method.DECLARED:
            out[0] = Said(N_("replaced at its address by an amendment, words agree {score}"), score=words)
        elif (i, j) in self.inside:
            out[0] = Said(N_("one found inside the other {score}"), score=words)
        elif method is Method.IDENTITY:
            out[0] = Said(N_("words agree {score}"), score=words)
        if a.address == b.address:
            out.append(SAME_ADDRESS)
        elif a.article and a.article == b.article:
            out.append(SAME_ARTICLE)
        if a.refs and b.refs and _overlap(a.refs, b.refs) > 0:
            # Translators: {share}: the share of their references the two clauses have in common, 0 to 1.
            out.append(Said(N_("same references {share}"), share=_overlap(a.refs, b.refs)))
        return tuple(out)

    def said(self, i: int, j: int, method: Method | None) -> Said:
        """The reasons of a pair (:meth:`reasons`) joined into one, as a link lists them.

        Most pairs of two editions kept their text, and their reasons then depend only on whether the
        address and the article are the same and on the references they share: made once for each such
        case (an unchanged clause costs a look-up, not three messages and their join)."""
        a, b = self.old[i], self.new[j]
        if a.text != b.text:
            return joined(self.reasons(i, j, method), ", ")
        shared = _overlap(a.refs, b.refs) if a.refs and b.refs else 0.0  # (0 too when a side has none)
        key = (a.address == b.address, bool(a.article) and a.article == b.article, shared)
        found = self._kept.get(key)
        if found is None:
            found = self._kept[key] = joined(self.reasons(i, j, method), ", ")
        return found

    def kept_link(self, i: int, j: int, method: Method) -> tuple[Said, float] | None:
        """The reasons (joined, as :meth:`said` joins them) and the score (as a link rounds it: at most 1, to 4
        places) of a pair that kept its text and has a word, made once per kind of such pair; None for any
        other pair (weighed by :meth:`score`).

        Such a pair's text part is 1 without a vector (:meth:`score`), so that its score and its reasons
        (which say "same text" whatever its method) depend only on whether its address and its article are
        the same and on the references the two share: most pairs of two editions are such, and each costs
        a look-up, not a score kept in the table of weighed pairs (no pass after the links reads it)."""
        a, b = self.old[i], self.new[j]
        if a.text != b.text or not self._kept_scores_alike or not _HAS_WORD.search(a.text):
            return None
        shared = (1.0 if a.refs == b.refs else _overlap(a.refs, b.refs)) if a.refs and b.refs else 0.0
        key = (a.address == b.address, bool(a.article) and a.article == b.article, shared)
        found = self._kept_links.get(key)
        if found is None:
            found = self._kept_links[key] = (self.said(i, j, method), round(min(self.score(i, j), 1.0), 4))
        return found


def _overlap(a: tuple[str, ...], b: tuple[str, ...]) -> float:
    sa, sb = set(a), set(b)
    return len(sa & sb) / len(sa | sb) if sa | sb else 0.0
