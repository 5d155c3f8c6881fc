"""Work shared with forked processes that ignore Ctrl-C and are never left hanging.

Every worker has a pipe of its own: no queue, lock or thread is shared with
it.  ``multiprocessing.Pool`` shares all three, and its ``terminate()`` could
wait forever on the task queue's lock (a report whose first page failed hung
so), or on its task handler while its worker handler forked new workers in
place of the stopped ones (Ctrl-C in a report, about one time in thirty).

:func:`forked_map`: jobs handed to a few workers one at a time, each result
yielded as it comes (the report's pages, its comparisons); a job that fails
stops the others, Ctrl-C kills them.

:func:`map_beside`: a loop whose items are shared between this process and
forked ones, each sending its results at the end, for work too short to pay
for more (reading a corpus's files, describing a comparison's changes).

:func:`jobs`: how many processes, as ``LAWDIFF_JOBS`` or the processors say.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import threading
from collections.abc import Callable, Iterator, Sequence
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess
from typing import Any, TypeVar

from lawdiff.errors import LawdiffBug, leave_interrupts_to_parent

T = TypeVar("T")
R = TypeVar("R")


def forked_map(
    work: Callable[[int], R], count: int, processes: int, on_failure: Callable[[], None] | None = None
) -> Iterator[tuple[int, R]]:
    """``(i, work(i))`` for each ``i`` in ``range(count)``, made by ``processes`` forked workers and yielded
    as each is done (in no fixed order).

    Each worker has a pipe of its own: the parent hands it the next job when it sends a result, so that
    no queue, lock or thread is shared (``Pool.terminate()`` waited forever on its task queue's lock,
    and its worker handler forked new workers while it stopped the old).  A job that raises stops the
    run: ``on_failure()`` is called (to tell the workers' jobs to stop early), no job is handed out, the
    workers finish what they hold and are waited for, and the error is raised here.  Anything else that
    ends the iteration (Ctrl-C, a consumer that stops, an error of the consumer's) kills the workers.
    """
    context = multiprocessing.get_context("fork")
    workers: dict[Connection, BaseProcess] = {}
    following = iter(range(count))
    failed: BaseException | None = None
    try:
        for _ in range(min(processes, count)):
            mine, theirs = context.Pipe()
            process = context.Process(target=_serve_jobs, args=(work, theirs, mine), daemon=True)
            with interrupts_held():
                process.start()
                workers[mine] = process
            theirs.close()
            mine.send(next(following))
        busy = set(workers)
        while busy:
            for conn in wait(list(busy)):
                assert isinstance(conn, Connection)
                i, ok, value = _result(conn, workers[conn])
                if not ok:
                    failed = failed or value
                    if on_failure is not None:
                        on_failure()
                    busy.discard(conn)
                    _stop(busy)
                    busy.clear()
                    break
                job = next(following, None) if failed is None else None
                conn.send(job)
                if job is None:
                    busy.discard(conn)
                yield i, value
    except BaseException:
        for child in workers.values():
            if child.is_alive():
                child.kill()
        raise
    finally:
        for conn, child in workers.items():
            conn.close()
            child.join()
    if failed is not None:
        raise failed


def _result(conn: Connection, process: BaseProcess) -> tuple[int, bool, Any]:
    """A worker's next message ``(job, ok, result or error)``; one that ended without it is a bug."""
    try:
        message: tuple[int, bool, Any] = conn.recv()
    except EOFError:
        process.join(5)  # its pipe closed as it ended: reaped, so that its exit code is known
        return -1, False, LawdiffBug(f"a worker process ended without its result (exit code {process.exitcode})")
    return message


def _stop(busy: set[Connection]) -> None:
    """After a failed job: each other worker finishes the job it holds and is told to stop."""
    for conn in busy:
        with contextlib.suppress(EOFError, OSError):
            conn.recv()  # its result, of no use now
        with contextlib.suppress(OSError):
            conn.send(None)


def _serve_jobs(work: Callable[[int], R], conn: Connection, parents: Connection) -> None:
    """In a forked worker: the jobs the parent hands over, one at a time, until it sends None or goes."""
    parents.close()  # the parent's end: a parent that is gone makes recv fail instead of waiting
    leave_interrupts_to_parent()
    while True:
        try:
            i = conn.recv()
        except (EOFError, OSError):
            return
        if i is None:
            return
        try:
            message: tuple[int, bool, object] = (i, True, work(i))
        except Exception as error:
            message = (i, False, error)
        try:
            conn.send(message)
        except Exception as error:  # a result or an error that does not pickle: its words
            with contextlib.suppress(Exception):
                conn.send((i, False, LawdiffBug(f"work in a forked process failed: {message[2]!r} ({error!r})")))
        if not message[1]:
            return


@contextlib.contextmanager
def interrupts_held() -> Iterator[None]:
    """Ctrl-C held back while a process is forked and recorded, and delivered once it is.

    A terminal's Ctrl-C reaches every process of the command at once.  Landing between a fork and the
    parent's record of the child, it lost the child (nothing stopped it, and it outlived the command);
    landing in the child before the child ignores Ctrl-C, it printed the child's traceback beside the
    parent's ``Aborted!``.  Held, it reaches the parent after the record, and the child, which inherits the
    held mask, discards it as it ignores Ctrl-C (:func:`lawdiff.errors.leave_interrupts_to_parent`).
    """
    if not hasattr(signal, "pthread_sigmask"):  # no such mask on Windows, where nothing is forked
        yield
        return
    # The mask is read first and changed inside the try: pthread_sigmask runs the Python handlers of
    # signals already received, so a Ctrl-C that came just before would be raised from the call that
    # blocks it, and the mask left blocked.
    before = signal.pthread_sigmask(signal.SIG_BLOCK, ())
    try:
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


def jobs(most: int) -> int:
    """How many processes a stage works in: ``LAWDIFF_JOBS`` when set, else one per CPU, at most ``most``."""
    env = os.environ.get("LAWDIFF_JOBS", "").strip()
    if env.isdigit() and int(env) > 0:
        return int(env)
    return max(1, min(most, os.cpu_count() or 1))


def shares(weights: Sequence[int], processes: int) -> list[list[int]]:
    """The positions of ``weights`` dealt into ``processes`` shares of about equal weight (the heaviest
    first, each to the lightest share so far), each share in ascending order."""
    dealt: list[list[int]] = [[] for _ in range(processes)]
    loads = [0] * processes
    for i in sorted(range(len(weights)), key=lambda i: (-weights[i], i)):
        least = min(range(processes), key=loads.__getitem__)
        dealt[least].append(i)
        loads[least] += weights[i]
    return [sorted(share) for share in dealt]


def can_fork() -> bool:
    """Whether this process may fork a worker: the system forks, no other thread runs here (a child forked
    beside a running thread can inherit a lock that thread holds, such as the import lock, and wait on it
    forever: ``lawdiff serve`` reads the corpus again while it serves), and this is not itself a pool's
    worker (the report's comparisons are made in one each)."""
    return (
        "fork" in multiprocessing.get_all_start_methods()
        and threading.active_count() == 1
        and not multiprocessing.current_process().daemon  # a pool's worker (it may have no children)
    )


def map_beside(work: Callable[[T], R], items: Sequence[T], weights: Sequence[int], processes: int) -> list[R]:
    """``[work(item) for item in items]``, this process doing one share of the items and ``processes - 1``
    forked ones the others (see :func:`shares`); the same results, in the same order.

    An item whose work raises stops its share: the error of the first such item in the items' order is
    raised here, as the loop would raise it (every item before it was done by one process or another).
    Each forked process sends its results when its share is done; one that ends without sending (killed,
    out of memory) has its share done here.  Where processes cannot be forked (:func:`can_fork`), or with one
    process, the loop runs here.
    """
    if processes < 2 or len(items) < 2 or not can_fork():
        return [work(item) for item in items]
    dealt = shares(weights, processes)
    context = multiprocessing.get_context("fork")
    done: dict[int, R] = {}
    failed: dict[int, BaseException] = {}
    children: list[tuple[list[int], Connection, BaseProcess]] = []
    try:
        for share in dealt[1:]:
            if not share:
                continue
            reader, writer = context.Pipe(duplex=False)
            process = context.Process(target=_share, args=(work, items, share, reader, writer), daemon=True)
            try:
                with interrupts_held():
                    process.start()
                    children.append((share, reader, process))
            except OSError:  # no process to be had: its share is done here
                reader.close()
                dealt[0] += share
            finally:
                writer.close()
        _run_share(work, items, sorted(dealt[0]), done, failed)
        for share, reader, _ in children:
            try:
                sent: tuple[dict[int, R], dict[int, BaseException]] = reader.recv()
            except EOFError:  # ended without its results: its share done here
                _run_share(work, items, share, done, failed)
            else:
                done.update(sent[0])
                failed.update(sent[1])
    finally:
        for _, pipe, child in children:
            pipe.close()
            if child.is_alive():
                child.kill()  # interrupted, or a failure here: not waited for
            child.join()
    if failed:
        # Each share stops at its first error and runs in order: every item before this one was done.
        raise failed[min(failed)]
    return [done[i] for i in range(len(items))]


def _run_share(
    work: Callable[[T], R], items: Sequence[T], share: list[int], done: dict[int, R], failed: dict[int, BaseException]
) -> None:
    for i in share:
        try:
            done[i] = work(items[i])
        except Exception as error:
            failed[i] = error
            return


def _share(
    work: Callable[[T], R], items: Sequence[T], share: list[int], reader: Connection, writer: Connection
) -> None:
    """In a forked process: one share of :func:`map_beside`'s items, its results sent to the parent."""
    reader.close()  # the parent's end: a send to a parent that is gone fails instead of waiting
    leave_interrupts_to_parent()
    done: dict[int, R] = {}
    failed: dict[int, BaseException] = {}
    _run_share(work, items, share, done, failed)
    try:
        writer.send((done, failed))
    except Exception as error:  # an error or a result that does not pickle: its words, raised in the parent
        with contextlib.suppress(Exception):
            first = min(failed, default=share[0])
            what = repr(failed[first]) if failed else f"its results could not be sent ({error!r})"
            writer.send(({}, {first: LawdiffBug(f"work in a forked process failed: {what}")}))
    finally:
        writer.close()
