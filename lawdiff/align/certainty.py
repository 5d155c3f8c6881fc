"""How likely a link is right: its certainty, a probability fitted on labelled links.

A link's evidence (:attr:`Link.score`: word similarity plus structural bonuses) ranks candidate
pairs; it is no probability: a 2007 -> 2017 45C2 whose address and 82 % of its words agree has
evidence 0.67.  The certainty is: a logistic model over a few features of the link
(:data:`FEATURES`), fitted by ``benchmarks/fit_certainty.py`` on the links the aligner makes on the
alignment benchmark's generated editions, where the gold is known by construction.  Its constants
are ``certainty.json`` beside this module; the links it was fitted on are
``benchmarks/data/certainty_links.csv``; running the script again on the same seeds gives the
same file.

A link matched by identity (the same text, or the same address with agreeing words), declared by an
amendment or pinned by the committee is certain (1.0); so is an addition or removal (nothing was
guessed).  A heading link keeps its evidence as its certainty: the benchmark labels no headings.
A link is shown as uncertain below ``Thresholds.certain`` (0.9).
"""

from __future__ import annotations

import json
import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from importlib import resources

from lawdiff.align.links import Aspect, Link, Method, Unit
from lawdiff.align.space import words

# The features of a link, in the order of the model's weights.
FEATURES = (
    "evidence",  # the link's score
    "same_address",  # an address on both sides
    "same_article",  # every pair within corresponding articles (the same number)
    "several",  # a split or merge (more than one clause on a side)
    "gap",  # a pair made in order between two matches
    "piece",  # a piece of a split or merge
    "shared",  # words in common / words of the longer side
    "contained",  # words in common / words of the shorter side
    "length",  # |log(words old / words new)|
    "orphan",  # how much of a clause left alone next to the link lies inside its other side
    "context",  # the mean evidence of the other matches of the link's old article(s): how much it changed
)
# How far from a link's clauses (in document order) a clause left alone counts as its neighbour.
NEIGHBOURS = 2
MODEL_FILE = "certainty.json"
# A tuple, not a set: a member is found in it by identity, where a set's look-up hashes it (Enum.__hash__
# is Python code, once per link).
_CERTAIN_METHODS = (Method.IDENTITY, Method.DECLARED, Method.PINNED)


def _model() -> tuple[tuple[float, ...], float]:
    data = json.loads((resources.files("lawdiff.align") / MODEL_FILE).read_text("utf-8"))
    if tuple(data["features"]) != FEATURES:
        raise ValueError(f"{MODEL_FILE} was fitted on other features: run benchmarks/fit_certainty.py")
    return tuple(float(w) for w in data["weights"]), float(data["bias"])


WEIGHTS, BIAS = _model()


class Sides:
    """Both editions' units by address, and those no link pairs (left alone) by position."""

    def __init__(
        self,
        old: Sequence[Unit],
        new: Sequence[Unit],
        links: Sequence[Link],
        counts: dict[str, Counter[str]] | None = None,
    ) -> None:
        # The word counts of each text, as the aligner made them (read, never changed), or made here.
        self.counts = counts if counts is not None else {}
        self.old = {u.address: u for u in old}
        self.new = {u.address: u for u in new}
        alone_old = {a for link in links if link.aspect is Aspect.TEXT and not link.new for a in link.old}
        alone_new = {a for link in links if link.aspect is Aspect.TEXT and not link.old for a in link.new}
        self.alone_old = {u.position: u for u in old if u.address in alone_old}
        self.alone_new = {u.position: u for u in new if u.address in alone_new}
        # Per old article, the evidence of its matches (a re-drafted article has low evidence throughout).
        self.evidence: dict[str, list[float]] = {}
        for link in links:
            if link.aspect is Aspect.TEXT and link.old and link.new:
                for article in {self.old[a].article for a in link.old if a in self.old}:
                    self.evidence.setdefault(article, []).append(link.score)

    def words(self, units: Sequence[Unit]) -> Counter[str]:
        """The word counts of the units' texts together."""
        if len(units) == 1:
            text = units[0].text
            found = self.counts.get(text)
            if found is None:
                found = self.counts[text] = Counter(words(text))
            return found
        return Counter(w for u in units for w in words(u.text))

    def context(self, link: Link) -> float:
        """The mean evidence of the other matches in the link's old article(s); 1 when it has none."""
        scores: list[float] = []
        for article in {self.old[a].article for a in link.old if a in self.old}:
            scores.extend(self.evidence.get(article, ()))
        if link.score in scores:
            scores.remove(link.score)
        return sum(scores) / len(scores) if scores else 1.0


def _orphan(mine: list[Unit], alone: dict[int, Unit], other: Counter[str], sides: Sides) -> float:
    """The largest share of a lone neighbour's words found in ``other`` (a piece the link may have missed)."""
    best = 0.0
    for u in mine:
        for d in range(-NEIGHBOURS, NEIGHBOURS + 1):
            n = alone.get(u.position + d)
            if n is not None:
                wn = sides.words([n])
                if wn:
                    best = max(best, sum((wn & other).values()) / sum(wn.values()))
    return best


def features(link: Link, sides: Sides) -> tuple[float, ...]:
    """The features of a text link with clauses on both sides (see :data:`FEATURES`)."""
    a = [sides.old[x] for x in link.old if x in sides.old]
    b = [sides.new[x] for x in link.new if x in sides.new]
    wa, wb = sides.words(a), sides.words(b)
    na, nb = sum(wa.values()), sum(wb.values())
    common = sum((wa & wb).values())
    articles_a = {u.article for u in a}
    articles_b = {u.article for u in b}
    return (
        link.score,
        1.0 if set(link.old) & set(link.new) else 0.0,
        1.0 if articles_a == articles_b else 0.0,
        1.0 if len(link.old) > 1 or len(link.new) > 1 else 0.0,
        1.0 if Method.GAP in link.methods else 0.0,
        1.0 if Method.PIECE in link.methods else 0.0,
        common / max(na, nb, 1),
        common / max(min(na, nb), 1),
        abs(math.log((na + 1) / (nb + 1))),
        max(_orphan(a, sides.alone_old, wb, sides), _orphan(b, sides.alone_new, wa, sides)),
        sides.context(link),
    )


def probability(x: Sequence[float], weights: Sequence[float] = WEIGHTS, bias: float = BIAS) -> float:
    """The model's probability that a link with features ``x`` is right."""
    z = bias + sum(w * v for w, v in zip(weights, x, strict=True))
    return 1.0 / (1.0 + math.exp(-z)) if z > -500 else 0.0


def certainty(link: Link, sides: Sides) -> float:
    """The probability that ``link`` is right, rounded to 3 places (see the module docstring)."""
    given = _given(link)
    return round(probability(features(link, sides)), 3) if given is None else given


def _given(link: Link) -> float | None:
    """The certainty of a link that the model does not weigh (see the module docstring), else None."""
    if not (link.old and link.new):
        return 1.0
    for method in link.methods:
        if method in _CERTAIN_METHODS:
            return 1.0
    if link.aspect is Aspect.TITLE:
        return round(link.score, 3)
    return None


def with_certainty(
    links: Sequence[Link],
    old: Sequence[Unit],
    new: Sequence[Unit],
    text: Sequence[Link] = (),
    counts: dict[str, Counter[str]] | None = None,
) -> list[Link]:
    """The links, each with its certainty (``text``: the text links, when ``links`` are headings';
    ``counts``: the word counts of the texts, by text, when the aligner made them)."""
    # Both editions' units by address, made when a link is first weighed: two editions whose clauses all
    # kept their texts have only links that are certain by how they were made.
    sides: Sides | None = None
    out: list[Link] = []
    for link in links:
        p = _given(link)
        if p is None:
            if sides is None:
                sides = Sides(old, new, text or links, counts)
            p = round(probability(features(link, sides)), 3)
        # Most links keep the certainty they were made with (1: an identity, an addition): no copy of them.
        out.append(link if p == link.certainty else replace(link, certainty=p))
    return out
