"""The review block of a change row: its status, assignee and thread, and the forms to change them.

Added to every row of a served article page through the report's row hook
(:attr:`lawdiff.report.site.Site.annotate`), built with the report's markup
builder, so a name or a comment holding ``<script>`` is text.  Its forms
(:mod:`lawdiff.serve.rowforms`) work without JavaScript (a POST, then a redirect back to the row's anchor)
and carries the state it was rendered with (the status, the assignee and the
texts' hashes): the server refuses a write made on a state that has changed
since (:class:`lawdiff.review.targets.Expect`).
"""

from __future__ import annotations

import re
import threading
from collections.abc import Mapping
from dataclasses import dataclass, field

from lawdiff import i18n
from lawdiff.diff.vocabulary import Change
from lawdiff.i18n import gettext as _
from lawdiff.i18n import terms
from lawdiff.i18n.said import say
from lawdiff.report.html.markup import Child, Markup, h, phrase
from lawdiff.report.site import Annotation, Annotator
from lawdiff.review import Correction, CorrectionKind, Entry, ReviewView, State
from lawdiff.review.reading import RowWrite
from lawdiff.serve.auth import Action, may
from lawdiff.serve.marked import shown, who
from lawdiff.serve.rowforms import forms, hidden_fields, own_comment_forms, row_anchor, undo_form, undone, when

__all__ = ["TOKEN_SLOT", "BlockCache", "RowContext", "review_block", "row_anchor", "undone", "when"]

# The forgery token's place in a page kept for many members: each member's
# page has its own token put in when it is sent (see lawdiff.serve.pages).
TOKEN_SLOT = "lawdiff-token-slot"
# Review blocks kept between store versions (a write changes one row's block).
BLOCKS_KEPT = 20_000


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
    last = ctx.row_writes.get(ch.id)
    key = (
        i18n.language(),
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
        last,
        # The viewer matters only where the row holds something they wrote (their forms on it).
        ctx.viewer
        if (last and last.author == ctx.viewer) or any(c.author == ctx.viewer for c in entry.comments)
        else "",
    )
    found = ctx.blocks.get(key)
    if found is None:
        found = _review_block(ch, old, new, ctx)
        ctx.blocks.put(key, found)
    return found


def _review_block(ch: Change, old: str, new: str, ctx: RowContext) -> Markup:
    entry = ctx.view.entry(ch.id)
    back = f"{ctx.page}#{row_anchor(ch, old, new)}"
    hidden = hidden_fields(ch, old, new, back, ctx.token)
    tools = forms(ch, old, new, ctx.chair, ctx.meeting_open, ctx.discussing, entry, hidden)
    tools.append(undo_form(ctx.row_writes.get(ch.id), ctx.viewer, ctx.chair, hidden))
    tools.append(h("p", {"class": "rv-next"}, h("a", {"href": f"/next?after={ch.id}"}, _("Next undecided →"))))
    # Every control of the row behind one disclosure that opens in place: on a phone a row is its
    # texts, its status and its thread, and the controls are one tap away.  An unchanged clause
    # (reviewed now and then, for a translation fix) says so, so that the rows that changed stand out.
    quiet = not ch.noteworthy and entry.decision is None and not entry.comments
    if quiet:
        summary = _("Review this clause")
    else:
        summary = _("Decide, comment, assign…") if may(ctx.chair, Action.DECIDE) else _("Query, comment, assign…")
    controls = h(
        "details", {"class": "rv-controls rv-quiet" if quiet else "rv-controls"}, h("summary", None, summary), tools
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


def _state(ch: Change, entry: Entry, ctx: RowContext) -> Markup:
    d = entry.decision
    shown_status = entry.status.value if entry.state is State.CURRENT else "open"
    parts: list[Child] = [
        _("Status:"),
        " ",
        h("b", {"class": f"st st-{entry.status.value}"}, terms.status(shown_status)),
    ]
    if d is not None and entry.state is State.CURRENT:
        by = ctx.deciders.get(d.id)
        if by is not None:
            parts += [" ", phrase(_("(set by {name}, {when})"), name=who(by[0]), when=when(by[1]))]
        if d.assignee:
            parts += ["; ", phrase(_("assigned to {name}"), name=who(d.assignee))]
    out: list[Child] = [h("p", {"class": "rv-state"}, parts)]
    asked = entry.open_questions if entry.state is State.CURRENT else ()
    if asked:
        out.append(
            h(
                "p",
                {"class": "rv-asked"},
                phrase(
                    _("Queried by {names}: undecided until a chair confirms or changes the decision."),
                    names=[[", " if i else None, who(q.author)] for i, q in enumerate(asked)],
                ),
            )
        )
    if d is not None and entry.state is State.OUTDATED:
        out.append(
            h(
                "p",
                {"class": "rv-outdated-note"},
                phrase(
                    _("Outdated: {status} was decided on an earlier text ({name}, {when}):"),
                    status=h("b", None, terms.status(d.status.value)),
                    name=who(d.author),
                    when=when(d.updated),
                ),
                " ",
                h("span", {"lang": "nl", "class": "was"}, " ".join(d.new_texts or d.old_texts)),
            )
        )
    if ch.pinned_by:
        out.append(h("p", {"class": "rv-pinned"}, phrase(_("Matched by hand by {name}"), name=who(say(ch.pinned_by)))))
    return h("div", {"class": "rv-head"}, out)


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
                {"open": " " + _("asks the chairs"), "answered": " " + _("asked (answered)")}.get(c.question),
                " ",
                h("time", {"datetime": c.created}, when(c.created)),
                " " + _("(edited)") if c.edited else None,
                shown(c.text, "p", "rv-text"),
                own_comment_forms(c, hidden) if viewer and c.author == viewer else None,
            )
            for c in entry.comments
        ],
    )


def _corrections(ch: Change, old: str, new: str, ctx: RowContext, hidden: list[Child]) -> Markup | None:
    """The hand corrections naming this row's clauses, who set them, and (for a chair) a form to remove each."""
    mine = [c for c in ctx.view.corrections if touches(c, ch, old, new)]
    if not mine:
        return None
    items: list[Child] = []
    for c in mine:
        sign = "=" if c.kind is CorrectionKind.PIN else "≠"
        sides = f"{' '.join(f'{old}:{a}' for a in c.old)} {sign} {' '.join(f'{new}:{a}' for a in c.new)}"
        text = f"{terms.correction(c.kind.value)}: {sides}"
        remove = None
        if ctx.chair:
            remove = h(
                "form",
                {"class": "rv-unpin", "method": "post", "action": "/review/unpin"},
                hidden,
                h("input", {"type": "hidden", "name": "correction", "value": c.id}),
                h("button", {"type": "submit"}, _("Remove")),
            )
        by = phrase(_("(by {name}, {when})"), name=who(c.author), when=when(c.created))
        items.append(h("li", None, text, " ", by, remove))
    return h("ul", {"class": "rv-corrections"}, items)


def touches(c: Correction, ch: Change, old: str, new: str) -> bool:
    return c.pair == (old, new) and bool(set(c.old) & set(ch.old) or set(c.new) & set(ch.new))
