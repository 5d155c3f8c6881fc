"""``lawdiff serve`` in-process, through Starlette's test client: sign-in, forms, refusals, pages.

The server is the application object of :func:`lawdiff.serve.create_app` on a
store in a temporary folder; every request goes through its middleware (the
signed session, the protective headers) as a browser's would.  The tests in
a real browser are in ``test_serve_browser.py``; start-up and Ctrl-C as whole
processes at the end of this file.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
import warnings
from pathlib import Path

import httpx
import pytest
from click.testing import CliRunner
from lxml import html as lxml_html

from lawdiff.cli import main
from lawdiff.corpus import default_corpus
from lawdiff.review import Status, open_for_reading
from lawdiff.review.schema import APPLICATION_ID
from lawdiff.serve import ServeConfig, Source, create_app
from lawdiff.serve.config import check, is_loopback
from lawdiff.serve.state import Workspace

with warnings.catch_warnings():
    # Starlette 1.x asks for httpx2 in its test client; httpx does the same work here.
    warnings.filterwarnings("ignore", "Using `httpx` with `starlette.testclient`")
    from starlette.testclient import TestClient

ROW_45C4B = "diff-2007-2017-2017-45C4b"
PAGE_45 = "/articles/45.html"


class Member:
    """One browser: a test client with its own session cookie."""

    def __init__(self, app: object, name: str, password: str | None = "pw") -> None:
        self.client = TestClient(app, base_url="http://127.0.0.1:8000")
        self.name = name
        if name:
            r = self.signin(name, password or "")
            assert r.status_code == 303, r.text

    def token(self) -> str:
        r = self.client.get("/signin")
        found = re.search(r'name="csrf" value="([^"]+)"', r.text)
        assert found, r.text
        return found.group(1)

    def signin(self, name: str, password: str, next_: str = "/index.html") -> httpx.Response:
        return self.client.post(
            "/signin",
            data={"csrf": self.token(), "name": name, "password": password, "next": next_},
            follow_redirects=False,
        )

    def page(self, path: str = PAGE_45) -> str:
        r = self.client.get(path)
        assert r.status_code == 200, (path, r.status_code, r.text[:500])
        return r.text

    def form(self, action: str, row: str = ROW_45C4B, path: str = PAGE_45) -> dict[str, str]:
        """The fields of a row's form as the page rendered them."""
        tree = lxml_html.fromstring(self.page(path))
        body = tree.xpath(f'//tbody[.//*[@id="{row}"]]')
        assert body, f"no row {row}"
        forms = body[0].xpath(f'.//form[@action="{action}"]')
        assert forms, f"no form {action} in row {row}"
        return {i.get("name"): i.get("value") or "" for i in forms[0].xpath(".//input[@type='hidden']")}

    def post(self, action: str, fields: dict[str, str], **headers: str) -> httpx.Response:
        return self.client.post(action, data=fields, headers=headers, follow_redirects=False)


@pytest.fixture
def store(tmp_path: Path) -> Path:
    return tmp_path / "review.sqlite"


def make(store: Path, **settings: object) -> object:
    settings.setdefault("password", "pw")
    settings.setdefault("chairs", frozenset({"anne", "bert"}))
    return create_app(ServeConfig(store=store, **settings))


@pytest.fixture
def app(store: Path) -> object:
    return make(store)


def decision(store: Path, change_prefix: str = "e85bfdfcf8") -> object:
    with open_for_reading(store) as s:
        found = [d for d in s.decisions() if d.id.startswith(change_prefix)]
        return found[0] if found else None


def counts(store: Path) -> dict[str, int]:
    with open_for_reading(store) as s:
        return s.counts()


# ---------------------------------------------------------------------------
# Signing in


def test_nothing_but_the_sign_in_page_is_shown_before_signing_in(app: object) -> None:
    anon = Member(app, "")
    for path in ("/", "/index.html", PAGE_45, "/articles/45-history.html", "/agenda", "/meeting", "/api/now", "/next"):
        r = anon.client.get(path, follow_redirects=False)
        assert r.status_code == 303 and r.headers["location"].startswith("/signin?next="), path
        assert "onbedoeld" not in r.text
    page = anon.client.get("/signin")
    assert page.status_code == 200 and 'type="password"' in page.text
    assert "Spelregels" not in page.text and "onbedoeld" not in page.text
    r = anon.client.post("/review/status", data={"status": "accepted"}, follow_redirects=False)
    assert r.status_code == 403


def test_a_wrong_password_is_refused_and_the_right_one_signs_in(app: object) -> None:
    anne = Member(app, "")
    r = anne.signin("Anne", "wrong")
    assert r.status_code == 401 and "Wrong password" in r.text
    assert anne.client.get(PAGE_45, follow_redirects=False).status_code == 303
    r = anne.signin("Anne", "pw", next_=PAGE_45)
    assert r.status_code == 303 and r.headers["location"] == PAGE_45
    assert "Signed in as <b>Anne</b> (chair)" in anne.page()


def test_failed_sign_ins_slow_the_next_try_but_never_refuse_the_right_password(store: Path) -> None:
    app = make(store, login_attempts=3, login_wait_max=0.2)
    m = Member(app, "")
    for _ in range(3):
        assert m.signin("Anne", "guess").status_code == 401
    r = m.signin("Anne", "guess")
    assert r.status_code == 401 and "Retry-After" in r.headers
    assert m.client.get(PAGE_45, follow_redirects=False).status_code == 303
    assert m.signin("Anne", "pw").status_code == 303


def test_without_a_password_on_loopback_a_name_is_enough(store: Path) -> None:
    app = make(store, password=None)
    m = Member(app, "")
    assert 'type="password"' not in m.client.get("/signin").text
    assert m.signin("Anne", "").status_code == 303
    assert "Signed in as <b>Anne</b>" in m.page()


def test_a_name_with_control_characters_is_refused(app: object) -> None:
    m = Member(app, "")
    assert m.signin("Anne\x1b[31m", "pw").status_code == 400
    assert m.signin("Anne\u202e", "pw").status_code == 400
    assert m.signin("   ", "pw").status_code == 400


def test_the_session_cookie_is_signed_httponly_and_strict(store: Path) -> None:
    m = Member(make(store), "")
    r = m.signin("Anne", "pw")
    cookie = r.headers["set-cookie"].lower()
    assert "httponly" in cookie and "samesite=strict" in cookie and "secure" not in cookie
    # A cookie changed by hand is not a session.
    value = m.client.cookies.get("lawdiff_session")
    assert value
    m.client.cookies.set("lawdiff_session", value[:-4] + ("AAAA" if not value.endswith("AAAA") else "BBBB"))
    assert m.client.get(PAGE_45, follow_redirects=False).status_code == 303


def test_under_https_the_cookie_is_secure(store: Path, tmp_path: Path) -> None:
    cert, key = tmp_path / "c.pem", tmp_path / "k.pem"
    cert.write_text("x")
    key.write_text("x")
    m = Member(make(store, certfile=cert, keyfile=key), "")
    m.client.base_url = "https://127.0.0.1:8000"
    assert "secure" in m.signin("Anne", "pw").headers["set-cookie"].lower()


# ---------------------------------------------------------------------------
# Deciding, commenting, assigning


def test_decide_and_comment_then_see_both_after_a_reload(app: object, store: Path) -> None:
    anne = Member(app, "Anne")
    fields = anne.form("/review/status")
    assert fields["expect"] == "open" and fields["back"] == f"{PAGE_45}#{ROW_45C4B}"
    r = anne.post("/review/status", {**fields, "status": "accepted"})
    assert r.status_code == 303 and r.headers["location"] == f"{PAGE_45}#{ROW_45C4B}"
    r = anne.post("/review/comment", {**anne.form("/review/comment"), "text": "Agreed: follows the English text."})
    assert r.status_code == 303
    d = decision(store)
    assert d is not None and d.status is Status.ACCEPTED and d.author == "Anne"
    # Another member's browser sees both.
    bert = Member(app, "Bert")
    tree = lxml_html.fromstring(bert.page())
    block = tree.xpath(f'//tbody[.//*[@id="{ROW_45C4B}"]]//div[@class="rv"]')[0]
    text = block.text_content()
    assert "Status: accepted (set by Anne," in text
    assert "Agreed: follows the English text." in text
    assert "st-accepted" in tree.xpath(f'//tbody[.//*[@id="{ROW_45C4B}"]]')[0].get("class")
    # The form now carries the new state.
    assert bert.form("/review/status")["expect"] == "accepted"


def test_an_unchanged_clause_keeps_its_forms_behind_a_disclosure_until_someone_writes(app: object) -> None:
    anne = Member(app, "Anne")
    row_5 = "diff-2007-2017-2017-45C5"  # 45C5 is unchanged from 2007 to 2017

    def quiet(row: str) -> bool:
        body = lxml_html.fromstring(anne.page()).xpath(f'//tbody[.//*[@id="{row}"]]')[0]
        return bool(body.xpath('.//details[contains(@class, "rv-quiet")]//form[@action="/review/comment"]'))

    assert quiet(row_5) and not quiet(ROW_45C4B)
    fields = anne.form("/review/comment", row=row_5)
    assert anne.post("/review/comment", {**fields, "text": "Vertaling nakijken."}).status_code == 303
    assert not quiet(row_5)


def test_a_stale_form_is_refused_and_shows_the_newer_state_and_who(app: object, store: Path) -> None:
    anne, bert = Member(app, "Anne"), Member(app, "Bert")
    seen_by_bert = bert.form("/review/status")
    assert anne.post("/review/status", {**anne.form("/review/status"), "status": "accepted"}).status_code == 303
    r = bert.post("/review/status", {**seen_by_bert, "status": "rejected"})
    assert r.status_code == 409
    body = r.text
    assert "Not saved" in body and "by Anne" in body and "now accepted" in body
    assert decision(store).status is Status.ACCEPTED
    # With the script: the same refusal as JSON, with the row's block as it is now.
    r = bert.post("/review/status", {**seen_by_bert, "status": "rejected"}, **{"X-Lawdiff-Fetch": "1"})
    assert r.status_code == 409
    reply = r.json()
    assert reply["ok"] is False and "by Anne" in reply["message"] and reply["status"] == "accepted"
    assert 'data-status="accepted"' in reply["html"]
    # An assignment made on an old state is refused the same way.
    seen = bert.form("/review/assign")
    assert anne.post("/review/assign", {**anne.form("/review/assign"), "assignee": "Carla"}).status_code == 303
    r = bert.post("/review/assign", {**seen, "assignee": "Dirk"})
    assert r.status_code == 409 and "assigned to Carla" in r.text
    assert decision(store).assignee == "Carla"


def test_writes_from_the_script_get_the_new_block_as_json(app: object, store: Path) -> None:
    anne = Member(app, "Anne")
    r = anne.post("/review/status", {**anne.form("/review/status"), "status": "query"}, **{"X-Lawdiff-Fetch": "1"})
    assert r.status_code == 200
    reply = r.json()
    assert reply == {"ok": True, "message": "Saved: query.", "html": reply["html"], "status": "query"}
    assert 'name="expect" value="query"' in reply["html"]
    assert "lawdiff-token-slot" not in reply["html"]
    # The block sent is the block the page shows after a reload.
    from lawdiff.serve.controls import RowContext, review_block

    ws: Workspace = app.state.workspace  # type: ignore[attr-defined]
    snap = ws.snapshot()
    _, view = ws.review(snap)
    found = snap.changes[anne.form("/review/status")["change"]]
    store_ = ws.store()
    token = anne.form("/review/status")["csrf"]
    ctx = RowContext(view, store_.deciders(), True, PAGE_45, token=token, viewer="Anne", row_writes=store_.row_writes())
    assert reply["html"] == review_block(found.change, "2007", "2017", ctx)


def test_a_member_who_is_not_a_chair_cannot_accept_but_may_query_comment_and_assign(app: object, store: Path) -> None:
    carla = Member(app, "Carla")
    page = carla.page()
    assert "(chair)" not in page
    fields = carla.form("/review/status")
    row = lxml_html.fromstring(page).xpath(f'//tbody[.//*[@id="{ROW_45C4B}"]]')[0]
    assert {b.get("value") for b in row.xpath('.//form[@action="/review/status"]//button')} == {"query"}
    assert not row.xpath('.//form[@action="/review/correct"]')
    r = carla.post("/review/status", {**fields, "status": "accepted"})
    assert r.status_code == 403 and "Only the chairs" in r.text
    assert decision(store) is None
    assert carla.post("/review/status", {**fields, "status": "query"}).status_code == 303
    assert carla.post("/review/comment", {**carla.form("/review/comment"), "text": "Why?"}).status_code == 303
    assert carla.post("/review/assign", {**carla.form("/review/assign"), "assignee": "Anne"}).status_code == 303
    assert decision(store).status is Status.QUERY
    # Chairs' names are compared without regard to case.
    assert "(chair)" in Member(app, "ANNE").page()


def test_every_post_needs_the_forgery_token_and_the_apps_own_origin(app: object, store: Path) -> None:
    anne = Member(app, "Anne")
    fields = {**anne.form("/review/status"), "status": "accepted"}
    without = {k: v for k, v in fields.items() if k != "csrf"}
    assert anne.post("/review/status", without).status_code == 403
    # Its first character changed (a token may itself start with "x": then it would be the real one).
    tampered = ("y" if fields["csrf"][0] == "x" else "x") + fields["csrf"][1:]
    assert anne.post("/review/status", {**fields, "csrf": tampered}).status_code == 403
    # Another member's token is not this session's.
    bert = Member(app, "Bert")
    assert anne.post("/review/status", {**fields, "csrf": bert.form("/review/status")["csrf"]}).status_code == 403
    evil = anne.post("/review/status", fields, Origin="http://evil.example")
    assert evil.status_code == 403
    cross = anne.post("/review/status", fields, **{"Sec-Fetch-Site": "cross-site"})
    assert cross.status_code == 403
    assert decision(store) is None and counts(store)["log"] == 0
    ok = anne.post("/review/status", fields, Origin="http://127.0.0.1:8000", **{"Sec-Fetch-Site": "same-origin"})
    assert ok.status_code == 303
    # Signing out ends the session: its token no longer works.
    anne.post("/signout", {"csrf": fields["csrf"]})
    assert anne.post("/review/status", {**fields, "status": "rejected"}).status_code == 403


def test_names_and_comments_are_escaped_everywhere(app: object, store: Path) -> None:
    name = "<b>Eve</b>&co"
    eve = Member(app, name)
    hostile = '<script>alert(1)</script> & <img src=x onerror=alert(2)> "quoted"'
    assert eve.post("/review/comment", {**eve.form("/review/comment"), "text": hostile}).status_code == 303
    assert eve.post("/review/assign", {**eve.form("/review/assign"), "assignee": "<i>x</i>"}).status_code == 303
    for path in (PAGE_45, "/agenda", f"/people?name={name}"):
        page = eve.page(path)
        assert "<script>alert" not in page and "<img src=x" not in page and "<b>Eve" not in page and "<i>x" not in page
        assert "&lt;b&gt;Eve&lt;/b&gt;&amp;co" in page, path
    assert "&lt;script&gt;alert(1)&lt;/script&gt; &amp; &lt;img src=x onerror=alert(2)&gt;" in eve.page()
    # No script but the app's own files, on any page.
    for path in (PAGE_45, "/agenda", "/meeting", "/index.html"):
        scripts = lxml_html.fromstring(eve.page(path)).xpath("//script")
        srcs = [s.get("src", "") for s in scripts]
        assert all(re.fullmatch(r"(\.\./|/)?assets/(report|serve)\.js", src) for src in srcs), srcs
        assert not any((s.text or "").strip() for s in scripts)


def test_every_response_carries_the_policy_and_protective_headers(app: object) -> None:
    anne = Member(app, "Anne")
    for path in (PAGE_45, "/signin", "/assets/serve.js", "/nothing-here"):
        r = anne.client.get(path)
        policy = r.headers["content-security-policy"]
        assert "form-action 'self'" in policy and "connect-src 'self'" in policy and "script-src 'self'" in policy
        assert "'unsafe-inline'" not in policy and "frame-ancestors 'none'" in policy
        assert r.headers["x-content-type-options"] == "nosniff" and r.headers["cache-control"] == "no-store"
    meta = lxml_html.fromstring(anne.page()).xpath('//meta[@http-equiv="Content-Security-Policy"]')
    assert len(meta) == 1 and "form-action 'self'" in meta[0].get("content")


def test_nothing_outside_the_app_is_served(app: object) -> None:
    anne = Member(app, "Anne")
    secret = Path(__file__).read_text(encoding="utf-8")[:60]
    for path in (
        "/assets/../../pyproject.toml",
        "/assets/..%2f..%2fpyproject.toml",
        "/assets/%2e%2e/%2e%2e/lawdiff/serve/app.py",
        "/assets/app.py",
        "/assets/__init__.py",
        "/articles/..%2f..%2ftests%2ftest_serve.py",
        "/articles/../tests/test_serve.py",
        "/articles/45.html/../../../etc/passwd",
        "/articles/%2e%2e%2f%2e%2e%2fetc%2fpasswd",
        "/articles/45.json",
        "/tests/test_serve.py",
        "/etc/passwd",
        "/lawdiff/serve/app.py",
        "//etc/passwd",
        "/review.sqlite",
        "/.git/config",
    ):
        r = anne.client.get(path, follow_redirects=False)
        assert r.status_code in (404, 405) or (r.status_code == 303 and r.headers["location"].startswith("/")), path
        assert secret not in r.text and "root:x:0:0" not in r.text and "[build-system]" not in r.text, path
    # An open redirect is not one either: "back" and "next" stay on this site.
    for bad in ("//evil.example/x", "https://evil.example/", "/\\evil.example", "javascript:alert(1)"):
        r = anne.post("/review/comment", {**anne.form("/review/comment"), "text": "x", "back": bad})
        assert r.headers["location"].startswith("/") and not r.headers["location"].startswith("//")
        m = Member(app, "")
        r = m.signin("Zoe", "pw", next_=bad)
        assert r.headers["location"] == "/index.html"


def test_assets_are_the_packages_own(app: object) -> None:
    anne = Member(app, "Anne")
    js = anne.client.get("/assets/serve.js")
    assert js.status_code == 200 and js.headers["content-type"].startswith("text/javascript")
    assert anne.client.get("/assets/report.css").text.startswith("/*")
    assert Member(app, "").client.get("/assets/serve.css").status_code == 200  # the sign-in page needs it


# ---------------------------------------------------------------------------
# The corpus underneath


@pytest.fixture
def draft(tmp_path: Path) -> Path:
    folder = tmp_path / "draft"
    shutil.copytree(default_corpus(), folder)
    return folder


def _correct(folder: Path) -> None:
    f = folder / "2017" / "nuxt-artikel-45.payload.json"
    text = f.read_text(encoding="utf-8")
    assert "mag een onbedoeld aangeduide kaart" in text
    f.write_text(text.replace("mag een onbedoeld aangeduide kaart", "mag een per ongeluk aangeduide kaart"), "utf-8")
    # A later modification time even on a file system with coarse times.
    later = f.stat().st_mtime_ns + 2_000_000_000
    os.utime(f, ns=(later, later))


def test_pages_follow_the_corpus_on_disk_without_a_restart(store: Path, draft: Path) -> None:
    app = make(store, source=Source((draft,)))
    anne = Member(app, "Anne")
    stale_form = anne.form("/review/status")
    assert anne.post("/review/status", {**stale_form, "status": "accepted"}).status_code == 303
    old_form = anne.form("/review/status")
    ws: Workspace = app.state.workspace
    builds = ws.rebuilds
    anne.page()
    assert ws.rebuilds == builds  # nothing changed: the snapshot is kept
    _correct(draft)
    page = anne.page()
    assert ws.rebuilds == builds + 1
    row = lxml_html.fromstring(page).xpath(f'//tbody[.//*[@id="{ROW_45C4B}"]]')[0]
    assert "per ongeluk" in row.text_content()
    # The decision was made on the earlier text: shown as outdated, never as decided on this one.
    block = row.xpath('.//div[@class="rv"]')[0].text_content()
    assert "Status: open" in block and "Outdated: accepted was decided on an earlier text (Anne" in block
    assert "mag een onbedoeld aangeduide kaart" in block
    # A form rendered before the correction is refused, and shows the change as it is now.
    r = anne.post("/review/status", {**old_form, "status": "rejected"})
    assert r.status_code == 409 and "text of this change was changed" in r.text
    assert "per ongeluk" not in r.text or "Outdated" in r.text
    with open_for_reading(store) as s:
        assert [d.status for d in s.decisions()] == [Status.ACCEPTED]


def test_an_unreadable_corpus_while_serving_is_said_not_crashed(store: Path, draft: Path) -> None:
    app = make(store, source=Source((draft,)))
    anne = Member(app, "Anne")
    f = draft / "2017" / "nuxt-artikel-45.payload.json"
    good = f.read_bytes()
    f.write_bytes(good[: len(good) // 2])  # half saved
    r = anne.client.get(PAGE_45)
    assert r.status_code == 503 and "nuxt-artikel-45.payload.json" in r.text
    f.write_bytes(good)
    os.utime(f, ns=(f.stat().st_mtime_ns + 3_000_000_000,) * 2)
    assert "onbedoeld" in anne.page()


# ---------------------------------------------------------------------------
# Hand corrections, the agenda, meetings


def _row_with(page: str, text: str) -> str:
    """The id of the first clause block of the row whose middle column says ``text``."""
    tree = lxml_html.fromstring(page)
    for body in tree.xpath("//table[@class='sbs']/tbody"):
        kind = body.xpath(".//td[contains(@class, 'kind')]")
        if kind and text in kind[0].text_content():
            ids = [e.get("id") for e in body.xpath(".//*[starts-with(@id, 'diff-')]")]
            if ids:
                return str(ids[0])
    raise AssertionError(f"no row says {text!r}")


def test_a_chair_pins_a_match_from_a_row_after_a_confirmation(app: object, store: Path) -> None:
    anne = Member(app, "Anne")
    row = "diff-2007-2017-2017-45D2"  # 45D2 is added in 2017: pin it to 2007's 45D
    fields = anne.form("/review/correct", row=row)
    r = anne.post("/review/correct", {**fields, "pin": "2007:45D", "do": "pin"})
    assert r.status_code == 200 and "Yes, set it" in r.text
    assert "2007:45D is the same clause as 2017:45D2" in r.text
    assert counts(store)["corrections"] == 0  # nothing before the confirmation
    confirm = dict(re.findall(r'name="([a-z_]+)" value="([^"]*)"', r.text))
    r = anne.post("/review/correct", confirm)
    assert r.status_code == 303 and r.headers["location"].startswith(f"{PAGE_45}#diff-2007-2017-")
    with open_for_reading(store) as s:
        [c] = s.corrections()
    assert (c.kind.value, c.old, c.new, c.author) == ("pin", ("45D",), ("45D2",), "Anne")
    page = anne.page()
    tree = lxml_html.fromstring(page)
    row_body = tree.xpath(f'//tbody[.//*[@id="{row}"]]')[0]
    text = row_body.text_content()
    assert "Matched by hand by Anne" in text and "pin: 2007:45D = 2017:45D2 (by Anne" in text
    # A member who is not a chair may not.
    carla = Member(app, "Carla")
    r = carla.post("/review/correct", {**confirm, "csrf": carla.form("/review/comment")["csrf"]})
    assert r.status_code == 403
    # The chair removes it: the aligner's own match is back.
    unpin = {k: v for k, v in anne.form("/review/unpin", row=row).items()}
    tree = lxml_html.fromstring(anne.page())
    unpin["correction"] = tree.xpath('//form[@action="/review/unpin"]//input[@name="correction"]')[0].get("value")
    assert anne.post("/review/unpin", unpin).status_code == 303
    assert "Matched by hand" not in anne.page()


def test_a_pin_naming_a_clause_that_does_not_exist_is_refused(app: object, store: Path) -> None:
    anne = Member(app, "Anne")
    r = anne.post(
        "/review/correct", {**anne.form("/review/correct", row="diff-2007-2017-2017-45D2"), "pin": "2007:99Z"}
    )
    assert r.status_code == 400 and "99Z" in r.text
    assert counts(store)["corrections"] == 0


def test_the_agenda_lists_what_is_open_or_in_query_and_the_chairs_mark(app: object, store: Path) -> None:
    anne, carla = Member(app, "Anne"), Member(app, "Carla")
    before = carla.page("/agenda")
    opened = int(re.search(r"(\d+) open, 0 in query", before).group(1))
    assert opened > 10 and "Article 45" in before and "2007 → 2017 modified 45C4(b)" in before
    anne.post("/review/status", {**anne.form("/review/status"), "status": "accepted"})
    fields = carla.form("/review/status", row="diff-2007-2017-2017-45D2")
    carla.post("/review/status", {**fields, "status": "query"})
    after = carla.page("/agenda")
    assert f"{opened - 2} open, 1 in query" in after
    assert "2007 → 2017 modified 45C4(b)" not in after
    # The chair opens a meeting and marks a change; every member's agenda and bar show it.
    token = anne.form("/review/status")["csrf"]
    assert "Start the meeting" in anne.page("/meeting") and "Start the meeting" not in carla.page("/meeting")
    assert (
        anne.post("/meeting/start", {"csrf": token, "date": "2024-05-14", "attendees": "Anne, Carla"}).status_code
        == 303
    )
    assert carla.post("/meeting/discuss", {**carla.form("/review/comment")}).status_code == 403
    discuss = anne.form("/meeting/discuss", row="diff-2007-2017-2017-45D2")
    assert anne.post("/meeting/discuss", discuss).status_code == 303
    agenda = carla.page("/agenda")
    assert 'Now discussing: <a href="/articles/45.html#diff-2007-2017-2017-45D2">2007 → 2017 added 45D2</a>' in agenda
    assert '(marked by <bdi class="who" dir="auto">Anne</bdi>' in agenda
    assert carla.client.get("/api/now").json()["label"] == "2007 → 2017 added 45D2"
    marked = re.search(
        r'<tbody class="change k-added diff[^"]* st-query discussing[^"]*" id="change-[0-9a-f]+"', carla.page()
    )
    assert marked is not None
    anne.post("/meeting/end", {"csrf": token})
    assert carla.client.get("/api/now").json() == {"change": ""}
    with open_for_reading(store) as s:
        [m] = s.meetings()
        assert m.ended and m.attendees == ("Anne", "Carla")
        assert [e.action for e in s.log() if e.table == "marks"] == ["mark", "mark"]


def test_next_undecided_walks_the_agenda_in_order(app: object) -> None:
    anne = Member(app, "Anne")
    first = anne.client.get("/next", follow_redirects=False).headers["location"]
    assert first.startswith("/articles/")
    second = anne.client.get("/next", params={"after": "0" * 40}, follow_redirects=False).headers["location"]
    assert second == first
    row = first.split("#", 1)[1]
    page = first.split("#", 1)[0]
    fields = anne.form("/review/status", row=row, path=page)
    following = anne.client.get("/next", params={"after": fields["change"]}, follow_redirects=False)
    assert following.headers["location"] != first
    anne.post("/review/status", {**fields, "status": "accepted"})
    assert anne.client.get("/next", follow_redirects=False).headers["location"] == following.headers["location"]


def test_per_reviewer_what_they_commented_on_or_were_assigned(app: object) -> None:
    anne, bert = Member(app, "Anne"), Member(app, "Bert")
    bert.post("/review/comment", {**bert.form("/review/comment"), "text": "Check (b)."})
    anne.post("/review/assign", {**anne.form("/review/assign", row="diff-2007-2017-2017-45D2"), "assignee": "Bert"})
    page = anne.page("/people?name=Bert")
    assert "Assigned (1)" in page and "2007 → 2017 added 45D2" in page
    assert "Commented on (1)" in page and "2007 → 2017 modified 45C4(b)" in page
    assert 'href="/people?name=Bert"' in anne.page("/agenda")


# ---------------------------------------------------------------------------
# Settings, start-up and stop


def test_settings_are_checked_before_anything_is_served(store: Path, tmp_path: Path) -> None:
    assert is_loopback("127.0.0.1") and is_loopback("::1") and is_loopback("localhost") and is_loopback("127.1.2.3")
    assert not is_loopback("0.0.0.0") and not is_loopback("192.168.1.10")
    with pytest.raises(Exception, match="without a password"):
        check(ServeConfig(store=store, host="0.0.0.0"))
    warnings = check(ServeConfig(store=store, host="0.0.0.0", password="pw", chairs=frozenset({"anne"})))
    assert len(warnings) == 1 and "in clear" in warnings[0]
    assert check(ServeConfig(store=store, password=None, chairs=frozenset({"anne"}))) == []
    assert "everyone" in check(ServeConfig(store=store))[0]


def _serve(*args: str, env: dict[str, str] | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["serve", *args], env=env)
    return result.exit_code, result.stdout, result.stderr


def test_an_occupied_port_is_one_line_and_exit_2(store: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        code, out, err = _serve("--port", str(port), "--review", str(store))
    assert code == 2 and out == ""
    assert err.strip().splitlines()[-1] == (
        f"lawdiff: error: port {port} on 127.0.0.1 is in use by another program; "
        "give another --port, or --port 0 for any free one"
    )


def test_an_unreadable_store_or_corpus_is_one_line_and_exit_2(tmp_path: Path) -> None:
    bad = tmp_path / "notes.sqlite"
    bad.write_text("these are my notes, not a database\n" * 100)
    code, _, err = _serve("--port", "0", "--review", str(bad))
    assert code == 2 and err.strip().splitlines()[-1].startswith(
        f"lawdiff: error: {bad}: is not a lawdiff review store"
    )
    newer = tmp_path / "newer.sqlite"
    conn = sqlite3.connect(newer)
    conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    conn.execute("PRAGMA user_version = 99")
    conn.close()
    code, _, err = _serve("--port", "0", "--review", str(newer))
    assert code == 2 and "written by a newer lawdiff" in err
    broken = tmp_path / "corpus" / "2017"
    broken.mkdir(parents=True)
    (broken / "nuxt-artikel-45.payload.json").write_text('{"data": [', encoding="utf-8")
    code, _, err = _serve("--port", "0", "--review", str(tmp_path / "r.sqlite"), "--corpus", str(broken.parent))
    assert code == 2 and len(err.strip().splitlines()) == 1 and "nuxt-artikel-45.payload.json" in err
    code, _, err = _serve("--port", "0", "--review", str(tmp_path / "r.sqlite"), "--corpus", str(tmp_path / "nowhere"))
    assert code == 2 and "no such file or folder" in err


def test_a_public_address_without_a_password_is_refused(store: Path, tmp_path: Path) -> None:
    code, _, err = _serve("--host", "0.0.0.0", "--port", "0", "--review", str(store), env={"LAWDIFF_PASSWORD": ""})
    assert code == 2 and "without a password" in err and "--password-file" in err
    empty = tmp_path / "pw.txt"
    empty.write_text("")
    code, _, err = _serve("--port", "0", "--review", str(store), "--password-file", str(empty))
    assert code == 2 and "the password file is empty" in err
    code, _, err = _serve("--port", "0", "--review", str(store), "--certfile", str(empty))
    assert code == 2 and "--certfile and --keyfile go together" in err


def _start(store: Path, *args: str) -> tuple[subprocess.Popen[str], str]:
    env = {**os.environ, "LAWDIFF_PASSWORD": "pw", "PYTHONPATH": str(Path(__file__).parent.parent)}
    proc = subprocess.Popen(
        [sys.executable, "-m", "lawdiff.cli", "serve", "--port", "0", "--review", str(store), *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    assert proc.stdout is not None
    line = proc.stdout.readline()
    found = re.search(r"Open (http://127\.0\.0\.1:\d+/) in a browser", line)
    if found is None:
        proc.kill()
        raise AssertionError(f"no URL: {line!r} {proc.stderr.read() if proc.stderr else ''}")
    return proc, found.group(1)


def test_ctrl_c_stops_cleanly_and_loses_no_write(store: Path) -> None:
    proc, url = _start(store, "--chairs", "Anne")
    saved: list[str] = []
    stop = threading.Event()

    def writer() -> None:
        with httpx.Client(base_url=url, timeout=20) as c:
            token = re.search(r'name="csrf" value="([^"]+)"', c.get("/signin").text).group(1)
            c.post("/signin", data={"csrf": token, "name": "Anne", "password": "pw", "next": "/"})
            tree = lxml_html.fromstring(c.get(PAGE_45).text)
            form = tree.xpath(f'//tbody[.//*[@id="{ROW_45C4B}"]]//form[@action="/review/comment"]')[0]
            fields = {i.get("name"): i.get("value") for i in form.xpath(".//input[@type='hidden']")}
            n = 0
            while not stop.is_set():
                try:
                    r = c.post(
                        "/review/comment", data={**fields, "text": f"comment {n}"}, headers={"X-Lawdiff-Fetch": "1"}
                    )
                except httpx.HTTPError:
                    return  # the server has stopped
                if r.status_code == 200:
                    saved.append(f"comment {n}")
                n += 1

    thread = threading.Thread(target=writer)
    thread.start()
    deadline = time.monotonic() + 30
    while len(saved) < 20 and time.monotonic() < deadline:
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    try:
        code = proc.wait(timeout=30)
    finally:
        stop.set()
        thread.join(timeout=30)
        if proc.poll() is None:
            proc.kill()
    err = proc.stderr.read() if proc.stderr else ""
    assert code == 0, err
    assert "Traceback" not in err and "stopped; every write was saved" in err
    assert len(saved) >= 20
    with open_for_reading(store) as s:
        assert s.integrity() == "ok"
        texts = {c.text for c in s.comments()}
        # Every comment the server said it saved is there, and nothing half written: each comment has its log entry.
        assert set(saved) <= texts
        assert sum(1 for e in s.log() if e.action == "comment") == len(texts)


def test_a_page_filled_in_its_slots_is_the_page_rendered_with_the_review(app: object, store: Path) -> None:
    """The server renders law text once per corpus state and fills each row per store version: the same bytes."""
    from dataclasses import replace

    from lawdiff.report.html.article import article_page
    from lawdiff.serve.controls import BlockCache, RowContext, annotator, fill, slots

    anne = Member(app, "Anne")
    anne.post("/review/status", {**anne.form("/review/status"), "status": "accepted"})
    hostile = 'rvc-</div> <div data-rv="x"> <tbody class="x"> & "'
    anne.post("/review/comment", {**anne.form("/review/comment"), "text": hostile})
    token = anne.form("/review/status")["csrf"]
    anne.post("/meeting/start", {"csrf": token, "date": "2024-05-14"})
    anne.post("/meeting/discuss", anne.form("/meeting/discuss", row="diff-2007-2017-2017-45D2"))
    ws: Workspace = app.state.workspace  # type: ignore[attr-defined]
    snap = ws.snapshot()
    _, view = ws.review(snap)
    s = ws.store()
    mark = s.mark("discussing")
    assert mark is not None
    for chair in (True, False):
        ctx = RowContext(
            view, s.deciders(), chair, PAGE_45, mark.value, True, "token", viewer="Anne", row_writes=s.row_writes()
        )
        for number in ("45", "6"):
            a = snap.site.article(number)
            assert a is not None
            direct = article_page(replace(snap.site, annotate=annotator(ctx)), a)
            base = article_page(replace(snap.site, annotate=slots), a)
            assert fill(base, snap.on_pages, ctx) == direct
            # Blocks kept from an earlier filling give the same page.
            kept = replace(ctx, blocks=BlockCache())
            assert fill(base, snap.on_pages, kept) == fill(base, snap.on_pages, kept) == direct
    assert "rvc-" not in anne.page().replace("rvc-&lt;/div&gt;", "")


def test_writers_at_once_are_committed_in_batches_and_none_is_lost(store: Path) -> None:
    from lawdiff.review import Target
    from lawdiff.review.targets import Expect, StaleWrite

    ws = Workspace(ServeConfig(store=store))
    errors: list[Exception] = []

    def target(n: int) -> Target:
        return Target(f"{n:040x}", "2007", "2017", "text", "modified", "45", ("45A",), ("45A",), ("a",), ("b",))

    def writer(k: int) -> None:
        for j in range(25):
            try:
                ws.write(lambda s, k=k, j=j: s.add_comment(target(k), f"{k}:{j}", f"R{k}"))
                if j == 0:
                    ws.write(lambda s, k=k: s.set_status(target(k), Status.QUERY, f"R{k}"))
                # Refused: the status is query, not open. Its batch goes on without it.
                ws.write(lambda s, k=k: s.set_status(target(k), Status.ACCEPTED, f"R{k}", expect=Expect(Status.OPEN)))
            except Exception as exc:
                errors.append(exc)

    threads = [threading.Thread(target=writer, args=(k,)) for k in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    ws.close()
    assert len(errors) == 8 * 25 and all(isinstance(e, StaleWrite) for e in errors)
    with open_for_reading(store) as s:
        assert len(s.comments()) == 200 and {d.status for d in s.decisions()} == {Status.QUERY}
        # One command per write that was answered as saved (a first comment makes its decision in the same write).
        assert len({e.write for e in s.log()}) == 8 * 25 + 8


def test_a_chair_forbids_a_match_and_the_pair_is_aligned_again(app: object, store: Path) -> None:
    anne = Member(app, "Anne")
    fields = anne.form("/review/correct")
    r = anne.post("/review/correct", {**fields, "forbid": "45C4(b) 45C4(b)"})
    assert r.status_code == 200 and "2007:45C4(b) is never paired with 2017:45C4(b)." in r.text
    confirm = dict(re.findall(r'name="([a-z_]+)" value="([^"]*)"', r.text))
    assert anne.post("/review/correct", confirm).status_code == 303
    ws: Workspace = app.state.workspace  # type: ignore[attr-defined]
    snap = ws.snapshot()
    pairs = [(f.change.old, f.change.new) for f in snap.changes.values() if f.comparison.new == "2017"]
    assert (("45C4(b)",), ("45C4(b)",)) not in pairs
    page = anne.page()
    assert "forbid: 2007:45C4(b) ≠ 2017:45C4(b) (by Anne" in lxml_html.fromstring(page).text_content()
    with open_for_reading(store) as s:
        [c] = s.corrections()
        assert (c.kind.value, c.author) == ("forbid", "Anne")
