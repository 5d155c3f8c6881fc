"""Reading the review store: every table, the audit log and the shared marks, each in one query.

:class:`StoreReader` is what a store opened read-only can do;
:class:`lawdiff.review.store.Store` adds the writes.  A reader never
writes, and SQLite's errors become :class:`~lawdiff.errors.InputError`
naming the file (:mod:`lawdiff.review.sqlite_errors`).
"""

from __future__ import annotations

import json
import operator
import sqlite3
from collections.abc import Collection, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Self

from lawdiff.align.links import Corrections, Forbid, Pin
from lawdiff.review import columns
from lawdiff.review.schema import TABLES
from lawdiff.review.sqlite_errors import sqlite_errors
from lawdiff.review.values import Comment, Correction, CorrectionKind, Decision, LogEntry, Meeting, Status

# A status by its stored value: a dict lookup, where calling the enum costs a Python call per row.
_STATUS = {s.value: s for s in Status}
# The order decisions and comments are listed in: oldest first.
_ORDER = operator.attrgetter("created", "id")


@dataclass(frozen=True, slots=True)
class Mark:
    """A mark the meeting shares: ``discussing`` holds the change id the chair has everyone look at."""

    name: str
    value: str
    author: str
    updated: str


@dataclass(frozen=True, slots=True)
class RowWrite:
    """The last write to a change's row (its decision or a comment of its thread), as an undo names it."""

    write: str
    author: str
    action: str
    at: str


@dataclass(frozen=True, slots=True)
class Involvement:
    """What one person did in the review: decision ids commented on, assigned to them, and decided by them."""

    commented: tuple[str, ...]
    assigned: tuple[str, ...]
    decided: tuple[str, ...]


def _of_pairs(pairs: Collection[tuple[str, str]] | None) -> tuple[str, tuple[str, ...]]:
    """The WHERE clause (and its parameters) of the decisions of these pairs; none for all of them."""
    if pairs is None:
        return "", ()
    wanted = sorted(set(pairs))
    if not wanted:
        return "WHERE 0", ()
    # One row value per pair: a chain of ORs would reach SQLite's expression depth limit at 1,000 pairs.
    return (
        f"WHERE (old_edition, new_edition) IN (VALUES {', '.join('(?, ?)' for _ in wanted)})",
        tuple(name for pair in wanted for name in pair),
    )


class StoreReader:
    """An open review store, to read.  Reading methods load a table in one query."""

    def __init__(self, conn: sqlite3.Connection, path: Path | None, *, timeout: float) -> None:
        self._conn = conn
        self.path = path
        self.timeout = timeout

    def close(self) -> None:
        self._conn.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def _guard(self) -> Iterator[None]:
        with sqlite_errors(self.path, self.timeout):
            yield

    def _rows(self, table: str, where: str = "", params: tuple[Any, ...] = ()) -> list[dict[str, Any]]:
        cols = columns.COLUMNS[table]
        sql = f"SELECT {', '.join(columns.quote(c) for c in cols)} FROM {table} {where}"
        with self._guard():
            cursor = self._conn.execute(sql, params)
            return [columns.from_columns(table, dict(zip(cols, r, strict=True))) for r in cursor]

    def decisions(self, pairs: Collection[tuple[str, str]] | None = None) -> list[Decision]:
        """All decisions (or only those of the pairs named), oldest first: one query."""
        where, params = _of_pairs(pairs)
        # Put in order here: SQLite would sort whole rows, texts and all, for want of an index.
        return sorted(self._decisions(where, params), key=_ORDER)

    def decision_counts(self) -> dict[tuple[str, str], int]:
        """How many decisions each pair of editions has."""
        with self._guard():
            found = self._conn.execute(
                "SELECT old_edition, new_edition, count(*) FROM decisions GROUP BY old_edition, new_edition"
            )
            return {(old, new): n for old, new, n in found}

    def decision(self, change_id: str) -> Decision | None:
        found = self._decisions("WHERE id = ?", (change_id,))
        return found[0] if found else None

    def _decisions(self, where: str, params: tuple[Any, ...] = ()) -> list[Decision]:
        # A run's decisions are read on every `review list` and report: built
        # straight from the rows, the JSON columns of a row parsed in one go.
        cols = columns.COLUMNS["decisions"]
        with self._guard():
            found = self._conn.execute(
                f"SELECT {', '.join(columns.quote(c) for c in cols)} FROM decisions {where}", params
            )
            thresholds: dict[str, tuple[tuple[str, float], ...]] = {}
            out: list[Decision] = []
            loads = json.loads
            for r in found:
                old, new, old_texts, new_texts = loads(f"[{r[6]},{r[7]},{r[10]},{r[11]}]")
                status = _STATUS.get(r[12]) or Status(r[12])
                t = thresholds.get(r[16])
                if t is None:
                    t = thresholds[r[16]] = tuple(loads(r[16]).items())
                out.append(
                    Decision(
                        r[0], r[1], r[2], r[3], r[4], r[5], tuple(old), tuple(new), r[8], r[9], tuple(old_texts),
                        tuple(new_texts), status, r[13], r[14], r[15], t, r[17], r[18], r[19],
                    )
                )  # fmt: skip
        return out

    def comments(
        self, include_deleted: bool = False, pairs: Collection[tuple[str, str]] | None = None
    ) -> list[Comment]:
        """All comments (or only those on the decisions of the pairs named), oldest first (deleted ones only
        when asked): one query."""
        where, params = _of_pairs(pairs)
        conditions = [] if include_deleted else ["deleted = 0"]
        if where:
            conditions.append(f"decision IN (SELECT id FROM decisions {where})")
        cols = columns.COLUMNS["comments"]
        with self._guard():
            found = self._conn.execute(
                f"SELECT {', '.join(columns.quote(c) for c in cols)} FROM comments"
                + (f" WHERE {' AND '.join(conditions)}" if conditions else ""),
                params,
            )
            out = [Comment(r[0], r[1], r[2], r[3], r[4], r[5], bool(r[6]), r[7], r[8], r[9]) for r in found]
        out.sort(key=_ORDER)
        return out

    def thread(self, decision: str) -> list[Comment]:
        """One decision's comments, oldest first (not deleted): what one row shows."""
        cols = columns.COLUMNS["comments"]
        with self._guard():
            found = self._conn.execute(
                f"SELECT {', '.join(columns.quote(c) for c in cols)} FROM comments WHERE decision = ? AND deleted = 0 "
                "ORDER BY created, id",
                (decision,),
            )
            return [Comment(r[0], r[1], r[2], r[3], r[4], r[5], bool(r[6]), r[7], r[8], r[9]) for r in found]

    def meetings(self) -> list[Meeting]:
        found = [columns.record("meetings", r) for r in self._rows("meetings", "ORDER BY started, id")]
        return [m for m in found if isinstance(m, Meeting)]

    def open_meeting(self) -> Meeting | None:
        return next((m for m in self.meetings() if not m.ended), None)

    def version(self) -> int:
        """A number that grows with every write to the store (the last audit-log entry's)."""
        with self._guard():
            return int(self._conn.execute("SELECT coalesce(max(seq), 0) FROM log").fetchone()[0])

    def changed_since(self, version: int) -> tuple[int, tuple[str, ...], tuple[str, ...]]:
        """What was written after ``version`` (:meth:`version`): the store's version now, the decision
        ids whose decision or comments changed (in the order written), and the other tables written."""
        with self._guard():
            found = self._conn.execute(
                'SELECT seq, "table", CASE WHEN "table" = \'comments\' '
                "THEN json_extract(coalesce(after, before), '$.decision') ELSE record END "
                "FROM log WHERE seq > ? ORDER BY seq",
                (version,),
            ).fetchall()
        now = max([version, *(r[0] for r in found)])
        decisions = tuple(dict.fromkeys(r[2] for r in found if r[1] in ("decisions", "comments") and r[2]))
        others = tuple(dict.fromkeys(r[1] for r in found if r[1] not in ("decisions", "comments")))
        return now, decisions, others

    def row_writes(self, decision: str | None = None) -> dict[str, RowWrite]:
        """Per decision id (or of the one named), the last write made here to its row: the decision
        or a comment of its thread (imported history is not this store's to undo)."""
        of_comment = "json_extract(coalesce(after, before), '$.decision')"
        with self._guard():
            if decision is None:
                found = self._conn.execute(
                    "SELECT row, write, author, action, at, max(seq) FROM (SELECT CASE WHEN \"table\" = 'comments' "
                    f"THEN {of_comment} ELSE record END AS row, write, author, action, at, seq FROM log "
                    "WHERE local = 1 AND \"table\" IN ('decisions', 'comments')) WHERE row IS NOT NULL GROUP BY row"
                ).fetchall()
            else:
                # One row's, by the log's indexes (of records; of the decision a comment's entry names).
                found = [
                    *self._conn.execute(
                        "SELECT record, write, author, action, at, seq FROM log WHERE record = ? AND local = 1 "
                        "AND \"table\" = 'decisions' ORDER BY seq DESC LIMIT 1",
                        (decision,),
                    ),
                    *self._conn.execute(
                        f"SELECT {of_comment}, write, author, action, at, seq FROM log WHERE \"table\" = 'comments' "
                        f"AND {of_comment} = ? AND local = 1 ORDER BY seq DESC LIMIT 1",
                        (decision,),
                    ),
                ]
                found = sorted(found, key=lambda r: r[5])[-1:]
        return {r[0]: RowWrite(r[1], r[2], r[3], r[4]) for r in found}

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

    def deciders(self, record: str | None = None) -> dict[str, tuple[str, str]]:
        """Per decision id (or of the one named), who last set its status and when (UTC).

        A comment or an assignment writes the decision too, so the last writer is
        not who decided: this is the last log entry that set the status (a status
        command, even one that kept it, or a write that changed it: an undo, an import).
        """
        changed = (
            "\"table\" = 'decisions' AND (action = 'status' OR json_extract(after, '$.status') "
            "IS NOT coalesce(json_extract(before, '$.status'), 'open'))"
        )
        where, params = (f"{changed} AND record = ?", (record,)) if record is not None else (changed, ())
        with self._guard():
            found = self._conn.execute(
                f"SELECT record, author, at FROM log WHERE seq IN (SELECT max(seq) FROM log WHERE {where} "
                "GROUP BY record)",
                params,
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
        found = [columns.record("corrections", r) for r in self._rows("corrections", f"{where} ORDER BY created, id")]
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

    def export_log_rows(self) -> list[dict[str, Any]]:
        """The audit log as ``review export`` writes it: each entry's fields but its local number."""
        return [{k: v for k, v in e.as_dict().items() if k != "seq"} for e in self.log()]
