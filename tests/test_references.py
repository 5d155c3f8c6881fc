"""Cross-references: read from the words of every format and from the links of the Nuxt body."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lawdiff.corpus import Corpus
from lawdiff.model import Reference, find_references, references_in
from lawdiff.model import references as module
from lawdiff.sources.base import Inline, InlineKind
from lawdiff.sources.build import link_spans


def targets(text: str) -> list[str]:
    return [t for t, _, _ in find_references(text)]


def printed(text: str) -> list[str]:
    return [text[s:e] for _, s, e in find_references(text)]


# ---------------------------------------------------------------------------
# From words


@pytest.mark.parametrize(
    ("text", "expected", "spans"),
    [
        ("(zie artikel 45E als de tegenspeler al een kaart heeft gespeeld)", ["45E"], ["45E"]),
        ("te behandelen volgens art. 50.", ["50"], ["50"]),
        ("1) Zie echter 53C.", ["53C"], ["53C"]),
        ("zie 53C voor het juiste voorspelen", ["53C"], ["53C"]),
        ("vervangen door een andere (zie artikel 47D en 16D1).", ["47D", "16D1"], ["47D", "16D1"]),
        ("verzaking inhouden (zie de artikelen 64A, 64B7 en 64C).", ["64A", "64B7", "64C"], ["64A", "64B7", "64C"]),
        ("en de blinde met de kaart verzaakte, zie artikel 64B3 en 64C.", ["64B3", "64C"], ["64B3", "64C"]),
        ("na het onregelmatig voorspelen, maar zie artikel 47E1.", ["47E1"], ["47E1"]),
        ("zoals toegestaan in art. 45 (d);", ["45(d)"], ["45 (d)"]),
        ("in welk geval artikel 53 of 56 van toepassing is.", ["53", "56"], ["53", "56"]),
        ("zijn de artikelen 70 en 71 van toepassing.", ["70", "71"], ["70", "71"]),
        ("(Artikel 16C2 is van toepassing voor een tegenspeler.)", ["16C2"], ["16C2"]),
        ("artikel 50D is van toepassing.", ["50D"], ["50D"]),
        ("de artikelen 53, 54 en 55", ["53", "54", "55"], ["53", "54", "55"]),
        ("zie artikel 45E1(b)", ["45E1(b)"], ["45E1(b)"]),
        # a bare lettered address needs no trigger word
        ("(zie ook 16D1 en 50D)", ["16D1", "50D"], ["16D1", "50D"]),
    ],
)
def test_references_read_from_words(text: str, expected: list[str], spans: list[str]) -> None:
    assert targets(text) == expected
    assert printed(text) == spans


@pytest.mark.parametrize(
    "text",
    [
        "gegeven in vier handen van 13 kaarten elk",
        "Per 1 maart 2024 gewijzigd.",
        "indien er 2 of meer kaarten van dezelfde waarde zijn",
        "Vertaling spelregels 2017 3e druk",
        "zie 2024",  # a year is not an article
        "de sub. a. en b. genoemde rechten",
        "een A4-formaat, pagina 58-65",
        "/spelen/juiste-gang-van-zaken/artikel-45",
    ],
)
def test_numbers_without_a_trigger_word_are_not_references(text: str) -> None:
    assert find_references(text) == []


@given(
    st.lists(
        st.sampled_from(
            ["artikel", "Artikelen", "art.", "Art", "zie", "Zie", "z", "a", "rt", "ie", "x", " ", "\n", "45"]
        ),
        max_size=10,
    ).map("".join)
)
def test_a_text_without_the_quick_test_s_words_holds_no_trigger(text: str) -> None:
    # find_references scans for trigger words only where the quick test finds what they hold.
    assert module._holds_trigger(text) or module._TRIGGER.search(text) is None


def test_a_trigger_word_reads_only_the_number_right_after_it() -> None:
    text = "De blinde verbeurt de rechten van art. 42 genoemd, 13 kaarten"
    start = text.index("42")
    assert find_references(text) == [("42", start, start + 2)]


def test_items_named_the_1963_way_are_references_to_the_items() -> None:
    # 1963 article 43: "de sub. a. en b. van art. 42 genoemde rechten" names
    # items a and b of article 42, not the whole article.
    text = "De blinde verbeurt de sub. a. en b. van art. 42 genoemde rechten, 13 kaarten"
    a, b = text.index("a. en"), text.index("b. van")
    assert find_references(text) == [("42(a)", a, a + 1), ("42(b)", b, b + 1)]
    assert targets("zie sub. c van artikel 46") == ["46(c)"]


def test_references_come_in_text_order() -> None:
    text = "zie 53C, dan artikel 45E en tenslotte art. 50"
    assert targets(text) == ["53C", "45E", "50"]
    starts = [s for _, s, _ in find_references(text)]
    assert starts == sorted(starts)


# ---------------------------------------------------------------------------
# From links (Nuxt bodies), merged with the words


def link(text: str, words: str, target: str) -> tuple[int, int, str]:
    start = text.index(words)
    return link_spans([Inline(InlineKind.LINK, start, start + len(words), target, words)])[0]


def test_a_link_whose_words_name_a_more_precise_target() -> None:
    # /algemene-bepalingen-onregelmatigheden/artikel-16#artikel-16-c with the text "16C1"
    text = "(zie artikel 47D en 16C1)."
    refs = references_in(text, [link(text, "artikel 47D", "47D"), link(text, "16C1", "16C")])
    assert refs == (
        Reference("47D", 13, 16, "47D", "link"),
        Reference("16C1", 20, 24, "16C1", "link+text"),
    )


def test_a_link_and_its_words_agree() -> None:
    text = "(zie artikel 45E als de tegenspeler al een kaart heeft gespeeld)"
    (ref,) = references_in(text, [link(text, "artikel 45E", "45E")])
    assert ref == Reference("45E", 13, 16, "45E", "link")
    assert text[ref.start : ref.end] == "45E"


def test_a_link_more_precise_than_its_words_keeps_the_link_target() -> None:
    text = "zie artikel 45E hierna"
    (ref,) = references_in(text, [link(text, "artikel 45E", "45E1")])
    assert ref == Reference("45E1", 12, 15, "45E", "link")


def test_a_link_without_an_address_in_its_words_spans_the_link_text() -> None:
    text = "zoals in de definities staat"
    (ref,) = references_in(text, [link(text, "definities", "definities")])
    assert ref == Reference("definities", 12, 22, "definities", "link")


def test_a_bare_number_linked_is_a_reference() -> None:
    # "artikel 53 of <a>56</a>": the 56 is read from the words and from the link.
    text = "in welk geval artikel 53 of 56 van toepassing is."
    refs = references_in(text, [link(text, "artikel 53", "53"), link(text, "56", "56")])
    assert [(r.target, r.printed, r.via) for r in refs] == [("53", "53", "link"), ("56", "56", "link")]


def test_a_link_to_article_4_does_not_claim_the_words_artikel_45() -> None:
    text = "zie artikel 45"
    refs = references_in(text, [link(text, "artikel 45", "4")])
    assert [(r.target, r.printed, r.via) for r in refs] == [("4", "artikel 45", "link"), ("45", "45", "text")]


def test_words_inside_a_link_that_name_another_clause_stay_references() -> None:
    # one link over two addresses: the one the link points at, and another
    text = "zie artikelen 64B3 en 64C."
    refs = references_in(text, [link(text, "artikelen 64B3 en 64C", "64B")])
    assert [(r.target, r.printed, r.via) for r in refs] == [("64B3", "64B3", "link+text"), ("64C", "64C", "text")]


def test_footnote_markers_are_not_links() -> None:
    text = "met de beeldzijde naar boven voor zich"
    marker = Inline(InlineKind.FOOTNOTE_REF, 28, 28, "1", "1")
    assert references_in(text, link_spans([marker])) == ()


def test_words_and_links_merge_in_text_order() -> None:
    text = "(zie de artikelen 64A, 64B7 en 64C). Als de blinde verzaakte, zie artikel 64B3 en 64C."
    links = [link(text, "64A", "64A"), link(text, "64B7", "64B"), link(text, "64C", "64C")]
    refs = references_in(text, links)
    assert [(r.target, r.via) for r in refs] == [
        ("64A", "link"),
        ("64B7", "link+text"),
        ("64C", "link"),
        ("64B3", "text"),
        ("64C", "text"),
    ]
    for r in refs:
        assert text[r.start : r.end] == r.printed


# ---------------------------------------------------------------------------
# In the corpus


def refs_of(corpus: Corpus, name: str) -> list[tuple[str, str, str]]:
    _, clause = corpus.clause(name)
    assert clause is not None
    for r in clause.references:
        assert clause.text[r.start : r.end] == r.printed
    return [(r.target, r.printed, r.via) for r in clause.references]


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("2017:45C4(b)", [("47D", "47D", "link"), ("16C1", "16C1", "link+text")]),
        ("2017:45C1", [("45E", "45E", "link")]),
        ("2017:45E1", [("50", "50", "link"), ("53", "53", "link"), ("56", "56", "link")]),
        (
            "2017:45D2",
            [
                ("64A", "64A", "link"),
                ("64B7", "64B7", "link+text"),
                ("64C", "64C", "link"),
                ("64B3", "64B3", "link+text"),
                ("64C", "64C", "link"),
            ],
        ),
        ("2007:45C4(b)", [("47D", "47D", "text"), ("16D1", "16D1", "text")]),
        ("2007:45E.p1", [("50", "50", "text"), ("53", "53", "text"), ("56", "56", "text")]),
        ("1997:53A", [("47E1", "47E1", "text")]),
        ("1997:53A.fn1", [("53C", "53C", "text")]),
        ("1997:53C", [("16C2", "16C2", "text")]),
        ("1963:47(b)", [("45(d)", "45 (d)", "text")]),
        ("1963:48", [("54", "54", "text"), ("70", "70", "text"), ("71", "71", "text")]),
        ("1963:44.fn2", [("66", "66", "text")]),
    ],
)
def test_corpus_references(corpus: Corpus, name: str, expected: list[tuple[str, str, str]]) -> None:
    assert refs_of(corpus, name) == expected


def test_every_corpus_reference_span_is_its_printed_text(corpus: Corpus) -> None:
    count = 0
    for e in corpus.editions:
        for c in e.walk():
            for r in c.references:
                assert c.text[r.start : r.end] == r.printed, (e.name, c.address, r)
                assert r.via in ("text", "link", "link+text")
                count += 1
    assert count > 50
