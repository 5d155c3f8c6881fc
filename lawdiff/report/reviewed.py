"""The committee's review as the report shows it, made beside the report's plan.

A report with a review store shows each change's status, assignee and thread
in its row, the open, queried and decided changes of each article, and
``review.html`` (the decisions that sit on no change).  Matching the store to
the run (:func:`lawdiff.review.attach`) and making the rows' review markup
take about a second of one processor at 744 articles with a decision on every
change, while planning the report leaves the other processor idle.
:func:`start` does both in a forked process during the plan and hands back
only what the pages need (:class:`ReviewShown`): each row's annotation (its
markup, a string), each decided change's status, and the decisions that sit on
no change.  Where processes cannot be forked, or ``LAWDIFF_JOBS=1``, it is the
same work in this process, and the same bytes.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, TypeAlias

from lawdiff.errors import InputError
from lawdiff.forked import Pending, beside, collector_paused
from lawdiff.i18n import gettext as _
from lawdiff.report.files import jobs
from lawdiff.report.site import Annotation

if TYPE_CHECKING:
    from lawdiff.diff.comparison import Comparison
    from lawdiff.model import Edition
    from lawdiff.report.html.markup import Markup
    from lawdiff.review import ReviewView, Store


@dataclass(frozen=True, slots=True)
class ReviewShown:
    """What the report's pages show of the review.

    notes: per change id, what its row adds (status, assignee, thread); a
        change with no decision that the committee reviews shows "open".
    marks: per change id that has a decision, its status and whether the
        decision was made on an earlier text (outdated).
    view: the store matched to the run, without its per-change entries (the
        notes and marks hold them): the outdated, orphaned and not-compared
        decisions and their threads, the stale corrections.
    decisions, comments: the run's changes that have a decision, and the
        comments on them (the line ``report`` says on stderr).
    """

    notes: Mapping[str, Annotation]
    marks: Mapping[str, tuple[str, bool]]
    view: ReviewView
    decisions: int
    comments: int


# A note as it crosses the pipe: the row's classes, and its markup as a plain string with the markup's own
# class (a block element's markup is followed by a line break where it is placed).
_Plain: TypeAlias = "tuple[tuple[str, ...], str, type[Markup]] | tuple[tuple[str, ...], None, None]"


def _plain(a: Annotation) -> _Plain:
    return (a.classes, None, None) if a.markup is None else (a.classes, str(a.markup), type(a.markup))


class Notes(Mapping[str, Annotation]):
    """Each change's annotation by its id, kept as plain strings and made an :class:`Annotation` when asked.

    Sent from the forked process: tens of thousands of frozen dataclasses holding ``Markup`` (a ``str``
    subclass) pickle through their reduce methods, four to eight times the cost of the tuples of plain
    strings that this holds (a tenth of a second each way at 744 articles, the parent's share on the
    report's path).
    """

    __slots__ = ("_plain",)

    def __init__(self, plain: dict[str, _Plain]) -> None:
        self._plain = plain

    @classmethod
    def of(cls, notes: Mapping[str, Annotation]) -> Notes:
        return cls({k: _plain(a) for k, a in notes.items()})

    def __getitem__(self, cid: str) -> Annotation:
        classes, markup, kind = self._plain[cid]
        return Annotation(classes, None if markup is None or kind is None else kind(markup))

    def __iter__(self) -> Iterator[str]:
        return iter(self._plain)

    def __len__(self) -> int:
        return len(self._plain)

    def __reduce__(self) -> tuple[type[Notes], tuple[dict[str, _Plain]]]:
        return (Notes, (self._plain,))


def shown(view: ReviewView, comparisons: Iterable[Comparison]) -> ReviewShown:
    """The review of these comparisons' changes as the report shows it."""
    from lawdiff.report.html.review import annotator
    from lawdiff.review.view import State

    annotate = annotator(view)
    notes: dict[str, Annotation] = {}
    # Tens of thousands of notes and marks made, and no cycle among them: with the collector on, making them
    # set off passes over the whole inherited heap (0.4 s at 744 articles).
    with collector_paused():
        for comp in comparisons:
            for ch in comp.changes:
                note = annotate(ch, comp.old, comp.new)
                if note is not None:
                    notes[ch.id] = note
        marks = {
            cid: (e.status.value, e.state is State.OUTDATED)
            for cid, e in view.entries.items()
            if e.decision is not None
        }
        # The decisions review.html lists, with their threads; the rest is in the notes and marks.
        listed = {o.decision.id for o in view.outdated} | {d.id for d in (*view.orphaned, *view.not_compared)}
        rest = dataclasses.replace(view, entries={}, comments={k: v for k, v in view.comments.items() if k in listed})
        return ReviewShown(Notes.of(notes), marks, rest, *view.counts())


# The review of a run being made beside the plan (:func:`start`); ``result()`` waits for it.
PendingReview: TypeAlias = Pending[ReviewShown]


def start(store: Store, comparisons: list[Comparison], editions: Mapping[str, Edition]) -> PendingReview:
    """Match the store to these comparisons and make the rows' review, in a forked process when one can be:
    the caller plans the report meanwhile and takes the ``result()`` when it needs it.

    The process opens the store again (a SQLite connection is never used across a fork); an in-memory
    store (none on disk), one process (``LAWDIFF_JOBS=1``) or a fork the system refuses: matched here.
    """
    if store.path is None or jobs("review") <= 1:
        from lawdiff.review import attach

        return Pending.made(shown(attach(store, comparisons, editions), comparisons))
    path, timeout = store.path, store.timeout
    return beside(lambda: _matched(path, timeout, comparisons, editions), name="the process matching the review store")


def _matched(path: Path, timeout: float, comparisons: list[Comparison], editions: Mapping[str, Edition]) -> ReviewShown:
    """In the forked process: the store opened again and matched to the run."""
    from lawdiff.review import attach, open_for_reading

    if not path.exists():
        raise InputError(
            _("the review store went away while the report was being made"), file=str(path), fix=_("run it again")
        )
    with open_for_reading(path, timeout) as own:
        return shown(attach(own, comparisons, editions), comparisons)
