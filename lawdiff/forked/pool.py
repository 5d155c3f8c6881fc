"""Jobs handed to a few forked workers one at a time, each result yielded as it comes."""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import pickle
from collections.abc import Callable, Iterator, Mapping, Sequence
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess
from typing import IO, Any, TypeVar

from lawdiff.errors import LawdiffBug, leave_interrupts_to_parent
from lawdiff.forked.control import collector_paused, frozen, interrupts_held
from lawdiff.forked.wire import Wire

R = TypeVar("R")


class StopSignal:
    """A flag the parent sets and its forked workers read: set when a job failed or the run was stopped, so
    that a worker makes nothing more of a job made of many items (pass :meth:`set` as ``on_failure``)."""

    def __init__(self) -> None:
        self._event = multiprocessing.get_context("fork").Event()

    def set(self) -> None:
        self._event.set()

    def is_set(self) -> bool:
        return self._event.is_set()


def forked_map(
    work: Callable[[int], R],
    count: int,
    processes: int,
    on_failure: Callable[[], None] | None = None,
    freeze: bool = False,
    shared: Sequence[object] = (),
    makers: Mapping[Callable[..., Any], Callable[..., Any]] | None = None,
) -> Iterator[tuple[int, R]]:
    """``(i, work(i))`` for each ``i`` in ``range(count)``, made by ``processes`` forked workers and yielded
    as each is done (in no fixed order).  ``work`` may be a closure over what the workers need: they
    inherit it.  ``freeze``: the parent's objects frozen out of the collector's passes while they run.
    ``shared``: objects this process holds that the results quote (an edition's texts): the workers
    inherit them, and a result refers to them instead of carrying a copy (:mod:`lawdiff.forked.wire`).
    ``makers``: what this process makes the results' objects with, by the class a pickle names (a maker
    that makes each value once).

    Each worker has a pipe of its own: the parent hands it the next job when it sends a result, so that
    no queue, lock or thread is shared (``Pool.terminate()`` waited forever on its task queue's lock,
    and its worker handler forked new workers while it stopped the old).  A job that raises stops the
    run: ``on_failure()`` is called (to tell the workers' jobs to stop early), no job is handed out, the
    workers finish what they hold and are waited for, and the error is raised here.  Anything else that
    ends the iteration (Ctrl-C, a consumer that stops, an error of the consumer's) kills the workers.
    """
    with frozen(freeze), collector_paused():
        yield from _forked_map(work, count, processes, on_failure, Wire(shared, makers))


def _forked_map(
    work: Callable[[int], R], count: int, processes: int, on_failure: Callable[[], None] | None, wire: Wire
) -> Iterator[tuple[int, R]]:
    context = multiprocessing.get_context("fork")
    workers: dict[Connection, BaseProcess] = {}
    # Each worker's results, read from its end of the pipe as they come (jobs go the other way as messages).
    results: dict[Connection, IO[bytes]] = {}
    following = iter(range(count))
    failed: BaseException | None = None
    try:
        for _ in range(min(processes, count)):
            mine, theirs = context.Pipe()
            process = context.Process(target=_serve_jobs, args=(work, theirs, mine, wire), daemon=True)
            with interrupts_held():
                process.start()
                workers[mine] = process
            results[mine] = open(os.dup(mine.fileno()), "rb")  # noqa: SIM115 (closed below)
            theirs.close()
            mine.send(next(following))
        busy = set(workers)
        while busy:
            for conn in wait(list(busy)):
                assert isinstance(conn, Connection)
                i, ok, value = _result(wire, results[conn], workers[conn])
                if not ok:
                    failed = failed or value
                    if on_failure is not None:
                        on_failure()
                    busy.discard(conn)
                    _stop(busy, wire, results)
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
            if conn in results:
                results[conn].close()
            child.join()
    if failed is not None:
        raise failed


def _result(wire: Wire, file: IO[bytes], process: BaseProcess) -> tuple[int, bool, Any]:
    """A worker's next message ``(job, ok, result or error)``; one that ended without it is a bug."""
    try:
        message: tuple[int, bool, Any] = wire.load(file)
    except (EOFError, pickle.UnpicklingError):
        process.join(5)  # its pipe closed as it ended: reaped, so that its exit code is known
        return -1, False, LawdiffBug(f"a worker process ended without its result (exit code {process.exitcode})")
    return message


def _stop(busy: set[Connection], wire: Wire, results: dict[Connection, IO[bytes]]) -> None:
    """After a failed job: each other worker finishes the job it holds and is told to stop."""
    for conn in busy:
        with contextlib.suppress(EOFError, OSError, pickle.UnpicklingError):
            wire.load(results[conn])  # its result, of no use now
        with contextlib.suppress(OSError):
            conn.send(None)


def _serve_jobs(work: Callable[[int], R], conn: Connection, parents: Connection, wire: Wire) -> None:
    """In a forked worker: the jobs the parent hands over, one at a time, until it sends None or goes."""
    parents.close()  # the parent's end: a parent that is gone makes recv fail instead of waiting
    leave_interrupts_to_parent()
    with open(os.dup(conn.fileno()), "wb") as out:
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
                data = wire.dumps(message)
            except Exception as error:  # a result or an error that does not pickle: its words
                message = (i, False, LawdiffBug(f"work in a forked process failed: {message[2]!r} ({error!r})"))
                data = wire.dumps(message)
            try:
                out.write(data)
                out.flush()
            except OSError:
                return  # the parent is gone
            if not message[1]:
                return
