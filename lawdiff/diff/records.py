"""The change records every report is built from: one screen of small values."""

from __future__ import annotations

import enum
import hashlib
import json
from collections import Counter
from dataclasses import dataclass

from lawdiff.align import Alignment, Thresholds

# ---------------------------------------------------------------------------
# Records


class ChangeKind(enum.Enum):
    UNCHANGED = "unchanged"
    MODIFIED = "modified"
    SPLIT = "split"
    MERGED = "merged"
    ADDED = "added"
    REMOVED = "removed"


class Op(enum.Enum):
    EQUAL = "equal"
    INSERT = "insert"
    DELETE = "delete"


@dataclass(frozen=True, slots=True)
class Piece:
    """A run of the word-level difference: kept, inserted or deleted text."""

    op: Op
    text: str


@dataclass(frozen=True, slots=True)
class RefChange:
    """What became of one cross-reference.

    status: "kept" (same target), "retargeted" (points elsewhere now),
        "added" or "removed".
    old, new: the target address on each side ("" where there is none).
    consistent: for kept and retargeted references, whether the new target is
        the successor of the old one (as 16D1 -> 16C1 would be if 16D1 became
        16C1); None when the corpus cannot tell (the target is not in it).
    """

    status: str
    old: str
    new: str
    consistent: bool | None


# Bumped when what the id is made of changes: ids of one version never
# collide with another's.
CHANGE_ID_VERSION = "lawdiff-change-1"
# How many hex digits of an id the text output shows: fixed, so that a
# printed prefix stays the same whatever else the store holds (git's
# adaptive abbreviation does not).
SHORT_ID = 10


def change_id(
    old_edition: str,
    new_edition: str,
    aspect: str,
    old: tuple[str, ...],
    new: tuple[str, ...],
    old_texts: tuple[str, ...],
    new_texts: tuple[str, ...],
) -> str:
    """The durable identity of a change: 40 hex digits of SHA-256.

    Made of the edition pair as the comparison names it (``2007``,
    ``2017@wiki``), the aspect, the old and new addresses and the old and new
    texts, and of nothing else: the same inputs give the same id on every
    run and machine, whatever else changed in the corpus or the thresholds.
    """
    payload = json.dumps(
        [CHANGE_ID_VERSION, old_edition, new_edition, aspect, list(old), list(new), list(old_texts), list(new_texts)],
        ensure_ascii=False,
        separators=(",", ":"),
    )
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()[:40]


@dataclass(frozen=True, slots=True)
class Change:
    """One change between two editions.

    kind: unchanged, modified, split, merged, added or removed.
    aspect: "text" (the clauses' own text) or "title" (a heading whose clause
        has no own text, or whose text went elsewhere).
    old, new: addresses on each side, in document order.
    article: the article the change is listed under (the new one if any).
    renumbered: the address changed.
    moved: the clause went to another article.
    title_changed: the heading changed (old_title -> new_title).
    similarity: text similarity of old and new (0..1, 1 = identical).
    editorial_only: the difference is only white space, punctuation, case or
        terminology from :data:`TERMINOLOGY`.
    diff: the word-level difference; its equal+delete pieces rebuild the old
        text and its equal+insert pieces the new text, where the texts of
        several clauses are joined by a line break.
    references: what became of the references.
    score, uncertain, method, reasons: the alignment's evidence.
    old_texts, new_texts: the texts of the clauses, one per address.
    counterpart_in_corpus: False when the other edition's corpus does not hold
        the article at all, so an addition or removal may only mean that the
        corpus is partial.
    id: the change's durable identity (:func:`change_id`).
    """

    kind: ChangeKind
    aspect: str
    old: tuple[str, ...]
    new: tuple[str, ...]
    article: str
    renumbered: bool
    moved: bool
    title_changed: bool
    old_title: str
    new_title: str
    similarity: float
    editorial_only: bool
    diff: tuple[Piece, ...]
    references: tuple[RefChange, ...]
    score: float
    uncertain: bool
    method: str
    reasons: tuple[str, ...]
    old_texts: tuple[str, ...]
    new_texts: tuple[str, ...]
    counterpart_in_corpus: bool
    id: str = ""

    @property
    def is_difference(self) -> bool:
        return self.kind is not ChangeKind.UNCHANGED or self.renumbered or self.moved


@dataclass(frozen=True, slots=True)
class Comparison:
    """All changes from one edition to another, in document order."""

    old: str
    new: str
    thresholds: Thresholds
    changes: tuple[Change, ...]
    alignment: Alignment

    def counts(self, changes: list[Change] | tuple[Change, ...] | None = None) -> dict[str, int]:
        """Counts by kind and flag, of all changes or of a selection of them.

        Changes in articles that the other edition's corpus does not hold at
        all are counted apart (``outside_corpus``): their addition or removal
        may only mean that the corpus is partial.
        """
        listed = self.changes if changes is None else changes
        chosen = [ch for ch in listed if ch.counterpart_in_corpus]
        c: Counter[str] = Counter(ch.kind.value for ch in chosen)
        out = {k.value: c.get(k.value, 0) for k in ChangeKind}
        out["editorial_only"] = sum(1 for ch in chosen if ch.editorial_only)
        out["renumbered"] = sum(1 for ch in chosen if ch.renumbered)
        out["moved"] = sum(1 for ch in chosen if ch.moved)
        out["title_changed"] = sum(1 for ch in chosen if ch.title_changed)
        out["outside_corpus"] = len(listed) - len(chosen)
        return out

    @property
    def has_differences(self) -> bool:
        return any(ch.is_difference for ch in self.changes)


# ---------------------------------------------------------------------------
# History across editions


@dataclass(frozen=True, slots=True)
class Step:
    """A clause in one edition of its history.

    edition: the edition.
    addresses: where the clause's text is in that edition (several after a
        split, none when it is absent).
    texts: those clauses' texts.
    change: the kind of change from the previous step ("" for the first).
    changes: the change records of that step.
    in_corpus: False when the corpus does not hold the article in this
        edition (the step is skipped in the chain).
    """

    edition: str
    addresses: tuple[str, ...]
    texts: tuple[str, ...]
    change: str
    changes: tuple[Change, ...]
    in_corpus: bool


@dataclass(frozen=True, slots=True)
class History:
    """A clause's history: every edition of the corpus, oldest first."""

    start: str
    steps: tuple[Step, ...]
    introduced: str  # the edition that introduced the current wording
