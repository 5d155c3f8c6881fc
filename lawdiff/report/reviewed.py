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

import contextlib
import dataclasses
import multiprocessing
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import TYPE_CHECKING, Any

from lawdiff.collector import collector_paused
from lawdiff.errors import LawdiffBug
from lawdiff.report.files import jobs
from lawdiff.report.site import Annotation

if TYPE_CHECKING:
    from lawdiff.diff.records import Comparison
    from lawdiff.model import Edition
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


def shown(view: ReviewView, comparisons: Iterable[Comparison]) -> ReviewShown:
    """The review of these comparisons' changes as the report shows it."""
    from lawdiff.report.html.review import annotator
    from lawdiff.review.view import State

    annotate = annotator(view)
    notes: dict[str, Annotation] = {}
    marks: dict[str, tuple[str, bool]] = {}
    decisions = comments = 0
    with collector_paused():
        for comp in comparisons:
            for ch in comp.changes:
                note = annotate(ch, comp.old, comp.new)
                if note is not None:
                    notes[ch.id] = note
                entry = view.entries.get(ch.id)
                if entry is not None and entry.decision is not None:
                    marks[ch.id] = (entry.status.value, entry.state is State.OUTDATED)
                    decisions += 1
                    comments += len(entry.comments)
    # The decisions review.html lists, with their threads; the rest is in the notes and marks.
    listed = {o.decision.id for o in view.outdated} | {d.id for d in (*view.orphaned, *view.not_compared)}
    rest = dataclasses.replace(view, entries={}, comments={k: v for k, v in view.comments.items() if k in listed})
    return ReviewShown(notes, marks, rest, decisions, comments)


class PendingReview:
    """The review of a run being made (see :func:`start`); :meth:`result` waits for it."""

    def __init__(self, done: ReviewShown | None = None, reader: Connection | None = None, process: Any = None) -> None:
        self._done = done
        self._reader = reader
        self._process = process

    def result(self) -> ReviewShown:
        if self._done is None:
            self._done = self._receive()
        return self._done

    def close(self) -> None:
        """Stop the process making it, if it still runs (the report failed before it was needed)."""
        if self._process is not None:
            self._process.kill()
            self._finish()

    def _receive(self) -> ReviewShown:
        assert self._reader is not None
        try:
            # Tens of thousands of notes unpickled, and no cycle among them.
            with collector_paused():
                kind, payload = self._reader.recv()
        except EOFError:
            kind, payload = "died", None
        finally:
            self._finish()
        if kind == "done" and isinstance(payload, ReviewShown):
            return payload
        if kind == "error" and isinstance(payload, BaseException):
            raise payload
        raise LawdiffBug(f"the process matching the review store ended without its result ({payload or kind})")

    def _finish(self) -> None:
        if self._reader is not None:
            self._reader.close()
            self._reader = None
        if self._process is not None:
            self._process.join()
            self._process = None


# What the forked process works on (inherited, never pickled).
_JOB: tuple[Store, list[Comparison], Mapping[str, Edition]] | None = None


def start(store: Store, comparisons: list[Comparison], editions: Mapping[str, Edition]) -> PendingReview:
    """Match the store to these comparisons and make the rows' review, in a forked process when one can be:
    the caller plans the report meanwhile and takes the :meth:`PendingReview.result` when it needs it.

    The process opens the store again (a SQLite connection is never used across a fork); an in-memory
    store (none on disk) is matched here.
    """
    if store.path is None or jobs() <= 1 or "fork" not in multiprocessing.get_all_start_methods():
        from lawdiff.review import attach

        return PendingReview(shown(attach(store, comparisons, editions), comparisons))
    global _JOB
    context = multiprocessing.get_context("fork")
    reader, writer = context.Pipe(duplex=False)
    _JOB = (store, comparisons, editions)
    try:
        process = context.Process(target=_make, args=(writer,), name="lawdiff-review", daemon=True)
        process.start()
    finally:
        _JOB = None
        writer.close()
    return PendingReview(reader=reader, process=process)


def _make(writer: Connection) -> None:
    """In the forked process: the review of the job, or what stopped it, sent to the parent."""
    from lawdiff.review import attach, open_for_reading

    try:
        assert _JOB is not None
        store, comparisons, editions = _JOB
        assert store.path is not None
        with open_for_reading(store.path, store.timeout) as own:
            message: tuple[str, object] = ("done", shown(attach(own, comparisons, editions), comparisons))
    except BaseException as error:  # sent on, raised in the parent
        message = ("error", error)
    try:
        writer.send(message)
    except Exception as error:  # an error that does not pickle: its words (unless the parent is gone)
        with contextlib.suppress(Exception):
            writer.send(("error", LawdiffBug(f"matching the review store failed: {error!r}")))
    finally:
        writer.close()
