"""The committee report (``lawdiff report``) and ``compare --format html``, without a browser.

Golden files: the HTML pages of the report of the fixture corpus
(``tests/fixtures/html/corpus``) are compared byte for byte with
``tests/golden/html/site/``, and the one-page comparison with
``tests/golden/html/compare-2001-2011.html``.  After an intended change,
regenerate them with ``LAWDIFF_UPDATE_GOLDEN=1 python3 -m pytest tests/test_html.py``
and review the diff.  The lawdiff version is masked, so that a release does
not touch them.

Every page of every report built here is parsed by html5lib (the WHATWG
parsing algorithm) in strict mode and checked for structure: one ``h1``,
unique ids, every internal link leads to an existing page and id, no
external resource, law text marked ``lang="nl"``.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path
from urllib.parse import unquote, urlsplit

import html5lib
import pytest
from click.testing import CliRunner
from lxml import etree

from lawdiff import __version__, marks
from lawdiff.cli import main
from lawdiff.corpus import Corpus, default_corpus, load
from lawdiff.diff import Change, Op, Piece, Study, compare, word_diff
from lawdiff.diff import article as article_facts
from lawdiff.errors import LawdiffBug
from lawdiff.model import article_of
from lawdiff.report import html, site

HERE = Path(__file__).parent
FIXTURES = HERE / "fixtures" / "html"
CORPUS = FIXTURES / "corpus"
HOSTILE = FIXTURES / "hostile"
WIKI_2017 = FIXTURES / "wiki-2017"  # the wiki's 2017 article 45: a second source of 2017
GOLDEN = HERE / "golden" / "html"
UPDATE = os.environ.get("LAWDIFF_UPDATE_GOLDEN") == "1"


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


def tree(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def mask(text: str) -> str:
    return text.replace(f"lawdiff {__version__}", "lawdiff VERSION")


# ---------------------------------------------------------------------------
# Anchors and the pieces of a view


@pytest.mark.parametrize(
    ("edition", "address", "expected"),
    [
        ("2017", "45C4(b)", "2017-45C4b"),
        ("1963", "45(d)", "1963-45d"),
        ("2007", "45E.p1", "2007-45E.p1"),
        ("2007", "45A.fn1", "2007-45A.fn1"),
        ("1963", "46(c)1", "1963-46c1"),
        ("2017", "45C~2", "2017-45C_2"),
        ("2017", "H6.juiste-gang-van-zaken", "2017-H6.juiste-gang-van-zaken"),
        ("2017 bis", "45", "2017_bis-45"),
    ],
)
def test_anchor_is_edition_and_address_without_parentheses(edition: str, address: str, expected: str) -> None:
    assert site.anchor(edition, address) == expected


def test_anchors_of_an_edition_do_not_collide(corpus: Corpus) -> None:
    for e in corpus.editions:
        addresses = [c.address for c in e.walk()]
        anchors = [site.anchor(e.name, a) for a in addresses]
        assert len(set(anchors)) == len(set(addresses)), e.name


def test_split_side_cuts_a_split_into_its_clauses_and_keeps_inner_line_breaks() -> None:
    old = ("Een twee drie vier.",)
    new = ("Een twee\ndrie.", "Vier en vijf.")
    pieces = word_diff("\n".join(old), "\n".join(new))
    old_side = html.split_side(pieces, "old", old)
    new_side = html.split_side(pieces, "new", new)
    assert ["".join(t for _, t in segs) for segs in old_side] == list(old)
    assert ["".join(t for _, t in segs) for segs in new_side] == list(new)
    assert all(op is not Op.INSERT for segs in old_side for op, _ in segs)
    assert all(op is not Op.DELETE for segs in new_side for op, _ in segs)


def test_split_side_refuses_a_difference_that_does_not_rebuild_its_texts() -> None:
    with pytest.raises(LawdiffBug):
        html.split_side((Piece(Op.EQUAL, "abc"),), "old", ("abd",))


def _fragment(markup: str) -> etree._Element:
    """One element of markup, parsed as a browser would (html5lib, strict)."""
    parser = html5lib.HTMLParser(strict=True, namespaceHTMLElements=False, tree=html5lib.getTreeBuilder("lxml"))
    found = parser.parseFragment(markup)  # the lxml tree builder gives a list of elements and strings
    elements = [e for e in found if not isinstance(e, str)]
    assert len(elements) == 1 and not any(isinstance(e, str) for e in found), markup
    return elements[0]  # type: ignore[no-any-return]


def test_law_text_is_text_whatever_it_holds() -> None:
    hostile = "<script>alert(1)</script> & \"q\" 'r' ]]> <!-- c -->"
    out = html.law_text("tx", [(Op.EQUAL, hostile), (Op.INSERT, " <b>x</b>")])
    assert "<script>" not in out and "<b>" not in out and "<!--" not in out
    assert "&lt;script&gt;alert(1)&lt;/script&gt; &amp;" in out
    box = _fragment(out)
    assert box.xpath("string()") == hostile + " <b>x</b>"
    assert box.get("lang") == "nl"
    assert [e.tag for e in box] == ["ins"]


def test_law_text_keeps_characters_xml_cannot_hold_visible() -> None:
    # Each is drawn as a mark naming it (lawdiff.marks), inside an isolate: never dropped, never acting.
    box = _fragment(html.law_text("tx", [(Op.EQUAL, "a\x0bb\x00c\u202ed")]))
    assert box.xpath("string()") == "aU+000BbU+0000 NULcU+202E RLOd"
    (bdi,) = box.iter("bdi")
    assert [m.text for m in bdi.iter("span") if m.get("class") == "hc"] == ["U+000B", "U+0000 NUL", "U+202E RLO"]
    assert "\u202e" not in html.law_text("tx", [(Op.EQUAL, "c\u202ed")])


def test_law_text_links_references_and_places_footnote_markers() -> None:
    text = "zie artikel 16C1 en verder"
    marker = html.h("sup", {"class": "fnref"}, "1)")
    out = html.law_text(
        "tx",
        [(Op.EQUAL, "zie artikel "), (Op.DELETE, "16D1"), (Op.EQUAL, " en verder")],
        [html.Link(12, 16, "#2017-16C1", "2017:16C1")],
        [(len(text), marker)],
    )
    assert '<a class="ref" href="#2017-16C1" title="2017:16C1"><del>16D1</del></a>' in out
    assert out.endswith('verder<sup class="fnref">1)</sup></div>\n')
    assert _fragment(out).xpath("string()") == "zie artikel 16D1 en verder1)"


def test_a_footnote_marker_right_after_a_reference_stands_outside_its_link() -> None:
    marker = html.h("sup", {"class": "fnref"}, html.h("a", {"href": "#fn"}, "1)"))
    out = html.law_text("tx", [(Op.EQUAL, "zie 16C1 nu")], [html.Link(4, 8, "#x", "2017:16C1")], [(8, marker)])
    box = _fragment(out)  # strict: a link inside a link would not parse
    assert [(e.tag, e.get("class")) for e in box] == [("a", "ref"), ("sup", "fnref")]
    assert box.xpath("string()") == "zie 16C11) nu"


# ---------------------------------------------------------------------------
# The markup builder: HTML by construction

HOSTILE_TEXTS = [
    "<script>alert(1)</script>",
    "a & b &amp; c &#x3c; &lt;",
    "\"double\" 'single' `back`",
    "]]> <![CDATA[ x ]]> <!-- comment --> <?php ?>",
    "</div></td></table><p>",
    "control \x00\x01\x08\x0b\x0c\x0e\x1f\ufffe\uffff end",
    "tab\tline\nreturn\r nbsp\u00a0 → ▪ é",
    "",
]


def _shown(text: str) -> str:
    """What a reader sees of ``text``: a character that shows nothing as a mark naming it (lawdiff.marks),
    one HTML cannot hold as U+FFFD."""
    return "".join(
        marks.label(run) if hidden else re.sub("[\ufffe\uffff]", "\ufffd", run) for run, hidden in marks.runs(text)
    )


def _attribute(text: str) -> str:
    """What an attribute holds of ``text``: a character that shows nothing as its escape (``\\x00``)."""
    return re.sub("[\ufffe\uffff]", "\ufffd", marks.escape(text))


@pytest.mark.parametrize("text", HOSTILE_TEXTS)
def test_builder_escapes_every_string_in_text_and_attributes(text: str) -> None:
    inner = html.h("span", {"title": text}, text)
    out = html.h("div", {"class": "x", "title": text, "data-edition": text}, text, inner)
    assert isinstance(out, html.Markup)
    div = _fragment(out)
    # Text that holds a hidden character stands in an isolate, each such character a mark (class "hc").
    made = [(e.tag, e.get("class")) for e in div.iter()]
    assert {m for m in made if m[0] != "span" or m[1] != "hc"} <= {("div", "x"), ("span", None), ("bdi", None)}
    assert ("bdi", None) in made if marks.has_hidden(text) else made == [("div", "x"), ("span", None)]
    assert div.get("title") == div[-1].get("title") == div.get("data-edition") == _attribute(text)
    assert div.xpath("string()") == 2 * _shown(text)
    assert sorted(div.keys()) == ["class", "data-edition", "title"]


def test_markup_passes_through_and_a_plain_string_never_does() -> None:
    bold = html.h("b", None, "x")
    assert html.h("p", None, bold) == "<p><b>x</b></p>"
    assert html.h("p", None, "<b>x</b>") == "<p>&lt;b&gt;x&lt;/b&gt;</p>"
    # markupsafe's invariants: whatever is done to a Markup gives a plain
    # string, which the builder escapes again; only the builder makes Markup.
    for derived in (bold + "<i>", "<i>" + bold, bold.upper(), bold[1:], "".join([bold, bold]), f"{bold}", bold * 2):
        assert type(derived) is str
        assert "&lt;" in html.h("p", None, derived)
    assert html.h("p", None, html.escape("<b>")) == "<p>&amp;lt;b&amp;gt;</p>"  # an escaped str is still a str
    assert html.escape('a<b>&"c') == 'a&lt;b&gt;&amp;"c'


def test_builder_skips_none_flattens_lists_and_knows_void_elements() -> None:
    assert html.h("p", {"id": None, "class": "a", "hidden": True, "open": False}, None, ["a", ["b", None], ("c",)]) == (
        '<p class="a" hidden>abc</p>'
    )
    assert html.h("span", None, (str(i) for i in range(3))) == "<span>012</span>"
    assert html.h("col", {"class": "c-old"}) == '<col class="c-old">'
    assert html.h("meta", {"charset": "utf-8"}) == '<meta charset="utf-8">'
    assert html.h("td", None) == "<td></td>"
    with pytest.raises(LawdiffBug):
        html.h("br", None, "text")


@pytest.mark.parametrize(("tag", "attr"), [("scr ipt", "id"), ("div", 'x"onclick'), ("div", "on click"), ("<b", "id")])
def test_builder_refuses_names_that_are_not_names(tag: str, attr: str) -> None:
    with pytest.raises(LawdiffBug):
        html.h(tag, {attr: "v"})


def test_inline_assets_cannot_end_their_element_early() -> None:
    from lawdiff.report.html import markup

    assert markup.raw_text("style", "a > b { x: '&'; }") == "<style>a > b { x: '&'; }</style>"
    for tag, text in (("style", "</STYLE><script>"), ("script", "x = '</script>'"), ("script", "<!-- x")):
        with pytest.raises(LawdiffBug):
            markup.raw_text(tag, text)
    with pytest.raises(LawdiffBug):
        markup.raw_text("div", "x")


def test_line_breaks_follow_blocks_but_never_enter_law_text_or_items() -> None:
    div = html.h("div", None, html.h("p", None, "a"), html.h("span", None, "b"), html.h("div", None, "c"))
    assert div == "<div>\n<p>a</p>\n<span>b</span><div>c</div>\n</div>"
    law = html.h("div", {"class": "tx lt"}, html.h("div", None, "a"), html.h("div", None, "b"))
    assert law == '<div class="tx lt"><div>a</div><div>b</div></div>'
    assert html.h("li", None, html.h("div", None, "a")) == "<li><div>a</div></li>"


def test_markup_is_made_only_by_the_builder_or_from_constants() -> None:
    """Read the renderers' source: no ``Markup(...)`` of anything but a string constant outside the builder."""
    import ast

    folder = Path(html.__file__).parent
    # The functions that may make Markup: markup.py's builder (and the placeholder of a held text), and
    # template.py's joining of a template's fixed pieces with escaped values.
    builder = {
        ("markup.py", "h"),
        ("markup.py", "raw_text"),
        ("markup.py", "hold_text"),
        ("template.py", "join"),
        ("template.py", "each_in"),
    }
    for path in sorted(folder.glob("*.py")):
        module = ast.parse(path.read_text(encoding="utf-8"))
        imported = {a.name.split(".")[0] for n in ast.walk(module) if isinstance(n, ast.Import) for a in n.names}
        imported |= {(n.module or "").split(".")[0] for n in ast.walk(module) if isinstance(n, ast.ImportFrom)}
        assert not imported & {"lxml", "markupsafe"}, f"{path.name}: the renderers build markup with the builder only"
        functions = [f for f in ast.walk(module) if isinstance(f, ast.FunctionDef)]
        owner = {id(n): f.name for f in functions for n in ast.walk(f)}
        for node in ast.walk(module):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
                continue
            if node.func.id == "Template":
                # A template is a string constant of the code, never made from data.
                fixed = node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)
                assert fixed, f"{path.name}:{node.lineno}: Template() of a computed string"
                continue
            if node.func.id not in ("Markup", "_Block"):
                continue
            constant = len(node.args) == 1 and isinstance(node.args[0], ast.Constant) and not node.keywords
            inside_builder = (path.name, owner.get(id(node))) in builder
            assert constant or inside_builder, f"{path.name}:{node.lineno}: {node.func.id}() of a computed string"


# ---------------------------------------------------------------------------
# The plan


def test_article_pages_compare_consecutive_editions_that_hold_the_article(corpus: Corpus) -> None:
    plan = site.plan(corpus)
    a45 = plan.article("45")
    assert a45 is not None
    assert [e.name for e in a45.editions] == ["1963", "2007", "2017"]
    assert [(p.old.name, p.new.name) for p in a45.pairs] == [("1963", "2007"), ("2007", "2017")]
    a6 = plan.article("6")
    assert a6 is not None and a6.pairs == ()
    assert [(t.old.name, t.new.name, t.articles) for t in plan.totals] == [
        ("1963", "2007", ("45",)),
        ("2007", "2017", ("45",)),
    ]


def test_pair_counts_are_the_comparison_counts_of_the_articles_compared(corpus: Corpus) -> None:
    plan = site.plan(corpus)
    total = next(t for t in plan.totals if (t.old.name, t.new.name) == ("2007", "2017"))
    comp = compare(corpus.edition("2007"), corpus.edition("2017"))
    changes = [ch for ch in comp.changes if site.touches(ch, {"45"})]
    expected = {k: sum(1 for ch in changes if ch.kind.value == k) for k in total.counts if k in {"modified", "added"}}
    assert {k: total.counts[k] for k in expected} == expected
    assert total.counts["renumbered"] == 3


def test_an_annotator_adds_its_classes_and_markup_to_every_row_and_nothing_else(corpus: Corpus) -> None:
    import dataclasses

    from lawdiff.report.html.article import article_page
    from lawdiff.report.html.markup import h as markup

    plain = site.plan(corpus)
    seen: list[tuple[str, str, str]] = []

    def annotate(ch: Change, old: str, new: str) -> site.Annotation:
        seen.append((ch.id, old, new))
        return site.Annotation(("r-test",), markup("p", {"class": "note-test"}, "<b>&"))

    marked = dataclasses.replace(plain, annotate=annotate)
    a45 = plain.article("45")
    assert a45 is not None
    # A row a reader annotates keeps its row (it is never folded into a run of unchanged clauses): the page
    # to compare with is one whose every row carries an empty annotation.
    before = article_page(dataclasses.replace(plain, annotate=lambda _c, _o, _n: site.Annotation()), a45)
    assert '<details class="same">' in article_page(plain, a45) and '<details class="same">' not in before
    after = article_page(marked, a45)
    rows = sum(len(p.changes) for p in a45.pairs)
    assert len(seen) == rows > 0
    assert {(o, n) for _, o, n in seen} == {("1963", "2007"), ("2007", "2017")}
    assert after.count("r-test") == rows
    assert after.count('<p class="note-test">&lt;b&gt;&amp;</p>') == rows
    # Without the annotations the page is the page without an annotator.
    stripped = re.sub(r' r-test|<p class="note-test">&lt;b&gt;&amp;</p>\n?', "", after)
    assert stripped == before


def test_removed_clauses_stand_where_they_stood_in_the_old_edition() -> None:
    corpus = load([CORPUS])
    a10 = site.plan(corpus).article("10")
    assert a10 is not None
    rows = [(ch.kind.value, ch.old, ch.new) for ch in a10.pairs[0].changes]
    # 10D went to article 11 (a move); it is listed on both pages.
    assert ("modified", ("10D",), ("11B",)) in rows
    assert rows[-1][0] in {"added", "modified"}


@pytest.mark.parametrize("held_out", [False, True], ids=["bundled", "held-out"])
def test_an_articles_anchors_are_those_of_its_synopsis_made_when_its_page_is(held_out: bool, tmp_path: Path) -> None:
    # The plan holds no synopsis (each page makes its own): the anchors every page links to are read off the
    # editions, and are the synopsis's clauses' own.
    if held_out:
        from benchscripts import bench_module

        corpus = load([bench_module("heldout").build_corpus(tmp_path, 6, "many").corpus])
    else:
        corpus = load([CORPUS])
    planned = site.plan(corpus)
    study = Study(corpus.select())
    for view in planned.articles:
        assert view.synopsis == ()
        made = article_facts.article_view(study, view.number, histories=False)
        assert planned.synopsis(view) == made.synopsis != ()
        shown = {
            site.anchor(node.edition, node.address)
            for row in made.synopsis
            for cell in row.cells
            for node in cell
            if article_of(node.address) == view.number
        }
        assert planned.anchors(view.number) == shown


def test_synopsis_lines_up_a_split_and_its_pieces(corpus: Corpus) -> None:
    planned = site.plan(corpus)
    a45 = planned.article("45")
    assert a45 is not None
    line = next(
        r
        for r in planned.synopsis(a45)
        if [n.address for n in r.cells[0]] == ["45"] and r.cells[0][0].part.value == "body"
    )
    assert [n.address for n in line.cells[1]] == ["45A", "45B"]
    assert line.steps[1][0] == "split"


def test_heat_levels_read_without_colour() -> None:
    assert len(article_facts.HEAT_SYMBOLS) == len(article_facts.HEAT_NAMES) == 5
    assert len(set(article_facts.HEAT_SYMBOLS)) == 5


# ---------------------------------------------------------------------------
# Golden files


def test_report_of_the_fixture_corpus_matches_the_golden_files(tmp_path: Path) -> None:
    out = tmp_path / "report"
    code, stdout, stderr = run("report", "--corpus", str(CORPUS), "-o", str(out))
    assert code == 0, stderr
    assert stdout == f"{out / 'index.html'}: 2 edition(s) compared, 3 article(s), 1 pair(s)\n"
    assert stderr == ""  # no progress bar when stderr is not a terminal
    pages = {p: mask(c.decode("utf-8")) for p, c in tree(out).items() if p.endswith(".html")}
    golden = GOLDEN / "site"
    if UPDATE:
        for p in golden.rglob("*.html") if golden.exists() else []:
            p.unlink()
        for p, text in pages.items():
            (golden / p).parent.mkdir(parents=True, exist_ok=True)
            (golden / p).write_text(text, encoding="utf-8", newline="\n")
    expected = {p.relative_to(golden).as_posix(): p.read_text(encoding="utf-8") for p in sorted(golden.rglob("*.html"))}
    assert sorted(pages) == sorted(expected), "run with LAWDIFF_UPDATE_GOLDEN=1 and review the diff"
    for p, text in pages.items():
        assert text == expected[p], f"{p} differs from its golden file (LAWDIFF_UPDATE_GOLDEN=1 regenerates it)"
    assert sorted(p for p in tree(out) if p.startswith("assets/")) == ["assets/report.css", "assets/report.js"]


def test_compare_html_of_the_fixture_corpus_matches_the_golden_file(tmp_path: Path) -> None:
    out = tmp_path / "compare.html"
    code, stdout, stderr = run("compare", "2001", "2011", "--corpus", str(CORPUS), "--format", "html", "-o", str(out))
    assert (code, stdout, stderr) == (0, "", "")
    text = mask(out.read_text(encoding="utf-8"))
    # The stylesheet and the script inside are the package's assets, checked
    # on their own; the golden file holds the markup.
    assert html.asset("report.css") in text and html.asset("report.js") in text
    text = text.replace(html.asset("report.css"), "/* assets/report.css */").replace(
        html.asset("report.js"), "/* assets/report.js */"
    )
    text = re.sub(r"'sha256-[A-Za-z0-9+/=]+'", "'sha256-HASH'", text)
    golden = GOLDEN / "compare-2001-2011.html"
    if UPDATE:
        golden.parent.mkdir(parents=True, exist_ok=True)
        golden.write_text(text, encoding="utf-8", newline="\n")
    assert text == golden.read_text(encoding="utf-8")


# ---------------------------------------------------------------------------
# Deterministic, atomic


def test_two_runs_give_byte_identical_reports(tmp_path: Path) -> None:
    for name in ("a", "b"):
        code, _, stderr = run("report", "-o", str(tmp_path / name))
        assert code == 0, stderr
    a, b = tree(tmp_path / "a"), tree(tmp_path / "b")
    assert a == b
    assert "articles/45.html" in a and "articles/45-history.html" in a and "index.html" in a


def test_a_failed_run_leaves_the_previous_report_and_no_half_written_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "report"
    assert run("report", "--corpus", str(CORPUS), "-o", str(out))[0] == 0
    before = tree(out)

    def boom(_site: site.Site) -> str:
        raise RuntimeError("disk full")

    monkeypatch.setattr(html, "index_pieces", boom)  # the index as the report writes it (in pieces)
    with pytest.raises(RuntimeError, match="disk full"):
        corpus = load([CORPUS])
        html.write_report(corpus, Study(corpus.select()), out)
    assert tree(out) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report"]


def test_report_refuses_to_replace_a_folder_that_is_not_a_report(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("mine", encoding="utf-8")
    code, _, stderr = run("report", "--corpus", str(CORPUS), "-o", str(tmp_path))
    assert code == 2
    assert "is not empty and holds no lawdiff report" in stderr
    assert (tmp_path / "notes.txt").read_text(encoding="utf-8") == "mine"
    code, _, stderr = run("report", "--corpus", str(CORPUS), "-o", str(tmp_path / "notes.txt"))
    assert code == 2 and "is not a folder" in stderr


def test_report_lists_every_source_of_an_edition(tmp_path: Path) -> None:
    corpus = ("--corpus", str(default_corpus()), "--corpus", str(WIKI_2017))
    code, stdout, stderr = run("report", *corpus, "-o", str(tmp_path / "r"))
    assert code == 0, stderr
    # The index lists five editions (two sources of 2017), reads four and compares three (1997 is in no pair).
    said = ": 3 edition(s) compared, 1997 passed over (in no pair) (5 listed), 14 article(s), 2 pair(s)\n"
    assert stdout.endswith(said)
    root = check_pages(tmp_path / "r")["index.html"]
    rows = root.findall(".//table[@class='editions']/tbody/tr")
    assert [tr.get("class") for tr in rows] == ["compared", "listed", "compared", "listed", "compared"]
    listed = [(tr.findtext("th"), tr.xpath("string(td[1])"), tr.xpath("string(td[2])")) for tr in rows]
    assert listed == [
        ("1963", "compared", "not stated"),
        # 1997's corpus holds articles 53-56, which no other corpus holds, and not article 45: in no pair.
        (
            "1997",
            "in no pair compared (passed over): no article its corpus holds is compared with another edition's",
            "not stated",
        ),
        ("2007", "compared", "not stated"),
        # Two sources of one year: the older printing (an unnumbered one) first.
        (
            "2017@wiki",
            "not compared: another source of 2017; compare the two with lawdiff report 2017@wiki 2017@nuxt",
            "not stated",
        ),
        ("2017@nuxt", "compared, as 2017", "3e druk"),
    ]
    wiki = rows[-2].xpath("string(td[5])")
    assert "wiki-2017/wiki-Sjabloon-2017-45.txt" in wiki
    assert root.xpath("string(//p[contains(@class, 'alias')])") == (
        "2017 means 2017@nuxt (the newer printing, as no setting chooses)."
    )
    assert [th.text for th in root.findall(".//table[@id='matrix']/thead/tr/th")][1:] == [
        "1963",
        "1997",
        "2007",
        "2017",
    ]


def test_report_of_two_sources_of_one_edition_compares_them(tmp_path: Path) -> None:
    corpus = ("--corpus", str(default_corpus()), "--corpus", str(WIKI_2017))
    out = tmp_path / "r"
    code, stdout, stderr = run("report", "2017@wiki", "2017@nuxt", *corpus, "-o", str(out))
    assert code == 0, stderr
    assert stdout.endswith(": 2 edition(s) compared (5 listed), 2 article(s), 1 pair(s)\n")
    pages = check_pages(out)
    roles = {
        tr.findtext("th"): tr.xpath("string(td[1])")
        for tr in pages["index.html"].findall(".//table[@class='editions']/tbody/tr")
    }
    assert roles["2017@wiki"] == roles["2017@nuxt"] == "compared"
    a45 = pages["articles/45.html"]
    # Two sources of one year stand as `lawdiff history` has them: the older
    # printing (the wiki's, whose printing is not stated) first.
    row = a45.xpath("//tbody[.//*[@id='diff-2017_wiki-2017_nuxt-2017_nuxt-45B']]")[0]
    assert "k-modified" in row.get("class", "")
    assert [d.text for d in row.iter("del")] == ["zonodig"] and [i.text for i in row.iter("ins")] == ["zo nodig"]
    assert a45.xpath("string(//section[@id='diff-2017_wiki-2017_nuxt']//ul[@class='kinds'])").count("1 modified") == 1
    # One source under two names is one edition.
    code, stdout, _ = run("report", "2017", "2017@nuxt", *corpus, "-o", str(tmp_path / "s"))
    assert code == 0 and stdout.endswith(": 1 edition(s) compared (5 listed), 2 article(s), 0 pair(s)\n")


def test_report_keeps_files_a_user_added_to_the_report_folder(tmp_path: Path) -> None:
    out = tmp_path / "rkeep"
    assert run("report", "--corpus", str(CORPUS), "-o", str(out))[0] == 0
    record = json.loads((out / html.MANIFEST).read_text(encoding="utf-8"))
    assert sorted(record["files"]) == sorted(p for p in tree(out) if p != html.MANIFEST)
    # An untouched report is replaced.
    assert run("report", "--corpus", str(CORPUS), "-o", str(out))[0] == 0
    before = tree(out)
    # A member's notes are carried into the new report, and the run says so.
    (out / "notities.txt").write_text("x\n", encoding="utf-8")
    code, _, stderr = run("report", "--corpus", str(CORPUS), "-o", str(out))
    assert code == 0
    assert "lawdiff: kept what you added or changed in the report folder: notities.txt" in stderr
    assert (out / "notities.txt").read_text(encoding="utf-8") == "x\n"
    assert {p: c for p, c in tree(out).items() if p != "notities.txt"} == before
    # A page edited in place is kept beside the new one; a folder added is carried whole.
    page = out / "articles" / "10.html"
    page.write_text(page.read_text(encoding="utf-8") + "<!-- mijn aantekening -->", encoding="utf-8")
    (out / "mijn").mkdir()
    (out / "mijn" / "a.txt").write_text("a", encoding="utf-8")
    code, _, stderr = run("report", "--corpus", str(CORPUS), "-o", str(out))
    assert code == 0 and "mijn/" in stderr
    # It said "kept articles/10.html" while the new page took that name: where the edit went is said.
    assert "articles/10.html (changed: kept as articles/10.html.kept)" in stderr
    assert "mijn aantekening" not in page.read_text(encoding="utf-8")
    assert "mijn aantekening" in (out / "articles" / "10.html.kept").read_text(encoding="utf-8")
    assert (out / "mijn" / "a.txt").read_text(encoding="utf-8") == "a"
    assert (out / "notities.txt").exists()
    # What was carried is not in the manifest: lawdiff did not write it.
    record = json.loads((out / html.MANIFEST).read_text(encoding="utf-8"))
    assert not {"notities.txt", "articles/10.html.kept", "mijn/a.txt"} & set(record["files"])
    assert sorted(p.name for p in tmp_path.iterdir()) == ["rkeep"]  # no staging folder left


def test_a_report_without_a_manifest_is_replaced_only_when_it_holds_report_files(tmp_path: Path) -> None:
    out = tmp_path / "old"
    assert run("report", "--corpus", str(CORPUS), "-o", str(out))[0] == 0
    (out / html.MANIFEST).unlink()  # as written before reports kept one
    assert run("report", "--corpus", str(CORPUS), "-o", str(out))[0] == 0
    (out / html.MANIFEST).unlink()
    (out / "articles" / "notes.md").write_text("mine", encoding="utf-8")
    code, _, stderr = run("report", "--corpus", str(CORPUS), "-o", str(out))
    assert code == 0 and "articles/notes.md" in stderr
    assert (out / "articles" / "notes.md").read_text(encoding="utf-8") == "mine"
    # A manifest that cannot be read vouches for nothing: the folder is left alone.
    (out / html.MANIFEST).write_text("{not json", encoding="utf-8")
    code, _, stderr = run("report", "--corpus", str(CORPUS), "-o", str(out))
    assert code == 2 and html.MANIFEST in stderr
    assert (out / "articles" / "notes.md").read_text(encoding="utf-8") == "mine"
    # A folder that holds no report at all is never taken over.
    other = tmp_path / "other"
    other.mkdir()
    (other / "x.txt").write_text("x", encoding="utf-8")
    code, _, stderr = run("report", "--corpus", str(CORPUS), "-o", str(other))
    assert code == 2 and "holds no lawdiff report" in stderr


def test_report_of_named_editions_and_of_an_unknown_one(tmp_path: Path) -> None:
    code, stdout, _ = run("report", "2007", "2017", "-o", str(tmp_path / "r"))
    assert code == 0
    # The index lists every edition of the corpus; two are compared.
    assert stdout.endswith(": 2 edition(s) compared (4 listed), 2 article(s), 1 pair(s)\n")
    root = _parse((tmp_path / "r" / "index.html").read_text(encoding="utf-8"), "index.html")
    assert [th.text for th in root.findall(".//table[@id='matrix']/thead/tr/th")] == ["Article", "2007", "2017"]
    roles = {
        tr.findtext("th"): tr.xpath("string(td[1])") for tr in root.findall(".//table[@class='editions']/tbody/tr")
    }
    assert roles == {
        "1963": "not compared in this report",
        "1997": "not compared in this report",
        "2007": "compared",
        "2017": "compared",
    }
    code, _, stderr = run("report", "1999", "-o", str(tmp_path / "s"))
    assert code == 2 and "no edition '1999'" in stderr
    assert not (tmp_path / "s").exists()


def test_progress_is_reported_once_per_article_and_page(tmp_path: Path) -> None:
    seen: list[tuple[int, int]] = []
    corpus = load()
    html.write_report(corpus, Study(corpus.select()), tmp_path / "r", lambda d, t: seen.append((d, t)))
    # Each article planned, its page and its history page, each pair's correlation table, then the index.
    total = 3 * 14 + 2 + 1
    assert seen == [(i, total) for i in range(1, total + 1)]


def test_pages_made_in_several_processes_are_the_same_bytes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    corpus = load([CORPUS])
    monkeypatch.setenv("LAWDIFF_JOBS", "1")
    html.write_report(corpus, Study(corpus.select()), tmp_path / "one")
    monkeypatch.setenv("LAWDIFF_JOBS", "3")
    html.write_report(corpus, Study(corpus.select()), tmp_path / "three")
    assert tree(tmp_path / "one") == tree(tmp_path / "three")


# ---------------------------------------------------------------------------
# Valid, self-contained, navigable


def _parse(text: str, name: str) -> etree._Element:
    parser = html5lib.HTMLParser(strict=True, namespaceHTMLElements=False, tree=html5lib.getTreeBuilder("lxml"))
    try:
        return parser.parse(text).getroot()  # type: ignore[no-any-return]
    except html5lib.html5parser.ParseError as exc:  # pragma: no cover - the message is the point
        pytest.fail(f"{name}: not valid HTML5: {exc} {parser.errors[:3]}")


def check_pages(folder: Path) -> dict[str, etree._Element]:
    """Parse and check every page of a report; returns the parsed pages."""
    pages = {p: _parse(c.decode("utf-8"), p) for p, c in tree(folder).items() if p.endswith(".html")}
    ids = {p: [e.get("id") for e in root.iter() if isinstance(e.tag, str) and e.get("id")] for p, root in pages.items()}
    for p, root in pages.items():
        text = (folder / p).read_text(encoding="utf-8")
        assert text.startswith("<!DOCTYPE html>\n"), p
        assert root.get("lang") == "en", p
        assert root.find("head/meta[@charset='utf-8']") is not None, p
        assert root.find("head/meta[@name='viewport']") is not None, p
        assert len(root.findall(".//h1")) == 1, p
        dupes = {i for i in ids[p] if ids[p].count(i) > 1}
        assert not dupes, f"{p}: duplicate ids {sorted(dupes)[:5]}"
        for e in root.iter():
            if not isinstance(e.tag, str):
                continue
            for attr in ("href", "src"):
                url = e.get(attr)
                if url is None:
                    continue
                parts = urlsplit(url)
                assert not parts.scheme and not parts.netloc, f"{p}: external {attr} {url}"
                target = (Path(p).parent / unquote(parts.path)).as_posix() if parts.path else p
                target = os.path.normpath(target)
                assert (folder / target).is_file(), f"{p}: {url} leads to no file"
                if parts.fragment and target.endswith(".html"):
                    assert unquote(parts.fragment) in ids[target], f"{p}: {url} leads to no id"
            if e.tag in ("ins", "del"):
                assert any(a.get("lang") == "nl" for a in e.iterancestors()) or e.getparent() is not None
        scripts = root.findall(".//script")
        assert all(s.get("src", "").endswith("assets/report.js") and not (s.text or "").strip() for s in scripts), p
        for law in root.iter():
            if isinstance(law.tag, str) and "lt" in (law.get("class") or "").split():
                assert law.get("lang") == "nl", p
    return pages


# The reports the tests below only read, each written and checked once per module (a report of the bundled
# corpus took a second of CPU time, and seven tests wrote and checked one each): the pages are lxml trees
# that the tests query and never change.
@pytest.fixture(scope="module")
def bundled_pages(bundled_report: Path) -> dict[str, etree._Element]:
    """Every page of ``lawdiff report`` of the bundled corpus (conftest's, written once per session), checked."""
    return check_pages(bundled_report)


@pytest.fixture(scope="module")
def fixture_report(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, etree._Element]]:
    """``lawdiff report --corpus`` of the fixture corpus, and its pages, checked."""
    out = tmp_path_factory.mktemp("fixture-report") / "r"
    assert run("report", "--corpus", str(CORPUS), "-o", str(out))[0] == 0
    return out, check_pages(out)


def test_every_page_of_the_bundled_report_is_valid_and_every_link_leads_somewhere(
    bundled_pages: dict[str, etree._Element],
) -> None:
    pages = bundled_pages
    assert len(pages) == 1 + 2 * 14 + 2  # the index, two pages per article, two correlation tables
    assert "review.html" not in pages  # no review store here
    index = pages["index.html"]
    links = {a.get("href") for a in index.iter("a")}
    for number in ("6", "41", "45", "53", "56"):
        assert f"articles/{number}.html" in links


def test_the_fixture_report_is_valid_too(fixture_report: tuple[Path, dict[str, etree._Element]]) -> None:
    out, pages = fixture_report
    assert set(pages) == {p.relative_to(out).as_posix() for p in out.rglob("*.html")}  # every page checked


def test_article_page_of_45_holds_what_the_committee_needs(bundled_pages: dict[str, etree._Element]) -> None:
    root = bundled_pages["articles/45.html"]

    def block(ident: str) -> etree._Element:
        found = root.xpath(f"//*[@id='{ident}']")
        assert found, ident
        return found[0]  # type: ignore[no-any-return]

    def row(ident: str) -> etree._Element:
        return next(a for a in block(ident).iterancestors() if a.tag == "tbody")

    b = row("diff-2007-2017-2017-45C4b")
    assert "k-modified" in b.get("class", "")
    assert "Tot zijn partner een kaart gespeeld heeft" in " ".join(d.xpath("string()") for d in b.iter("del"))
    assert "De leider mag een onbedoeld aangeduide kaart" in " ".join(i.xpath("string()") for i in b.iter("ins"))
    assert "16D1 → 16C1" in b.xpath("string(.//td[@class='kind'])").replace("reference retargeted: ", "")
    # Renumbered with its words as they were: one line of a run that names it and links to its wording.
    renum = row("diff-2007-2017-2017-45E1")
    assert renum.get("class", "").split() == ["change", "k-unchanged", "diff", "renumbered", "run"]
    assert "45E.p1 → 45E1" in block("diff-2007-2017-2017-45E1").xpath("string()")
    assert block("diff-2007-2017-2007-45E.p1").get("href") == "#2007-45E.p1"
    added = row("diff-2007-2017-2017-45D2")
    assert "k-added" in added.get("class", "")
    split = row("diff-1963-2007-1963-45")
    assert "k-split" in split.get("class", "") and len(split.findall("tr")) == 2
    assert split.find("tr/td[@class='old']").get("rowspan") == "2"
    assert block("diff-1963-2007-2007-45A") in split.iter() and block("diff-1963-2007-2007-45B") in split.iter()
    # Canonical anchors in the synopsis, each with its source (the file named once, under the table) and its
    # address leading to its history.
    syn = block("2017-45C4b")
    source = syn.xpath("string(.//details[@class='src']/text()[last()])").strip()
    assert source == "2017 · 3e druk · $[551]"
    assert "2017 (3e druk): 2017/nuxt-artikel-45.payload.json" in root.xpath("string(//section[@id='synopsis'])")
    assert block("1963-45d").xpath("string(.//a[@class='addr']/@href)") == "45-history.html#1963-45d"
    # The footnote stands beside its clause, its marker in the clause's text.
    fn = row("diff-2007-2017-2017-45A.fn1")
    assert "footnote" in fn.get("class", "")
    assert block("diff-1963-2007-2007-45A").xpath("string(.//sup[@class='fnref'])") == "1)"


def test_history_gives_each_piece_of_a_split_its_own_wording(
    bundled_pages: dict[str, etree._Element], corpus: Corpus
) -> None:
    root = bundled_pages["articles/45-history.html"]
    sec = root.xpath("//section[@id='1963-45']")[0]
    row = next(tr for tr in sec.iter("tr") if tr.findtext("th") == "2007")
    pieces = {b.xpath("string(div[@class='ch'])"): b for b in row.xpath(".//div[@class='hstep']")}
    assert sorted(pieces) == ["45A", "45B"]
    edition = corpus.edition("2007")
    for address, block in pieces.items():
        clause = edition.find(address)
        assert clause is not None
        # Each piece shows its own text, all of it and nothing else: what a
        # reader citing 45A copies is 45A.
        assert block.xpath("string(div[contains(@class, 'tx')])") == clause.text, address
        assert not block.findall(".//del"), address
    assert "zelf opnemen" not in pieces["45A"].xpath("string()")
    # The difference of the split is the article page's, where the line links.
    link = row.xpath(".//td[@class='kind']/a[@class='wd']")[0]
    assert link.text == "word differences" and link.get("aria-label") == "word differences: 2007 45A, 45B"
    page = bundled_pages["articles/45.html"]
    target = page.xpath(f"//tbody[@id='{link.get('href').split('#')[1]}']")[0]
    assert "k-split" in target.get("class", "") and target.findall(".//del") and target.findall(".//ins")


def test_a_changed_text_never_reads_as_identical() -> None:
    assert [html.percent(x) for x in (0, 1, 0.5, 0.998, 0.9996, 0.004, 0.0004, 0.996)] == [
        "0 %",
        "100 %",
        "50 %",
        "99.8 %",
        ">99.9 %",
        "0.4 %",
        "<0.1 %",
        "99.6 %",
    ]


def test_similarity_of_a_changed_clause_is_below_100_percent(
    bundled_pages: dict[str, etree._Element], fixture_report: tuple[Path, dict[str, etree._Element]]
) -> None:
    pages = bundled_pages
    root = pages["articles/45.html"]
    row = root.xpath("//tbody[.//*[@id='diff-2007-2017-2017-45D1']]")[0]
    assert row.xpath("string(.//span[@class='sim'])") == "similarity 99.8 %"
    for p, page in pages.items():
        assert "similarity 100 %" not in page.xpath("string()"), p
    fixture = fixture_report[0]
    a12 = _parse((fixture / "articles" / "12.html").read_text(encoding="utf-8"), "12.html")
    assert a12.xpath("string(//tbody[.//*[@id='diff-2001-2011-2011-12B']]//span[@class='sim'])") == "similarity 99.9 %"
    # A title changed over an identical text: said in words, not as a percentage.
    a10 = _parse((fixture / "articles" / "10.html").read_text(encoding="utf-8"), "10.html")
    moved = a10.xpath("//tbody[.//*[@id='diff-2001-2011-2011-11B']]")[0]
    assert moved.xpath("string(.//span[@class='sim'])") == "no word of the text changed"


def test_editorial_only_changes_are_counted_inside_their_kind(
    fixture_report: tuple[Path, dict[str, etree._Element]],
) -> None:
    pages = fixture_report[1]
    table = pages["index.html"].xpath("//table[@class='totals']")[0]
    heads = [th.xpath("string()") for th in table.xpath("thead/tr[2]/th")]
    assert "Editorial only" not in heads
    assert heads[:6] == ["Unchanged", "Modified", "Split", "Merged", "Added", "Removed"]
    groups = [(th.xpath("string()"), th.get("colspan")) for th in table.xpath("thead/tr[1]/th[@scope='colgroup']")]
    assert groups == [("Kind of change (each clause once)", "6"), ("Of these clauses", "4"), ("Differences", "2")]
    cells = [td.xpath("string()") for td in table.xpath("tbody/tr[1]/td")][1:]
    # The fixture's one editorial-only change is a split (a line break became two clauses).
    assert cells[:6] == ["9", "6", "1 (1 editorial only)", "0", "3", "0"]
    plan = site.plan(load([CORPUS]))
    total = plan.totals[0]
    kinds = sum(total.counts[k] for k, _ in html.KIND_COUNTS) + total.counts.get("outside_corpus", 0)
    comp = compare(plan.compared[0], plan.compared[1])
    assert kinds == len([ch for ch in comp.changes if site.touches(ch, set(total.articles))])
    counts = pages["articles/10.html"].xpath("//section[@id='diff-2001-2011']/div[@class='counts']")[0]
    assert "1 split (1 editorial only)" in counts.xpath("string(ul[@class='kinds'])")
    assert "editorial" not in counts.xpath("string(ul[@class='flags'])")
    assert counts.xpath("string(ul[@class='flags']/li[1])") == "of these:"


def test_a_stale_reference_in_an_unchanged_clause_is_flagged(
    fixture_report: tuple[Path, dict[str, etree._Element]],
) -> None:
    pages = fixture_report[1]
    root = pages["articles/12.html"]
    row = root.xpath("//tbody[.//*[@id='diff-2001-2011-2011-12A']]")[0]
    # Unchanged text, but not among the unchanged rows ("show only changes" keeps it).
    assert row.get("class", "").split() == ["change", "k-unchanged", "diff", "stale"]
    kind = row.xpath("string(tr/td[@class='kind'])")
    assert "stale reference" in kind
    assert "reference 12C kept as written, but 2001 12C is now 2011 12D: check the reference" in kind
    assert root.xpath("string(//section[@id='diff-2001-2011']//li[contains(@class, 'stale')])") == "1 stale reference"
    step = root.xpath("//td[@data-edition='2011'][.//*[@id='2011-12A']]/div[contains(@class, 'step')]")[0]
    assert step.get("class") == "step s-unchanged stale" and step.xpath("string()") == "unchanged, stale reference"
    hist = pages["articles/12-history.html"]
    row = next(tr for tr in hist.xpath("//section[@id='2001-12A']//tr") if tr.findtext("th") == "2011")
    assert row.xpath("string(td[@class='kind'])") == "unchanged stale referenceside by side"
    assert row.xpath("string(td[@class='kind']/a[@class='wd']/@href)").startswith("12.html#change-")
    index = pages["index.html"]
    assert "1 stale reference" in index.xpath(
        "string(//table[@id='matrix']//td[@class='cell h2'][contains(@title, 'stale')]/@title)"
    )


def test_clause_history_page_follows_a_clause_through_every_edition(bundled_pages: dict[str, etree._Element]) -> None:
    root = bundled_pages["articles/45-history.html"]
    sec = root.xpath("//section[@id='1963-45d']")[0]
    rows = [
        (tr.xpath("string(th)"), tr.xpath("string(td[1])").strip())
        for tr in sec.iter("tr")
        if tr.find("th") is not None
    ]
    assert rows[1:] == [
        ("1963", ""),
        ("1997", ""),
        ("2007", "split45(d) → 45C4(a), 45C4(b)word differences"),
        ("2017", "modifiedword differences: 45C4(a)word differences: 45C4(b)"),
    ]
    assert sec.xpath("string(p[@class='introduced'])") == "Current wording introduced in 2017."


def test_history_page_shows_each_distinct_history_once_under_every_clause_it_stands_for(
    bundled_pages: dict[str, etree._Element], corpus: Corpus
) -> None:
    root = bundled_pages["articles/45-history.html"]
    plan = site.plan(corpus)
    a45 = plan.article("45")
    assert a45 is not None and a45.histories == ()  # planned without them: the history page makes them
    sections = root.xpath("//section[@class='history']")
    # Fewer sections than clauses: 2007 45C4(b) and 2017 45C4(b) have one history.
    assert len(plan.histories(a45)) == 47 and len(sections) == 24
    said = [etree.tostring(s, method="text", encoding="unicode").split("\n", 2)[2] for s in sections]
    assert len(set(said)) == len(said)  # none says what another says

    def section_of(ident: str) -> etree._Element:
        found = root.xpath(f"//*[@id='{ident}']")
        assert len(found) == 1, ident
        return next(e for e in (found[0], *found[0].iterancestors()) if e.tag == "section")

    # Every clause of every edition keeps its anchor on the page.
    for e, c, _ in plan.histories(a45):
        section_of(site.anchor(e.name, c.address))
    shared = section_of("2007-45C4b")
    assert section_of("2017-45C4b") is shared and shared.get("id") == "2007-45C4b"
    assert shared.xpath("string(h2/span[@class='addr'])") == "2007:45C4(b), 2017:45C4(b)"
    assert section_of("2017-45E1") is section_of("2007-45E.p1")  # renumbered, same history
    # The table of contents leads to every section, once.
    toc = [a.get("href") for a in root.xpath("//nav[@id='contents']//a")]
    assert toc == [f"#{s.get('id')}" for s in sections]


def test_history_page_shows_each_wording_once_and_links_each_change_to_its_word_differences(
    bundled_pages: dict[str, etree._Element],
) -> None:
    pages = bundled_pages
    root = pages["articles/45-history.html"]
    texts = [" ".join(t.xpath("string()").split()) for t in root.xpath("//div[contains(@class, 'tx')]")]
    assert len(texts) == len(set(texts)) > 20
    # A wording shown in another history is named there and linked.
    again = root.xpath("//section[@id='2007-45C4b']//p[@class='same-as']")
    assert again and all(p.find("a").get("href").startswith("#") for p in again)
    # Every change of a history links to its row on the article page, where its words are marked.
    article = pages["articles/45.html"]
    links = root.xpath("//a[@class='wd']")
    assert len(links) > 10
    for a in links:
        page, row = a.get("href").split("#")
        assert page == "45.html" and article.xpath(f"//tbody[@id='{row}']"), a.get("href")
    # Editions in which a wording stayed the same share one line, each edition linked to the clause there.
    shared = root.xpath("//section[.//*[@id='2007-45C5']]//tr[th/a]")[0]
    assert [a.get("href") for a in shared.xpath("th/a")] == ["45.html#2007-45C5", "45.html#2017-45C5"]


def test_compare_html_is_one_self_contained_page(tmp_path: Path) -> None:
    out = tmp_path / "c.html"
    assert run("compare", "2007", "2017", "--article", "45", "--format", "html", "-o", str(out))[0] == 0
    text = out.read_text(encoding="utf-8")
    root = _parse(text, "c.html")
    assert root.find("head/link") is None  # the stylesheet is inside
    style, script = root.find("head/style"), root.find("body/script")
    assert style is not None and script is not None and script.get("src") is None
    csp = root.find("head/meta[@http-equiv='Content-Security-Policy']").get("content")
    assert html.sha256_hex(style.text or "") in csp and html.sha256_hex(script.text or "") in csp
    assert "'unsafe-inline'" not in csp
    ids = [e.get("id") for e in root.iter() if isinstance(e.tag, str) and e.get("id")]
    assert len(ids) == len(set(ids))
    for a in root.iter("a"):
        href = a.get("href", "")
        assert href.startswith("#") and href[1:] in ids, href
    assert "diff-2007-2017-2017-45C4b" in ids
    code, stdout, _ = run("compare", "2007", "2017", "--article", "45", "--format", "html")
    assert code == 0 and stdout == text


@pytest.mark.parametrize(
    "args",
    [
        # Merges (the newer edition first): the old clauses' texts are made before the new one beside them.
        ("2007", "1963", "--all"),
        ("2001", "2011", "--all", "--corpus", str(HOSTILE)),
    ],
)
def test_compare_html_is_the_same_whether_its_law_texts_are_held_out_of_the_page_or_not(
    monkeypatch: pytest.MonkeyPatch, args: tuple[str, ...]
) -> None:
    """A clause of megabytes is held out of the page until it is written (lawdiff.report.html.law.HELD_FROM):
    holding every text gives the page built in place, byte for byte."""
    from lawdiff.report.html import law

    command = ("compare", *args, "--no-cache", "--format", "html")
    code, in_place, _ = run(*command)
    assert code == 0 and "<!--" not in in_place
    monkeypatch.setattr(law, "HELD_FROM", 0)
    assert run(*command)[:2] == (0, in_place)


def test_the_html_package_imports_the_modules_of_the_reports_other_pages_when_they_are_asked_for() -> None:
    """compare --format html makes one page: the modules of the report's others are imported when first named."""
    import subprocess
    import sys

    later = ["article", "correlation", "history", "index", "pagecache", "review"]
    probe = "\n".join(
        [
            "import sys",
            "import lawdiff.report.html as h",
            f"print([m for m in {later!r} if 'lawdiff.report.html.' + m in sys.modules])",
            "from lawdiff.report.html.counts import KIND_COUNTS",
            "print(h.history_page.__module__, h.KIND_COUNTS is KIND_COUNTS, hasattr(h, 'no_such_name'))",
        ]
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    assert out.splitlines() == ["[]", "lawdiff.report.html.history True False"]


# ---------------------------------------------------------------------------
# Hostile law text


def test_hostile_law_text_is_text_everywhere(tmp_path: Path) -> None:
    out = tmp_path / "r"
    assert run("report", "--corpus", str(HOSTILE), "-o", str(out))[0] == 0
    pages = check_pages(out)
    for p, root in pages.items():
        assert [s.get("src") for s in root.iter("script")] == [("../" if "/" in p else "") + "assets/report.js"]
        assert not root.findall(".//img") and not root.findall(".//i"), p
        # Inside law text there is nothing but our own marks.
        for law in root.xpath("//*[contains(concat(' ', @class, ' '), ' lt ')]"):
            assert {e.tag for e in law.iterdescendants()} <= {"ins", "del", "a", "sup", "span"}, p
        assert not [e for e in root.iter() if isinstance(e.tag, str) for k in e.attrib if k.startswith("on")], p
    art = pages["articles/66.html"]
    text = art.xpath("string(//main)")
    assert "<script>window.PWNED=1;alert(1)</script>" in text
    assert '<img src=x onerror="window.PWNED=1">' in text
    assert "&amp; en &lt;script&gt;" in text
    assert art.xpath("string(//h1)") == 'Article 66 — Gevaar <i>cursief</i> & "quotes"'
    raw = (out / "articles" / "66.html").read_text(encoding="utf-8")
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in raw
    assert re.search(r"<script>(?!</script>)", raw) is None
    c = tmp_path / "c.html"
    assert run("compare", "2001", "2011", "--corpus", str(HOSTILE), "--format", "html", "-o", str(c))[0] == 0
    root = _parse(c.read_text(encoding="utf-8"), "c.html")
    assert len(root.findall(".//script")) == 1 and not root.findall(".//img")


# ---------------------------------------------------------------------------
# The command line


def test_report_command_has_help_with_an_example_and_is_in_the_readme() -> None:
    code, stdout, _ = run("report", "-h")
    assert code == 0 and "Example: lawdiff report" in stdout
    readme = (HERE.parent / "README.md").read_text(encoding="utf-8")
    assert "lawdiff report" in readme and "## Report" in readme
    assert "--format html" in readme


class _Terminal:
    """A stderr that says it is a terminal."""

    def __init__(self) -> None:
        self.written: list[str] = []

    def isatty(self) -> bool:
        return True

    def write(self, text: str) -> int:
        self.written.append(text)
        return len(text)

    def flush(self) -> None:
        pass


def test_progress_bar_shows_on_a_terminal_only_once_the_run_takes_a_moment(monkeypatch: pytest.MonkeyPatch) -> None:
    from lawdiff.cli import report as cli

    terminal = _Terminal()
    monkeypatch.setattr(cli.sys, "stderr", terminal)
    now = [0.0]
    quick = cli._Progress("Writing the report", clock=lambda: now[0])
    with quick as step:
        for i in range(1, 4):
            step(i, 3)
    assert terminal.written == []  # a quick run shows no bar
    slow = cli._Progress("Writing the report", clock=lambda: now[0])
    with slow as step:
        step(1, 3)
        now[0] = 1.0
        step(2, 3)
        step(3, 3)
    assert "Writing the report" in "".join(terminal.written)


def test_a_report_file_is_hashed_again_whenever_it_may_have_changed(tmp_path: Path) -> None:
    from lawdiff.report import files

    page = tmp_path / "page.html"
    page.write_text("<p>een</p>", encoding="utf-8")
    os.utime(page, ns=(1_000_000_000, 1_000_000_000))
    first = files._file_digest(page)
    assert files._file_digest(page) == first
    # The same size and modification time, other content: the change time tells.
    page.write_text("<p>twe</p>", encoding="utf-8")
    os.utime(page, ns=(1_000_000_000, 1_000_000_000))
    assert files._file_digest(page) != first
    # A file changed within the file system clock's tick of being hashed is not remembered.
    fresh = tmp_path / "fresh.html"
    fresh.write_text("<p>nieuw</p>", encoding="utf-8")
    files._file_digest(fresh)
    assert fresh not in files._READ


def test_a_hidden_override_in_a_draft_is_isolated_and_shown_on_every_page(tmp_path: Path) -> None:
    # A typed draft of the 2017 article 45 (as `lawdiff show` prints it) with a right-to-left override
    # hidden in 45C4(b): what a committee must see, and what must not reorder the page around it.
    shown = CliRunner().invoke(main, ["show", "2017:45"]).stdout.splitlines()
    lines = [
        re.sub(r"^\s*\[[^]]*\] ", "", line) for line in shown[2:] if not re.match(r"^\s*(\[45A\.fn|references:)", line)
    ]
    text = "Concept spelregels 2027\n\n" + "\n".join(lines) + "\n"
    assert "mag een onbedoeld" in text
    folder = tmp_path / "c"
    shutil.copytree(default_corpus() / "2017", folder / "2017")
    (folder / "2027").mkdir()
    (folder / "2027" / "concept.txt").write_text(text.replace("mag een onbedoeld", "mag een \u202eonbedoeld"), "utf-8")
    page = CliRunner().invoke(main, ["compare", "2017", "2027", "--corpus", str(folder), "--format", "html"]).stdout
    out = tmp_path / "r"
    assert CliRunner().invoke(main, ["report", "--corpus", str(folder), "-o", str(out)]).exit_code == 0
    pages = [page, *(p.read_text(encoding="utf-8") for p in sorted(out.rglob("*.html")))]
    shown_in = [p for p in pages if "U+202E RLO" in p]
    assert len(shown_in) >= 3  # the compare page, the article page, its history page
    for p in pages:
        assert "\u202e" not in p  # drawn as its mark, never acting on the text around it
    for p in shown_in:
        root = _parse(p, "page")
        marked = [m for m in root.iter("span") if m.get("class") == "hc"]
        assert marked and all(m.text == "U+202E RLO" and m.getparent().tag == "bdi" for m in marked)
    # The text itself is not changed: the draft's edition holds the override.
    draft = load([folder]).edition("2027").find("45C4(b)")
    assert draft is not None and "\u202eonbedoeld" in draft.text
