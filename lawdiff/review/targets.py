"""What a write is made on, and the refusal of a write asked on a state that has moved on since.

:class:`Target` is a change as a decision records it; :class:`Expect` is the
state the writer saw (the status, the assignee, :func:`texts_hash` of the
texts), checked by :class:`~lawdiff.review.store.Store` inside the write's
transaction (a compare-and-set); :class:`StaleWrite` is its refusal.
``lawdiff serve`` puts the hashes in its forms and turns the refusal into a
page showing the change as it is now.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass

from lawdiff.errors import UsageError
from lawdiff.review import columns
from lawdiff.review.values import Decision, Status


def texts_hash(texts: Iterable[str]) -> str:
    """SHA-256 of a side's texts (JSON list), to tell which side of a change moved on."""
    return hashlib.sha256(columns.dumps(list(texts)).encode("utf-8")).hexdigest()


@dataclass(frozen=True, slots=True)
class Target:
    """A change as a decision records it: built from a run's change (:func:`lawdiff.review.view.target`)
    or from a decision already in the store."""

    id: str
    old_edition: str
    new_edition: str
    aspect: str
    kind: str
    article: str
    old: tuple[str, ...]
    new: tuple[str, ...]
    old_texts: tuple[str, ...]
    new_texts: tuple[str, ...]
    thresholds: tuple[tuple[str, float], ...] = ()

    @classmethod
    def of(cls, d: Decision) -> Target:
        return cls(
            d.id,
            d.old_edition,
            d.new_edition,
            d.aspect,
            d.kind,
            d.article,
            d.old,
            d.new,
            d.old_texts,
            d.new_texts,
            d.thresholds,
        )


@dataclass(frozen=True, slots=True)
class Expect:
    """The state a write was asked on (a form of ``lawdiff serve`` carries it): a compare-and-set.

    status, assignee: the change's status and assignee as the writer saw
        them (None: not checked).  A change without a decision is ``open``,
        assigned to nobody ("").
    old_hash, new_hash: :func:`texts_hash` of the texts the writer saw
        ("": not checked), compared with the target's.
    """

    status: Status | None = None
    assignee: str | None = None
    old_hash: str = ""
    new_hash: str = ""


class StaleWrite(UsageError):
    """A write refused because the change moved on since the writer saw it: nothing is overwritten unseen.

    decision: the change's decision as it is now (None: still none).
    by, at: who last wrote it, and when (UTC), or "" when the text changed.
    """

    def __init__(self, what: str, *, decision: Decision | None, by: str = "", at: str = "", fix: str = "") -> None:
        self.decision = decision
        self.by = by
        self.at = at
        super().__init__(what, fix=fix or "look at the change as it is now, and decide again")
