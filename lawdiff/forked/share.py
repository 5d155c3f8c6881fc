"""A loop whose items are shared between this process and forked ones."""

from __future__ import annotations

import contextlib
import multiprocessing
from collections.abc import Callable, Sequence
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import TypeVar

from lawdiff.errors import LawdiffBug, leave_interrupts_to_parent
from lawdiff.forked.control import can_fork, interrupts_held, shares

T = TypeVar("T")
R = TypeVar("R")


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
