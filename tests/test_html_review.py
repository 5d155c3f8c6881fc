"""The committee's review in the static report (issue 10 §6), without a browser.

Without a store, or with ``--no-review``, the report is the one the golden
files hold, byte for byte.  With one, each change the committee reviews shows
its status, assignee and thread (comments as text, their control characters
shown as escapes), a decision made on an earlier text is shown as outdated
beside that text, the index and the article pages count open, queried and
decided changes, and ``review.html`` lists the decisions that sit on no
change of the report.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from test_html import CORPUS, GOLDEN, check_pages, mask, run, tree

from lawdiff.corpus import default_corpus
from lawdiff.review import Status, Target, open_for_writing

HOSTILE_COMMENT = "<script>alert(1)</script> & \x1b[31mred\u202e"


def _store(path: Path) -> Path:
    """Decisions on the bundled corpus: current with a thread, outdated (after the draft below), orphaned."""

    def ok(*args: str) -> None:
        code, _, stderr = run(*args, "--review", str(path))
        assert code == 0, stderr

    ok("review", "set", "2017:45C4(b)", "accepted", "--comment", "Agreed.", "--author", "Anne")
    ok("review", "comment", "2017:45C4b", HOSTILE_COMMENT, "--author", "Bert")
    ok("review", "set", "2017:45D2", "query", "--author", "Carla")
    ok("review", "assign", "2017:45D2", "Carla <c@example.org>", "--author", "Bert")
    ok("review", "set", "2017:45C1", "rejected", "--author", "Anne")
    with open_for_writing(path) as s:
        # A decision whose clauses no edition holds any more: orphaned.
        s.set_status(
            Target("f" * 40, "2007", "2017", "text", "modified", "45", ("45Z",), ("45Z",), ("oud",), ("nieuw",)),
            Status.QUERY,
            "Dirk",
        )
    return path


def _draft(folder: Path) -> Path:
    """The bundled corpus with one word of 2017 45C4(b) changed: its decision is outdated there."""
    shutil.copytree(default_corpus(), folder)
    payload = folder / "2017" / "nuxt-artikel-45.payload.json"
    text = payload.read_text(encoding="utf-8")
    payload.write_text(text.replace("mag een onbedoeld aangeduide kaart", "mag een per ongeluk aangeduide kaart"))
    return folder


def test_without_a_store_or_with_no_review_the_report_is_the_golden_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A store the report would find (in the current folder), holding a decision on a fixture change.
    monkeypatch.chdir(tmp_path)
    code, _, stderr = run("review", "set", "2011:12B", "accepted", "--corpus", str(CORPUS), "--author", "Anne")
    assert code == 0, stderr
    assert (tmp_path / "lawdiff-review.sqlite").is_file()
    golden = {p.relative_to(GOLDEN / "site").as_posix(): p.read_text() for p in (GOLDEN / "site").rglob("*.html")}
    code, _, stderr = run("report", "--corpus", str(CORPUS), "--no-review", "-o", "plain")
    assert code == 0 and "review" not in stderr
    pages = {p: mask(c.decode()) for p, c in tree(tmp_path / "plain").items() if p.endswith(".html")}
    assert pages == golden
    code, _, stderr = run("report", "--corpus", str(CORPUS), "-o", "reviewed")
    assert code == 0 and "with the review of" in stderr
    reviewed = {p: mask(c.decode()) for p, c in tree(tmp_path / "reviewed").items() if p.endswith(".html")}
    assert set(reviewed) == set(golden) | {"review.html"}
    assert reviewed["articles/12.html"] != golden["articles/12.html"]
    assert reviewed["articles/10.html"] != golden["articles/10.html"]  # counts of open changes
    # Assets are the same files either way: a store adds markup only.
    assert tree(tmp_path / "plain")["assets/report.css"] == tree(tmp_path / "reviewed")["assets/report.css"]


def test_rows_show_status_assignee_thread_and_outdated_decisions(tmp_path: Path) -> None:
    store = _store(tmp_path / "review.sqlite")
    draft = _draft(tmp_path / "draft")
    code, _, stderr = run("report", "--corpus", str(draft), "--review", str(store), "-o", str(tmp_path / "r"))
    assert code == 0, stderr
    pages = check_pages(tmp_path / "r")  # valid HTML, every link leads somewhere
    root = pages["articles/45.html"]

    def row(ident: str) -> object:
        return root.xpath(f"//tbody[.//*[@id='{ident}']]")[0]

    c4b = row("diff-2007-2017-2017-45C4b")
    classes = c4b.get("class").split()  # type: ignore[attr-defined]
    assert {"reviewed", "r-accepted", "r-outdated"} <= set(classes)
    review = c4b.xpath(".//div[@class='review']")[0]  # type: ignore[attr-defined]
    assert review.xpath("string(.//span[contains(@class, 'rbadge')])") == "accepted"
    assert "Outdated: decided on an earlier text" in review.xpath("string(.//div[@class='outdated'])")
    assert "onbedoeld" in review.xpath("string(.//details[@class='since']//del)")
    assert "per ongeluk" in review.xpath("string(.//details[@class='since']//ins)")
    thread = [li.xpath("string()") for li in review.xpath(".//ol[@class='thread']/li")]
    assert thread[0].startswith("Anne, ") and thread[0].endswith(": Agreed.")
    # People's text is text: the builder escaped the markup, the controls are shown as escapes.
    assert thread[1].endswith(": <script>alert(1)</script> & \\x1b[31mred\\u202e")
    raw = (tmp_path / "r" / "articles" / "45.html").read_text()
    assert "&lt;script&gt;alert(1)&lt;/script&gt; &amp; \\x1b[31mred\\u202e" in raw and "\x1b" not in raw
    d2 = row("diff-2007-2017-2017-45D2")
    assert "r-query" in d2.get("class")  # type: ignore[attr-defined]
    assert "assigned to Carla <c@example.org>" in d2.xpath("string(.//p[@class='rstatus'])")  # type: ignore[attr-defined]
    assert "r-rejected" in row("diff-2007-2017-2017-45C1").get("class")  # type: ignore[attr-defined]
    # A difference nobody decided on is open; a clause unchanged in place carries no review.
    assert "r-open" in row("diff-2007-2017-2017-45C3").get("class")  # type: ignore[attr-defined]
    assert "reviewed" not in row("diff-2007-2017-2017-45B").get("class")  # type: ignore[attr-defined]
    # The counts: per article on its page and on the index.
    counts = root.xpath("string(//p[@class='review-counts'])")
    assert re.search(r": \d+ open, 1 query, 2 decided \(1 outdated\)\.", counts), counts
    index = pages["index.html"]
    cell = index.xpath("string(//table[@id='matrix']//tr[.//a[@href='articles/45.html']]/td[@class='rcount'])")
    assert cell.endswith(" open · 1 query · 2 decided")


def test_review_page_lists_outdated_orphaned_and_not_compared_decisions(tmp_path: Path) -> None:
    store = _store(tmp_path / "review.sqlite")
    draft = _draft(tmp_path / "draft")
    # A decision on 1963 -> 2007, which a report of 2007 and 2017 does not compare.
    code, _, stderr = run("review", "set", "2007:45C1", "query", "--pair", "1963", "2007", "--review", str(store))
    assert code == 0, stderr
    out = tmp_path / "r"
    code, _, stderr = run("report", "2007", "2017", "--corpus", str(draft), "--review", str(store), "-o", str(out))
    assert code == 0, stderr
    page = check_pages(out)["review.html"]

    def listed(section: str) -> list[str]:
        return [" ".join(li.xpath("string()").split()) for li in page.xpath(f"//section[@id='{section}']/ol/li")]

    outdated = listed("outdated")
    assert len(outdated) == 1 and "accepted · 2007 → 2017 modified 45C4(b)" in outdated[0]
    assert "mag een onbedoeld aangeduide kaart" in outdated[0]  # the text it was made on
    link = page.xpath("//section[@id='outdated']//a")[0].get("href")
    assert re.fullmatch(r"articles/45\.html#change-[0-9a-f]{10}", link)
    orphaned = listed("orphaned")
    assert len(orphaned) == 1 and "query · 2007 → 2017 modified 45Z · Dirk" in orphaned[0]
    not_compared = listed("not-compared")
    assert len(not_compared) == 1 and "1963 → 2007" in not_compared[0]
    assert page.xpath("string(//section[@id='stale-corrections']/p[@class='note'])") == "None."
    index = check_pages(out)["index.html"]
    assert "review.html" in {a.get("href") for a in index.iter("a")}


# ---------------------------------------------------------------------------
# The review matched beside the plan (lawdiff.report.reviewed)


def test_the_review_matched_in_a_forked_process_gives_the_same_report(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = _store(tmp_path / "review.sqlite")
    reports = {}
    for jobs in ("1", "2"):  # one process: matched here; two: in a forked process while the report is planned
        monkeypatch.setenv("LAWDIFF_JOBS", jobs)
        code, _, stderr = run("report", "--review", str(store), "--no-cache", "-o", str(tmp_path / jobs))
        assert code == 0 and "with the review of" in stderr and "3 decision(s)" in stderr, stderr
        reports[jobs] = tree(tmp_path / jobs)
    assert reports["1"] == reports["2"]
    assert b"Agreed." in reports["2"]["articles/45.html"]


def test_an_error_matching_the_review_in_the_forked_process_is_the_commands_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import lawdiff.review
    from lawdiff.errors import InputError

    store = _store(tmp_path / "review.sqlite")

    def fails(*_args: object, **_kwargs: object) -> None:
        raise InputError("the store went bad", file=str(store), fix="restore it")

    monkeypatch.setenv("LAWDIFF_JOBS", "2")
    monkeypatch.setattr(lawdiff.review, "attach", fails)  # inherited by the forked process
    code, _, stderr = run("report", "--review", str(store), "-o", str(tmp_path / "r"))
    assert code == 2 and stderr == f"lawdiff: error: {store}: the store went bad; restore it\n"
    assert not (tmp_path / "r").exists()


def test_a_forked_review_process_that_dies_is_reported_not_waited_for(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import os

    import lawdiff.review

    store = _store(tmp_path / "review.sqlite")
    monkeypatch.setenv("LAWDIFF_JOBS", "2")
    monkeypatch.setattr(lawdiff.review, "attach", lambda *_a, **_k: os._exit(9))
    code, _, stderr = run("report", "--review", str(store), "-o", str(tmp_path / "r"))
    assert code == 3 and "ended without its result" in stderr
    assert not (tmp_path / "r").exists()
