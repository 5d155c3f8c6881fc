"""Workers forked before the data they work on exists, fed batches in order."""

from __future__ import annotations

import contextlib
import multiprocessing
import pickle
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess
from typing import Any, Generic, TypeVar

from lawdiff.errors import LawdiffBug, leave_interrupts_to_parent
from lawdiff.forked.control import interrupts_held

T = TypeVar("T")
R = TypeVar("R")


class Stream(Generic[T, R]):
    """Forked processes that apply one function to batches of items beside this process, each fed through its
    own pipe, the results coming back in the batches' order.

    The workers are forked when the stream is made, before the data they will work on exists: forked
    after, each would share the parent's copy of it and be counted with it again in its resident memory.
    So the function is sent to them (pickled) when :meth:`map` starts.  The parent keeps a few batches
    queued for each worker and works on a batch itself while they work.  A worker's error is raised in
    the parent in the batches' order; a worker that dies is a bug.
    """

    def __init__(self, n: int, queued: int = 2) -> None:
        context = multiprocessing.get_context("fork")
        self.queued = queued
        self.conns: list[Connection] = []
        self.procs: list[BaseProcess] = []
        try:
            for _ in range(n):
                mine, theirs = context.Pipe()
                proc = context.Process(target=_stream_worker, args=(theirs,), daemon=True)
                with interrupts_held():
                    proc.start()
                    self.conns.append(mine)
                    self.procs.append(proc)
                theirs.close()
        except BaseException as error:  # Ctrl-C, no process to be had: the ones started are stopped
            self.__exit__(type(error))
            raise

    def __enter__(self) -> Stream[T, R]:
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

    def map(self, work: Callable[[T], R], batches: Iterable[list[T]]) -> Iterator[R]:
        """``work(item)`` for every item of every batch, in order; ``work`` must pickle."""
        for conn in self.conns:
            conn.send(("work", work))
        following = iter(batches)
        queued: dict[Connection, deque[int]] = {conn: deque() for conn in self.conns}
        done: dict[int, list[R]] = {}
        sent = given = 0
        more = True
        while more or any(queued.values()):
            for conn, waiting in queued.items():
                while more and len(waiting) < self.queued:
                    batch = next(following, None)
                    if batch is None:
                        more = False
                        break
                    conn.send(("items", batch))
                    waiting.append(sent)
                    sent += 1
            if more and (batch := next(following, None)) is not None:
                done[sent] = [work(item) for item in batch]  # the parent's own share, while the workers work
                sent += 1
            else:
                more = False
            busy = [conn for conn, waiting in queued.items() if waiting]
            # Wait for a worker only when the parent has nothing left to do itself.
            ready = wait(busy, timeout=None if not more else 0) if busy else []
            for conn in [c for c in busy if c in ready]:
                assert isinstance(conn, Connection)
                try:
                    kind, payload = conn.recv()
                except EOFError:
                    raise LawdiffBug("a worker process stopped without a word") from None
                if kind == "error":
                    raise payload
                done[queued[conn].popleft()] = payload
            while given in done:
                yield from done.pop(given)
                given += 1


def _stream_worker(conn: Connection) -> None:
    """A :class:`Stream` worker's loop: the function, then batches of items until told to stop."""
    leave_interrupts_to_parent()
    work: Callable[[Any], Any] | None = None
    try:
        while (message := conn.recv()) is not None:
            kind, payload = message
            if kind == "work":
                work = payload
                continue
            if work is None:
                raise LawdiffBug("a worker was given items before its function")
            try:
                results = [work(item) for item in payload]
            except Exception as exc:  # not caught: raised again in the parent, in order
                conn.send(("error", _sendable(exc)))
            else:
                conn.send(("done", results))
    except (EOFError, OSError, KeyboardInterrupt):
        pass  # the parent is gone or stopped reading, or the user stopped it: the parent says so
    finally:
        conn.close()


def _sendable(exc: Exception) -> Exception:
    """The exception to raise in the parent: itself, or a bug that names it when it cannot be pickled."""
    try:
        pickle.dumps(exc)
    except Exception:  # any failure to pickle: name the exception instead
        return LawdiffBug(f"in a worker process: {type(exc).__name__}: {exc}")
    return exc
