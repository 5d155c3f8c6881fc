"""Changes between editions: the records every report is built from.

:func:`compare` turns an :class:`~lawdiff.align.Alignment` into
:class:`Change` records: the kind of each change, its word-level difference
(tokens matched by rapidfuzz's longest common subsequence, diff-match-patch's
semantic cleanup; the same result on every machine), whether it is only
editorial, and what became of its references.  :func:`history` chains the
alignments of consecutive editions into a clause's history.

Only :mod:`lawdiff.diff.words` imports diff_match_patch.

Modules: ``correlate`` (correlation tables), ``vocabulary`` (the change records), ``comparison`` (a comparison and
its changes as it holds them), ``words`` (word differences),
``editorial`` (editorial-only tests), ``sides`` (the words each side of a difference holds, and
which it touched), ``significance`` (flags), ``ranking`` (drafting patterns, the score),
``anchors`` (matching long clauses), ``changes`` (comparing two editions),
``history`` (a clause across editions), ``scope`` (what a comparison compares).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from lawdiff.diff.changes import compare, describe
from lawdiff.diff.comparison import Comparison
from lawdiff.diff.editorial import canonical, editorial_only
from lawdiff.diff.history import history
from lawdiff.diff.ranking import ranked
from lawdiff.diff.scope import NotCompared, compared, scope_of
from lawdiff.diff.study import PairIndex, Study, scopes, timeline_with, within
from lawdiff.diff.vocabulary import (
    SHORT_ID,
    Change,
    ChangeKind,
    History,
    Op,
    Pattern,
    Piece,
    RefChange,
    RefStatus,
    Scope,
    Step,
)
from lawdiff.lazy import loader

if TYPE_CHECKING:
    from lawdiff.diff.editorial import TERMINOLOGY
    from lawdiff.diff.words import rebuild, word_diff

# The word differences' engine (diff-match-patch, rapidfuzz), loaded when first asked for: comparing two
# editions that kept every text makes no word difference.
# The terminology pairs read from the lexicon when first asked for.
__getattr__ = loader(
    globals(),
    {"rebuild": "lawdiff.diff.words", "word_diff": "lawdiff.diff.words", "TERMINOLOGY": "lawdiff.diff.editorial"},
)

__all__ = [
    "SHORT_ID",
    "TERMINOLOGY",
    "Change",
    "ChangeKind",
    "Comparison",
    "History",
    "NotCompared",
    "Op",
    "PairIndex",
    "Pattern",
    "Piece",
    "RefChange",
    "RefStatus",
    "Scope",
    "Step",
    "Study",
    "canonical",
    "compare",
    "compared",
    "describe",
    "editorial_only",
    "history",
    "ranked",
    "rebuild",
    "scope_of",
    "scopes",
    "timeline_with",
    "within",
    "word_diff",
]
