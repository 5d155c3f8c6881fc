"""Aligning two editions: which clause became which.

Matching is a phase of its own, separate from describing the changes
(:mod:`lawdiff.diff`), and public so that it can be tested on its own.

The units of the text alignment are the clauses with own text.  Units are
compared by their words, weighted by how rare each word is in the two editions
(IDF), so that a re-translation that keeps the telling words ("beeldzijde",
"strafkaart") still matches while the common ones ("de", "een", "kaart") count
for little.  Structure adds evidence but never decides alone: the same
address, the same article, the same references.  Content wins when address and
content disagree.

The phases, each with named thresholds (:class:`Thresholds`):

1. **pairs**: one-to-one matches, best first, whose score (word similarity +
   structural bonuses) reaches ``match_min``;
2. **pieces**: an unmatched unit whose words lie mostly inside one unit of the
   other edition (``piece_min``) joins that unit's match, when it explains
   more of it (``gain_min``): splits and merges, found even when the pieces
   were edited;
3. **gaps**: inside an article pair, unmatched units between two matches are
   paired in document order when their word similarity reaches ``gap_min``
   (a weaker bar: their neighbours vouch for them).

4. **sentences**: a unit still alone that matches one sentence of a matched unit of the other side
   (``sentence_min``) and stands next to a part of it joins that split or merge (parts each reworded).

Titles are aligned after the text: a titled clause pairs with the clause that
received most of its subtree's text, or with the one at the same address, but
never with a clause whose own text the text alignment kept apart from its own.

Everything is symmetric, so that aligning B with A mirrors aligning A with B.

Modules: ``thresholds``, ``records`` (units, links, alignments), ``space``
(units and word vectors), ``scoring`` (candidate pairs and their scores), ``search`` (the candidate search),
``aligner`` (the text phases), ``sentences`` (sentence-level evidence), ``certainty`` (the
probability that a link is right), ``titles``.
"""

from __future__ import annotations

from lawdiff.align.aligner import align, same_lineage
from lawdiff.align.links import Alignment, Aspect, Corrections, Forbid, Link, Method, Pin, Unit
from lawdiff.align.space import titled, units, words
from lawdiff.align.thresholds import DEFAULT_THRESHOLDS, Thresholds

__all__ = [
    "DEFAULT_THRESHOLDS",
    "Alignment",
    "Aspect",
    "Corrections",
    "Forbid",
    "Link",
    "Method",
    "Pin",
    "Thresholds",
    "Unit",
    "align",
    "same_lineage",
    "titled",
    "units",
    "words",
]
