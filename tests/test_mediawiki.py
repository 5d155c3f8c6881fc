"""The MediaWiki XML export reader (Special:Export).

Three ways: the hand-made exports of ``tests/fixtures/mediawiki`` (built from
the seeds by ``build.py``) must give the same clause trees as the seeds
themselves; small exports written here pin each piece of wikitext; bad input
is an InputError with file and line, exit code 2 on the command line.
"""

from __future__ import annotations

import importlib.util
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

import pytest
from click.testing import CliRunner

from lawdiff.cli import main
from lawdiff.corpus import Corpus, from_pages, load
from lawdiff.errors import InputError
from lawdiff.model import Clause, Edition
from lawdiff.sources import mediawiki, read_file
from lawdiff.sources.base import BlockKind, InlineKind, Loc, Page
from lawdiff.sources.wikitext import LinkSpan, read_lines

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "tests" / "fixtures" / "mediawiki"
CORPUS = ROOT / "corpus"


def _build_module() -> Any:
    spec = importlib.util.spec_from_file_location("mediawiki_fixture_build", FIXTURES / "build.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def export(*pages: tuple[str, str] | tuple[str, str, dict[str, str]], version: str = "0.10") -> str:
    """A small export: (title, wikitext[, extra page elements]) per page."""
    out = [f'<mediawiki xmlns="http://www.mediawiki.org/xml/export-{version}/" version="{version}">']
    for page in pages:
        title, text = page[0], page[1]
        extra = page[2] if len(page) > 2 else {}  # type: ignore[misc]
        out.append(f"<page><title>{escape(title)}</title>")
        if "redirect" in extra:
            out.append(f'<redirect title="{escape(extra["redirect"])}"/>')
        out.append(f'<revision><timestamp>2020-01-01T00:00:00Z</timestamp><text xml:space="preserve">{escape(text)}')
        out.append("</text></revision></page>")
    out.append("</mediawiki>")
    return "\n".join(out) + "\n"


def read(xml: str, file: str = "dump.xml") -> list[Page]:
    return mediawiki.read(xml, file)


def edition(pages: list[Page], name: str) -> Edition:
    return from_pages(pages).edition(name)


def shape(clauses: Iterator[Clause]) -> list[tuple[str, ...]]:
    """What must agree between two readings: addresses, kinds, labels, titles, texts, references."""
    out: list[tuple[str, ...]] = []
    for c in clauses:
        label = "" if c.kind.value == "footnote" else c.label
        refs = " ".join(r.target for r in c.references)
        out.append((c.address, c.kind.value, label, c.title, c.text, refs))
    return out


# ---------------------------------------------------------------------------
# The hand-made exports


def test_fixtures_are_what_build_py_makes() -> None:
    for name, xml in _build_module().build().items():
        assert (FIXTURES / name).read_text(encoding="utf-8") == xml, f"run python3 {FIXTURES / 'build.py'}"


@pytest.fixture(scope="module")
def xml_corpus() -> dict[str, Corpus]:
    return {year: load([FIXTURES / f"{year}.xml"]) for year in ("1963", "1997", "2007", "2017")}


@pytest.mark.parametrize("year", ["1963", "1997", "2007"])
def test_export_gives_the_same_tree_as_the_rendered_page(year: str, xml_corpus: dict[str, Corpus]) -> None:
    rendered = load([CORPUS / year]).edition(year)
    from_xml = xml_corpus[year].edition(year)
    assert shape(from_xml.walk()) == shape(rendered.walk())


@pytest.mark.parametrize("article", ["45", "6"])
def test_2017_section_pages_without_headings_give_the_payload_tree(article: str, xml_corpus: dict[str, Corpus]) -> None:
    payload = load([CORPUS / "2017"]).edition("2017").find(article)
    from_xml = xml_corpus["2017"].edition("2017").find(article)
    assert payload is not None and from_xml is not None
    assert shape(from_xml.walk()) == shape(payload.walk())


def test_2017_article_sits_in_its_chapter_and_part(xml_corpus: dict[str, Corpus]) -> None:
    ed = xml_corpus["2017"].edition("2017")
    assert [c.address for c in ed.clauses] == ["H6", "6"]
    chapter = ed.clauses[0]
    assert [c.address for c in chapter.children] == ["H6.1"]
    assert [c.address for c in chapter.children[0].children] == ["45"]


@pytest.mark.parametrize("year", ["1963", "1997", "2007", "2017"])
def test_exports_are_read_losslessly(year: str, xml_corpus: dict[str, Corpus]) -> None:
    for check in xml_corpus[year].checks:
        assert check.unplaced == (), check.page
        assert check.placed == check.tokens


@pytest.mark.parametrize("year", ["1963", "1997", "2007"])
def test_an_article_is_counted_once(year: str, xml_corpus: dict[str, Corpus]) -> None:
    # The container (or article) page includes the article and section
    # pages; they are read there and not again, so the export has exactly
    # as many words as the rendered page.
    rendered = sum(c.tokens for c in load([CORPUS / year]).checks)
    assert sum(c.tokens for c in xml_corpus[year].checks) == rendered


def test_one_page_per_page_a_reader_opens() -> None:
    names = {year: [p.name for p in read_file(FIXTURES / f"{year}.xml")] for year in ("1963", "1997", "2007", "2017")}
    assert names == {
        "1963": ["HVI JUISTE GANG VAN ZAKEN"],
        "1997": ["HVI3I"],
        "2007": ["45"],
        "2017": ["HVI", "HVI1", "6"],
    }
    (page,) = read_file(FIXTURES / "1997.xml")
    includes = dict(page.meta)["includes"].split(", ")
    assert includes[:4] == ["Sjabloon:1997:53", "Sjabloon:1997:53A", "Sjabloon:1997:53B", "Sjabloon:1997:53C"]


def test_the_latest_revision_counts_not_the_last_in_the_document() -> None:
    (page,) = read_file(FIXTURES / "2007.xml")
    assert ("includes", "") not in page.meta
    ed = edition([page], "2007")
    c5 = ed.find("45C5")
    assert c5 is not None and c5.text.startswith("Een grote of kleine strafkaart")


def test_without_timestamps_the_last_revision_counts() -> None:
    xml = (
        '<mediawiki xmlns="http://www.mediawiki.org/xml/export-0.3/"><page><title>Sjabloon:2007:45G</title>'
        "<revision><text>'''G. Slag dichtleggen'''&lt;br/&gt;\nOud.</text></revision>"
        "<revision><text>'''G. Slag dichtleggen'''&lt;br/&gt;\nNieuw.</text></revision></page></mediawiki>"
    )
    g = edition(read(xml), "2007").find("45G")
    assert g is not None and g.text == "Nieuw."


def test_pages_that_are_not_law_are_kept_as_furniture() -> None:
    pages = read_file(FIXTURES / "2017.xml")
    reasons = {f.text: f.reason for p in pages for f in p.furniture}
    assert reasons["Overleg sjabloon:2017:45"] == "talk page of a template (not law text)"
    assert reasons["Sjabloon:2017:Inhoudsopgave 2017"] == "table of contents (not law text)"
    assert reasons["Sjabloon:2017:Artikel 45"] == "redirect to Sjabloon:2017:45"
    assert reasons["Hoofdpagina"] == "page in namespace 0 (not law text)"
    assert reasons["[[Bestand:Speeltafel.png|thumb|De tafel]]"] == "image (not law text)"
    assert reasons["<!-- bron: Spelregels 2017, 3e druk -->"] == "wiki comment (not shown)"
    talk = {f.text for p in read_file(FIXTURES / "1963.xml") for f in p.furniture}
    assert {"Overleg sjabloon:1963:45", "Sjabloon:Inhoudsopgave 1963", "Sjabloon:1963:Artikel 45"} <= talk


def test_links_are_references_to_their_target(xml_corpus: dict[str, Corpus]) -> None:
    c1 = xml_corpus["2007"].edition("2007").find("45C1")
    assert c1 is not None
    assert [(r.target, r.printed, r.via) for r in c1.references] == [("45E", "45E", "link")]
    b = xml_corpus["2017"].edition("2017").find("45C4(b)")
    assert b is not None
    assert [(r.target, r.via) for r in b.references] == [("47D", "link"), ("16C1", "link+text")]


def test_sources_name_the_wiki_page_and_line() -> None:
    ed = load([FIXTURES / "1997.xml"]).edition("1997")
    a = ed.find("53A")
    assert a is not None
    assert a.source.path == "Sjabloon:1997:53A"
    lines = (FIXTURES / "1997.xml").read_text(encoding="utf-8").split("\n")
    assert lines[a.source.line - 1].endswith("'''A. Voor de beurt voorspelen behandeld als juist voorgespeeld'''")


# ---------------------------------------------------------------------------
# Schema versions and titles


@pytest.mark.parametrize("version", ["0.3", "0.4", "0.5", "0.6", "0.8", "0.10", "0.11"])
def test_any_schema_version(version: str) -> None:
    xml = export(("Sjabloon:2007:45G", "'''G. Slag dichtleggen'''</br>\nEen speler legt niet dicht."), version=version)
    g = edition(read(xml), "2007").find("45G")
    assert g is not None and (g.title, g.text) == ("Slag dichtleggen", "Een speler legt niet dicht.")


def test_elements_without_namespace_and_with_a_prefix() -> None:
    text = "'''G. Slag dichtleggen'''<br>\nTekst."
    page = f"<page><title>Sjabloon:2007:45G</title><revision><text>{escape(text)}</text></revision></page>"
    plain = f"<mediawiki>{page}</mediawiki>"
    prefixed = plain.replace("<mediawiki>", '<mw:mediawiki xmlns:mw="urn:x">').replace(
        "</mediawiki>", "</mw:mediawiki>"
    )
    for tag in ("page", "title", "revision", "text"):
        prefixed = prefixed.replace(f"<{tag}>", f"<mw:{tag}>").replace(f"</{tag}>", f"</mw:{tag}>")
    for xml in (plain, prefixed):
        assert mediawiki.looks_like(xml)
        g = edition(read(xml), "2007").find("45G")
        assert g is not None and g.text == "Tekst."


def test_titles_first_letter_case_and_underscores() -> None:
    xml = export(
        ("Sjabloon:2007:45", "'''ARTIKEL 45 Gespeelde kaart'''\n\n{{template:2007_45G}}\n\n{{sjabloon:2007:45F}}"),
        ("Template:2007:45G", "'''G. Slag dichtleggen'''<br>\nG-tekst."),
        ("Sjabloon:2007:45F", "'''F. De blinde duidt een kaart aan'''<br>\nF-tekst."),
    )
    # "2007_45G" is another title than "2007:45G": missing, and reported;
    # the page Template:2007:45G, included by nobody, is read on its own.
    pages = read(xml)
    assert [p.name for p in pages] == ["45", "45G"]
    ed = edition(pages, "2007")
    f, g = ed.find("45F"), ed.find("45G")
    assert f is not None and f.text == "F-tekst."
    assert g is not None and g.text == "G-tekst."
    notes = [n for b in pages[0].blocks for n in b.notes]
    assert notes == ["transclusion of Sjabloon:2007 45G: the dump has no such page, its text is missing here"]


# ---------------------------------------------------------------------------
# Wikitext


def blocks(text: str, title: str = "Sjabloon:2007:45") -> list[tuple[str, str, str, str]]:
    (page,) = read(export((title, text)))
    return [(b.kind.value, b.label, b.title, b.text) for b in page.blocks]


def test_bold_headings_line_breaks_and_paragraph_joins() -> None:
    text = (
        "'''ARTIKEL 45 Gespeelde kaart'''<br />\n'''A. Spelen van een kaart'''</br>\n"
        "Elke speler speelt\neen kaart.\n\nTweede ''alinea''."
    )
    assert blocks(text) == [
        ("article", "ARTIKEL 45", "Gespeelde kaart", ""),
        ("labeled", "A.", "Spelen van een kaart", ""),
        ("paragraph", "", "", "Elke speler speelt een kaart."),
        ("paragraph", "", "", "Tweede alinea."),
    ]


def test_indented_bulleted_and_numbered_items() -> None:
    text = "'''C. Titel'''<br>\n# Eerste.\n#: (a) een;\n#: (b) twee.\n# Tweede.\n* Los punt.\n:: a. diep ingesprongen."
    assert blocks(text) == [
        ("labeled", "C.", "Titel", ""),
        ("labeled", "1.", "", "Eerste."),
        ("labeled", "(a)", "", "een;"),
        ("labeled", "(b)", "", "twee."),
        ("labeled", "2.", "", "Tweede."),
        ("list_item", "-", "", "Los punt."),
        ("labeled", "a.", "", "diep ingesprongen."),
    ]


def test_ref_notes_become_footnotes() -> None:
    text = "'''A. Titel'''<br>\nEen kaart<ref name=\"u\">Zie de noot.</ref> en nog<ref name=\"u\"/> een.\n<references/>"
    (page,) = read(export(("Sjabloon:2017:45A", text)))
    ed = edition([page], "2017")
    a = ed.find("45A")
    assert a is not None and a.text == "Een kaart en nog een."
    assert [(f.address, f.marker, f.text) for f in a.footnotes] == [("45A.fn1", "¹⁾", "Zie de noot.")]


def test_a_table_is_read_one_cell_per_line_and_reported() -> None:
    text = "'''A. Tabel'''<br>\n{| class=\"wikitable\"\n|-\n! Kop 1 !! Kop 2\n|-\n| style=\"x\" | cel 1 || cel 2\n|}"
    (page,) = read(export(("Sjabloon:2017:77A", text)))
    assert [b.text for b in page.blocks[1:]] == ["Kop 1", "Kop 2", "cel 1", "cel 2"]
    assert page.blocks[1].notes == ("a table: read one cell per line",)
    assert {f.reason for f in page.furniture} >= {"table markup (the table is read one cell per line)", "table markup"}


def test_images_are_reported_and_their_captions_not_read() -> None:
    (page,) = read(export(("Sjabloon:2017:45A", "[[Bestand:Kaart.png|thumb|Een kaart]]\nTekst van A.")))
    assert [(b.text, b.notes) for b in page.blocks] == [
        ("Tekst van A.", ("image Bestand:Kaart.png not read (not law text)",))
    ]


def test_includeonly_noinclude_onlyinclude_and_parameters() -> None:
    xml = export(
        (
            "Sjabloon:2017:45",
            "'''ARTIKEL 45 Titel'''<br>\n{{Sjabloon:2017:45A|eerste|naam=Tekst}}\n\n{{Sjabloon:2017:45B}}",
        ),
        (
            "Sjabloon:2017:45A",
            "<includeonly>'''A. {{{1}}}'''<br>\n{{{naam}}} van A.</includeonly><noinclude>Uitleg.</noinclude>",
        ),
        ("Sjabloon:2017:45B", "Weg.<onlyinclude>'''B. Tweede'''<br>\nTekst van B.</onlyinclude>Ook weg."),
    )
    (page,) = read(xml)
    ed = edition([page], "2017")
    a, b = ed.find("45A"), ed.find("45B")
    assert a is not None and (a.title, a.text) == ("eerste", "Tekst van A.")
    assert b is not None and (b.title, b.text) == ("Tweede", "Tekst van B.")


def test_an_included_list_starts_on_a_line_of_its_own() -> None:
    xml = export(
        (
            "Sjabloon:2017:45",
            "'''ARTIKEL 45 Titel'''<br>\n'''[[template:2017:45E|E. Vijfde kaart]]'''{{template:2017:45E|45E}}",
        ),
        ("Sjabloon:2017:45E", "# Een.\n# Twee."),
    )
    e = edition(read(xml), "2017").find("45E")
    assert e is not None and e.title == "Vijfde kaart"
    assert [c.address for c in e.children] == ["45E1", "45E2"]


def test_redirects_are_followed_by_transclusions_and_links() -> None:
    xml = export(
        ("Sjabloon:2017:45", "'''ARTIKEL 45 Titel'''<br>\n{{Sjabloon:2017:Oud}}"),
        ("Sjabloon:2017:Oud", "#REDIRECT [[Sjabloon:2017:45A]]", {"redirect": "Sjabloon:2017:45A"}),
        ("Sjabloon:2017:45A", "'''A. Titel'''<br>\nZie [[Sjabloon:2017:Nieuw|artikel 45E]]."),
        ("Sjabloon:2017:Nieuw", "#DOORVERWIJZING [[Sjabloon:2017:45E]]"),
    )
    a = edition(read(xml), "2017").find("45A")
    assert a is not None and a.text == "Zie artikel 45E."
    assert [(r.target, r.via) for r in a.references] == [("45E", "link")]


def test_parser_functions_are_not_expanded_but_other_templates_are() -> None:
    # A helper template is shown by the wiki where it is transcluded, so its
    # text is read there: law text in a helper (a note) is never dropped.
    xml = export(
        ("Sjabloon:2017:45A", "'''A. Titel'''<br>\nTekst{{PAGENAME}}.{{Voetnoot}}"),
        ("Sjabloon:Voetnoot", " Belangrijke tekst."),
    )
    (page,) = read(xml)
    assert [b.text for b in page.blocks] == ["", "Tekst. Belangrijke tekst."]
    reasons = {f.text: f.reason for f in page.furniture}
    assert reasons["{{PAGENAME}}"] == "parser function or magic word (not expanded)"
    assert reasons["Sjabloon:Voetnoot"] == "template that is not a law page (no Sjabloon:<edition>:<name> title)"


def test_a_missing_template_is_reported_as_lost_text(tmp_path: Path) -> None:
    xml = export(("Sjabloon:2017:45", "'''ARTIKEL 45 Titel'''<br>\n{{template:2017:45C|45C}}"))
    path = tmp_path / "dump.xml"
    path.write_text(xml, encoding="utf-8")
    result = CliRunner().invoke(main, ["check", str(path)])
    assert result.exit_code == 1
    assert f"unplaced at {path}:4: {{ {{ template : 2017 : 45C | 45C }} }}" in result.output
    (page,) = read(xml)
    assert page.blocks[-1].notes == (
        "transclusion of Sjabloon:2017:45C: the dump has no such page, its text is missing here",
    )


def test_links_shift_with_footnote_markers_in_the_line_reader() -> None:
    line = "Zie artikel 45E ¹⁾ en artikel 47."
    locs = [Loc("f", 1), Loc("f", 2)]
    links = {1: [LinkSpan(4, 15, "45E"), LinkSpan(22, 32, "47")]}
    found, _, _ = read_lines(["Sjabloon:2017:45A", line], "f", locs, links)
    (paragraph,) = found
    assert paragraph.kind is BlockKind.PARAGRAPH and paragraph.text == "Zie artikel 45E en artikel 47."
    spans = [(x.kind, x.value, paragraph.text[x.start : x.end]) for x in paragraph.inlines]
    assert spans == [
        (InlineKind.LINK, "45E", "artikel 45E"),
        (InlineKind.FOOTNOTE_REF, "1", ""),
        (InlineKind.LINK, "47", "artikel 47"),
    ]


# ---------------------------------------------------------------------------
# Bad input


def test_read_file_streams_an_export(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "dump.xml"
    path.write_text(export(("Sjabloon:2007:45G", "'''G. Titel'''<br>\nTekst.")), encoding="utf-8")

    def whole(*_args: object) -> list[Page]:
        raise AssertionError("the export was read whole")

    monkeypatch.setattr(mediawiki, "read", whole)
    monkeypatch.setattr(Path, "read_bytes", whole)
    (page,) = read_file(path, "dump.xml")
    assert page.format == "mediawiki-xml"


BAD = {
    "malformed": (
        '<mediawiki xmlns="http://www.mediawiki.org/xml/export-0.10/">\n<page>\n<title>Sjabloon:2007:45</title>\n'
        "<revision><text>tekst</revison>\n</page>\n</mediawiki>\n",
        "dump.xml:4:",
        "malformed XML",
    ),
    "no-text": (
        '<mediawiki xmlns="http://www.mediawiki.org/xml/export-0.10/">\n<page>\n<title>Sjabloon:2007:45</title>\n'
        "<revision>\n<timestamp>2020-01-01T00:00:00Z</timestamp>\n</revision>\n</page>\n</mediawiki>\n",
        "dump.xml:4:",
        "the law page Sjabloon:2007:45 has a revision without text",
    ),
    "deleted-text": (
        '<mediawiki xmlns="http://www.mediawiki.org/xml/export-0.10/">\n<page>\n<title>Sjabloon:2007:45</title>\n'
        '<revision>\n<text deleted="deleted"/>\n</revision>\n</page>\n</mediawiki>\n',
        "dump.xml:4:",
        "has a revision whose text is deleted",
    ),
    "cycle": (
        export(
            ("Sjabloon:2007:45", "'''ARTIKEL 45 Titel'''\n\n{{Sjabloon:2007:45A}}"),
            ("Sjabloon:2007:45A", "'''A. Titel'''<br>\nTekst.\n{{Sjabloon:2007:45}}"),
        ),
        "dump.xml:10:",
        "transclusion cycle: Sjabloon:2007:45 -> Sjabloon:2007:45A -> Sjabloon:2007:45",
    ),
    "no-law": (export(("Hoofdpagina", "Welkom.")), "dump.xml:", "the export holds no law page"),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_bad_input_is_an_input_error_with_file_and_line(case: str) -> None:
    xml, where, what = BAD[case]
    with pytest.raises(InputError) as info:
        read(xml)
    message = info.value.message()
    assert message.startswith(where) and what in message
    assert info.value.fix


@pytest.mark.parametrize("case", sorted(BAD))
def test_bad_input_on_the_command_line_is_one_line_and_exit_2(case: str, tmp_path: Path) -> None:
    xml, where, what = BAD[case]
    path = tmp_path / "dump.xml"
    path.write_text(xml, encoding="utf-8")
    result = CliRunner().invoke(main, ["check", str(path)])
    assert result.exit_code == 2
    assert result.stdout == ""
    (line,) = result.stderr.splitlines()
    assert line.startswith(f"lawdiff: error: {path}:{where.split(':', 1)[1]}") and what in line


def test_an_old_broken_revision_is_not_read() -> None:
    # The 2007 fixture's 45C has a revision of 2010 that includes itself:
    # reading it would be a cycle, but the revision of 2012 counts.
    pages = read_file(FIXTURES / "2007.xml")
    assert dict(pages[0].meta)["includes"].count("Sjabloon:2007:45C") == 1


def test_categories_comments_and_behaviour_switches_are_furniture() -> None:
    text = "__NOTOC__<!-- nagekeken -->'''A. Titel'''<br>\nTekst.[[Categorie:Spelregels]]"
    text += " [[:Categorie:Spelregels|de lijst]]"
    (page,) = read(export(("Sjabloon:2017:45A", text)))
    assert [b.text for b in page.blocks] == ["", "Tekst. de lijst"]
    reasons = {f.text: f.reason for f in page.furniture}
    assert reasons["[[Categorie:Spelregels]]"] == "category"
    assert reasons["<!-- nagekeken -->"] == "wiki comment (not shown)"
    assert reasons["__NOTOC__"] == "behaviour switch (not shown)"


def test_parameter_defaults_and_numbering_restarts() -> None:
    xml = export(
        ("Sjabloon:2017:45", "'''ARTIKEL 45 Titel'''<br>\n{{Sjabloon:2017:45A}}"),
        ("Sjabloon:2017:45A", "'''A. {{{titel|Standaard}}}'''<br>\n# Een.\n# Twee.\n\n# Weer een."),
    )
    a = edition(read(xml), "2017").find("45A")
    assert a is not None and a.title == "Standaard"
    # A blank line ends the list: the next "#" item is 1. again (the wiki does so too).
    assert [(c.address, c.text) for c in a.children] == [("45A1", "Een."), ("45A2", "Twee."), ("45A1~2", "Weer een.")]


def test_a_redirect_loop_is_an_input_error() -> None:
    xml = export(
        ("Sjabloon:2017:45", "'''ARTIKEL 45 Titel'''<br>\n{{Sjabloon:2017:X}}"),
        ("Sjabloon:2017:X", "#REDIRECT [[Sjabloon:2017:Y]]"),
        ("Sjabloon:2017:Y", "#REDIRECT [[Sjabloon:2017:X]]"),
    )
    with pytest.raises(InputError, match="redirect loop: Sjabloon:2017:X -> Sjabloon:2017:Y -> Sjabloon:2017:X"):
        read(xml)


def test_another_root_element_is_an_input_error() -> None:
    assert not mediawiki.looks_like("<html><body/></html>")
    with pytest.raises(InputError, match="the root element is <html>, not <mediawiki>"):
        read("<html><body><page/></body></html>")


def test_hostile_wikitext_is_read_in_bounded_time() -> None:
    lines = [
        "{{" * 20_000 + "[[" * 20_000,
        "x<ref>" * 20_000 + "</ref>",
        "[http://x " * 20_000,
        "[[a|" * 20_000 + "]]",
        "{{{" * 20_000,
        "<!--" * 20_000,
    ]
    for line in lines:
        start = time.process_time()
        (page,) = read(export(("Sjabloon:2017:45A", "'''A. Titel'''<br>\n" + line)))
        assert time.process_time() - start < 3, line[:20]
        assert page.blocks
