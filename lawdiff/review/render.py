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
from lawdiff.i18n import format_stamp, terms
from lawdiff.i18n import gettext as _
from lawdiff.review.ids import short
from lawdiff.review.values import Comment, Correction, Decision, LogEntry, Status
from lawdiff.review.view import Entry, ReviewView, State

if TYPE_CHECKING:
    from lawdiff.diff.comparison import Comparison
    from lawdiff.diff.vocabulary import Change, Piece


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
    """``2024-05-14T10:02:03.123456Z`` -> ``2024-05-14 10:02 UTC`` (in Dutch ``14 mei 2024 10:02 UTC``)."""
    return f"{format_stamp(at)} UTC" if len(at) >= 16 else at


def _comment_lines(c: Comment, pad: str) -> list[str]:
    edited = _(", edited {when}").format(when=_when(c.edited)) if c.edited else ""
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
    lines: list[str] = []
    current_pair: tuple[str, str] | None = None
    current_article = None
    for item in items:
        comp, ch = item.comparison, item.change
        if (comp.old, comp.new) != current_pair:
            current_pair = (comp.old, comp.new)
            current_article = None
            chosen = [i for i in items if (i.comparison.old, i.comparison.new) == current_pair]
            if lines:
                lines.append("")
            lines.append(f"{comp.old} -> {comp.new}: {_tally(i.entry for i in chosen)}")
        if ch.article != current_article:
            current_article = ch.article
            lines.append(_("Article {article}").format(article=ch.article) if ch.article[:1].isdigit() else ch.article)
        lines.extend(_item_lines(item))
    lines.extend(_footer(view))
    if not items:
        lines.insert(0, _("no changes listed"))
    return "\n".join(lines).lstrip("\n") + "\n"


def _item_lines(item: Item) -> list[str]:
    """One change of ``review list``: its id, status, kind and clauses, then an outdated decision with the text
    it was made on, the thread, and the decisions made before."""
    comp, ch, entry = item.comparison, item.change, item.entry
    flags = []
    if ch.aspect.value == "title":
        flags.append(terms.note("heading"))
    if not ch.counterpart_in_corpus:
        # Added or removed only as far as the corpora go: the other edition's corpus lacks the article.
        flags.append(_("not in the {edition} corpus").format(edition=comp.old if not ch.old else comp.new))
    if entry.assignee:
        flags.append(_("assigned to {name}").format(name=entry.assignee))
    if entry.state is State.OUTDATED:
        flags.append(_("OUTDATED"))
    tail = f"  ({'; '.join(flags)})" if flags else ""
    status = f"{terms.status(entry.status.value):{_status_width()}}"
    kind = f"{terms.kind(ch.kind.value):{_kind_width()}}"
    lines = [f"  {short(ch.id)}  {status} {kind} {_where(ch.old, ch.new)}{tail}"]
    d = entry.decision
    if entry.state is State.OUTDATED and d is not None:
        lines.append(
            "      "
            + _("{status} was decided on an earlier text ({id}, {when}):").format(
                status=terms.status(d.status.value), id=short(d.id), when=_when(d.updated)
            )
        )
        made_on, now = _("made on"), _("now")
        width = max(len(made_on), len(now))
        made_on, now = made_on.ljust(width), now.ljust(width)
        if d.old_texts != ch.old_texts:
            lines.extend(_texts_lines(made_on, comp.old, d.old, d.old_texts, "        "))
            lines.extend(_texts_lines(now, comp.old, ch.old, ch.old_texts, "        "))
            if entry.since[0]:
                lines.append("        " + _("changed since: {difference}").format(difference=marked(entry.since[0])))
        if d.new_texts != ch.new_texts:
            lines.extend(_texts_lines(made_on, comp.new, d.new, d.new_texts, "        "))
            lines.extend(_texts_lines(now, comp.new, ch.new, ch.new_texts, "        "))
            if entry.since[1]:
                lines.append("        " + _("changed since: {difference}").format(difference=marked(entry.since[1])))
    for c in entry.comments:
        lines.extend(_comment_lines(c, "      "))
    for e in entry.earlier:
        lines.append(
            "      "
            + _("earlier: {status} on {id} ({when}, by {author})").format(
                status=terms.status(e.status.value), id=short(e.id), when=_when(e.updated), author=e.author
            )
        )
    return lines


def _status_width() -> int:
    """The column of the statuses: as wide as the language's longest (and at least 15, as it always was)."""
    return max(15, *(len(terms.status(s.value)) for s in Status))


def _kind_width() -> int:
    """The column of the kinds of change: as wide as the language's longest word for one."""
    from lawdiff.diff.vocabulary import ChangeKind

    return max(len(terms.kind(k.value)) for k in ChangeKind)


def _tally(entries: Iterable[Entry]) -> str:
    counts: dict[str, int] = {}
    total = outdated = 0
    for e in entries:
        total += 1
        counts[e.status.value] = counts.get(e.status.value, 0) + 1
        outdated += e.state is State.OUTDATED
    parts = [f"{counts[s.value]} {terms.status(s.value)}" for s in Status if counts.get(s.value)]
    tally = _("{n} change(s) listed: {statuses}").format(n=total, statuses=", ".join(parts))
    return tally + (_("; {n} outdated").format(n=outdated) if outdated else "")


def _decision_line(d: Decision, why: str) -> str:
    by = _("{why}; by {author}, {when}").format(why=why, author=d.author, when=_when(d.updated))
    return (
        f"  {short(d.id)}  {terms.status(d.status.value):{_status_width()}} {d.old_edition} -> {d.new_edition}"
        f" {terms.kind(d.kind)} {_where(d.old, d.new)}  ({by})"
    )


def _footer(view: ReviewView) -> list[str]:
    lines: list[str] = []
    if view.orphaned:
        lines += [
            "",
            _("{n} orphaned decision(s): their clauses are no longer in the run").format(n=len(view.orphaned)),
        ]
        lines += [_decision_line(d, _("orphaned")) for d in view.orphaned]
    if view.not_compared:
        lines += ["", _("{n} decision(s) on pairs not compared in this run").format(n=len(view.not_compared))]
        lines += [_decision_line(d, _("not compared")) for d in view.not_compared]
    if view.elsewhere:
        total = sum(n for _pair, n in view.elsewhere)
        lines += [
            "",
            _("{n} decision(s) on other pairs, not listed with --pair (review list without --pair lists them):").format(
                n=total
            ),
        ]
        lines += [f"  {old} -> {new}: {n}" for (old, new), n in view.elsewhere]
    if view.corrections:
        lines += ["", _("{n} hand correction(s) of the alignment").format(n=len(view.corrections))]
        lines += [_correction_line(c) for c in view.corrections]
    if view.stale_corrections:
        lines += ["", _("{n} correction(s) naming clauses that no longer exist").format(n=len(view.stale_corrections))]
        lines += [
            _correction_line(s.correction) + ": " + _("missing {clauses}").format(clauses=", ".join(s.missing))
            for s in view.stale_corrections
        ]
    return lines


def _correction_line(c: Correction) -> str:
    old = ", ".join(f"{c.old_edition}:{a}" for a in c.old)
    new = ", ".join(f"{c.new_edition}:{a}" for a in c.new)
    verb = "=" if c.kind.value == "pin" else "!="
    width = max(6, *(len(terms.correction(k)) for k in ("pin", "forbid")))
    by = _("by {author}, {when}").format(author=c.author, when=_when(c.created))
    return f"  {short(c.id)}  {terms.correction(c.kind.value):{width}} {old} {verb} {new}  ({by})"


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
        return _("the log is empty") + "\n"
    lines = []
    for e in entries:
        what = _log_summary(e)
        meeting = " [" + _("meeting {id}").format(id=short(e.meeting)) + "]" if e.meeting else ""
        undoes = _(" (undoes {id})").format(id=short(e.undoes)) if e.undoes else ""
        lines.append(
            f"{e.seq:5}  {_when(e.at)}  {e.author}  {terms.action(e.action)}{undoes} {terms.record(e.table)}"
            f" {short(e.record)}{meeting}: {what}"
        )
    return "\n".join(lines) + "\n"


def _log_summary(e: LogEntry) -> str:
    if e.before is None and e.after is None:
        return ""
    if e.before is None:
        assert e.after is not None
        return _("created {fields}").format(fields=_fields(e.after, e.table))
    if e.after is None:
        return _("removed {fields}").format(fields=_fields(e.before, e.table))
    changed = [k for k in e.after if k != "updated" and e.after.get(k) != e.before.get(k)]
    told = ", ".join(f"{terms.field(k)}: {_value(e.before.get(k))} -> {_value(e.after.get(k))}" for k in changed)
    return told or _("no change")


def _fields(row: dict[str, Any], table: str) -> str:
    keys = {
        "decisions": ("status", "assignee"),
        "comments": ("text",),
        "meetings": ("date", "attendees"),
        "corrections": ("kind", "old", "new"),
    }.get(table, ())
    return ", ".join(f"{terms.field(k)}: {_value(row.get(k))}" for k in keys)


def _value(v: Any) -> str:
    if isinstance(v, list):
        return "[" + ", ".join(str(x) for x in v) + "]"
    if isinstance(v, str):
        return repr(v) if len(v) < 80 else repr(v[:77] + "...")
    return str(v)


def log_json(entries: Sequence[LogEntry]) -> str:
    doc = [e.as_dict() for e in entries]
    return jsontext.dumps(doc) + "\n"
