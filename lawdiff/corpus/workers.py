"""A large MediaWiki export read in several processes, for ``lawdiff check``.

The parent reads the export and expands each page (what needs the whole
dump's text); the workers make each expanded page lines, a tree, its
accounting and its outline (nine tenths of the time), knowing only the
dump's titles.  The workers are forked before the export is read: forked
after, each would share the parent's copy of the dump and be counted with
it again in its resident memory; started afresh ("spawn"), each would run
the caller's main script again.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import pickle
from collections import deque
from collections.abc import Callable, Iterator
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess
from pathlib import Path
from typing import TYPE_CHECKING

from lawdiff.corpus.outline import Record, record
from lawdiff.errors import LawdiffBug, leave_interrupts_to_parent
from lawdiff.forked import interrupts_held
from lawdiff.forked import jobs as forked_jobs
from lawdiff.sources import READERS, SNIFF_BYTES, mediawiki
from lawdiff.sources.base import Page

if TYPE_CHECKING:
    from lawdiff.sources.mediawiki.transclusion import Expanded

__all__ = ["MAX_JOBS", "PARALLEL_MIN_BYTES", "Workers", "jobs", "large_export", "workers_for"]

# An export smaller than this is read in the one process (the workers cost
# a few tenths of a second).
PARALLEL_MIN_BYTES = 4_000_000
# How much expanded text makes a batch of pages, and how many batches are
# queued for each worker (one being read, one waiting in its pipe).
_BATCH_CHARS = 100_000
_QUEUED_PER_WORKER = 2


# The most processes check reads an export in unless LAWDIFF_JOBS says
# otherwise: each worker holds 40-50 MB (the interpreter, the titles, a batch
# of pages), and with the parent three stay well within 300 MB on the
# largest exports the wiki has.
MAX_JOBS = 3


def jobs() -> int:
    """How many processes read a large export: ``LAWDIFF_JOBS`` (as the report reads it), else one per CPU,
    at most :data:`MAX_JOBS`."""
    return forked_jobs(MAX_JOBS)


def workers_for(path: Path) -> int:
    """How many workers read ``path`` beside this process: none for a file that is not a large MediaWiki
    export, or where processes cannot be forked."""
    n = jobs() - 1
    if n < 1 or "fork" not in multiprocessing.get_all_start_methods() or not large_export(path):
        return 0
    return n


def large_export(path: Path) -> bool:
    """Whether iter_file would read the file as a MediaWiki export (the first streaming reader that claims it),
    and it is large enough to be worth the workers."""
    try:
        if path.stat().st_size < PARALLEL_MIN_BYTES:
            return False
        with path.open("rb") as stream:
            head = stream.read(SNIFF_BYTES).decode("utf-8", "replace")
    except OSError:
        return False  # iter_file says what is wrong
    reader = next((r for r in READERS if r.read_path is not None and r.looks_like(head)), None)
    return reader is not None and reader.name == mediawiki.FORMAT


class Workers:
    """Forked processes that make records of expanded pages beside the parent, each fed through its own pipe.

    The parent sends each worker the export's titles once, then keeps two
    batches of pages queued for each, and reads a batch itself while they
    work; the records come back in the pages' order.  A worker's error is
    raised in the parent; a worker that dies is a bug.
    """

    def __init__(self, n: int) -> None:
        context = multiprocessing.get_context("fork")
        self.conns: list[Connection] = []
        self.procs: list[BaseProcess] = []
        try:
            for _ in range(n):
                mine, theirs = context.Pipe()
                proc = context.Process(target=_worker, args=(theirs,), daemon=True)
                with interrupts_held():
                    proc.start()
                    self.conns.append(mine)
                    self.procs.append(proc)
                theirs.close()
        except BaseException as error:  # Ctrl-C, no process to be had: the ones started are stopped
            self.__exit__(type(error))
            raise

    def __enter__(self) -> Workers:
        return self

    def __exit__(self, kind: type[BaseException] | None, *rest: object) -> None:
        for conn in self.conns:
            with contextlib.suppress(OSError):
                conn.send(None)
            conn.close()
        for proc in self.procs:
            # After an error, what the workers still hold is not wanted.
            proc.join(timeout=5 if kind is None else 0)
            if proc.is_alive():
                proc.terminate()
                proc.join()

    def records(self, render: Callable[[Expanded], Page], expanded: Iterator[Expanded]) -> Iterator[Record]:
        for conn in self.conns:
            conn.send(("titles", render))
        batches = _batches(expanded)
        queued: dict[Connection, deque[int]] = {conn: deque() for conn in self.conns}
        done: dict[int, list[Record]] = {}
        sent = given = 0
        more = True
        while more or any(queued.values()):
            for conn, waiting in queued.items():
                while more and len(waiting) < _QUEUED_PER_WORKER:
                    batch = next(batches, None)
                    if batch is None:
                        more = False
                        break
                    conn.send(("pages", batch))
                    waiting.append(sent)
                    sent += 1
            if more and (batch := next(batches, None)) is not None:
                # The parent's own share, while the workers are busy.
                done[sent] = [record(render(job)) for job in batch]
                sent += 1
            else:
                more = False
            busy = [conn for conn, waiting in queued.items() if waiting]
            # Wait for a worker only when the parent has nothing left to read itself.
            ready = wait(busy, timeout=None if not more else 0) if busy else []
            for conn in [c for c in busy if c in ready]:
                try:
                    kind, payload = conn.recv()
                except EOFError:
                    raise LawdiffBug("a process reading the export stopped without a word") from None
                if kind == "error":
                    raise payload
                done[queued[conn].popleft()] = payload
            while given in done:
                yield from done.pop(given)
                given += 1


def _batches(expanded: Iterator[Expanded]) -> Iterator[list[Expanded]]:
    batch: list[Expanded] = []
    size = 0
    for job in expanded:
        batch.append(job)
        size += sum(len(f.text) for f in job.frags)
        if size >= _BATCH_CHARS:
            yield batch
            batch, size = [], 0
    if batch:
        yield batch


def _worker(conn: Connection) -> None:
    """A worker's loop: the titles, then batches of pages until told to stop."""
    leave_interrupts_to_parent()
    render: Callable[[Expanded], Page] | None = None
    try:
        while (message := conn.recv()) is not None:
            kind, payload = message
            if kind == "titles":
                render = payload
                continue
            if render is None:
                raise LawdiffBug("a check worker was given pages before the export's titles")
            try:
                records = [record(render(job)) for job in payload]
            except Exception as exc:  # not caught: raised again in the parent, in order
                conn.send(("error", _sendable(exc)))
            else:
                conn.send(("records", records))
    except (EOFError, OSError, KeyboardInterrupt):
        pass  # the parent is gone or stopped reading, or the user stopped it: the parent says so
    finally:
        conn.close()


def _sendable(exc: Exception) -> Exception:
    """The exception to raise in the parent: itself, or a bug that names it when it cannot be pickled."""
    try:
        pickle.dumps(exc)
    except Exception:  # any failure to pickle: name the exception instead
        return LawdiffBug(f"in a process reading the export: {type(exc).__name__}: {exc}")
    return exc
