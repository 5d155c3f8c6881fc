"""The records of the review store: decisions, comments, meetings, corrections, the log.

Each record is a frozen value read from one row; the store writes rows as
plain dicts (:func:`as_row`), which is also what the audit log keeps as
"before" and "after" and what an export holds, one JSON object a line.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, fields
from typing import Any


class Status(enum.Enum):
    """What the committee decided about a change."""

    OPEN = "open"
    ACCEPTED = "accepted"
    QUERY = "query"
    TRANSLATION_FIX = "translation-fix"
    REJECTED = "rejected"


STATUSES = tuple(s.value for s in Status)


@dataclass(frozen=True, slots=True)
class Decision:
    """The committee's record on one change: its status, assignee and thread.

    id: the change id it was made on (40 hex digits, see
        :func:`lawdiff.diff.vocabulary.change_id`); one decision per change.
    old_edition, new_edition: the pair as the comparison names it.
    aspect, kind, article: of the change it was made on.
    old, new: the change's addresses on each side.
    old_hash, new_hash: SHA-256 of the old and new texts (:func:`texts_hash`).
    old_texts, new_texts: the texts it was made on, kept so that a decision
        that no longer fits the draft is shown beside the current wording.
    status, assignee: the decision itself ("" for nobody).
    meeting: the meeting during which its status was last set ("" for none).
    lawdiff_version, thresholds: of the run the change came from.
    author, created, updated: who made it, when (UTC, ISO 8601), when it last
        changed (an import keeps the later of two versions by this).
    """

    id: str
    old_edition: str
    new_edition: str
    aspect: str
    kind: str
    article: str
    old: tuple[str, ...]
    new: tuple[str, ...]
    old_hash: str
    new_hash: str
    old_texts: tuple[str, ...]
    new_texts: tuple[str, ...]
    status: Status
    assignee: str
    meeting: str
    lawdiff_version: str
    thresholds: tuple[tuple[str, float], ...]
    author: str
    created: str
    updated: str

    @property
    def pair(self) -> tuple[str, str]:
        return (self.old_edition, self.new_edition)


@dataclass(frozen=True, slots=True)
class Comment:
    """One comment of a decision's thread.

    decision: the decision (change id) it belongs to.
    deleted: deleted by its author; the text is kept in the audit log only.
    edited: the UTC time of the last edit, or "".
    question: "" for a comment; "open" for a question a member asked on a
        decided change, until a chair confirms or changes the decision
        ("answered").
    """

    id: str
    decision: str
    author: str
    created: str
    updated: str
    text: str
    deleted: bool
    edited: str
    meeting: str
    question: str = ""


@dataclass(frozen=True, slots=True)
class Meeting:
    """A meeting of the committee: decisions made while it is open carry its id."""

    id: str
    date: str
    attendees: tuple[str, ...]
    started: str
    ended: str
    author: str
    updated: str


class CorrectionKind(enum.Enum):
    PIN = "pin"
    FORBID = "forbid"


@dataclass(frozen=True, slots=True)
class Correction:
    """A hand correction of the alignment as stored.

    The aligner takes them as :class:`lawdiff.align.links.Corrections`.

    removed: set by ``review unpin``; a removed correction is kept (and
        exported) so that the log and merges know it existed.
    """

    id: str
    kind: CorrectionKind
    old_edition: str
    new_edition: str
    old: tuple[str, ...]
    new: tuple[str, ...]
    author: str
    created: str
    updated: str
    removed: bool

    @property
    def pair(self) -> tuple[str, str]:
        return (self.old_edition, self.new_edition)


@dataclass(frozen=True, slots=True)
class LogEntry:
    """One write, as the append-only audit log keeps it.

    seq: its place in this store's log (another store's entries get new
        numbers when imported; ``id`` is the same everywhere).
    write: the id of the command that made it (one command may write several
        records; ``review undo`` takes back a whole command).
    action: what was done ("status", "comment", "assign", "pin", ...).
    table, record: the record written.
    before, after: the record's row before and after (None where it did not
        or no longer exists).
    undoes: for an undo, the write it took back.
    """

    seq: int
    id: str
    write: str
    author: str
    at: str
    action: str
    table: str
    record: str
    meeting: str
    before: dict[str, Any] | None
    after: dict[str, Any] | None
    undoes: str

    def as_dict(self) -> dict[str, Any]:
        """Its fields by name, in order (``seq`` first): the log as ``review log --format json`` and
        ``review export`` write it."""
        return {f.name: getattr(self, f.name) for f in fields(self)}


Record = Decision | Comment | Meeting | Correction


def as_row(record: Record) -> dict[str, Any]:
    """A record as the plain dict that the log and the exports hold."""
    out: dict[str, Any] = {}
    for f in fields(record):
        value = getattr(record, f.name)
        if isinstance(value, enum.Enum):
            value = value.value
        elif f.name == "thresholds":
            value = dict(value)
        elif isinstance(value, tuple):
            value = list(value)
        out[f.name] = value
    return out
