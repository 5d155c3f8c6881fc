"""SQLite's errors as :class:`~lawdiff.errors.InputError`, naming the review store's file.

Not a database, corrupt, locked beyond the timeout, read-only, disk full:
each becomes one message with what to do, for the file being opened
(:mod:`lawdiff.review.connect`) or read and written (:mod:`lawdiff.review.store`).
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from lawdiff.errors import InputError
from lawdiff.i18n import gettext as _


@contextmanager
def sqlite_errors(path: Path | None, timeout: float) -> Iterator[None]:
    """SQLite's errors as one message naming the file and what to do."""
    try:
        yield
    except sqlite3.DatabaseError as exc:
        raise input_error(exc, path, timeout) from None


def primary(exc: sqlite3.Error) -> str:
    """The primary result code's name: ``SQLITE_READONLY`` for ``SQLITE_READONLY_CANTINIT``."""
    name = str(getattr(exc, "sqlite_errorname", ""))
    return "_".join(name.split("_")[:2])


# Python's sqlite3 reads a text that is not UTF-8 (a damaged page: lawdiff writes only str) as this error.
_NOT_UTF8 = re.compile(r"Could not decode to UTF-8 column '([^']*)'")


def input_error(exc: sqlite3.DatabaseError, path: Path | None, timeout: float) -> InputError:
    name = primary(exc)
    file = str(path) if path else ""
    if name in ("SQLITE_BUSY", "SQLITE_LOCKED") or "locked" in str(exc):
        return InputError(
            _("the review store is locked by another program for more than {timeout:g} s").format(timeout=timeout),
            file=file,
            fix=_("wait for the other command to finish or close the program holding the file, then run this again"),
        )
    if name == "SQLITE_NOTADB" or "not a database" in str(exc):
        return InputError(
            _("is not a lawdiff review store (not an SQLite database)"),
            file=file,
            fix=_("name the review store with --review FILE, or move this file away"),
        )
    undecodable = _NOT_UTF8.search(str(exc))
    if name == "SQLITE_CORRUPT" or "malformed" in str(exc) or undecodable:
        why = (
            f"its column {undecodable.group(1)!r} holds bytes that are not UTF-8"
            if undecodable
            else "SQLite: database disk image is malformed"
        )
        return InputError(
            _("the review store is corrupt ({why})").format(why=why),
            file=file,
            fix=_("restore it from a backup or from an export (lawdiff review import FILE into a new store)"),
        )
    if name in ("SQLITE_READONLY", "SQLITE_CANTOPEN", "SQLITE_PERM", "SQLITE_AUTH"):
        return InputError(
            _("cannot write the review store ({exc})").format(exc=exc),
            file=file,
            fix=_("check that the file and its folder may be written, or copy the store somewhere writable"),
        )
    if name == "SQLITE_FULL":
        return InputError(_("the disk is full"), file=file, fix=_("free some space and run the command again"))
    return InputError(_("SQLite: {exc}").format(exc=exc), file=file, fix=_("check the review store file"))
