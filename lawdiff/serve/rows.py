"""The review block of a change row: its status, assignee and thread, and the forms to change them.

Added to every row of a served article page through the report's row hook
(:attr:`lawdiff.report.site.Site.annotate`), built with the report's markup
builder, so a name or a comment holding ``<script>`` is text.  Every form
works without JavaScript (a POST, then a redirect back to the row's anchor)
and carries the state it was rendered with (the status, the assignee and the
texts' hashes): the server refuses a write made on a state that has changed
since (:class:`lawdiff.review.targets.Expect`).
"""

from __future__ import annotations

import itertools
import re
import threading
from collections.abc import Mapping
from dataclasses import dataclass, field

from lawdiff.align import Aspect
from lawdiff.diff.records import Change
from lawdiff.report.html.markup import Child, Markup, h
from lawdiff.report.site import Annotation, Annotator, anchor, pair_id
from lawdiff.review import Comment, Correction, CorrectionKind, Entry, ReviewView, State, Status
from lawdiff.review.reading import RowWrite
from lawdiff.review.targets import texts_hash
from lawdiff.serve.auth import TOKEN_FIELD, Action, may, status_action
from lawdiff.serve.marked import shown, who

# The forgery token's place in a page kept for many members: each member's
# page has its own token put in when it is sent (see lawdiff.serve.pages).
TOKEN_SLOT = "lawdiff-token-slot"
# Review blocks kept between store versions (a write changes one row's block).
BLOCKS_KEPT = 20_000

STATUS_BUTTONS = (
    (Status.ACCEPTED, "Accept"),
    (Status.QUERY, "Query"),
    (Status.TRANSLATION_FIX, "Translation fix"),
    (Status.REJECTED, "Reject"),
    (Status.OPEN, "Reopen"),
)


@dataclass(frozen=True, slots=True)
class RowContext:
    """What every row of one page needs besides its change.

    deciders: per decision id, who last set its status and when (:meth:`~lawdiff.review.reading.StoreReader.deciders`).
    page: the page's path (``/articles/45.html``): where a form leads back.
    discussing: the change id marked "now discussing", or "".
    meeting_open: whether a meeting is open (the chair may mark a change).
    token: the forgery token, or :data:`TOKEN_SLOT` in a page kept for many.
    blocks: review blocks made for earlier versions, by everything a block
        shows (see :func:`review_block`); None: nothing kept.
    viewer: who the page is for (their own comments get edit and delete
        forms, their own last write an undo).
    row_writes: per decision id, the last write to its row (what "Undo" takes back).
    """

    view: ReviewView
    deciders: Mapping[str, tuple[str, str]]
    chair: bool
    page: str
    discussing: str = ""
    meeting_open: bool = False
    token: str = TOKEN_SLOT
    blocks: BlockCache | None = field(default=None, compare=False)
    viewer: str = ""
    row_writes: Mapping[str, RowWrite] = field(default_factory=dict)


class BlockCache:
    """Review blocks by what they show, shared by the threads of a server."""

    def __init__(self, kept: int = BLOCKS_KEPT) -> None:
        self.kept = kept
        self._blocks: dict[tuple[object, ...], Markup] = {}
        self._lock = threading.Lock()

    def get(self, key: tuple[object, ...]) -> Markup | None:
        with self._lock:
            return self._blocks.get(key)

    def put(self, key: tuple[object, ...], block: Markup) -> None:
        with self._lock:
            if len(self._blocks) >= self.kept:
                self._blocks.clear()  # a new corpus state or a long meeting: start again
            self._blocks[key] = block


def row_anchor(ch: Change, old: str, new: str) -> str:
    """The citation anchor of a change's row: its first new clause's block (a removed clause: its old one)."""
    edition, addresses = (new, ch.new) if ch.new else (old, ch.old)
    end = "-title" if ch.aspect is Aspect.TITLE else ""
    return f"{pair_id(old, new)}-{anchor(edition, addresses[0])}{end}" if addresses else pair_id(old, new)


def when(at: str) -> str:
    """A stored UTC time as a reader reads it: ``2026-11-30 17:44 UTC``."""
    return f"{at[:16].replace('T', ' ')} UTC" if at else ""


def annotator(ctx: RowContext) -> Annotator:
    def annotate(ch: Change, old: str, new: str) -> Annotation:
        entry = ctx.view.entry(ch.id)
        classes = [f"st-{entry.status.value}"]
        if entry.state is State.OUTDATED:
            classes.append("rv-outdated")
        if ch.id == ctx.discussing:
            classes.append("discussing")
        return Annotation(tuple(classes), review_block(ch, old, new, ctx))

    return annotate


# An article page is rendered once per corpus state with a slot in every row
# (:func:`slots`), and its slots filled once per store version (:func:`fill`):
# law text is most of the work of a page, and it does not change with a write.
_SLOT = re.compile(r'<(?:(tbody class="[^"<>]*?)rvc-([0-9a-f]{40})|div data-rv="([0-9a-f]{40})"></div>)')


def slots(ch: Change, old: str, new: str) -> Annotation:
    """The row hook of a page whose review is put in later by :func:`fill`."""
    # A block like the review block it stands for, so that the line breaks
    # the builder puts around it are the same.
    return Annotation((f"rvc-{ch.id}",), h("div", {"data-rv": ch.id}))


def fill(page: str, changes: Mapping[str, tuple[Change, str, str]], ctx: RowContext) -> str:
    """A page rendered with :func:`slots`, its slots filled as :func:`annotator` would have (the same bytes).

    ``changes``: every change id on the page, with its pair's old and new edition.
    """
    annotate = annotator(ctx)
    made: dict[str, Annotation] = {}

    def note(cid: str) -> Annotation:
        found = made.get(cid)
        if found is None:
            ch, old, new = changes[cid]
            found = made[cid] = annotate(ch, old, new) or Annotation()
        return found

    def put(m: re.Match[str]) -> str:
        if m.group(3):
            return note(m.group(3)).markup or ""
        return "<" + m.group(1) + " ".join(note(m.group(2)).classes)

    return _SLOT.sub(put, page)


def review_block(ch: Change, old: str, new: str, ctx: RowContext) -> Markup:
    """The review of one change and its forms: ``div.rv``, found by the script by ``data-change``."""
    if ctx.blocks is None:
        return _review_block(ch, old, new, ctx)
    entry = ctx.view.entry(ch.id)
    key = (
        ch.id,
        ch.pinned_by,
        old,
        new,
        entry,
        ctx.deciders.get(entry.decision.id) if entry.decision else None,
        tuple(c for c in ctx.view.corrections if touches(c, ch, old, new)),
        ctx.chair,
        ctx.page,
        ch.id == ctx.discussing,
        ctx.meeting_open,
        ctx.token,
        ctx.row_writes.get(ch.id),
        # The viewer matters only where the row holds something they wrote.
        ctx.viewer if entry.comments or ch.id in ctx.row_writes else "",
    )
    found = ctx.blocks.get(key)
    if found is None:
        found = _review_block(ch, old, new, ctx)
        ctx.blocks.put(key, found)
    return found


def _review_block(ch: Change, old: str, new: str, ctx: RowContext) -> Markup:
    entry = ctx.view.entry(ch.id)
    back = f"{ctx.page}#{row_anchor(ch, old, new)}"
    hidden = _hidden(ch, old, new, back, ctx.token)
    forms = _forms(ch, old, new, ctx, entry, hidden)
    forms.append(_undo_form(ch.id, ctx, hidden))
    forms.append(h("p", {"class": "rv-next"}, h("a", {"href": f"/next?after={ch.id}"}, "Next undecided →")))
    # Every control of the row behind one disclosure that opens in place: on a phone a row is its
    # texts, its status and its thread, and the controls are one tap away.  An unchanged clause
    # (reviewed now and then, for a translation fix) says so, so that the rows that changed stand out.
    quiet = not ch.noteworthy and entry.decision is None and not entry.comments
    if quiet:
        summary = "Review this clause"
    else:
        summary = "Decide, comment, assign…" if may(ctx.chair, Action.DECIDE) else "Query, comment, assign…"
    controls = h(
        "details", {"class": "rv-controls rv-quiet" if quiet else "rv-controls"}, h("summary", None, summary), forms
    )
    return h(
        "div",
        {"class": "rv", "id": f"rv-{ch.id}", "data-change": ch.id, "data-status": entry.status.value},
        h("p", {"class": "rv-msg", "role": "status", "aria-live": "polite"}),
        _state(ch, entry, ctx),
        _corrections(ch, old, new, ctx, hidden),
        _thread(entry, ctx.viewer, hidden),
        controls,
    )


def _forms(ch: Change, old: str, new: str, ctx: RowContext, entry: Entry, hidden: list[Child]) -> list[Child]:
    """The forms this member may use on the row: status, comment and assignee; for a chair
    in a meeting, "discuss now"; for a chair, the correction of the match."""
    current = entry.status if entry.state is State.CURRENT else Status.OPEN
    assignee = entry.assignee if entry.state is State.CURRENT else ""
    forms: list[Child] = [
        _status_form(hidden, current, ctx.chair, bool(entry.open_questions)),
        _comment_form(hidden),
        _assign_form(hidden, assignee),
    ]
    if ctx.chair and ctx.meeting_open and ch.id != ctx.discussing:
        forms.append(_discuss_form(hidden))
    if may(ctx.chair, Action.CORRECT):
        forms.append(_correct_form(ch, old, new, hidden))
    return forms


def _comment_form(hidden: list[Child]) -> Markup:
    return h(
        "form",
        {"class": "rv-form rv-comment", "method": "post", "action": "/review/comment"},
        hidden,
        h(
            "label",
            None,
            h("span", {"class": "vh"}, "Comment"),
            h("textarea", {"name": "text", "rows": "2", "required": True, "placeholder": "Add a comment"}),
        ),
        h("button", {"type": "submit"}, "Comment"),
    )


def _assign_form(hidden: list[Child], assignee: str) -> Markup:
    return h(
        "form",
        {"class": "rv-form rv-assign", "method": "post", "action": "/review/assign"},
        hidden,
        h("input", {"type": "hidden", "name": "expect_assignee", "value": assignee}),
        h(
            "label",
            None,
            "Assigned to ",
            h("input", {"type": "text", "name": "assignee", "value": assignee, "size": "12", "maxlength": "60"}),
        ),
        h("button", {"type": "submit"}, "Assign"),
    )


def _discuss_form(hidden: list[Child]) -> Markup:
    return h(
        "form",
        {"class": "rv-discuss", "method": "post", "action": "/meeting/discuss"},
        hidden,
        h("button", {"type": "submit"}, "Discuss now"),
    )


def _hidden(ch: Change, old: str, new: str, back: str, token: str) -> list[Child]:
    fields = (
        ("change", ch.id),
        ("pair", f"{old} {new}"),
        ("row", row_anchor(ch, old, new)),
        ("old_hash", texts_hash(ch.old_texts)),
        ("new_hash", texts_hash(ch.new_texts)),
        ("back", back),
        (TOKEN_FIELD, token),
    )
    return [h("input", {"type": "hidden", "name": name, "value": value}) for name, value in fields]


def _state(ch: Change, entry: Entry, ctx: RowContext) -> Markup:
    d = entry.decision
    parts: list[Child] = [
        "Status: ",
        h(
            "b",
            {"class": f"st st-{entry.status.value}"},
            entry.status.value if entry.state is State.CURRENT else "open",
        ),
    ]
    if d is not None and entry.state is State.CURRENT:
        by = ctx.deciders.get(d.id)
        if by is not None:
            parts += [" (set by ", who(by[0]), f", {when(by[1])})"]
        if d.assignee:
            parts += ["; assigned to ", who(d.assignee)]
    out: list[Child] = [h("p", {"class": "rv-state"}, parts)]
    asked = entry.open_questions if entry.state is State.CURRENT else ()
    if asked:
        out.append(
            h(
                "p",
                {"class": "rv-asked"},
                "Queried by ",
                [[", " if i else None, who(q.author)] for i, q in enumerate(asked)],
                ": undecided until a chair confirms or changes the decision.",
            )
        )
    if d is not None and entry.state is State.OUTDATED:
        out.append(
            h(
                "p",
                {"class": "rv-outdated-note"},
                "Outdated: ",
                h("b", None, d.status.value),
                " was decided on an earlier text (",
                who(d.author),
                f", {when(d.updated)}): ",
                h("span", {"lang": "nl", "class": "was"}, " ".join(d.new_texts or d.old_texts)),
            )
        )
    if ch.pinned_by:
        out.append(h("p", {"class": "rv-pinned"}, "Matched by hand by ", who(ch.pinned_by)))
    return h("div", {"class": "rv-head"}, out)


def _undo_form(cid: str, ctx: RowContext, hidden: list[Child]) -> Markup | None:
    """ "Undo" of the row's last write, for its author (a chair: for anyone's); the server checks again."""
    last = ctx.row_writes.get(cid)
    if last is None or last.action == "undo" or not (last.author == ctx.viewer or may(ctx.chair, Action.UNDO_ANY)):
        return None
    what = UNDO_LABELS.get(last.action, last.action)
    label = f"Undo my {what}" if last.author == ctx.viewer else f"Undo {last.author}'s {what}"
    return h(
        "form",
        {"class": "rv-form rv-undo", "method": "post", "action": "/review/undo"},
        hidden,
        h("input", {"type": "hidden", "name": "undo", "value": last.write}),
        h("button", {"type": "submit"}, label),
        h("span", {"class": "rv-when"}, f" ({when(last.at)})"),
    )


# What an undo button names, by the log's action.
UNDO_LABELS = {
    "status": "decision",
    "comment": "comment",
    "assign": "assignment",
    "decision": "comment",
    "question": "question",
    "answer": "answer",
    "comment-edit": "edit of a comment",
    "comment-delete": "deletion of a comment",
}


def _own_comment_forms(c: Comment, hidden: list[Child]) -> Markup:
    """Edit (opens in place) and delete, for one's own comment; the log keeps the old text."""
    which = h("input", {"type": "hidden", "name": "comment", "value": c.id})
    return h(
        "details",
        {"class": "rv-own"},
        h("summary", None, "Edit or delete"),
        h(
            "form",
            {"class": "rv-form rv-edit", "method": "post", "action": "/review/comment/edit"},
            hidden,
            which,
            h(
                "label",
                None,
                h("span", {"class": "vh"}, "Your comment"),
                h("textarea", {"name": "text", "rows": "2", "required": True}, c.text),
            ),
            h("button", {"type": "submit"}, "Save the edit"),
        ),
        h(
            "form",
            {"class": "rv-form rv-delete", "method": "post", "action": "/review/comment/delete"},
            hidden,
            which,
            h("button", {"type": "submit"}, "Delete this comment"),
        ),
    )


def _thread(entry: Entry, viewer: str, hidden: list[Child]) -> Markup | None:
    if not entry.comments:
        return None
    return h(
        "ol",
        {"class": "rv-thread"},
        [
            h(
                "li",
                {"id": f"c-{c.id[:10]}", "class": f"rv-question {c.question}" if c.question else None},
                who(c.author),
                {"open": " asks the chairs", "answered": " asked (answered)"}.get(c.question),
                " ",
                h("time", {"datetime": c.created}, when(c.created)),
                " (edited)" if c.edited else None,
                shown(c.text, "p", "rv-text"),
                _own_comment_forms(c, hidden) if viewer and c.author == viewer else None,
            )
            for c in entry.comments
        ],
    )


DECIDED = frozenset({Status.ACCEPTED, Status.REJECTED, Status.TRANSLATION_FIX})


def _status_form(hidden: list[Child], current: Status, chair: bool, questioned: bool) -> Markup:
    """The status buttons this member may press; a member on a decided change gets a question form
    instead (the decision stays); with an open question, a chair may confirm the status it has."""
    expect = h("input", {"type": "hidden", "name": "expect", "value": current.value})
    if current in DECIDED and not may(chair, Action.DECIDE):
        return h(
            "form",
            {"class": "rv-form rv-status rv-ask", "method": "post", "action": "/review/status"},
            hidden,
            expect,
            h(
                "label",
                None,
                h("span", {"class": "vh"}, "Your question to the chairs"),
                h("textarea", {"name": "text", "rows": "2", "placeholder": "Why query this decision? (optional)"}),
            ),
            h("button", {"type": "submit", "name": "status", "value": Status.QUERY.value}, "Query this decision"),
        )
    buttons = [
        h(
            "button",
            {
                "type": "submit",
                "name": "status",
                "value": status.value,
                "class": f"st-{status.value}",
                "aria-pressed": "true" if status is current else "false",
                "disabled": status is current and not questioned,
            },
            f"Confirm: {label.lower()}" if status is current and questioned else label,
        )
        for status, label in STATUS_BUTTONS
        if may(chair, status_action(status))
    ]
    return h(
        "form",
        {"class": "rv-form rv-status", "method": "post", "action": "/review/status"},
        hidden,
        expect,
        buttons,
    )


def _correct_form(ch: Change, old: str, new: str, hidden: list[Child]) -> Markup:
    forbid: list[Child] = [
        h(
            "button",
            {"type": "submit", "name": "forbid", "value": f"{o} {n}"},
            f"Never pair {old}:{o} with {new}:{n}",
        )
        for o, n in itertools.product(ch.old, ch.new)
    ]
    side = f"{new}:ADDRESS" if ch.old and not ch.new else f"{old}:ADDRESS"
    return h(
        "details",
        {"class": "rv-correct"},
        h("summary", None, "Correct the match…"),
        h(
            "form",
            {"method": "post", "action": "/review/correct"},
            hidden,
            forbid,
            h(
                "label",
                None,
                "Pin this row's clause to ",
                h("input", {"type": "text", "name": "pin", "placeholder": side, "size": "14"}),
            ),
            h("button", {"type": "submit", "name": "do", "value": "pin"}, "Pin…"),
        ),
    )


def _corrections(ch: Change, old: str, new: str, ctx: RowContext, hidden: list[Child]) -> Markup | None:
    """The hand corrections naming this row's clauses, who set them, and (for a chair) a form to remove each."""
    mine = [c for c in ctx.view.corrections if touches(c, ch, old, new)]
    if not mine:
        return None
    items: list[Child] = []
    for c in mine:
        sign = "=" if c.kind is CorrectionKind.PIN else "≠"
        text = f"{c.kind.value}: {' '.join(f'{old}:{a}' for a in c.old)} {sign} {' '.join(f'{new}:{a}' for a in c.new)}"
        remove = None
        if ctx.chair:
            remove = h(
                "form",
                {"class": "rv-unpin", "method": "post", "action": "/review/unpin"},
                hidden,
                h("input", {"type": "hidden", "name": "correction", "value": c.id}),
                h("button", {"type": "submit"}, "Remove"),
            )
        items.append(h("li", None, text, " (by ", who(c.author), f", {when(c.created)})", remove))
    return h("ul", {"class": "rv-corrections"}, items)


def touches(c: Correction, ch: Change, old: str, new: str) -> bool:
    return c.pair == (old, new) and bool(set(c.old) & set(ch.old) or set(c.new) & set(ch.new))
