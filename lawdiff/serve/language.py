"""Each member's language: chosen by a link on every page, remembered in the session, first from the browser.

A request is answered in (the first that gives one): the language its session
chose (the link on every page, :data:`ROUTE`), the language the browser chose
on the sign-in page before there was a session (a cookie of its own, taken
into the session at sign-in), the browser's ``Accept-Language``, and else the
server's own language (``lawdiff --lang nl serve``, :func:`lawdiff.i18n.set_language`),
else English.  The whole request runs under :func:`lawdiff.i18n.use`, so two
members reading at once each get their own; the response says which
(``Content-Language``).
"""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import quote

from starlette.datastructures import MutableHeaders
from starlette.requests import HTTPConnection
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from lawdiff import i18n
from lawdiff.i18n import gettext as _
from lawdiff.report.html.markup import Child, Markup, h

ROUTE = "/language"


def accepted(header: str | None, default: str) -> str:
    """The language of an ``Accept-Language`` header; ``default`` when it names none lawdiff has."""
    tags = (part.split(";", 1)[0].strip() for part in (header or "").split(","))
    if not any(i18n.normalize(tag) for tag in tags if tag and tag != "*"):
        return default
    return i18n.from_accept_language(header)


class Language:
    """Runs every request in its member's language (``choose``: the request's connection -> a language)."""

    def __init__(self, app: ASGIApp, choose: Callable[[HTTPConnection], str]) -> None:
        self.app = app
        self.choose = choose

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        lang = self.choose(HTTPConnection(scope))

        async def send_with_language(message: Message) -> None:
            if message["type"] == "http.response.start":
                MutableHeaders(scope=message)["Content-Language"] = lang
            await send(message)

        with i18n.use(lang):
            await self.app(scope, receive, send_with_language)


def switch(here: str) -> Markup:
    """The language link of every page: each language by its name in itself, the one in force marked.

    ``here``: the page to come back to, in the language chosen.
    """
    current = i18n.language()
    items: list[Child] = []
    for code in i18n.LANGUAGES:
        name = i18n.LANGUAGE_NAMES[code]
        if code == current:
            items.append(h("li", None, h("b", {"lang": code, "aria-current": "true"}, name)))
        else:
            href = f"{ROUTE}?to={code}&next={quote(here, safe='/')}"
            items.append(h("li", None, h("a", {"href": href, "lang": code, "hreflang": code}, name)))
    return h("nav", {"class": "languages", "aria-label": _("Language")}, h("ul", None, items))
