"""The review store: one SQLite file of decisions, comments, meetings, corrections and their log.

Opening: :func:`find_store` finds the file by one rule (``--review FILE``,
else ``$LAWDIFF_REVIEW``, else ``lawdiff-review.sqlite`` in the current
folder); :func:`open_for_writing` creates and migrates it, WAL journal,
foreign keys on, a busy timeout; :func:`open_for_reading` opens it read-only
(``mode=ro``, or ``immutable=1`` where the folder cannot be written, as for
a store received by e-mail) and never writes.

Writing: every command is one short ``BEGIN IMMEDIATE`` transaction that
writes its records and, in the same transaction, one audit-log entry per
record written (before and after, as JSON), so that a writer killed midway
leaves either all of it or nothing.  ``undo`` takes back the author's last
command and is itself logged.

SQLite's own errors become :class:`~lawdiff.errors.InputError` here, naming
the file: not a database, corrupt, locked beyond the timeout, read-only.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import uuid
from collections.abc import Collection, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import quote

from lawdiff import __version__
from lawdiff.align.records import Corrections, Forbid, Pin
from lawdiff.errors import InputError, LawdiffBug, UsageError
from lawdiff.review import rows
from lawdiff.review.records import (
    Comment,
    Correction,
    CorrectionKind,
    Decision,
    LogEntry,
    Meeting,
    Record,
    Status,
)
from lawdiff.review.schema import APPLICATION_ID, MIGRATIONS, SCHEMA_VERSION, TABLES

DEFAULT_FILE = "lawdiff-review.sqlite"
ENV_STORE = "LAWDIFF_REVIEW"
# How long a command waits for another writer before it gives up.  Writes
# are short, so a store locked for this long is held by something else.
DEFAULT_TIMEOUT = 10.0
# A prefix shorter than this could name any record.
MIN_PREFIX = 4
# Log actions that record a version without changing anything (an import
# that kept the store's newer version logs the other): undo skips them.
_NO_CHANGE = frozenset({"import-lost"})


@dataclass(frozen=True, slots=True)
class Mark:
    """A mark the meeting shares: ``discussing`` holds the change id the chair has everyone look at."""

    name: str
    value: str
    author: str
    updated: str


@dataclass(frozen=True, slots=True)
class Involvement:
    """What one person did in the review: decision ids commented on, assigned to them, and decided by them."""

    commented: tuple[str, ...]
    assigned: tuple[str, ...]
    decided: tuple[str, ...]


def utc_now() -> str:
    """The current UTC time as the store writes it: ISO 8601, microseconds, ``Z``."""
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def new_id() -> str:
    return uuid.uuid4().hex


def texts_hash(texts: Iterable[str]) -> str:
    """SHA-256 of a side's texts (JSON list), to tell which side of a change moved on."""
    return hashlib.sha256(rows.dumps(list(texts)).encode("utf-8")).hexdigest()


# ---------------------------------------------------------------------------
# Finding and opening


@dataclass(frozen=True, slots=True)
class StoreLocation:
    """Where the store is, and which rule found it ("--review", "LAWDIFF_REVIEW" or "default")."""

    path: Path
    rule: str

    @property
    def exists(self) -> bool:
        return self.path.exists()


def find_store(
    option: Path | str | None = None, environ: dict[str, str] | None = None, cwd: Path | None = None
) -> StoreLocation:
    """The store by the one rule: ``--review FILE``, else ``$LAWDIFF_REVIEW``, else the current folder's."""
    env = os.environ if environ is None else environ
    if option:
        return StoreLocation(Path(option), "--review")
    if env.get(ENV_STORE):
        return StoreLocation(Path(env[ENV_STORE]), ENV_STORE)
    return StoreLocation((cwd or Path.cwd()) / DEFAULT_FILE, "default")


def open_for_writing(where: StoreLocation | Path, timeout: float = DEFAULT_TIMEOUT) -> Store:
    """Open the store to write, creating it when missing and migrating it forward."""
    path = where.path if isinstance(where, StoreLocation) else where
    if path.is_dir():
        raise InputError(
            "is a folder, not a review store", file=str(path), fix="name a file, e.g. --review review.sqlite"
        )
    if not path.parent.is_dir():
        raise InputError(
            "the folder of the review store does not exist",
            file=str(path),
            fix="create the folder or name another file",
        )
    with _errors(path, timeout):
        conn = sqlite3.connect(str(path), timeout=timeout, isolation_level=None, check_same_thread=False)
        try:
            _identify(conn, path)
            conn.execute("PRAGMA foreign_keys = ON")
            # FULL: a decision reported as saved survives a power cut too.
            conn.execute("PRAGMA synchronous = FULL")
            _migrate(conn, path)
            if conn.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
                conn.execute("PRAGMA journal_mode = WAL")
        except BaseException:
            conn.close()
            raise
    return Store(conn, path, writable=True, timeout=timeout)


def open_for_reading(where: StoreLocation | Path, timeout: float = DEFAULT_TIMEOUT) -> Store:
    """Open the store read-only; a missing store reads as empty (and is not created)."""
    loc = where if isinstance(where, StoreLocation) else StoreLocation(where, "--review")
    path = loc.path
    if not path.exists():
        return empty_store()
    if path.is_dir():
        raise InputError(
            "is a folder, not a review store", file=str(path), fix="name a file, e.g. --review review.sqlite"
        )
    with _errors(path, timeout):
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


def _connect_read_only(path: Path, timeout: float) -> sqlite3.Connection:
    uri = "file:" + quote(str(path.resolve()))
    conn = sqlite3.connect(f"{uri}?mode=ro", uri=True, timeout=timeout, isolation_level=None, check_same_thread=False)
    try:
        conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
        return conn
    except sqlite3.OperationalError as exc:
        if _primary(exc) not in ("SQLITE_CANTOPEN", "SQLITE_READONLY"):
            raise
        conn.close()
    # A WAL store in a folder we may not write (a mail attachment saved
    # read-only, a read-only share): SQLite cannot make its -shm file there.
    # immutable=1 reads the file as it is, which is right for a store no one
    # is writing; its last writer checkpointed the log into it on closing.
    wal = path.with_name(path.name + "-wal")
    if wal.exists() and wal.stat().st_size > 0:
        raise InputError(
            f"the store's write-ahead log ({wal.name}) holds changes that cannot be read in a folder "
            "that cannot be written",
            file=str(path),
            fix="copy the store and its -wal file to a folder you may write, and read it there",
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
            "is an SQLite database but not a lawdiff review store",
            file=str(path),
            fix="name the review store with --review FILE, or move this file away",
        )
    if version > SCHEMA_VERSION:
        raise InputError(
            f"the review store was written by a newer lawdiff (store schema {version}, this lawdiff "
            f"{__version__} knows up to {SCHEMA_VERSION})",
            file=str(path),
            fix="upgrade lawdiff to read it",
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


@contextmanager
def _errors(path: Path | None, timeout: float) -> Iterator[None]:
    """SQLite's errors as one message naming the file and what to do."""
    try:
        yield
    except sqlite3.DatabaseError as exc:
        raise _input_error(exc, path, timeout) from None


def _primary(exc: sqlite3.Error) -> str:
    """The primary result code's name: ``SQLITE_READONLY`` for ``SQLITE_READONLY_CANTINIT``."""
    name = str(getattr(exc, "sqlite_errorname", ""))
    return "_".join(name.split("_")[:2])


def _input_error(exc: sqlite3.DatabaseError, path: Path | None, timeout: float) -> InputError:
    name = _primary(exc)
    file = str(path) if path else ""
    if name in ("SQLITE_BUSY", "SQLITE_LOCKED") or "locked" in str(exc):
        return InputError(
            f"the review store is locked by another program for more than {timeout:g} s",
            file=file,
            fix="wait for the other command to finish or close the program holding the file, then run this again",
        )
    if name == "SQLITE_NOTADB" or "not a database" in str(exc):
        return InputError(
            "is not a lawdiff review store (not an SQLite database)",
            file=file,
            fix="name the review store with --review FILE, or move this file away",
        )
    if name == "SQLITE_CORRUPT" or "malformed" in str(exc):
        return InputError(
            "the review store is corrupt (SQLite: database disk image is malformed)",
            file=file,
            fix="restore it from a backup or from an export (lawdiff review import FILE into a new store)",
        )
    if name in ("SQLITE_READONLY", "SQLITE_CANTOPEN", "SQLITE_PERM", "SQLITE_AUTH"):
        return InputError(
            f"cannot write the review store ({exc})",
            file=file,
            fix="check that the file and its folder may be written, or copy the store somewhere writable",
        )
    if name == "SQLITE_FULL":
        return InputError("the disk is full", file=file, fix="free some space and run the command again")
    return InputError(f"SQLite: {exc}", file=file, fix="check the review store file")


# ---------------------------------------------------------------------------
# What a decision is made on


@dataclass(frozen=True, slots=True)
class Target:
    """A change as a decision records it: built from a run's change (:func:`lawdiff.review.view.target`)
    or from a decision already in the store."""

    id: str
    old_edition: str
    new_edition: str
    aspect: str
    kind: str
    article: str
    old: tuple[str, ...]
    new: tuple[str, ...]
    old_texts: tuple[str, ...]
    new_texts: tuple[str, ...]
    thresholds: tuple[tuple[str, float], ...] = ()

    @classmethod
    def of(cls, d: Decision) -> Target:
        return cls(
            d.id,
            d.old_edition,
            d.new_edition,
            d.aspect,
            d.kind,
            d.article,
            d.old,
            d.new,
            d.old_texts,
            d.new_texts,
            d.thresholds,
        )


@dataclass(frozen=True, slots=True)
class Expect:
    """The state a write was asked on (a form of ``lawdiff serve`` carries it): a compare-and-set.

    status, assignee: the change's status and assignee as the writer saw
        them (None: not checked).  A change without a decision is ``open``,
        assigned to nobody ("").
    old_hash, new_hash: :func:`texts_hash` of the texts the writer saw
        ("": not checked), compared with the target's.
    """

    status: Status | None = None
    assignee: str | None = None
    old_hash: str = ""
    new_hash: str = ""


class StaleWrite(UsageError):
    """A write refused because the change moved on since the writer saw it: nothing is overwritten unseen.

    decision: the change's decision as it is now (None: still none).
    by, at: who last wrote it, and when (UTC), or "" when the text changed.
    """

    def __init__(self, what: str, *, decision: Decision | None, by: str = "", at: str = "", fix: str = "") -> None:
        self.decision = decision
        self.by = by
        self.at = at
        super().__init__(what, fix=fix or "look at the change as it is now, and decide again")


@dataclass(frozen=True, slots=True)
class MergeResult:
    """What an import did: records added, replaced by a later version, kept (ours was later), log entries added."""

    added: int = 0
    replaced: int = 0
    kept: int = 0
    log_added: int = 0
    unchanged: int = 0
    conflicts: tuple[str, ...] = field(default=())


# ---------------------------------------------------------------------------
# The store


class Store:
    """An open review store.  Reading methods load a table in one query."""

    def __init__(self, conn: sqlite3.Connection, path: Path | None, *, writable: bool, timeout: float) -> None:
        self._conn = conn
        self.path = path
        self.writable = writable
        self.timeout = timeout
        self.clock = utc_now
        self._batch = False

    def close(self) -> None:
        self._conn.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def _guard(self) -> Iterator[None]:
        with _errors(self.path, self.timeout):
            yield

    # -- reading ----------------------------------------------------------

    def _rows(self, table: str, where: str = "", params: tuple[Any, ...] = ()) -> list[dict[str, Any]]:
        cols = rows.COLUMNS[table]
        sql = f"SELECT {', '.join(_q(c) for c in cols)} FROM {table} {where}"
        with self._guard():
            cursor = self._conn.execute(sql, params)
            return [rows.from_columns(table, dict(zip(cols, r, strict=True))) for r in cursor]

    def decisions(self, pairs: Collection[tuple[str, str]] | None = None) -> list[Decision]:
        """All decisions (or those of the pairs named), oldest first: one query."""
        out = self._decisions("ORDER BY created, id")
        if pairs is not None:
            wanted = set(pairs)
            out = [d for d in out if d.pair in wanted]
        return out

    def decision(self, change_id: str) -> Decision | None:
        found = self._decisions("WHERE id = ?", (change_id,))
        return found[0] if found else None

    def _decisions(self, where: str, params: tuple[Any, ...] = ()) -> list[Decision]:
        # A run's decisions are read on every `review list` and report: built
        # straight from the rows, the JSON columns of a row parsed in one go.
        cols = rows.COLUMNS["decisions"]
        with self._guard():
            found = self._conn.execute(f"SELECT {', '.join(_q(c) for c in cols)} FROM decisions {where}", params)
            thresholds: dict[str, tuple[tuple[str, float], ...]] = {}
            out: list[Decision] = []
            loads = json.loads
            for r in found:
                old, new, old_texts, new_texts = loads(f"[{r[6]},{r[7]},{r[10]},{r[11]}]")
                t = thresholds.get(r[16])
                if t is None:
                    t = thresholds[r[16]] = tuple(loads(r[16]).items())
                out.append(
                    Decision(
                        r[0], r[1], r[2], r[3], r[4], r[5], tuple(old), tuple(new), r[8], r[9], tuple(old_texts),
                        tuple(new_texts), Status(r[12]), r[13], r[14], r[15], t, r[17], r[18], r[19],
                    )
                )  # fmt: skip
        return out

    def comments(self, include_deleted: bool = False) -> list[Comment]:
        """All comments, oldest first (deleted ones only when asked): one query."""
        where = "" if include_deleted else "WHERE deleted = 0"
        cols = rows.COLUMNS["comments"]
        with self._guard():
            found = self._conn.execute(
                f"SELECT {', '.join(_q(c) for c in cols)} FROM comments {where} ORDER BY created, id"
            )
            return [Comment(r[0], r[1], r[2], r[3], r[4], r[5], bool(r[6]), r[7], r[8]) for r in found]

    def thread(self, decision: str) -> list[Comment]:
        """One decision's comments, oldest first (not deleted): what one row shows."""
        cols = rows.COLUMNS["comments"]
        with self._guard():
            found = self._conn.execute(
                f"SELECT {', '.join(_q(c) for c in cols)} FROM comments WHERE decision = ? AND deleted = 0 "
                "ORDER BY created, id",
                (decision,),
            )
            return [Comment(r[0], r[1], r[2], r[3], r[4], r[5], bool(r[6]), r[7], r[8]) for r in found]

    def meetings(self) -> list[Meeting]:
        found = [rows.record("meetings", r) for r in self._rows("meetings", "ORDER BY started, id")]
        return [m for m in found if isinstance(m, Meeting)]

    def open_meeting(self) -> Meeting | None:
        return next((m for m in self.meetings() if not m.ended), None)

    def version(self) -> int:
        """A number that grows with every write to the store (the last audit-log entry's)."""
        with self._guard():
            return int(self._conn.execute("SELECT coalesce(max(seq), 0) FROM log").fetchone()[0])

    def mark(self, name: str) -> Mark | None:
        """A shared mark ("discussing"), or None when it is not set."""
        with self._guard():
            found = self._conn.execute("SELECT name, value, author, updated FROM marks WHERE name = ?", (name,))
            row = found.fetchone()
        return Mark(*row) if row is not None and row[1] else None

    def involvement(self, name: str) -> Involvement:
        """The changes (decision ids) that ``name`` commented on, was assigned, or decided."""
        with self._guard():
            commented = [
                r[0]
                for r in self._conn.execute(
                    "SELECT DISTINCT decision FROM comments WHERE deleted = 0 AND author = ? ORDER BY decision", (name,)
                )
            ]
            assigned = [
                r[0] for r in self._conn.execute("SELECT id FROM decisions WHERE assignee = ? ORDER BY id", (name,))
            ]
            decided = [
                r[0]
                for r in self._conn.execute(
                    "SELECT DISTINCT record FROM log WHERE \"table\" = 'decisions' AND action = 'status' "
                    "AND author = ? ORDER BY record",
                    (name,),
                )
            ]
        return Involvement(tuple(commented), tuple(assigned), tuple(decided))

    def last_writes(self, record: str | None = None) -> dict[str, tuple[str, str]]:
        """Per decision id (or of the one named), who wrote it last and when (UTC): who made the state a reader sees."""
        with self._guard():
            if record is not None:
                found = self._conn.execute(
                    "SELECT record, author, at FROM log WHERE record = ? ORDER BY seq DESC LIMIT 1", (record,)
                ).fetchall()
            else:
                found = self._conn.execute(
                    'SELECT record, author, at FROM log WHERE seq IN (SELECT max(seq) FROM log WHERE "table" = '
                    "'decisions' GROUP BY record)"
                ).fetchall()
        return {r[0]: (r[1], r[2]) for r in found}

    def people(self) -> list[str]:
        """Everyone the store names: authors of comments and decisions, assignees; sorted."""
        with self._guard():
            found = self._conn.execute(
                "SELECT author FROM comments WHERE deleted = 0 UNION SELECT assignee FROM decisions "
                "UNION SELECT author FROM log WHERE local = 1"
            ).fetchall()
        return sorted({r[0] for r in found if r[0]}, key=str.casefold)

    def corrections(self, include_removed: bool = False) -> list[Correction]:
        where = "" if include_removed else "WHERE removed = 0"
        found = [rows.record("corrections", r) for r in self._rows("corrections", f"{where} ORDER BY created, id")]
        return [c for c in found if isinstance(c, Correction)]

    def all_corrections(self) -> dict[tuple[str, str], Corrections]:
        """The hand corrections of every edition pair, as the aligner takes them."""
        pairs = dict.fromkeys(c.pair for c in self.corrections())
        return {pair: self.corrections_for(*pair) for pair in pairs}

    def corrections_for(self, old: str, new: str) -> Corrections:
        """The hand corrections of one edition pair, as the aligner takes them."""
        pins: list[Pin] = []
        forbids: list[Forbid] = []
        for c in self.corrections():
            if c.pair != (old, new):
                continue
            if c.kind is CorrectionKind.PIN:
                pins.append(Pin(c.old, c.new, c.author, c.id))
            else:
                forbids.append(Forbid(c.old[0], c.new[0], c.author, c.id))
        return Corrections(tuple(pins), tuple(forbids))

    def log(self, records: Collection[str] | None = None) -> list[LogEntry]:
        """The audit log in order (of the records named, when given)."""
        sql = 'SELECT seq, id, write, author, at, action, "table", record, meeting, before, after, undoes FROM log'
        params: tuple[str, ...] = ()
        if records is not None:
            wanted = sorted(set(records))
            sql += f" WHERE record IN ({', '.join('?' * len(wanted))})"
            params = tuple(wanted)
        with self._guard():
            found = self._conn.execute(sql + " ORDER BY seq", params).fetchall()
        return [
            LogEntry(
                seq,
                id_,
                write,
                author,
                at,
                action,
                table,
                record,
                meeting,
                json.loads(before) if before is not None else None,
                json.loads(after) if after is not None else None,
                undoes,
            )
            for seq, id_, write, author, at, action, table, record, meeting, before, after, undoes in found
        ]

    def counts(self) -> dict[str, int]:
        with self._guard():
            return {t: self._conn.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in (*TABLES, "log")}

    def integrity(self) -> str:
        with self._guard():
            return str(self._conn.execute("PRAGMA integrity_check").fetchone()[0])

    def resolve(self, table: str, prefix: str) -> list[str]:
        """Ids of the table's records starting with ``prefix`` (case-insensitive)."""
        with self._guard():
            found = self._conn.execute(
                f"SELECT id FROM {table} WHERE id >= ? AND id < ? ORDER BY id",
                (prefix.lower(), prefix.lower() + "g"),
            ).fetchall()
        return [r[0] for r in found]

    # -- writing ----------------------------------------------------------

    @contextmanager
    def _write(self, author: str, action_meeting: bool = True) -> Iterator[_Write]:
        if not self.writable:
            raise InputError("the review store was opened read-only", file=str(self.path or ""))
        if not author.strip():
            raise UsageError("no author", fix="give --author NAME or set LAWDIFF_AUTHOR")
        # Inside a batch (see batch()) a write is a savepoint: it keeps all or
        # nothing of itself, and the batch's one commit makes it durable.
        begin, end, undo = ("BEGIN IMMEDIATE", "COMMIT", "ROLLBACK")
        if self._batch:
            begin, end, undo = ("SAVEPOINT write", "RELEASE write", "ROLLBACK TO write; RELEASE write")
        with self._guard():
            self._conn.execute(begin)
            try:
                meeting = self._conn.execute("SELECT id FROM meetings WHERE ended = '' ORDER BY started").fetchone()
                w = _Write(self._conn, author.strip(), self.clock(), meeting[0] if meeting and action_meeting else "")
                yield w
                self._conn.execute(end)
            except BaseException:
                for statement in undo.split("; "):
                    self._conn.execute(statement)
                raise

    @contextmanager
    def batch(self) -> Iterator[None]:
        """Several writes in one transaction, each all or nothing on its own, made durable by one commit.

        A server with many writers at once (``lawdiff serve``) commits them
        together: with ``synchronous = FULL`` every commit waits for the disk,
        and writers would otherwise queue behind each other's waits.  A write
        that fails inside the batch is rolled back alone; a failed commit
        fails them all (none is kept).
        """
        if self._batch:
            raise LawdiffBug("a batch inside a batch")
        with self._guard():
            self._conn.execute("BEGIN IMMEDIATE")
            self._batch = True
            try:
                yield
                self._conn.execute("COMMIT")
            except BaseException:
                self._conn.execute("ROLLBACK")
                raise
            finally:
                self._batch = False

    def _decision_row(self, w: _Write, target: Target) -> dict[str, Any]:
        """The decision on a target: the stored one, or a new open one (not yet written)."""
        current = w.get("decisions", target.id)
        if current is not None:
            return current
        return {
            "id": target.id,
            "old_edition": target.old_edition,
            "new_edition": target.new_edition,
            "aspect": target.aspect,
            "kind": target.kind,
            "article": target.article,
            "old": list(target.old),
            "new": list(target.new),
            "old_hash": texts_hash(target.old_texts),
            "new_hash": texts_hash(target.new_texts),
            "old_texts": list(target.old_texts),
            "new_texts": list(target.new_texts),
            "status": Status.OPEN.value,
            "assignee": "",
            "meeting": "",
            "lawdiff_version": __version__,
            "thresholds": dict(target.thresholds),
            "author": w.author,
            "created": w.now,
            "updated": w.now,
        }

    def set_status(
        self, target: Target, status: Status, author: str, comment: str = "", expect: Expect | None = None
    ) -> Decision:
        """Set a change's status (and add a comment), in one write; refused (:class:`StaleWrite`)
        when ``expect`` no longer holds."""
        with self._write(author) as w:
            self._check(w, target, expect)
            row = self._decision_row(w, target)
            if row["status"] != status.value or w.get("decisions", target.id) is None:
                row = {**row, "status": status.value, "meeting": w.meeting, "updated": w.now}
                w.put("decisions", row, "status")
            if comment:
                w.put("comments", self._comment_row(w, target.id, comment), "comment")
        return _decision(rows.record("decisions", row))

    def assign(self, target: Target, name: str, author: str, expect: Expect | None = None) -> Decision:
        with self._write(author) as w:
            self._check(w, target, expect)
            row = self._decision_row(w, target)
            if row["assignee"] != name or w.get("decisions", target.id) is None:
                row = {**row, "assignee": name, "updated": w.now}
                w.put("decisions", row, "assign")
        return _decision(rows.record("decisions", row))

    def add_comment(self, target: Target, text: str, author: str, expect: Expect | None = None) -> Comment:
        with self._write(author) as w:
            self._check(w, target, expect)
            if w.get("decisions", target.id) is None:
                w.put("decisions", self._decision_row(w, target), "decision")
            row = self._comment_row(w, target.id, text)
            w.put("comments", row, "comment")
        return _comment(rows.record("comments", row))

    def _check(self, w: _Write, target: Target, expect: Expect | None) -> None:
        """Refuse the write when the change is no longer as the writer saw it (inside its transaction)."""
        if expect is None:
            return
        if (expect.old_hash and expect.old_hash != texts_hash(target.old_texts)) or (
            expect.new_hash and expect.new_hash != texts_hash(target.new_texts)
        ):
            raise StaleWrite(
                "the text of this change was changed since you saw it; nothing was saved",
                decision=self.decision(target.id),
            )
        row = w.get("decisions", target.id)
        status = row["status"] if row else Status.OPEN.value
        assignee = row["assignee"] if row else ""
        moved = []
        if expect.status is not None and expect.status.value != status:
            moved.append(f"its status is now {status} (you saw {expect.status.value})")
        if expect.assignee is not None and expect.assignee != assignee:
            moved.append(f"it is now assigned to {assignee or 'nobody'} (you saw {expect.assignee or 'nobody'})")
        if moved:
            last = w.conn.execute(
                "SELECT author, at FROM log WHERE record = ? ORDER BY seq DESC LIMIT 1", (target.id,)
            ).fetchone()
            by, at = (last[0], last[1]) if last else ("", "")
            when = f" by {by} at {at[:16].replace('T', ' ')} UTC" if by else ""
            raise StaleWrite(
                f"this change was changed since you saw it{when}: {'; '.join(moved)}; nothing was saved",
                decision=self.decision(target.id),
                by=by,
                at=at,
            )

    def set_mark(self, name: str, value: str, author: str) -> Mark | None:
        """Set a shared mark ("" clears it); logged like every write, never undone by ``undo``."""
        with self._write(author) as w:
            before = w.conn.execute("SELECT name, value, author, updated FROM marks WHERE name = ?", (name,)).fetchone()
            after = {"name": name, "value": value, "author": w.author, "updated": w.now}
            w.conn.execute(
                "INSERT INTO marks (name, value, author, updated) VALUES (:name, :value, :author, :updated) "
                "ON CONFLICT (name) DO UPDATE SET value = excluded.value, author = excluded.author, "
                "updated = excluded.updated",
                after,
            )
            old = dict(zip(("name", "value", "author", "updated"), before, strict=True)) if before else None
            w.entry("mark", "marks", name, old, after)
        return Mark(name, value, w.author, w.now) if value else None

    def _comment_row(self, w: _Write, decision: str, text: str) -> dict[str, Any]:
        _check_text(text)
        return {
            "id": new_id(),
            "decision": decision,
            "author": w.author,
            "created": w.now,
            "updated": w.now,
            "text": text,
            "deleted": False,
            "edited": "",
            "meeting": w.meeting,
        }

    def edit_comment(self, comment_id: str, text: str, author: str) -> Comment:
        """Change one's own comment; the old text stays in the log."""
        _check_text(text)
        with self._write(author) as w:
            row = self._own_comment(w, comment_id)
            row = {**row, "text": text, "edited": w.now, "updated": w.now}
            w.put("comments", row, "comment-edit")
        return _comment(rows.record("comments", row))

    def delete_comment(self, comment_id: str, author: str) -> Comment:
        """Delete one's own comment: it is no longer shown; its text stays in the log."""
        with self._write(author) as w:
            row = self._own_comment(w, comment_id)
            row = {**row, "deleted": True, "updated": w.now}
            w.put("comments", row, "comment-delete")
        return _comment(rows.record("comments", row))

    def _own_comment(self, w: _Write, comment_id: str) -> dict[str, Any]:
        row = w.get("comments", comment_id)
        if row is None or row["deleted"]:
            raise UsageError(f"no comment {comment_id[:10]!r}", fix="see the comment ids with lawdiff review list")
        if row["author"] != w.author:
            raise UsageError(
                f"comment {comment_id[:10]} is by {row['author']!r}, not by {w.author!r}: "
                "only its author may edit or delete it",
                fix=f"give --author {row['author']!r} if that is you",
            )
        return row

    def start_meeting(self, date: str, attendees: tuple[str, ...], author: str) -> Meeting:
        with self._write(author, action_meeting=False) as w:
            open_ = w.conn.execute("SELECT id, date FROM meetings WHERE ended = ''").fetchone()
            if open_ is not None:
                raise UsageError(
                    f"the meeting of {open_[1]} ({open_[0][:10]}) is still open",
                    fix="end it first with: lawdiff review meeting end",
                )
            row: dict[str, Any] = {
                "id": new_id(),
                "date": date,
                "attendees": list(attendees),
                "started": w.now,
                "ended": "",
                "author": w.author,
                "updated": w.now,
            }
            w.meeting = row["id"]
            w.put("meetings", row, "meeting-start")
        return _meeting(rows.record("meetings", row))

    def end_meeting(self, author: str) -> Meeting:
        with self._write(author) as w:
            if not w.meeting:
                raise UsageError("no meeting is open", fix="start one with: lawdiff review meeting start")
            row = w.get("meetings", w.meeting)
            assert row is not None
            row = {**row, "ended": w.now, "updated": w.now}
            w.put("meetings", row, "meeting-end")
        return _meeting(rows.record("meetings", row))

    def add_correction(
        self, kind: CorrectionKind, pair: tuple[str, str], old: tuple[str, ...], new: tuple[str, ...], author: str
    ) -> Correction:
        """Store a pin or a forbid (already checked against the corpus by :mod:`lawdiff.review.pins`)."""
        with self._write(author) as w:
            for c in self.corrections():
                if c.kind is kind and c.pair == pair and set(c.old) == set(old) and set(c.new) == set(new):
                    raise UsageError(
                        f"this {kind.value} is already set ({c.id[:10]}, by {c.author})",
                        fix="see it with lawdiff review list",
                    )
            row: dict[str, Any] = {
                "id": new_id(),
                "kind": kind.value,
                "old_edition": pair[0],
                "new_edition": pair[1],
                "old": list(old),
                "new": list(new),
                "author": w.author,
                "created": w.now,
                "updated": w.now,
                "removed": False,
            }
            w.put("corrections", row, kind.value)
        return _correction(rows.record("corrections", row))

    def remove_corrections(self, ids: Iterable[str], author: str) -> list[Correction]:
        out: list[Correction] = []
        with self._write(author) as w:
            for cid in ids:
                row = w.get("corrections", cid)
                if row is None or row["removed"]:
                    continue
                row = {**row, "removed": True, "updated": w.now}
                w.put("corrections", row, "unpin")
                out.append(_correction(rows.record("corrections", row)))
        return out

    def undo(self, author: str) -> list[LogEntry]:
        """Take back the author's last command (not already taken back); the undo is logged."""
        with self._write(author) as w:
            undone = {r[0] for r in w.conn.execute("SELECT undoes FROM log WHERE action = 'undo'")}
            last = None
            for (write,) in w.conn.execute(
                "SELECT write FROM log WHERE author = ? AND local = 1 AND action NOT IN ('undo', 'mark') "
                "GROUP BY write ORDER BY max(seq) DESC",
                (w.author,),
            ):
                if write not in undone:
                    last = write
                    break
            if last is None:
                raise UsageError(
                    f"{w.author} has nothing to undo", fix="give --author NAME for another author's writes"
                )
            entries = [e for e in self.log() if e.write == last]
            for e in reversed(entries):
                if e.action in _NO_CHANGE:
                    continue
                current = w.get(e.table, e.record)
                if current != e.after:
                    by = self._last_writer(e.record, e.seq)
                    raise UsageError(
                        f"cannot undo {e.action} of {e.record[:10]}: it was changed since{by}",
                        fix="set it again by hand instead (lawdiff review log shows its history)",
                    )
                w.restore(e.table, e.record, e.before, undoes=last)
        return entries

    def _last_writer(self, record: str, after_seq: int) -> str:
        later = [e for e in self.log([record]) if e.seq > after_seq]
        return f" by {later[-1].author} at {later[-1].at}" if later else ""

    def merge(
        self, records: Iterable[tuple[str, dict[str, Any]]], log: Iterable[dict[str, Any]], author: str
    ) -> MergeResult:
        """Merge another store's records (checked rows) and log entries, in one transaction.

        A record keeps its id, so merging the same records again changes
        nothing.  Where both stores hold a record in different versions, the
        later by ``updated`` (UTC) wins and the other is logged
        ("import-lost"), never silently dropped.
        """
        added = replaced = kept = unchanged = log_added = 0
        conflicts: list[str] = []
        with self._write(author, action_meeting=False) as w:
            known = {t: {r[0] for r in w.conn.execute(f"SELECT id FROM {t}")} for t in TABLES}
            fresh: list[tuple[str, dict[str, Any]]] = []
            for table, row in records:
                if row["id"] not in known[table]:
                    # New records go in by the batch; tables come in the order
                    # that the foreign keys need (see exchange.TYPES).
                    fresh.append((table, row))
                    known[table].add(row["id"])
                    added += 1
                    continue
                w.insert_many(fresh, "import")
                fresh = []
                current = w.get(table, row["id"])
                assert current is not None  # known, and the batch holding it was just written
                if current == row:
                    unchanged += 1
                elif (row["updated"], rows.dumps(row)) > (current["updated"], rows.dumps(current)):
                    w.put(table, row, "import")
                    replaced += 1
                    conflicts.append(f"{table[:-1]} {row['id'][:10]}: kept the imported version of {row['updated']}")
                else:
                    kept += 1
                    if not w.known_version(row["id"], row):
                        w.entry("import-lost", table, row["id"], row, current)
                        conflicts.append(
                            f"{table[:-1]} {row['id'][:10]}: kept this store's version of {current['updated']}"
                        )
            w.insert_many(fresh, "import")
            have = {r[0] for r in w.conn.execute("SELECT id FROM log")}
            for entry in log:
                if entry["id"] not in have:
                    w.foreign_entry(entry)
                    have.add(entry["id"])
                    log_added += 1
        return MergeResult(added, replaced, kept, log_added, unchanged, tuple(conflicts))

    def export_log_rows(self) -> list[dict[str, Any]]:
        return [
            {
                "id": e.id,
                "write": e.write,
                "author": e.author,
                "at": e.at,
                "action": e.action,
                "table": e.table,
                "record": e.record,
                "meeting": e.meeting,
                "before": e.before,
                "after": e.after,
                "undoes": e.undoes,
            }
            for e in self.log()
        ]


class _Write:
    """One command's transaction: writes records and their log entries."""

    def __init__(self, conn: sqlite3.Connection, author: str, now: str, meeting: str) -> None:
        self.conn = conn
        self.author = author
        self.now = now
        self.meeting = meeting
        self.write = new_id()

    def get(self, table: str, record_id: str) -> dict[str, Any] | None:
        cols = rows.COLUMNS[table]
        found = self.conn.execute(
            f"SELECT {', '.join(_q(c) for c in cols)} FROM {table} WHERE id = ?", (record_id,)
        ).fetchone()
        return rows.from_columns(table, dict(zip(cols, found, strict=True))) if found else None

    def put(self, table: str, row: dict[str, Any], action: str) -> None:
        before = self.get(table, row["id"])
        self._upsert(table, row)
        self.entry(action, table, row["id"], before, row)

    def insert_many(self, batch: list[tuple[str, dict[str, Any]]], action: str) -> None:
        """Insert new records (none of them in the store yet) and their log entries, by the batch."""
        for table in dict.fromkeys(t for t, _ in batch):
            chosen = [row for t, row in batch if t == table]
            cols = list(rows.COLUMNS[table])
            self.conn.executemany(
                f"INSERT INTO {table} ({', '.join(_q(c) for c in cols)}) VALUES ({', '.join('?' * len(cols))})",
                ([rows.to_columns(table, row)[c] for c in cols] for row in chosen),
            )
            self.conn.executemany(
                'INSERT INTO log (id, write, author, at, action, "table", record, meeting, before, after) '
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, NULL, ?)",
                (
                    (
                        new_id(),
                        self.write,
                        self.author,
                        self.now,
                        action,
                        table,
                        row["id"],
                        self.meeting,
                        rows.dumps(row),
                    )
                    for row in chosen
                ),
            )

    def restore(self, table: str, record_id: str, row: dict[str, Any] | None, undoes: str) -> None:
        before = self.get(table, record_id)
        if row is None:
            self.conn.execute(f"DELETE FROM {table} WHERE id = ?", (record_id,))
        else:
            self._upsert(table, row)
        self.entry("undo", table, record_id, before, row, undoes)

    def _upsert(self, table: str, row: dict[str, Any]) -> None:
        values = rows.to_columns(table, row)
        cols = list(values)
        updates = ", ".join(f"{_q(c)} = excluded.{_q(c)}" for c in cols if c != "id")
        self.conn.execute(
            f"INSERT INTO {table} ({', '.join(_q(c) for c in cols)}) VALUES ({', '.join('?' * len(cols))}) "
            f"ON CONFLICT (id) DO UPDATE SET {updates}",
            [values[c] for c in cols],
        )

    def entry(
        self,
        action: str,
        table: str,
        record: str,
        before: dict[str, Any] | None,
        after: dict[str, Any] | None,
        undoes: str = "",
    ) -> None:
        self.conn.execute(
            'INSERT INTO log (id, write, author, at, action, "table", record, meeting, before, after, undoes) '
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                new_id(),
                self.write,
                self.author,
                self.now,
                action,
                table,
                record,
                self.meeting,
                None if before is None else rows.dumps(before),
                None if after is None else rows.dumps(after),
                undoes,
            ),
        )

    def known_version(self, record: str, row: dict[str, Any]) -> bool:
        text = rows.dumps(row)
        found = self.conn.execute(
            "SELECT 1 FROM log WHERE record = ? AND (before = ? OR after = ?) LIMIT 1", (record, text, text)
        ).fetchone()
        return found is not None

    def foreign_entry(self, e: dict[str, Any]) -> None:
        """Another store's log entry, kept as history (never undone from here)."""
        self.conn.execute(
            'INSERT INTO log (id, write, author, at, action, "table", record, meeting, before, after, undoes, local) '
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0)",
            (
                e["id"],
                e["write"],
                e["author"],
                e["at"],
                e["action"],
                e["table"],
                e["record"],
                e["meeting"],
                None if e["before"] is None else rows.dumps(e["before"]),
                None if e["after"] is None else rows.dumps(e["after"]),
                e["undoes"],
            ),
        )


def _q(name: str) -> str:
    return f'"{name}"'


def _check_text(text: str) -> None:
    if not text.strip():
        raise UsageError("the comment is empty", fix="give the comment's text")


def _decision(r: Record) -> Decision:
    assert isinstance(r, Decision)
    return r


def _comment(r: Record) -> Comment:
    assert isinstance(r, Comment)
    return r


def _meeting(r: Record) -> Meeting:
    assert isinstance(r, Meeting)
    return r


def _correction(r: Record) -> Correction:
    assert isinstance(r, Correction)
    return r
