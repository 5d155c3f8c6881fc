"""Signing in and out: a name (and the password, when the server has one), throttled per address."""

from __future__ import annotations

from starlette.datastructures import FormData
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response

from lawdiff.serve import pages
from lawdiff.serve.auth import (
    SESSION_NAME,
    SESSION_TOKEN,
    TOKEN_FIELD,
    clean_name,
    new_token,
    password_ok,
    same_origin,
    token_ok,
)
from lawdiff.serve.endpoints import Endpoints, local, session_token


class SignIn(Endpoints):
    """The sign-in page, signing in, signing out."""

    async def signin_form(self, request: Request) -> Response:
        next_ = local(request.query_params.get("next", ""), "/index.html")
        if request.session.get(SESSION_NAME):
            return RedirectResponse(next_, 303)
        page = pages.signin_page(next_, session_token(request), self.config.password is not None)
        return HTMLResponse(page)

    async def signin(self, request: Request) -> Response:
        client = request.client.host if request.client else "?"
        form = await request.form(max_files=0, max_fields=10, max_part_size=4096)
        next_ = local(str(form.get("next", "")), "/index.html")
        need = self.config.password is not None

        def again(status: int, error: str, name: str = "") -> Response:
            return HTMLResponse(pages.signin_page(next_, session_token(request), need, error, name), status)

        if not same_origin(request.headers, request.url.scheme) or not token_ok(
            request.session.get(SESSION_TOKEN), str(form.get(TOKEN_FIELD, ""))
        ):
            return again(403, "The sign-in form is out of date or came from another site: try again.")
        wait = self.throttle.wait(client)
        if wait:
            response = again(429, f"Too many failed sign-ins from your address: wait {wait:.0f} s and try again.")
            response.headers["Retry-After"] = str(int(wait))
            return response
        raw = str(form.get("name", ""))
        name = clean_name(raw)
        if name is None:
            return again(400, "Give your name (up to 60 letters, no control characters).")
        if not password_ok(str(form.get("password", "")), self.config.password):
            self.throttle.failed(client)
            return again(401, "Wrong password.", name)
        self.throttle.succeeded(client)
        request.session.clear()
        request.session[SESSION_NAME] = name
        request.session[SESSION_TOKEN] = new_token()
        return RedirectResponse(next_, 303)

    def signout(self, request: Request, _name: str, _form: FormData) -> Response:
        request.session.clear()
        return RedirectResponse("/signin", 303)
