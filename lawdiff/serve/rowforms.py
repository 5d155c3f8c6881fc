"""The forms of a change row's review block: status, comment, assignee, "discuss now", the correction of
the match, undo, and a member's own comment's edit and delete.

Each form works without JavaScript (a POST, then back to the row) and
carries the row's hidden fields (:func:`hidden_fields`: the change, its
texts' hashes, where to go back, the forgery token); which forms a member
gets is decided by :func:`lawdiff.serve.auth.may`, the server checks again.
The block that holds them is :mod:`lawdiff.serve.controls`'s.
"""

from __future__ import annotations

import itertools

from lawdiff import i18n
from lawdiff.align import Aspect
from lawdiff.diff.vocabulary import Change
from lawdiff.i18n import N_, pgettext, terms
from lawdiff.i18n import gettext as _
from lawdiff.report.html.markup import Child, Markup, h
from lawdiff.report.site import anchor, pair_id
from lawdiff.review import Comment, Entry, State, Status
from lawdiff.review.reading import RowWrite
from lawdiff.review.targets import texts_hash
from lawdiff.serve.auth import TOKEN_FIELD, Action, may, status_action


def when(at: str) -> str:
    """A stored UTC time as the member's language writes it (:func:`lawdiff.i18n.format_stamp`):
    ``2026-11-30 17:44 UTC``, ``30 november 2026 17:44 UTC``."""
    return f"{i18n.format_stamp(at)} UTC" if at else ""


def row_anchor(ch: Change, old: str, new: str) -> str:
    """The citation anchor of a change's row: its first new clause's block (a removed clause: its old one)."""
    edition, addresses = (new, ch.new) if ch.new else (old, ch.old)
    end = "-title" if ch.aspect is Aspect.TITLE else ""
    return f"{pair_id(old, new)}-{anchor(edition, addresses[0])}{end}" if addresses else pair_id(old, new)


# What each status button says (translated where it is shown).
STATUS_BUTTONS = (
    (Status.ACCEPTED, N_("Accept")),
    (Status.QUERY, N_("Query")),
    (Status.TRANSLATION_FIX, N_("Translation fix")),
    (Status.REJECTED, N_("Reject")),
    (Status.OPEN, N_("Reopen")),
)


def forms(
    ch: Change, old: str, new: str, chair: bool, meeting_open: bool, discussing: str, entry: Entry, hidden: list[Child]
) -> list[Child]:
    """The forms this member may use on the row: status, comment and assignee; for a chair
    in a meeting, "discuss now"; for a chair, the correction of the match."""
    current = entry.status if entry.state is State.CURRENT else Status.OPEN
    assignee = entry.assignee if entry.state is State.CURRENT else ""
    forms: list[Child] = [
        status_form(hidden, current, chair, bool(entry.open_questions)),
        comment_form(hidden),
        assign_form(hidden, assignee),
    ]
    if chair and meeting_open and ch.id != discussing:
        forms.append(discuss_form(hidden))
    if may(chair, Action.CORRECT):
        forms.append(correct_form(ch, old, new, hidden))
    return forms


def comment_form(hidden: list[Child]) -> Markup:
    return h(
        "form",
        {"class": "rv-form rv-comment", "method": "post", "action": "/review/comment"},
        hidden,
        h(
            "label",
            None,
            h("span", {"class": "vh"}, pgettext("noun", "Comment")),
            h("textarea", {"name": "text", "rows": "2", "required": True, "placeholder": _("Add a comment")}),
        ),
        h("button", {"type": "submit"}, pgettext("verb", "Comment")),
    )


def assign_form(hidden: list[Child], assignee: str) -> Markup:
    return h(
        "form",
        {"class": "rv-form rv-assign", "method": "post", "action": "/review/assign"},
        hidden,
        h("input", {"type": "hidden", "name": "expect_assignee", "value": assignee}),
        h(
            "label",
            None,
            _("Assigned to"),
            " ",
            h("input", {"type": "text", "name": "assignee", "value": assignee, "size": "12", "maxlength": "60"}),
        ),
        h("button", {"type": "submit"}, _("Assign")),
    )


def discuss_form(hidden: list[Child]) -> Markup:
    return h(
        "form",
        {"class": "rv-discuss", "method": "post", "action": "/meeting/discuss"},
        hidden,
        h("button", {"type": "submit"}, _("Discuss now")),
    )


def hidden_fields(ch: Change, old: str, new: str, back: str, token: str) -> list[Child]:
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


def undo_form(last: RowWrite | None, viewer: str, chair: bool, hidden: list[Child]) -> Markup | None:
    """ "Undo" of the row's last write, for its author (a chair: for anyone's); the server checks again."""
    if last is None or last.action == "undo" or not (last.author == viewer or may(chair, Action.UNDO_ANY)):
        return None
    label = undo_label(last.action, "" if last.author == viewer else last.author)
    return h(
        "form",
        {"class": "rv-form rv-undo", "method": "post", "action": "/review/undo"},
        hidden,
        h("input", {"type": "hidden", "name": "undo", "value": last.write}),
        h("button", {"type": "submit"}, label),
        h("span", {"class": "rv-when"}, f" ({when(last.at)})"),
    )


def undo_label(action: str, author: str = "") -> str:
    """What an undo button says, by the log's action: ``Undo my decision``, ``Undo Bert's comment``
    (``author``: whose write it is, "" for one's own)."""
    mine = {
        "status": _("Undo my decision"),
        "comment": _("Undo my comment"),
        "assign": _("Undo my assignment"),
        "decision": _("Undo my comment"),
        "question": _("Undo my question"),
        "answer": _("Undo my answer"),
        "comment-edit": _("Undo my edit of a comment"),
        "comment-delete": _("Undo my deletion of a comment"),
    }
    theirs = {
        "status": _("Undo {name}'s decision"),
        "comment": _("Undo {name}'s comment"),
        "assign": _("Undo {name}'s assignment"),
        "decision": _("Undo {name}'s comment"),
        "question": _("Undo {name}'s question"),
        "answer": _("Undo {name}'s answer"),
        "comment-edit": _("Undo {name}'s edit of a comment"),
        "comment-delete": _("Undo {name}'s deletion of a comment"),
    }
    if not author:
        return mine.get(action, _("Undo my {write}").format(write=action))
    return theirs.get(action, _("Undo {name}'s {write}")).format(name=author, write=action)


def undone(action: str) -> str:
    """What the row says once a write is undone: ``Undone: decision.``"""
    what = {
        "status": _("Undone: decision."),
        "comment": _("Undone: comment."),
        "assign": _("Undone: assignment."),
        "decision": _("Undone: comment."),
        "question": _("Undone: question."),
        "answer": _("Undone: answer."),
        "comment-edit": _("Undone: edit of a comment."),
        "comment-delete": _("Undone: deletion of a comment."),
    }
    return what.get(action, _("Undone: {write}.").format(write=action))


def own_comment_forms(c: Comment, hidden: list[Child]) -> Markup:
    """Edit (opens in place) and delete, for one's own comment; the log keeps the old text."""
    which = h("input", {"type": "hidden", "name": "comment", "value": c.id})
    return h(
        "details",
        {"class": "rv-own"},
        h("summary", None, _("Edit or delete")),
        h(
            "form",
            {"class": "rv-form rv-edit", "method": "post", "action": "/review/comment/edit"},
            hidden,
            which,
            h(
                "label",
                None,
                h("span", {"class": "vh"}, _("Your comment")),
                h("textarea", {"name": "text", "rows": "2", "required": True}, c.text),
            ),
            h("button", {"type": "submit"}, _("Save the edit")),
        ),
        h(
            "form",
            {"class": "rv-form rv-delete", "method": "post", "action": "/review/comment/delete"},
            hidden,
            which,
            h("button", {"type": "submit"}, _("Delete this comment")),
        ),
    )


DECIDED = frozenset({Status.ACCEPTED, Status.REJECTED, Status.TRANSLATION_FIX})


def status_form(hidden: list[Child], current: Status, chair: bool, questioned: bool) -> Markup:
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
                h("span", {"class": "vh"}, _("Your question to the chairs")),
                h("textarea", {"name": "text", "rows": "2", "placeholder": _("Why query this decision? (optional)")}),
            ),
            h("button", {"type": "submit", "name": "status", "value": Status.QUERY.value}, _("Query this decision")),
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
            _("Confirm: {status}").format(status=terms.status(status.value))
            if status is current and questioned
            else _(label),
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


def correct_form(ch: Change, old: str, new: str, hidden: list[Child]) -> Markup:
    forbid: list[Child] = [
        h(
            "button",
            {"type": "submit", "name": "forbid", "value": f"{o} {n}"},
            _("Never pair {old} with {new}").format(old=f"{old}:{o}", new=f"{new}:{n}"),
        )
        for o, n in itertools.product(ch.old, ch.new)
    ]
    address = _("ADDRESS")
    side = f"{new}:{address}" if ch.old and not ch.new else f"{old}:{address}"
    return h(
        "details",
        {"class": "rv-correct"},
        h("summary", None, _("Correct the match…")),
        h(
            "form",
            {"method": "post", "action": "/review/correct"},
            hidden,
            forbid,
            h(
                "label",
                None,
                _("Pin this row's clause to"),
                " ",
                h("input", {"type": "text", "name": "pin", "placeholder": side, "size": "14"}),
            ),
            h("button", {"type": "submit", "name": "do", "value": "pin"}, _("Pin…")),
        ),
    )
