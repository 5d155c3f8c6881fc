"""Changes between editions: the records every report is built from.

:func:`compare` turns an :class:`~lawdiff.align.Alignment` into
:class:`Change` records: the kind of each change, its word-level difference
(diff-match-patch on words, semantic cleanup, ``Diff_Timeout = 0`` so that
the result never depends on the machine's speed), whether it is only
editorial, and what became of its references.  :func:`history` chains the
alignments of consecutive editions into a clause's history.

Only :mod:`lawdiff.diff.words` imports diff_match_patch.

Modules: ``records`` (the vocabulary), ``words`` (word differences),
``editorial`` (editorial-only tests), ``changes`` (comparing two editions),
``history`` (a clause across editions).
"""

from __future__ import annotations

from lawdiff.diff.changes import as_dict, compare, describe
from lawdiff.diff.editorial import TERMINOLOGY, canonical, editorial_only
from lawdiff.diff.history import Comparer, history
from lawdiff.diff.records import Change, ChangeKind, Comparison, History, Op, Piece, RefChange, Step
from lawdiff.diff.words import rebuild, word_diff

__all__ = [
    "TERMINOLOGY",
    "Change",
    "ChangeKind",
    "Comparer",
    "Comparison",
    "History",
    "Op",
    "Piece",
    "RefChange",
    "Step",
    "as_dict",
    "canonical",
    "compare",
    "describe",
    "editorial_only",
    "history",
    "rebuild",
    "word_diff",
]
