"""The review store: one SQLite file of decisions, comments, meetings, corrections and their log.

:class:`Store` is an open store: it reads as :class:`~lawdiff.review.reading.StoreReader`
does and writes.  Opening it is :mod:`lawdiff.review.connect`'s
(:func:`~lawdiff.review.connect.open_for_writing`,
:func:`~lawdiff.review.connect.open_for_reading`).

Writing: every command is one short ``BEGIN IMMEDIATE`` transaction that
writes its records and, in the same transaction, one audit-log entry per
record written (before and after, as JSON, :mod:`lawdiff.review.journal`),
so that a writer killed midway leaves either all of it or nothing.  ``undo``
takes back the author's last command and is itself logged.  A write asked
on a state that has moved on since is refused
(:class:`~lawdiff.review.targets.Expect`, :class:`~lawdiff.review.targets.StaleWrite`).
Merging another store's records is :mod:`lawdiff.review.merging`'s.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from lawdiff import __version__
from lawdiff.errors import InputError, LawdiffBug, UsageError
from lawdiff.i18n import format_stamp, terms
from lawdiff.i18n import gettext as _
from lawdiff.review import columns
from lawdiff.review.journal import Write, new_id
from lawdiff.review.merging import MergeResult, merge_into
from lawdiff.review.reading import Mark, StoreReader
from lawdiff.review.targets import Expect, StaleWrite, Target, texts_hash
from lawdiff.review.values import (
    Comment,
    Correction,
    CorrectionKind,
    Decision,
    LogEntry,
    Meeting,
    Record,
    Status,
)

# Log actions that record a version without changing anything (an import
# that kept the store's newer version logs the other): undo skips them.
_NO_CHANGE = frozenset({"import-lost"})


def utc_now() -> str:
    """The current UTC time as the store writes it: ISO 8601, microseconds, ``Z``."""
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


class Store(StoreReader):
    """An open review store: its reads (:class:`~lawdiff.review.reading.StoreReader`) and its writes."""

    def __init__(self, conn: sqlite3.Connection, path: Path | None, *, writable: bool, timeout: float) -> None:
        super().__init__(conn, path, timeout=timeout)
        self.writable = writable
        self.clock = utc_now
        self._batch = False

    @contextmanager
    def _write(self, author: str, action_meeting: bool = True) -> Iterator[Write]:
        if not self.writable:
            raise InputError(_("the review store was opened read-only"), file=str(self.path or ""))
        if not author.strip():
            raise UsageError(_("no author"), fix=_("give --author NAME or set LAWDIFF_AUTHOR"))
        # Inside a batch (see batch()) a write is a savepoint: it keeps all or
        # nothing of itself, and the batch's one commit makes it durable.
        begin, end, undo = ("BEGIN IMMEDIATE", "COMMIT", "ROLLBACK")
        if self._batch:
            begin, end, undo = ("SAVEPOINT write", "RELEASE write", "ROLLBACK TO write; RELEASE write")
        with self._guard():
            self._conn.execute(begin)
            try:
                meeting = self._conn.execute("SELECT id FROM meetings WHERE ended = '' ORDER BY started").fetchone()
                w = Write(self._conn, author.strip(), self.clock(), meeting[0] if meeting and action_meeting else "")
                yield w
                self._conn.execute(end)
            except BaseException:
                # SQLite rolls back a whole transaction by itself on some errors (a full
                # disk, an I/O error): then there is nothing to roll back, and trying would
                # hide the error that matters behind "no transaction is active".
                if self._conn.in_transaction:
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
                if self._conn.in_transaction:  # not when SQLite rolled it back itself (see _write)
                    self._conn.execute("ROLLBACK")
                raise
            finally:
                self._batch = False

    @property
    def in_transaction(self) -> bool:
        """Whether a transaction is open (SQLite ends one by itself on a full disk)."""
        return self._conn.in_transaction

    def check_writable(self) -> None:
        """Prove that the store can be written now: a write transaction, rolled back.

        A store file that may be read but not written opens without complaint
        and fails at its first write; a server checks this before it serves.
        """
        if not self.writable:
            raise InputError(_("the review store was opened read-only"), file=str(self.path or ""))
        with self._guard():
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                self._conn.execute(
                    "INSERT OR REPLACE INTO marks (name, value, author, updated) VALUES ('lawdiff-check', '', '', '')"
                )
            finally:
                if self._conn.in_transaction:
                    self._conn.execute("ROLLBACK")

    def _decision_row(self, w: Write, target: Target) -> dict[str, Any]:
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
        when ``expect`` no longer holds.  Setting it answers the open questions on it
        (:meth:`ask`): confirming the status it has is a decision too, written as one."""
        with self._write(author) as w:
            self._check(w, target, expect)
            row = self._decision_row(w, target)
            questions = self._open_questions(w, target.id)
            if row["status"] != status.value or w.get("decisions", target.id) is None or questions:
                row = {**row, "status": status.value, "meeting": w.meeting, "updated": w.now}
                w.put("decisions", row, "status")
            for q in questions:
                w.put("comments", {**q, "question": "answered", "updated": w.now}, "answer")
            if comment:
                w.put("comments", self._comment_row(w, target.id, comment), "comment")
        return _decision(columns.record("decisions", row))

    def assign(self, target: Target, name: str, author: str, expect: Expect | None = None) -> Decision:
        with self._write(author) as w:
            self._check(w, target, expect)
            row = self._decision_row(w, target)
            if row["assignee"] != name or w.get("decisions", target.id) is None:
                row = {**row, "assignee": name, "updated": w.now}
                w.put("decisions", row, "assign")
        return _decision(columns.record("decisions", row))

    def add_comment(self, target: Target, text: str, author: str, expect: Expect | None = None) -> Comment:
        with self._write(author) as w:
            self._check(w, target, expect)
            if w.get("decisions", target.id) is None:
                w.put("decisions", self._decision_row(w, target), "decision")
            row = self._comment_row(w, target.id, text)
            w.put("comments", row, "comment")
        return _comment(columns.record("comments", row))

    def ask(self, target: Target, text: str, author: str, expect: Expect | None = None) -> Comment:
        """Query a decided change without undoing its decision: a question the change carries, counted
        as undecided until a chair confirms or changes the decision (:meth:`set_status`)."""
        with self._write(author) as w:
            self._check(w, target, expect)
            if w.get("decisions", target.id) is None:
                w.put("decisions", self._decision_row(w, target), "decision")
            row = {**self._comment_row(w, target.id, text), "question": "open"}
            w.put("comments", row, "question")
        return _comment(columns.record("comments", row))

    def _open_questions(self, w: Write, decision: str) -> list[dict[str, Any]]:
        cols = columns.COLUMNS["comments"]
        found = w.conn.execute(
            f"SELECT {', '.join(columns.quote(c) for c in cols)} FROM comments "
            "WHERE decision = ? AND question = 'open' AND deleted = 0 ORDER BY created, id",
            (decision,),
        )
        return [columns.from_columns("comments", dict(zip(cols, r, strict=True))) for r in found]

    def _check(self, w: Write, target: Target, expect: Expect | None) -> None:
        """Refuse the write when the change is no longer as the writer saw it (inside its transaction)."""
        if expect is None:
            return
        if (expect.old_hash and expect.old_hash != texts_hash(target.old_texts)) or (
            expect.new_hash and expect.new_hash != texts_hash(target.new_texts)
        ):
            raise StaleWrite(
                _("the text of this change was changed since you saw it; nothing was saved"),
                decision=self.decision(target.id),
            )
        row = w.get("decisions", target.id)
        status = row["status"] if row else Status.OPEN.value
        assignee = row["assignee"] if row else ""
        moved = []
        if expect.status is not None and expect.status.value != status:
            moved.append(
                _("its status is now {status} (you saw {seen})").format(
                    status=terms.status(status), seen=terms.status(expect.status.value)
                )
            )
        if expect.assignee is not None and expect.assignee != assignee:
            moved.append(
                _("it is now assigned to {name} (you saw {seen})").format(
                    name=assignee or _("nobody"), seen=expect.assignee or _("nobody")
                )
            )
        if moved:
            last = w.conn.execute(
                "SELECT author, at FROM log WHERE record = ? ORDER BY seq DESC LIMIT 1", (target.id,)
            ).fetchone()
            by, at = (last[0], last[1]) if last else ("", "")
            when = _(" by {author} at {when} UTC").format(author=by, when=format_stamp(at)) if by else ""
            raise StaleWrite(
                _("this change was changed since you saw it{when}: {names}; nothing was saved").format(
                    when=when, names="; ".join(moved)
                ),
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

    def _comment_row(self, w: Write, decision: str, text: str) -> dict[str, Any]:
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
            "question": "",
        }

    def edit_comment(self, comment_id: str, text: str, author: str) -> Comment:
        """Change one's own comment; the old text stays in the log."""
        _check_text(text)
        with self._write(author) as w:
            row = self._own_comment(w, comment_id)
            row = {**row, "text": text, "edited": w.now, "updated": w.now}
            w.put("comments", row, "comment-edit")
        return _comment(columns.record("comments", row))

    def delete_comment(self, comment_id: str, author: str) -> Comment:
        """Delete one's own comment: it is no longer shown; its text stays in the log."""
        with self._write(author) as w:
            row = self._own_comment(w, comment_id)
            row = {**row, "deleted": True, "updated": w.now}
            w.put("comments", row, "comment-delete")
        return _comment(columns.record("comments", row))

    def _own_comment(self, w: Write, comment_id: str) -> dict[str, Any]:
        row = w.get("comments", comment_id)
        if row is None or row["deleted"]:
            raise UsageError(
                _("no comment {comment_id!r}").format(comment_id=comment_id[:10]),
                fix=_("see the comment ids with lawdiff review list"),
            )
        if row["author"] != w.author:
            raise UsageError(
                _(
                    "comment {comment_id} is by {row!r}, not by {author!r}: only its author may edit or delete it"
                ).format(comment_id=comment_id[:10], row=row["author"], author=w.author),
                fix=_("give --author {row!r} if that is you").format(row=row["author"]),
            )
        return row

    def start_meeting(self, date: str, attendees: tuple[str, ...], author: str) -> Meeting:
        with self._write(author, action_meeting=False) as w:
            open_ = w.conn.execute("SELECT id, date FROM meetings WHERE ended = ''").fetchone()
            if open_ is not None:
                raise UsageError(
                    _("the meeting of {open} ({open2}) is still open").format(open=open_[1], open2=open_[0][:10]),
                    fix=_("end it first with: lawdiff review meeting end"),
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
        return _meeting(columns.record("meetings", row))

    def end_meeting(self, author: str) -> Meeting:
        with self._write(author) as w:
            if not w.meeting:
                raise UsageError(_("no meeting is open"), fix=_("start one with: lawdiff review meeting start"))
            row = w.get("meetings", w.meeting)
            assert row is not None
            row = {**row, "ended": w.now, "updated": w.now}
            w.put("meetings", row, "meeting-end")
        return _meeting(columns.record("meetings", row))

    def add_correction(
        self, kind: CorrectionKind, pair: tuple[str, str], old: tuple[str, ...], new: tuple[str, ...], author: str
    ) -> Correction:
        """Store a pin or a forbid (already checked against the corpus by :mod:`lawdiff.review.pins`)."""
        with self._write(author) as w:
            for c in self.corrections():
                if c.kind is kind and c.pair == pair and set(c.old) == set(old) and set(c.new) == set(new):
                    said = _("this pin is already set") if kind.value == "pin" else _("this forbid is already set")
                    raise UsageError(
                        _("{what} ({id}, by {author})").format(what=said, id=c.id[:10], author=c.author),
                        fix=_("see it with lawdiff review list"),
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
        return _correction(columns.record("corrections", row))

    def remove_corrections(self, ids: Iterable[str], author: str) -> list[Correction]:
        out: list[Correction] = []
        with self._write(author) as w:
            for cid in ids:
                row = w.get("corrections", cid)
                if row is None or row["removed"]:
                    continue
                row = {**row, "removed": True, "updated": w.now}
                w.put("corrections", row, "unpin")
                out.append(_correction(columns.record("corrections", row)))
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
                    _("{author} has nothing to undo").format(author=w.author),
                    fix=_("give --author NAME for another author's writes"),
                )
            return self._take_back(w, last)

    def undo_write(self, write: str, author: str, row: str) -> list[LogEntry]:
        """Take back one write to a change's row (``row``: its decision id) while it is still the row's
        last; refused (:class:`StaleWrite`) when someone wrote to the row since.  The undo is logged."""
        with self._write(author) as w:
            last = self.row_writes(row).get(row)
            if last is None or last.write != write or last.action == "undo":
                by, at = (last.author, last.at) if last else ("", "")
                since = _(" by {author} at {when} UTC").format(author=by, when=format_stamp(at)) if by else ""
                raise StaleWrite(
                    _("this change was written to since{since}; nothing was undone").format(since=since),
                    decision=self.decision(row),
                    by=by,
                    at=at,
                )
            return self._take_back(w, write)

    def _take_back(self, w: Write, last: str) -> list[LogEntry]:
        """Restore what one write changed, each record as it was before it; refused when one changed since."""
        entries = [e for e in self.log() if e.write == last]
        for e in reversed(entries):
            if e.action in _NO_CHANGE:
                continue
            current = w.get(e.table, e.record)
            if current != e.after:
                by = self._last_writer(e.record, e.seq)
                raise UsageError(
                    _("cannot undo {action} of {record}: it was changed since{by}").format(
                        action=terms.action(e.action), record=e.record[:10], by=by
                    ),
                    fix=_("set it again by hand instead (lawdiff review log shows its history)"),
                )
            w.restore(e.table, e.record, e.before, undoes=last)
        return entries

    def _last_writer(self, record: str, after_seq: int) -> str:
        later = [e for e in self.log([record]) if e.seq > after_seq]
        if not later:
            return ""
        return _(" by {author} at {when} UTC").format(author=later[-1].author, when=format_stamp(later[-1].at))

    def merge(
        self, records: Iterable[tuple[str, dict[str, Any]]], log: Iterable[dict[str, Any]], author: str
    ) -> MergeResult:
        """Merge another store's records (checked rows) and log entries, in one transaction.

        A record keeps its id, so merging the same records again changes
        nothing.  Where both stores hold a record in different versions, the
        later by ``updated`` (UTC) wins and the other is logged
        ("import-lost"), never silently dropped.
        """
        with self._write(author, action_meeting=False) as w:
            return merge_into(w, records, log)


def _check_text(text: str) -> None:
    if not text.strip():
        raise UsageError(_("the comment is empty"), fix=_("give the comment's text"))


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
