"""How much one article changed from one edition to the next: its heat.

The level of the report's matrix cell, from the changes touching the article
in one pair of editions (:func:`lawdiff.diff.article.article_view`), and how
many of those changes are editorial only, per kind.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from lawdiff.diff.comparison import counts
from lawdiff.diff.vocabulary import Change, Op

_WORD = re.compile(r"\w+")

# Heat levels of the matrix: 0 identical, 1 only editorial changes or
# renumbering, then by the share of words inserted or deleted.
HEAT_SMALL = 0.10  # below: level 2
HEAT_LARGE = 0.30  # below: level 3, from here: level 4
HEAT_SYMBOLS = ("=", "~", "▪", "▪▪", "▪▪▪")
HEAT_NAMES = ("identical", "editorial only", "small change", "substantial change", "large change")


@dataclass(frozen=True, slots=True)
class Heat:
    """How much one article changed from one edition to the next.

    level: 0..4 (see :data:`HEAT_NAMES`).
    share: words inserted plus words deleted, over the words of both sides (of the clauses both corpora
        could hold: what only one corpus holds is not compared).
    changed: changes that are differences (anything but unchanged in place), among those compared.
    total: all changes touching the article.
    counts: the change counts, as :meth:`Comparison.counts` gives them.
    editorial: per kind of change, how many of the changes counted under it
        are editorial only (see :func:`editorial_by_kind`).
    stale: references kept while their target moved (see :func:`stale_references`).
    """

    level: int
    share: float
    changed: int
    total: int
    counts: dict[str, int]
    editorial: dict[str, int]
    stale: int


def heat(changes: tuple[Change, ...]) -> Heat:
    # What only one corpus holds is not compared (counted apart): it weighs nothing here.
    compared = [ch for ch in changes if ch.counterpart_in_corpus]
    ins = dels = same = 0
    for ch in compared:
        for p in ch.diff:
            n = len(_WORD.findall(p.text))
            if p.op is Op.INSERT:
                ins += n
            elif p.op is Op.DELETE:
                dels += n
            else:
                same += n
    total_words = 2 * same + ins + dels
    share = (ins + dels) / total_words if total_words else 0.0
    differences = [ch for ch in compared if ch.is_difference]
    if not differences:
        level = 0
    elif all(ch.editorial for ch in differences):
        level = 1
    elif share < HEAT_SMALL:
        level = 2
    elif share < HEAT_LARGE:
        level = 3
    else:
        level = 4
    return Heat(
        level,
        round(share, 4),
        len(differences),
        len(changes),
        counts(changes),
        editorial_by_kind(changes),
        sum(len(ch.stale_references) for ch in changes),
    )


def editorial_by_kind(changes: Iterable[Change]) -> dict[str, int]:
    """Per kind of change (``modified``, ``split``, ...), how many are editorial only.

    ``Comparison.counts()["editorial_only"]`` is not a kind of its own: an
    editorial change is counted under its kind (mostly ``modified``; a split
    that only moved a line break is a split).  The report shows it there.
    """
    out: dict[str, int] = {}
    for ch in changes:
        if ch.editorial_only and ch.counterpart_in_corpus:
            out[ch.kind.value] = out.get(ch.kind.value, 0) + 1
    return out
