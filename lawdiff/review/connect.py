"""Opening and migrating the review store's file.

:func:`~lawdiff.review.location.find_store` finds the file by one rule
(``--review FILE``, else ``$LAWDIFF_REVIEW``, else ``lawdiff-review.sqlite``
in the current folder); :func:`open_for_writing` creates and migrates it, WAL journal, foreign keys
on, a busy timeout; :func:`open_for_reading` opens it read-only
(``mode=ro``, or ``immutable=1`` where the folder cannot be written, as for a
store received by e-mail) and never writes: an older store is migrated in a
copy in memory.  SQLite's errors on the way become
:class:`~lawdiff.errors.InputError` (:mod:`lawdiff.review.sqlite_errors`).
"""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path
from urllib.parse import quote

from lawdiff import __version__
from lawdiff.errors import InputError
from lawdiff.i18n import gettext as _
from lawdiff.review.location import StoreLocation
from lawdiff.review.schema import APPLICATION_ID, MIGRATIONS, SCHEMA_VERSION
from lawdiff.review.sqlite_errors import primary, sqlite_errors
from lawdiff.review.store import Store

# How long a command waits for another writer before it gives up.  Writes
# are short, so a store locked for this long is held by something else.
DEFAULT_TIMEOUT = 10.0


def open_for_writing(where: StoreLocation | Path, timeout: float = DEFAULT_TIMEOUT) -> Store:
    """Open the store to write, creating it when missing and migrating it forward."""
    path = where.path if isinstance(where, StoreLocation) else where
    if path.is_dir():
        raise InputError(
            _("is a folder, not a review store"), file=str(path), fix=_("name a file, e.g. --review review.sqlite")
        )
    if not path.parent.is_dir():
        raise InputError(
            _("the folder of the review store does not exist"),
            file=str(path),
            fix=_("create the folder or name another file"),
        )
    with sqlite_errors(path, timeout):
        conn = sqlite3.connect(str(path), timeout=timeout, isolation_level=None, check_same_thread=False)
        try:
            _identify(conn, path)
            conn.execute("PRAGMA foreign_keys = ON")
            # FULL: a decision reported as saved survives a power cut too.
            conn.execute("PRAGMA synchronous = FULL")
            _migrate(conn, path)
            _use_wal(conn, timeout)
        except BaseException:
            conn.close()
            raise
    return Store(conn, path, writable=True, timeout=timeout)


def _use_wal(conn: sqlite3.Connection, timeout: float) -> None:
    """Switch the store to the WAL journal, waiting for other writers as long as the busy timeout.

    SQLite does not call its busy handler here: the switch reads the file's
    header and then upgrades to a write lock, and that upgrade fails at once
    while another connection holds a write lock (eight commands creating one
    store together saw this once in 170 opens).  So the wait is ours.
    """
    deadline = time.monotonic() + timeout
    pause = 0.001
    while True:
        try:
            if conn.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
                conn.execute("PRAGMA journal_mode = WAL")
            return
        except sqlite3.OperationalError as exc:
            if primary(exc) != "SQLITE_BUSY" or time.monotonic() >= deadline:
                raise
        time.sleep(min(pause, max(0.0, deadline - time.monotonic())))
        pause = min(pause * 2, 0.05)


def open_for_reading(where: StoreLocation | Path, timeout: float = DEFAULT_TIMEOUT) -> Store:
    """Open the store read-only; a missing store reads as empty (and is not created)."""
    loc = where if isinstance(where, StoreLocation) else StoreLocation(where, "--review")
    path = loc.path
    if not path.exists():
        return empty_store()
    if path.is_dir():
        raise InputError(
            _("is a folder, not a review store"), file=str(path), fix=_("name a file, e.g. --review review.sqlite")
        )
    with sqlite_errors(path, timeout):
        conn = _connect_read_only(path, timeout)
        try:
            version = _identify(conn, path)
            if version < SCHEMA_VERSION:
                # Migrate a copy in memory: a reader never writes the file.
                memory = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
                conn.backup(memory)
                conn.close()
                conn = memory
                _migrate(conn, path)
            conn.execute("PRAGMA query_only = ON")
        except BaseException:
            conn.close()
            raise
    return Store(conn, path, writable=False, timeout=timeout)


def empty_store() -> Store:
    """A store with no records, in memory: what reading commands see where no store exists yet."""
    conn = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
    _migrate(conn, Path(":memory:"))
    conn.execute("PRAGMA query_only = ON")
    return Store(conn, None, writable=False, timeout=0.0)


def scratch_store(path: Path) -> Store:
    """An empty store in memory that takes writes, named after the file at ``path`` that is not there yet:
    where a command tries its write before it creates that file, so that a write refused creates none."""
    conn = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
    conn.execute("PRAGMA foreign_keys = ON")
    _migrate(conn, path)
    return Store(conn, path, writable=True, timeout=0.0)


def _connect_read_only(path: Path, timeout: float) -> sqlite3.Connection:
    uri = "file:" + quote(str(path.resolve()))
    conn = sqlite3.connect(f"{uri}?mode=ro", uri=True, timeout=timeout, isolation_level=None, check_same_thread=False)
    try:
        conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
        return conn
    except sqlite3.OperationalError as exc:
        if primary(exc) not in ("SQLITE_CANTOPEN", "SQLITE_READONLY"):
            raise
        conn.close()
    # A WAL store in a folder we may not write (a mail attachment saved
    # read-only, a read-only share): SQLite cannot make its -shm file there.
    # immutable=1 reads the file as it is, which is right for a store no one
    # is writing; its last writer checkpointed the log into it on closing.
    wal = path.with_name(path.name + "-wal")
    if wal.exists() and wal.stat().st_size > 0:
        raise InputError(
            _(
                "the store's write-ahead log ({name}) holds changes that cannot be read in a folder that cannot "
                "be written"
            ).format(name=wal.name),
            file=str(path),
            fix=_("copy the store and its -wal file to a folder you may write, and read it there"),
        )
    return sqlite3.connect(
        f"{uri}?mode=ro&immutable=1", uri=True, timeout=timeout, isolation_level=None, check_same_thread=False
    )


def _identify(conn: sqlite3.Connection, path: Path) -> int:
    """The store's schema version; an error for any other file or a newer store."""
    # One statement, so one snapshot: a store that another process is
    # creating right now is seen either empty or complete.
    app, version, tables = conn.execute(
        "SELECT a.application_id, v.user_version, (SELECT count(*) FROM sqlite_master) "
        "FROM pragma_application_id() AS a, pragma_user_version() AS v"
    ).fetchone()
    version = int(version)
    if app != APPLICATION_ID and not (app == 0 and version == 0 and tables == 0):
        raise InputError(
            _("is an SQLite database but not a lawdiff review store"),
            file=str(path),
            fix=_("name the review store with --review FILE, or move this file away"),
        )
    if version > SCHEMA_VERSION:
        raise InputError(
            _(
                "the review store was written by a newer lawdiff (store schema {version}, this lawdiff "
                "{version2} knows up to {SCHEMA_VERSION})"
            ).format(version=version, version2=__version__, SCHEMA_VERSION=SCHEMA_VERSION),
            file=str(path),
            fix=_("upgrade lawdiff to read it"),
        )
    return version


def _migrate(conn: sqlite3.Connection, path: Path) -> None:
    """Run the migrations forward, each in its own transaction."""
    if int(conn.execute("PRAGMA user_version").fetchone()[0]) >= SCHEMA_VERSION:
        return
    while True:
        conn.execute("BEGIN IMMEDIATE")
        try:
            # Read again inside the transaction: another process may have
            # migrated the store while we waited for the lock.
            version = int(conn.execute("PRAGMA user_version").fetchone()[0])
            if version >= SCHEMA_VERSION:
                conn.execute("COMMIT")
                return
            for statement in MIGRATIONS[version]:
                conn.execute(statement)
            conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            conn.execute(f"PRAGMA user_version = {version + 1}")
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
