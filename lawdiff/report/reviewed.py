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
import traceback
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import TYPE_CHECKING, Any, TypeAlias

from lawdiff.collector import collector_paused
from lawdiff.errors import InputError, LawdiffBug, LawdiffError, leave_interrupts_to_parent
from lawdiff.forked import interrupts_held
from lawdiff.report.files import jobs
from lawdiff.report.site import Annotation

if TYPE_CHECKING:
    from lawdiff.diff.records import Comparison
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
        self._finish(kill=True)

    def _receive(self) -> ReviewShown:
        assert self._reader is not None
        try:
            # Tens of thousands of notes unpickled, and no cycle among them.
            with collector_paused():
                kind, payload = self._reader.recv()
        except EOFError:
            kind, payload = "died", None
        except BaseException:
            # Interrupted while the process may still be sending: it is stopped, never waited for.
            self._finish(kill=True)
            raise
        code = self._finish(kill=False)
        if kind == "done" and isinstance(payload, ReviewShown):
            return payload
        if kind == "error" and isinstance(payload, tuple) and isinstance(payload[0], BaseException):
            error, where = payload
            if where and not isinstance(error, LawdiffError):
                error.__cause__ = _RemoteTraceback(where)  # shown with LAWDIFF_DEBUG set
            raise error
        raise LawdiffBug(
            f"the process matching the review store ended without its result (exit code {code}); "
            "was it stopped, or out of memory?"
        )

    def _finish(self, kill: bool) -> int | None:
        """Close the pipe and reap the process (stopping it first when ``kill``); its exit code."""
        code = None
        if self._reader is not None:
            self._reader.close()
            self._reader = None
        if self._process is not None:
            if kill:
                self._process.kill()
            self._process.join()
            code = self._process.exitcode
            self._process = None
        return code


class _RemoteTraceback(Exception):
    """The traceback of an error in the forked process, as text (as :mod:`concurrent.futures` shows it)."""

    def __init__(self, text: str) -> None:
        super().__init__(text)

    def __str__(self) -> str:
        return f'\n"""\n{self.args[0]}"""'


# What the forked process works on (inherited, never pickled).
_JOB: tuple[Store, list[Comparison], Mapping[str, Edition]] | None = None


def start(store: Store, comparisons: list[Comparison], editions: Mapping[str, Edition]) -> PendingReview:
    """Match the store to these comparisons and make the rows' review, in a forked process when one can be:
    the caller plans the report meanwhile and takes the :meth:`PendingReview.result` when it needs it.

    The process opens the store again (a SQLite connection is never used across a fork); an in-memory
    store (none on disk), one process (``LAWDIFF_JOBS=1``) or a fork the system refuses: matched here.
    """
    if store.path is None or jobs() <= 1 or "fork" not in multiprocessing.get_all_start_methods():
        return _here(store, comparisons, editions)
    global _JOB
    context = multiprocessing.get_context("fork")
    reader, writer = context.Pipe(duplex=False)
    _JOB = (store, comparisons, editions)
    process = context.Process(target=_make, args=(reader, writer), name="lawdiff-review", daemon=True)
    pending = PendingReview(reader=reader, process=process)
    try:
        with interrupts_held():  # a Ctrl-C lands once the process is started, and stops it (below)
            try:
                process.start()
            finally:
                _JOB = None
                writer.close()
    except OSError:  # no process to be had (too many, no memory): the same work here
        reader.close()
        return _here(store, comparisons, editions)
    except BaseException:
        if process.pid is not None:  # started, then interrupted
            pending.close()
        raise
    return pending


def _here(store: Store, comparisons: list[Comparison], editions: Mapping[str, Edition]) -> PendingReview:
    from lawdiff.review import attach

    return PendingReview(shown(attach(store, comparisons, editions), comparisons))


def _make(reader: Connection, writer: Connection) -> None:
    """In the forked process: the review of the job, or what stopped it, sent to the parent."""
    # The parent's end closed here, so that a send to a parent that is gone fails instead of waiting;
    # Ctrl-C is the parent's to handle (it stops this process).
    reader.close()
    leave_interrupts_to_parent()
    from lawdiff.review import attach, open_for_reading

    try:
        assert _JOB is not None
        store, comparisons, editions = _JOB
        path = store.path
        assert path is not None
        if not path.exists():
            raise InputError(
                "the review store went away while the report was being made", file=str(path), fix="run it again"
            )
        with open_for_reading(path, store.timeout) as own:
            message: tuple[str, object] = ("done", shown(attach(own, comparisons, editions), comparisons))
    except BaseException as error:  # sent on, raised in the parent
        message = ("error", (error, traceback.format_exc()))
    try:
        writer.send(message)
    except Exception as error:  # an error that does not pickle: its words (unless the parent is gone)
        with contextlib.suppress(Exception):
            writer.send(("error", (LawdiffBug(f"matching the review store failed: {error!r}"), "")))
    finally:
        writer.close()
