"""Clause addresses: the contract of every command (README "Clause addresses").

The rules on the issue's examples, then the addresses the bundled corpus must
yield.
"""

from __future__ import annotations

import pytest

from lawdiff.corpus import Corpus
from lawdiff.model import (
    Kind,
    address_parts,
    article_and_parent,
    article_of,
    natural_key,
    normalize_address,
    parent_address,
)
from lawdiff.sources.base import LabelStyle
from lawdiff.sources.build import child_address

# ---------------------------------------------------------------------------
# child_address: the labels from the article down, concatenated


@pytest.mark.parametrize(
    ("parent", "style", "key", "rooted", "expected"),
    [
        ("", LabelStyle.NUMBER, "45", True, "45"),
        ("45", LabelStyle.UPPER, "C", True, "45C"),
        ("45C", LabelStyle.NUMBER, "4", True, "45C4"),
        ("45C4", LabelStyle.PAREN, "b", True, "45C4(b)"),
        # 1963: item "d." directly under article 45
        ("45", LabelStyle.LOWER, "d", True, "45(d)"),
        ("46(c)", LabelStyle.NUMBER, "1", True, "46(c)1"),
        # two numeric labels would touch: a dot separates them
        ("45", LabelStyle.NUMBER, "1", True, "45.1"),
        ("45C10", LabelStyle.NUMBER, "2", True, "45C10.2"),
        # outside the articles every level is joined with a dot
        ("definities", LabelStyle.UPPER, "A", False, "definities.A"),
        ("H6.3.I", LabelStyle.UPPER, "A", False, "H6.3.I.A"),
    ],
)
def test_child_address(parent: str, style: LabelStyle, key: str, rooted: bool, expected: str) -> None:
    assert child_address(parent, style, key, rooted) == expected


# ---------------------------------------------------------------------------
# normalize_address: how a user may spell an address


@pytest.mark.parametrize(
    ("spelled", "expected"),
    [
        ("45C4(b)", "45C4(b)"),
        ("45 (d)", "45(d)"),
        (" 45C4 (b) ", "45C4(b)"),
        ("45c", "45C"),
        ("45c4(b)", "45C4(b)"),
        ("45e.p2", "45E.p2"),
        ("45a.fn1", "45A.fn1"),
        ("45.1", "45.1"),
        ("H6.3.I", "H6.3.I"),
        ("h6.3.I", "H6.3.I"),
        ("voorwoord", "voorwoord"),
        ("definities.p1", "definities.p1"),
    ],
)
def test_normalize_address(spelled: str, expected: str) -> None:
    assert normalize_address(spelled) == expected


# ---------------------------------------------------------------------------
# article_of, parent_address, address_parts


@pytest.mark.parametrize(
    ("address", "article", "parent", "parts"),
    [
        ("45", "45", "", ["45"]),
        ("45C", "45", "45", ["45", "C"]),
        ("45C4", "45", "45C", ["45", "C", "4"]),
        ("45C4(b)", "45", "45C4", ["45", "C", "4", "(b)"]),
        ("45(d)", "45", "45", ["45", "(d)"]),
        ("46(c)1", "46", "46(c)", ["46", "(c)", "1"]),
        ("45E.p2", "45", "45E", ["45", "E", ".p2"]),
        ("45.p1", "45", "45", ["45", ".p1"]),
        ("45A.fn1", "45", "45A", ["45", "A", ".fn1"]),
        ("48.fn1", "48", "48", ["48", ".fn1"]),
        ("45.1", "45", "45", ["45", ".1"]),
        ("H6", "", "", ["H6"]),
        ("H6.1", "", "H6", ["H6", "1"]),
        ("H6.juiste-gang-van-zaken", "", "H6", ["H6", "juiste-gang-van-zaken"]),
        ("H6.3.I", "", "H6.3", ["H6", "3", "I"]),
        ("voorwoord", "", "", ["voorwoord"]),
        ("definities.p1", "", "definities", ["definities", "p1"]),
        ("wijzigingen-2024", "", "", ["wijzigingen-2024"]),
    ],
)
def test_article_parent_and_parts(address: str, article: str, parent: str, parts: list[str]) -> None:
    assert article_of(address) == article
    assert parent_address(address) == parent
    assert address_parts(address) == parts
    assert article_and_parent(address) == (article, parent)


@pytest.mark.parametrize("address", ["", ".", "a.b.", "45..", "45~2", "x45", "45C4 x", "45(", "ABC", "12a"])
def test_article_and_parent_of_odd_addresses(address: str) -> None:
    """The one reading of an address gives what the two functions give, whatever the address."""
    assert article_and_parent(address) == (article_of(address), parent_address(address))


def test_article_and_parent_of_every_address(corpus: Corpus) -> None:
    for e in corpus.editions:
        for c in e.walk():
            assert article_and_parent(c.address) == (article_of(c.address), parent_address(c.address)), c.address


# ---------------------------------------------------------------------------
# natural_key: document order from addresses alone


@pytest.mark.parametrize(
    "ordered",
    [
        ["45", "45A", "45B", "45C"],
        ["45C1", "45C2", "45C9", "45C10"],
        ["45C4", "45C4(a)", "45C4(b)"],
        ["45E", "45E.p1", "45E.p2", "45E.p10"],
        # labeled children, then unlabeled ones, then the footnotes
        ["45A1", "45A.p1", "45A.fn1", "45A.fn2"],
        ["45", "45.1", "45.2", "45.p1"],
        ["9", "10", "45", "100"],
        ["H6", "H6.1", "H6.2", "H6.3", "H6.3.I", "H6.3.II", "H6.3.IV", "H6.3.V", "H6.3.IX"],
        ["H9", "H10", "H11"],
        ["definities", "definities.p1", "definities.p2", "definities.p10"],
    ],
)
def test_natural_key_orders_addresses(ordered: list[str]) -> None:
    assert sorted(reversed(ordered), key=natural_key) == ordered


def test_natural_key_is_a_total_order_over_mixed_addresses() -> None:
    mixed = ["voorwoord", "H6.3.I", "45C4(b)", "45E.p2", "45.p1", "45A.fn1", "45.1", "H6", "definities.p1", "page-2"]
    first = sorted(mixed, key=natural_key)
    assert sorted(reversed(mixed), key=natural_key) == first


# ---------------------------------------------------------------------------
# The bundled corpus yields exactly the addresses the issue names


@pytest.mark.parametrize(
    ("name", "kind", "label"),
    [
        ("2017:45C4(b)", Kind.ITEM, "(b)"),
        ("2017:45C4", Kind.SUBSECTION, "4."),
        ("2017:45C", Kind.SECTION, "C."),
        ("2017:45", Kind.ARTICLE, "Artikel 45"),
        ("2017:45A.fn1", Kind.FOOTNOTE, "1."),
        ("2017:H6", Kind.CHAPTER, "6"),
        ("2017:H6.1", Kind.PART, "1"),
        ("2007:45E.p1", Kind.PARAGRAPH, "-"),
        ("2007:45E.p2", Kind.PARAGRAPH, "-"),
        ("2007:45A.fn1", Kind.FOOTNOTE, "1)"),
        ("2007:45C4(b)", Kind.ITEM, "(b)"),
        ("1997:H6.3.I", Kind.PARAGRAAF, "PARAGRAAF I"),
        ("1997:54B1", Kind.SUBSECTION, "1."),
        ("1997:53A.fn1", Kind.FOOTNOTE, "1)"),
        ("1963:H6.juiste-gang-van-zaken", Kind.PART, ""),
        ("1963:45(d)", Kind.ITEM, "d."),
        ("1963:45.p1", Kind.PARAGRAPH, ""),
        ("1963:46(c)1", Kind.SUBITEM, "1."),
        ("1963:48.fn1", Kind.FOOTNOTE, "!)"),
    ],
)
def test_the_corpus_has_the_named_clause(corpus: Corpus, name: str, kind: Kind, label: str) -> None:
    edition, clause = corpus.clause(name)
    assert clause is not None
    assert f"{edition.name}:{clause.address}" == name
    assert (clause.kind, clause.label) == (kind, label)


def test_2007_45E_has_two_unnumbered_items(corpus: Corpus) -> None:
    e = corpus.edition("2007")
    section = e.find("45E")
    assert section is not None
    assert [c.address for c in section.children] == ["45E.p1", "45E.p2"]
    assert section.children[1].text.startswith("Als de leider een vijfde kaart in een slag")


def test_1963_45_items_then_the_paragraph_after_them(corpus: Corpus) -> None:
    article = corpus.edition("1963").find("45")
    assert article is not None
    assert [c.address for c in article.children] == ["45(a)", "45(b)", "45(c)", "45(d)", "45(e)", "45.p1"]
    assert article.children[-1].text.startswith("Een eenmaal gespeelde kaart mag niet worden teruggenomen")


def test_1963_48_fn1_is_the_misprinted_note(corpus: Corpus) -> None:
    article = corpus.edition("1963").find("48")
    assert article is not None
    (note,) = article.footnotes
    assert note.address == "48.fn1"
    assert note.marker == "¹⁾"
    assert note.label == "!)"
    assert note.text == "De leider behoort fatsoenshalve na te laten zijn kaarten welbewust open te leggen."
    assert note.notes == ("note marker printed as '!)', read as 1)",)
    # the marker stood right after "art. 54 van toepassing." and is no longer in the text
    assert article.text[: note.anchor].endswith("dan is art. 54 van toepassing.")
    assert "¹⁾" not in article.text and "!)" not in article.text


def test_2007_45A_fn1_marker_is_taken_out_of_the_text(corpus: Corpus) -> None:
    section = corpus.edition("2007").find("45A")
    assert section is not None
    (note,) = section.footnotes
    assert (note.address, note.marker) == ("45A.fn1", "1)")
    assert section.text[: note.anchor].endswith("met de beeldzijde naar boven")
    assert "1)" not in section.text


def test_2017_45C4_b_is_the_second_inline_item(corpus: Corpus) -> None:
    _, clause = corpus.clause("2017:45C4(b)")
    assert clause is not None
    assert clause.text.startswith("De leider mag een onbedoeld aangeduide kaart van de blinde veranderen")
    assert clause.text.endswith("(zie artikel 47D en 16C1).")


@pytest.mark.parametrize(
    "spelled", ["2017:45c4(b)", "2017:45C4 (b)", "2017: 45C4(b)", "2017:45C4b", "2017:45c4b", "2017:45c4 b"]
)
def test_tolerant_spelling_finds_the_same_clause(corpus: Corpus, spelled: str) -> None:
    _, clause = corpus.clause(spelled)
    assert clause is not None and clause.address == "45C4(b)"


def test_the_anchor_form_of_1963_items_stays_an_item(corpus: Corpus) -> None:
    # "45d" is 1963's item 45(d) in the report's anchor form, not a section 45D.
    _, clause = corpus.clause("1963:45d")
    assert clause is not None and clause.address == "45(d)"


def test_every_address_in_the_corpus_is_unique_and_well_formed(corpus: Corpus) -> None:
    for e in corpus.editions:
        seen: set[str] = set()
        for c in e.walk():
            assert c.address not in seen, f"{e.name}:{c.address}"
            seen.add(c.address)
            assert normalize_address(c.address) == c.address
            assert "~" not in c.address, f"{e.name}:{c.address} is a duplicate label"
            if c.kind in (Kind.ARTICLE, Kind.SECTION, Kind.SUBSECTION, Kind.ITEM, Kind.SUBITEM):
                assert article_of(c.address), c.address
                assert "".join(address_parts(c.address)) == c.address


def test_every_child_address_extends_its_parents(corpus: Corpus) -> None:
    """Inside the articles, the parent of every clause's address is its parent clause's address."""
    for e in corpus.editions:
        for c in e.walk():
            for child in (*c.children, *c.footnotes):
                if article_of(child.address):
                    if child.kind is Kind.ARTICLE:
                        continue
                    assert parent_address(child.address) == c.address, child.address
                else:
                    assert parent_address(child.address) == c.address, child.address
