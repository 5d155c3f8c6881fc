"""Hand corrections of the alignment, as data for the aligner.

A committee member who sees that the aligner linked the wrong clauses says
so once, in the review store (``lawdiff review pin`` / ``forbid``); the
aligner receives the corrections of one edition pair as a frozen
:class:`Corrections` value and honours them:

* a :class:`Pin` says that these old clauses became these new ones (one to
  several for a split, several to one for a merge).  It replaces whatever the
  aligner would have linked the named clauses to; the rest is aligned around
  it.
* a :class:`Forbid` says that these two clauses are never one link.

This module imports nothing from the rest of lawdiff, so that
:mod:`lawdiff.align` may import it without importing the later stages.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Pin:
    """These old clauses became these new ones.

    old, new: addresses on each side, in the order given (at least one each).
    author: who set it; id: the correction's record id in the store.
    """

    old: tuple[str, ...]
    new: tuple[str, ...]
    author: str = ""
    id: str = ""


@dataclass(frozen=True, slots=True)
class Forbid:
    """These two clauses are never linked to each other."""

    old: str
    new: str
    author: str = ""
    id: str = ""


@dataclass(frozen=True, slots=True)
class Corrections:
    """The hand corrections of one edition pair, as the comparison names it.

    old, new: the editions (``2007``, ``2017@wiki``).
    pins, forbids: in the order they were set.
    """

    old: str
    new: str
    pins: tuple[Pin, ...] = ()
    forbids: tuple[Forbid, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.pins or self.forbids)

    def pinned_old(self) -> frozenset[str]:
        """Old addresses that a pin names: the aligner links them only as pinned."""
        return frozenset(a for p in self.pins for a in p.old)

    def pinned_new(self) -> frozenset[str]:
        return frozenset(a for p in self.pins for a in p.new)

    def forbidden(self, old: str, new: str) -> bool:
        """Whether a link of these two clauses is forbidden."""
        return any(f.old == old and f.new == new for f in self.forbids)


NO_CORRECTIONS = Corrections("", "")
