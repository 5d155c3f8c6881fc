"""A corpus that holds an article only by some of its sections' pages.

The wiki has a page per section from 1987 on (``Sjabloon:2017:45C``), and a
2017 section page holds the section's body without its "C. ..." heading.  A
corpus of a few such pages holds those sections, not the article: the other
sections, the article's heading and the sections' headings are not in it,
and a comparison with a whole article says so ("not compared") instead of
calling them removed.  The pages are built here from the 2007 seed's
sections, as a 2017 wiki would give them.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from lawdiff.cli import main
from lawdiff.corpus import from_pages
from lawdiff.model import Edition
from lawdiff.sources import read_text

ROOT = Path(__file__).resolve().parents[1]
SEED_2007 = ROOT / "corpus" / "2007" / "wiki-Sjabloon-2007-45.txt"
_SECTION_HEADING = re.compile(r"[A-Z]\. ")


def section_body(letter: str, drop: str = "") -> str:
    """The lines of the seed's section ``letter`` below its heading, without those starting with ``drop``."""
    lines = SEED_2007.read_text(encoding="utf-8").splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(f"{letter}. "))
    end = next((i for i in range(start + 1, len(lines)) if _SECTION_HEADING.match(lines[i])), len(lines))
    body = [line for line in lines[start + 1 : end] if not (drop and line.startswith(drop))]
    return "\n".join(body) + "\n"


def section_page(letter: str, drop: str = "") -> str:
    return f"Sjabloon:2017:45{letter}\n" + section_body(letter, drop)


def edition_of(*pages: tuple[str, str]) -> Edition:
    read = [page for name, text in pages for page in read_text(text, name)]
    (edition,) = from_pages(read).editions
    return edition


def test_the_seeds_sections_are_cut_where_they_end() -> None:
    body = section_body("C")
    assert body.startswith("1. Een kaart van een tegenspeler")
    assert body.rstrip().endswith("(zie artikel 50).")
    assert section_body("E").startswith("- Een door een tegenspeler")


def test_a_corpus_of_section_pages_holds_those_sections_and_no_headings() -> None:
    edition = edition_of(("45C.txt", section_page("C")), ("45E.txt", section_page("E")))
    assert [c.address for c in edition.find("45").children] == ["45C", "45E"]  # type: ignore[union-attr]
    for address in ("45C", "45C1", "45C4(b)", "45E.p2"):
        assert edition.holds(address), address
    for address in ("45A", "45A.fn1", "45B", "45D", "45G", "6", "6A"):
        assert not edition.holds(address), address
    assert not edition.holds("45", heading=True)  # the article's heading: no page gives it
    assert not edition.holds("45C", heading=True)  # a 2017 section page does not print "C. ..."
    assert edition.holds("H6") and edition.holds("45C1", heading=True)


def test_a_1936_paragraph_page_holds_its_paragraph() -> None:
    page = (ROOT / "tests" / "fixtures" / "parse" / "wiki-1936-paragraph-page.txt").read_text(encoding="utf-8")
    assert page.startswith("Sjabloon:1936:47-2\n")  # its page name is not its address, 47.2
    edition = edition_of(("47-2.txt", page))
    assert edition.holds("47.2") and edition.holds("47.2(b).fn1")
    assert not edition.holds("47.1") and not edition.holds("47", heading=True)


def test_an_article_page_beside_a_section_page_holds_the_article_whole() -> None:
    seed = SEED_2007.read_text(encoding="utf-8").replace("Sjabloon:2007:45", "Sjabloon:2017:45", 1)
    edition = edition_of(("45.txt", seed), ("45C.txt", section_page("C")))
    assert all(edition.holds(c.address) for c in edition.walk())
    assert edition.holds("45", heading=True) and edition.holds("45C", heading=True)
    # An article page that prints no heading is the article whole too: only its title is unknown.
    untitled = edition_of(("45.txt", "Sjabloon:2017:45\n" + section_body("C")))
    assert untitled.holds("45A") and not untitled.holds("45", heading=True)


@pytest.fixture
def corpora(tmp_path: Path) -> tuple[Path, Path]:
    whole, parts = tmp_path / "whole" / "2007", tmp_path / "parts" / "2017"
    whole.mkdir(parents=True)
    parts.mkdir(parents=True)
    shutil.copy(SEED_2007, whole / SEED_2007.name)
    # Section C as the seed has it but for its subsection 3; section E whole.
    (parts / "wiki-Sjabloon-2017-45C.txt").write_text(section_page("C", drop="3. "), encoding="utf-8")
    (parts / "wiki-Sjabloon-2017-45E.txt").write_text(section_page("E"), encoding="utf-8")
    return whole.parent, parts.parent


def lawdiff(*args: str) -> str:
    result = CliRunner().invoke(main, [*args, "--no-cache"], catch_exceptions=False)
    assert result.exit_code in (0, 1), result.output
    return result.stdout


def test_what_the_section_pages_do_not_hold_is_not_compared_and_what_they_drop_is_removed(
    corpora: tuple[Path, Path],
) -> None:
    whole, parts = corpora
    data = json.loads(
        lawdiff("compare", "2007", "2017", "--corpus", str(whole), "--corpus", str(parts), "--format", "json")
    )
    changes = data["changes"]
    counted = {(ch["kind"], ch["aspect"], tuple(ch["old"])) for ch in changes if ch["counterpart_in_corpus"]}
    outside = {(ch["aspect"], tuple(ch["old"])) for ch in changes if not ch["counterpart_in_corpus"]}
    # The subsection the page left out is removed; nothing else is.
    assert {c for c in counted if c[0] == "removed"} == {("removed", "text", ("45C3",))}
    for address in ("45A", "45A.fn1", "45B", "45D", "45F", "45G"):
        assert ("text", (address,)) in outside, address
    for heading in ("45", "45C", "45E"):
        assert ("title", (heading,)) in outside, heading
    # The study's scope says why: the 2017 corpus holds article 45 by two sections' pages only.
    assert {ch["scope"] for ch in changes if not ch["counterpart_in_corpus"]} == {"held in part"}
    assert {ch["scope"] for ch in changes if ch["counterpart_in_corpus"]} == {"compared"}
    assert ("unchanged", "text", ("45C1",)) in counted and ("unchanged", "text", ("45E.p2",)) in counted
    # 45C1 cites 45E: the same target, and the 2017 corpus holds its place.
    (c1,) = (ch for ch in changes if ch["old"] == ["45C1"])
    assert c1["references"] == [{"status": "kept", "old": "45E", "new": "45E", "consistent": True}]
    # 45C4(b) cites 47D and 16D1, which neither corpus holds: the corpus cannot tell where they went.
    (c4b,) = (ch for ch in changes if ch["old"] == ["45C4(b)"])
    assert {r["consistent"] for r in c4b["references"]} == {None}


def test_the_terminal_names_the_clauses_and_headings_not_compared(corpora: tuple[Path, Path]) -> None:
    whole, parts = corpora
    out = lawdiff("compare", "2007", "2017", "--corpus", str(whole), "--corpus", str(parts))
    first, second = out.splitlines()[:2]
    assert "0 added, 1 removed" in first and "more in articles or sections one corpus lacks" in first
    assert second == (
        "not compared: 45A, 45A.fn1, 45B, 45D, 45F, 45G; the heading(s) of 45, 45C, 45E"
        " only in the 2007 corpus (the 2017 corpus does not hold them)"
    )
    assert "removed   45C3" in out and "removed   45A" not in out


def test_the_history_of_a_section_the_pages_lack_skips_the_edition(corpora: tuple[Path, Path]) -> None:
    whole, parts = corpora
    out = lawdiff("history", "2007:45B", "--corpus", str(whole), "--corpus", str(parts), "--format", "json")
    steps = {s["edition"]: s for s in json.loads(out)["steps"]}
    assert steps["2017"]["in_corpus"] is False and steps["2017"]["addresses"] == []
    out = lawdiff("history", "2007:45C3", "--corpus", str(whole), "--corpus", str(parts), "--format", "json")
    steps = {s["edition"]: s for s in json.loads(out)["steps"]}
    assert steps["2017"]["in_corpus"] is True and steps["2017"]["addresses"] == []  # removed there


def test_the_article_page_weighs_and_lists_only_what_both_corpora_hold(
    corpora: tuple[Path, Path], tmp_path: Path
) -> None:
    from lxml import html

    whole, parts = corpora
    lawdiff("report", "--corpus", str(whole), "--corpus", str(parts), "-o", str(tmp_path / "report"))
    page = html.parse(str(tmp_path / "report" / "articles" / "45.html")).getroot()
    glance = page.get_element_by_id("glance")
    lines = [" ".join(li.text_content().split()) for li in glance.iter("li")]
    assert len(lines) == 1 and lines[0].startswith("45C3 removed"), lines
    hints = [" ".join(p.text_content().split()) for p in glance.find_class("hint")]
    assert hints == [
        "9 clauses unchanged in place, not listed.",
        "9 only in one edition's corpus, not compared (see the table).",
    ]
    # Weighed on what both corpora hold (45C3 removed: 6 % of the words); the sections only 2007 holds made it 39 %.
    assert "small change" in glance.text_content()
    notes = [" ".join(n.text_content().split()) for n in page.find_class("note")]
    assert notes.count("the 2017 corpus does not hold this part of the article") == 6
    assert notes.count("the 2017 corpus does not hold this heading") == 3
    # The synopsis says the same of its lines: 45A is not compared in 2017, 45C3 is removed there.
    synopsis = page.get_element_by_id("synopsis")
    steps = [" ".join(d.text_content().split()) for d in synopsis.find_class("step")]
    assert steps.count("not compared") == 9 and steps.count("removed") == 1, steps
    gone = [" ".join(n.text_content().split()) for n in synopsis.find_class("none")]
    assert gone.count("not in the 2017 corpus") == 9 and gone.count("not in 2017") == 1, gone


def test_editions_says_which_articles_the_corpus_holds_in_part(corpora: tuple[Path, Path]) -> None:
    whole, parts = corpora
    out = lawdiff("editions", "--corpus", str(whole), "--corpus", str(parts))
    assert out.count("  in part") == 1
    assert "  articles   45  (1)\n  in part    45: the pages of 45C, 45E only\n" in out
    data = json.loads(lawdiff("editions", "--corpus", str(whole), "--corpus", str(parts), "--format", "json"))
    by_name = {e["name"]: e for e in data["editions"]}
    assert by_name["2007"]["articles_in_part"] == {}
    assert by_name["2017"]["articles_in_part"] == {"45": ["45C", "45E"]}
    assert [s["scope"] for s in by_name["2017"]["sources"]] == ["45C", "45E"]


@pytest.fixture
def three(corpora: tuple[Path, Path], tmp_path: Path) -> tuple[Path, Path, Path]:
    """2007 whole, 2017 as the pages of 45C and 45E, 2027 whole with a negation put into 45B."""
    whole, parts = corpora
    later = tmp_path / "later" / "2027"
    later.mkdir(parents=True)
    text = SEED_2007.read_text(encoding="utf-8").replace("Sjabloon:2007:45", "Sjabloon:2027:45", 1)
    assert "De leider speelt een kaart uit de blinde" in text
    text = text.replace("De leider speelt een kaart uit de blinde", "De leider speelt niet een kaart uit de blinde")
    (later / "wiki-Sjabloon-2027-45.txt").write_text(text, encoding="utf-8")
    return whole, parts, later.parent


def test_an_edition_holding_the_article_in_part_is_passed_over_between_whole_ones(
    three: tuple[Path, Path, Path], tmp_path: Path
) -> None:
    from lxml import html

    corpora = [arg for path in three for arg in ("--corpus", str(path))]
    lawdiff("report", *corpora, "-o", str(tmp_path / "report"))
    page = html.parse(str(tmp_path / "report" / "articles" / "45.html")).getroot()
    lead = " ".join(page.find_class("lead")[0].text_content().split())
    assert lead.startswith("In the corpus: 2007, 2027; passed over: 2017, whose corpus holds only some of its")
    glance = page.get_element_by_id("glance")
    assert [" ".join(h3.text_content().split()).split(" ▪")[0] for h3 in glance.iter("h3")] == ["2007 → 2027"]
    lines = [" ".join(li.text_content().split()) for li in glance.iter("li")]
    assert len(lines) == 1 and lines[0].startswith("45B modified"), lines  # the negation is seen
    index = html.parse(str(tmp_path / "report" / "index.html")).getroot()
    assert "2017 passed over: its corpus lacks these articles or holds them in part" in index.text_content()
    # The clause's own history follows it through the edition that holds it in part, and says so.
    out = lawdiff("history", "2007:45B", *corpora)
    assert "2017  (not in the 2017 corpus, which holds other parts of article 45)" in out
    assert "2027  45B  [modified]" in out
    assert "2017  45C1" in lawdiff("history", "2007:45C1", *corpora)


def test_an_amendment_of_an_article_held_in_part_holds_what_it_gives(corpora: tuple[Path, Path]) -> None:
    from test_versions import NEW_45G, payload, section

    whole, parts = corpora
    record = {
        "title": "Wijzigingen artikel 45 per 1 maart 2024",
        "path": "/wijzigingen-2024",
        "ingangsdatum": "2024-03-01",
        "betreft_artikelen": [45],
        "body": {
            "type": "minimark",
            "value": [
                ["h2", {}, "Artikel 45 — Gespeelde kaart"],
                *section("G", "Slag dichtleggen", ["p", {}, NEW_45G]),
            ],
        },
    }
    (parts / "2017" / "wijzigingen-2024.payload.json").write_text(payload(record), encoding="utf-8")
    data = json.loads(lawdiff("editions", "--corpus", str(whole), "--corpus", str(parts), "--format", "json"))
    by_name = {e["name"]: e for e in data["editions"]}
    assert by_name["2017+2024-03-01"]["articles_in_part"] == {"45": ["45", "45C", "45E", "45G"]}
    data = json.loads(
        lawdiff(
            "compare", "2007", "2017+2024-03-01", "--corpus", str(whole), "--corpus", str(parts), "--format", "json"
        )
    )
    counted = {(ch["kind"], ch["aspect"], tuple(ch["old"])) for ch in data["changes"] if ch["counterpart_in_corpus"]}
    assert {c for c in counted if c[0] == "removed"} == {("removed", "text", ("45C3",))}
    assert ("modified", "text", ("45G",)) in counted  # what the amendment gives is compared
    assert ("unchanged", "title", ("45",)) in counted  # and the article's heading it prints


def test_check_counts_a_reference_into_a_section_the_pages_lack_as_outside_the_corpus(tmp_path: Path) -> None:
    parts = tmp_path / "2017"
    parts.mkdir()
    page = section_page("C") + "6. Zie artikel 45A en artikel 45C1.\n"
    (parts / "wiki-Sjabloon-2017-45C.txt").write_text(page, encoding="utf-8")
    result = CliRunner().invoke(main, ["check", str(parts), "--no-cache"], catch_exceptions=False)
    assert "references into the articles present: all found" in result.output
    # 45C1 cites 45E, the new line 45A and 45C1: the first two lie outside the one page, the third in it.
    assert (
        "2017: 5 reference(s) to 5 target(s) in articles (or parts of them) not in the corpus: 50, 45A, 45E, 47D, 16D1"
        in result.output
    )
    # The page by page check (outlines) and the whole corpus read say the same.
    from lawdiff.corpus import dangling_references, load

    (edition,) = load([parts]).editions
    assert sorted((d.target, d.absent_article) for d in dangling_references(edition)) == [
        ("16D1", True),
        ("45A", True),
        ("45E", True),
        ("47D", True),
        ("50", True),
    ]


def test_an_export_without_the_pages_its_article_includes_does_not_hold_them(
    corpora: tuple[Path, Path], tmp_path: Path
) -> None:
    """Special:Export without "include templates": the article page includes its sections' pages, and the
    dump holds one of them (45C). The others' text is missing (check says so), and so is their place."""
    from xml.sax.saxutils import escape

    whole, _ = corpora
    article = "'''ARTIKEL 45 GESPEELDE KAART'''\n\n{{template:2017:45A|45A}}\n\n{{template:2017:45B|45B}}\n\n"
    article += "{{template:2017:45C|45C}}\n"
    c = "'''C. Verplicht spelen van een kaart'''\n\n" + "\n\n".join(section_body("C").splitlines()) + "\n"
    pages = "".join(
        f"  <page><title>Sjabloon:2017:{name}</title><ns>10</ns><revision>"
        f'<text xml:space="preserve">{escape(text)}</text></revision></page>\n'
        for name, text in (("45", article), ("45C", c))
    )
    dump = tmp_path / "export" / "2017" / "dump.xml"
    dump.parent.mkdir(parents=True)
    dump.write_text(
        f'<mediawiki xmlns="http://www.mediawiki.org/xml/export-0.11/" version="0.11">\n{pages}</mediawiki>\n',
        encoding="utf-8",
    )
    data = json.loads(
        lawdiff(
            "compare", "2007", "2017", "--corpus", str(whole), "--corpus", str(dump.parent.parent), "--format", "json"
        )
    )
    outside = {tuple(ch["old"]) for ch in data["changes"] if not ch["counterpart_in_corpus"]}
    removed = {tuple(ch["old"]) for ch in data["changes"] if ch["counterpart_in_corpus"] and ch["kind"] == "removed"}
    assert outside == {("45A",), ("45A.fn1",), ("45B",)}
    # What the article page does not include at all is removed: that is the 2017 article as the wiki shows it.
    assert {("45D",), ("45F",), ("45G",)} <= removed and not removed & outside
    (edition,) = (
        e for e in json.loads(lawdiff("editions", "--corpus", str(dump.parent.parent), "--format", "json"))["editions"]
    )
    assert [s["scope"] for s in edition["sources"]] == ["45"]


def test_an_article_one_corpus_lacks_is_scoped_not_held_in_json_and_html(tmp_path: Path) -> None:
    # Article 6 is only in the bundled 2017 corpus (its payload): not held by 2007's, in every rendering.
    data = json.loads(lawdiff("compare", "2007", "2017", "--format", "json"))
    six = [ch for ch in data["changes"] if ch["article"] == "6"]
    assert six and {ch["scope"] for ch in six} == {"not held"}
    page = tmp_path / "6.html"
    lawdiff("compare", "2007", "2017", "--article", "6", "--format", "html", "-o", str(page))
    assert "the 2007 corpus does not hold this article" in page.read_text(encoding="utf-8")
