"""What ``lawdiff review list`` and ``review log`` print: text, JSON, CSV.

Text from people (comments, names) is drawn as it is: the terminal shows its
control characters (escape sequences, bidirectional overrides) as a visible
``\\xNN`` / ``\\u202e`` where it is printed (:mod:`lawdiff.cli.terminal`), and a
file written with ``-o`` keeps them.  HTML escaping is the HTML renderers' job.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from lawdiff import jsontext, marks
from lawdiff.review.ids import short
from lawdiff.review.values import Comment, Correction, Decision, LogEntry, Status
from lawdiff.review.view import Entry, ReviewView, State

if TYPE_CHECKING:
    from lawdiff.diff.vocabulary import Change, Comparison, Piece


def clean(text: str) -> str:
    """Text from people with its hidden characters shown as escapes (:mod:`lawdiff.marks`), for the outputs
    that show them so: the report's review page and the Markdown minutes."""
    return marks.escape(text)


def marked(pieces: Iterable[Piece]) -> str:
    """A word difference inline, as ``lawdiff compare`` prints it: ``[-deleted-]{+inserted+}``."""
    out = []
    for p in pieces:
        if p.op.value == "delete":
            out.append(f"[-{p.text}-]")
        elif p.op.value == "insert":
            out.append(f"{{+{p.text}+}}")
        else:
            out.append(p.text)
    return "".join(out)


@dataclass(frozen=True, slots=True)
class Item:
    """One change listed, with its review."""

    comparison: Comparison
    change: Change
    entry: Entry


def select(
    view: ReviewView,
    comparisons: Iterable[Comparison],
    status: Status | None = None,
    scopes: tuple[str, ...] = (),
    outdated: bool = False,
) -> list[Item]:
    """The changes ``review list`` shows: differences and decided ones, filtered; ``scopes``: the clauses
    ``--article`` names (:func:`lawdiff.diff.scopes`), a change touching one of them or what is under it."""
    from lawdiff.diff import within

    out: list[Item] = []
    for comp in comparisons:
        for ch in comp.changes:
            entry = view.entry(ch.id)
            if not (ch.is_difference or entry.decision is not None):
                continue
            if status is not None and entry.status is not status:
                continue
            if outdated and entry.state is not State.OUTDATED:
                continue
            if not within(ch, scopes):
                continue
            out.append(Item(comp, ch, entry))
    return out


def _where(old: Sequence[str], new: Sequence[str]) -> str:
    if old and new:
        return ", ".join(old) if tuple(old) == tuple(new) else f"{', '.join(old)} -> {', '.join(new)}"
    return ", ".join(old or new)


def _when(at: str) -> str:
    """``2024-05-14T10:02:03.123456Z`` -> ``2024-05-14 10:02 UTC``."""
    return f"{at[:10]} {at[11:16]} UTC" if len(at) >= 16 else at


def _comment_lines(c: Comment, pad: str) -> list[str]:
    edited = f", edited {_when(c.edited)}" if c.edited else ""
    body = c.text.split("\n")
    lines = [f"{pad}[{short(c.id)}] {c.author}, {_when(c.created)}{edited}: {body[0]}"]
    lines.extend(f"{pad}  {line}" for line in body[1:])
    return lines


def _texts_lines(label: str, edition: str, addresses: Sequence[str], texts: Sequence[str], pad: str) -> list[str]:
    out = []
    for a, t in zip(addresses, texts, strict=False):
        out.append(f"{pad}{label} {edition}:{a}: {t}")
    return out


def text(view: ReviewView, items: Sequence[Item]) -> str:
    """``review list``: per pair and article, each change with its status, thread and any outdated decision."""
    from lawdiff.diff import word_diff

    lines: list[str] = []
    current_pair: tuple[str, str] | None = None
    current_article = None
    for item in items:
        comp, ch, entry = item.comparison, item.change, item.entry
        if (comp.old, comp.new) != current_pair:
            current_pair = (comp.old, comp.new)
            current_article = None
            chosen = [i for i in items if (i.comparison.old, i.comparison.new) == current_pair]
            if lines:
                lines.append("")
            lines.append(f"{comp.old} -> {comp.new}: {_tally(i.entry for i in chosen)}")
        if ch.article != current_article:
            current_article = ch.article
            lines.append(f"Article {ch.article}" if ch.article[:1].isdigit() else ch.article)
        flags = []
        if ch.aspect.value == "title":
            flags.append("heading")
        if not ch.counterpart_in_corpus:
            # Added or removed only as far as the corpora go: the other edition's corpus lacks the article.
            flags.append(f"not in the {comp.old if not ch.old else comp.new} corpus")
        if entry.assignee:
            flags.append(f"assigned to {entry.assignee}")
        if entry.state is State.OUTDATED:
            flags.append("OUTDATED")
        tail = f"  ({'; '.join(flags)})" if flags else ""
        lines.append(f"  {short(ch.id)}  {entry.status.value:15} {ch.kind.value:9} {_where(ch.old, ch.new)}{tail}")
        d = entry.decision
        if entry.state is State.OUTDATED and d is not None:
            lines.append(f"      {d.status.value} was decided on an earlier text ({short(d.id)}, {_when(d.updated)}):")
            if d.old_texts != ch.old_texts:
                lines.extend(_texts_lines("made on", comp.old, d.old, d.old_texts, "        "))
                lines.extend(_texts_lines("now    ", comp.old, ch.old, ch.old_texts, "        "))
            if d.new_texts != ch.new_texts:
                lines.extend(_texts_lines("made on", comp.new, d.new, d.new_texts, "        "))
                lines.extend(_texts_lines("now    ", comp.new, ch.new, ch.new_texts, "        "))
                since = word_diff("\n".join(d.new_texts), "\n".join(ch.new_texts))
                lines.append(f"        changed since: {marked(since)}")
        for c in entry.comments:
            lines.extend(_comment_lines(c, "      "))
        for e in entry.earlier:
            lines.append(f"      earlier: {e.status.value} on {short(e.id)} ({_when(e.updated)}, by {e.author})")
    lines.extend(_footer(view))
    if not items:
        lines.insert(0, "no changes listed")
    return "\n".join(lines).lstrip("\n") + "\n"


def _tally(entries: Iterable[Entry]) -> str:
    counts: dict[str, int] = {}
    total = outdated = 0
    for e in entries:
        total += 1
        counts[e.status.value] = counts.get(e.status.value, 0) + 1
        outdated += e.state is State.OUTDATED
    parts = [f"{counts[s.value]} {s.value}" for s in Status if counts.get(s.value)]
    tally = f"{total} change(s) listed: {', '.join(parts)}"
    return tally + (f"; {outdated} outdated" if outdated else "")


def _decision_line(d: Decision, why: str) -> str:
    return (
        f"  {short(d.id)}  {d.status.value:15} {d.old_edition} -> {d.new_edition} {d.kind} "
        f"{_where(d.old, d.new)}  ({why}; by {d.author}, {_when(d.updated)})"
    )


def _footer(view: ReviewView) -> list[str]:
    lines: list[str] = []
    if view.orphaned:
        lines += ["", f"{len(view.orphaned)} orphaned decision(s): their clauses are no longer in the run"]
        lines += [_decision_line(d, "orphaned") for d in view.orphaned]
    if view.not_compared:
        lines += ["", f"{len(view.not_compared)} decision(s) on pairs not compared in this run"]
        lines += [_decision_line(d, "not compared") for d in view.not_compared]
    if view.elsewhere:
        total = sum(n for _, n in view.elsewhere)
        lines += [
            "",
            f"{total} decision(s) on other pairs, not listed with --pair (review list without --pair lists them):",
        ]
        lines += [f"  {old} -> {new}: {n}" for (old, new), n in view.elsewhere]
    if view.corrections:
        lines += ["", f"{len(view.corrections)} hand correction(s) of the alignment"]
        lines += [_correction_line(c) for c in view.corrections]
    if view.stale_corrections:
        lines += ["", f"{len(view.stale_corrections)} correction(s) naming clauses that no longer exist"]
        lines += [f"{_correction_line(s.correction)}: missing {', '.join(s.missing)}" for s in view.stale_corrections]
    return lines


def _correction_line(c: Correction) -> str:
    old = ", ".join(f"{c.old_edition}:{a}" for a in c.old)
    new = ", ".join(f"{c.new_edition}:{a}" for a in c.new)
    verb = "=" if c.kind.value == "pin" else "!="
    return f"  {short(c.id)}  {c.kind.value:6} {old} {verb} {new}  (by {c.author}, {_when(c.created)})"


def _decision_json(d: Decision | None) -> dict[str, Any] | None:
    if d is None:
        return None
    return {
        "id": d.id,
        "status": d.status.value,
        "assignee": d.assignee,
        "old": list(d.old),
        "new": list(d.new),
        "old_texts": list(d.old_texts),
        "new_texts": list(d.new_texts),
        "meeting": d.meeting,
        "author": d.author,
        "updated": d.updated,
    }


def _comment_json(c: Comment) -> dict[str, Any]:
    return {"id": c.id, "author": c.author, "created": c.created, "edited": c.edited, "text": c.text}


def as_json(view: ReviewView, items: Sequence[Item]) -> str:
    changes = [
        {
            "id": i.change.id,
            "pair": [i.comparison.old, i.comparison.new],
            "article": i.change.article,
            "aspect": i.change.aspect.value,
            "kind": i.change.kind.value,
            "counterpart_in_corpus": i.change.counterpart_in_corpus,
            "old": list(i.change.old),
            "new": list(i.change.new),
            "status": i.entry.status.value,
            "state": i.entry.state.value,
            "assignee": i.entry.assignee,
            "decision": _decision_json(i.entry.decision),
            "comments": [_comment_json(c) for c in i.entry.comments],
            "earlier": [_decision_json(d) for d in i.entry.earlier],
        }
        for i in items
    ]

    def decisions(ds: Sequence[Decision]) -> list[dict[str, Any]]:
        return [
            {
                **(_decision_json(d) or {}),
                "pair": [d.old_edition, d.new_edition],
                "comments": [_comment_json(c) for c in view.comments.get(d.id, ())],
            }
            for d in ds
        ]

    doc = {
        "pairs": [list(p) for p in view.pairs],
        "changes": changes,
        "orphaned": decisions(view.orphaned),
        "not_compared": decisions(view.not_compared),
        # With --pair: the other pairs' decisions, counted and not read.
        "not_compared_counts": [{"pair": list(pair), "decisions": n} for pair, n in view.elsewhere],
        "corrections": [_correction_json(c) for c in view.corrections],
        "stale_corrections": [
            {**_correction_json(s.correction), "missing": list(s.missing)} for s in view.stale_corrections
        ],
    }
    return jsontext.dumps(doc) + "\n"


def _correction_json(c: Correction) -> dict[str, Any]:
    return {
        "id": c.id,
        "kind": c.kind.value,
        "pair": [c.old_edition, c.new_edition],
        "old": list(c.old),
        "new": list(c.new),
        "author": c.author,
        "created": c.created,
    }


LIST_CSV_COLUMNS = (
    "id",
    "old_edition",
    "new_edition",
    "article",
    "aspect",
    "kind",
    "old",
    "new",
    "status",
    "state",
    "assignee",
    "comments",
    "last_comment",
)


def as_csv(items: Sequence[Item]) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(LIST_CSV_COLUMNS)
    for i in items:
        last = i.entry.comments[-1] if i.entry.comments else None
        w.writerow(
            [
                i.change.id,
                i.comparison.old,
                i.comparison.new,
                i.change.article,
                i.change.aspect.value,
                i.change.kind.value,
                " ".join(i.change.old),
                " ".join(i.change.new),
                i.entry.status.value,
                i.entry.state.value,
                i.entry.assignee,
                len(i.entry.comments),
                f"{last.author}: {last.text}" if last else "",
            ]
        )
    return buf.getvalue()


# ---------------------------------------------------------------------------
# The log


def log_text(entries: Sequence[LogEntry]) -> str:
    if not entries:
        return "the log is empty\n"
    lines = []
    for e in entries:
        what = _log_summary(e)
        meeting = f" [meeting {short(e.meeting)}]" if e.meeting else ""
        undoes = f" (undoes {short(e.undoes)})" if e.undoes else ""
        lines.append(
            f"{e.seq:5}  {_when(e.at)}  {e.author}  {e.action}{undoes} {e.table[:-1]} {short(e.record)}"
            f"{meeting}: {what}"
        )
    return "\n".join(lines) + "\n"


def _log_summary(e: LogEntry) -> str:
    if e.before is None and e.after is None:
        return ""
    if e.before is None:
        assert e.after is not None
        return "created " + _fields(e.after, e.table)
    if e.after is None:
        return "removed " + _fields(e.before, e.table)
    changed = [k for k in e.after if k != "updated" and e.after.get(k) != e.before.get(k)]
    return ", ".join(f"{k}: {_value(e.before.get(k))} -> {_value(e.after.get(k))}" for k in changed) or "no change"


def _fields(row: dict[str, Any], table: str) -> str:
    keys = {
        "decisions": ("status", "assignee"),
        "comments": ("text",),
        "meetings": ("date", "attendees"),
        "corrections": ("kind", "old", "new"),
    }.get(table, ())
    return ", ".join(f"{k}: {_value(row.get(k))}" for k in keys)


def _value(v: Any) -> str:
    if isinstance(v, list):
        return "[" + ", ".join(str(x) for x in v) + "]"
    if isinstance(v, str):
        return repr(v) if len(v) < 80 else repr(v[:77] + "...")
    return str(v)


def log_json(entries: Sequence[LogEntry]) -> str:
    doc = [e.as_dict() for e in entries]
    return jsontext.dumps(doc) + "\n"
