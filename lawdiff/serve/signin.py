"""Signing in and out: a name (and the password, when the server has one), throttled per address and name.

Before signing in, the sign-in form's forgery token is a cookie of its own
(:data:`~lawdiff.serve.sessions.SIGNIN_COOKIE`), which the form must give
back; signing in starts a session kept by the server
(:mod:`lawdiff.serve.sessions`), signing out ends it everywhere, and a chair
may end everyone else's.
"""

from __future__ import annotations

import asyncio
import secrets

from starlette.datastructures import FormData
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response

from lawdiff import i18n
from lawdiff.i18n import gettext as _
from lawdiff.i18n import ngettext
from lawdiff.serve import pages
from lawdiff.serve.auth import TOKEN_FIELD, clean_name, password_ok, same_origin, token_ok
from lawdiff.serve.endpoints import Endpoints, here, local, set_cookie
from lawdiff.serve.sessions import COOKIE, LANGUAGE_COOKIE, SIGNIN_COOKIE

# The sign-in form's token lasts this long (a form left open over lunch).
SIGNIN_FORM_SECONDS = 8 * 3600
# A browser's language chosen before signing in is remembered this long (a year).
LANGUAGE_SECONDS = 365 * 24 * 3600


class SignIn(Endpoints):
    """The sign-in page, signing in, signing out, signing everyone out, and choosing a language."""

    async def signin_form(self, request: Request) -> Response:
        next_ = local(request.query_params.get("next", ""), "/index.html")
        if self.current(request) is not None:
            return RedirectResponse(next_, 303)
        token = request.cookies.get(SIGNIN_COOKIE) or secrets.token_urlsafe(32)
        page = pages.signin_page(next_, token, self.config.password is not None, here=here(request))
        response = HTMLResponse(page)
        set_cookie(response, self.config, SIGNIN_COOKIE, token, SIGNIN_FORM_SECONDS)
        return response

    async def signin(self, request: Request) -> Response:
        client = request.client.host if request.client else "?"
        form = await request.form(max_files=0, max_fields=10, max_part_size=4096)
        next_ = local(str(form.get("next", "")), "/index.html")
        need = self.config.password is not None
        token = request.cookies.get(SIGNIN_COOKIE) or secrets.token_urlsafe(32)

        def again(status: int, error: str, name: str = "") -> Response:
            response = HTMLResponse(pages.signin_page(next_, token, need, error, name, here(request)), status)
            set_cookie(response, self.config, SIGNIN_COOKIE, token, SIGNIN_FORM_SECONDS)
            return response

        if not same_origin(request.headers, request.url.scheme) or not token_ok(
            request.cookies.get(SIGNIN_COOKIE), str(form.get(TOKEN_FIELD, ""))
        ):
            return again(403, _("The sign-in form is out of date or came from another site: try again."))
        raw = str(form.get("name", ""))
        name = clean_name(raw)
        if name is None:
            return again(400, _("Give your name (up to 60 letters, no control characters)."))
        # Failed sign-ins from this address and name make the next one wait (never refused:
        # the right password still signs in, after the wait).
        wait = self.throttle.wait(client, name)
        if wait:
            await asyncio.sleep(wait)
        if not password_ok(str(form.get("password", "")), self.config.password):
            after = self.throttle.failed(client, name)
            waits = " " + _("The next try waits {seconds} s.").format(seconds=round(after)) if after >= 1 else ""
            response = again(401, _("Wrong password.") + waits, name)
            if after:
                response.headers["Retry-After"] = str(max(1, round(after)))
            return response
        self.throttle.succeeded(client, name)
        # A language chosen on the sign-in page is the session's from now on.
        chosen = i18n.normalize(request.cookies.get(LANGUAGE_COOKIE, "")) or ""
        session_token, _session = self.sessions.start(name, chosen)
        response = RedirectResponse(next_, 303)
        set_cookie(response, self.config, COOKIE, session_token, int(self.sessions.longest))
        response.delete_cookie(SIGNIN_COOKIE, path="/")
        return response

    def signout(self, request: Request, _name: str, _form: FormData) -> Response:
        self.sessions.end(request.cookies.get(COOKIE))
        response = RedirectResponse("/signin", 303)
        response.delete_cookie(COOKIE, path="/")
        return response

    def signout_all(self, request: Request, name: str, _form: FormData) -> Response:
        ended = self.sessions.end_all(keep=request.cookies.get(COOKIE))
        bar = self._bar(request, name, None)
        said = ngettext(
            "Signed out {n} other session: everyone else signs in again.",
            "Signed out {n} other sessions: everyone else signs in again.",
            ended,
        ).format(n=ended)
        return HTMLResponse(pages.message_page(_("Everyone signed out"), bar, said, back="/meeting"))

    async def language(self, request: Request) -> Response:
        """``/language?to=nl&next=/agenda``: this browser reads in ``to`` from now on (its session's choice,
        and a cookie of its own for the sign-in page); back to ``next``."""
        lang = i18n.normalize(request.query_params.get("to", ""))
        back = local(request.query_params.get("next", ""), "/index.html")
        if lang is None:
            return RedirectResponse(back, 303)
        self.sessions.choose_language(request.cookies.get(COOKIE), lang)
        response = RedirectResponse(back, 303)
        set_cookie(response, self.config, LANGUAGE_COOKIE, lang, LANGUAGE_SECONDS)
        return response
