"""Decisions matched to the changes of a run: what every renderer shows.

:func:`attach` takes the store and the comparisons of a run and says, per
change id, which decision applies and how:

* **current**: the decision was made on this very change (same id: same
  pair, addresses and texts);
* **outdated**: no decision has this change's id, but one was made on an
  earlier form of it, found by its pair and old addresses (or, failing
  that, its new addresses).  It is shown with the text it was made on beside
  the current one, never applied to the new text as if decided on it;
* no decision: the change is ``open``.

A decision that fits no change of its pair is **orphaned** (its clauses
vanished); one on a pair that the run does not compare is **not compared**.
Neither is ever dropped.  The report, the server and the meeting documents
render from a :class:`ReviewView` and compute nothing.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from lawdiff.forked import collector_paused
from lawdiff.review.store import Store
from lawdiff.review.targets import Target
from lawdiff.review.values import Comment, Correction, Decision, Status

if TYPE_CHECKING:
    from lawdiff.diff.comparison import Comparison
    from lawdiff.diff.vocabulary import Change, Piece
    from lawdiff.model import Edition


class State(enum.Enum):
    NONE = "none"  # no decision: open
    CURRENT = "current"
    OUTDATED = "outdated"


@dataclass(frozen=True, slots=True)
class Entry:
    """The review of one change of the run.

    decision: the decision shown (its own, or an outdated one), or None.
    comments: that decision's thread, oldest first.
    earlier: other decisions made on earlier forms of the change, newest
        first (superseded by ``decision``).
    since: for an outdated decision, the word differences from the old and the new texts it was made on to
        the change's texts now (empty for a side whose text is the same): every output draws these.
    """

    change: str
    pair: tuple[str, str]
    state: State = State.NONE
    decision: Decision | None = None
    comments: tuple[Comment, ...] = ()
    earlier: tuple[Decision, ...] = ()
    since: tuple[tuple[Piece, ...], tuple[Piece, ...]] = ((), ())

    @property
    def status(self) -> Status:
        return self.decision.status if self.decision else Status.OPEN

    @property
    def assignee(self) -> str:
        return self.decision.assignee if self.decision else ""

    @property
    def open_questions(self) -> tuple[Comment, ...]:
        """Questions asked on the decision that no chair has answered yet: the change counts as undecided."""
        return tuple(c for c in self.comments if c.question == "open")


@dataclass(frozen=True, slots=True)
class Outdated:
    """A decision whose change is no longer in the run, and the change it now sits on."""

    decision: Decision
    change: str


@dataclass(frozen=True, slots=True)
class StaleCorrection:
    """A hand correction naming clauses that the corpus no longer holds (``EDITION:ADDRESS``)."""

    correction: Correction
    missing: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class ReviewView:
    """The store's records matched to one run.

    entries: per change id of the run.
    outdated, orphaned, not_compared: decisions that are not current, in
        the order they were made.
    comments: every decision's thread by decision id (orphaned ones too).
    corrections: the hand corrections of the compared pairs.
    stale_corrections: those naming clauses the corpus no longer holds
        (only when :func:`attach` was given the editions).
    pairs: the pairs the run compared.
    elsewhere: when only some pairs were asked for (``review list --pair``),
        the decisions on the other pairs, counted per pair and not read
        (``not_compared`` is then empty).
    """

    entries: Mapping[str, Entry]
    outdated: tuple[Outdated, ...]
    orphaned: tuple[Decision, ...]
    not_compared: tuple[Decision, ...]
    comments: Mapping[str, tuple[Comment, ...]]
    corrections: tuple[Correction, ...]
    stale_corrections: tuple[StaleCorrection, ...]
    pairs: tuple[tuple[str, str], ...] = field(default=())
    elsewhere: tuple[tuple[tuple[str, str], int], ...] = field(default=())

    def entry(self, change_id: str) -> Entry:
        found = self.entries.get(change_id)
        return found if found is not None else Entry(change_id, ("", ""))

    def counts(self) -> tuple[int, int]:
        """The run's changes that have a decision, and the comments on those decisions."""
        decided = comments = 0
        for e in self.entries.values():
            if e.decision is not None:
                decided += 1
                comments += len(e.comments)
        return decided, comments


def target(comparison: Comparison, change: Change) -> Target:
    """What a decision on this change records."""
    return Target(
        id=change.id,
        old_edition=comparison.old,
        new_edition=comparison.new,
        aspect=change.aspect.value,
        kind=change.kind.value,
        article=change.article,
        old=change.old,
        new=change.new,
        old_texts=change.old_texts,
        new_texts=change.new_texts,
        thresholds=tuple(comparison.thresholds.as_dict().items()),
    )


def attach(
    store: Store,
    comparisons: Iterable[Comparison],
    editions: Mapping[str, Edition] | None = None,
    *,
    partial: bool = False,
) -> ReviewView:
    """Match the store's decisions to the changes of a run (loaded in one query per table).

    ``editions``: the editions whose clauses the hand corrections are checked against (those naming a
    clause no longer there are listed as stale).  ``partial``: only the pairs compared were asked for
    (``review list --pair``): only their decisions and comments are read, the other pairs' decisions
    counted (:attr:`ReviewView.elsewhere`), and only their corrections checked, as only their editions
    were read.
    """
    # Tens of thousands of decisions, comments and entries, and no cycle among them.
    with collector_paused():
        return _attach(store, comparisons, editions, partial)


def _attach(
    store: Store, comparisons: Iterable[Comparison], editions: Mapping[str, Edition] | None, partial: bool
) -> ReviewView:
    comps = list(comparisons)
    pairs = tuple(dict.fromkeys((c.old, c.new) for c in comps))
    decisions = store.decisions(pairs if partial else None)
    by_pair: dict[tuple[str, str], list[Decision]] = {}
    for d in decisions:
        by_pair.setdefault(d.pair, []).append(d)
    threads: dict[str, list[Comment]] = {}
    for c in store.comments(pairs=pairs if partial else None):
        threads.setdefault(c.decision, []).append(c)
    comments = {k: tuple(v) for k, v in threads.items()}
    entries: dict[str, Entry] = {}
    outdated: list[Outdated] = []
    orphaned: list[Decision] = []
    for comp in comps:
        found, lost = _match(comp, by_pair.get((comp.old, comp.new), []), comments)
        entries.update(found)
        orphaned.extend(lost)
        outdated.extend(
            Outdated(e.decision, e.change) for e in found.values() if e.state is State.OUTDATED and e.decision
        )
    compared = set(pairs)
    not_compared = [d for d in decisions if d.pair not in compared]
    every = store.corrections()
    corrections = [c for c in every if c.pair in compared]
    checked = corrections if partial else every
    stale = stale_corrections(checked, editions) if editions is not None else []
    order = {d.id: i for i, d in enumerate(decisions)}
    return ReviewView(
        entries=entries,
        outdated=tuple(sorted(outdated, key=lambda o: order[o.decision.id])),
        orphaned=tuple(sorted(orphaned, key=lambda d: order[d.id])),
        not_compared=tuple(not_compared),
        comments=comments,
        corrections=tuple(corrections),
        stale_corrections=tuple(stale),
        pairs=pairs,
        elsewhere=tuple(sorted(_elsewhere(store, pairs).items())) if partial else (),
    )


def _elsewhere(store: Store, compared: Iterable[tuple[str, str]]) -> dict[tuple[str, str], int]:
    """How many decisions each pair that the run does not compare holds."""
    skip = set(compared)
    return {pair: n for pair, n in store.decision_counts().items() if pair not in skip}


def _match(
    comp: Comparison, decisions: list[Decision], comments: Mapping[str, tuple[Comment, ...]]
) -> tuple[dict[str, Entry], list[Decision]]:
    """Entries of one comparison's changes, and the decisions that fit none of them."""
    pair = (comp.old, comp.new)
    ids = {ch.id for ch in comp.changes}
    own = {d.id: d for d in decisions if d.id in ids}
    # The address indexes are made only when some decision is not on a current change: on a run that
    # changed nothing since the decisions were made, every decision is found by its id.
    exact: dict[tuple[str, str, tuple[str, ...]], list[int]] = {}
    single: dict[tuple[str, str, str], list[int]] = {}
    if len(own) < len(decisions):
        for i, ch in enumerate(comp.changes):
            for side, addresses in (("old", ch.old), ("new", ch.new)):
                if addresses:
                    exact.setdefault((side, ch.aspect.value, addresses), []).append(i)
                    for a in addresses:
                        single.setdefault((side, ch.aspect.value, a), []).append(i)
    matched: dict[int, list[Decision]] = {}
    lost: list[Decision] = []
    for d in decisions:
        if d.id in own:
            continue
        at = _find(d, exact, single)
        if at is None:
            lost.append(d)
        else:
            matched.setdefault(at, []).append(d)
    entries: dict[str, Entry] = {}
    for i, ch in enumerate(comp.changes):
        moved = matched.get(i)
        others = sorted(moved, key=lambda d: (d.updated, d.id), reverse=True) if moved else []
        mine = own.get(ch.id)
        if mine is not None:
            entries[ch.id] = Entry(ch.id, pair, State.CURRENT, mine, comments.get(mine.id, ()), tuple(others))
        elif others:
            shown = others[0]
            entries[ch.id] = Entry(
                ch.id, pair, State.OUTDATED, shown, comments.get(shown.id, ()), tuple(others[1:]), _since(shown, ch)
            )
        else:
            entries[ch.id] = Entry(ch.id, pair)
    return entries, lost


def _since(d: Decision, ch: Change) -> tuple[tuple[Piece, ...], tuple[Piece, ...]]:
    """The word differences from the texts an outdated decision was made on to the change's texts now."""
    from lawdiff.diff import word_diff  # (the review's store and commands need no word differences)

    old, new = (
        word_diff("\n".join(made), "\n".join(now)) if made != now else ()
        for made, now in ((d.old_texts, ch.old_texts), (d.new_texts, ch.new_texts))
    )
    return old, new


def _find(
    d: Decision,
    exact: Mapping[tuple[str, str, tuple[str, ...]], list[int]],
    single: Mapping[tuple[str, str, str], list[int]],
) -> int | None:
    """The change an earlier decision now sits on: the same old addresses, else
    the most old addresses in common, else the same way by the new ones."""
    for side, addresses in (("old", d.old), ("new", d.new)):
        if not addresses:
            continue
        hit = exact.get((side, d.aspect, addresses))
        if hit:
            return hit[0]
        shared: dict[int, int] = {}
        for a in addresses:
            for i in single.get((side, d.aspect, a), []):
                shared[i] = shared.get(i, 0) + 1
        if shared:
            # Most in common; among equals the first in document order.
            return min(shared, key=lambda i: (-shared[i], i))
    return None


def stale_corrections(corrections: Iterable[Correction], editions: Mapping[str, Edition]) -> list[StaleCorrection]:
    """Corrections naming a clause (or an edition) that the corpus no longer holds."""
    out: list[StaleCorrection] = []
    for c in corrections:
        if c.removed:
            continue
        missing: list[str] = []
        for name, addresses in ((c.old_edition, c.old), (c.new_edition, c.new)):
            edition = editions.get(name)
            for a in addresses:
                if edition is None or edition.find(a) is None:
                    missing.append(f"{name}:{a}")
        if missing:
            out.append(StaleCorrection(c, tuple(missing)))
    return out
