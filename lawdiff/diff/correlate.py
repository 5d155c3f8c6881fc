"""Correlation (destination) tables: old number -> new number, one row per clause.

As EU recasts and UK consolidations print them: every clause of the old
edition and where it went, every clause of the new one and where it came
from, marked by how it got there.  The rows are read from a comparison's
changes (its text changes and its headings told on their own): the study
computes nothing twice for them.
"""

from __future__ import annotations

import enum
import functools
from collections.abc import Iterable
from dataclasses import dataclass

from lawdiff.align import Aspect
from lawdiff.diff.comparison import Comparison
from lawdiff.diff.vocabulary import Change, ChangeKind
from lawdiff.errors import LawdiffBug
from lawdiff.i18n import N_, pgettext
from lawdiff.i18n import gettext as _
from lawdiff.model import article_of, natural_key


class Relation(enum.Enum):
    """How a clause's number relates to its counterpart's."""

    UNCHANGED = "unchanged"  # the same number (its words may have changed: see ``reworded``)
    RENUMBERED = "renumbered"  # another number in the same article
    MOVED = "moved"  # to another article
    SPLIT = "split"  # one clause became several (1:n)
    MERGED = "merged"  # several clauses became one (n:1)
    REMOVED = "removed"  # 1:0
    ADDED = "added"  # 0:1

    @property
    def label(self) -> str:
        """How every table says the relation to a reader, in the interface's language (the value stays the
        JSON's word): "same number", never "unchanged" beside words that changed."""
        return _(_LABELS[self])


_LABELS = {
    Relation.UNCHANGED: N_("same number"),
    Relation.RENUMBERED: N_("renumbered"),
    Relation.MOVED: N_("moved to another article"),
    Relation.SPLIT: N_("split (1:n)"),
    Relation.MERGED: N_("merged (n:1)"),
    Relation.REMOVED: N_("removed (1:0)"),
    Relation.ADDED: N_("added (0:1)"),
}


@dataclass(frozen=True, slots=True)
class Row:
    """One row of a correlation table.

    old, new: the numbers on each side (several for a split or merge, none
        for an addition or removal).
    relation: see :class:`Relation`.
    reworded: the words changed too ("editorial" when only editorially).
    heading: a heading told on its own (a clause without own text).
    change: the change's id.
    """

    old: tuple[str, ...]
    new: tuple[str, ...]
    relation: Relation
    reworded: str
    heading: bool
    change: str

    @property
    def ratio(self) -> str:
        """``1:1``, ``1:2``, ``2:1``, ``1:0``, ``0:1``."""
        return f"{len(self.old)}:{len(self.new)}"

    @property
    def label(self) -> str:
        """The relation as every table shows it: ``same number``, ``renumbered (heading)``."""
        return self.relation.label + (_(" (heading)") if self.heading else "")

    @property
    def words(self) -> str:
        """What became of the words, in the interface's language: ``reworded``, ``editorial``, ``same``; "" for
        an addition or removal."""
        if self.reworded == "reworded":
            return pgettext("words", "reworded")
        if self.reworded == "editorial":
            return pgettext("words", "editorial")
        return pgettext("words", "same") if self.old and self.new else ""


def summary(rows: Iterable[Row]) -> str:
    """How many rows of each relation, in the order they first come: ``17 same number, 3 renumbered``."""
    counts: dict[Relation, int] = {}
    for r in rows:
        counts[r.relation] = counts.get(r.relation, 0) + 1
    return ", ".join(f"{n} {rel.label}" for rel, n in counts.items())


def relation(ch: Change) -> Relation:
    if ch.kind is ChangeKind.ADDED:
        return Relation.ADDED
    if ch.kind is ChangeKind.REMOVED:
        return Relation.REMOVED
    if ch.kind is ChangeKind.SPLIT:
        return Relation.SPLIT
    if ch.kind is ChangeKind.MERGED:
        return Relation.MERGED
    if ch.moved:
        return Relation.MOVED
    if ch.renumbered:
        return Relation.RENUMBERED
    return Relation.UNCHANGED


def rows(comparison: Comparison | None, changes: Iterable[Change] | None = None) -> tuple[Row, ...]:
    """The table of a comparison (or of some of its changes: then the comparison may be None), ordered by old number.

    Only clauses both corpora could hold are listed (what one corpus lacks
    is no addition or removal).  Additions follow the old clauses, in new
    number order.
    """
    out: list[Row] = []
    if changes is None and comparison is None:
        raise LawdiffBug("rows() needs a comparison or its changes")
    for ch in (comparison.changes if comparison is not None else ()) if changes is None else changes:
        if not ch.counterpart_in_corpus:
            continue
        reworded = ""
        if (ch.old and ch.new and ch.old_texts != ch.new_texts) or ch.title_changed:
            reworded = "editorial" if ch.editorial_only else "reworded"
        out.append(Row(ch.old, ch.new, relation(ch), reworded, ch.aspect is Aspect.TITLE, ch.id))
    return tuple(sorted(out, key=by_old))


def by_old(row: Row) -> tuple[int, tuple[tuple[int, int, str], ...]]:
    """Sort key: old number first; additions after, by their new number."""
    return (0, _key(row.old[0])) if row.old else (1, _key(row.new[0]))


def by_new(row: Row) -> tuple[int, tuple[tuple[int, int, str], ...]]:
    """Sort key: new number first; removals after, by their old number."""
    return (0, _key(row.new[0])) if row.new else (1, _key(row.old[0]))


# Kept: a report sorts every pair's rows twice (by old and by new number), and the pairs share most addresses
# (21,000 keys at 186 articles, 10,000 distinct); a bounded number, a few MB at most.
@functools.lru_cache(maxsize=1 << 13)
def _key(address: str) -> tuple[tuple[int, int, str], ...]:
    # Articles in number order, then what lies outside them (chapters, pages).
    art = article_of(address)
    return ((0, 0, ""), *natural_key(address)) if art else ((1, 0, ""), *natural_key(address))
