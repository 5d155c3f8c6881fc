"""The committee report in a real browser: the top of an article page, printing one pair,
accessibility (axe-core), keyboard and touch, the review, the correlation tables.

Chromium and Playwright as in ``tests/test_browser.py`` (whose fixtures this
module uses).  axe-core is the one the ``axe-playwright-python`` package
ships (``axe.min.js``, MPL-2.0), installed by the test extra; it is put into
each page by Playwright, so that the page's Content-Security-Policy stays as
the report writes it.  The printed pages and screenshots go to ``tests/output/``.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
import test_browser
from chromium import unavailable
from click.testing import CliRunner
from test_browser import OUTPUT, _new_page, _report, _row

from lawdiff.cli import main

# The fixture of tests/test_browser.py: the bundled corpus's report (the browser is conftest's).
report = test_browser.report

HERE = Path(__file__).parent
FIXTURE = HERE / "fixtures" / "html" / "corpus"


def _axe_script() -> str:
    try:
        from importlib import resources

        return (resources.files("axe_playwright_python") / "axe.min.js").read_text(encoding="utf-8")
    except (ImportError, FileNotFoundError):
        unavailable("axe-core is missing (pip install -e '.[test]' installs axe-playwright-python)")
        raise


def _store(folder: Path) -> Path:
    """A review store with a decision of each kind the report shows: current, outdated, orphaned, not compared."""
    store = folder / "review.sqlite"
    draft = folder / "draft"
    runner = CliRunner()

    def run(*args: str) -> None:
        result = runner.invoke(main, [*args, "--review", str(store)])
        assert result.exit_code == 0, result.output

    run(
        "review",
        "set",
        "2017:45C4(b)",
        "accepted",
        "--comment",
        "Agreed: <b>follows</b> the English & text.",
        "--author",
        "Anne",
    )
    run("review", "comment", "2017:45C4b", "Is 'onbedoeld' right?\x1b[31m", "--author", "Bert")
    run("review", "set", "2017:45D2", "query", "--comment", "'blinde' should be 'de blinde'.", "--author", "Carla")
    run("review", "assign", "2017:45D2", "Carla", "--author", "Bert")
    run("review", "set", "2017:45C1", "translation-fix", "--author", "Anne")
    # A corrected draft: 45C4(b)'s decision is now outdated.
    shutil.copytree(HERE.parent / "corpus", draft)
    payload = draft / "2017" / "nuxt-artikel-45.payload.json"
    text = payload.read_text(encoding="utf-8")
    payload.write_text(
        text.replace("mag een onbedoeld aangeduide kaart", "mag een per ongeluk aangeduide kaart"), encoding="utf-8"
    )
    return store


@pytest.fixture(scope="module")
def reviewed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("reviewed")
    store = _store(folder)
    return _report(folder / "report", "--corpus", str(folder / "draft"), "--review", str(store))


# ---------------------------------------------------------------------------
# Accessibility


PAGES = ("index.html", "articles/45.html", "articles/45-history.html", "correlation-2007-2017.html", "review.html")
WIDTHS = (1280, 640)


@pytest.fixture(scope="module")
def axe_found(browser: Any, reviewed: Path) -> tuple[dict[int, dict[str, list[str]]], list[str]]:
    """axe-core's violations on each page of :data:`PAGES` at each width of :data:`WIDTHS` (every disclosure
    open, so that what is behind them is checked too), and the errors the pages logged.

    Each page is loaded once and checked at each width in turn, the viewport set to it before axe runs the
    whole check again: the layout follows the viewport (the stylesheet's media queries; report.js reads no
    width), and axe builds its tree and its caches afresh for each run.  A page loaded at 640 px gave the same
    result, rule for rule and node for node with the data of each check (2026-12-02, all five pages), as one
    loaded at 1280 px and set to 640 px; a load and axe's script, put in again, cost a second of the browser's
    CPU per width."""
    axe = _axe_script()
    context, page, watch = _new_page(browser, viewport={"width": WIDTHS[0], "height": 900})
    found: dict[int, dict[str, list[str]]] = {width: {} for width in WIDTHS}
    for name in PAGES:
        page.goto((reviewed / name).as_uri())
        page.evaluate("document.querySelectorAll('details').forEach(d => d.open = true)")
        page.evaluate(axe)
        for width in WIDTHS:
            page.set_viewport_size({"width": width, "height": 900})
            page.evaluate("window.scrollTo(0, 0)")  # where a page loaded at this width is
            # (preload off: axe would fetch the stylesheet again, which the page's policy forbids.)
            result = page.evaluate("axe.run(document, {resultTypes: ['violations'], preload: false})")
            assert result["testEngine"]["name"] == "axe-core"
            assert page.evaluate("innerWidth") == width
            found[width][name] = [
                f"{v['id']} ({len(v['nodes'])}): {v['nodes'][0]['target']} {v['nodes'][0]['failureSummary'][:200]}"
                for v in result["violations"]
            ]
    context.close()
    return found, watch.errors


@pytest.mark.parametrize("width", WIDTHS)
def test_axe_finds_no_violation_on_the_report_pages(
    axe_found: tuple[dict[int, dict[str, list[str]]], list[str]], width: int
) -> None:
    found, errors = axe_found
    assert found[width] == {name: [] for name in PAGES}
    assert errors == []


def test_a_dutch_page_has_no_axe_violation_and_its_script_and_print_words_are_dutch(
    browser: Any, reviewed: Path
) -> None:
    """``lawdiff --lang nl report``: the article page with the review, checked as the English pages are above;
    report.js says its words in Dutch (the body's data-text), an insertion is announced in Dutch, and the
    printed sheets are numbered in Dutch."""
    folder = reviewed.parent
    dutch = _report(
        folder / "nl",
        "--lang",
        "nl",
        "2007",
        "2017",
        "--corpus",
        str(folder / "draft"),
        "--review",
        str(folder / "review.sqlite"),
    )
    context, page, watch = _new_page(browser, viewport={"width": 1280, "height": 900})
    page.goto((dutch / "articles" / "45.html").as_uri())
    assert page.evaluate("document.documentElement.lang") == "nl"
    assert page.locator("label:has(#only-changes)").inner_text().strip() == "Alleen wijzigingen tonen"
    assert "beoordeling: aanvaard" in page.locator("#row-filter").inner_text()
    inserted = page.locator("td.new ins").first.evaluate("e => getComputedStyle(e, '::before').content")
    assert inserted == '" [ingevoegd: "'
    page.evaluate("document.querySelectorAll('details').forEach(d => d.open = true)")
    page.evaluate(_axe_script())
    result = page.evaluate("axe.run(document, {resultTypes: ['violations'], preload: false})")
    assert [f"{v['id']}: {v['nodes'][0]['target']}" for v in result["violations"]] == []
    assert watch.errors == []
    # Printed, each sheet is numbered in Dutch ("pagina 1 van 5", report.css on a page whose lang is nl).
    pdf = folder / "nl-45.pdf"
    page.pdf(path=str(pdf), prefer_css_page_size=True, print_background=True, margin=DIALOG_MARGINS)
    sheets = [s for s in _pdf_text(pdf).split("\f") if s.strip()]
    assert sheets
    for i, sheet in enumerate(sheets, 1):
        assert f"pagina {i} van {len(sheets)}" in sheet, i
    context.close()


def test_axe_finds_the_faint_grey_it_is_meant_to_find(browser: Any, report: Path) -> None:
    """The check can fail: a page given back the old faint grey (3.1:1) has contrast violations."""
    axe = _axe_script()
    context, page, _ = _new_page(browser, viewport={"width": 1280, "height": 900})
    page.goto((report / "articles" / "45.html").as_uri())
    page.evaluate("document.documentElement.style.setProperty('--faint', '#8a93a0')")
    page.evaluate(axe)
    # Only the rule that finds it, and only on the elements the grey paints: axe's rules judge the page each
    # on its own, and the contrast rule each element on its own (its background is found from the whole
    # page, whatever the run includes), so it finds here what it finds within the whole run above, without
    # the other rules' and the other elements' seconds of the browser's CPU.  (Run on the whole page, it
    # found the same 55 elements, each with the same colours and ratio, 2026-12-02.)
    grey = "[...document.querySelectorAll('body *')].filter(e => getComputedStyle(e).color === 'rgb(138, 147, 160)')"
    assert page.evaluate(f"{grey}.length") > 0
    result = page.evaluate(
        f"axe.run({{include: {grey}}}, {{runOnly: ['color-contrast'], resultTypes: ['violations'], preload: false}})"
    )
    assert "color-contrast" in [v["id"] for v in result["violations"]]
    context.close()


def test_insertions_and_deletions_are_announced_as_such(browser: Any, report: Path) -> None:
    context, page, _ = _new_page(browser, viewport={"width": 1280, "height": 900})
    page.goto((report / "articles" / "45.html").as_uri())
    words = page.locator('[id="diff-1963-2007-1963-45"] .tx').first
    tree = words.aria_snapshot() + _row(page, "diff-1963-2007-2007-45A").locator("td.new .tx").first.aria_snapshot()
    # "door [deleted: die] [inserted: haar] uit", never "door diehaar uit".
    assert 'deletion: "[deleted: die ]"' in tree and 'insertion: "[inserted: haar ]"' in tree
    # ... while the words a reader copies are the law text alone.
    assert "deleted" not in words.inner_text()
    # A change of punctuation only is boxed, so that it is seen.
    comma = page.locator("del.pu").first
    assert comma.inner_text().strip() in {",", ".", ";", ":", ""} or not re.search(r"\w", comma.inner_text())
    assert comma.evaluate("e => getComputedStyle(e).outlineStyle") == "dashed"
    context.close()


def test_the_keyboard_skips_to_the_content_and_focus_never_hides_under_the_sticky_bars(
    browser: Any, report: Path
) -> None:
    context, page, _ = _new_page(browser, viewport={"width": 1280, "height": 800})
    page.goto((report / "articles" / "45.html").as_uri())
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.className") == "skip"
    assert page.locator("a.skip").is_visible()
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.id") == "top"
    # Backwards from the end of the page: each focused element is the one at its own centre, not a sticky bar.
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    page.locator("footer").click()
    hidden: list[str] = []
    for _ in range(150):
        page.keyboard.press("Shift+Tab")
        covered = page.evaluate(
            """() => {
                const e = document.activeElement;
                if (!e || e === document.body || !e.closest('main')) return null;
                const r = e.getBoundingClientRect();
                if (r.width === 0 || r.height === 0) return null;
                const x = Math.min(Math.max(r.left + r.width / 2, 0), innerWidth - 1);
                const y = Math.min(Math.max(r.top + r.height / 2, 0), innerHeight - 1);
                const at = document.elementFromPoint(x, y);
                return at && (at === e || e.contains(at) || at.contains(e)) ? '' : (e.textContent || e.tagName);
            }"""
        )
        if covered:
            hidden.append(covered)
    assert hidden == []
    context.close()


def test_n_and_p_move_the_focus_and_can_be_switched_off(browser: Any, report: Path) -> None:
    context, page, _ = _new_page(browser, viewport={"width": 1280, "height": 900})
    page.goto((report / "articles" / "45.html").as_uri())
    page.locator("h1").click()
    page.keyboard.press("n")
    first = page.evaluate("document.activeElement.tagName + ' ' + document.activeElement.className")
    assert first.startswith("TBODY") and "focus" in first and " diff" in first
    page.keyboard.press("n")
    second = page.evaluate("document.activeElement.id")
    page.keyboard.press("p")
    assert page.evaluate("document.activeElement.id") != second
    page.locator("#keys-on").uncheck()
    before = page.evaluate("[document.activeElement.id, window.scrollY]")
    page.keyboard.press("n")
    assert page.evaluate("[document.activeElement.id, window.scrollY]") == before
    # Remembered when the page is opened again.
    page.goto((report / "articles" / "45.html").as_uri())
    assert not page.locator("#keys-on").is_checked()
    context.close()


# ---------------------------------------------------------------------------
# The top of an article page, the phone, the touch screen


def test_article_page_opens_with_each_pair_newest_first(browser: Any, report: Path) -> None:
    context, page, watch = _new_page(browser, viewport={"width": 1280, "height": 900})
    page.goto((report / "articles" / "45.html").as_uri())
    heads = page.locator("#glance h3 a").all_inner_texts()
    assert heads == ["2007 → 2017", "1963 → 2007"]
    line = page.locator("#glance li", has_text="45C4(b)").first
    assert line.locator(".badge").first.inner_text().lower() == "modified"
    assert {"modal", "actor", "reference"} <= set(line.locator(".flag").all_inner_texts())
    assert "De leider mag een onbedoeld aangeduide kaart" in line.locator(".gist").inner_text()
    history = line.get_by_role("link", name="history of 2017 45C4(b)")
    assert history.get_attribute("href") == "45-history.html#2017-45C4b"
    # The 2007 -> 2017 section is reached from the top in one click, and its rows one click each.
    assert page.locator("#glance").bounding_box()["y"] < 900
    line.locator("a.addr").click()
    row = _row(page, "diff-2007-2017-2017-45C4b")
    box = row.bounding_box()
    head = page.locator('[id="diff-2007-2017"] table.sbs thead').bounding_box()
    assert 0 <= box["y"] < 900 and box["y"] >= head["y"] + head["height"] - 1  # not under the sticky head
    # Every row links to its clause's history.
    assert row.get_by_role("link", name="history of 2017 45C4(b)").count() == 1
    # The citation anchors are as they were.
    assert page.locator('[id="diff-2007-2017-2017-45C4b"]').count() == 1
    assert page.locator('[id="2017-45C4b"]').count() == 1
    OUTPUT.mkdir(exist_ok=True)
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(OUTPUT / "article-45-top.png"))
    assert watch.errors == []
    context.close()


def test_each_reader_orders_the_changes_at_a_glance_and_the_choice_is_kept(browser: Any, report: Path) -> None:
    context, page, watch = _new_page(browser, viewport={"width": 1280, "height": 900})
    page.goto((report / "articles" / "45.html").as_uri())
    first = page.locator("#glance ol.glance-list").first

    def lines() -> list[str]:
        return [a.split("#")[1] for a in first.locator("li > a[href^='#']").evaluate_all("l => l.map(a => a.href)")]

    ranked = lines()
    assert ranked[0] == "diff-2007-2017-2017-45C4b"  # most significant first: as the page is written
    page.select_option("#glance-order", "article")
    in_article = lines()
    assert sorted(in_article) == sorted(ranked) and in_article != ranked
    # As the rows stand in the table (document order; a run's lines are closed, so not by their place on screen).
    order = page.evaluate("ids => { const all = [...document.querySelectorAll('[id]')].map(e => e.id); "
                          "return ids.map(i => all.indexOf(i)); }", in_article)  # fmt: skip
    assert order == sorted(order) and min(order) >= 0
    page.reload()
    assert page.locator("#glance-order").input_value() == "article" and lines() == in_article
    page.select_option("#glance-order", "significance")
    assert lines() == ranked
    assert watch.errors == []
    context.close()


def test_on_a_phone_the_caption_reads_in_lines_and_no_key_hints_show(browser: Any, report: Path) -> None:
    context, page, _ = _new_page(
        browser, viewport={"width": 375, "height": 800}, is_mobile=True, has_touch=True, device_scale_factor=2
    )
    page.goto((report / "articles" / "45.html").as_uri())
    assert page.evaluate("matchMedia('(hover: none)').matches")
    caption = page.locator('[id="diff-2007-2017"] table.sbs caption')
    caption.scroll_into_view_if_needed()
    assert caption.bounding_box()["width"] > 300  # was one word wide, one word a line
    assert caption.inner_text() == "Article 45: 2007 and 2017"  # no left and right where the columns stack
    assert page.locator(".toolbar").first.is_visible()
    assert not page.locator(".toolbar .keys").is_visible()
    assert not page.locator(".toolbar .keys-switch").is_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 376
    OUTPUT.mkdir(exist_ok=True)
    page.screenshot(path=str(OUTPUT / "article-45-phone-caption.png"))
    context.close()


def test_scores_paths_and_thresholds_wait_behind_a_disclosure(browser: Any, report: Path) -> None:
    context, page, _ = _new_page(browser, viewport={"width": 1280, "height": 900})
    page.goto((report / "articles" / "45.html").as_uri())
    row = _row(page, "diff-2007-2017-2017-45D1")
    assert not row.get_by_text("similarity 99.8 %").is_visible()
    row.locator("details.more summary").click()
    assert row.get_by_text("similarity 99.8 %").is_visible()
    source = page.locator('[id="2017-45C4b"] details.src')
    assert "$[551]" not in source.inner_text()  # what is rendered: the summary only
    source.locator("summary").click()
    assert "2017 · 3e druk · $[551]" in source.inner_text()  # the file is named once, under the synopsis
    assert not page.locator("footer details.thresholds p").is_visible()
    context.close()


# ---------------------------------------------------------------------------
# Print


def _pages(pdf: bytes) -> int:
    return len(re.findall(rb"/Type\s*/Page(?![a-zA-Z])", pdf))


def _pdf_text(path: Path) -> str:
    if shutil.which("pdftotext") is None:
        unavailable("pdftotext is missing (apt-get install poppler-utils; scripts/test.sh does)")
    return subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True, check=True).stdout


# The sheets README's "Print" paragraph states.
PAIR_SHEETS, WHOLE_SHEETS = 4, 16
# The margins a print dialog sets (Chromium's own: 1 cm). Chromium reads the media queries at the dialog's
# paper less its margins, before the stylesheet's @page: A4 or Letter less 1 cm is narrower than 760 px, so
# a screen-width rule that is not `screen` only once printed the phone's stacked layout (8 sheets, not 5,
# the pair's head and foot on the first alone).
DIALOG_MARGINS = {side: "1cm" for side in ("top", "right", "bottom", "left")}


def test_print_this_pair_prints_one_pair_with_a_head_and_foot_on_every_page(browser: Any, report: Path) -> None:
    OUTPUT.mkdir(exist_ok=True)
    context, page, _ = _new_page(browser)
    page.goto((report / "articles" / "45.html").as_uri())
    whole = OUTPUT / "article-45-all.pdf"
    page.pdf(path=str(whole), prefer_css_page_size=True, print_background=True, margin=DIALOG_MARGINS)
    # The link leads to the pair's print target (no script needed: it is the page's :target then).
    link = page.locator('[id="diff-2007-2017"] a.print-link')
    assert link.inner_text() == "Print this pair"
    page.goto(link.evaluate("a => a.href"))
    assert page.locator('[id="diff-2007-2017"] .print-note').is_visible()  # the screen says what will print
    one = OUTPUT / "article-45-2007-2017.pdf"
    page.pdf(path=str(one), prefer_css_page_size=True, print_background=True, margin=DIALOG_MARGINS)
    n_one, n_all = _pages(one.read_bytes()), _pages(whole.read_bytes())
    assert 1 <= n_one <= PAIR_SHEETS, n_one
    assert n_one < n_all <= WHOLE_SHEETS, n_all
    text = _pdf_text(one)
    sheets = [s for s in text.split("\f") if s.strip()]
    assert len(sheets) == n_one
    for i, sheet in enumerate(sheets, 1):
        # Head: the pair and its sources; foot: lawdiff's version and the page number.
        assert "Article 45 · 2007 → 2017 · 2007: 2007/wiki-Sjabloon-2007-45.txt" in sheet, i
        assert "2017 (3e druk): 2017/nuxt-artikel-45.payload.json" in sheet, i
        assert "Made by lawdiff " in sheet, i
        # What the page was made from: each edition by the start of its digest (the footer's).
        assert re.search(r"Editions read: 2007 [0-9a-f]{16}, 2017 [0-9a-f]{16}\.", sheet), i
        assert f"page {i} of {n_one}" in sheet, i
    assert "1963 → 2007" not in text and "Synopsis" not in text and "Print this pair" not in text
    # A run of clauses whose words did not change prints as its one line, naming them (closed, as on screen).
    flat = " ".join(text.split())
    assert "2 clauses unchanged: 45, 45A" in flat, flat[:2000]
    assert "2 clauses renumbered, wording unchanged: 45E.p1 → 45E1, 45E.p2 → 45E2" in flat
    # The whole page: every sheet says what made it.
    whole_sheets = [s for s in _pdf_text(whole).split("\f") if s.strip()]
    assert len(whole_sheets) == n_all
    assert all("Made by lawdiff " in s for s in whole_sheets)
    # A4 landscape: the stylesheet's @page, which the reader's own Ctrl-P follows too.
    boxes = re.findall(rb"/MediaBox\s*\[\s*0 0 ([\d.]+) ([\d.]+)\s*\]", one.read_bytes())
    assert boxes and all(abs(float(w) - 841.9) < 2 and abs(float(h) - 595.3) < 2 for w, h in boxes), boxes[:2]
    context.close()


# ---------------------------------------------------------------------------
# The review, the filters, the correlation tables


def test_the_review_shows_in_the_rows_and_filters_by_status(browser: Any, reviewed: Path) -> None:
    context, page, watch = _new_page(browser, viewport={"width": 1280, "height": 900})
    page.add_init_script("window.PWNED = undefined;")
    page.goto((reviewed / "articles" / "45.html").as_uri())
    row = _row(page, "diff-2007-2017-2017-45C4b")
    review = row.locator(".review")
    assert review.locator(".rbadge").inner_text().lower() == "accepted"
    assert "Outdated: decided on an earlier text" in review.inner_text()
    review.locator("details.since summary").click()
    assert "onbedoeld" in " ".join(review.locator("del").all_inner_texts())
    assert "per ongeluk" in " ".join(review.locator("ins").all_inner_texts())
    thread = review.locator(".thread").inner_text()
    assert "Agreed: <b>follows</b> the English & text." in thread and "\\x1b[31m" in thread
    d2 = _row(page, "diff-2007-2017-2017-45D2").locator(".review")
    assert "query" in d2.inner_text().lower() and "assigned to Carla" in d2.inner_text()
    counts = page.locator(".review-counts").inner_text()
    assert re.search(r"\d+ open, 1 query, 2 decided \(1 outdated\)", counts), counts
    page.locator("#row-filter").select_option("r-query")
    shown = page.locator("table.sbs tbody.change:visible")
    assert shown.count() == 1 and "45D2" in shown.first.inner_text()
    page.locator("#row-filter").select_option("normative")
    assert all(
        "normative" in (c or "")
        for c in page.locator("table.sbs tbody.change:visible").evaluate_all("rows => rows.map(r => r.className)")
    )
    page.locator("#row-filter").select_option("")
    assert page.locator("table.sbs tbody.change:visible").count() == page.locator("table.sbs tbody.change").count()
    assert page.evaluate("window.PWNED === undefined")
    page.goto((reviewed / "index.html").as_uri())
    assert "1 query · 2 decided" in page.locator('#matrix tr:has(a[href="articles/45.html"]) td.rcount').inner_text()
    page.goto((reviewed / "review.html").as_uri())
    assert "Outdated (1)" in page.locator("#outdated-h").inner_text()
    page.locator("#outdated a", has_text="now on change").click()
    page.wait_for_url("**/articles/45.html#change-*")
    assert watch.errors == []
    context.close()


def test_correlation_table_in_both_orders_without_javascript(browser: Any, report: Path) -> None:
    context, page, _ = _new_page(browser, java_script_enabled=False, viewport={"width": 1280, "height": 900})
    page.goto((report / "index.html").as_uri())
    page.get_by_role("link", name="correlation table 2007 → 2017").click()
    page.wait_for_url("**/correlation-2007-2017.html")
    by_old = page.locator("#by-old tbody tr")
    by_new = page.locator("#by-new tbody tr")
    assert by_old.count() == by_new.count() > 0
    renumbered = page.locator("#by-old tr.rel-renumbered", has_text="45E.p1")
    assert "45E1" in renumbered.inner_text() and "renumbered" in renumbered.inner_text()
    # Added clauses close the table by old number; by new number they stand in their place.
    assert "45D2" in by_old.last.inner_text()
    new_order = [t.split("\t")[1].split()[-1] for t in by_new.all_inner_texts()]
    assert new_order.index("45D2") == new_order.index("45D1") + 1
    page.locator("#by-old").get_by_role("link", name="ordered by the 2017 number").click()
    assert page.evaluate("location.hash") == "#by-new"
    renumbered.get_by_role("link", name="renumbered").click()  # the relation leads to the change's row
    page.wait_for_url("**/articles/45.html#change-*")
    assert page.locator(":target").count() == 1
    context.close()
