"""The served pages: the report's own pages with the server's bar, and the server's pages.

The frame every page shares (the server's policy, assets and bar) is in
:mod:`lawdiff.serve.frame`, the agenda and each reviewer's page in
:mod:`lawdiff.serve.agenda`; here are the server's other pages (sign-in,
meeting, confirmations, refusals), and every page's name, imported from
those modules, for the endpoints to call.
"""

from __future__ import annotations

from collections.abc import Mapping

from lawdiff import i18n
from lawdiff.i18n import gettext as _
from lawdiff.report.html.markup import Child, Markup, document, h, phrase
from lawdiff.review import Meeting
from lawdiff.serve.agenda import Item, agenda_page, next_undecided, person_page, undecided
from lawdiff.serve.auth import TOKEN_FIELD
from lawdiff.serve.controls import when
from lawdiff.serve.frame import (
    HEADER_POLICY,
    POLICY,
    SERVE_ASSETS,
    Now,
    anonymous_bar,
    bar,
    href,
    label,
    now_box,
    now_of,
    own_page,
    served,
)
from lawdiff.serve.marked import who

__all__ = [
    "HEADER_POLICY",
    "POLICY",
    "SERVE_ASSETS",
    "Item",
    "Now",
    "agenda_page",
    "anonymous_bar",
    "bar",
    "confirm_page",
    "href",
    "label",
    "meeting_page",
    "message_page",
    "next_undecided",
    "now_of",
    "own_page",
    "person_page",
    "served",
    "signin_page",
    "undecided",
]


def signin_page(next_: str, token: str, need_password: bool, error: str = "", name: str = "", here: str = "") -> str:
    """The sign-in page; ``here``: where its language link comes back to (the page itself)."""
    fields: list[Child] = [
        h("input", {"type": "hidden", "name": TOKEN_FIELD, "value": token}),
        h("input", {"type": "hidden", "name": "next", "value": next_}),
        h(
            "p",
            None,
            h(
                "label",
                None,
                _("Your name"),
                " ",
                h(
                    "input",
                    {
                        "type": "text",
                        "name": "name",
                        "value": name,
                        "required": True,
                        "maxlength": "60",
                        "autocomplete": "username",
                        "autofocus": True,
                    },
                ),
            ),
        ),
    ]
    if need_password:
        fields.append(
            h(
                "p",
                None,
                h(
                    "label",
                    None,
                    _("The committee's password"),
                    " ",
                    h(
                        "input",
                        {"type": "password", "name": "password", "required": True, "autocomplete": "current-password"},
                    ),
                ),
            )
        )
    fields.append(h("p", None, h("button", {"type": "submit"}, _("Sign in"))))
    main: list[Child] = [
        h("h1", None, _("Sign in to the committee's review")),
        h("p", {"class": "error", "role": "alert"}, error) if error else None,
        h("form", {"class": "signin", "method": "post", "action": "/signin"}, fields),
        h(
            "p",
            {"class": "hint"},
            _("Your name is recorded with every decision and comment you make.")
            + ("" if need_password else " " + _("This server runs on this computer only and asks for no password.")),
        ),
    ]
    doc = document(_("Sign in") + " · lawdiff serve", "/", "signin", h("main", {"id": "top"}, main))
    return served(doc, anonymous_bar(here or "/signin"))


def message_page(title: str, bar_: Markup, message: str, *more: Child, back: str = "") -> str:
    return own_page(
        title,
        "message",
        bar_,
        h("h1", None, title),
        h("p", {"class": "error", "role": "alert"}, message),
        *more,
        h("p", None, h("a", {"href": back or "/agenda"}, _("Back"))),
    )


def meeting_page(bar_: Markup, now: Now | None, meeting: Meeting | None, chair: bool, token: str, today: str) -> str:
    hidden = h("input", {"type": "hidden", "name": TOKEN_FIELD, "value": token})
    state = _no_meeting(chair, hidden, today) if meeting is None else _open_meeting(meeting, chair, hidden)
    everyone = None
    if chair:
        everyone = h(
            "form",
            {"class": "meeting signout-all", "method": "post", "action": "/signout/everyone"},
            hidden,
            h("button", {"type": "submit"}, _("Sign everyone else out")),
            " " + _("(a laptop left signed in, a cookie copied: each member signs in again)"),
        )
    return own_page(
        _("Meeting"),
        "meeting",
        bar_,
        h("h1", None, _("Meeting")),
        *state,
        _minutes(meeting),
        now_box(now),
        *_walk(now),
        everyone,
    )


def _minutes(meeting: Meeting | None) -> Markup:
    """The minutes of the open (else the last) meeting, to download, as ``lawdiff review export`` writes them."""
    return h(
        "p",
        {"class": "minutes"},
        (
            _("Minutes of the meeting of {date}").format(date=i18n.format_day(meeting.date))
            if meeting
            else _("Minutes of the last meeting")
        )
        + ":",
        " ",
        h("a", {"href": "export?format=docx", "download": True}, "Word (.docx)"),
        " · ",
        h("a", {"href": "export?format=md", "download": True}, "Markdown (.md)"),
    )


def _no_meeting(chair: bool, hidden: Markup, today: str) -> list[Child]:
    """No meeting is open: so it says, and a chair gets the form that starts one."""
    parts: list[Child] = [h("p", None, _("No meeting is open."))]
    if chair:
        parts.append(
            h(
                "form",
                {"class": "meeting", "method": "post", "action": "/meeting/start"},
                hidden,
                h("label", None, _("Date"), " ", h("input", {"type": "date", "name": "date", "value": today})),
                " ",
                h(
                    "label",
                    None,
                    _("Attendees"),
                    " ",
                    h("input", {"type": "text", "name": "attendees", "size": "30"}),
                ),
                " ",
                h("button", {"type": "submit"}, _("Start the meeting")),
            )
        )
    return parts


def _open_meeting(meeting: Meeting, chair: bool, hidden: Markup) -> list[Child]:
    """The open meeting: when and by whom it started, who attends, and a chair's form that ends it."""
    parts: list[Child] = [
        h(
            "p",
            None,
            phrase(
                _("The meeting of {date} is open (started {when} by {name})"),
                date=i18n.format_day(meeting.date),
                when=when(meeting.started),
                name=who(meeting.author),
            ),
            "; " + _("attending: {names}").format(names=", ".join(meeting.attendees)) if meeting.attendees else None,
            ". " + _("Decisions and comments made now carry it."),
        )
    ]
    if chair:
        parts.append(
            h(
                "form",
                {"class": "meeting", "method": "post", "action": "/meeting/end"},
                hidden,
                h("button", {"type": "submit"}, _("End the meeting")),
            )
        )
    return parts


def _walk(now: Now | None) -> list[Child]:
    """How each browser walks the agenda: the next undecided change, the keys, following the chair."""
    return [
        h(
            "p",
            None,
            h("a", {"href": f"/next?after={now.change}" if now else "/next"}, _("Next undecided change →")),
            " ",
            phrase(
                _(
                    "(each browser walks the agenda on its own; {a} accepts and {q} queries the current change "
                    "on an article page)"
                ),
                a=h("kbd", None, "a"),
                q=h("kbd", None, "q"),
            ),
        ),
        h(
            "p",
            {"class": "follow"},
            h(
                "label",
                None,
                h("input", {"type": "checkbox", "id": "follow"}),
                " " + _("Follow the chair: go to each change as it is marked"),
            ),
        ),
    ]


def confirm_page(bar_: Markup, what: str, fields: Mapping[str, str], token: str, back: str) -> str:
    inputs = [h("input", {"type": "hidden", "name": k, "value": v}) for k, v in fields.items()]
    return own_page(
        _("Confirm the correction"),
        "confirm",
        bar_,
        h("h1", None, _("Confirm the hand correction")),
        h("p", None, what),
        h(
            "p",
            {"class": "hint"},
            _(
                "The alignment of the pair is computed again with it; the page then shows the result, "
                "and the correction stays listed with your name until a chair removes it."
            ),
        ),
        h(
            "form",
            {"method": "post", "action": "/review/correct"},
            inputs,
            h("input", {"type": "hidden", "name": TOKEN_FIELD, "value": token}),
            h("input", {"type": "hidden", "name": "confirm", "value": "yes"}),
            h("button", {"type": "submit"}, _("Yes, set it")),
            " ",
            h("a", {"href": back}, _("Cancel")),
        ),
    )
