"""The exceptions of lawdiff.

Every error that a user can cause carries the file, the place in it, what is
wrong and what to do, so that ``cli`` can print it as one line.  An impossible
internal state is a :class:`LawdiffBug`, which says so.
"""

from __future__ import annotations


class LawdiffError(Exception):
    """Bad input or a bad request: printed as one line, exit code 2."""

    def __init__(self, what: str, *, file: str = "", place: str = "", fix: str = "") -> None:
        self.what = what
        self.file = file
        self.place = place
        self.fix = fix
        super().__init__(self.message())

    def message(self) -> str:
        where = self.file
        if self.place:
            where = f"{where}:{self.place}" if where else self.place
        parts = [f"{where}: {self.what}" if where else self.what]
        if self.fix:
            parts.append(self.fix)
        return "; ".join(parts)


class InputError(LawdiffError):
    """A file that cannot be read or understood."""


class UsageError(LawdiffError):
    """A request that names something the corpus does not hold."""


class LawdiffBug(Exception):
    """An internal state that should be impossible: this is a bug in lawdiff."""

    def __init__(self, what: str) -> None:
        super().__init__(f"internal error (this is a bug in lawdiff, please report it): {what}")
        self.what = what

    def __reduce__(self) -> tuple[type[LawdiffBug], tuple[str]]:
        # Pickled with its own words (a forked worker's bug reaches the parent), not the full message.
        return (LawdiffBug, (self.what,))


def leave_interrupts_to_parent() -> None:
    """In a forked worker: Ctrl-C is the parent's to handle, and the parent stops its workers.

    A terminal's Ctrl-C reaches every process of the command; without this,
    each worker would print its own traceback beside the parent's one line.
    """
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # Forked with Ctrl-C held (forked.interrupts_held): ignored now, a pending one is discarded.
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
