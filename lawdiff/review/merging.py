"""Merging another store's records and log into this one (``lawdiff review import``).

A record keeps its id, so merging the same records again changes nothing.
Where both stores hold a record in different versions, the later by
``updated`` (UTC) wins and the other is logged ("import-lost"), never
silently dropped.  The transaction is the store's
(:meth:`lawdiff.review.store.Store.merge`); this module decides, record by
record, what it writes.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from lawdiff.i18n import gettext as _
from lawdiff.i18n import terms
from lawdiff.review import columns
from lawdiff.review.journal import Write
from lawdiff.review.schema import TABLES


@dataclass(frozen=True, slots=True)
class MergeResult:
    """What an import did: records added, replaced by a later version, kept (ours was later), log entries added."""

    added: int = 0
    replaced: int = 0
    kept: int = 0
    log_added: int = 0
    unchanged: int = 0
    conflicts: tuple[str, ...] = field(default=())


def merge_into(w: Write, records: Iterable[tuple[str, dict[str, Any]]], log: Iterable[dict[str, Any]]) -> MergeResult:
    """Write another store's records (checked rows) and log entries that this one lacks, inside ``w``."""
    added = replaced = kept = unchanged = log_added = 0
    conflicts: list[str] = []
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
        elif (row["updated"], columns.dumps(row)) > (current["updated"], columns.dumps(current)):
            w.put(table, row, "import")
            replaced += 1
            conflicts.append(
                _("{record} {id}: kept the imported version of {when}").format(
                    record=terms.record(table), id=row["id"][:10], when=row["updated"]
                )
            )
        else:
            kept += 1
            if not w.known_version(row["id"], row):
                w.entry("import-lost", table, row["id"], row, current)
                conflicts.append(
                    _("{record} {id}: kept this store's version of {when}").format(
                        record=terms.record(table), id=row["id"][:10], when=current["updated"]
                    )
                )
    w.insert_many(fresh, "import")
    have = {r[0] for r in w.conn.execute("SELECT id FROM log")}
    for entry in log:
        if entry["id"] not in have:
            w.foreign_entry(entry)
            have.add(entry["id"])
            log_added += 1
    return MergeResult(added, replaced, kept, log_added, unchanged, tuple(conflicts))
