"""Exports and imports of the review store: JSONL to merge and back up, CSV, Markdown minutes.

JSONL: a header line (``{"type": "lawdiff-review", "schema": N, ...}``), then
one record a line (meetings, decisions, comments, corrections, then the
audit log), each with its ``type`` and the fields of its row.  Importing one
into another store merges it (:meth:`lawdiff.review.store.Store.merge`):
records keep their ids, so importing the same file twice adds nothing.

Markdown: the minutes (:mod:`lawdiff.review.minutes`), decisions and their threads per pair and
article in article order, each with its change as decided on (old and new wording, the difference
``~~struck~~`` and ``**bold**`` in GitHub-flavoured Markdown, and its significance flags).
"""

from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lawdiff import __version__
from lawdiff.errors import InputError, UsageError
from lawdiff.i18n import N_
from lawdiff.i18n import gettext as _
from lawdiff.review import columns
from lawdiff.review.ids import resolve_record, short
from lawdiff.review.merging import MergeResult
from lawdiff.review.minutes import gather, in_order, markdown, threads
from lawdiff.review.schema import SCHEMA_VERSION
from lawdiff.review.store import Store
from lawdiff.review.values import Comment, Decision, Meeting, as_row

HEADER_TYPE = "lawdiff-review"
# The record types of a JSONL line and their tables, in the order written
# (a comment's decision and a decision's meeting come before it).
TYPES = {"meeting": "meetings", "decision": "decisions", "comment": "comments", "correction": "corrections"}
_LOG_FIELDS = ("id", "write", "author", "at", "action", "table", "record", "meeting", "before", "after", "undoes")


@dataclass(frozen=True, slots=True)
class Selection:
    """The records an export holds."""

    meetings: tuple[Meeting, ...]
    decisions: tuple[Decision, ...]
    comments: tuple[Comment, ...]
    meeting: Meeting | None = None


def find_meeting(store: Store, name: str) -> Meeting:
    """A meeting by id prefix or by its date (when one meeting has that date)."""
    meetings = store.meetings()
    on_date = [m for m in meetings if m.date == name.strip()]
    if len(on_date) == 1:
        return on_date[0]
    if len(on_date) > 1:
        listed = ", ".join(f"{short(m.id)} (started {m.started[11:16]} UTC)" for m in on_date)
        raise UsageError(
            _("several meetings on {name}: {listed}").format(name=name, listed=listed), fix=_("give the meeting's id")
        )
    if not meetings:
        raise UsageError(
            _("no meeting {name!r}: the store has no meetings").format(name=name),
            fix=_("start one: lawdiff review meeting start"),
        )
    try:
        found = resolve_record(store, "meetings", name, _("meeting"))
    except UsageError as exc:
        listed = ", ".join(f"{short(m.id)} ({m.date})" for m in meetings[-12:])
        raise UsageError(exc.what, fix=_("name one of: {listed}").format(listed=listed)) from None
    return next(m for m in meetings if m.id == found)


def select(store: Store, meeting: str = "", since: str = "") -> Selection:
    """The decisions and comments of one meeting, or changed since a date (UTC), or all."""
    decisions = store.decisions()
    comments = store.comments(include_deleted=True)
    meetings = store.meetings()
    chosen = None
    if meeting:
        chosen = find_meeting(store, meeting)
        comments = [c for c in comments if c.meeting == chosen.id]
        ids = {c.decision for c in comments}
        decisions = [d for d in decisions if d.meeting == chosen.id or d.id in ids]
        meetings = [chosen]
    if since:
        comments = [c for c in comments if c.updated >= since]
        ids = {c.decision for c in comments}
        decisions = [d for d in decisions if d.updated >= since or d.id in ids]
        wanted = {d.meeting for d in decisions} | {c.meeting for c in comments}
        meetings = [m for m in meetings if m.updated >= since or m.id in wanted]
    return Selection(tuple(meetings), tuple(decisions), tuple(comments), chosen)


# ---------------------------------------------------------------------------
# JSONL


def jsonl(store: Store, selection: Selection, with_log: bool) -> str:
    """The records as JSON lines, the header first; the log too when the whole store is exported."""
    lines = [
        _line({"type": HEADER_TYPE, "schema": SCHEMA_VERSION, "lawdiff": __version__}),
    ]
    lines += [_line({"type": "meeting", **as_row(m)}) for m in selection.meetings]
    lines += [_line({"type": "decision", **as_row(d)}) for d in selection.decisions]
    lines += [_line({"type": "comment", **as_row(c)}) for c in selection.comments]
    if with_log:
        lines += [_line({"type": "correction", **as_row(c)}) for c in store.corrections(include_removed=True)]
        lines += [_line({"type": "log", **e}) for e in store.export_log_rows()]
    return "\n".join(lines) + "\n"


def _line(obj: dict[str, Any]) -> str:
    return json.dumps(obj, ensure_ascii=False, sort_keys=False, separators=(",", ":"))


def read_jsonl(path: Path) -> tuple[list[tuple[str, dict[str, Any]]], list[dict[str, Any]]]:
    """The records and log entries of an export, checked line by line."""
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise InputError(
            _("is not a lawdiff review export (not UTF-8 text)"), file=str(path), fix=_(_EXPORT_FIX)
        ) from None
    records: list[tuple[str, dict[str, Any]]] = []
    log: list[dict[str, Any]] = []
    header = False
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            raise InputError(
                _("not JSON ({msg})").format(msg=exc.msg),
                file=str(path),
                place=_("line {n}").format(n=n),
                fix=_(_EXPORT_FIX),
            ) from None
        if not isinstance(obj, dict):
            raise InputError(
                _("a line is not a JSON object"), file=str(path), place=_("line {n}").format(n=n), fix=_(_EXPORT_FIX)
            )
        kind = obj.pop("type", None)
        if not header:
            if kind != HEADER_TYPE:
                raise InputError(
                    _("is not a lawdiff review export (no lawdiff-review header line)"),
                    file=str(path),
                    fix=_(_EXPORT_FIX),
                )
            schema = obj.get("schema")
            if not isinstance(schema, int) or schema > SCHEMA_VERSION:
                raise InputError(
                    _(
                        "the export is of store schema {schema!r}; this lawdiff {version} knows up to {SCHEMA_VERSION}"
                    ).format(schema=schema, version=__version__, SCHEMA_VERSION=SCHEMA_VERSION),
                    file=str(path),
                    fix=_("upgrade lawdiff to import it"),
                )
            header = True
            continue
        try:
            if kind == "log":
                log.append(_check_log(obj))
            elif kind in TYPES:
                records.append((TYPES[kind], columns.check_row(TYPES[kind], obj)))
            else:
                raise ValueError(f"unknown record type {kind!r}")
        except ValueError as exc:
            raise InputError(str(exc), file=str(path), place=_("line {n}").format(n=n), fix=_(_EXPORT_FIX)) from None
    if not header:
        raise InputError(_("is empty, not a lawdiff review export"), file=str(path), fix=_(_EXPORT_FIX))
    order = list(TYPES.values())
    records.sort(key=lambda r: order.index(r[0]))  # a stable sort: lines keep their order within a table
    return records, log


_EXPORT_FIX = N_("import a file written by: lawdiff review export --format jsonl")


def _check_log(obj: dict[str, Any]) -> dict[str, Any]:
    missing = [f for f in _LOG_FIELDS if f not in obj]
    if missing:
        raise ValueError(f"a log entry lacks {', '.join(missing)}")
    for f in _LOG_FIELDS:
        value = obj[f]
        if f in ("before", "after"):
            if value is not None and not isinstance(value, dict):
                raise ValueError(f"log field {f!r} is not an object")
        elif not isinstance(value, str):
            raise ValueError(f"log field {f!r} is not text")
    if obj["table"] not in TYPES.values():
        raise ValueError(f"log entry of an unknown table {obj['table']!r}")
    return {f: obj[f] for f in _LOG_FIELDS}


def import_file(store: Store, path: Path, author: str) -> MergeResult:
    records, log = read_jsonl(path)
    try:
        return store.merge(records, log, author)
    except InputError as exc:
        if "FOREIGN KEY" in exc.what:
            raise InputError(
                _("a comment's decision or a decision's meeting is neither in the file nor in the store"),
                file=str(path),
                fix=_("import the whole export (without --meeting or --since) first"),
            ) from None
        raise


# ---------------------------------------------------------------------------
# CSV and Markdown

CSV_COLUMNS = (
    "id",
    "old_edition",
    "new_edition",
    "article",
    "aspect",
    "kind",
    "old",
    "new",
    "old_text",
    "new_text",
    "status",
    "assignee",
    "meeting",
    "author",
    "updated",
    "comments",
)


def as_csv(selection: Selection) -> str:
    """One row per decision, its thread in the last column, for spreadsheets."""
    thread_of = threads(selection.comments)
    meetings = {m.id: m.date for m in selection.meetings}
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(CSV_COLUMNS)
    for d in in_order(selection.decisions):
        thread = "\n".join(
            f"{c.author} ({c.created[:16].replace('T', ' ')} UTC): {c.text}" for c in thread_of.get(d.id, ())
        )
        w.writerow(
            [
                d.id,
                d.old_edition,
                d.new_edition,
                d.article,
                d.aspect,
                d.kind,
                " ".join(d.old),
                " ".join(d.new),
                "\n".join(d.old_texts),
                "\n".join(d.new_texts),
                d.status.value,
                d.assignee,
                meetings.get(d.meeting, d.meeting),
                d.author,
                d.updated,
                thread,
            ]
        )
    return buf.getvalue()


def minutes(selection: Selection) -> str:
    """The minutes in GitHub-flavoured Markdown (:func:`lawdiff.review.minutes.markdown`)."""
    return markdown(gather(selection.meeting, selection.decisions, selection.comments))


def export(store: Store, fmt: str, meeting: str = "", since: str = "") -> str:
    """The export in ``fmt`` (jsonl, csv or md)."""
    if since:
        check_date(since)
    selection = select(store, meeting, since)
    if fmt == "jsonl":
        return jsonl(store, selection, with_log=not meeting and not since)
    if fmt == "csv":
        return as_csv(selection)
    if fmt == "md":
        return minutes(selection)
    raise UsageError(_("unknown export format {fmt!r}").format(fmt=fmt), fix=_("use jsonl, csv or md"))


def check_date(value: str) -> None:
    """Refuse a ``--since`` that is not a date (YYYY-MM-DD)."""
    from datetime import date

    try:
        date.fromisoformat(value[:10])
    except ValueError:
        raise UsageError(
            _("--since {value!r} is not a date").format(value=value), fix=_("write YYYY-MM-DD, e.g. --since 2024-05-01")
        ) from None
