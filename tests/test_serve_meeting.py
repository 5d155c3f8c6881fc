"""``lawdiff serve`` as a chair runs a meeting with it: who decided, who may do what, sessions, the store.

In-process through Starlette's test client (the helpers of ``test_serve.py``);
the tests that need a real socket (the Host header as a browser on another
site sends it, a copied cookie, the sign-in throttle) drive a server in a
thread with ``httpx``, as ``requests`` would.
"""

from __future__ import annotations

import hashlib
import re
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest
from lxml import html as lxml_html
from test_serve import ROW_45C4B, Member, counts, decision, make

from lawdiff.errors import InputError
from lawdiff.review import Status, Store, open_for_reading, open_for_writing
from lawdiff.serve import ServeConfig, state
from lawdiff.serve.run import make_server, prepare, serve


@pytest.fixture
def store(tmp_path: Path) -> Path:
    return tmp_path / "review.sqlite"


def state_line(member: Member, row: str = ROW_45C4B) -> str:
    tree = lxml_html.fromstring(member.page())
    found = tree.xpath(f'//tbody[.//*[@id="{row}"]]//p[@class="rv-state"]')
    assert found, f"no state line in {row}"
    return " ".join(found[0].text_content().split())


def block_text(member: Member, row: str = ROW_45C4B) -> str:
    tree = lxml_html.fromstring(member.page())
    found = tree.xpath(f'//tbody[.//*[@id="{row}"]]//div[@class="rv"]')
    assert found, f"no review block in {row}"
    return " ".join(found[0].text_content().split())


# ---------------------------------------------------------------------------
# 1. The decider named


def test_the_status_line_names_who_decided_not_who_wrote_last(store: Path) -> None:
    app = make(store)
    anne, carla = Member(app, "Anne"), Member(app, "Carla")
    assert anne.post("/review/status", {**anne.form("/review/status"), "status": "accepted"}).status_code == 303
    assert carla.post("/review/comment", {**carla.form("/review/comment"), "text": "Fine by me."}).status_code == 303
    fields = carla.form("/review/assign")
    assert carla.post("/review/assign", {**fields, "assignee": "Carla"}).status_code == 303
    line = state_line(carla)
    assert re.fullmatch(r"Status: accepted \(set by Anne, \d{4}-\d\d-\d\d \d\d:\d\d UTC\); assigned to Carla", line), (
        line
    )


# ---------------------------------------------------------------------------
# 2. Roles, in one place


def test_every_route_names_what_it_asks_for(store: Path) -> None:
    from starlette.routing import Route

    from lawdiff.serve.auth import RULES, Action

    app = make(store)
    rules = app.state.rules  # type: ignore[attr-defined]
    for route in app.routes:  # type: ignore[attr-defined]
        assert isinstance(route, Route)
        for method in route.methods or ():
            if method != "HEAD":
                assert (route.path, method) in rules, f"{method} {route.path} names no action"
    # Every action has its row in the table of who may do what.
    assert set(RULES) == set(Action)


def test_a_member_may_not_reopen_a_decision_and_her_query_keeps_it(store: Path) -> None:
    app = make(store)
    anne, carla = Member(app, "Anne"), Member(app, "Carla")
    assert anne.post("/review/status", {**anne.form("/review/status"), "status": "rejected"}).status_code == 303
    fields = carla.form("/review/status")
    r = carla.post("/review/status", {**fields, "status": "open"})
    assert r.status_code == 403 and "Only the chairs may reopen" in r.text
    # Her query leaves the decision as it is and asks the chairs.
    r = carla.post("/review/status", {**fields, "status": "query", "text": "Is 45C4(b) not still needed?"})
    assert r.status_code == 303, r.text
    d = decision(store)
    assert d is not None and d.status is Status.REJECTED
    assert "Status: rejected (set by Anne," in state_line(carla)
    assert "Queried by Carla: undecided until a chair confirms or changes the decision." in block_text(carla)
    # It counts as undecided: the agenda lists it in query ("Next undecided" walks the agenda's list).
    agenda = carla.page("/agenda")
    assert re.search(r"\d+ open, 1 in query", agenda) and "queried: a chair is to confirm or change it" in agenda
    assert f'45.html#{ROW_45C4B}"' in agenda
    # A chair answers by confirming the decision: the question is answered, the change decided again.
    fields = anne.form("/review/status")
    assert anne.post("/review/status", {**fields, "status": "rejected"}).status_code == 303
    assert re.search(r"\d+ open, 0 in query", anne.page("/agenda"))
    with open_for_reading(store) as s:
        (q,) = [c for c in s.comments() if c.text == "Is 45C4(b) not still needed?"]
        assert q.question == "answered" and q.author == "Carla"
    assert "Queried by" not in block_text(anne)


# ---------------------------------------------------------------------------
# A real server on a free port, for the tests that speak HTTP as any client would


class Live:
    def __init__(self, url: str, store: Path, app: object) -> None:
        self.url = url
        self.store = store
        self.app = app

    def client(self, **options: object) -> httpx.Client:
        return httpx.Client(base_url=self.url, follow_redirects=False, timeout=30, **options)  # type: ignore[arg-type]

    def signin(self, client: httpx.Client, name: str, password: str = "pw") -> httpx.Response:
        token = re.search(r'name="csrf" value="([^"]+)"', client.get("/signin").text)
        assert token
        return client.post("/signin", data={"csrf": token.group(1), "name": name, "password": password})


@contextmanager
def live_server(store: Path, **settings: object) -> Iterator[Live]:
    settings.setdefault("password", "pw")
    settings.setdefault("chairs", frozenset({"anne"}))
    started = prepare(ServeConfig(store=store, port=0, **settings))  # type: ignore[arg-type]
    uv = make_server(started)
    thread = threading.Thread(target=serve, args=(started, uv), daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 20
        while not uv.started and time.monotonic() < deadline:
            time.sleep(0.02)
        yield Live(started.url.rstrip("/"), store, uv.config.app)
    finally:
        uv.should_exit = True
        thread.join(timeout=30)


@pytest.fixture
def live(store: Path) -> Iterator[Live]:
    with live_server(store) as served:
        yield served


def token_of(page: str) -> str:
    found = re.search(r'name="csrf" value="([^"]+)"', page)
    assert found
    return found.group(1)


# ---------------------------------------------------------------------------
# 3. Sessions kept by the server


def test_signing_out_ends_the_session_for_a_copied_cookie_too(live: Live) -> None:
    with live.client() as anne, live.client() as thief:
        assert live.signin(anne, "Anne").status_code == 303
        cookie = anne.cookies.get("lawdiff_session")
        assert cookie
        thief.cookies.set("lawdiff_session", cookie)
        page = thief.get("/agenda")
        assert page.status_code == 200
        token = token_of(page.text)
        assert anne.post("/signout", data={"csrf": token}).status_code == 303
        # The copied cookie reads nothing and writes nothing any more.
        r = thief.get("/agenda")
        assert r.status_code == 303 and r.headers["location"].startswith("/signin")
        r = thief.post("/meeting/start", data={"csrf": token, "date": "2026-12-02"}, headers={"X-Lawdiff-Fetch": "1"})
        assert r.status_code == 403 and "signed out" in r.json()["message"]


def test_sessions_end_when_idle_and_after_twelve_hours_and_the_store_holds_none(store: Path) -> None:
    app = make(store, session_idle=600)
    sessions = app.state.server.sessions  # type: ignore[attr-defined]
    now = [1000.0]
    sessions.clock = lambda: now[0]
    anne = Member(app, "Anne")
    cookie = anne.client.cookies.get("lawdiff_session")
    assert cookie
    # Only the token's hash is kept; the store and its export never see sessions.
    assert sessions.stored() == (hashlib.sha256(cookie.encode()).hexdigest(),)
    anne.page("/agenda")
    for f in store.parent.glob("review.sqlite*"):
        assert cookie.encode() not in f.read_bytes()
    # Used every 9 minutes, it lives on; 11 idle minutes end it.
    for _ in range(3):
        now[0] += 540
        anne.page("/agenda")
    now[0] += 660
    assert anne.client.get("/agenda", follow_redirects=False).status_code == 303
    # However busy, 12 hours end it.
    anne = Member(app, "Anne")
    for _ in range(12 * 7):
        now[0] += 520
        assert anne.client.get("/api/now", follow_redirects=False).status_code in (200, 303)
    assert anne.client.get("/agenda", follow_redirects=False).status_code == 303


def test_a_chair_signs_everyone_else_out(store: Path) -> None:
    app = make(store)
    anne, carla = Member(app, "Anne"), Member(app, "Carla")
    token = carla.form("/review/status")["csrf"]
    r = carla.post("/signout/everyone", {"csrf": token})
    assert r.status_code == 403 and "Only the chairs may sign everyone out" in r.text
    page = anne.page("/meeting")
    assert "Sign everyone else out" in page
    r = anne.post("/signout/everyone", {"csrf": token_of(page)})
    assert r.status_code == 200 and "Signed out 1 other session: everyone else" in r.text
    assert carla.client.get("/agenda", follow_redirects=False).status_code == 303
    anne.page("/agenda")


# ---------------------------------------------------------------------------
# 9. Failed sign-ins slow, never lock out


def test_a_neighbours_failures_never_lock_out_the_right_password(store: Path) -> None:
    with live_server(store, login_wait_max=0.5) as served, served.client() as mallory, served.client() as anne:
        waits = []
        for i in range(14):
            r = served.signin(mallory, f"Mallory{i % 3}", "guess")
            assert r.status_code == 401
            waits.append(int(r.headers.get("retry-after", "0")))
        # Past the free tries each failure makes the next wait (up to the limit); nothing is refused.
        assert waits[:2] == [0, 0] and waits[-1] >= 1
        start = time.monotonic()
        r = served.signin(anne, "Anne")
        assert r.status_code == 303, r.text
        assert time.monotonic() - start < 10  # the wait is at most login_wait_max (0.5 s); the rest is a busy machine
        # Success clears the address's count: the next sign-in does not wait.
        r = served.signin(mallory, "Mallory0", "pw")
        assert r.status_code == 303
        assert served.app.state.server.throttle.wait("127.0.0.1", "Mallory0") == 0  # type: ignore[attr-defined]


# ---------------------------------------------------------------------------
# 7. Only this server's host names


def test_a_page_on_another_host_name_gets_400_before_anything_else(store: Path) -> None:
    with live_server(store, password=None, allowed_hosts=("laptop.example",)) as served:
        port = served.url.rsplit(":", 1)[1]
        evil = {"Host": f"attacker.example:{port}", "Origin": f"http://attacker.example:{port}"}
        with served.client() as rebound:
            for method, path in (("GET", "/signin"), ("POST", "/signin"), ("GET", "/articles/45.html")):
                r = rebound.request(method, path, headers=evil, data={"name": "Eve"} if method == "POST" else None)
                assert r.status_code == 400 and "set-cookie" not in r.headers, (method, path)
                assert "does not answer to the host name 'attacker.example'" in r.text
                assert "Spelregels" not in r.text
        for host in (f"127.0.0.1:{port}", f"localhost:{port}", f"LAPTOP.example:{port}"):
            with served.client(headers={"Host": host}) as ok:
                assert ok.get("/signin").status_code == 200, host


def test_behind_a_reverse_proxy_its_forwarded_address_is_the_members(store: Path) -> None:
    with live_server(store, forwarded_allow_ips="127.0.0.1", login_attempts=1) as served, served.client() as c:
        for _ in range(3):
            r = c.post("/signin", headers={"X-Forwarded-For": "203.0.113.5"}, data={"name": "Eve"})
            assert r.status_code == 403  # no sign-in form's token: refused before the password
        token = token_of(c.get("/signin").text)
        for _ in range(3):
            r = c.post(
                "/signin",
                headers={"X-Forwarded-For": "203.0.113.5"},
                data={"csrf": token, "name": "Eve", "password": "guess"},
            )
            assert r.status_code == 401
        throttle = served.app.state.server.throttle  # type: ignore[attr-defined]
        assert throttle.wait("203.0.113.5", "Eve") > 0 and throttle.wait("127.0.0.1", "Eve") == 0


# ---------------------------------------------------------------------------
# 4-6. The store: writable at start, a full disk named, a failure passed


def read_only_opener(path: Path) -> Store:
    """The store opened as a file that may be read but not written (``mode=ro``: root is refused too,
    where a chmod would not bind root)."""
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True, isolation_level=None, check_same_thread=False)
    return Store(conn, path, writable=True, timeout=1.0)


def test_a_read_only_store_is_refused_at_start_in_one_line(store: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    open_for_writing(store).close()
    monkeypatch.setattr(state, "open_for_writing", read_only_opener)
    with pytest.raises(InputError) as refused:
        started = prepare(ServeConfig(store=store, port=0, password="pw"))
        started.sock.close()  # the code before this fix started: close what it bound
    said = refused.value.message()
    assert "cannot write the review store" in said and str(store) in said and "\n" not in said


def full_opener(path: Path) -> Store:
    """The store with no room to grow: SQLite's ``max_page_count`` at its size, as a full disk."""
    conn = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
    pages = conn.execute("PRAGMA page_count").fetchone()[0]
    conn.execute(f"PRAGMA max_page_count = {pages}")
    return Store(conn, path, writable=True, timeout=1.0)


def test_a_full_disk_is_named_as_such(store: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    open_for_writing(store).close()
    app = make(store)
    anne = Member(app, "Anne")
    fields = anne.form("/review/comment")
    monkeypatch.setattr(state, "open_for_writing", full_opener)
    app.state.workspace.reconnect()  # type: ignore[attr-defined]
    r = anne.post("/review/comment", {**fields, "text": "x" * 19_000}, **{"X-Lawdiff-Fetch": "1"})
    assert r.status_code == 503, r.text
    assert "the disk is full" in r.json()["message"] and "no transaction" not in r.json()["message"]
    assert counts(store)["comments"] == 0


def test_a_write_after_a_passing_failure_opens_the_store_again(store: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    open_for_writing(store).close()
    broken = [True]
    monkeypatch.setattr(state, "open_for_writing", lambda p: read_only_opener(p) if broken[0] else open_for_writing(p))
    ws = state.Workspace(ServeConfig(store=store))
    try:
        with pytest.raises(InputError, match="cannot write the review store"):
            ws.write(lambda s: s.set_mark("discussing", "a" * 40, "Anne"))
        broken[0] = False  # the file is writable again
        ws.write(lambda s: s.set_mark("discussing", "a" * 40, "Anne"))
    finally:
        ws.close()
    with open_for_reading(store) as s:
        mark = s.mark("discussing")
        assert mark is not None and mark.value == "a" * 40


# ---------------------------------------------------------------------------
# 11. Undo, one's own comments, the minutes, messages that point to buttons


def test_undo_takes_back_ones_own_last_write_as_a_logged_write(store: Path) -> None:
    app = make(store)
    anne, carla = Member(app, "Anne"), Member(app, "Carla")
    assert (
        carla.post("/review/comment", {**carla.form("/review/comment"), "text": "Wrong row, sorry"}).status_code == 303
    )
    assert "Undo my comment" in block_text(carla)
    assert "Undo Carla's comment" in block_text(anne)  # a chair may undo anyone's
    assert carla.post("/review/undo", carla.form("/review/undo")).status_code == 303
    assert "Wrong row, sorry" not in block_text(carla)
    with open_for_reading(store) as s:
        assert [e.action for e in s.log()][-1] == "undo" and not s.comments()
    # A member may not undo a chair's decision; the chair may.
    assert anne.post("/review/status", {**anne.form("/review/status"), "status": "accepted"}).status_code == 303
    assert "Undo" not in block_text(carla)
    fields = anne.form("/review/undo")
    r = carla.post("/review/undo", {**fields, "csrf": carla.form("/review/status")["csrf"]})
    assert r.status_code == 403 and "Only the chairs may undo what someone else wrote" in r.text
    assert anne.post("/review/undo", fields).status_code == 303
    d = decision(store)
    assert d is None or d.status is Status.OPEN


def test_an_undo_after_someone_else_wrote_is_refused_with_the_row_as_it_is(store: Path) -> None:
    app = make(store)
    anne, carla = Member(app, "Anne"), Member(app, "Carla")
    assert carla.post("/review/comment", {**carla.form("/review/comment"), "text": "Mine"}).status_code == 303
    undo = carla.form("/review/undo")
    assert anne.post("/review/assign", {**anne.form("/review/assign"), "assignee": "Bert"}).status_code == 303
    r = carla.post("/review/undo", undo)
    assert r.status_code == 409 and "nothing was undone" in r.text
    assert "assigned to" in r.text and "Bert" in r.text  # the row as it is now
    with open_for_reading(store) as s:
        assert [c.text for c in s.comments()] == ["Mine"]


def test_a_member_edits_and_deletes_her_own_comment_and_the_log_keeps_the_text(store: Path) -> None:
    app = make(store)
    anne, carla = Member(app, "Anne"), Member(app, "Carla")
    assert carla.post("/review/comment", {**carla.form("/review/comment"), "text": "Frist thought"}).status_code == 303
    assert "Edit or delete" in block_text(carla) and "Edit or delete" not in block_text(anne)
    fields = carla.form("/review/comment/edit")
    r = anne.post("/review/comment/edit", {**fields, "csrf": anne.form("/review/status")["csrf"], "text": "Mine now"})
    assert r.status_code == 403 and "only its author" in r.text
    assert carla.post("/review/comment/edit", {**fields, "text": "First thought"}).status_code == 303
    assert "First thought (edited)" not in block_text(carla) and "(edited)" in block_text(carla)
    assert carla.post("/review/comment/delete", carla.form("/review/comment/delete")).status_code == 303
    assert "First thought" not in block_text(carla)
    with open_for_reading(store) as s:
        texts = [(e.before or {}).get("text") for e in s.log() if e.table == "comments"]
        assert "Frist thought" in texts and "First thought" in texts


def test_the_meeting_page_offers_the_minutes_and_its_messages_point_to_buttons(store: Path) -> None:
    app = make(store)
    anne = Member(app, "Anne")
    token = token_of(anne.page("/meeting"))
    r = anne.client.get("/export?format=md")
    assert r.status_code == 404 and "Start the meeting" in r.text
    assert anne.post("/meeting/start", {"csrf": token, "date": "2026-12-02"}).status_code == 303
    r = anne.post("/meeting/start", {"csrf": token, "date": "2026-12-02"})
    assert r.status_code == 409 and "End the meeting" in r.text and "lawdiff review" not in r.text
    assert anne.post("/review/status", {**anne.form("/review/status"), "status": "accepted"}).status_code == 303
    page = anne.page("/meeting")
    assert 'href="export?format=docx"' in page and 'href="export?format=md"' in page
    r = anne.client.get("/export?format=md")
    assert r.status_code == 200 and 'filename="minutes-2026-12-02.md"' in r.headers["content-disposition"]
    assert "accepted" in r.text and "45C4" in r.text
    r = anne.client.get("/export?format=docx")
    # The Word minutes, as `lawdiff review export --format docx` writes them: a WordprocessingML package.
    assert r.status_code == 200 and r.content[:2] == b"PK"
    assert 'filename="minutes-2026-12-02.docx"' in r.headers["content-disposition"]
    assert anne.post("/meeting/end", {"csrf": token}).status_code == 303
    r = anne.post("/meeting/end", {"csrf": token})
    assert r.status_code == 409 and "Start the meeting" in r.text and "lawdiff review" not in r.text


# ---------------------------------------------------------------------------
# 8. Hidden characters in what members wrote


def test_an_override_in_a_comment_is_shown_as_a_mark_and_isolated_not_obeyed(store: Path) -> None:
    app = make(store)
    anne = Member(app, "Anne")
    text = "Agreed \u202eecnetnes siht\u202c and \x1b[31m red"
    assert anne.post("/review/comment", {**anne.form("/review/comment"), "text": text}).status_code == 303
    assert anne.post("/review/assign", {**anne.form("/review/assign"), "assignee": "Bert"}).status_code == 303
    page = anne.page()
    tree = lxml_html.fromstring(page)
    (shown,) = tree.xpath(f'//tbody[.//*[@id="{ROW_45C4B}"]]//*[contains(@class, "rv-text")]')
    assert shown.tag == "p" and shown.get("dir") == "auto"
    assert shown.text_content() == "Agreed ⟦U+202E RLO⟧ecnetnes siht⟦U+202C PDF⟧ and ⟦U+001B ESC⟧[31m red"
    # Only the edit box of her own comment holds the text as it is (what an edit saves back).
    for box in tree.xpath("//textarea"):
        box.getparent().remove(box)
    rest = lxml_html.tostring(tree, encoding="unicode")
    assert "\u202e" not in rest and "\x1b" not in rest
    for name in tree.xpath(f'//tbody[.//*[@id="{ROW_45C4B}"]]//*[@class="who"]'):
        assert name.tag == "bdi" and name.get("dir") == "auto"
    # The stored text is as written.
    with open_for_reading(store) as s:
        assert [c.text for c in s.comments()] == [text]
    # A name given in the address (the per-reviewer page) is shown the same way.
    person = anne.page("/people?name=Eve%E2%80%AE")
    assert "\u202e" not in person and "Eve⟦U+202E RLO⟧" in lxml_html.fromstring(person).text_content()


# ---------------------------------------------------------------------------
# 13. The agenda says what each change is


def test_the_agenda_quotes_the_first_words_of_each_change(store: Path) -> None:
    app = make(store)
    anne = Member(app, "Anne")
    tree = lxml_html.fromstring(anne.page("/agenda"))
    (item,) = tree.xpath(f'//ol[@class="agenda"]/li[a[contains(@href, "#{ROW_45C4B}")]]')
    (first,) = item.xpath('.//q[@class="first"]')
    # 45C4(b) in 2017, as the bundled corpus has it: its first twelve words.
    assert first.text_content() == "De leider mag een onbedoeld aangeduide kaart van de blinde veranderen tot …"
    # And its significance, the study's score of it, which ranks it first of the pair's article 45.
    (score,) = item.xpath('.//span[@class="significance"]')
    pair = '//ol[@class="agenda"]/li[a[contains(@href, "-2007-2017-2017-45")]]//span[@class="significance"]'
    scores = [float(s.text_content().rsplit(" ", 1)[1]) for s in tree.xpath(pair)]
    assert float(score.text_content().rsplit(" ", 1)[1]) == max(scores) > 0


def test_a_refusal_from_the_review_names_no_command(store: Path) -> None:
    app = make(store)
    anne = Member(app, "Anne")
    fields = anne.form("/review/correct", row="diff-2007-2017-2017-45D2")
    r = anne.post("/review/correct", {**fields, "pin": "1963:45 2007:45D"})
    message = lxml_html.fromstring(r.text).xpath('//p[@role="alert"]')[0].text_content()
    assert r.status_code == 400 and "exactly two editions" in message
    assert "lawdiff " not in message, message


def test_an_export_written_before_questions_still_imports() -> None:
    from lawdiff.review.columns import check_row

    old = {
        "id": "c" * 32,
        "decision": "d" * 40,
        "author": "Anne",
        "created": "2024-05-14T10:00:00.000000Z",
        "updated": "2024-05-14T10:00:00.000000Z",
        "text": "Fine",
        "deleted": False,
        "edited": "",
        "meeting": "",
    }
    assert check_row("comments", old)["question"] == ""
    with pytest.raises(ValueError, match="unknown question state"):
        check_row("comments", {**old, "question": "maybe"})


def test_a_store_file_the_user_may_not_write_is_refused_at_start(tmp_path: Path) -> None:
    """The file as it is on disk, chmod'ed read-only, for a user it binds (root is run as nobody)."""
    import os
    import shutil
    import subprocess
    import tempfile

    from test_review_store import ROOT, another_user

    tmp = Path(tempfile.mkdtemp(prefix="lawdiff-serve-"))  # not tmp_path: its folders are private
    tmp.chmod(0o755)
    path = tmp / "review.sqlite"
    open_for_writing(path).close()
    path.chmod(0o444)
    tmp.chmod(0o555)
    try:
        # Root may write anywhere: as another user.
        python, user = another_user(
            ROOT / "lawdiff" / "serve" / "run.py", "click, starlette, uvicorn, diff_match_patch, rapidfuzz"
        )
        done = subprocess.run(
            [python, "-m", "lawdiff.cli", "serve", "--review", str(path), "--port", "0"],
            capture_output=True,
            text=True,
            timeout=120,  # the code before this fix served on: killed here, and the test fails
            env={**os.environ, "PYTHONPATH": str(ROOT), "LAWDIFF_CACHE": "off", "HOME": str(tmp)},
            **user,  # type: ignore[call-overload]
        )
        assert done.returncode == 2, done.stderr
        assert done.stderr.count("\n") == 1 and "cannot write the review store" in done.stderr
    finally:
        tmp.chmod(0o755)
        path.chmod(0o644)
        shutil.rmtree(tmp)
