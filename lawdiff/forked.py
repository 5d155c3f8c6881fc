"""Work shared with forked processes that ignore Ctrl-C and are never left hanging.

:func:`forked_pool`: a pool of workers.  ``Pool.terminate()`` can wait
forever on the task queue's lock while a worker waits for a task (a report
whose first page failed hung so, one full test run in a few): a pool whose
work failed is closed and joined instead, after ``on_failure`` has told the
workers to stop; only Ctrl-C terminates it, so that the pages or comparisons
being made are not waited for.

:func:`map_beside`: a loop whose items are shared between this process and
forked ones, each with a pipe of its own (no shared queue, no lock), for work
too short to pay for a pool (reading a corpus's files).

:func:`jobs`: how many processes, as ``LAWDIFF_JOBS`` or the processors say.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import multiprocessing.pool
import os
import threading
from collections.abc import Callable, Iterator, Sequence
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import TypeVar

from lawdiff.errors import LawdiffBug, leave_interrupts_to_parent

T = TypeVar("T")
R = TypeVar("R")


@contextlib.contextmanager
def forked_pool(processes: int, on_failure: Callable[[], None] | None = None) -> Iterator[multiprocessing.pool.Pool]:
    """``processes`` forked workers (Ctrl-C is the parent's); closed and joined when the block ends or fails,
    terminated when it is interrupted."""
    pool = multiprocessing.get_context("fork").Pool(processes, leave_interrupts_to_parent)
    try:
        yield pool
    except Exception:
        if on_failure is not None:
            on_failure()
        pool.close()
        pool.join()
        raise
    except BaseException:
        pool.terminate()
        raise
    pool.close()
    pool.join()


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
                process.start()
            except OSError:  # no process to be had: its share is done here
                reader.close()
                dealt[0] += share
                continue
            finally:
                writer.close()
            children.append((share, reader, process))
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
