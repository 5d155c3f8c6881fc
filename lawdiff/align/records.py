"""What an alignment says: which clauses of one edition became which of the other."""

from __future__ import annotations

from dataclasses import dataclass

from lawdiff.align.thresholds import Thresholds
from lawdiff.model import Kind


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


@dataclass(frozen=True, slots=True)
class Link:
    """One aligned group: old addresses -> new addresses.

    aspect: "text" (own texts) or "title" (headings).
    old, new: the addresses on each side (one side empty for an addition or
        removal; several on one side for a split or merge).
    score: the evidence for the match (0 for additions and removals).
    method: "pair", "piece", "gap", "title" or "" (unmatched).
    reasons: why the match was made, for the reader.
    """

    aspect: str
    old: tuple[str, ...]
    new: tuple[str, ...]
    score: float
    method: str
    reasons: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Alignment:
    """The result of aligning two editions."""

    old: str
    new: str
    links: tuple[Link, ...]
    thresholds: Thresholds
    old_articles: tuple[str, ...]
    new_articles: tuple[str, ...]

    def successors(self, address: str) -> tuple[str, ...]:
        """Where the clause at ``address`` of the old edition went (its text's link first)."""
        return self._follow(address, forward=True)

    def predecessors(self, address: str) -> tuple[str, ...]:
        """Where the clause at ``address`` of the new edition came from."""
        return self._follow(address, forward=False)

    def _follow(self, address: str, forward: bool) -> tuple[str, ...]:
        found: tuple[str, ...] | None = None
        for link in self.links:
            here, there = (link.old, link.new) if forward else (link.new, link.old)
            if address in here:
                if link.aspect == "text":
                    return there
                found = there if found is None else found
        return found or ()
