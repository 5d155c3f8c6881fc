"""``lawdiff serve`` in a real browser: Debian's chromium, driven by Playwright, as the report's tests.

The server runs in this process, in a thread, on a free port of 127.0.0.1
(uvicorn, as ``lawdiff serve`` runs it).  Without chromium or playwright the
tests are skipped on a developer's machine and fail on CI, as in
``test_browser.py``.  Screenshots go to ``tests/output/`` (not kept in git):
``serve-45C4b.png``, ``serve-agenda.png``.
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from lawdiff.review import Status, open_for_reading
from lawdiff.serve import ServeConfig
from lawdiff.serve.run import make_server, prepare, serve

HERE = Path(__file__).parent
OUTPUT = HERE / "output"
ROW = "diff-2007-2017-2017-45C4b"
# A POST made by a script on the page, not by the page's forms.
POST_BY_HAND = "(f) => fetch('/review/status', {method: 'POST', body: new URLSearchParams(f)}).then(r => r.status)"
PASSWORD = "committee secret"


class Served:
    def __init__(self, url: str, store: Path) -> None:
        self.url = url
        self.store = store
        # The members' browser contexts, closed when the test ends: a page left open goes on
        # listening for live updates (and costing CPU) through the tests after it.
        self.contexts: list[Any] = []


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Served]:
    store = tmp_path / "review.sqlite"
    config = ServeConfig(store=store, port=0, password=PASSWORD, chairs=frozenset({"anne", "bert"}))
    started = prepare(config)
    uv = make_server(started)
    thread = threading.Thread(target=serve, args=(started, uv), daemon=True)
    thread.start()
    served = Served(started.url.rstrip("/"), store)
    try:
        yield served
    finally:
        for context in served.contexts:
            context.close()
        uv.should_exit = True
        thread.join(timeout=30)


class Watch:
    """Console errors (a policy violation is one) and page errors."""

    def __init__(self, page: Any) -> None:
        self.errors: list[str] = []
        page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: self.errors.append(str(e)))


def _member(browser: Any, served: Served, name: str, password: str = PASSWORD, **options: Any) -> tuple[Any, Watch]:
    context = browser.new_context(**{"viewport": {"width": 1400, "height": 1000}, **options})
    served.contexts.append(context)
    page = context.new_page()
    watch = Watch(page)
    page.goto(f"{served.url}/articles/45.html")
    page.wait_for_url(re.compile(r"/signin\?next="))
    page.fill('input[name="name"]', name)
    page.fill('input[name="password"]', password)
    page.click('form.signin button[type="submit"]')
    if password == PASSWORD:
        page.wait_for_url("**/articles/45.html")
    return page, watch


def _row(page: Any, ident: str = ROW) -> Any:
    return page.locator(f'tbody:has([id="{ident}"])')


def _open(page: Any, ident: str = ROW) -> Any:
    """The row, its controls' disclosure opened (as a member taps "Decide, comment, assign…")."""
    row = _row(page, ident)
    details = row.locator("details.rv-controls")
    if details.get_attribute("open") is None:
        details.locator("> summary").click()
    return row


def _status(page: Any, ident: str = ROW) -> str:
    return str(_row(page, ident).locator(".rv-state b.st").inner_text())


def test_decide_comment_reload_and_a_second_browser_sees_both(browser: Any, server: Served) -> None:
    page, watch = _member(browser, server, "Anne")
    page.evaluate("window.notReloaded = true")
    row = _row(page)
    row.scroll_into_view_if_needed()
    _open(page).locator('form.rv-status button[value="accepted"]').click()
    row = _row(page)
    page.wait_for_function(
        f"""() => document.querySelector('tbody:has([id="{ROW}"]) .rv-msg').textContent === 'Saved: accepted.'"""
    )
    assert _status(page) == "accepted"
    assert "st-accepted" in (row.get_attribute("class") or "")
    row.locator("form.rv-comment textarea").fill("Agreed: follows the English text <b>&</b>.")
    row.locator('form.rv-comment button[type="submit"]').click()
    page.wait_for_function(
        f"""() => document.querySelector('tbody:has([id="{ROW}"]) .rv-msg').textContent === 'Comment added.'"""
    )
    assert page.evaluate("window.notReloaded") is True  # updated in place
    OUTPUT.mkdir(exist_ok=True)
    row.screenshot(path=str(OUTPUT / "serve-45C4b.png"))
    page.reload()
    row = _row(page)
    assert _status(page) == "accepted"
    assert "Agreed: follows the English text <b>&</b>." in row.locator(".rv-thread").inner_text()
    assert watch.errors == []
    # A second member, in another browser context, sees both.
    other, other_watch = _member(browser, server, "Bert")
    assert _status(other) == "accepted"
    assert "Anne" in _row(other).locator(".rv-state").inner_text()
    assert "Agreed: follows the English text <b>&</b>." in _row(other).locator(".rv-thread").inner_text()
    assert other_watch.errors == []
    with open_for_reading(server.store) as s:
        [d] = s.decisions()
        assert (d.status, d.author) == (Status.ACCEPTED, "Anne")
        assert [c.author for c in s.comments()] == ["Anne"]


def test_a_stale_form_is_refused_with_the_newer_state_shown(browser: Any, server: Served) -> None:
    anne, _ = _member(browser, server, "Anne")
    bert, watch = _member(browser, server, "Bert")
    # Bert's page does not hear of Anne's decision (a laptop whose polls are lost, or his press
    # between two of them): it stays as it was rendered.
    bert.route("**/api/updates*", lambda route: route.abort())
    _open(anne).locator('form.rv-status button[value="accepted"]').click()
    anne.wait_for_function(f"""() => document.querySelector('tbody:has([id="{ROW}"]) .rv-msg').textContent !== ''""")
    # Bert's page still says open; he rejects on what he saw.
    assert _status(bert) == "open"
    _open(bert).locator('form.rv-status button[value="rejected"]').click()
    bert.wait_for_function(f"""() => document.querySelector('tbody:has([id="{ROW}"]) .rv-msg.bad') !== null""")
    message = _row(bert).locator(".rv-msg").inner_text()
    assert "Anne" in message and "now accepted" in message and "nothing was saved" in message
    assert _status(bert) == "accepted"  # the newer state is shown
    with open_for_reading(server.store) as s:
        assert [d.status for d in s.decisions()] == [Status.ACCEPTED]
    assert not [e for e in watch.errors if "409" not in e and "ERR_FAILED" not in e]


def test_with_javascript_off_the_forms_still_work(browser: Any, server: Served) -> None:
    page, _ = _member(browser, server, "Carla", java_script_enabled=False)
    _open(page).locator('form.rv-status button[value="query"]').click()
    page.wait_for_url(f"**/articles/45.html#{ROW}")
    assert _status(page) == "query"
    _open(page).locator("form.rv-comment textarea").fill("Which English text?")
    _open(page).locator('form.rv-comment button[type="submit"]').click()
    page.wait_for_url(f"**/articles/45.html#{ROW}")
    assert "Which English text?" in _row(page).locator(".rv-thread").inner_text()
    page.goto(f"{server.url}/agenda")
    assert "1 in query" in page.locator("main").inner_text()
    page.screenshot(path=str(OUTPUT / "serve-agenda.png"), full_page=False)


def test_a_wrong_password_is_refused(browser: Any, server: Served) -> None:
    page, _ = _member(browser, server, "Anne", password="guess")
    assert "/signin" in page.url
    assert "Wrong password" in page.locator("main").inner_text()
    page.goto(f"{server.url}/articles/45.html")
    assert "/signin" in page.url and page.locator("table.sbs").count() == 0


def test_a_post_without_the_forgery_token_is_refused(browser: Any, server: Served) -> None:
    page, _ = _member(browser, server, "Anne")
    fields = page.evaluate(
        f"""() => Object.fromEntries(new FormData(document.querySelector('tbody:has([id="{ROW}"]) form.rv-status')))"""
    )
    del fields["csrf"]
    fields["status"] = "accepted"
    status = page.evaluate(
        POST_BY_HAND,
        fields,
    )
    assert status == 403
    with open_for_reading(server.store) as s:
        assert s.decisions() == []


def test_a_member_who_is_not_a_chair_cannot_accept(browser: Any, server: Served) -> None:
    page, _ = _member(browser, server, "Carla")
    row = _row(page)
    assert row.locator('form.rv-status button[value="accepted"]').count() == 0
    assert row.locator('form.rv-status button[value="query"]').count() == 1
    # The key for accepting says why nothing happens.
    row.scroll_into_view_if_needed()
    page.evaluate(f"""() => document.querySelector('tbody:has([id="{ROW}"])').classList.add('focus')""")
    page.keyboard.press("a")
    assert _row(page).locator(".rv-msg").inner_text() == "Only the chairs may accept."
    # Sent by hand with her own token, it is refused by the server.
    fields = page.evaluate(
        f"""() => Object.fromEntries(new FormData(document.querySelector('tbody:has([id="{ROW}"]) form.rv-status')))"""
    )
    fields["status"] = "accepted"
    status = page.evaluate(
        POST_BY_HAND,
        fields,
    )
    assert status == 403
    # The key for querying works for her.
    page.keyboard.press("q")
    page.wait_for_function(
        f"""() => document.querySelector('tbody:has([id="{ROW}"]) .rv-msg').textContent === 'Saved: query.'"""
    )
    assert _status(page) == "query"


def test_every_open_page_sees_others_decisions_comments_and_assignments_live(browser: Any, server: Served) -> None:
    anne, watch = _member(browser, server, "Anne")
    bert, _ = _member(browser, server, "Bert")
    carla, _ = _member(browser, server, "Carla")
    carla.goto(f"{server.url}/agenda")
    before = carla.locator("main .lead").inner_text()
    # Bert is typing a comment on the row when Anne decides it.
    _open(bert).locator("form.rv-comment textarea").fill("Half a thought")
    _open(anne).locator('form.rv-status button[value="accepted"]').click()
    anne.wait_for_function(f"""() => document.querySelector('tbody:has([id="{ROW}"]) .rv-msg.good') !== null""")
    _open(anne).locator("form.rv-comment textarea").fill("Agreed in the meeting")
    _open(anne).locator('form.rv-comment button[type="submit"]').click()
    _open(anne).locator("form.rv-assign input[name=assignee]").fill("Carla")
    _open(anne).locator("form.rv-assign button").click()
    # Within a few seconds, without a reload, Bert's row and Carla's agenda show all three.
    bert.wait_for_function(
        f"""() => {{ const b = document.querySelector('tbody:has([id="{ROW}"]) .rv');
        return b && b.querySelector('.rv-state b.st').textContent === 'accepted'
          && b.textContent.includes('Agreed in the meeting') && b.textContent.includes('assigned to Carla'); }}""",
        timeout=30_000,
    )
    assert _open(bert).locator("form.rv-comment textarea").input_value() == "Half a thought"
    carla.wait_for_function(
        """(before) => document.querySelector('main .lead').textContent !== before""", arg=before, timeout=30_000
    )
    # Without JavaScript nothing is lost: a reload shows it all.
    plain, _ = _member(browser, server, "Dora", java_script_enabled=False)
    text = _row(plain).locator(".rv").inner_text()
    assert "accepted" in text and "Agreed in the meeting" in text and "assigned to Carla" in text
    assert not watch.errors


def test_a_write_answered_after_a_live_update_redrew_its_row_still_says_saved(browser: Any, server: Served) -> None:
    """Anne's decision is on its way while Bert's comment on the same row reaches her page live and redraws
    the row: the answer to her write lands on the row as it is now (it was put on the row the update had
    replaced, so that she saw nothing, or "the server could not be reached"), and a "Saved." already shown
    stays through the next update."""
    anne, watch = _member(browser, server, "Anne")
    bert, _ = _member(browser, server, "Bert")

    # Anne's writes leave her page 2.5 s late, longer than its poll (1 s): Bert's comment is drawn first.
    anne.evaluate(
        """() => { const f = window.fetch;
        window.fetch = (u, o) => (o && o.method === 'POST')
          ? new Promise(r => setTimeout(r, 2500)).then(() => f(u, o)) : f(u, o); }"""
    )
    _open(anne).locator('form.rv-status button[value="accepted"]').click()
    _open(bert).locator("form.rv-comment textarea").fill("Seen while Anne decides")
    _open(bert).locator('form.rv-comment button[type="submit"]').click()
    anne.wait_for_function(
        f"""() => {{ const b = document.querySelector('tbody:has([id="{ROW}"]) .rv');
        return b && b.querySelector('.rv-msg.good') !== null
          && b.querySelector('.rv-state b.st').textContent === 'accepted'; }}""",
        timeout=15_000,
    )
    assert not watch.errors


def test_what_is_typed_in_a_row_while_its_other_write_is_on_its_way_stays(browser: Any, server: Served) -> None:
    """Anne sends a comment and, before the answer comes, types an assignee in the same row: the answer
    redraws the row, and the assignee she typed is still there (it was lost, and her "Assign" then sent
    an empty name); the comment box, whose comment was sent, starts empty."""
    anne, watch = _member(browser, server, "Anne")
    anne.evaluate(
        """() => { const f = window.fetch;
        window.fetch = (u, o) => (o && o.method === 'POST')
          ? new Promise(r => setTimeout(r, 1500)).then(() => f(u, o)) : f(u, o); }"""
    )
    _open(anne).locator("form.rv-comment textarea").fill("Agreed in the meeting")
    _open(anne).locator('form.rv-comment button[type="submit"]').click()
    _open(anne).locator("form.rv-assign input[name=assignee]").fill("Carla")
    anne.wait_for_function(
        f"""() => {{ const b = document.querySelector('tbody:has([id="{ROW}"]) .rv');
        return b && b.textContent.includes('Agreed in the meeting') && b.querySelector('.rv-msg.good') !== null; }}""",
        timeout=15_000,
    )
    assert _open(anne).locator("form.rv-assign input[name=assignee]").input_value() == "Carla"
    assert _open(anne).locator("form.rv-comment textarea").input_value() == ""
    assert not watch.errors


# Article 45 at 390 px, as a chair sees it, before this layout (commit 64b85bb, measured with this
# browser as the test below measures it): 38,590 px.  The issue asks for at most a third.
HEIGHT_BEFORE = 38_590


def test_on_a_phone_article_45_is_a_third_as_tall_and_every_control_one_tap_away(browser: Any, server: Served) -> None:
    page, watch = _member(browser, server, "Anne", viewport={"width": 390, "height": 844})
    height = page.evaluate("document.documentElement.scrollHeight")
    assert height <= HEIGHT_BEFORE / 3, height
    # The old and new text of every change are shown unfolded.
    hidden = page.evaluate(
        """() => Array.from(document.querySelectorAll(
             'tbody.diff td.old:not(.empty) .tx, tbody.diff td.new:not(.empty) .tx'
           )).filter(e => e.getBoundingClientRect().height === 0).length"""
    )
    assert hidden == 0
    row = _row(page)
    row.scroll_into_view_if_needed()
    # The review block comes after the new text.
    boxes = page.evaluate(
        f"""() => {{ const b = document.querySelector('tbody:has([id="{ROW}"])');
        return [b.querySelector('td.new').getBoundingClientRect().bottom,
                b.querySelector('.rv').getBoundingClientRect().top]; }}"""
    )
    assert boxes[1] >= boxes[0] - 1, boxes
    # The bar with "Now discussing" stays on screen.
    bar = page.evaluate(
        "(() => { const r = document.querySelector('.serve-bar').getBoundingClientRect();"
        " return [r.top, r.height]; })()"
    )
    assert bar[0] == 0 and 0 < bar[1] < 80 and page.evaluate("window.scrollY") > 3000
    assert "Now discussing" in page.locator(".serve-bar").inner_text()
    # One tap opens the row's controls in place; the row does not move.
    where = f"""() => document.querySelector('tbody:has([id="{ROW}"])').getBoundingClientRect().top + window.scrollY"""
    top = page.evaluate(where)
    row.locator("details.rv-controls > summary").click()
    assert abs(page.evaluate(where) - top) < 2  # the row stays where it is in the page
    assert page.evaluate(f"""() => document.querySelector('tbody:has([id="{ROW}"]) details.rv-controls').open""")
    assert row.locator('form.rv-status button[value="accepted"]').is_visible()
    assert row.locator("form.rv-comment textarea").is_visible()
    page.screenshot(path=str(OUTPUT / "serve-phone-45.png"))
    assert not watch.errors
    # Without JavaScript, on a phone too, the disclosure opens and the form works.
    plain, _ = _member(browser, server, "Carla", java_script_enabled=False, viewport={"width": 390, "height": 844})
    _open(plain).locator('form.rv-status button[value="query"]').click()
    plain.wait_for_url(f"**/articles/45.html#{ROW}")
    assert _status(plain) == "query"


def test_next_undecided_follows_the_agenda_order_a_chair_sets(browser: Any, server: Served) -> None:
    anne, watch = _member(browser, server, "Anne")
    anne.goto(f"{server.url}/agenda")
    anne.select_option("form.agenda-order select[name=order]", "significance")
    anne.click("form.agenda-order button[type=submit]")
    anne.wait_for_selector("ol.agenda-ranked")
    # Carla, a member, walks the agenda in the chair's order: most significant first, each with its score.
    carla, _ = _member(browser, server, "Carla")
    carla.goto(f"{server.url}/agenda")
    items = carla.locator("ol.agenda-ranked > li")
    scores = [float(s) for text in items.all_inner_texts() for s in re.findall(r"significance (\d+\.\d+)", text)]
    assert len(scores) == items.count() and scores == sorted(scores, reverse=True) and scores[0] > scores[-1]
    first, second = (str(items.nth(k).locator("a").first.get_attribute("href")) for k in (0, 1))
    carla.click("main .lead a")  # "Walk them one by one from the first"
    carla.wait_for_url(f"**{first}")
    row = first.split("#", 1)[1]
    _open(carla, row).locator("p.rv-next a").click()  # the row's "Next undecided →"
    carla.wait_for_url(f"**{second}")
    assert _row(carla, second.split("#", 1)[1]).is_visible()
    assert not watch.errors


def test_in_dutch_the_app_reads_dutch_its_script_too_and_axe_finds_no_violation(browser: Any, server: Served) -> None:
    """A member whose browser asks for Dutch reads every page in Dutch (``<html lang="nl">``, the law text
    ``lang="nl"`` in it as in English), what the script says included; axe-core finds nothing on the
    server's pages, every disclosure open, nor on what the server adds to an article page (its bar, a
    row's review open) and on that page as a whole document (its language, landmarks, title: the report's
    rows themselves are the report's tests'); the link on the page goes back to English."""
    from test_browser_report import _axe_script

    axe = _axe_script()
    page, watch = _member(browser, server, "Anne", locale="nl-NL")
    assert page.locator("html").get_attribute("lang") == "nl"
    assert page.locator(".keys").last.inner_text() == "a / q: huidige wijziging aanvaarden / vraag stellen"
    _open(page).locator('form.rv-status button[value="accepted"]').click()
    page.wait_for_function(
        f"""() => document.querySelector('tbody:has([id="{ROW}"]) .rv-msg').textContent === 'Opgeslagen: aanvaard.'"""
    )
    assert _status(page) == "aanvaard"
    # (preload off: axe would fetch the stylesheet again, which the page's policy forbids.)
    options = "resultTypes: ['violations'], preload: false"
    runs = {
        "/articles/45.html": [
            f"""axe.run({{include: [['.serve-bar'], ['tbody:has([id="{ROW}"])']]}}, {{{options}}})""",
            f"axe.run(document, {{runOnly: {json.dumps(DOCUMENT_RULES)}, {options}}})",
        ],
        "/agenda": [f"axe.run(document, {{{options}}})"],
        "/meeting": [f"axe.run(document, {{{options}}})"],
    }
    found: dict[str, list[str]] = {}
    for path, checks in runs.items():
        page.goto(f"{server.url}{path}")
        assert page.locator("html").get_attribute("lang") == "nl"
        page.evaluate(f"""() => document.querySelectorAll(
            'main > details, main > section details, .serve-bar details, tbody:has([id="{ROW}"]) details'
          ).forEach(d => d.open = true)""")
        page.evaluate(axe)
        for check in checks:
            result = page.evaluate(check)
            found[path] = found.get(path, []) + [
                f"{v['id']}: {v['nodes'][0]['target']} {v['nodes'][0]['failureSummary'][:200]}"
                for v in result["violations"]
            ]
    assert found == {path: [] for path in runs}
    page.locator('.serve-bar nav.languages a[lang="en"]').click()
    page.wait_for_url("**/meeting")
    assert page.locator("html").get_attribute("lang") == "en" and "Next undecided change" in page.inner_text("main")
    assert watch.errors == []


# The rules of axe-core about a page as a whole: its language, title, landmarks and way past the navigation.
DOCUMENT_RULES = [
    "html-has-lang",
    "html-lang-valid",
    "valid-lang",
    "document-title",
    "landmark-one-main",
    "landmark-no-duplicate-banner",
    "landmark-unique",
    "region",
    "bypass",
    "duplicate-id-aria",
]
