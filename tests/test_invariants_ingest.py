"""Invariants over the whole corpus (and the parser fixtures): nothing lost, nothing invented.

The lossless check of ``lawdiff check`` counts the words and signs of each
file's source fragments against the strings of the tree built from it.  These
tests run it on every corpus file, show that it can fail, and also recount
independently: from the raw file (not the reader's fragments) to the frozen
clause tree (not the builder's drafts).
"""

from __future__ import annotations

import hashlib
import json
import re
import time
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from lawdiff.corpus import Corpus, Unplaced, default_corpus, from_pages, load
from lawdiff.corpus import timeline as corpus_timeline
from lawdiff.corpus.account import account
from lawdiff.model import Clause, Kind
from lawdiff.report import jsonout
from lawdiff.sources import read_file, read_text
from lawdiff.sources.base import Block, BlockKind, Fragment, Loc, Page
from lawdiff.sources.build import PageTree, build_page
from lawdiff.sources.normalize import normalize_inline, normalize_lines
from lawdiff.sources.nuxt import devalue

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "corpus"
CORPUS_FILES = sorted(p for p in CORPUS.rglob("*") if p.is_file())
FIXTURE_FILES = sorted(
    p for p in (Path(__file__).parent / "fixtures" / "parse").rglob("*") if p.suffix in (".txt", ".json")
)

# The seeds, byte for byte (corpus/<year>/ must never be edited).
SEED_SHA256 = {
    "1963/wiki-Sjabloon-1963-HVI-JUISTE-GANG-VAN-ZAKEN.txt": (
        "d1e77cac2d2b12c5af90e7f7a32b26d12121d849325ac702a9e1a4998e422a95"
    ),
    "1997/wiki-Sjabloon-1997-HVI3I.txt": "122e871ac2968295b1f7b1018195050b663db5d730a49e3060b813669d4f001d",
    "2007/wiki-Sjabloon-2007-45.txt": "40978f5627dc7ca6ffc3889d1ccc6608d6fd3818951a26cac8f0afa308881188",
    "2017/nuxt-artikel-45.payload.json": "dcaf446f1cc112159375dc779126da097abb2d80da32d8b3f840ce188603284b",
    "2017/nuxt-artikel-6.payload.json": "96014cfccaa472dbaf971fe612abe035c1035483a9acfe2b2d066b77c9a715d2",
}


def rel(path: Path) -> str:
    return path.relative_to(CORPUS).as_posix()


def read_alone(path: Path) -> tuple[list[Page], Corpus]:
    pages = read_file(path, path.name, path.parent.name if path.parent.name.isdigit() else "")
    return pages, from_pages(pages)


# ---------------------------------------------------------------------------
# The corpus is the seeds


def test_the_corpus_holds_exactly_the_seeds() -> None:
    assert sorted(rel(p) for p in CORPUS_FILES) == sorted(SEED_SHA256)
    for path in CORPUS_FILES:
        assert hashlib.sha256(path.read_bytes()).hexdigest() == SEED_SHA256[rel(path)], rel(path)


def test_the_bundled_corpus_is_found_from_any_working_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    assert default_corpus().resolve() == CORPUS.resolve() or (default_corpus() / "2017").is_dir()
    assert [e.name for e in load().editions] == ["1963", "1997", "2007", "2017"]


# ---------------------------------------------------------------------------
# Lossless: every corpus file, 100% placed


@pytest.mark.parametrize("path", CORPUS_FILES, ids=[rel(p) for p in CORPUS_FILES])
def test_every_corpus_file_is_fully_placed(path: Path) -> None:
    _, corpus = read_alone(path)
    (check,) = corpus.checks
    assert check.unplaced == ()
    assert check.tokens > 100
    assert check.placed == check.tokens
    assert check.ratio == 1.0


def test_the_whole_corpus_is_fully_placed(corpus: Corpus) -> None:
    assert len(corpus.checks) == len(CORPUS_FILES)
    assert all(c.unplaced == () for c in corpus.checks)
    assert sum(c.placed for c in corpus.checks) == sum(c.tokens for c in corpus.checks)
    assert all(e.conflicts == () for e in corpus.editions)


# ---------------------------------------------------------------------------
# The independent recount: raw file -> frozen clauses


# The recount's words: a number fused to a word ("boven1", a footnote marker
# the reader takes out) is a word of its own, on both sides alike.
_RECOUNT_TOKEN = re.compile(r"[^\W\d]+|\d+|[^\w\s]")


def tokens(text: str) -> list[str]:
    return _RECOUNT_TOKEN.findall(normalize_inline(text))


def clause_strings(clause: Clause) -> list[str]:
    out: list[str] = []
    for c in clause.walk():
        out.extend([c.label, c.title, c.text, c.extra, c.marker])
    return out


def tree_tokens(corpus: Corpus) -> Counter[str]:
    return Counter(t for e in corpus.editions for c in e.clauses for s in clause_strings(c) for t in tokens(s))


def text_tokens(corpus: Corpus) -> Counter[str]:
    """The tokens of the law text proper (own texts), without labels or titles."""
    return Counter(t for e in corpus.editions for c in e.walk() for t in tokens(c.text))


def body_strings(node: Any) -> list[str]:
    """The text nodes of a minimark body, in order (tags and attributes are not text)."""
    if isinstance(node, str):
        return [node]
    if isinstance(node, list) and node and isinstance(node[0], str):
        return [s for child in node[2:] for s in body_strings(child)]
    if isinstance(node, list):
        return [s for child in node for s in body_strings(child)]
    return []


def raw_tokens(path: Path, pages: list[Page]) -> Counter[str]:
    """The file's words and signs, read without the reader, minus what the reader declares furniture."""
    text = path.read_text(encoding="utf-8")
    if text.lstrip().startswith("["):
        data = devalue.loads(text).value["data"]
        record = next(v for v in data.values() if isinstance(v, dict) and "body" in v)
        strings = body_strings(record["body"]["value"])
    else:
        strings = normalize_lines(text)[1:]  # the title line names the page
    raw = Counter(t for s in strings for t in tokens(s))
    furniture = Counter(t for p in pages for f in p.furniture if f.loc.line != 1 for t in tokens(f.text))
    return raw - furniture


def _lost_and_invented(path: Path) -> tuple[Counter[str], Counter[str]]:
    pages, corpus = read_alone(path)
    raw = raw_tokens(path, pages)
    return raw - tree_tokens(corpus), text_tokens(corpus) - raw


@pytest.mark.parametrize("path", CORPUS_FILES, ids=[rel(p) for p in CORPUS_FILES])
def test_the_frozen_tree_holds_every_word_of_the_raw_file(path: Path) -> None:
    lost, invented = _lost_and_invented(path)
    assert lost == Counter(), f"words of the file missing from the tree: {dict(lost)}"
    assert invented == Counter(), f"words in the tree's texts that the file does not have: {dict(invented)}"


@pytest.mark.parametrize(
    "path",
    FIXTURE_FILES,
    ids=[p.relative_to(p.parents[1]).as_posix() if p.parent.name.isdigit() else p.name for p in FIXTURE_FILES],
)
def test_fixture_files_are_fully_placed_too(path: Path) -> None:
    _, corpus = read_alone(path)
    assert all(c.unplaced == () for c in corpus.checks)
    lost, invented = _lost_and_invented(path)
    assert lost == Counter() and invented == Counter()


# ---------------------------------------------------------------------------
# The check can fail, and says where


def test_a_fragment_no_block_carries_is_reported_with_its_place() -> None:
    loc = Loc("2007/x.txt", 2)
    page = Page(
        file="2007/x.txt",
        format="wiki-text",
        edition="2007",
        name="45",
        loc=Loc("2007/x.txt", 1),
        scope="45",
        blocks=(Block(BlockKind.PARAGRAPH, loc, text="Elke speler speelt een kaart."),),
        fragments=(
            Fragment("Elke speler speelt een kaart.", loc),
            Fragment("De verloren zin, nergens geplaatst.", Loc("2007/x.txt", 3)),
        ),
    )
    check = account(build_page(page))
    assert check.unplaced == (Unplaced(Loc("2007/x.txt", 3), "De verloren zin , nergens geplaatst ."),)
    assert (check.placed, check.tokens) == (6, 13)
    assert check.ratio == pytest.approx(6 / 13)


def test_a_repeated_word_counts_as_often_as_it_is_printed() -> None:
    loc = Loc("f.txt", 2)
    page = Page(
        file="f.txt",
        format="wiki-text",
        edition="2007",
        name="45",
        loc=Loc("f.txt", 1),
        scope="45",
        blocks=(Block(BlockKind.PARAGRAPH, loc, text="kaart"),),
        fragments=(Fragment("kaart kaart", loc),),
    )
    (lost,) = account(build_page(page)).unplaced
    assert lost == Unplaced(loc, "kaart")


def test_a_builder_that_drops_a_clause_text_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    real = corpus_timeline.build_page

    def lossy(page: Page) -> PageTree:
        tree = real(page)
        # Lose the text of 45B, as a parser bug would.
        article = tree.roots[0]
        section_b = next(d for d in article.children if d.address == "45B")
        section_b.text = ""
        return tree

    monkeypatch.setattr(corpus_timeline, "build_page", lossy)
    _, corpus = read_alone(CORPUS / "2007" / "wiki-Sjabloon-2007-45.txt")
    (check,) = corpus.checks
    (lost,) = check.unplaced
    assert lost.loc == Loc("wiki-Sjabloon-2007-45.txt", 7)
    assert lost.text.startswith("De leider speelt een kaart uit de blinde")
    assert check.placed < check.tokens


def test_a_reader_that_drops_a_block_is_caught() -> None:
    pages, _ = read_alone(CORPUS / "1963" / "wiki-Sjabloon-1963-HVI-JUISTE-GANG-VAN-ZAKEN.txt")
    (page,) = pages
    dropped = replace(page, blocks=tuple(b for b in page.blocks if b.loc.line != 63))
    (check,) = from_pages([dropped]).checks
    assert [u.loc.line for u in check.unplaced] == [63]
    assert check.unplaced[0].text.startswith("d . indien een speler een kaart noemt")


# ---------------------------------------------------------------------------
# Shape of the trees


def test_clause_kinds_nest_as_the_model_says(corpus: Corpus) -> None:
    for e in corpus.editions:
        for c in e.walk():
            assert all(f.kind is Kind.FOOTNOTE for f in c.footnotes), c.address
            assert all(ch.kind is not Kind.FOOTNOTE for ch in c.children), c.address
            if c.kind is Kind.ARTICLE:
                assert all(
                    ch.kind not in (Kind.ARTICLE, Kind.CHAPTER, Kind.PART, Kind.PARAGRAAF)
                    for ch in c.walk()
                    if ch is not c
                )
            if c.kind is Kind.FOOTNOTE:
                assert c.children == () and c.footnotes == ()
                assert c.marker and c.anchor >= 0, c.address


def test_every_source_place_is_in_a_source_file_of_the_edition(corpus: Corpus) -> None:
    for e in corpus.editions:
        files = {s.file for s in e.sources}
        for c in e.walk():
            assert c.source.file in files, (e.name, c.address)
            path = CORPUS / c.source.file
            if c.source.line:
                assert 1 <= c.source.line <= len(path.read_text(encoding="utf-8").split("\n"))
            else:
                index = int(c.source.path.strip("$[]"))
                assert 0 <= index < len(json.loads(path.read_text(encoding="utf-8")))


def test_2017_page_metadata_and_navigation(corpus: Corpus) -> None:
    e = corpus.edition("2017")
    assert e.printings == ("3e druk",)
    chapter, part = e.find("H6"), e.find("H6.1")
    assert chapter is not None and part is not None
    assert (chapter.title, part.title) == ("Het spelen", "Juiste gang van zaken")
    assert [c.address for c in part.children] == ["45"]
    listed = [n.address for n in e.navigation if n.address.isdigit()]
    assert listed == [str(n) for n in range(1, 94)]
    assert {"voorwoord", "definities", "H2", "H6", "H6.1", "appendix-biddingbox", "wijzigingen-2024"} <= {
        n.address for n in e.navigation
    }


def test_reading_is_deterministic() -> None:
    first, second = load(), load()
    for a, b in zip(first.editions, second.editions, strict=True):
        assert jsonout.show(a, None) == jsonout.show(b, None)


# ---------------------------------------------------------------------------
# Odd and pathological pages: parsed as text, never a crash, nothing lost

ODD_PAGES = {
    "only-a-title": "Sjabloon:2007:45\n",
    "only-a-rule": "Sjabloon:2007:45\n---\n",
    "toc-list-first": "Sjabloon:1963:Inhoudsopgave 1963\n- Artikel 41. Het begin van het spelen.\n",
    "toc-note-first": "Sjabloon:1963:Inhoudsopgave 1963\n---\n1) Hij mag b.v. de leider waarschuwen.\n",
    "toc-labeled-first": "Sjabloon:1963:Inhoudsopgave 1963\nA. Spelen van een kaart\n(a) met de beeldzijde\n",
    "note-without-marker": "Sjabloon:2007:45\nARTIKEL 45 Gespeelde kaart\n---\n1) Een noot zonder teken.\n",
    "bang-without-marker": "Sjabloon:1963:HVI JUISTE GANG\nArtikel 48. Tonen.\n---\n!) De leider behoort.\n",
    "label-without-text": "Sjabloon:2007:45\nA.\n4.\n- (a)\n-\n(b)\n",
    "same-label-twice": "Sjabloon:2007:45\nA. Spelen\nEen.\nA. Spelen\nTwee.\n",
    "two-container-headings": "Sjabloon:1997:HVI3I\nPARAGRAAF I Een Art. 53 t/m 56\nPARAGRAAF I Een Art. 53 t/m 56\n",
    "article-in-article-page": "Sjabloon:2007:45\nARTIKEL 46 Onvolledige benaming\nTekst.\n",
    "crlf-and-tabs": "Sjabloon:2007:45\r\nARTIKEL 45\tGespeelde kaart\r\nA.\u00a0Spelen\r\n\tTekst.\r\n",
}


@pytest.mark.parametrize("name", sorted(ODD_PAGES))
def test_odd_pages_are_read_as_text(name: str) -> None:
    corpus = from_pages(read_text(ODD_PAGES[name], f"{name}.txt"))
    (check,) = corpus.checks
    assert check.unplaced == ()
    assert check.placed == check.tokens


def test_a_marker_without_its_note_is_reported_not_dropped() -> None:
    page = "\n".join(
        [
            "Sjabloon:2007:45",
            "ARTIKEL 45 Gespeelde kaart",
            "A. Spelen",
            "Elke speler speelt ¹⁾ een kaart ²⁾.",
            "---",
            "¹⁾ Noot een.",
        ]
    )
    (check,) = from_pages(read_text(page, "f.txt")).checks
    assert [(u.loc.line, u.text) for u in check.unplaced] == [(4, "² ⁾")]
    assert any("footnote marker 2 in 45A has no note" in note for _, note in check.notes)


def test_a_long_page_is_read_in_linear_time() -> None:
    lines = ["Sjabloon:2007:45", "ARTIKEL 45 Gespeelde kaart"]
    for letter in "ABCDEFGHIJ":
        lines.append(f"{letter}. Sectie {letter}")
        for n in range(1, 41):
            lines += [f"{n}. De leider moet een kaart spelen als ze", "- (a) zo wordt gehouden, of", "- (b) aanduidt."]
            lines += ["- Een door een tegenspeler bijgespeelde kaart (zie artikel 45E en 16D1).", "vervolg zonder punt"]
    started = time.process_time()
    corpus = from_pages(read_text("\n".join(lines), "long.txt"))
    elapsed = time.process_time() - started
    (check,) = corpus.checks
    assert check.unplaced == ()
    assert elapsed < 10.0


def test_a_text_two_editions_share_is_one_string_with_its_references_read_once() -> None:
    page = (CORPUS / "2007" / "wiki-Sjabloon-2007-45.txt").read_text(encoding="utf-8")
    later = page.replace("Sjabloon:2007:45", "Sjabloon:2017:45", 1).replace("Elke speler", "Iedere speler", 1)
    old, new = from_pages([*read_text(page, "2007/45.txt"), *read_text(later, "2017/45.txt")]).editions
    kept, changed = (old.find("45C1"), new.find("45C1")), (old.find("45A"), new.find("45A"))
    assert kept[0] is not None and kept[1] is not None and changed[0] is not None and changed[1] is not None
    assert kept[0].text is kept[1].text and kept[0].references is kept[1].references
    assert [r.target for r in kept[1].references] == ["45E"]  # (zie artikel 45E ...)
    assert changed[0].text != changed[1].text and changed[1].text.startswith("Iedere speler")
