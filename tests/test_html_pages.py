"""What issue 12 added to the report's pages, read from the HTML (no browser).

The list of changes at the top of an article page, the flags on the rows,
the correlation tables, the wording of the index, the print targets and the
markup that screen readers need.  Every page is also checked by
``test_html.check_pages`` (valid HTML5, every link leads somewhere).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from lxml import etree
from test_html import CORPUS, check_pages, run

from lawdiff import i18n
from lawdiff.corpus import Corpus
from lawdiff.diff import Study, ranked
from lawdiff.diff import correlate as table
from lawdiff.report import site
from lawdiff.report.html import correlation, runs


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, etree._Element]:
    out = tmp_path_factory.mktemp("report") / "r"
    assert run("report", "-o", str(out))[0] == 0
    return check_pages(out)


def _text(e: etree._Element, path: str = ".") -> str:
    return " ".join(str(e.xpath(f"string({path})")).split())


def _row(root: etree._Element, ident: str) -> etree._Element:
    found = root.xpath(f"//tbody[.//*[@id='{ident}']]")
    assert found, ident
    return found[0]  # type: ignore[no-any-return]


def test_the_top_of_an_article_page_lists_each_pairs_changes_newest_first(
    pages: dict[str, etree._Element], corpus: Corpus
) -> None:
    root = pages["articles/45.html"]
    glance = root.xpath("//section[@id='glance']")[0]
    pairs = glance.xpath("div[@class='glance-pair']")
    assert [_text(p, "h3/a") for p in pairs] == ["2007 → 2017", "1963 → 2007"]
    assert [p.xpath("string(h3/a/@href)") for p in pairs] == ["#diff-2007-2017", "#diff-1963-2007"]
    plan = site.plan(corpus)
    a45 = plan.article("45")
    assert a45 is not None
    for block, pv in zip(pairs, reversed(a45.pairs), strict=True):
        lines = block.xpath("ol/li")
        # Most significant first (issue 24), each with its score; the clauses renumbered with their words as
        # they were share the last line, each linked to its line of the table.
        listed = ranked(ch for ch in pv.changes if ch.noteworthy)
        renumbered = [ch for ch in listed if runs.run_kind(ch) == runs.RENUMBERED]
        if renumbered:
            last = lines.pop()
            assert _text(last).startswith(f"renumbered {len(renumbered)} clause")
            assert [a.text for a in last.xpath("a")] == [f"{ch.old[0]} → {ch.new[0]}" for ch in renumbered]
            assert all(_row(root, a.get("href")[1:]) is not None for a in last.xpath("a"))
            listed = [ch for ch in listed if ch not in renumbered]
        assert len(lines) == len(listed) > 0
        for li, ch in zip(lines, listed, strict=True):
            # Address, kind, flags, first words; its row; its history.
            href = li.xpath("string(a[@class='addr']/@href)")
            assert href.startswith(f"#diff-{pv.old.name}-{pv.new.name}-"), href
            assert _row(root, href[1:]) is not None
            assert _text(li, "span[contains(@class, 'badge')][1]").endswith(ch.kind.value)
            assert [_text(f) for f in li.xpath("span[contains(@class, 'flag')]")] == [s.flag.value for s in ch.signals]
            assert li.xpath("string(a[@class='hist']/@href)").startswith("45-history.html#")
            score = f"significance {ch.significance:g}" if ch.significance else ""
            assert _text(li, "span[@class='score']") == score
    first = pairs[0].xpath("ol/li")
    assert _text(first[0], "a[@class='addr']") == "45C4(b)"
    c4b = next(li for li in first if _text(li, "a[@class='addr']") == "45C4(b)")
    assert _text(c4b, "span[@class='gist']").startswith("De leider mag een onbedoeld aangeduide kaart van de")
    assert c4b.xpath("string(a[@class='addr']/@aria-label)") == "2017 45C4(b)"
    assert "45E.p1 → 45E1" in _text(first[-1])
    assert _text(pairs[0], "p[@class='hint']") == "7 clauses unchanged in place, not listed."


def test_rows_carry_their_flags_with_the_words_and_a_history_link(pages: dict[str, etree._Element]) -> None:
    root = pages["articles/45.html"]

    def flags(ident: str) -> dict[str, str]:
        return {
            _text(li, "span[@class='fl']"): _text(li, "span[@class='w']")
            for li in _row(root, ident).xpath(".//ul[@class='sig']/li")
        }

    # The seed cases of issue 12, 2007 -> 2017.
    assert flags("diff-2007-2017-2017-45C4a") == {"modal": "moet", "reference": "47"}
    assert flags("diff-2007-2017-2017-45D1") == {"reference": "16D 16C"}
    assert flags("diff-2007-2017-2017-45C2a") == {}
    assert set(flags("diff-2007-2017-2017-45C4b")) >= {"actor", "modal", "reference"}
    c4a = _row(root, "diff-2007-2017-2017-45C4a")
    assert c4a.xpath("string(.//ul[@class='sig']/li[1]//del)") == "moet"  # removed words struck, added underlined
    assert c4a.xpath("string(.//ul[@class='sig']/li[2]//ins)") == "47"
    classes = set(c4a.get("class", "").split())
    assert {"normative", "f-modal", "f-reference"} <= classes
    d1 = set(_row(root, "diff-2007-2017-2017-45D1").get("class", "").split())
    assert "f-reference" in d1 and "normative" not in d1  # a retargeted reference alone is not normative
    # A clause added whole has no flags (every word of it would raise one) and is not normative.
    d2 = _row(root, "diff-2007-2017-2017-45D2")
    assert not d2.xpath(".//ul[@class='sig']") and "normative" not in d2.get("class", "").split()
    # The history of the row's clause, named for a screen reader.
    link = c4a.xpath(".//td[@class='kind']/a[@class='hist']")[0]
    assert link.get("href") == "45-history.html#2017-45C4a" and link.get("aria-label") == "history of 2017 45C4(a)"
    # The row's change id: shown behind the disclosure, and the row's second anchor.
    code = c4a.xpath("string(.//details[@class='more']//code)")
    assert c4a.get("id") == f"change-{code}" and len(code) == 10
    # The counts tell normative changes from other changes of wording.
    counts = root.xpath("//section[@id='diff-2007-2017']//ul[@class='significance']")[0]
    # The drafting pattern "moet" -> "wordt geacht" / "is" of 45C1-45C4(a) counts once (issue 24): 7 flagged, 4.
    assert _text(counts).startswith(
        "of the rewordings: 4 normative (each drafting pattern counts once) 3 other changes of wording"
    )
    pattern = root.xpath("//section[@id='diff-2007-2017']/ul[@class='patterns']/li")
    assert [_text(li) for li in pattern] == [
        "Drafting pattern, counted once: modal moet → wordt geacht / is in 45C1, 45C2, 45C3, 45C4(a)"
    ]
    assert all(root.xpath(f"//tbody[@id='{a.get('href')[1:]}']") for a in pattern[0].xpath("a"))


def test_a_change_of_punctuation_only_is_marked_so(pages: dict[str, etree._Element]) -> None:
    row = _row(pages["articles/45.html"], "diff-2007-2017-2017-45C2a")
    assert [(d.text, d.get("class")) for d in row.iter("del")] == [(",", "pu")]
    assert [(i.text, i.get("class")) for i in row.iter("ins")] == [(";", "pu")]
    word = _row(pages["articles/45.html"], "diff-2007-2017-2017-45C4a")
    assert all(d.get("class") is None for d in word.iter("del") if any(c.isalpha() for c in d.text or ""))


def test_correlation_pages_hold_the_rows_of_lawdiff_correlate_in_both_orders(
    pages: dict[str, etree._Element], corpus: Corpus
) -> None:
    study = Study(corpus.select())
    for old, new in (("1963", "2007"), ("2007", "2017")):
        root = pages[f"correlation-{old}-{new}.html"]
        comp = study.compare(corpus.edition(old), corpus.edition(new))
        expected = table.rows(comp, [ch for ch in comp.changes if site.touches(ch, {"45"})])

        def numbers(section: str, column: int, root: etree._Element = root) -> list[str]:
            rows = root.xpath(f"//section[@id='{section}']//tbody/tr")
            return [n for tr in rows for n in _text(tr, f"td[{column}]").split(", ")]

        def expected_numbers(rows: list[table.Row] | tuple[table.Row, ...], side: str) -> list[str]:
            # A heading and the text of one clause share its number, once, where they share a row.
            out: list[str] = []
            for r in rows:
                for n in (r.old if side == "old" else r.new) or ("—",):
                    if not (out and out[-1] == n and r.relation is table.Relation.UNCHANGED):
                        out.append(n)
            return out

        by_new = sorted(expected, key=table.by_new)
        assert numbers("by-old", 1) == expected_numbers(expected, "old")
        assert numbers("by-old", 2) == expected_numbers(expected, "new")
        assert numbers("by-new", 2) == expected_numbers(by_new, "new")
        # By the old number, each relation links to its (first) change; by the new one, the same rows unlinked.
        for tr in root.xpath("//section[@id='by-old']//tbody/tr"):
            assert tr.xpath("string(td[3]/a/@href)").startswith("articles/45.html#change-")
        assert not root.xpath("//section[@id='by-new']//tbody//a")
        # The relation and the words as the study labels them (as `lawdiff correlate` prints them); clauses
        # that kept their number and their words share a row.
        shown = [(_text(tr, "td[3]"), _text(tr, "td[5]")) for tr in root.xpath("//section[@id='by-old']//tbody/tr")]
        labels = {(r.label, r.words or "—") for r in expected}
        for label, words in shown:
            assert (label, words) in labels or (label.startswith("same number (") and words == "same"), label
    index = pages["index.html"]
    links = {a.get("href") for a in index.iter("a")}
    assert {"correlation-1963-2007.html", "correlation-2007-2017.html"} <= links
    assert "../correlation-2007-2017.html" in {a.get("href") for a in pages["articles/45.html"].iter("a")}


def test_the_index_calls_a_pair_consecutive_only_where_it_is(pages: dict[str, etree._Element]) -> None:
    index = pages["index.html"]
    text = _text(index)
    assert "consecutive" not in text
    rows = index.xpath("//table[@class='totals']/tbody/tr")
    heads = [_text(r, "th") for r in rows]
    assert heads[0].startswith("1963 → 2007 1997 passed over: its corpus lacks these articles")
    assert heads[1] == "2007 → 2017 correlation table"
    # The heat map's cells say how many changes are normative, and name their link in words.
    cell = index.xpath("//table[@id='matrix']//tr[.//a[@href='articles/45.html']]/td[contains(@class, 'h3')]")[0]
    assert _text(cell, ".//span[@class='nrm']") == "4 normative"
    assert _text(cell, "a") == "Article 45, 2007 → 2017: substantial change, ▪▪ 17 % 4 normative"
    # Each pair's drafting patterns stand under the table, once, with their clauses.
    patterns = index.xpath("//section[@id='pairs']/ul[@class='patterns']")
    assert len(patterns) == 2 and "moet → wordt geacht / is in 45C1, 45C2, 45C3, 45C4(a)" in _text(patterns[1])


def test_every_pair_has_a_print_target_and_a_running_head_and_foot(pages: dict[str, etree._Element]) -> None:
    root = pages["articles/45.html"]
    for pid in ("diff-1963-2007", "diff-2007-2017"):
        section = root.xpath(f"//section[@id='{pid}']")[0]
        assert section.xpath("string(.//a[@class='print-link']/@href)") == f"#print-{pid}"
        assert section.xpath(f"boolean(./span[@class='print-target'][@id='print-{pid}'])")
        head = _text(section, ".//thead/tr[@class='running']")
        assert head.startswith(f"Article 45 · {pid[5:9]} → {pid[10:]} · ")
        assert _text(section, ".//tfoot[@class='running']").startswith("Made by lawdiff ")
    head = _text(root, "//section[@id='diff-2007-2017']//thead/tr[@class='running']")
    assert head == (
        "Article 45 · 2007 → 2017 · 2007: 2007/wiki-Sjabloon-2007-45.txt; "
        "2017 (3e druk): 2017/nuxt-artikel-45.payload.json"
    )


def test_skip_link_named_scroll_boxes_and_named_links_on_every_page(tmp_path: Path) -> None:
    assert run("report", "--corpus", str(CORPUS), "-o", str(tmp_path / "r"))[0] == 0
    for name, root in check_pages(tmp_path / "r").items():
        body = root.find(".//body")
        assert body is not None
        first = body[0]
        assert first.tag == "a" and first.get("href") == "#top" and first.get("class") == "skip", name
        assert root.xpath("//main/@id") == ["top"], name
        for box in root.xpath("//div[@class='scroll']"):
            assert box.get("tabindex") == "0" and box.get("role") == "region" and box.get("aria-label"), name
        for a in root.iter("a"):
            label = a.get("aria-label") or _text(a)
            assert label not in {"●", "history"}, (name, etree.tostring(a))
        for chip in root.xpath("//a[@class='addr']"):
            assert chip.get("aria-label", "").split()[0] in {"2001", "2011"}, name


def test_a_history_says_when_the_wording_may_be_older_than_the_corpus_tells(
    pages: dict[str, etree._Element],
) -> None:
    # Only the 2017 corpus holds article 6: its wording came in 2017 or in an edition the corpus lacks.
    six = pages["articles/6-history.html"]
    section = six.xpath("//section[@id='2017-6A']")[0]
    assert _text(section, "p[@class='introduced']") == (
        "Current wording introduced in 2017 or earlier: the 1963, 1997 and 2007 corpora do not hold it."
    )
    assert [_text(td) for td in section.xpath(".//tr[@class='absent']/td[2]")] == [
        f"the {year} corpus does not hold this article" for year in ("1963", "1997", "2007")
    ]
    # 2007 holds article 45 and 45D2 is new in 2017: that the wording came in 2017 is certain.
    d2 = pages["articles/45-history.html"].xpath("//section[@id='2017-45D2']")[0]
    assert _text(d2, "p[@class='introduced']") == "Current wording introduced in 2017."


def test_the_correlation_rows_that_kept_number_and_words_share_a_row_in_every_language(corpus: Corpus) -> None:
    # The grouping reads what the study says of the words, not the word shown ("same" in English only).
    study = Study(corpus.select())
    comp = study.compare(corpus.edition("2007"), corpus.edition("2017"))
    rows = table.rows(comp, list(comp.changes))
    english = [len(g) for g in correlation.runs(rows)]
    assert max(english) > 1
    kept = next(g[0] for g in correlation.runs(rows) if len(g) > 1)
    with i18n.use("nl"):
        assert kept.words not in ("", "same")  # shown in Dutch
        assert [len(g) for g in correlation.runs(rows)] == english
