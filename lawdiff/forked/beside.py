"""One function run in a forked process while this one goes on."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from lawdiff.errors import LawdiffBug, LawdiffError, leave_interrupts_to_parent
from lawdiff.forked.control import can_fork, collector_paused, interrupts_held

if TYPE_CHECKING:
    from multiprocessing.connection import Connection

R = TypeVar("R")


class RemoteTraceback(Exception):
    """The traceback of an error in a forked process, as text (as :mod:`concurrent.futures` shows it)."""

    def __init__(self, text: str) -> None:
        super().__init__(text)

    def __str__(self) -> str:
        return f'\n"""\n{self.args[0]}"""'


class Pending(Generic[R]):
    """A result being made by :func:`beside`; :meth:`result` waits for it, :meth:`close` stops its process."""

    def __init__(self, done: R | None = None, reader: Connection | None = None, process: Any = None) -> None:
        self._done = done
        self._reader = reader
        self._process = process

    @classmethod
    def made(cls, value: R) -> Pending[R]:
        """A result made here, already done."""
        return cls(done=value)

    def result(self) -> R:
        if self._done is None:
            self._done = self._receive()
        return self._done

    def close(self) -> None:
        """Stop the process making it, if it still runs (the caller failed before it was needed)."""
        self._finish(kill=True)

    def _receive(self) -> R:
        assert self._reader is not None
        try:
            # What comes back may be tens of thousands of objects, and no cycle among them.
            with collector_paused():
                kind, payload = self._reader.recv()
        except EOFError:
            kind, payload = "died", None
        except BaseException:
            # Interrupted while the process may still be sending: it is stopped, never waited for.
            self._finish(kill=True)
            raise
        code = self._finish(kill=False)
        if kind == "done":
            return payload  # type: ignore[no-any-return]
        if kind == "error" and isinstance(payload, tuple) and isinstance(payload[0], BaseException):
            error, where = payload
            if where and not isinstance(error, LawdiffError):
                error.__cause__ = RemoteTraceback(where)  # shown with LAWDIFF_DEBUG set
            raise error
        name = getattr(self._process, "name", "a worker process")
        raise LawdiffBug(f"{name} ended without its result (exit code {code}); was it stopped, or out of memory?")

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


def beside(work: Callable[[], R], name: str) -> Pending[R]:
    """``work()`` in one forked process while this one goes on; its :meth:`Pending.result` when asked for.

    An error in it is raised by :meth:`Pending.result`, with its traceback as the cause.  Where no process
    can be forked (:func:`can_fork`), or the system refuses one, ``work()`` runs here, now.
    """
    if not can_fork():
        return Pending.made(work())
    import multiprocessing  # here: the package is loaded by commands that never fork (see lawdiff.forked)

    context = multiprocessing.get_context("fork")
    reader, writer = context.Pipe(duplex=False)
    process = context.Process(target=_make, args=(work, reader, writer), name=name, daemon=True)
    pending: Pending[R] = Pending(reader=reader, process=process)
    try:
        with interrupts_held():  # a Ctrl-C lands once the process is started, and stops it (below)
            try:
                process.start()
            finally:
                writer.close()
    except OSError:  # no process to be had (too many, no memory): the same work here
        reader.close()
        return Pending.made(work())
    except BaseException:
        if process.pid is not None:  # started, then interrupted
            pending.close()
        raise
    return pending


def _make(work: Callable[[], R], reader: Connection, writer: Connection) -> None:
    """In the forked process: the result of ``work()``, or what stopped it, sent to the parent."""
    # The parent's end closed here, so that a send to a parent that is gone fails instead of waiting;
    # Ctrl-C is the parent's to handle (it stops this process).
    reader.close()
    leave_interrupts_to_parent()
    try:
        message: tuple[str, object] = ("done", work())
    except BaseException as error:  # sent on, raised in the parent
        import traceback  # here, in the child that failed: the package is loaded by commands that never fork

        message = ("error", (error, traceback.format_exc()))
    try:
        writer.send(message)
    except Exception as error:  # an error that does not pickle: its words (unless the parent is gone)
        with contextlib.suppress(Exception):
            writer.send(("error", (LawdiffBug(f"work in a forked process failed: {error!r}"), "")))
    finally:
        writer.close()
