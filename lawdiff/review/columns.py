"""Rows of the store as plain dicts: checked, turned into records and into column values.

One shape serves the database, the audit log and the JSONL export: the
fields of the record (:mod:`lawdiff.review.values`), lists for tuples, a
dict for the thresholds, strings for enums.  :func:`check_row` is the one
place where a row from outside (an import) is validated.
"""

from __future__ import annotations

import json
from typing import Any

from lawdiff.review.schema import FLAG_COLUMNS, JSON_COLUMNS
from lawdiff.review.values import (
    STATUSES,
    Comment,
    Correction,
    CorrectionKind,
    Decision,
    Meeting,
    Record,
    Status,
)

QUESTIONS = ("", "open", "answered")

# What each field holds: s (text), ls (list of texts), b (flag), d (names to numbers).
_SHAPES: dict[str, dict[str, str]] = {
    "decisions": {
        "id": "s",
        "old_edition": "s",
        "new_edition": "s",
        "aspect": "s",
        "kind": "s",
        "article": "s",
        "old": "ls",
        "new": "ls",
        "old_hash": "s",
        "new_hash": "s",
        "old_texts": "ls",
        "new_texts": "ls",
        "status": "s",
        "assignee": "s",
        "meeting": "s",
        "lawdiff_version": "s",
        "thresholds": "d",
        "author": "s",
        "created": "s",
        "updated": "s",
    },
    "comments": {
        "id": "s",
        "decision": "s",
        "author": "s",
        "created": "s",
        "updated": "s",
        "text": "s",
        "deleted": "b",
        "edited": "s",
        "meeting": "s",
        "question": "s",
    },
    "meetings": {
        "id": "s",
        "date": "s",
        "attendees": "ls",
        "started": "s",
        "ended": "s",
        "author": "s",
        "updated": "s",
    },
    "corrections": {
        "id": "s",
        "kind": "s",
        "old_edition": "s",
        "new_edition": "s",
        "old": "ls",
        "new": "ls",
        "author": "s",
        "created": "s",
        "updated": "s",
        "removed": "b",
    },
}

COLUMNS = {table: tuple(shape) for table, shape in _SHAPES.items()}
# Fields added by a later schema, and their value in a row written before it (an older export).
_ADDED = {"comments": {"question": ""}}


def check_row(table: str, row: dict[str, Any]) -> dict[str, Any]:
    """The row with exactly its table's fields, each of the right shape; ValueError says what is wrong."""
    shape = _SHAPES[table]
    row = {**_ADDED.get(table, {}), **row}
    missing = [name for name in shape if name not in row]
    if missing:
        raise ValueError(f"a {table[:-1]} lacks {', '.join(missing)}")
    out: dict[str, Any] = {}
    for name, kind in shape.items():
        value = row[name]
        ok = (
            (kind == "s" and isinstance(value, str))
            or (kind == "b" and isinstance(value, bool))
            or (kind == "ls" and isinstance(value, list) and all(isinstance(v, str) for v in value))
            or (
                kind == "d"
                and isinstance(value, dict)
                and all(isinstance(v, int | float) and not isinstance(v, bool) for v in value.values())
            )
        )
        if not ok:
            raise ValueError(f"{table[:-1]} field {name!r} has the wrong type ({type(value).__name__})")
        out[name] = value
    if not out["id"]:
        raise ValueError(f"a {table[:-1]} has an empty id")
    if table == "decisions" and out["status"] not in STATUSES:
        raise ValueError(f"unknown status {out['status']!r} (valid: {', '.join(STATUSES)})")
    if table == "comments" and out["question"] not in QUESTIONS:
        raise ValueError(f"unknown question state {out['question']!r} (valid: open, answered, or empty)")
    if table == "corrections" and out["kind"] not in ("pin", "forbid"):
        raise ValueError(f"unknown correction kind {out['kind']!r}")
    return out


def to_columns(table: str, row: dict[str, Any]) -> dict[str, Any]:
    """The row as column values: JSON text for several values, 0/1 for flags."""
    out: dict[str, Any] = {}
    for name, value in row.items():
        if name in JSON_COLUMNS[table]:
            out[name] = dumps(value)
        elif name in FLAG_COLUMNS[table]:
            out[name] = int(bool(value))
        else:
            out[name] = value
    return out


def from_columns(table: str, values: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name in COLUMNS[table]:
        value = values[name]
        if name in JSON_COLUMNS[table]:
            value = json.loads(value)
        elif name in FLAG_COLUMNS[table]:
            value = bool(value)
        out[name] = value
    return out


def dumps(value: Any) -> str:
    """JSON as the store writes it: the same value gives the same text."""
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def record(table: str, row: dict[str, Any]) -> Record:
    """The record a checked row describes."""
    if table == "decisions":
        return Decision(
            id=row["id"],
            old_edition=row["old_edition"],
            new_edition=row["new_edition"],
            aspect=row["aspect"],
            kind=row["kind"],
            article=row["article"],
            old=tuple(row["old"]),
            new=tuple(row["new"]),
            old_hash=row["old_hash"],
            new_hash=row["new_hash"],
            old_texts=tuple(row["old_texts"]),
            new_texts=tuple(row["new_texts"]),
            status=Status(row["status"]),
            assignee=row["assignee"],
            meeting=row["meeting"],
            lawdiff_version=row["lawdiff_version"],
            thresholds=tuple(row["thresholds"].items()),
            author=row["author"],
            created=row["created"],
            updated=row["updated"],
        )
    if table == "comments":
        return Comment(**row)
    if table == "meetings":
        return Meeting(**{**row, "attendees": tuple(row["attendees"])})
    return Correction(
        id=row["id"],
        kind=CorrectionKind(row["kind"]),
        old_edition=row["old_edition"],
        new_edition=row["new_edition"],
        old=tuple(row["old"]),
        new=tuple(row["new"]),
        author=row["author"],
        created=row["created"],
        updated=row["updated"],
        removed=row["removed"],
    )


def quote(name: str) -> str:
    """A column's name as a statement names it, quoted: whatever the name, it is never taken for a keyword."""
    return f'"{name}"'
