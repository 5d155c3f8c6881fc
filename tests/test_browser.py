"""The committee report in a real headless browser: Debian's chromium, driven by Playwright.

``scripts/test.sh`` installs both (``apt-get install chromium-headless-shell``, and
``playwright`` from the test extra; never ``playwright install``, which
downloads a browser of its own).  Without them these tests are skipped on a
developer's machine, and fail on CI (``CI=true``), so that CI never passes by
skipping them.

Screenshots and a printed PDF of the article page go to ``tests/output/``
(not kept in git): ``article-45.png``, ``article-45-phone.png``,
``article-45.pdf``, ``history-45.png``, ``index-fixture.png``,
``article-12-only-changes.png``.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from lawdiff.cli import main

HERE = Path(__file__).parent
OUTPUT = HERE / "output"
HOSTILE = HERE / "fixtures" / "html" / "hostile"
FIXTURE = HERE / "fixtures" / "html" / "corpus"


def _report(folder: Path, *args: str) -> Path:
    result = CliRunner().invoke(main, ["report", *args, "-o", str(folder)])
    assert result.exit_code == 0, result.output
    return folder


@pytest.fixture()
def report(bundled_report: Path) -> Path:
    """The bundled corpus's report, written once per session (conftest's ``bundled_report``)."""
    return bundled_report


@pytest.fixture(scope="module")
def hostile(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("hostile")
    _report(folder / "report", "--corpus", str(HOSTILE))
    result = CliRunner().invoke(
        main, ["compare", "2001", "2011", "--corpus", str(HOSTILE), "--format", "html", "-o", str(folder / "c.html")]
    )
    assert result.exit_code == 0, result.output
    return folder


@pytest.fixture(scope="module")
def fixture_report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _report(tmp_path_factory.mktemp("fixture") / "report", "--corpus", str(FIXTURE))


class Watch:
    """What a page did besides rendering: requests, console errors, dialogs."""

    def __init__(self, page: Any) -> None:
        self.requests: list[str] = []
        self.errors: list[str] = []
        self.dialogs: list[str] = []
        page.on("request", lambda r: self.requests.append(r.url))
        page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: self.errors.append(str(e)))

        def dialog(d: Any) -> None:
            self.dialogs.append(d.message)
            d.dismiss()

        page.on("dialog", dialog)


def _new_page(browser: Any, **options: Any) -> tuple[Any, Any, Watch]:
    context = browser.new_context(**options)
    page = context.new_page()
    return context, page, Watch(page)


def _row(page: Any, ident: str) -> Any:
    """The change (one ``tbody``) holding the clause block with this id."""
    return page.locator(f'tbody:has([id="{ident}"])')


def test_index_leads_to_article_45_and_its_changes(browser: Any, report: Path) -> None:
    context, page, watch = _new_page(browser, viewport={"width": 1400, "height": 1000})
    page.goto((report / "index.html").as_uri())
    assert page.locator("h1").inner_text().startswith("Spelregels voor wedstrijdbridge")
    page.locator('#matrix a[href="articles/45.html"]').click()
    page.wait_for_url("**/articles/45.html")
    assert page.locator("h1").inner_text() == "Article 45 — Gespeelde kaart"

    # 2007 -> 2017: 45C4(b) modified, with its deleted and inserted words.
    b = _row(page, "diff-2007-2017-2017-45C4b")
    b.scroll_into_view_if_needed()
    assert b.locator("td.kind .badge").first.inner_text().lower() == "modified"
    deleted = " ".join(b.locator("td.old del").all_inner_texts())
    inserted = " ".join(b.locator("td.new ins").all_inner_texts())
    assert "Tot zijn partner een kaart gespeeld heeft" in deleted and "16D1" in deleted
    assert "De leider mag een onbedoeld aangeduide kaart van de blinde veranderen" in inserted and "16C1" in inserted
    assert b.locator("td.new ins").first.is_visible()
    # Marked by more than colour: struck through and underlined.
    assert "line-through" in b.locator("td.old del").first.evaluate("e => getComputedStyle(e).textDecorationLine")
    assert "underline" in b.locator("td.new ins").first.evaluate("e => getComputedStyle(e).textDecorationLine")
    old_box = b.locator("td.old").bounding_box()
    new_box = b.locator("td.new").bounding_box()
    assert old_box["x"] + old_box["width"] <= new_box["x"]  # side by side
    assert abs(old_box["y"] - new_box["y"]) < 2

    # The renumbering of 45E.p1 to 45E1, text unchanged: one line that opens in place, its wording once, in
    # the synopsis, where it links.
    r = _row(page, "diff-2007-2017-2017-45E1")
    line = r.locator("details.same > summary")
    assert line.inner_text() == "2 clauses renumbered, wording unchanged: 45E.p1 → 45E1, 45E.p2 → 45E2"
    assert not r.locator('[id="diff-2007-2017-2007-45E.p1"]').is_visible()
    line.click()
    assert r.locator('[id="diff-2007-2017-2007-45E.p1"]').is_visible()
    assert r.locator("ins, del").count() == 0
    r.locator('[id="diff-2007-2017-2017-45E1"] a.addr').nth(1).click()
    page.wait_for_url("**/45.html#2017-45E1")
    assert page.locator('[id="2017-45E1"]').is_visible()

    # 45D2 added.
    d2 = _row(page, "diff-2007-2017-2017-45D2")
    assert d2.locator("td.kind .badge").first.inner_text().lower() == "added"
    assert "Als het te laat is om de verkeerd gelegde kaart" in d2.locator("td.new ins").first.inner_text()
    assert "not in 2007" in d2.locator("td.old").inner_text()

    # 1963 -> 2007: the opening paragraph of 1963 45 split over 45A and 45B.
    split = _row(page, "diff-1963-2007-1963-45")
    split.scroll_into_view_if_needed()
    assert split.locator("td.kind .badge").first.inner_text().lower() == "split"
    assert "45 → 45A, 45B" in split.locator("td.kind").inner_text()
    new_cells = split.locator("td.new")
    assert new_cells.count() == 2
    assert new_cells.nth(0).locator(".addr").first.inner_text() == "45A"
    assert new_cells.nth(1).locator(".addr").first.inner_text() == "45B"
    old_cell = split.locator("td.old").bounding_box()
    first, second = new_cells.nth(0).bounding_box(), new_cells.nth(1).bounding_box()
    # One old row against the two new rows.
    assert second["y"] > first["y"]
    assert old_cell["height"] >= first["height"] + second["height"] - 2

    OUTPUT.mkdir(exist_ok=True)
    shot = OUTPUT / "article-45.png"
    page.locator('[id="diff-2007-2017"]').scroll_into_view_if_needed()
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(shot), full_page=True)
    assert shot.stat().st_size > 10_000
    assert watch.errors == [] and watch.dialogs == []
    assert all(u.startswith("file://") for u in watch.requests), watch.requests
    context.close()


def test_script_adds_conveniences_under_the_content_security_policy(browser: Any, report: Path) -> None:
    context, page, watch = _new_page(browser, viewport={"width": 1400, "height": 1000})
    page.goto((report / "articles" / "45.html").as_uri())
    unchanged = page.locator("table.sbs tbody.same")
    assert unchanged.count() > 0 and unchanged.first.is_visible()
    page.locator("#only-changes").check()
    assert not unchanged.first.is_visible()
    assert page.locator("table.sbs tbody.diff").first.is_visible()
    page.locator("#only-changes").uncheck()
    page.locator("h1").click()  # the keys act when no form field has the focus
    page.keyboard.press("n")
    assert page.locator("tbody.focus").count() == 1
    page.goto((report / "index.html").as_uri())
    page.locator("input[type=search]").fill("blinde")
    visible = [t for t in page.locator("#matrix tbody tr:visible").all_inner_texts()]
    assert visible and all("blinde" in t.lower() for t in visible)
    assert watch.errors == []
    context.close()


def test_pages_work_with_javascript_off(browser: Any, report: Path) -> None:
    context, page, _ = _new_page(browser, java_script_enabled=False, viewport={"width": 1400, "height": 1000})
    page.goto((report / "articles" / "45.html").as_uri() + "#2017-45C4b")
    assert page.locator(".toolbar").count() == 0
    assert page.locator('[id="2017-45C4b"]').is_visible()  # the anchor of a clause, in the synopsis
    assert page.locator("table.sbs tbody.same").first.is_visible()
    # A link into a closed run of unchanged clauses opens it (the browser reveals what a fragment leads to).
    page.goto((report / "articles" / "45.html").as_uri() + "#diff-2007-2017-2017-45C1")
    assert page.locator('[id="diff-2007-2017-2017-45E1"]').count() == 1
    page.goto((report / "articles" / "45.html").as_uri() + "#diff-2007-2017-2017-45E1")
    assert page.locator('[id="diff-2007-2017-2017-45E1"]').is_visible()
    # A clause's address in the synopsis leads to its history.
    page.goto((report / "articles" / "45.html").as_uri() + "#2017-45C4b")
    page.locator('[id="2017-45C4b"] a.addr').first.click()
    page.wait_for_url("**/45-history.html#2017-45C4b")
    # 2007 45C4(b) and 2017 45C4(b) have one history, shown once: the anchor is
    # 2017's name in the heading of that history's section.
    assert page.locator('[id="2017-45C4b"]').is_visible()
    history = page.locator('section.history:has([id="2017-45C4b"])')
    assert history.get_attribute("id") == "2007-45C4b"
    assert "Current wording introduced in 2017." in history.inner_text()
    context.close()


def test_article_page_reads_on_a_phone_and_prints(browser: Any, report: Path) -> None:
    context, page, _ = _new_page(browser, viewport={"width": 390, "height": 844}, device_scale_factor=2)
    for other in ("index.html", "articles/45-history.html"):
        page.goto((report / other).as_uri())
        assert page.evaluate("document.documentElement.scrollWidth") <= 391, f"{other} scrolls sideways on a phone"
    page.goto((report / "articles" / "45.html").as_uri())
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 391, f"the page scrolls sideways on a phone ({width}px)"
    b = _row(page, "diff-2007-2017-2017-45C4b")
    kind, old, new = (b.locator(f"td.{c}").bounding_box() for c in ("kind", "old", "new"))
    assert kind["y"] < old["y"] < new["y"]  # stacked: what changed, then old, then new
    OUTPUT.mkdir(exist_ok=True)
    b.scroll_into_view_if_needed()
    page.screenshot(path=str(OUTPUT / "article-45-phone.png"))
    context.close()

    context, page, _ = _new_page(browser)
    page.goto((report / "articles" / "45.html").as_uri())
    page.emulate_media(media="print")
    assert not page.locator("nav.crumbs").is_visible()
    assert page.locator("table.sbs").first.is_visible()
    pdf = OUTPUT / "article-45.pdf"
    page.pdf(path=str(pdf), landscape=True, print_background=True, prefer_css_page_size=True)
    assert pdf.read_bytes().startswith(b"%PDF")
    context.close()


def test_hostile_law_text_runs_no_script_and_reads_literally(browser: Any, hostile: Path) -> None:
    pages = [
        hostile / "report" / "index.html",
        hostile / "report" / "articles" / "66.html",
        hostile / "report" / "articles" / "66-history.html",
        hostile / "c.html",
    ]
    for path in pages:
        context, page, watch = _new_page(browser)
        page.add_init_script("window.PWNED = undefined;")
        page.goto(path.as_uri())
        page.wait_for_load_state("load")
        page.wait_for_timeout(200)
        assert watch.dialogs == [], f"{path.name}: a dialog opened: {watch.dialogs}"
        assert page.evaluate("window.PWNED === undefined"), f"{path.name}: a script of the law text ran"
        assert page.locator("main img, main script").count() == 0
        if path.name != "index.html":
            text = page.locator("main").inner_text()
            assert "<script>window.PWNED=1;alert(1)</script>" in text
            assert '<img src=x onerror="window.PWNED=1">' in text
            assert "&amp; en &lt;script&gt;" in text
        context.close()
    context, page, _ = _new_page(browser)
    page.goto((hostile / "report" / "articles" / "66.html").as_uri())
    assert page.locator("h1").inner_text() == 'Article 66 — Gevaar <i>cursief</i> & "quotes"'
    ins = " ".join(page.locator('tbody:has([id="diff-2001-2011-2011-66A"]) ins').all_inner_texts())
    assert "</td></tr></table><script>alert(2)</script>" in ins
    context.close()


def test_a_stale_reference_stays_in_view_with_only_changes(browser: Any, fixture_report: Path) -> None:
    context, page, watch = _new_page(browser, viewport={"width": 1400, "height": 1000})
    page.goto((fixture_report / "articles" / "12.html").as_uri())
    stale = _row(page, "diff-2001-2011-2011-12A")
    unchanged = page.locator("table.sbs tbody.same")
    assert unchanged.count() > 0
    page.locator("#only-changes").check()
    assert not unchanged.first.is_visible()
    assert stale.is_visible()
    assert stale.locator(".badge.b-stale").inner_text().lower() == "stale reference"
    assert "2001 12C is now 2011 12D" in stale.locator("td.kind").inner_text()
    assert page.locator("tbody.diff").first.is_visible()
    OUTPUT.mkdir(exist_ok=True)
    page.screenshot(path=str(OUTPUT / "article-12-only-changes.png"), full_page=True)
    page.goto((fixture_report / "index.html").as_uri())
    page.screenshot(path=str(OUTPUT / "index-fixture.png"), full_page=True)
    assert watch.errors == []
    context.close()


def test_history_of_a_split_shows_each_piece_with_its_own_wording(browser: Any, report: Path) -> None:
    context, page, watch = _new_page(browser, viewport={"width": 1400, "height": 1000})
    page.goto((report / "articles" / "45-history.html").as_uri() + "#1963-45")
    row = page.locator('[id="1963-45"] tr', has=page.locator("th", has_text="2007"))
    assert row.locator("td.kind").inner_text().startswith("SPLIT")
    pieces = row.locator(".hstep")
    assert pieces.count() == 2
    first, second = pieces.nth(0).locator(".tx").inner_text(), pieces.nth(1).locator(".tx").inner_text()
    assert first.startswith("Elke speler behalve de blinde") and "zelf opnemen" not in first
    assert second.startswith("De leider speelt een kaart uit de blinde") and second.endswith("zelf opnemen.")
    OUTPUT.mkdir(exist_ok=True)
    row.scroll_into_view_if_needed()
    page.screenshot(path=str(OUTPUT / "history-45.png"))
    # The split's word differences are the article page's, a link away.
    row.locator("a.wd").click()
    page.wait_for_url("**/45.html#change-*")
    assert page.locator("tbody:target").locator("td.kind .badge").first.inner_text().lower() == "split"
    assert watch.errors == []
    context.close()


def teardown_module() -> None:
    # Nothing of a run but the screenshots and the PDF stays behind.
    for leftover in OUTPUT.glob(".*") if OUTPUT.exists() else []:
        shutil.rmtree(leftover, ignore_errors=True)
