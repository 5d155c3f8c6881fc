"""Edition habits of the rendered-wiki-page reader: where each one stops.

The fixture cases of ``tests/fixtures/parse`` (``wiki-1936-*``,
``wiki-1987-*``, ``wiki-2007-fused-footnote-marker``) show each habit read;
the tests here pin its edges: the look-alike lines of other pages and
editions that must keep their old reading, and the pieces (page names,
normalization, taking markers out) the habits rest on.
"""

from __future__ import annotations

import re
import sys
import unicodedata
from xml.sax.saxutils import escape

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lawdiff.corpus import from_pages
from lawdiff.errors import InputError
from lawdiff.model import Clause, Edition
from lawdiff.sources import mediawiki, read_text
from lawdiff.sources.normalize import OTHER_SPACES, normalize_lines, take_out
from lawdiff.sources.wikiname import parse_title
from lawdiff.sources.wikitext import inlines, reader
from lawdiff.sources.wikitext.patterns import NOTE


def edition_of(text: str) -> Edition:
    corpus = from_pages(read_text(text, "page.txt"))
    (check,) = corpus.checks
    assert check.placed == check.tokens, check.unplaced
    (edition,) = corpus.editions
    return edition


def clause(edition: Edition, address: str) -> Clause:
    found = edition.find(address)
    assert found is not None, (address, [c.address for c in edition.walk()])
    return found


def addresses(edition: Edition) -> list[str]:
    return [c.address for c in edition.walk()]


# ---------------------------------------------------------------------------
# Page names


@pytest.mark.parametrize(
    ("title", "kind", "scope"),
    [
        ("Sjabloon:1936:28-3", "section", "28.3"),
        ("Template:1936:5-12", "section", "5.12"),
        ("Sjabloon:1987:42A", "section", "42A"),
        ("Sjabloon:1936:28", "article", "28"),
    ],
)
def test_a_1936_paragraph_page_name_is_the_paragraph_of_its_article(title: str, kind: str, scope: str) -> None:
    name = parse_title(title)
    assert name is not None
    assert (name.kind, name.scope) == (kind, scope)


def test_a_dash_in_another_page_name_is_front_matter() -> None:
    name = parse_title("Sjabloon:1936:Wet-en-regels")
    assert name is not None and name.kind == "front"


# ---------------------------------------------------------------------------
# 1936 article headings "1. DE KAARTEN."


def test_a_capitals_heading_on_another_articles_page_is_a_titled_subsection() -> None:
    edition = edition_of(
        "Sjabloon:1936:45\n\n45. GESPEELDE KAART.\n\nElke speler speelt een kaart.\n\n"
        "2. UITZONDERINGEN.\n\nEen gespeelde kaart mag slechts worden teruggenomen om te voldoen aan een straf.\n"
    )
    assert addresses(edition) == ["45", "45.2"]
    assert clause(edition, "45").title == "GESPEELDE KAART."
    sub = clause(edition, "45.2")
    assert (sub.kind.value, sub.title) == ("subsection", "UITZONDERINGEN.")


def test_a_capitals_heading_on_a_paragraph_page_is_no_article() -> None:
    edition = edition_of(
        "Sjabloon:1936:47-2\n\n2. TERUGNEMEN.\n\nEen gespeelde kaart mag slechts worden teruggenomen.\n"
    )
    assert addresses(edition) == ["47", "47.2"]
    assert clause(edition, "47.2").title == "TERUGNEMEN."


def test_a_numbered_line_in_ordinary_case_under_an_article_heading_is_its_paragraph() -> None:
    # "1. DE KAARTEN." heads article 1; "1. Het spel ..." is its paragraph 1.
    edition = edition_of(
        "Sjabloon:1936:1\n\n1. GESPEELDE KAART.\n\n1. Elke speler speelt een kaart door die uit zijn hand te nemen.\n"
    )
    assert addresses(edition) == ["1", "1.1"]


def test_an_abbreviation_in_capitals_with_a_lower_case_word_is_text() -> None:
    edition = edition_of("Sjabloon:2007:45\nARTIKEL 45 Gespeelde kaart\n1. NB de leider speelt een kaart.\n")
    assert clause(edition, "45.1").text == "NB de leider speelt een kaart."


# ---------------------------------------------------------------------------
# 1936 paragraph titles, 1987 / 1997 subsection titles


def test_a_short_sentence_before_a_numbered_line_is_text_from_1963_on() -> None:
    # Only the 1936 printing (and a paragraph page) puts a title before the number.
    edition = edition_of(
        "Sjabloon:1963:47\n\nArtikel 47. Terugnemen van een gespeelde kaart.\n\n"
        "Een gespeelde kaart mag worden teruggenomen.\n\n1. om te voldoen aan een straf;\n"
    )
    assert clause(edition, "47").text == "Een gespeelde kaart mag worden teruggenomen."
    assert clause(edition, "47.1").title == ""


def test_a_long_or_open_line_before_a_1936_numbered_line_is_text() -> None:
    edition = edition_of(
        "Sjabloon:1936:47\n\n47. TERUGNEMEN VAN EEN GESPEELDE KAART.\n\n"
        "Een gespeelde kaart mag slechts worden teruggenomen:\n\n1. om te voldoen aan een straf;\n\n"
        "Een gespeelde kaart mag niet worden teruggenomen. Behalve na een wijziging.\n\n2. na een wijziging;\n"
    )
    assert clause(edition, "47.1").title == ""
    assert clause(edition, "47.2").title == ""
    assert clause(edition, "47").text == "Een gespeelde kaart mag slechts worden teruggenomen:"


def test_a_1936_titled_paragraph_after_items_is_not_a_sub_item() -> None:
    edition = edition_of(
        "Sjabloon:1936:47\n\n47. TERUGNEMEN VAN EEN GESPEELDE KAART.\n\n"
        "Straf.\n\n1. Een gespeelde kaart mag worden teruggenomen:\n\na) om te voldoen aan een straf;\n\n"
        "b) om een onregelmatigheid te herstellen.\n\nWijziging.\n\n2. Na een wijziging van een aanduiding.\n"
    )
    assert addresses(edition) == ["47", "47.1", "47.1(a)", "47.1(b)", "47.2"]
    assert clause(edition, "47.2").title == "Wijziging."


def test_a_1987_subsection_line_followed_by_lower_case_is_text_continued() -> None:
    edition = edition_of(
        "Sjabloon:1987:45C\n"
        "2. De leider moet een kaart uit zijn hand spelen als ze\n"
        "de tafel raakt of nagenoeg raakt.\n"
    )
    sub = clause(edition, "45C2")
    assert sub.title == ""
    assert sub.text == "De leider moet een kaart uit zijn hand spelen als ze de tafel raakt of nagenoeg raakt."


def test_a_1987_subsection_with_text_on_its_own_line_is_closed_by_the_next_paragraph() -> None:
    # Only a title keeps the clause open to the lines after it.
    edition = edition_of(
        "Sjabloon:2007:45\nARTIKEL 45 Gespeelde kaart\nE. Vijfde kaart in een slag\n"
        "1. Een vijfde kaart wordt een strafkaart.\nHet spel gaat verder.\n"
    )
    assert clause(edition, "45E1").text == "Een vijfde kaart wordt een strafkaart."
    assert clause(edition, "45.p1").text == "Het spel gaat verder."


def test_a_dash_with_a_number_but_no_text_stays_a_bullet() -> None:
    edition = edition_of("Sjabloon:1987:43\nARTIKEL 43 Beperkingen\nA. Wat de blinde niet mag\n- 1.\n")
    assert clause(edition, "43A.p1").text == "1."


# ---------------------------------------------------------------------------
# Footnote markers: "*)", fused numbers


def test_a_star_without_its_note_is_text() -> None:
    edition = edition_of("Sjabloon:1936:44\n\n44. VOLGORDE.\n\nDe speler *) mag elke kaart uit zijn hand spelen.\n")
    assert clause(edition, "44").text == "De speler *) mag elke kaart uit zijn hand spelen."
    assert clause(edition, "44").footnotes == ()


def test_stars_keep_their_number_on_every_page_and_never_collide() -> None:
    text = (
        "44. VOLGORDE.\n\nDe speler mag elke kaart spelen *). Elk der overige spelers speelt bij **).\n\n"
        "*) tenzij hij onderworpen is aan beperkende bepalingen.\n\n**) zie art. 66.\n\n"
        "Bij het bijspelen moet elke speler zo mogelijk bekennen *).\n\n*) Deze verplichting gaat voor.\n"
    )
    article = clause(edition_of("Sjabloon:1936:44\n\n" + text), "44")
    chapter = clause(edition_of("Sjabloon:1936:HVI\n\n" + text), "44")
    numbers = [(f.address, f.marker) for f in article.footnotes]
    assert numbers == [("44.fn1", "*)"), ("44.fn2", "**)"), ("44.fn3", "*)")]
    assert [(f.address, f.marker) for f in chapter.footnotes] == numbers
    assert all(any("read as footnote" in n for n in f.notes) for f in article.footnotes)
    assert article.text.endswith("zo mogelijk bekennen.")


@pytest.mark.parametrize(
    "text",
    [
        "zie artikel 45C1 en 16D1.",  # addresses
        "zie artikel 12 en 1.",  # a number after a space
        "een kaart A1 of B1.",  # one capital letter and a number
        "het jaar 19361 of 2007.",  # digits after digits
        "zie art.1 hiervan.",  # a sign before the number
    ],
)
def test_a_number_fused_to_something_else_than_a_word_is_text(text: str) -> None:
    edition = edition_of(
        f"Sjabloon:2007:45\nARTIKEL 45 Gespeelde kaart\n{text}\n---\n1) De uitkomst geschiedt gedekt.\n"
    )
    article = clause(edition, "45")
    assert article.text == text
    assert [f.marker for f in article.footnotes] == [""]  # the note, with no marker in the text


# The marker patterns as written first: the reader's are shaped for speed (a
# search that skips to the digits), and must find exactly these.
_PLAIN_ASCII_MARK = r"(?<=\s)(?P<num>\d{1,2})\)(?=[\s.,;:]|$)"
_PLAIN_FUSED_MARK = r"(?<!\w)(?P<word>[^\W\d_]{2,})(?P<num>\d{1,2})(?=[\s.,;:]|$)"


@given(st.text(alphabet=" \t\u00a0.,;:)(_a\u00e9Z1\u0661\u00b2\u2028", max_size=30))
def test_the_marker_patterns_find_what_their_plain_forms_find(text: str) -> None:
    def spans(pattern: re.Pattern[str]) -> list[tuple[int, int, dict[str, str]]]:
        return [(m.start(), m.end(), m.groupdict()) for m in pattern.finditer(text)]

    assert spans(inlines._ASCII_MARK) == spans(re.compile(_PLAIN_ASCII_MARK))
    fused = spans(re.compile(_PLAIN_FUSED_MARK))
    assert fused == spans(inlines._FUSED_MARK)
    assert not fused or inlines._LETTER_DIGIT.search(text)  # the search before it never passes one over


def _every_marker(reader: inlines.Inlines, text: str) -> list[tuple[int, int, str]]:
    """The markers of ``text``, each pattern scanned over all of it (what the reader finds without its
    quick tests of what a line holds)."""
    found = [(m.start(), m.end(), m.group(0)) for m in inlines._SUP_MARK.finditer(text)]
    found += [
        (m.start(), m.end(), m.group(0))
        for m in inlines._ASCII_MARK.finditer(text)
        if m.group("num") in reader.ascii_numbers
    ]
    found += [
        (m.start("num"), m.end(), m.group("num"))
        for m in inlines._FUSED_MARK.finditer(text)
        if m.group("num") in reader.note_numbers and m.group("word")[-1].islower()
    ]
    found += [
        (m.start(), m.end(), m.group(0))
        for m in inlines._STAR_MARK.finditer(text)
        if m.group("stars") in reader.note_stars
    ]
    apart: list[tuple[int, int, str]] = []
    for mark in sorted(found):
        if not apart or mark[0] >= apart[-1][1]:
            apart.append(mark)
    return apart


@given(
    st.lists(
        st.sampled_from(
            ["ab", "A", "\u00e9", "1", "2", "12", ")", " ", ".", "*", "\u00b9", "\u00b2", "\u2074", "\u207e"]
        ),
        max_size=12,
    ).map("".join),
    st.sets(st.sampled_from(["1) a", "2) b", "12) c", "\u00b9\u207e d", "*) e", "**) f", "!) g"])),
)
def test_a_line_is_passed_over_only_where_no_pattern_finds_a_marker(text: str, notes: set[str]) -> None:
    reader = inlines.Inlines(["Sjabloon:2007:45", text, *sorted(notes)], None)
    assert [(m[0], m[1], m[3]) for m in reader._markers(text)] == _every_marker(reader, text)


def test_a_fused_number_is_a_marker_only_where_the_page_has_that_note() -> None:
    without = edition_of("Sjabloon:2007:45\nARTIKEL 45 Gespeelde kaart\nDe beeldzijde naar boven1 voor zich.\n")
    assert clause(without, "45").text == "De beeldzijde naar boven1 voor zich."
    with_note = edition_of(
        "Sjabloon:2007:45\nARTIKEL 45 Gespeelde kaart\nDe beeldzijde naar boven1 voor zich.\n"
        "1) De uitkomst geschiedt gedekt.\n"
    )
    article = clause(with_note, "45")
    assert article.text == "De beeldzijde naar boven voor zich."
    (note,) = article.footnotes
    assert (note.address, note.marker, note.anchor) == ("45.fn1", "1", len("De beeldzijde naar boven"))
    assert any("'boven'" in n for n in article.notes)


# ---------------------------------------------------------------------------
# The XML export reads the same habits from the page title


def test_a_paragraph_page_in_an_export_reads_as_its_rendered_page() -> None:
    body = (
        "Terugnemen van een gespeelde kaart.\n\n2. Een gespeelde kaart mag slechts worden teruggenomen:\n\n"
        "a) om te voldoen aan een straf;\n\nb) na een wijziging van een aanduiding.\n"
    )
    xml = (
        '<mediawiki xmlns="http://www.mediawiki.org/xml/export-0.10/" version="0.10"><page>'
        "<title>Sjabloon:1936:47-2</title><revision><timestamp>2020-01-01T00:00:00Z</timestamp>"
        f'<text xml:space="preserve">{escape(body)}</text></revision></page></mediawiki>\n'
    )
    exported = from_pages(mediawiki.read(xml, "dump.xml")).editions[0]
    rendered = edition_of("Sjabloon:1936:47-2\n\n" + body)
    assert addresses(exported) == addresses(rendered) == ["47", "47.2", "47.2(a)", "47.2(b)"]
    assert clause(exported, "47.2").title == clause(rendered, "47.2").title == "Terugnemen van een gespeelde kaart."


# ---------------------------------------------------------------------------
# Normalization and taking markers out


@pytest.mark.parametrize("space", ["\x1f", "\x1c", "\x85", "\u1680", "\u2028", "\u205f", "\t\u00a0"])
def test_every_white_space_but_lf_becomes_one_space(space: str) -> None:
    assert normalize_lines(f"A.{space * 5}Spelen{space}van {space} een kaart{space}\nx") == [
        "A. Spelen van een kaart",
        "x",
    ]


@given(st.text(alphabet=" \n\r\t\u00a0\u2028aé\u0301b.1", max_size=40))
def test_normalized_lines_follow_the_rules_on_any_text(raw: str) -> None:
    # Rules 1-3 as the module docstring states them, one line at a time: what
    # normalize_lines gives on a page of plain single spaces (its quick way)
    # and on any other text.
    text = unicodedata.normalize("NFC", raw.replace("\r\n", "\n").replace("\r", "\n"))
    assert normalize_lines(raw) == [re.sub(r"[^\S\n]+", " ", line).strip() for line in text.split("\n")]


def test_the_other_spaces_are_every_white_space_but_space_and_lf() -> None:
    every = [chr(c) for c in range(sys.maxunicode + 1) if chr(c).isspace() and chr(c) not in " \n"]
    assert list(OTHER_SPACES) == every


@given(
    st.sampled_from(["", " ", "x"]),
    st.sampled_from(["1", "12", "\u0661", "!", "*", "**", "\u00b9", "\u00b9\u2074", "x"]),
    st.sampled_from([")", "\u207e", ""]),
    st.sampled_from([" rest", ""]),
)
def test_a_line_read_as_a_note_starts_as_the_reader_first_looks(before: str, mark: str, end: str, rest: str) -> None:
    # The reader tries the note pattern only on a line starting with a digit, "!", "*" or a superscript.
    line = before + mark + end + rest
    assert NOTE.match(line) is None or line[0].isdecimal() or line[0] in reader._NOTE_HEADS


def test_a_page_of_single_spaces_loses_only_its_edge_spaces() -> None:
    assert normalize_lines(" A. Spelen van een kaart \n x\n") == ["A. Spelen van een kaart", "x", ""]


@pytest.mark.parametrize(
    ("text", "spans", "expected", "positions"),
    [
        ("boven 1) voor zich", [(6, 8)], "boven voor zich", [5]),  # the space before goes
        ("te voorkomen; ¹⁾", [(14, 16)], "te voorkomen;", [13]),  # at the end
        ("kaart 1), zie", [(6, 8)], "kaart, zie", [5]),  # before a sign
        ("1) De uitkomst", [(0, 2)], "De uitkomst", [0]),  # at the start: the space after goes
        ("boven¹ voor", [(5, 6)], "boven voor", [5]),  # fused: nothing to close
        ("w ¹⁾²⁾ x", [(2, 4), (4, 6)], "w x", [2, 1]),  # two in a row: one space goes
        ("a 1) b 2) c", [(2, 4), (7, 9)], "a b c", [1, 3]),
    ],
)
def test_taking_markers_out_closes_the_gap_they_leave(
    text: str, spans: list[tuple[int, int]], expected: str, positions: list[int]
) -> None:
    cut = take_out(text, spans)
    assert cut.text == expected
    assert list(cut.positions) == positions


def test_offsets_move_with_the_text_taken_out() -> None:
    text = "zie 1) artikel 45E en ²⁾ 16D1"
    cut = take_out(text, [(4, 6), (22, 24)])
    assert cut.text == "zie artikel 45E en 16D1"
    for word in ("artikel", "45E", "16D1"):
        start = text.index(word)
        moved = cut.moved(start)
        assert cut.text[moved : moved + len(word)] == word
        assert cut.moved(start + len(word)) == moved + len(word)
    assert cut.moved(5) == 3  # inside a marker: where it stood


# A page saved from the browser: the wiki's own lines around the text (fixture
# case wiki-2007-saved-from-browser) are furniture; where they end, text starts.


def test_the_wikis_words_inside_the_text_stay_text() -> None:
    edition = edition_of(
        "Sjabloon:2007:45\nARTIKEL 45 Gespeelde kaart\nUit Spelregels voor tafelarbiters\n"
        "Naar zoeken springen\nCategorie: Spelregels 2007\nA. Spelen van een kaart\n"
    )
    assert clause(edition, "45").text == (
        "Uit Spelregels voor tafelarbiters\nNaar zoeken springen\nCategorie: Spelregels 2007"
    )


def test_only_the_first_line_may_be_the_tagline() -> None:
    edition = edition_of("Sjabloon:2007:45\nNaar zoeken springen\nUit de blinde gespeeld\n")
    assert clause(edition, "45").text == "Uit de blinde gespeeld"


def test_a_saved_page_reads_as_the_same_page_saved_clean() -> None:
    clean = "Sjabloon:2007:45\nARTIKEL 45 Gespeelde kaart\nA. Spelen van een kaart\nElke speler speelt.\n"
    lines = clean.splitlines()
    saved = "\n".join(
        [
            lines[0],
            "Uit Spelregels voor tafelarbiters",
            "Revision as of 22:49, 10 August 2019 by Kees (talk | contribs)",
            "← Older revision | Latest revision (diff) | Newer revision → (diff)",
            "Jump to navigation",
            *lines[1:],
            'Retrieved from "https://keesboek.com/index.php?title=Sjabloon:2007:45&oldid=4003"',
            "Categories: Spelregels 2007",
            "This page was last edited on 10 August 2019, at 22:49.",
        ]
    )
    assert [(c.address, c.title, c.text) for c in edition_of(saved).walk()] == [
        (c.address, c.title, c.text) for c in edition_of(clean).walk()
    ]


@pytest.mark.parametrize(
    "title", ["Sjabloon:2007:45: verschil tussen versies", "Template:2007:45: Difference between revisions"]
)
def test_the_wikis_comparison_of_two_versions_is_refused(title: str) -> None:
    with pytest.raises(InputError, match="comparison of two versions") as caught:
        read_text(f"{title}\nRegel 3: Regel 3:\n", "diff.txt")
    assert caught.value.file == "diff.txt"


def test_a_table_of_contents_beside_the_article_pages_adds_no_clause() -> None:
    toc = (
        "Sjabloon:2007:Inhoudsopgave\nARTIKEL 45 Gespeelde kaart\nA. Spelen van een kaart\n"
        "ARTIKEL 46 Onvolledige benaming\n"
    )
    page = "Sjabloon:2007:45\nARTIKEL 45 Gespeelde kaart\nA. Spelen van een kaart\nElke speler speelt.\n"
    corpus = from_pages([*read_text(toc, "toc.txt"), *read_text(page, "45.txt")])
    (edition,) = corpus.editions
    assert addresses(edition) == ["45", "45A"]
    toc_check = next(c for c in corpus.checks if c.file == "toc.txt")
    assert toc_check.tokens == 0 and toc_check.furniture == 4


@pytest.mark.parametrize(
    ("title", "kind", "scope"),
    [
        ("Sjabloon:1963:Art. 41. Het begin van het spelen.", "article", "41"),
        ("Sjabloon:1975:Artikel 9", "article", "9"),
        ("Sjabloon:1963:HOOFDSTUK V HET BIEDEN", "container", ""),
        ("Sjabloon:1963:Artsen", "front", "artsen"),
        ("Sjabloon:1963:HOOFDSTUKKEN", "front", "hoofdstukken"),
    ],
)
def test_a_page_named_by_its_heading_is_that_article_or_chapter(title: str, kind: str, scope: str) -> None:
    name = parse_title(title)
    assert name is not None and (name.kind, name.scope) == (kind, scope)


def test_the_short_article_heading_needs_its_full_stop_or_a_title() -> None:
    edition = edition_of(
        "Sjabloon:1963:HVI JUISTE GANG VAN ZAKEN\nArt. 45 Gespeelde kaart\nElke speler speelt.\n"
        "Art. 46 is van toepassing als de leider een kaart noemt.\nArt. 47. Terugnemen van een gespeelde kaart.\n"
    )
    assert clause(edition, "45").title == "Gespeelde kaart"
    assert clause(edition, "45").text == "Elke speler speelt.\nArt. 46 is van toepassing als de leider een kaart noemt."
    assert clause(edition, "47").title == "Terugnemen van een gespeelde kaart."
    assert edition.find("46") is None
