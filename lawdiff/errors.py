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
