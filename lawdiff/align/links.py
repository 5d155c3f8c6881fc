"""What an alignment says: which clauses of one edition became which of the other."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from lawdiff.align.thresholds import Thresholds
from lawdiff.frozen import slot_init
from lawdiff.i18n import N_
from lawdiff.i18n.said import Said
from lawdiff.model import Kind
from lawdiff.pickling import by_fields


# The kinds of this module hash as objects do (by identity, in C), not as Enum does (the hash of the member's
# name, a call of Python code): a member equals only itself, so either hash keeps the contract, and a pair's
# alignment and description look its kinds up in sets and dictionaries some tens of thousands of times.
# (Neither hash is the same from run to run, a string's being salted per process: no order is taken from a
# set of them.)
class Aspect(enum.Enum):
    """What of a clause a link or change is about."""

    __hash__ = object.__hash__  # (see the note above the module's first kind)

    TEXT = "text"  # the clauses' own texts
    TITLE = "title"  # headings


class Method(enum.Enum):
    """How a pair of clauses was matched (a group link lists all of its pairs' methods)."""

    __hash__ = object.__hash__  # (see the note above the module's first kind)

    DECLARED = "declared"  # an amendment replaced the clause at its address
    GAP = "gap"  # a leftover paired in order between two matches
    IDENTITY = "identity"  # the same text, or the same address with agreeing words
    PAIR = "pair"  # the best one-to-one match by words and structure
    PIECE = "piece"  # a piece of a split or merge
    PINNED = "pinned"  # set by hand: the committee said these are the same clause
    TITLE = "title"  # headings paired


# How a pair was matched, as its reasons say after the words' ("shared words 0.45 (gap)"); a pair matched by
# words, identity or amendment says nothing more.
METHOD_SAID: dict[Method, Said] = {
    # Translators: after the reasons of a match made in order between two others, for lack of a better one.
    Method.GAP: Said(N_("(gap)")),
    # Translators: after the reasons of a match of a piece of a split or merged clause.
    Method.PIECE: Said(N_("(piece)")),
    # Translators: after the reasons of a match set by hand ("pinned").
    Method.PINNED: Said(N_("(pinned)")),
    # Translators: after the reasons of a match of two headings.
    Method.TITLE: Said(N_("(title)")),
}

#: Who set a match by hand when the hand correction names nobody (:attr:`Link.pinned_by`).
COMMITTEE = Said(N_("the committee"))


def set_by_hand(by: str) -> Said:
    """The first reason of a match set by hand: who set it (:data:`COMMITTEE` when the correction names nobody)."""
    # Translators: the first reason of a match the committee set by hand; {name}: who set it.
    return Said(N_("set by hand by {name}"), name=by or COMMITTEE)


@slot_init
@dataclass(frozen=True, slots=True)
class Unit:
    """A clause as the alignment sees it."""

    address: str
    article: str
    position: int  # document order in its edition
    text: str
    title: str
    kind: Kind
    refs: tuple[str, ...]
    parent: str = ""  # the parent clause's address


@by_fields
@slot_init
@dataclass(frozen=True, slots=True)
class Link:
    """One aligned group: old addresses -> new addresses.

    aspect: own texts or headings.
    old, new: the addresses on each side (one side empty for an addition or
        removal; several on one side for a split or merge).
    score: the evidence for the match (0 for additions and removals).
    methods: how its pairs were matched, in :class:`Method` order (empty
        when unmatched).
    reasons: why the match was made, for the reader (:class:`~lawdiff.i18n.said.Said`: English, said in the
        reader's language where shown).
    pinned_by: for a link set by hand, who set it (:data:`COMMITTEE` when the correction names nobody).
    certainty: the probability that the link is right (:mod:`lawdiff.align.certainty`);
        1 for an addition, a removal, an identity, a declared or a pinned link.
    """

    aspect: Aspect
    old: tuple[str, ...]
    new: tuple[str, ...]
    score: float
    methods: tuple[Method, ...]
    reasons: tuple[str, ...]
    pinned_by: str = ""
    certainty: float = 1.0

    @property
    def method(self) -> str:
        """The methods as one word for the JSON (``pair+piece``), "" when unmatched."""
        return "+".join(m.value for m in self.methods)


@dataclass(frozen=True, slots=True)
class Alignment:
    """The result of aligning two editions."""

    old: str
    new: str
    links: tuple[Link, ...]
    thresholds: Thresholds
    old_articles: tuple[str, ...]
    new_articles: tuple[str, ...]
    _forward: dict[str, tuple[str, ...]] = field(default_factory=dict, init=False, compare=False, repr=False)
    _backward: dict[str, tuple[str, ...]] = field(default_factory=dict, init=False, compare=False, repr=False)

    def successors(self, address: str) -> tuple[str, ...]:
        """Where the clause at ``address`` of the old edition went (its text's link first)."""
        if not self._forward and self.links:
            self._index()
        return self._forward.get(address, ())

    def predecessors(self, address: str) -> tuple[str, ...]:
        """Where the clause at ``address`` of the new edition came from."""
        if not self._backward and self.links:
            self._index()
        return self._backward.get(address, ())

    def _index(self) -> None:
        # One pass over the links: a text link wins over a title link, and
        # among links of one aspect the first in document order.
        for aspect in (Aspect.TEXT, Aspect.TITLE):
            for link in self.links:
                if link.aspect is aspect:
                    for a in link.old:
                        self._forward.setdefault(a, link.new)
                    for a in link.new:
                        self._backward.setdefault(a, link.old)


# ---------------------------------------------------------------------------
# Hand corrections (set by the committee in the review store)


@dataclass(frozen=True, slots=True)
class Pin:
    """These clauses are the same: one to one, or one to several for a split or merge.

    old, new: addresses in the old and the new edition.
    by: who set it.
    id: its record in the review store ("" when it is not kept in one).
    """

    old: tuple[str, ...]
    new: tuple[str, ...]
    by: str = ""
    id: str = ""


@dataclass(frozen=True, slots=True)
class Forbid:
    """Never pair these two clauses (``by``, ``id``: as for :class:`Pin`)."""

    old: str
    new: str
    by: str = ""
    id: str = ""


@dataclass(frozen=True, slots=True)
class Corrections:
    """The hand corrections of one pair of editions, handed to the aligner as data.

    A pin replaces whatever the aligner would have linked its clauses to, and
    the rest is aligned around it (a freed clause may find another partner);
    a forbidden pair is never linked.
    """

    pins: tuple[Pin, ...] = ()
    forbids: tuple[Forbid, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.pins or self.forbids)
