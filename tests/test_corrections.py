"""Hand corrections of the alignment: pins and forbidden pairs, handed to the aligner as data."""

from __future__ import annotations

from benchscripts import generator as _generator

from lawdiff.align import Aspect, Corrections, Forbid, Method, Pin, align
from lawdiff.corpus import Corpus, from_pages
from lawdiff.diff import compare
from lawdiff.sources import read_text


def text_links(alignment: object) -> set[tuple[tuple[str, ...], tuple[str, ...]]]:
    return {(link.old, link.new) for link in alignment.links if link.aspect is Aspect.TEXT}  # type: ignore[attr-defined]


def test_a_pin_replaces_what_the_aligner_would_link(corpus: Corpus) -> None:
    old, new = corpus.edition("2007"), corpus.edition("2017")
    assert (("45D",), ("45D1",)) in text_links(align(old, new))
    pinned = align(old, new, corrections=Corrections(pins=(Pin(("45D",), ("45D2",), "Anne"),)))
    links = {(link.old, link.new): link for link in pinned.links if link.aspect is Aspect.TEXT}
    assert (("45D",), ("45D2",)) in links
    link = links[(("45D",), ("45D2",))]
    assert link.methods == (Method.PINNED,) and link.pinned_by == "Anne"
    assert any("set by hand by Anne" in r for r in link.reasons)
    # The clause the pin freed stands alone now (nothing else fits it).
    assert ((), ("45D1",)) in links


def test_a_pin_of_one_to_several_is_a_split(corpus: Corpus) -> None:
    old, new = corpus.edition("2007"), corpus.edition("2017")
    comp = compare(old, new, corrections=Corrections(pins=(Pin(("45D",), ("45D1", "45D2"), "Bert"),)))
    ch = next(c for c in comp.changes if c.old == ("45D",) and c.aspect is Aspect.TEXT)
    assert ch.new == ("45D1", "45D2") and ch.kind.value == "split" and ch.pinned_by == "Bert"


def test_a_forbidden_pair_is_never_linked(corpus: Corpus) -> None:
    old, new = corpus.edition("2007"), corpus.edition("2017")
    forbidden = align(old, new, corrections=Corrections(forbids=(Forbid("45D", "45D1", "Carla"),)))
    assert not any("45D" in old and "45D1" in new for old, new in text_links(forbidden))
    # Everything else is aligned as before.
    before = {(o, n) for o, n in text_links(align(old, new)) if "45D" not in o and "45D1" not in n}
    after = {(o, n) for o, n in text_links(forbidden) if "45D" not in o and "45D1" not in n}
    assert before == after


def test_corrections_naming_clauses_that_are_gone_are_skipped(corpus: Corpus) -> None:
    old, new = corpus.edition("2007"), corpus.edition("2017")
    fixes = Corrections(pins=(Pin(("45Z",), ("45D1",)),), forbids=(Forbid("45Y", "45D1"),))
    assert text_links(align(old, new, corrections=fixes)) == text_links(align(old, new))


def test_a_heading_pin_pairs_two_headings(corpus: Corpus) -> None:
    old, new = corpus.edition("2007"), corpus.edition("2017")
    pinned = align(old, new, corrections=Corrections(pins=(Pin(("45E",), ("45F",), "Anne"),)))
    titles = {(link.old, link.new): link for link in pinned.links if link.aspect is Aspect.TITLE}
    assert titles[(("45E",), ("45F",))].pinned_by == "Anne"


def test_pinning_every_gold_link_of_an_article_gives_its_gold_alignment() -> None:
    """The committee corrects one article: that article comes out as the gold says, and links that
    involve neither the pinned clauses nor their former partners do not move."""
    gen = _generator()
    generated = gen.generate(articles=12, years=(2007, 2017), seed=4)
    pages = [p for e in generated.editions for name, text in e.pages for p in read_text(text, f"{e.name}/{name}")]
    corpus = from_pages(pages)
    old, new = corpus.edition("2007"), corpus.edition("2017")
    gold = generated.transitions[0].links

    before = text_links(align(old, new))
    checked = 0
    for number in ("3", "5", "8"):
        mine = [g for g in gold if any(_article(a) == number for a in g.old + g.new)]
        pins = tuple(Pin(g.old, g.new, "test") for g in mine if g.old and g.new)
        after = text_links(align(old, new, corrections=Corrections(pins=pins)))
        wanted = {(g.old, g.new) for g in mine}
        got = {link for link in after if any(_article(a) == number for a in link[0] + link[1])}
        assert got == wanted, number
        pinned = {a for p in pins for a in p.old + p.new}
        former = {a for link in before if pinned & set(link[0] + link[1]) for a in link[0] + link[1]}
        touched = pinned | former
        assert {link for link in before if not touched & set(link[0] + link[1])} == {
            link for link in after if not touched & set(link[0] + link[1])
        }, number
        checked += 1
    assert checked == 3


def _article(address: str) -> str:
    digits = ""
    for ch in address:
        if not ch.isdigit():
            break
        digits += ch
    return digits
