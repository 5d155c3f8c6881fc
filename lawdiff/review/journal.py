"""One command's write: its records and, in the same transaction, their audit-log entries.

Every record written gets one log entry holding its row before and after
(as JSON), under the id of the write it belongs to, so that ``undo`` can
take back one command and a reader can tell who made the state it sees.
The transaction itself is begun and ended by :meth:`lawdiff.review.store.Store._write`.
"""

from __future__ import annotations

import sqlite3
import uuid
from typing import Any

from lawdiff.review import columns


def new_id() -> str:
    return uuid.uuid4().hex


_LOG_INSERT = (
    'INSERT INTO log (id, write, author, at, action, "table", record, meeting, before, after, undoes) '
    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)


class Write:
    """One command's transaction: writes records and their log entries."""

    def __init__(self, conn: sqlite3.Connection, author: str, now: str, meeting: str) -> None:
        self.conn = conn
        self.author = author
        self.now = now
        self.meeting = meeting
        self.write = new_id()

    def get(self, table: str, record_id: str) -> dict[str, Any] | None:
        cols = columns.COLUMNS[table]
        found = self.conn.execute(
            f"SELECT {', '.join(columns.quote(c) for c in cols)} FROM {table} WHERE id = ?", (record_id,)
        ).fetchone()
        return columns.from_columns(table, dict(zip(cols, found, strict=True))) if found else None

    def put(self, table: str, row: dict[str, Any], action: str) -> None:
        before = self.get(table, row["id"])
        self._upsert(table, row)
        self.entry(action, table, row["id"], before, row)

    def insert_many(self, batch: list[tuple[str, dict[str, Any]]], action: str) -> None:
        """Insert new records (none of them in the store yet) and their log entries, by the batch."""
        for table in dict.fromkeys(t for t, _ in batch):
            chosen = [row for t, row in batch if t == table]
            cols = list(columns.COLUMNS[table])
            names, marks = ", ".join(columns.quote(c) for c in cols), ", ".join("?" * len(cols))
            self.conn.executemany(
                f"INSERT INTO {table} ({names}) VALUES ({marks})",
                ([columns.to_columns(table, row)[c] for c in cols] for row in chosen),
            )
            self.conn.executemany(_LOG_INSERT, (self._log_row(action, table, row["id"], None, row) for row in chosen))

    def restore(self, table: str, record_id: str, row: dict[str, Any] | None, undoes: str) -> None:
        before = self.get(table, record_id)
        if row is None:
            self.conn.execute(f"DELETE FROM {table} WHERE id = ?", (record_id,))
        else:
            self._upsert(table, row)
        self.entry("undo", table, record_id, before, row, undoes)

    def _upsert(self, table: str, row: dict[str, Any]) -> None:
        values = columns.to_columns(table, row)
        cols = list(values)
        updates = ", ".join(f"{columns.quote(c)} = excluded.{columns.quote(c)}" for c in cols if c != "id")
        self.conn.execute(
            f"INSERT INTO {table} ({', '.join(columns.quote(c) for c in cols)}) VALUES ({', '.join('?' * len(cols))}) "
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
        self.conn.execute(_LOG_INSERT, self._log_row(action, table, record, before, after, undoes))

    def _log_row(
        self,
        action: str,
        table: str,
        record: str,
        before: dict[str, Any] | None,
        after: dict[str, Any] | None,
        undoes: str = "",
    ) -> tuple[str | None, ...]:
        """The values of one log entry of this write, in :data:`_LOG_INSERT`'s order."""
        return (
            new_id(),
            self.write,
            self.author,
            self.now,
            action,
            table,
            record,
            self.meeting,
            None if before is None else columns.dumps(before),
            None if after is None else columns.dumps(after),
            undoes,
        )

    def known_version(self, record: str, row: dict[str, Any]) -> bool:
        text = columns.dumps(row)
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
                None if e["before"] is None else columns.dumps(e["before"]),
                None if e["after"] is None else columns.dumps(e["after"]),
                e["undoes"],
            ),
        )
